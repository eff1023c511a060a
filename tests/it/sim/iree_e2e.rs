//! IREE's own end-to-end check suites (`tests/e2e/` of IREE's source) on the
//! simulated node: every suite IREE's CMake enables for the ROCm backend
//! and HIP driver, compiled by pip's `iree-compile` 3.13 with IREE's flags
//! for gfx942, gfx90a and gfx1100, each test file run in a process of its
//! own by `iree-check-module` (built by `scripts/iree-cts/build.sh`) on
//! mi300x-8, mi250x-4 and w7900 (`scripts/iree-e2e/run.py`, docs/IREE-E2E.md):
//!
//! - every test file passes, but those IREE does not run for the chip
//!   (`excluded`, `compiled-only`), those 3.13 cannot parse even after
//!   `scripts/iree-e2e/respell.py`'s respelling (`compile-unsupported`),
//!   and those `scripts/iree-e2e/expected.txt` lists with their outcome
//!   and reason;
//! - a listed test that now ends otherwise (passes, say) fails too, so the
//!   list only shrinks by being edited.
//!
//! The generated suites (IREE's matmul and attention runners, which compare
//! with a reference computed on the host) are a second test: the subset
//! `scripts/iree-e2e/generated-ci.txt` names, held to `expected.txt` the
//! same way; all of them (over half an hour here, large matmuls
//! interpreted instruction by instruction) run in the command that file and
//! docs/IREE-E2E.md give. The newest presets, r9700-4 (gfx1201) and
//! mi355x-8 (gfx950), run a third test: every check suite and the generated
//! suites `scripts/iree-e2e/new-presets-ci.txt` names, held to those chips'
//! lines of `expected.txt`. Needs IREE's build (`iree_build`); without it
//! each test prints one line and passes, unless `AMDGPU_HAL_REQUIRE_ALL=1`.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::sync::{Mutex, MutexGuard};

use super::iree_build::{built, library, results, root, run};

/// Outcomes that are IREE's or the compiler's, never the node's.
const NOT_OURS: &[&str] = &["excluded", "compiled-only", "compile-unsupported"];

/// The chips of run.py's default presets (mi300x-8, mi250x-4, w7900), on
/// which every suite runs.
const DEFAULT_CHIPS: &[&str] = &["gfx942", "gfx90a", "gfx1100"];

/// The newest presets, which run every check suite and the generated
/// suites of `new-presets-ci.txt`.
const NEW_PRESETS: &[(&str, &str)] = &[("r9700-4", "gfx1201"), ("mi355x-8", "gfx950")];

/// `target/iree-e2e` is shared (the module cache, the generated sources,
/// each module's run log and report, named by the module and not by the
/// test): one test at a time runs `run.py` in it.
static WORK: Mutex<()> = Mutex::new(());

/// The shared work folder, held until the guard drops.
fn work_folder() -> MutexGuard<'static, ()> {
    WORK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `(chip, suite, source) -> outcome` of `expected.txt`.
fn expected() -> BTreeMap<(String, String, String), String> {
    let text = std::fs::read_to_string(root().join("scripts/iree-e2e/expected.txt")).unwrap();
    text.lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(fields.len(), 4, "expected.txt line {l:?}");
            let key = (fields[0].into(), fields[1].into(), fields[2].into());
            (key, fields[3].to_string())
        })
        .collect()
}

/// Checks `document`'s tests against `expected`: each listed one must end
/// as listed, every other one pass or end in an outcome that is not ours.
/// Returns what does not hold, and the chips seen.
fn judge(
    document: &serde_json::Value,
    expected: &mut BTreeMap<(String, String, String), String>,
) -> (Vec<String>, BTreeSet<String>) {
    let tests = document["tests"].as_array().expect("tests");
    let mut unexpected = Vec::new();
    let mut chips = BTreeSet::new();
    for test in tests {
        let field = |name: &str| test[name].as_str().unwrap_or_default().to_string();
        let (chip, outcome) = (field("chip"), field("outcome"));
        chips.insert(chip.clone());
        let key = (chip, field("suite"), field("source"));
        match expected.remove(&key) {
            Some(listed) if listed == outcome => {}
            Some(listed) => unexpected.push(format!("{key:?}: {outcome}, listed as {listed}")),
            None if outcome == "passed" || NOT_OURS.contains(&outcome.as_str()) => {}
            None => unexpected.push(format!("{key:?}: {outcome} {}", test["cause"])),
        }
    }
    (unexpected, chips)
}

/// The `--suite` patterns of a list file of `scripts/iree-e2e/`.
fn patterns(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join("scripts/iree-e2e").join(file)).unwrap();
    text.lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// `scripts/iree-e2e/run.py` on the library, with IREE's build in `work`,
/// the modules cached in `target/iree-e2e`, results to `json`, and no
/// fault injection or fault policy inherited from the caller.
fn e2e_command(work: &Path, json: &Path) -> Command {
    let mut command = Command::new("python3");
    command
        .arg(root().join("scripts/iree-e2e/run.py"))
        .arg(library())
        .args(["--tools", &work.display().to_string()])
        .args(["--iree-src", &work.join("src").display().to_string()])
        .args([
            "--work",
            &root().join("target/iree-e2e").display().to_string(),
        ])
        .args(["--json", &json.display().to_string()])
        .env_remove("AMDGPU_SIM_FAULTS")
        .env_remove("AMDGPU_SIM_ON_FAULT");
    command
}

/// The generated suites' subset (`generated-ci.txt`) on the three presets:
/// every test passes but IREE's exclusions, syntax newer than 3.13, and
/// the `(generated)` lines of `expected.txt`, each of which must hold.
/// Its compiles share the check suites' cache (`target/iree-e2e/modules`).
#[test]
fn iree_generated_e2e_subset_passes_but_for_the_listed_tests() {
    let Some(work) = built("IREE's generated e2e suites (subset) on the simulated node") else {
        return;
    };
    let json = work.join("results-generated-ci.json");
    let subset = patterns("generated-ci.txt");
    let mut command = e2e_command(&work, &json);
    command.arg("--generated");
    for pattern in &subset {
        command.args(["--suite", pattern]);
    }
    let out = {
        let _work = work_folder();
        run(&mut command, "scripts/iree-e2e/run.py --generated")
    };
    let _ = std::io::stderr().lock().write_all(out.as_bytes());
    let document = results(&json);
    // Only the generated lines are this test's, and of those only the
    // tests the subset ran (the others document the full command's run).
    let ran: BTreeSet<(String, String, String)> = document["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .map(|t| {
            let field = |name: &str| t[name].as_str().unwrap_or_default().to_string();
            (field("chip"), field("suite"), field("source"))
        })
        .collect();
    let mut expected: BTreeMap<_, _> = expected()
        .into_iter()
        .filter(|((chip, suite, _), _)| {
            suite.ends_with("/(generated)") && DEFAULT_CHIPS.contains(&chip.as_str())
        })
        .filter(|(key, _)| ran.contains(key))
        .collect();
    let (unexpected, chips) = judge(&document, &mut expected);
    assert_eq!(chips.len(), 3, "{chips:?}");
    assert!(ran.len() >= subset.len(), "only {} tests ran", ran.len());
    assert!(
        unexpected.is_empty() && expected.is_empty(),
        "not as scripts/iree-e2e/expected.txt says:\n{}\nlisted but not run: {:?}\n{out}",
        unexpected.join("\n"),
        expected.keys().collect::<Vec<_>>()
    );
}

#[test]
fn iree_e2e_suites_pass_but_for_the_listed_tests() {
    let Some(work) = built("IREE's e2e check suites on the simulated node") else {
        return;
    };
    let json = work.join("results-e2e.json");
    let out = {
        let _work = work_folder();
        run(&mut e2e_command(&work, &json), "scripts/iree-e2e/run.py")
    };
    let _ = std::io::stderr().lock().write_all(out.as_bytes());
    let document = results(&json);
    let tests = document["tests"].as_array().expect("tests");
    // The generated suites' lines are the other test's, the new presets'
    // the subset's.
    let mut expected: BTreeMap<_, _> = expected()
        .into_iter()
        .filter(|((chip, suite, _), _)| {
            !suite.ends_with("/(generated)") && DEFAULT_CHIPS.contains(&chip.as_str())
        })
        .collect();
    let (unexpected, chips) = judge(&document, &mut expected);
    assert_eq!(chips.len(), 3, "{chips:?}");
    assert!(tests.len() >= 600, "only {} test files", tests.len());
    assert!(
        unexpected.is_empty() && expected.is_empty(),
        "not as scripts/iree-e2e/expected.txt says:\n{}\nlisted but not run: {:?}\n{out}",
        unexpected.join("\n"),
        expected.keys().collect::<Vec<_>>()
    );
}

/// The newest presets (r9700-4 = gfx1201, mi355x-8 = gfx950): every check
/// suite, as the default presets' test runs them, and the generated suites
/// `new-presets-ci.txt` names. Every test passes but IREE's exclusions,
/// syntax newer than 3.13, and the lines of `expected.txt` for those chips
/// and the tests run, each of which must hold. The other generated suites
/// on these presets run in the command docs/IREE-E2E.md gives.
#[test]
fn iree_e2e_suites_on_the_new_presets_pass_but_for_the_listed_tests() {
    let Some(work) = built("IREE's e2e suites on r9700-4 and mi355x-8") else {
        return;
    };
    let presets = |command: &mut Command| {
        for (machine, chip) in NEW_PRESETS {
            command.args(["--preset", &format!("{machine}={chip}")]);
        }
    };
    // The check suites, all of them.
    let check_json = work.join("results-e2e-new-presets.json");
    let mut command = e2e_command(&work, &check_json);
    presets(&mut command);
    let work_guard = work_folder();
    let check_out = run(
        &mut command,
        "scripts/iree-e2e/run.py --preset r9700-4 --preset mi355x-8",
    );
    // The generated suites' subset.
    let generated_json = work.join("results-generated-new-presets.json");
    let subset = patterns("new-presets-ci.txt");
    let mut command = e2e_command(&work, &generated_json);
    command.arg("--generated");
    presets(&mut command);
    for pattern in &subset {
        command.args(["--suite", pattern]);
    }
    let generated_out = run(
        &mut command,
        "scripts/iree-e2e/run.py --generated --preset r9700-4 --preset mi355x-8",
    );
    drop(work_guard);
    let out = format!("{check_out}{generated_out}");
    let _ = std::io::stderr().lock().write_all(out.as_bytes());
    let documents = [results(&check_json), results(&generated_json)];
    let ran: BTreeSet<(String, String, String)> = documents
        .iter()
        .flat_map(|document| document["tests"].as_array().expect("tests").iter())
        .map(|t| {
            let field = |name: &str| t[name].as_str().unwrap_or_default().to_string();
            (field("chip"), field("suite"), field("source"))
        })
        .collect();
    let new_chips: BTreeSet<String> = NEW_PRESETS.iter().map(|(_, c)| c.to_string()).collect();
    // The chips' lines, of the generated suites only those the subset ran
    // (the others document the full command's run).
    let mut expected: BTreeMap<_, _> = expected()
        .into_iter()
        .filter(|((chip, suite, _), _)| {
            new_chips.contains(chip.as_str()) && !suite.ends_with("/(generated)")
        })
        .collect();
    expected.extend(expected_generated_ran(&ran, &new_chips));
    let mut unexpected = Vec::new();
    for document in &documents {
        let (wrong, chips) = judge(document, &mut expected);
        assert_eq!(chips, new_chips);
        unexpected.extend(wrong);
    }
    let generated = ran
        .iter()
        .filter(|(_, suite, _)| suite.ends_with("/(generated)"));
    assert!(
        generated.count() >= subset.len(),
        "only {} tests ran",
        ran.len()
    );
    assert!(ran.len() >= 450, "only {} test files", ran.len());
    assert!(
        unexpected.is_empty() && expected.is_empty(),
        "not as scripts/iree-e2e/expected.txt says:\n{}\nlisted but not run: {:?}\n{out}",
        unexpected.join("\n"),
        expected.keys().collect::<Vec<_>>()
    );
}

/// `expected.txt`'s lines of the generated suites on `chips` that ran.
fn expected_generated_ran(
    ran: &BTreeSet<(String, String, String)>,
    chips: &BTreeSet<String>,
) -> BTreeMap<(String, String, String), String> {
    expected()
        .into_iter()
        .filter(|(key, _)| {
            chips.contains(key.0.as_str()) && key.1.ends_with("/(generated)") && ran.contains(key)
        })
        .collect()
}

/// IREE's check suites and the generated subset (`generated-ci.txt`) on
/// the three presets read back the same bits on 1 and 4 kernel threads:
/// `scripts/iree-e2e/threads-identical.py` runs them at each count and
/// compares every test file's outcome, kernel launches and the report's
/// digest of every byte copied back to the host (the check modules compare
/// with tolerances, so passing alone would not show it). Its compiles share
/// the other tests' cache.
#[test]
fn iree_e2e_suites_read_back_the_same_bits_on_1_and_4_threads() {
    let Some(work) = built("IREE's e2e suites on 1 and 4 kernel threads") else {
        return;
    };
    let mut command = Command::new("python3");
    command
        .arg(root().join("scripts/iree-e2e/threads-identical.py"))
        .arg(library())
        .args(["--threads", "1", "--threads", "4"])
        .args(["--tools", &work.display().to_string()])
        .args(["--iree-src", &work.join("src").display().to_string()])
        .args([
            "--work",
            &root().join("target/iree-e2e").display().to_string(),
        ])
        .args(["--generated", "--suite", "*/check_*"]);
    for pattern in patterns("generated-ci.txt") {
        command.args(["--suite", &pattern]);
    }
    let out = {
        let _work = work_folder();
        run(&mut command, "scripts/iree-e2e/threads-identical.py")
    };
    let summary = out.lines().last().unwrap_or_default();
    assert!(summary.ends_with(", 0 differ"), "{out}");
    let files: usize = summary
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_default();
    assert!(files >= 600, "only {files} test files ran:\n{out}");
}

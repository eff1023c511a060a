//! IREE's own AMDGPU driver on the simulated node: its HAL CTS (IREE's own
//! list: HAL events unsupported) and every test of the driver that opens HSA
//! (`system_test`, `allocator_test`, the host-queue tests, `util/vmem_test`,
//! `util/kfd_test`, ...), built from IREE's source by
//! `scripts/iree-cts/build.sh` and run by `scripts/iree-cts/run_amdgpu.py`
//! with the C library as `libhsa-runtime64.so.1` and the `/dev/kfd`
//! stand-in preloaded, on mi300x-8 (gfx942 testdata), mi250x-4 (gfx90a) and
//! w7900 (gfx1100):
//!
//! - no test hangs or crashes;
//! - the tests that do not pass are exactly those of
//!   `scripts/iree-cts/expected-amdgpu.txt` for that preset, each with its
//!   reason (docs/IREE-CTS.md gives IREE's message and source line).
//!
//! Needs IREE's build (`iree_build`); without it the test prints one line and
//! passes, unless `AMDGPU_HAL_REQUIRE_ALL=1`.

use std::collections::BTreeSet;
use std::io::Write;
use std::process::Command;

use super::iree_build::{built, hsa_library_dir, results, root, run};

const WHAT: &str = "IREE's AMDGPU driver tests on the simulated node";
/// The presets and the chip of the testdata each one runs.
const PRESETS: &[(&str, &str)] = &[
    ("mi300x-8", "gfx942"),
    ("mi250x-4", "gfx90a"),
    ("w7900", "gfx1100"),
];
/// Seconds a test may print nothing before it counts as hung (as for the
/// HIP CTS: far above any test's run time on a loaded two-core machine).
const HANG_AFTER_SECS: &str = "120";
/// Fewest tests a run of each suite must report (IREE's CTS has 202, the
/// driver's own tests well over 100): a build that lost binaries fails.
const MIN_TESTS: &[(&str, usize)] = &[("cts", 200), ("device", 150)];

/// `(class, preset, test)` lines of `expected-amdgpu.txt`; preset `all`
/// stands for every preset.
fn expected() -> Vec<(String, String, String)> {
    let path = root().join("scripts/iree-cts/expected-amdgpu.txt");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(fields.len(), 3, "expected-amdgpu.txt line {l:?}");
            (fields[0].into(), fields[1].into(), fields[2].into())
        })
        .collect()
}

#[test]
fn iree_amdgpu_tests_pass_but_for_the_listed_ones() {
    let Some(work) = built(WHAT) else {
        return;
    };
    let out = work.join("results-amdgpu-test");
    let mut command = Command::new("python3");
    command
        .arg(root().join("scripts/iree-cts/run_amdgpu.py"))
        .arg(hsa_library_dir())
        .args(["--bin", &work.join("bin-amdgpu").display().to_string()])
        .args(["--out", &out.display().to_string()])
        .args(["--hang-after", HANG_AFTER_SECS]);
    for (machine, chip) in PRESETS {
        command.args(["--preset", &format!("{machine}={chip}")]);
    }
    let table = run(&mut command, "scripts/iree-cts/run_amdgpu.py");
    let _ = std::io::stderr().lock().write_all(table.as_bytes());

    let expected = expected();
    let document = results(&out.join("results.json"));
    let runs = document["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), PRESETS.len() * 2, "a run per preset and suite");
    let mut problems = Vec::new();
    for run in runs {
        let (preset, suite) = (
            run["preset"].as_str().unwrap(),
            run["suite"].as_str().unwrap(),
        );
        let label = format!("{preset} {suite}");
        let tests = run["tests"].as_object().expect("tests");
        let least = MIN_TESTS.iter().find(|(s, _)| *s == suite).unwrap().1;
        assert!(
            tests.len() >= least,
            "{label}: only {} tests ran",
            tests.len()
        );
        let allowed: BTreeSet<String> = expected
            .iter()
            .filter(|(_, p, t)| (p == preset || p == "all") && t.starts_with(&format!("{suite}:")))
            .map(|(_, _, t)| t[suite.len() + 1..].to_string())
            .collect();
        let mut not_passing = BTreeSet::new();
        for (test, result) in tests {
            match result["outcome"].as_str().unwrap() {
                "passed" | "skipped" => {}
                "failed" => {
                    not_passing.insert(test.clone());
                }
                outcome => {
                    problems.push(format!("{label}: {test} {outcome}: {}", result["message"]))
                }
            }
        }
        for test in not_passing.difference(&allowed) {
            let message = tests[test]["message"].as_str().unwrap_or("");
            problems.push(format!(
                "{label}: {test} failed, not in expected-amdgpu.txt:\n{message}"
            ));
        }
        for test in allowed.difference(&not_passing) {
            let outcome = tests
                .get(test)
                .map_or("did not run", |r| r["outcome"].as_str().unwrap());
            problems.push(format!(
                "{label}: {test} is in expected-amdgpu.txt but {outcome} (remove it there)"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_expectations_name_known_classes_and_presets() {
    let docs = std::fs::read_to_string(root().join("docs/IREE-CTS.md")).unwrap();
    let expected = expected();
    let presets: Vec<&str> = PRESETS.iter().map(|(p, _)| *p).collect();
    for (class, preset, test) in &expected {
        assert!(
            docs.contains(&format!("`{class}`")),
            "docs/IREE-CTS.md does not explain {class}"
        );
        assert!(
            preset == "all" || presets.contains(&preset.as_str()),
            "{preset} ({test})"
        );
        assert!(
            test.starts_with("cts:") || test.starts_with("device:"),
            "{test}"
        );
    }
    let unique: BTreeSet<_> = expected.iter().map(|(_, p, t)| (p, t)).collect();
    assert_eq!(unique.len(), expected.len(), "a test listed twice");
}

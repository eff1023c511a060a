//! IREE's own HAL conformance tests (CTS) for its HIP driver, built from
//! IREE's source by `scripts/iree-cts/build.sh` and run by
//! `scripts/iree-cts/run.py` against the C library, on mi300x-8 (gfx942
//! testdata), mi250x-4 (gfx90a), w7900 (gfx1100), r9700-4 (gfx1201) and
//! mi355x-8 (gfx950), in stream and graph mode, with IREE's lists as
//! shipped and with them emptied (every test in a process of its own):
//!
//! - no test hangs or crashes;
//! - every preset gives the same table: the same outcome (passed, failed,
//!   skipped) for every test of every run;
//! - with the lists emptied, the tests that do not pass are exactly those
//!   of `scripts/iree-cts/expected.txt` (features IREE's HIP driver
//!   refuses, and IREE's own expected failures), on every preset;
//! - with IREE's lists, every test that runs passes, the dispatch tests
//!   included: their kernels execute on the node's ISA interpreter.
//!
//! Needs IREE's build (`iree_build`); without it the test prints one line and
//! passes, unless `AMDGPU_HAL_REQUIRE_ALL=1`.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use std::process::Command;

use super::iree_build::{built, library, root, run};

/// The presets and the chip of the testdata each one runs.
const PRESETS: &[(&str, &str)] = &[
    ("mi300x-8", "gfx942"),
    ("mi250x-4", "gfx90a"),
    ("w7900", "gfx1100"),
    ("r9700-4", "gfx1201"),
    ("mi355x-8", "gfx950"),
];
/// Seconds a test may print nothing before it counts as hung: far above
/// any test's run time, so that only a real hang reaches it on a loaded
/// two-core machine.
const HANG_AFTER_SECS: &str = "120";

/// `(class, mode, test)` lines of `expected.txt`.
fn expected() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(root().join("scripts/iree-cts/expected.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(fields.len(), 3, "expected.txt line {l:?}");
            (fields[0].into(), fields[1].into(), fields[2].into())
        })
        .collect()
}

/// The tests `expected` says do not pass in `mode`.
fn expected_in(expected: &[(String, String, String)], mode: &str) -> BTreeSet<String> {
    expected
        .iter()
        .filter(|(_, m, _)| m == mode || m == "both")
        .map(|(_, _, t)| t.clone())
        .collect()
}

#[test]
fn iree_cts_passes_but_for_the_listed_tests() {
    let Some(work) = built("IREE's HIP CTS on the simulated node") else {
        return;
    };
    let out = work.join("results-test");
    let mut command = Command::new("python3");
    command
        .arg(root().join("scripts/iree-cts/run.py"))
        .arg(library())
        .args(["--bin", &work.join("bin").display().to_string()])
        .args(["--out", &out.display().to_string()])
        .args(["--hang-after", HANG_AFTER_SECS]);
    for (machine, chip) in PRESETS {
        command.args(["--preset", &format!("{machine}={chip}")]);
    }
    let table = run(&mut command, "scripts/iree-cts/run.py");
    // The table shows in a passing run too (the harness captures eprintln!).
    let _ = std::io::stderr().lock().write_all(table.as_bytes());
    check(&out.join("results.json"), &expected());
}

/// Test name to outcome of one run of `results.json`.
type Outcomes = BTreeMap<String, String>;

/// What differs between the first preset's run of each lists and mode and
/// every other preset's: every test whose outcome differs or that ran on
/// one preset only, or none.
fn differences_between_presets(runs: &[(String, String, String, Outcomes)]) -> Vec<String> {
    let mut first: BTreeMap<(&str, &str), (&str, &Outcomes)> = BTreeMap::new();
    let mut problems = Vec::new();
    for (preset, lists, mode, outcomes) in runs {
        let Some((reference, theirs)) = first.get(&(lists.as_str(), mode.as_str())) else {
            first.insert((lists, mode), (preset, outcomes));
            continue;
        };
        let tests: BTreeSet<&String> = theirs.keys().chain(outcomes.keys()).collect();
        for test in tests {
            let (a, b) = (theirs.get(test), outcomes.get(test));
            if a != b {
                let show = |o: Option<&String>| o.map_or("did not run", |o| o.as_str()).to_owned();
                problems.push(format!(
                    "{lists} {mode}: {test} {} on {reference} but {} on {preset}",
                    show(a),
                    show(b)
                ));
            }
        }
    }
    problems
}

/// Every run of `results.json` against the expectations.
fn check(results: &Path, expected: &[(String, String, String)]) {
    let document: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(results).unwrap()).unwrap();
    let mut problems = Vec::new();
    let runs = document["runs"].as_array().expect("runs");
    assert_eq!(
        runs.len(),
        PRESETS.len() * 4,
        "a run per preset, list and mode"
    );
    let mut tables = Vec::new();
    for run in runs {
        let (preset, lists, mode) = (
            run["preset"].as_str().unwrap(),
            run["lists"].as_str().unwrap(),
            run["mode"].as_str().unwrap(),
        );
        let label = format!("{preset} {lists} {mode}");
        let tests = run["tests"].as_object().expect("tests");
        assert!(tests.len() > 150, "{label}: only {} tests ran", tests.len());
        let outcomes: Outcomes = tests
            .iter()
            .map(|(test, result)| (test.clone(), result["outcome"].as_str().unwrap().into()))
            .collect();
        tables.push((preset.into(), lists.into(), mode.into(), outcomes));
        let mut not_passing = BTreeSet::new();
        for (test, result) in tests {
            let outcome = result["outcome"].as_str().unwrap();
            match outcome {
                "passed" | "skipped" => {}
                "failed" => {
                    not_passing.insert(test.clone());
                }
                _ => problems.push(format!("{label}: {test} {outcome}: {}", result["message"])),
            }
        }
        let (allowed, exact) = match lists {
            "all" => (expected_in(expected, mode), true),
            _ => (BTreeSet::new(), false),
        };
        for test in not_passing.difference(&allowed) {
            let message = tests[test]["message"].as_str().unwrap_or("");
            problems.push(format!(
                "{label}: {test} failed, not in expected.txt:\n{message}"
            ));
        }
        if exact {
            for test in allowed.difference(&not_passing) {
                problems.push(format!(
                    "{label}: {test} is in expected.txt but {} (remove it there)",
                    tests
                        .get(test)
                        .map_or("did not run", |r| r["outcome"].as_str().unwrap())
                ));
            }
        }
    }
    problems.extend(differences_between_presets(&tables));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The comparison of presets, on tables made up for it: the same outcomes
/// agree; a test that fails on one preset only, or runs on one only, does
/// not; a run of other lists or mode is compared with its own kind.
#[test]
fn presets_are_compared_test_for_test() {
    let table = |preset: &str, mode: &str, outcomes: &[(&str, &str)]| {
        let outcomes = outcomes
            .iter()
            .map(|(t, o)| (t.to_string(), o.to_string()))
            .collect();
        (
            preset.to_owned(),
            "all".to_owned(),
            mode.to_owned(),
            outcomes,
        )
    };
    let same = [("a:T.One", "passed"), ("a:T.Two", "skipped")];
    let agree = [
        table("mi300x-8", "stream", &same),
        table("mi300x-8", "graph", &[("a:T.One", "failed")]),
        table("r9700-4", "stream", &same),
        table("r9700-4", "graph", &[("a:T.One", "failed")]),
    ];
    assert_eq!(differences_between_presets(&agree), Vec::<String>::new());
    let differ = [
        table("mi300x-8", "stream", &same),
        table(
            "mi355x-8",
            "stream",
            &[("a:T.One", "failed"), ("a:T.Three", "passed")],
        ),
    ];
    assert_eq!(
        differences_between_presets(&differ),
        [
            "all stream: a:T.One passed on mi300x-8 but failed on mi355x-8",
            "all stream: a:T.Three did not run on mi300x-8 but passed on mi355x-8",
            "all stream: a:T.Two skipped on mi300x-8 but did not run on mi355x-8",
        ]
    );
}

#[test]
fn the_expectations_name_known_classes_and_modes() {
    const CLASSES: &[&str] = &[
        "iree-hal-events",
        "iree-indirect-parameters",
        "iree-queue-pool-backend",
        "iree-dealloca-decommit",
        "iree-dealloca-failed-wait",
        "iree-graph-uncommitted-transient",
    ];
    let expected = expected();
    assert!(!expected.is_empty());
    let docs = std::fs::read_to_string(root().join("docs/IREE-CTS.md")).unwrap();
    for (class, mode, test) in &expected {
        assert!(CLASSES.contains(&class.as_str()), "{class} ({test})");
        assert!(
            ["stream", "graph", "both"].contains(&mode.as_str()),
            "{mode} ({test})"
        );
        assert!(test.contains(":CTS/"), "{test}");
        assert!(
            docs.contains(&format!("`{class}`")),
            "docs/IREE-CTS.md does not explain {class}"
        );
    }
    let unique: BTreeSet<_> = expected.iter().map(|(_, _, t)| t).collect();
    assert_eq!(unique.len(), expected.len(), "a test listed twice");
}

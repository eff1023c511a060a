//! IREE's own HAL conformance tests (CTS) for its HIP driver, built from
//! IREE's source by `scripts/iree-cts/build.sh` and run by
//! `scripts/iree-cts/run.py` against the C library, on mi300x-8 (gfx942
//! testdata), mi250x-4 (gfx90a) and w7900 (gfx1100), in stream and graph
//! mode, with IREE's lists as shipped and with them emptied (every test in
//! a process of its own):
//!
//! - no test hangs or crashes;
//! - with the lists emptied, the tests that do not pass are exactly those
//!   of `scripts/iree-cts/expected.txt` (features IREE's HIP driver
//!   refuses, and IREE's own expected failures), on every preset;
//! - with IREE's lists, every test that runs passes, the dispatch tests
//!   included: their kernels execute on the node's ISA interpreter.
//!
//! Needs IREE's build (`iree_build`); without it the test prints one line and
//! passes, unless `AMDGPU_HAL_REQUIRE_ALL=1`.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::process::Command;

use super::iree_build::{built, library, root, run};

/// The presets and the chip of the testdata each one runs.
const PRESETS: &[(&str, &str)] = &[
    ("mi300x-8", "gfx942"),
    ("mi250x-4", "gfx90a"),
    ("w7900", "gfx1100"),
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
    for run in runs {
        let (preset, lists, mode) = (
            run["preset"].as_str().unwrap(),
            run["lists"].as_str().unwrap(),
            run["mode"].as_str().unwrap(),
        );
        let label = format!("{preset} {lists} {mode}");
        let tests = run["tests"].as_object().expect("tests");
        assert!(tests.len() > 150, "{label}: only {} tests ran", tests.len());
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
    assert!(problems.is_empty(), "{}", problems.join("\n"));
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

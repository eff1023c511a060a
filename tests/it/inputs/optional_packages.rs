//! `scripts/optional-packages.sh` (run by CI) hides each optional package
//! alone and runs the suites that use one: its suite list must hold every
//! suite that asks for a package, and `scripts/without-packages.sh --list`
//! every package a skip line can name.

use std::collections::BTreeSet;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The words of the bash array `name=(…)` in `script`.
fn bash_array(script: &str, name: &str) -> BTreeSet<String> {
    let start = script
        .find(&format!("\n{name}=("))
        .unwrap_or_else(|| panic!("no {name}=( in the script"));
    let body = &script[start + name.len() + 3..];
    let body = &body[..body.find(')').unwrap()];
    body.split_whitespace().map(str::to_owned).collect()
}

/// Every suite of tests/it (`AREA::SUITE`, from `tests/it/AREA/SUITE.rs`
/// of an area with a `mod.rs`; the helper folders hold no suites) with its
/// source.
fn suites() -> Vec<(String, String)> {
    let helpers = ["support", "exec_support", "sweep", "real_support"];
    let mut suites = Vec::new();
    for area in std::fs::read_dir(root().join("tests/it")).unwrap() {
        let area = area.unwrap().path();
        let Some(name) = area.file_name().and_then(|s| s.to_str()) else {
            continue;
        };
        if !area.join("mod.rs").is_file() || helpers.contains(&name) {
            continue;
        }
        for entry in std::fs::read_dir(&area).unwrap() {
            let path = entry.unwrap().path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            if path.extension().is_some_and(|e| e == "rs") && stem != "mod" {
                let text = std::fs::read_to_string(&path).unwrap();
                suites.push((format!("{name}::{stem}"), text));
            }
        }
    }
    suites
}

/// Modules of a suite folder that hold no tests, only the skip helpers of
/// the suites that use them (`sim::iree_build`: IREE's build, `built()`).
const HELPER_MODULES: &[&str] = &["sim::iree_build"];

/// Suites of tests/it that ask for a package (the skip helpers, directly or
/// through another suite's).
fn suites_asking_for_packages() -> BTreeSet<String> {
    let markers = [
        "requires(",
        "requires::",
        "real_support::",
        "sim::iree_client::{iree",
        "sim::iree_client::iree",
        "iree_build::{built",
    ];
    suites()
        .into_iter()
        .filter(|(suite, text)| {
            suite != "inputs::optional_packages"
                && !HELPER_MODULES.contains(&suite.as_str())
                && markers.iter().any(|m| text.contains(m))
        })
        .map(|(suite, _)| suite)
        .collect()
}

/// The suites `heavy_for` in `script` names (`AREA::SUITE`, a test path
/// cut to its suite).
fn heavy_suites(script: &str) -> BTreeSet<String> {
    let start = script
        .find("\nheavy_for() {")
        .expect("no heavy_for() in the script");
    let body = &script[start..];
    let body = &body[..body.find("\n}").expect("heavy_for() has no end")];
    body.split_whitespace()
        .filter(|word| word.contains("::"))
        .map(|word| word.split("::").take(2).collect::<Vec<_>>().join("::"))
        .collect()
}

#[test]
fn every_suite_that_asks_for_a_package_runs_without_each_one() {
    let script = std::fs::read_to_string(root().join("scripts/optional-packages.sh")).unwrap();
    let mut listed: BTreeSet<String> = bash_array(&script, "quick")
        .into_iter()
        .map(|suite| suite.trim_end_matches("::").to_owned())
        .collect();
    let heavy = heavy_suites(&script);
    for suite in [
        "sim::iree_client",
        "sim::iree_cts",
        "cli::readme_walkthrough",
    ] {
        assert!(heavy.contains(suite), "heavy_for() lost {suite}: {heavy:?}");
    }
    listed.extend(heavy);
    // Suites that only build on others' helpers without asking themselves.
    let asking = suites_asking_for_packages();
    let missing: Vec<_> = asking.difference(&listed).collect();
    assert!(
        missing.is_empty(),
        "not in scripts/optional-packages.sh: {missing:?}"
    );
}

#[test]
fn every_package_a_test_names_can_be_hidden() {
    let script = std::fs::read_to_string(root().join("scripts/without-packages.sh")).unwrap();
    let hideable = bash_array(&script, "optional");
    let mut named = BTreeSet::new();
    let helpers = [
        "support/requires.rs",
        "real_support/mod.rs",
        "exec_support/mod.rs",
    ];
    let texts = suites().into_iter().map(|(_, text)| text).chain(
        helpers
            .iter()
            .map(|path| std::fs::read_to_string(root().join("tests/it").join(path)).unwrap()),
    );
    for text in texts {
        for (prefix, kind) in [("Package::Debian(\"", ""), ("Package::Pip(\"", "pip:")] {
            for rest in text.split(prefix).skip(1) {
                let name = rest.split(['"', '=', ':']).next().unwrap();
                named.insert(format!("{kind}{name}"));
            }
        }
    }
    // The C compiler and Python are base tools (the real backend's fakes
    // are built with the one, the project's scripts run on the other); the
    // last is the skip rule's own test.
    for base in ["gcc", "python3", "amdgpu-hal-no-such-package"] {
        named.remove(base);
    }
    let missing: Vec<_> = named.difference(&hideable).collect();
    assert!(
        missing.is_empty(),
        "scripts/without-packages.sh cannot hide {missing:?}"
    );
}

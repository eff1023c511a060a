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

/// Suites of tests/it that ask for a package (the skip helpers, directly or
/// through another suite's).
fn suites_asking_for_packages() -> BTreeSet<String> {
    let markers = [
        "requires(",
        "requires::",
        "real_support::",
        "iree_client::{iree",
        "iree_client::iree",
    ];
    let mut suites = BTreeSet::new();
    for entry in std::fs::read_dir(root().join("tests/it")).unwrap() {
        let path = entry.unwrap().path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().is_none_or(|e| e != "rs")
            || ["main", "optional_packages"].contains(&stem)
        {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        if markers.iter().any(|m| text.contains(m)) {
            suites.insert(stem.to_owned());
        }
    }
    suites
}

#[test]
fn every_suite_that_asks_for_a_package_runs_without_each_one() {
    let script = std::fs::read_to_string(root().join("scripts/optional-packages.sh")).unwrap();
    let mut listed = bash_array(&script, "quick");
    for heavy in [
        "iree_client",
        "kernels_corpus",
        "iree_cts",
        "readme_walkthrough",
    ] {
        assert!(
            script.contains(heavy),
            "{heavy} is not run by scripts/optional-packages.sh"
        );
        listed.insert(heavy.to_owned());
    }
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
    for entry in std::fs::read_dir(root().join("tests/it")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap_or_default();
        for (prefix, kind) in [("Package::Debian(\"", ""), ("Package::Pip(\"", "pip:")] {
            for rest in text.split(prefix).skip(1) {
                let name = rest.split(['"', '=', ':']).next().unwrap();
                named.insert(format!("{kind}{name}"));
            }
        }
    }
    // The C compiler is a base tool (the real backend's fakes are built
    // with it); the other is the skip rule's own test.
    for base in ["gcc", "amdgpu-hal-no-such-package"] {
        named.remove(base);
    }
    let missing: Vec<_> = named.difference(&hideable).collect();
    assert!(
        missing.is_empty(),
        "scripts/without-packages.sh cannot hide {missing:?}"
    );
}

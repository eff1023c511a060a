//! The README's walkthrough is true: every `$ amdgpu-hal …` line of each
//! fenced `console` block runs the built binary, and what it prints (stdout,
//! then stderr) must be the lines that follow, up to the next `$` line or
//! the end of the block. A last line `...` shows only the start of a long
//! output: then the printed output must begin with the lines shown.
//! Commands run in a scratch directory holding a `fixtures` link to the
//! repository's, so files they write (`pack -o`, `capture -o`) land there.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// One `$ amdgpu-hal …` step of the walkthrough.
struct Step {
    line: usize,
    args: Vec<String>,
    expected: Vec<String>,
    prefix_only: bool,
}

fn steps(readme: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut in_console = false;
    for (number, line) in readme.lines().enumerate() {
        if !in_console {
            in_console = line.trim_end() == "```console";
            continue;
        }
        if line.trim_end() == "```" {
            in_console = false;
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            let words: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
            assert_eq!(
                words.first().map(String::as_str),
                Some("amdgpu-hal"),
                "README.md:{}: console blocks run only amdgpu-hal",
                number + 1
            );
            assert!(
                !command.contains(['|', '>', '<', '\'', '"', '`']),
                "README.md:{}: no shell syntax in a walkthrough command",
                number + 1
            );
            steps.push(Step {
                line: number + 1,
                args: words.into_iter().skip(1).collect(),
                expected: Vec::new(),
                prefix_only: false,
            });
        } else {
            let step = steps
                .last_mut()
                .unwrap_or_else(|| panic!("README.md:{}: output before any command", number + 1));
            assert!(
                !step.prefix_only,
                "README.md:{}: lines after `...`",
                number + 1
            );
            if line == "..." {
                step.prefix_only = true;
            } else {
                step.expected.push(line.to_owned());
            }
        }
    }
    steps
}

fn scratch_dir(root: &Path) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("readme-walkthrough");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(root.join("fixtures"), dir.join("fixtures")).unwrap();
    dir
}

#[test]
fn walkthrough_outputs_match_the_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let steps = steps(&readme);
    assert!(steps.len() >= 10, "the walkthrough covers every subcommand");
    let dir = scratch_dir(root);
    let mut failures = Vec::new();
    for step in &steps {
        let output = Command::cargo_bin("amdgpu-hal")
            .unwrap()
            .args(&step.args)
            .current_dir(&dir)
            .env_remove("RUST_LOG")
            .output()
            .unwrap();
        let printed = [output.stdout, output.stderr].concat();
        let printed = String::from_utf8(printed).unwrap();
        let printed: Vec<&str> = printed.lines().collect();
        let shown: Vec<&str> = step.expected.iter().map(String::as_str).collect();
        let matches = if step.prefix_only {
            printed.starts_with(&shown)
        } else {
            printed == shown
        };
        let failed = shown.iter().any(|l| l.starts_with("Error: "));
        let expected_code = if failed { 1 } else { 0 };
        if !matches || output.status.code() != Some(expected_code) {
            failures.push(format!(
                "README.md:{}: `amdgpu-hal {}` exited {:?} (want {expected_code}) and printed:\n{}\n",
                step.line,
                step.args.join(" "),
                output.status.code(),
                printed.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn walkthrough_covers_every_subcommand() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let steps = steps(&readme);
    for subcommand in [
        "machines", "devices", "topology", "info", "inspect", "pack", "load", "capture",
    ] {
        assert!(
            steps
                .iter()
                .any(|s| s.args.first().map(String::as_str) == Some(subcommand)),
            "the README walkthrough has no `amdgpu-hal {subcommand}`"
        );
    }
}

#[test]
fn readme_test_command_is_the_one_ci_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    let command = "cargo test --workspace --features real";
    assert!(readme.lines().any(|l| l.trim() == command));
    assert!(ci.lines().any(|l| l.trim() == command));
}

//! The README's walkthrough is true: every `$ amdgpu-hal …` line of each
//! fenced `console` block runs the built binary, and what it prints (stdout,
//! then stderr) must be the lines that follow, up to the next `$` line or
//! the end of the block. A last line `...` shows only the start of a long
//! output: then the printed output must begin with the lines shown.
//! Commands run in a scratch directory holding a `fixtures` link to the
//! repository's, so files they write (`pack -o`, `capture -o`) land there.
//! The `sh` blocks run too (`every_sh_block_runs`), every command but the
//! few of `NOT_RUN`, each with its reason.

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

/// A command of a `sh` block that this test does not run, and why.
struct NotRun {
    /// The command's start.
    prefix: &'static str,
    why: &'static str,
}

/// The `sh` commands the walkthrough does not run: each with its reason.
/// Every other command of every `sh` block runs.
const NOT_RUN: &[NotRun] = &[
    NotRun {
        prefix: "cargo test --workspace --features real",
        why: "the command that runs this test",
    },
    NotRun {
        prefix: "cargo run --features real -- capture --backend cuda",
        why: "needs an NVIDIA GPU and libcuda",
    },
    NotRun {
        prefix: "scripts/fuzz.sh ",
        why: "minutes of fuzzing; CI runs `scripts/fuzz.sh 20` after the tests",
    },
    NotRun {
        prefix: "cargo bench ",
        why: "a benchmark",
    },
    NotRun {
        prefix: "fixtures/large/generate.sh ",
        why: "minutes of clang-19 for the large fixtures (benchmark input)",
    },
    NotRun {
        prefix: "scripts/compare.sh",
        why: "a benchmark",
    },
    NotRun {
        prefix: "scripts/perf-goals.sh",
        why: "a benchmark",
    },
    NotRun {
        prefix: "scripts/iree-run-cost.sh ",
        why: "a benchmark",
    },
    NotRun {
        prefix: "scripts/kernels-cost.py ",
        why: "a benchmark",
    },
    NotRun {
        prefix: "scripts/scaling.sh ",
        why: "a benchmark",
    },
    NotRun {
        prefix: "scripts/bench-matmul.py",
        why: "a benchmark",
    },
    NotRun {
        prefix: "scripts/thread-scaling.sh ",
        why: "a benchmark",
    },
    NotRun {
        prefix: "scripts/ci-budget.sh",
        why: "a benchmark (IREE's build, minutes of CPU)",
    },
    NotRun {
        prefix: "python3 scripts/plot_scaling.py",
        why: "plots the benchmark above (matplotlib)",
    },
];

/// The `sh` blocks of the README: `(line of the fence, the block's lines)`.
fn sh_blocks(readme: &str) -> Vec<(usize, Vec<String>)> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, Vec<String>)> = None;
    for (number, line) in readme.lines().enumerate() {
        match &mut current {
            None if line.trim_end() == "```sh" => current = Some((number + 1, Vec::new())),
            None => {}
            Some(_) if line.trim_end() == "```" => blocks.extend(current.take()),
            Some((_, lines)) => lines.push(line.to_owned()),
        }
    }
    blocks
}

/// Every `sh` block of the README runs, from a directory like a checkout
/// (`fixtures`, `scripts`, `target/debug/libamdgpu_sim_ffi.so`, an empty
/// `docs`), with `amdgpu-hal` and `cargo run [--features real] --` as the
/// binary this `cargo test` built and `cargo build` a no-op (done already).
/// The GPU machine of the capture block is the simulator's C library as
/// ROCr and HIP (`mi300x-8`). Only the commands of [`NOT_RUN`] are left
/// out, each for its reason; the tools a block needs (`dot`, `rocminfo`)
/// are asked for like any test's.
#[cfg(feature = "real")]
#[test]
fn every_sh_block_runs() {
    use crate::support::requires::{Package, program, requires};

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("readme-sh");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("target/debug")).unwrap();
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    for link in ["fixtures", "scripts"] {
        std::os::unix::fs::symlink(root.join(link), dir.join(link)).unwrap();
    }
    let so = crate::sim::iree_client::library();
    std::os::unix::fs::symlink(&so, dir.join("target/debug/libamdgpu_sim_ffi.so")).unwrap();
    let binary = assert_cmd::cargo::cargo_bin("amdgpu-hal");
    // The vendor file names, for scripts/sim-rocminfo.sh (no cargo build).
    let sim_lib = dir.join("target/sim-lib");
    let linked = std::process::Command::new(root.join("scripts/sim-libs.sh"))
        .arg(format!("--lib={}", so.display()))
        .arg(&sim_lib)
        .output()
        .unwrap();
    assert!(
        linked.status.success(),
        "{}",
        String::from_utf8_lossy(&linked.stderr)
    );

    let has_dot = std::process::Command::new("dot")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    let has_dot = requires(
        "the README's `dot -Tpng` line",
        Package::Debian("graphviz"),
        has_dot,
    );
    let has_rocminfo = requires(
        "the README's scripts/sim-rocminfo.sh line",
        Package::Debian("rocminfo"),
        program("rocminfo") || Path::new("/usr/bin/rocminfo").exists(),
    );

    let prelude = r#"
amdgpu-hal() { "$AMDGPU_HAL_BIN" "$@"; }
cargo() {
    case "$1" in
    run) while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done; shift; "$AMDGPU_HAL_BIN" "$@" ;;
    build) ;;
    *) echo "walkthrough: 'cargo $*' is not run here" >&2; return 97 ;;
    esac
}
"#;
    let mut failures = Vec::new();
    let mut ran = 0;
    for (fence, lines) in sh_blocks(&readme) {
        let mut script = String::from(prelude);
        for line in &lines {
            let command = line.trim_start();
            let not_run = NOT_RUN
                .iter()
                .find(|n| command.starts_with(n.prefix))
                .map(|n| n.why)
                .or_else(|| (command.contains("| dot ") && !has_dot).then_some("no graphviz"))
                .or_else(|| {
                    (command.starts_with("scripts/sim-rocminfo.sh") && !has_rocminfo)
                        .then_some("no rocminfo")
                });
            match not_run {
                // A comment: the reason is never run, whatever it quotes.
                Some(why) => script.push_str(&format!("# not run: {why}\n")),
                None => {
                    if !command.is_empty() && !command.starts_with('#') {
                        ran += 1;
                    }
                    script.push_str(line);
                    script.push('\n');
                }
            }
        }
        let output = std::process::Command::new("bash")
            .args(["-euo", "pipefail", "-c", &script])
            .current_dir(&dir)
            .env("AMDGPU_HAL_BIN", &binary)
            .env("AMDGPU_SIM_MACHINE", "mi300x-8")
            .env("IREE_HAL_AMDGPU_LIBHSA_PATH", &so)
            .env("IREE_HIP_DYLIB_PATH", format!("file:{}", so.display()))
            .env("AMDGPU_SIM_LIB_DIR", &sim_lib)
            .env_remove("RUST_LOG")
            .output()
            .unwrap();
        if !output.status.success() {
            failures.push(format!(
                "README.md:{fence}: the sh block failed ({:?}):\n{}\n{}",
                output.status.code(),
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ran >= 8, "only {ran} sh commands ran");
    // What the blocks wrote landed in the scratch directory.
    assert!(dir.join("my-node.toml").is_file());
    if has_dot {
        assert!(dir.join("docs/topology-mi300x-8.png").is_file());
    }
}

#[test]
fn commands_left_out_of_the_sh_blocks_are_in_the_readme() {
    // A stale entry of NOT_RUN would hide nothing; each names a command
    // the README has.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let commands: Vec<String> = sh_blocks(&readme)
        .into_iter()
        .flat_map(|(_, lines)| lines)
        .map(|l| l.trim_start().to_owned())
        .collect();
    for not_run in NOT_RUN {
        assert!(!not_run.why.is_empty(), "{}: say why", not_run.prefix);
        assert!(
            commands.iter().any(|c| c.starts_with(not_run.prefix)),
            "NOT_RUN names `{}`, which no sh block of the README has",
            not_run.prefix
        );
        // Scripts it names exist, so the command is at least real.
        if let Some(script) = not_run
            .prefix
            .split_whitespace()
            .find(|w| w.contains("scripts/") || w.ends_with(".sh"))
        {
            assert!(root.join(script).is_file(), "{script} does not exist");
        }
    }
}

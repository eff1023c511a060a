//! The error contract over bad invocations, one table: each fails with the
//! exit code (2 for what clap refuses, 1 otherwise), nothing on stdout, and
//! exactly one line on stderr, `Error: <STATUS CODE>; …`, holding the words
//! that say what went wrong. The listings that succeed on a machine without
//! a GPU are in the same file, so the split stays deliberate.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-errors");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn hal() -> Command {
    let mut cmd = Command::cargo_bin("amdgpu-hal").unwrap();
    cmd.current_dir(root());
    for var in [
        "IREE_HAL_AMDGPU_LIBHSA_PATH",
        "IREE_HIP_DYLIB_PATH",
        "AMDGPU_HAL_CUDA_PATH",
        "RUST_LOG",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

struct Case {
    args: Vec<String>,
    env: Vec<(&'static str, String)>,
    exit: i32,
    code: &'static str,
    words: Vec<&'static str>,
}

fn case(args: &[&str], exit: i32, code: &'static str, words: &[&'static str]) -> Case {
    Case {
        args: args.iter().map(|a| a.to_string()).collect(),
        env: Vec::new(),
        exit,
        code,
        words: words.to_vec(),
    }
}

fn check(case: &Case) {
    let mut cmd = hal();
    cmd.args(&case.args);
    for (key, value) in &case.env {
        cmd.env(key, value);
    }
    let output = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let at = case.args.join(" ");
    assert_eq!(output.status.code(), Some(case.exit), "{at}: {stderr}");
    assert!(output.stdout.is_empty(), "{at}: stdout not empty");
    assert_eq!(
        stderr.matches('\n').count(),
        1,
        "{at}: not one line: {stderr}"
    );
    assert!(stderr.ends_with('\n'), "{at}: {stderr}");
    let prefix = format!("Error: {}; ", case.code);
    assert!(stderr.starts_with(&prefix), "{at}: {stderr}");
    for word in &case.words {
        assert!(stderr.contains(word), "{at}: no {word:?} in {stderr}");
    }
    assert!(
        stderr.chars().count() <= 2048 + 10,
        "{at}: {} chars",
        stderr.len()
    );
}

#[test]
fn bad_invocations_fail_with_one_line() {
    let dir = scratch();
    let bad_toml = dir.join("bad.toml");
    std::fs::write(&bad_toml, "name = \"x\"\nfoo bar\n").unwrap();
    let long_line = dir.join("long-line.toml");
    std::fs::write(
        &long_line,
        format!("name = \"{}\" junk\n", "y".repeat(100_000)),
    )
    .unwrap();
    let hsaco = dir.join("in.hsaco");
    std::fs::copy(
        root().join("fixtures/hsaco/vector_add.gfx1100.cov5.hsaco"),
        &hsaco,
    )
    .unwrap();
    let link = dir.join("link.amd1");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&hsaco, &link).unwrap();
    let p = |path: &Path| path.to_str().unwrap().to_owned();
    let (bad_toml, long_line, hsaco_s, link_s) = (p(&bad_toml), p(&long_line), p(&hsaco), p(&link));
    let exe = "fixtures/iree/matmul.gfx942.amd1";

    let mut cases = vec![
        // What clap refuses: exit 2, one line.
        case(
            &["devices", "--no-such-flag"],
            2,
            "INVALID_ARGUMENT",
            &["unexpected argument '--no-such-flag'", "--help"],
        ),
        case(
            &["devices", "--backend", "bogus"],
            2,
            "INVALID_ARGUMENT",
            &["invalid value 'bogus'", "--backend"],
        ),
        case(&["load"], 2, "INVALID_ARGUMENT", &["required", "<FILE>"]),
        case(
            &["topology", "--dot", "--json"],
            2,
            "INVALID_ARGUMENT",
            &["cannot be used with"],
        ),
        case(
            &["no-such-subcommand"],
            2,
            "INVALID_ARGUMENT",
            &["unrecognized subcommand"],
        ),
        // Machines.
        case(&["devices", "--machine", "nope"], 1, "NOT_FOUND", &["nope"]),
        case(
            &["devices", "--machine", &bad_toml],
            1,
            "INVALID_ARGUMENT",
            &[
                "bad.toml",
                "TOML parse error at line 2, column 5",
                "key with no value",
                "expected `=`",
            ],
        ),
        case(
            &["topology", "--machine", &long_line],
            1,
            "INVALID_ARGUMENT",
            &[
                "long-line.toml",
                "TOML parse error at line 1",
                "expected newline",
            ],
        ),
        // A machine the backend would ignore.
        case(
            &["devices", "--backend", "hsa", "--machine", "nosuch"],
            1,
            "INVALID_ARGUMENT",
            &["--machine 'nosuch'", "--backend hsa", "host's runtime"],
        ),
        case(
            &["topology", "--backend", "cuda", "--machine", "mi300x-8"],
            1,
            "INVALID_ARGUMENT",
            &["--machine 'mi300x-8'", "--backend cuda"],
        ),
        case(
            &["info", "--backend", "cuda", "--machine", "w7900"],
            1,
            "INVALID_ARGUMENT",
            &["--backend cuda"],
        ),
        // A machine without a GPU: every subcommand that needs one says so alike.
        case(
            &["topology", "--machine", "cpu-only"],
            1,
            "UNAVAILABLE",
            &["machine 'cpu-only' has no GPU (backend sim)"],
        ),
        case(
            &["topology", "--dot", "--machine", "cpu-only"],
            1,
            "UNAVAILABLE",
            &["machine 'cpu-only' has no GPU"],
        ),
        case(
            &["topology", "--backend", "hip", "--machine", "cpu-only"],
            1,
            "UNAVAILABLE",
            &["machine 'cpu-only' has no GPU (backend hip)"],
        ),
        case(
            &["info", "--machine", "cpu-only"],
            1,
            "UNAVAILABLE",
            &["machine 'cpu-only' has no GPU", "device path ''"],
        ),
        case(
            &["load", exe, "--machine", "cpu-only"],
            1,
            "UNAVAILABLE",
            &[
                "machine 'cpu-only' has no GPU",
                "loading `fixtures/iree/matmul.gfx942.amd1`",
            ],
        ),
        // Device paths.
        case(
            &["info", "7", "--machine", "w7900"],
            1,
            "NOT_FOUND",
            &["device 7 not found (of 1 enumerated)"],
        ),
        case(
            &["info", "GPU-8af70525968316"],
            1,
            "INVALID_ARGUMENT",
            &["invalid GPU UUID: '8af70525968316'"],
        ),
        case(
            &["info", "GPU-0123456789abcdef"],
            1,
            "NOT_FOUND",
            &["HSA UUID GPU-0123456789abcdef not found"],
        ),
        case(
            &["info", "0,0"],
            1,
            "INVALID_ARGUMENT",
            &["device 0 is listed twice"],
        ),
        case(
            &["topology", "--device", "0"],
            1,
            "INVALID_ARGUMENT",
            &["--device selects HIP devices"],
        ),
        // pack's output.
        case(
            &["pack", &hsaco_s, "-o", "-"],
            1,
            "INVALID_ARGUMENT",
            &["-o -", "name a file"],
        ),
        case(
            &["pack", &hsaco_s, "-o", &hsaco_s],
            1,
            "INVALID_ARGUMENT",
            &["is the input", "overwrite"],
        ),
        case(
            &["pack", &hsaco_s, "-o", &link_s],
            1,
            "INVALID_ARGUMENT",
            &["is the input"],
        ),
        case(
            &["pack", &hsaco_s, "--source", "README.md", "-o", "README.md"],
            1,
            "INVALID_ARGUMENT",
            &["is the input 'README.md'"],
        ),
        // Loading.
        case(
            &[
                "load",
                "fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco",
                "--machine",
                "w7900",
            ],
            1,
            "INCOMPATIBLE",
            &["GPU agent[0]"],
        ),
    ];
    let mut unavailable = case(&["devices", "--backend", "hsa"], 1, "UNAVAILABLE", &[]);
    unavailable.env.push((
        "IREE_HAL_AMDGPU_LIBHSA_PATH",
        "/nowhere;/also/nowhere".into(),
    ));
    unavailable.words = if cfg!(feature = "real") {
        vec![
            "HSA/ROCR-Runtime library not found",
            "Tried: /nowhere/libhsa-runtime64.so.1",
            "Tried: /also/nowhere/libhsa-runtime64.so",
            "opening backend 'hsa'",
        ]
    } else {
        vec!["backend 'hsa' is not available in this build"]
    };
    cases.push(unavailable);
    let before = std::fs::read(&hsaco).unwrap();
    for case in &cases {
        check(case);
    }
    assert_eq!(
        std::fs::read(&hsaco).unwrap(),
        before,
        "the input is untouched"
    );
    assert!(!root().join("-").exists(), "no file named `-`");
}

/// The listings describe what is there, an empty list of GPUs included.
#[test]
fn listings_of_a_machine_without_a_gpu_succeed() {
    for (args, first_line) in [
        (
            &["devices", "--machine", "cpu-only"][..],
            "cpu-only (backend sim): 2 agents, 0 GPU",
        ),
        (
            &["devices", "--backend", "hip", "--machine", "cpu-only"],
            "cpu-only (backend hip): 0 HIP devices",
        ),
        (&["capture", "--machine", "cpu-only"], "name = \"cpu-only\""),
    ] {
        let output = hal().args(args).output().unwrap();
        assert!(output.status.success(), "{args:?}");
        assert!(output.stderr.is_empty(), "{args:?}");
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert_eq!(stdout.lines().next(), Some(first_line), "{args:?}");
    }
}

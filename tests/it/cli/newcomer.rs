//! The frictions a newcomer met in issue 41, each pinned: `capture -o -`
//! and its default name, suggestions for a misspelt `--machine`, `host`
//! without `--backend hip`, `--affinity` bits a machine lacks, one
//! `try '--help'`, singular counts, `-v`'s affinity equal to `--json`'s, a
//! GPU without links, `--backend hsa` without `libamdhip64`, messages that
//! name only this platform's library files, and the docs a newcomer
//! starts from.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn hal() -> Command {
    let mut command = Command::cargo_bin("amdgpu-hal").unwrap();
    command.env_remove("RUST_LOG");
    command
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cli-newcomer")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `(exit code, stdout, stderr)` of `amdgpu-hal ARGS` in `dir`.
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = hal().args(args).current_dir(dir).output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn run(args: &[&str]) -> (i32, String, String) {
    run_in(root(), args)
}

/// The `name = "…"` of a TOML description.
fn toml_name(text: &str) -> String {
    let value: toml::Value = toml::from_str(text).unwrap();
    value["name"].as_str().unwrap().to_owned()
}

#[test]
fn capture_dash_is_stdout_and_the_default_name_is_the_file_or_machine() {
    let dir = scratch("capture");
    let (code, stdout, stderr) = run_in(&dir, &["capture", "--machine", "w7900", "-o", "-"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        toml_name(&stdout),
        "w7900",
        "on stdout: the machine captured"
    );
    assert!(!dir.join("-").exists(), "`-o -` wrote a file named '-'");

    let (code, stdout, stderr) = run_in(
        &dir,
        &["capture", "--machine", "mi250x-4", "-o", "node.toml"],
    );
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
    let written = std::fs::read_to_string(dir.join("node.toml")).unwrap();
    assert_eq!(toml_name(&written), "node", "to a file: the file's stem");

    let (_, stdout, _) = run_in(&dir, &["capture", "--machine", "w7900", "--name", "mine"]);
    assert_eq!(toml_name(&stdout), "mine", "--name wins");
    // The replay answers with that name.
    let (code, stdout, stderr) = run_in(&dir, &["devices", "--machine", "node.toml"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("node (backend sim): 12 agents, 8 GPU\n"),
        "{stdout}"
    );
}

#[test]
fn misspelt_machines_get_a_suggestion() {
    for (typed, meant) in [
        ("mi300x8", "mi300x-8"),
        ("W7900", "w7900"),
        ("MI250X_4", "mi250x-4"),
    ] {
        let (code, stdout, stderr) = run(&["devices", "--machine", typed]);
        assert_eq!((code, stdout.as_str()), (1, ""));
        assert!(stderr.starts_with("Error: NOT_FOUND; "), "{stderr}");
        assert!(
            stderr.contains(&format!("did you mean '{meant}'")),
            "{typed}: {stderr}"
        );
    }
    let (_, _, stderr) = run(&["devices", "--machine", "h100"]);
    assert!(!stderr.contains("did you mean"), "nothing close: {stderr}");
}

#[test]
fn host_without_a_real_backend_says_which_backend_reaches_it() {
    let (code, stdout, stderr) = run(&["devices", "--machine", "host"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(
        stderr.starts_with("Error: INVALID_ARGUMENT; --machine host"),
        "{stderr}"
    );
    assert!(
        stderr.contains("--backend hip") && stderr.contains("--backend sim"),
        "{stderr}"
    );
}

/// The GPU count of each preset, from `machines --json`.
fn gpus(machine: &str) -> u32 {
    let (_, stdout, _) = run(&["machines", "--json"]);
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    doc["machines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == machine)
        .unwrap()["gpu_agents"]
        .as_u64()
        .unwrap() as u32
}

#[test]
fn affinity_bits_a_machine_lacks_are_refused_with_the_valid_ones() {
    let exe = "fixtures/iree/multi_dispatch.gfx942.amd1";
    let w7900 = "fixtures/hsaco/vector_add.gfx1100.cov5.hsaco";
    for (file, machine, mask) in [
        (exe, "mi300x-8", "0x10000"),
        (w7900, "w7900", "0x5"),
        (w7900, "w7900", "0"),
    ] {
        // Two queues per GPU (README): bits 0 .. 2 * GPUs.
        let valid = (1u64 << (2 * gpus(machine))) - 1;
        let (code, stdout, stderr) = run(&["load", file, "--machine", machine, "--affinity", mask]);
        assert_eq!((code, stdout.as_str()), (1, ""), "{machine} {mask}");
        assert!(
            stderr.starts_with("Error: INVALID_ARGUMENT; queue affinity"),
            "{stderr}"
        );
        assert!(
            stderr.contains(&format!("valid bits are {valid:#x}")),
            "{stderr}"
        );
    }
    // Within the machine, nothing is dropped: what was asked is what loads.
    let (code, stdout, stderr) = run(&["load", exe, "--affinity", "0x5", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["queue_affinity"], "0x5");
}

#[test]
fn verbose_affinity_is_the_one_the_document_reports() {
    for (machine, file, affinity) in [
        (
            "w7900",
            "fixtures/hsaco/vector_add.gfx1100.cov5.hsaco",
            None,
        ),
        ("mi300x-8", "fixtures/iree/multi_dispatch.gfx942.amd1", None),
        (
            "mi300x-8",
            "fixtures/iree/multi_dispatch.gfx942.amd1",
            Some("0x30"),
        ),
    ] {
        let mut args = vec!["-v", "load", file, "--machine", machine, "--json"];
        if let Some(mask) = affinity {
            args.extend(["--affinity", mask]);
        }
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 0, "{stderr}");
        let doc: Value = serde_json::from_str(&stdout).unwrap();
        let logged = stderr
            .split("queue_affinity=")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_alphanumeric()).next())
            .unwrap_or_else(|| panic!("no queue_affinity in {stderr}"));
        assert_eq!(
            logged,
            doc["queue_affinity"].as_str().unwrap(),
            "{machine} {affinity:?}"
        );
    }
}

#[test]
fn usage_errors_say_try_help_once() {
    for args in [
        &["devices", "--backend", "bogus"][..],
        &["devices", "--nosuch"],
        &["load"],
        &["devicess"],
    ] {
        let (code, _, stderr) = run(args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(
            stderr.matches("try '--help'").count(),
            1,
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("For more information"), "{stderr}");
    }
}

#[test]
fn counts_of_one_are_singular() {
    let (_, stdout, _) = run(&["machines"]);
    let (_, json, _) = run(&["machines", "--json"]);
    let doc: Value = serde_json::from_str(&json).unwrap();
    for machine in doc["machines"].as_array().unwrap() {
        let name = machine["name"].as_str().unwrap();
        let cpus = machine["cpu_agents"].as_u64().unwrap();
        let line = stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap();
        let noun = if cpus == 1 { "agent" } else { "agents" };
        assert!(
            line.split_whitespace()
                .collect::<Vec<_>>()
                .windows(3)
                .any(|w| { w == [cpus.to_string().as_str(), "CPU", noun] }),
            "{line}"
        );
    }
    let dir = scratch("pack");
    let hsaco = root().join("fixtures/hsaco/vector_add.gfx1100.cov5.hsaco");
    let (code, stdout, stderr) = run_in(
        &dir,
        &[
            "pack",
            hsaco.to_str().unwrap(),
            "-o",
            "one.amd1",
            "--kernel",
            "bump",
            "--workgroup-size",
            "64,1,1",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.ends_with(", 1 export)\n"), "{stdout}");
}

#[test]
fn a_gpu_without_links_is_refused_not_shown_as_host() {
    let dir = scratch("links");
    let preset = std::fs::read_to_string(root().join("fixtures/machines/mixed-isa.toml")).unwrap();
    // Every link that mentions mi100b goes: it is left with none.
    let kept: Vec<&str> = preset
        .split("[[links]]")
        .enumerate()
        .filter(|(i, part)| *i == 0 || !part.contains("mi100b"))
        .map(|(_, part)| part)
        .collect();
    std::fs::write(dir.join("unlinked.toml"), kept.join("[[links]]")).unwrap();
    let (code, stdout, stderr) = run_in(&dir, &["topology", "--machine", "unlinked.toml"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(stderr.starts_with("Error: INVALID_ARGUMENT; "), "{stderr}");
    assert!(stderr.contains("has no link"), "{stderr}");
}

#[test]
fn first_docs_a_newcomer_reads() {
    let read = |path: &str| std::fs::read_to_string(root().join(path)).unwrap();
    // FUZZING.md starts with the install step.
    let fuzzing = read("docs/FUZZING.md");
    let first_block = fuzzing.split("```sh\n").nth(1).unwrap();
    assert!(
        first_block.starts_with("cargo install cargo-fuzz --locked\n"),
        "{first_block}"
    );
    // The fuzz crate takes the library without the command line: no clap,
    // no tracing-subscriber in its build (its lock file is the oracle).
    let manifest: toml::Value = toml::from_str(&read("fuzz/Cargo.toml")).unwrap();
    let dep = &manifest["dependencies"]["amdgpu-hal"];
    assert_eq!(dep["default-features"].as_bool(), Some(false), "{dep}");
    let lock = read("fuzz/Cargo.lock");
    for crate_name in ["clap", "tracing-subscriber"] {
        assert!(
            !lock.contains(&format!("name = \"{crate_name}\"")),
            "{crate_name} in fuzz/Cargo.lock"
        );
    }
    // The README's Rust blocks are a doctest.
    assert!(read("src/lib.rs").contains("#[doc = include_str!(\"../README.md\")]"));
    assert!(read("README.md").contains("```rust\n"));
    // docs/SIMULATOR.md: compiling, benchmarking and Python.
    let simulator = read("docs/SIMULATOR.md");
    for words in [
        "--iree-hal-target-device=hip --iree-rocm-target=gfx1100",
        "iree-benchmark-module",
        "import iree.runtime",
        "IREE_HIP_DYLIB_PATH",
    ] {
        assert!(
            simulator.contains(words),
            "docs/SIMULATOR.md lacks {words:?}"
        );
    }
    // The IREE tests' skip line says where iree-run-module comes from.
    assert!(crate::sim::iree_client::IREE_RUNTIME_PACKAGE.contains("iree-run-module"));
    assert!(crate::sim::iree_client::IREE_RUNTIME_PACKAGE.contains("PATH"));
}

/// `--backend hsa` over the simulator's C library as ROCr: with a HIP
/// library, each GPU shows its HIP path; without one, the agents are still
/// listed, without HIP identities; without HSA, the message names HSA.
#[cfg(feature = "real")]
#[test]
fn hsa_backend_needs_only_hsa() {
    let so = crate::sim::iree_client::library();
    let so = so.to_str().unwrap();
    let devices = |hsa: &str, hip: &str| {
        let output = hal()
            .args(["devices", "--backend", "hsa"])
            .env("AMDGPU_SIM_MACHINE", "w7900")
            .env("IREE_HAL_AMDGPU_LIBHSA_PATH", hsa)
            .env("IREE_HIP_DYLIB_PATH", hip)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(output.stderr).unwrap(),
        )
    };
    // IREE's AMDGPU rule: a path ending in `.so` is the file itself.
    let (code, stdout, stderr) = devices(so, &format!("file:{so}"));
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("    as   GPU0 = hip://GPU-"), "{stdout}");

    let (code, stdout, stderr) = devices(so, "/nowhere");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.starts_with("host (backend hsa): 2 agents, 1 GPU\n"),
        "{stdout}"
    );
    assert!(stdout.contains("    as   GPU0\n"), "{stdout}");
    assert!(
        !stdout.contains("hip://"),
        "no HIP, no HIP identity: {stdout}"
    );

    let (code, stdout, stderr) = devices("/nowhere", &format!("file:{so}"));
    assert_eq!((code, stdout.as_str()), (Some(1), ""));
    assert!(
        stderr.starts_with("Error: UNAVAILABLE; HSA/ROCR-Runtime library not found"),
        "{stderr}"
    );
    assert!(
        stderr.contains("opening backend 'hsa'") && !stderr.contains("HIP"),
        "{stderr}"
    );
}

/// A missing HIP runtime is named by this platform's file names only.
#[cfg(feature = "real")]
#[test]
fn missing_hip_names_linux_files_only() {
    let output = hal()
        .args(["devices", "--backend", "hip", "--machine", "host"])
        .env("IREE_HIP_DYLIB_PATH", "/nowhere")
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr
            .starts_with("Error: UNAVAILABLE; HIP runtime library 'libamdhip64.so' not available"),
        "{stderr}"
    );
    for name in ["libamdhip64.so;", "libamdhip64.so.6;", "libamdhip64.so.5;"] {
        assert!(
            stderr.contains(&format!("Tried: /nowhere/{name}")),
            "{name}: {stderr}"
        );
    }
    assert!(!stderr.contains(".dll"), "{stderr}");
}

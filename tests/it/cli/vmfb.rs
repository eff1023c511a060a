//! `inspect` and `load` of an IREE bytecode module (`.vmfb`), the file an
//! IREE developer holds: the executables it holds, and the one a machine
//! runs loaded as the same executable file loads.

use assert_cmd::Command;

fn fixture(path: &str) -> String {
    format!("{}/fixtures/{path}", env!("CARGO_MANIFEST_DIR"))
}

fn cli() -> Command {
    Command::cargo_bin("amdgpu-hal").unwrap()
}

fn stdout(args: &[&str]) -> String {
    let out = cli()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

const MODULE: &str = "iree/vmfb/dynamic.gfx942.vmfb";

#[test]
fn inspect_lists_a_modules_executables_and_inspects_each() {
    let text = stdout(&["inspect", &fixture(MODULE)]);
    assert!(
        text.starts_with("container:           vmfb (IREE bytecode module `module`, version 0)\n"),
        "{text}"
    );
    assert!(text.contains("executables:         1\n"), "{text}");
    assert!(
        text.contains("[0] rodata segment 4: hip1 (gfx942, 1 export), 5904 bytes at offset 6432\n"),
        "{text}"
    );
    assert!(
        text.contains("    [0] dynamic_dispatch_0_elementwise_D_f32\n"),
        "{text}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["inspect", &fixture(MODULE), "--json"])).unwrap();
    assert_eq!(json["container"], "vmfb");
    assert_eq!(json["rodata_segments"], 9);
    let exe = &json["executables"][0];
    assert_eq!(exe["segment"], 4);
    assert_eq!(exe["container"], "hip1");
    assert_eq!(exe["format"], "gfx942");
    // The executable's report is the one the executable file gets.
    let file: serde_json::Value = serde_json::from_str(&stdout(&[
        "inspect",
        &fixture("iree/dynamic.gfx942.hip1"),
        "--json",
    ]))
    .unwrap();
    assert_eq!(exe["inspect"], file);
}

#[test]
fn load_takes_the_executable_the_machines_gpus_run() {
    let mut module: serde_json::Value =
        serde_json::from_str(&stdout(&["load", &fixture(MODULE), "--json"])).unwrap();
    assert_eq!(
        module["embedded"],
        serde_json::json!({"segment": 4, "container": "hip1"})
    );
    // The HIP1's code object, written beside the module by the build, loads
    // to the same document.
    module.as_object_mut().unwrap().remove("embedded");
    let file: serde_json::Value = serde_json::from_str(&stdout(&[
        "load",
        &fixture("iree/dynamic.gfx942.hsaco"),
        "--json",
    ]))
    .unwrap();
    assert_eq!(module, file);
    let text = stdout(&["load", &fixture(MODULE)]);
    assert!(
        text.contains(
            "  from the module's rodata segment 4 (hip1: its code object, loaded as a raw HSACO)\n"
        ),
        "{text}"
    );
}

#[test]
fn load_names_every_executable_when_none_fits_the_machine() {
    let out = cli()
        .args(["load", &fixture(MODULE), "--machine", "w7900"])
        .assert()
        .code(1)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    assert!(err.starts_with("Error: NOT_FOUND; "), "{err}");
    for words in ["GPUs (gfx1100)", "it holds: segment 4: hip1 gfx942"] {
        assert!(err.contains(words), "{err}");
    }
    // A CPU module holds nothing a GPU runs.
    let out = cli()
        .args(["load", &fixture("kernels/vmfb/argmax.cpu.vmfb")])
        .assert()
        .code(1)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    assert!(err.contains("segment 4: ELF for machine 62"), "{err}");
}

#[test]
fn files_of_no_known_kind_are_refused_naming_every_kind_read() {
    let dir = std::env::temp_dir().join(format!("amdgpu-hal-vmfb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("notes.txt");
    std::fs::write(&path, "not an executable at all").unwrap();
    let path = path.to_str().unwrap();
    for (command, kinds) in [
        (
            "inspect",
            &["`AMD1`", "`HIP1`", "raw HSACOs (ELF)", "`.vmfb`"][..],
        ),
        ("load", &["`AMD1`", "raw HSACOs (ELF)", "`.vmfb`"][..]),
    ] {
        let out = cli()
            .args([command, path])
            .assert()
            .code(1)
            .get_output()
            .stderr
            .clone();
        let err = String::from_utf8(out).unwrap();
        assert!(err.starts_with("Error: INVALID_ARGUMENT; "), "{err}");
        for kind in kinds {
            assert!(err.contains(kind), "{command}: {err}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

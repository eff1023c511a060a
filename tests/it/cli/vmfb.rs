//! `inspect` and `load` of an IREE bytecode module (`.vmfb`), the file an
//! IREE developer holds: the executables it holds, and each one a machine
//! runs (or the one `--executable` names) loaded as the same executable
//! file loads.

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
    let module: serde_json::Value =
        serde_json::from_str(&stdout(&["load", &fixture(MODULE), "--json"])).unwrap();
    assert_eq!(module["container"], "vmfb");
    assert_eq!(module["name"], "module");
    let executables = module["executables"].as_array().unwrap();
    assert_eq!(executables.len(), 1, "{module}");
    let mut loaded = executables[0].clone();
    assert_eq!(
        loaded["embedded"],
        serde_json::json!({"segment": 4, "container": "hip1"})
    );
    // The HIP1's code object, written beside the module by the build, loads
    // to the same document.
    loaded.as_object_mut().unwrap().remove("embedded");
    let file: serde_json::Value = serde_json::from_str(&stdout(&[
        "load",
        &fixture("iree/dynamic.gfx942.hsaco"),
        "--json",
    ]))
    .unwrap();
    assert_eq!(loaded, file);
    let text = stdout(&["load", &fixture(MODULE)]);
    assert!(
        text.starts_with("module `module`: 1 executable loaded\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "  from the module's rodata segment 4 (hip1: its code object, loaded as a raw HSACO)\n"
        ),
        "{text}"
    );
}

/// A module of three executables (`multi_dispatch.mlir`'s three dispatches
/// compiled unlinked, fixtures/iree/build-vmfb.sh).
const SEVERAL: &str = "iree/vmfb/multi_dispatch.unlinked.gfx942.vmfb";

/// The program's three dispatches, as IREE names their kernels: the
/// function's name, the dispatch's ordinal, what it computes and on which
/// shapes (fixtures/iree/src/multi_dispatch.mlir).
const DISPATCHES: [&str; 3] = [
    "multi_dispatch_dispatch_0_matmul_64x32x128_f32",
    "multi_dispatch_dispatch_1_reduction_64x32_f32",
    "multi_dispatch_dispatch_2_transpose_64x128_f32",
];

/// Each loaded executable's (segment, export names).
fn loaded(doc: &serde_json::Value) -> Vec<(u64, Vec<String>)> {
    doc["executables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|exe| {
            let names = exe["exports"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["name"].as_str().unwrap().to_owned())
                .collect();
            (exe["embedded"]["segment"].as_u64().unwrap(), names)
        })
        .collect()
}

#[test]
fn load_of_a_module_of_several_executables_loads_each() {
    // The executables `inspect` lists for the module, all gfx942.
    let listed: serde_json::Value =
        serde_json::from_str(&stdout(&["inspect", &fixture(SEVERAL), "--json"])).unwrap();
    let segments: Vec<u64> = listed["executables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["segment"].as_u64().unwrap())
        .collect();
    assert_eq!(segments.len(), 3, "{listed}");
    let doc: serde_json::Value =
        serde_json::from_str(&stdout(&["load", &fixture(SEVERAL), "--json"])).unwrap();
    let expected: Vec<(u64, Vec<String>)> = segments
        .iter()
        .zip(DISPATCHES)
        .map(|(&segment, name)| (segment, vec![name.to_owned()]))
        .collect();
    assert_eq!(loaded(&doc), expected);
    for exe in doc["executables"].as_array().unwrap() {
        assert_eq!(exe["loaded_devices"].as_array().unwrap().len(), 8, "{exe}");
    }
    // Three code objects: no kernel object is another's.
    let mut objects: Vec<&str> = doc["executables"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|exe| exe["exports"][0]["kernel_objects"].as_array().unwrap())
        .map(|o| o.as_str().unwrap())
        .collect();
    objects.sort_unstable();
    objects.dedup();
    assert_eq!(objects.len(), 3 * 8);
    let text = stdout(&["load", &fixture(SEVERAL)]);
    assert!(
        text.starts_with("module `module`: 3 executables loaded\n"),
        "{text}"
    );
    for (segment, name) in segments.iter().zip(DISPATCHES) {
        assert!(
            text.contains(&format!(
                "  from the module's rodata segment {segment} (hip1"
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!("  [0] {name} ({name}.kd)")),
            "{text}"
        );
    }
}

#[test]
fn load_executable_picks_one_by_export_or_segment() {
    let by_name: serde_json::Value = serde_json::from_str(&stdout(&[
        "load",
        &fixture(SEVERAL),
        "--executable",
        DISPATCHES[1],
        "--json",
    ]))
    .unwrap();
    let [(segment, names)] = &loaded(&by_name)[..] else {
        panic!("{by_name}");
    };
    assert_eq!(names, &[DISPATCHES[1]]);
    let by_segment: serde_json::Value = serde_json::from_str(&stdout(&[
        "load",
        &fixture(SEVERAL),
        "--executable",
        &segment.to_string(),
        "--json",
    ]))
    .unwrap();
    assert_eq!(loaded(&by_segment), loaded(&by_name));
}

#[test]
fn load_executable_of_a_name_the_module_lacks_names_those_it_holds() {
    let err = |args: &[&str]| {
        let out = cli()
            .args(args)
            .assert()
            .code(1)
            .get_output()
            .stderr
            .clone();
        String::from_utf8(out).unwrap()
    };
    let e = err(&["load", &fixture(SEVERAL), "--executable", "softmax"]);
    assert!(e.starts_with("Error: NOT_FOUND; "), "{e}");
    assert!(e.contains("no executable `softmax`"), "{e}");
    for name in DISPATCHES {
        assert!(e.contains(name), "{e}");
    }
    // A GPU that runs none of them: the one named is refused as such.
    let e = err(&[
        "load",
        &fixture(SEVERAL),
        "--executable",
        DISPATCHES[0],
        "--machine",
        "w7900",
    ]);
    assert!(e.starts_with("Error: INVALID_ARGUMENT; "), "{e}");
    assert!(
        e.contains("runs on none of this machine's GPUs (gfx1100)"),
        "{e}"
    );
    // An executable file is one executable.
    let e = err(&[
        "load",
        &fixture("iree/dynamic.gfx942.hsaco"),
        "--executable",
        "4",
    ]);
    assert!(e.starts_with("Error: INVALID_ARGUMENT; "), "{e}");
    assert!(e.contains("is an executable file"), "{e}");
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

//! `amdgpu-hal pack` and `amdgpu-hal inspect` end to end.

use assert_cmd::Command;
use predicates::prelude::*;

fn fixture(path: &str) -> String {
    format!("{}/fixtures/{path}", env!("CARGO_MANIFEST_DIR"))
}

fn cli() -> Command {
    Command::cargo_bin("amdgpu-hal").unwrap()
}

#[test]
fn inspect_json_has_the_contract_keys() {
    let out = cli()
        .args([
            "inspect",
            &fixture("iree/elementwise.gfx942_sramecc+_xnack-.amd1"),
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["container"], "amd1");
    assert_eq!(json["format"], "gfx942:sramecc+:xnack-");
    assert_eq!(json["size"], 5084);
    assert_eq!(json["code_object_version"], 5);
    let export = &json["exports"][0];
    for key in [
        "name",
        "symbol",
        "workgroup_size",
        "dynamic_workgroup_size",
        "constant_count",
        "binding_count",
        "parameters",
        "kernarg_size",
        "kernarg_alignment",
        "group_segment_size",
        "private_segment_size",
    ] {
        assert!(export.get(key).is_some(), "missing {key}");
    }
    assert_eq!(
        export["symbol"],
        "elementwise_dispatch_0_elementwise_4096_f32.kd"
    );
    assert_eq!(export["workgroup_size"], serde_json::json!([64, 1, 1]));
    assert_eq!(
        export["parameters"][0],
        serde_json::json!({"type": "binding", "size": 8, "offset": 0, "name": ""})
    );
}

#[test]
fn inspect_text_of_a_raw_hsaco() {
    cli()
        .args(["inspect", &fixture("hsaco/vector_add.gfx1100.cov5.hsaco")])
        .assert()
        .success()
        .stdout(predicate::str::contains("ELF (raw HSACO)"))
        .stdout(predicate::str::contains("gfx1100"))
        .stdout(predicate::str::contains("1x1x1 (dynamic)"));
}

/// `inspect` is a viewer: a raw HSACO with kernels IREE's HAL cannot
/// describe (`mixed_args`: `char`/`short` arguments; `dynamic_lds`: a dynamic
/// LDS pointer) lists all five kernels, those two with the reason, while
/// `load` refuses naming both.
#[test]
fn inspect_lists_every_kernel_and_load_names_every_refused_one() {
    let file = fixture("hsaco/kernels.gfx942.cov5.hsaco");
    let out = cli()
        .args(["inspect", &file, "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let exports = json["exports"].as_array().unwrap();
    let names: Vec<_> = exports
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "lds_reduce",
            "scratch_walk",
            "mixed_args",
            "dynamic_lds",
            "implicit_args"
        ]
    );
    for export in exports {
        let refused = matches!(export["name"].as_str(), Some("mixed_args" | "dynamic_lds"));
        assert_eq!(export["hal_error"].is_string(), refused, "{export}");
        assert_eq!(export["hal_error"].is_null(), !refused, "{export}");
        // No projection, no HAL counts: null, never a made-up 0.
        assert_eq!(export["constant_count"].is_null(), refused, "{export}");
        assert_eq!(export["binding_count"].is_null(), refused, "{export}");
    }
    assert_eq!(
        exports[2]["hal_error"],
        "INVALID_ARGUMENT; AMDGPU kernel `mixed_args` by_value argument 1 size 1 is not a whole \
         number of 32-bit HAL constants"
    );
    assert_eq!(
        exports[3]["hal_error"],
        "INVALID_ARGUMENT; AMDGPU kernel `dynamic_lds` argument 1 uses unsupported reflected \
         value_kind `dynamic_shared_pointer`"
    );
    cli()
        .args(["inspect", &file])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "    HAL refuses:     INVALID_ARGUMENT; AMDGPU kernel `mixed_args` by_value",
        ))
        .stdout(predicate::str::contains("constants:       -   bindings: -"));
    cli()
        .args(["load", &file, "--machine", "mi300x-8"])
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains(
            "2 of 5 kernels are outside IREE's HAL projection: AMDGPU kernel `mixed_args` by_value",
        ))
        .stderr(predicate::str::contains(
            "; AMDGPU kernel `dynamic_lds` argument 1 uses unsupported reflected value_kind",
        ));
}

/// The first 2,000 bytes of a real HSACO: no kernel list, no `size: 2000`,
/// one error line naming what llvm-readelf names.
#[test]
fn a_truncated_code_object_is_refused_by_inspect_and_load() {
    let file = fixture("hsaco/broken/vector_add.gfx942.cov5.first2000.hsaco");
    for args in [
        vec!["inspect", &file],
        vec!["inspect", &file, "--json"],
        vec!["load", &file],
    ] {
        cli()
            .args(&args)
            .assert()
            .code(1)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::starts_with(
                "Error: INVALID_ARGUMENT; AMDGPU ELF section headers exceed file bounds: the \
                 section header table goes past the end of the file (e_shoff 0x1100 + 17 x 64 \
                 bytes, file is 2000 bytes); the file is truncated or corrupt",
            ));
    }
}

#[test]
fn inspect_of_a_spirv_bundle_fails_clearly() {
    cli()
        .args(["inspect", &fixture("iree/elementwise.spirv.amd1"), "--json"])
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("INVALID_ARGUMENT"))
        .stderr(predicate::str::contains("clang offload bundle"));
}

#[test]
fn inspect_of_a_missing_file_is_not_found() {
    cli()
        .args(["inspect", "/nonexistent/file.amd1"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("NOT_FOUND"));
}

#[test]
fn pack_then_inspect() {
    let dir = std::env::temp_dir().join(format!("amdgpu-hal-cli-pack-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("vector_add.amd1");
    cli()
        .args([
            "pack",
            &fixture("hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco"),
            "-o",
        ])
        .arg(&out)
        .args(["--debug-names", "--workgroup-size", "64,1,1"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "gfx942:sramecc+:xnack-, 2 exports",
        ));
    let json = cli()
        .arg("inspect")
        .arg(&out)
        .arg("--json")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(json["container"], "amd1");
    assert_eq!(json["exports"][0]["name"], "vector_add");
    assert_eq!(
        json["exports"][0]["workgroup_size"],
        serde_json::json!([64, 1, 1])
    );
    assert_eq!(json["exports"][1]["name"], "bump");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn pack_of_kernels_outside_the_projection_names_them() {
    let dir = std::env::temp_dir().join(format!("amdgpu-hal-cli-pack2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("kernels.amd1");
    cli()
        .args(["pack", &fixture("hsaco/kernels.gfx1100.cov5.hsaco"), "-o"])
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("mixed_args"))
        .stderr(predicate::str::contains("dynamic_lds"))
        .stderr(predicate::str::contains("INVALID_ARGUMENT"))
        .stderr(predicate::str::contains(
            "pack the others with `--kernel NAME` (repeatable): lds_reduce, scratch_walk, \
             implicit_args",
        ));
    assert!(!out.exists());
    cli()
        .args(["pack", &fixture("hsaco/kernels.gfx942.cov5.hsaco"), "-o"])
        .arg(&out)
        .args([
            "--kernel",
            "lds_reduce",
            "--kernel",
            "scratch_walk",
            "--workgroup-size",
            "128,2,1",
            "--json",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"exports\": 2"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn pack_asks_for_a_workgroup_size_naming_the_kernels_without_one() {
    cli()
        .args([
            "pack",
            &fixture("hsaco/vector_add.gfx1100.cov5.hsaco"),
            "-o",
            "/dev/null",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains(
            "no `.reqd_workgroup_size` and an AMD1 export needs a fixed work-group size: \
             `vector_add` (at most 256 work-items); give it with `--workgroup-size X,Y,Z`",
        ));
}

#[test]
fn pack_rejects_a_malformed_workgroup_size_as_usage_error() {
    for bad in ["64,1", "64,0,1", "a,b,c"] {
        cli()
            .args([
                "pack",
                &fixture("hsaco/vector_add.gfx1100.cov5.hsaco"),
                "-o",
                "/dev/null",
                "--workgroup-size",
                bad,
            ])
            .assert()
            .code(2);
    }
}

fn json_of(args: &[&str]) -> serde_json::Value {
    let out = cli()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
}

/// One meaning per key: the same kernel shows the same `symbol` (its
/// descriptor symbol) and `kernarg_alignment` (its code object's) in
/// `inspect` of the raw HSACO, the `AMD1` and the `HIP1` IREE built from it,
/// and in `load`; the numbers the HAL uses instead have their own keys.
#[test]
fn symbol_and_kernarg_alignment_mean_one_thing_everywhere() {
    let raw = json_of(&["inspect", &fixture("iree/matmul.gfx942.hsaco"), "--json"]);
    let amd1 = json_of(&["inspect", &fixture("iree/matmul.gfx942.amd1"), "--json"]);
    let hip1 = json_of(&["inspect", &fixture("iree/matmul.gfx942.hip1"), "--json"]);
    let loaded = json_of(&["load", &fixture("iree/matmul.gfx942.amd1"), "--json"]);
    let loaded_raw = json_of(&["load", &fixture("iree/matmul.gfx942.hsaco"), "--json"]);
    let symbol = "matmul_dispatch_0_matmul_128x64x256_f32.kd";
    for doc in [&raw, &amd1, &hip1, &loaded, &loaded_raw] {
        assert_eq!(doc["exports"][0]["symbol"], symbol, "{doc}");
    }
    // llvm-readelf-19 --notes: `.kernarg_segment_align: 8`.
    for doc in [&raw, &amd1, &hip1] {
        assert_eq!(doc["exports"][0]["kernarg_alignment"], 8, "{doc}");
    }
    for doc in [&loaded, &loaded_raw] {
        let args = &doc["exports"][0]["kernel_args"];
        assert_eq!(args["kernarg_alignment"], 8, "{doc}");
        assert_eq!(args["hsa_kernarg_alignment"], 16, "{doc}");
    }
    assert_eq!(raw["exports"][0]["hal_symbol"], symbol);
    assert_eq!(amd1["exports"][0]["hal_symbol"], symbol);
    assert_eq!(
        hip1["exports"][0]["hal_symbol"],
        "matmul_dispatch_0_matmul_128x64x256_f32"
    );
}

/// Three translation units linked into one object (three metadata notes,
/// as `llvm-readelf-19 --notes` lists them): `inspect`, `load` and `pack`
/// see all nine kernels of `src/multi_tu_{a,b,c}.cl`, shared or relocatable.
#[test]
fn every_kernel_of_a_multi_unit_object_is_seen() {
    let nine = [
        "a_copy",
        "a_scale",
        "a_fill",
        "b_tile_sum",
        "b_scratch",
        "b_add",
        "c_offset",
        "c_implicit",
        "c_transpose",
    ];
    for file in [
        "hsaco/multi_tu.gfx942.cov5.hsaco",
        "hsaco/multi_tu.gfx1100.cov5.o",
    ] {
        let json = json_of(&["inspect", &fixture(file), "--json"]);
        let names: Vec<_> = json["exports"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, nine, "{file}");
    }
    let loaded = json_of(&[
        "load",
        &fixture("hsaco/multi_tu.gfx942.cov5.hsaco"),
        "--json",
    ]);
    assert_eq!(loaded["exports"].as_array().unwrap().len(), 9);
    assert_eq!(loaded["exports"][8]["symbol"], "c_transpose.kd");
    let dir = std::env::temp_dir().join(format!("amdgpu-hal-cli-multi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("multi.amd1");
    cli()
        .args(["pack", &fixture("hsaco/multi_tu.gfx942.cov5.hsaco"), "-o"])
        .arg(&out)
        .args(["--workgroup-size", "64,1,1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("gfx942, 9 exports"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `inspect` maps a large file and reads it when `AMDGPU_HAL_NO_MMAP` is
/// set, with the same document either way (the choice shows in `-vv`).
#[test]
fn inspect_maps_large_files_unless_told_not_to() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-wrapped-mmap");
    std::fs::create_dir_all(&dir).unwrap();
    // A real code object padded past the mapping threshold: ELF readers
    // ignore bytes past the last section.
    let mut data = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/hsaco/multi_tu.gfx942.cov5.hsaco"
    ))
    .unwrap();
    data.resize(amdgpu_hal::input::MAP_THRESHOLD_BYTES as usize, 0);
    let path = dir.join("padded.hsaco");
    std::fs::write(&path, &data).unwrap();
    let run = |no_mmap: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_amdgpu-hal"));
        command.args(["-vv", "inspect", "--json"]).arg(&path);
        command
            .env_remove("RUST_LOG")
            .env_remove("AMDGPU_HAL_NO_MMAP");
        if no_mmap {
            command.env("AMDGPU_HAL_NO_MMAP", "1");
        }
        let output = command.output().unwrap();
        assert!(output.status.success(), "{output:?}");
        (
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(output.stderr).unwrap(),
        )
    };
    let (mapped, mapped_log) = run(false);
    let (read, read_log) = run(true);
    assert_eq!(mapped, read);
    assert!(mapped.contains("\"exports\""), "{mapped}");
    assert!(mapped_log.contains("mapped `"), "{mapped_log}");
    assert!(read_log.contains("reading `"), "{read_log}");
}

//! `amdgpu-hal load`: the JSON contract keys, device selection by affinity,
//! and failures (Status on stderr, nothing on stdout, exit 1).

use assert_cmd::Command;
use serde_json::Value;

fn cli() -> Command {
    let mut cmd = Command::cargo_bin("amdgpu-hal").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

#[test]
fn load_json_has_the_contract_keys() {
    let out = cli()
        .args([
            "load",
            "fixtures/iree/multi_dispatch.gfx942.amd1",
            "--json",
            "--machine",
            "mi300x-8",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["machine"], "mi300x-8");
    assert_eq!(doc["format"], "gfx942");
    assert_eq!(doc["container"], "amd1");
    assert_eq!(
        doc["loaded_devices"],
        serde_json::json!([0, 1, 2, 3, 4, 5, 6, 7])
    );
    let exports = doc["exports"].as_array().unwrap();
    assert!(!exports.is_empty());
    for export in exports {
        assert!(export["name"].as_str().is_some_and(|n| !n.is_empty()));
        let objects = export["kernel_objects"].as_array().unwrap();
        assert_eq!(objects.len(), 8);
        assert!(
            objects
                .iter()
                .all(|o| o.as_str().unwrap().starts_with("0x"))
        );
        assert_eq!(export["devices"][3]["kernel_object"], objects[3]);
    }
}

#[test]
fn affinity_selects_devices() {
    let out = cli()
        .args([
            "load",
            "fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco",
            "--json",
            "--affinity",
            "0x30",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["loaded_devices"], serde_json::json!([2]));
    assert_eq!(doc["queue_affinity"], "0x30");
    assert_eq!(doc["exports"][0]["name"], "vector_add");
    assert_eq!(doc["exports"][0]["dynamic_workgroup_size"], true);
    assert_eq!(
        doc["exports"][1]["workgroup_size"],
        serde_json::json!([64, 1, 1])
    );
}

#[test]
fn text_output_names_exports_and_devices() {
    let out = cli()
        .args([
            "load",
            "fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco",
            "--affinity",
            "0x5",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    insta::assert_snapshot!(text);
}

#[test]
fn failures_print_the_status_and_exit_1() {
    let out = cli()
        .args([
            "load",
            "fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco",
            "--json",
            "--machine",
            "w7900",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("Error: INCOMPATIBLE; executable format `gfx942:sramecc+:xnack-`"),
        "{stderr}"
    );
    assert!(stderr.contains("target `gfx1100`"), "{stderr}");

    let out = cli()
        .args([
            "load",
            "fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco",
            "--affinity",
            "0x10000",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    // Bits past the machine's queues are refused, naming the valid ones
    // (IREE's loader would drop them silently).
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("INVALID_ARGUMENT; queue affinity 0x10000")
            && stderr.contains("valid bits are 0xffff"),
        "{stderr}"
    );

    let out = cli().args(["load", "no/such/file.hsaco"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("NOT_FOUND; opening `no/such/file.hsaco`")
    );

    let out = cli().args(["load", "Cargo.toml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("INVALID_ARGUMENT"));

    let out = cli()
        .args(["load", "x.hsaco", "--affinity", "zz"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

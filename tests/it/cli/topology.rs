//! `amdgpu-hal topology`: text and JSON on the presets, failures on stderr.

use assert_cmd::Command;

fn topology(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("amdgpu-hal")
        .unwrap()
        .arg("topology")
        .args(args)
        .assert()
}

#[test]
fn text_on_mi300x() {
    let out = topology(&["--machine", "mi300x-8"])
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.starts_with(
            "Machine: mi300x-8 (backend sim)\n\
             GPU0 = agent [2] GPU-8af705259683161c = hip://GPU-38616637-3035-3235-3936-383331363163 (device id 1)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("\nGPU7 = agent [9] GPU-6e5d4c3b2a190817 = hip://GPU-36653564-3463-3362-3261-313930383137 (device id 8)\n\nDevice topology (8 devices):\n"),
        "{text}"
    );
    assert!(
        text.contains("GPU0   X      XGMI   XGMI   XGMI   XGMI   XGMI   XGMI   XGMI   0\n"),
        "{text}"
    );
    assert!(text.contains("XGMI   = nvlink_if: direct GPU link"));
    assert!(text.contains("GPU7   0x0000007f       0x0000007f       0x00000000       0x0000007f       0x0100000700000000"));
}

#[test]
fn json_on_mi250x() {
    let out = topology(&["--machine", "mi250x-4", "--json"])
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["device_count"], 8);
    assert_eq!(v["numa_nodes"], serde_json::json!([0, 0, 1, 1, 2, 2, 3, 3]));
    let edges = v["edges"].as_array().unwrap();
    assert_eq!(edges.len(), 8);
    assert!(edges.iter().all(|row| row.as_array().unwrap().len() == 8));
    assert_eq!(v["edges"][0][1]["link_class"], "nvlink_if");
    assert_eq!(v["edges"][0][1]["copy_cost"], 2);
    // GCD0 and GCD2 share one xGMI link (50 GB/s, the KFD's one-link figure).
    assert_eq!(v["edges"][0][2]["copy_cost"], 4);
    assert_eq!(v["edges"][3][3]["lo"], "0x00000000009ff000");
    assert_eq!(v["devices"][0]["can_p2p_with"], 254);
    assert_eq!(v["devices"][5]["base_axis"], "0x0100000500000000");
}

#[test]
fn machine_file_works_like_a_preset() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/machines/mixed-isa.toml"
    );
    let out = topology(&["--machine", path])
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("GPU0   X      XGMI   PCIE   PCIE   0\n"),
        "{text}"
    );
}

#[test]
fn failures_go_to_stderr_with_exit_1() {
    let a = topology(&["--machine", "cpu-only"]).code(1).stdout("");
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert!(
        err.starts_with("Error: UNAVAILABLE; machine 'cpu-only' has no GPU (backend sim)"),
        "{err}"
    );
    assert!(err.ends_with("`devices` lists its agents\n"), "{err}");
    let a = topology(&["--machine", "/nonexistent/machine.toml", "--json"])
        .code(1)
        .stdout("");
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert!(err.starts_with("Error: NOT_FOUND"), "{err}");
}

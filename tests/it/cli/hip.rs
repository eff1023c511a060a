//! The HIP driver's CLI pieces end to end: `devices --backend hip`, `info
//! PATH` and the HIP topology, with reviewed snapshots for the presets.

#[cfg(feature = "real")]
use crate::support;

use assert_cmd::Command;
use serde_json::Value;

const PRESETS: [&str; 7] = [
    "mi300x-8",
    "mi250x-4",
    "w7900",
    "mixed-isa",
    "cpu-only",
    "r9700-4",
    "mi355x-8",
];

fn run(args: &[&str]) -> (bool, String, String) {
    let output = Command::cargo_bin("amdgpu-hal")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn ok(args: &[&str]) -> String {
    let (success, stdout, stderr) = run(args);
    assert!(success, "{args:?}: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    stdout
}

#[test]
fn devices_backend_hip_json_for_every_preset() {
    for preset in PRESETS {
        let text = ok(&["devices", "--backend", "hip", "--machine", preset, "--json"]);
        let doc: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["backend"], "hip");
        for (i, agent) in doc["agents"].as_array().unwrap().iter().enumerate() {
            assert_eq!(agent["index"], i);
            assert_eq!(agent["device_id"], i + 1);
            let path = agent["path"].as_str().unwrap();
            assert_eq!(path.len(), 40);
            // The path selects the same device through `info`.
            let dump = ok(&["info", path, "--machine", preset, "--json"]);
            let dump: Value = serde_json::from_str(&dump).unwrap();
            assert_eq!(dump["devices"][0]["device_id"], i + 1);
        }
        insta::assert_snapshot!(format!("devices_hip_{preset}"), text);
    }
}

#[test]
fn devices_backend_hip_text() {
    insta::assert_snapshot!(ok(&[
        "devices",
        "--backend",
        "hip",
        "--machine",
        "mi300x-8"
    ]));
}

#[test]
fn info_of_each_preset_default_device() {
    for preset in ["mi300x-8", "mi250x-4", "w7900", "mixed-isa"] {
        insta::assert_snapshot!(format!("info_{preset}"), ok(&["info", "--machine", preset]));
    }
}

#[test]
fn info_of_a_list_dumps_each_device_in_order() {
    let text = ok(&["info", "1,0", "--machine", "mixed-isa"]);
    let headers: Vec<&str> = text.lines().filter(|l| l.starts_with("# hip://")).collect();
    assert_eq!(headers.len(), 2);
    insta::assert_snapshot!(text);
}

#[test]
fn info_errors_exit_1_with_iree_messages() {
    for (args, message) in [
        (
            vec!["info", "9"],
            "Error: NOT_FOUND; device 9 not found (of 8 enumerated)",
        ),
        (
            vec!["info", "-1"],
            "Error: INVALID_ARGUMENT; device path is not an index: '-1'",
        ),
        (
            vec!["info", "GPU-0011"],
            "Error: INVALID_ARGUMENT; invalid GPU UUID: '0011'",
        ),
        (
            vec!["info", "0,0"],
            "Error: INVALID_ARGUMENT; device 0 is listed twice",
        ),
        (
            vec!["info", "0,,1"],
            "Error: INVALID_ARGUMENT; empty entry 2 in device list '0,,1'",
        ),
        (
            vec!["info", "hip://0"],
            "Error: UNIMPLEMENTED; unsupported device path",
        ),
        (
            vec!["info", "GPU-00112233-4455-6677-8899-aabbccddeeff"],
            "Error: NOT_FOUND; HIP device with UUID GPU-00112233-4455-6677-8899-aabbccddeeff not found",
        ),
        (
            vec!["info", "--machine", "cpu-only"],
            "Error: UNAVAILABLE; machine 'cpu-only' has no GPU (backend sim)",
        ),
    ] {
        let (success, stdout, stderr) = run(&args);
        assert!(!success, "{args:?}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(stderr.starts_with(message), "{args:?}: {stderr}");
    }
}

/// `--machine host` is the real runtime: without feature `real` it is
/// unavailable. With it, Debian's HIP 5.2 must be installed (the skip rule:
/// CI installs it); on a machine without a GPU (CI) `hipInit` fails and the
/// driver reports it as IREE does, naming the call; on one with GPUs the
/// listing names as many devices as its header counts.
#[test]
fn host_machine_is_the_real_runtime() {
    #[cfg(feature = "real")]
    if !support::requires::hip_runtime("`devices --backend hip --machine host` over HIP 5.2") {
        return;
    }
    let (success, stdout, stderr) = run(&["devices", "--backend", "hip", "--machine", "host"]);
    #[cfg(feature = "real")]
    if success {
        assert!(stderr.is_empty(), "{stderr}");
        let header = stdout.lines().next().unwrap_or_default();
        let count: usize = header
            .split_once("): ")
            .and_then(|(_, rest)| rest.split_once(" HIP device"))
            .and_then(|(n, _)| n.parse().ok())
            .unwrap_or_else(|| panic!("unexpected header: {header}"));
        assert!(header.contains("(backend hip)"), "{header}");
        let listed = stdout.lines().filter(|line| line.starts_with('[')).count();
        assert_eq!((count > 0, listed), (true, count), "{stdout}");
    } else {
        assert!(stdout.is_empty(), "{stdout}");
        let no_gpu = "Error: FAILED_PRECONDITION; HIP driver error 'hipErrorInvalidDevice' (101)";
        assert!(stderr.starts_with(no_gpu), "{stderr}");
        assert!(stderr.trim_end().ends_with("; hipInit"), "{stderr}");
    }
    #[cfg(not(feature = "real"))]
    {
        assert!(stdout.is_empty());
        assert!(!success);
        assert!(
            stderr.starts_with("Error: UNAVAILABLE; the real HIP runtime (--machine host) needs cargo feature `real`"),
            "{stderr}"
        );
    }
}

#[test]
fn hip_topology_of_mi300x_8() {
    use amdgpu_hal::report::Selection;
    use amdgpu_hal::report::hip::hip_topology;
    use amdgpu_hal::report::topology::{TopologyDocument, TopologyStyle};
    let selection = Selection::new("hip", Some("mi300x-8".into()));
    let TopologyDocument::Text(text) =
        hip_topology(&selection, "0,1,4", TopologyStyle::Text).unwrap()
    else {
        panic!("text style gives text")
    };
    insta::assert_snapshot!(text);
    let TopologyDocument::Json(json) = hip_topology(&selection, "", TopologyStyle::Json).unwrap()
    else {
        panic!("JSON style gives the document")
    };
    let json = serde_json::to_vec(&json).unwrap();
    let doc: Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(doc["device_count"], 8);
    assert_eq!(
        doc["numa_nodes"],
        serde_json::json!([0, 0, 0, 0, 1, 1, 1, 1])
    );
    assert_eq!(doc["edges"][0][1]["link_class"], "nvlink_if");
    let caps = doc["edges"][0][1]["capabilities"].as_array().unwrap();
    assert!(caps.iter().any(|c| c == "peer_access_requires_grant"));
}

#[test]
fn topology_subcommand_with_backend_hip_and_device() {
    let text = ok(&[
        "topology",
        "--backend",
        "hip",
        "--machine",
        "mi250x-4",
        "--device",
        "0,3",
        "--json",
    ]);
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["device_count"], 2);
    assert_eq!(doc["numa_nodes"], serde_json::json!([0, 1]));
    let (success, _, stderr) = run(&["topology", "--device", "0"]);
    assert!(!success);
    assert!(
        stderr.starts_with("Error: INVALID_ARGUMENT; --device selects HIP devices"),
        "{stderr}"
    );
    let (success, _, stderr) = run(&["topology", "--backend", "hip", "--device", "0,0"]);
    assert!(!success);
    assert!(stderr.contains("listed twice"), "{stderr}");
}

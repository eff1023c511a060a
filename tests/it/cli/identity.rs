//! One identity for a GPU everywhere: `devices` (HSA view), `devices
//! --backend hip`, `topology` (both views, text and JSON) and `info` agree on
//! which agent, UUID, HIP device and path each GPU is, on every preset; and
//! every spelling of a device that a listing prints selects that device.

use crate::support::answer;
use amdgpu_sim::presets::PRESETS;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&answer(args).unwrap_or_else(|e| panic!("{args:?}: {e}"))).unwrap()
}

/// The HIP path ROCm gives an agent UUID: `hipDeviceGetUuid` is the 16 hex
/// digits after `GPU-` as ASCII bytes, formatted 8-4-4-4-12 (written here
/// from that rule, not with the crate's code).
fn rocm_path(agent_uuid: &str) -> String {
    let hex: String = agent_uuid
        .strip_prefix("GPU-")
        .unwrap()
        .bytes()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!(
        "GPU-{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

#[test]
fn rocminfo_uuid_and_hip_path_of_the_mi300x() {
    // rocminfo on MI300X prints GPU-8af705259683161c (fixtures/machines/mi300x-8.toml).
    assert_eq!(
        rocm_path("GPU-8af705259683161c"),
        "GPU-38616637-3035-3235-3936-383331363163"
    );
}

#[test]
fn every_listing_names_each_gpu_the_same_way() {
    for &(preset, _) in PRESETS {
        let agents = json(&["devices", "--json", "--machine", preset]);
        let gpus: Vec<&Value> = agents["agents"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["kind"] == "gpu")
            .collect();
        let hip = json(&["devices", "--backend", "hip", "--json", "--machine", preset]);
        let topo = answer(&["topology", "--json", "--machine", preset]);
        let hip_topo = answer(&[
            "topology",
            "--backend",
            "hip",
            "--json",
            "--machine",
            preset,
        ]);
        if gpus.is_empty() {
            assert!(topo.is_err() && hip_topo.is_err(), "{preset}");
            continue;
        }
        let topo: Value = serde_json::from_str(&topo.unwrap()).unwrap();
        let hip_topo: Value = serde_json::from_str(&hip_topo.unwrap()).unwrap();
        assert_eq!(topo["machine"], preset);
        assert_eq!(topo["backend"], "sim");
        assert_eq!(hip_topo["machine"], preset);
        assert_eq!(hip_topo["backend"], "hip");
        for (k, gpu) in gpus.iter().enumerate() {
            let at = format!("{preset} GPU{k}");
            let uuid = gpu["uuid"].as_str().unwrap();
            let path = rocm_path(uuid);
            assert_eq!(gpu["gpu_index"], k, "{at}");
            assert_eq!(gpu["path"], path.as_str(), "{at}");
            assert_eq!(gpu["device_id"], k + 1, "{at}");
            let h = &hip["agents"][k];
            assert_eq!(h["path"], path.as_str(), "{at}");
            assert_eq!(h["uuid"], uuid, "{at}");
            assert_eq!(h["agent_index"], gpu["index"], "{at}");
            for doc in [&topo, &hip_topo] {
                let d = &doc["devices"][k];
                assert_eq!(d["index"], k, "{at}");
                assert_eq!(d["agent_index"], gpu["index"], "{at}");
                assert_eq!(d["uuid"], uuid, "{at}");
                assert_eq!(d["path"], path.as_str(), "{at}");
                assert_eq!(d["device_id"], k + 1, "{at}");
                assert_eq!(d["product"], gpu["product"], "{at}");
            }
            let line = format!(
                "GPU{k} = agent [{}] {uuid} = hip://{path} (device id {})",
                gpu["index"],
                k + 1
            );
            for args in [vec!["topology"], vec!["topology", "--backend", "hip"]] {
                let mut args = args.clone();
                args.extend(["--machine", preset]);
                let text = answer(&args).unwrap();
                assert!(text.contains(&format!("\n{line}\n")), "{at}: {text}");
            }
        }
    }
}

/// `info` and `topology --device` take a GPU by its index, its HIP path in
/// either case with or without dashes (IREE's grammar), or the HSA UUID
/// `devices` prints, and answer the same for each.
#[test]
fn every_printed_spelling_selects_the_device() {
    for &(preset, _) in PRESETS {
        let agents = json(&["devices", "--json", "--machine", preset]);
        let gpus: Vec<&Value> = agents["agents"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["kind"] == "gpu")
            .collect();
        for (k, gpu) in gpus.iter().enumerate() {
            let uuid = gpu["uuid"].as_str().unwrap();
            let path = rocm_path(uuid);
            let by_index = answer(&["info", &k.to_string(), "--machine", preset]).unwrap();
            assert!(
                by_index.starts_with(&format!("# hip://{path}\n")),
                "{by_index}"
            );
            for spelling in [
                path.clone(),
                path.to_uppercase(),
                format!("GPU-{}", path[4..].replace('-', "")),
                uuid.to_owned(),
                format!("GPU-{}", uuid[4..].to_uppercase()),
            ] {
                assert_eq!(
                    answer(&["info", &spelling, "--machine", preset]).as_ref(),
                    Ok(&by_index),
                    "{preset}: info {spelling}"
                );
            }
            if k > 0 {
                let by_index = answer(&[
                    "topology",
                    "--backend",
                    "hip",
                    "--device",
                    &format!("0,{k}"),
                    "--machine",
                    preset,
                ]);
                let first = gpus[0]["uuid"].as_str().unwrap();
                let by_uuid = answer(&[
                    "topology",
                    "--backend",
                    "hip",
                    "--device",
                    &format!("{first},{path}"),
                    "--machine",
                    preset,
                ]);
                assert_eq!(by_uuid, by_index, "{preset}: --device {first},{path}");
            }
        }
    }
}

#[test]
fn unknown_and_malformed_uuids_are_refused_by_name() {
    let err = answer(&["info", "GPU-0123456789abcdef", "--machine", "w7900"]).unwrap_err();
    assert!(
        err.starts_with("NOT_FOUND; HIP device with HSA UUID GPU-0123456789abcdef not found"),
        "{err}"
    );
    for bad in [
        "GPU-8af70525968316",
        "GPU-8af705259683161c0",
        "GPU-8af70525-9683161c",
    ] {
        let err = answer(&["info", bad, "--machine", "mi300x-8"]).unwrap_err();
        assert!(
            err.starts_with("INVALID_ARGUMENT; invalid GPU UUID: '"),
            "{bad}: {err}"
        );
        assert!(err.contains("or HSA's 16"), "{err}");
    }
}

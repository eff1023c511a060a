//! The H200 seen once through HIP on CUDA (`fixtures/machines/h200.toml`,
//! captured on the nvidia-h200 device machine) replays in the simulator:
//! `devices` lists the same GPU, the captured facts agree with `nvidia-smi`
//! of the same run (`h200.nvidia-smi.txt`), and `load` reaches the format
//! check (an H200 runs no AMDGPU code object) instead of failing for want of
//! a host agent.

use amdgpu_hal::backend::{Backend, HipDevice};
use amdgpu_hal::report::devices::list_agents;

const MACHINE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/machines/h200.toml");

fn real_devices() -> serde_json::Value {
    let text = include_str!("../../../fixtures/machines/h200.devices.json");
    serde_json::from_str(text).unwrap()
}

/// `devices` of the replay lists the real run's GPU, then the host CPU agent
/// a HIP capture infers (HIP shows none; docs in `src/cli/capture_hip.rs`).
#[test]
fn sim_devices_equal_the_real_run() {
    let replay = Backend::sim(MACHINE).unwrap();
    let mut sim = serde_json::to_value(list_agents(&replay).unwrap()).unwrap();
    let mut real = real_devices();
    assert_eq!(real["backend"], "cuda");
    assert_eq!(sim["backend"], "sim");
    let cpu = sim["agents"].as_array_mut().unwrap().remove(0);
    assert_eq!(cpu["kind"], "cpu");
    assert_eq!(cpu["name"], "host CPU (inferred from HIP)");
    assert_eq!(cpu["numa_node"], real["agents"][0]["numa_node"]);
    // The real run's `index` and `node` are the HIP ordinal (HIP has no
    // agents); the replay's GPU comes after the inferred CPU, GPU0 there.
    let gpu = sim["agents"][0].as_object_mut().unwrap();
    assert_eq!((&gpu["index"], &gpu["node"]), (&1.into(), &1.into()));
    assert_eq!(
        gpu.remove("gpu_index"),
        Some(real["agents"][0]["index"].clone())
    );
    gpu.insert("index".into(), real["agents"][0]["index"].clone());
    gpu.insert("node".into(), real["agents"][0]["node"].clone());
    for doc in [&mut sim, &mut real] {
        let doc = doc.as_object_mut().unwrap();
        doc.remove("backend");
        doc.remove("machine");
        // Only HIP backends print IREE's device id and path.
        for agent in doc["agents"].as_array_mut().unwrap() {
            agent.as_object_mut().unwrap().remove("device_id");
            agent.as_object_mut().unwrap().remove("path");
        }
    }
    assert_eq!(sim, real);
}

/// `devices --backend hip` (IREE's HIP driver over the simulated H200)
/// gives the device the real run's `device_id` and `path`. (That listing is
/// IREE's HIP view, not the cuda backend's HSA-shaped one, so only the keys
/// both print are compared.)
#[test]
fn hip_devices_equal_the_real_run() {
    let output = assert_cmd::Command::cargo_bin("amdgpu-hal")
        .unwrap()
        .args([
            "devices",
            "--backend",
            "hip",
            "--machine",
            MACHINE,
            "--json",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let sim: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let real = real_devices();
    assert_eq!(sim["backend"], "hip");
    assert_eq!(sim["agents"].as_array().unwrap().len(), 1);
    let (sim, real) = (&sim["agents"][0], &real["agents"][0]);
    assert_eq!(sim["path"], "GPU-4260bfb0-645d-3cec-f3d7-764bea0daa6c");
    for key in ["path", "device_id", "index", "kind", "product"] {
        assert_eq!(sim[key], real[key], "{key}");
    }
}

#[test]
fn hip_uuid_replays_the_cuda_bytes() {
    let replay = Backend::sim(MACHINE).unwrap();
    let hip = replay.hip();
    hip.init(0).unwrap();
    let device = hip.device_get(0).unwrap();
    let uuid = hip.device_get_uuid(device).unwrap();
    assert_eq!(
        uuid.bytes(),
        &[
            0x42, 0x60, 0xbf, 0xb0, 0x64, 0x5d, 0x3c, 0xec, 0xf3, 0xd7, 0x76, 0x4b, 0xea, 0x0d,
            0xaa, 0x6c
        ]
    );
}

/// Capturing the replayed H200 writes the same description back (the HIP
/// UUID included), through the HSA walk and through IREE's HIP driver.
#[test]
fn replay_recaptures_the_hip_uuid() {
    let description = include_str!("../../../fixtures/machines/h200.toml");
    let field = "uuid = \"4260bfb0-645d-3cec-f3d7-764bea0daa6c\"";
    for backend in ["sim", "hip"] {
        let output = assert_cmd::Command::cargo_bin("amdgpu-hal")
            .unwrap()
            .args([
                "capture",
                "--backend",
                backend,
                "--machine",
                MACHINE,
                "--name",
                "h200",
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{backend}: {stderr}");
        let text = String::from_utf8(output.stdout).unwrap();
        assert!(text.contains(field), "{backend}: {text}");
        assert!(description.contains(field));
    }
}

#[test]
fn captured_facts_agree_with_nvidia_smi() {
    let smi = include_str!("../../../fixtures/machines/h200.nvidia-smi.txt");
    let real = real_devices();
    let agent = &real["agents"][0];
    // nvidia-smi -L: "GPU 0: NVIDIA H200 (UUID: GPU-4260bfb0-645d-3cec-f3d7-764bea0daa6c)".
    let path = agent["path"].as_str().unwrap();
    assert!(
        smi.contains(&format!("GPU 0: NVIDIA H200 (UUID: {path})")),
        "{smi}"
    );
    assert_eq!(agent["product"], "NVIDIA H200");
    // The CSV row: uuid, name, memory.total [MiB], pci.bus_id, compute_cap.
    assert!(smi.contains(&format!(
        "{path}, NVIDIA H200, 143771 MiB, 00000000:00:06.0, 9.0"
    )));
    // memory.total includes the 616 MiB the driver reserves; cuDeviceTotalMem does not.
    assert!(
        smi.contains("143771 MiB, 616 MiB, 0 MiB, 143156 MiB"),
        "{smi}"
    );
    let size = agent["pools"][0]["size"].as_u64().unwrap();
    assert_eq!(size / (1024 * 1024), 143771 - 616);
    assert_eq!(agent["name"], "sm_90", "compute capability 9.0");
    // HSA's GPU-<16 hex> uuid is the first 8 bytes of the CUDA UUID.
    let hsa_uuid = agent["uuid"].as_str().unwrap();
    let digits = path.trim_start_matches("GPU-").replace('-', "");
    assert_eq!(hsa_uuid, format!("GPU-{}", &digits[..16]));
}

#[test]
fn hip_properties_replay() {
    let replay = Backend::sim(MACHINE).unwrap();
    let hip = replay.hip();
    hip.init(0).unwrap();
    assert_eq!(hip.get_device_count(), Ok(1));
    assert_eq!(
        hip.device_get_name(HipDevice(0), 128).unwrap(),
        "NVIDIA H200"
    );
    let props = hip.get_device_properties(0).unwrap();
    assert_eq!((props.major, props.minor), (9, 0));
    assert_eq!(props.total_global_mem, 150_109_880_320);
    assert_eq!((props.multi_processor_count, props.warp_size), (132, 32));
    assert_eq!(props.max_threads_dim, [1024, 1024, 64]);
    assert_eq!(props.l2_cache_size, 62_914_560);
    assert_eq!(
        (props.pci_bus_id, props.pci_device_id),
        (0, 6),
        "bus 00, device 06 (00000000:00:06.0)"
    );
    assert_eq!(replay.hip().driver_get_version(), Ok(13000));
}

/// The replay has the host agent IREE's loader needs, so `load` gets as far
/// as the real H200 would: the executable's AMDGPU target is not the GPU's.
#[test]
fn load_reaches_the_format_check() {
    let output = assert_cmd::Command::cargo_bin("amdgpu-hal")
        .unwrap()
        .args([
            "load",
            "fixtures/iree/matmul.gfx942.amd1",
            "--machine",
            MACHINE,
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("CPU agent"), "{stderr}");
    assert!(stderr.contains("nvptx64-nvidia-cuda--sm_90"), "{stderr}");
}

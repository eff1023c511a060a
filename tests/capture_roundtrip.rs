//! `capture` round trips through the simulator: a preset captured through
//! the backend traits, written as TOML and loaded back, lists the same
//! devices and links; capturing the capture gives the same bytes.

use amdgpu_hal::backend::{Backend, CallResultExt};
use amdgpu_hal::cli::capture::{capture, to_toml};
use amdgpu_hal::cli::devices::list_agents;
use amdgpu_sim::presets::PRESETS;

fn devices_json(backend: &Backend) -> serde_json::Value {
    let mut json = serde_json::to_value(list_agents(backend).unwrap()).unwrap();
    json.as_object_mut().unwrap().remove("machine");
    json
}

/// Every (agent, other agent's first global pool) link, as the HAL reads it.
fn links(backend: &Backend) -> Vec<String> {
    let hsa = backend.hsa();
    hsa.init().call_status("hsa_init").unwrap();
    let agents = hsa.iterate_agents().unwrap();
    let mut out = Vec::new();
    for &a in &agents {
        for &b in &agents {
            for pool in hsa.agent_iterate_memory_pools(b).unwrap() {
                let access = hsa.agent_memory_pool_access(a, pool).unwrap();
                let hops = hsa.agent_memory_pool_link_info(a, pool).unwrap();
                out.push(format!("{a:?}->{pool:?}: {access:?} {hops:?}"));
            }
        }
    }
    hsa.shut_down().unwrap();
    out
}

#[test]
fn every_preset_replays_identically() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("capture-roundtrip");
    std::fs::create_dir_all(&dir).unwrap();
    for &(name, _) in PRESETS {
        let original = Backend::sim(name).unwrap();
        let desc = capture(&original, name, None).unwrap();
        let text = to_toml(&desc).unwrap();
        let file = dir.join(format!("{name}.toml"));
        std::fs::write(&file, &text).unwrap();
        let replay =
            Backend::sim(file.to_str().unwrap()).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(
            devices_json(&replay),
            devices_json(&original),
            "{name}: devices differ"
        );
        assert_eq!(links(&replay), links(&original), "{name}: links differ");
        for ordinal in 0..original.hip().get_device_count().unwrap_or(0) {
            assert_eq!(
                replay.hip().get_device_properties(ordinal),
                original.hip().get_device_properties(ordinal),
                "{name}: HIP properties of device {ordinal}"
            );
        }
        let again = to_toml(&capture(&replay, name, None).unwrap()).unwrap();
        assert_eq!(again, text, "{name}: capturing the capture changes it");
    }
}

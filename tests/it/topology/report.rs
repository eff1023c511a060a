//! The human and JSON views of a group's topology, on mock devices.

use std::collections::BTreeSet;
use std::sync::Arc;

use amdgpu_hal::device::FrontierTracker;
use amdgpu_hal::device::testing::{MockDevice, RefineFn};
use amdgpu_hal::group::report::{render_text, to_json};
use amdgpu_hal::group::{DeviceGroup, DeviceGroupBuilder};
use amdgpu_hal::topology::{
    DeviceCapabilities, DeviceCapabilityFlags, HandleTypes, LinkClass, SlitTable,
};

fn group() -> DeviceGroup {
    let caps = |numa_node| DeviceCapabilities {
        flags: DeviceCapabilityFlags::P2P_COPY | DeviceCapabilityFlags::PEER_ADDRESSABLE,
        semaphore_export_types: HandleTypes::NATIVE | HandleTypes::OPAQUE_FD,
        semaphore_import_types: HandleTypes::NATIVE | HandleTypes::OPAQUE_FD,
        numa_node,
        ..Default::default()
    };
    let xgmi: Arc<RefineFn> = Arc::new(|_, _, edge| {
        edge.set_link_class(LinkClass::NvlinkIf).set_copy_cost(3);
        Ok(())
    });
    let mut b = DeviceGroupBuilder::new(Arc::new(FrontierTracker::default()))
        .with_numa_distances(Arc::new(SlitTable::uniform(2, 10, 32)));
    b.add_device(
        MockDevice::new("mock")
            .with_capabilities(caps(0))
            .with_refine(xgmi.clone())
            .into_dyn(),
    )
    .unwrap();
    b.add_device(
        MockDevice::new("mock")
            .with_capabilities(caps(0))
            .with_refine(xgmi)
            .into_dyn(),
    )
    .unwrap();
    b.add_device(
        MockDevice::new("other")
            .with_capabilities(caps(1))
            .into_dyn(),
    )
    .unwrap();
    b.finalize().unwrap()
}

#[test]
fn text_matrix() {
    insta::assert_snapshot!(render_text(&group(), "GPU"));
}

#[test]
fn json_has_exactly_the_contract_keys() {
    let value = serde_json::to_value(to_json(&group())).unwrap();
    let keys = |v: &serde_json::Value| {
        v.as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect::<BTreeSet<_>>()
    };
    let set = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(
        keys(&value),
        set(&["device_count", "numa_nodes", "edges", "devices"])
    );
    assert_eq!(
        keys(&value["edges"][0][1]),
        set(&[
            "src",
            "dst",
            "lo",
            "hi",
            "wait_mode",
            "signal_mode",
            "buffer_read_noncoherent",
            "buffer_write_noncoherent",
            "buffer_read_coherent",
            "buffer_write_coherent",
            "capabilities",
            "wait_cost",
            "signal_cost",
            "copy_cost",
            "latency_class",
            "numa_distance",
            "link_class",
            "semaphore_import_types",
            "semaphore_export_types",
            "buffer_import_types",
            "buffer_export_types",
        ])
    );
    assert_eq!(
        keys(&value["devices"][0]),
        set(&[
            "index",
            "can_wait_from",
            "can_signal_to",
            "can_import_from",
            "can_p2p_with",
            "base_axis"
        ])
    );
    assert_eq!(value["device_count"], 3);
    assert_eq!(value["numa_nodes"], serde_json::json!([0, 0, 1]));
    let self_edge = &value["edges"][0][0];
    assert_eq!(self_edge["lo"], "0x00000000009ff000");
    assert_eq!(self_edge["hi"], "0x0000000001010101");
    assert_eq!(self_edge["link_class"], "same_die");
    assert_eq!(self_edge["wait_mode"], "native");
    assert_eq!(
        self_edge["semaphore_import_types"],
        serde_json::json!(["native"])
    );
    let xgmi = &value["edges"][0][1];
    assert_eq!(
        (xgmi["src"].as_u64(), xgmi["dst"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(xgmi["link_class"], "nvlink_if");
    assert_eq!(xgmi["copy_cost"], 3);
    assert_eq!(
        xgmi["capabilities"],
        serde_json::json!(["same_runtime_domain", "p2p_copy"])
    );
    let cross = &value["edges"][0][2];
    assert_eq!(cross["link_class"], "host_staged");
    assert_eq!(cross["wait_mode"], "import");
    assert_eq!(cross["numa_distance"], 11);
    assert_eq!(
        cross["semaphore_import_types"],
        serde_json::json!(["native", "opaque_fd"])
    );
    assert_eq!(value["devices"][1]["can_wait_from"], 0b101);
    assert_eq!(value["devices"][2]["base_axis"], "0x0100000200000000");
}

//! Device groups over every preset machine of the simulator: one AMDGPU
//! device per GPU agent; the matrices are reviewed snapshots.

use std::sync::Arc;

use amdgpu_hal::StatusCode;
use amdgpu_hal::amdgpu::device::{AmdgpuDevice, create_gpu_agent_group, hsa_numa_distances};
use amdgpu_hal::backend::{Backend, Hsa};
use amdgpu_hal::device::{FrontierTracker, HalDevice};
use amdgpu_hal::group::report::render_text;
use amdgpu_hal::group::{DeviceGroup, DeviceGroupBuilder};
use amdgpu_hal::topology::{InteropMode, LinkClass, TopologyCapabilities};
use amdgpu_sim::{Fault, HsaCode, Sim};

fn devices(hsa: &Arc<dyn Hsa>) -> Vec<Arc<AmdgpuDevice>> {
    AmdgpuDevice::enumerate(hsa).unwrap()
}

fn build(hsa: &Arc<dyn Hsa>, devices: &[Arc<AmdgpuDevice>]) -> amdgpu_hal::Result<DeviceGroup> {
    let slit = hsa_numa_distances(hsa.as_ref())?;
    let mut builder = DeviceGroupBuilder::new(Arc::new(FrontierTracker::default()))
        .with_numa_distances(Arc::new(slit));
    for device in devices {
        builder.add_device(Arc::clone(device) as Arc<dyn HalDevice>)?;
    }
    builder.finalize()
}

fn group_on(machine: &str) -> DeviceGroup {
    let backend = Backend::sim(machine).unwrap();
    backend.hsa().unwrap().init().unwrap();
    create_gpu_agent_group(
        &backend.hsa_arc().unwrap(),
        Arc::new(FrontierTracker::default()),
    )
    .unwrap()
}

fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).flat_map(move |i| (0..n).filter(move |j| *j != i).map(move |j| (i, j)))
}

#[test]
fn mi300x_is_xgmi_between_every_pair() {
    let group = group_on("mi300x-8");
    let t = group.topology();
    assert_eq!(t.device_count(), 8);
    for (i, j) in pairs(8) {
        let e = t.edge(i, j).unwrap();
        assert_eq!(e.link_class(), LinkClass::NvlinkIf, "{i}->{j}");
        assert_eq!(e.copy_cost(), 3, "{i}->{j}");
        assert_eq!(
            (e.wait_mode(), e.signal_mode()),
            (InteropMode::Native, InteropMode::Native)
        );
        assert!(e.capabilities().contains(
            TopologyCapabilities::P2P_COPY
                | TopologyCapabilities::PEER_COHERENT
                | TopologyCapabilities::SAME_RUNTIME_DOMAIN
                | TopologyCapabilities::PEER_ACCESS_REQUIRES_GRANT
        ));
        // Peer VRAM is disallowed by default: copies until access is granted.
        assert_eq!(e.buffer_read_mode_noncoherent(), InteropMode::Copy);
    }
    assert_eq!(t.numa_nodes(), &[0, 0, 0, 0, 1, 1, 1, 1]);
    for device in group.devices() {
        let info = device.topology_info().unwrap();
        let others = 0xFF & !(1 << info.topology_index);
        assert_eq!(
            (info.can_wait_from, info.can_signal_to, info.can_p2p_with),
            (others, others, others)
        );
    }
    insta::assert_snapshot!(render_text(&group, "GPU"));
}

#[test]
fn mi250x_shows_its_mix() {
    let group = group_on("mi250x-4");
    let t = group.topology();
    assert_eq!(t.device_count(), 8);
    let cost = |i: usize, j: usize| t.edge(i, j).unwrap().copy_cost();
    // The two GCDs of one package (4 links) are the cheapest pairs.
    for package in 0..4 {
        assert_eq!(cost(2 * package, 2 * package + 1), 2);
    }
    // A single link between packages, or two xGMI hops (KFD weight 30),
    // cost 4; the two pairs three hops apart (weight 45) 5.
    assert_eq!(cost(0, 2), 4);
    assert_eq!(cost(0, 3), 4);
    assert_eq!(cost(1, 7), 5);
    assert_eq!(cost(3, 5), 5);
    let mut costs: Vec<u8> = pairs(8).map(|(i, j)| cost(i, j)).collect();
    costs.sort_unstable();
    costs.dedup();
    assert_eq!(costs, [2, 4, 5]);
    for (i, j) in pairs(8) {
        assert_eq!(t.edge(i, j).unwrap().link_class(), LinkClass::NvlinkIf);
        assert_eq!(cost(i, j), cost(j, i));
    }
    assert_eq!(t.numa_nodes(), &[0, 0, 1, 1, 2, 2, 3, 3]);
    insta::assert_snapshot!(render_text(&group, "GPU"));
}

#[test]
fn mixed_isa_mixes_xgmi_and_pcie() {
    let group = group_on("mixed-isa");
    let t = group.topology();
    let classes: Vec<LinkClass> = pairs(t.device_count())
        .map(|(i, j)| t.edge(i, j).unwrap().link_class())
        .collect();
    assert!(classes.contains(&LinkClass::NvlinkIf) && classes.contains(&LinkClass::PcieSameRoot));
    insta::assert_snapshot!(render_text(&group, "GPU"));
}

#[test]
fn w7900_is_one_device() {
    let group = group_on("w7900");
    assert_eq!(group.device_count(), 1);
    insta::assert_snapshot!(render_text(&group, "GPU"));
}

#[test]
fn cpu_only_has_no_devices() {
    let backend = Backend::sim("cpu-only").unwrap();
    backend.hsa().unwrap().init().unwrap();
    let hsa = backend.hsa_arc().unwrap();
    let err = build(&hsa, &devices(&hsa)).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert_eq!(err.message(), "device group builder has no devices");
}

#[test]
fn a_failure_at_every_hsa_call_unwinds() {
    // Count the HSA calls group creation makes, then fail each one in turn.
    let count_calls = || {
        let sim = Arc::new(Sim::new(
            amdgpu_hal::backend::sim::load_machine("mixed-isa").unwrap(),
        ));
        let backend = Backend::from_sim(Arc::clone(&sim), "mixed-isa");
        backend.hsa().unwrap().init().unwrap();
        let hsa = backend.hsa_arc().unwrap();
        let devices = devices(&hsa);
        (sim, hsa, devices)
    };
    let (sim, hsa, devs) = count_calls();
    let before = sim.call_log().0.len();
    build(&hsa, &devs).unwrap();
    let during = sim.call_log().0.len() - before;
    assert!(during > 20, "{during}");
    for n in 1..=during {
        let (sim, hsa, devs) = count_calls();
        let base = sim.call_log().0.len() as u64;
        sim.inject_hsa(Fault::nth_call(base + n as u64, HsaCode::OUT_OF_RESOURCES));
        let err = build(&hsa, &devs).unwrap_err();
        assert!(
            err.to_string()
                .contains("HSA_STATUS_ERROR_OUT_OF_RESOURCES"),
            "call {n}: {err}"
        );
        for d in &devs {
            assert!(d.topology_info().is_none(), "call {n}");
            assert_eq!(Arc::strong_count(d), 1, "call {n}");
        }
    }
}

#[test]
fn nearest_cpu_fallback_agrees_with_the_runtime_attribute() {
    for machine in ["mi300x-8", "mi250x-4", "w7900", "mixed-isa"] {
        let backend = Backend::sim(machine).unwrap();
        backend.hsa().unwrap().init().unwrap();
        let hsa = backend.hsa_arc().unwrap();
        for device in devices(&hsa) {
            assert_eq!(
                device.host_numa_node_by_links().unwrap(),
                device.host_numa_node().unwrap(),
                "{machine}"
            );
        }
    }
}

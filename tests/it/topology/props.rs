//! Property tests: bitmaps agree with the matrix, link classes are
//! symmetric, self edges are as specified, fields round-trip, and failed
//! creation leaves every device unassigned with its reference count restored.

use std::num::NonZeroU64;
use std::sync::Arc;

use amdgpu_hal::device::testing::{MockDevice, RefineFn};
use amdgpu_hal::device::{FrontierTracker, HalDevice};
use amdgpu_hal::group::{DeviceGroup, DeviceGroupBuilder};
use amdgpu_hal::topology::{
    DeviceCapabilities, DeviceCapabilityFlags, Edge, HandleTypes, InteropMode, LinkClass,
    SlitTable, Topology, TopologyCapabilities, edge_from_capabilities,
};
use amdgpu_hal::{Status, StatusCode};
use proptest::prelude::*;

fn caps_strategy() -> impl Strategy<Value = DeviceCapabilities> {
    (
        any::<u16>(),
        any::<[u8; 4]>(),
        0u8..3,
        proptest::option::of(0u8..2),
        proptest::option::of(1u64..3),
    )
        .prop_map(
            |(flags, handles, numa_node, uuid, handle)| DeviceCapabilities {
                flags: DeviceCapabilityFlags::from_bits_truncate(u64::from(flags)),
                semaphore_export_types: HandleTypes::from_bits_retain(handles[0]),
                semaphore_import_types: HandleTypes::from_bits_retain(handles[1]),
                buffer_export_types: HandleTypes::from_bits_retain(handles[2]),
                buffer_import_types: HandleTypes::from_bits_retain(handles[3]),
                numa_node,
                physical_device_uuid: uuid.map(|u| [u; 16]),
                driver_device_handle: handle.and_then(NonZeroU64::new),
                device_group_index: None,
            },
        )
}

fn mode(bits: u8) -> InteropMode {
    InteropMode::from_bits(u64::from(bits))
}

/// The bitmaps by their definition, straight from the matrix.
fn expected_bitmaps(t: &Topology, i: usize) -> [u32; 4] {
    let mut out = [0u32; 4];
    for j in 0..t.device_count() {
        if j == i {
            continue;
        }
        let from = t.edge(j, i).unwrap();
        let to = t.edge(i, j).unwrap();
        let bit = 1u32 << j;
        if from.wait_mode() != InteropMode::None {
            out[0] |= bit;
        }
        if to.signal_mode() != InteropMode::None {
            out[1] |= bit;
        }
        let (nc, c) = (
            from.buffer_read_mode_noncoherent(),
            from.buffer_read_mode_coherent(),
        );
        if [nc, c]
            .iter()
            .any(|m| *m == InteropMode::Native || *m == InteropMode::Import)
        {
            out[2] |= bit;
        }
        if nc == InteropMode::Native
            || c == InteropMode::Native
            || from.capabilities().contains(TopologyCapabilities::P2P_COPY)
        {
            out[3] |= bit;
        }
    }
    out
}

#[derive(Clone, Debug)]
struct Refinement {
    wait: u8,
    signal: u8,
    read_nc: u8,
    p2p: bool,
    copy_cost: u8,
}

fn refinement() -> impl Strategy<Value = Refinement> {
    (0u8..4, 0u8..4, 0u8..4, any::<bool>(), any::<u8>()).prop_map(
        |(wait, signal, read_nc, p2p, copy_cost)| Refinement {
            wait,
            signal,
            read_nc,
            p2p,
            copy_cost,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn bitmaps_agree_with_matrix(
        devices in proptest::collection::vec((caps_strategy(), 0usize..2), 1..12),
        refinements in proptest::collection::vec(refinement(), 144),
        links in proptest::collection::vec(0u8..8, 144),
    ) {
        let n = devices.len();
        let names = ["amdgpu", "hip"];
        let refinements = Arc::new(refinements);
        let links = Arc::new(links);
        let refine: Arc<RefineFn> = Arc::new(move |src, dst, edge| {
            let (i, j) = (src.capabilities().device_group_index.unwrap() as usize, dst.capabilities().device_group_index.unwrap() as usize);
            let r = &refinements[i * 12 + j];
            edge.set_wait_mode(mode(r.wait))
                .set_signal_mode(mode(r.signal))
                .set_buffer_read_mode_noncoherent(mode(r.read_nc))
                .set_copy_cost(r.copy_cost);
            let mut caps = edge.capabilities();
            caps.set(TopologyCapabilities::P2P_COPY, r.p2p);
            edge.set_capabilities(caps);
            // A symmetric link class: a function of the unordered pair.
            let (lo, hi) = (i.min(j), i.max(j));
            edge.set_link_class(LinkClass::from_bits(u64::from(links[lo * 12 + hi])));
            Ok(())
        });
        let tracked: Vec<Arc<MockDevice>> = devices
            .iter()
            .enumerate()
            .map(|(i, (caps, name))| {
                let caps = DeviceCapabilities { device_group_index: Some(i as u32), ..*caps };
                Arc::new(MockDevice::new(names[*name]).with_capabilities(caps).with_refine(Arc::clone(&refine)))
            })
            .collect();
        let slit = Arc::new(SlitTable::uniform(2, 10, 21));
        let mut builder = DeviceGroupBuilder::new(Arc::new(FrontierTracker::default())).with_numa_distances(slit.clone());
        for d in &tracked {
            builder.add_device(d.clone()).unwrap();
        }
        let group = builder.finalize().unwrap();
        let t = group.topology();
        prop_assert_eq!(t.device_count(), n);
        for (i, d) in tracked.iter().enumerate() {
            prop_assert_eq!(t.edge(i, i), Some(Edge::SELF));
            prop_assert_eq!(t.numa_node(i), Some(devices[i].0.numa_node));
            let info = d.topology_info().unwrap();
            let b = info.peer_bitmaps();
            prop_assert_eq!([b.can_wait_from, b.can_signal_to, b.can_import_from, b.can_p2p_with], expected_bitmaps(t, i));
            prop_assert_eq!(b.can_wait_from & (1 << i), 0);
            prop_assert_eq!(info.self_edge, Edge::SELF.lo);
            for j in 0..n {
                let e = t.edge(i, j).unwrap();
                prop_assert_eq!(e.reserved_bits(), (0, 0));
                prop_assert_eq!(e.link_class(), t.edge(j, i).unwrap().link_class());
                if i != j && devices[i].1 != devices[j].1 {
                    // Different drivers are never refined.
                    let want = edge_from_capabilities(
                        &DeviceCapabilities { device_group_index: Some(i as u32), ..devices[i].0 },
                        &DeviceCapabilities { device_group_index: Some(j as u32), ..devices[j].0 },
                        names[devices[i].1], names[devices[j].1], &*slit);
                    prop_assert_eq!(e, want);
                }
            }
        }
    }

    #[test]
    fn derived_edges_are_well_formed(a in caps_strategy(), b in caps_strategy(), same in any::<bool>()) {
        let slit = SlitTable::uniform(3, 10, 40);
        let e = edge_from_capabilities(&a, &b, "x", if same { "x" } else { "y" }, &slit);
        prop_assert_eq!(e.reserved_bits(), (0, 0));
        prop_assert_ne!(e.wait_mode(), InteropMode::None);
        prop_assert_ne!(e.signal_mode(), InteropMode::None);
        prop_assert_ne!(e.link_class(), LinkClass::Isolated);
        prop_assert_eq!(e.link_class(), edge_from_capabilities(&b, &a, "x", if same { "x" } else { "y" }, &slit).link_class());
        if same && a.driver_device_handle.is_some() && a.driver_device_handle == b.driver_device_handle {
            // The same device reached twice: the self edge.
            prop_assert_eq!(e, Edge::SELF);
            return Ok(());
        }
        prop_assert_eq!(e.semaphore_import_types(), a.semaphore_export_types & b.semaphore_import_types);
        prop_assert_eq!(e.buffer_export_types(), b.buffer_export_types & a.buffer_import_types);
        if a.numa_node == b.numa_node {
            prop_assert_eq!(e.numa_distance(), 0);
        } else {
            prop_assert_eq!(e.numa_distance(), 15);
        }
    }

    #[test]
    fn every_field_round_trips(
        modes in any::<[u8; 6]>(),
        caps in any::<u16>(),
        costs in any::<[u8; 5]>(),
        link in 0u8..8,
        handles in any::<[u8; 4]>(),
    ) {
        let e = Edge::EMPTY
            .with_wait_mode(mode(modes[0]))
            .with_signal_mode(mode(modes[1]))
            .with_buffer_read_mode_noncoherent(mode(modes[2]))
            .with_buffer_write_mode_noncoherent(mode(modes[3]))
            .with_buffer_read_mode_coherent(mode(modes[4]))
            .with_buffer_write_mode_coherent(mode(modes[5]))
            .with_capabilities(TopologyCapabilities::from_bits_retain(caps))
            .with_wait_cost(costs[0])
            .with_signal_cost(costs[1])
            .with_copy_cost(costs[2])
            .with_latency_class(costs[3])
            .with_numa_distance(costs[4])
            .with_link_class(LinkClass::from_bits(u64::from(link)))
            .with_semaphore_import_types(HandleTypes::from_bits_retain(handles[0]))
            .with_semaphore_export_types(HandleTypes::from_bits_retain(handles[1]))
            .with_buffer_import_types(HandleTypes::from_bits_retain(handles[2]))
            .with_buffer_export_types(HandleTypes::from_bits_retain(handles[3]));
        prop_assert_eq!(e.wait_mode(), mode(modes[0]));
        prop_assert_eq!(e.signal_mode(), mode(modes[1]));
        prop_assert_eq!(e.buffer_read_mode_noncoherent(), mode(modes[2]));
        prop_assert_eq!(e.buffer_write_mode_noncoherent(), mode(modes[3]));
        prop_assert_eq!(e.buffer_read_mode_coherent(), mode(modes[4]));
        prop_assert_eq!(e.buffer_write_mode_coherent(), mode(modes[5]));
        prop_assert_eq!(e.capabilities().bits(), caps);
        let got = [e.wait_cost(), e.signal_cost(), e.copy_cost(), e.latency_class(), e.numa_distance()];
        prop_assert_eq!(got, costs.map(|c| c.min(15)));
        prop_assert_eq!(e.link_class().bits(), u64::from(link));
        prop_assert_eq!(e.semaphore_import_types().bits(), handles[0]);
        prop_assert_eq!(e.semaphore_export_types().bits(), handles[1]);
        prop_assert_eq!(e.buffer_import_types().bits(), handles[2]);
        prop_assert_eq!(e.buffer_export_types().bits(), handles[3]);
        prop_assert_eq!(e.hi >> 32, 0);
        prop_assert_eq!(e.lo >> 51, 0);
    }

    #[test]
    fn decode_then_encode_is_identity(lo in any::<u64>(), hi in any::<u64>()) {
        let e = Edge::new(lo, hi);
        let rebuilt = Edge::EMPTY
            .with_wait_mode(e.wait_mode())
            .with_signal_mode(e.signal_mode())
            .with_buffer_read_mode_noncoherent(e.buffer_read_mode_noncoherent())
            .with_buffer_write_mode_noncoherent(e.buffer_write_mode_noncoherent())
            .with_buffer_read_mode_coherent(e.buffer_read_mode_coherent())
            .with_buffer_write_mode_coherent(e.buffer_write_mode_coherent())
            .with_capabilities(e.capabilities())
            .with_wait_cost(e.wait_cost())
            .with_signal_cost(e.signal_cost())
            .with_copy_cost(e.copy_cost())
            .with_latency_class(e.latency_class())
            .with_numa_distance(e.numa_distance())
            .with_link_class(e.link_class())
            .with_semaphore_import_types(e.semaphore_import_types())
            .with_semaphore_export_types(e.semaphore_export_types())
            .with_buffer_import_types(e.buffer_import_types())
            .with_buffer_export_types(e.buffer_export_types());
        let (rlo, rhi) = e.reserved_bits();
        // Everything but bits 63:51 of lo and 63:32 of hi is a field.
        prop_assert_eq!(rebuilt.lo, lo & ((1 << 51) - 1));
        prop_assert_eq!(rebuilt.hi, hi & 0xFFFF_FFFF);
        prop_assert_eq!(e.check_reserved().is_ok(), rlo == 0 && rhi == 0);
    }

    #[test]
    fn failed_assignment_unwinds(n in 1usize..=32, fail_at in 0usize..32, code in 1u32..=18) {
        let fail_at = fail_at % n;
        let code = StatusCode::from_u32(code).unwrap();
        let devices: Vec<Arc<MockDevice>> = (0..n)
            .map(|i| {
                let d = MockDevice::new("mock");
                Arc::new(if i == fail_at { d.failing_assign(Status::new(code, "injected")) } else { d })
            })
            .collect();
        let mut builder = DeviceGroupBuilder::new(Arc::new(FrontierTracker::default()));
        for d in &devices {
            builder.add_device(d.clone()).unwrap();
        }
        let err = builder.finalize().unwrap_err();
        prop_assert_eq!(err.code(), code);
        prop_assert!(err.mentions("injected"));
        prop_assert!(builder.is_empty());
        for (i, d) in devices.iter().enumerate() {
            prop_assert!(d.topology_info().is_none());
            prop_assert_eq!(Arc::strong_count(d), 1);
            prop_assert_eq!(d.assign_calls(), usize::from(i <= fail_at));
        }
    }

    #[test]
    fn failed_replacement_unwinds(n in 1usize..=32, fail_at in 0usize..32, how in 0u8..3, code in 1u32..=18) {
        let fail_at = fail_at % n;
        let code = StatusCode::from_u32(code).unwrap();
        let sources: Vec<Arc<dyn HalDevice>> = (0..n).map(|_| MockDevice::new("mock").into_dyn()).collect();
        let mut builder = DeviceGroupBuilder::new(Arc::new(FrontierTracker::default()));
        for d in &sources {
            builder.add_device(d.clone()).unwrap();
        }
        let source = builder.finalize().unwrap();
        let replacements: Vec<Arc<MockDevice>> = (0..n)
            .map(|i| {
                let d = MockDevice::new("mock");
                Arc::new(if how == 2 && i == fail_at { d.failing_assign(Status::new(code, "injected")) } else { d })
            })
            .collect();
        let mut replace = |_: &DeviceGroup, i: usize, _: &Arc<dyn HalDevice>| {
            if i == fail_at && how == 0 {
                return Err(Status::new(code, "injected"));
            }
            if i == fail_at && how == 1 {
                return Ok(None);
            }
            Ok(Some(replacements[i].clone() as Arc<dyn HalDevice>))
        };
        let err = source.create_with_replacements(Some(&mut replace)).unwrap_err();
        let want = if how == 1 { StatusCode::InvalidArgument } else { code };
        prop_assert_eq!(err.code(), want);
        for d in &replacements {
            prop_assert!(d.topology_info().is_none());
            prop_assert_eq!(Arc::strong_count(d), 1);
        }
        for (i, d) in sources.iter().enumerate() {
            prop_assert_eq!(d.topology_info().unwrap().topology_index as usize, i);
            prop_assert_eq!(Arc::strong_count(d), 2);
        }
    }
}

proptest! {
    #[test]
    fn host_text_parsers_never_panic(text in ".{0,64}", b in 0usize..300) {
        use amdgpu_hal::topology::numa::{MAX_NUMA_NODES, parse_distance_entry, parse_node_count};
        let count = parse_node_count(&text);
        prop_assert!((1..=MAX_NUMA_NODES).contains(&count));
        let _ = parse_distance_entry(&text, b);
        let _ = amdgpu_hal::amdgpu::device::parse_agent_uuid(&text);
    }

    #[test]
    fn uuid_round_trips(value in any::<u64>()) {
        let uuid = amdgpu_hal::amdgpu::device::parse_agent_uuid(&format!("GPU-{value:016x}")).unwrap();
        prop_assert_eq!(&uuid[..8], &value.to_be_bytes()[..]);
    }
}

//! IREE's topology_test.cc and topology_builder_test.cc cases, same values.

use std::num::NonZeroU64;
use std::sync::Arc;

use amdgpu_hal::StatusCode;
use amdgpu_hal::device::{FrontierTracker, ResourceOrigin, TopologyInfo, query_edge};
use amdgpu_hal::topology::edge::{HI_RESERVED_MASK, LO_RESERVED_MASK};
use amdgpu_hal::topology::{
    DeviceCapabilities, DeviceCapabilityFlags, Edge, HandleTypes, InteropMode, LinkClass,
    SlitTable, Topology, TopologyBuilder, TopologyCapabilities, edge_from_capabilities,
};

use InteropMode::{Copy, Import, Native};

fn no_slit() -> SlitTable {
    SlitTable::default()
}

#[test]
fn scheduling_word_bitfield_overlap() {
    let mut e = Edge::EMPTY;
    e.set_wait_mode(InteropMode::None)
        .set_signal_mode(InteropMode::None)
        .set_buffer_read_mode_noncoherent(InteropMode::None)
        .set_buffer_write_mode_noncoherent(InteropMode::None)
        .set_buffer_read_mode_coherent(InteropMode::None)
        .set_buffer_write_mode_coherent(InteropMode::None)
        .set_capabilities(TopologyCapabilities::from_bits_retain(0xFFFF))
        .set_wait_cost(15)
        .set_signal_cost(15)
        .set_copy_cost(15)
        .set_latency_class(15)
        .set_numa_distance(15)
        .set_link_class(LinkClass::Isolated);
    assert_eq!(e.wait_mode(), InteropMode::None);
    assert_eq!(e.signal_mode(), InteropMode::None);
    assert_eq!(e.buffer_read_mode_noncoherent(), InteropMode::None);
    assert_eq!(e.buffer_write_mode_noncoherent(), InteropMode::None);
    assert_eq!(e.buffer_read_mode_coherent(), InteropMode::None);
    assert_eq!(e.buffer_write_mode_coherent(), InteropMode::None);
    assert_eq!(e.capabilities().bits(), 0xFFFF);
    assert_eq!(e.wait_cost(), 15);
    assert_eq!(e.signal_cost(), 15);
    assert_eq!(e.copy_cost(), 15);
    assert_eq!(e.latency_class(), 15);
    assert_eq!(e.numa_distance(), 15);
    assert_eq!(e.link_class(), LinkClass::Isolated);
    // Every defined field at its max fills bits 0..=50 exactly.
    assert_eq!(e.lo, (1 << 51) - 1);
    assert_eq!(e.hi, 0);
}

#[test]
fn interop_word_bitfield_overlap() {
    let all = HandleTypes::from_bits_retain(0xFF);
    let mut e = Edge::EMPTY;
    e.set_semaphore_import_types(all)
        .set_semaphore_export_types(all)
        .set_buffer_import_types(all)
        .set_buffer_export_types(all);
    assert_eq!(e.semaphore_import_types().bits(), 0xFF);
    assert_eq!(e.semaphore_export_types().bits(), 0xFF);
    assert_eq!(e.buffer_import_types().bits(), 0xFF);
    assert_eq!(e.buffer_export_types().bits(), 0xFF);
    assert_eq!(e.hi, 0xFFFF_FFFF);
}

#[test]
fn scheduling_word_bitfield_independence() {
    let mut e = Edge::EMPTY;
    e.set_wait_mode(Copy);
    assert_eq!(e.wait_mode(), Copy);
    assert_eq!(e.signal_mode(), Native);
    e.set_signal_cost(13);
    assert_eq!(e.signal_cost(), 13);
    assert_eq!(e.wait_mode(), Copy);
}

#[test]
fn interop_word_bitfield_independence() {
    let mut e = Edge::EMPTY;
    e.set_semaphore_import_types(HandleTypes::OPAQUE_FD | HandleTypes::RDMA_MR);
    assert_eq!(
        e.semaphore_import_types(),
        HandleTypes::OPAQUE_FD | HandleTypes::RDMA_MR
    );
    assert!(e.semaphore_export_types().is_empty());
    assert!(e.buffer_import_types().is_empty());
    e.set_buffer_export_types(HandleTypes::DMA_BUF);
    assert_eq!(e.buffer_export_types(), HandleTypes::DMA_BUF);
    assert_eq!(
        e.semaphore_import_types(),
        HandleTypes::OPAQUE_FD | HandleTypes::RDMA_MR
    );
}

/// Every field of both words at its absolute position, each with a value no
/// other field of its width carries, so a swap of two same-width fields (wait
/// and signal cost, semaphore import and export, ...) changes the word.
///
/// Expected words are `value << SHIFT` with each `SHIFT` from IREE's
/// `runtime/src/iree/hal/topology.h` (`IREE_HAL_TOPOLOGY_EDGE_*_SHIFT`: modes
/// 0, 2, 4, 6, 8, 10; capabilities 12; costs 28, 32, 36, 40, 44; link class 48;
/// handle types 0, 8, 16, 24 of the interop word) and the enum values of the
/// same header (COPY = 2, IMPORT = 1, NONE = 3; FABRIC = 5; OPAQUE_FD = 1 << 1,
/// DMA_BUF = 1 << 3, RDMA_MR = 1 << 4, SHM = 1 << 5; SAME_RUNTIME_DOMAIN =
/// 1 << 0, PEER_ACCESS_REQUIRES_GRANT = 1 << 12).
#[test]
fn every_field_at_its_iree_shift() {
    let grant = TopologyCapabilities::SAME_RUNTIME_DOMAIN
        | TopologyCapabilities::PEER_ACCESS_REQUIRES_GRANT;
    let fd_mr = HandleTypes::OPAQUE_FD | HandleTypes::RDMA_MR;
    let e = Edge::EMPTY;
    let cases: [(&str, Edge, u64, u64); 17] = [
        ("wait_mode", e.with_wait_mode(Copy), 0x2, 0),
        ("signal_mode", e.with_signal_mode(Import), 0x4, 0),
        (
            "read_noncoherent",
            e.with_buffer_read_mode_noncoherent(Copy),
            0x20,
            0,
        ),
        (
            "write_noncoherent",
            e.with_buffer_write_mode_noncoherent(Import),
            0x40,
            0,
        ),
        (
            "read_coherent",
            e.with_buffer_read_mode_coherent(InteropMode::None),
            0x300,
            0,
        ),
        (
            "write_coherent",
            e.with_buffer_write_mode_coherent(Import),
            0x400,
            0,
        ),
        ("capabilities", e.with_capabilities(grant), 0x0100_1000, 0),
        ("wait_cost", e.with_wait_cost(3), 0x3000_0000, 0),
        (
            "signal_cost",
            e.with_signal_cost(13),
            0x0000_000D_0000_0000,
            0,
        ),
        ("copy_cost", e.with_copy_cost(9), 0x0000_0090_0000_0000, 0),
        (
            "latency_class",
            e.with_latency_class(6),
            0x0000_0600_0000_0000,
            0,
        ),
        (
            "numa_distance",
            e.with_numa_distance(11),
            0x0000_B000_0000_0000,
            0,
        ),
        (
            "link_class",
            e.with_link_class(LinkClass::Fabric),
            0x0005_0000_0000_0000,
            0,
        ),
        (
            "semaphore_import",
            e.with_semaphore_import_types(fd_mr),
            0,
            0x12,
        ),
        (
            "semaphore_export",
            e.with_semaphore_export_types(HandleTypes::DMA_BUF),
            0,
            0x800,
        ),
        (
            "buffer_import",
            e.with_buffer_import_types(HandleTypes::SHM),
            0,
            0x0020_0000,
        ),
        (
            "buffer_export",
            e.with_buffer_export_types(HandleTypes::NATIVE),
            0,
            0x0100_0000,
        ),
    ];
    for (name, edge, lo, hi) in cases {
        assert_eq!(
            (edge.lo, edge.hi),
            (lo, hi),
            "{name}: 0x{:X} 0x{:X}",
            edge.lo,
            edge.hi
        );
    }

    // The same words decoded: every getter reads its own field only.
    let lo = cases.iter().fold(0, |word, case| word | case.2);
    let hi = cases.iter().fold(0, |word, case| word | case.3);
    assert_eq!((lo, hi), (0x0005_B69D_3100_1766, 0x0120_0812));
    let d = Edge::new(lo, hi);
    assert_eq!(
        [
            d.wait_mode(),
            d.signal_mode(),
            d.buffer_read_mode_noncoherent()
        ],
        [Copy, Import, Copy]
    );
    assert_eq!(
        [
            d.buffer_write_mode_noncoherent(),
            d.buffer_read_mode_coherent(),
            d.buffer_write_mode_coherent()
        ],
        [Import, InteropMode::None, Import]
    );
    assert_eq!(d.capabilities(), grant);
    assert_eq!(
        [
            d.wait_cost(),
            d.signal_cost(),
            d.copy_cost(),
            d.latency_class(),
            d.numa_distance()
        ],
        [3, 13, 9, 6, 11]
    );
    assert_eq!(d.link_class(), LinkClass::Fabric);
    assert_eq!(d.semaphore_import_types(), fd_mr);
    assert_eq!(d.semaphore_export_types(), HandleTypes::DMA_BUF);
    assert_eq!(d.buffer_import_types(), HandleTypes::SHM);
    assert_eq!(d.buffer_export_types(), HandleTypes::NATIVE);
    assert_eq!(d.check_reserved().map_err(|s| s.code()), Ok(()));
}

/// IREE's two bitfield-independence tests end on these words: wait mode COPY
/// with signal cost 13 (`SchedulingWordBitfieldIndependence`), and semaphore
/// import OPAQUE_FD|RDMA_MR with buffer export DMA_BUF
/// (`InteropWordBitfieldIndependence`).
#[test]
fn iree_independence_test_words() {
    let lo = Edge::EMPTY.with_wait_mode(Copy).with_signal_cost(13).lo;
    assert_eq!(lo, 0x0000_000D_0000_0002);
    let hi = Edge::EMPTY
        .with_semaphore_import_types(HandleTypes::OPAQUE_FD | HandleTypes::RDMA_MR)
        .with_buffer_export_types(HandleTypes::DMA_BUF)
        .hi;
    assert_eq!(hi, 0x0000_0000_0800_0012);
}

/// IREE's `iree_hal_topology_edge_is_empty` is true only when both words are
/// zero: one set bit in either word, or any real edge, is not empty.
#[test]
fn only_both_words_zero_is_empty() {
    assert!(Edge::EMPTY.is_empty());
    assert!(Edge::new(0, 0).is_empty());
    for (lo, hi) in [(1, 0), (0, 1), (1 << 50, 0), (0, 1 << 31), (1, 1)] {
        assert!(!Edge::new(lo, hi).is_empty(), "0x{lo:X} 0x{hi:X}");
    }
    assert!(!Edge::SELF.is_empty());
    assert!(!Edge::CROSS_DRIVER.is_empty());
}

#[test]
fn setters_clamp_costs_and_mask_nothing_else() {
    let e = Edge::EMPTY
        .with_copy_cost(200)
        .with_wait_cost(16)
        .with_numa_distance(255);
    assert_eq!(
        (e.copy_cost(), e.wait_cost(), e.numa_distance()),
        (15, 15, 15)
    );
    // Re-setting a field clears the old value first.
    let e = e.with_copy_cost(3);
    assert_eq!(e.copy_cost(), 3);
    assert_eq!(e.wait_cost(), 15);
}

#[test]
fn create_self() {
    let e = Edge::SELF;
    assert_eq!((e.lo, e.hi), (0x0000_0000_009F_F000, 0x0000_0000_0101_0101));
    for mode in [
        e.wait_mode(),
        e.signal_mode(),
        e.buffer_read_mode_noncoherent(),
        e.buffer_write_mode_noncoherent(),
        e.buffer_read_mode_coherent(),
        e.buffer_write_mode_coherent(),
    ] {
        assert_eq!(mode, Native);
    }
    assert_eq!(
        (
            e.wait_cost(),
            e.signal_cost(),
            e.copy_cost(),
            e.latency_class(),
            e.numa_distance()
        ),
        (0, 0, 0, 0, 0)
    );
    use TopologyCapabilities as C;
    assert_eq!(
        e.capabilities(),
        C::SAME_RUNTIME_DOMAIN
            | C::UNIFIED_MEMORY
            | C::PEER_COHERENT
            | C::HOST_COHERENT
            | C::P2P_COPY
            | C::CONCURRENT_SAFE
            | C::ATOMIC_DEVICE
            | C::ATOMIC_SYSTEM
            | C::TIMELINE_SEMAPHORE
            | C::SHARED_VIRTUAL_ADDRESS
    );
    assert_eq!(e.link_class(), LinkClass::SameDie);
    assert_eq!(e.semaphore_import_types(), HandleTypes::NATIVE);
    assert_eq!(e.semaphore_export_types(), HandleTypes::NATIVE);
    assert_eq!(e.buffer_import_types(), HandleTypes::NATIVE);
    assert_eq!(e.buffer_export_types(), HandleTypes::NATIVE);
}

#[test]
fn create_cross_driver() {
    let e = Edge::CROSS_DRIVER;
    assert_eq!((e.lo, e.hi), (0x0002_28A5_5000_0AA5, 0));
    assert_eq!((e.wait_mode(), e.signal_mode()), (Import, Import));
    assert_eq!(e.buffer_read_mode_noncoherent(), Copy);
    assert_eq!(e.buffer_write_mode_noncoherent(), Copy);
    assert_eq!(e.buffer_read_mode_coherent(), Copy);
    assert_eq!(e.buffer_write_mode_coherent(), Copy);
    assert_eq!(
        (
            e.wait_cost(),
            e.signal_cost(),
            e.copy_cost(),
            e.latency_class(),
            e.numa_distance()
        ),
        (5, 5, 10, 8, 2)
    );
    assert!(e.capabilities().is_empty());
    assert_eq!(e.link_class(), LinkClass::PcieSameRoot);
}

#[test]
fn aliased_device_detection() {
    let caps = DeviceCapabilities {
        flags: DeviceCapabilityFlags::TIMELINE_SEMAPHORES,
        driver_device_handle: NonZeroU64::new(0x1234_5678),
        ..Default::default()
    };
    let e = edge_from_capabilities(&caps, &caps, "hip", "hip", &no_slit());
    assert_eq!(e, Edge::SELF);
    assert_eq!(e.wait_mode(), Native);
    assert_eq!(e.signal_mode(), Native);
    assert_eq!(e.buffer_read_mode_noncoherent(), Native);
    assert_eq!(e.copy_cost(), 0);
    assert_eq!(e.link_class(), LinkClass::SameDie);
    // Aliasing needs the same driver.
    let cross = edge_from_capabilities(&caps, &caps, "hip", "cuda", &no_slit());
    assert_ne!(cross, Edge::SELF);
}

#[test]
fn different_handles_not_aliased() {
    let a = DeviceCapabilities {
        driver_device_handle: NonZeroU64::new(0x1111_1111),
        ..Default::default()
    };
    let b = DeviceCapabilities {
        driver_device_handle: NonZeroU64::new(0x2222_2222),
        ..Default::default()
    };
    assert_ne!(
        edge_from_capabilities(&a, &b, "hip", "hip", &no_slit()).copy_cost(),
        0
    );
}

#[test]
fn zero_handle_no_aliasing() {
    let caps = DeviceCapabilities::default();
    let e = edge_from_capabilities(&caps, &caps, "hip", "hip", &no_slit());
    assert_ne!(e.copy_cost(), 0);
    // The worked value of the fact sheet.
    assert_eq!((e.lo, e.hi), (0x0002_089A_A000_1AAA, 0));
}

#[test]
fn zero_capabilities_different_drivers() {
    let caps = DeviceCapabilities::default();
    let e = edge_from_capabilities(&caps, &caps, "driver_a", "driver_b", &no_slit());
    assert_eq!((e.lo, e.hi), (0x0004_0BDA_A000_0AAA, 0));
    assert_eq!(e.link_class(), LinkClass::HostStaged);
    assert_eq!(
        (
            e.wait_cost(),
            e.signal_cost(),
            e.copy_cost(),
            e.latency_class()
        ),
        (10, 10, 13, 11)
    );
}

#[test]
fn shared_virtual_address_does_not_imply_unified_memory() {
    let caps = DeviceCapabilities {
        flags: DeviceCapabilityFlags::SHARED_VIRTUAL_ADDRESS,
        ..Default::default()
    };
    let e = edge_from_capabilities(&caps, &caps, "amdgpu", "amdgpu", &no_slit());
    let c = e.capabilities();
    assert!(c.contains(TopologyCapabilities::SHARED_VIRTUAL_ADDRESS));
    assert!(!c.contains(TopologyCapabilities::UNIFIED_MEMORY));
    assert!(!c.contains(TopologyCapabilities::PEER_COHERENT));
    assert_eq!(e.buffer_read_mode_coherent(), Copy);
    assert_eq!(e.buffer_write_mode_coherent(), Copy);
}

#[test]
fn derivation_rules_modes_links_costs() {
    let uuid = Some([7u8; 16]);
    let full = DeviceCapabilities {
        flags: DeviceCapabilityFlags::all(),
        semaphore_export_types: HandleTypes::NATIVE | HandleTypes::OPAQUE_FD,
        semaphore_import_types: HandleTypes::NATIVE | HandleTypes::OPAQUE_FD,
        buffer_export_types: HandleTypes::DMA_BUF,
        buffer_import_types: HandleTypes::DMA_BUF,
        ..Default::default()
    };
    // Same driver, peer-addressable, P2P: native everything, p2p costs.
    let e = edge_from_capabilities(&full, &full, "amdgpu", "amdgpu", &no_slit());
    assert_eq!((e.wait_mode(), e.signal_mode()), (Native, Native));
    assert_eq!(
        (
            e.buffer_read_mode_noncoherent(),
            e.buffer_read_mode_coherent()
        ),
        (Native, Native)
    );
    assert_eq!(
        (
            e.wait_cost(),
            e.signal_cost(),
            e.copy_cost(),
            e.latency_class()
        ),
        (0, 1, 5, 5)
    );
    assert_eq!(e.link_class(), LinkClass::PcieSameRoot);
    assert!(
        e.capabilities()
            .contains(TopologyCapabilities::PEER_COHERENT | TopologyCapabilities::P2P_COPY)
    );
    assert!(!e.capabilities().intersects(
        TopologyCapabilities::BINARY_SEMAPHORE_ONLY
            | TopologyCapabilities::REMOTE_DMA
            | TopologyCapabilities::PEER_ACCESS_REQUIRES_GRANT
    ));
    assert_eq!(
        e.semaphore_import_types(),
        HandleTypes::NATIVE | HandleTypes::OPAQUE_FD
    );
    assert_eq!(e.buffer_import_types(), HandleTypes::DMA_BUF);
    // Across drivers the NATIVE handle only imports; unified memory keeps
    // coherent buffers native; PEER_COHERENT needs the same driver.
    let e = edge_from_capabilities(&full, &full, "amdgpu", "hip", &no_slit());
    assert_eq!((e.wait_mode(), e.signal_mode()), (Import, Import));
    assert_eq!((e.wait_cost(), e.signal_cost()), (3, 3));
    assert_eq!(
        (
            e.buffer_read_mode_noncoherent(),
            e.buffer_read_mode_coherent()
        ),
        (Import, Native)
    );
    assert!(
        !e.capabilities()
            .contains(TopologyCapabilities::PEER_COHERENT)
    );
    assert_eq!(
        (e.copy_cost(), e.latency_class(), e.link_class()),
        (13, 11, LinkClass::HostStaged)
    );
    // Equal UUIDs: same die, free copies (but not the aliasing self edge).
    let die = DeviceCapabilities {
        physical_device_uuid: uuid,
        ..Default::default()
    };
    let e = edge_from_capabilities(&die, &die, "hip", "hip", &no_slit());
    assert_eq!(
        (e.link_class(), e.copy_cost(), e.latency_class()),
        (LinkClass::SameDie, 0, 0)
    );
    assert_eq!(e.wait_mode(), Copy);
    // One missing UUID: not the same die.
    let other = DeviceCapabilities::default();
    let e = edge_from_capabilities(&die, &other, "hip", "hip", &no_slit());
    assert_eq!(e.link_class(), LinkClass::PcieSameRoot);
}

#[test]
fn numa_distance_from_slit_and_fallback() {
    let a = DeviceCapabilities {
        numa_node: 0,
        ..Default::default()
    };
    let b = DeviceCapabilities {
        numa_node: 1,
        ..Default::default()
    };
    let slit = |d: u8| SlitTable::new(vec![vec![10, d], vec![d, 10]]);
    let dist = |s: &SlitTable| edge_from_capabilities(&a, &b, "x", "x", s).numa_distance();
    assert_eq!(dist(&slit(20)), 5);
    assert_eq!(dist(&slit(32)), 11);
    assert_eq!(dist(&slit(10)), 0);
    assert_eq!(dist(&slit(5)), 0);
    assert_eq!(dist(&slit(255)), 15);
    assert_eq!(dist(&SlitTable::default()), 3);
    // Same node: never queried, always 0.
    assert_eq!(
        edge_from_capabilities(&a, &a, "x", "x", &slit(255)).numa_distance(),
        0
    );
}

#[test]
fn resource_origin() {
    assert_eq!(std::mem::size_of::<ResourceOrigin>(), 16);
    let origin = ResourceOrigin {
        self_edge: Edge::SELF.lo,
        topology_index: 3,
    };
    assert_eq!(
        (origin.self_edge, origin.topology_index),
        (Edge::SELF.lo, 3)
    );
    assert_eq!(ResourceOrigin::UNDEFINED.topology_index, u32::MAX);
    let other = ResourceOrigin {
        self_edge: Edge::EMPTY
            .with_wait_mode(Import)
            .with_capabilities(TopologyCapabilities::from_bits_retain(0x42))
            .lo,
        topology_index: 1,
    };
    assert_ne!(origin.self_edge, other.self_edge);
    assert_ne!(
        Edge::new(origin.self_edge, 0).capabilities(),
        Edge::new(other.self_edge, 0).capabilities()
    );
}

#[test]
fn formatting_uses_exact_names() {
    let text = Edge::SELF.to_string();
    assert!(text.contains("NATIVE"), "{text}");
    assert!(text.starts_with(
        "wait=NATIVE signal=NATIVE link=SAME_DIE buf_nc=NATIVE/NATIVE buf_c=NATIVE/NATIVE"
    ));
    let e = Edge::CROSS_DRIVER.with_wait_mode(Copy).with_copy_cost(13);
    let text = e.to_string();
    assert!(text.contains("COPY"));
    assert!(text.contains("copy_cost=13"));
    // IREE would print NATIVE|COPY and NATIVE|IMPORT here.
    assert!(
        text.starts_with("wait=COPY signal=IMPORT link=PCIE "),
        "{text}"
    );
    assert!(!text.contains('|'), "{text}");
    let host = Edge::EMPTY
        .with_link_class(LinkClass::HostStaged)
        .with_wait_mode(InteropMode::None);
    assert!(
        host.to_string()
            .starts_with("wait=NONE signal=NATIVE link=HOST "),
        "{host}"
    );
    assert!(Edge::SELF.to_string().ends_with(
        "caps=SAME_RUNTIME_DOMAIN|UNIFIED_MEMORY|PEER_COHERENT|HOST_COHERENT|P2P_COPY|CONCURRENT_SAFE|ATOMIC_DEVICE|ATOMIC_SYSTEM|TIMELINE_SEMAPHORE|SHARED_VIRTUAL_ADDRESS"
    ));
    assert!(Edge::CROSS_DRIVER.to_string().ends_with("caps=NONE"));
}

#[test]
fn matrix_formatting() {
    let mut b = TopologyBuilder::new(3).unwrap();
    for i in 0..3 {
        for j in 0..3 {
            if i != j {
                b.set_edge(
                    i,
                    j,
                    Edge::CROSS_DRIVER.with_link_class(LinkClass::NvlinkIf),
                )
                .unwrap();
            }
        }
    }
    let t = b.finalize().unwrap();
    assert_eq!(
        t.dump_matrix(),
        "Topology Matrix (3 devices):\n        D0    D1    D2  \nD0:    N     I     I   \nD1:    I     N     I   \nD2:    I     I     N   \n\nLegend: N=Native, I=Import, C=Copy, -=None\n"
    );
}

#[test]
fn new_and_rdma_handle_types() {
    let all = HandleTypes::all();
    assert_eq!(all.bits(), 0xFF);
    let e = Edge::EMPTY.with_buffer_import_types(all);
    assert_eq!(e.buffer_import_types(), all);
    let mr_shm = HandleTypes::RDMA_MR | HandleTypes::SHM;
    let e = Edge::EMPTY
        .with_buffer_import_types(mr_shm)
        .with_buffer_export_types(mr_shm)
        .with_semaphore_import_types(HandleTypes::SHM)
        .with_semaphore_export_types(HandleTypes::SHM);
    assert!(e.buffer_import_types().contains(HandleTypes::RDMA_MR));
    assert!(!e.semaphore_import_types().contains(HandleTypes::RDMA_MR));
    assert!(e.buffer_import_types().contains(HandleTypes::SHM));
    assert!(e.semaphore_import_types().contains(HandleTypes::SHM));
}

fn tracker() -> Arc<FrontierTracker> {
    Arc::new(FrontierTracker::default())
}

#[test]
fn query_edge_same_topology() {
    let mut b = TopologyBuilder::new(2).unwrap();
    let cross = Edge::CROSS_DRIVER
        .with_copy_cost(7)
        .with_link_class(LinkClass::NvlinkIf)
        .with_buffer_import_types(HandleTypes::DMA_BUF);
    b.set_edge(0, 1, cross).unwrap();
    b.set_edge(1, 0, cross).unwrap();
    let t = Arc::new(b.finalize().unwrap());
    let tr = tracker();
    let info0 = TopologyInfo::for_device(&t, 0, &tr).unwrap();
    let info1 = TopologyInfo::for_device(&t, 1, &tr).unwrap();
    assert_eq!(info1.self_edge, t.edge(1, 1).unwrap().lo);
    let q = query_edge(Some(&info0), Some(&info1)).unwrap();
    assert_eq!(q.copy_cost(), 7);
    assert_eq!(q.link_class(), LinkClass::NvlinkIf);
    assert_eq!(q.buffer_import_types(), HandleTypes::DMA_BUF);
    let me = query_edge(Some(&info0), Some(&info0)).unwrap();
    assert_eq!(me.wait_mode(), Native);
    assert_eq!(me.copy_cost(), 0);
}

fn single() -> Arc<Topology> {
    Arc::new(TopologyBuilder::new(1).unwrap().finalize().unwrap())
}

#[test]
fn query_edge_different_topologies_and_standalone() {
    let tr = tracker();
    let (a, b) = (single(), single());
    let info_a = TopologyInfo::for_device(&a, 0, &tr).unwrap();
    let info_b = TopologyInfo::for_device(&b, 0, &tr).unwrap();
    assert_eq!(query_edge(Some(&info_a), Some(&info_b)), None);
    assert_eq!(query_edge(None, Some(&info_a)), None);
    assert_eq!(query_edge(Some(&info_a), None), None);
    assert_eq!(query_edge(None, None), None);
    assert!(TopologyInfo::for_device(&a, 1, &tr).is_none());
}

// ---- topology_builder_test.cc ----

#[test]
fn builder_initialize() {
    let b = TopologyBuilder::new(4).unwrap();
    assert_eq!(b.device_count(), 4);
    for i in 0..4 {
        let e = b.edge(i, i).expect("diagonal is set");
        assert_eq!(e, Edge::SELF);
        assert_eq!(
            (e.wait_mode(), e.signal_mode(), e.link_class()),
            (Native, Native, LinkClass::SameDie)
        );
        assert_eq!(e.semaphore_import_types(), HandleTypes::NATIVE);
        assert_eq!(e.buffer_import_types(), HandleTypes::NATIVE);
        for j in 0..4 {
            if i != j {
                assert_eq!(b.edge(i, j), None);
            }
        }
    }
}

#[test]
fn builder_set_edges() {
    let mut b = TopologyBuilder::new(2).unwrap();
    b.set_edge(0, 0, Edge::SELF).unwrap();
    b.set_edge(1, 1, Edge::SELF).unwrap();
    let cross = Edge::CROSS_DRIVER
        .with_wait_mode(Copy)
        .with_signal_mode(Copy)
        .with_link_class(LinkClass::NvlinkIf)
        .with_semaphore_import_types(HandleTypes::OPAQUE_FD)
        .with_buffer_import_types(HandleTypes::DMA_BUF);
    b.set_edge(0, 1, cross).unwrap();
    b.set_edge(1, 0, cross).unwrap();
    let t = b.finalize().unwrap();
    assert_eq!(t.device_count(), 2);
    assert_eq!(t.edge(0, 0).unwrap().wait_mode(), Native);
    let e = t.edge(0, 1).unwrap();
    assert_eq!(e.wait_mode(), Copy);
    assert_eq!(e.semaphore_import_types(), HandleTypes::OPAQUE_FD);
    assert_eq!(e.buffer_import_types(), HandleTypes::DMA_BUF);
}

#[test]
fn builder_full_edge_preservation() {
    let mut b = TopologyBuilder::new(2).unwrap();
    let e = Edge::CROSS_DRIVER
        .with_wait_mode(Import)
        .with_signal_mode(Copy)
        .with_capabilities(TopologyCapabilities::P2P_COPY | TopologyCapabilities::REMOTE_DMA)
        .with_wait_cost(3)
        .with_copy_cost(7)
        .with_link_class(LinkClass::Fabric)
        .with_semaphore_import_types(HandleTypes::SHM)
        .with_semaphore_export_types(HandleTypes::SHM)
        .with_buffer_import_types(HandleTypes::RDMA_MR | HandleTypes::SHM)
        .with_buffer_export_types(HandleTypes::RDMA_MR | HandleTypes::SHM);
    b.set_edge(0, 1, e).unwrap();
    b.set_edge(1, 0, e).unwrap();
    let r = b.finalize().unwrap().edge(0, 1).unwrap();
    assert_eq!(r, e);
    assert_eq!((r.wait_mode(), r.signal_mode()), (Import, Copy));
    assert_eq!(
        r.capabilities(),
        TopologyCapabilities::P2P_COPY | TopologyCapabilities::REMOTE_DMA
    );
    assert_eq!(
        (r.wait_cost(), r.copy_cost(), r.link_class()),
        (3, 7, LinkClass::Fabric)
    );
    assert_eq!(r.semaphore_export_types(), HandleTypes::SHM);
    assert_eq!(
        r.buffer_export_types(),
        HandleTypes::RDMA_MR | HandleTypes::SHM
    );
}

#[test]
fn builder_validation_fails_incomplete() {
    let b = TopologyBuilder::new(2).unwrap();
    let err = b.finalize().unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.message().contains("edge [0,1] not set"), "{err}");
    // One direction set is still incomplete.
    let mut b = TopologyBuilder::new(2).unwrap();
    b.set_edge(0, 1, Edge::CROSS_DRIVER).unwrap();
    let err = b.finalize().unwrap_err();
    assert!(err.message().contains("edge [1,0] not set"), "{err}");
}

#[test]
fn builder_validation_fails_asymmetric_links() {
    let mut b = TopologyBuilder::new(2).unwrap();
    b.set_edge(
        0,
        1,
        Edge::CROSS_DRIVER.with_link_class(LinkClass::NvlinkIf),
    )
    .unwrap();
    b.set_edge(
        1,
        0,
        Edge::CROSS_DRIVER.with_link_class(LinkClass::PcieSameRoot),
    )
    .unwrap();
    let err = b.finalize().unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.message().contains("asymmetric link class"), "{err}");
    // Other fields may differ by direction.
    let mut b = TopologyBuilder::new(2).unwrap();
    b.set_edge(
        0,
        1,
        Edge::CROSS_DRIVER.with_copy_cost(1).with_numa_distance(4),
    )
    .unwrap();
    b.set_edge(1, 0, Edge::CROSS_DRIVER.with_wait_mode(Copy))
        .unwrap();
    assert!(b.finalize().is_ok());
}

#[test]
fn builder_validation_fails_non_native_self_edge() {
    let mut b = TopologyBuilder::new(1).unwrap();
    let err = b
        .set_edge(0, 0, Edge::SELF.with_wait_mode(Copy))
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.message().contains("NATIVE wait mode"), "{err}");
}

#[test]
fn builder_numa_nodes() {
    let mut b = TopologyBuilder::new(4).unwrap();
    let nodes = [0u8, 0, 1, 1];
    for (i, n) in nodes.iter().enumerate() {
        b.set_numa_node(i, *n).unwrap();
    }
    for i in 0..4 {
        for j in 0..4 {
            if i != j {
                let cost = if nodes[i] == nodes[j] { 5 } else { 12 };
                b.set_edge(i, j, Edge::CROSS_DRIVER.with_copy_cost(cost))
                    .unwrap();
            }
        }
    }
    let t = b.finalize().unwrap();
    assert_eq!(t.numa_nodes(), &[0, 0, 1, 1]);
    assert_eq!(t.edge(0, 1).unwrap().copy_cost(), 5);
    assert_eq!(t.edge(0, 2).unwrap().copy_cost(), 12);
    assert_eq!(
        b.set_numa_node(4, 0).unwrap_err().code(),
        StatusCode::InvalidArgument
    );
}

#[test]
fn builder_query_edges() {
    let mut b = TopologyBuilder::new(3).unwrap();
    for i in 0..3 {
        for j in 0..3 {
            if i != j {
                let e = Edge::CROSS_DRIVER
                    .with_copy_cost((i * 3 + j) as u8)
                    .with_link_class(LinkClass::PcieSameRoot);
                b.set_edge(i, j, e).unwrap();
            }
        }
    }
    let t = b.finalize().unwrap();
    for i in 0..3 {
        for j in 0..3 {
            let want = if i == j { 0 } else { (i * 3 + j) as u8 };
            assert_eq!(t.edge(i, j).unwrap().copy_cost(), want);
        }
    }
    assert_eq!(t.edge(3, 0), None);
    assert_eq!(t.edge(0, 3), None);
}

// ---- IREE's gaps, closed ----

#[test]
fn device_count_outside_1_to_32_is_an_error() {
    for n in [0usize, 33, 1000, usize::MAX] {
        let err = TopologyBuilder::new(n).unwrap_err();
        assert_eq!(err.code(), StatusCode::InvalidArgument);
        assert!(err.message().contains("outside 1..=32"), "{err}");
    }
    assert!(TopologyBuilder::new(1).is_ok());
    assert!(TopologyBuilder::new(32).is_ok());
}

#[test]
fn reserved_bits_are_rejected() {
    let mut b = TopologyBuilder::new(2).unwrap();
    for bad in [
        Edge::new(Edge::CROSS_DRIVER.lo | 1 << 51, 0),
        Edge::new(Edge::CROSS_DRIVER.lo | 1 << 63, 0),
        Edge::new(Edge::CROSS_DRIVER.lo | 1 << 25, 0), // capability bit 13
        Edge::new(Edge::CROSS_DRIVER.lo, 1 << 32),
        Edge::new(Edge::CROSS_DRIVER.lo, 1 << 63),
    ] {
        let err = b.set_edge(0, 1, bad).unwrap_err();
        assert_eq!(err.code(), StatusCode::InvalidArgument);
        assert!(err.message().contains("reserved bits"), "{err}");
    }
    let err = b
        .set_edge(
            0,
            0,
            Edge::new(Edge::SELF.lo, Edge::SELF.hi | HI_RESERVED_MASK),
        )
        .unwrap_err();
    assert!(err.message().contains("reserved bits"), "{err}");
    assert_eq!(
        Edge::new(LO_RESERVED_MASK, 0).reserved_bits(),
        (LO_RESERVED_MASK, 0)
    );
    assert_eq!(
        b.set_edge(2, 0, Edge::CROSS_DRIVER).unwrap_err().code(),
        StatusCode::InvalidArgument
    );
    assert_eq!(
        b.set_edge(0, 2, Edge::CROSS_DRIVER).unwrap_err().code(),
        StatusCode::InvalidArgument
    );
}

/// Handle intersections are per direction (IREE's `topology_builder.c`):
/// semaphore and buffer *import* types are what `src` exports and `dst`
/// imports, *export* types what `dst` exports and `src` imports. A device
/// that imports nothing gets COPY for the direction it would have to
/// import; and a flag only one side has counts for neither.
#[test]
fn one_sided_handles_and_flags_count_for_neither_direction() {
    let src = DeviceCapabilities {
        flags: DeviceCapabilityFlags::P2P_COPY
            | DeviceCapabilityFlags::PEER_ADDRESSABLE
            | DeviceCapabilityFlags::UNIFIED_MEMORY,
        semaphore_export_types: HandleTypes::OPAQUE_FD,
        buffer_export_types: HandleTypes::DMA_BUF,
        ..Default::default()
    };
    let dst = DeviceCapabilities {
        semaphore_export_types: HandleTypes::OPAQUE_FD,
        semaphore_import_types: HandleTypes::OPAQUE_FD,
        buffer_export_types: HandleTypes::DMA_BUF,
        buffer_import_types: HandleTypes::SHM,
        ..Default::default()
    };
    let e = edge_from_capabilities(&src, &dst, "amdgpu", "amdgpu", &no_slit());
    // src -> dst: FD both ways for semaphores; buffers DMA_BUF vs SHM: none.
    assert_eq!(e.semaphore_import_types(), HandleTypes::OPAQUE_FD);
    assert_eq!(e.buffer_import_types(), HandleTypes::empty());
    // dst -> src: src imports nothing.
    assert_eq!(e.semaphore_export_types(), HandleTypes::empty());
    assert_eq!(e.buffer_export_types(), HandleTypes::empty());
    assert_eq!((e.wait_mode(), e.signal_mode()), (Import, Copy));
    // Only src is peer-addressable, P2P-capable and unified: buffers copy,
    // and the same-driver costs without P2P (copy 9, latency 8).
    assert_eq!(
        (
            e.buffer_read_mode_noncoherent(),
            e.buffer_read_mode_coherent()
        ),
        (Copy, Copy)
    );
    assert_eq!((e.copy_cost(), e.latency_class()), (9, 8));
    assert!(
        !e.capabilities()
            .intersects(TopologyCapabilities::P2P_COPY | TopologyCapabilities::UNIFIED_MEMORY)
    );
    assert_eq!(e.hi, 0x0000_0000_0000_0002);
}

//! What a device reports about itself, and the edge derived from two
//! devices' reports (IREE's `iree_hal_topology_edge_from_capabilities`).

use std::num::NonZeroU64;

use bitflags::bitflags;

use super::edge::{Edge, HandleTypes, InteropMode, LinkClass, TopologyCapabilities};
use super::numa::{NumaDistances, SLIT_LOCAL};

bitflags! {
    /// Per-device capability bits (IREE's `iree_hal_device_capability_bits_t`;
    /// the numbering is IREE's, which is not declaration order there).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct DeviceCapabilityFlags: u64 {
        /// Timeline semaphores are supported.
        const TIMELINE_SEMAPHORES = 1 << 0;
        /// Device and host memory are unified.
        const UNIFIED_MEMORY = 1 << 1;
        /// Host memory accesses are coherent.
        const HOST_COHERENT = 1 << 2;
        /// Peer memory accesses are coherent.
        const PEER_COHERENT = 1 << 3;
        /// Peer-to-peer copies are supported.
        const P2P_COPY = 1 << 4;
        /// Host memory can be used without copies.
        const HOST_ZERO_COPY_OK = 1 << 5;
        /// Concurrent access is safe.
        const CONCURRENT_SAFE = 1 << 6;
        /// Device-scope atomics.
        const ATOMIC_SCOPE_DEVICE = 1 << 7;
        /// System-scope atomics.
        const ATOMIC_SCOPE_SYSTEM = 1 << 8;
        /// The device cannot talk to anything else.
        const ISOLATED = 1 << 9;
        /// Peers can address this device's memory directly.
        const PEER_ADDRESSABLE = 1 << 10;
        /// The device shares the host's virtual address space.
        const SHARED_VIRTUAL_ADDRESS = 1 << 11;
    }
}

/// What a device reports for topology derivation (IREE's
/// `iree_hal_device_capabilities_t`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DeviceCapabilities {
    /// Capability bits.
    pub flags: DeviceCapabilityFlags,
    /// Semaphore handle types the device can export.
    pub semaphore_export_types: HandleTypes,
    /// Semaphore handle types the device can import.
    pub semaphore_import_types: HandleTypes,
    /// Buffer handle types the device can export.
    pub buffer_export_types: HandleTypes,
    /// Buffer handle types the device can import.
    pub buffer_import_types: HandleTypes,
    /// The NUMA node closest to the device.
    pub numa_node: u8,
    /// The physical device's UUID, when known: equal UUIDs mean the same die.
    pub physical_device_uuid: Option<[u8; 16]>,
    /// The driver's own handle of the underlying device, when known: two
    /// devices of one driver with the same handle are the same device.
    pub driver_device_handle: Option<NonZeroU64>,
    /// The driver's device-group index, when the driver has one (reported
    /// for completeness; the derivation does not read it).
    pub device_group_index: Option<u32>,
}

/// The value [`edge_from_capabilities`] writes as the scaled NUMA distance
/// when the SLIT does not know one of the nodes.
pub const NUMA_DISTANCE_FALLBACK: u8 = 3;

/// Derives the edge `src -> dst` from the two devices' capabilities and
/// driver names (IREE's rules, exactly):
///
/// 1. Same driver (byte-equal names) and the same non-zero driver handle:
///    the two are one device, so the result is [`Edge::SELF`].
/// 2. Handle intersections: semaphores/buffers `src` exports and `dst`
///    imports (the `*_import_types`), and the reverse (`*_export_types`).
/// 3. Wait/signal: NATIVE for a same-driver NATIVE handle, IMPORT for any
///    other common handle, else COPY. NONE is never produced here.
/// 4. Non-coherent buffers: NATIVE if both are peer-addressable and of the
///    same driver, IMPORT for a common buffer handle, else COPY. Coherent
///    buffers also get NATIVE when both have unified memory (shared virtual
///    addressing alone is not enough).
/// 5. Capabilities are the ones both devices have; `PEER_COHERENT` also
///    needs the same driver, `SAME_RUNTIME_DOMAIN` is the same driver.
/// 6. NUMA distance, only across nodes: `(slit - 10) / 2` from `numa`
///    (0 for a SLIT of 10 or less), or 3 when the SLIT does not know the
///    nodes; clamped to 15.
/// 7. Link: SAME_DIE for equal UUIDs, PCIe same root for the same driver,
///    else host-staged.
/// 8. Costs: wait 0/3/10 and signal 1/3/10 for NATIVE/IMPORT/COPY; copy and
///    latency (0,0) same die, (5,5) same driver with P2P, (9,8) same driver,
///    (13,11) otherwise.
///
/// As in IREE, the device flags `ISOLATED` and `HOST_ZERO_COPY_OK` are not
/// read, and `BINARY_SEMAPHORE_ONLY`, `REMOTE_DMA` and
/// `PEER_ACCESS_REQUIRES_GRANT` are never set: those are for a driver's
/// [refinement](crate::device::HalDevice::refine_topology_edge) to decide.
pub fn edge_from_capabilities(
    src: &DeviceCapabilities,
    dst: &DeviceCapabilities,
    src_driver: &str,
    dst_driver: &str,
    numa: &dyn NumaDistances,
) -> Edge {
    let same_driver = src_driver.as_bytes() == dst_driver.as_bytes();
    if same_driver
        && src.driver_device_handle.is_some()
        && src.driver_device_handle == dst.driver_device_handle
    {
        return Edge::SELF;
    }
    let same_die = matches!((src.physical_device_uuid, dst.physical_device_uuid), (Some(a), Some(b)) if a == b);

    let sem_import = src.semaphore_export_types & dst.semaphore_import_types;
    let sem_export = dst.semaphore_export_types & src.semaphore_import_types;
    let buf_import = src.buffer_export_types & dst.buffer_import_types;
    let buf_export = dst.buffer_export_types & src.buffer_import_types;

    let semaphore_mode = |common: HandleTypes| {
        if same_driver && common.contains(HandleTypes::NATIVE) {
            InteropMode::Native
        } else if !common.is_empty() {
            InteropMode::Import
        } else {
            InteropMode::Copy
        }
    };
    let wait_mode = semaphore_mode(sem_import);
    let signal_mode = semaphore_mode(sem_export);

    let both = |flag: DeviceCapabilityFlags| src.flags.contains(flag) && dst.flags.contains(flag);
    let peer_addressable = both(DeviceCapabilityFlags::PEER_ADDRESSABLE);
    let p2p = both(DeviceCapabilityFlags::P2P_COPY);
    let unified = both(DeviceCapabilityFlags::UNIFIED_MEMORY);

    let buffer_mode = |native: bool| {
        if native {
            InteropMode::Native
        } else if !buf_import.is_empty() {
            InteropMode::Import
        } else {
            InteropMode::Copy
        }
    };
    let noncoherent = buffer_mode(peer_addressable && same_driver);
    let coherent = buffer_mode(unified || (peer_addressable && same_driver));

    let mut caps = TopologyCapabilities::empty();
    caps.set(TopologyCapabilities::SAME_RUNTIME_DOMAIN, same_driver);
    caps.set(TopologyCapabilities::UNIFIED_MEMORY, unified);
    caps.set(
        TopologyCapabilities::SHARED_VIRTUAL_ADDRESS,
        both(DeviceCapabilityFlags::SHARED_VIRTUAL_ADDRESS),
    );
    caps.set(
        TopologyCapabilities::PEER_COHERENT,
        same_driver && both(DeviceCapabilityFlags::PEER_COHERENT),
    );
    for (device_flag, edge_flag) in [
        (
            DeviceCapabilityFlags::HOST_COHERENT,
            TopologyCapabilities::HOST_COHERENT,
        ),
        (
            DeviceCapabilityFlags::P2P_COPY,
            TopologyCapabilities::P2P_COPY,
        ),
        (
            DeviceCapabilityFlags::CONCURRENT_SAFE,
            TopologyCapabilities::CONCURRENT_SAFE,
        ),
        (
            DeviceCapabilityFlags::ATOMIC_SCOPE_DEVICE,
            TopologyCapabilities::ATOMIC_DEVICE,
        ),
        (
            DeviceCapabilityFlags::ATOMIC_SCOPE_SYSTEM,
            TopologyCapabilities::ATOMIC_SYSTEM,
        ),
        (
            DeviceCapabilityFlags::TIMELINE_SEMAPHORES,
            TopologyCapabilities::TIMELINE_SEMAPHORE,
        ),
    ] {
        caps.set(edge_flag, both(device_flag));
    }

    let numa_distance = if src.numa_node != dst.numa_node {
        scaled_numa_distance(numa.distance(src.numa_node, dst.numa_node))
    } else {
        0
    };

    let link = if same_die {
        LinkClass::SameDie
    } else if same_driver {
        LinkClass::PcieSameRoot
    } else {
        LinkClass::HostStaged
    };
    let (copy_cost, latency) = if same_die {
        (0, 0)
    } else if same_driver && p2p {
        (5, 5)
    } else if same_driver {
        (9, 8)
    } else {
        (13, 11)
    };

    Edge::EMPTY
        .with_wait_mode(wait_mode)
        .with_signal_mode(signal_mode)
        .with_buffer_read_mode_noncoherent(noncoherent)
        .with_buffer_write_mode_noncoherent(noncoherent)
        .with_buffer_read_mode_coherent(coherent)
        .with_buffer_write_mode_coherent(coherent)
        .with_capabilities(caps)
        .with_wait_cost(wait_cost(wait_mode))
        .with_signal_cost(signal_cost(signal_mode))
        .with_copy_cost(copy_cost)
        .with_latency_class(latency)
        .with_numa_distance(numa_distance)
        .with_link_class(link)
        .with_semaphore_import_types(sem_import)
        .with_semaphore_export_types(sem_export)
        .with_buffer_import_types(buf_import)
        .with_buffer_export_types(buf_export)
}

/// The 4-bit NUMA distance for a SLIT value (`None`: unknown nodes).
pub fn scaled_numa_distance(slit: Option<u8>) -> u8 {
    match slit {
        Some(slit) if slit > SLIT_LOCAL => ((slit - SLIT_LOCAL) / 2).min(super::edge::MAX_COST),
        Some(_) => 0,
        None => NUMA_DISTANCE_FALLBACK,
    }
}

fn wait_cost(mode: InteropMode) -> u8 {
    match mode {
        InteropMode::Native => 0,
        InteropMode::Import => 3,
        InteropMode::Copy | InteropMode::None => 10,
    }
}

fn signal_cost(mode: InteropMode) -> u8 {
    match mode {
        InteropMode::Native => 1,
        InteropMode::Import => 3,
        InteropMode::Copy | InteropMode::None => 10,
    }
}

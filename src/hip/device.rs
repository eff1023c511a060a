//! The logical HIP device: one HAL device over one or more physical HIP
//! devices (IREE's `iree_hal_hip_device_create` with `device_count >= 1`),
//! with the facts the topology layer needs: UUIDs, memory kinds and the
//! peer-to-peer links between its physical devices.

use std::sync::Arc;

use crate::backend::{Hip, HipDevice, HipDeviceAttribute, HipError, HipP2pAttribute};
use crate::device::TopologySlot;
use crate::status;
use crate::status::{Result, Status};

use super::error::hip_status;
use super::options::DeviceParams;
use super::rccl::Collectives;
use super::uuid::DeviceUuid;

/// The smallest arena block IREE accepts (`iree_hal_hip_device_check_params`).
pub const MIN_ARENA_BLOCK_SIZE: usize = 4096;

/// One physical device of a logical device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhysicalDevice {
    /// The HIP device handle.
    pub device: HipDevice,
    /// `hipDeviceGetUuid`.
    pub uuid: DeviceUuid,
    /// `hipDeviceGetName`.
    pub name: String,
    /// `hipDeviceAttributeIntegrated`: an APU sharing host memory.
    pub integrated: bool,
    /// `hipDeviceAttributeManagedMemory`: managed allocations supported.
    pub managed_memory: bool,
    /// The host NUMA node, when something outside HIP knows it (HIP has no
    /// query for it; see [`HipDriver::with_numa_nodes`](super::HipDriver::with_numa_nodes)).
    pub numa_node: Option<u8>,
}

/// What HIP reports about the link `src -> dst` between two devices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PeerLink {
    /// `hipDeviceCanAccessPeer(src, dst)`.
    pub can_access_peer: bool,
    /// `hipDevP2PAttrAccessSupported`.
    pub access_supported: bool,
    /// `hipDevP2PAttrNativeAtomicSupported`.
    pub native_atomics: bool,
    /// `hipDevP2PAttrPerformanceRank` (0 is the best link).
    pub performance_rank: i32,
    /// The physical link class where the runtime knows it
    /// ([`Hip::peer_link_class`]: NVML's NVLink or PCIe distance); `None`
    /// for HIP, whose class follows from the attributes above.
    pub link_class: Option<crate::topology::LinkClass>,
}

impl PeerLink {
    /// Queries the link `src -> dst` (`src != dst`).
    pub fn query(hip: &dyn Hip, src: HipDevice, dst: HipDevice) -> Result<PeerLink> {
        let call = |r: std::result::Result<i32, HipError>, name: &str| {
            r.map_err(|e| hip_status(hip, e, name))
        };
        let p2p = |attribute| {
            call(
                hip.device_get_p2p_attribute(attribute, src.raw(), dst.raw()),
                "hipDeviceGetP2PAttribute",
            )
        };
        Ok(PeerLink {
            can_access_peer: hip
                .device_can_access_peer(src.raw(), dst.raw())
                .map_err(|e| hip_status(hip, e, "hipDeviceCanAccessPeer"))?,
            access_supported: p2p(HipP2pAttribute::AccessSupported)? != 0,
            native_atomics: p2p(HipP2pAttribute::NativeAtomicSupported)? != 0,
            performance_rank: p2p(HipP2pAttribute::PerformanceRank)?,
            link_class: hip.peer_link_class(src.raw(), dst.raw()),
        })
    }

    /// True when `src` can read and write `dst`'s memory directly.
    pub fn is_peer(&self) -> bool {
        self.can_access_peer && self.access_supported
    }
}

/// One HAL device over `k >= 1` physical HIP devices.
pub struct HipLogicalDevice {
    hip: Arc<dyn Hip>,
    physical: Vec<PhysicalDevice>,
    /// `links[i * k + j]`: the link from physical device i to j (`i != j`;
    /// the diagonal is the default value).
    links: Vec<PeerLink>,
    params: DeviceParams,
    collectives: Collectives,
    /// The device's place in a group (set by the group, see `super::hal`).
    pub(super) slot: TopologySlot,
}

impl std::fmt::Debug for HipLogicalDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HipLogicalDevice")
            .field("physical", &self.physical)
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

/// IREE's `iree_hal_hip_device_check_params`.
fn check_params(params: &DeviceParams) -> Result<()> {
    if params.arena_block_size < MIN_ARENA_BLOCK_SIZE {
        return Err(Status::invalid_argument(
            "arena block size too small (< 4096 bytes)",
        ));
    }
    if params.queue_count == 0 {
        return Err(Status::invalid_argument("at least one queue is required"));
    }
    Ok(())
}

impl HipLogicalDevice {
    /// Creates the logical device over `devices` (1..=64, distinct):
    /// checks the parameters, reads each
    /// device's UUID, name and memory attributes, and — when there are
    /// several — enables peer access from each to every other member that
    /// `hipDeviceCanAccessPeer` allows (an already-enabled peer is fine).
    ///
    /// IREE peers each device with *every* device of the system; peering
    /// here stays within the logical device, which is all it uses.
    pub fn create(
        hip: Arc<dyn Hip>,
        devices: &[HipDevice],
        params: DeviceParams,
        collectives: Collectives,
    ) -> Result<HipLogicalDevice> {
        check_params(&params)?;
        if devices.is_empty() {
            return Err(Status::invalid_argument(
                "a logical HIP device needs at least one physical device",
            ));
        }
        if devices.len() > super::MAX_PHYSICAL_DEVICES {
            return Err(crate::status!(
                InvalidArgument,
                "too many physical devices allocated for this logical device ({} > {})",
                devices.len(),
                super::MAX_PHYSICAL_DEVICES
            ));
        }
        check_distinct(devices)?;
        let h = hip.as_ref();
        let mut physical = Vec::with_capacity(devices.len());
        for &device in devices {
            let attribute = |a: HipDeviceAttribute| {
                h.device_get_attribute(a, device.raw())
                    .map_err(|e| hip_status(h, e, "hipDeviceGetAttribute"))
            };
            physical.push(PhysicalDevice {
                device,
                uuid: h
                    .device_get_uuid(device)
                    .map(|u| DeviceUuid(u.0))
                    .map_err(|e| hip_status(h, e, "hipDeviceGetUuid"))?,
                name: h
                    .device_get_name(device, crate::backend::HIP_MAX_DEVICE_NAME_LENGTH)
                    .map_err(|e| hip_status(h, e, "hipDeviceGetName"))?,
                integrated: attribute(HipDeviceAttribute::Integrated)? != 0,
                managed_memory: attribute(HipDeviceAttribute::ManagedMemory)? != 0,
                numa_node: None,
            });
        }
        let k = devices.len();
        let mut links = vec![PeerLink::default(); k * k];
        if k > 1 {
            for (i, &src) in devices.iter().enumerate() {
                h.set_device(src.raw())
                    .map_err(|e| hip_status(h, e, "hipSetDevice"))?;
                for (j, &dst) in devices.iter().enumerate() {
                    if i == j {
                        continue;
                    }
                    let link = PeerLink::query(h, src, dst)?;
                    if link.can_access_peer {
                        match h.device_enable_peer_access(dst.raw(), 0) {
                            Ok(()) | Err(HipError::PeerAccessAlreadyEnabled) => {}
                            Err(e) => return Err(hip_status(h, e, "hipDeviceEnablePeerAccess")),
                        }
                    }
                    if let Some(slot) = links.get_mut(i * k + j) {
                        *slot = link;
                    }
                }
            }
        }
        Ok(HipLogicalDevice {
            hip,
            physical,
            links,
            params,
            collectives,
            slot: TopologySlot::new(),
        })
    }

    /// Sets each physical device's NUMA node from `lookup` (by UUID).
    pub fn assign_numa_nodes(&mut self, lookup: impl Fn(&DeviceUuid) -> Option<u8>) {
        for p in &mut self.physical {
            p.numa_node = lookup(&p.uuid);
        }
    }

    /// The physical devices, in the order the path named them.
    pub fn physical_devices(&self) -> &[PhysicalDevice] {
        &self.physical
    }

    /// The link from physical device `i` to `j` (indices into
    /// [`physical_devices`](Self::physical_devices)); `None` out of range
    /// or on the diagonal.
    pub fn peer_link(&self, i: usize, j: usize) -> Option<PeerLink> {
        let k = self.physical.len();
        if i == j || i >= k || j >= k {
            return None;
        }
        self.links.get(i * k + j).copied()
    }

    /// The device parameters it was created with.
    pub fn params(&self) -> &DeviceParams {
        &self.params
    }

    /// Whether collectives can be used (RCCL), or why not.
    pub fn collectives(&self) -> &Collectives {
        &self.collectives
    }

    /// The HIP runtime.
    pub fn hip(&self) -> &Arc<dyn Hip> {
        &self.hip
    }
}

/// Rejects a device named twice (IREE would build a logical device over
/// the same GPU twice).
pub(crate) fn check_distinct(devices: &[HipDevice]) -> Result<()> {
    for (i, device) in devices.iter().enumerate() {
        if let Some(first) = devices
            .get(..i)
            .and_then(|seen| seen.iter().position(|d| d == device))
        {
            return Err(status!(
                InvalidArgument,
                "device {} is listed twice (entries {} and {}); each physical device may appear once in a logical device",
                device.raw(),
                first + 1,
                i + 1
            ));
        }
    }
    Ok(())
}

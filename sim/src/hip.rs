//! HIP on the simulated node: the GPU agents in HSA order are the HIP
//! devices; properties come from the description; peer access follows links.

use amdgpu_sys::hip_types::{HipDeviceAttribute as A, HipP2pAttribute as P2p};
use amdgpu_sys::hsa_values::LinkType;

use crate::codes::{CclCode, HipCode};
use crate::node::Sim;
use amdgpu_sys::hip_types::HipDeviceProps;

fn clamp(value: u64) -> i32 {
    i32::try_from(value).unwrap_or(i32::MAX)
}

impl Sim {
    /// `hipInit`.
    pub fn hip_init(&self, flags: u32) -> Result<(), HipCode> {
        self.hip(
            "hipInit",
            || format!("{flags}"),
            |_, _| {
                if flags == 0 {
                    Ok(())
                } else {
                    Err(HipCode::INVALID_VALUE)
                }
            },
        )
    }

    /// `hipDriverGetVersion`.
    pub fn hip_driver_get_version(&self) -> Result<i32, HipCode> {
        self.hip("hipDriverGetVersion", String::new, |topology, _| {
            Ok(topology.machine.hip_driver_version)
        })
    }

    /// `hipRuntimeGetVersion`.
    pub fn hip_runtime_get_version(&self) -> Result<i32, HipCode> {
        self.hip("hipRuntimeGetVersion", String::new, |topology, _| {
            Ok(topology.machine.hip_runtime_version)
        })
    }

    /// `hipGetDeviceCount`: `hipErrorNoDevice` on a node without GPUs, as ROCm does.
    pub fn hip_get_device_count(&self) -> Result<i32, HipCode> {
        self.hip(
            "hipGetDeviceCount",
            String::new,
            |topology, _| match topology.tables.gpus.len() {
                0 => Err(HipCode::NO_DEVICE),
                n => Ok(clamp(n as u64)),
            },
        )
    }

    /// `hipDeviceGet`: the device of an ordinal is the ordinal.
    pub fn hip_device_get(&self, ordinal: i32) -> Result<i32, HipCode> {
        self.hip(
            "hipDeviceGet",
            || format!("{ordinal}"),
            |topology, _| topology.hip_props(ordinal).map(|_| ordinal),
        )
    }

    /// `hipDeviceGetName(buf, len, device)`: the name cut to `len - 1` bytes.
    pub fn hip_device_get_name(&self, device: i32, len: usize) -> Result<String, HipCode> {
        self.hip(
            "hipDeviceGetName",
            || format!("{len}, {device}"),
            |topology, _| {
                if len == 0 {
                    return Err(HipCode::INVALID_VALUE);
                }
                let name = topology.hip_props(device)?.device.name.as_bytes();
                let cut = name.get(..name.len().min(len - 1)).unwrap_or_default();
                Ok(String::from_utf8_lossy(cut).into_owned())
            },
        )
    }

    /// `hipDeviceGetUuid`: the description's `hip.uuid` when it has one, else
    /// ROCm's convention (the ASCII of the agent UUID's 16 hex digits).
    pub fn hip_device_get_uuid(&self, device: i32) -> Result<[u8; 16], HipCode> {
        self.hip(
            "hipDeviceGetUuid",
            || format!("{device}"),
            |topology, _| Ok(topology.hip_props(device)?.uuid),
        )
    }

    /// Makes `ordinal` the device `hipDeviceEnablePeerAccess` enables from,
    /// without counting a call: the C library keeps the current device per
    /// thread, as HIP does, and hands it over before the call.
    pub fn hip_select_device(&self, ordinal: i32) {
        self.lock().hip_devices.select(ordinal);
    }

    /// `hipGetDeviceProperties`.
    pub fn hip_get_device_properties(&self, ordinal: i32) -> Result<HipDeviceProps, HipCode> {
        self.hip(
            "hipGetDeviceProperties",
            || format!("{ordinal}"),
            |topology, _| Ok(topology.hip_props(ordinal)?.device.clone()),
        )
    }

    /// `hipDeviceGetAttribute` (ROCm's attribute values, [`A`]); unknown
    /// attributes are `hipErrorInvalidValue`.
    pub fn hip_device_get_attribute(&self, attr: i32, ordinal: i32) -> Result<i32, HipCode> {
        self.hip(
            "hipDeviceGetAttribute",
            || format!("{attr}, {ordinal}"),
            |topology, _| {
                let p = &topology.hip_props(ordinal)?.device;
                let Some(attribute) = A::from_raw(attr) else {
                    return Err(HipCode::INVALID_VALUE);
                };
                Ok(match attribute {
                    A::EccEnabled => p.ecc_enabled,
                    A::CanMapHostMemory | A::ConcurrentKernels | A::CooperativeLaunch => 1,
                    A::ClockRate => p.clock_rate,
                    A::Integrated => p.integrated,
                    A::IsMultiGpuBoard => p.is_multi_gpu_board,
                    A::L2CacheSize => p.l2_cache_size,
                    A::ComputeCapabilityMajor => p.major,
                    A::ComputeCapabilityMinor => p.minor,
                    // The simulated node's managed memory is host memory both
                    // sides reach at once, where the board has managed memory.
                    A::ManagedMemory
                    | A::ConcurrentManagedAccess
                    | A::DirectManagedMemAccessFromHost => p.managed_memory,
                    // One address space, and stream-ordered pools (ROCm 5.3+ on every GPU).
                    A::UnifiedAddressing | A::MemoryPoolsSupported => 1,
                    A::MaxBlockDimX => p.max_threads_dim[0],
                    A::MaxBlockDimY => p.max_threads_dim[1],
                    A::MaxBlockDimZ => p.max_threads_dim[2],
                    A::MaxGridDimX => p.max_grid_size[0],
                    A::MaxGridDimY => p.max_grid_size[1],
                    A::MaxGridDimZ => p.max_grid_size[2],
                    A::MaxThreadsPerBlock => p.max_threads_per_block,
                    A::MaxThreadsPerMultiProcessor => p.max_threads_per_multi_processor,
                    A::MemoryBusWidth => p.memory_bus_width,
                    A::MemoryClockRate => p.memory_clock_rate,
                    A::MultiprocessorCount => p.multi_processor_count,
                    A::PciBusId => p.pci_bus_id,
                    A::PciDeviceId => p.pci_device_id,
                    A::PciDomainId => p.pci_domain_id,
                    A::MaxRegistersPerBlock => p.regs_per_block,
                    A::MaxSharedMemoryPerBlock => clamp(p.shared_mem_per_block),
                    A::TotalConstantMemory => clamp(p.total_const_mem),
                    A::WarpSize => p.warp_size,
                })
            },
        )
    }

    /// `hipDeviceCanAccessPeer`: true when a link joins the two GPUs.
    pub fn hip_device_can_access_peer(&self, ordinal: i32, peer: i32) -> Result<bool, HipCode> {
        self.hip(
            "hipDeviceCanAccessPeer",
            || format!("{ordinal}, {peer}"),
            |topology, _| {
                let link = topology.gpu_link(ordinal, peer)?;
                Ok(ordinal != peer && link.is_some())
            },
        )
    }

    /// `hipSetDevice`.
    pub fn hip_set_device(&self, ordinal: i32) -> Result<(), HipCode> {
        self.hip(
            "hipSetDevice",
            || format!("{ordinal}"),
            |topology, state| state.hip_devices.set_current(topology, ordinal),
        )
    }

    /// `hipDeviceEnablePeerAccess` from the current device.
    pub fn hip_device_enable_peer_access(&self, peer: i32, flags: u32) -> Result<(), HipCode> {
        self.hip(
            "hipDeviceEnablePeerAccess",
            || format!("{peer}, {flags}"),
            |topology, state| state.hip_devices.enable_peer_access(topology, peer, flags),
        )
    }

    /// `hipDeviceGetP2PAttribute` (`hipDeviceP2PAttr` values, [`P2p`]).
    pub fn hip_device_get_p2p_attribute(
        &self,
        attribute: i32,
        src: i32,
        dst: i32,
    ) -> Result<i32, HipCode> {
        self.hip(
            "hipDeviceGetP2PAttribute",
            || format!("{attribute}, {src}, {dst}"),
            |topology, _| {
                if src == dst {
                    topology.hip_props(src)?;
                    return Err(HipCode::INVALID_DEVICE);
                }
                let link = topology.gpu_link(src, dst)?;
                let Some(attribute) = P2p::from_raw(attribute) else {
                    return Err(HipCode::INVALID_VALUE);
                };
                Ok(match (attribute, link) {
                    (P2p::PerformanceRank, Some(link)) => {
                        i32::from(link.link_type != LinkType::Xgmi.raw())
                    }
                    (P2p::AccessSupported, Some(_)) => 1,
                    (P2p::NativeAtomicSupported, Some(link)) => i32::from(link.atomic_64bit),
                    (
                        P2p::PerformanceRank | P2p::AccessSupported | P2p::NativeAtomicSupported,
                        None,
                    ) => 0,
                    (P2p::HipArrayAccessSupported, _) => 0,
                })
            },
        )
    }

    /// `ncclGetVersion` of the node's RCCL, or `None` when the node has none
    /// (loading it is then "unavailable").
    pub fn rccl_get_version(&self) -> Option<Result<i32, CclCode>> {
        self.topology.machine.rccl_version.map(Ok)
    }
}

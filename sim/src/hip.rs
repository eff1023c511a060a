//! HIP on the simulated node: the GPU agents in HSA order are the HIP
//! devices; properties come from the description; peer access follows links.

use crate::codes::{CclCode, HipCode};
use crate::node::Sim;
use crate::validate::{HipProps, Link};

/// `hipDeviceAttribute_t` values the simulator answers (ROCm's header values).
pub mod attribute {
    /// `hipDeviceAttributeEccEnabled`.
    pub const ECC_ENABLED: i32 = 0;
    /// `hipDeviceAttributeCanMapHostMemory`.
    pub const CAN_MAP_HOST_MEMORY: i32 = 3;
    /// `hipDeviceAttributeClockRate`.
    pub const CLOCK_RATE: i32 = 5;
    /// `hipDeviceAttributeConcurrentKernels`.
    pub const CONCURRENT_KERNELS: i32 = 8;
    /// `hipDeviceAttributeConcurrentManagedAccess`.
    pub const CONCURRENT_MANAGED_ACCESS: i32 = 9;
    /// `hipDeviceAttributeDirectManagedMemAccessFromHost`.
    pub const DIRECT_MANAGED_MEM_ACCESS_FROM_HOST: i32 = 13;
    /// `hipDeviceAttributeCooperativeLaunch`.
    pub const COOPERATIVE_LAUNCH: i32 = 10;
    /// `hipDeviceAttributeIntegrated`.
    pub const INTEGRATED: i32 = 16;
    /// `hipDeviceAttributeIsMultiGpuBoard`.
    pub const IS_MULTI_GPU_BOARD: i32 = 17;
    /// `hipDeviceAttributeL2CacheSize`.
    pub const L2_CACHE_SIZE: i32 = 19;
    /// `hipDeviceAttributeComputeCapabilityMajor`.
    pub const COMPUTE_CAPABILITY_MAJOR: i32 = 23;
    /// `hipDeviceAttributeManagedMemory`.
    pub const MANAGED_MEMORY: i32 = 24;
    /// `hipDeviceAttributeMaxBlockDimX`.
    pub const MAX_BLOCK_DIM_X: i32 = 26;
    /// `hipDeviceAttributeMaxBlockDimY`.
    pub const MAX_BLOCK_DIM_Y: i32 = 27;
    /// `hipDeviceAttributeMaxBlockDimZ`.
    pub const MAX_BLOCK_DIM_Z: i32 = 28;
    /// `hipDeviceAttributeMaxGridDimX`.
    pub const MAX_GRID_DIM_X: i32 = 29;
    /// `hipDeviceAttributeMaxGridDimY`.
    pub const MAX_GRID_DIM_Y: i32 = 30;
    /// `hipDeviceAttributeMaxGridDimZ`.
    pub const MAX_GRID_DIM_Z: i32 = 31;
    /// `hipDeviceAttributeMaxThreadsPerBlock`.
    pub const MAX_THREADS_PER_BLOCK: i32 = 56;
    /// `hipDeviceAttributeMaxThreadsPerMultiProcessor`.
    pub const MAX_THREADS_PER_MULTI_PROCESSOR: i32 = 57;
    /// `hipDeviceAttributeMemoryBusWidth`.
    pub const MEMORY_BUS_WIDTH: i32 = 59;
    /// `hipDeviceAttributeMemoryClockRate`.
    pub const MEMORY_CLOCK_RATE: i32 = 60;
    /// `hipDeviceAttributeComputeCapabilityMinor`.
    pub const COMPUTE_CAPABILITY_MINOR: i32 = 61;
    /// `hipDeviceAttributeMultiprocessorCount`.
    pub const MULTIPROCESSOR_COUNT: i32 = 63;
    /// `hipDeviceAttributePciBusId`.
    pub const PCI_BUS_ID: i32 = 67;
    /// `hipDeviceAttributePciDeviceId`.
    pub const PCI_DEVICE_ID: i32 = 68;
    /// `hipDeviceAttributePciDomainID`.
    pub const PCI_DOMAIN_ID: i32 = 69;
    /// `hipDeviceAttributeMaxRegistersPerBlock`.
    pub const MAX_REGISTERS_PER_BLOCK: i32 = 71;
    /// `hipDeviceAttributeMaxSharedMemoryPerBlock`.
    pub const MAX_SHARED_MEMORY_PER_BLOCK: i32 = 74;
    /// `hipDeviceAttributeTotalConstantMemory`.
    pub const TOTAL_CONSTANT_MEMORY: i32 = 83;
    /// `hipDeviceAttributeUnifiedAddressing`.
    pub const UNIFIED_ADDRESSING: i32 = 85;
    /// `hipDeviceAttributeWarpSize`.
    pub const WARP_SIZE: i32 = 87;
    /// `hipDeviceAttributeMemoryPoolsSupported`.
    pub const MEMORY_POOLS_SUPPORTED: i32 = 88;
}

/// `hipDeviceP2PAttr` values.
pub mod p2p {
    /// `hipDevP2PAttrPerformanceRank`.
    pub const PERFORMANCE_RANK: i32 = 0;
    /// `hipDevP2PAttrAccessSupported`.
    pub const ACCESS_SUPPORTED: i32 = 1;
    /// `hipDevP2PAttrNativeAtomicSupported`.
    pub const NATIVE_ATOMIC_SUPPORTED: i32 = 2;
    /// `hipDevP2PAttrHipArrayAccessSupported`.
    pub const HIP_ARRAY_ACCESS_SUPPORTED: i32 = 3;
}

fn clamp(value: u64) -> i32 {
    i32::try_from(value).unwrap_or(i32::MAX)
}

impl Sim {
    fn hip_props(&self, ordinal: i32) -> Result<&HipProps, HipCode> {
        let agent = usize::try_from(ordinal)
            .ok()
            .and_then(|o| self.tables.gpus.get(o))
            .ok_or(HipCode::INVALID_DEVICE)?;
        self.machine
            .agents
            .get(*agent)
            .and_then(|a| a.hip.as_ref())
            .ok_or(HipCode::INVALID_DEVICE)
    }

    fn gpu_link(&self, src: i32, dst: i32) -> Result<Option<&Link>, HipCode> {
        let agent = |o: i32| {
            usize::try_from(o)
                .ok()
                .and_then(|o| self.tables.gpus.get(o).copied())
        };
        let (a, b) = (
            agent(src).ok_or(HipCode::INVALID_DEVICE)?,
            agent(dst).ok_or(HipCode::INVALID_DEVICE)?,
        );
        Ok(self.machine.link(a, b))
    }

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
        self.hip("hipDriverGetVersion", String::new, |sim, _| {
            Ok(sim.machine.hip_driver_version)
        })
    }

    /// `hipRuntimeGetVersion`.
    pub fn hip_runtime_get_version(&self) -> Result<i32, HipCode> {
        self.hip("hipRuntimeGetVersion", String::new, |sim, _| {
            Ok(sim.machine.hip_runtime_version)
        })
    }

    /// `hipGetDeviceCount`: `hipErrorNoDevice` on a node without GPUs, as ROCm does.
    pub fn hip_get_device_count(&self) -> Result<i32, HipCode> {
        self.hip("hipGetDeviceCount", String::new, |sim, _| {
            match sim.tables.gpus.len() {
                0 => Err(HipCode::NO_DEVICE),
                n => Ok(clamp(n as u64)),
            }
        })
    }

    /// `hipDeviceGet`: the device of an ordinal is the ordinal.
    pub fn hip_device_get(&self, ordinal: i32) -> Result<i32, HipCode> {
        self.hip(
            "hipDeviceGet",
            || format!("{ordinal}"),
            |sim, _| sim.hip_props(ordinal).map(|_| ordinal),
        )
    }

    /// `hipDeviceGetName(buf, len, device)`: the name cut to `len - 1` bytes.
    pub fn hip_device_get_name(&self, device: i32, len: usize) -> Result<String, HipCode> {
        self.hip(
            "hipDeviceGetName",
            || format!("{len}, {device}"),
            |sim, _| {
                if len == 0 {
                    return Err(HipCode::INVALID_VALUE);
                }
                let name = sim.hip_props(device)?.name.as_bytes();
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
            |sim, _| Ok(sim.hip_props(device)?.uuid),
        )
    }

    /// The properties of `ordinal` without counting a call.
    pub(crate) fn hip_get_device_properties_unlogged(
        &self,
        ordinal: i32,
    ) -> Result<HipProps, HipCode> {
        self.hip_props(ordinal).cloned()
    }

    /// Makes `ordinal` the device `hipDeviceEnablePeerAccess` enables from,
    /// without counting a call: the C library keeps the current device per
    /// thread, as HIP does, and hands it over before the call.
    pub fn hip_select_device(&self, ordinal: i32) {
        self.lock().hip_current = ordinal;
    }

    /// `hipGetDeviceProperties`.
    pub fn hip_get_device_properties(&self, ordinal: i32) -> Result<HipProps, HipCode> {
        self.hip(
            "hipGetDeviceProperties",
            || format!("{ordinal}"),
            |sim, _| sim.hip_props(ordinal).cloned(),
        )
    }

    /// `hipDeviceGetAttribute` (see [`attribute`]); unknown attributes are `hipErrorInvalidValue`.
    pub fn hip_device_get_attribute(&self, attr: i32, ordinal: i32) -> Result<i32, HipCode> {
        self.hip(
            "hipDeviceGetAttribute",
            || format!("{attr}, {ordinal}"),
            |sim, _| {
                use crate::hip::attribute as a;
                let p = sim.hip_props(ordinal)?;
                Ok(match attr {
                    a::ECC_ENABLED => p.ecc_enabled,
                    a::CAN_MAP_HOST_MEMORY | a::CONCURRENT_KERNELS | a::COOPERATIVE_LAUNCH => 1,
                    a::CLOCK_RATE => p.clock_rate,
                    a::INTEGRATED => p.integrated,
                    a::IS_MULTI_GPU_BOARD => p.is_multi_gpu_board,
                    a::L2_CACHE_SIZE => p.l2_cache_size,
                    a::COMPUTE_CAPABILITY_MAJOR => p.major,
                    a::COMPUTE_CAPABILITY_MINOR => p.minor,
                    // The simulated node's managed memory is host memory both
                    // sides reach at once, where the board has managed memory.
                    a::MANAGED_MEMORY
                    | a::CONCURRENT_MANAGED_ACCESS
                    | a::DIRECT_MANAGED_MEM_ACCESS_FROM_HOST => p.managed_memory,
                    // One address space, and stream-ordered pools (ROCm 5.3+ on every GPU).
                    a::UNIFIED_ADDRESSING | a::MEMORY_POOLS_SUPPORTED => 1,
                    a::MAX_BLOCK_DIM_X => p.max_threads_dim[0],
                    a::MAX_BLOCK_DIM_Y => p.max_threads_dim[1],
                    a::MAX_BLOCK_DIM_Z => p.max_threads_dim[2],
                    a::MAX_GRID_DIM_X => p.max_grid_size[0],
                    a::MAX_GRID_DIM_Y => p.max_grid_size[1],
                    a::MAX_GRID_DIM_Z => p.max_grid_size[2],
                    a::MAX_THREADS_PER_BLOCK => p.max_threads_per_block,
                    a::MAX_THREADS_PER_MULTI_PROCESSOR => p.max_threads_per_multi_processor,
                    a::MEMORY_BUS_WIDTH => p.memory_bus_width,
                    a::MEMORY_CLOCK_RATE => p.memory_clock_rate,
                    a::MULTIPROCESSOR_COUNT => p.multi_processor_count,
                    a::PCI_BUS_ID => p.pci_bus_id,
                    a::PCI_DEVICE_ID => p.pci_device_id,
                    a::PCI_DOMAIN_ID => p.pci_domain_id,
                    a::MAX_REGISTERS_PER_BLOCK => p.regs_per_block,
                    a::MAX_SHARED_MEMORY_PER_BLOCK => clamp(p.shared_mem_per_block),
                    a::TOTAL_CONSTANT_MEMORY => clamp(p.total_const_mem),
                    a::WARP_SIZE => p.warp_size,
                    _ => return Err(HipCode::INVALID_VALUE),
                })
            },
        )
    }

    /// `hipDeviceCanAccessPeer`: true when a link joins the two GPUs.
    pub fn hip_device_can_access_peer(&self, ordinal: i32, peer: i32) -> Result<bool, HipCode> {
        self.hip(
            "hipDeviceCanAccessPeer",
            || format!("{ordinal}, {peer}"),
            |sim, _| {
                let link = sim.gpu_link(ordinal, peer)?;
                Ok(ordinal != peer && link.is_some())
            },
        )
    }

    /// `hipSetDevice`.
    pub fn hip_set_device(&self, ordinal: i32) -> Result<(), HipCode> {
        self.hip(
            "hipSetDevice",
            || format!("{ordinal}"),
            |sim, state| {
                sim.hip_props(ordinal)?;
                state.hip_current = ordinal;
                Ok(())
            },
        )
    }

    /// `hipDeviceEnablePeerAccess` from the current device.
    pub fn hip_device_enable_peer_access(&self, peer: i32, flags: u32) -> Result<(), HipCode> {
        self.hip(
            "hipDeviceEnablePeerAccess",
            || format!("{peer}, {flags}"),
            |sim, state| {
                if flags != 0 {
                    return Err(HipCode::INVALID_VALUE);
                }
                let current = state.hip_current;
                if current == peer {
                    return Err(HipCode::INVALID_DEVICE);
                }
                if sim.gpu_link(current, peer)?.is_none() {
                    return Err(HipCode::PEER_ACCESS_UNSUPPORTED);
                }
                if !state.hip_peers.insert((current, peer)) {
                    return Err(HipCode::PEER_ACCESS_ALREADY_ENABLED);
                }
                Ok(())
            },
        )
    }

    /// `hipDeviceGetP2PAttribute` (see [`p2p`]).
    pub fn hip_device_get_p2p_attribute(
        &self,
        attribute: i32,
        src: i32,
        dst: i32,
    ) -> Result<i32, HipCode> {
        self.hip(
            "hipDeviceGetP2PAttribute",
            || format!("{attribute}, {src}, {dst}"),
            |sim, _| {
                if src == dst {
                    sim.hip_props(src)?;
                    return Err(HipCode::INVALID_DEVICE);
                }
                let link = sim.gpu_link(src, dst)?;
                Ok(match (attribute, link) {
                    (p2p::PERFORMANCE_RANK, Some(link)) => i32::from(link.link_type != 4),
                    (p2p::ACCESS_SUPPORTED, Some(_)) => 1,
                    (p2p::NATIVE_ATOMIC_SUPPORTED, Some(link)) => i32::from(link.atomic_64bit),
                    (
                        p2p::PERFORMANCE_RANK
                        | p2p::ACCESS_SUPPORTED
                        | p2p::NATIVE_ATOMIC_SUPPORTED,
                        None,
                    ) => 0,
                    (p2p::HIP_ARRAY_ACCESS_SUPPORTED, _) => 0,
                    _ => return Err(HipCode::INVALID_VALUE),
                })
            },
        )
    }

    /// `ncclGetVersion` of the node's RCCL, or `None` when the node has none
    /// (loading it is then "unavailable").
    pub fn rccl_get_version(&self) -> Option<Result<i32, CclCode>> {
        self.machine.rccl_version.map(Ok)
    }
}

//! The answers of the HSA `*_get_info` calls in C layout: one encoder per
//! info family (`hsa_system_get_info`, `hsa_agent_get_info`,
//! `hsa_isa_get_info_alt`, `hsa_amd_memory_pool_get_info`,
//! `hsa_amd_agent_memory_pool_get_info`, `hsa_executable_symbol_get_info`,
//! `hsa_ven_amd_loader_loaded_code_object_get_info`), each attribute written
//! as the bytes the C call stores (`amdgpu-sys`'s `InfoSize`: a `char[64]`
//! is 64 bytes, NUL-padded; an ISA name carries its NUL, a symbol name
//! does not). Both faces of the simulator answer through these: the
//! in-process backend of `amdgpu-hal` copies them into the caller's buffer,
//! the C library through the caller's pointer.
//!
//! Each call is one simulator call (logged, counted, faultable) named by
//! its C function, with the attribute's enumerator in the log.

use amdgpu_sys::hsa_info::{
    AgentInfo, AgentMemoryPoolInfo, ExecutableSymbolInfo, IsaInfo, LoadedCodeObjectInfo,
    MemoryPoolInfo, RegionInfo, SystemInfo,
};
use amdgpu_sys::hsa_types::{LINK_INFO_SIZE, hsa_amd_memory_pool_link_info_t};
use amdgpu_sys::hsa_values::{
    DeviceType, GLOBAL_FLAG_FINE_GRAINED, REGION_SEGMENT_GLOBAL, SymbolKind as CSymbolKind,
};

use crate::codes::HsaCode;
use crate::elf::SymbolKind;
use crate::hsa_info::IsaInfo as DerivedIsaInfo;
use crate::machine::AgentKind;
use crate::node::Sim;
use crate::validate::Link;

/// A value as the bytes C reads it from: native byte order, arrays
/// element by element, `bool` as one byte.
pub trait CBytes {
    /// The value's bytes.
    fn c_bytes(&self) -> Vec<u8>;
}

macro_rules! c_bytes_of_integers {
    ($($t:ty),*) => {$(
        impl CBytes for $t {
            fn c_bytes(&self) -> Vec<u8> {
                self.to_ne_bytes().to_vec()
            }
        }
    )*};
}
c_bytes_of_integers!(u16, u32, u64, i64, usize);

impl CBytes for bool {
    fn c_bytes(&self) -> Vec<u8> {
        vec![u8::from(*self)]
    }
}

impl<T: CBytes, const N: usize> CBytes for [T; N] {
    fn c_bytes(&self) -> Vec<u8> {
        self.iter().flat_map(CBytes::c_bytes).collect()
    }
}

/// A `char[N]` attribute: the text cut to `N - 1` bytes, NUL-padded.
fn chars<const N: usize>(text: &str) -> Vec<u8> {
    let mut buffer = vec![0u8; N];
    for (slot, byte) in buffer.iter_mut().take(N - 1).zip(text.bytes()) {
        *slot = byte;
    }
    buffer
}

/// A `size_t` attribute (`HSA_STATUS_ERROR` where it does not fit).
fn size_t(value: u64) -> Result<Vec<u8>, HsaCode> {
    usize::try_from(value)
        .map(|v| v.c_bytes())
        .map_err(|_| HsaCode::ERROR)
}

/// One hop as `hsa_amd_memory_pool_link_info_t`, field by field at the
/// struct's offsets; the padding byte is zero (a whole-struct copy would
/// hand C an uninitialized byte).
fn link_info(link: &Link) -> [u8; LINK_INFO_SIZE] {
    use std::mem::offset_of;
    type L = hsa_amd_memory_pool_link_info_t;
    let mut out = [0u8; LINK_INFO_SIZE];
    let fields: [(usize, Vec<u8>); 9] = [
        (offset_of!(L, min_latency), link.min_latency.c_bytes()),
        (offset_of!(L, max_latency), link.max_latency.c_bytes()),
        (offset_of!(L, min_bandwidth), link.min_bandwidth.c_bytes()),
        (offset_of!(L, max_bandwidth), link.max_bandwidth.c_bytes()),
        (
            offset_of!(L, atomic_support_32bit),
            link.atomic_32bit.c_bytes(),
        ),
        (
            offset_of!(L, atomic_support_64bit),
            link.atomic_64bit.c_bytes(),
        ),
        (offset_of!(L, coherent_support), link.coherent.c_bytes()),
        (offset_of!(L, link_type), link.link_type.c_bytes()),
        (offset_of!(L, numa_distance), link.numa_distance.c_bytes()),
    ];
    for (at, bytes) in fields {
        if let Some(slot) = out.get_mut(at..at + bytes.len()) {
            slot.copy_from_slice(&bytes);
        }
    }
    out
}

impl Sim {
    /// `hsa_system_get_info`: the description's `[hsa]` answers
    /// ([`SystemInfo::resolve`](crate::hsa_info::SystemInfo::resolve)), and
    /// `SVM_ACCESSIBLE_BY_DEFAULT` true when every GPU's ISA has `xnack+`
    /// (ROCr: system memory is reachable without a declaration only where
    /// every GPU can take the page faults).
    pub fn system_get_info(&self, attribute: SystemInfo) -> Result<Vec<u8>, HsaCode> {
        let xnack: Vec<bool> = self
            .topology
            .tables
            .gpus
            .iter()
            .map(|&gpu| {
                self.topology.tables.agent_isas.get(gpu).is_some_and(|ids| {
                    ids.iter().any(|&id| {
                        self.topology.tables.isas.get(id).is_some_and(|isa| {
                            crate::isa::Target::parse(&isa.name)
                                .is_some_and(|t| t.xnack == crate::isa::Feature::On)
                        })
                    })
                })
            })
            .collect();
        self.system_info(attribute.name(), |i| match attribute {
            SystemInfo::SvmSupported => i.svm_supported.c_bytes(),
            SystemInfo::SvmAccessibleByDefault => xnack.iter().all(|&on| on).c_bytes(),
            SystemInfo::VersionMajor => i.version_major.c_bytes(),
            SystemInfo::VersionMinor => i.version_minor.c_bytes(),
            SystemInfo::TimestampFrequency => i.timestamp_frequency.c_bytes(),
            SystemInfo::SignalMaxWait => i.signal_max_wait.c_bytes(),
            SystemInfo::Endianness => i.endianness.c_bytes(),
            SystemInfo::MachineModel => i.machine_model.c_bytes(),
            SystemInfo::ExtVersionMajor => i.ext_version_major.c_bytes(),
            SystemInfo::ExtVersionMinor => i.ext_version_minor.c_bytes(),
            SystemInfo::MwaitxEnabled => i.mwaitx.c_bytes(),
            SystemInfo::DmabufSupported => i.dmabuf.c_bytes(),
            SystemInfo::XnackEnabled => i.xnack.c_bytes(),
            SystemInfo::VirtualMemApiSupported => i.virtual_memory.c_bytes(),
        })
    }

    /// `hsa_agent_get_info`: the validated agent, its `[agents.hsa]`
    /// attributes and ROCr's per-kind constants.
    pub fn agent_get_info(&self, agent: u64, attribute: AgentInfo) -> Result<Vec<u8>, HsaCode> {
        use AgentInfo as I;
        match attribute {
            I::NearestCpu => return Ok(self.agent_nearest_cpu(agent)?.c_bytes()),
            I::Isa => return Ok(self.agent_isa(agent)?.c_bytes()),
            _ => {}
        }
        self.agent_info(agent, attribute.name(), |a| {
            let hsa = &a.hsa;
            match attribute {
                I::Name => chars::<64>(&a.name),
                I::VendorName => chars::<64>(&a.vendor),
                I::ProductName => chars::<64>(&a.product),
                I::Uuid => chars::<21>(&a.uuid),
                I::Device => match a.kind {
                    AgentKind::Cpu => DeviceType::Cpu,
                    AgentKind::Gpu => DeviceType::Gpu,
                }
                .raw()
                .c_bytes(),
                // ROCr answers the KFD node id for both.
                I::Node | I::DriverNodeId => a.node.c_bytes(),
                I::QueuesMax => a.queues_max.c_bytes(),
                I::WavefrontSize => a.wavefront_size.c_bytes(),
                I::ComputeUnitCount => a.compute_units.c_bytes(),
                I::ChipId => a.chip_id.c_bytes(),
                I::BdfId => a.bdf_id.c_bytes(),
                I::Domain => a.domain.c_bytes(),
                I::DriverUid => a.driver_uid.c_bytes(),
                I::Profile => a.profile.c_bytes(),
                I::DefaultFloatRoundingMode => a.rounding_mode.c_bytes(),
                I::Feature => hsa.feature.c_bytes(),
                I::QueueMinSize => hsa.queue_min_size.c_bytes(),
                I::QueueMaxSize => hsa.queue_max_size.c_bytes(),
                I::QueueType => hsa.queue_type.c_bytes(),
                I::CacheSize => hsa.cache_sizes.c_bytes(),
                I::CachelineSize => hsa.cacheline_size.c_bytes(),
                I::MaxClockFrequency => hsa.max_clock_mhz.c_bytes(),
                I::MaxAddressWatchPoints => hsa.watch_points.c_bytes(),
                I::NumSimdsPerCu => hsa.simds_per_cu.c_bytes(),
                I::NumShaderEngines => hsa.shader_engines.c_bytes(),
                I::NumShaderArraysPerSe => hsa.shader_arrays_per_engine.c_bytes(),
                I::MaxWavesPerCu => hsa.max_waves_per_cu.c_bytes(),
                I::AsicRevision => hsa.asic_revision.c_bytes(),
                I::SvmDirectHostAccess => hsa.coherent_host_access.c_bytes(),
                I::UcodeVersion => hsa.ucode_version.c_bytes(),
                I::SdmaUcodeVersion => hsa.sdma_ucode_version.c_bytes(),
                I::IommuSupport => hsa.iommu_support.c_bytes(),
                I::MemoryProperties => hsa.memory_properties.to_vec(),
                I::FastF16Operation => hsa.fast_f16.c_bytes(),
                I::WorkgroupMaxSize => hsa.workgroup_max_size.c_bytes(),
                I::WorkgroupMaxDim => hsa.workgroup_max_dim.c_bytes(),
                I::GridMaxDim => hsa.grid_max_dim.c_bytes(),
                I::GridMaxSize => hsa.grid_max_size.c_bytes(),
                I::FbarrierMaxSize => hsa.fbarrier_max_size.c_bytes(),
                // Answered above (they are not read from the agent alone).
                I::NearestCpu | I::Isa => Vec::new(),
            }
        })
    }

    /// `hsa_isa_get_info_alt`: the name and work-group limits of the
    /// description, the rest derived from the name as ROCr derives it.
    pub fn isa_get_info(&self, isa: u64, attribute: IsaInfo) -> Result<Vec<u8>, HsaCode> {
        use IsaInfo as I;
        self.isa_info(isa, attribute.name(), |i| {
            let derived = || DerivedIsaInfo::of(&i.name);
            Ok(match attribute {
                // ROCr counts the NUL (the header says it does not).
                I::NameLength => u32::try_from(i.name.len() + 1)
                    .map_err(|_| HsaCode::ERROR)?
                    .c_bytes(),
                I::Name => [i.name.as_bytes(), &[0]].concat(),
                I::WorkgroupMaxDim => i.workgroup_max_dim.c_bytes(),
                I::WorkgroupMaxSize => i.workgroup_max_size.c_bytes(),
                I::MachineModels => derived().machine_models.c_bytes(),
                I::Profiles => derived().profiles.c_bytes(),
                I::DefaultFloatRoundingModes => derived().default_float_rounding_modes.c_bytes(),
                I::BaseProfileDefaultFloatRoundingModes => derived()
                    .base_profile_default_float_rounding_modes
                    .c_bytes(),
                I::FastF16Operation => derived().fast_f16.c_bytes(),
                I::GridMaxDim => derived().grid_max_dim.c_bytes(),
                I::GridMaxSize => derived().grid_max_size.c_bytes(),
                I::FbarrierMaxSize => derived().fbarrier_max_size.c_bytes(),
            })
        })?
    }

    /// `hsa_amd_memory_pool_get_info`.
    pub fn memory_pool_get_info(
        &self,
        pool: u64,
        attribute: MemoryPoolInfo,
    ) -> Result<Vec<u8>, HsaCode> {
        use MemoryPoolInfo as I;
        self.pool_info(pool, attribute.name(), |p| match attribute {
            I::Segment => Ok(p.segment.c_bytes()),
            I::GlobalFlags => Ok(p.flags.c_bytes()),
            I::Size => size_t(p.size),
            I::RuntimeAllocAllowed => Ok(p.alloc_allowed.c_bytes()),
            I::RuntimeAllocGranule => size_t(p.granule),
            I::RuntimeAllocAlignment => size_t(p.alignment),
            I::AccessibleByAll => Ok(p.accessible_by_all.c_bytes()),
            I::AllocMaxSize => size_t(p.alloc_max_size),
            I::RuntimeAllocRecGranule => size_t(p.rec_granule),
        })?
    }

    /// `hsa_agent_iterate_regions`: ROCr's regions are its memory pools
    /// (the same handles). A GPU lists its own pools, then every CPU's
    /// fine-grained pools, then every CPU's other pools (ROCr's
    /// `system_regions_fine` and `system_regions_coarse`); a CPU lists
    /// those two alone, so each CPU sees the system memory of every socket.
    pub fn agent_iterate_regions(&self, agent: u64) -> Result<Vec<u64>, HsaCode> {
        self.hsa(
            "hsa_agent_iterate_regions",
            || format!("{agent:#x}"),
            |topology, _| {
                let i = topology.agent_index(agent)?;
                let me = topology.agent(agent)?;
                // (pool table index, global flags) of each pool of agent `index`.
                let own = |index: usize, a: &crate::validate::Agent| -> Vec<(usize, u32)> {
                    let start = topology.tables.pool_start.get(index).copied().unwrap_or(0);
                    (start..).zip(a.pools.iter().map(|p| p.flags)).collect()
                };
                let mut regions = Vec::new();
                if me.kind == AgentKind::Gpu {
                    regions.extend(own(i, me).into_iter().map(|(p, _)| p));
                }
                let cpus = || {
                    (topology.machine.agents.iter().enumerate())
                        .filter(|(_, a)| a.kind == AgentKind::Cpu)
                };
                for fine in [true, false] {
                    for (index, cpu) in cpus() {
                        regions.extend(
                            own(index, cpu)
                                .into_iter()
                                .filter(|(_, flags)| {
                                    (flags & GLOBAL_FLAG_FINE_GRAINED != 0) == fine
                                })
                                .map(|(p, _)| p),
                        );
                    }
                }
                Ok(regions
                    .into_iter()
                    .map(|p| crate::handles::handle(crate::handles::TAG_POOL, p as u64 + 1))
                    .collect())
            },
        )
    }

    /// `hsa_region_get_info`: a region is a pool, and ROCr answers the
    /// attributes a pool shares with its region (`SEGMENT` … `ALIGNMENT`,
    /// the same numbers) from the same code, so these are the pool's
    /// values; `GLOBAL_FLAGS` is 0 outside the global segment, and
    /// `HSA_AMD_REGION_INFO_HOST_ACCESSIBLE` is true for system (CPU) memory.
    /// A handle that is not a region is `HSA_STATUS_ERROR_INVALID_REGION`
    /// (`hsa.h`).
    pub fn region_get_info(&self, region: u64, attribute: RegionInfo) -> Result<Vec<u8>, HsaCode> {
        use RegionInfo as I;
        self.hsa(
            "hsa_region_get_info",
            || format!("{region:#x}, {}", attribute.name()),
            |topology, _| {
                let (owner, p) = topology.pool(region).map_err(|_| HsaCode::INVALID_REGION)?;
                let system = topology
                    .machine
                    .agents
                    .get(owner)
                    .is_some_and(|a| a.kind == AgentKind::Cpu);
                match attribute {
                    I::Segment => Ok(p.segment.c_bytes()),
                    I::GlobalFlags => Ok(if p.segment == REGION_SEGMENT_GLOBAL {
                        p.flags
                    } else {
                        0
                    }
                    .c_bytes()),
                    I::Size => size_t(p.size),
                    I::AllocMaxSize => size_t(p.alloc_max_size),
                    I::RuntimeAllocAllowed => Ok(p.alloc_allowed.c_bytes()),
                    I::RuntimeAllocGranule => size_t(p.granule),
                    I::RuntimeAllocAlignment => size_t(p.alignment),
                    I::HostAccessible => Ok(system.c_bytes()),
                }
            },
        )
    }

    /// `hsa_amd_agent_memory_pool_get_info`: the owner and pools accessible
    /// by all are allowed by default, pools reachable over a link
    /// disallowed by default, others never; one link entry per hop.
    pub fn agent_memory_pool_get_info(
        &self,
        agent: u64,
        pool: u64,
        attribute: AgentMemoryPoolInfo,
    ) -> Result<Vec<u8>, HsaCode> {
        self.agent_pool_info(agent, pool, attribute.name(), |access, link| {
            match attribute {
                AgentMemoryPoolInfo::Access => access.raw().c_bytes(),
                AgentMemoryPoolInfo::NumLinkHops => link.map_or(0, |l| l.hops).c_bytes(),
                // The description gives one link per pair, so each hop repeats it.
                AgentMemoryPoolInfo::LinkInfo => link.map_or_else(Vec::new, |l| {
                    (0..l.hops).flat_map(|_| link_info(l)).collect()
                }),
            }
        })
    }

    /// `hsa_executable_symbol_get_info`: kernel attributes of a variable
    /// (and the reverse) are `HSA_STATUS_ERROR_INVALID_ARGUMENT`, as in ROCr.
    pub fn executable_symbol_get_info(
        &self,
        symbol: u64,
        attribute: ExecutableSymbolInfo,
    ) -> Result<Vec<u8>, HsaCode> {
        use ExecutableSymbolInfo as I;
        let info = self.symbol_info(symbol, attribute.name())?;
        let kernel = match info.kind {
            SymbolKind::Kernel {
                group_segment_size,
                private_segment_size,
                kernarg_size,
            } => Some((group_segment_size, private_segment_size, kernarg_size)),
            SymbolKind::Variable => None,
        };
        Ok(match (attribute, kernel) {
            (I::Type, Some(_)) => CSymbolKind::Kernel.raw().c_bytes(),
            (I::Type, None) => CSymbolKind::Variable.raw().c_bytes(),
            (I::NameLength, _) => u32::try_from(info.name.len())
                .map_err(|_| HsaCode::ERROR)?
                .c_bytes(),
            (I::Name, _) => info.name.into_bytes(),
            (I::Agent, _) => info.agent.c_bytes(),
            (I::KernelObject, Some(_)) => info.address.c_bytes(),
            (I::KernargSegmentSize, Some((_, _, kernarg))) => kernarg.c_bytes(),
            // ROCr reports 16 for code object v3+ kernels (it does not read the metadata).
            (I::KernargSegmentAlignment, Some(_)) => 16u32.c_bytes(),
            (I::GroupSegmentSize, Some((group, _, _))) => group.c_bytes(),
            (I::PrivateSegmentSize, Some((_, private, _))) => private.c_bytes(),
            (I::VariableAddress, None) => info.address.c_bytes(),
            (I::VariableSize, None) => u32::try_from(info.size)
                .map_err(|_| HsaCode::INVALID_EXECUTABLE_SYMBOL)?
                .c_bytes(),
            _ => return Err(HsaCode::INVALID_ARGUMENT),
        })
    }

    /// `hsa_ven_amd_loader_loaded_code_object_get_info`.
    pub fn loaded_code_object_get_info(
        &self,
        loaded: u64,
        attribute: LoadedCodeObjectInfo,
    ) -> Result<Vec<u8>, HsaCode> {
        let info = self.loaded_code_object_info(loaded, attribute.name())?;
        Ok(match attribute {
            LoadedCodeObjectInfo::Agent => info.agent.c_bytes(),
            LoadedCodeObjectInfo::LoadDelta => info.load_delta.c_bytes(),
            LoadedCodeObjectInfo::LoadBase => info.load_base.c_bytes(),
            LoadedCodeObjectInfo::LoadSize => info.load_size.c_bytes(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use amdgpu_sys::hsa_info::InfoSize;

    fn node() -> Sim {
        let sim = Sim::preset("mi300x-8")
            .expect("preset exists")
            .expect("preset is valid");
        sim.hsa_init().expect("hsa_init");
        sim
    }

    fn u32s(bytes: &[u8]) -> Vec<u32> {
        bytes
            .chunks(4)
            .map(|c| u32::from_ne_bytes(c.try_into().expect("4 bytes")))
            .collect()
    }

    /// mi300x-8 has two CPU agents (0, 1): each lists every socket's
    /// fine-grained system pools, then every socket's others (ROCr's
    /// `system_regions_fine` then `system_regions_coarse`); a GPU its own
    /// pools first. Every region answers exactly its C type.
    #[test]
    fn regions_span_every_socket_in_rocr_order() {
        use amdgpu_sys::hsa_values::GLOBAL_FLAG_FINE_GRAINED as FINE;
        let sim = node();
        let flags = |p: u64| {
            u32::from_ne_bytes(
                sim.memory_pool_get_info(p, MemoryPoolInfo::GlobalFlags)
                    .expect("flags")
                    .try_into()
                    .expect("4 bytes"),
            )
        };
        let (cpu0, cpu1) = (Sim::agent_handle(0), Sim::agent_handle(1));
        assert_eq!(
            sim.agent_get_info(cpu1, AgentInfo::Device).expect("device"),
            DeviceType::Cpu.raw().c_bytes()
        );
        let pools: Vec<u64> = [cpu0, cpu1]
            .into_iter()
            .flat_map(|c| sim.agent_iterate_memory_pools(c).expect("pools"))
            .collect();
        let mut expected: Vec<u64> = pools
            .iter()
            .copied()
            .filter(|&p| flags(p) & FINE != 0)
            .collect();
        expected.extend(pools.iter().copied().filter(|&p| flags(p) & FINE == 0));
        assert_eq!(sim.agent_iterate_regions(cpu0).expect("regions"), expected);
        assert_eq!(sim.agent_iterate_regions(cpu1).expect("regions"), expected);
        let gpu = Sim::agent_handle(2);
        let mut gpu_expected = sim.agent_iterate_memory_pools(gpu).expect("pools");
        gpu_expected.extend(&expected);
        let gpu_regions = sim.agent_iterate_regions(gpu).expect("regions");
        assert_eq!(gpu_regions, gpu_expected);
        for region in gpu_regions {
            for &attribute in RegionInfo::ALL {
                let InfoSize::Fixed(size) = attribute.size() else {
                    panic!("{attribute:?} is counted");
                };
                let bytes = sim.region_get_info(region, attribute).expect("answered");
                assert_eq!(bytes.len(), size, "{attribute:?}");
            }
        }
        assert_eq!(
            sim.region_get_info(gpu, RegionInfo::Size),
            Err(HsaCode::INVALID_REGION)
        );
    }

    #[test]
    fn every_fixed_attribute_answers_exactly_its_c_type() {
        let sim = node();
        for agent in [Sim::agent_handle(0), Sim::agent_handle(2)] {
            for &attribute in AgentInfo::ALL {
                let InfoSize::Fixed(size) = attribute.size() else {
                    panic!("{attribute:?} is counted");
                };
                let bytes = sim.agent_get_info(agent, attribute).expect("answered");
                assert_eq!(bytes.len(), size, "{attribute:?} of {agent:#x}");
            }
        }
        let isa = sim.agent_iterate_isas(Sim::agent_handle(2)).expect("isas")[0];
        for &attribute in IsaInfo::ALL {
            if let InfoSize::Fixed(size) = attribute.size() {
                let bytes = sim.isa_get_info(isa, attribute).expect("answered");
                assert_eq!(bytes.len(), size, "{attribute:?}");
            }
        }
        for &attribute in SystemInfo::ALL {
            let InfoSize::Fixed(size) = attribute.size() else {
                panic!("{attribute:?} is counted");
            };
            assert_eq!(
                sim.system_get_info(attribute).expect("answered").len(),
                size
            );
        }
    }

    #[test]
    fn rocm6_attributes_answer_the_presets_release() {
        use amdgpu_sys::hsa_info::MemoryPoolInfo as P;
        // ROCm 6.3.3 on mi300x-8 (fixtures/machines/mi300x-8.toml).
        let sim = node();
        let sys = |a| sim.system_get_info(a).expect("answered");
        assert_eq!(sys(SystemInfo::VersionMinor), 14u16.to_ne_bytes());
        assert_eq!(sys(SystemInfo::ExtVersionMajor), 1u16.to_ne_bytes());
        assert_eq!(sys(SystemInfo::ExtVersionMinor), 6u16.to_ne_bytes());
        assert_eq!(sys(SystemInfo::DmabufSupported), [1]);
        assert_eq!(sys(SystemInfo::MwaitxEnabled), [0]);
        let gpu = Sim::agent_handle(2);
        let read = |attribute| sim.agent_get_info(gpu, attribute).expect("answered");
        assert_eq!(u32s(&read(AgentInfo::UcodeVersion)), [150]);
        assert_eq!(u32s(&read(AgentInfo::SdmaUcodeVersion)), [19]);
        assert_eq!(u32s(&read(AgentInfo::IommuSupport)), [0]);
        assert_eq!(read(AgentInfo::MemoryProperties), [0; 8]);
        let pools = sim.agent_iterate_memory_pools(gpu).expect("pools");
        let rec = |pool| {
            usize::from_ne_bytes(
                sim.memory_pool_get_info(pool, P::RuntimeAllocRecGranule)
                    .expect("answered")
                    .try_into()
                    .expect("size_t"),
            )
        };
        // 2048 KB for GPU memory, 0 for the group pool, 4 KB for the host's.
        assert_eq!(rec(pools[0]), 2 << 20);
        assert_eq!(rec(pools[3]), 0);
        let cpu_pools = sim
            .agent_iterate_memory_pools(Sim::agent_handle(0))
            .expect("pools");
        assert_eq!(rec(cpu_pools[0]), 4096);
        // An APU's GPU sets bit 1 of byte 0 (hsa_flag_set64 with
        // HSA_AMD_MEMORY_PROPERTY_AGENT_IS_APU = 1).
        let apu = Sim::preset("mi300a-4").expect("preset").expect("valid");
        apu.hsa_init().expect("hsa_init");
        let properties = apu
            .agent_get_info(Sim::agent_handle(4), AgentInfo::MemoryProperties)
            .expect("answered");
        assert_eq!(properties, [2, 0, 0, 0, 0, 0, 0, 0]);
        let cpu_properties = apu
            .agent_get_info(Sim::agent_handle(0), AgentInfo::MemoryProperties)
            .expect("answered");
        assert_eq!(cpu_properties, [0; 8]);
    }

    #[test]
    fn gpu_agent_answers_match_the_published_mi300x() {
        // rocminfo of an MI300X, https://github.com/ROCm/ROCm/issues/4021.
        let sim = node();
        let gpu = Sim::agent_handle(2);
        let read = |attribute| sim.agent_get_info(gpu, attribute).expect("answered");
        assert_eq!(
            u32s(&read(AgentInfo::CacheSize)),
            [32 << 10, 4096 << 10, 262_144 << 10, 0]
        );
        assert_eq!(u32s(&read(AgentInfo::Feature)), [1]);
        assert_eq!(u32s(&read(AgentInfo::QueueMinSize)), [64]);
        assert_eq!(u32s(&read(AgentInfo::QueueMaxSize)), [131_072]);
        assert_eq!(u32s(&read(AgentInfo::NumShaderEngines)), [32]);
        assert_eq!(u32s(&read(AgentInfo::MaxWavesPerCu)), [32]);
        assert_eq!(u32s(&read(AgentInfo::DriverNodeId)), [2]);
        assert_eq!(u32s(&read(AgentInfo::GridMaxDim)), [u32::MAX; 3]);
        assert_eq!(read(AgentInfo::WorkgroupMaxDim), [0, 4, 0, 4, 0, 4]);
        assert_eq!(read(AgentInfo::FastF16Operation), [1]);
        let first = sim.agent_iterate_isas(gpu).expect("isas")[0];
        assert_eq!(read(AgentInfo::Isa), first.to_ne_bytes());
        // A CPU agent: no kernel dispatch, no queues, no ISA (handle 0).
        let cpu = Sim::agent_handle(0);
        let feature = sim
            .agent_get_info(cpu, AgentInfo::Feature)
            .expect("feature");
        assert_eq!(u32s(&feature), [0]);
        let isa = sim.agent_get_info(cpu, AgentInfo::Isa).expect("isa");
        assert_eq!(isa, [0; 8]);
    }

    #[test]
    fn isa_attributes_follow_rocr() {
        let sim = node();
        let isa = sim.agent_iterate_isas(Sim::agent_handle(2)).expect("isas")[0];
        let read = |attribute| sim.isa_get_info(isa, attribute).expect("answered");
        let name = "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-";
        assert_eq!(u32s(&read(IsaInfo::NameLength)), [name.len() as u32 + 1]);
        assert_eq!(read(IsaInfo::Name), [name.as_bytes(), &[0]].concat());
        assert_eq!(read(IsaInfo::MachineModels), [0, 1]);
        assert_eq!(read(IsaInfo::Profiles), [1, 0]);
        assert_eq!(read(IsaInfo::DefaultFloatRoundingModes), [0, 0, 1]);
        assert_eq!(
            read(IsaInfo::BaseProfileDefaultFloatRoundingModes),
            [0, 0, 1]
        );
        assert_eq!(read(IsaInfo::FastF16Operation), [1]);
        assert_eq!(read(IsaInfo::WorkgroupMaxDim), [0, 4, 0, 4, 0, 4]);
        assert_eq!(u32s(&read(IsaInfo::WorkgroupMaxSize)), [1024]);
        assert_eq!(u32s(&read(IsaInfo::GridMaxDim)), [u32::MAX; 3]);
        assert_eq!(read(IsaInfo::GridMaxSize), [0xFF; 8]);
        assert_eq!(u32s(&read(IsaInfo::FbarrierMaxSize)), [32]);
    }

    #[test]
    fn system_attributes_follow_rocr() {
        // A description without `[hsa]` answers Debian's ROCr 5.2.3.
        let sim = Sim::preset("cpu-only")
            .expect("preset exists")
            .expect("preset is valid");
        sim.hsa_init().expect("hsa_init");
        let read = |attribute| sim.system_get_info(attribute).expect("answered");
        assert_eq!(read(SystemInfo::VersionMajor), 1u16.to_ne_bytes());
        assert_eq!(read(SystemInfo::VersionMinor), 1u16.to_ne_bytes());
        assert_eq!(read(SystemInfo::ExtVersionMinor), 0u16.to_ne_bytes());
        assert_eq!(read(SystemInfo::VirtualMemApiSupported), [0]);
        assert_eq!(
            read(SystemInfo::TimestampFrequency),
            1_000_000_000u64.to_ne_bytes()
        );
        assert_eq!(read(SystemInfo::SignalMaxWait), [0xFF; 8]);
        assert_eq!(u32s(&read(SystemInfo::Endianness)), [0]);
        assert_eq!(u32s(&read(SystemInfo::MachineModel)), [1]);
        assert_eq!(read(SystemInfo::SvmSupported), [1]);
        assert_eq!(read(SystemInfo::DmabufSupported), [0]);
        // What IREE's AMDGPU driver requires (util/info.c): SVM and the
        // virtual-memory API, which the MI300X dump's ROCm 6.3 answers, as
        // it answers dmabuf export. MI300X runs xnack- (its ISA name), so
        // XNACK is off and system memory is not reachable by default.
        let sim = node();
        let read = |attribute| sim.system_get_info(attribute).expect("answered");
        assert_eq!(read(SystemInfo::SvmSupported), [1]);
        assert_eq!(read(SystemInfo::VirtualMemApiSupported), [1]);
        assert_eq!(read(SystemInfo::DmabufSupported), [1]);
        assert_eq!(read(SystemInfo::XnackEnabled), [0]);
        assert_eq!(read(SystemInfo::SvmAccessibleByDefault), [0]);
    }

    /// The MI250X description with `xnack-` turned `xnack+` on the first
    /// `gpus` GPUs (`usize::MAX`: all of them).
    fn mi250x_with_xnack_on(gpus: usize) -> Sim {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../fixtures/machines/mi250x-4.toml"
        );
        let text = std::fs::read_to_string(path).expect("fixture");
        let text = text.replacen(
            "isas = [{ name = \"amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-\"",
            "isas = [{ name = \"amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack+\"",
            gpus,
        );
        let machine = crate::Machine::parse(path, &text, crate::validate::Format::Toml)
            .expect("valid machine");
        let sim = Sim::new(machine);
        sim.hsa_init().expect("hsa_init");
        sim
    }

    #[test]
    fn svm_is_reachable_by_default_only_where_every_gpu_runs_xnack() {
        // (GPUs with xnack+, SVM_ACCESSIBLE_BY_DEFAULT)
        for (gpus, by_default) in [(0, 0), (1, 0), (usize::MAX, 1)] {
            let sim = mi250x_with_xnack_on(gpus);
            let read = |attribute| sim.system_get_info(attribute).expect("answered");
            assert_eq!(
                read(SystemInfo::SvmAccessibleByDefault),
                [by_default],
                "{gpus} GPUs xnack+"
            );
        }
    }

    #[test]
    fn recommended_granules_are_rocr_s() {
        use amdgpu_sys::hsa_values::Segment;
        let sim = node();
        let mut seen = [0usize; 3];
        for agent in sim.iterate_agents().expect("agents") {
            let is_gpu = sim
                .agent_get_info(agent, AgentInfo::Device)
                .expect("device")
                == 1u32.to_ne_bytes();
            for pool in sim.agent_iterate_memory_pools(agent).expect("pools") {
                let read = |a| sim.memory_pool_get_info(pool, a).expect("answered");
                let granule = u64::from_ne_bytes(
                    read(MemoryPoolInfo::RuntimeAllocRecGranule)
                        .try_into()
                        .expect("size_t"),
                );
                let allocatable = read(MemoryPoolInfo::RuntimeAllocAllowed) == [1];
                let segment = u32::from_ne_bytes(read(MemoryPoolInfo::Segment).try_into().unwrap());
                // rocminfo on ROCm 6: "Alloc Recommended Granule: 2048KB" for
                // a GPU's global pools, 4KB for the CPU's; a group-segment
                // pool does not allocate.
                let expected = match (allocatable, is_gpu) {
                    (false, _) => {
                        assert_eq!(segment, Segment::Group.raw());
                        seen[0] += 1;
                        0
                    }
                    (true, true) => {
                        seen[1] += 1;
                        2048 * 1024
                    }
                    (true, false) => {
                        seen[2] += 1;
                        4 * 1024
                    }
                };
                assert_eq!(granule, expected, "pool {pool:#x} of agent {agent:#x}");
            }
        }
        assert!(
            seen.iter().all(|&n| n > 0),
            "every kind of pool seen: {seen:?}"
        );
    }

    #[test]
    fn system_attributes_need_hsa_init() {
        let sim = Sim::preset("w7900").expect("preset").expect("valid");
        assert_eq!(
            sim.system_get_info(SystemInfo::TimestampFrequency),
            Err(HsaCode::NOT_INITIALIZED)
        );
    }

    #[test]
    fn link_info_bytes_follow_the_header_offsets() {
        let link = Link {
            from: 0,
            to: 1,
            link_type: 4,
            hops: 1,
            numa_distance: 20,
            min_latency: 1,
            max_latency: 2,
            min_bandwidth: 3,
            max_bandwidth: 4,
            atomic_32bit: true,
            atomic_64bit: false,
            coherent: true,
        };
        let b = link_info(&link);
        assert_eq!(&b[0..4], &1u32.to_ne_bytes());
        assert_eq!(&b[12..16], &4u32.to_ne_bytes());
        assert_eq!(&b[16..20], &[1, 0, 1, 0]);
        assert_eq!(&b[20..24], &4u32.to_ne_bytes());
        assert_eq!(&b[24..28], &20u32.to_ne_bytes());
    }
}

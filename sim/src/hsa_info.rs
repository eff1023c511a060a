//! The HSA info answers that no description spells out: ROCr's own
//! constants and what it derives, plus a description's `[agents.hsa]` table
//! resolved with ROCr's defaults. One model for both faces of the simulator
//! (the in-process backend and the C library), so a client such as
//! `rocminfo` sees exactly what the HAL sees.
//!
//! - [`SYSTEM`], the answers of `hsa_system_get_info`.
//! - [`AgentHsa`]: the per-agent attributes beyond the core ones
//!   (`hsa_agent_get_info`: feature, queues, caches, clock, shader layout,
//!   the kernel-dispatch limits).
//! - [`IsaInfo`]: `hsa_isa_get_info_alt` beyond the name and work-group
//!   limits, derived from the ISA name as ROCr derives it.
//!
//! ROCr's constants are those of `core/runtime/isa.cpp` (`Isa::GetInfo`),
//! `amd_gpu_agent.cpp` and `amd_cpu_agent.cpp` (`GetInfo`) in ROCR-Runtime,
//! identical in rocm-5.2.3 and ROCm 6; each one is also what every published
//! `rocminfo` of a real node prints (the presets cite theirs).

use amdgpu_sys::hsa_values::{
    AGENT_FEATURE_KERNEL_DISPATCH, ENDIANNESS_LITTLE, IOMMU_SUPPORT_NONE, IOMMU_SUPPORT_V2,
    MACHINE_MODEL_LARGE, MEMORY_PROPERTY_AGENT_IS_APU, QUEUE_TYPE_MULTI, flag_set64,
};

use crate::machine::{AgentHsaDesc, AgentKind, SystemHsaDesc};

/// Cache levels `HSA_AGENT_INFO_CACHE_SIZE` reports (`uint32_t[4]`, L1..L4).
pub const MAX_CACHE_LEVELS: usize = 4;

/// A validated ISA.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Isa {
    /// Full HSA name.
    pub name: String,
    /// Workgroup max size.
    pub workgroup_max_size: u32,
    /// Workgroup max dims.
    pub workgroup_max_dim: [u16; 3],
}

/// `hsa_system_get_info` answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SystemInfo {
    /// `HSA_SYSTEM_INFO_VERSION_MAJOR` (`uint16_t`).
    pub version_major: u16,
    /// `HSA_SYSTEM_INFO_VERSION_MINOR` (`uint16_t`).
    pub version_minor: u16,
    /// `HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY` (`uint64_t`, Hz).
    pub timestamp_frequency: u64,
    /// `HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT` (`uint64_t`, timestamp counts).
    pub signal_max_wait: u64,
    /// `HSA_SYSTEM_INFO_ENDIANNESS` (`hsa_endianness_t`).
    pub endianness: u32,
    /// `HSA_SYSTEM_INFO_MACHINE_MODEL` (`hsa_machine_model_t`).
    pub machine_model: u32,
    /// `HSA_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR` (`uint16_t`).
    pub ext_version_major: u16,
    /// `HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR` (`uint16_t`).
    pub ext_version_minor: u16,
    /// `HSA_AMD_SYSTEM_INFO_MWAITX_ENABLED`.
    pub mwaitx: bool,
    /// `HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED`.
    pub dmabuf: bool,
    /// `HSA_AMD_SYSTEM_INFO_XNACK_ENABLED`.
    pub xnack: bool,
    /// `HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED`.
    pub virtual_memory: bool,
    /// `HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED` (`bool`).
    pub svm_supported: bool,
}

/// What ROCr on Linux answers whatever the release: a 1 GHz system
/// timestamp (the KFD's nanosecond clock counter: every published rocminfo
/// prints `System Timestamp Freq.: 1000.000000MHz`), signal waits without
/// limit (`0xFFFFFFFFFFFFFFFF`), little-endian, large model; and, where a
/// description's `[hsa]` table says nothing, Debian's ROCr 5.2.3: HSA 1.1
/// (`HSA_VERSION_*`), extension 1.0 (its `HSA_AMD_INTERFACE_VERSION_*`),
/// none of the ROCm 6 features. SVM is answered supported, as by every
/// release on a KFD with SVM (HMM), and as IREE's AMDGPU driver requires
/// (`util/info.c`), ahead of the node's model: `hsa_amd_svm_*` fail with
/// `HSA_STATUS_ERROR`. Where a description answers the virtual-memory API
/// supported, `hsa_amd_vmem_*` are modelled ([`crate::vmem`]); where it
/// does not, they refuse as ROCr does (`INVALID_ARGUMENT`).
/// `SVM_ACCESSIBLE_BY_DEFAULT` follows the
/// machine's GPU ISAs ([`crate::Sim::system_get_info`]).
pub const SYSTEM: SystemInfo = SystemInfo {
    version_major: 1,
    version_minor: 1,
    timestamp_frequency: 1_000_000_000,
    signal_max_wait: u64::MAX,
    endianness: ENDIANNESS_LITTLE,
    machine_model: MACHINE_MODEL_LARGE,
    ext_version_major: 1,
    ext_version_minor: 0,
    mwaitx: false,
    dmabuf: false,
    xnack: false,
    virtual_memory: false,
    svm_supported: true,
};

impl SystemInfo {
    /// The answers for a description's `[hsa]` table ([`SYSTEM`] where it is silent).
    pub fn resolve(desc: &SystemHsaDesc) -> SystemInfo {
        let [version_major, version_minor] = desc
            .runtime_version
            .unwrap_or([SYSTEM.version_major, SYSTEM.version_minor]);
        let [ext_version_major, ext_version_minor] = desc
            .ext_version
            .unwrap_or([SYSTEM.ext_version_major, SYSTEM.ext_version_minor]);
        SystemInfo {
            version_major,
            version_minor,
            ext_version_major,
            ext_version_minor,
            mwaitx: desc.mwaitx.unwrap_or(SYSTEM.mwaitx),
            dmabuf: desc.dmabuf.unwrap_or(SYSTEM.dmabuf),
            xnack: desc.xnack.unwrap_or(SYSTEM.xnack),
            virtual_memory: desc.virtual_memory.unwrap_or(SYSTEM.virtual_memory),
            ..SYSTEM
        }
    }
}

/// `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE` of a GPU's
/// allocatable global pool when the description gives none: 2 MiB, what
/// ROCm 6 prints for every GPU memory pool of the cited dumps (MI300X,
/// MI250X, W7900, gfx1030: "Alloc Recommended Granule:2048KB"); a CPU's pools
/// print their 4 KiB granule.
pub const GPU_REC_GRANULE: u64 = 2 << 20;

/// ROCr's smallest AQL queue a GPU agent creates (`minAqlSize_`, 64 packets).
pub const GPU_QUEUE_MIN_SIZE: u32 = 0x40;
/// ROCr's largest AQL queue (`maxAqlSize_`, 131072 packets).
pub const GPU_QUEUE_MAX_SIZE: u32 = 0x2_0000;
/// Work-items per grid dimension a GPU agent or ISA reports (`UINT32_MAX`).
pub const GRID_MAX_DIM: [u32; 3] = [u32::MAX; 3];
/// `HSA_AGENT_INFO_GRID_MAX_SIZE` of a GPU agent (`uint32_t`, `UINT32_MAX`).
pub const AGENT_GRID_MAX_SIZE: u32 = u32::MAX;
/// `HSA_ISA_INFO_GRID_MAX_SIZE` (`uint64_t`, `UINT64_MAX`).
pub const ISA_GRID_MAX_SIZE: u64 = u64::MAX;
/// fbarriers per work-group of a GPU agent or ISA.
pub const FBARRIER_MAX_SIZE: u32 = 32;
/// `HSA_AMD_AGENT_INFO_CACHELINE_SIZE` when the description gives none:
/// ROCr's constant for a CPU and its fallback for a GPU.
pub const DEFAULT_CACHELINE_SIZE: u32 = 64;
/// Watch points of a GPU agent when the description gives none
/// (`1 << WatchPointsTotalBits` with the 2 bits every AMD GPU reports).
pub const DEFAULT_GPU_WATCH_POINTS: u32 = 4;
/// Watch points of a CPU agent (`1 << 0`).
pub const DEFAULT_CPU_WATCH_POINTS: u32 = 1;

/// The resolved per-agent attributes beyond the core ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentHsa {
    /// `HSA_AGENT_INFO_FEATURE` (`hsa_agent_feature_t` bits): kernel
    /// dispatch for a GPU, none for a CPU.
    pub feature: u32,
    /// `HSA_AGENT_INFO_QUEUE_MIN_SIZE`.
    pub queue_min_size: u32,
    /// `HSA_AGENT_INFO_QUEUE_MAX_SIZE`.
    pub queue_max_size: u32,
    /// `HSA_AGENT_INFO_QUEUE_TYPE` (`hsa_queue_type32_t`).
    pub queue_type: u32,
    /// `HSA_AGENT_INFO_CACHE_SIZE`: L1..L4 in bytes.
    pub cache_sizes: [u32; MAX_CACHE_LEVELS],
    /// `HSA_AMD_AGENT_INFO_CACHELINE_SIZE`.
    pub cacheline_size: u32,
    /// `HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY` (MHz).
    pub max_clock_mhz: u32,
    /// `HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS`.
    pub watch_points: u32,
    /// `HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU`.
    pub simds_per_cu: u32,
    /// `HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES`.
    pub shader_engines: u32,
    /// `HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE`.
    pub shader_arrays_per_engine: u32,
    /// `HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU`.
    pub max_waves_per_cu: u32,
    /// `HSA_AMD_AGENT_INFO_ASIC_REVISION`.
    pub asic_revision: u32,
    /// `HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS`.
    pub coherent_host_access: bool,
    /// `HSA_AMD_AGENT_INFO_UCODE_VERSION`.
    pub ucode_version: u32,
    /// `HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION`.
    pub sdma_ucode_version: u32,
    /// `HSA_AMD_AGENT_INFO_IOMMU_SUPPORT` (`hsa_amd_iommu_version_t`).
    pub iommu_support: u32,
    /// `HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES` (`uint8_t[8]`, set with
    /// `hsa_flag_set64` as ROCr sets it).
    pub memory_properties: [u8; 8],
    /// `HSA_AGENT_INFO_FAST_F16_OPERATION`: the first ISA's answer (a CPU: false).
    pub fast_f16: bool,
    /// `HSA_AGENT_INFO_WORKGROUP_MAX_SIZE`: the first ISA's (a CPU: 0).
    pub workgroup_max_size: u32,
    /// `HSA_AGENT_INFO_WORKGROUP_MAX_DIM`: the first ISA's (a CPU: 0s).
    pub workgroup_max_dim: [u16; 3],
    /// `HSA_AGENT_INFO_GRID_MAX_DIM` (`hsa_dim3_t`; a CPU: 0s).
    pub grid_max_dim: [u32; 3],
    /// `HSA_AGENT_INFO_GRID_MAX_SIZE` (a CPU: 0).
    pub grid_max_size: u32,
    /// `HSA_AGENT_INFO_FBARRIER_MAX_SIZE` (a CPU: 0).
    pub fbarrier_max_size: u32,
}

/// A field of `[agents.hsa]` that is wrong, and why.
pub type FieldError = (&'static str, String);

impl AgentHsa {
    /// Resolves an agent's `[agents.hsa]` table: ROCr's per-kind constants,
    /// the description's values or their defaults, the first ISA's limits
    /// (`agent_name` stands in for an ISA-less GPU's processor).
    pub fn resolve(
        kind: AgentKind,
        desc: &AgentHsaDesc,
        agent_name: &str,
        first_isa: Option<&Isa>,
    ) -> Result<AgentHsa, FieldError> {
        let mut cache_sizes = [0u32; MAX_CACHE_LEVELS];
        if let Some(sizes) = &desc.cache_sizes {
            if sizes.len() > MAX_CACHE_LEVELS {
                return Err((
                    "cache_sizes",
                    format!(
                        "{} levels; the limit is {MAX_CACHE_LEVELS} (L1..L4)",
                        sizes.len()
                    ),
                ));
            }
            for (slot, &size) in cache_sizes.iter_mut().zip(sizes) {
                *slot = size;
            }
        }
        let cacheline_size = desc.cacheline_size.unwrap_or(DEFAULT_CACHELINE_SIZE);
        if !cacheline_size.is_power_of_two() {
            return Err((
                "cacheline_size",
                format!("{cacheline_size} is not a power of two"),
            ));
        }
        let common = |watch_points, feature| AgentHsa {
            feature,
            queue_min_size: 0,
            queue_max_size: 0,
            queue_type: QUEUE_TYPE_MULTI,
            cache_sizes,
            cacheline_size,
            max_clock_mhz: desc.max_clock_mhz.unwrap_or(0),
            watch_points: desc.watch_points.unwrap_or(watch_points),
            simds_per_cu: 0,
            shader_engines: 0,
            shader_arrays_per_engine: 0,
            max_waves_per_cu: 0,
            asic_revision: 0,
            coherent_host_access: false,
            ucode_version: 0,
            sdma_ucode_version: 0,
            iommu_support: IOMMU_SUPPORT_NONE,
            memory_properties: [0; 8],
            fast_f16: false,
            workgroup_max_size: 0,
            workgroup_max_dim: [0; 3],
            grid_max_dim: [0; 3],
            grid_max_size: 0,
            fbarrier_max_size: 0,
        };
        match kind {
            AgentKind::Cpu => {
                // KFD reports none of the shader layout for a CPU node.
                let gpu_only = [
                    ("simds_per_cu", desc.simds_per_cu.is_some()),
                    ("shader_engines", desc.shader_engines.is_some()),
                    (
                        "shader_arrays_per_engine",
                        desc.shader_arrays_per_engine.is_some(),
                    ),
                    ("max_waves_per_cu", desc.max_waves_per_cu.is_some()),
                    ("asic_revision", desc.asic_revision.is_some()),
                    ("coherent_host_access", desc.coherent_host_access.is_some()),
                    ("ucode_version", desc.ucode_version.is_some()),
                    ("sdma_ucode_version", desc.sdma_ucode_version.is_some()),
                    ("iommu_v2", desc.iommu_v2.is_some()),
                    ("apu", desc.apu.is_some()),
                ];
                if let Some((field, _)) = gpu_only.iter().find(|(_, set)| *set) {
                    return Err((field, "only a GPU agent has this attribute".to_string()));
                }
                Ok(common(DEFAULT_CPU_WATCH_POINTS, 0))
            }
            AgentKind::Gpu => {
                let isa_name = first_isa.map_or(agent_name, |isa| isa.name.as_str());
                Ok(AgentHsa {
                    queue_min_size: GPU_QUEUE_MIN_SIZE,
                    queue_max_size: GPU_QUEUE_MAX_SIZE,
                    simds_per_cu: desc.simds_per_cu.unwrap_or(0),
                    shader_engines: desc.shader_engines.unwrap_or(0),
                    shader_arrays_per_engine: desc.shader_arrays_per_engine.unwrap_or(0),
                    max_waves_per_cu: desc.max_waves_per_cu.unwrap_or(0),
                    asic_revision: desc.asic_revision.unwrap_or(0),
                    coherent_host_access: desc.coherent_host_access.unwrap_or(false),
                    ucode_version: desc.ucode_version.unwrap_or(0),
                    sdma_ucode_version: desc.sdma_ucode_version.unwrap_or(0),
                    iommu_support: if desc.iommu_v2.unwrap_or(false) {
                        IOMMU_SUPPORT_V2
                    } else {
                        IOMMU_SUPPORT_NONE
                    },
                    memory_properties: if desc.apu.unwrap_or(false) {
                        flag_set64(MEMORY_PROPERTY_AGENT_IS_APU)
                    } else {
                        [0; 8]
                    },
                    fast_f16: IsaInfo::of(isa_name).fast_f16,
                    workgroup_max_size: first_isa.map_or(1024, |isa| isa.workgroup_max_size),
                    workgroup_max_dim: first_isa.map_or([1024; 3], |isa| isa.workgroup_max_dim),
                    grid_max_dim: GRID_MAX_DIM,
                    grid_max_size: AGENT_GRID_MAX_SIZE,
                    fbarrier_max_size: FBARRIER_MAX_SIZE,
                    ..common(DEFAULT_GPU_WATCH_POINTS, AGENT_FEATURE_KERNEL_DISPATCH)
                })
            }
        }
    }
}

/// `hsa_isa_get_info_alt` answers beyond the name and work-group limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IsaInfo {
    /// `HSA_ISA_INFO_MACHINE_MODELS` (`bool[2]`: small, large).
    pub machine_models: [bool; 2],
    /// `HSA_ISA_INFO_PROFILES` (`bool[2]`: base, full).
    pub profiles: [bool; 2],
    /// `HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES` (`bool[3]`: default, zero, near).
    pub default_float_rounding_modes: [bool; 3],
    /// `HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES` (`bool[3]`).
    pub base_profile_default_float_rounding_modes: [bool; 3],
    /// `HSA_ISA_INFO_FAST_F16_OPERATION`.
    pub fast_f16: bool,
    /// `HSA_ISA_INFO_GRID_MAX_DIM` (`hsa_dim3_t`).
    pub grid_max_dim: [u32; 3],
    /// `HSA_ISA_INFO_GRID_MAX_SIZE` (`uint64_t`).
    pub grid_max_size: u64,
    /// `HSA_ISA_INFO_FBARRIER_MAX_SIZE`.
    pub fbarrier_max_size: u32,
}

impl IsaInfo {
    /// ROCr's answers for the ISA `name` (`amdgcn-amd-amdhsa--gfx942:…`, or
    /// a bare processor): the large model only; the base profile, plus the
    /// full one on gfx700 and gfx801; round-to-nearest; fast f16 from GFX8 on.
    pub fn of(name: &str) -> IsaInfo {
        let processor = name
            .strip_prefix(crate::isa::ISA_PREFIX)
            .unwrap_or(name)
            .split(':')
            .next()
            .unwrap_or("");
        let full_profile = matches!(processor, "gfx700" | "gfx801");
        IsaInfo {
            machine_models: [false, true],
            profiles: [true, full_profile],
            default_float_rounding_modes: [false, false, true],
            base_profile_default_float_rounding_modes: [false, false, true],
            fast_f16: gfx_major(processor).is_some_and(|major| major >= 8),
            grid_max_dim: GRID_MAX_DIM,
            grid_max_size: ISA_GRID_MAX_SIZE,
            fbarrier_max_size: FBARRIER_MAX_SIZE,
        }
    }
}

/// The GFX major version of a processor name: `gfx942` → 9, `gfx90a` → 9,
/// `gfx1100` → 11 (the last two characters are the minor version and the
/// stepping), `gfx11-generic` / `gfx9-4-generic` → 11 / 9.
fn gfx_major(processor: &str) -> Option<u32> {
    let digits = processor.strip_prefix("gfx")?;
    let major = match digits.split_once('-') {
        Some((major, _)) => major,
        None => digits.get(..digits.len().checked_sub(2)?)?,
    };
    major.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gfx_majors_follow_the_processor_naming() {
        for (name, major) in [
            ("gfx942", Some(9)),
            ("gfx90a", Some(9)),
            ("gfx1100", Some(11)),
            ("gfx801", Some(8)),
            ("gfx700", Some(7)),
            ("gfx11-generic", Some(11)),
            ("gfx9-4-generic", Some(9)),
            ("gfx", None),
            ("gfx9", None),
            ("sm_90", None),
        ] {
            assert_eq!(gfx_major(name), major, "{name}");
        }
    }

    #[test]
    fn isa_answers_follow_rocr() {
        let mi300 = IsaInfo::of("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-");
        assert_eq!(mi300.machine_models, [false, true]);
        assert_eq!(mi300.profiles, [true, false]);
        assert_eq!(mi300.default_float_rounding_modes, [false, false, true]);
        assert!(mi300.fast_f16);
        assert_eq!(mi300.grid_max_size, u64::MAX);
        assert_eq!(
            IsaInfo::of("amdgcn-amd-amdhsa--gfx801").profiles,
            [true, true]
        );
        assert!(!IsaInfo::of("amdgcn-amd-amdhsa--gfx700").fast_f16);
    }

    #[test]
    fn cpu_agents_refuse_gpu_attributes() {
        let desc = AgentHsaDesc {
            simds_per_cu: Some(4),
            ..AgentHsaDesc::default()
        };
        let err = AgentHsa::resolve(AgentKind::Cpu, &desc, "cpu", None).unwrap_err();
        assert_eq!(err.0, "simds_per_cu");
        let cpu = AgentHsa::resolve(AgentKind::Cpu, &AgentHsaDesc::default(), "cpu", None)
            .expect("defaults resolve");
        assert_eq!(
            (cpu.feature, cpu.watch_points, cpu.cacheline_size),
            (0, 1, 64)
        );
        assert_eq!(cpu.queue_max_size, 0);
    }

    #[test]
    fn cache_levels_and_cachelines_are_checked() {
        let five = AgentHsaDesc {
            cache_sizes: Some(vec![1; 5]),
            ..AgentHsaDesc::default()
        };
        assert_eq!(
            AgentHsa::resolve(AgentKind::Gpu, &five, "gfx942", None)
                .unwrap_err()
                .0,
            "cache_sizes"
        );
        let odd = AgentHsaDesc {
            cacheline_size: Some(96),
            ..AgentHsaDesc::default()
        };
        assert_eq!(
            AgentHsa::resolve(AgentKind::Gpu, &odd, "gfx942", None)
                .unwrap_err()
                .0,
            "cacheline_size"
        );
    }
}

//! The machine description: the agents, ISAs, memory pools, links and HIP
//! device properties of a simulated ROCm node, as written in TOML (or JSON).
//!
//! Loading parses with `deny_unknown_fields` and then validates (see
//! [`crate::validate`]); every error names the file and the field.

use serde::{Deserialize, Serialize};

/// A machine description as written in a file.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MachineDesc {
    /// The machine's name (what `--machine` shows).
    pub name: String,
    /// One line on what this machine is and where its facts come from.
    #[serde(default)]
    pub description: String,
    /// HIP runtime facts (versions).
    #[serde(default)]
    pub hip: HipRuntimeDesc,
    /// The HSA runtime's system attributes (`hsa_system_get_info`) that
    /// depend on the ROCm release and the kernel; every field optional.
    #[serde(default, skip_serializing_if = "SystemHsaDesc::is_empty")]
    pub hsa: SystemHsaDesc,
    /// Agents in the order `hsa_iterate_agents` reports them.
    #[serde(default)]
    pub agents: Vec<AgentDesc>,
    /// Links between agents (each entry may stand for many pairs).
    #[serde(default)]
    pub links: Vec<LinkDesc>,
}

/// HIP runtime-wide facts.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HipRuntimeDesc {
    /// `hipDriverGetVersion`.
    #[serde(default = "default_hip_version")]
    pub driver_version: i32,
    /// `hipRuntimeGetVersion`.
    #[serde(default = "default_hip_version")]
    pub runtime_version: i32,
    /// `ncclGetVersion` of the node's RCCL (e.g. 22005 for 2.20.5); absent
    /// when the node has no RCCL, so loading it is "unavailable".
    #[serde(default)]
    pub rccl_version: Option<i32>,
}

/// ROCm 6.3.3's HIP version (`HIP_VERSION` = major * 10^7 + minor * 10^5 + patch).
pub const DEFAULT_HIP_VERSION: i32 = 60_342_134;

fn default_hip_version() -> i32 {
    DEFAULT_HIP_VERSION
}

impl Default for HipRuntimeDesc {
    fn default() -> Self {
        HipRuntimeDesc {
            driver_version: DEFAULT_HIP_VERSION,
            runtime_version: DEFAULT_HIP_VERSION,
            rccl_version: None,
        }
    }
}

/// The system attributes of `[hsa]`: what ROCr reports for the release the
/// machine claims. Unset fields take Debian's ROCr 5.2.3 answers (HSA 1.1,
/// extension 1.0, none of the features), so a description written before
/// ROCm 6 keeps its meaning.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SystemHsaDesc {
    /// `HSA_SYSTEM_INFO_VERSION_MAJOR` / `_MINOR`: rocminfo's "Runtime
    /// Version" (ROCr's own version since ROCm 6, e.g. `[1, 14]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_version: Option<[u16; 2]>,
    /// `HSA_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR` / `_MINOR`: rocminfo's
    /// "Runtime Ext Version" (`HSA_AMD_INTERFACE_VERSION` of the release).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ext_version: Option<[u16; 2]>,
    /// `HSA_AMD_SYSTEM_INFO_MWAITX_ENABLED` ("Mwaitx").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mwaitx: Option<bool>,
    /// `HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED` ("DMAbuf Support").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dmabuf: Option<bool>,
    /// `HSA_AMD_SYSTEM_INFO_XNACK_ENABLED` ("XNACK enabled").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xnack: Option<bool>,
    /// `HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED` ("VMM Support").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub virtual_memory: Option<bool>,
}

impl SystemHsaDesc {
    /// True when no field is set (the table is then left out of a written description).
    pub fn is_empty(&self) -> bool {
        *self == SystemHsaDesc::default()
    }
}

/// The kind of an agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentKind {
    /// A host CPU (one per NUMA node, as ROCm reports them).
    Cpu,
    /// A GPU (one per GCD/XCD partition ROCm exposes).
    Gpu,
}

/// `hsa_profile_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProfileDesc {
    /// `HSA_PROFILE_BASE` (GPUs).
    Base,
    /// `HSA_PROFILE_FULL` (CPUs).
    Full,
}

/// `hsa_default_float_rounding_mode_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundingDesc {
    /// `HSA_DEFAULT_FLOAT_ROUNDING_MODE_ZERO`.
    Zero,
    /// `HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR` (what ROCm reports).
    Near,
}

/// One agent.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AgentDesc {
    /// The name links and `nearest_cpu` refer to (not visible through HSA).
    pub id: String,
    /// CPU or GPU.
    pub kind: AgentKind,
    /// `HSA_AGENT_INFO_NAME`: `gfx942` for a GPU, the CPU model for a CPU.
    pub name: String,
    /// `HSA_AMD_AGENT_INFO_PRODUCT_NAME` (defaults to `name`).
    #[serde(default)]
    pub product: Option<String>,
    /// `HSA_AGENT_INFO_VENDOR_NAME` (defaults to `CPU` / `AMD`, as ROCm reports).
    #[serde(default)]
    pub vendor: Option<String>,
    /// `HSA_AMD_AGENT_INFO_UUID`: `GPU-<16 hex>`; `CPU-XX`/`GPU-XX` when unknown.
    pub uuid: String,
    /// `HSA_AGENT_INFO_NODE`: the KFD node id.
    pub node: u32,
    /// The host NUMA node (defaults: a CPU's own `node`; a GPU's nearest CPU's).
    #[serde(default)]
    pub numa_node: Option<u32>,
    /// For a GPU: the id of the CPU agent it hangs off (defaults to the first CPU).
    #[serde(default)]
    pub nearest_cpu: Option<String>,
    /// `HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT` (cores for a CPU).
    #[serde(default)]
    pub compute_units: u32,
    /// `HSA_AGENT_INFO_WAVEFRONT_SIZE` (0 for a CPU).
    #[serde(default)]
    pub wavefront_size: u32,
    /// `HSA_AGENT_INFO_QUEUES_MAX` (0 for a CPU).
    #[serde(default)]
    pub queues_max: u32,
    /// `HSA_AMD_AGENT_INFO_CHIP_ID`.
    #[serde(default)]
    pub chip_id: u32,
    /// `HSA_AMD_AGENT_INFO_BDFID`.
    #[serde(default)]
    pub bdf_id: u32,
    /// `HSA_AMD_AGENT_INFO_DOMAIN`.
    #[serde(default)]
    pub domain: u32,
    /// `HSA_AMD_AGENT_INFO_DRIVER_UID` (defaults to `node`).
    #[serde(default)]
    pub driver_uid: Option<u32>,
    /// `HSA_AGENT_INFO_PROFILE` (defaults: CPU full, GPU base).
    #[serde(default)]
    pub profile: Option<ProfileDesc>,
    /// `HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE` (defaults to near).
    #[serde(default)]
    pub rounding_mode: Option<RoundingDesc>,
    /// ISAs in priority order (GPUs; CPUs have none).
    #[serde(default)]
    pub isas: Vec<IsaDesc>,
    /// Memory pools in the order `hsa_amd_agent_iterate_memory_pools` reports them.
    #[serde(default)]
    pub pools: Vec<PoolDesc>,
    /// HIP device properties of a GPU (unset fields derive from the agent).
    #[serde(default)]
    pub hip: Option<HipPropsDesc>,
    /// The HSA agent attributes beyond those above that tools such as
    /// `rocminfo` read (caches, clock, shader layout); every field optional.
    #[serde(default, skip_serializing_if = "AgentHsaDesc::is_empty")]
    pub hsa: AgentHsaDesc,
}

/// The remaining HSA agent attributes of an agent (`[agents.hsa]`): what the
/// KFD topology reports through ROCr. Unset fields take ROCr's answer for an
/// agent that reports nothing (see [`crate::hsa_info`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AgentHsaDesc {
    /// `HSA_AGENT_INFO_CACHE_SIZE`: the data-cache sizes in bytes, L1 first
    /// (at most [`crate::validate::MAX_CACHE_LEVELS`]; missing levels are 0).
    /// For a CPU ROCr reports 1024 times the L1 data cache (the thunk hands
    /// it bytes where it expects KiB): 32 KiB shows as 33554432.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_sizes: Option<Vec<u32>>,
    /// `HSA_AMD_AGENT_INFO_CACHELINE_SIZE` (defaults to 64, ROCr's answer
    /// for a CPU and its fallback for a GPU).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cacheline_size: Option<u32>,
    /// `HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY` in MHz.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_clock_mhz: Option<u32>,
    /// `HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS` (defaults: 4 for a GPU,
    /// 1 for a CPU, as every published rocminfo shows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watch_points: Option<u32>,
    /// `HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU` (GPU).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simds_per_cu: Option<u32>,
    /// `HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES` (GPU).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shader_engines: Option<u32>,
    /// `HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE` (GPU).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shader_arrays_per_engine: Option<u32>,
    /// `HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU` (GPU).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_waves_per_cu: Option<u32>,
    /// `HSA_AMD_AGENT_INFO_ASIC_REVISION` (GPU).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asic_revision: Option<u32>,
    /// `HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS`: the GPU reaches host
    /// memory coherently without migration (rocminfo's "Coherent Host Access").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coherent_host_access: Option<bool>,
    /// `HSA_AMD_AGENT_INFO_UCODE_VERSION`: the packet processor firmware
    /// (rocminfo's "Packet Processor uCode"; GPU).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ucode_version: Option<u32>,
    /// `HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION` ("SDMA engine uCode"; GPU).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sdma_ucode_version: Option<u32>,
    /// `HSA_AMD_AGENT_INFO_IOMMU_SUPPORT` is `HSA_IOMMU_SUPPORT_V2` (GPU;
    /// default false: "None", what every cited dGPU prints).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iommu_v2: Option<bool>,
    /// The APU bit of `HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES`: the GPU
    /// shares the host's memory (rocminfo's "Memory Properties: APU"; GPU).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apu: Option<bool>,
}

impl AgentHsaDesc {
    /// True when no field is set (the table is then left out of a written description).
    pub fn is_empty(&self) -> bool {
        *self == AgentHsaDesc::default()
    }
}

/// One ISA of an agent.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct IsaDesc {
    /// The full HSA ISA name, e.g. `amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-`.
    pub name: String,
    /// `HSA_ISA_INFO_WORKGROUP_MAX_SIZE`.
    #[serde(default = "default_workgroup_max_size")]
    pub workgroup_max_size: u32,
    /// `HSA_ISA_INFO_WORKGROUP_MAX_DIM`.
    #[serde(default = "default_workgroup_max_dim")]
    pub workgroup_max_dim: [u16; 3],
}

fn default_workgroup_max_size() -> u32 {
    1024
}

fn default_workgroup_max_dim() -> [u16; 3] {
    [1024, 1024, 1024]
}

/// `hsa_amd_segment_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SegmentDesc {
    /// Global memory (allocatable).
    Global,
    /// Read-only memory.
    Readonly,
    /// Private (scratch) memory.
    Private,
    /// Group (LDS) memory: its size is the LDS per workgroup.
    Group,
}

/// A global-segment pool flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PoolFlag {
    /// `HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT`.
    KernargInit,
    /// `HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED`.
    FineGrained,
    /// `HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED`.
    CoarseGrained,
    /// `HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED`.
    ExtendedScopeFineGrained,
}

impl PoolFlag {
    /// The flag's bit in `hsa_amd_memory_pool_global_flag_t`.
    pub const fn bit(self) -> u32 {
        match self {
            PoolFlag::KernargInit => 1,
            PoolFlag::FineGrained => 2,
            PoolFlag::CoarseGrained => 4,
            PoolFlag::ExtendedScopeFineGrained => 8,
        }
    }
}

/// One memory pool.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PoolDesc {
    /// The segment.
    pub segment: SegmentDesc,
    /// Global flags (global segment only).
    #[serde(default)]
    pub flags: Vec<PoolFlag>,
    /// `HSA_AMD_MEMORY_POOL_INFO_SIZE` (bytes; must not be 0).
    pub size: u64,
    /// `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED` (defaults: true for global).
    #[serde(default)]
    pub alloc_allowed: Option<bool>,
    /// `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE` (defaults: 4 KiB when allocatable, else 0).
    #[serde(default)]
    pub granule: Option<u64>,
    /// `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT` (defaults like `granule`).
    #[serde(default)]
    pub alignment: Option<u64>,
    /// `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE` (defaults: 2 MiB
    /// for a GPU's allocatable global pool, else `granule`; see
    /// [`crate::hsa_info::GPU_REC_GRANULE`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rec_granule: Option<u64>,
    /// `HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL`.
    #[serde(default)]
    pub accessible_by_all: bool,
    /// `HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE` (defaults to `size` when allocatable).
    #[serde(default)]
    pub alloc_max_size: Option<u64>,
}

/// `hsa_amd_link_info_type_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkTypeDesc {
    /// HyperTransport (what ROCm reports between CPU sockets).
    Hypertransport,
    /// QPI.
    Qpi,
    /// PCI Express.
    Pcie,
    /// InfiniBand.
    Infiniband,
    /// xGMI (AMD Infinity Fabric between GPUs).
    Xgmi,
}

impl LinkTypeDesc {
    /// The `hsa_amd_link_info_type_t` value.
    pub const fn raw(self) -> u32 {
        match self {
            LinkTypeDesc::Hypertransport => 0,
            LinkTypeDesc::Qpi => 1,
            LinkTypeDesc::Pcie => 2,
            LinkTypeDesc::Infiniband => 3,
            LinkTypeDesc::Xgmi => 4,
        }
    }
}

/// One agent id or a list of them.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum AgentIds {
    /// A single agent id.
    One(String),
    /// Several agent ids.
    Many(Vec<String>),
}

impl AgentIds {
    /// The ids as a slice-like list.
    pub fn ids(&self) -> Vec<&str> {
        match self {
            AgentIds::One(id) => vec![id.as_str()],
            AgentIds::Many(ids) => ids.iter().map(String::as_str).collect(),
        }
    }
}

/// Links from every agent of `from` to every other agent of `to` (and back,
/// unless `bidirectional = false`): the path an agent takes to the other
/// agent's memory pools (`HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO`).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LinkDesc {
    /// Source agent id(s).
    pub from: AgentIds,
    /// Destination agent id(s); pairs of an agent with itself are skipped.
    pub to: AgentIds,
    /// The link type.
    #[serde(rename = "type")]
    pub link_type: LinkTypeDesc,
    /// `HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS` (1 to [`crate::validate::MAX_LINK_HOPS`]).
    #[serde(default = "default_hops")]
    pub hops: u32,
    /// The NUMA distance (ACPI SLIT style).
    #[serde(default)]
    pub numa_distance: u32,
    /// Minimum latency (ns).
    #[serde(default)]
    pub min_latency: u32,
    /// Maximum latency (ns).
    #[serde(default)]
    pub max_latency: u32,
    /// Minimum bandwidth (MB/s).
    #[serde(default)]
    pub min_bandwidth: u32,
    /// Maximum bandwidth (MB/s).
    #[serde(default)]
    pub max_bandwidth: u32,
    /// 32-bit atomics supported across the link.
    #[serde(default)]
    pub atomic_32bit: bool,
    /// 64-bit atomics supported across the link.
    #[serde(default)]
    pub atomic_64bit: bool,
    /// Coherence supported across the link.
    #[serde(default)]
    pub coherent: bool,
    /// Also add the reverse direction (default true).
    #[serde(default = "default_true")]
    pub bidirectional: bool,
}

fn default_hops() -> u32 {
    1
}

fn default_true() -> bool {
    true
}

/// HIP device properties of a GPU agent; every unset field derives from the
/// agent (name, ISA, pools, compute units, wavefront size).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HipPropsDesc {
    /// `name` (defaults to the product name).
    pub name: Option<String>,
    /// `gcnArchName` (defaults to the first ISA without its `amdgcn-amd-amdhsa--` prefix).
    pub gcn_arch_name: Option<String>,
    /// `totalGlobalMem` (defaults to the first coarse-grained global pool's size).
    pub total_global_mem: Option<u64>,
    /// `sharedMemPerBlock` (defaults to the group pool's size).
    pub shared_mem_per_block: Option<u64>,
    /// `regsPerBlock` (defaults to 65536).
    pub regs_per_block: Option<i32>,
    /// `maxGridSize` (defaults to `[2147483647, 65536, 65536]`).
    pub max_grid_size: Option<[i32; 3]>,
    /// `clockRate` (kHz).
    pub clock_rate: Option<i32>,
    /// `memoryClockRate` (kHz).
    pub memory_clock_rate: Option<i32>,
    /// `memoryBusWidth` (bits).
    pub memory_bus_width: Option<i32>,
    /// `totalConstMem` (defaults to 2147483647, as ROCm reports).
    pub total_const_mem: Option<u64>,
    /// `major` (defaults from the gfx name: gfx942 → 9).
    pub major: Option<i32>,
    /// `minor` (defaults from the gfx name: gfx942 → 4).
    pub minor: Option<i32>,
    /// `l2CacheSize` (bytes).
    pub l2_cache_size: Option<i32>,
    /// `maxThreadsPerMultiProcessor` (defaults to 2048).
    pub max_threads_per_multi_processor: Option<i32>,
    /// `isMultiGpuBoard`.
    pub is_multi_gpu_board: Option<i32>,
    /// `integrated`.
    pub integrated: Option<i32>,
    /// `managedMemory` (defaults to 1).
    pub managed_memory: Option<i32>,
    /// `ECCEnabled`.
    pub ecc_enabled: Option<i32>,
    /// `hipDeviceGetUuid`'s 16 bytes as 32 hex digits, dashes allowed in the
    /// 8-4-4-4-12 form (e.g. CUDA's `4260bfb0-645d-3cec-f3d7-764bea0daa6c`);
    /// defaults to ROCm's convention, the ASCII of the agent UUID's 16 hex digits.
    pub uuid: Option<String>,
}

/// ROCm's `hipDeviceGetUuid` bytes for an agent UUID: the ASCII of the digits
/// after `GPU-`, zero-padded (or cut) to 16 bytes.
pub fn amd_hip_uuid(agent_uuid: &str) -> [u8; 16] {
    let digits = agent_uuid.strip_prefix("GPU-").unwrap_or(agent_uuid);
    let mut out = [0u8; 16];
    for (dst, src) in out.iter_mut().zip(digits.as_bytes()) {
        *dst = *src;
    }
    out
}

/// Parses a HIP UUID: 32 hex digits, either plain or dashed as 8-4-4-4-12.
pub fn parse_hip_uuid(text: &str) -> Option<[u8; 16]> {
    let digits: String = if text.len() == 36 {
        let groups: Vec<&str> = text.split('-').collect();
        let lengths: Vec<usize> = groups.iter().map(|g| g.len()).collect();
        if lengths != [8, 4, 4, 4, 12] {
            return None;
        }
        groups.concat()
    } else {
        text.to_string()
    };
    if digits.len() != 32 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0u8; 16];
    for (i, byte) in out.iter_mut().enumerate() {
        let pair = digits.get(2 * i..2 * i + 2)?;
        *byte = u8::from_str_radix(pair, 16).ok()?;
    }
    Some(out)
}

/// The dashed lowercase 8-4-4-4-12 form of a HIP UUID (what [`parse_hip_uuid`] reads).
pub fn format_hip_uuid(bytes: &[u8; 16]) -> String {
    let mut out = String::with_capacity(36);
    for (i, b) in bytes.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push_str(&format!("{b:02x}"));
    }
    out
}

//! The values HSA info attributes answer (`hsa.h`, `hsa_ext_amd.h`): device
//! types, profiles, rounding modes, segments, pool flags and access, link
//! types, symbol kinds, and the system and agent constants ROCr reports.
//!
//! Each enum keeps the C enumerator value as its `raw()`; `from_raw` is
//! the one conversion from a C value.

/// `hsa_device_type_t` (`HSA_AGENT_INFO_DEVICE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceType {
    /// `HSA_DEVICE_TYPE_CPU` (0).
    Cpu,
    /// `HSA_DEVICE_TYPE_GPU` (1).
    Gpu,
    /// `HSA_DEVICE_TYPE_DSP` (2).
    Dsp,
    /// A type newer than these headers (ROCm 6.3 adds AIE = 3).
    Other(u32),
}

impl DeviceType {
    /// The C value.
    pub const fn raw(self) -> u32 {
        match self {
            DeviceType::Cpu => 0,
            DeviceType::Gpu => 1,
            DeviceType::Dsp => 2,
            DeviceType::Other(raw) => raw,
        }
    }

    /// The type for a C value.
    pub const fn from_raw(raw: u32) -> DeviceType {
        match raw {
            0 => DeviceType::Cpu,
            1 => DeviceType::Gpu,
            2 => DeviceType::Dsp,
            other => DeviceType::Other(other),
        }
    }

    /// `"cpu"`, `"gpu"`, `"dsp"` or `"other"` (the CLI's `kind`).
    pub const fn as_str(self) -> &'static str {
        match self {
            DeviceType::Cpu => "cpu",
            DeviceType::Gpu => "gpu",
            DeviceType::Dsp => "dsp",
            DeviceType::Other(_) => "other",
        }
    }
}

/// `hsa_profile_t` (`HSA_AGENT_INFO_PROFILE`, `hsa_executable_create_alt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    /// `HSA_PROFILE_BASE` (0).
    Base,
    /// `HSA_PROFILE_FULL` (1).
    Full,
}

impl Profile {
    /// The C value.
    pub const fn raw(self) -> u32 {
        match self {
            Profile::Base => 0,
            Profile::Full => 1,
        }
    }

    /// The profile for a C value.
    pub const fn from_raw(raw: u32) -> Option<Profile> {
        match raw {
            0 => Some(Profile::Base),
            1 => Some(Profile::Full),
            _ => None,
        }
    }
}

/// `hsa_default_float_rounding_mode_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundingMode {
    /// `HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT` (0).
    Default,
    /// `HSA_DEFAULT_FLOAT_ROUNDING_MODE_ZERO` (1).
    Zero,
    /// `HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR` (2).
    Near,
}

impl RoundingMode {
    /// The C value.
    pub const fn raw(self) -> u32 {
        match self {
            RoundingMode::Default => 0,
            RoundingMode::Zero => 1,
            RoundingMode::Near => 2,
        }
    }

    /// The mode for a C value.
    pub const fn from_raw(raw: u32) -> Option<RoundingMode> {
        match raw {
            0 => Some(RoundingMode::Default),
            1 => Some(RoundingMode::Zero),
            2 => Some(RoundingMode::Near),
            _ => None,
        }
    }
}

/// `hsa_amd_segment_t` (`HSA_AMD_MEMORY_POOL_INFO_SEGMENT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// `HSA_AMD_SEGMENT_GLOBAL` (0).
    Global,
    /// `HSA_AMD_SEGMENT_READONLY` (1).
    Readonly,
    /// `HSA_AMD_SEGMENT_PRIVATE` (2).
    Private,
    /// `HSA_AMD_SEGMENT_GROUP` (3).
    Group,
}

impl Segment {
    /// The C value.
    pub const fn raw(self) -> u32 {
        match self {
            Segment::Global => 0,
            Segment::Readonly => 1,
            Segment::Private => 2,
            Segment::Group => 3,
        }
    }

    /// The segment for a C value.
    pub const fn from_raw(raw: u32) -> Option<Segment> {
        match raw {
            0 => Some(Segment::Global),
            1 => Some(Segment::Readonly),
            2 => Some(Segment::Private),
            3 => Some(Segment::Group),
            _ => None,
        }
    }
}

/// `HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT`: kernel arguments may live here.
pub const GLOBAL_FLAG_KERNARG_INIT: u32 = 1;
/// `HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED`: coherent with other agents while in use.
pub const GLOBAL_FLAG_FINE_GRAINED: u32 = 2;
/// `HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED`: coherent only at dispatch boundaries.
pub const GLOBAL_FLAG_COARSE_GRAINED: u32 = 4;
/// `HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED` (ROCm 6):
/// fine-grained with device-scope atomics.
pub const GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED: u32 = 8;

/// `HSA_REGION_SEGMENT_GLOBAL` (`hsa_region_segment_t`; the pools'
/// `hsa_amd_segment_t` values 0–3 are the regions' own).
pub const REGION_SEGMENT_GLOBAL: u32 = 0;
/// `HSA_REGION_SEGMENT_GROUP`.
pub const REGION_SEGMENT_GROUP: u32 = 3;
/// `HSA_REGION_GLOBAL_FLAG_KERNARG` (the pools' `KERNARG_INIT` bit).
pub const REGION_GLOBAL_FLAG_KERNARG: u32 = 1;
/// `HSA_REGION_GLOBAL_FLAG_FINE_GRAINED`.
pub const REGION_GLOBAL_FLAG_FINE_GRAINED: u32 = 2;
/// `HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED`.
pub const REGION_GLOBAL_FLAG_COARSE_GRAINED: u32 = 4;
/// `HSA_REGION_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED` (ROCm 6).
pub const REGION_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED: u32 = 8;

/// `HSA_AMD_MEMORY_POOL_STANDARD_FLAG`: the allocation flags word IREE passes
/// to `hsa_amd_memory_pool_allocate`.
pub const MEMORY_POOL_STANDARD_FLAG: u32 = 0;

/// `HSA_ENDIANNESS_LITTLE`.
pub const ENDIANNESS_LITTLE: u32 = 0;
/// `HSA_MACHINE_MODEL_LARGE` (ROCr is built with `HSA_LARGE_MODEL` on x86-64).
pub const MACHINE_MODEL_LARGE: u32 = 1;
/// `HSA_QUEUE_TYPE_MULTI`: the queue type ROCr reports for every agent.
pub const QUEUE_TYPE_MULTI: u32 = 0;
/// `HSA_QUEUE_TYPE_SINGLE`.
pub const QUEUE_TYPE_SINGLE: u32 = 1;
/// `HSA_QUEUE_TYPE_COOPERATIVE`.
pub const QUEUE_TYPE_COOPERATIVE: u32 = 2;
/// `HSA_QUEUE_FEATURE_KERNEL_DISPATCH` (`hsa_queue_feature_t`).
pub const QUEUE_FEATURE_KERNEL_DISPATCH: u32 = 1;
/// `AMD_QUEUE_PROPERTIES_IS_PTR64` (`amd_hsa_queue.h`: bit 1).
pub const AMD_QUEUE_PROPERTIES_IS_PTR64: u32 = 2;
/// `AMD_QUEUE_PROPERTIES_ENABLE_PROFILING` (`amd_hsa_queue.h`: bit 3): the
/// packet processor writes each dispatch's start and end GPU timestamps
/// into its completion signal (`hsa_amd_profiling_set_profiler_enabled`).
pub const AMD_QUEUE_PROPERTIES_ENABLE_PROFILING: u32 = 8;
/// `HSA_AMD_QUEUE_INFO_AGENT` (`hsa_queue_info_attribute_t`): `hsa_agent_t`.
pub const AMD_QUEUE_INFO_AGENT: u32 = 0;
/// `HSA_AMD_QUEUE_INFO_DOORBELL_ID`: `uint64_t`, the doorbell's address.
pub const AMD_QUEUE_INFO_DOORBELL_ID: u32 = 1;
/// `HSA_PACKET_TYPE_VENDOR_SPECIFIC` (`hsa_packet_type_t`).
pub const PACKET_TYPE_VENDOR_SPECIFIC: u16 = 0;
/// `HSA_PACKET_TYPE_INVALID`: a slot the packet processor must not take.
pub const PACKET_TYPE_INVALID: u16 = 1;
/// `HSA_PACKET_TYPE_KERNEL_DISPATCH`.
pub const PACKET_TYPE_KERNEL_DISPATCH: u16 = 2;
/// `HSA_PACKET_TYPE_BARRIER_AND`.
pub const PACKET_TYPE_BARRIER_AND: u16 = 3;
/// `HSA_PACKET_TYPE_AGENT_DISPATCH`.
pub const PACKET_TYPE_AGENT_DISPATCH: u16 = 4;
/// `HSA_PACKET_TYPE_BARRIER_OR`.
pub const PACKET_TYPE_BARRIER_OR: u16 = 5;
/// `HSA_PACKET_HEADER_TYPE` (`hsa_packet_header_t`): the type's bit offset.
pub const PACKET_HEADER_TYPE: u16 = 0;
/// `HSA_PACKET_HEADER_WIDTH_TYPE`.
pub const PACKET_HEADER_WIDTH_TYPE: u16 = 8;
/// `HSA_PACKET_HEADER_BARRIER`: the barrier bit's offset.
pub const PACKET_HEADER_BARRIER: u16 = 8;
/// `HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE`.
pub const PACKET_HEADER_SCACQUIRE_FENCE_SCOPE: u16 = 9;
/// `HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE`.
pub const PACKET_HEADER_SCRELEASE_FENCE_SCOPE: u16 = 11;
/// `HSA_AMD_PACKET_TYPE_BARRIER_VALUE` (`hsa_amd_packet_type_t`,
/// `hsa_ext_amd.h`): the `AmdFormat` of a vendor-specific packet that is an
/// `hsa_amd_barrier_value_packet_t`.
pub const AMD_PACKET_TYPE_BARRIER_VALUE: u8 = 2;
/// The `AmdFormat` of ROCr's PM4 indirect-buffer packet
/// ([`amd_aql_pm4_ib_packet_t`](crate::hsa_types::amd_aql_pm4_ib_packet_t)):
/// `AMD_AQL_FORMAT_PM4_IB` in ROCr's `amd_aql_queue.cpp`
/// (`AqlQueue::ExecutePM4`) and `IREE_HSA_AMD_AQL_FORMAT_PM4_IB` in IREE's
/// `abi/queue.h`; no public HSA header names it.
pub const AMD_AQL_FORMAT_PM4_IB: u8 = 1;
/// What follows the PM4 `INDIRECT_BUFFER` command in an
/// [`amd_aql_pm4_ib_packet_t`](crate::hsa_types::amd_aql_pm4_ib_packet_t):
/// the `dw_cnt_remain` ROCr and IREE write, the dwords left in the 64-byte
/// slot that the command processor skips.
pub const AMD_AQL_PM4_IB_DW_CNT_REMAIN: u32 = 0xA;
/// `HSA_AGENT_FEATURE_KERNEL_DISPATCH`.
pub const AGENT_FEATURE_KERNEL_DISPATCH: u32 = 1;
/// `HSA_IOMMU_SUPPORT_NONE` (`hsa_amd_iommu_version_t`, ROCm 6).
pub const IOMMU_SUPPORT_NONE: u32 = 0;
/// `HSA_IOMMU_SUPPORT_V2`.
pub const IOMMU_SUPPORT_V2: u32 = 1;
/// `HSA_AMD_MEMORY_PROPERTY_AGENT_IS_APU` (ROCm 6.1): the agent shares one
/// memory with the host. The enumerator is a bit *position* in
/// `HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES`' `uint8_t[8]`, as
/// `hsa_flag_set64` / `hsa_flag_isset64` of `hsa_ext_amd.h` use it (byte
/// `bit / 8`, bit `bit % 8`): an APU answers `02 00 00 00 00 00 00 00`.
pub const MEMORY_PROPERTY_AGENT_IS_APU: u32 = 1;

/// `hsa_flag_set64`: the `uint8_t[8]` flag set with bit position `bit`
/// (none beyond 63).
pub const fn flag_set64(bit: u32) -> [u8; 8] {
    let mut out = [0u8; 8];
    if bit < 64 {
        out[(bit / 8) as usize] = 1 << (bit % 8);
    }
    out
}

/// `AMD_SIGNAL_KIND_INVALID` (`amd_signal_kind_t`, `amd_hsa_signal.h`).
pub const AMD_SIGNAL_KIND_INVALID: i64 = 0;
/// `AMD_SIGNAL_KIND_USER`: a signal a client created.
pub const AMD_SIGNAL_KIND_USER: i64 = 1;
/// `AMD_SIGNAL_KIND_DOORBELL`: a queue's doorbell.
pub const AMD_SIGNAL_KIND_DOORBELL: i64 = -1;
/// `AMD_SIGNAL_KIND_LEGACY_DOORBELL`.
pub const AMD_SIGNAL_KIND_LEGACY_DOORBELL: i64 = -2;

/// `hsa_signal_condition_t` (`hsa.h`): what a signal wait waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignalCondition {
    /// `HSA_SIGNAL_CONDITION_EQ` (0).
    Eq,
    /// `HSA_SIGNAL_CONDITION_NE` (1).
    Ne,
    /// `HSA_SIGNAL_CONDITION_LT` (2).
    Lt,
    /// `HSA_SIGNAL_CONDITION_GTE` (3).
    Gte,
}

impl SignalCondition {
    /// Every condition, in the header's order.
    pub const ALL: [SignalCondition; 4] = [
        SignalCondition::Eq,
        SignalCondition::Ne,
        SignalCondition::Lt,
        SignalCondition::Gte,
    ];

    /// The C value.
    pub const fn raw(self) -> u32 {
        match self {
            SignalCondition::Eq => 0,
            SignalCondition::Ne => 1,
            SignalCondition::Lt => 2,
            SignalCondition::Gte => 3,
        }
    }

    /// The condition with this C value.
    pub const fn from_raw(raw: u32) -> Option<SignalCondition> {
        match raw {
            0 => Some(SignalCondition::Eq),
            1 => Some(SignalCondition::Ne),
            2 => Some(SignalCondition::Lt),
            3 => Some(SignalCondition::Gte),
            _ => None,
        }
    }

    /// The C enumerator.
    pub const fn name(self) -> &'static str {
        match self {
            SignalCondition::Eq => "HSA_SIGNAL_CONDITION_EQ",
            SignalCondition::Ne => "HSA_SIGNAL_CONDITION_NE",
            SignalCondition::Lt => "HSA_SIGNAL_CONDITION_LT",
            SignalCondition::Gte => "HSA_SIGNAL_CONDITION_GTE",
        }
    }

    /// Whether `value` satisfies the condition against `compare`.
    pub const fn holds(self, value: i64, compare: i64) -> bool {
        match self {
            SignalCondition::Eq => value == compare,
            SignalCondition::Ne => value != compare,
            SignalCondition::Lt => value < compare,
            SignalCondition::Gte => value >= compare,
        }
    }
}

/// `HSA_WAIT_STATE_BLOCKED` (`hsa_wait_state_t`).
pub const WAIT_STATE_BLOCKED: u32 = 0;
/// `HSA_WAIT_STATE_ACTIVE`.
pub const WAIT_STATE_ACTIVE: u32 = 1;

/// `HSA_AMD_SIGNAL_AMD_GPU_ONLY` (`hsa_amd_signal_attribute_t`).
pub const AMD_SIGNAL_AMD_GPU_ONLY: u64 = 1;
/// `HSA_AMD_SIGNAL_IPC`.
pub const AMD_SIGNAL_IPC: u64 = 2;

/// `HSA_ACCESS_PERMISSION_NONE` (`hsa_access_permission_t`, ROCm 6).
pub const ACCESS_PERMISSION_NONE: u32 = 0;
/// `HSA_ACCESS_PERMISSION_RO`.
pub const ACCESS_PERMISSION_RO: u32 = 1;
/// `HSA_ACCESS_PERMISSION_WO`.
pub const ACCESS_PERMISSION_WO: u32 = 2;
/// `HSA_ACCESS_PERMISSION_RW`.
pub const ACCESS_PERMISSION_RW: u32 = 3;

/// `HSA_EXT_POINTER_TYPE_UNKNOWN` (`hsa_amd_pointer_type_t`): memory the
/// runtime does not know.
pub const POINTER_TYPE_UNKNOWN: u32 = 0;
/// `HSA_EXT_POINTER_TYPE_HSA`: an HSA allocation.
pub const POINTER_TYPE_HSA: u32 = 1;
/// `HSA_EXT_POINTER_TYPE_LOCKED`: host memory locked for agents.
pub const POINTER_TYPE_LOCKED: u32 = 2;
/// `HSA_EXT_POINTER_TYPE_GRAPHICS`.
pub const POINTER_TYPE_GRAPHICS: u32 = 3;
/// `HSA_EXT_POINTER_TYPE_IPC`.
pub const POINTER_TYPE_IPC: u32 = 4;
/// `HSA_EXT_POINTER_TYPE_RESERVED_ADDR` (ROCm 6): a virtual-memory
/// reservation.
pub const POINTER_TYPE_RESERVED_ADDR: u32 = 5;
/// `HSA_EXT_POINTER_TYPE_HSA_VMEM` (ROCm 6).
pub const POINTER_TYPE_HSA_VMEM: u32 = 6;

/// `MEMORY_TYPE_NONE` (`hsa_amd_memory_type_t`, ROCm 6): a virtual-memory
/// handle's default memory.
pub const VMEM_MEMORY_TYPE_NONE: u32 = 0;
/// `MEMORY_TYPE_PINNED`.
pub const VMEM_MEMORY_TYPE_PINNED: u32 = 1;
/// `HSA_AMD_VMEM_ADDRESS_NO_REGISTER` (`hsa_amd_vmem_address_reserve_flag_t`, ROCm 6).
pub const VMEM_ADDRESS_NO_REGISTER: u64 = 1;

/// `hsa_amd_memory_pool_access_t` (`HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PoolAccess {
    /// `HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED` (0).
    NeverAllowed,
    /// `HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT` (1).
    AllowedByDefault,
    /// `HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT` (2): allowed after `hsa_amd_agents_allow_access`.
    DisallowedByDefault,
}

impl PoolAccess {
    /// The C value.
    pub const fn raw(self) -> u32 {
        match self {
            PoolAccess::NeverAllowed => 0,
            PoolAccess::AllowedByDefault => 1,
            PoolAccess::DisallowedByDefault => 2,
        }
    }

    /// The access for a C value.
    pub const fn from_raw(raw: u32) -> Option<PoolAccess> {
        match raw {
            0 => Some(PoolAccess::NeverAllowed),
            1 => Some(PoolAccess::AllowedByDefault),
            2 => Some(PoolAccess::DisallowedByDefault),
            _ => None,
        }
    }
}

/// `hsa_amd_link_info_type_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinkType {
    /// `HSA_AMD_LINK_INFO_TYPE_HYPERTRANSPORT` (0).
    HyperTransport,
    /// `HSA_AMD_LINK_INFO_TYPE_QPI` (1).
    Qpi,
    /// `HSA_AMD_LINK_INFO_TYPE_PCIE` (2).
    Pcie,
    /// `HSA_AMD_LINK_INFO_TYPE_INFINBAND` (3).
    Infiniband,
    /// `HSA_AMD_LINK_INFO_TYPE_XGMI` (4): AMD Infinity Fabric between GPUs.
    Xgmi,
    /// A type newer than these headers.
    Other(u32),
}

impl LinkType {
    /// The C value.
    pub const fn raw(self) -> u32 {
        match self {
            LinkType::HyperTransport => 0,
            LinkType::Qpi => 1,
            LinkType::Pcie => 2,
            LinkType::Infiniband => 3,
            LinkType::Xgmi => 4,
            LinkType::Other(raw) => raw,
        }
    }

    /// The link type for a C value.
    pub const fn from_raw(raw: u32) -> LinkType {
        match raw {
            0 => LinkType::HyperTransport,
            1 => LinkType::Qpi,
            2 => LinkType::Pcie,
            3 => LinkType::Infiniband,
            4 => LinkType::Xgmi,
            other => LinkType::Other(other),
        }
    }
}

/// `hsa_symbol_kind_t` (`HSA_EXECUTABLE_SYMBOL_INFO_TYPE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// `HSA_SYMBOL_KIND_VARIABLE` (0): a device global.
    Variable,
    /// `HSA_SYMBOL_KIND_KERNEL` (1): a kernel (its `.kd` descriptor).
    Kernel,
    /// `HSA_SYMBOL_KIND_INDIRECT_FUNCTION` (2).
    IndirectFunction,
}

impl SymbolKind {
    /// The C value.
    pub const fn raw(self) -> u32 {
        match self {
            SymbolKind::Variable => 0,
            SymbolKind::Kernel => 1,
            SymbolKind::IndirectFunction => 2,
        }
    }

    /// The kind for a C value.
    pub const fn from_raw(raw: u32) -> Option<SymbolKind> {
        match raw {
            0 => Some(SymbolKind::Variable),
            1 => Some(SymbolKind::Kernel),
            2 => Some(SymbolKind::IndirectFunction),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_values_round_trip() {
        for raw in 0..6 {
            assert_eq!(DeviceType::from_raw(raw).raw(), raw);
            assert_eq!(LinkType::from_raw(raw).raw(), raw);
            if let Some(segment) = Segment::from_raw(raw) {
                assert_eq!(segment.raw(), raw);
            }
            if let Some(access) = PoolAccess::from_raw(raw) {
                assert_eq!(access.raw(), raw);
            }
            if let Some(kind) = SymbolKind::from_raw(raw) {
                assert_eq!(kind.raw(), raw);
            }
            if let Some(mode) = RoundingMode::from_raw(raw) {
                assert_eq!(mode.raw(), raw);
            }
        }
        assert_eq!(LinkType::from_raw(4), LinkType::Xgmi);
        assert_eq!(Segment::from_raw(4), None);
        assert_eq!(Profile::from_raw(1), Some(Profile::Full));
        assert_eq!(GLOBAL_FLAG_COARSE_GRAINED, 4);
    }
}

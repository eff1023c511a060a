//! The HSA info attributes as enums: `hsa_system_info_t`,
//! `hsa_agent_info_t` (+ `hsa_amd_agent_info_t`), `hsa_isa_info_t`,
//! `hsa_amd_memory_pool_info_t`, `hsa_region_info_t`,
//! `hsa_amd_agent_memory_pool_info_t`,
//! `hsa_executable_symbol_info_t` and
//! `hsa_ven_amd_loader_loaded_code_object_info_t`, each with its C value,
//! its enumerator and the size of the C value a `*_get_info` call writes.
//!
//! Each enum lists the attributes the workspace asks or answers (the HAL's
//! and every one Debian's `rocminfo` asks the simulator's C library for).

use crate::hsa_types::LINK_INFO_SIZE;

/// How many bytes a `*_get_info` call writes for an attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InfoSize {
    /// Exactly this many (the attribute's C type).
    Fixed(usize),
    /// A count another attribute answers, times this many bytes: the ISA
    /// and symbol names (`NAME_LENGTH` bytes) and the link hops
    /// (`NUM_LINK_HOPS` × `hsa_amd_memory_pool_link_info_t`).
    Counted(usize),
}

const U16: InfoSize = InfoSize::Fixed(2);
const U32: InfoSize = InfoSize::Fixed(4);
const U64: InfoSize = InfoSize::Fixed(8);
const SIZE_T: InfoSize = InfoSize::Fixed(size_of::<usize>());
const BOOL: InfoSize = InfoSize::Fixed(1);
const HANDLE: InfoSize = InfoSize::Fixed(8);
const DIM3: InfoSize = InfoSize::Fixed(12);
const U16X3: InfoSize = InfoSize::Fixed(6);
const NAME64: InfoSize = InfoSize::Fixed(64);
const BYTES: InfoSize = InfoSize::Counted(1);

macro_rules! info_attributes {
    ($(
        $(#[$doc:meta])*
        $c_type:literal enum $name:ident {
            $($(#[$vdoc:meta])* $variant:ident = $value:literal, $c_name:ident, $size:expr;)*
        }
    )*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $(
                $(#[$vdoc])*
                #[doc = concat!("\n\n`", stringify!($c_name), "` (", stringify!($value), ").")]
                $variant,
            )*
        }

        impl $name {
            /// Every attribute, in the header's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The C type's name.
            pub const C_TYPE: &'static str = $c_type;

            /// The C value.
            pub const fn raw(self) -> u32 {
                match self {
                    $($name::$variant => $value,)*
                }
            }

            /// The attribute with this C value, if it is listed.
            pub const fn from_raw(raw: u32) -> Option<$name> {
                match raw {
                    $($value => Some($name::$variant),)*
                    _ => None,
                }
            }

            /// The C enumerator, e.g. `HSA_AGENT_INFO_NAME`.
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => stringify!($c_name),)*
                }
            }

            /// How many bytes the runtime writes for it.
            pub const fn size(self) -> InfoSize {
                match self {
                    $($name::$variant => $size,)*
                }
            }
        }
    )*};
}

info_attributes! {
    /// `hsa_system_info_t` (`hsa_system_get_info`).
    "hsa_system_info_t" enum SystemInfo {
        /// `uint16_t`.
        VersionMajor = 0, HSA_SYSTEM_INFO_VERSION_MAJOR, U16;
        /// `uint16_t`.
        VersionMinor = 1, HSA_SYSTEM_INFO_VERSION_MINOR, U16;
        /// `uint64_t` (Hz).
        TimestampFrequency = 3, HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, U64;
        /// `uint64_t` (timestamp counts).
        SignalMaxWait = 4, HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT, U64;
        /// `hsa_endianness_t`.
        Endianness = 5, HSA_SYSTEM_INFO_ENDIANNESS, U32;
        /// `hsa_machine_model_t`.
        MachineModel = 6, HSA_SYSTEM_INFO_MACHINE_MODEL, U32;
        /// `bool`: whether the driver supports the `hsa_amd_svm_*` calls.
        SvmSupported = 0x201, HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED, BOOL;
        /// `bool`: whether every agent reaches system-allocated memory
        /// (`malloc`, `mmap`) without `hsa_amd_svm_attributes_set`.
        SvmAccessibleByDefault = 0x202, HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT, BOOL;
        /// `bool`: whether the host's `MWAITX` instruction is enabled for
        /// waits (ROCm 6; not in ROCm 5.2's header).
        MwaitxEnabled = 0x203, HSA_AMD_SYSTEM_INFO_MWAITX_ENABLED, BOOL;
        /// `bool`: whether the driver supports dmabuf export (ROCm 6; not in
        /// ROCm 5.2's header).
        DmabufSupported = 0x204, HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED, BOOL;
        /// `bool`: whether the driver supports the `hsa_amd_vmem_*` calls
        /// (ROCm 6; not in ROCm 5.2's header).
        VirtualMemApiSupported = 0x205, HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED, BOOL;
        /// `bool`: whether XNACK is on (ROCm 6; not in ROCm 5.2's header).
        XnackEnabled = 0x206, HSA_AMD_SYSTEM_INFO_XNACK_ENABLED, BOOL;
        /// `uint16_t`: the AMD extensions' major version (ROCm 6).
        ExtVersionMajor = 0x207, HSA_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR, U16;
        /// `uint16_t`: the AMD extensions' minor version (ROCm 6).
        ExtVersionMinor = 0x208, HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR, U16;
    }

    /// `hsa_agent_info_t` and `hsa_amd_agent_info_t` (`hsa_agent_get_info`).
    "hsa_agent_info_t" enum AgentInfo {
        /// `char[64]`: `gfx942` for a GPU, the CPU model for a CPU.
        Name = 0, HSA_AGENT_INFO_NAME, NAME64;
        /// `char[64]`.
        VendorName = 1, HSA_AGENT_INFO_VENDOR_NAME, NAME64;
        /// `hsa_agent_feature_t` bits.
        Feature = 2, HSA_AGENT_INFO_FEATURE, U32;
        /// `hsa_profile_t`.
        Profile = 4, HSA_AGENT_INFO_PROFILE, U32;
        /// `hsa_default_float_rounding_mode_t`.
        DefaultFloatRoundingMode = 5, HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE, U32;
        /// `uint32_t` (0 for CPUs).
        WavefrontSize = 6, HSA_AGENT_INFO_WAVEFRONT_SIZE, U32;
        /// `uint16_t[3]`.
        WorkgroupMaxDim = 7, HSA_AGENT_INFO_WORKGROUP_MAX_DIM, U16X3;
        /// `uint32_t`.
        WorkgroupMaxSize = 8, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, U32;
        /// `hsa_dim3_t`.
        GridMaxDim = 9, HSA_AGENT_INFO_GRID_MAX_DIM, DIM3;
        /// `uint32_t`.
        GridMaxSize = 10, HSA_AGENT_INFO_GRID_MAX_SIZE, U32;
        /// `uint32_t`.
        FbarrierMaxSize = 11, HSA_AGENT_INFO_FBARRIER_MAX_SIZE, U32;
        /// `uint32_t`: hardware queues the agent supports (0 for CPUs).
        QueuesMax = 12, HSA_AGENT_INFO_QUEUES_MAX, U32;
        /// `uint32_t`.
        QueueMinSize = 13, HSA_AGENT_INFO_QUEUE_MIN_SIZE, U32;
        /// `uint32_t`.
        QueueMaxSize = 14, HSA_AGENT_INFO_QUEUE_MAX_SIZE, U32;
        /// `hsa_queue_type32_t`.
        QueueType = 15, HSA_AGENT_INFO_QUEUE_TYPE, U32;
        /// `uint32_t`: the agent's NUMA node (KFD node id).
        Node = 16, HSA_AGENT_INFO_NODE, U32;
        /// `hsa_device_type_t`.
        Device = 17, HSA_AGENT_INFO_DEVICE, U32;
        /// `uint32_t[4]`: L1..L4 cache sizes in bytes.
        CacheSize = 18, HSA_AGENT_INFO_CACHE_SIZE, InfoSize::Fixed(16);
        /// `hsa_isa_t`: the agent's first ISA.
        Isa = 19, HSA_AGENT_INFO_ISA, HANDLE;
        /// `bool`.
        FastF16Operation = 24, HSA_AGENT_INFO_FAST_F16_OPERATION, BOOL;
        /// `uint32_t`: the PCI device id.
        ChipId = 0xA000, HSA_AMD_AGENT_INFO_CHIP_ID, U32;
        /// `uint32_t`.
        CachelineSize = 0xA001, HSA_AMD_AGENT_INFO_CACHELINE_SIZE, U32;
        /// `uint32_t` (cores for a CPU).
        ComputeUnitCount = 0xA002, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, U32;
        /// `uint32_t` (MHz).
        MaxClockFrequency = 0xA003, HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY, U32;
        /// `uint32_t`.
        DriverNodeId = 0xA004, HSA_AMD_AGENT_INFO_DRIVER_NODE_ID, U32;
        /// `uint32_t`.
        MaxAddressWatchPoints = 0xA005, HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS, U32;
        /// `uint32_t`: PCI bus/device/function, `bus << 8 | dev << 3 | fn`.
        BdfId = 0xA006, HSA_AMD_AGENT_INFO_BDFID, U32;
        /// `char[64]`: the marketing name.
        ProductName = 0xA009, HSA_AMD_AGENT_INFO_PRODUCT_NAME, NAME64;
        /// `uint32_t`.
        MaxWavesPerCu = 0xA00A, HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU, U32;
        /// `uint32_t`.
        NumSimdsPerCu = 0xA00B, HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU, U32;
        /// `uint32_t`.
        NumShaderEngines = 0xA00C, HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES, U32;
        /// `uint32_t`.
        NumShaderArraysPerSe = 0xA00D, HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE, U32;
        /// `uint32_t`: the PCI domain.
        Domain = 0xA00F, HSA_AMD_AGENT_INFO_DOMAIN, U32;
        /// `char[21]`: `GPU-<16 hex>` or `CPU-XX`, with its NUL.
        Uuid = 0xA011, HSA_AMD_AGENT_INFO_UUID, InfoSize::Fixed(21);
        /// `uint32_t`.
        AsicRevision = 0xA012, HSA_AMD_AGENT_INFO_ASIC_REVISION, U32;
        /// `bool`.
        SvmDirectHostAccess = 0xA013, HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS, BOOL;
        /// `uint32_t`: the packet processor (CP) firmware version (ROCm 6).
        UcodeVersion = 0xA108, HSA_AMD_AGENT_INFO_UCODE_VERSION, U32;
        /// `uint32_t`: the SDMA engine firmware version (ROCm 6).
        SdmaUcodeVersion = 0xA109, HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION, U32;
        /// `hsa_amd_iommu_version_t` (ROCm 6).
        IommuSupport = 0xA110, HSA_AMD_AGENT_INFO_IOMMU_SUPPORT, U32;
        /// `uint32_t`: the KFD's unique id of the device (ROCm 6; not in
        /// ROCm 5.2's header).
        DriverUid = 0xA112, HSA_AMD_AGENT_INFO_DRIVER_UID, U32;
        /// `hsa_agent_t`: the CPU agent a GPU hangs off; a CPU answers itself
        /// (ROCm 6.2; not in ROCm 5.2's header).
        NearestCpu = 0xA113, HSA_AMD_AGENT_INFO_NEAREST_CPU, HANDLE;
        /// `uint8_t[8]`: `hsa_amd_memory_property_t` bits, bit 0 the agent
        /// is an APU (ROCm 6.1).
        MemoryProperties = 0xA114, HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES, InfoSize::Fixed(8);
    }

    /// `hsa_isa_info_t` (`hsa_isa_get_info_alt`).
    "hsa_isa_info_t" enum IsaInfo {
        /// `uint32_t`: the name's length; ROCr counts its NUL.
        NameLength = 0, HSA_ISA_INFO_NAME_LENGTH, U32;
        /// `char[NAME_LENGTH]`, e.g. `amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-`.
        Name = 1, HSA_ISA_INFO_NAME, BYTES;
        /// `bool[2]`.
        MachineModels = 5, HSA_ISA_INFO_MACHINE_MODELS, InfoSize::Fixed(2);
        /// `bool[2]`.
        Profiles = 6, HSA_ISA_INFO_PROFILES, InfoSize::Fixed(2);
        /// `bool[3]`.
        DefaultFloatRoundingModes = 7, HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES, InfoSize::Fixed(3);
        /// `bool[3]`.
        BaseProfileDefaultFloatRoundingModes = 8,
            HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES, InfoSize::Fixed(3);
        /// `bool`.
        FastF16Operation = 9, HSA_ISA_INFO_FAST_F16_OPERATION, BOOL;
        /// `uint16_t[3]`.
        WorkgroupMaxDim = 12, HSA_ISA_INFO_WORKGROUP_MAX_DIM, U16X3;
        /// `uint32_t`.
        WorkgroupMaxSize = 13, HSA_ISA_INFO_WORKGROUP_MAX_SIZE, U32;
        /// `hsa_dim3_t`.
        GridMaxDim = 14, HSA_ISA_INFO_GRID_MAX_DIM, DIM3;
        /// `uint64_t`.
        GridMaxSize = 16, HSA_ISA_INFO_GRID_MAX_SIZE, U64;
        /// `uint32_t`.
        FbarrierMaxSize = 17, HSA_ISA_INFO_FBARRIER_MAX_SIZE, U32;
    }

    /// `hsa_amd_memory_pool_info_t` (`hsa_amd_memory_pool_get_info`).
    "hsa_amd_memory_pool_info_t" enum MemoryPoolInfo {
        /// `hsa_amd_segment_t`.
        Segment = 0, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, U32;
        /// `uint32_t` of `hsa_amd_memory_pool_global_flag_t` bits (global segment only).
        GlobalFlags = 1, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, U32;
        /// `size_t` (bytes).
        Size = 2, HSA_AMD_MEMORY_POOL_INFO_SIZE, SIZE_T;
        /// `bool`.
        RuntimeAllocAllowed = 5, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, BOOL;
        /// `size_t` (bytes).
        RuntimeAllocGranule = 6, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, SIZE_T;
        /// `size_t` (bytes).
        RuntimeAllocAlignment = 7, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT, SIZE_T;
        /// `bool`.
        AccessibleByAll = 15, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, BOOL;
        /// `size_t` (bytes).
        AllocMaxSize = 16, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, SIZE_T;
        /// `size_t`: the recommended allocation granule, ROCr's internal
        /// block size (ROCm 6; not in ROCm 5.2's header).
        RuntimeAllocRecGranule = 18, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE, SIZE_T;
    }

    /// `hsa_region_info_t` (+ `hsa_amd_region_info_t`; `hsa_region_get_info`).
    /// ROCr's regions are its memory pools: the values a pool shares with
    /// its region are the same attribute numbers (`Segment` … `RuntimeAllocAlignment`).
    "hsa_region_info_t" enum RegionInfo {
        /// `hsa_region_segment_t`.
        Segment = 0, HSA_REGION_INFO_SEGMENT, U32;
        /// `uint32_t` of `hsa_region_global_flag_t` bits (0 outside the global segment).
        GlobalFlags = 1, HSA_REGION_INFO_GLOBAL_FLAGS, U32;
        /// `size_t` (bytes).
        Size = 2, HSA_REGION_INFO_SIZE, SIZE_T;
        /// `size_t` (bytes).
        AllocMaxSize = 4, HSA_REGION_INFO_ALLOC_MAX_SIZE, SIZE_T;
        /// `bool`.
        RuntimeAllocAllowed = 5, HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED, BOOL;
        /// `size_t` (bytes).
        RuntimeAllocGranule = 6, HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE, SIZE_T;
        /// `size_t` (bytes).
        RuntimeAllocAlignment = 7, HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT, SIZE_T;
        /// `bool`: system memory (a CPU's region).
        HostAccessible = 0xA000, HSA_AMD_REGION_INFO_HOST_ACCESSIBLE, BOOL;
    }

    /// `hsa_amd_agent_memory_pool_info_t` (`hsa_amd_agent_memory_pool_get_info`).
    "hsa_amd_agent_memory_pool_info_t" enum AgentMemoryPoolInfo {
        /// `hsa_amd_memory_pool_access_t`.
        Access = 0, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, U32;
        /// `uint32_t`.
        NumLinkHops = 1, HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS, U32;
        /// `hsa_amd_memory_pool_link_info_t[NUM_LINK_HOPS]`: one per hop
        /// (none for the agent's own pool).
        LinkInfo = 2, HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO, InfoSize::Counted(LINK_INFO_SIZE);
    }

    /// `hsa_executable_symbol_info_t` (`hsa_executable_symbol_get_info`).
    "hsa_executable_symbol_info_t" enum ExecutableSymbolInfo {
        /// `hsa_symbol_kind_t`.
        Type = 0, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, U32;
        /// `uint32_t`: the name's length, without a NUL.
        NameLength = 1, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, U32;
        /// `char[NAME_LENGTH]`, not NUL-terminated (with its `.kd` suffix for kernels).
        Name = 2, HSA_EXECUTABLE_SYMBOL_INFO_NAME, BYTES;
        /// `uint32_t` (bytes).
        VariableSize = 9, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, U32;
        /// `uint32_t` (bytes).
        KernargSegmentSize = 11, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, U32;
        /// `uint32_t` (bytes).
        KernargSegmentAlignment = 12, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT, U32;
        /// `uint32_t` (bytes of LDS).
        GroupSegmentSize = 13, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, U32;
        /// `uint32_t` (bytes of scratch per work-item).
        PrivateSegmentSize = 14, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, U32;
        /// `hsa_agent_t`.
        Agent = 20, HSA_EXECUTABLE_SYMBOL_INFO_AGENT, HANDLE;
        /// `uint64_t`.
        VariableAddress = 21, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, U64;
        /// `uint64_t`: the kernel descriptor's device address.
        KernelObject = 22, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, U64;
    }

    /// `hsa_ven_amd_loader_loaded_code_object_info_t`
    /// (`hsa_ven_amd_loader_loaded_code_object_get_info`).
    "hsa_ven_amd_loader_loaded_code_object_info_t" enum LoadedCodeObjectInfo {
        /// `hsa_agent_t`.
        Agent = 3, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT, HANDLE;
        /// `int64_t`: load base minus the ELF's lowest vaddr.
        LoadDelta = 8, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA, U64;
        /// `uint64_t`: where the code object was placed.
        LoadBase = 9, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE, U64;
        /// `uint64_t` (bytes of the loaded image).
        LoadSize = 10, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE, U64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_names_follow_the_family() {
        for &a in AgentInfo::ALL {
            assert_eq!(AgentInfo::from_raw(a.raw()), Some(a));
            assert!(
                a.name().starts_with("HSA_AGENT_INFO_")
                    || a.name().starts_with("HSA_AMD_AGENT_INFO_")
            );
        }
        for &a in IsaInfo::ALL {
            assert_eq!(IsaInfo::from_raw(a.raw()), Some(a));
        }
        for &a in ExecutableSymbolInfo::ALL {
            assert_eq!(ExecutableSymbolInfo::from_raw(a.raw()), Some(a));
        }
        for &a in RegionInfo::ALL {
            assert_eq!(RegionInfo::from_raw(a.raw()), Some(a));
            assert!(
                a.name().starts_with("HSA_REGION_INFO_")
                    || a.name().starts_with("HSA_AMD_REGION_INFO_")
            );
        }
        // HSA_REGION_INFO_ALLOC_MAX_PRIVATE_WORKGROUP_SIZE: ROCr answers
        // INVALID_ARGUMENT, so it is not listed.
        assert_eq!(RegionInfo::from_raw(8), None);
        assert_eq!(AgentInfo::from_raw(20), None);
        assert_eq!(AgentInfo::Uuid.size(), InfoSize::Fixed(21));
        assert_eq!(AgentMemoryPoolInfo::LinkInfo.size(), InfoSize::Counted(28));
    }
}

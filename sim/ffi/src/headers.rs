//! The HSA values and layouts this library speaks, listed for the check
//! against the vendor headers themselves: `sim/ffi/tests/headers.rs`
//! compiles a `_Static_assert` per entry against Debian's `hsa.h`,
//! `hsa_ext_amd.h` and `hsa_ven_amd_loader.h` (ROCm 5.2).

use crate::abi::*;

/// Every HSA value, as `(C enumerator, value)`. ROCm 6's
/// `HSA_AMD_AGENT_INFO_DRIVER_UID` and `HSA_AMD_AGENT_INFO_NEAREST_CPU`
/// postdate those headers and are left out.
pub const HEADER_VALUES: &[(&str, u64)] = &[
    ("HSA_STATUS_SUCCESS", HSA_STATUS_SUCCESS as u64),
    ("HSA_STATUS_ERROR", HSA_STATUS_ERROR as u64),
    (
        "HSA_STATUS_ERROR_INVALID_ARGUMENT",
        HSA_STATUS_ERROR_INVALID_ARGUMENT as u64,
    ),
    (
        "HSA_STATUS_ERROR_OUT_OF_RESOURCES",
        HSA_STATUS_ERROR_OUT_OF_RESOURCES as u64,
    ),
    (
        "HSA_STATUS_ERROR_NOT_INITIALIZED",
        HSA_STATUS_ERROR_NOT_INITIALIZED as u64,
    ),
    (
        "HSA_SYSTEM_INFO_VERSION_MAJOR",
        system_info::VERSION_MAJOR as u64,
    ),
    (
        "HSA_SYSTEM_INFO_VERSION_MINOR",
        system_info::VERSION_MINOR as u64,
    ),
    (
        "HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY",
        system_info::TIMESTAMP_FREQUENCY as u64,
    ),
    (
        "HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT",
        system_info::SIGNAL_MAX_WAIT as u64,
    ),
    ("HSA_SYSTEM_INFO_ENDIANNESS", system_info::ENDIANNESS as u64),
    (
        "HSA_SYSTEM_INFO_MACHINE_MODEL",
        system_info::MACHINE_MODEL as u64,
    ),
    (
        "HSA_ENDIANNESS_LITTLE",
        amdgpu_sim::hsa_info::ENDIANNESS_LITTLE as u64,
    ),
    (
        "HSA_MACHINE_MODEL_LARGE",
        amdgpu_sim::hsa_info::MACHINE_MODEL_LARGE as u64,
    ),
    (
        "HSA_QUEUE_TYPE_MULTI",
        amdgpu_sim::hsa_info::QUEUE_TYPE_MULTI as u64,
    ),
    (
        "HSA_AGENT_FEATURE_KERNEL_DISPATCH",
        amdgpu_sim::hsa_info::FEATURE_KERNEL_DISPATCH as u64,
    ),
    ("HSA_AGENT_INFO_NAME", agent_info::NAME as u64),
    ("HSA_AGENT_INFO_VENDOR_NAME", agent_info::VENDOR_NAME as u64),
    ("HSA_AGENT_INFO_FEATURE", agent_info::FEATURE as u64),
    ("HSA_AGENT_INFO_PROFILE", agent_info::PROFILE as u64),
    (
        "HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE",
        agent_info::DEFAULT_FLOAT_ROUNDING_MODE as u64,
    ),
    (
        "HSA_AGENT_INFO_WAVEFRONT_SIZE",
        agent_info::WAVEFRONT_SIZE as u64,
    ),
    (
        "HSA_AGENT_INFO_WORKGROUP_MAX_DIM",
        agent_info::WORKGROUP_MAX_DIM as u64,
    ),
    (
        "HSA_AGENT_INFO_WORKGROUP_MAX_SIZE",
        agent_info::WORKGROUP_MAX_SIZE as u64,
    ),
    (
        "HSA_AGENT_INFO_GRID_MAX_DIM",
        agent_info::GRID_MAX_DIM as u64,
    ),
    (
        "HSA_AGENT_INFO_GRID_MAX_SIZE",
        agent_info::GRID_MAX_SIZE as u64,
    ),
    (
        "HSA_AGENT_INFO_FBARRIER_MAX_SIZE",
        agent_info::FBARRIER_MAX_SIZE as u64,
    ),
    ("HSA_AGENT_INFO_QUEUES_MAX", agent_info::QUEUES_MAX as u64),
    (
        "HSA_AGENT_INFO_QUEUE_MIN_SIZE",
        agent_info::QUEUE_MIN_SIZE as u64,
    ),
    (
        "HSA_AGENT_INFO_QUEUE_MAX_SIZE",
        agent_info::QUEUE_MAX_SIZE as u64,
    ),
    ("HSA_AGENT_INFO_QUEUE_TYPE", agent_info::QUEUE_TYPE as u64),
    ("HSA_AGENT_INFO_NODE", agent_info::NODE as u64),
    ("HSA_AGENT_INFO_DEVICE", agent_info::DEVICE as u64),
    ("HSA_AGENT_INFO_CACHE_SIZE", agent_info::CACHE_SIZE as u64),
    ("HSA_AGENT_INFO_ISA", agent_info::ISA as u64),
    (
        "HSA_AGENT_INFO_FAST_F16_OPERATION",
        agent_info::FAST_F16_OPERATION as u64,
    ),
    ("HSA_AMD_AGENT_INFO_CHIP_ID", agent_info::AMD_CHIP_ID as u64),
    (
        "HSA_AMD_AGENT_INFO_CACHELINE_SIZE",
        agent_info::AMD_CACHELINE_SIZE as u64,
    ),
    (
        "HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT",
        agent_info::AMD_COMPUTE_UNIT_COUNT as u64,
    ),
    (
        "HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY",
        agent_info::AMD_MAX_CLOCK_FREQUENCY as u64,
    ),
    (
        "HSA_AMD_AGENT_INFO_DRIVER_NODE_ID",
        agent_info::AMD_DRIVER_NODE_ID as u64,
    ),
    (
        "HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS",
        agent_info::AMD_MAX_ADDRESS_WATCH_POINTS as u64,
    ),
    ("HSA_AMD_AGENT_INFO_BDFID", agent_info::AMD_BDFID as u64),
    (
        "HSA_AMD_AGENT_INFO_PRODUCT_NAME",
        agent_info::AMD_PRODUCT_NAME as u64,
    ),
    (
        "HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU",
        agent_info::AMD_MAX_WAVES_PER_CU as u64,
    ),
    (
        "HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU",
        agent_info::AMD_NUM_SIMDS_PER_CU as u64,
    ),
    (
        "HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES",
        agent_info::AMD_NUM_SHADER_ENGINES as u64,
    ),
    (
        "HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE",
        agent_info::AMD_NUM_SHADER_ARRAYS_PER_SE as u64,
    ),
    ("HSA_AMD_AGENT_INFO_DOMAIN", agent_info::AMD_DOMAIN as u64),
    ("HSA_AMD_AGENT_INFO_UUID", agent_info::AMD_UUID as u64),
    (
        "HSA_AMD_AGENT_INFO_ASIC_REVISION",
        agent_info::AMD_ASIC_REVISION as u64,
    ),
    (
        "HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS",
        agent_info::AMD_SVM_DIRECT_HOST_ACCESS as u64,
    ),
    ("HSA_DEVICE_TYPE_CPU", device_type::CPU as u64),
    ("HSA_DEVICE_TYPE_GPU", device_type::GPU as u64),
    ("HSA_ISA_INFO_NAME_LENGTH", isa_info::NAME_LENGTH as u64),
    ("HSA_ISA_INFO_NAME", isa_info::NAME as u64),
    (
        "HSA_ISA_INFO_MACHINE_MODELS",
        isa_info::MACHINE_MODELS as u64,
    ),
    ("HSA_ISA_INFO_PROFILES", isa_info::PROFILES as u64),
    (
        "HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES",
        isa_info::DEFAULT_FLOAT_ROUNDING_MODES as u64,
    ),
    (
        "HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES",
        isa_info::BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES as u64,
    ),
    (
        "HSA_ISA_INFO_FAST_F16_OPERATION",
        isa_info::FAST_F16_OPERATION as u64,
    ),
    (
        "HSA_ISA_INFO_WORKGROUP_MAX_DIM",
        isa_info::WORKGROUP_MAX_DIM as u64,
    ),
    (
        "HSA_ISA_INFO_WORKGROUP_MAX_SIZE",
        isa_info::WORKGROUP_MAX_SIZE as u64,
    ),
    ("HSA_ISA_INFO_GRID_MAX_DIM", isa_info::GRID_MAX_DIM as u64),
    ("HSA_ISA_INFO_GRID_MAX_SIZE", isa_info::GRID_MAX_SIZE as u64),
    (
        "HSA_ISA_INFO_FBARRIER_MAX_SIZE",
        isa_info::FBARRIER_MAX_SIZE as u64,
    ),
    (
        "HSA_AMD_MEMORY_POOL_INFO_SEGMENT",
        pool_info::SEGMENT as u64,
    ),
    (
        "HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS",
        pool_info::GLOBAL_FLAGS as u64,
    ),
    ("HSA_AMD_MEMORY_POOL_INFO_SIZE", pool_info::SIZE as u64),
    (
        "HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED",
        pool_info::RUNTIME_ALLOC_ALLOWED as u64,
    ),
    (
        "HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE",
        pool_info::RUNTIME_ALLOC_GRANULE as u64,
    ),
    (
        "HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT",
        pool_info::RUNTIME_ALLOC_ALIGNMENT as u64,
    ),
    (
        "HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL",
        pool_info::ACCESSIBLE_BY_ALL as u64,
    ),
    (
        "HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE",
        pool_info::ALLOC_MAX_SIZE as u64,
    ),
    (
        "HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS",
        agent_pool_info::ACCESS as u64,
    ),
    (
        "HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS",
        agent_pool_info::NUM_LINK_HOPS as u64,
    ),
    (
        "HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO",
        agent_pool_info::LINK_INFO as u64,
    ),
    ("HSA_SYMBOL_KIND_VARIABLE", symbol_kind::VARIABLE as u64),
    ("HSA_SYMBOL_KIND_KERNEL", symbol_kind::KERNEL as u64),
    ("HSA_EXECUTABLE_SYMBOL_INFO_TYPE", symbol_info::TYPE as u64),
    (
        "HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH",
        symbol_info::NAME_LENGTH as u64,
    ),
    ("HSA_EXECUTABLE_SYMBOL_INFO_NAME", symbol_info::NAME as u64),
    (
        "HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE",
        symbol_info::VARIABLE_SIZE as u64,
    ),
    (
        "HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE",
        symbol_info::KERNARG_SEGMENT_SIZE as u64,
    ),
    (
        "HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT",
        symbol_info::KERNARG_SEGMENT_ALIGNMENT as u64,
    ),
    (
        "HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE",
        symbol_info::GROUP_SEGMENT_SIZE as u64,
    ),
    (
        "HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE",
        symbol_info::PRIVATE_SEGMENT_SIZE as u64,
    ),
    (
        "HSA_EXECUTABLE_SYMBOL_INFO_AGENT",
        symbol_info::AGENT as u64,
    ),
    (
        "HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS",
        symbol_info::VARIABLE_ADDRESS as u64,
    ),
    (
        "HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT",
        symbol_info::KERNEL_OBJECT as u64,
    ),
    (
        "HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT",
        loaded_code_object_info::AGENT as u64,
    ),
    (
        "HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA",
        loaded_code_object_info::LOAD_DELTA as u64,
    ),
    (
        "HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE",
        loaded_code_object_info::LOAD_BASE as u64,
    ),
    (
        "HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE",
        loaded_code_object_info::LOAD_SIZE as u64,
    ),
    ("HSA_EXTENSION_AMD_LOADER", HSA_EXTENSION_AMD_LOADER as u64),
];

/// `(C type, sizeof)` of every HSA type this library writes or reads.
pub const HEADER_SIZES: &[(&str, usize)] = &[
    ("hsa_status_t", size_of::<hsa_status_t>()),
    ("hsa_agent_t", size_of::<hsa_agent_t>()),
    ("hsa_isa_t", size_of::<hsa_isa_t>()),
    ("hsa_amd_memory_pool_t", size_of::<hsa_amd_memory_pool_t>()),
    (
        "hsa_code_object_reader_t",
        size_of::<hsa_code_object_reader_t>(),
    ),
    ("hsa_executable_t", size_of::<hsa_executable_t>()),
    (
        "hsa_executable_symbol_t",
        size_of::<hsa_executable_symbol_t>(),
    ),
    (
        "hsa_loaded_code_object_t",
        size_of::<hsa_loaded_code_object_t>(),
    ),
    ("hsa_signal_t", size_of::<hsa_signal_t>()),
    ("hsa_region_t", size_of::<hsa_region_t>()),
    ("hsa_cache_t", size_of::<hsa_cache_t>()),
    ("hsa_dim3_t", size_of::<hsa_dim3_t>()),
    ("hsa_amd_memory_pool_link_info_t", LINK_INFO_SIZE),
    ("hsa_ven_amd_loader_1_03_pfn_t", AMD_LOADER_1_03_TABLE_SIZE),
    // Enums travel as 4 bytes (the attribute types `rocminfo` stores them in).
    ("hsa_endianness_t", size_of::<u32>()),
    ("hsa_machine_model_t", size_of::<u32>()),
    ("hsa_agent_feature_t", size_of::<u32>()),
    ("hsa_queue_type32_t", size_of::<u32>()),
    ("hsa_device_type_t", size_of::<u32>()),
    ("hsa_profile_t", size_of::<u32>()),
    ("hsa_default_float_rounding_mode_t", size_of::<u32>()),
];

/// `(C struct, field, offsetof)` of the structs written field by field.
pub const HEADER_OFFSETS: &[(&str, &str, usize)] = &[
    ("hsa_dim3_t", "x", std::mem::offset_of!(hsa_dim3_t, x)),
    ("hsa_dim3_t", "y", std::mem::offset_of!(hsa_dim3_t, y)),
    ("hsa_dim3_t", "z", std::mem::offset_of!(hsa_dim3_t, z)),
    (
        "hsa_amd_memory_pool_link_info_t",
        "max_bandwidth",
        std::mem::offset_of!(hsa_amd_memory_pool_link_info_t, max_bandwidth),
    ),
    (
        "hsa_amd_memory_pool_link_info_t",
        "atomic_support_32bit",
        std::mem::offset_of!(hsa_amd_memory_pool_link_info_t, atomic_support_32bit),
    ),
    (
        "hsa_amd_memory_pool_link_info_t",
        "coherent_support",
        std::mem::offset_of!(hsa_amd_memory_pool_link_info_t, coherent_support),
    ),
    (
        "hsa_amd_memory_pool_link_info_t",
        "link_type",
        std::mem::offset_of!(hsa_amd_memory_pool_link_info_t, link_type),
    ),
    (
        "hsa_amd_memory_pool_link_info_t",
        "numa_distance",
        std::mem::offset_of!(hsa_amd_memory_pool_link_info_t, numa_distance),
    ),
];

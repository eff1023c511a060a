//! The C ABI of `libhsa-runtime64` (`hsa.h`, `hsa_ext_amd.h`,
//! `hsa_ven_amd_loader.h`): handle structs, attribute values and the
//! structs read through info queries, with their sizes asserted at compile
//! time against the headers of Debian's ROCm 5.2 (checked with `offsetof`).

#![allow(non_camel_case_types)]

use std::ffi::c_void;

/// `hsa_status_t` (an enum: `uint32_t` on every ABI the runtime ships for).
pub type hsa_status_t = u32;

/// `HSA_STATUS_SUCCESS`.
pub const HSA_STATUS_SUCCESS: hsa_status_t = 0x0;
/// `HSA_STATUS_INFO_BREAK`: an iteration stopped by its callback.
pub const HSA_STATUS_INFO_BREAK: hsa_status_t = 0x1;
/// `HSA_STATUS_ERROR`: the generic failure.
pub const HSA_STATUS_ERROR: hsa_status_t = 0x1000;
/// `HSA_STATUS_ERROR_INVALID_ARGUMENT`.
pub const HSA_STATUS_ERROR_INVALID_ARGUMENT: hsa_status_t = 0x1001;
/// `HSA_STATUS_ERROR_OUT_OF_RESOURCES`: what `hsa_init` returns without `/dev/kfd`.
pub const HSA_STATUS_ERROR_OUT_OF_RESOURCES: hsa_status_t = 0x1008;
/// `HSA_STATUS_ERROR_NOT_INITIALIZED`.
pub const HSA_STATUS_ERROR_NOT_INITIALIZED: hsa_status_t = 0x100B;

macro_rules! handle_structs {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[repr(C)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name {
            /// The opaque 64-bit handle.
            pub handle: u64,
        }
        const _: () = assert!(size_of::<$name>() == 8 && align_of::<$name>() == 8);
    )*};
}

handle_structs! {
    /// `hsa_agent_t`.
    hsa_agent_t;
    /// `hsa_isa_t`.
    hsa_isa_t;
    /// `hsa_amd_memory_pool_t`.
    hsa_amd_memory_pool_t;
    /// `hsa_code_object_reader_t`.
    hsa_code_object_reader_t;
    /// `hsa_executable_t`.
    hsa_executable_t;
    /// `hsa_executable_symbol_t`.
    hsa_executable_symbol_t;
    /// `hsa_loaded_code_object_t`.
    hsa_loaded_code_object_t;
}

/// `hsa_system_info_t::HSA_SYSTEM_INFO_VERSION_MAJOR` (`uint16_t`).
pub const HSA_SYSTEM_INFO_VERSION_MAJOR: u32 = 0;
/// `HSA_SYSTEM_INFO_VERSION_MINOR` (`uint16_t`).
pub const HSA_SYSTEM_INFO_VERSION_MINOR: u32 = 1;

/// `hsa_agent_info_t` values (core).
pub mod agent_info {
    /// `HSA_AGENT_INFO_NAME`: `char[64]`.
    pub const NAME: u32 = 0;
    /// `HSA_AGENT_INFO_VENDOR_NAME`: `char[64]`.
    pub const VENDOR_NAME: u32 = 1;
    /// `HSA_AGENT_INFO_PROFILE`: `hsa_profile_t`.
    pub const PROFILE: u32 = 4;
    /// `HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE`: `hsa_default_float_rounding_mode_t`.
    pub const DEFAULT_FLOAT_ROUNDING_MODE: u32 = 5;
    /// `HSA_AGENT_INFO_WAVEFRONT_SIZE`: `uint32_t`.
    pub const WAVEFRONT_SIZE: u32 = 6;
    /// `HSA_AGENT_INFO_QUEUES_MAX`: `uint32_t`.
    pub const QUEUES_MAX: u32 = 12;
    /// `HSA_AGENT_INFO_NODE`: `uint32_t`.
    pub const NODE: u32 = 16;
    /// `HSA_AGENT_INFO_DEVICE`: `hsa_device_type_t`.
    pub const DEVICE: u32 = 17;
    /// `HSA_AMD_AGENT_INFO_CHIP_ID`: `uint32_t`.
    pub const AMD_CHIP_ID: u32 = 0xA000;
    /// `HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT`: `uint32_t`.
    pub const AMD_COMPUTE_UNIT_COUNT: u32 = 0xA002;
    /// `HSA_AMD_AGENT_INFO_BDFID`: `uint32_t`.
    pub const AMD_BDFID: u32 = 0xA006;
    /// `HSA_AMD_AGENT_INFO_PRODUCT_NAME`: `char[64]`.
    pub const AMD_PRODUCT_NAME: u32 = 0xA009;
    /// `HSA_AMD_AGENT_INFO_DOMAIN`: `uint32_t`.
    pub const AMD_DOMAIN: u32 = 0xA00F;
    /// `HSA_AMD_AGENT_INFO_UUID`: `char[21]` with its NUL.
    pub const AMD_UUID: u32 = 0xA011;
    /// `HSA_AMD_AGENT_INFO_DRIVER_UID`: `uint32_t` (ROCm 6; 5.2's header lacks it).
    pub const AMD_DRIVER_UID: u32 = 0xA112;
    /// `HSA_AMD_AGENT_INFO_NEAREST_CPU`: `hsa_agent_t` (ROCm 6.2+).
    pub const AMD_NEAREST_CPU: u32 = 0xA113;
}

/// `hsa_isa_info_t` values.
pub mod isa_info {
    /// `HSA_ISA_INFO_NAME_LENGTH`: `uint32_t`, with the NUL.
    pub const NAME_LENGTH: u32 = 0;
    /// `HSA_ISA_INFO_NAME`: `char[NAME_LENGTH]`.
    pub const NAME: u32 = 1;
    /// `HSA_ISA_INFO_WORKGROUP_MAX_DIM`: `uint16_t[3]`.
    pub const WORKGROUP_MAX_DIM: u32 = 12;
    /// `HSA_ISA_INFO_WORKGROUP_MAX_SIZE`: `uint32_t`.
    pub const WORKGROUP_MAX_SIZE: u32 = 13;
}

/// `hsa_amd_memory_pool_info_t` values.
pub mod pool_info {
    /// `HSA_AMD_MEMORY_POOL_INFO_SEGMENT`: `hsa_amd_segment_t`.
    pub const SEGMENT: u32 = 0;
    /// `HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS`: `uint32_t`.
    pub const GLOBAL_FLAGS: u32 = 1;
    /// `HSA_AMD_MEMORY_POOL_INFO_SIZE`: `size_t`.
    pub const SIZE: u32 = 2;
    /// `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED`: `bool`.
    pub const RUNTIME_ALLOC_ALLOWED: u32 = 5;
    /// `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE`: `size_t`.
    pub const RUNTIME_ALLOC_GRANULE: u32 = 6;
    /// `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT`: `size_t`.
    pub const RUNTIME_ALLOC_ALIGNMENT: u32 = 7;
    /// `HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL`: `bool`.
    pub const ACCESSIBLE_BY_ALL: u32 = 15;
    /// `HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE`: `size_t`.
    pub const ALLOC_MAX_SIZE: u32 = 16;
}

/// `hsa_amd_agent_memory_pool_info_t` values.
pub mod agent_pool_info {
    /// `HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS`: `hsa_amd_memory_pool_access_t`.
    pub const ACCESS: u32 = 0;
    /// `HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS`: `uint32_t`.
    pub const NUM_LINK_HOPS: u32 = 1;
    /// `HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO`: `hsa_amd_memory_pool_link_info_t[hops]`.
    pub const LINK_INFO: u32 = 2;
}

/// `hsa_executable_symbol_info_t` values.
pub mod symbol_info {
    /// `HSA_EXECUTABLE_SYMBOL_INFO_TYPE`: `hsa_symbol_kind_t`.
    pub const TYPE: u32 = 0;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH`: `uint32_t`, without a NUL.
    pub const NAME_LENGTH: u32 = 1;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_NAME`: `char[NAME_LENGTH]`, not NUL-terminated.
    pub const NAME: u32 = 2;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE`: `uint32_t`.
    pub const VARIABLE_SIZE: u32 = 9;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE`: `uint32_t`.
    pub const KERNARG_SEGMENT_SIZE: u32 = 11;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT`: `uint32_t`.
    pub const KERNARG_SEGMENT_ALIGNMENT: u32 = 12;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE`: `uint32_t`.
    pub const GROUP_SEGMENT_SIZE: u32 = 13;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE`: `uint32_t`.
    pub const PRIVATE_SEGMENT_SIZE: u32 = 14;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_AGENT`: `hsa_agent_t`.
    pub const AGENT: u32 = 20;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS`: `uint64_t`.
    pub const VARIABLE_ADDRESS: u32 = 21;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT`: `uint64_t`.
    pub const KERNEL_OBJECT: u32 = 22;
}

/// `hsa_ven_amd_loader_loaded_code_object_info_t` values.
pub mod loaded_code_object_info {
    /// `HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT`: `hsa_agent_t`.
    pub const AGENT: u32 = 3;
    /// `..._LOAD_DELTA`: `int64_t`.
    pub const LOAD_DELTA: u32 = 8;
    /// `..._LOAD_BASE`: `uint64_t`.
    pub const LOAD_BASE: u32 = 9;
    /// `..._LOAD_SIZE`: `uint64_t`.
    pub const LOAD_SIZE: u32 = 10;
}

/// `HSA_EXTENSION_AMD_LOADER`.
pub const HSA_EXTENSION_AMD_LOADER: u16 = 0x201;

/// `hsa_amd_memory_pool_link_info_t` as ROCm ≥ 3.x lays it out (28 bytes:
/// `link_type` learnt XGMI and `numa_distance` was appended; older headers
/// had a 24-byte struct).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hsa_amd_memory_pool_link_info_t {
    /// Minimum latency (ns).
    pub min_latency: u32,
    /// Maximum latency (ns).
    pub max_latency: u32,
    /// Minimum bandwidth (MB/s).
    pub min_bandwidth: u32,
    /// Maximum bandwidth (MB/s).
    pub max_bandwidth: u32,
    /// 32-bit atomics across the link.
    pub atomic_support_32bit: bool,
    /// 64-bit atomics across the link.
    pub atomic_support_64bit: bool,
    /// Cache-coherent link.
    pub coherent_support: bool,
    /// `hsa_amd_link_info_type_t`.
    pub link_type: u32,
    /// NUMA distance of the hop.
    pub numa_distance: u32,
}
const _: () = {
    assert!(size_of::<hsa_amd_memory_pool_link_info_t>() == 28);
    assert!(std::mem::offset_of!(hsa_amd_memory_pool_link_info_t, atomic_support_32bit) == 16);
    assert!(std::mem::offset_of!(hsa_amd_memory_pool_link_info_t, coherent_support) == 18);
    assert!(std::mem::offset_of!(hsa_amd_memory_pool_link_info_t, link_type) == 20);
    assert!(std::mem::offset_of!(hsa_amd_memory_pool_link_info_t, numa_distance) == 24);
};

/// Stride reserved per link hop when reading `LINK_INFO`: the runtime
/// writes `hops * sizeof(its struct)`, so the buffer leaves room for a
/// struct that grows again; entries are read at the 28-byte stride, which
/// every ROCm since 3.x uses.
pub const LINK_INFO_RESERVED_STRIDE: usize = 64;

/// `hsa_ven_amd_loader_1_03_pfn_t`: versions 1.00–1.03 append pointers, so
/// the 1.03 struct read with a shorter length leaves the newer ones `None`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct hsa_ven_amd_loader_1_03_pfn_t {
    /// `hsa_ven_amd_loader_query_host_address` (1.00).
    pub query_host_address:
        Option<unsafe extern "C" fn(*const c_void, *mut *const c_void) -> hsa_status_t>,
    /// `hsa_ven_amd_loader_query_segment_descriptors` (1.00).
    pub query_segment_descriptors:
        Option<unsafe extern "C" fn(*mut c_void, *mut usize) -> hsa_status_t>,
    /// `hsa_ven_amd_loader_query_executable` (1.00).
    pub query_executable:
        Option<unsafe extern "C" fn(*const c_void, *mut hsa_executable_t) -> hsa_status_t>,
    /// `hsa_ven_amd_loader_executable_iterate_loaded_code_objects` (1.01).
    pub executable_iterate_loaded_code_objects: Option<
        unsafe extern "C" fn(
            hsa_executable_t,
            extern "C" fn(hsa_executable_t, hsa_loaded_code_object_t, *mut c_void) -> hsa_status_t,
            *mut c_void,
        ) -> hsa_status_t,
    >,
    /// `hsa_ven_amd_loader_loaded_code_object_get_info` (1.01).
    pub loaded_code_object_get_info:
        Option<unsafe extern "C" fn(hsa_loaded_code_object_t, u32, *mut c_void) -> hsa_status_t>,
    /// `hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size` (1.02).
    pub code_object_reader_create_from_file_with_offset_size: Option<
        unsafe extern "C" fn(i32, usize, usize, *mut hsa_code_object_reader_t) -> hsa_status_t,
    >,
    /// `hsa_ven_amd_loader_iterate_executables` (1.03).
    pub iterate_executables: Option<
        unsafe extern "C" fn(
            extern "C" fn(hsa_executable_t, *mut c_void) -> hsa_status_t,
            *mut c_void,
        ) -> hsa_status_t,
    >,
}

/// Bytes of the loader table per minor version (1.00 .. 1.03), from the
/// headers' `sizeof`.
pub const LOADER_TABLE_SIZES: [usize; 4] = [24, 40, 48, 56];
const _: () = assert!(size_of::<hsa_ven_amd_loader_1_03_pfn_t>() == LOADER_TABLE_SIZES[3]);

/// The iteration callbacks' shape: `hsa_status_t (*)(T, void*)`.
pub type IterateCallback<T> = extern "C" fn(T, *mut c_void) -> hsa_status_t;

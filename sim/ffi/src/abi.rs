//! The C types and values of the vendor headers that the exports speak:
//! `hsa.h`, `hsa_ext_amd.h`, `hsa_ven_amd_loader.h` and
//! `hip_runtime_api.h` of Debian's ROCm 5.2. Sizes and offsets are asserted
//! at compile time against the headers' `sizeof` / `offsetof`.

#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]

use std::ffi::c_char;

/// `hsa_status_t`.
pub type hsa_status_t = u32;
/// `HSA_STATUS_SUCCESS`.
pub const HSA_STATUS_SUCCESS: hsa_status_t = 0;
/// `HSA_STATUS_ERROR`: HSA has no "not supported" status; ROCr answers
/// calls it cannot serve with this generic failure.
pub const HSA_STATUS_ERROR: hsa_status_t = 0x1000;
/// `HSA_STATUS_ERROR_INVALID_ARGUMENT`.
pub const HSA_STATUS_ERROR_INVALID_ARGUMENT: hsa_status_t = 0x1001;
/// `HSA_STATUS_ERROR_OUT_OF_RESOURCES`: `hsa_init` without a node.
pub const HSA_STATUS_ERROR_OUT_OF_RESOURCES: hsa_status_t = 0x1008;
/// `HSA_STATUS_ERROR_NOT_INITIALIZED`.
pub const HSA_STATUS_ERROR_NOT_INITIALIZED: hsa_status_t = 0x100B;

macro_rules! handles {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[repr(C)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name {
            /// The opaque handle.
            pub handle: u64,
        }
        const _: () = assert!(size_of::<$name>() == 8 && align_of::<$name>() == 8);
    )*};
}

handles! {
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
    /// `hsa_signal_t`.
    hsa_signal_t;
    /// `hsa_region_t`.
    hsa_region_t;
    /// `hsa_cache_t`.
    hsa_cache_t;
}

/// `hsa_system_info_t` values.
pub mod system_info {
    /// `HSA_SYSTEM_INFO_VERSION_MAJOR` (`uint16_t`).
    pub const VERSION_MAJOR: u32 = 0;
    /// `HSA_SYSTEM_INFO_VERSION_MINOR` (`uint16_t`).
    pub const VERSION_MINOR: u32 = 1;
    /// `HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY` (`uint64_t`).
    pub const TIMESTAMP_FREQUENCY: u32 = 3;
    /// `HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT` (`uint64_t`).
    pub const SIGNAL_MAX_WAIT: u32 = 4;
    /// `HSA_SYSTEM_INFO_ENDIANNESS` (`hsa_endianness_t`).
    pub const ENDIANNESS: u32 = 5;
    /// `HSA_SYSTEM_INFO_MACHINE_MODEL` (`hsa_machine_model_t`).
    pub const MACHINE_MODEL: u32 = 6;
}

/// `hsa_agent_info_t` / `hsa_amd_agent_info_t` values.
pub mod agent_info {
    /// `HSA_AGENT_INFO_NAME`: `char[64]`.
    pub const NAME: u32 = 0;
    /// `HSA_AGENT_INFO_VENDOR_NAME`: `char[64]`.
    pub const VENDOR_NAME: u32 = 1;
    /// `HSA_AGENT_INFO_FEATURE`: `hsa_agent_feature_t`.
    pub const FEATURE: u32 = 2;
    /// `HSA_AGENT_INFO_PROFILE`: `hsa_profile_t`.
    pub const PROFILE: u32 = 4;
    /// `HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE`.
    pub const DEFAULT_FLOAT_ROUNDING_MODE: u32 = 5;
    /// `HSA_AGENT_INFO_WAVEFRONT_SIZE`: `uint32_t`.
    pub const WAVEFRONT_SIZE: u32 = 6;
    /// `HSA_AGENT_INFO_WORKGROUP_MAX_DIM`: `uint16_t[3]`.
    pub const WORKGROUP_MAX_DIM: u32 = 7;
    /// `HSA_AGENT_INFO_WORKGROUP_MAX_SIZE`: `uint32_t`.
    pub const WORKGROUP_MAX_SIZE: u32 = 8;
    /// `HSA_AGENT_INFO_GRID_MAX_DIM`: `hsa_dim3_t`.
    pub const GRID_MAX_DIM: u32 = 9;
    /// `HSA_AGENT_INFO_GRID_MAX_SIZE`: `uint32_t`.
    pub const GRID_MAX_SIZE: u32 = 10;
    /// `HSA_AGENT_INFO_FBARRIER_MAX_SIZE`: `uint32_t`.
    pub const FBARRIER_MAX_SIZE: u32 = 11;
    /// `HSA_AGENT_INFO_QUEUES_MAX`: `uint32_t`.
    pub const QUEUES_MAX: u32 = 12;
    /// `HSA_AGENT_INFO_QUEUE_MIN_SIZE`: `uint32_t`.
    pub const QUEUE_MIN_SIZE: u32 = 13;
    /// `HSA_AGENT_INFO_QUEUE_MAX_SIZE`: `uint32_t`.
    pub const QUEUE_MAX_SIZE: u32 = 14;
    /// `HSA_AGENT_INFO_QUEUE_TYPE`: `hsa_queue_type32_t`.
    pub const QUEUE_TYPE: u32 = 15;
    /// `HSA_AGENT_INFO_NODE`: `uint32_t`.
    pub const NODE: u32 = 16;
    /// `HSA_AGENT_INFO_DEVICE`: `hsa_device_type_t`.
    pub const DEVICE: u32 = 17;
    /// `HSA_AGENT_INFO_CACHE_SIZE`: `uint32_t[4]`.
    pub const CACHE_SIZE: u32 = 18;
    /// `HSA_AGENT_INFO_ISA`: `hsa_isa_t`.
    pub const ISA: u32 = 19;
    /// `HSA_AGENT_INFO_FAST_F16_OPERATION`: `bool`.
    pub const FAST_F16_OPERATION: u32 = 24;
    /// `HSA_AMD_AGENT_INFO_CHIP_ID`: `uint32_t`.
    pub const AMD_CHIP_ID: u32 = 0xA000;
    /// `HSA_AMD_AGENT_INFO_CACHELINE_SIZE`: `uint32_t`.
    pub const AMD_CACHELINE_SIZE: u32 = 0xA001;
    /// `HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT`: `uint32_t`.
    pub const AMD_COMPUTE_UNIT_COUNT: u32 = 0xA002;
    /// `HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY`: `uint32_t` (MHz).
    pub const AMD_MAX_CLOCK_FREQUENCY: u32 = 0xA003;
    /// `HSA_AMD_AGENT_INFO_DRIVER_NODE_ID`: `uint32_t`.
    pub const AMD_DRIVER_NODE_ID: u32 = 0xA004;
    /// `HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS`: `uint32_t`.
    pub const AMD_MAX_ADDRESS_WATCH_POINTS: u32 = 0xA005;
    /// `HSA_AMD_AGENT_INFO_BDFID`: `uint32_t`.
    pub const AMD_BDFID: u32 = 0xA006;
    /// `HSA_AMD_AGENT_INFO_PRODUCT_NAME`: `char[64]`.
    pub const AMD_PRODUCT_NAME: u32 = 0xA009;
    /// `HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU`: `uint32_t`.
    pub const AMD_MAX_WAVES_PER_CU: u32 = 0xA00A;
    /// `HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU`: `uint32_t`.
    pub const AMD_NUM_SIMDS_PER_CU: u32 = 0xA00B;
    /// `HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES`: `uint32_t`.
    pub const AMD_NUM_SHADER_ENGINES: u32 = 0xA00C;
    /// `HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE`: `uint32_t`.
    pub const AMD_NUM_SHADER_ARRAYS_PER_SE: u32 = 0xA00D;
    /// `HSA_AMD_AGENT_INFO_DOMAIN`: `uint32_t`.
    pub const AMD_DOMAIN: u32 = 0xA00F;
    /// `HSA_AMD_AGENT_INFO_UUID`: `char[21]`.
    pub const AMD_UUID: u32 = 0xA011;
    /// `HSA_AMD_AGENT_INFO_ASIC_REVISION`: `uint32_t`.
    pub const AMD_ASIC_REVISION: u32 = 0xA012;
    /// `HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS`: `bool`.
    pub const AMD_SVM_DIRECT_HOST_ACCESS: u32 = 0xA013;
    /// `HSA_AMD_AGENT_INFO_DRIVER_UID`: `uint32_t` (ROCm 6).
    pub const AMD_DRIVER_UID: u32 = 0xA112;
    /// `HSA_AMD_AGENT_INFO_NEAREST_CPU`: `hsa_agent_t` (ROCm 6.2).
    pub const AMD_NEAREST_CPU: u32 = 0xA113;
}

/// `hsa_device_type_t` values.
pub mod device_type {
    /// `HSA_DEVICE_TYPE_CPU`.
    pub const CPU: u32 = 0;
    /// `HSA_DEVICE_TYPE_GPU`.
    pub const GPU: u32 = 1;
}

/// `hsa_isa_info_t` values.
pub mod isa_info {
    /// `HSA_ISA_INFO_NAME_LENGTH`: `uint32_t`, NUL included.
    pub const NAME_LENGTH: u32 = 0;
    /// `HSA_ISA_INFO_NAME`: `char[NAME_LENGTH]`.
    pub const NAME: u32 = 1;
    /// `HSA_ISA_INFO_MACHINE_MODELS`: `bool[2]`.
    pub const MACHINE_MODELS: u32 = 5;
    /// `HSA_ISA_INFO_PROFILES`: `bool[2]`.
    pub const PROFILES: u32 = 6;
    /// `HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES`: `bool[3]`.
    pub const DEFAULT_FLOAT_ROUNDING_MODES: u32 = 7;
    /// `HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES`: `bool[3]`.
    pub const BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES: u32 = 8;
    /// `HSA_ISA_INFO_FAST_F16_OPERATION`: `bool`.
    pub const FAST_F16_OPERATION: u32 = 9;
    /// `HSA_ISA_INFO_WORKGROUP_MAX_DIM`: `uint16_t[3]`.
    pub const WORKGROUP_MAX_DIM: u32 = 12;
    /// `HSA_ISA_INFO_WORKGROUP_MAX_SIZE`: `uint32_t`.
    pub const WORKGROUP_MAX_SIZE: u32 = 13;
    /// `HSA_ISA_INFO_GRID_MAX_DIM`: `hsa_dim3_t`.
    pub const GRID_MAX_DIM: u32 = 14;
    /// `HSA_ISA_INFO_GRID_MAX_SIZE`: `uint64_t`.
    pub const GRID_MAX_SIZE: u32 = 16;
    /// `HSA_ISA_INFO_FBARRIER_MAX_SIZE`: `uint32_t`.
    pub const FBARRIER_MAX_SIZE: u32 = 17;
}

/// `hsa_dim3_t`: grid extents.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hsa_dim3_t {
    /// x.
    pub x: u32,
    /// y.
    pub y: u32,
    /// z.
    pub z: u32,
}
const _: () = assert!(size_of::<hsa_dim3_t>() == 12 && align_of::<hsa_dim3_t>() == 4);

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

/// `hsa_symbol_kind_t` values.
pub mod symbol_kind {
    /// `HSA_SYMBOL_KIND_VARIABLE`.
    pub const VARIABLE: u32 = 0;
    /// `HSA_SYMBOL_KIND_KERNEL`.
    pub const KERNEL: u32 = 1;
}

/// `hsa_executable_symbol_info_t` values.
pub mod symbol_info {
    /// `HSA_EXECUTABLE_SYMBOL_INFO_TYPE`: `hsa_symbol_kind_t`.
    pub const TYPE: u32 = 0;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH`: `uint32_t`, no NUL.
    pub const NAME_LENGTH: u32 = 1;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_NAME`: `char[NAME_LENGTH]`, no NUL.
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
    /// `..._INFO_AGENT`: `hsa_agent_t`.
    pub const AGENT: u32 = 3;
    /// `..._INFO_LOAD_DELTA`: `int64_t`.
    pub const LOAD_DELTA: u32 = 8;
    /// `..._INFO_LOAD_BASE`: `uint64_t`.
    pub const LOAD_BASE: u32 = 9;
    /// `..._INFO_LOAD_SIZE`: `uint64_t`.
    pub const LOAD_SIZE: u32 = 10;
}

/// `HSA_EXTENSION_AMD_LOADER`.
pub const HSA_EXTENSION_AMD_LOADER: u16 = 0x201;
/// The loader extension's newest minor version (1.03) this library serves.
pub const AMD_LOADER_MINOR: u16 = 3;
/// `sizeof(hsa_ven_amd_loader_1_03_pfn_t)`: seven function pointers.
pub const AMD_LOADER_1_03_TABLE_SIZE: usize = 56;

/// `hsa_amd_memory_pool_link_info_t` (ROCm ≥ 3.x: 28 bytes).
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

/// `sizeof(hsa_amd_memory_pool_link_info_t)`.
pub const LINK_INFO_SIZE: usize = 28;

const _: () = {
    use std::mem::offset_of;
    assert!(size_of::<hsa_amd_memory_pool_link_info_t>() == LINK_INFO_SIZE);
    assert!(offset_of!(hsa_amd_memory_pool_link_info_t, max_latency) == 4);
    assert!(offset_of!(hsa_amd_memory_pool_link_info_t, min_bandwidth) == 8);
    assert!(offset_of!(hsa_amd_memory_pool_link_info_t, max_bandwidth) == 12);
    assert!(offset_of!(hsa_amd_memory_pool_link_info_t, atomic_support_32bit) == 16);
    assert!(offset_of!(hsa_amd_memory_pool_link_info_t, atomic_support_64bit) == 17);
    assert!(offset_of!(hsa_amd_memory_pool_link_info_t, coherent_support) == 18);
    assert!(offset_of!(hsa_amd_memory_pool_link_info_t, link_type) == 20);
    assert!(offset_of!(hsa_amd_memory_pool_link_info_t, numa_distance) == 24);
};

impl hsa_amd_memory_pool_link_info_t {
    /// The C bytes, field by field at the struct's offsets; the padding
    /// byte is zero (a whole-struct copy would hand C an uninitialized byte).
    pub fn to_bytes(&self) -> [u8; LINK_INFO_SIZE] {
        use std::mem::offset_of;
        let mut out = [0u8; LINK_INFO_SIZE];
        let mut put = |at: usize, bytes: &[u8]| {
            if let Some(slot) = out.get_mut(at..at + bytes.len()) {
                slot.copy_from_slice(bytes);
            }
        };
        put(
            offset_of!(Self, min_latency),
            &self.min_latency.to_ne_bytes(),
        );
        put(
            offset_of!(Self, max_latency),
            &self.max_latency.to_ne_bytes(),
        );
        put(
            offset_of!(Self, min_bandwidth),
            &self.min_bandwidth.to_ne_bytes(),
        );
        put(
            offset_of!(Self, max_bandwidth),
            &self.max_bandwidth.to_ne_bytes(),
        );
        put(
            offset_of!(Self, atomic_support_32bit),
            &[u8::from(self.atomic_support_32bit)],
        );
        put(
            offset_of!(Self, atomic_support_64bit),
            &[u8::from(self.atomic_support_64bit)],
        );
        put(
            offset_of!(Self, coherent_support),
            &[u8::from(self.coherent_support)],
        );
        put(offset_of!(Self, link_type), &self.link_type.to_ne_bytes());
        put(
            offset_of!(Self, numa_distance),
            &self.numa_distance.to_ne_bytes(),
        );
        out
    }
}

/// `hipError_t`.
pub type hipError_t = i32;
/// `hipSuccess`.
pub const hipSuccess: hipError_t = 0;
/// `hipErrorInvalidValue`.
pub const hipErrorInvalidValue: hipError_t = 1;
/// `hipErrorNoDevice`.
pub const hipErrorNoDevice: hipError_t = 100;
/// `hipErrorInvalidDevice`.
pub const hipErrorInvalidDevice: hipError_t = 101;
/// `hipErrorNotSupported`: every HIP call outside the simulator's model.
pub const hipErrorNotSupported: hipError_t = 801;

/// `hipUUID`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hipUUID {
    /// The 16 bytes.
    pub bytes: [c_char; 16],
}
const _: () = assert!(size_of::<hipUUID>() == 16);

/// `dim3` (passed by value to `hipLaunchKernel`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct dim3 {
    /// x.
    pub x: u32,
    /// y.
    pub y: u32,
    /// z.
    pub z: u32,
}
const _: () = assert!(size_of::<dim3>() == 12);

/// `hipDeviceProp_t` of HIP 5.x (`hipDeviceProp_tR0000`, 792 bytes), the
/// struct the exported `hipGetDeviceProperties` fills; offsets from the header.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct hipDeviceProp_tR0000 {
    /// `name` (offset 0).
    pub name: [c_char; 256],
    /// `totalGlobalMem` (offset 256).
    pub totalGlobalMem: usize,
    /// `sharedMemPerBlock` (offset 264).
    pub sharedMemPerBlock: usize,
    /// `regsPerBlock` (offset 272).
    pub regsPerBlock: i32,
    /// `warpSize` (offset 276).
    pub warpSize: i32,
    /// `maxThreadsPerBlock` (offset 280).
    pub maxThreadsPerBlock: i32,
    /// `maxThreadsDim` (offset 284).
    pub maxThreadsDim: [i32; 3],
    /// `maxGridSize` (offset 296).
    pub maxGridSize: [i32; 3],
    /// `clockRate` (offset 308).
    pub clockRate: i32,
    /// `memoryClockRate` (offset 312).
    pub memoryClockRate: i32,
    /// `memoryBusWidth` (offset 316).
    pub memoryBusWidth: i32,
    /// `totalConstMem` (offset 320).
    pub totalConstMem: usize,
    /// `major` (offset 328).
    pub major: i32,
    /// `minor` (offset 332).
    pub minor: i32,
    /// `multiProcessorCount` (offset 336).
    pub multiProcessorCount: i32,
    /// `l2CacheSize` (offset 340).
    pub l2CacheSize: i32,
    /// `maxThreadsPerMultiProcessor` (offset 344).
    pub maxThreadsPerMultiProcessor: i32,
    /// `computeMode` (offset 348).
    pub computeMode: i32,
    /// `clockInstructionRate` (offset 352).
    pub clockInstructionRate: i32,
    /// `arch` (offset 356).
    pub arch: u32,
    /// `concurrentKernels` (offset 360).
    pub concurrentKernels: i32,
    /// `pciDomainID` (offset 364).
    pub pciDomainID: i32,
    /// `pciBusID` (offset 368).
    pub pciBusID: i32,
    /// `pciDeviceID` (offset 372).
    pub pciDeviceID: i32,
    /// `maxSharedMemoryPerMultiProcessor` (offset 376).
    pub maxSharedMemoryPerMultiProcessor: usize,
    /// `isMultiGpuBoard` (offset 384).
    pub isMultiGpuBoard: i32,
    /// `canMapHostMemory` (offset 388).
    pub canMapHostMemory: i32,
    /// `gcnArch` (offset 392).
    pub gcnArch: i32,
    /// `gcnArchName` (offset 396).
    pub gcnArchName: [c_char; 256],
    /// `integrated` (offset 652).
    pub integrated: i32,
    /// `cooperativeLaunch` (offset 656).
    pub cooperativeLaunch: i32,
    /// `cooperativeMultiDeviceLaunch` (offset 660).
    pub cooperativeMultiDeviceLaunch: i32,
    /// `maxTexture1DLinear` (offset 664).
    pub maxTexture1DLinear: i32,
    /// `maxTexture1D` (offset 668).
    pub maxTexture1D: i32,
    /// `maxTexture2D` (offset 672).
    pub maxTexture2D: [i32; 2],
    /// `maxTexture3D` (offset 680).
    pub maxTexture3D: [i32; 3],
    /// `hdpMemFlushCntl` (offset 696).
    pub hdpMemFlushCntl: *mut u32,
    /// `hdpRegFlushCntl` (offset 704).
    pub hdpRegFlushCntl: *mut u32,
    /// `memPitch` (offset 712).
    pub memPitch: usize,
    /// `textureAlignment` (offset 720).
    pub textureAlignment: usize,
    /// `texturePitchAlignment` (offset 728).
    pub texturePitchAlignment: usize,
    /// `kernelExecTimeoutEnabled` (offset 736).
    pub kernelExecTimeoutEnabled: i32,
    /// `ECCEnabled` (offset 740).
    pub ECCEnabled: i32,
    /// `tccDriver` (offset 744).
    pub tccDriver: i32,
    /// `cooperativeMultiDeviceUnmatchedFunc` (offset 748).
    pub cooperativeMultiDeviceUnmatchedFunc: i32,
    /// `cooperativeMultiDeviceUnmatchedGridDim` (offset 752).
    pub cooperativeMultiDeviceUnmatchedGridDim: i32,
    /// `cooperativeMultiDeviceUnmatchedBlockDim` (offset 756).
    pub cooperativeMultiDeviceUnmatchedBlockDim: i32,
    /// `cooperativeMultiDeviceUnmatchedSharedMem` (offset 760).
    pub cooperativeMultiDeviceUnmatchedSharedMem: i32,
    /// `isLargeBar` (offset 764).
    pub isLargeBar: i32,
    /// `asicRevision` (offset 768).
    pub asicRevision: i32,
    /// `managedMemory` (offset 772).
    pub managedMemory: i32,
    /// `directManagedMemAccessFromHost` (offset 776).
    pub directManagedMemAccessFromHost: i32,
    /// `concurrentManagedAccess` (offset 780).
    pub concurrentManagedAccess: i32,
    /// `pageableMemoryAccess` (offset 784).
    pub pageableMemoryAccess: i32,
    /// `pageableMemoryAccessUsesHostPageTables` (offset 788).
    pub pageableMemoryAccessUsesHostPageTables: i32,
}

/// `sizeof(hipDeviceProp_t)` in HIP 5.2.
pub const HIP_DEVICE_PROP_R0000_SIZE: usize = 792;

const _: () = {
    use std::mem::offset_of;
    assert!(size_of::<hipDeviceProp_tR0000>() == HIP_DEVICE_PROP_R0000_SIZE);
    assert!(offset_of!(hipDeviceProp_tR0000, name) == 0);
    assert!(offset_of!(hipDeviceProp_tR0000, totalGlobalMem) == 256);
    assert!(offset_of!(hipDeviceProp_tR0000, sharedMemPerBlock) == 264);
    assert!(offset_of!(hipDeviceProp_tR0000, regsPerBlock) == 272);
    assert!(offset_of!(hipDeviceProp_tR0000, warpSize) == 276);
    assert!(offset_of!(hipDeviceProp_tR0000, maxThreadsPerBlock) == 280);
    assert!(offset_of!(hipDeviceProp_tR0000, maxThreadsDim) == 284);
    assert!(offset_of!(hipDeviceProp_tR0000, maxGridSize) == 296);
    assert!(offset_of!(hipDeviceProp_tR0000, clockRate) == 308);
    assert!(offset_of!(hipDeviceProp_tR0000, memoryClockRate) == 312);
    assert!(offset_of!(hipDeviceProp_tR0000, memoryBusWidth) == 316);
    assert!(offset_of!(hipDeviceProp_tR0000, totalConstMem) == 320);
    assert!(offset_of!(hipDeviceProp_tR0000, major) == 328);
    assert!(offset_of!(hipDeviceProp_tR0000, minor) == 332);
    assert!(offset_of!(hipDeviceProp_tR0000, multiProcessorCount) == 336);
    assert!(offset_of!(hipDeviceProp_tR0000, l2CacheSize) == 340);
    assert!(offset_of!(hipDeviceProp_tR0000, maxThreadsPerMultiProcessor) == 344);
    assert!(offset_of!(hipDeviceProp_tR0000, computeMode) == 348);
    assert!(offset_of!(hipDeviceProp_tR0000, clockInstructionRate) == 352);
    assert!(offset_of!(hipDeviceProp_tR0000, arch) == 356);
    assert!(offset_of!(hipDeviceProp_tR0000, concurrentKernels) == 360);
    assert!(offset_of!(hipDeviceProp_tR0000, pciDomainID) == 364);
    assert!(offset_of!(hipDeviceProp_tR0000, pciBusID) == 368);
    assert!(offset_of!(hipDeviceProp_tR0000, pciDeviceID) == 372);
    assert!(offset_of!(hipDeviceProp_tR0000, maxSharedMemoryPerMultiProcessor) == 376);
    assert!(offset_of!(hipDeviceProp_tR0000, isMultiGpuBoard) == 384);
    assert!(offset_of!(hipDeviceProp_tR0000, canMapHostMemory) == 388);
    assert!(offset_of!(hipDeviceProp_tR0000, gcnArch) == 392);
    assert!(offset_of!(hipDeviceProp_tR0000, gcnArchName) == 396);
    assert!(offset_of!(hipDeviceProp_tR0000, integrated) == 652);
    assert!(offset_of!(hipDeviceProp_tR0000, cooperativeLaunch) == 656);
    assert!(offset_of!(hipDeviceProp_tR0000, cooperativeMultiDeviceLaunch) == 660);
    assert!(offset_of!(hipDeviceProp_tR0000, maxTexture1DLinear) == 664);
    assert!(offset_of!(hipDeviceProp_tR0000, maxTexture1D) == 668);
    assert!(offset_of!(hipDeviceProp_tR0000, maxTexture2D) == 672);
    assert!(offset_of!(hipDeviceProp_tR0000, maxTexture3D) == 680);
    assert!(offset_of!(hipDeviceProp_tR0000, hdpMemFlushCntl) == 696);
    assert!(offset_of!(hipDeviceProp_tR0000, hdpRegFlushCntl) == 704);
    assert!(offset_of!(hipDeviceProp_tR0000, memPitch) == 712);
    assert!(offset_of!(hipDeviceProp_tR0000, textureAlignment) == 720);
    assert!(offset_of!(hipDeviceProp_tR0000, texturePitchAlignment) == 728);
    assert!(offset_of!(hipDeviceProp_tR0000, kernelExecTimeoutEnabled) == 736);
    assert!(offset_of!(hipDeviceProp_tR0000, ECCEnabled) == 740);
    assert!(offset_of!(hipDeviceProp_tR0000, tccDriver) == 744);
    assert!(offset_of!(hipDeviceProp_tR0000, cooperativeMultiDeviceUnmatchedFunc) == 748);
    assert!(offset_of!(hipDeviceProp_tR0000, cooperativeMultiDeviceUnmatchedGridDim) == 752);
    assert!(
        offset_of!(
            hipDeviceProp_tR0000,
            cooperativeMultiDeviceUnmatchedBlockDim
        ) == 756
    );
    assert!(
        offset_of!(
            hipDeviceProp_tR0000,
            cooperativeMultiDeviceUnmatchedSharedMem
        ) == 760
    );
    assert!(offset_of!(hipDeviceProp_tR0000, isLargeBar) == 764);
    assert!(offset_of!(hipDeviceProp_tR0000, asicRevision) == 768);
    assert!(offset_of!(hipDeviceProp_tR0000, managedMemory) == 772);
    assert!(offset_of!(hipDeviceProp_tR0000, directManagedMemAccessFromHost) == 776);
    assert!(offset_of!(hipDeviceProp_tR0000, concurrentManagedAccess) == 780);
    assert!(offset_of!(hipDeviceProp_tR0000, pageableMemoryAccess) == 784);
    assert!(offset_of!(hipDeviceProp_tR0000, pageableMemoryAccessUsesHostPageTables) == 788);
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_info_bytes_follow_the_header_offsets() {
        let hop = hsa_amd_memory_pool_link_info_t {
            min_latency: 1,
            max_latency: 2,
            min_bandwidth: 3,
            max_bandwidth: 4,
            atomic_support_32bit: true,
            atomic_support_64bit: false,
            coherent_support: true,
            link_type: 4,
            numa_distance: 20,
        };
        let b = hop.to_bytes();
        assert_eq!(&b[0..4], &1u32.to_ne_bytes());
        assert_eq!(&b[12..16], &4u32.to_ne_bytes());
        assert_eq!(&b[16..20], &[1, 0, 1, 0]);
        assert_eq!(&b[20..24], &4u32.to_ne_bytes());
        assert_eq!(&b[24..28], &20u32.to_ne_bytes());
    }
}

//! The HIP C types of `hip_runtime_api.h` (HIP 5.2): `hipDeviceProp_t`
//! in its pre-6.0 layout (every field's offset asserted at compile time,
//! checked with `offsetof` on Debian's `libamdhip64-dev` 5.2.3), `hipUUID`,
//! `dim3`, and the device and peer-to-peer attribute values.

#![allow(non_camel_case_types, non_snake_case)]

use core::ffi::c_char;

/// `hipUUID` (`char bytes[16]`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hipUUID {
    /// The 16 UUID bytes in order.
    pub bytes: [u8; 16],
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

/// `hipDeviceProp_t` as HIP 5.x lays it out (IREE's `hipDeviceProp_tR0000`):
/// 792 bytes. ROCm 6 keeps this layout behind the exported
/// `hipGetDeviceProperties` symbol and adds `hipGetDevicePropertiesR0600`
/// for its larger struct.
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
    use core::mem::offset_of;
    assert!(size_of::<hipDeviceProp_tR0000>() == HIP_DEVICE_PROP_R0000_SIZE);
    assert!(align_of::<hipDeviceProp_tR0000>() == 8);
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
impl Default for hipDeviceProp_tR0000 {
    /// All zero (NULL pointers): the state HIP expects to fill.
    fn default() -> hipDeviceProp_tR0000 {
        hipDeviceProp_tR0000 {
            name: [0; 256],
            totalGlobalMem: 0,
            sharedMemPerBlock: 0,
            regsPerBlock: 0,
            warpSize: 0,
            maxThreadsPerBlock: 0,
            maxThreadsDim: [0; 3],
            maxGridSize: [0; 3],
            clockRate: 0,
            memoryClockRate: 0,
            memoryBusWidth: 0,
            totalConstMem: 0,
            major: 0,
            minor: 0,
            multiProcessorCount: 0,
            l2CacheSize: 0,
            maxThreadsPerMultiProcessor: 0,
            computeMode: 0,
            clockInstructionRate: 0,
            arch: 0,
            concurrentKernels: 0,
            pciDomainID: 0,
            pciBusID: 0,
            pciDeviceID: 0,
            maxSharedMemoryPerMultiProcessor: 0,
            isMultiGpuBoard: 0,
            canMapHostMemory: 0,
            gcnArch: 0,
            gcnArchName: [0; 256],
            integrated: 0,
            cooperativeLaunch: 0,
            cooperativeMultiDeviceLaunch: 0,
            maxTexture1DLinear: 0,
            maxTexture1D: 0,
            maxTexture2D: [0; 2],
            maxTexture3D: [0; 3],
            hdpMemFlushCntl: core::ptr::null_mut(),
            hdpRegFlushCntl: core::ptr::null_mut(),
            memPitch: 0,
            textureAlignment: 0,
            texturePitchAlignment: 0,
            kernelExecTimeoutEnabled: 0,
            ECCEnabled: 0,
            tccDriver: 0,
            cooperativeMultiDeviceUnmatchedFunc: 0,
            cooperativeMultiDeviceUnmatchedGridDim: 0,
            cooperativeMultiDeviceUnmatchedBlockDim: 0,
            cooperativeMultiDeviceUnmatchedSharedMem: 0,
            isLargeBar: 0,
            asicRevision: 0,
            managedMemory: 0,
            directManagedMemAccessFromHost: 0,
            concurrentManagedAccess: 0,
            pageableMemoryAccess: 0,
            pageableMemoryAccessUsesHostPageTables: 0,
        }
    }
}

macro_rules! hip_attributes {
    ($($variant:ident = $raw:literal, $c_name:ident, $doc:literal;)*) => {
        /// `hipDeviceAttribute_t` values `hipDeviceGetAttribute` takes (the
        /// values of ROCm's `hip_runtime_api.h`, stable since ROCm 5).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum HipDeviceAttribute {
            $(
                #[doc = concat!("`", stringify!($c_name), "`", $doc)]
                $variant,
            )*
        }

        impl HipDeviceAttribute {
            /// Every attribute listed here.
            pub const ALL: &'static [HipDeviceAttribute] = &[$(HipDeviceAttribute::$variant),*];

            /// The C value.
            pub const fn raw(self) -> i32 {
                match self {
                    $(HipDeviceAttribute::$variant => $raw,)*
                }
            }

            /// The C enumerator, e.g. `hipDeviceAttributeWarpSize`.
            pub const fn name(self) -> &'static str {
                match self {
                    $(HipDeviceAttribute::$variant => stringify!($c_name),)*
                }
            }

            /// The attribute for a C value, if it is listed here.
            pub const fn from_raw(raw: i32) -> Option<HipDeviceAttribute> {
                match raw {
                    $($raw => Some(HipDeviceAttribute::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

hip_attributes! {
    EccEnabled = 0, hipDeviceAttributeEccEnabled, ".";
    CanMapHostMemory = 3, hipDeviceAttributeCanMapHostMemory, ".";
    ClockRate = 5, hipDeviceAttributeClockRate, "(kHz).";
    ConcurrentKernels = 8, hipDeviceAttributeConcurrentKernels, ".";
    ConcurrentManagedAccess = 9, hipDeviceAttributeConcurrentManagedAccess, ".";
    CooperativeLaunch = 10, hipDeviceAttributeCooperativeLaunch, ".";
    DirectManagedMemAccessFromHost = 13, hipDeviceAttributeDirectManagedMemAccessFromHost, ".";
    Integrated = 16, hipDeviceAttributeIntegrated, ".";
    IsMultiGpuBoard = 17, hipDeviceAttributeIsMultiGpuBoard, ".";
    L2CacheSize = 19, hipDeviceAttributeL2CacheSize, "(bytes).";
    ComputeCapabilityMajor = 23, hipDeviceAttributeComputeCapabilityMajor, ".";
    ManagedMemory = 24, hipDeviceAttributeManagedMemory, ".";
    MaxBlockDimX = 26, hipDeviceAttributeMaxBlockDimX, ".";
    MaxBlockDimY = 27, hipDeviceAttributeMaxBlockDimY, ".";
    MaxBlockDimZ = 28, hipDeviceAttributeMaxBlockDimZ, ".";
    MaxGridDimX = 29, hipDeviceAttributeMaxGridDimX, ".";
    MaxGridDimY = 30, hipDeviceAttributeMaxGridDimY, ".";
    MaxGridDimZ = 31, hipDeviceAttributeMaxGridDimZ, ".";
    MaxThreadsPerBlock = 56, hipDeviceAttributeMaxThreadsPerBlock, ".";
    MaxThreadsPerMultiProcessor = 57, hipDeviceAttributeMaxThreadsPerMultiProcessor, ".";
    MemoryBusWidth = 59, hipDeviceAttributeMemoryBusWidth, "(bits).";
    MemoryClockRate = 60, hipDeviceAttributeMemoryClockRate, "(kHz).";
    ComputeCapabilityMinor = 61, hipDeviceAttributeComputeCapabilityMinor, ".";
    MultiprocessorCount = 63, hipDeviceAttributeMultiprocessorCount, ".";
    PciBusId = 67, hipDeviceAttributePciBusId, ".";
    PciDeviceId = 68, hipDeviceAttributePciDeviceId, ".";
    PciDomainId = 69, hipDeviceAttributePciDomainID, ".";
    MaxRegistersPerBlock = 71, hipDeviceAttributeMaxRegistersPerBlock, ".";
    MaxSharedMemoryPerBlock = 74, hipDeviceAttributeMaxSharedMemoryPerBlock, "(bytes).";
    TotalConstantMemory = 83, hipDeviceAttributeTotalConstantMemory, "(bytes).";
    UnifiedAddressing = 85, hipDeviceAttributeUnifiedAddressing, ".";
    WarpSize = 87, hipDeviceAttributeWarpSize, ".";
    MemoryPoolsSupported = 88, hipDeviceAttributeMemoryPoolsSupported, ".";
}

/// `hipDeviceP2PAttr` (`hipDeviceGetP2PAttribute`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HipP2pAttribute {
    /// `hipDevP2PAttrPerformanceRank` (0): relative performance of the link (0 = best).
    PerformanceRank,
    /// `hipDevP2PAttrAccessSupported` (1).
    AccessSupported,
    /// `hipDevP2PAttrNativeAtomicSupported` (2).
    NativeAtomicSupported,
    /// `hipDevP2PAttrHipArrayAccessSupported` (3).
    HipArrayAccessSupported,
}

impl HipP2pAttribute {
    /// The C value.
    pub const fn raw(self) -> i32 {
        match self {
            HipP2pAttribute::PerformanceRank => 0,
            HipP2pAttribute::AccessSupported => 1,
            HipP2pAttribute::NativeAtomicSupported => 2,
            HipP2pAttribute::HipArrayAccessSupported => 3,
        }
    }

    /// The attribute for a C value.
    pub const fn from_raw(raw: i32) -> Option<HipP2pAttribute> {
        match raw {
            0 => Some(HipP2pAttribute::PerformanceRank),
            1 => Some(HipP2pAttribute::AccessSupported),
            2 => Some(HipP2pAttribute::NativeAtomicSupported),
            3 => Some(HipP2pAttribute::HipArrayAccessSupported),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_values_round_trip() {
        for &attribute in HipDeviceAttribute::ALL {
            assert_eq!(
                HipDeviceAttribute::from_raw(attribute.raw()),
                Some(attribute)
            );
        }
        assert_eq!(HipDeviceAttribute::WarpSize.raw(), 87);
        assert_eq!(HipDeviceAttribute::ComputeCapabilityMinor.raw(), 61);
        for raw in 0..4 {
            assert_eq!(
                HipP2pAttribute::from_raw(raw).map(HipP2pAttribute::raw),
                Some(raw)
            );
        }
    }
}

/// The fields of `hipDeviceProp_t` (the pre-6.0 `R0000` layout IREE reads)
/// that the HAL reads and the simulator answers, as Rust values (the C
/// struct is [`hipDeviceProp_tR0000`]). Units are HIP's: bytes, kHz, bits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HipDeviceProps {
    /// `name`: the marketing name, e.g. `AMD Instinct MI300X`.
    pub name: alloc::string::String,
    /// `gcnArchName`: the target ID, e.g. `gfx942:sramecc+:xnack-`.
    pub gcn_arch_name: alloc::string::String,
    /// `totalGlobalMem` (bytes).
    pub total_global_mem: u64,
    /// `sharedMemPerBlock` (bytes of LDS per workgroup).
    pub shared_mem_per_block: u64,
    /// `regsPerBlock`: 32-bit registers per block.
    pub regs_per_block: i32,
    /// `warpSize` (wavefront size: 64 on CDNA, 32 on RDNA).
    pub warp_size: i32,
    /// `maxThreadsPerBlock`.
    pub max_threads_per_block: i32,
    /// `maxThreadsDim[3]`.
    pub max_threads_dim: [i32; 3],
    /// `maxGridSize[3]`.
    pub max_grid_size: [i32; 3],
    /// `clockRate` (kHz).
    pub clock_rate: i32,
    /// `memoryClockRate` (kHz).
    pub memory_clock_rate: i32,
    /// `memoryBusWidth` (bits).
    pub memory_bus_width: i32,
    /// `totalConstMem` (bytes).
    pub total_const_mem: u64,
    /// `major` compute capability (HIP's approximation; 9 for gfx9xx).
    pub major: i32,
    /// `minor` compute capability.
    pub minor: i32,
    /// `multiProcessorCount`: compute units.
    pub multi_processor_count: i32,
    /// `l2CacheSize` (bytes).
    pub l2_cache_size: i32,
    /// `maxThreadsPerMultiProcessor`.
    pub max_threads_per_multi_processor: i32,
    /// `pciDomainID`.
    pub pci_domain_id: i32,
    /// `pciBusID`.
    pub pci_bus_id: i32,
    /// `pciDeviceID`.
    pub pci_device_id: i32,
    /// `isMultiGpuBoard`.
    pub is_multi_gpu_board: i32,
    /// `integrated`: 1 for an APU.
    pub integrated: i32,
    /// `managedMemory`: managed (unified) allocations supported.
    pub managed_memory: i32,
    /// `ECCEnabled`.
    pub ecc_enabled: i32,
}

//! The C ABI of `libamdhip64` (`hip_runtime_api.h` of HIP 5.2): the
//! device-properties struct the driver reads, with every field's offset
//! asserted at compile time against the header (`offsetof` on Debian's
//! `libamdhip64-dev` 5.2.3), and the error codes the backend names.

#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]

use std::ffi::c_char;

/// `hipError_t`.
pub type hipError_t = i32;
/// `hipSuccess`.
pub const hipSuccess: hipError_t = 0;
/// `hipErrorInvalidValue`.
pub const hipErrorInvalidValue: hipError_t = 1;
/// `hipErrorNoDevice`: what `hipGetDeviceCount` returns without a GPU.
pub const hipErrorNoDevice: hipError_t = 100;
/// `hipErrorInvalidDevice`: what `hipInit` returns without a GPU.
pub const hipErrorInvalidDevice: hipError_t = 101;
/// `hipErrorNotSupported`.
pub const hipErrorNotSupported: hipError_t = 801;
/// `hipErrorUnknown`.
pub const hipErrorUnknown: hipError_t = 999;

/// `hipUUID` (`char bytes[16]`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hipUUID {
    /// The 16 UUID bytes in order.
    pub bytes: [u8; 16],
}
const _: () = assert!(size_of::<hipUUID>() == 16);

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
    use std::mem::offset_of;
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
impl hipDeviceProp_tR0000 {
    /// An all-zero struct, the state HIP expects to fill.
    pub fn zeroed() -> hipDeviceProp_tR0000 {
        // SAFETY: every field is an integer, a byte array or a raw pointer,
        // for all of which the all-zero bit pattern is a valid value.
        unsafe { std::mem::zeroed() }
    }
}

/// A NUL-terminated `char[N]` field as text (lossy; stops at the first NUL).
pub fn c_chars_to_string(chars: &[c_char]) -> String {
    let bytes: Vec<u8> = chars
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

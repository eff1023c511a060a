//! `hipDeviceProp_t` as ROCm 6 lays it out (`hipDeviceProp_tR0600`, 1472
//! bytes): what `hipGetDevicePropertiesR0600` fills, and what a client
//! compiled against ROCm 6's headers reads, since `hip_runtime_api.h`
//! there says `#define hipGetDeviceProperties hipGetDevicePropertiesR0600`.
//!
//! Transcribed from ROCm/HIP's `include/hip/hip_runtime_api.h` at commit
//! c5e11fcac8249ce4f7e70157588ff9661a870b59 (ROCm 6.3.0, `VERSION` 6.3.0);
//! every offset below was printed by `offsetof` compiled against that
//! header (with ROCm/clr's `amd_detail` headers) and equals the offsets of
//! ROCm 7.1's header that the `triton` wheel bundles; `tests/headers.rs`
//! compiles every offset against the ROCm 6 HIP headers IREE vendors
//! (`third_party/hip-build-deps`). `arch`
//! (`hipDeviceArch_t`, 32 one-bit flags) is its `unsigned` word.

#![allow(non_camel_case_types, non_snake_case)]

use core::ffi::c_char;

use crate::hip_types::hipUUID;

/// `sizeof(hipDeviceProp_tR0600)`.
pub const HIP_DEVICE_PROP_R0600_SIZE: usize = 1472;

/// `hipDeviceProp_tR0600` (ROCm 6's `hipDeviceProp_t`); the comments are
/// the header's.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct hipDeviceProp_tR0600 {
    /// `name` (offset 0): Device name.
    pub name: [c_char; 256],
    /// `uuid` (offset 256): UUID of a device.
    pub uuid: hipUUID,
    /// `luid` (offset 272): 8-byte unique identifier. Only valid on windows.
    pub luid: [c_char; 8],
    /// `luidDeviceNodeMask` (offset 280): LUID node mask.
    pub luidDeviceNodeMask: u32,
    /// `totalGlobalMem` (offset 288): Size of global memory region (in bytes).
    pub totalGlobalMem: usize,
    /// `sharedMemPerBlock` (offset 296): Size of shared memory per block (in bytes).
    pub sharedMemPerBlock: usize,
    /// `regsPerBlock` (offset 304): Registers per block.
    pub regsPerBlock: i32,
    /// `warpSize` (offset 308): Warp size.
    pub warpSize: i32,
    /// `memPitch` (offset 312): Maximum pitch in bytes allowed by memory copies  pitched memory.
    pub memPitch: usize,
    /// `maxThreadsPerBlock` (offset 320): Max work items per work group or workgroup max size.
    pub maxThreadsPerBlock: i32,
    /// `maxThreadsDim` (offset 324): Max number of threads in each dimension (XYZ) of a block.
    pub maxThreadsDim: [i32; 3],
    /// `maxGridSize` (offset 336): Max grid dimensions (XYZ).
    pub maxGridSize: [i32; 3],
    /// `clockRate` (offset 348): Max clock frequency of the multiProcessors in khz.
    pub clockRate: i32,
    /// `totalConstMem` (offset 352): Size of shared constant memory region on the device  (in bytes).
    pub totalConstMem: usize,
    /// `major` (offset 360): Major compute capability. On HCC, this is an approximation and features may  differ from CUDA CC. See the arch feature flags for portable ways to query  feature caps.
    pub major: i32,
    /// `minor` (offset 364): Minor compute capability. On HCC, this is an approximation and features may  differ from CUDA CC. See the arch feature flags for portable ways to query  feature caps.
    pub minor: i32,
    /// `textureAlignment` (offset 368): Alignment requirement for textures.
    pub textureAlignment: usize,
    /// `texturePitchAlignment` (offset 376): Pitch alignment requirement for texture references bound to.
    pub texturePitchAlignment: usize,
    /// `deviceOverlap` (offset 384): Deprecated. Use asyncEngineCount instead.
    pub deviceOverlap: i32,
    /// `multiProcessorCount` (offset 388): Number of multi-processors (compute units).
    pub multiProcessorCount: i32,
    /// `kernelExecTimeoutEnabled` (offset 392): Run time limit for kernels executed on the device.
    pub kernelExecTimeoutEnabled: i32,
    /// `integrated` (offset 396): APU vs dGPU.
    pub integrated: i32,
    /// `canMapHostMemory` (offset 400): Check whether HIP can map host memory.
    pub canMapHostMemory: i32,
    /// `computeMode` (offset 404): Compute mode.
    pub computeMode: i32,
    /// `maxTexture1D` (offset 408): Maximum number of elements in 1D images.
    pub maxTexture1D: i32,
    /// `maxTexture1DMipmap` (offset 412): Maximum 1D mipmap texture size.
    pub maxTexture1DMipmap: i32,
    /// `maxTexture1DLinear` (offset 416): Maximum size for 1D textures bound to linear memory.
    pub maxTexture1DLinear: i32,
    /// `maxTexture2D` (offset 420): Maximum dimensions (width, height) of 2D images, in image elements.
    pub maxTexture2D: [i32; 2],
    /// `maxTexture2DMipmap` (offset 428): Maximum number of elements in 2D array mipmap of images.
    pub maxTexture2DMipmap: [i32; 2],
    /// `maxTexture2DLinear` (offset 436): Maximum 2D tex dimensions if tex are bound to pitched memory.
    pub maxTexture2DLinear: [i32; 3],
    /// `maxTexture2DGather` (offset 448): Maximum 2D tex dimensions if gather has to be performed.
    pub maxTexture2DGather: [i32; 2],
    /// `maxTexture3D` (offset 456): Maximum dimensions (width, height, depth) of 3D images, in image  elements.
    pub maxTexture3D: [i32; 3],
    /// `maxTexture3DAlt` (offset 468): Maximum alternate 3D texture dims.
    pub maxTexture3DAlt: [i32; 3],
    /// `maxTextureCubemap` (offset 480): Maximum cubemap texture dims.
    pub maxTextureCubemap: i32,
    /// `maxTexture1DLayered` (offset 484): Maximum number of elements in 1D array images.
    pub maxTexture1DLayered: [i32; 2],
    /// `maxTexture2DLayered` (offset 492): Maximum number of elements in 2D array images.
    pub maxTexture2DLayered: [i32; 3],
    /// `maxTextureCubemapLayered` (offset 504): Maximum cubemaps layered texture dims.
    pub maxTextureCubemapLayered: [i32; 2],
    /// `maxSurface1D` (offset 512): Maximum 1D surface size.
    pub maxSurface1D: i32,
    /// `maxSurface2D` (offset 516): Maximum 2D surface size.
    pub maxSurface2D: [i32; 2],
    /// `maxSurface3D` (offset 524): Maximum 3D surface size.
    pub maxSurface3D: [i32; 3],
    /// `maxSurface1DLayered` (offset 536): Maximum 1D layered surface size.
    pub maxSurface1DLayered: [i32; 2],
    /// `maxSurface2DLayered` (offset 544): Maximum 2D layared surface size.
    pub maxSurface2DLayered: [i32; 3],
    /// `maxSurfaceCubemap` (offset 556): Maximum cubemap surface size.
    pub maxSurfaceCubemap: i32,
    /// `maxSurfaceCubemapLayered` (offset 560): Maximum cubemap layered surface size.
    pub maxSurfaceCubemapLayered: [i32; 2],
    /// `surfaceAlignment` (offset 568): Alignment requirement for surface.
    pub surfaceAlignment: usize,
    /// `concurrentKernels` (offset 576): Device can possibly execute multiple kernels concurrently.
    pub concurrentKernels: i32,
    /// `ECCEnabled` (offset 580): Device has ECC support enabled.
    pub ECCEnabled: i32,
    /// `pciBusID` (offset 584): PCI Bus ID.
    pub pciBusID: i32,
    /// `pciDeviceID` (offset 588): PCI Device ID.
    pub pciDeviceID: i32,
    /// `pciDomainID` (offset 592): PCI Domain ID.
    pub pciDomainID: i32,
    /// `tccDriver` (offset 596): 1:If device is Tesla device using TCC driver, else 0.
    pub tccDriver: i32,
    /// `asyncEngineCount` (offset 600): Number of async engines.
    pub asyncEngineCount: i32,
    /// `unifiedAddressing` (offset 604): Does device and host share unified address space.
    pub unifiedAddressing: i32,
    /// `memoryClockRate` (offset 608): Max global memory clock frequency in khz.
    pub memoryClockRate: i32,
    /// `memoryBusWidth` (offset 612): Global memory bus width in bits.
    pub memoryBusWidth: i32,
    /// `l2CacheSize` (offset 616): L2 cache size.
    pub l2CacheSize: i32,
    /// `persistingL2CacheMaxSize` (offset 620): Device's max L2 persisting lines in bytes.
    pub persistingL2CacheMaxSize: i32,
    /// `maxThreadsPerMultiProcessor` (offset 624): Maximum resident threads per multi-processor.
    pub maxThreadsPerMultiProcessor: i32,
    /// `streamPrioritiesSupported` (offset 628): Device supports stream priority.
    pub streamPrioritiesSupported: i32,
    /// `globalL1CacheSupported` (offset 632): Indicates globals are cached in L1.
    pub globalL1CacheSupported: i32,
    /// `localL1CacheSupported` (offset 636): Locals are cahced in L1.
    pub localL1CacheSupported: i32,
    /// `sharedMemPerMultiprocessor` (offset 640): Amount of shared memory available per multiprocessor.
    pub sharedMemPerMultiprocessor: usize,
    /// `regsPerMultiprocessor` (offset 648): registers available per multiprocessor.
    pub regsPerMultiprocessor: i32,
    /// `managedMemory` (offset 652): Device supports allocating managed memory on this system.
    pub managedMemory: i32,
    /// `isMultiGpuBoard` (offset 656): 1 if device is on a multi-GPU board, 0 if not.
    pub isMultiGpuBoard: i32,
    /// `multiGpuBoardGroupID` (offset 660): Unique identifier for a group of devices on same multiboard GPU.
    pub multiGpuBoardGroupID: i32,
    /// `hostNativeAtomicSupported` (offset 664): Link between host and device supports native atomics.
    pub hostNativeAtomicSupported: i32,
    /// `singleToDoublePrecisionPerfRatio` (offset 668): Deprecated. CUDA only.
    pub singleToDoublePrecisionPerfRatio: i32,
    /// `pageableMemoryAccess` (offset 672): Device supports coherently accessing pageable memory  without calling hipHostRegister on it.
    pub pageableMemoryAccess: i32,
    /// `concurrentManagedAccess` (offset 676): Device can coherently access managed memory concurrently with  the CPU.
    pub concurrentManagedAccess: i32,
    /// `computePreemptionSupported` (offset 680): Is compute preemption supported on the device.
    pub computePreemptionSupported: i32,
    /// `canUseHostPointerForRegisteredMem` (offset 684): Device can access host registered memory with same  address as the host.
    pub canUseHostPointerForRegisteredMem: i32,
    /// `cooperativeLaunch` (offset 688): HIP device supports cooperative launch.
    pub cooperativeLaunch: i32,
    /// `cooperativeMultiDeviceLaunch` (offset 692): HIP device supports cooperative launch on multiple  devices.
    pub cooperativeMultiDeviceLaunch: i32,
    /// `sharedMemPerBlockOptin` (offset 696): Per device m ax shared mem per block usable by special opt in.
    pub sharedMemPerBlockOptin: usize,
    /// `pageableMemoryAccessUsesHostPageTables` (offset 704): Device accesses pageable memory via the host's  page tables.
    pub pageableMemoryAccessUsesHostPageTables: i32,
    /// `directManagedMemAccessFromHost` (offset 708): Host can directly access managed memory on the device  without migration.
    pub directManagedMemAccessFromHost: i32,
    /// `maxBlocksPerMultiProcessor` (offset 712): Max number of blocks on CU.
    pub maxBlocksPerMultiProcessor: i32,
    /// `accessPolicyMaxWindowSize` (offset 716): Max value of access policy window.
    pub accessPolicyMaxWindowSize: i32,
    /// `reservedSharedMemPerBlock` (offset 720): Shared memory reserved by driver per block.
    pub reservedSharedMemPerBlock: usize,
    /// `hostRegisterSupported` (offset 728): Device supports hipHostRegister.
    pub hostRegisterSupported: i32,
    /// `sparseHipArraySupported` (offset 732): Indicates if device supports sparse hip arrays.
    pub sparseHipArraySupported: i32,
    /// `hostRegisterReadOnlySupported` (offset 736): Device supports using the hipHostRegisterReadOnly flag  with hipHostRegistger.
    pub hostRegisterReadOnlySupported: i32,
    /// `timelineSemaphoreInteropSupported` (offset 740): Indicates external timeline semaphore support.
    pub timelineSemaphoreInteropSupported: i32,
    /// `memoryPoolsSupported` (offset 744): Indicates if device supports hipMallocAsync and hipMemPool APIs.
    pub memoryPoolsSupported: i32,
    /// `gpuDirectRDMASupported` (offset 748): Indicates device support of RDMA APIs.
    pub gpuDirectRDMASupported: i32,
    /// `gpuDirectRDMAFlushWritesOptions` (offset 752): Bitmask to be interpreted according to  hipFlushGPUDirectRDMAWritesOptions.
    pub gpuDirectRDMAFlushWritesOptions: u32,
    /// `gpuDirectRDMAWritesOrdering` (offset 756): value of hipGPUDirectRDMAWritesOrdering.
    pub gpuDirectRDMAWritesOrdering: i32,
    /// `memoryPoolSupportedHandleTypes` (offset 760): Bitmask of handle types support with mempool based IPC.
    pub memoryPoolSupportedHandleTypes: u32,
    /// `deferredMappingHipArraySupported` (offset 764): Device supports deferred mapping HIP arrays and HIP  mipmapped arrays.
    pub deferredMappingHipArraySupported: i32,
    /// `ipcEventSupported` (offset 768): Device supports IPC events.
    pub ipcEventSupported: i32,
    /// `clusterLaunch` (offset 772): Device supports cluster launch.
    pub clusterLaunch: i32,
    /// `unifiedFunctionPointers` (offset 776): Indicates device supports unified function pointers.
    pub unifiedFunctionPointers: i32,
    /// `reserved` (offset 780): CUDA Reserved.
    pub reserved: [i32; 63],
    /// `hipReserved` (offset 1032): Reserved for adding new entries for HIP/CUDA.
    pub hipReserved: [i32; 32],
    /// `gcnArchName` (offset 1160): AMD GCN Arch Name. HIP Only.
    pub gcnArchName: [c_char; 256],
    /// `maxSharedMemoryPerMultiProcessor` (offset 1416): Maximum Shared Memory Per CU. HIP Only.
    pub maxSharedMemoryPerMultiProcessor: usize,
    /// `clockInstructionRate` (offset 1424): Frequency in khz of the timer used by the device-side "clock*"  instructions. New for HIP.
    pub clockInstructionRate: i32,
    /// `arch` (offset 1428): Architectural feature flags. New for HIP.
    pub arch: u32,
    /// `hdpMemFlushCntl` (offset 1432): Addres of HDP_MEM_COHERENCY_FLUSH_CNTL register.
    pub hdpMemFlushCntl: *mut u32,
    /// `hdpRegFlushCntl` (offset 1440): Addres of HDP_REG_COHERENCY_FLUSH_CNTL register.
    pub hdpRegFlushCntl: *mut u32,
    /// `cooperativeMultiDeviceUnmatchedFunc` (offset 1448): HIP device supports cooperative launch on  multiple devices with unmatched functions.
    pub cooperativeMultiDeviceUnmatchedFunc: i32,
    /// `cooperativeMultiDeviceUnmatchedGridDim` (offset 1452): HIP device supports cooperative launch on  multiple devices with unmatched grid dimensions.
    pub cooperativeMultiDeviceUnmatchedGridDim: i32,
    /// `cooperativeMultiDeviceUnmatchedBlockDim` (offset 1456): HIP device supports cooperative launch on  multiple devices with unmatched block dimensions.
    pub cooperativeMultiDeviceUnmatchedBlockDim: i32,
    /// `cooperativeMultiDeviceUnmatchedSharedMem` (offset 1460): HIP device supports cooperative launch on  multiple devices with unmatched shared memories.
    pub cooperativeMultiDeviceUnmatchedSharedMem: i32,
    /// `isLargeBar` (offset 1464): 1: if it is a large PCI bar device, else 0.
    pub isLargeBar: i32,
    /// `asicRevision` (offset 1468): Revision of the GPU in this device.
    pub asicRevision: i32,
}

const _: () = {
    use core::mem::offset_of;
    assert!(size_of::<hipDeviceProp_tR0600>() == HIP_DEVICE_PROP_R0600_SIZE);
    assert!(align_of::<hipDeviceProp_tR0600>() == 8);
    assert!(offset_of!(hipDeviceProp_tR0600, name) == 0);
    assert!(offset_of!(hipDeviceProp_tR0600, uuid) == 256);
    assert!(offset_of!(hipDeviceProp_tR0600, luid) == 272);
    assert!(offset_of!(hipDeviceProp_tR0600, luidDeviceNodeMask) == 280);
    assert!(offset_of!(hipDeviceProp_tR0600, totalGlobalMem) == 288);
    assert!(offset_of!(hipDeviceProp_tR0600, sharedMemPerBlock) == 296);
    assert!(offset_of!(hipDeviceProp_tR0600, regsPerBlock) == 304);
    assert!(offset_of!(hipDeviceProp_tR0600, warpSize) == 308);
    assert!(offset_of!(hipDeviceProp_tR0600, memPitch) == 312);
    assert!(offset_of!(hipDeviceProp_tR0600, maxThreadsPerBlock) == 320);
    assert!(offset_of!(hipDeviceProp_tR0600, maxThreadsDim) == 324);
    assert!(offset_of!(hipDeviceProp_tR0600, maxGridSize) == 336);
    assert!(offset_of!(hipDeviceProp_tR0600, clockRate) == 348);
    assert!(offset_of!(hipDeviceProp_tR0600, totalConstMem) == 352);
    assert!(offset_of!(hipDeviceProp_tR0600, major) == 360);
    assert!(offset_of!(hipDeviceProp_tR0600, minor) == 364);
    assert!(offset_of!(hipDeviceProp_tR0600, textureAlignment) == 368);
    assert!(offset_of!(hipDeviceProp_tR0600, texturePitchAlignment) == 376);
    assert!(offset_of!(hipDeviceProp_tR0600, deviceOverlap) == 384);
    assert!(offset_of!(hipDeviceProp_tR0600, multiProcessorCount) == 388);
    assert!(offset_of!(hipDeviceProp_tR0600, kernelExecTimeoutEnabled) == 392);
    assert!(offset_of!(hipDeviceProp_tR0600, integrated) == 396);
    assert!(offset_of!(hipDeviceProp_tR0600, canMapHostMemory) == 400);
    assert!(offset_of!(hipDeviceProp_tR0600, computeMode) == 404);
    assert!(offset_of!(hipDeviceProp_tR0600, maxTexture1D) == 408);
    assert!(offset_of!(hipDeviceProp_tR0600, maxTexture1DMipmap) == 412);
    assert!(offset_of!(hipDeviceProp_tR0600, maxTexture1DLinear) == 416);
    assert!(offset_of!(hipDeviceProp_tR0600, maxTexture2D) == 420);
    assert!(offset_of!(hipDeviceProp_tR0600, maxTexture2DMipmap) == 428);
    assert!(offset_of!(hipDeviceProp_tR0600, maxTexture2DLinear) == 436);
    assert!(offset_of!(hipDeviceProp_tR0600, maxTexture2DGather) == 448);
    assert!(offset_of!(hipDeviceProp_tR0600, maxTexture3D) == 456);
    assert!(offset_of!(hipDeviceProp_tR0600, maxTexture3DAlt) == 468);
    assert!(offset_of!(hipDeviceProp_tR0600, maxTextureCubemap) == 480);
    assert!(offset_of!(hipDeviceProp_tR0600, maxTexture1DLayered) == 484);
    assert!(offset_of!(hipDeviceProp_tR0600, maxTexture2DLayered) == 492);
    assert!(offset_of!(hipDeviceProp_tR0600, maxTextureCubemapLayered) == 504);
    assert!(offset_of!(hipDeviceProp_tR0600, maxSurface1D) == 512);
    assert!(offset_of!(hipDeviceProp_tR0600, maxSurface2D) == 516);
    assert!(offset_of!(hipDeviceProp_tR0600, maxSurface3D) == 524);
    assert!(offset_of!(hipDeviceProp_tR0600, maxSurface1DLayered) == 536);
    assert!(offset_of!(hipDeviceProp_tR0600, maxSurface2DLayered) == 544);
    assert!(offset_of!(hipDeviceProp_tR0600, maxSurfaceCubemap) == 556);
    assert!(offset_of!(hipDeviceProp_tR0600, maxSurfaceCubemapLayered) == 560);
    assert!(offset_of!(hipDeviceProp_tR0600, surfaceAlignment) == 568);
    assert!(offset_of!(hipDeviceProp_tR0600, concurrentKernels) == 576);
    assert!(offset_of!(hipDeviceProp_tR0600, ECCEnabled) == 580);
    assert!(offset_of!(hipDeviceProp_tR0600, pciBusID) == 584);
    assert!(offset_of!(hipDeviceProp_tR0600, pciDeviceID) == 588);
    assert!(offset_of!(hipDeviceProp_tR0600, pciDomainID) == 592);
    assert!(offset_of!(hipDeviceProp_tR0600, tccDriver) == 596);
    assert!(offset_of!(hipDeviceProp_tR0600, asyncEngineCount) == 600);
    assert!(offset_of!(hipDeviceProp_tR0600, unifiedAddressing) == 604);
    assert!(offset_of!(hipDeviceProp_tR0600, memoryClockRate) == 608);
    assert!(offset_of!(hipDeviceProp_tR0600, memoryBusWidth) == 612);
    assert!(offset_of!(hipDeviceProp_tR0600, l2CacheSize) == 616);
    assert!(offset_of!(hipDeviceProp_tR0600, persistingL2CacheMaxSize) == 620);
    assert!(offset_of!(hipDeviceProp_tR0600, maxThreadsPerMultiProcessor) == 624);
    assert!(offset_of!(hipDeviceProp_tR0600, streamPrioritiesSupported) == 628);
    assert!(offset_of!(hipDeviceProp_tR0600, globalL1CacheSupported) == 632);
    assert!(offset_of!(hipDeviceProp_tR0600, localL1CacheSupported) == 636);
    assert!(offset_of!(hipDeviceProp_tR0600, sharedMemPerMultiprocessor) == 640);
    assert!(offset_of!(hipDeviceProp_tR0600, regsPerMultiprocessor) == 648);
    assert!(offset_of!(hipDeviceProp_tR0600, managedMemory) == 652);
    assert!(offset_of!(hipDeviceProp_tR0600, isMultiGpuBoard) == 656);
    assert!(offset_of!(hipDeviceProp_tR0600, multiGpuBoardGroupID) == 660);
    assert!(offset_of!(hipDeviceProp_tR0600, hostNativeAtomicSupported) == 664);
    assert!(offset_of!(hipDeviceProp_tR0600, singleToDoublePrecisionPerfRatio) == 668);
    assert!(offset_of!(hipDeviceProp_tR0600, pageableMemoryAccess) == 672);
    assert!(offset_of!(hipDeviceProp_tR0600, concurrentManagedAccess) == 676);
    assert!(offset_of!(hipDeviceProp_tR0600, computePreemptionSupported) == 680);
    assert!(offset_of!(hipDeviceProp_tR0600, canUseHostPointerForRegisteredMem) == 684);
    assert!(offset_of!(hipDeviceProp_tR0600, cooperativeLaunch) == 688);
    assert!(offset_of!(hipDeviceProp_tR0600, cooperativeMultiDeviceLaunch) == 692);
    assert!(offset_of!(hipDeviceProp_tR0600, sharedMemPerBlockOptin) == 696);
    assert!(offset_of!(hipDeviceProp_tR0600, pageableMemoryAccessUsesHostPageTables) == 704);
    assert!(offset_of!(hipDeviceProp_tR0600, directManagedMemAccessFromHost) == 708);
    assert!(offset_of!(hipDeviceProp_tR0600, maxBlocksPerMultiProcessor) == 712);
    assert!(offset_of!(hipDeviceProp_tR0600, accessPolicyMaxWindowSize) == 716);
    assert!(offset_of!(hipDeviceProp_tR0600, reservedSharedMemPerBlock) == 720);
    assert!(offset_of!(hipDeviceProp_tR0600, hostRegisterSupported) == 728);
    assert!(offset_of!(hipDeviceProp_tR0600, sparseHipArraySupported) == 732);
    assert!(offset_of!(hipDeviceProp_tR0600, hostRegisterReadOnlySupported) == 736);
    assert!(offset_of!(hipDeviceProp_tR0600, timelineSemaphoreInteropSupported) == 740);
    assert!(offset_of!(hipDeviceProp_tR0600, memoryPoolsSupported) == 744);
    assert!(offset_of!(hipDeviceProp_tR0600, gpuDirectRDMASupported) == 748);
    assert!(offset_of!(hipDeviceProp_tR0600, gpuDirectRDMAFlushWritesOptions) == 752);
    assert!(offset_of!(hipDeviceProp_tR0600, gpuDirectRDMAWritesOrdering) == 756);
    assert!(offset_of!(hipDeviceProp_tR0600, memoryPoolSupportedHandleTypes) == 760);
    assert!(offset_of!(hipDeviceProp_tR0600, deferredMappingHipArraySupported) == 764);
    assert!(offset_of!(hipDeviceProp_tR0600, ipcEventSupported) == 768);
    assert!(offset_of!(hipDeviceProp_tR0600, clusterLaunch) == 772);
    assert!(offset_of!(hipDeviceProp_tR0600, unifiedFunctionPointers) == 776);
    assert!(offset_of!(hipDeviceProp_tR0600, reserved) == 780);
    assert!(offset_of!(hipDeviceProp_tR0600, hipReserved) == 1032);
    assert!(offset_of!(hipDeviceProp_tR0600, gcnArchName) == 1160);
    assert!(offset_of!(hipDeviceProp_tR0600, maxSharedMemoryPerMultiProcessor) == 1416);
    assert!(offset_of!(hipDeviceProp_tR0600, clockInstructionRate) == 1424);
    assert!(offset_of!(hipDeviceProp_tR0600, arch) == 1428);
    assert!(offset_of!(hipDeviceProp_tR0600, hdpMemFlushCntl) == 1432);
    assert!(offset_of!(hipDeviceProp_tR0600, hdpRegFlushCntl) == 1440);
    assert!(offset_of!(hipDeviceProp_tR0600, cooperativeMultiDeviceUnmatchedFunc) == 1448);
    assert!(offset_of!(hipDeviceProp_tR0600, cooperativeMultiDeviceUnmatchedGridDim) == 1452);
    assert!(
        offset_of!(
            hipDeviceProp_tR0600,
            cooperativeMultiDeviceUnmatchedBlockDim
        ) == 1456
    );
    assert!(
        offset_of!(
            hipDeviceProp_tR0600,
            cooperativeMultiDeviceUnmatchedSharedMem
        ) == 1460
    );
    assert!(offset_of!(hipDeviceProp_tR0600, isLargeBar) == 1464);
    assert!(offset_of!(hipDeviceProp_tR0600, asicRevision) == 1468);
};

impl Default for hipDeviceProp_tR0600 {
    /// All zero (NULL pointers): the state HIP expects to fill.
    fn default() -> hipDeviceProp_tR0600 {
        hipDeviceProp_tR0600 {
            name: [0; 256],
            uuid: hipUUID { bytes: [0; 16] },
            luid: [0; 8],
            luidDeviceNodeMask: 0,
            totalGlobalMem: 0,
            sharedMemPerBlock: 0,
            regsPerBlock: 0,
            warpSize: 0,
            memPitch: 0,
            maxThreadsPerBlock: 0,
            maxThreadsDim: [0; 3],
            maxGridSize: [0; 3],
            clockRate: 0,
            totalConstMem: 0,
            major: 0,
            minor: 0,
            textureAlignment: 0,
            texturePitchAlignment: 0,
            deviceOverlap: 0,
            multiProcessorCount: 0,
            kernelExecTimeoutEnabled: 0,
            integrated: 0,
            canMapHostMemory: 0,
            computeMode: 0,
            maxTexture1D: 0,
            maxTexture1DMipmap: 0,
            maxTexture1DLinear: 0,
            maxTexture2D: [0; 2],
            maxTexture2DMipmap: [0; 2],
            maxTexture2DLinear: [0; 3],
            maxTexture2DGather: [0; 2],
            maxTexture3D: [0; 3],
            maxTexture3DAlt: [0; 3],
            maxTextureCubemap: 0,
            maxTexture1DLayered: [0; 2],
            maxTexture2DLayered: [0; 3],
            maxTextureCubemapLayered: [0; 2],
            maxSurface1D: 0,
            maxSurface2D: [0; 2],
            maxSurface3D: [0; 3],
            maxSurface1DLayered: [0; 2],
            maxSurface2DLayered: [0; 3],
            maxSurfaceCubemap: 0,
            maxSurfaceCubemapLayered: [0; 2],
            surfaceAlignment: 0,
            concurrentKernels: 0,
            ECCEnabled: 0,
            pciBusID: 0,
            pciDeviceID: 0,
            pciDomainID: 0,
            tccDriver: 0,
            asyncEngineCount: 0,
            unifiedAddressing: 0,
            memoryClockRate: 0,
            memoryBusWidth: 0,
            l2CacheSize: 0,
            persistingL2CacheMaxSize: 0,
            maxThreadsPerMultiProcessor: 0,
            streamPrioritiesSupported: 0,
            globalL1CacheSupported: 0,
            localL1CacheSupported: 0,
            sharedMemPerMultiprocessor: 0,
            regsPerMultiprocessor: 0,
            managedMemory: 0,
            isMultiGpuBoard: 0,
            multiGpuBoardGroupID: 0,
            hostNativeAtomicSupported: 0,
            singleToDoublePrecisionPerfRatio: 0,
            pageableMemoryAccess: 0,
            concurrentManagedAccess: 0,
            computePreemptionSupported: 0,
            canUseHostPointerForRegisteredMem: 0,
            cooperativeLaunch: 0,
            cooperativeMultiDeviceLaunch: 0,
            sharedMemPerBlockOptin: 0,
            pageableMemoryAccessUsesHostPageTables: 0,
            directManagedMemAccessFromHost: 0,
            maxBlocksPerMultiProcessor: 0,
            accessPolicyMaxWindowSize: 0,
            reservedSharedMemPerBlock: 0,
            hostRegisterSupported: 0,
            sparseHipArraySupported: 0,
            hostRegisterReadOnlySupported: 0,
            timelineSemaphoreInteropSupported: 0,
            memoryPoolsSupported: 0,
            gpuDirectRDMASupported: 0,
            gpuDirectRDMAFlushWritesOptions: 0,
            gpuDirectRDMAWritesOrdering: 0,
            memoryPoolSupportedHandleTypes: 0,
            deferredMappingHipArraySupported: 0,
            ipcEventSupported: 0,
            clusterLaunch: 0,
            unifiedFunctionPointers: 0,
            reserved: [0; 63],
            hipReserved: [0; 32],
            gcnArchName: [0; 256],
            maxSharedMemoryPerMultiProcessor: 0,
            clockInstructionRate: 0,
            arch: 0,
            hdpMemFlushCntl: core::ptr::null_mut(),
            hdpRegFlushCntl: core::ptr::null_mut(),
            cooperativeMultiDeviceUnmatchedFunc: 0,
            cooperativeMultiDeviceUnmatchedGridDim: 0,
            cooperativeMultiDeviceUnmatchedBlockDim: 0,
            cooperativeMultiDeviceUnmatchedSharedMem: 0,
            isLargeBar: 0,
            asicRevision: 0,
        }
    }
}

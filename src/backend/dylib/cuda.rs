//! HIP on NVIDIA: the HIP calls of the driver answered by the CUDA driver
//! API (`libcuda.so.1`), mapped the way HIP's NVIDIA platform
//! (`hip/nvidia_detail/nvidia_hip_runtime_api.h`) maps them:
//!
//! - `CUresult` → `hipError_t` by `hipCUResultTohipError`'s table (the codes
//!   it lists keep their number, everything else is `hipErrorUnknown`);
//! - `hipDeviceAttribute_t` → `CUdevice_attribute` by the header's switch
//!   (an attribute it does not list is `hipErrorInvalidValue`);
//! - `hipDeviceP2PAttr` (0-based) → `CUdevice_P2PAttribute` (1-based);
//! - `hipGetDeviceCount` fails with `hipErrorNoDevice` when the count is 0
//!   (what `cudaGetDeviceCount` does), `hipDeviceTotalMem` is
//!   `cuDeviceTotalMem_v2`, `hipDeviceGetUuid` is `cuDeviceGetUuid`, and
//!   `hipSetDevice` makes the device's primary context current.
//!
//! There is no CUDA runtime in the loop, so `hipRuntimeGetVersion` reports
//! the driver API version (`cuDriverGetVersion`).

use std::collections::HashMap;
use std::ffi::{CStr, c_char, c_void};
use std::sync::Mutex;

use super::hip::{buffer_to_string, name_buffer_len};
use super::library::{CUDA, DynamicLibrary};
use super::symbols::symbol_table;
use crate::status::Result;
use amdgpu_sys::hip_error::{
    hipError_t, hipErrorInvalidValue, hipErrorNoDevice, hipErrorUnknown, hipSuccess,
};
use amdgpu_sys::hip_types::hipDeviceProp_tR0000;

/// `CUresult`.
pub type CUresult = i32;
/// `CUdevice`.
pub type CUdevice = i32;

symbol_table! {
    /// CUDA driver entry points (`cuda.h`; the `_v2` names are the ones the
    /// header's macros select).
    pub struct CudaSymbols {
        required {
            fn cuInit(u32) -> CUresult;
            fn cuDriverGetVersion(*mut i32) -> CUresult;
            fn cuDeviceGetCount(*mut i32) -> CUresult;
            fn cuDeviceGet(*mut CUdevice, i32) -> CUresult;
            fn cuDeviceGetName(*mut c_char, i32, CUdevice) -> CUresult;
            fn cuDeviceGetUuid(*mut [u8; 16], CUdevice) -> CUresult;
            fn cuDeviceGetAttribute(*mut i32, i32, CUdevice) -> CUresult;
            fn cuDeviceTotalMem_v2(*mut usize, CUdevice) -> CUresult;
            fn cuDeviceGetPCIBusId(*mut c_char, i32, CUdevice) -> CUresult;
            fn cuDeviceCanAccessPeer(*mut i32, CUdevice, CUdevice) -> CUresult;
            fn cuDeviceGetP2PAttribute(*mut i32, i32, CUdevice, CUdevice) -> CUresult;
            fn cuDevicePrimaryCtxRetain(*mut *mut c_void, CUdevice) -> CUresult;
            fn cuDevicePrimaryCtxRelease_v2(CUdevice) -> CUresult;
            fn cuCtxSetCurrent(*mut c_void) -> CUresult;
            fn cuCtxEnablePeerAccess(*mut c_void, u32) -> CUresult;
            fn cuGetErrorName(CUresult, *mut *const c_char) -> CUresult;
            fn cuGetErrorString(CUresult, *mut *const c_char) -> CUresult;
        }
        optional {
            fn cuDeviceGetUuid_v2(*mut [u8; 16], CUdevice) -> CUresult;
        }
        checked {}
    }
}

/// `CUresult` values `hipCUResultTohipError` maps to the same-numbered
/// `hipError_t`.
const MAPPED_CU_RESULTS: &[i32] = &[
    0, 1, 2, 3, 4, 5, 6, 7, 8, 100, 101, 200, 201, 202, 205, 206, 207, 208, 209, 210, 211, 212,
    213, 214, 215, 216, 217, 218, 219, 300, 301, 302, 303, 304, 400, 401, 500, 600, 700, 701, 702,
    704, 705, 708, 709, 710, 712, 713, 719, 720, 801, 900, 901, 902, 903, 904, 905, 906, 907, 908,
    910,
];

/// `hipCUResultTohipError`.
pub fn cu_result_to_hip_error(result: CUresult) -> hipError_t {
    if MAPPED_CU_RESULTS.contains(&result) {
        result
    } else {
        hipErrorUnknown
    }
}

/// The `CUdevice_attribute` HIP's NVIDIA `hipDeviceGetAttribute` asks for,
/// by HIP (5.2) attribute value; `None` for one it rejects.
pub fn hip_attribute_to_cu(attribute: i32) -> Option<i32> {
    Some(match attribute {
        56 => 1,     // MaxThreadsPerBlock
        26 => 2,     // MaxBlockDimX
        27 => 3,     // MaxBlockDimY
        28 => 4,     // MaxBlockDimZ
        29 => 5,     // MaxGridDimX
        30 => 6,     // MaxGridDimY
        31 => 7,     // MaxGridDimZ
        74 => 8,     // MaxSharedMemoryPerBlock
        83 => 9,     // TotalConstantMemory
        87 => 10,    // WarpSize
        71 => 12,    // MaxRegistersPerBlock
        5 => 13,     // ClockRate
        60 => 36,    // MemoryClockRate
        59 => 37,    // MemoryBusWidth
        63 => 16,    // MultiprocessorCount
        6 => 20,     // ComputeMode
        19 => 38,    // L2CacheSize
        57 => 39,    // MaxThreadsPerMultiProcessor
        23 => 75,    // ComputeCapabilityMajor
        61 => 76,    // ComputeCapabilityMinor
        8 => 31,     // ConcurrentKernels
        67 => 33,    // PciBusId
        68 => 34,    // PciDeviceId
        10002 => 81, // MaxSharedMemoryPerMultiprocessor
        17 => 84,    // IsMultiGpuBoard
        16 => 18,    // Integrated
        39 => 21,    // MaxTexture1DWidth
        43 => 22,    // MaxTexture2DWidth
        44 => 23,    // MaxTexture2DHeight
        49 => 24,    // MaxTexture3DWidth
        50 => 25,    // MaxTexture3DHeight
        51 => 26,    // MaxTexture3DDepth
        58 => 11,    // MaxPitch
        81 => 14,    // TextureAlignment
        82 => 51,    // TexturePitchAlignment
        18 => 17,    // KernelExecTimeout
        3 => 19,     // CanMapHostMemory
        0 => 32,     // EccEnabled
        10 => 95,    // CooperativeLaunch
        11 => 96,    // CooperativeMultiDeviceLaunch
        9 => 89,     // ConcurrentManagedAccess
        24 => 83,    // ManagedMemory
        66 => 100,   // PageableMemoryAccessUsesHostPageTables
        65 => 88,    // PageableMemoryAccess
        13 => 101,   // DirectManagedMemAccessFromHost
        88 => 115,   // MemoryPoolsSupported
        _ => return None,
    })
}

/// `hipDeviceP2PAttr` (0-based) → `CUdevice_P2PAttribute` (1-based).
pub fn hip_p2p_attribute_to_cu(attribute: i32) -> Option<i32> {
    (0..=3).contains(&attribute).then_some(attribute + 1)
}

/// The CUDA driver, loaded and resolved, speaking HIP's vocabulary.
pub struct CudaHip {
    symbols: CudaSymbols,
    /// Primary contexts this library retained (device → `CUcontext` bits).
    contexts: Mutex<HashMap<CUdevice, usize>>,
    library: DynamicLibrary,
}

impl std::fmt::Debug for CudaHip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaHip")
            .field("path", &self.library.path())
            .finish_non_exhaustive()
    }
}

/// Raw outcome of a HIP-on-CUDA call (a `hipError_t`).
pub type HipCall<T> = std::result::Result<T, hipError_t>;

fn check(result: CUresult) -> HipCall<()> {
    match cu_result_to_hip_error(result) {
        0 => Ok(()),
        error => Err(error),
    }
}

impl CudaHip {
    /// Opens `libcuda` by the search rules ([`super::library`]) and resolves
    /// every required symbol. Does not call `cuInit`.
    pub fn load(search_paths: &[String]) -> Result<CudaHip> {
        CudaHip::from_library(DynamicLibrary::open(&CUDA, search_paths)?)
    }

    /// Resolves the table from an already opened library.
    pub fn from_library(library: DynamicLibrary) -> Result<CudaHip> {
        Ok(CudaHip {
            symbols: CudaSymbols::resolve(&library)?,
            contexts: Mutex::new(HashMap::new()),
            library,
        })
    }

    /// The path the library was opened by.
    pub fn path(&self) -> &str {
        self.library.path()
    }

    /// `hipInit` → `cuInit(flags)`.
    pub fn init(&self, flags: u32) -> HipCall<()> {
        // SAFETY: plain value argument.
        check(unsafe { (self.symbols.cuInit)(flags) })
    }

    /// `hipDriverGetVersion` → `cuDriverGetVersion` (e.g. 13000).
    pub fn driver_get_version(&self) -> HipCall<i32> {
        let mut version = 0;
        // SAFETY: valid out-pointer.
        check(unsafe { (self.symbols.cuDriverGetVersion)(&mut version) })?;
        Ok(version)
    }

    /// `hipRuntimeGetVersion`: the driver API version (no CUDA runtime is loaded).
    pub fn runtime_get_version(&self) -> HipCall<i32> {
        self.driver_get_version()
    }

    /// `hipGetDeviceCount` → `cuDeviceGetCount`, with HIP's `hipErrorNoDevice` for 0.
    pub fn get_device_count(&self) -> HipCall<i32> {
        let mut count = 0;
        // SAFETY: valid out-pointer.
        check(unsafe { (self.symbols.cuDeviceGetCount)(&mut count) })?;
        if count == 0 {
            Err(hipErrorNoDevice)
        } else {
            Ok(count)
        }
    }

    /// `hipDeviceGet` → `cuDeviceGet`.
    pub fn device_get(&self, ordinal: i32) -> HipCall<CUdevice> {
        let mut device = 0;
        // SAFETY: valid out-pointer; CUDA validates the ordinal.
        check(unsafe { (self.symbols.cuDeviceGet)(&mut device, ordinal) })?;
        Ok(device)
    }

    /// `hipDeviceGetName` → `cuDeviceGetName`.
    pub fn device_get_name(&self, device: CUdevice, len: usize) -> HipCall<String> {
        let c_len = name_buffer_len(len)?;
        let mut buffer = vec![0u8; len];
        // SAFETY: `buffer` has `len` writable bytes and CUDA writes at most `len`.
        check(unsafe {
            (self.symbols.cuDeviceGetName)(buffer.as_mut_ptr().cast(), c_len, device)
        })?;
        Ok(buffer_to_string(&buffer))
    }

    /// `hipDeviceGetUuid` → `cuDeviceGetUuid_v2` (MIG-aware) or `cuDeviceGetUuid`.
    pub fn device_get_uuid(&self, device: CUdevice) -> HipCall<[u8; 16]> {
        let get = self
            .symbols
            .cuDeviceGetUuid_v2
            .unwrap_or(self.symbols.cuDeviceGetUuid);
        let mut uuid = [0u8; 16];
        // SAFETY: `CUuuid` is `char bytes[16]`; `uuid` is 16 writable bytes.
        check(unsafe { get(&mut uuid, device) })?;
        Ok(uuid)
    }

    /// `hipDeviceGetAttribute` → `cuDeviceGetAttribute` (HIP attribute values).
    pub fn device_get_attribute(&self, attribute: i32, device: CUdevice) -> HipCall<i32> {
        let cu_attribute = hip_attribute_to_cu(attribute).ok_or(hipErrorInvalidValue)?;
        self.cu_attribute(cu_attribute, device)
    }

    fn cu_attribute(&self, cu_attribute: i32, device: CUdevice) -> HipCall<i32> {
        let mut value = 0;
        // SAFETY: valid out-pointer; CUDA validates attribute and device.
        check(unsafe { (self.symbols.cuDeviceGetAttribute)(&mut value, cu_attribute, device) })?;
        Ok(value)
    }

    /// `hipDeviceTotalMem` → `cuDeviceTotalMem_v2`.
    pub fn device_total_mem(&self, device: CUdevice) -> HipCall<u64> {
        let mut bytes = 0usize;
        // SAFETY: valid out-pointer.
        check(unsafe { (self.symbols.cuDeviceTotalMem_v2)(&mut bytes, device) })?;
        Ok(bytes as u64)
    }

    /// `hipDeviceGetPCIBusId` → `cuDeviceGetPCIBusId` (`dddd:bb:dd.f`).
    pub fn device_get_pci_bus_id(&self, device: CUdevice) -> HipCall<String> {
        let mut buffer = [0u8; 64];
        // SAFETY: 64 writable bytes and 64 is the length passed.
        check(unsafe {
            (self.symbols.cuDeviceGetPCIBusId)(buffer.as_mut_ptr().cast(), 64, device)
        })?;
        Ok(buffer_to_string(&buffer))
    }

    /// `hipGetDeviceProperties`: the fields of the HIP 5 struct that the
    /// CUDA driver answers, one attribute query each (`gcnArchName` and the
    /// AMD-only fields stay zero, as on HIP's NVIDIA platform).
    pub fn get_device_properties(&self, ordinal: i32) -> HipCall<Box<hipDeviceProp_tR0000>> {
        let device = self.device_get(ordinal)?;
        let mut props = Box::new(hipDeviceProp_tR0000::default());
        let name = self.device_get_name(device, 256)?;
        for (slot, byte) in props.name.iter_mut().zip(name.bytes().take(255)) {
            *slot = byte as c_char;
        }
        let a = |cu: i32| self.cu_attribute(cu, device);
        props.totalGlobalMem =
            usize::try_from(self.device_total_mem(device)?).unwrap_or(usize::MAX);
        props.sharedMemPerBlock = usize::try_from(a(8)?).unwrap_or(0);
        props.regsPerBlock = a(12)?;
        props.warpSize = a(10)?;
        props.maxThreadsPerBlock = a(1)?;
        props.maxThreadsDim = [a(2)?, a(3)?, a(4)?];
        props.maxGridSize = [a(5)?, a(6)?, a(7)?];
        props.clockRate = a(13)?;
        props.memoryClockRate = a(36)?;
        props.memoryBusWidth = a(37)?;
        props.totalConstMem = usize::try_from(a(9)?).unwrap_or(0);
        props.major = a(75)?;
        props.minor = a(76)?;
        props.multiProcessorCount = a(16)?;
        props.l2CacheSize = a(38)?;
        props.maxThreadsPerMultiProcessor = a(39)?;
        props.computeMode = a(20)?;
        props.concurrentKernels = a(31)?;
        props.pciDomainID = a(50)?;
        props.pciBusID = a(33)?;
        props.pciDeviceID = a(34)?;
        props.maxSharedMemoryPerMultiProcessor = usize::try_from(a(81)?).unwrap_or(0);
        props.isMultiGpuBoard = a(84)?;
        props.canMapHostMemory = a(19)?;
        props.integrated = a(18)?;
        props.cooperativeLaunch = a(95)?;
        props.cooperativeMultiDeviceLaunch = a(96)?;
        props.ECCEnabled = a(32)?;
        props.managedMemory = a(83)?;
        props.concurrentManagedAccess = a(89)?;
        props.pageableMemoryAccess = a(88)?;
        Ok(props)
    }

    /// `hipDeviceCanAccessPeer` → `cuDeviceCanAccessPeer`.
    pub fn device_can_access_peer(&self, ordinal: i32, peer: i32) -> HipCall<bool> {
        let (device, peer) = (self.device_get(ordinal)?, self.device_get(peer)?);
        let mut can = 0;
        // SAFETY: valid out-pointer.
        check(unsafe { (self.symbols.cuDeviceCanAccessPeer)(&mut can, device, peer) })?;
        Ok(can != 0)
    }

    fn primary_context(&self, device: CUdevice) -> HipCall<*mut c_void> {
        let mut contexts = self.contexts.lock().map_err(|_| hipErrorUnknown)?;
        if let Some(&context) = contexts.get(&device) {
            return Ok(context as *mut c_void);
        }
        let mut context: *mut c_void = std::ptr::null_mut();
        // SAFETY: valid out-pointer; the retain is balanced in `Drop`.
        check(unsafe { (self.symbols.cuDevicePrimaryCtxRetain)(&mut context, device) })?;
        contexts.insert(device, context as usize);
        Ok(context)
    }

    /// `hipSetDevice` → the device's primary context made current.
    pub fn set_device(&self, ordinal: i32) -> HipCall<()> {
        let context = self.primary_context(self.device_get(ordinal)?)?;
        // SAFETY: `context` is a primary context retained by this library.
        check(unsafe { (self.symbols.cuCtxSetCurrent)(context) })
    }

    /// `hipDeviceEnablePeerAccess` → `cuCtxEnablePeerAccess(peer's primary context)`.
    pub fn device_enable_peer_access(&self, peer: i32, flags: u32) -> HipCall<()> {
        let context = self.primary_context(self.device_get(peer)?)?;
        // SAFETY: `context` is a primary context retained by this library.
        check(unsafe { (self.symbols.cuCtxEnablePeerAccess)(context, flags) })
    }

    /// `hipDeviceGetP2PAttribute` → `cuDeviceGetP2PAttribute` (attribute +1).
    pub fn device_get_p2p_attribute(&self, attribute: i32, src: i32, dst: i32) -> HipCall<i32> {
        let cu_attribute = hip_p2p_attribute_to_cu(attribute).ok_or(hipErrorInvalidValue)?;
        let (src, dst) = (self.device_get(src)?, self.device_get(dst)?);
        let mut value = 0;
        // SAFETY: valid out-pointer.
        check(unsafe {
            (self.symbols.cuDeviceGetP2PAttribute)(&mut value, cu_attribute, src, dst)
        })?;
        Ok(value)
    }

    fn error_text(
        &self,
        error: hipError_t,
        f: unsafe extern "C" fn(CUresult, *mut *const c_char) -> CUresult,
    ) -> String {
        let mut text: *const c_char = std::ptr::null();
        // SAFETY: valid out-pointer; CUDA stores a static string or fails.
        let result = unsafe { f(error, &mut text) };
        if result != hipSuccess || text.is_null() {
            return String::new();
        }
        // SAFETY: non-null static NUL-terminated string (checked above).
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    }

    /// `hipGetErrorName`: CUDA's name of the same-numbered `CUresult`
    /// (`CUDA_ERROR_NO_DEVICE`), as HIP's NVIDIA platform reports it.
    pub fn get_error_name(&self, error: hipError_t) -> String {
        self.error_text(error, self.symbols.cuGetErrorName)
    }

    /// `hipGetErrorString`: CUDA's description.
    pub fn get_error_string(&self, error: hipError_t) -> String {
        self.error_text(error, self.symbols.cuGetErrorString)
    }
}

impl Drop for CudaHip {
    fn drop(&mut self) {
        if let Ok(contexts) = self.contexts.get_mut() {
            for (&device, _) in contexts.iter() {
                // SAFETY: releases a retain this library made; the result is
                // ignored because nothing can be done about it on drop.
                let _ = unsafe { (self.symbols.cuDevicePrimaryCtxRelease_v2)(device) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cu_results_map_like_hip_nvidia_platform() {
        assert_eq!(cu_result_to_hip_error(0), hipSuccess);
        assert_eq!(cu_result_to_hip_error(100), hipErrorNoDevice);
        assert_eq!(cu_result_to_hip_error(708), 708); // PRIMARY_CONTEXT_ACTIVE → SetOnActiveProcess
        assert_eq!(cu_result_to_hip_error(34), hipErrorUnknown); // STUB_LIBRARY is not listed
        assert_eq!(cu_result_to_hip_error(999), hipErrorUnknown);
    }

    #[test]
    fn attributes_map_like_hip_nvidia_platform() {
        assert_eq!(hip_attribute_to_cu(23), Some(75));
        assert_eq!(hip_attribute_to_cu(61), Some(76));
        assert_eq!(hip_attribute_to_cu(87), Some(10));
        assert_eq!(hip_attribute_to_cu(63), Some(16));
        // PciDomainID is not in HIP's NVIDIA switch.
        assert_eq!(hip_attribute_to_cu(69), None);
        assert_eq!(hip_p2p_attribute_to_cu(0), Some(1));
        assert_eq!(hip_p2p_attribute_to_cu(3), Some(4));
        assert_eq!(hip_p2p_attribute_to_cu(4), None);
    }
}

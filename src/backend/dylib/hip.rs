//! `libamdhip64` through its symbol table: one safe, thin method per C call
//! the HIP driver makes, failures as the raw `hipError_t`.

use std::ffi::{CStr, c_char, c_void};

use amdgpu_sys::hip_error::*;
use amdgpu_sys::hip_types::*;

use super::library::{DynamicLibrary, HIP};
use super::symbols::symbol_table;
use crate::status::Result;

/// Longest name buffer handed to `hipDeviceGetName` / `hipDeviceGetPCIBusId`.
pub const MAX_NAME_BUFFER: usize = 4096;

symbol_table! {
    /// HIP entry points. `checked` is the rest of IREE's
    /// `dynamic_symbol_tables.h`. `hipLaunchHostFunc` is required there but
    /// HIP 5.2 does not export it, so it is optional here (IREE itself would
    /// refuse Debian's HIP).
    pub struct HipSymbols {
        required {
            fn hipInit(u32) -> hipError_t;
            fn hipDriverGetVersion(*mut i32) -> hipError_t;
            fn hipRuntimeGetVersion(*mut i32) -> hipError_t;
            fn hipGetDeviceCount(*mut i32) -> hipError_t;
            fn hipDeviceGet(*mut i32, i32) -> hipError_t;
            fn hipDeviceGetName(*mut c_char, i32, i32) -> hipError_t;
            fn hipDeviceGetUuid(*mut hipUUID, i32) -> hipError_t;
            fn hipDeviceGetAttribute(*mut i32, i32, i32) -> hipError_t;
            fn hipDeviceTotalMem(*mut usize, i32) -> hipError_t;
            fn hipDeviceGetPCIBusId(*mut c_char, i32, i32) -> hipError_t;
            fn hipDeviceCanAccessPeer(*mut i32, i32, i32) -> hipError_t;
            fn hipSetDevice(i32) -> hipError_t;
            fn hipDeviceEnablePeerAccess(i32, u32) -> hipError_t;
            fn hipDeviceGetP2PAttribute(*mut i32, i32, i32, i32) -> hipError_t;
            fn hipGetErrorName(hipError_t) -> *const c_char;
            fn hipGetErrorString(hipError_t) -> *const c_char;
        }
        optional {
            fn hipGetDeviceProperties(*mut hipDeviceProp_tR0000, i32) -> hipError_t;
            fn hipLaunchHostFunc(*mut c_void, Option<extern "C" fn(*mut c_void)>, *mut c_void) -> hipError_t;
            fn hipDrvGraphAddMemcpyNode(
                *mut *mut c_void, *mut c_void, *const *mut c_void, usize, *const c_void, *mut c_void) -> hipError_t;
        }
        checked {
            hipCtxSetCurrent, hipCtxGetCurrent, hipCtxPushCurrent, hipCtxPopCurrent,
            hipDevicePrimaryCtxRelease, hipDevicePrimaryCtxRetain, hipEventCreate,
            hipEventCreateWithFlags, hipEventDestroy, hipEventElapsedTime, hipEventQuery,
            hipEventRecord, hipEventSynchronize, hipFree, hipFreeAsync, hipFuncGetAttribute,
            hipFuncSetAttribute, hipGetLastError, hipGraphAddEmptyNode, hipGraphAddEventRecordNode,
            hipGraphAddKernelNode, hipGraphAddMemsetNode, hipGraphCreate, hipGraphDestroy,
            hipGraphExecDestroy, hipGraphInstantiate, hipGraphLaunch, hipHostFree,
            hipHostGetDevicePointer, hipHostMalloc, hipHostRegister, hipHostUnregister,
            hipLaunchKernel, hipMalloc, hipMallocFromPoolAsync, hipMallocManaged, hipMallocAsync,
            hipMemcpy, hipMemcpyAsync, hipMemcpyHtoDAsync, hipMemPoolCreate, hipMemPoolDestroy,
            hipMemPoolGetAttribute, hipMemPoolSetAttribute, hipMemPoolTrimTo, hipMemPrefetchAsync,
            hipMemset, hipMemsetAsync, hipMemsetD8Async, hipMemsetD16Async, hipMemsetD32Async,
            hipModuleGetFunction, hipModuleGetGlobal, hipModuleLaunchKernel, hipModuleLoadData,
            hipModuleLoadDataEx, hipModuleUnload, hipStreamCreateWithFlags, hipStreamDestroy,
            hipStreamSynchronize, hipStreamWaitEvent,
        }
    }
}

/// Raw outcome of a HIP call.
pub type HipCall<T> = std::result::Result<T, hipError_t>;

fn check(error: hipError_t) -> HipCall<()> {
    if error == hipSuccess {
        Ok(())
    } else {
        Err(error)
    }
}

fn static_c_string(text: *const c_char) -> Option<String> {
    if text.is_null() {
        return None;
    }
    // SAFETY: HIP returns pointers to static NUL-terminated strings.
    Some(
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned(),
    )
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

/// Reads a `char*` out-buffer filled by HIP or CUDA.
pub(crate) fn buffer_to_string(buffer: &[u8]) -> String {
    let end = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
    String::from_utf8_lossy(buffer.get(..end).unwrap_or_default()).into_owned()
}

/// The length for a caller-chosen name buffer, or `hipErrorInvalidValue`.
pub(crate) fn name_buffer_len(len: usize) -> HipCall<i32> {
    if len == 0 || len > MAX_NAME_BUFFER {
        return Err(hipErrorInvalidValue);
    }
    i32::try_from(len).map_err(|_| hipErrorInvalidValue)
}

/// The HIP runtime, loaded and resolved.
pub struct HipLibrary {
    symbols: HipSymbols,
    library: DynamicLibrary,
}

impl std::fmt::Debug for HipLibrary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HipLibrary")
            .field("path", &self.library.path())
            .finish_non_exhaustive()
    }
}

impl HipLibrary {
    /// Opens `libamdhip64` by the search rules ([`super::library`]) and
    /// resolves every required symbol. Does not call `hipInit`.
    pub fn load(search_paths: &[String]) -> Result<HipLibrary> {
        HipLibrary::from_library(DynamicLibrary::open(&HIP, search_paths)?)
    }

    /// Resolves the table from an already opened library.
    pub fn from_library(library: DynamicLibrary) -> Result<HipLibrary> {
        Ok(HipLibrary {
            symbols: HipSymbols::resolve(&library)?,
            library,
        })
    }

    /// The path the library was opened by.
    pub fn path(&self) -> &str {
        self.library.path()
    }

    /// The optional symbols this runtime exports (e.g. HIP 5.2 has
    /// `hipGetDeviceProperties` but not `hipLaunchHostFunc`).
    pub fn optional_symbols(&self) -> Vec<&'static str> {
        self.symbols.present_optional()
    }

    /// Whether the optional `hipGetDeviceProperties` is exported.
    pub fn has_device_properties(&self) -> bool {
        self.symbols.hipGetDeviceProperties.is_some()
    }

    /// `hipInit(flags)`.
    pub fn init(&self, flags: u32) -> HipCall<()> {
        // SAFETY: plain value argument.
        check(unsafe { (self.symbols.hipInit)(flags) })
    }

    fn out_i32(&self, f: unsafe extern "C" fn(*mut i32) -> hipError_t) -> HipCall<i32> {
        let mut value = 0i32;
        // SAFETY: `f` is one of the table's `hipError_t (*)(int*)` entries and
        // the out-pointer is valid.
        check(unsafe { f(&mut value) })?;
        Ok(value)
    }

    /// `hipDriverGetVersion`.
    pub fn driver_get_version(&self) -> HipCall<i32> {
        self.out_i32(self.symbols.hipDriverGetVersion)
    }

    /// `hipRuntimeGetVersion`.
    pub fn runtime_get_version(&self) -> HipCall<i32> {
        self.out_i32(self.symbols.hipRuntimeGetVersion)
    }

    /// `hipGetDeviceCount`. HIP writes the count even when it fails
    /// (`hipErrorNoDevice` with 0), so both are returned.
    pub fn get_device_count_raw(&self) -> (hipError_t, i32) {
        let mut count = 0i32;
        // SAFETY: valid out-pointer.
        let error = unsafe { (self.symbols.hipGetDeviceCount)(&mut count) };
        (error, count)
    }

    /// `hipGetDeviceCount`.
    pub fn get_device_count(&self) -> HipCall<i32> {
        let (error, count) = self.get_device_count_raw();
        check(error).map(|()| count)
    }

    /// `hipDeviceGet(&device, ordinal)`.
    pub fn device_get(&self, ordinal: i32) -> HipCall<i32> {
        let mut device = 0i32;
        // SAFETY: valid out-pointer; HIP validates the ordinal.
        check(unsafe { (self.symbols.hipDeviceGet)(&mut device, ordinal) })?;
        Ok(device)
    }

    /// `hipDeviceGetName(buf, len, device)`.
    pub fn device_get_name(&self, device: i32, len: usize) -> HipCall<String> {
        let c_len = name_buffer_len(len)?;
        let mut buffer = vec![0u8; len];
        // SAFETY: `buffer` has `len` writable bytes and HIP writes at most `len`.
        check(unsafe {
            (self.symbols.hipDeviceGetName)(buffer.as_mut_ptr().cast(), c_len, device)
        })?;
        Ok(buffer_to_string(&buffer))
    }

    /// `hipDeviceGetUuid`.
    pub fn device_get_uuid(&self, device: i32) -> HipCall<[u8; 16]> {
        let mut uuid = hipUUID::default();
        // SAFETY: `uuid` is a valid `hipUUID`.
        check(unsafe { (self.symbols.hipDeviceGetUuid)(&mut uuid, device) })?;
        Ok(uuid.bytes)
    }

    /// `hipDeviceGetAttribute(&value, attribute, ordinal)`.
    pub fn device_get_attribute(&self, attribute: i32, ordinal: i32) -> HipCall<i32> {
        let mut value = 0i32;
        // SAFETY: valid out-pointer; HIP validates attribute and ordinal.
        check(unsafe { (self.symbols.hipDeviceGetAttribute)(&mut value, attribute, ordinal) })?;
        Ok(value)
    }

    /// `hipDeviceTotalMem`.
    pub fn device_total_mem(&self, device: i32) -> HipCall<u64> {
        let mut bytes = 0usize;
        // SAFETY: valid out-pointer.
        check(unsafe { (self.symbols.hipDeviceTotalMem)(&mut bytes, device) })?;
        Ok(bytes as u64)
    }

    /// `hipDeviceGetPCIBusId` (`dddd:bb:dd.f`).
    pub fn device_get_pci_bus_id(&self, device: i32) -> HipCall<String> {
        let mut buffer = [0u8; 64];
        // SAFETY: 64 writable bytes, and 64 is the length passed.
        check(unsafe {
            (self.symbols.hipDeviceGetPCIBusId)(buffer.as_mut_ptr().cast(), 64, device)
        })?;
        Ok(buffer_to_string(&buffer))
    }

    /// `hipGetDeviceProperties(&props, ordinal)` with the pre-6.0 struct;
    /// `hipErrorNotSupported` when the runtime lacks the symbol (the seed
    /// calls it without a check).
    pub fn get_device_properties(&self, ordinal: i32) -> HipCall<Box<hipDeviceProp_tR0000>> {
        let get = self
            .symbols
            .hipGetDeviceProperties
            .ok_or(hipErrorNotSupported)?;
        let mut props = Box::new(hipDeviceProp_tR0000::default());
        // SAFETY: `props` is a full 792-byte `hipDeviceProp_tR0000`, the
        // struct the exported `hipGetDeviceProperties` symbol fills on HIP 5
        // and (for compatibility) HIP 6.
        check(unsafe { get(&mut *props, ordinal) })?;
        Ok(props)
    }

    /// `hipDeviceCanAccessPeer(&can, ordinal, peer)`.
    pub fn device_can_access_peer(&self, ordinal: i32, peer: i32) -> HipCall<bool> {
        let mut can = 0i32;
        // SAFETY: valid out-pointer.
        check(unsafe { (self.symbols.hipDeviceCanAccessPeer)(&mut can, ordinal, peer) })?;
        Ok(can != 0)
    }

    /// `hipSetDevice`.
    pub fn set_device(&self, ordinal: i32) -> HipCall<()> {
        // SAFETY: plain value argument.
        check(unsafe { (self.symbols.hipSetDevice)(ordinal) })
    }

    /// `hipDeviceEnablePeerAccess(peer, flags)`.
    pub fn device_enable_peer_access(&self, peer: i32, flags: u32) -> HipCall<()> {
        // SAFETY: plain value arguments.
        check(unsafe { (self.symbols.hipDeviceEnablePeerAccess)(peer, flags) })
    }

    /// `hipDeviceGetP2PAttribute(&value, attribute, src, dst)` (HIP's 0-based attribute values).
    pub fn device_get_p2p_attribute(&self, attribute: i32, src: i32, dst: i32) -> HipCall<i32> {
        let mut value = 0i32;
        // SAFETY: valid out-pointer.
        check(unsafe { (self.symbols.hipDeviceGetP2PAttribute)(&mut value, attribute, src, dst) })?;
        Ok(value)
    }

    /// `hipGetErrorName` (HIP 5.2 also returns the name from `hipGetErrorString`).
    pub fn get_error_name(&self, error: hipError_t) -> String {
        // SAFETY: any value is accepted; the result is static or NULL.
        static_c_string(unsafe { (self.symbols.hipGetErrorName)(error) }).unwrap_or_default()
    }

    /// `hipGetErrorString`.
    pub fn get_error_string(&self, error: hipError_t) -> String {
        // SAFETY: any value is accepted; the result is static or NULL.
        static_c_string(unsafe { (self.symbols.hipGetErrorString)(error) }).unwrap_or_default()
    }
}

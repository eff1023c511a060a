//! NVML (`libnvidia-ml.so.1`), the NVIDIA management library `nvidia-smi`
//! is built on: enumeration, identity, memory and the links between GPUs,
//! answered by the kernel driver without creating a CUDA context (no
//! `cuInit`).
//!
//! The C types follow NVML's `nvml.h` (the layouts are asserted at compile
//! time below): `nvmlPciInfo_t` is 68 bytes (`busIdLegacy[16]`, five
//! `unsigned int`s, `busId[32]`), `nvmlMemory_v2_t` 40 bytes (version, then
//! four `unsigned long long`s from offset 8). Every failed call is an
//! [`NvmlError`]; [`nvml_status`] turns one into a [`Status`] with IREE's
//! code, NVML's own error string and the call as the annotation.

#![allow(non_camel_case_types, non_snake_case)]

use std::ffi::{CStr, c_char, c_uint, c_ulonglong, c_void};

use super::library::{DynamicLibrary, NVML};
use super::symbols::symbol_table;
use crate::status::{Result, Status, StatusCode};

/// `nvmlReturn_t`.
pub type nvmlReturn_t = c_uint;
/// `nvmlDevice_t` (an opaque handle).
pub type nvmlDevice_t = *mut c_void;

/// `NVML_DEVICE_NAME_V2_BUFFER_SIZE`.
pub const NAME_BUFFER_SIZE: usize = 96;
/// `NVML_DEVICE_UUID_V2_BUFFER_SIZE`.
pub const UUID_BUFFER_SIZE: usize = 96;

/// `nvmlPciInfo_t` (`nvmlDeviceGetPciInfo_v3`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct nvmlPciInfo_t {
    /// The legacy `domain:bus:device.function` text.
    pub busIdLegacy: [c_char; 16],
    /// PCI domain.
    pub domain: c_uint,
    /// PCI bus.
    pub bus: c_uint,
    /// PCI device.
    pub device: c_uint,
    /// Device id (high 16 bits) and vendor id (low 16 bits).
    pub pciDeviceId: c_uint,
    /// Subsystem id.
    pub pciSubSystemId: c_uint,
    /// The `dddddddd:bb:dd.f` text.
    pub busId: [c_char; 32],
}

/// `nvmlMemory_v2_t` (`nvmlDeviceGetMemoryInfo_v2`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct nvmlMemory_v2_t {
    /// `nvmlMemory_v2` ([`NVML_MEMORY_V2`]).
    pub version: c_uint,
    /// Total physical memory (bytes), the driver's reservation included.
    pub total: c_ulonglong,
    /// Memory reserved by the driver and firmware (bytes).
    pub reserved: c_ulonglong,
    /// Unallocated memory (bytes).
    pub free: c_ulonglong,
    /// Allocated memory (bytes).
    pub used: c_ulonglong,
}

/// `nvmlMemory_v2`: `NVML_STRUCT_VERSION(Memory, 2)` = size | 2 << 24.
pub const NVML_MEMORY_V2: c_uint = (std::mem::size_of::<nvmlMemory_v2_t>() as c_uint) | (2 << 24);

const _: () = {
    assert!(std::mem::size_of::<nvmlPciInfo_t>() == 68);
    assert!(std::mem::offset_of!(nvmlPciInfo_t, domain) == 16);
    assert!(std::mem::offset_of!(nvmlPciInfo_t, busId) == 36);
    assert!(std::mem::size_of::<nvmlMemory_v2_t>() == 40);
    assert!(std::mem::offset_of!(nvmlMemory_v2_t, total) == 8);
    assert!(std::mem::offset_of!(nvmlMemory_v2_t, reserved) == 16);
    assert!(NVML_MEMORY_V2 == 0x0200_0028);
};

/// `nvmlGpuP2PCapsIndex_t`: what `nvmlDeviceGetP2PStatus` is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum P2pCapability {
    /// `NVML_P2P_CAPS_INDEX_READ`.
    Read = 0,
    /// `NVML_P2P_CAPS_INDEX_WRITE`.
    Write = 1,
    /// `NVML_P2P_CAPS_INDEX_NVLINK`.
    Nvlink = 2,
    /// `NVML_P2P_CAPS_INDEX_ATOMICS`.
    Atomics = 3,
}

/// `NVML_P2P_STATUS_OK`: the capability is there.
pub const NVML_P2P_STATUS_OK: c_uint = 0;

/// `nvmlGpuTopologyLevel_t`: the closest common ancestor of two GPUs, as
/// `nvidia-smi topo -m` prints it for a pair without NVLink.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TopologyLevel {
    /// `NVML_TOPOLOGY_INTERNAL` (0): the same board (multi-GPU board).
    Internal,
    /// `NVML_TOPOLOGY_SINGLE` (10), `PIX`: at most one PCIe bridge.
    Single,
    /// `NVML_TOPOLOGY_MULTIPLE` (20), `PXB`: several PCIe bridges, no host bridge.
    Multiple,
    /// `NVML_TOPOLOGY_HOSTBRIDGE` (30), `PHB`: through one PCIe host bridge.
    HostBridge,
    /// `NVML_TOPOLOGY_NODE` (40), `NODE`: between host bridges of one NUMA node.
    Node,
    /// `NVML_TOPOLOGY_SYSTEM` (50), `SYS`: across NUMA nodes (the SMP interconnect).
    System,
}

impl TopologyLevel {
    /// The level of an `nvmlGpuTopologyLevel_t` value; `None` for one NVML
    /// does not define.
    pub fn from_raw(raw: c_uint) -> Option<TopologyLevel> {
        Some(match raw {
            0 => TopologyLevel::Internal,
            10 => TopologyLevel::Single,
            20 => TopologyLevel::Multiple,
            30 => TopologyLevel::HostBridge,
            40 => TopologyLevel::Node,
            50 => TopologyLevel::System,
            _ => return None,
        })
    }

    /// `nvidia-smi topo -m`'s code for the level.
    pub fn smi_code(self) -> &'static str {
        match self {
            TopologyLevel::Internal | TopologyLevel::Single => "PIX",
            TopologyLevel::Multiple => "PXB",
            TopologyLevel::HostBridge => "PHB",
            TopologyLevel::Node => "NODE",
            TopologyLevel::System => "SYS",
        }
    }
}

symbol_table! {
    /// NVML entry points (`nvml.h`; the versioned names are those the
    /// header's macros select).
    pub struct NvmlSymbols {
        required {
            fn nvmlInit_v2() -> nvmlReturn_t;
            fn nvmlShutdown() -> nvmlReturn_t;
            fn nvmlErrorString(nvmlReturn_t) -> *const c_char;
            fn nvmlDeviceGetCount_v2(*mut c_uint) -> nvmlReturn_t;
            fn nvmlDeviceGetHandleByIndex_v2(c_uint, *mut nvmlDevice_t) -> nvmlReturn_t;
            fn nvmlDeviceGetName(nvmlDevice_t, *mut c_char, c_uint) -> nvmlReturn_t;
            fn nvmlDeviceGetUUID(nvmlDevice_t, *mut c_char, c_uint) -> nvmlReturn_t;
            fn nvmlDeviceGetPciInfo_v3(nvmlDevice_t, *mut nvmlPciInfo_t) -> nvmlReturn_t;
            fn nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t, *mut nvmlMemory_v2_t) -> nvmlReturn_t;
            fn nvmlDeviceGetCudaComputeCapability(nvmlDevice_t, *mut i32, *mut i32) -> nvmlReturn_t;
            fn nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t, nvmlDevice_t, *mut c_uint) -> nvmlReturn_t;
            fn nvmlDeviceGetP2PStatus(nvmlDevice_t, nvmlDevice_t, c_uint, *mut c_uint) -> nvmlReturn_t;
        }
        optional {
            fn nvmlDeviceGetMigMode(nvmlDevice_t, *mut c_uint, *mut c_uint) -> nvmlReturn_t;
        }
        checked {}
    }
}

/// A failed NVML call: its `nvmlReturn_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NvmlError(pub nvmlReturn_t);

impl NvmlError {
    /// NVML's name of the code (`NVML_ERROR_NOT_SUPPORTED`), or `NVML_ERROR_<n>`.
    pub fn name(self) -> String {
        let name = match self.0 {
            1 => "UNINITIALIZED",
            2 => "INVALID_ARGUMENT",
            3 => "NOT_SUPPORTED",
            4 => "NO_PERMISSION",
            5 => "ALREADY_INITIALIZED",
            6 => "NOT_FOUND",
            7 => "INSUFFICIENT_SIZE",
            8 => "INSUFFICIENT_POWER",
            9 => "DRIVER_NOT_LOADED",
            10 => "TIMEOUT",
            11 => "IRQ_ISSUE",
            12 => "LIBRARY_NOT_FOUND",
            13 => "FUNCTION_NOT_FOUND",
            14 => "CORRUPTED_INFOROM",
            15 => "GPU_IS_LOST",
            16 => "RESET_REQUIRED",
            17 => "OPERATING_SYSTEM",
            18 => "LIB_RM_VERSION_MISMATCH",
            19 => "IN_USE",
            20 => "MEMORY",
            21 => "NO_DATA",
            22 => "VGPU_ECC_NOT_SUPPORTED",
            23 => "INSUFFICIENT_RESOURCES",
            24 => "FREQ_NOT_SUPPORTED",
            25 => "ARGUMENT_VERSION_MISMATCH",
            26 => "DEPRECATED",
            27 => "NOT_READY",
            28 => "GPU_NOT_FOUND",
            29 => "INVALID_STATE",
            999 => "UNKNOWN",
            other => return format!("NVML_ERROR_{other}"),
        };
        format!("NVML_ERROR_{name}")
    }

    /// IREE's status code for the NVML code.
    pub fn code(self) -> StatusCode {
        match self.0 {
            2 | 25 => StatusCode::InvalidArgument,
            3 | 13 | 22 | 24 | 26 => StatusCode::Unimplemented,
            4 => StatusCode::PermissionDenied,
            5 => StatusCode::AlreadyExists,
            6 | 21 | 28 => StatusCode::NotFound,
            7 | 20 | 23 => StatusCode::ResourceExhausted,
            1 | 8 | 16 | 18 | 29 => StatusCode::FailedPrecondition,
            9 | 12 | 15 | 19 | 27 => StatusCode::Unavailable,
            10 => StatusCode::DeadlineExceeded,
            11 | 17 => StatusCode::Internal,
            14 => StatusCode::DataLoss,
            _ => StatusCode::Unknown,
        }
    }
}

/// Outcome of one NVML call.
pub type NvmlResult<T> = std::result::Result<T, NvmlError>;

fn check(result: nvmlReturn_t) -> NvmlResult<()> {
    match result {
        0 => Ok(()),
        error => Err(NvmlError(error)),
    }
}

/// One GPU's handle (valid while the library that gave it is initialized).
#[derive(Clone, Copy, Debug)]
pub struct NvmlDevice(nvmlDevice_t);

/// NVML, loaded and resolved; once [`NvmlLibrary::init`] succeeded,
/// dropping it calls `nvmlShutdown`.
pub struct NvmlLibrary {
    symbols: NvmlSymbols,
    initialized: bool,
    library: DynamicLibrary,
}

impl std::fmt::Debug for NvmlLibrary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NvmlLibrary")
            .field("path", &self.library.path())
            .field("initialized", &self.initialized)
            .finish_non_exhaustive()
    }
}

impl NvmlLibrary {
    /// Opens NVML by the search rules ([`super::library`],
    /// `AMDGPU_HAL_NVML_PATH`), resolves every symbol and initializes it.
    pub fn load(search_paths: &[String]) -> Result<NvmlLibrary> {
        let mut nvml = NvmlLibrary::resolve(DynamicLibrary::open(&NVML, search_paths)?)?;
        nvml.init()?;
        Ok(nvml)
    }

    /// Resolves the table from an opened library (`UNAVAILABLE` naming every
    /// missing symbol); does not initialize NVML.
    pub fn resolve(library: DynamicLibrary) -> Result<NvmlLibrary> {
        Ok(NvmlLibrary {
            symbols: NvmlSymbols::resolve(&library)?,
            initialized: false,
            library,
        })
    }

    /// `nvmlInit_v2` (once; a failure is its [`nvml_status`]).
    pub fn init(&mut self) -> Result<()> {
        if !self.initialized {
            // SAFETY: no arguments; the function came from `self.library`.
            check(unsafe { (self.symbols.nvmlInit_v2)() })
                .map_err(|e| nvml_status(self, e, "nvmlInit_v2"))?;
            self.initialized = true;
        }
        Ok(())
    }

    /// The path the library was opened by.
    pub fn path(&self) -> &str {
        self.library.path()
    }

    /// `nvmlDeviceGetCount_v2`.
    pub fn device_count(&self) -> NvmlResult<u32> {
        let mut count = 0;
        // SAFETY: valid out-pointer.
        check(unsafe { (self.symbols.nvmlDeviceGetCount_v2)(&mut count) })?;
        Ok(count)
    }

    /// `nvmlDeviceGetHandleByIndex_v2`.
    pub fn device_by_index(&self, index: u32) -> NvmlResult<NvmlDevice> {
        let mut device: nvmlDevice_t = std::ptr::null_mut();
        // SAFETY: valid out-pointer; NVML validates the index.
        check(unsafe { (self.symbols.nvmlDeviceGetHandleByIndex_v2)(index, &mut device) })?;
        Ok(NvmlDevice(device))
    }

    fn text(
        &self,
        f: unsafe extern "C" fn(nvmlDevice_t, *mut c_char, c_uint) -> nvmlReturn_t,
        device: NvmlDevice,
        len: usize,
    ) -> NvmlResult<String> {
        let mut buffer = vec![0u8; len];
        let c_len = c_uint::try_from(len).unwrap_or(c_uint::MAX);
        // SAFETY: `buffer` has `len` writable bytes and NVML writes at most
        // `c_len` (= `len`) of them; the handle came from this library.
        check(unsafe { f(device.0, buffer.as_mut_ptr().cast(), c_len) })?;
        Ok(super::hip::buffer_to_string(&buffer))
    }

    /// `nvmlDeviceGetName` (the product name, `NVIDIA H200`).
    pub fn name(&self, device: NvmlDevice) -> NvmlResult<String> {
        self.text(self.symbols.nvmlDeviceGetName, device, NAME_BUFFER_SIZE)
    }

    /// `nvmlDeviceGetUUID` (`GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`).
    pub fn uuid(&self, device: NvmlDevice) -> NvmlResult<String> {
        self.text(self.symbols.nvmlDeviceGetUUID, device, UUID_BUFFER_SIZE)
    }

    /// `nvmlDeviceGetPciInfo_v3`.
    pub fn pci_info(&self, device: NvmlDevice) -> NvmlResult<nvmlPciInfo_t> {
        let mut info = nvmlPciInfo_t::default();
        // SAFETY: `info` is an `nvmlPciInfo_t` (layout asserted above).
        check(unsafe { (self.symbols.nvmlDeviceGetPciInfo_v3)(device.0, &mut info) })?;
        Ok(info)
    }

    /// `nvmlDeviceGetMemoryInfo_v2`.
    pub fn memory_info(&self, device: NvmlDevice) -> NvmlResult<nvmlMemory_v2_t> {
        let mut memory = nvmlMemory_v2_t {
            version: NVML_MEMORY_V2,
            ..Default::default()
        };
        // SAFETY: `memory` is an `nvmlMemory_v2_t` with its version set.
        check(unsafe { (self.symbols.nvmlDeviceGetMemoryInfo_v2)(device.0, &mut memory) })?;
        Ok(memory)
    }

    /// `nvmlDeviceGetCudaComputeCapability`: `(major, minor)`.
    pub fn compute_capability(&self, device: NvmlDevice) -> NvmlResult<(i32, i32)> {
        let (mut major, mut minor) = (0, 0);
        // SAFETY: valid out-pointers.
        check(unsafe {
            (self.symbols.nvmlDeviceGetCudaComputeCapability)(device.0, &mut major, &mut minor)
        })?;
        Ok((major, minor))
    }

    /// `nvmlDeviceGetTopologyCommonAncestor`; a level NVML does not define
    /// is `NVML_ERROR_UNKNOWN`.
    pub fn common_ancestor(&self, a: NvmlDevice, b: NvmlDevice) -> NvmlResult<TopologyLevel> {
        let mut level = 0;
        // SAFETY: valid out-pointer; both handles came from this library.
        check(unsafe { (self.symbols.nvmlDeviceGetTopologyCommonAncestor)(a.0, b.0, &mut level) })?;
        TopologyLevel::from_raw(level).ok_or(NvmlError(999))
    }

    /// `nvmlDeviceGetP2PStatus(a, b, capability)`: true when it is
    /// `NVML_P2P_STATUS_OK`.
    pub fn p2p_ok(
        &self,
        a: NvmlDevice,
        b: NvmlDevice,
        capability: P2pCapability,
    ) -> NvmlResult<bool> {
        let mut status = 0;
        // SAFETY: valid out-pointer; both handles came from this library.
        check(unsafe {
            (self.symbols.nvmlDeviceGetP2PStatus)(a.0, b.0, capability as c_uint, &mut status)
        })?;
        Ok(status == NVML_P2P_STATUS_OK)
    }

    /// `nvmlDeviceGetMigMode`'s current mode is enabled; false where the
    /// library lacks the call or the GPU does not support MIG
    /// (`NVML_ERROR_NOT_SUPPORTED`).
    pub fn mig_enabled(&self, device: NvmlDevice) -> NvmlResult<bool> {
        let Some(get) = self.symbols.nvmlDeviceGetMigMode else {
            return Ok(false);
        };
        let (mut current, mut pending) = (0, 0);
        // SAFETY: valid out-pointers; the handle came from this library.
        match check(unsafe { get(device.0, &mut current, &mut pending) }) {
            Ok(()) => Ok(current == 1),
            Err(NvmlError(3)) => Ok(false),
            Err(error) => Err(error),
        }
    }

    /// `nvmlErrorString`.
    pub fn error_string(&self, error: NvmlError) -> String {
        error_string(&self.symbols, error)
    }
}

fn error_string(symbols: &NvmlSymbols, error: NvmlError) -> String {
    // SAFETY: any value is accepted; the result is a static string or NULL.
    let text = unsafe { (symbols.nvmlErrorString)(error.0) };
    if text.is_null() {
        return String::new();
    }
    // SAFETY: non-null static NUL-terminated string.
    unsafe { CStr::from_ptr(text) }
        .to_string_lossy()
        .into_owned()
}

/// The status of a failed NVML `call`: IREE's code for the NVML code, the
/// message `NVML_ERROR_<NAME> (<n>): <nvmlErrorString>`, the call as the
/// annotation.
pub fn nvml_status(nvml: &NvmlLibrary, error: NvmlError, call: &str) -> Status {
    Status::new(
        error.code(),
        format!(
            "{} ({}): {}",
            error.name(),
            error.0,
            error_string(&nvml.symbols, error)
        ),
    )
    .annotate(call)
}

impl Drop for NvmlLibrary {
    fn drop(&mut self) {
        if self.initialized {
            // SAFETY: balances the successful `nvmlInit_v2` of `init`; the
            // result is ignored because nothing can be done about it on drop.
            let _ = unsafe { (self.symbols.nvmlShutdown)() };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_map_to_iree() {
        assert_eq!(NvmlError(9).code(), StatusCode::Unavailable);
        assert_eq!(NvmlError(9).name(), "NVML_ERROR_DRIVER_NOT_LOADED");
        assert_eq!(NvmlError(3).code(), StatusCode::Unimplemented);
        assert_eq!(NvmlError(4).code(), StatusCode::PermissionDenied);
        assert_eq!(NvmlError(15).code(), StatusCode::Unavailable);
        assert_eq!(NvmlError(777).code(), StatusCode::Unknown);
        assert_eq!(NvmlError(777).name(), "NVML_ERROR_777");
    }

    #[test]
    fn levels_are_nvidia_smi_codes() {
        assert_eq!(TopologyLevel::from_raw(30), Some(TopologyLevel::HostBridge));
        assert_eq!(TopologyLevel::from_raw(35), None);
        assert_eq!(TopologyLevel::Node.smi_code(), "NODE");
        assert!(TopologyLevel::Multiple < TopologyLevel::System);
    }
}

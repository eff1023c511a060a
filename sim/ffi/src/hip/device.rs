//! HIP devices (`hip_runtime_api.h`) over the simulated node:
//! initialization, versions, enumeration, attributes, properties (ROCm 5's
//! layout under `hipGetDeviceProperties`, ROCm 6's under
//! `hipGetDevicePropertiesR0600`, as ROCm 6's library exports them) and
//! peer access.
//!
//! Each failing call also becomes the error `hipGetLastError` returns (and
//! clears), as in HIP.

use std::ffi::{c_char, c_void};

use amdgpu_sim::{HipCode, Sim};
use amdgpu_sys::hip_device_prop_r0600::hipDeviceProp_tR0600;
use amdgpu_sys::hip_types::HipDeviceProps;

use super::context::{current_device, set_current_device};
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{Call, call, finish, modelled};
use crate::core::ptr;
use crate::core::runtime::runtime;

const INVALID_VALUE: HipCode = HipCode::INVALID_VALUE;

/// Runs `body` on the node; without one every call is `no_node`.
fn on_node(no_node: hipError_t, body: impl FnOnce(&Sim) -> Call) -> hipError_t {
    modelled(no_node, |rt| body(&rt.sim))
}

/// Writes `value` to `out`, or `hipErrorInvalidValue` for NULL.
///
/// # Safety
/// `out` is NULL or points at writable storage of `T`'s C type.
unsafe fn put<T: Copy>(out: *mut c_void, value: T) -> Call {
    // SAFETY: the caller's promise, passed on.
    if unsafe { ptr::write(out, value) } {
        Ok(())
    } else {
        Err(INVALID_VALUE)
    }
}

/// Writes `text` as a NUL-terminated string into a `len`-byte buffer,
/// cut to fit.
///
/// # Safety
/// `out` is NULL or has room for `len` bytes.
unsafe fn put_text(out: *mut c_char, len: i32, text: &str) -> Call {
    let len = usize::try_from(len).map_err(|_| INVALID_VALUE)?;
    if len == 0 || out.is_null() {
        return Err(INVALID_VALUE);
    }
    let mut bytes: Vec<u8> = text.bytes().take(len - 1).collect();
    bytes.push(0);
    // SAFETY: at most `len` bytes, the caller's promise.
    if unsafe { ptr::write_bytes(out.cast(), &bytes) } {
        Ok(())
    } else {
        Err(INVALID_VALUE)
    }
}

fn chars<const N: usize>(text: &str) -> [c_char; N] {
    let mut out = [0 as c_char; N];
    for (slot, byte) in out.iter_mut().take(N - 1).zip(text.bytes()) {
        *slot = byte as c_char;
    }
    out
}

fn size_t(value: u64) -> usize {
    usize::try_from(value).unwrap_or(usize::MAX)
}

/// The C struct for the simulator's properties; what the model does not
/// describe is zero, as HIP leaves unknown fields.
fn device_prop(p: &HipDeviceProps) -> hipDeviceProp_tR0000 {
    hipDeviceProp_tR0000 {
        name: chars::<256>(&p.name),
        totalGlobalMem: size_t(p.total_global_mem),
        sharedMemPerBlock: size_t(p.shared_mem_per_block),
        regsPerBlock: p.regs_per_block,
        warpSize: p.warp_size,
        maxThreadsPerBlock: p.max_threads_per_block,
        maxThreadsDim: p.max_threads_dim,
        maxGridSize: p.max_grid_size,
        clockRate: p.clock_rate,
        memoryClockRate: p.memory_clock_rate,
        memoryBusWidth: p.memory_bus_width,
        totalConstMem: size_t(p.total_const_mem),
        major: p.major,
        minor: p.minor,
        multiProcessorCount: p.multi_processor_count,
        l2CacheSize: p.l2_cache_size,
        maxThreadsPerMultiProcessor: p.max_threads_per_multi_processor,
        pciDomainID: p.pci_domain_id,
        pciBusID: p.pci_bus_id,
        pciDeviceID: p.pci_device_id,
        isMultiGpuBoard: p.is_multi_gpu_board,
        gcnArchName: chars::<256>(&p.gcn_arch_name),
        integrated: p.integrated,
        ECCEnabled: p.ecc_enabled,
        managedMemory: p.managed_memory,
        ..hipDeviceProp_tR0000::default()
    }
}

/// ROCm 6's struct for the simulator's properties: the fields ROCm 5's
/// layout has, the UUID, and the capabilities `hipDeviceGetAttribute`
/// answers (host mapping, concurrent and cooperative kernels, unified
/// addressing, memory pools, managed access where the board has managed
/// memory); the rest zero, as in [`device_prop`].
fn device_prop_r0600(p: &HipDeviceProps, uuid: [u8; 16]) -> hipDeviceProp_tR0600 {
    hipDeviceProp_tR0600 {
        name: chars::<256>(&p.name),
        uuid: hipUUID { bytes: uuid },
        totalGlobalMem: size_t(p.total_global_mem),
        sharedMemPerBlock: size_t(p.shared_mem_per_block),
        regsPerBlock: p.regs_per_block,
        warpSize: p.warp_size,
        maxThreadsPerBlock: p.max_threads_per_block,
        maxThreadsDim: p.max_threads_dim,
        maxGridSize: p.max_grid_size,
        clockRate: p.clock_rate,
        totalConstMem: size_t(p.total_const_mem),
        major: p.major,
        minor: p.minor,
        multiProcessorCount: p.multi_processor_count,
        integrated: p.integrated,
        canMapHostMemory: 1,
        concurrentKernels: 1,
        ECCEnabled: p.ecc_enabled,
        pciBusID: p.pci_bus_id,
        pciDeviceID: p.pci_device_id,
        pciDomainID: p.pci_domain_id,
        unifiedAddressing: 1,
        memoryClockRate: p.memory_clock_rate,
        memoryBusWidth: p.memory_bus_width,
        l2CacheSize: p.l2_cache_size,
        maxThreadsPerMultiProcessor: p.max_threads_per_multi_processor,
        managedMemory: p.managed_memory,
        isMultiGpuBoard: p.is_multi_gpu_board,
        concurrentManagedAccess: p.managed_memory,
        directManagedMemAccessFromHost: p.managed_memory,
        cooperativeLaunch: 1,
        memoryPoolsSupported: 1,
        gcnArchName: chars::<256>(&p.gcn_arch_name),
        ..hipDeviceProp_tR0600::default()
    }
}

c_exports! {
    /// `hipInit`.
    fn hipInit(flags: u32) -> hipError_t {
        on_node(hipErrorInvalidDevice, |sim| sim.hip_init(flags))
    }

    /// `hipDriverGetVersion`.
    ///
    /// # Safety
    /// `driver_version` is NULL or points at writable storage of its C type.
    unsafe fn hipDriverGetVersion(driver_version: *mut i32) -> hipError_t {
        on_node(hipErrorInvalidDevice, |sim| {
            if driver_version.is_null() {
                return Err(INVALID_VALUE);
            }
            // SAFETY: the caller's contract (above).
            unsafe { put(driver_version.cast(), sim.hip_driver_get_version()?) }
        })
    }

    /// `hipRuntimeGetVersion`.
    ///
    /// # Safety
    /// `runtime_version` is NULL or points at writable storage of its C type.
    unsafe fn hipRuntimeGetVersion(runtime_version: *mut i32) -> hipError_t {
        on_node(hipErrorInvalidDevice, |sim| {
            if runtime_version.is_null() {
                return Err(INVALID_VALUE);
            }
            // SAFETY: the caller's contract (above).
            unsafe { put(runtime_version.cast(), sim.hip_runtime_get_version()?) }
        })
    }

    /// `hipGetDeviceCount`: the count is written on failure too (0), as HIP does.
    ///
    /// # Safety
    /// `count` is NULL or points at writable storage of its C type.
    unsafe fn hipGetDeviceCount(count: *mut i32) -> hipError_t {
        if count.is_null() {
            return finish(hipErrorInvalidValue);
        }
        let result = runtime().map(|rt| rt.sim.hip_get_device_count());
        let (error, value) = match result {
            None => (hipErrorNoDevice, 0),
            Some(Ok(n)) => (hipSuccess, n),
            Some(Err(code)) => (code.0, 0),
        };
        // SAFETY: the caller's contract (above).
        unsafe { ptr::write(count.cast(), value) };
        finish(error)
    }

    /// `hipDeviceGet`.
    ///
    /// # Safety
    /// `device` is NULL or points at writable storage of its C type.
    unsafe fn hipDeviceGet(device: *mut i32, ordinal: i32) -> hipError_t {
        on_node(hipErrorInvalidDevice, |sim| {
            if device.is_null() {
                return Err(INVALID_VALUE);
            }
            // SAFETY: the caller's contract (above).
            unsafe { put(device.cast(), sim.hip_device_get(ordinal)?) }
        })
    }

    /// `hipDeviceGetName`: the name cut to `len - 1` bytes and NUL-terminated.
    ///
    /// # Safety
    /// `name` is NULL or has room for `len` bytes.
    unsafe fn hipDeviceGetName(name: *mut c_char, len: i32, device: i32) -> hipError_t {
        on_node(hipErrorInvalidDevice, |sim| {
            let size = usize::try_from(len).map_err(|_| INVALID_VALUE)?;
            if name.is_null() {
                return Err(INVALID_VALUE);
            }
            let text = sim.hip_device_get_name(device, size)?;
            // SAFETY: the caller's contract (above).
            unsafe { put_text(name, len, &text) }
        })
    }

    /// `hipDeviceGetUuid`.
    ///
    /// # Safety
    /// `uuid` is NULL or points at writable storage of its C type.
    unsafe fn hipDeviceGetUuid(uuid: *mut hipUUID, device: i32) -> hipError_t {
        on_node(hipErrorInvalidDevice, |sim| {
            if uuid.is_null() {
                return Err(INVALID_VALUE);
            }
            let bytes = sim.hip_device_get_uuid(device)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(uuid.cast(), hipUUID { bytes }) }
        })
    }

    /// `hipDeviceGetAttribute(&value, attribute, device)`.
    ///
    /// # Safety
    /// `pi` is NULL or points at writable storage of its C type.
    unsafe fn hipDeviceGetAttribute(pi: *mut i32, attr: i32, device: i32) -> hipError_t {
        on_node(hipErrorInvalidDevice, |sim| {
            if pi.is_null() {
                return Err(INVALID_VALUE);
            }
            // SAFETY: the caller's contract (above).
            unsafe { put(pi.cast(), sim.hip_device_get_attribute(attr, device)?) }
        })
    }

    /// `hipDeviceTotalMem`: the properties' `totalGlobalMem`.
    ///
    /// # Safety
    /// `bytes` is NULL or points at writable storage of its C type.
    unsafe fn hipDeviceTotalMem(bytes: *mut usize, device: i32) -> hipError_t {
        on_node(hipErrorInvalidDevice, |sim| {
            if bytes.is_null() {
                return Err(INVALID_VALUE);
            }
            let props = sim.hip_get_device_properties(device)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(bytes.cast(), size_t(props.total_global_mem)) }
        })
    }

    /// `hipDeviceGetPCIBusId`: `dddd:bb:dd.0` from the properties.
    ///
    /// # Safety
    /// `pci_bus_id` is NULL or has room for `len` bytes.
    unsafe fn hipDeviceGetPCIBusId(pci_bus_id: *mut c_char, len: i32, device: i32) -> hipError_t {
        on_node(hipErrorInvalidDevice, |sim| {
            if pci_bus_id.is_null() || len <= 0 {
                return Err(INVALID_VALUE);
            }
            let p = sim.hip_get_device_properties(device)?;
            let text = format!(
                "{:04x}:{:02x}:{:02x}.0",
                p.pci_domain_id, p.pci_bus_id, p.pci_device_id
            );
            // SAFETY: the caller's contract (above).
            unsafe { put_text(pci_bus_id, len, &text) }
        })
    }

    /// `hipGetDeviceProperties` with HIP 5's 792-byte struct (ROCm 6 keeps
    /// this symbol for programs built against ROCm 5).
    ///
    /// # Safety
    /// `prop` is NULL or points at writable storage of its C type.
    unsafe fn hipGetDeviceProperties(prop: *mut hipDeviceProp_tR0000, device: i32) -> hipError_t {
        on_node(hipErrorInvalidDevice, |sim| {
            if prop.is_null() {
                return Err(INVALID_VALUE);
            }
            let props = sim.hip_get_device_properties(device)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(prop.cast(), device_prop(&props)) }
        })
    }

    /// `hipGetDevicePropertiesR0600`: ROCm 6's 1472-byte struct (what
    /// `hipGetDeviceProperties` means to a client built against ROCm 6's
    /// headers, and what `hipGetProcAddress` answers for it from 6.0 on).
    ///
    /// # Safety
    /// `prop` is NULL or points at writable storage of its C type.
    unsafe fn hipGetDevicePropertiesR0600(prop: *mut hipDeviceProp_tR0600, device: i32) -> hipError_t {
        on_node(hipErrorInvalidDevice, |sim| {
            if prop.is_null() {
                return Err(INVALID_VALUE);
            }
            let props = sim.hip_get_device_properties(device)?;
            let uuid = sim.hip_device_get_uuid(device)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(prop.cast(), device_prop_r0600(&props, uuid)) }
        })
    }

    /// `hipGetDevice`: this thread's current device.
    ///
    /// # Safety
    /// `device` is NULL or points at writable storage of its C type.
    unsafe fn hipGetDevice(device: *mut i32) -> hipError_t {
        call("hipGetDevice", |rt| {
            if device.is_null() {
                return Err(INVALID_VALUE);
            }
            // SAFETY: the caller's contract (above).
            unsafe { put(device.cast(), current_device(&rt.sim)) }
        })
    }

    /// `hipDeviceCanAccessPeer(&can, device, peer)`.
    ///
    /// # Safety
    /// `can_access_peer` is NULL or points at writable storage of its C type.
    unsafe fn hipDeviceCanAccessPeer(can_access_peer: *mut i32, device_id: i32, peer_device_id: i32) -> hipError_t {
        on_node(hipErrorInvalidDevice, |sim| {
            if can_access_peer.is_null() {
                return Err(INVALID_VALUE);
            }
            let can = sim.hip_device_can_access_peer(device_id, peer_device_id)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(can_access_peer.cast(), i32::from(can)) }
        })
    }

    /// `hipSetDevice`.
    fn hipSetDevice(device_id: i32) -> hipError_t {
        on_node(hipErrorInvalidDevice, |sim| {
            sim.hip_set_device(device_id)?;
            set_current_device(device_id);
            Ok(())
        })
    }

    /// `hipDeviceEnablePeerAccess(peer, flags)`.
    fn hipDeviceEnablePeerAccess(peer_device_id: i32, flags: u32) -> hipError_t {
        on_node(hipErrorInvalidDevice, |sim| {
            sim.hip_select_device(current_device(sim));
            sim.hip_device_enable_peer_access(peer_device_id, flags)
        })
    }

    /// `hipDeviceGetP2PAttribute(&value, attribute, src, dst)`.
    ///
    /// # Safety
    /// `value` is NULL or points at writable storage of its C type.
    unsafe fn hipDeviceGetP2PAttribute(value: *mut i32, attr: i32, src_device: i32, dst_device: i32) -> hipError_t {
        on_node(hipErrorInvalidDevice, |sim| {
            if value.is_null() {
                return Err(INVALID_VALUE);
            }
            // SAFETY: the caller's contract (above).
            unsafe { put(value.cast(), sim.hip_device_get_p2p_attribute(attr, src_device, dst_device)?) }
        })
    }
}

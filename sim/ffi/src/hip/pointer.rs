//! What HIP knows about a pointer (`hipPointerGetAttribute`,
//! `hipPointerGetAttributes`): device allocations, pinned, registered and
//! managed host memory, and memory HIP never saw. Triton's launcher asks
//! `HIP_POINTER_ATTRIBUTE_DEVICE_POINTER` of every pointer argument and
//! takes `hipErrorInvalidValue` as "a CPU tensor".
//!
//! Answers follow ROCm/clr's `ihipPointerGetAttributes` and
//! `hipPointerGetAttributes` (hipamd/src/hip_memory.cpp), with ROCm 6's
//! `hipMemoryType` numbering (`hipMemoryTypeUnregistered` 0, `Host` 1,
//! `Device` 2, `Managed` 3). The simulated node has one address space, so
//! host memory HIP knows is reached by the device at its host address (as
//! `hipHostGetDevicePointer` answers). Device memory that is no allocation
//! (a module's globals, HSA pool allocations) is memory HIP does not know
//! here, where ROCm would find its memory object.

use std::ffi::{c_int, c_uint, c_void};

use amdgpu_sim::HipCode;

use super::context::current_device;
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{Call, call_with, put};
use crate::core::host_memory::HostKind;
use crate::core::runtime::Runtime;

/// `hipMemoryType` (ROCm 6).
const MEMORY_UNREGISTERED: c_uint = 0;
const MEMORY_HOST: c_uint = 1;
const MEMORY_DEVICE: c_uint = 2;
const MEMORY_MANAGED: c_uint = 3;
/// `hipInvalidDeviceId`: the device of memory HIP does not know.
const INVALID_DEVICE_ID: c_int = -2;

/// `hipPointer_attribute` values (`driver_types.h`).
mod attribute {
    pub const CONTEXT: i32 = 1;
    pub const MEMORY_TYPE: i32 = 2;
    pub const DEVICE_POINTER: i32 = 3;
    pub const HOST_POINTER: i32 = 4;
    pub const P2P_TOKENS: i32 = 5;
    pub const SYNC_MEMOPS: i32 = 6;
    pub const BUFFER_ID: i32 = 7;
    pub const IS_MANAGED: i32 = 8;
    pub const DEVICE_ORDINAL: i32 = 9;
    pub const IS_LEGACY_HIP_IPC_CAPABLE: i32 = 10;
    pub const RANGE_START_ADDR: i32 = 11;
    pub const RANGE_SIZE: i32 = 12;
    pub const MAPPED: i32 = 13;
    pub const ALLOWED_HANDLE_TYPES: i32 = 14;
    pub const IS_GPU_DIRECT_RDMA_CAPABLE: i32 = 15;
    pub const ACCESS_FLAGS: i32 = 16;
    pub const MEMPOOL_HANDLE: i32 = 17;
}

/// `hipPointerAttribute_t`.
#[repr(C)]
#[derive(Clone, Copy)]
struct PointerAttributes {
    memory_type: c_uint,
    device: c_int,
    device_pointer: *mut c_void,
    host_pointer: *mut c_void,
    is_managed: c_int,
    allocation_flags: c_uint,
}
const _: () = assert!(size_of::<PointerAttributes>() == 32);

/// The memory a pointer lies in.
#[derive(Clone, Copy)]
enum Owner {
    /// A device allocation: base, size, device.
    Device { base: u64, size: u64, ordinal: i32 },
    /// Host memory HIP allocated or registered: base, size, managed.
    Host {
        base: usize,
        size: usize,
        managed: bool,
    },
    /// Memory HIP does not know.
    Unknown,
}

fn owner(rt: &Runtime, address: usize) -> Owner {
    if let Some(p) = rt.sim.hip_pointer(address as u64) {
        return Owner::Device {
            base: p.base,
            size: p.size,
            ordinal: p.ordinal,
        };
    }
    let host = rt.host_memory();
    if let Some((base, size, kind)) = host.allocation_at(address) {
        return Owner::Host {
            base,
            size,
            managed: kind == HostKind::Managed,
        };
    }
    match host.registration_at(address) {
        Some((base, size)) => Owner::Host {
            base,
            size,
            managed: false,
        },
        None => Owner::Unknown,
    }
}

/// An attribute's value in its C type.
enum Value {
    Uint(c_uint),
    Int(c_int),
    Pointer(usize),
    Bool(bool),
}

/// One attribute of the memory at `address` and whether ROCm fails it
/// (`hipErrorInvalidValue` for memory it does not know, after writing the
/// value).
fn attribute_value(rt: &Runtime, attr: i32, address: usize) -> Result<(Value, Call), HipCode> {
    use attribute as a;
    let o = owner(rt, address);
    let known = !matches!(o, Owner::Unknown);
    let status = if known {
        Ok(())
    } else {
        Err(HipCode::INVALID_VALUE)
    };
    let value = match attr {
        // clr answers Host for every host-side (fine-grained) object,
        // managed memory included.
        a::MEMORY_TYPE => Value::Uint(match o {
            Owner::Device { .. } => MEMORY_DEVICE,
            Owner::Host { .. } => MEMORY_HOST,
            Owner::Unknown => MEMORY_UNREGISTERED,
        }),
        a::DEVICE_POINTER => Value::Pointer(if known { address } else { 0 }),
        a::HOST_POINTER => {
            let host = matches!(o, Owner::Host { .. });
            let status = if host {
                Ok(())
            } else {
                Err(HipCode::INVALID_VALUE)
            };
            return Ok((Value::Pointer(if host { address } else { 0 }), status));
        }
        a::SYNC_MEMOPS => Value::Bool(false),
        a::IS_MANAGED => Value::Bool(matches!(o, Owner::Host { managed: true, .. })),
        a::DEVICE_ORDINAL => Value::Int(match o {
            Owner::Device { ordinal, .. } => ordinal,
            // HIP keeps the device current at allocation; host memory
            // here belongs to no device, so the current one answers.
            Owner::Host { .. } => current_device(&rt.sim),
            Owner::Unknown => INVALID_DEVICE_ID,
        }),
        a::RANGE_START_ADDR => Value::Pointer(match o {
            Owner::Device { base, .. } => base as usize,
            Owner::Host { base, .. } => base,
            Owner::Unknown => 0,
        }),
        // A 32-bit answer, as clr writes it.
        a::RANGE_SIZE => Value::Uint(match o {
            Owner::Device { size, .. } => size as c_uint,
            Owner::Host { size, .. } => size as c_uint,
            Owner::Unknown => 0,
        }),
        a::MAPPED => Value::Bool(known),
        // No allocation flags are kept; clr answers 0 for unknown memory too.
        a::ACCESS_FLAGS => return Ok((Value::Uint(0), Ok(()))),
        a::CONTEXT
        | a::P2P_TOKENS
        | a::BUFFER_ID
        | a::IS_LEGACY_HIP_IPC_CAPABLE
        | a::ALLOWED_HANDLE_TYPES
        | a::IS_GPU_DIRECT_RDMA_CAPABLE
        | a::MEMPOOL_HANDLE => return Err(HipCode::NOT_SUPPORTED),
        _ => return Err(HipCode::INVALID_VALUE),
    };
    Ok((value, status))
}

/// Writes `value` in its C type.
///
/// # Safety
/// `data` points at writable storage of the value's C type.
unsafe fn write_value(data: *mut c_void, value: Value) -> Call {
    // SAFETY: the value's C type, the caller's promise.
    unsafe {
        match value {
            Value::Uint(v) => put(data.cast::<c_uint>(), v),
            Value::Int(v) => put(data.cast::<c_int>(), v),
            Value::Pointer(v) => put(data.cast::<usize>(), v),
            Value::Bool(v) => put(data.cast::<bool>(), v),
        }
    }
}

c_exports! {
    /// `hipPointerGetAttribute(data, attribute, ptr)`.
    ///
    /// # Safety
    /// `data` is NULL or points at writable storage of the attribute's C type.
    unsafe fn hipPointerGetAttribute(data: *mut c_void, attribute: c_int, ptr: *mut c_void) -> hipError_t {
        call_with("hipPointerGetAttribute", || format!("{attribute}, {ptr:?}"), |rt| {
            if data.is_null() || ptr.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let (value, status) = attribute_value(rt, attribute, ptr as usize)?;
            // SAFETY: the caller's contract (above).
            unsafe { write_value(data, value) }?;
            status
        })
    }

    /// `hipPointerGetAttributes`: memory HIP does not know is
    /// `hipMemoryTypeUnregistered` on device `hipInvalidDeviceId`, and a
    /// success, as ROCm 6 answers.
    ///
    /// # Safety
    /// `attributes` is NULL or points at a writable `hipPointerAttribute_t`.
    unsafe fn hipPointerGetAttributes(attributes: *mut c_void, ptr: *const c_void) -> hipError_t {
        call_with("hipPointerGetAttributes", || format!("{ptr:?}"), |rt| {
            if attributes.is_null() || ptr.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let address = ptr as usize;
            let out = match owner(rt, address) {
                Owner::Device { ordinal, .. } => PointerAttributes {
                    memory_type: MEMORY_DEVICE,
                    device: ordinal,
                    device_pointer: address as *mut c_void,
                    host_pointer: std::ptr::null_mut(),
                    is_managed: 0,
                    allocation_flags: 0,
                },
                Owner::Host { managed, .. } => PointerAttributes {
                    memory_type: if managed { MEMORY_MANAGED } else { MEMORY_HOST },
                    device: current_device(&rt.sim),
                    device_pointer: address as *mut c_void,
                    host_pointer: address as *mut c_void,
                    is_managed: c_int::from(managed),
                    allocation_flags: 0,
                },
                Owner::Unknown => PointerAttributes {
                    memory_type: MEMORY_UNREGISTERED,
                    device: INVALID_DEVICE_ID,
                    device_pointer: std::ptr::null_mut(),
                    host_pointer: std::ptr::null_mut(),
                    is_managed: 0,
                    allocation_flags: 0,
                },
            };
            // SAFETY: the caller's contract (above).
            unsafe { put(attributes.cast::<PointerAttributes>(), out) }
        })
    }
}

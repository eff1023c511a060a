//! How a HIP export runs: counted by the simulator (and failed by
//! injection, `AMDGPU_SIM_FAULTS`) before it does anything, on the
//! runtime (none is `hipErrorInvalidDevice`), a failure recorded as the
//! error `hipGetLastError` returns.

use std::ffi::c_void;

use amdgpu_sim::HipCode;

use super::ptr;
use super::runtime::{Runtime, last_error, runtime};
use crate::abi::*;

/// An export's body: `Err` is the error returned.
pub(crate) type Call = Result<(), HipCode>;
/// HIP handles are pointers to opaque structs; here they are numbers.
#[allow(non_camel_case_types)]
pub(crate) type handle = *mut c_void;

/// Records a failure as the last error and returns it.
pub(crate) fn finish(error: hipError_t) -> hipError_t {
    last_error().finish(error)
}

/// The error of an export's body.
fn error(call: Call) -> hipError_t {
    match call {
        Ok(()) => hipSuccess,
        Err(code) => code.0,
    }
}

/// Runs `body` after counting `op` (and applying its faults).
pub(crate) fn call(op: &'static str, body: impl FnOnce(&'static Runtime) -> Call) -> hipError_t {
    call_with(op, String::new, body)
}

/// [`call`], with the arguments the call log shows.
pub(crate) fn call_with(
    op: &'static str,
    args: impl FnOnce() -> String,
    body: impl FnOnce(&'static Runtime) -> Call,
) -> hipError_t {
    finish(match runtime() {
        None => hipErrorInvalidDevice,
        Some(rt) => error(rt.sim.hip_gate(op, args).and_then(|()| body(rt))),
    })
}

/// Runs `body`, which counts its own call through the simulator; without
/// a runtime the call is `no_runtime`.
pub(crate) fn modelled(
    no_runtime: hipError_t,
    body: impl FnOnce(&'static Runtime) -> Call,
) -> hipError_t {
    finish(match runtime() {
        None => no_runtime,
        Some(rt) => error(body(rt)),
    })
}

/// Writes `value` to `out`, or `hipErrorInvalidValue` for NULL.
///
/// # Safety
/// `out` is NULL or points at writable storage of `T`'s C type.
pub(crate) unsafe fn put<T: Copy>(out: *mut T, value: T) -> Call {
    // SAFETY: the caller's promise, passed on.
    unsafe { ptr::write(out.cast(), value) }
        .then_some(())
        .ok_or(HipCode::INVALID_VALUE)
}

/// A handle value as the pointer C holds.
pub(crate) fn as_handle(value: u64) -> handle {
    value as usize as handle
}

/// The handle value of a pointer C holds.
pub(crate) fn of_handle(value: handle) -> u64 {
    value as usize as u64
}

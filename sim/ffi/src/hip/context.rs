//! HIP's per-thread state and contexts: this thread's context stack,
//! `hipSetDevice`'s choice and the `<<<…>>>` call configurations
//! `__hipPushCallConfiguration` pushes (per thread by HIP's definition, so
//! thread locals, here and nowhere else), primary contexts, and the
//! context calls IREE's HIP driver makes.

use std::cell::RefCell;
use std::ffi::c_int;

use amdgpu_sim::{HipCode, Sim};

use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{as_handle, call, handle, modelled, of_handle, put};

thread_local! {
    /// This thread's context stack (the top is current); empty means the
    /// device `hipSetDevice` chose (HIP's implicit primary context).
    static CONTEXTS: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
    /// `hipSetDevice`'s choice for this thread.
    static DEVICE: RefCell<i32> = const { RefCell::new(0) };
    /// This thread's pushed call configurations (the top is the next
    /// `__hipPopCallConfiguration`'s), as ROCm keeps them per thread.
    static CALL_CONFIGURATIONS: RefCell<Vec<CallConfiguration>> = const { RefCell::new(Vec::new()) };
}

/// Most call configurations one thread keeps pushed (a `<<<…>>>` launch
/// pushes one and its stub pops it at once; only nesting grows the stack).
pub(crate) const MAX_CALL_CONFIGURATIONS: usize = 1024;

/// A `<<<grid, block, shared, stream>>>` launch's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CallConfiguration {
    pub(crate) grid: [u32; 3],
    pub(crate) block: [u32; 3],
    pub(crate) shared: usize,
    /// The `hipStream_t`, as the number it is.
    pub(crate) stream: usize,
}

/// Pushes a call configuration on this thread's stack; `false` when
/// [`MAX_CALL_CONFIGURATIONS`] are pushed already.
pub(crate) fn push_call_configuration(configuration: CallConfiguration) -> bool {
    CALL_CONFIGURATIONS.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= MAX_CALL_CONFIGURATIONS {
            return false;
        }
        c.push(configuration);
        true
    })
}

/// Pops this thread's last pushed call configuration.
pub(crate) fn pop_call_configuration() -> Option<CallConfiguration> {
    CALL_CONFIGURATIONS.with(|c| c.borrow_mut().pop())
}

/// This thread's current device.
pub(crate) fn current_device(sim: &Sim) -> i32 {
    CONTEXTS
        .with(|c| c.borrow().last().copied())
        .and_then(|ctx| sim.hip_context_device(ctx).ok())
        .unwrap_or_else(|| DEVICE.with(|d| *d.borrow()))
}

/// Sets this thread's device (`hipSetDevice`).
pub(crate) fn set_current_device(ordinal: i32) {
    DEVICE.with(|d| *d.borrow_mut() = ordinal);
    CONTEXTS.with(|c| c.borrow_mut().clear());
}

c_exports! {
    /// `hipDevicePrimaryCtxRetain`.
    ///
    /// # Safety
    /// `pctx` is NULL or points at a writable context handle.
    unsafe fn hipDevicePrimaryCtxRetain(pctx: *mut handle, dev: c_int) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            if pctx.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let ctx = rt.sim.hip_primary_ctx_retain(dev)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(pctx, as_handle(ctx)) }
        })
    }

    /// `hipDevicePrimaryCtxRelease`.
    fn hipDevicePrimaryCtxRelease(dev: c_int) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| rt.sim.hip_primary_ctx_release(dev))
    }

    /// `hipCtxSetCurrent`: replaces the top of this thread's stack (null clears it).
    fn hipCtxSetCurrent(ctx: handle) -> hipError_t {
        call("hipCtxSetCurrent", |rt| {
            let ctx = of_handle(ctx);
            if ctx != 0 {
                rt.sim.hip_context_device(ctx)?;
            }
            CONTEXTS.with(|c| {
                let mut c = c.borrow_mut();
                c.pop();
                if ctx != 0 {
                    c.push(ctx);
                }
            });
            Ok(())
        })
    }

    /// `hipCtxGetCurrent`: null when this thread has none.
    ///
    /// # Safety
    /// `ctx` is NULL or points at a writable context handle.
    unsafe fn hipCtxGetCurrent(ctx: *mut handle) -> hipError_t {
        call("hipCtxGetCurrent", |_| {
            let top = CONTEXTS.with(|c| c.borrow().last().copied()).unwrap_or(0);
            // SAFETY: the caller's contract (above).
            unsafe { put(ctx, as_handle(top)) }
        })
    }

    /// `hipCtxPushCurrent`.
    fn hipCtxPushCurrent(ctx: handle) -> hipError_t {
        call("hipCtxPushCurrent", |rt| {
            let ctx = of_handle(ctx);
            rt.sim.hip_context_device(ctx)?;
            CONTEXTS.with(|c| c.borrow_mut().push(ctx));
            Ok(())
        })
    }

    /// `hipCtxPopCurrent`: the popped context (optional out-parameter).
    ///
    /// # Safety
    /// `ctx` is NULL or points at a writable context handle.
    unsafe fn hipCtxPopCurrent(ctx: *mut handle) -> hipError_t {
        call("hipCtxPopCurrent", |_| {
            let top = CONTEXTS
                .with(|c| c.borrow_mut().pop())
                .ok_or(HipCode::INVALID_CONTEXT)?;
            if !ctx.is_null() {
                // SAFETY: the caller's contract (above).
                unsafe { put(ctx, as_handle(top)) }?;
            }
            Ok(())
        })
    }
}

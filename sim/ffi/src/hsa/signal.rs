//! HSA signals with ROCr's ABI: an `hsa_signal_t` handle is the address of
//! an `amd_signal_t` (`amd_hsa_signal.h`) in host memory, 64-byte aligned,
//! whose `value` a client may read (and write) with its own atomics, as
//! IREE's AMDGPU driver does.
//!
//! - Creation and destruction (`hsa_signal_create`, `hsa_amd_signal_create`,
//!   `hsa_signal_destroy`) are HSA calls of the node: counted, faulted by
//!   `AMDGPU_SIM_FAULTS`, refused before `hsa_init`; live signals are counted
//!   in the leak report (`hsa_signals`).
//! - The value operations (load, store, silent store, exchange, CAS, add,
//!   subtract, and, or, xor) in every memory order of `hsa.h` — `_relaxed`,
//!   `_scacquire`, `_screlease`, `_scacq_screl` and the deprecated
//!   `_acquire`, `_release`, `_acq_rel` — are the atomic operation alone, as
//!   in ROCr, where they are inline memory operations: not counted, never
//!   faulted. A handle that is not a live signal of this library (ROCr's
//!   behaviour is undefined) is ignored and reads as 0, said once on stderr.
//! - Waits (`hsa_signal_wait_*`, `hsa_amd_signal_wait_any`,
//!   `hsa_amd_signal_wait_all`) block until their condition holds or the
//!   timeout (in system-timestamp ticks, `HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY`)
//!   passes. Every store through this library wakes them; a value written
//!   straight into the memory (or by a silent store) is seen within
//!   [`POLL_INTERVAL`](crate::core::signals::POLL_INTERVAL). Waits are counted HSA calls: an injected fault makes
//!   one return at once, unsatisfied — the spurious return the HSA
//!   specification allows every wait ("the wait might return before the
//!   condition is satisfied").

use std::ffi::c_void;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use amdgpu_sim::HsaCode;
use amdgpu_sys::hsa_values::{AMD_SIGNAL_AMD_GPU_ONLY, AMD_SIGNAL_IPC, SignalCondition};

use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hsa_call::{Call, INVALID, put, status};
use crate::core::ptr;
use crate::core::runtime::{Runtime, runtime};
use crate::core::signals::{MAX_WAIT_SIGNALS, Registry, Signal};

/// `hsa_signal_value_t` on 64-bit hosts.
#[allow(non_camel_case_types)]
pub(crate) type hsa_signal_value_t = i64;

/// Runs `body` on the signal behind `signal`; `None` (said once) for a
/// handle that is not one.
fn with<T>(
    signals: &Registry,
    op: &str,
    signal: hsa_signal_t,
    body: impl FnOnce(&Signal) -> T,
) -> Option<T> {
    match signals.get(signal.handle) {
        Some(s) => Some(body(&s)),
        None => {
            signals.not_a_signal(op, signal.handle);
            None
        }
    }
}

/// The deadline `timeout_hint` ticks of the system timestamp from now;
/// `None` for no limit (`UINT64_MAX`, or past what an `Instant` holds).
fn deadline(timeout_hint: u64) -> Option<Instant> {
    if timeout_hint == u64::MAX {
        return None;
    }
    let frequency = u128::from(amdgpu_sim::hsa_info::SYSTEM.timestamp_frequency);
    let nanos = u128::from(timeout_hint) * 1_000_000_000 / frequency;
    let nanos = u64::try_from(nanos).ok()?;
    Instant::now().checked_add(Duration::from_nanos(nanos))
}

/// The failure ordering of a compare-and-swap with success ordering `order`.
const fn failure(order: Ordering) -> Ordering {
    match order {
        Ordering::Acquire | Ordering::AcqRel | Ordering::SeqCst => Ordering::Acquire,
        _ => Ordering::Relaxed,
    }
}

/// `hsa_signal_create` / `hsa_amd_signal_create`.
///
/// # Safety
/// `consumers` is NULL or holds `num_consumers` agents; `out` is NULL or
/// points at a writable `hsa_signal_t`.
unsafe fn create(
    rt: &Runtime,
    op: &'static str,
    initial_value: i64,
    num_consumers: u32,
    consumers: *const hsa_agent_t,
    attributes: u64,
    out: *mut hsa_signal_t,
) -> Call {
    rt.sim.hsa_external(
        op,
        || format!("{initial_value}, {num_consumers}, {attributes:#x}"),
        || {
            if out.is_null() || (num_consumers > 0 && consumers.is_null()) {
                return Err(INVALID);
            }
            if attributes & !(AMD_SIGNAL_AMD_GPU_ONLY | AMD_SIGNAL_IPC) != 0 {
                return Err(INVALID);
            }
            let count = usize::try_from(num_consumers).map_err(|_| INVALID)?;
            // SAFETY: the caller's contract (above).
            let agents = unsafe { ptr::read_array(consumers, count) }.ok_or(INVALID)?;
            if agents.iter().any(|a| !rt.sim.is_agent(a.handle)) {
                return Err(HsaCode::INVALID_AGENT);
            }
            let handle = rt.signals.create(initial_value);
            // SAFETY: the caller's contract (above).
            let written = unsafe { put(out.cast(), hsa_signal_t { handle }) };
            if written.is_err() {
                rt.signals.destroy(handle);
            }
            written
        },
    )
}

/// `hsa_signal_wait_*`: the value when the wait returned.
fn wait(
    op: &'static str,
    signal: hsa_signal_t,
    condition: u32,
    compare_value: i64,
    timeout_hint: u64,
    order: Ordering,
) -> i64 {
    let Some(rt) = runtime() else { return 0 };
    let Some(s) = rt.signals.get(signal.handle) else {
        rt.signals.not_a_signal(op, signal.handle);
        return 0;
    };
    let gate = rt.sim.hsa_external(
        op,
        || format!("{:#x}, {condition}, {compare_value}", signal.handle),
        || Ok(()),
    );
    let condition = SignalCondition::from_raw(condition);
    if gate.is_err() || condition.is_none() {
        // A spurious return (injected) or a condition no header defines.
        return s.load(order);
    }
    let condition = condition.expect("checked above");
    let satisfied = rt.signals.wait_until(deadline(timeout_hint), || {
        let value = s.load(order);
        condition.holds(value, compare_value).then_some(value)
    });
    satisfied.unwrap_or_else(|| s.load(order))
}

/// The signals, conditions and compare values of a multi-signal wait;
/// `None` for NULL arrays or a count past [`MAX_WAIT_SIGNALS`].
///
/// # Safety
/// Each non-NULL array holds `count` elements.
#[allow(clippy::type_complexity)]
unsafe fn wait_list(
    registry: &Registry,
    count: u32,
    signals: *const hsa_signal_t,
    conds: *const u32,
    values: *const i64,
) -> Option<Vec<(Option<Arc<Signal>>, Option<SignalCondition>, i64)>> {
    if count > MAX_WAIT_SIGNALS {
        return None;
    }
    let n = usize::try_from(count).ok()?;
    // SAFETY: the caller's contract (above).
    let (signals, conds, values) = unsafe {
        (
            ptr::read_array(signals, n)?,
            ptr::read_array(conds, n)?,
            ptr::read_array(values, n)?,
        )
    };
    Some(
        signals
            .iter()
            .zip(conds)
            .zip(values)
            .map(|((s, c), v)| {
                let signal = (s.handle != 0).then(|| registry.get(s.handle)).flatten();
                (signal, SignalCondition::from_raw(c), v)
            })
            .collect(),
    )
}

c_exports! {
    /// `hsa_signal_create`: a signal any agent may consume.
    ///
    /// # Safety
    /// `consumers` is NULL or holds `num_consumers` agents; `signal` is NULL
    /// or points at a writable `hsa_signal_t`.
    unsafe fn hsa_signal_create(
        initial_value: hsa_signal_value_t,
        num_consumers: u32,
        consumers: *const hsa_agent_t,
        signal: *mut hsa_signal_t,
    ) -> hsa_status_t {
        let Some(rt) = runtime() else { return HSA_STATUS_ERROR_NOT_INITIALIZED };
        // SAFETY: the caller's contract (above).
        status(unsafe {
            create(rt, "hsa_signal_create", initial_value, num_consumers, consumers, 0, signal)
        })
    }

    /// `hsa_amd_signal_create`: `attributes` is a mask of
    /// `hsa_amd_signal_attribute_t` (`HSA_AMD_SIGNAL_AMD_GPU_ONLY`,
    /// `HSA_AMD_SIGNAL_IPC`); other bits are `INVALID_ARGUMENT`. Both kinds
    /// are the same host-memory signal here (`hsa_amd_ipc_signal_create` is
    /// outside the model).
    ///
    /// # Safety
    /// `consumers` is NULL or holds `num_consumers` agents; `signal` is NULL
    /// or points at a writable `hsa_signal_t`.
    unsafe fn hsa_amd_signal_create(
        initial_value: hsa_signal_value_t,
        num_consumers: u32,
        consumers: *const hsa_agent_t,
        attributes: u64,
        signal: *mut hsa_signal_t,
    ) -> hsa_status_t {
        let Some(rt) = runtime() else { return HSA_STATUS_ERROR_NOT_INITIALIZED };
        // SAFETY: the caller's contract (above).
        status(unsafe {
            create(rt, "hsa_amd_signal_create", initial_value, num_consumers, consumers,
                attributes, signal)
        })
    }

    /// `hsa_signal_destroy`: a zero handle is `INVALID_ARGUMENT`, any other
    /// that is not a live signal `INVALID_SIGNAL` (ROCr's answers).
    fn hsa_signal_destroy(signal: hsa_signal_t) -> hsa_status_t {
        let Some(rt) = runtime() else { return HSA_STATUS_ERROR_NOT_INITIALIZED };
        status(rt.sim.hsa_external(
            "hsa_signal_destroy",
            || format!("{:#x}", signal.handle),
            || {
                if signal.handle == 0 {
                    return Err(INVALID);
                }
                if rt.signals.destroy(signal.handle) {
                    Ok(())
                } else {
                    Err(HsaCode::INVALID_SIGNAL)
                }
            },
        ))
    }

    /// `hsa_amd_signal_wait_any`: the index of the first signal whose
    /// condition holds (its value in `satisfying_value` when that is not
    /// NULL), or `UINT32_MAX` on timeout, when no listed signal is valid, or
    /// for NULL arrays. NULL and invalid signals are ignored (ROCr's rule).
    ///
    /// # Safety
    /// `signals`, `conds` and `values` are NULL or hold `signal_count`
    /// elements; `satisfying_value` is NULL or writable.
    unsafe fn hsa_amd_signal_wait_any(
        signal_count: u32,
        signals: *mut hsa_signal_t,
        conds: *mut u32,
        values: *mut hsa_signal_value_t,
        timeout_hint: u64,
        wait_hint: u32,
        satisfying_value: *mut hsa_signal_value_t,
    ) -> u32 {
        let _ = wait_hint;
        let Some(rt) = runtime() else { return u32::MAX };
        // SAFETY: the caller's contract (above).
        let Some(list) = (unsafe { wait_list(&rt.signals, signal_count, signals, conds, values) }) else {
            return u32::MAX;
        };
        if list.iter().all(|(s, _, _)| s.is_none()) {
            return u32::MAX;
        }
        let gate = rt.sim.hsa_external(
            "hsa_amd_signal_wait_any",
            || format!("{signal_count}, {timeout_hint}"),
            || Ok(()),
        );
        if gate.is_err() {
            return u32::MAX;
        }
        let found = rt.signals.wait_until(deadline(timeout_hint), || {
            list.iter().enumerate().find_map(|(i, (s, c, v))| {
                let (s, c) = (s.as_ref()?, (*c)?);
                let value = s.load(Ordering::Relaxed);
                c.holds(value, *v).then_some((i, value))
            })
        });
        let Some((index, value)) = found else { return u32::MAX };
        if !satisfying_value.is_null() {
            // SAFETY: the caller's contract (above).
            let _ = unsafe { put(satisfying_value.cast(), value) };
        }
        u32::try_from(index).unwrap_or(u32::MAX)
    }

    /// `hsa_amd_signal_wait_all`: 0 once every condition holds (each
    /// signal's value in `satisfying_values` when that is not NULL), or
    /// `UINT32_MAX` (the header's -1) on timeout or for NULL arrays. NULL and
    /// invalid signals count as value 0, already satisfied (ROCr's rule).
    ///
    /// # Safety
    /// `signals`, `conds` and `values` are NULL or hold `signal_count`
    /// elements; `satisfying_values` is NULL or holds `signal_count` values.
    unsafe fn hsa_amd_signal_wait_all(
        signal_count: u32,
        signals: *mut hsa_signal_t,
        conds: *mut u32,
        values: *mut hsa_signal_value_t,
        timeout_hint: u64,
        wait_hint: u32,
        satisfying_values: *mut hsa_signal_value_t,
    ) -> u32 {
        let _ = wait_hint;
        let Some(rt) = runtime() else { return u32::MAX };
        // SAFETY: the caller's contract (above).
        let Some(list) = (unsafe { wait_list(&rt.signals, signal_count, signals, conds, values) }) else {
            return u32::MAX;
        };
        let gate = rt.sim.hsa_external(
            "hsa_amd_signal_wait_all",
            || format!("{signal_count}, {timeout_hint}"),
            || Ok(()),
        );
        if gate.is_err() {
            return u32::MAX;
        }
        let observed = rt.signals.wait_until(deadline(timeout_hint), || {
            let mut observed = Vec::with_capacity(list.len());
            for (s, c, v) in &list {
                let Some(s) = s else {
                    observed.push(0);
                    continue;
                };
                let value = s.load(Ordering::Relaxed);
                // A condition no header defines is never satisfied.
                if !c.is_some_and(|c| c.holds(value, *v)) {
                    return None;
                }
                observed.push(value);
            }
            Some(observed)
        });
        let Some(observed) = observed else { return u32::MAX };
        if !satisfying_values.is_null() {
            let bytes: Vec<u8> = observed.iter().flat_map(|v| v.to_ne_bytes()).collect();
            // SAFETY: the caller's contract (above): `signal_count` values.
            let _ = unsafe { ptr::write_bytes(satisfying_values.cast::<c_void>(), &bytes) };
        }
        0
    }
}

/// Exports one value operation per (name, memory order).
macro_rules! signal_ops {
    (load: $($name:ident => $order:ident;)*) => { c_exports! {$(
        #[doc = concat!("`", stringify!($name), "`: the value (0 for a handle that is not a signal).")]
        fn $name(signal: hsa_signal_t) -> hsa_signal_value_t {
            let Some(rt) = runtime() else { return 0 };
            with(&rt.signals, stringify!($name), signal, |s| s.value.load(Ordering::$order)).unwrap_or(0)
        }
    )*} };
    (store $wake:literal: $($name:ident => $order:ident;)*) => { c_exports! {$(
        #[doc = concat!("`", stringify!($name), "` (on a queue's doorbell: rings it).")]
        fn $name(signal: hsa_signal_t, value: hsa_signal_value_t) {
            let Some(rt) = runtime() else { return };
            if let Some(word) = rt.signals.doorbell_word(signal.handle) {
                // ROCr's doorbell store: the value goes to the doorbell word.
                word.store(value as u64, Ordering::$order);
                rt.signals.wake();
                return;
            }
            with(&rt.signals, stringify!($name), signal, |s| s.value.store(value, Ordering::$order));
            if $wake {
                rt.signals.wake();
            }
        }
    )*} };
    (rmw $op:ident: $($name:ident => $order:ident;)*) => { c_exports! {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        fn $name(signal: hsa_signal_t, value: hsa_signal_value_t) {
            let Some(rt) = runtime() else { return };
            with(&rt.signals, stringify!($name), signal, |s| s.value.$op(value, Ordering::$order));
            rt.signals.wake();
        }
    )*} };
    (exchange: $($name:ident => $order:ident;)*) => { c_exports! {$(
        #[doc = concat!("`", stringify!($name), "`: the value before (0 for a handle that is not a signal).")]
        fn $name(signal: hsa_signal_t, value: hsa_signal_value_t) -> hsa_signal_value_t {
            let Some(rt) = runtime() else { return 0 };
            let old = with(&rt.signals, stringify!($name), signal, |s| s.value.swap(value, Ordering::$order));
            rt.signals.wake();
            old.unwrap_or(0)
        }
    )*} };
    (cas: $($name:ident => $order:ident;)*) => { c_exports! {$(
        #[doc = concat!("`", stringify!($name), "`: the value observed (0 for a handle that is not a signal).")]
        fn $name(
            signal: hsa_signal_t,
            expected: hsa_signal_value_t,
            value: hsa_signal_value_t,
        ) -> hsa_signal_value_t {
            let Some(rt) = runtime() else { return 0 };
            let observed = with(&rt.signals, stringify!($name), signal, |s| {
                match s.value.compare_exchange(
                    expected, value, Ordering::$order, failure(Ordering::$order),
                ) {
                    Ok(old) | Err(old) => old,
                }
            });
            rt.signals.wake();
            observed.unwrap_or(0)
        }
    )*} };
    (wait: $($name:ident => $order:ident;)*) => { c_exports! {$(
        #[doc = concat!("`", stringify!($name), "`: the value when the wait returned.")]
        fn $name(
            signal: hsa_signal_t,
            condition: u32,
            compare_value: hsa_signal_value_t,
            timeout_hint: u64,
            wait_state_hint: u32,
        ) -> hsa_signal_value_t {
            let _ = wait_state_hint;
            debug_assert!(WAIT_OPS.contains(&stringify!($name)));
            wait(stringify!($name), signal, condition, compare_value, timeout_hint, Ordering::$order)
        }
    )*} };
}

signal_ops! { load:
    hsa_signal_load_relaxed => Relaxed;
    hsa_signal_load_scacquire => Acquire;
    hsa_signal_load_acquire => Acquire;
}
signal_ops! { store true:
    hsa_signal_store_relaxed => Relaxed;
    hsa_signal_store_screlease => Release;
    hsa_signal_store_release => Release;
}
// A silent store does not wake waiters (`hsa.h`); they see it when they
// next look.
signal_ops! { store false:
    hsa_signal_silent_store_relaxed => Relaxed;
    hsa_signal_silent_store_screlease => Release;
}
signal_ops! { exchange:
    hsa_signal_exchange_relaxed => Relaxed;
    hsa_signal_exchange_scacquire => Acquire;
    hsa_signal_exchange_screlease => Release;
    hsa_signal_exchange_scacq_screl => AcqRel;
    hsa_signal_exchange_acquire => Acquire;
    hsa_signal_exchange_release => Release;
    hsa_signal_exchange_acq_rel => AcqRel;
}
signal_ops! { cas:
    hsa_signal_cas_relaxed => Relaxed;
    hsa_signal_cas_scacquire => Acquire;
    hsa_signal_cas_screlease => Release;
    hsa_signal_cas_scacq_screl => AcqRel;
    hsa_signal_cas_acquire => Acquire;
    hsa_signal_cas_release => Release;
    hsa_signal_cas_acq_rel => AcqRel;
}
signal_ops! { rmw fetch_add:
    hsa_signal_add_relaxed => Relaxed;
    hsa_signal_add_scacquire => Acquire;
    hsa_signal_add_screlease => Release;
    hsa_signal_add_scacq_screl => AcqRel;
    hsa_signal_add_acquire => Acquire;
    hsa_signal_add_release => Release;
    hsa_signal_add_acq_rel => AcqRel;
}
signal_ops! { rmw fetch_sub:
    hsa_signal_subtract_relaxed => Relaxed;
    hsa_signal_subtract_scacquire => Acquire;
    hsa_signal_subtract_screlease => Release;
    hsa_signal_subtract_scacq_screl => AcqRel;
    hsa_signal_subtract_acquire => Acquire;
    hsa_signal_subtract_release => Release;
    hsa_signal_subtract_acq_rel => AcqRel;
}
signal_ops! { rmw fetch_and:
    hsa_signal_and_relaxed => Relaxed;
    hsa_signal_and_scacquire => Acquire;
    hsa_signal_and_screlease => Release;
    hsa_signal_and_scacq_screl => AcqRel;
    hsa_signal_and_acquire => Acquire;
    hsa_signal_and_release => Release;
    hsa_signal_and_acq_rel => AcqRel;
}
signal_ops! { rmw fetch_or:
    hsa_signal_or_relaxed => Relaxed;
    hsa_signal_or_scacquire => Acquire;
    hsa_signal_or_screlease => Release;
    hsa_signal_or_scacq_screl => AcqRel;
    hsa_signal_or_acquire => Acquire;
    hsa_signal_or_release => Release;
    hsa_signal_or_acq_rel => AcqRel;
}
signal_ops! { rmw fetch_xor:
    hsa_signal_xor_relaxed => Relaxed;
    hsa_signal_xor_scacquire => Acquire;
    hsa_signal_xor_screlease => Release;
    hsa_signal_xor_scacq_screl => AcqRel;
    hsa_signal_xor_acquire => Acquire;
    hsa_signal_xor_release => Release;
    hsa_signal_xor_acq_rel => AcqRel;
}
/// The names the waits below are counted (and can be failed) by: named
/// here as well, so that a fault specification can be checked against the
/// calls the sources count (`spec::KNOWN_OPS`).
pub(crate) const WAIT_OPS: [&str; 3] = [
    "hsa_signal_wait_relaxed",
    "hsa_signal_wait_scacquire",
    "hsa_signal_wait_acquire",
];

signal_ops! { wait:
    hsa_signal_wait_relaxed => Relaxed;
    hsa_signal_wait_scacquire => Acquire;
    hsa_signal_wait_acquire => Acquire;
}

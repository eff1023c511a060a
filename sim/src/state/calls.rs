//! What every call goes through: HSA and HIP call counts and the faults
//! armed on them, `hsa_init` references, and the call log (rendered only
//! when kept, `AMDGPU_SIM_TRACE` printing each record as it is logged, or
//! handing it to a [`CallSink`]).

use std::fmt::Debug;
use std::sync::Arc;

use crate::codes::{HipCode, HsaCode};
use crate::faults::{CallRecord, Fault, FaultSet, MAX_CALL_LOG};

/// Renders a result for the call log.
pub(crate) fn outcome<T: Debug, C: Debug>(result: &Result<T, C>) -> String {
    match result {
        Ok(value) => format!("ok {value:x?}"),
        Err(code) => format!("{code:x?}"),
    }
}

/// What receives each call's record as it is logged, on the calling
/// thread and with the node locked (it must not call the node): the C
/// library's timeline (`AMDGPU_SIM_TRACE=chrome:FILE`).
pub type CallSink = Arc<dyn Fn(&CallRecord) + Send + Sync>;

/// The sink, if one is set (a closure has no `Debug`).
#[derive(Clone, Default)]
struct Sink(Option<CallSink>);

impl Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Sink(set)"
        } else {
            "Sink(none)"
        })
    }
}

/// Call counts, armed faults, init references and the call log.
#[derive(Debug)]
pub(crate) struct Calls {
    init_refs: u32,
    hsa_faults: FaultSet<HsaCode>,
    hip_faults: FaultSet<HipCode>,
    log: Vec<CallRecord>,
    log_dropped: u64,
    log_enabled: bool,
    trace: bool,
    trace_threads: bool,
    sink: Sink,
}

impl Default for Calls {
    fn default() -> Calls {
        Calls {
            init_refs: 0,
            hsa_faults: FaultSet::default(),
            hip_faults: FaultSet::default(),
            log: Vec::new(),
            log_dropped: 0,
            log_enabled: true,
            trace: false,
            trace_threads: false,
            sink: Sink::default(),
        }
    }
}

impl Calls {
    /// Counts an HSA call: the code of the fault armed on it, if one fires.
    pub(crate) fn hsa_fault(&mut self, op: &'static str) -> Option<HsaCode> {
        self.hsa_faults.on_call(op)
    }

    /// Counts a HIP call: the code of the fault armed on it, if one fires.
    pub(crate) fn hip_fault(&mut self, op: &'static str) -> Option<HipCode> {
        self.hip_faults.on_call(op)
    }

    /// Logs a call refused before it ran (an injected fault, or HSA not
    /// initialized), its outcome the code as `AMDGPU_SIM_FAULTS` spells it.
    pub(crate) fn record_refusal<C: std::fmt::Display>(
        &mut self,
        op: &'static str,
        args: impl FnOnce() -> String,
        code: C,
        injected: bool,
    ) {
        self.record(|| CallRecord {
            op,
            args: args(),
            outcome: code.to_string(),
            injected,
        });
    }

    /// Logs the outcome of a call that ran.
    pub(crate) fn record_outcome<T: Debug, C: Debug>(
        &mut self,
        op: &'static str,
        args: impl FnOnce() -> String,
        result: &Result<T, C>,
    ) {
        self.record(|| CallRecord {
            op,
            args: args(),
            outcome: outcome(result),
            injected: false,
        });
    }

    /// Logs one call. The record is rendered only when it will be kept:
    /// formatting every call's arguments is most of a cheap call's cost.
    fn record(&mut self, record: impl FnOnce() -> CallRecord) {
        if self.trace || self.sink.0.is_some() {
            let record = record();
            if let Some(sink) = &self.sink.0 {
                sink(&record);
            }
            if self.trace {
                self.print(&record);
            }
            if self.log_enabled && self.log.len() < MAX_CALL_LOG {
                self.log.push(record);
            }
            return;
        }
        if !self.log_enabled {
            return;
        }
        if self.log.len() < MAX_CALL_LOG {
            self.log.push(record());
        } else {
            self.log_dropped += 1;
        }
    }

    /// Prints `record` on stderr (`AMDGPU_SIM_TRACE=1` or `threads`).
    fn print(&self, record: &CallRecord) {
        if self.trace_threads {
            eprintln!("amdgpu-sim: [{:?}] {record}", std::thread::current().id());
        } else {
            eprintln!("amdgpu-sim: {record}");
        }
    }

    // --- hsa_init references ---------------------------------------------

    /// Whether `hsa_init` holds a reference.
    pub(crate) fn initialized(&self) -> bool {
        self.init_refs != 0
    }

    /// `hsa_init`: one more reference.
    pub(crate) fn init(&mut self) -> Result<(), HsaCode> {
        self.init_refs = self
            .init_refs
            .checked_add(1)
            .ok_or(HsaCode::OUT_OF_RESOURCES)?;
        Ok(())
    }

    /// `hsa_shut_down`: one reference fewer (the call wrapper refuses it
    /// with none left).
    pub(crate) fn shut_down(&mut self) {
        self.init_refs -= 1;
    }

    /// `hsa_init` references not yet dropped.
    pub(crate) fn init_refs(&self) -> u32 {
        self.init_refs
    }

    // --- Test controls ------------------------------------------------------

    /// Prints every call on stderr, with the calling thread's id when
    /// `threads`.
    pub(crate) fn set_trace(&mut self, enabled: bool, threads: bool) {
        self.trace = enabled;
        self.trace_threads = threads;
    }

    /// Hands every call's record to `sink` as it is logged (`None`: to
    /// nothing).
    pub(crate) fn set_sink(&mut self, sink: Option<CallSink>) {
        self.sink = Sink(sink);
    }

    /// Whether calls are printed with their thread's id.
    pub(crate) fn trace_threads(&self) -> bool {
        self.trace_threads
    }

    /// Keeps the call log, or only counts calls.
    pub(crate) fn set_log(&mut self, enabled: bool) {
        self.log_enabled = enabled;
    }

    /// The call log so far (and how many calls fell off its end).
    pub(crate) fn log(&self) -> (Vec<CallRecord>, u64) {
        (self.log.clone(), self.log_dropped)
    }

    /// Arms an HSA fault.
    pub(crate) fn arm_hsa(&mut self, fault: Fault<HsaCode>) {
        self.hsa_faults.arm(fault);
    }

    /// Arms a HIP fault.
    pub(crate) fn arm_hip(&mut self, fault: Fault<HipCode>) {
        self.hip_faults.arm(fault);
    }

    /// Disarms every call fault.
    pub(crate) fn clear_faults(&mut self) {
        self.hsa_faults.clear();
        self.hip_faults.clear();
    }

    /// HSA calls made so far.
    pub(crate) fn hsa_calls(&self) -> u64 {
        self.hsa_faults.calls()
    }

    /// HIP calls made so far.
    pub(crate) fn hip_calls(&self) -> u64 {
        self.hip_faults.calls()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_and_outcomes_are_logged_in_call_order_and_counted_when_not_kept() {
        let mut calls = Calls::default();
        calls.arm_hsa(Fault::nth_call(1, HsaCode::OUT_OF_RESOURCES));
        assert_eq!(calls.hsa_fault("hsa_init"), Some(HsaCode::OUT_OF_RESOURCES));
        calls.record_refusal("hsa_init", String::new, HsaCode::OUT_OF_RESOURCES, true);
        assert_eq!(calls.hsa_fault("hsa_init"), None);
        calls.record_outcome("hsa_init", || "x".into(), &Ok::<(), HsaCode>(()));
        let (log, dropped) = calls.log();
        assert_eq!(dropped, 0);
        let ops: Vec<_> = log
            .iter()
            .map(|r| (r.op, r.injected, r.args.as_str()))
            .collect();
        assert_eq!(ops, [("hsa_init", true, ""), ("hsa_init", false, "x")]);
        assert_eq!(log[1].outcome, "ok ()");

        calls.set_log(false);
        assert_eq!(calls.hip_fault("hipInit"), None);
        calls.record_outcome("hipInit", || unreachable!(), &Ok::<(), HipCode>(()));
        assert_eq!(calls.log().0.len(), 2);
        assert_eq!((calls.hsa_calls(), calls.hip_calls()), (2, 1));
    }

    /// The sink sees every record as it is logged, the log kept or not;
    /// without one, nothing changes.
    #[test]
    fn the_sink_sees_each_record_whether_or_not_the_log_keeps_it() {
        use std::sync::Mutex;
        let seen = Arc::new(Mutex::new(Vec::new()));
        let mut calls = Calls::default();
        let into = Arc::clone(&seen);
        calls.set_sink(Some(Arc::new(move |r: &CallRecord| {
            into.lock().unwrap().push(r.to_string());
        })));
        calls.record_outcome("hipInit", || "0".into(), &Ok::<(), HipCode>(()));
        calls.set_log(false);
        calls.record_refusal("hipMalloc", || "0, 64".into(), HipCode::OUT_OF_MEMORY, true);
        assert_eq!(
            *seen.lock().unwrap(),
            [
                "hipInit(0) -> ok ()",
                "hipMalloc(0, 64) -> 2 hipErrorOutOfMemory [injected]"
            ]
        );
        assert_eq!(
            calls.log().0.len(),
            1,
            "the log kept only what it was on for"
        );
        calls.set_sink(None);
        calls.record_outcome("hipInit", || "0".into(), &Ok::<(), HipCode>(()));
        assert_eq!(seen.lock().unwrap().len(), 2);
    }
}

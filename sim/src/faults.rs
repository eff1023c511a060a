//! Fault injection and the call log.
//!
//! A fault fails a chosen call with a chosen vendor status: the N-th call of
//! an API family (every HSA call counts for HSA faults, every HIP call for
//! HIP faults), or the N-th / every call of one named operation. A transient
//! fault fires once; a persistent one keeps firing from its first hit on
//! (a family-wide one sparing the calls that release, [`RELEASE_CALLS`]).

/// Longest call log kept; later calls are counted in `dropped`.
pub const MAX_CALL_LOG: usize = 1 << 20;

/// Which calls a fault hits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trigger {
    /// The N-th call (1-based) of the fault's API family.
    NthCall(u64),
    /// The N-th call (1-based) of the named operation, e.g. `hsa_memory_copy`,
    /// counted from when the first fault of the set was armed (the calls of
    /// each operation are tallied only while a fault is armed: a node with
    /// none pays one branch per call).
    NthOf {
        /// The C function name.
        op: String,
        /// Which call of it.
        n: u64,
    },
    /// Every call of the named operation (with `transient`: the next one).
    EveryOf {
        /// The C function name.
        op: String,
    },
}

/// A fault: a trigger, a status and whether it persists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault<C> {
    /// Which calls.
    pub trigger: Trigger,
    /// The status they fail with.
    pub code: C,
    /// Keep failing after the first hit.
    pub persistent: bool,
}

impl<C> Fault<C> {
    /// Fails only the N-th call of the family.
    pub fn nth_call(n: u64, code: C) -> Fault<C> {
        Fault {
            trigger: Trigger::NthCall(n),
            code,
            persistent: false,
        }
    }

    /// Fails the N-th call of `op`, once.
    pub fn nth_of(op: &str, n: u64, code: C) -> Fault<C> {
        Fault {
            trigger: Trigger::NthOf {
                op: op.to_string(),
                n,
            },
            code,
            persistent: false,
        }
    }

    /// Fails every call of `op`.
    pub fn every(op: &str, code: C) -> Fault<C> {
        Fault {
            trigger: Trigger::EveryOf { op: op.to_string() },
            code,
            persistent: true,
        }
    }

    /// The same fault, persistent (it keeps firing from its first hit on).
    #[must_use]
    pub fn persistent(mut self) -> Fault<C> {
        self.persistent = true;
        self
    }
}

/// A kernel made to fault: the N-th kernel to start on the node (HIP
/// launches and graph kernel nodes as their streams reach them, AQL and PM4
/// dispatches as their queues do; 1-based), once or from then on. It ends
/// before its first instruction as a memory access fault ends a kernel, so
/// a client sees exactly what a faulting kernel shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelFault {
    /// Which kernel (1-based, in the order kernels start).
    pub nth: u64,
    /// Every kernel from the N-th on.
    pub persistent: bool,
}

impl KernelFault {
    /// Whether the `n`-th kernel to start faults.
    pub fn fires(&self, n: u64) -> bool {
        n == self.nth || (self.persistent && n > self.nth)
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Armed<C> {
    fault: Fault<C>,
    fired: bool,
}

/// The faults armed for one API family, with its call counters.
#[derive(Clone, Debug)]
pub(crate) struct FaultSet<C> {
    armed: Vec<Armed<C>>,
    calls: u64,
    per_op: std::collections::HashMap<&'static str, u64>,
}

impl<C> Default for FaultSet<C> {
    fn default() -> Self {
        FaultSet {
            armed: Vec::new(),
            calls: 0,
            per_op: std::collections::HashMap::new(),
        }
    }
}

impl<C: Copy> FaultSet<C> {
    pub(crate) fn arm(&mut self, fault: Fault<C>) {
        if self.armed.is_empty() {
            self.per_op.clear();
        }
        self.armed.push(Armed {
            fault,
            fired: false,
        });
    }

    pub(crate) fn clear(&mut self) {
        self.armed.clear();
    }

    pub(crate) fn calls(&self) -> u64 {
        self.calls
    }

    /// Counts a call of `op` and returns the status it must fail with, if any.
    pub(crate) fn on_call(&mut self, op: &'static str) -> Option<C> {
        self.calls += 1;
        if self.armed.is_empty() {
            return None;
        }
        let nth_of_op = {
            let n = self.per_op.entry(op).or_insert(0);
            *n += 1;
            *n
        };
        let calls = self.calls;
        let mut hit = None;
        for armed in &mut self.armed {
            let fires = match &armed.fault.trigger {
                Trigger::NthCall(n) => {
                    calls == *n
                        || (armed.fault.persistent && armed.fired && calls > *n && !is_release(op))
                }
                Trigger::NthOf { op: name, n } => {
                    name == op
                        && (nth_of_op == *n
                            || (armed.fault.persistent && armed.fired && nth_of_op > *n))
                }
                Trigger::EveryOf { op: name } => {
                    name == op && (armed.fault.persistent || !armed.fired)
                }
            };
            if fires && hit.is_none() {
                armed.fired = true;
                hit = Some(armed.fault.code);
            }
        }
        hit
    }
}

/// The calls that give something back. A persistent family-wide fault
/// (`hip@N+`, `hsa@N+`) spares them: it models a runtime that can no longer
/// create or use anything, and a client whose releases all fail cannot be
/// checked for leaks. A fault that names the call fails it as usual.
pub const RELEASE_CALLS: &[&str] = &[
    "hsa_amd_memory_pool_free",
    "hsa_amd_memory_unlock",
    "hsa_amd_vmem_address_free",
    "hsa_amd_vmem_handle_release",
    "hsa_amd_vmem_unmap",
    "hsa_code_object_reader_destroy",
    "hsa_executable_destroy",
    "hsa_queue_destroy",
    "hsa_shut_down",
    "hsa_signal_destroy",
    "hipDevicePrimaryCtxRelease",
    "hipEventDestroy",
    "hipFree",
    "hipFreeAsync",
    "hipHostFree",
    "hipHostUnregister",
    "hipMemPoolDestroy",
    "hipModuleUnload",
    "hipStreamDestroy",
];

/// Whether `op` gives something back (see [`RELEASE_CALLS`]).
pub fn is_release(op: &str) -> bool {
    RELEASE_CALLS.contains(&op)
}

/// One logged call.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CallRecord {
    /// The C function name.
    pub op: &'static str,
    /// Its arguments, rendered.
    pub args: String,
    /// `ok`, `ok <result>`, or the failing status (`0x1008`, `hip 101`).
    pub outcome: String,
    /// True when an injected fault produced the outcome.
    pub injected: bool,
}

impl std::fmt::Display for CallRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}({}) -> {}{}",
            self.op,
            self.args,
            self.outcome,
            if self.injected { " [injected]" } else { "" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triggers() {
        let mut set = FaultSet::default();
        set.arm(Fault::nth_call(2, 7u32));
        set.arm(Fault::nth_of("b", 2, 9u32).persistent());
        assert_eq!(set.on_call("a"), None);
        assert_eq!(set.on_call("a"), Some(7));
        assert_eq!(set.on_call("a"), None);
        assert_eq!(set.on_call("b"), None);
        assert_eq!(set.on_call("b"), Some(9));
        assert_eq!(set.on_call("b"), Some(9));
        let mut once = FaultSet::default();
        once.arm(Fault {
            trigger: Trigger::EveryOf { op: "c".into() },
            code: 1u32,
            persistent: false,
        });
        assert_eq!(once.on_call("c"), Some(1));
        assert_eq!(once.on_call("c"), None);
    }

    #[test]
    fn family_calls_count_from_the_start_and_named_calls_from_arming() {
        let mut set = FaultSet::default();
        for _ in 0..3 {
            assert_eq!(set.on_call("b"), None);
        }
        assert_eq!(set.calls(), 3);
        // The 5th call of the family is the 2nd after arming; "b"'s 2nd
        // counted call is its 2nd after arming (its 5th overall).
        set.arm(Fault::nth_call(5, 1u32));
        set.arm(Fault::nth_of("b", 2, 2u32));
        assert_eq!(set.on_call("b"), None);
        assert_eq!(set.on_call("b"), Some(1));
        assert_eq!(set.calls(), 5);
        set.clear();
        set.arm(Fault::nth_of("b", 1, 3u32));
        assert_eq!(set.on_call("b"), Some(3));
    }
}

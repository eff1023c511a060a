//! A dispatch's work-groups on several threads, as a GPU's compute units
//! run them side by side: each thread takes the next work-group not yet
//! taken (in dispatch order, x fastest) and runs it to its end over memory
//! of its own handle onto the memory all of them share.
//!
//! What a program sees:
//!
//! - A race-free program (no work-group reads what another writes, but
//!   through atomics whose results it does not let decide what it
//!   writes) computes the same bits on any number of threads.
//! - Atomics are atomic across threads: each is one
//!   [`Memory::read_modify_write`].
//! - A program whose work-groups race (plain loads and stores of one
//!   location by several, or one waiting for another's store) sees their
//!   accesses interleaved in whatever order the threads reach them, which
//!   may change from run to run; on one thread work-groups run one after
//!   another in dispatch order, so a work-group waiting for a later one's
//!   store never sees it (the wave ends as hung).
//! - A fault is the one of the lowest-numbered work-group that faults,
//!   whatever the thread count: every work-group before it runs to its
//!   end, none after it is started once it is known. Work-groups after
//!   it that had started may have written memory (on one thread none
//!   has).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::dispatch::{Dispatch, Fault, GroupRunner, Stats, prepare, run_dispatch};
use crate::memory::{Memory, Segments};

/// Most threads one dispatch runs on.
pub const MAX_THREADS: usize = 256;

/// Runs the dispatch to completion with one thread per memory handle in
/// `memories` (no more threads than work-groups, at most
/// [`MAX_THREADS`]); with one handle, exactly as [`run_dispatch`] does.
/// The statistics are the same whatever the thread count.
pub fn run_dispatch_threads<M: Memory + Send>(
    d: &Dispatch,
    mut memories: Vec<M>,
) -> Result<Stats, Fault> {
    let prepared = prepare(d)?;
    let threads = memories
        .len()
        .min(MAX_THREADS)
        .min(usize::try_from(prepared.group_count()).unwrap_or(usize::MAX));
    memories.truncate(threads);
    if threads <= 1 {
        return match memories.pop() {
            Some(mut memory) => run_dispatch(d, &mut memory),
            None => Ok(Stats::default()),
        };
    }
    let total = prepared.group_count();
    let next = AtomicU64::new(0);
    // The lowest work-group index known to fault: none past it is started.
    let stop = AtomicU64::new(u64::MAX);
    let first_fault: Mutex<Option<(u64, Fault)>> = Mutex::new(None);
    let prepared = &prepared;
    let results: Vec<Stats> = std::thread::scope(|scope| {
        let workers: Vec<_> = memories
            .into_iter()
            .map(|mut memory| {
                let (next, stop, first_fault) = (&next, &stop, &first_fault);
                scope.spawn(move || {
                    let mut segments = Segments {
                        memory: &mut memory,
                        aql: prepared.aql,
                    };
                    let mut runner = GroupRunner::new(prepared);
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= total || index > stop.load(Ordering::Acquire) {
                            break;
                        }
                        if let Err(fault) = runner.run(d, prepared.group(index), &mut segments) {
                            let mut first = first_fault.lock().unwrap_or_else(|p| p.into_inner());
                            if first.as_ref().is_none_or(|(at, _)| index < *at) {
                                *first = Some((index, fault));
                            }
                            stop.fetch_min(index, Ordering::Release);
                        }
                    }
                    // A faulted run's statistics are not reported.
                    runner.finish(Ok(())).unwrap_or_default()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p))
            })
            .collect()
    });
    if let Some((_, fault)) = first_fault.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(fault);
    }
    Ok(results.into_iter().fold(Stats::default(), |mut sum, s| {
        sum.waves += s.waves;
        sum.instructions += s.instructions;
        sum.fidelity.merge(&s.fidelity);
        sum
    }))
}

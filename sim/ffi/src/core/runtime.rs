//! The runtime: the one simulated node of the process and everything the
//! C side keeps besides it, created from the environment when a library
//! function is first called and reached one way, [`runtime`]; every other
//! function is handed the `Runtime` (or a part of it) by its caller.
//!
//! - `AMDGPU_SIM_MACHINE`: a preset name or a TOML/JSON machine
//!   description file (JSON when it ends in `.json`), resolved by
//!   `amdgpu_sim::presets::machine_from_env` (the `/dev/kfd` stand-in,
//!   `amdgpu-sim-kfd`, resolves it the same way);
//! - the settings ([`Settings`]): faults armed on the node
//!   (`AMDGPU_SIM_FAULTS`, see [`crate::spec`]), the trace, the kernel
//!   mode, the report file, what a kernel fault does, how streams run.
//!
//! HSA and HIP share the runtime when both are loaded from this one
//! library (the loader hands out one copy per process). A missing or bad
//! variable leaves no runtime: `hsa_init` fails like a machine without
//! `/dev/kfd` and the reason is printed once on stderr.

use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use amdgpu_sim::{CallRecord, Sim};

use super::copies::Copies;
use super::device_faults::DeviceFaults;
use super::fat_binaries;
use super::graphs::Graphs;
use super::handles::Handles;
use super::host_memory::{self, HostMemory};
use super::last_error::LastError;
use super::mapped_store::MappedStore;
use super::read_back::ReadBack;
use super::report::{self, Census};
use super::settings::{REPORT_ENV, Settings, TRACE_ENV, timeline_file};
use super::timeline::{MAX_EVENTS, Timeline};
use super::{ptr, queues, signals, streams};

/// The node and every registry of the C side.
pub(crate) struct Runtime {
    /// The simulator, its memory process mappings at the simulated
    /// addresses (`mapped_store`) when created from the environment.
    pub(crate) sim: Sim,
    /// What the environment said.
    pub(crate) settings: Settings,
    /// Host memory the runtimes know.
    pub(crate) host_memory: Mutex<HostMemory>,
    /// Each device's kept kernel failure.
    pub(crate) device_faults: DeviceFaults,
    /// Handle values of streams, events, graphs and their nodes.
    pub(crate) handles: Handles,
    /// HIP streams and events.
    pub(crate) streams: Mutex<streams::Registry>,
    /// HIP graphs and instances.
    pub(crate) graphs: Mutex<Graphs>,
    /// HIP's registered fat binaries, kernels and variables.
    pub(crate) fat_binaries: Mutex<fat_binaries::Registry>,
    /// HSA signals and the queues' doorbells.
    pub(crate) signals: signals::Registry,
    /// HSA queues.
    pub(crate) queues: queues::Registry,
    /// The async-copy engine's queue.
    pub(crate) copies: Copies,
    /// What the client read back from the devices (counted while a
    /// report is written).
    pub(crate) read_back: ReadBack,
    /// The process's timeline, when one is written
    /// (`AMDGPU_SIM_TRACE=chrome:FILE`; [`timeline`]).
    pub(crate) timeline: Option<&'static Timeline>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl Runtime {
    /// A runtime over `sim` with `settings` and empty registries.
    pub(crate) fn new(sim: Sim, settings: Settings) -> Runtime {
        Runtime {
            read_back: ReadBack::new(settings.report.is_some()),
            sim,
            settings,
            host_memory: Mutex::default(),
            device_faults: DeviceFaults::default(),
            handles: Handles::default(),
            streams: Mutex::default(),
            graphs: Mutex::default(),
            fat_binaries: Mutex::default(),
            signals: signals::Registry::default(),
            queues: queues::Registry::default(),
            copies: Copies::default(),
            timeline: None,
        }
    }

    /// The runtime the environment describes.
    fn from_env() -> Result<Runtime, String> {
        super::cpu::check()?;
        let machine = amdgpu_sim::presets::machine_from_env()?;
        let sim = match MappedStore::new() {
            Some(store) => Sim::with_store(machine, Box::new(store)),
            None => {
                eprintln!(
                    "amdgpu-sim-ffi: the host's pages are not 4 KiB: simulated memory is \
                     not host memory (pool allocations must not be dereferenced)"
                );
                Sim::new(machine)
            }
        };
        let settings = Settings::from_env(&sim)?;
        ptr::at_exit(write_report_at_exit);
        let timeline = timeline();
        if let Some(timeline) = timeline {
            sim.set_call_sink(Some(Arc::new(|record: &CallRecord| {
                timeline.on_record(record);
            })));
        }
        Ok(Runtime {
            timeline,
            ..Runtime::new(sim, settings)
        })
    }

    /// The host memory the runtimes know, locked.
    pub(crate) fn host_memory(&self) -> MutexGuard<'_, HostMemory> {
        host_memory::lock(&self.host_memory)
    }

    /// The streams and events, locked.
    pub(crate) fn streams(&self) -> MutexGuard<'_, streams::Registry> {
        lock(&self.streams)
    }

    /// The graphs and instances, locked.
    pub(crate) fn graphs(&self) -> MutexGuard<'_, Graphs> {
        lock(&self.graphs)
    }

    /// The registered fat binaries, locked (before the node, never after
    /// it: a registry call may load code on the node while holding it).
    pub(crate) fn fat_binaries(&self) -> MutexGuard<'_, fat_binaries::Registry> {
        lock(&self.fat_binaries)
    }

    /// The live objects of the registries, for the report.
    pub(crate) fn census(&self) -> Census {
        let (streams, events) = self.streams().live();
        let (graphs, graph_execs) = self.graphs().live();
        let (host_allocations, host_registrations) = self.host_memory().live();
        Census {
            streams,
            events,
            graphs,
            graph_execs,
            host_allocations,
            host_registrations,
            signals: self.signals.live(),
            queues: self.queues.live(),
            locks: self.host_memory().locks(),
            async_copies: self.copies.pending(),
            refused_launches: self.device_faults.refused_launches(),
            fat_binaries: self.fat_binaries().live(),
        }
    }

    /// The report text ([`report::render`]).
    pub(crate) fn report(&self) -> String {
        report::render(&self.sim, &self.census(), &self.read_back.totals())
    }

    /// Rewrites the report file (when one is named).
    pub(crate) fn write_report(&self) {
        let Some(path) = &self.settings.report else {
            return;
        };
        let path = super::report::file_name(path);
        if let Err(e) = std::fs::write(&path, self.report()) {
            eprintln!("amdgpu-sim-ffi: cannot write {REPORT_ENV} '{path}': {e}");
        }
    }
}

/// The process: its runtime, once created, and the HIP error
/// `hipGetLastError` answers, which outlives a runtime the environment
/// could not describe (every HIP call then fails, and says so there).
struct Process {
    runtime: OnceLock<Result<Runtime, String>>,
    last_error: LastError,
    /// Begun before the runtime: the export that creates the runtime is
    /// on it.
    timeline: OnceLock<Option<Timeline>>,
}

static PROCESS: Process = Process {
    runtime: OnceLock::new(),
    last_error: LastError::new(),
    timeline: OnceLock::new(),
};

/// The runtime, created from the environment on first use; `None` (after
/// one line on stderr) when the environment does not describe one.
pub(crate) fn runtime() -> Option<&'static Runtime> {
    let mut fresh = false;
    let runtime = PROCESS.runtime.get_or_init(|| {
        fresh = true;
        Runtime::from_env()
    });
    match runtime {
        Ok(runtime) => Some(runtime),
        Err(message) => {
            if fresh {
                eprintln!("amdgpu-sim-ffi: {message}");
            }
            None
        }
    }
}

/// The error `hipGetLastError` returns, runtime or not.
pub(crate) fn last_error() -> &'static LastError {
    &PROCESS.last_error
}

/// The process's timeline, begun at the first export when
/// `AMDGPU_SIM_TRACE=chrome:FILE` names a file (`chrome:` alone leaves
/// none, and no runtime: `Settings::from_env` refuses it), and written
/// at exit. `%p` in FILE is the process id, as in the report's name, so
/// that each process of a run writes its own.
pub(crate) fn timeline() -> Option<&'static Timeline> {
    PROCESS
        .timeline
        .get_or_init(|| {
            let value = std::env::var(TRACE_ENV).ok()?;
            let path = timeline_file(&value)?.ok()?;
            ptr::at_exit(write_timeline_at_exit);
            Some(Timeline::new(&super::report::file_name(path), MAX_EVENTS))
        })
        .as_ref()
}

/// The timeline's file is written at exit (and at `hsa_shut_down`, and
/// before a kernel fault aborts the process).
extern "C" fn write_timeline_at_exit() {
    if let Some(Some(timeline)) = PROCESS.timeline.get() {
        timeline.write();
    }
}

/// HIP clients never call `hsa_shut_down`: the report is also written
/// when the process exits.
extern "C" fn write_report_at_exit() {
    if let Some(Ok(runtime)) = PROCESS.runtime.get() {
        runtime.write_report();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use amdgpu_sim::presets::load_machine;

    fn preset() -> Runtime {
        Runtime::new(
            Sim::new(load_machine("w7900").expect("preset")),
            Settings::default(),
        )
    }

    /// A runtime of its own counts only what it holds: none of the
    /// process's.
    #[test]
    fn a_fresh_runtime_holds_nothing() {
        let runtime = preset();
        assert_eq!(runtime.census(), Census::default());
        assert!(runtime.report().contains("hsa_signals 0\n"));
    }

    /// Signals live in the runtime that made them, and the report counts
    /// them there.
    #[test]
    fn signals_are_the_runtimes_own() {
        let (one, other) = (preset(), preset());
        let handle = one.signals.create(7);
        assert_eq!(one.census().signals, 1);
        assert_eq!(other.census().signals, 0);
        assert_eq!(
            one.signals
                .get(handle)
                .map(|s| s.load(std::sync::atomic::Ordering::Acquire)),
            Some(7)
        );
        assert!(other.signals.get(handle).is_none());
        assert!(one.report().contains("hsa_signals 1\n"));
        assert!(one.signals.destroy(handle));
        assert_eq!(one.census().signals, 0);
    }

    /// Events and handles come from the runtime's own registry and counter.
    #[test]
    fn events_are_the_runtimes_own() {
        let runtime = preset();
        let first = runtime
            .streams()
            .create_event(&runtime.handles, 0)
            .expect("event");
        let second = runtime
            .streams()
            .create_event(&runtime.handles, 0)
            .expect("event");
        assert_eq!(second - first, 16, "handles from one counter");
        assert_eq!(runtime.census().events, 2);
        assert_eq!(preset().census().events, 0);
        runtime.streams().destroy_event(first).expect("live");
        assert_eq!(runtime.census().events, 1);
    }
}

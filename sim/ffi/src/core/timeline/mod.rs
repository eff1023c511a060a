//! The timeline (`AMDGPU_SIM_TRACE=chrome:FILE`): Chrome's trace-event
//! JSON of the run, which Perfetto (ui.perfetto.dev, "Open trace file")
//! and `chrome://tracing` open.
//!
//! - every HIP and HSA export is a complete event on the calling thread's
//!   track (`tid` the thread's Linux id), its arguments and outcome the
//!   node's record of the call (what `AMDGPU_SIM_TRACE=1` prints);
//! - each stream's work (copies, fills, host functions, kernels with
//!   their grid, block and executed instructions), each queue's
//!   dispatches and the copy engine's copies are complete events on a
//!   track of their own, named by a `thread_name` metadata event
//!   ("stream 0x…", "queue 0x…", "copy engine");
//! - kernel faults, kernels the interpreter cannot run and calls failed by
//!   injection (`AMDGPU_SIM_FAULTS`) are instant events.
//!
//! The process's timeline is the runtime module's (`super::runtime::timeline`),
//! begun at the first export when the variable names a file; the runtime
//! hands it to the node as its call sink and to the work it runs.
//!
//! Events are kept in memory, at most [`MAX_EVENTS`]; later ones are
//! dropped and counted (`otherData.dropped_events` in the file, and one
//! line on stderr). The file is rewritten whole, from everything kept, at
//! `hsa_shut_down`, at process exit and before a kernel fault aborts the
//! process. Timestamps are nanoseconds of a monotonic clock since the
//! timeline began (the library's first call), written in microseconds.

mod events;
mod spans;

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use amdgpu_sim::CallRecord;
use amdgpu_sim::aql::Ran;
use amdgpu_sim::kernel_exec::DispatchStats;

pub(crate) use events::Arg;
use events::{Event, Phase};
use spans::Open;
pub(crate) use spans::{CallSpan, WorkSpan};

use super::ptr;

/// Most events kept; later ones are dropped and counted.
pub const MAX_EVENTS: usize = 500_000;

/// The first track `tid` of the node's own tracks (streams, queues, the
/// copy engine): above every Linux thread id (`pid_max` is at most 2^22).
const TRACK_BASE: u64 = 0x4000_0000;

/// A track of the node's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Track {
    /// A HIP stream: its handle (0: the null stream) and device.
    Stream { handle: u64, device: i32 },
    /// An HSA queue, by the `hsa_queue_t*` its client holds.
    Queue(u64),
    /// The async-copy engine (`hsa_amd_memory_async_copy`).
    CopyEngine,
}

impl Track {
    /// The track's name in the viewer.
    fn name(self) -> String {
        match self {
            Track::Stream { handle: 0, device } => {
                format!("stream 0x0 (null stream, device {device})")
            }
            Track::Stream { handle, .. } => format!("stream {handle:#x}"),
            Track::Queue(address) => format!("queue {address:#x}"),
            Track::CopyEngine => "copy engine".into(),
        }
    }

    /// The key of the track (a created stream is one track whatever
    /// device it was named with).
    fn key(self) -> Track {
        match self {
            Track::Stream { handle, .. } if handle != 0 => Track::Stream { handle, device: 0 },
            other => other,
        }
    }
}

/// What is kept until the file is written.
#[derive(Default)]
struct Buffer {
    events: Vec<Event>,
    dropped: u64,
    /// The node's tracks, each with its `tid` and name.
    tracks: BTreeMap<Track, (u64, String)>,
    /// The threads that made calls, by Linux id, with their names.
    threads: BTreeMap<u64, String>,
    /// What each thread has open.
    open: BTreeMap<u64, Open>,
}

impl Buffer {
    /// Keeps `event`, or counts it dropped past `cap`.
    fn push(&mut self, event: Event, cap: usize) {
        if self.events.len() < cap {
            self.events.push(event);
        } else {
            self.dropped += 1;
        }
    }

    /// Thread `tid`'s track, named (once) by what `/proc` says the calling
    /// thread's name is: `tid` is the calling thread's.
    fn thread(&mut self, tid: u64) -> u64 {
        self.threads.entry(tid).or_insert_with(|| {
            let comm = std::fs::read_to_string("/proc/thread-self/comm")
                .map(|name| name.trim_end().to_string())
                .unwrap_or_default();
            if comm.is_empty() {
                format!("thread {tid}")
            } else {
                format!("{comm} (thread {tid})")
            }
        });
        tid
    }

    /// The `tid` of `track`, given (and named) at its first event.
    fn track(&mut self, track: Track) -> u64 {
        let next = TRACK_BASE + self.tracks.len() as u64;
        self.tracks
            .entry(track.key())
            .or_insert_with(|| (next, track.name()))
            .0
    }

    /// Thread `tid`'s open frames.
    fn open(&mut self, tid: u64) -> &mut Open {
        self.open.entry(tid).or_default()
    }

    /// Events for every frame still open, ending at `end` (their threads
    /// are named already: a call frame's at its entry).
    fn unfinished(&mut self, end: u64) -> Vec<Event> {
        let mut events = Vec::new();
        let mut work = Vec::new();
        for (&tid, open) in &self.open {
            events.extend(open.calls().iter().map(|f| f.event(tid, end)));
            work.extend(open.work().iter().map(|f| (f.track(), f.event(0, end))));
        }
        for (track, mut event) in work {
            event.tid = self.track(track);
            events.push(event);
        }
        events
    }

    /// Forgets thread `tid`'s frames once none is open.
    fn tidy(&mut self, tid: u64) {
        if self.open.get(&tid).is_some_and(Open::is_empty) {
            self.open.remove(&tid);
        }
    }
}

/// The timeline of the process.
pub(crate) struct Timeline {
    path: String,
    start: Instant,
    pid: u32,
    cap: usize,
    buffer: Mutex<Buffer>,
}

impl Timeline {
    /// An empty timeline written to `path`, keeping at most `cap` events.
    pub(crate) fn new(path: &str, cap: usize) -> Timeline {
        Timeline {
            path: path.to_string(),
            start: Instant::now(),
            pid: std::process::id(),
            cap,
            buffer: Mutex::default(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Buffer> {
        self.buffer.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Nanoseconds since the timeline began.
    fn now_ns(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    /// The calling thread enters export `name`.
    fn enter_call(&self, name: &'static str) {
        let tid = ptr::thread_id();
        let start = self.now_ns();
        let mut buffer = self.lock();
        buffer.thread(tid);
        buffer.open(tid).enter(name, start);
    }

    /// The calling thread leaves its innermost export: its event.
    fn exit_call(&self) {
        let tid = ptr::thread_id();
        let end = self.now_ns();
        let mut buffer = self.lock();
        if let Some(frame) = buffer.open(tid).exit() {
            buffer.push(frame.event(tid, end), self.cap);
        }
        buffer.tidy(tid);
    }

    /// The calling thread begins work on `track`.
    fn begin_work(
        &self,
        track: Track,
        category: &'static str,
        name: String,
        args: Vec<(&'static str, Arg)>,
    ) {
        let tid = ptr::thread_id();
        let start = self.now_ns();
        self.lock()
            .open(tid)
            .begin(track, category, name, args, start);
    }

    /// The calling thread ends its innermost work: its event.
    fn end_work(&self) {
        let tid = ptr::thread_id();
        let end = self.now_ns();
        let mut buffer = self.lock();
        if let Some(frame) = buffer.open(tid).end() {
            let track = buffer.track(frame.track());
            buffer.push(frame.event(track, end), self.cap);
        }
        buffer.tidy(tid);
    }

    /// Names the calling thread's innermost open work and adds `args` to
    /// it (what is known only once it ran: a dispatch's kernel, the
    /// instructions it executed).
    pub(crate) fn annotate_work(&self, name: Option<String>, args: Vec<(&'static str, Arg)>) {
        let tid = ptr::thread_id();
        let mut buffer = self.lock();
        buffer.open(tid).annotate(name, args);
        buffer.tidy(tid);
    }

    /// An instant event on the calling thread's innermost open work's
    /// track (a stream's kernel, a queue's dispatch), or on its own.
    fn instant(&self, name: String, args: Vec<(&'static str, Arg)>) {
        let tid = ptr::thread_id();
        let now = self.now_ns();
        let mut buffer = self.lock();
        let track = buffer.open(tid).current_track();
        buffer.tidy(tid);
        let on = match track {
            Some(track) => buffer.track(track),
            None => buffer.thread(tid),
        };
        buffer.push(
            Event {
                name,
                category: "fault",
                phase: Phase::Instant {
                    process_wide: false,
                },
                ts_ns: now,
                tid: on,
                args,
            },
            self.cap,
        );
    }

    /// The node's record of a call: to the export that made it, and an
    /// instant event when an injected fault failed it.
    pub(crate) fn on_record(&self, record: &CallRecord) {
        let tid = ptr::thread_id();
        {
            let mut buffer = self.lock();
            buffer.open(tid).attach(record);
            buffer.tidy(tid);
        }
        if record.injected {
            self.instant(
                format!("injected failure: {}", record.op),
                vec![
                    ("call", Arg::Text(record.op.to_string())),
                    ("args", Arg::Text(spans::bounded(&record.args))),
                    ("result", Arg::Text(spans::bounded(&record.outcome))),
                ],
            );
        }
    }

    /// A kernel fault, a kernel the node cannot run: an instant event
    /// where it happened.
    pub(crate) fn fault(&self, name: &str, what: &str) {
        self.instant(
            name.to_string(),
            vec![("what", Arg::Text(what.to_string()))],
        );
    }

    /// The whole file: metadata naming the process and every track, then
    /// the events by start time (an enclosing event before those it
    /// encloses; what is still open, marked unfinished, ends now), then
    /// what the cap dropped.
    fn render(&self) -> String {
        let end = self.now_ns();
        let mut buffer = self.lock();
        let mut unfinished = buffer.unfinished(end);
        for event in &mut unfinished {
            event.args.push((
                "unfinished",
                Arg::Text("the file was written inside it".into()),
            ));
        }
        let mut events: Vec<&Event> = buffer.events.iter().chain(&unfinished).collect();
        events.sort_by_key(|e| {
            let dur = match e.phase {
                Phase::Complete { dur_ns } => dur_ns,
                Phase::Instant { .. } => 0,
            };
            (e.ts_ns, std::cmp::Reverse(dur))
        });
        let pid = self.pid;
        let mut out = String::from("{\"traceEvents\":[\n");
        events::process_name(pid, "amdgpu-sim node", &mut out);
        for (tid, name) in &buffer.threads {
            out.push_str(",\n");
            events::thread_name(pid, *tid, name, &mut out);
        }
        for (tid, name) in buffer.tracks.values() {
            out.push_str(",\n");
            events::thread_name(pid, *tid, name, &mut out);
        }
        for event in events {
            out.push_str(",\n");
            event.render(pid, &mut out);
        }
        let dropped = buffer.dropped;
        out.push_str(&format!(
            "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{{\"event_cap\":{},\"dropped_events\":{dropped}}}}}\n",
            self.cap
        ));
        if dropped > 0 {
            eprintln!(
                "amdgpu-sim-ffi: the timeline kept its first {} events and dropped {dropped}",
                self.cap
            );
        }
        out
    }

    /// Writes the file (at `hsa_shut_down`, exit, a kernel fault's abort).
    pub(crate) fn write(&self) {
        if let Err(e) = std::fs::write(&self.path, self.render()) {
            eprintln!(
                "amdgpu-sim-ffi: cannot write the timeline '{}': {e}",
                self.path
            );
        }
    }

    /// Names the calling thread's open dispatch slice by the kernel that
    /// ran, with what it executed (`None`: skipped,
    /// `AMDGPU_SIM_KERNELS=skip`).
    pub(crate) fn name_dispatch(&self, ran: Option<Ran>) {
        match ran {
            Some(ran) => self.annotate_work(Some(ran.kernel), executed(ran.stats)),
            None => self.annotate_work(
                None,
                vec![("skipped", Arg::Text("AMDGPU_SIM_KERNELS=skip".into()))],
            ),
        }
    }
}

/// A kernel slice's count of what ran.
pub(crate) fn executed(stats: DispatchStats) -> Vec<(&'static str, Arg)> {
    vec![
        ("instructions", Arg::Number(stats.instructions)),
        ("waves", Arg::Number(stats.waves)),
    ]
}

#[cfg(test)]
mod tests;

//! What each thread has open: the exports it is inside (call frames) and
//! the stream, queue or copy-engine work it is running (work frames),
//! kept by the timeline per thread. A frame becomes a complete event when
//! it closes, so a thread's events nest exactly as its calls did; the
//! node's record of a call (its arguments and outcome) reaches the
//! innermost open call frame of the thread that made the call.

use amdgpu_sim::CallRecord;

use super::events::{Arg, Event, Phase};
use super::{Timeline, Track};

/// An export a thread is inside.
pub(super) struct CallFrame {
    name: &'static str,
    start_ns: u64,
    record: Option<CallRecord>,
}

/// Work a thread is running on a track.
pub(super) struct WorkFrame {
    track: Track,
    name: String,
    category: &'static str,
    start_ns: u64,
    args: Vec<(&'static str, Arg)>,
}

/// One thread's open frames.
#[derive(Default)]
pub(super) struct Open {
    calls: Vec<CallFrame>,
    work: Vec<WorkFrame>,
}

/// Most bytes of a call's rendered arguments or outcome a slice keeps: the
/// node renders some results whole (a launch's decoded kernel, hundreds
/// of KiB), which would make one call most of the file.
pub(crate) const MAX_TEXT_BYTES: usize = 1024;

/// `text`, cut to [`MAX_TEXT_BYTES`] at a character boundary, saying how
/// much was cut.
pub(crate) fn bounded(text: &str) -> String {
    if text.len() <= MAX_TEXT_BYTES {
        return text.to_string();
    }
    let mut end = MAX_TEXT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} more bytes)", &text[..end], text.len() - end)
}

/// The category of an export by its name's family.
fn family(name: &str) -> &'static str {
    if name.starts_with("hip") {
        "hip"
    } else if name.starts_with("hsa") {
        "hsa"
    } else {
        "call"
    }
}

impl CallFrame {
    /// The frame's event on thread track `tid`, ending at `end_ns`.
    pub(super) fn event(&self, tid: u64, end_ns: u64) -> Event {
        let mut args = Vec::new();
        if let Some(record) = &self.record {
            if record.op != self.name {
                args.push(("call", Arg::Text(record.op.to_string())));
            }
            args.push(("args", Arg::Text(bounded(&record.args))));
            args.push(("result", Arg::Text(bounded(&record.outcome))));
            if record.injected {
                args.push(("injected", Arg::Text("yes".into())));
            }
        }
        Event {
            name: self.name.to_string(),
            category: family(self.name),
            phase: Phase::Complete {
                dur_ns: end_ns.saturating_sub(self.start_ns),
            },
            ts_ns: self.start_ns,
            tid,
            args,
        }
    }
}

impl WorkFrame {
    /// The frame's event on track `tid`, ending at `end_ns`.
    pub(super) fn event(&self, tid: u64, end_ns: u64) -> Event {
        Event {
            name: self.name.clone(),
            category: self.category,
            phase: Phase::Complete {
                dur_ns: end_ns.saturating_sub(self.start_ns),
            },
            ts_ns: self.start_ns,
            tid,
            args: self.args.clone(),
        }
    }

    pub(super) fn track(&self) -> Track {
        self.track
    }
}

impl Open {
    pub(super) fn is_empty(&self) -> bool {
        self.calls.is_empty() && self.work.is_empty()
    }

    pub(super) fn enter(&mut self, name: &'static str, start_ns: u64) {
        self.calls.push(CallFrame {
            name,
            start_ns,
            record: None,
        });
    }

    pub(super) fn exit(&mut self) -> Option<CallFrame> {
        self.calls.pop()
    }

    pub(super) fn begin(
        &mut self,
        track: Track,
        category: &'static str,
        name: String,
        args: Vec<(&'static str, Arg)>,
        start_ns: u64,
    ) {
        self.work.push(WorkFrame {
            track,
            name,
            category,
            start_ns,
            args,
        });
    }

    pub(super) fn end(&mut self) -> Option<WorkFrame> {
        self.work.pop()
    }

    /// Names the innermost open work `name` and adds `args` to it.
    pub(super) fn annotate(&mut self, name: Option<String>, args: Vec<(&'static str, Arg)>) {
        if let Some(frame) = self.work.last_mut() {
            if let Some(name) = name {
                frame.name = name;
            }
            frame.args.extend(args);
        }
    }

    /// The track of the innermost open work.
    pub(super) fn current_track(&self) -> Option<Track> {
        self.work.last().map(|f| f.track)
    }

    /// Gives `record` to the innermost open call frame named by it still
    /// without one, else to the innermost without one (an export logged
    /// under another call's name).
    pub(super) fn attach(&mut self, record: &CallRecord) {
        let open = |f: &CallFrame| f.record.is_none();
        let index = self
            .calls
            .iter()
            .rposition(|f| open(f) && f.name == record.op)
            .or_else(|| self.calls.iter().rposition(open));
        if let Some(frame) = index.and_then(|i| self.calls.get_mut(i)) {
            frame.record = Some(record.clone());
        }
    }

    pub(super) fn calls(&self) -> &[CallFrame] {
        &self.calls
    }

    pub(super) fn work(&self) -> &[WorkFrame] {
        &self.work
    }
}

/// An open export: its complete event is recorded when dropped.
#[must_use]
pub(crate) struct CallSpan {
    timeline: Option<&'static Timeline>,
}

impl CallSpan {
    /// Opens export `name` on the calling thread (nothing without a
    /// timeline).
    pub(crate) fn enter(timeline: Option<&'static Timeline>, name: &'static str) -> CallSpan {
        if let Some(t) = timeline {
            t.enter_call(name);
        }
        CallSpan { timeline }
    }
}

impl Drop for CallSpan {
    fn drop(&mut self) {
        if let Some(t) = self.timeline {
            t.exit_call();
        }
    }
}

/// Open work on a track: its complete event is recorded when dropped.
#[must_use]
pub(crate) struct WorkSpan<'a> {
    timeline: Option<&'a Timeline>,
}

impl<'a> WorkSpan<'a> {
    /// Opens work `name()` with `args()` on `track` (nothing is rendered
    /// without a timeline).
    pub(crate) fn begin(
        timeline: Option<&'a Timeline>,
        track: Track,
        category: &'static str,
        name: impl FnOnce() -> String,
        args: impl FnOnce() -> Vec<(&'static str, Arg)>,
    ) -> WorkSpan<'a> {
        if let Some(t) = timeline {
            t.begin_work(track, category, name(), args());
        }
        WorkSpan { timeline }
    }
}

impl Drop for WorkSpan<'_> {
    fn drop(&mut self) {
        if let Some(t) = self.timeline {
            t.end_work();
        }
    }
}

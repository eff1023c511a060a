//! The timeline's events and their JSON: Chrome's trace-event format
//! ("JSON Object Format", the one Perfetto and `chrome://tracing` open),
//! written by hand because the library carries no JSON dependency.
//!
//! Times are kept in nanoseconds and written in microseconds with three
//! decimals, so nothing is rounded away: the trace's nesting is the
//! nesting the clock saw.

use std::fmt::Write;

/// An event's phase (`ph`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// `X`: a complete event of `dur` nanoseconds.
    Complete { dur_ns: u64 },
    /// `i`: an instant, on its track (`"s":"t"`) or across the process
    /// (`"s":"p"`).
    Instant { process_wide: bool },
}

/// A value in an event's `args`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Arg {
    Text(String),
    Number(u64),
    Dims([u32; 3]),
}

/// One event on a track (`tid`) of the process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Event {
    pub(crate) name: String,
    /// `cat`: `hip`, `hsa`, `stream`, `queue`, `copy`, `fault`.
    pub(crate) category: &'static str,
    pub(crate) phase: Phase,
    /// Nanoseconds since the timeline began.
    pub(crate) ts_ns: u64,
    pub(crate) tid: u64,
    pub(crate) args: Vec<(&'static str, Arg)>,
}

/// `text` as a JSON string's body: quotes, backslashes and control
/// characters escaped (a kernel's name or a call's arguments may hold any).
pub(crate) fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
}

/// `"text"`.
pub(crate) fn quoted(text: &str, out: &mut String) {
    out.push('"');
    escape(text, out);
    out.push('"');
}

/// Nanoseconds as microseconds with three decimals.
pub(crate) fn micros(ns: u64, out: &mut String) {
    let _ = write!(out, "{}.{:03}", ns / 1000, ns % 1000);
}

impl Arg {
    fn render(&self, out: &mut String) {
        match self {
            Arg::Text(text) => quoted(text, out),
            Arg::Number(n) => {
                let _ = write!(out, "{n}");
            }
            Arg::Dims([x, y, z]) => {
                let _ = write!(out, "[{x},{y},{z}]");
            }
        }
    }
}

/// `{"k":v,...}`.
pub(crate) fn render_args(args: &[(&str, Arg)], out: &mut String) {
    out.push('{');
    for (i, (key, value)) in args.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        quoted(key, out);
        out.push(':');
        value.render(out);
    }
    out.push('}');
}

impl Event {
    /// The event as one JSON object of process `pid`.
    pub(crate) fn render(&self, pid: u32, out: &mut String) {
        out.push_str("{\"name\":");
        quoted(&self.name, out);
        out.push_str(",\"cat\":");
        quoted(self.category, out);
        match self.phase {
            Phase::Complete { dur_ns } => {
                out.push_str(",\"ph\":\"X\",\"dur\":");
                micros(dur_ns, out);
            }
            Phase::Instant { process_wide } => {
                out.push_str(",\"ph\":\"i\",\"s\":");
                out.push_str(if process_wide { "\"p\"" } else { "\"t\"" });
            }
        }
        out.push_str(",\"ts\":");
        micros(self.ts_ns, out);
        let _ = write!(out, ",\"pid\":{pid},\"tid\":{}", self.tid);
        if !self.args.is_empty() {
            out.push_str(",\"args\":");
            render_args(&self.args, out);
        }
        out.push('}');
    }
}

/// A `thread_name` metadata event naming track `tid` (`ts` 0: metadata
/// has no time, and Perfetto reads it from any).
pub(crate) fn thread_name(pid: u32, tid: u64, name: &str, out: &mut String) {
    let _ = write!(
        out,
        "{{\"name\":\"thread_name\",\"ph\":\"M\",\"ts\":0,\"pid\":{pid},\"tid\":{tid},\"args\":{{\"name\":"
    );
    quoted(name, out);
    out.push_str("}}");
}

/// A `process_name` metadata event.
pub(crate) fn process_name(pid: u32, name: &str, out: &mut String) {
    let _ = write!(
        out,
        "{{\"name\":\"process_name\",\"ph\":\"M\",\"ts\":0,\"pid\":{pid},\"tid\":0,\"args\":{{\"name\":"
    );
    quoted(name, out);
    out.push_str("}}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_quotes_and_controls_are_escaped() {
        let mut out = String::new();
        quoted("a\"b\\c\nd\u{1}", &mut out);
        assert_eq!(out, r#""a\"b\\c\nd\u0001""#);
    }

    #[test]
    fn times_keep_their_nanoseconds() {
        let mut out = String::new();
        micros(1_234_567, &mut out);
        out.push(' ');
        micros(5, &mut out);
        assert_eq!(out, "1234.567 0.005");
    }

    #[test]
    fn a_complete_event_is_one_object() {
        let event = Event {
            name: "hipMalloc".into(),
            category: "hip",
            phase: Phase::Complete { dur_ns: 2_500 },
            ts_ns: 10_000,
            tid: 7,
            args: vec![
                ("result", Arg::Text("ok".into())),
                ("grid", Arg::Dims([1, 2, 3])),
            ],
        };
        let mut out = String::new();
        event.render(3, &mut out);
        assert_eq!(
            out,
            r#"{"name":"hipMalloc","cat":"hip","ph":"X","dur":2.500,"ts":10.000,"pid":3,"tid":7,"args":{"result":"ok","grid":[1,2,3]}}"#
        );
    }
}

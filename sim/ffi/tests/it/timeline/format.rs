//! The trace-event format's rules, as Chrome's "Trace Event Format"
//! document states them for the JSON Object Format, checked on a timeline
//! file: the file is an object holding `traceEvents`; every event has a
//! `name`, a `ph` among the phases the timeline uses, a `ts`, a `pid` and a
//! `tid`; a complete event (`X`) has a `dur` of at least 0; an instant
//! (`i`) has a scope `s` of `t`, `p` or `g`; on each track the complete
//! events nest (one ends before the next begins, or holds it whole); and
//! every track an event is on is named by a `thread_name` metadata event.

use std::collections::BTreeMap;

use serde_json::Value;

/// One event of a checked file (times in nanoseconds).
#[derive(Clone, Debug)]
pub(crate) struct Event {
    pub(crate) name: String,
    pub(crate) ph: String,
    pub(crate) ts_ns: u64,
    pub(crate) dur_ns: u64,
    pub(crate) tid: u64,
    pub(crate) args: Value,
}

/// A checked file: its events (metadata aside) and its tracks' names.
#[derive(Debug)]
pub(crate) struct Trace {
    pub(crate) events: Vec<Event>,
    pub(crate) tracks: BTreeMap<u64, String>,
    pub(crate) other: Value,
}

impl Trace {
    /// The events named `name`.
    pub(crate) fn named(&self, name: &str) -> Vec<&Event> {
        self.events.iter().filter(|e| e.name == name).collect()
    }

    /// The name of the track `event` is on.
    pub(crate) fn track_of(&self, event: &Event) -> &str {
        self.tracks.get(&event.tid).map_or("", String::as_str)
    }
}

/// Microseconds with up to three decimals as whole nanoseconds.
fn nanos(value: &Value, what: &str) -> Result<u64, String> {
    let micros = value
        .as_f64()
        .ok_or_else(|| format!("{what} is not a number: {value}"))?;
    // NaN is no time either.
    if micros.is_nan() || micros < 0.0 {
        return Err(format!("{what} is negative: {value}"));
    }
    Ok((micros * 1000.0).round() as u64)
}

fn field<'a>(event: &'a Value, key: &str) -> Result<&'a Value, String> {
    event
        .get(key)
        .ok_or_else(|| format!("an event without `{key}`: {event}"))
}

/// Checks `text` against the rules; the trace, or the first rule broken.
pub(crate) fn check(text: &str) -> Result<Trace, String> {
    let file: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let list = file
        .get("traceEvents")
        .and_then(Value::as_array)
        .ok_or("no `traceEvents` array")?;
    if let Some(unit) = file.get("displayTimeUnit")
        && unit != "ns"
        && unit != "ms"
    {
        return Err(format!("displayTimeUnit {unit}"));
    }
    let mut events = Vec::new();
    let mut tracks = BTreeMap::new();
    for event in list {
        let name = field(event, "name")?
            .as_str()
            .ok_or_else(|| format!("a name that is no string: {event}"))?;
        let ph = field(event, "ph")?.as_str().unwrap_or_default();
        let ts_ns = nanos(field(event, "ts")?, "ts")?;
        field(event, "pid")?
            .as_u64()
            .ok_or_else(|| format!("a pid that is no integer: {event}"))?;
        let tid = field(event, "tid")?
            .as_u64()
            .ok_or_else(|| format!("a tid that is no integer: {event}"))?;
        let args = event.get("args").cloned().unwrap_or(Value::Null);
        let dur_ns = match ph {
            "X" => nanos(field(event, "dur")?, "dur")?,
            "i" => {
                let scope = field(event, "s")?;
                if scope != "t" && scope != "p" && scope != "g" {
                    return Err(format!("an instant of scope {scope}"));
                }
                0
            }
            "M" => {
                let named = args.get("name").and_then(Value::as_str);
                match (name, named) {
                    ("thread_name", Some(track)) => {
                        tracks.insert(tid, track.to_string());
                    }
                    ("process_name", Some(_)) => {}
                    _ => return Err(format!("metadata the timeline does not write: {event}")),
                }
                continue;
            }
            other => return Err(format!("phase `{other}` is not one the timeline uses")),
        };
        events.push(Event {
            name: name.to_string(),
            ph: ph.to_string(),
            ts_ns,
            dur_ns,
            tid,
            args,
        });
    }
    for event in &events {
        if !tracks.contains_key(&event.tid) {
            return Err(format!("track {} has no thread_name: {event:?}", event.tid));
        }
    }
    nested(&events)?;
    Ok(Trace {
        events,
        tracks,
        other: file.get("otherData").cloned().unwrap_or(Value::Null),
    })
}

/// Per track, each complete event ends before the next begins or holds
/// it whole.
fn nested(events: &[Event]) -> Result<(), String> {
    let mut by_track: BTreeMap<u64, Vec<&Event>> = BTreeMap::new();
    for event in events.iter().filter(|e| e.ph == "X") {
        by_track.entry(event.tid).or_default().push(event);
    }
    for (tid, mut list) in by_track {
        list.sort_by_key(|e| (e.ts_ns, std::cmp::Reverse(e.dur_ns)));
        let mut open: Vec<&Event> = Vec::new();
        for event in list {
            while open
                .last()
                .is_some_and(|outer| outer.ts_ns + outer.dur_ns <= event.ts_ns)
            {
                open.pop();
            }
            if let Some(outer) = open.last()
                && event.ts_ns + event.dur_ns > outer.ts_ns + outer.dur_ns
            {
                return Err(format!(
                    "on track {tid}, {event:?} overlaps {outer:?} without being inside it"
                ));
            }
            open.push(event);
        }
    }
    Ok(())
}

/// The checker refuses what breaks each rule (so a pass means something).
#[test]
fn the_checker_refuses_each_broken_rule() {
    let ok = r#"{"traceEvents":[
        {"name":"thread_name","ph":"M","ts":0,"pid":1,"tid":5,"args":{"name":"main"}},
        {"name":"a","ph":"X","ts":1.000,"dur":10.000,"pid":1,"tid":5},
        {"name":"b","ph":"X","ts":2.000,"dur":3.000,"pid":1,"tid":5},
        {"name":"c","ph":"i","s":"t","ts":4.000,"pid":1,"tid":5}
    ],"displayTimeUnit":"ns"}"#;
    let trace = check(ok).expect("a valid trace");
    assert_eq!(trace.events.len(), 3);
    assert_eq!(trace.named("b")[0].dur_ns, 3000);
    let broken = [
        ("not JSON", r#"{"traceEvents":["#),
        (
            "no name",
            r#"{"traceEvents":[{"ph":"i","s":"t","ts":1,"pid":1,"tid":1}]}"#,
        ),
        (
            "unknown phase",
            r#"{"traceEvents":[{"name":"thread_name","ph":"M","ts":0,"pid":1,"tid":1,"args":{"name":"t"}},{"name":"a","ph":"B","ts":1,"pid":1,"tid":1}]}"#,
        ),
        (
            "negative dur",
            r#"{"traceEvents":[{"name":"thread_name","ph":"M","ts":0,"pid":1,"tid":1,"args":{"name":"t"}},{"name":"a","ph":"X","ts":1,"dur":-1,"pid":1,"tid":1}]}"#,
        ),
        (
            "unnamed track",
            r#"{"traceEvents":[{"name":"a","ph":"X","ts":1,"dur":1,"pid":1,"tid":9}]}"#,
        ),
        (
            "partial overlap",
            r#"{"traceEvents":[{"name":"thread_name","ph":"M","ts":0,"pid":1,"tid":1,"args":{"name":"t"}},{"name":"a","ph":"X","ts":1,"dur":5,"pid":1,"tid":1},{"name":"b","ph":"X","ts":4,"dur":5,"pid":1,"tid":1}]}"#,
        ),
        (
            "instant without scope",
            r#"{"traceEvents":[{"name":"thread_name","ph":"M","ts":0,"pid":1,"tid":1,"args":{"name":"t"}},{"name":"a","ph":"i","ts":1,"pid":1,"tid":1}]}"#,
        ),
    ];
    for (rule, text) in broken {
        assert!(check(text).is_err(), "{rule}: accepted");
    }
}

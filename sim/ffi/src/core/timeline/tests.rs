use super::*;

fn event(name: &str, ts_ns: u64, dur_ns: u64) -> Event {
    Event {
        name: name.into(),
        category: "hip",
        phase: Phase::Complete { dur_ns },
        ts_ns,
        tid: 1,
        args: Vec::new(),
    }
}

/// Past the cap, events are dropped and the file says how many.
fn push(timeline: &Timeline, event: Event) {
    timeline.lock().push(event, timeline.cap);
}

#[test]
fn events_past_the_cap_are_counted_dropped() {
    let timeline = Timeline::new("unused", 2);
    for i in 0..5 {
        push(&timeline, event("hipMalloc", i, 1));
    }
    let text = timeline.render();
    assert_eq!(text.matches("\"ph\":\"X\"").count(), 2, "{text}");
    assert!(
        text.contains("\"otherData\":{\"event_cap\":2,\"dropped_events\":3}"),
        "{text}"
    );
}

/// Events are written by start time, an enclosing event before the ones
/// it encloses, whatever order they closed in.
#[test]
fn enclosing_events_come_first() {
    let timeline = Timeline::new("unused", 10);
    push(&timeline, event("inner", 10, 5));
    push(&timeline, event("outer", 10, 50));
    push(&timeline, event("first", 1, 2));
    let text = timeline.render();
    let at = |name: &str| text.find(&format!("\"name\":\"{name}\"")).expect(name);
    assert!(
        at("first") < at("outer") && at("outer") < at("inner"),
        "{text}"
    );
    assert!(text.starts_with("{\"traceEvents\":["));
    assert!(text.contains("\"displayTimeUnit\":\"ns\""));
}

/// Each track gets one tid and one name, above every thread id.
#[test]
fn tracks_are_named_once() {
    let timeline = Timeline::new("unused", 10);
    let stream = Track::Stream {
        handle: 0x20,
        device: 1,
    };
    let first = timeline.lock().track(stream);
    assert_eq!(timeline.lock().track(stream), first);
    assert!(first >= TRACK_BASE);
    let null = timeline.lock().track(Track::Stream {
        handle: 0,
        device: 1,
    });
    assert_ne!(null, first);
    let text = timeline.render();
    assert!(
        text.contains("\"args\":{\"name\":\"stream 0x20\"}"),
        "{text}"
    );
    assert!(
        text.contains("\"args\":{\"name\":\"stream 0x0 (null stream, device 1)\"}"),
        "{text}"
    );
}

/// A call's text past the bound is cut at a character boundary, saying
/// how much was cut.
#[test]
fn long_call_texts_are_cut() {
    let short = "x".repeat(spans::MAX_TEXT_BYTES);
    assert_eq!(spans::bounded(&short), short);
    let long = format!(
        "{}é{}",
        "x".repeat(spans::MAX_TEXT_BYTES - 1),
        "y".repeat(10)
    );
    let cut = spans::bounded(&long);
    assert_eq!(
        cut,
        format!("{}… (12 more bytes)", "x".repeat(spans::MAX_TEXT_BYTES - 1))
    );
}

fn record(op: &'static str, outcome: &str) -> CallRecord {
    CallRecord {
        op,
        args: String::new(),
        outcome: outcome.into(),
        injected: false,
    }
}

/// A call made inside a call (an iteration's callback) gets its own
/// record, whichever order the records come in, and its slice nests in
/// the outer one's on the thread's track.
#[test]
fn nested_calls_each_get_their_own_record() {
    let timeline = Timeline::new("unused", 10);
    timeline.enter_call("hsa_iterate_agents");
    timeline.enter_call("hsa_agent_get_info");
    timeline.on_record(&record("hsa_agent_get_info", "ok inner"));
    timeline.exit_call();
    timeline.on_record(&record("hsa_iterate_agents", "ok outer"));
    timeline.exit_call();
    let events = &timeline.lock().events;
    let result = |name: &str| {
        let event = events.iter().find(|e| e.name == name).expect(name);
        let found = event.args.iter().find(|(k, _)| *k == "result");
        (event.ts_ns, event.phase, found.map(|(_, v)| v.clone()))
    };
    let (outer_ts, outer, outer_result) = result("hsa_iterate_agents");
    let (inner_ts, inner, inner_result) = result("hsa_agent_get_info");
    assert_eq!(outer_result, Some(Arg::Text("ok outer".into())));
    assert_eq!(inner_result, Some(Arg::Text("ok inner".into())));
    let (Phase::Complete { dur_ns: outer_dur }, Phase::Complete { dur_ns: inner_dur }) =
        (outer, inner)
    else {
        panic!("complete events");
    };
    assert!(inner_ts >= outer_ts && inner_ts + inner_dur <= outer_ts + outer_dur);
}

/// Work still open when the file is written is there, marked unfinished,
/// on its track.
#[test]
fn open_work_is_written_unfinished() {
    let timeline = Timeline::new("unused", 10);
    let track = Track::Queue(0x1000);
    timeline.begin_work(track, "queue", "dispatch".into(), Vec::new());
    timeline.annotate_work(Some("kernel_a".into()), vec![("waves", Arg::Number(2))]);
    let text = timeline.render();
    assert!(
        text.contains("\"args\":{\"name\":\"queue 0x1000\"}"),
        "{text}"
    );
    assert!(
        text.contains("\"name\":\"kernel_a\",\"cat\":\"queue\",\"ph\":\"X\""),
        "{text}"
    );
    assert!(
        text.contains("\"waves\":2,\"unfinished\":\"the file was written inside it\""),
        "{text}"
    );
    timeline.end_work();
    assert!(!timeline.render().contains("unfinished"));
}

//! Machine descriptions validate in time linear in their size: named caps
//! refuse a hostile description before it is expanded, and the work every
//! description costs (counted by `Machine::parse_measured`, never timed)
//! stays within a bound linear in its text.

use amdgpu_sim::validate::{MAX_AGENTS, MAX_LINK_ENDPOINTS, MAX_LINK_ENTRIES, MAX_LINKS};
use amdgpu_sim::{Format, Machine};
use proptest::prelude::*;

/// `n` GPU agents `g0..g{n-1}` (no CPU: the smallest valid agents) as JSON.
fn gpus_json(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                r#"{{"id":"g{i}","kind":"gpu","name":"gfx942","uuid":"GPU-{:016x}","node":{i},"wavefront_size":64}}"#,
                i + 1
            )
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn machine_json(agents: usize, links: &str) -> String {
    format!(
        r#"{{"name":"hostile","agents":[{}],"links":[{links}]}}"#,
        gpus_json(agents)
    )
}

fn ids_json(ids: &[String]) -> String {
    let quoted: Vec<String> = ids.iter().map(|id| format!("\"{id}\"")).collect();
    format!("[{}]", quoted.join(","))
}

#[test]
fn one_agent_listed_100000_times_is_refused_before_expansion() {
    // The description of issue 20: ~800 KB, one link whose sides list one
    // agent 100,000 times each (10^10 pairs to the old validator).
    let side = ids_json(&vec!["g0".to_string(); 100_000]);
    let text = machine_json(
        2,
        &format!(r#"{{"from":{side},"to":{side},"type":"xgmi"}}"#),
    );
    assert!(text.len() > 700_000, "{} bytes", text.len());
    let (result, steps) = Machine::parse_measured("hostile.json", &text, Format::Json);
    let err = result.unwrap_err();
    assert_eq!(err.field, "links[0].from");
    assert_eq!(
        err.message,
        format!("100000 agent ids; the limit is {MAX_LINK_ENDPOINTS} (each agent once)")
    );
    // Two agents resolved, no id looked up, no pair expanded.
    assert!(steps <= 4, "{steps} steps");
}

#[test]
fn an_agent_listed_twice_on_one_side_is_refused() {
    let text = machine_json(3, r#"{"from":["g0","g1","g0"],"to":["g2"],"type":"xgmi"}"#);
    let err = Machine::parse("dup.json", &text, Format::Json).unwrap_err();
    assert_eq!(err.field, "links[0].from");
    assert_eq!(err.message, "agent id 'g0' is listed twice");
}

#[test]
fn a_link_of_an_agent_to_itself_only_is_refused() {
    let text = machine_json(2, r#"{"from":"g1","to":"g1","type":"xgmi"}"#);
    let err = Machine::parse("self.json", &text, Format::Json).unwrap_err();
    assert_eq!(err.field, "links[0]");
    assert_eq!(err.message, "describes no pair of two different agents");
}

#[test]
fn too_many_link_entries_are_refused_before_any_is_read() {
    let entry = r#"{"from":"g0","to":"g1","type":"xgmi"}"#;
    let entries = vec![entry; MAX_LINK_ENTRIES + 1].join(",");
    let (result, steps) =
        Machine::parse_measured("many.json", &machine_json(2, &entries), Format::Json);
    let err = result.unwrap_err();
    assert_eq!(err.field, "links");
    assert_eq!(
        err.message,
        format!(
            "{} entries; the limit is {MAX_LINK_ENTRIES}",
            MAX_LINK_ENTRIES + 1
        )
    );
    assert!(steps <= 4, "{steps} steps");
    // Fewer entries, all the same pair: the second one is refused.
    let entries = vec![entry; 1000].join(",");
    let (result, steps) =
        Machine::parse_measured("same.json", &machine_json(2, &entries), Format::Json);
    assert_eq!(result.unwrap_err().field, "links[1]");
    assert!(steps <= 16, "{steps} steps");
}

#[test]
fn the_largest_all_to_all_machine_is_accepted_within_its_bound() {
    let ids: Vec<String> = (0..MAX_AGENTS).map(|i| format!("g{i}")).collect();
    let side = ids_json(&ids);
    let text = machine_json(
        MAX_AGENTS,
        &format!(r#"{{"from":{side},"to":{side},"type":"xgmi"}}"#),
    );
    let (result, steps) = Machine::parse_measured("full.json", &text, Format::Json);
    let machine = result.unwrap();
    assert_eq!(machine.links.len(), MAX_AGENTS * (MAX_AGENTS - 1));
    // 2 steps per agent (id, resolution) + 2 × 128 lookups + 2 × 128² pair steps.
    let expected = 2 * MAX_AGENTS + 2 * MAX_AGENTS + 2 * MAX_AGENTS * MAX_AGENTS;
    assert_eq!(steps, expected as u64);
    assert!(steps <= 4 * MAX_LINKS as u64);
    // One more id on a side than there are agents is refused by the cap.
    let mut long = ids.clone();
    long.push("g0".into());
    let text = machine_json(
        MAX_AGENTS,
        &format!(
            r#"{{"from":{},"to":{side},"type":"xgmi"}}"#,
            ids_json(&long)
        ),
    );
    let err = Machine::parse("long.json", &text, Format::Json).unwrap_err();
    assert_eq!(err.field, "links[0].from");
    assert!(err.message.contains("the limit is 128"), "{err}");
}

/// A generated link entry: agent indices, repeated at will; 15 (one id in
/// 16) stands for an unknown id.
fn link_entry() -> impl Strategy<Value = (Vec<usize>, Vec<usize>, bool)> {
    (
        proptest::collection::vec(0usize..16, 0..40),
        proptest::collection::vec(0usize..16, 0..40),
        any::<bool>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever the lists hold (repeats, unknown ids, self pairs, overlaps
    /// between entries), validation takes at most one step per byte of text
    /// plus 6·n² for n agents: the pairs of distinct agents, each expanded at
    /// most a bounded number of times. The old validator, which expanded
    /// repeated ids, breaks this bound with a few repeated ids.
    #[test]
    fn validation_work_is_linear_in_the_text(
        agents in 1usize..12,
        links in proptest::collection::vec(link_entry(), 0..12),
    ) {
        let id = |i: &usize| if *i == 15 { "nobody".to_string() } else { format!("g{}", i % agents) };
        let entries: Vec<String> = links
            .iter()
            .map(|(from, to, bidirectional)| {
                let from: Vec<String> = from.iter().map(id).collect();
                let to: Vec<String> = to.iter().map(id).collect();
                format!(
                    r#"{{"from":{},"to":{},"type":"pcie","bidirectional":{bidirectional}}}"#,
                    ids_json(&from),
                    ids_json(&to)
                )
            })
            .collect();
        let text = machine_json(agents, &entries.join(","));
        let (result, steps) = Machine::parse_measured("gen.json", &text, Format::Json);
        let bound = (text.len() + 6 * agents * agents) as u64;
        prop_assert!(steps <= bound, "{steps} steps > {bound}: {result:?}");
        if let Ok(machine) = result {
            // Accepted: every directed pair once, sorted, no self pair.
            prop_assert!(machine.links.windows(2).all(|w| (w[0].from, w[0].to) < (w[1].from, w[1].to)));
            prop_assert!(machine.links.iter().all(|l| l.from != l.to));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// A GPU agent UUID is accepted exactly when it is one ROCr can report:
    /// `GPU-XX`, or `GPU-` and 16 lowercase hex digits not all zero.
    #[test]
    fn gpu_uuids_are_accepted_exactly_in_rocr_form(
        uuid in "GPU-[0-9a-fA-FxXz]{0,17}|GPU-XX|GPU-0{16}|[A-Z]{3}-[0-9a-f]{16}",
    ) {
        let text = format!(
            r#"{{"name":"m","agents":[{{"id":"g","kind":"gpu","name":"gfx942","uuid":{},"node":0,"wavefront_size":64}}]}}"#,
            serde_json::to_string(&uuid).unwrap()
        );
        let digits = uuid.strip_prefix("GPU-").unwrap_or("");
        let rocr = uuid == "GPU-XX"
            || (uuid.starts_with("GPU-")
                && digits.len() == 16
                && digits.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f'))
                && digits.chars().any(|c| c != '0'));
        let result = Machine::parse("u.json", &text, Format::Json);
        prop_assert_eq!(result.is_ok(), rocr, "{}: {:?}", uuid, result);
        if let Err(e) = result {
            prop_assert_eq!(e.field, "agents[0].uuid");
        }
    }
}

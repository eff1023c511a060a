//! `capture` round trips: every preset captured through each backend
//! (`sim`: the HSA walk; `hip`: IREE's HIP driver only), written as TOML and
//! loaded back as `--machine FILE`, answers every subcommand as the original
//! machine does (same bytes on stdout, same error), and capturing the
//! capture gives the same bytes.
//!
//! A HIP capture cannot see what only HSA reports (CPU agents' names and
//! pools, link bandwidths and hop counts, ROCm's agent order), so its HSA
//! views are checked for what HIP does determine: the same GPUs, the same
//! link classes (`topology`), the same NUMA nodes, and the same `load` up to
//! the handles and addresses HSA assigns.

use crate::support::answer;
use amdgpu_hal::backend::{Backend, CallResultExt, HsaExt};
use amdgpu_hal::report::capture::{capture, to_toml};
use amdgpu_hal::report::devices::list_agents;
use amdgpu_sim::presets::PRESETS;

/// An executable whose ISA the preset's first GPU runs (or, for a machine
/// without a GPU or whose chip has no fixture executable, r9700-4's gfx1201
/// and mi355x-8's gfx950, one that both refuse the same way: INCOMPATIBLE,
/// mismatched processor).
fn executable_for(preset: &str) -> &'static str {
    match preset {
        "w7900" | "rx7900xtx" => "fixtures/iree/matmul.gfx1100.amd1",
        "mi250x-4" | "mixed-isa" => "fixtures/iree/matmul.gfx90a.amd1",
        _ => "fixtures/iree/matmul.gfx942.amd1",
    }
}

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Captures `preset` through `backend` into a file named after both.
fn capture_file(preset: &str, backend: &str) -> String {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("capture-roundtrip");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{preset}.{backend}.toml"));
    let text = answer(&[
        "capture",
        "--machine",
        preset,
        "--backend",
        backend,
        "--name",
        preset,
    ])
    .unwrap_or_else(|e| panic!("capture {preset} --backend {backend}: {e}"));
    std::fs::write(&file, &text).unwrap();
    file.to_str().unwrap().to_owned()
}

/// The command lines whose answers a replay must give unchanged: the HIP
/// driver's views (both kinds of capture) and, for an HSA capture, the HSA
/// views too.
fn commands(preset: &str, hsa_views: bool) -> Vec<Vec<String>> {
    let exe = root().join(executable_for(preset)).display().to_string();
    let mut lines: Vec<Vec<&str>> = vec![
        vec!["devices", "--backend", "hip"],
        vec!["devices", "--backend", "hip", "--json"],
        vec!["topology", "--backend", "hip"],
        vec!["topology", "--backend", "hip", "--json"],
        vec!["topology", "--backend", "hip", "--dot"],
        vec!["topology", "--backend", "hip", "--device", "0,1"],
        vec!["info", "--backend", "hip"],
        vec!["info", "--backend", "hip", "--json", "1"],
        vec!["info", "--backend", "hip", "0,1"],
    ];
    if hsa_views {
        lines.extend([
            vec!["devices"],
            vec!["devices", "--json"],
            vec!["topology"],
            vec!["topology", "--json"],
            vec!["topology", "--dot"],
            vec!["load", exe.as_str()],
            vec!["load", exe.as_str(), "--json"],
        ]);
    }
    lines
        .into_iter()
        .map(|l| l.into_iter().map(str::to_owned).collect())
        .collect()
}

fn with_machine(line: &[String], machine: &str) -> Vec<String> {
    let mut args = line.to_vec();
    args.extend(["--machine".to_owned(), machine.to_owned()]);
    args
}

fn assert_same_answers(preset: &str, backend: &str, file: &str, hsa_views: bool) {
    for line in commands(preset, hsa_views) {
        let args = |machine| with_machine(&line, machine);
        let original = answer(&args(preset).iter().map(String::as_str).collect::<Vec<_>>());
        let replay = answer(&args(file).iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(
            replay,
            original,
            "{preset} captured with --backend {backend}: `{}` differs",
            line.join(" ")
        );
    }
}

#[test]
fn hsa_captures_replay_every_subcommand() {
    for &(preset, _) in PRESETS {
        let file = capture_file(preset, "sim");
        assert_same_answers(preset, "sim", &file, true);
        let again = answer(&["capture", "--machine", &file, "--name", preset]).unwrap();
        assert_eq!(
            again,
            std::fs::read_to_string(&file).unwrap(),
            "{preset}: capturing the capture changes it"
        );
    }
}

/// The link class matrix of `topology`'s text (the block before the legend).
fn link_matrix(text: &str) -> String {
    text.split("\nLegend").next().unwrap().to_owned()
}

/// `load`'s text with HSA's handles and addresses blanked.
fn without_addresses(text: &str) -> String {
    text.split(' ')
        .map(|word| {
            if word.starts_with("0x") && word.len() > 8 {
                "0x…"
            } else {
                word
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn hip_captures_replay_the_hip_views_and_what_hip_determines() {
    for &(preset, _) in PRESETS {
        let file = capture_file(preset, "hip");
        assert_same_answers(preset, "hip", &file, false);
        let original = answer(&["topology", "--machine", preset]);
        let replay = answer(&["topology", "--machine", &file]);
        match (&original, &replay) {
            (Ok(original), Ok(replay)) => assert_eq!(
                link_matrix(replay),
                link_matrix(original),
                "{preset}: HSA link classes"
            ),
            (Err(original), Err(replay)) => assert_eq!(replay, original, "{preset}"),
            _ => panic!("{preset}: topology {original:?} vs replay {replay:?}"),
        }
        let exe = root().join(executable_for(preset)).display().to_string();
        let original = answer(&["load", &exe, "--machine", preset]).map(|t| without_addresses(&t));
        let replay = answer(&["load", &exe, "--machine", &file]).map(|t| without_addresses(&t));
        assert_eq!(replay, original, "{preset}: load");
        let again = answer(&[
            "capture",
            "--machine",
            &file,
            "--backend",
            "hip",
            "--name",
            preset,
        ])
        .unwrap();
        assert_eq!(
            again,
            std::fs::read_to_string(&file).unwrap(),
            "{preset}: capturing the HIP capture changes it"
        );
    }
}

fn devices_json(backend: &Backend) -> serde_json::Value {
    let mut json = serde_json::to_value(list_agents(backend).unwrap()).unwrap();
    json.as_object_mut().unwrap().remove("machine");
    json
}

/// Every (agent, other agent's pool) link, as the HAL reads it.
fn links(backend: &Backend) -> Vec<String> {
    let hsa = backend.hsa().unwrap();
    hsa.init().call_status("hsa_init").unwrap();
    let agents = hsa.iterate_agents().unwrap();
    let mut out = Vec::new();
    for &a in &agents {
        for &b in &agents {
            for pool in hsa.agent_iterate_memory_pools(b).unwrap() {
                let access = hsa.agent_memory_pool_access(a, pool).unwrap();
                let hops = hsa.agent_memory_pool_link_info(a, pool).unwrap();
                out.push(format!("{a:?}->{pool:?}: {access:?} {hops:?}"));
            }
        }
    }
    hsa.shut_down().unwrap();
    out
}

/// Below the CLI: the HSA answers themselves (every pool's access and link
/// hops) and the HIP properties replay identically.
#[test]
fn hsa_captures_replay_every_hsa_and_hip_answer() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("capture-roundtrip");
    std::fs::create_dir_all(&dir).unwrap();
    for &(name, _) in PRESETS {
        let original = Backend::sim(name).unwrap();
        let desc = capture(&original, name, None).unwrap();
        let text = to_toml(&desc).unwrap();
        let file = dir.join(format!("{name}.toml"));
        std::fs::write(&file, &text).unwrap();
        let replay =
            Backend::sim(file.to_str().unwrap()).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(
            devices_json(&replay),
            devices_json(&original),
            "{name}: devices differ"
        );
        assert_eq!(links(&replay), links(&original), "{name}: links differ");
        for ordinal in 0..original.hip().get_device_count().unwrap_or(0) {
            assert_eq!(
                replay.hip().get_device_properties(ordinal),
                original.hip().get_device_properties(ordinal),
                "{name}: HIP properties of device {ordinal}"
            );
        }
    }
}

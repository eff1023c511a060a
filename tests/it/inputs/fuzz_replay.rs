//! Replays every fuzz target's function (`fuzz/harness/mod.rs`, the same code
//! the cargo-fuzz binaries run) over its committed corpus, its crash
//! regressions (`fuzz/regressions/TARGET/`) and the fixtures it is seeded
//! from, so plain `cargo test` covers them without a fuzzer.

#[path = "../../../fuzz/harness/mod.rs"]
mod harness;

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file directly in `dir` (sorted; a missing directory is empty: only
/// for directories that may legitimately be absent, see [`committed`]).
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<_> = entries
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .map(|path| (path.display().to_string(), std::fs::read(&path).unwrap()))
        .collect();
    out.sort();
    out
}

/// The fewest inputs each target's committed corpus holds: a corpus that
/// went missing or was emptied fails the replay instead of replaying nothing.
const MIN_CORPUS: [(&str, usize); 8] = [
    ("codeobj_elf", 12),
    ("codeobj_metadata", 3),
    ("target_id", 4),
    ("wrapped", 21),
    ("hip_path", 400),
    ("machine", 12),
    ("wrapped_build", 900),
    ("pm4", 21),
];

/// The committed corpus (which must exist and hold at least the target's
/// [`MIN_CORPUS`] inputs), crash regressions (none yet for most targets, so
/// that directory may be absent) and `FUZZ_REPLAY_DIR` inputs of `target`.
fn committed(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = root().join("fuzz/corpus").join(target);
    assert!(dir.is_dir(), "{} is missing", dir.display());
    let mut all = files(&dir);
    let min = MIN_CORPUS
        .iter()
        .find(|(name, _)| *name == target)
        .map(|(_, min)| *min)
        .unwrap_or_else(|| panic!("no minimum corpus size for {target}"));
    assert!(
        all.len() >= min,
        "{}: {} inputs, fewer than {min}",
        dir.display(),
        all.len()
    );
    all.extend(files(&root().join("fuzz/regressions").join(target)));
    all.extend(extra(target));
    all
}

fn fixtures(dir: &str, suffix: &str) -> Vec<(String, Vec<u8>)> {
    let all: Vec<_> = files(&root().join(dir))
        .into_iter()
        .filter(|(name, _)| name.ends_with(suffix))
        .collect();
    assert!(!all.is_empty(), "no {suffix} fixtures in {dir}");
    all
}

/// `FUZZ_REPLAY_DIR=fuzz/work cargo test --test it inputs::fuzz_replay::` also replays
/// `$FUZZ_REPLAY_DIR/TARGET/` (a fuzzer's working corpus) in this debug build,
/// whose overflow checks the optimized fuzz build may lack.
fn extra(target: &str) -> Vec<(String, Vec<u8>)> {
    std::env::var_os("FUZZ_REPLAY_DIR")
        .map(|dir| files(&Path::new(&dir).join(target)))
        .unwrap_or_default()
}

/// Runs `run` over `inputs`; returns how many it accepted.
fn replay(inputs: &[(String, Vec<u8>)], run: fn(&[u8]) -> bool) -> usize {
    inputs
        .iter()
        .filter(|(name, data)| {
            let result = std::panic::catch_unwind(|| run(data));
            result.unwrap_or_else(|_| panic!("{name} panics"))
        })
        .count()
}

#[test]
fn codeobj_elf_accepts_every_fixture_and_replays_its_corpus() {
    let mut hsaco = fixtures("fixtures/hsaco", ".hsaco");
    hsaco.extend(fixtures("fixtures/iree", ".hsaco"));
    assert_eq!(replay(&hsaco, harness::codeobj_elf), hsaco.len());
    replay(&committed("codeobj_elf"), harness::codeobj_elf);
}

#[test]
fn codeobj_metadata_replays_its_corpus() {
    let corpus = committed("codeobj_metadata");
    assert!(
        replay(&corpus, harness::codeobj_metadata) >= 3,
        "the 3 seeds are real metadata"
    );
}

#[test]
fn target_id_replays_its_corpus() {
    let corpus = committed("target_id");
    assert!(replay(&corpus, harness::target_id) >= 3);
}

#[test]
fn wrapped_accepts_every_wrapped_fixture_and_replays_its_corpus() {
    let mut exes = fixtures("fixtures/iree", ".amd1");
    exes.extend(fixtures("fixtures/iree", ".hip1"));
    assert_eq!(replay(&exes, harness::wrapped), exes.len());
    // Raw HSACOs are no wrapped executables, but must go through cleanly.
    assert_eq!(
        replay(&fixtures("fixtures/iree", ".hsaco"), harness::wrapped),
        0
    );
    replay(&committed("wrapped"), harness::wrapped);
}

#[test]
fn hip_path_replays_its_corpus() {
    let corpus = committed("hip_path");
    assert!(replay(&corpus, harness::hip_path) >= 4);
}

#[test]
fn machine_accepts_every_fixture_as_toml_and_replays_its_corpus() {
    let machines: Vec<_> = fixtures("fixtures/machines", ".toml")
        .into_iter()
        .map(|(name, text)| (name, [&[0u8][..], &text].concat()))
        .collect();
    assert_eq!(replay(&machines, harness::machine), machines.len());
    let corpus = committed("machine");
    // TOML and JSON seeds of every fixture machine.
    assert!(replay(&corpus, harness::machine) >= 2 * machines.len());
}

#[test]
fn wrapped_build_replays_its_corpus() {
    replay(&committed("wrapped_build"), harness::wrapped_build);
}

#[test]
fn wrapped_build_round_trips_generated_specs() {
    // Deterministic pseudo-random inputs: the builder's output must always
    // read back, so a regression in either side shows without a fuzzer.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut accepted = 0;
    for _ in 0..200 {
        let input: Vec<u8> = (0..512)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect();
        accepted += usize::from(harness::wrapped_build(&input));
    }
    assert!(accepted > 20, "only {accepted} of 200 built");
}

#[test]
fn pm4_decodes_every_buffer_iree_emits_and_replays_its_corpus() {
    // The seeds are IREE's own buffers (fuzz/pm4_seeds.py, named
    // CHIP.BUFFER): each decodes whole but the counter readback, a register
    // read the node refuses. Other inputs (regressions, a fuzzer's corpus)
    // only replay.
    let corpus = committed("pm4");
    let mut seeds = 0;
    for (name, data) in &corpus {
        let file = Path::new(name).file_name().unwrap().to_string_lossy();
        if !file.starts_with("gfx") {
            continue;
        }
        seeds += 1;
        let refused = file.ends_with(".perfcounter");
        assert_eq!(harness::pm4(data), !refused, "{name}");
    }
    assert!(seeds >= 21, "{seeds} of IREE's buffers");
    replay(&corpus, harness::pm4);
}

#[test]
fn isa_program_replays_its_regressions() {
    // No committed corpus (random code; isa/tests/hostile_code.rs mutates
    // real instructions): the crash regressions, and FUZZ_REPLAY_DIR's.
    let mut inputs = files(&root().join("fuzz/regressions/isa_program"));
    assert!(!inputs.is_empty(), "fuzz/regressions/isa_program is empty");
    inputs.extend(extra("isa_program"));
    replay(&inputs, harness::isa_program);
}

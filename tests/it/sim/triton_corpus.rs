//! Kernels another compiler wrote compute what numpy computes: every case
//! of `fixtures/triton/` (Triton 3.9's AMD backend, compiled ahead of time
//! by `fixtures/triton/build.py`: the tutorials' vector add, softmax, f16
//! layer norm, matmuls in f16, bf16, fp8, f32 and gfx942's xf32, and
//! attention, with
//! reductions, a scan, atomics, conversions and saturating arithmetic) is
//! launched as Triton's HIP launcher launches it, through the C library on
//! mi300x-8 (gfx942), mi250x-4 (gfx90a), w7900 (gfx1100) and mi355x-8
//! (gfx950), and its outputs
//! match numpy's within each case's tolerance. `scripts/triton-check.py`
//! does the launches (one process per case) and the comparison; a case
//! Triton's backend refuses for a chip (tf32 off gfx942) is counted apart.

use std::path::PathBuf;
use std::process::Command;

use crate::sim::iree_client::library;
use crate::support::requires::{Package, python_module, requires};

const PRESETS: &[&str] = &[
    "mi300x-8=gfx942",
    "mi250x-4=gfx90a",
    "w7900=gfx1100",
    "mi355x-8=gfx950",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_triton_case_computes_numpys_answer_on_each_chip() {
    let what = "the Triton corpus on the simulated node";
    if !requires(what, Package::Pip("numpy"), python_module("numpy")) {
        return;
    }
    let lib = library().display().to_string();
    let mut command = Command::new("python3");
    command
        .arg(root().join("scripts/triton-check.py"))
        .arg(&lib)
        .env_remove("AMDGPU_SIM_FAULTS")
        .env_remove("AMDGPU_SIM_ON_FAULT");
    for preset in PRESETS {
        command.args(["--preset", preset]);
    }
    let output = command.output().expect("python3");
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "triton-check.py:\n{table}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("fixtures/triton/manifest.json")).unwrap(),
    )
    .unwrap();
    let cases = manifest["cases"].as_object().expect("cases");
    assert!(cases.len() >= 12, "only {} cases", cases.len());
    let refused = cases
        .values()
        .flat_map(|chips| chips.as_object().unwrap().values())
        .filter(|entry| entry.get("refused").is_some())
        .count();
    let runs = cases.len() * PRESETS.len();
    assert!(
        table.contains(&format!(
            "{runs} runs: {} pass, {refused} refused, 0 fail",
            runs - refused
        )),
        "{table}"
    );
}

//! The seed against the port: the same executables loaded on the same
//! simulated node through IREE's own AMDGPU driver (the C this project
//! re-implements, with `scripts/iree-cts/executable_probe.c` printing what
//! it registers) and through `amdgpu-hal load`, compared field by field:
//!
//! - the physical devices the executable is loaded on, for the default
//!   affinity and for affinities naming some queues only;
//! - per export: name, constant and binding counts, work-group size;
//! - per export and device: the kernel object's offset in its loaded code
//!   object (IREE's kernel object minus the load base the HSA loader
//!   extension reports, ours minus `code_object_loads[].load_delta`), the
//!   kernarg size and alignment, the group and private segment sizes.
//!
//! Every raw HSACO and `AMD1` fixture for the presets' processors, on
//! mi300x-8, mi250x-4 and w7900. Kernel objects are compared as offsets
//! because IREE's process loads its own device library first.
//!
//! Needs IREE's build (`iree_build`); without it the test prints one line and
//! passes, unless `AMDGPU_HAL_REQUIRE_ALL=1`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use super::iree_build::{built, hsa_library_dir, root, run};

const WHAT: &str = "the seed against the port: IREE's AMDGPU driver and `amdgpu-hal load`";

/// (preset, processor, queue affinities to load with besides `any`).
const PRESETS: &[(&str, &str, &[u64])] = &[
    ("mi300x-8", "gfx942", &[0x1, 0x14, 0x8000]),
    ("mi250x-4", "gfx90a", &[0x2, 0x30]),
    ("w7900", "gfx1100", &[0x2]),
];

/// Fixtures for `processor`: raw HSACOs and `AMD1`s whose file name names
/// it (any code-object version, any feature suffix).
fn fixtures(processor: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["fixtures/hsaco", "fixtures/iree"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let ours = name.contains(&format!(".{processor}."))
                || name.contains(&format!(".{processor}_"));
            if ours && (name.ends_with(".hsaco") || name.ends_with(".amd1")) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn json(text: &str, what: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"))
}

fn hex(value: &Value) -> u64 {
    let text = value.as_str().expect("a hex string");
    u64::from_str_radix(text.trim_start_matches("0x"), 16).expect("hex")
}

fn seed(probe: &Path, libdir: &Path, preset: &str, file: &Path, affinity: Option<u64>) -> Value {
    let mut command = Command::new(probe);
    command
        .arg(file)
        .env("AMDGPU_SIM_MACHINE", preset)
        .env("IREE_HAL_AMDGPU_LIBHSA_PATH", libdir)
        .env("LD_PRELOAD", libdir.join("libamdgpu_sim_kfd.so"))
        .env_remove("AMDGPU_SIM_FAULTS");
    if let Some(affinity) = affinity {
        command.arg(format!("{affinity:#x}"));
    }
    let what = format!("executable_probe {} on {preset}", file.display());
    json(&run(&mut command, &what), &what)
}

fn port(preset: &str, file: &Path, affinity: Option<u64>) -> Value {
    let mut command = Command::new(env!("CARGO_BIN_EXE_amdgpu-hal"));
    command
        .args(["--machine", preset, "load", "--json"])
        .arg(file);
    if let Some(affinity) = affinity {
        command.args(["--affinity", &format!("{affinity:#x}")]);
    }
    let what = format!("amdgpu-hal load {} on {preset}", file.display());
    json(&run(&mut command, &what), &what)
}

/// Every difference between what the seed and the port registered.
fn differences(seed: &Value, port: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut same = |what: String, a: &Value, b: &Value| {
        if a != b {
            out.push(format!("{what}: IREE {a}, amdgpu-hal {b}"));
        }
    };
    let seed_exports = seed["exports"].as_array().unwrap();
    let port_exports = port["exports"].as_array().unwrap();
    same(
        "export count".into(),
        &seed_exports.len().into(),
        &port_exports.len().into(),
    );
    let deltas: Vec<(u64, u64)> = port["code_object_loads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["device"].as_u64().unwrap(), hex(&l["load_delta"])))
        .collect();
    let port_loaded: BTreeSet<u64> = deltas.iter().map(|(d, _)| *d).collect();
    for (s, p) in seed_exports.iter().zip(port_exports) {
        let name = p["name"].as_str().unwrap_or("?").to_string();
        same(format!("{name}: name"), &s["name"], &p["name"]);
        for key in ["constant_count", "binding_count", "workgroup_size"] {
            same(format!("{name}: {key}"), &s[key], &p[key]);
        }
        let seed_loaded: BTreeSet<u64> = s["devices"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["loaded"] == true)
            .map(|d| d["device"].as_u64().unwrap())
            .collect();
        if seed_loaded != port_loaded {
            same(
                format!("{name}: loaded devices"),
                &format!("{seed_loaded:?}").into(),
                &format!("{port_loaded:?}").into(),
            );
            continue;
        }
        let args = &p["kernel_args"];
        for (device, delta) in &deltas {
            let sd = &s["devices"][*device as usize];
            let pd = p["devices"]
                .as_array()
                .unwrap()
                .iter()
                .find(|d| d["device"].as_u64() == Some(*device))
                .expect("a device entry per loaded device");
            let at = format!("{name} on device {device}");
            let seed_offset =
                sd["kernel_object"].as_u64().unwrap() - sd["load_base"].as_u64().unwrap();
            let port_offset = hex(&pd["kernel_object"]).wrapping_sub(*delta);
            same(
                format!("{at}: kernel object offset"),
                &seed_offset.into(),
                &port_offset.into(),
            );
            same(
                format!("{at}: kernarg_size"),
                &sd["kernarg_size"],
                &args["kernarg_size"],
            );
            same(
                format!("{at}: kernarg_alignment"),
                &sd["kernarg_alignment"],
                &args["hsa_kernarg_alignment"],
            );
            for key in ["group_segment_size", "private_segment_size"] {
                same(format!("{at}: {key}"), &sd[key], &args[key]);
            }
            for key in ["constant_count", "binding_count"] {
                same(format!("{at}: {key}"), &sd[key], &p[key]);
            }
        }
    }
    out
}

#[test]
fn iree_and_amdgpu_hal_register_the_same_executables() {
    let Some(work) = built(WHAT) else {
        return;
    };
    let probe = work.join("executable_probe");
    let libdir = hsa_library_dir();
    let mut problems = Vec::new();
    let mut compared = 0;
    for (preset, processor, affinities) in PRESETS {
        let files = fixtures(processor);
        assert!(
            files.len() >= 4,
            "{processor}: only {} fixtures",
            files.len()
        );
        for file in &files {
            for affinity in std::iter::once(None).chain(affinities.iter().copied().map(Some)) {
                let seed = seed(&probe, &libdir, preset, file, affinity);
                let port = port(preset, file, affinity);
                let label = format!("{preset} {} affinity {affinity:?}", file.display());
                problems.extend(
                    differences(&seed, &port)
                        .into_iter()
                        .map(|d| format!("{label}: {d}")),
                );
                compared += 1;
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{compared} loads compared:\n{}",
        problems.join("\n")
    );
}

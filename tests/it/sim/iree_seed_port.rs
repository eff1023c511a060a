//! The seed against the port: the same executables loaded on the same
//! simulated node through IREE's own AMDGPU driver (the C this project
//! re-implements, with `scripts/iree-cts/executable_probe.c` printing what
//! it registers) and through `amdgpu-hal load`, compared field by field:
//!
//! - the physical devices the executable is loaded on, for the default
//!   affinity and for affinities naming some queues only;
//! - per export: name, constant and binding counts, work-group size;
//! - per device: the code object's load size, as each profile registry
//!   records it;
//! - per export and device: the kernel object's offset in its loaded code
//!   object (the kernel object minus the device's load delta, as each
//!   profile registry records it), the kernarg size and alignment, the group
//!   and private segment sizes.
//!
//! An executable one refuses the other must refuse with the same status
//! code, naming the same first kernel. Every raw HSACO and `AMD1` fixture
//! for the presets' processors, on
//! mi300x-8, mi250x-4 and w7900. Kernel objects are compared as offsets
//! because IREE's process loads its own device library first.
//!
//! Needs IREE's build (`iree_build`); without it the test prints one line and
//! passes, unless `AMDGPU_HAL_REQUIRE_ALL=1`.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use super::iree_build::{built, hsa_library_dir, root};

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

/// What a loader did with an executable: the document it printed, or its
/// refusal (stderr).
enum Load {
    Loaded(Value),
    Refused(String),
}

/// Runs `command`: its stdout parsed, or its stderr when it fails.
fn load(command: &mut Command, what: &str) -> Load {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    match output.status.code() {
        Some(0) => Load::Loaded(json(&stdout, what)),
        Some(1) => Load::Refused(String::from_utf8_lossy(&output.stderr).into_owned()),
        _ => panic!(
            "{what}: {}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ),
    }
}

fn seed(probe: &Path, libdir: &Path, preset: &str, file: &Path, affinity: Option<u64>) -> Load {
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
    load(
        &mut command,
        &format!("executable_probe {} on {preset}", file.display()),
    )
}

fn port(preset: &str, file: &Path, affinity: Option<u64>) -> Load {
    let mut command = Command::new(env!("CARGO_BIN_EXE_amdgpu-hal"));
    command
        .args(["--machine", preset, "load", "--json"])
        .arg(file);
    if let Some(affinity) = affinity {
        command.args(["--affinity", &format!("{affinity:#x}")]);
    }
    load(
        &mut command,
        &format!("amdgpu-hal load {} on {preset}", file.display()),
    )
}

/// IREE's status codes, as both print them.
const CODES: &[&str] = &[
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
    "DEFERRED",
    "INCOMPATIBLE",
];

/// The status code a refusal names first, and the first kernel it names
/// (between backquotes, without `.kd`).
fn refusal(message: &str) -> (Option<&'static str>, Option<String>) {
    let code = CODES
        .iter()
        .filter_map(|c| message.find(&format!("{c};")).map(|at| (at, *c)))
        .min()
        .map(|(_, c)| c);
    let kernel = message
        .split('`')
        .nth(1)
        .map(|k| k.trim_end_matches(".kd").to_string());
    (code, kernel)
}

/// Every difference between two refusals.
fn refusal_differences(seed: &str, port: &str) -> Vec<String> {
    let (a, b) = (refusal(seed), refusal(port));
    if a == b && a.0.is_some() {
        return Vec::new();
    }
    vec![format!(
        "refusals differ: IREE {a:?} ({}), amdgpu-hal {b:?} ({})",
        seed.trim(),
        port.trim()
    )]
}

/// Fixtures whose code object carries several metadata notes (one per
/// linked translation unit): IREE exports only the first note's kernels
/// (docs/IREE-DEFECTS.md, 6), `amdgpu-hal` every note's, as ROCm's loader
/// and comgr see them. There IREE's exports must be a proper subset of ours,
/// by name, each agreeing in every field.
const SEVERAL_METADATA_NOTES: &[&str] = &["multi_tu."];

/// Records a difference when `a` (IREE's) and `b` (ours) differ.
fn same(out: &mut Vec<String>, what: String, a: &Value, b: &Value) {
    if a != b {
        out.push(format!("{what}: IREE {a}, amdgpu-hal {b}"));
    }
}

/// Every difference between what the seed and the port registered;
/// `first_note_only`: IREE sees only the first metadata note.
fn differences(seed: &Value, port: &Value, first_note_only: bool) -> Vec<String> {
    let mut out = Vec::new();
    let seed_exports = seed["exports"].as_array().unwrap();
    let port_exports = port["exports"].as_array().unwrap();
    if first_note_only {
        if seed_exports.len() >= port_exports.len() {
            out.push(format!(
                "IREE exports {} kernels of a code object with several notes, amdgpu-hal {}",
                seed_exports.len(),
                port_exports.len()
            ));
        }
    } else {
        same(
            &mut out,
            "export count".into(),
            &seed_exports.len().into(),
            &port_exports.len().into(),
        );
    }
    let deltas: Vec<(u64, u64)> = port["code_object_loads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["device"].as_u64().unwrap(), hex(&l["load_delta"])))
        .collect();
    let port_loaded: BTreeSet<u64> = deltas.iter().map(|(d, _)| *d).collect();
    // IREE's registry: device -> (load delta, load size).
    let seed_loads: std::collections::BTreeMap<u64, (u64, u64)> = seed["code_object_loads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let delta = l["load_delta"].as_i64().unwrap() as u64;
            (
                l["device"].as_u64().unwrap(),
                (delta, l["load_size"].as_u64().unwrap()),
            )
        })
        .collect();
    let seed_registered: BTreeSet<u64> = seed_loads.keys().copied().collect();
    same(
        &mut out,
        "devices with a code-object load".into(),
        &format!("{seed_registered:?}").into(),
        &format!("{port_loaded:?}").into(),
    );
    for load in port["code_object_loads"].as_array().unwrap() {
        let device = load["device"].as_u64().unwrap();
        if let Some((_, size)) = seed_loads.get(&device) {
            same(
                &mut out,
                format!("device {device}: load_size"),
                &(*size).into(),
                &load["load_size"],
            );
        }
    }
    for (ordinal, s) in seed_exports.iter().enumerate() {
        let name = s["name"].as_str().unwrap_or("?").to_string();
        // In ordinal order, or by name where IREE sees fewer kernels.
        let p = if first_note_only {
            match port_exports.iter().find(|p| p["name"] == s["name"]) {
                Some(p) => p,
                None => {
                    out.push(format!("{name}: exported by IREE only"));
                    continue;
                }
            }
        } else {
            let Some(p) = port_exports.get(ordinal) else {
                continue;
            };
            same(
                &mut out,
                format!("export {ordinal}: name"),
                &s["name"],
                &p["name"],
            );
            p
        };
        for key in ["constant_count", "binding_count", "workgroup_size"] {
            same(&mut out, format!("{name}: {key}"), &s[key], &p[key]);
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
                &mut out,
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
            let Some((seed_delta, _)) = seed_loads.get(device) else {
                continue;
            };
            let seed_offset = sd["kernel_object"]
                .as_u64()
                .unwrap()
                .wrapping_sub(*seed_delta);
            let port_offset = hex(&pd["kernel_object"]).wrapping_sub(*delta);
            same(
                &mut out,
                format!("{at}: kernel object offset"),
                &seed_offset.into(),
                &port_offset.into(),
            );
            same(
                &mut out,
                format!("{at}: kernarg_size"),
                &sd["kernarg_size"],
                &args["kernarg_size"],
            );
            same(
                &mut out,
                format!("{at}: kernarg_alignment"),
                &sd["kernarg_alignment"],
                &args["hsa_kernarg_alignment"],
            );
            for key in ["group_segment_size", "private_segment_size"] {
                same(&mut out, format!("{at}: {key}"), &sd[key], &args[key]);
            }
            for key in ["constant_count", "binding_count"] {
                same(&mut out, format!("{at}: {key}"), &sd[key], &p[key]);
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
    let (mut loaded, mut refused) = (0, 0);
    for (preset, processor, affinities) in PRESETS {
        let files = fixtures(processor);
        assert!(
            files.len() >= 4,
            "{processor}: only {} fixtures",
            files.len()
        );
        for file in &files {
            for affinity in std::iter::once(None).chain(affinities.iter().copied().map(Some)) {
                let label = format!("{preset} {} affinity {affinity:?}", file.display());
                let seed = seed(&probe, &libdir, preset, file, affinity);
                let found = match (seed, port(preset, file, affinity)) {
                    (Load::Loaded(s), Load::Loaded(p)) => {
                        loaded += 1;
                        let name = file.file_name().unwrap().to_string_lossy();
                        let several = SEVERAL_METADATA_NOTES.iter().any(|f| name.starts_with(f));
                        differences(&s, &p, several)
                    }
                    (Load::Refused(s), Load::Refused(p)) => {
                        refused += 1;
                        refusal_differences(&s, &p)
                    }
                    (Load::Loaded(_), Load::Refused(p)) => {
                        vec![format!("only amdgpu-hal refuses: {p}")]
                    }
                    (Load::Refused(s), Load::Loaded(_)) => vec![format!("only IREE refuses: {s}")],
                };
                problems.extend(found.into_iter().map(|d| format!("{label}: {d}")));
            }
        }
    }
    let _ = writeln!(
        std::io::stderr(),
        "seed against port: {loaded} loads and {refused} refusals agree"
    );
    assert!(
        problems.is_empty(),
        "{loaded} loads and {refused} refusals compared:\n{}",
        problems.join("\n")
    );
    // Most fixtures load: a comparison of refusals alone would test little.
    assert!(loaded > 3 * refused, "{loaded} loads, {refused} refusals");
}

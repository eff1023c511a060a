//! Which executables of an IREE bytecode module (`.vmfb`) a `load` takes:
//! as IREE creates every executable of a module it loads, each AMDGPU
//! executable whose code object's target some GPU of the node runs
//! (`format_supported`), or the one `--executable` names, by its read-only
//! data segment or an export it holds. A `HIP1` executable's one code
//! object is loaded as a raw HSACO, as IREE's HIP driver hands it to
//! `hipModuleLoadData`.

use serde::Serialize;

use crate::amdgpu::agents::AgentTopology;
use crate::amdgpu::isa::{FormatSupport, agent_isas, format_supported, isa_target};
use crate::backend::Hsa;
use crate::escape::Escaped;
use crate::status;
use crate::status::Result;
use crate::wrapped::infer::embedded_target;
use crate::wrapped::vmfb::{EmbeddedExecutable, EmbeddedKind, Vmfb};
use crate::wrapped::{DataExtent, DeviceLimits, Hip1Executable};

use super::inspect::inspect;

/// Where in a bytecode module a loaded executable was found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EmbeddedSource {
    /// Its read-only data segment.
    pub segment: usize,
    /// `amd1`, `hip1` or `elf`: what the segment holds. A `HIP1`'s one
    /// code object is loaded as a raw HSACO (the document's `container`).
    pub container: &'static str,
}

/// An AMDGPU executable of the module, with what a person names it by.
struct Candidate<'a> {
    exe: &'a EmbeddedExecutable<'a>,
    container: &'static str,
    /// `segment N: CONTAINER TARGET`, as errors list it.
    held: String,
    runs: bool,
}

/// The executables of `module` to load, each with the bytes to load and
/// where it was found: every one some GPU of `topology` runs, or the one
/// `wanted` names (its segment number, or an export it holds). None that
/// runs is `NOT_FOUND` naming every executable the module holds and the
/// GPUs' targets; a `wanted` that names none is `NOT_FOUND` naming them
/// with their exports; a named one no GPU runs is `INVALID_ARGUMENT`.
pub(super) fn choose<'a>(
    hsa: &dyn Hsa,
    topology: &AgentTopology,
    module: &'a Vmfb<'a>,
    wanted: Option<&str>,
) -> Result<Vec<(&'a [u8], EmbeddedSource)>> {
    let mut held = Vec::new();
    let mut candidates = Vec::new();
    for exe in &module.executables {
        let container = match exe.kind {
            EmbeddedKind::Amd1 => "amd1",
            EmbeddedKind::Hip1 => "hip1",
            EmbeddedKind::AmdgpuElf => "elf",
            EmbeddedKind::OtherElf(machine) => {
                held.push(format!(
                    "segment {}: ELF for machine {machine}",
                    exe.segment
                ));
                continue;
            }
        };
        let target = match embedded_target(exe.data) {
            Ok(target) => target,
            Err(error) => {
                held.push(format!("segment {}: {container} ({error})", exe.segment));
                continue;
            }
        };
        let line = format!("segment {}: {container} {target}", exe.segment);
        held.push(line.clone());
        let mut runs = false;
        for &agent in topology.gpu_agents() {
            runs |= matches!(
                format_supported(hsa, agent, &target)?,
                FormatSupport::Supported(_)
            );
        }
        candidates.push(Candidate {
            exe,
            container,
            held: line,
            runs,
        });
    }
    let held_text = if held.is_empty() {
        "no executable".to_owned()
    } else {
        held.join("; ")
    };
    let chosen: Vec<&Candidate> = match wanted {
        Some(name) => {
            let Some(found) = candidates.iter().find(|c| names(c.exe, name)) else {
                let listed: Vec<String> = candidates
                    .iter()
                    .map(|c| format!("{} (exports: {})", c.held, export_names(c.exe).join(", ")))
                    .collect();
                return Err(status!(
                    NotFound,
                    "the module holds no executable `{}` (a segment number or an export name); it holds: {}",
                    Escaped(name),
                    if listed.is_empty() {
                        held_text
                    } else {
                        listed.join("; ")
                    }
                ));
            };
            if !found.runs {
                return Err(status!(
                    InvalidArgument,
                    "executable {} runs on none of this machine's GPUs ({})",
                    found.held,
                    gpu_targets(hsa, topology)?
                ));
            }
            vec![found]
        }
        None => candidates.iter().filter(|c| c.runs).collect(),
    };
    if chosen.is_empty() {
        return Err(status!(
            NotFound,
            "the module holds no executable this machine's GPUs ({}) run; it holds: {held_text}",
            gpu_targets(hsa, topology)?
        ));
    }
    chosen
        .into_iter()
        .map(|c| Ok((code(c.exe)?, source(c))))
        .collect()
}

fn source(c: &Candidate) -> EmbeddedSource {
    EmbeddedSource {
        segment: c.exe.segment,
        container: c.container,
    }
}

/// The bytes to load: the segment's, or a `HIP1`'s one code object.
fn code<'a>(exe: &EmbeddedExecutable<'a>) -> Result<&'a [u8]> {
    if exe.kind != EmbeddedKind::Hip1 {
        return Ok(exe.data);
    }
    let hip = Hip1Executable::parse(exe.data, DataExtent::Known)?;
    match hip.module_images()[..] {
        [image] => Ok(image),
        ref images => Err(status!(
            InvalidArgument,
            "the HIP executable in rodata segment {} holds {} code objects; load takes one",
            exe.segment,
            images.len()
        )),
    }
}

/// Whether `name` names `exe`: its segment number, or one of its exports.
fn names(exe: &EmbeddedExecutable, name: &str) -> bool {
    name.parse::<usize>() == Ok(exe.segment) || export_names(exe).iter().any(|e| e == name)
}

/// The export names `inspect` reads from `exe` (none where it cannot).
fn export_names(exe: &EmbeddedExecutable) -> Vec<String> {
    inspect(exe.data, &DeviceLimits::AMDGPU, &())
        .map(|report| report.exports.iter().map(|e| e.name.to_owned()).collect())
        .unwrap_or_default()
}

/// The distinct targets of the node's GPUs, comma-separated.
fn gpu_targets(hsa: &dyn Hsa, topology: &AgentTopology) -> Result<String> {
    let mut gpus = Vec::new();
    for &agent in topology.gpu_agents() {
        if let Some(&isa) = agent_isas(hsa, agent)?.first() {
            let name = isa_target(hsa, isa)?.target_id.to_string();
            if !gpus.contains(&name) {
                gpus.push(name);
            }
        }
    }
    Ok(gpus.join(", "))
}

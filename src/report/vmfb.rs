//! `inspect` of an IREE bytecode module (`.vmfb`, the file an IREE
//! developer holds): the HAL executables among its read-only data
//! segments, each with its container, target and exports, and each
//! AMDGPU one inspected as an executable file is ([`super::inspect`]).

use std::fmt;

use serde::Serialize;

use super::inspect::{InspectReport, inspect};
use crate::escape::Escaped;
use crate::status::Result;
use crate::wrapped::vmfb::{self, EmbeddedExecutable, EmbeddedKind};
use crate::wrapped::{DeviceLimits, infer};

/// What `inspect` reports for a bytecode module.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ModuleReport<'a> {
    /// Always `vmfb`.
    pub container: &'static str,
    /// The module's name.
    pub name: &'a str,
    /// The bytecode version.
    pub version: u32,
    /// Bytes of the file.
    pub size: u64,
    /// Read-only data segments (executables, constants, strings).
    pub rodata_segments: usize,
    /// The segments that hold executables, in segment order.
    pub executables: Vec<EmbeddedReport<'a>>,
}

/// One executable of a module.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EmbeddedReport<'a> {
    /// Its read-only data segment.
    pub segment: usize,
    /// Where its bytes start in the file.
    pub offset: usize,
    /// Its bytes.
    pub size: usize,
    /// `amd1`, `hip1`, `elf` (a raw AMDGPU code object), or `elf-<machine>`
    /// for another machine's ELF (IREE's CPU executables).
    pub container: String,
    /// The AMDGPU target ID its code object was built for (`None` for
    /// another machine's ELF, or where reading it failed).
    pub format: Option<String>,
    /// The executable's own report (`None` where `error` says why).
    pub inspect: Option<InspectReport<'a>>,
    /// Why the executable could not be inspected.
    pub error: Option<String>,
}

/// Lists and inspects the executables of the bytecode module `data`
/// (wrapped ones verified against `limits`, as [`inspect`] does). A module
/// that cannot be read is an error; an executable that cannot be inspected
/// is listed with its error.
pub fn inspect_vmfb<'a>(data: &'a [u8], limits: &DeviceLimits) -> Result<ModuleReport<'a>> {
    let module = vmfb::parse(data)?;
    let executables = module
        .executables
        .iter()
        .map(|exe| embedded_report(exe, limits))
        .collect();
    Ok(ModuleReport {
        container: "vmfb",
        name: module.name,
        version: module.version,
        size: data.len() as u64,
        rodata_segments: module.segments,
        executables,
    })
}

fn embedded_report<'a>(exe: &EmbeddedExecutable<'a>, limits: &DeviceLimits) -> EmbeddedReport<'a> {
    let container = match exe.kind {
        EmbeddedKind::Amd1 => "amd1".to_owned(),
        EmbeddedKind::Hip1 => "hip1".to_owned(),
        EmbeddedKind::AmdgpuElf => "elf".to_owned(),
        EmbeddedKind::OtherElf(machine) => format!("elf-{}", machine_name(machine)),
    };
    let (inspected, error) = match exe.kind {
        EmbeddedKind::OtherElf(_) => (None, None),
        _ => match inspect(exe.data, limits, &()) {
            Ok(report) => (Some(report), None),
            Err(status) => (None, Some(status.to_string())),
        },
    };
    let format = match (&inspected, exe.kind) {
        (Some(report), _) => Some(report.format.clone()),
        (None, EmbeddedKind::OtherElf(_)) => None,
        (None, _) => infer::embedded_target(exe.data).ok(),
    };
    EmbeddedReport {
        segment: exe.segment,
        offset: exe.offset,
        size: exe.data.len(),
        container,
        format,
        inspect: inspected,
        error,
    }
}

/// The name of an ELF `e_machine` IREE builds CPU executables for.
fn machine_name(machine: u16) -> String {
    match machine {
        3 => "x86".to_owned(),
        40 => "arm".to_owned(),
        62 => "x86-64".to_owned(),
        183 => "aarch64".to_owned(),
        243 => "riscv".to_owned(),
        other => format!("machine{other}"),
    }
}

impl fmt::Display for ModuleReport<'_> {
    /// The text `amdgpu-hal inspect` prints: the module, then each
    /// executable's own report indented under its line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "container:           vmfb (IREE bytecode module `{}`, version {})",
            Escaped(self.name),
            self.version
        )?;
        writeln!(f, "size:                {} bytes", self.size)?;
        writeln!(f, "rodata segments:     {}", self.rodata_segments)?;
        writeln!(f, "executables:         {}", self.executables.len())?;
        for (i, exe) in self.executables.iter().enumerate() {
            let exports = exe.inspect.as_ref().map(|report| report.exports.len());
            let what = match (&exe.format, exports) {
                (Some(format), Some(1)) => format!("{format}, 1 export"),
                (Some(format), Some(n)) => format!("{format}, {n} exports"),
                (Some(format), None) => format.clone(),
                (None, _) => "not an AMDGPU executable".to_owned(),
            };
            writeln!(
                f,
                "[{i}] rodata segment {}: {} ({}), {} bytes at offset {}",
                exe.segment,
                exe.container,
                Escaped(&what),
                exe.size,
                exe.offset
            )?;
            if let Some(error) = &exe.error {
                writeln!(f, "    error: {}", Escaped(error))?;
            }
            if let Some(report) = &exe.inspect {
                for line in report.to_string().lines() {
                    writeln!(f, "    {line}")?;
                }
            }
        }
        Ok(())
    }
}

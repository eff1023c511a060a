//! `amdgpu-hal inspect FILE [--json]`: what an executable file holds — a
//! wrapped `AMD1` or `HIP1` executable or a raw HSACO — and its exports'
//! kernel facts (`report::inspect`); or, for an IREE bytecode module
//! (`.vmfb`), the executables it holds, each inspected (`report::vmfb`).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::{GlobalArgs, write_error, write_json};
use amdgpu_hal::input::{InputKind, ReleaseBehind, map_or_read_file};
use amdgpu_hal::report::inspect::inspect;
use amdgpu_hal::report::vmfb::inspect_vmfb;
use amdgpu_hal::status::{Result, ResultExt};
use amdgpu_hal::wrapped::DeviceLimits;
use amdgpu_hal::wrapped::vmfb::is_vmfb;

/// Arguments of `inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The executable: `.amd1`, `.hip1` or a raw `.hsaco`; or an IREE
    /// bytecode module (`.vmfb`), whose executables are each inspected.
    pub file: PathBuf,
}

/// Reads the file, inspects it and prints the report (text, or JSON with `--json`).
pub fn run(global: &GlobalArgs, args: &InspectArgs, out: &mut dyn Write) -> Result<()> {
    // Mapped when large: inspect touches the headers and notes, not the
    // code, and each pass over the notes lets the pages behind it go, so a
    // large file is never all resident.
    let data = map_or_read_file(&args.file, InputKind::Executable)?;
    let annotate = || {
        format!(
            "inspecting {}",
            amdgpu_hal::escape::display_path(&args.file)
        )
    };
    if is_vmfb(&data) {
        let report = inspect_vmfb(&data, &DeviceLimits::AMDGPU).annotate_with(annotate)?;
        return if global.json {
            write_json(out, &report)
        } else {
            write!(out, "{report}").map_err(write_error)
        };
    }
    let progress = ReleaseBehind::new(&data);
    let report = inspect(&data, &DeviceLimits::AMDGPU, &progress).annotate_with(annotate)?;
    if global.json {
        report
            .write_json(out, &progress)
            .and_then(|()| writeln!(out))
            .map_err(write_error)
    } else {
        write!(out, "{report}").map_err(write_error)
    }
}

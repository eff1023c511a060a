//! `amdgpu-hal inspect FILE [--json]`: what an executable file holds — a
//! wrapped `AMD1` or `HIP1` executable or a raw HSACO — and its exports'
//! kernel facts (`report::inspect`).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::{GlobalArgs, write_error};
use amdgpu_hal::input::{InputKind, ReleaseBehind, map_or_read_file};
use amdgpu_hal::report::inspect::inspect;
use amdgpu_hal::status::{Result, ResultExt};
use amdgpu_hal::wrapped::DeviceLimits;

/// Arguments of `inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The executable: `.amd1`, `.hip1` or a raw `.hsaco`.
    pub file: PathBuf,
}

/// Reads the file, inspects it and prints the report (text, or JSON with `--json`).
pub fn run(global: &GlobalArgs, args: &InspectArgs, out: &mut dyn Write) -> Result<()> {
    // Mapped when large: inspect touches the headers and notes, not the
    // code, and each pass over the notes lets the pages behind it go, so a
    // large file is never all resident.
    let data = map_or_read_file(&args.file, InputKind::Executable)?;
    let progress = ReleaseBehind::new(&data);
    let report = inspect(&data, &DeviceLimits::AMDGPU, &progress).annotate_with(|| {
        format!(
            "inspecting {}",
            amdgpu_hal::escape::display_path(&args.file)
        )
    })?;
    if global.json {
        report
            .write_json(out, &progress)
            .and_then(|()| writeln!(out))
            .map_err(write_error)
    } else {
        write!(out, "{report}").map_err(write_error)
    }
}

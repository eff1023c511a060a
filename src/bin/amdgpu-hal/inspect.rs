//! `amdgpu-hal inspect FILE [--json]`: what an executable file holds — a
//! wrapped `AMD1` or `HIP1` executable or a raw HSACO — and its exports'
//! kernel facts (`wrapped::inspect`).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::{GlobalArgs, write_error};
use amdgpu_hal::input::{InputKind, ReleaseBehind, map_or_read_file};
use amdgpu_hal::status::{Result, ResultExt};
use amdgpu_hal::wrapped::{DeviceLimits, inspect_runs};

/// Arguments of `inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The executable: `.amd1`, `.hip1` or a raw `.hsaco`.
    pub file: PathBuf,
}

/// Reads the file, inspects it and prints the report (text, or JSON with `--json`).
pub fn run(global: &GlobalArgs, args: &InspectArgs, out: &mut dyn Write) -> Result<()> {
    // Mapped when large: inspect touches the headers and notes, not the code.
    let data = map_or_read_file(&args.file, InputKind::Executable)?;
    // Two passes over the metadata (decoding, then writing names): each
    // lets the mapped pages behind it go, so the file is never all resident.
    // The exports stay in the runs their decoding threads filled: the JSON
    // is written run after run, the text from the report they make.
    let inspected = inspect_runs(&data, &DeviceLimits::AMDGPU, &ReleaseBehind::new(&data))
        .annotate_with(|| {
            format!(
                "inspecting {}",
                amdgpu_hal::escape::display_path(&args.file)
            )
        })?;
    if global.json {
        // Hand-written JSON: the same bytes as `write_json`, several times faster.
        let written = inspected
            .write_json_with(out, &ReleaseBehind::new(&data))
            .and_then(|()| writeln!(out))
            .map_err(write_error);
        left_to_exit(inspected);
        left_to_exit(data);
        return written;
    }
    let report = inspected.into_report();
    let written = write!(out, "{report}").map_err(write_error);
    left_to_exit(report);
    left_to_exit(data);
    written
}

/// Leaves `value` for the process's exit to reclaim: the command ends once
/// its report is written, and the exit returns a large object's report (a
/// heap allocation per export) and the file's mapping at once, where
/// dropping them freed each allocation and unmapped each region in turn
/// (2% of `inspect --json` on 10,000 kernels).
fn left_to_exit<T>(value: T) {
    std::mem::forget(value);
}

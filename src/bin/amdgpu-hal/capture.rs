//! `amdgpu-hal capture`: a machine description (the simulator's TOML, or
//! JSON with `--json`) of what the backend reports (`report::capture`).

use std::io::Write;

use amdgpu_hal::report::capture::{capture, to_toml};
use amdgpu_hal::status::{Result, Status};
use clap::Args;

use super::{GlobalArgs, write_error};

/// Arguments of `capture`.
#[derive(Debug, Args)]
pub struct CaptureArgs {
    /// Write the description here instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// The machine's `name` in the description.
    #[arg(long, default_value = "captured")]
    pub name: String,
    /// The machine's `description`.
    #[arg(long)]
    pub description: Option<String>,
}

/// Captures the backend and writes the description.
pub fn run(global: &GlobalArgs, args: &CaptureArgs, out: &mut dyn Write) -> Result<()> {
    let backend = global.selection().open_backend()?;
    let desc = capture(&backend, &args.name, args.description.as_deref())?;
    // `--json`: the same description as JSON (the simulator reads both).
    let text = if global.json {
        amdgpu_hal::json_writer::to_string_pretty(&desc)
            .map(|json| json + "\n")
            .map_err(|e| Status::internal(format!("JSON output: {e}")))?
    } else {
        to_toml(&desc)?
    };
    match &args.output {
        Some(path) => std::fs::write(path, &text).map_err(|e| {
            amdgpu_hal::input::io_status(
                &e,
                &format!("writing '{}'", amdgpu_hal::escape::display_path(path)),
            )
        }),
        None => out.write_all(text.as_bytes()).map_err(write_error),
    }
}

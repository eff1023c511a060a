//! `amdgpu-hal capture`: a machine description (the simulator's TOML, or
//! JSON with `--json`) of what the backend reports (`report::capture`).

use std::io::Write;
use std::path::Path;

use amdgpu_hal::report::capture::{capture, to_toml};
use amdgpu_hal::status::{Result, Status};
use clap::Args;

use super::{GlobalArgs, write_error};

/// Arguments of `capture`.
#[derive(Debug, Args)]
pub struct CaptureArgs {
    /// Write the description here instead of stdout (`-`: stdout).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// The machine's `name` in the description [default: the output file's
    /// name without its extension; on stdout, the machine captured]
    #[arg(long)]
    pub name: Option<String>,
    /// The machine's `description`.
    #[arg(long)]
    pub description: Option<String>,
}

/// Captures the backend and writes the description.
pub fn run(global: &GlobalArgs, args: &CaptureArgs, out: &mut dyn Write) -> Result<()> {
    let backend = global.selection().open_backend()?;
    // `-o -` is stdout, as for most tools that take an output file.
    let output = args
        .output
        .as_deref()
        .filter(|path| *path != Path::new("-"));
    let name = match &args.name {
        Some(name) => name.clone(),
        None => default_name(output, backend.machine()),
    };
    let desc = capture(&backend, &name, args.description.as_deref())?;
    // `--json`: the same description as JSON (the simulator reads both).
    let text = if global.json {
        amdgpu_hal::json_writer::to_string_pretty(&desc)
            .map(|json| json + "\n")
            .map_err(|e| Status::internal(format!("JSON output: {e}")))?
    } else {
        to_toml(&desc)?
    };
    match output {
        Some(path) => std::fs::write(path, &text).map_err(|e| {
            amdgpu_hal::input::io_status(
                &e,
                &format!("writing '{}'", amdgpu_hal::escape::display_path(path)),
            )
        }),
        None => out.write_all(text.as_bytes()).map_err(write_error),
    }
}

/// The name a capture gets without `--name`: the output file's name without
/// its extension (`-o node.toml` is `node`), else the machine captured (a
/// preset's or file's name; for the host's runtime, its host name).
fn default_name(output: Option<&Path>, machine: &str) -> String {
    if let Some(stem) = output
        .and_then(Path::file_stem)
        .and_then(|stem| stem.to_str())
        .filter(|stem| !stem.is_empty())
    {
        return stem.to_owned();
    }
    if machine == amdgpu_hal::report::HOST_MACHINE
        && let Ok(host) = std::fs::read_to_string("/proc/sys/kernel/hostname")
        && !host.trim().is_empty()
    {
        return host.trim().to_owned();
    }
    machine.to_owned()
}

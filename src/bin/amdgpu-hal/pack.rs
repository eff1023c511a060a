//! `amdgpu-hal pack IN.hsaco -o OUT.amd1`: wraps a raw HSACO into IREE's
//! `AMD1` executable, one export per kernel of its metadata (`wrapped::pack`).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;

use super::{GlobalArgs, write_error, write_json};
use amdgpu_hal::input::{InputKind, io_status, read_file};
use amdgpu_hal::report::inspect::inspect;
use amdgpu_hal::status::{Result, ResultExt, Status};
use amdgpu_hal::wrapped::builder::SourceFileSpec;
use amdgpu_hal::wrapped::{PackOptions, pack};

/// Arguments of `pack`.
#[derive(Debug, Args)]
pub struct PackArgs {
    /// The raw HSACO code object to wrap.
    pub input: PathBuf,
    /// Where to write the `AMD1` executable: a file, never `-` (stdout
    /// carries the summary) nor the input or a `--source` file.
    #[arg(short, long, value_name = "OUT.amd1")]
    pub output: PathBuf,
    /// Record each kernel's name as its export's debug name.
    #[arg(long)]
    pub debug_names: bool,
    /// Embed a source file (repeatable); stored under the path as given.
    #[arg(long = "source", value_name = "FILE")]
    pub sources: Vec<PathBuf>,
    /// Pack only this kernel (by name or `.kd` symbol; repeatable). Default: every kernel.
    #[arg(long = "kernel", value_name = "NAME")]
    pub kernels: Vec<String>,
    /// Workgroup size for kernels without `.reqd_workgroup_size` (required
    /// when any selected kernel has none; at most its `.max_flat_workgroup_size`).
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_workgroup_size)]
    pub workgroup_size: Option<[u32; 3]>,
}

/// Parses `X,Y,Z` (three positive integers).
fn parse_workgroup_size(value: &str) -> std::result::Result<[u32; 3], String> {
    let dims: Vec<u32> = value
        .split(',')
        .map(|dim| {
            dim.trim()
                .parse::<u32>()
                .map_err(|e| format!("`{dim}`: {e}"))
        })
        .collect::<std::result::Result<_, _>>()?;
    match <[u32; 3]>::try_from(dims) {
        Ok(size) if size.iter().all(|&d| d > 0) => Ok(size),
        Ok(_) => Err("every dimension must be at least 1".into()),
        Err(_) => Err("expected three numbers X,Y,Z".into()),
    }
}

#[derive(Serialize)]
struct PackJson<'a> {
    output: String,
    size: usize,
    format: &'a str,
    exports: usize,
}

/// True when `a` and `b` name one existing file (hard and symbolic links
/// included).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return a.dev() == b.dev() && a.ino() == b.ino();
        }
        false
    }
    #[cfg(not(unix))]
    {
        matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(a), Ok(b)) if a == b
        )
    }
}

/// Refuses an output `pack` must not write: `-` (the executable is binary
/// and stdout carries the summary) and any of its own inputs (overwritten
/// before a failure could leave it intact).
fn check_output(args: &PackArgs) -> Result<()> {
    if args.output.as_os_str() == "-" {
        return Err(Status::invalid_argument(
            "-o -: pack writes the executable to a file (stdout carries its summary); name a file",
        ));
    }
    for input in std::iter::once(&args.input).chain(&args.sources) {
        if same_file(input, &args.output) {
            return Err(Status::invalid_argument(format!(
                "output '{}' is the input '{}'; pack would overwrite it",
                args.output.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

/// Packs the input, writes the output file and reports what was written.
pub fn run(global: &GlobalArgs, args: &PackArgs, out: &mut dyn Write) -> Result<()> {
    check_output(args)?;
    let hsaco = read_file(&args.input, InputKind::CodeObject)?;
    let mut source_files = Vec::with_capacity(args.sources.len());
    for path in &args.sources {
        source_files.push(SourceFileSpec {
            path: path.to_string_lossy().into_owned(),
            content: read_file(path, InputKind::SourceFile)?,
        });
    }
    let options = PackOptions {
        debug_names: args.debug_names,
        source_files,
        default_workgroup_size: args.workgroup_size,
        kernels: (!args.kernels.is_empty()).then(|| args.kernels.clone()),
        ..PackOptions::default()
    };
    let packed = pack(&hsaco, &options)
        .annotate_with(|| format!("packing {}", amdgpu_hal::escape::display_path(&args.input)))?;
    let report = inspect(&packed, &options.limits, &())?;
    std::fs::write(&args.output, &packed).map_err(|e| {
        io_status(
            &e,
            &format!("writing {}", amdgpu_hal::escape::display_path(&args.output)),
        )
    })?;
    let summary = PackJson {
        output: args.output.display().to_string(),
        size: packed.len(),
        format: &report.format,
        exports: report.exports.len(),
    };
    if global.json {
        return write_json(out, &summary);
    }
    writeln!(
        out,
        "wrote {} ({} bytes, {}, {} export{})",
        summary.output,
        summary.size,
        summary.format,
        summary.exports,
        if summary.exports == 1 { "" } else { "s" }
    )
    .map_err(write_error)
}

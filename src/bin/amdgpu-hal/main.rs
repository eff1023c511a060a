//! The `amdgpu-hal` command line: global options, the subcommand enum (one
//! variant per subcommand, each in its own file: its arguments and how its
//! document is rendered; the documents are `amdgpu_hal::report`'s) and
//! error reporting.
//!
//! Failures print one line, `Error: <Status>`, on stderr and exit 1
//! ([`error_line`]); usage errors print one line too,
//! `Error: INVALID_ARGUMENT; <clap's message>`, and exit 2 (clap's
//! convention); `--json` output is one document on stdout. Output is
//! buffered whole, so a failure prints nothing on stdout; `inspect` and
//! `load` build their whole document first and then stream it.

#![forbid(unsafe_code)]
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::string_slice
)]

mod capture;
mod devices;
mod error_line;
mod help;
mod info;
mod inspect;
mod load;
mod machines;
mod pack;
mod run;
mod topology;

use std::io::Write;

use amdgpu_hal::backend::SIM_BACKEND_NAME;
use amdgpu_hal::escape::{TerminalSafe, TerminalWriter};
use amdgpu_hal::report::{CUDA_BACKEND_NAME, DEFAULT_MACHINE, HIP_BACKEND_NAME, Selection};
use amdgpu_hal::status::{Result, Status};
use clap::{Args, Parser, Subcommand};

/// `amdgpu-hal`: IREE's AMD GPU HAL pieces, simulation-first.
#[derive(Debug, Parser)]
#[command(name = "amdgpu-hal", version, about, long_about = None)]
pub struct Cli {
    /// Options every subcommand takes.
    #[command(flatten)]
    pub global: GlobalArgs,
    /// Log the main steps (backend open, group creation, executable creation,
    /// inspect) as `tracing` spans on stderr; `-vv` adds debug detail.
    /// `RUST_LOG` overrides the filter.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Options every subcommand takes.
#[derive(Clone, Debug, Args)]
pub struct GlobalArgs {
    /// The simulated machine: a preset name (see `machines`) or a TOML/JSON
    /// description file [default: mi300x-8]; `host` with `--backend hip` is
    /// the real runtime. `--backend hsa|cuda` run on the host's runtime and
    /// take no other machine.
    #[arg(long, global = true, value_name = "NAME|FILE")]
    pub machine: Option<String>,
    /// The backend: `sim`, the simulated node; `hip`, IREE's HIP driver over
    /// the simulated node (over the real `libamdhip64` with `--machine
    /// host`); `hsa` and `cuda`, the host's real runtime (feature `real`).
    #[arg(long, global = true, default_value = SIM_BACKEND_NAME,
          value_parser = [SIM_BACKEND_NAME, "hsa", HIP_BACKEND_NAME, CUDA_BACKEND_NAME])]
    pub backend: String,
    /// Print one JSON document instead of text.
    #[arg(long, global = true)]
    pub json: bool,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the embedded machine presets.
    #[command(after_help = help::MACHINES)]
    Machines(machines::MachinesArgs),
    /// List the agents of a machine (index, kind, name, UUID, ISAs, pools);
    /// with `--backend hip`, the HIP devices with IREE's device ids and paths.
    #[command(after_help = help::DEVICES)]
    Devices(devices::DevicesArgs),
    /// Load an executable (AMD1 or raw HSACO) on the machine's GPUs and show its tables.
    #[command(after_help = help::LOAD)]
    Load(load::LoadArgs),
    /// Dump the HIP device facts (IREE's `dump_device_info`) of a device path.
    #[command(after_help = help::INFO)]
    Info(info::InfoArgs),
    /// Build a device group of the machine's GPU agents and print its topology matrix.
    #[command(after_help = help::TOPOLOGY)]
    Topology(topology::TopologyArgs),
    /// Wrap a raw HSACO into IREE's AMD1 executable (one export per kernel).
    #[command(after_help = help::PACK)]
    Pack(pack::PackArgs),
    /// Show what an executable holds (AMD1, HIP1 or raw HSACO) and its exports' kernel facts.
    #[command(after_help = help::INSPECT)]
    Inspect(inspect::InspectArgs),
    /// Write a machine description (simulator TOML) of what the backend reports.
    #[command(after_help = help::CAPTURE)]
    Capture(capture::CaptureArgs),
    /// Run a program on the simulated node (HIP, HSA, IREE, Python…) and exit with its status.
    #[command(after_help = help::RUN)]
    Run(run::RunArgs),
}

impl Command {
    /// True for the subcommands that compute their whole document before
    /// writing any of it (so they can stream it without risking half an
    /// output on failure).
    pub fn writes_whole_documents(&self) -> bool {
        matches!(self, Command::Inspect(_) | Command::Load(_))
    }
}

impl GlobalArgs {
    /// The backend and machine these options select.
    pub fn selection(&self) -> Selection {
        Selection::new(self.backend.clone(), self.machine.clone())
    }
}

/// Runs a parsed command line, writing its output to `out`.
pub fn run(cli: &Cli, out: &mut dyn Write) -> Result<()> {
    cli.global.selection().check()?;
    match &cli.command {
        Command::Machines(args) => machines::run(&cli.global, args, out),
        Command::Devices(args) => devices::run(&cli.global, args, out),
        Command::Load(args) => load::run(&cli.global, args, out),
        Command::Info(args) => info::run(&cli.global, args, out),
        Command::Topology(args) => topology::run(&cli.global, args, out),
        Command::Pack(args) => pack::run(&cli.global, args, out),
        Command::Inspect(args) => inspect::run(&cli.global, args, out),
        Command::Capture(args) => capture::run(&cli.global, args, out),
        // `run` exits with its program's status, not a document's: `main`
        // hands it the process before this point.
        Command::Run(_) => Err(Status::failed_precondition(
            "run is started by the process entry (run::main), which exits with the program's status",
        )),
    }
}

/// Writes `value` as pretty JSON followed by a newline.
pub fn write_json<T: serde::Serialize>(out: &mut dyn Write, value: &T) -> Result<()> {
    // Serialize into `out` (the CLI's output buffer) through a small buffer:
    // no second whole copy of a document that can be several times the
    // input's size, and no virtual call per JSON token.
    let mut writer = std::io::BufWriter::with_capacity(1 << 16, &mut *out);
    // Strings escape DEL and the C1 controls too: the document passes the
    // terminal escaper unchanged and stays valid JSON.
    amdgpu_hal::json_writer::to_writer_pretty(&mut writer, value).map_err(|e| {
        if e.is_io() {
            write_error(e.into())
        } else {
            Status::internal(format!("JSON output: {e}"))
        }
    })?;
    writeln!(writer).map_err(write_error)?;
    writer.flush().map_err(write_error)
}

/// The status for a failed write to stdout.
pub fn write_error(error: std::io::Error) -> Status {
    Status::unavailable(format!("writing output: {error}"))
}

/// Installs a stderr `tracing` subscriber for `-v` (info) / `-vv` (debug)
/// that prints each span when it closes; nothing is installed without `-v`.
/// `RUST_LOG`, when set, replaces the level filter.
pub fn init_tracing(verbose: u8) {
    use tracing_subscriber::EnvFilter;
    use tracing_subscriber::fmt::format::FmtSpan;
    if verbose == 0 {
        return;
    }
    let level = if verbose == 1 { "info" } else { "debug" };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(level));
    // A second install (library users calling this twice) is harmless.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_target(false)
        .with_span_events(FmtSpan::CLOSE)
        .try_init();
}

/// The process entry: parses `std::env::args`, runs, reports; returns the exit code.
fn main() -> std::process::ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error),
    };
    init_tracing(cli.verbose);
    if let Command::Run(args) = &cli.command {
        if let Err(status) = cli.global.selection().check() {
            eprintln!("{}", error_line::error_line(&status));
            return std::process::ExitCode::from(run::RUN_ERROR_EXIT);
        }
        return run::main(&cli.global, args);
    }
    let stdout = std::io::stdout();
    // Everything printed passes through one escaper, or is JSON that escapes
    // itself: no control character from an input (a kernel name, a device
    // name) reaches the terminal raw.
    let result = if cli.command.writes_whole_documents() {
        // The document is complete before its first byte is written, so it
        // goes straight to stdout: no second copy of a large output.
        if cli.global.json {
            // Their JSON escapes every control itself (`json_writer`): the
            // scan would find nothing (debug builds check that it does not).
            let pipe = PipeWriter::new(std::io::BufWriter::with_capacity(1 << 16, stdout.lock()));
            let mut out = TerminalSafe::new(pipe);
            run(&cli, &mut out).and_then(|()| out.flush().map_err(write_error))
        } else {
            let pipe = PipeWriter::new(std::io::BufWriter::with_capacity(1 << 16, stdout.lock()));
            let mut out = TerminalWriter::new(pipe);
            run(&cli, &mut out).and_then(|()| out.flush().map_err(write_error))
        }
    } else {
        // Buffer the whole output: a failure prints nothing on stdout.
        let mut buffer = Vec::new();
        let mut out = TerminalWriter::new(PipeWriter::new(stdout.lock()));
        run(&cli, &mut buffer).and_then(|()| {
            out.write_all(&buffer)
                .and_then(|()| out.flush())
                .map_err(write_error)
        })
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(status) => {
            eprintln!("{}", error_line::error_line(&status));
            std::process::ExitCode::FAILURE
        }
    }
}

/// Reports a command line clap refused: `--help` and `--version` as clap
/// prints them, anything else as one `Error: INVALID_ARGUMENT; …` line
/// (clap's message and tips, without its usage block), exit code 2.
fn usage_error(error: &clap::Error) -> std::process::ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = error.print();
        return std::process::ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
    }
    let text = error.render().to_string();
    let message = text.split("\nUsage:").next().unwrap_or_default();
    // clap ends some messages (those without a usage block) with its own
    // "For more information, try '--help'." line: dropped, so that the one
    // `try '--help'` below is said once.
    let message: Vec<&str> = message
        .lines()
        .filter(|line| !line.trim_start().starts_with("For more information, try"))
        .collect();
    let message = message.join("\n");
    let message = message
        .trim()
        .strip_prefix("error: ")
        .unwrap_or(message.trim());
    let status = Status::invalid_argument(format!("{message}; try '--help'"));
    eprintln!("{}", error_line::error_line(&status));
    std::process::ExitCode::from(2)
}

/// A writer that swallows a closed pipe (`| head`): not worth an error
/// message, and the rest of the output has nowhere to go.
struct PipeWriter<W: Write> {
    inner: W,
    closed: bool,
}

impl<W: Write> PipeWriter<W> {
    fn new(inner: W) -> Self {
        PipeWriter {
            inner,
            closed: false,
        }
    }

    /// True (and remembered) when `error` is a closed pipe.
    fn closes(&mut self, error: &std::io::Error) -> bool {
        self.closed |= error.kind() == std::io::ErrorKind::BrokenPipe;
        self.closed
    }
}

impl<W: Write> Write for PipeWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        match self.inner.write(buf) {
            // A swallowed closed pipe counts the bytes as written.
            Err(e) if self.closes(&e) => Ok(buf.len()),
            other => other,
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.closed {
            return Ok(());
        }
        match self.inner.flush() {
            Err(e) if self.closes(&e) => Ok(()),
            other => other,
        }
    }
}

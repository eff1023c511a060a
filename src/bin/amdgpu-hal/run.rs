//! `amdgpu-hal run -- COMMAND…`: runs a program on the simulated node
//! (`amdgpu_hal::run` finds the C library and composes the environment)
//! and exits with its status: a signal that ended it as 128 + N, as shells
//! say it; 0 turned into [`NODE_FAILURE_EXIT`] when the node saw a kernel
//! fault the program did not report (unless `--allow-faults`). The
//! command's own failures to start are `env`'s codes (126: not runnable,
//! 127: not found); `run`'s own errors exit [`RUN_ERROR_EXIT`], one
//! `Error:` line each.
//!
//! Signals: SIGTERM, SIGHUP, SIGUSR1 and SIGUSR2 sent to `run` are passed
//! to the program (a CI job's timeout stops the program, and `run` then
//! reports); SIGINT and SIGQUIT are not, as a shell waiting for a command
//! does not: a terminal sends them to the whole foreground process group,
//! the program included, and a second copy would end a program's own
//! orderly shutdown on Ctrl-C.

use std::ffi::OsString;
use std::io::ErrorKind;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use amdgpu_hal::backend::SIM_BACKEND_NAME;
use amdgpu_hal::run::environment::{self, NodeDirs, NodeSettings};
use amdgpu_hal::run::libraries::{self, SearchPlaces};
use amdgpu_hal::run::report::RunReport;
use amdgpu_hal::status::{Result, Status};
use clap::Args;

use crate::GlobalArgs;
use crate::error_line::error_line;

/// Exit status for `run`'s own failure (no library, a bad machine): 125,
/// as `env`, `nice` and `timeout` say that they, not the command, failed.
pub const RUN_ERROR_EXIT: u8 = 125;
/// Exit status of a program that succeeded on a node that saw a kernel
/// fault.
pub const NODE_FAILURE_EXIT: u8 = 1;
/// The signals passed on to the program.
const FORWARDED: [i32; 4] = [
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGUSR1,
    signal_hook::consts::SIGUSR2,
];
/// The signals `run` sits out while the program runs (the terminal sends
/// them to the program itself).
const SAT_OUT: [i32; 2] = [signal_hook::consts::SIGINT, signal_hook::consts::SIGQUIT];

/// `run`'s arguments (the machine is the global `--machine`).
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Faults to arm on the node (`AMDGPU_SIM_FAULTS`, docs/SIMULATOR.md
    /// "Fault injection"), e.g. `kernel@1` or `hipMalloc@2=2`.
    #[arg(long, value_name = "SPEC")]
    pub faults: Option<String>,
    /// The threads each kernel's work-groups run on
    /// (`AMDGPU_SIM_THREADS`; default: the host's cores). Results are the
    /// same bits on every count for programs without data races. The
    /// bound is the node's (`amdgpu_isa::MAX_THREADS`, held equal by the
    /// CLI's tests).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Keep the node's report in FILE (every process's, summed) and print
    /// a summary of it on stderr at exit.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Write a Chrome trace-event timeline of the run to FILE
    /// (`AMDGPU_SIM_TRACE=chrome:FILE`; open it in Perfetto).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Exit with the program's status even when the node saw a kernel
    /// fault it did not report.
    #[arg(long)]
    pub allow_faults: bool,
    /// The program and its arguments (after `--`).
    #[arg(
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "COMMAND"
    )]
    pub command: Vec<OsString>,
}

/// Runs the command; the process's exit code.
pub fn main(global: &GlobalArgs, args: &RunArgs) -> ExitCode {
    match run(global, args) {
        Ok(code) => ExitCode::from(code),
        Err(status) => {
            eprintln!("{}", error_line(&status));
            ExitCode::from(RUN_ERROR_EXIT)
        }
    }
}

/// A private scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn create() -> Result<Scratch> {
        let base = std::env::temp_dir();
        let mut last = None;
        for attempt in 0..100u32 {
            let dir = base.join(format!("amdgpu-hal-run-{}-{attempt}", std::process::id()));
            match std::fs::create_dir(&dir) {
                Ok(()) => {
                    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
                        .map_err(|e| Status::unavailable(format!("{}: {e}", dir.display())))?;
                    return Ok(Scratch(dir));
                }
                Err(e) => last = Some(e),
            }
        }
        Err(Status::unavailable(format!(
            "cannot create a directory in {}: {}",
            base.display(),
            last.map_or_else(String::new, |e| e.to_string())
        )))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `path` made absolute against the current directory (the program may
/// change directory before the library writes it).
fn absolute(path: &Path) -> Result<PathBuf> {
    std::path::absolute(path)
        .map_err(|e| Status::invalid_argument(format!("{}: {e}", path.display())))
}

/// The machine to name in `AMDGPU_SIM_MACHINE`: a preset as named, a file
/// made absolute; checked now, so that a typo is one line from `run` and
/// not every process's failure.
fn machine(global: &GlobalArgs) -> Result<String> {
    let name = global.selection().machine().to_owned();
    amdgpu_sim::presets::load_machine(&name).map_err(Status::not_found)?;
    if amdgpu_sim::presets::preset_text(&name).is_some() {
        return Ok(name);
    }
    Ok(absolute(Path::new(&name))?.display().to_string())
}

fn run(global: &GlobalArgs, args: &RunArgs) -> Result<u8> {
    if global.backend != SIM_BACKEND_NAME {
        return Err(Status::invalid_argument(format!(
            "run puts a program on the simulated node; --backend {} does not apply",
            global.backend
        )));
    }
    if global.json {
        return Err(Status::invalid_argument(
            "run prints no document; its output is the program's (--report FILE keeps the node's report)",
        ));
    }
    let machine = machine(global)?;
    let libraries = libraries::find(&SearchPlaces::of_process())?;
    let scratch = Scratch::create()?;
    let dirs = NodeDirs {
        lib: scratch.0.join("lib"),
        bin: scratch.0.join("bin"),
    };
    let reports = scratch.0.join("reports");
    for dir in [&dirs.lib, &dirs.bin, &reports] {
        std::fs::create_dir(dir)
            .map_err(|e| Status::unavailable(format!("{}: {e}", dir.display())))?;
    }
    environment::link_vendor_names(&dirs.lib, &libraries)?;
    environment::write_stand_ins(&dirs.bin)?;
    let settings = NodeSettings {
        machine: machine.clone(),
        faults: args.faults.clone(),
        threads: args.threads,
        report: reports.join("report.%p"),
        trace: args.trace.as_deref().map(absolute).transpose()?,
    };
    let vars = environment::variables(&settings, &libraries, &dirs, |name| std::env::var_os(name));
    let Some((program, rest)) = args.command.split_first() else {
        return Err(Status::invalid_argument("no command to run"));
    };
    let code = match spawn_and_wait(program, rest, &vars)? {
        Started::Exited(code) => code,
        Started::Failed(code) => return Ok(code),
    };
    let report = read_reports(&reports)?;
    if let Some(path) = &args.report {
        std::fs::write(path, report.render()).map_err(|e| {
            Status::unavailable(format!("writing the report to {}: {e}", path.display()))
        })?;
        eprintln!("{}", report.summary(&machine));
    }
    match report.failure() {
        Some(why) if code == 0 && !args.allow_faults => {
            eprintln!(
                "amdgpu-hal run: the program exited 0 but {why}; exiting {NODE_FAILURE_EXIT} (--allow-faults keeps the program's status)"
            );
            Ok(NODE_FAILURE_EXIT)
        }
        _ => Ok(code),
    }
}

/// How the command went.
enum Started {
    /// It ran; its exit code (128 + N for signal N).
    Exited(u8),
    /// It could not start (said on stderr): 126 or 127.
    Failed(u8),
}

/// Starts `program` with `vars` set, passes [`FORWARDED`] signals on,
/// waits for it.
fn spawn_and_wait(
    program: &OsString,
    args: &[OsString],
    vars: &[(&'static str, OsString)],
) -> Result<Started> {
    // Registered before the program starts, so no signal is lost between
    // its start and the forwarding thread's.
    let mut signals = signal_hook::iterator::Signals::new(FORWARDED.iter().chain(&SAT_OUT))
        .map_err(|e| Status::unavailable(format!("installing signal handlers: {e}")))?;
    let mut child = match std::process::Command::new(program)
        .args(args)
        .envs(vars.iter().map(|(k, v)| (k, v)))
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            let name = program.to_string_lossy();
            let code = if e.kind() == ErrorKind::NotFound {
                127
            } else {
                126
            };
            eprintln!("amdgpu-hal run: cannot run '{name}': {e}");
            return Ok(Started::Failed(code));
        }
    };
    let pid = rustix::process::Pid::from_child(&child);
    let handle = signals.handle();
    let forwarder = std::thread::spawn(move || {
        for signal in signals.forever() {
            if !FORWARDED.contains(&signal) {
                continue;
            }
            if let Some(signal) = rustix::process::Signal::from_named_raw(signal) {
                // The program may have just exited: nothing to do.
                let _ = rustix::process::kill_process(pid, signal);
            }
        }
    });
    let status = child.wait();
    handle.close();
    let _ = forwarder.join();
    let status =
        status.map_err(|e| Status::unavailable(format!("waiting for the program: {e}")))?;
    let code = match (status.code(), status.signal()) {
        (Some(code), _) => code,
        (None, Some(signal)) => 128 + signal,
        (None, None) => 1,
    };
    Ok(Started::Exited(u8::try_from(code & 0xff).unwrap_or(1)))
}

/// The reports every process of the run wrote, merged.
fn read_reports(dir: &Path) -> Result<RunReport> {
    let mut report = RunReport::default();
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Status::unavailable(format!("{}: {e}", dir.display())))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| Status::unavailable(format!("{}: {e}", path.display())))?;
        report.add(&text);
    }
    Ok(report)
}

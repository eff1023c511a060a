//! What the environment says about the node besides its machine and
//! faults: the report file, what a kernel fault does, how streams run
//! their work, and how many threads a kernel's work-groups run on. Read once, when the runtime is created.

use amdgpu_sim::Sim;
use amdgpu_sim::kernel_exec::{KERNELS_ENV, KernelMode, KernelThreads, THREADS_ENV};

/// Environment variable holding the fault specification.
pub const FAULTS_ENV: &str = "AMDGPU_SIM_FAULTS";
/// Environment variable that, set to `1`, prints every call on stderr;
/// set to `threads`, every call with the id of the thread making it, and
/// every stream operation as its worker runs it; set to `chrome:FILE`,
/// writes the run's timeline to FILE (`super::timeline`).
pub const TRACE_ENV: &str = "AMDGPU_SIM_TRACE";
/// Environment variable naming the report file (`%p` in it: the process id).
pub const REPORT_ENV: &str = "AMDGPU_SIM_REPORT";
/// Environment variable choosing [`OnFault`]: `abort` or `report`.
pub const ON_FAULT_ENV: &str = "AMDGPU_SIM_ON_FAULT";
/// Environment variable choosing how streams run their work: `eager` (the
/// default: work submitted to an idle stream runs at once on the
/// submitting thread) or `worker`, every operation handed to the stream's
/// worker thread, so that completion order depends on thread scheduling as
/// on hardware queues that run concurrently (what exposes a client's race
/// between streams; docs/SIMULATOR.md).
pub const STREAMS_ENV: &str = "AMDGPU_SIM_STREAMS";

/// The prefix of a [`TRACE_ENV`] value naming a timeline file.
pub const CHROME_PREFIX: &str = "chrome:";

/// The file a value of [`TRACE_ENV`] names for a timeline: `Some(Ok)` for
/// `chrome:FILE`, `Some(Err)` for `chrome:` without one, `None` for the
/// other modes.
pub(crate) fn timeline_file(value: &str) -> Option<Result<&str, String>> {
    let path = value.strip_prefix(CHROME_PREFIX)?;
    Some(if path.is_empty() {
        Err(format!("{TRACE_ENV}: `{CHROME_PREFIX}` names no file"))
    } else {
        Ok(path)
    })
}

/// What a kernel's memory fault does to the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OnFault {
    /// Abort the process, as ROCr does.
    #[default]
    Abort,
    /// Keep the process; the device reports the fault from then on.
    Report,
}

impl OnFault {
    /// The policy a value of [`ON_FAULT_ENV`] names (unset or empty: the
    /// default).
    pub fn parse(value: Option<&str>) -> Result<OnFault, String> {
        match value {
            None | Some("abort") => Ok(OnFault::Abort),
            Some("report") => Ok(OnFault::Report),
            Some(other) => Err(format!(
                "{ON_FAULT_ENV}: `{other}` is neither `abort` nor `report`"
            )),
        }
    }
}

/// The runtime's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    /// The report file ([`REPORT_ENV`]), if one is named.
    pub(crate) report: Option<String>,
    /// What a kernel's memory fault does ([`ON_FAULT_ENV`]).
    pub(crate) on_fault: OnFault,
    /// Whether streams run work submitted to an idle stream at once
    /// ([`STREAMS_ENV`] other than `worker`).
    pub(crate) eager_streams: bool,
}

impl Default for Settings {
    /// No report, faults abort, streams eager: an unset environment.
    fn default() -> Settings {
        Settings {
            report: None,
            on_fault: OnFault::Abort,
            eager_streams: true,
        }
    }
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

impl Settings {
    /// The settings the environment gives, after applying to `sim` what
    /// belongs to the simulator (the trace, the kernel mode, the faults).
    pub(crate) fn from_env(sim: &Sim) -> Result<Settings, String> {
        match env(TRACE_ENV).as_deref() {
            Some("1") => sim.set_trace(true),
            Some("threads") => sim.set_trace_threads(true),
            // The runtime begins the timeline (`super::runtime::timeline`).
            Some(value) => {
                if let Some(file) = timeline_file(value) {
                    file?;
                }
            }
            None => {}
        }
        match env(KERNELS_ENV).as_deref() {
            None | Some("execute") => {}
            Some("skip") => sim.set_kernel_mode(KernelMode::Skip),
            Some(other) => {
                return Err(format!(
                    "{KERNELS_ENV}: `{other}` is neither `execute` nor `skip`"
                ));
            }
        }
        sim.set_kernel_threads(KernelThreads::parse(env(THREADS_ENV).as_deref())?);
        let on_fault = OnFault::parse(env(ON_FAULT_ENV).as_deref())?;
        if let Some(spec) = env(FAULTS_ENV) {
            crate::spec::arm(sim, &spec).map_err(|e| format!("{FAULTS_ENV}: {e}"))?;
        }
        Ok(Settings {
            report: env(REPORT_ENV),
            on_fault,
            eager_streams: std::env::var(STREAMS_ENV).map_or(true, |v| v != "worker"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_values_name_a_timeline_file_or_another_mode() {
        assert_eq!(timeline_file("chrome:/tmp/t.json"), Some(Ok("/tmp/t.json")));
        let e = timeline_file("chrome:")
            .and_then(Result::err)
            .unwrap_or_default();
        assert!(e.contains(TRACE_ENV) && e.contains("names no file"), "{e}");
        assert_eq!(timeline_file("1"), None);
        assert_eq!(timeline_file("threads"), None);
    }

    #[test]
    fn policies_by_name() {
        assert_eq!(OnFault::parse(None), Ok(OnFault::Abort));
        assert_eq!(OnFault::parse(Some("abort")), Ok(OnFault::Abort));
        assert_eq!(OnFault::parse(Some("report")), Ok(OnFault::Report));
        let e = OnFault::parse(Some("ignore")).unwrap_err();
        assert!(e.contains(ON_FAULT_ENV) && e.contains("`ignore`"), "{e}");
    }
}

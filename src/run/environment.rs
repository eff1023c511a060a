//! The environment that puts an unmodified program on the simulated node,
//! what `scripts/sim-libs.sh` and the docs' by-hand recipe set up:
//!
//! - a directory of links named as the vendor runtimes (ROCr's
//!   `libhsa-runtime64.so{,.1}`, HIP's `libamdhip64.so{,.5,.6}`) to the
//!   node's C library, first on `LD_LIBRARY_PATH`, so that a program
//!   linked against them (rocminfo, a hipcc build) and one that opens them
//!   by name (IREE's HIP driver, Python packages) both load the node;
//! - `IREE_HAL_AMDGPU_LIBHSA_PATH`, that directory, for IREE's AMDGPU
//!   driver, which opens `libhsa-runtime64.so.1` from there;
//! - the `/dev/kfd` stand-in appended to `LD_PRELOAD` (the driver opens
//!   the KFD itself);
//! - a stand-in `lsmod` first on `PATH` that lists the `amdgpu` kernel
//!   module: `rocminfo` runs `lsmod | grep amdgpu` before it calls HSA,
//!   and would stop at "ROCk module is NOT loaded" (scripts/sim-rocminfo.sh
//!   does the same);
//! - `AMDGPU_SIM_MACHINE`, and `AMDGPU_SIM_FAULTS`, `AMDGPU_SIM_THREADS`,
//!   `AMDGPU_SIM_REPORT`, `AMDGPU_SIM_TRACE` as asked.
//!
//! The names are the C library's own (`amdgpu_sim_ffi::node` documents
//! them); they are spelt here because the library crate does not link the
//! C library.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use super::libraries::NodeLibraries;
use crate::status::{Result, Status};

/// The file names the vendor runtimes are loaded by.
pub const VENDOR_NAMES: [&str; 5] = [
    "libhsa-runtime64.so.1",
    "libhsa-runtime64.so",
    "libamdhip64.so",
    "libamdhip64.so.5",
    "libamdhip64.so.6",
];
/// The simulated machine (a preset name or a description file).
pub const MACHINE_ENV: &str = "AMDGPU_SIM_MACHINE";
/// Faults armed on the node (docs/SIMULATOR.md "Fault injection").
pub const FAULTS_ENV: &str = "AMDGPU_SIM_FAULTS";
/// The threads a kernel's work-groups run on (docs/SIMULATOR.md).
pub const THREADS_ENV: &str = "AMDGPU_SIM_THREADS";
/// The report file the C library writes at exit; `%p` is the process id.
pub const REPORT_ENV: &str = "AMDGPU_SIM_REPORT";
/// The trace the C library writes (`chrome:FILE`: Chrome trace events).
pub const TRACE_ENV: &str = "AMDGPU_SIM_TRACE";
/// Where IREE's AMDGPU driver opens `libhsa-runtime64.so.1`.
pub const IREE_LIBHSA_ENV: &str = "IREE_HAL_AMDGPU_LIBHSA_PATH";
/// The dynamic loader's search path.
pub const LIBRARY_PATH_ENV: &str = "LD_LIBRARY_PATH";
/// The dynamic loader's preloads.
pub const PRELOAD_ENV: &str = "LD_PRELOAD";
/// The program search path.
pub const PATH_ENV: &str = "PATH";
/// The stand-in `lsmod`: the loaded modules rocminfo's preflight looks
/// for, as `lsmod` prints them.
pub const LSMOD_STAND_IN: &str = "#!/bin/sh\n\
# amdgpu-hal run's stand-in: the module rocminfo looks for (the simulated node).\n\
echo 'Module                  Size  Used by'\n\
echo 'amdgpu              16384000  0'\n";

/// The directories of a run's private scratch directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeDirs {
    /// The vendor names ([`link_vendor_names`]).
    pub lib: PathBuf,
    /// The stand-in programs ([`write_stand_ins`]).
    pub bin: PathBuf,
}

/// What a run asks of the node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeSettings {
    /// The machine: a preset name, or a description file (an absolute
    /// path: the program may change directory).
    pub machine: String,
    /// `AMDGPU_SIM_FAULTS`, when given (else the caller's passes through).
    pub faults: Option<String>,
    /// `AMDGPU_SIM_THREADS`, when given (else the caller's passes through).
    pub threads: Option<u32>,
    /// The report file pattern (`%p`: each process's id).
    pub report: PathBuf,
    /// The Chrome trace file, when asked (`AMDGPU_SIM_TRACE=chrome:FILE`).
    pub trace: Option<PathBuf>,
}

/// Makes `dir` hold a link by each of [`VENDOR_NAMES`] to the node's C
/// library.
pub fn link_vendor_names(dir: &Path, libraries: &NodeLibraries) -> Result<()> {
    for name in VENDOR_NAMES {
        let link = dir.join(name);
        std::os::unix::fs::symlink(&libraries.node, &link).map_err(|e| {
            Status::unavailable(format!(
                "linking {} to {}: {e}",
                link.display(),
                libraries.node.display()
            ))
        })?;
    }
    Ok(())
}

/// Writes the stand-in programs (`lsmod`, [`LSMOD_STAND_IN`]) into `dir`.
pub fn write_stand_ins(dir: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let lsmod = dir.join("lsmod");
    std::fs::write(&lsmod, LSMOD_STAND_IN)
        .and_then(|()| std::fs::set_permissions(&lsmod, std::fs::Permissions::from_mode(0o755)))
        .map_err(|e| Status::unavailable(format!("writing {}: {e}", lsmod.display())))
}

/// `first` then `rest` (a `:`-separated list), or `first` alone when
/// `rest` is unset or empty.
fn prepend(first: &OsStr, rest: Option<&OsStr>) -> OsString {
    let mut value = first.to_os_string();
    if let Some(rest) = rest.filter(|r| !r.is_empty()) {
        value.push(":");
        value.push(rest);
    }
    value
}

/// The variables to set for a program to run on the node: `dirs` hold
/// the links of [`link_vendor_names`] and the stand-ins of
/// [`write_stand_ins`]; `current` reads the caller's environment (the
/// loader's path and preload and `PATH` are extended, not replaced).
pub fn variables(
    settings: &NodeSettings,
    libraries: &NodeLibraries,
    dirs: &NodeDirs,
    current: impl Fn(&str) -> Option<OsString>,
) -> Vec<(&'static str, OsString)> {
    let vendor_dir = dirs.lib.as_path();
    let preload = match current(PRELOAD_ENV).filter(|p| !p.is_empty()) {
        // Appended: a preload the caller chose (a sanitizer's runtime)
        // stays first.
        Some(existing) => prepend(&existing, Some(libraries.kfd.as_os_str())),
        None => libraries.kfd.clone().into_os_string(),
    };
    let mut vars = vec![
        (
            LIBRARY_PATH_ENV,
            prepend(vendor_dir.as_os_str(), current(LIBRARY_PATH_ENV).as_deref()),
        ),
        (PRELOAD_ENV, preload),
        (
            PATH_ENV,
            prepend(dirs.bin.as_os_str(), current(PATH_ENV).as_deref()),
        ),
        (IREE_LIBHSA_ENV, vendor_dir.as_os_str().to_os_string()),
        (MACHINE_ENV, OsString::from(&settings.machine)),
        (REPORT_ENV, settings.report.clone().into_os_string()),
    ];
    if let Some(faults) = &settings.faults {
        vars.push((FAULTS_ENV, OsString::from(faults)));
    }
    if let Some(threads) = settings.threads {
        vars.push((THREADS_ENV, OsString::from(threads.to_string())));
    }
    if let Some(trace) = &settings.trace {
        let mut value = OsString::from("chrome:");
        value.push(trace);
        vars.push((TRACE_ENV, value));
    }
    vars
}

#[cfg(test)]
mod tests {
    use super::*;

    fn libraries() -> NodeLibraries {
        NodeLibraries {
            node: PathBuf::from("/opt/lib/libamdgpu_sim_ffi.so"),
            kfd: PathBuf::from("/opt/lib/libamdgpu_sim_kfd.so"),
        }
    }

    fn settings() -> NodeSettings {
        NodeSettings {
            machine: "w7900".into(),
            faults: None,
            threads: None,
            report: PathBuf::from("/tmp/r/report.%p"),
            trace: None,
        }
    }

    fn dirs() -> NodeDirs {
        NodeDirs {
            lib: PathBuf::from("/tmp/r/lib"),
            bin: PathBuf::from("/tmp/r/bin"),
        }
    }

    fn get<'a>(vars: &'a [(&str, OsString)], name: &str) -> Option<&'a str> {
        vars.iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.to_str())
    }

    #[test]
    fn the_loader_path_and_preload_are_extended_not_replaced() {
        let current = |name: &str| match name {
            "LD_LIBRARY_PATH" => Some(OsString::from("/usr/local/lib")),
            "LD_PRELOAD" => Some(OsString::from("libasan.so.8")),
            "PATH" => Some(OsString::from("/usr/bin")),
            _ => None,
        };
        let vars = variables(&settings(), &libraries(), &dirs(), current);
        assert_eq!(get(&vars, "PATH"), Some("/tmp/r/bin:/usr/bin"));
        assert_eq!(
            get(&vars, "LD_LIBRARY_PATH"),
            Some("/tmp/r/lib:/usr/local/lib")
        );
        assert_eq!(
            get(&vars, "LD_PRELOAD"),
            Some("libasan.so.8:/opt/lib/libamdgpu_sim_kfd.so")
        );
        assert_eq!(
            get(&vars, "IREE_HAL_AMDGPU_LIBHSA_PATH"),
            Some("/tmp/r/lib")
        );
        assert_eq!(get(&vars, "AMDGPU_SIM_MACHINE"), Some("w7900"));
        assert_eq!(get(&vars, "AMDGPU_SIM_REPORT"), Some("/tmp/r/report.%p"));
        // Not asked for: the caller's own settings pass through untouched.
        assert_eq!(get(&vars, "AMDGPU_SIM_FAULTS"), None);
        assert_eq!(get(&vars, "AMDGPU_SIM_TRACE"), None);
        assert_eq!(get(&vars, "AMDGPU_SIM_THREADS"), None);
    }

    #[test]
    fn faults_threads_and_trace_are_set_when_asked() {
        let settings = NodeSettings {
            faults: Some("kernel@1".into()),
            threads: Some(3),
            trace: Some(PathBuf::from("/w/trace.json")),
            ..settings()
        };
        let vars = variables(&settings, &libraries(), &dirs(), |_| None);
        assert_eq!(get(&vars, "LD_LIBRARY_PATH"), Some("/tmp/r/lib"));
        assert_eq!(
            get(&vars, "LD_PRELOAD"),
            Some("/opt/lib/libamdgpu_sim_kfd.so")
        );
        assert_eq!(get(&vars, "AMDGPU_SIM_FAULTS"), Some("kernel@1"));
        assert_eq!(get(&vars, "AMDGPU_SIM_TRACE"), Some("chrome:/w/trace.json"));
        assert_eq!(get(&vars, "AMDGPU_SIM_THREADS"), Some("3"));
    }
}

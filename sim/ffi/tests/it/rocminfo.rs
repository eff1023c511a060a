//! The HSA side of the C library through a real client: Debian's `rocminfo`
//! (5.2.3, package rocminfo) runs against `libamdgpu_sim_ffi.so` under the
//! name `libhsa-runtime64.so.1`, through `scripts/sim-rocminfo.sh` (a
//! stand-in `lsmod` and `/dev/kfd` as `/dev/null` in a private mount
//! namespace). For every preset it must exit 0 and print every agent, pool
//! and ISA exactly as the machine describes them, in rocminfo's own format,
//! and the lines the cited real boards printed (`PUBLISHED`) must appear.
//!
//! Needs rocminfo, `unshare` and root (for the namespace); otherwise each
//! test prints one `skipped:` line, or fails under `AMDGPU_HAL_REQUIRE_ALL=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

use amdgpu_sim::Machine;

use crate::rocminfo_format;
use rocminfo_format::{agent_lines, parse};

/// One line saying what is skipped and why, or a failure when CI requires
/// every optional dependency.
pub(crate) fn skip(what: &str, reason: &str) {
    let line = format!("skipped: {what} ({reason})");
    if std::env::var("AMDGPU_HAL_REQUIRE_ALL").as_deref() == Ok("1") {
        panic!("{line}, and AMDGPU_HAL_REQUIRE_ALL=1");
    }
    // Straight to the process's stderr: the harness captures `eprintln!` of
    // passing tests, and a skip must show in a passing run.
    let _ = std::io::Write::write_all(
        &mut std::io::stderr().lock(),
        format!("{line}\n").as_bytes(),
    );
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Why rocminfo cannot run here, if it cannot.
pub(crate) fn unavailable() -> Option<&'static str> {
    if !on_path("rocminfo") {
        return Some("no rocminfo on PATH; needs Debian package rocminfo");
    }
    if !on_path("unshare") {
        return Some("no unshare on PATH; needs Debian packages util-linux and rocminfo");
    }
    if !is_root() {
        return Some(
            "not root: the private mount namespace needs it; needs Debian package rocminfo",
        );
    }
    let namespace = Command::new("unshare").args(["--mount", "true"]).status();
    if !namespace.is_ok_and(|s| s.success()) {
        return Some(
            "unshare --mount is refused here (no CAP_SYS_ADMIN?); needs Debian package rocminfo",
        );
    }
    None
}

pub(crate) fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The library cargo built next to this test binary.
fn library() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let so = exe.parent().expect("deps dir").join("libamdgpu_sim_ffi.so");
    assert!(so.exists(), "{} not built", so.display());
    so
}

/// A directory where `libhsa-runtime64.so.1` is this build's library.
pub(crate) fn library_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("rocminfo")
        .join(name);
    std::fs::create_dir_all(&dir).expect("lib dir");
    let link = dir.join("libhsa-runtime64.so.1");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(library(), &link).expect("symlink");
    dir
}

/// `(agent number as rocminfo counts it, label, value)`.
type PublishedLine = (usize, &'static str, &'static str);

/// Lines printed by the real boards the presets cite, transcribed from the
/// published outputs (only the lines the simulated agent shares with that
/// board).
const PUBLISHED: &[(&str, &[PublishedLine])] = &[
    // https://github.com/ROCm/ROCm/issues/4021 (8x MI300X, ROCm 6.2.3), Agent 3.
    (
        "mi300x-8",
        &[
            (3, "Name", "gfx942"),
            (3, "Marketing Name", "AMD Instinct MI300X"),
            (3, "Queue Min Size", "64(0x40)"),
            (3, "Queue Max Size", "131072(0x20000)"),
            (3, "Cache Info/L1", "32(0x20) KB"),
            (3, "Cache Info/L2", "4096(0x1000) KB"),
            (3, "Cache Info/L3", "262144(0x40000) KB"),
            (3, "Chip ID", "29857(0x74a1)"),
            (3, "Cacheline Size", "64(0x40)"),
            (3, "Max Clock Freq. (MHz)", "2100"),
            (3, "Compute Unit", "304"),
            (3, "SIMDs per CU", "4"),
            (3, "Shader Engines", "32"),
            (3, "Shader Arrs. per Eng.", "1"),
            (3, "WatchPts on Addr. Ranges", "4"),
            (3, "Wavefront Size", "64(0x40)"),
            (3, "Max Waves Per CU", "32(0x20)"),
            (3, "Max Work-item Per CU", "2048(0x800)"),
            (3, "Grid Max Size", "4294967295(0xffffffff)"),
            (3, "Max fbarriers/Workgrp", "32"),
            (3, "Pool Info/Pool 1/Size", "201310208(0xbffc000) KB"),
            (3, "Pool Info/Pool 4/Size", "64(0x40) KB"),
            (3, "Pool Info/Pool 4/Alloc Granule", "0KB"),
            (
                3,
                "ISA Info/ISA 1/Name",
                "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-",
            ),
            (
                3,
                "ISA Info/ISA 1/Machine Models",
                "HSA_MACHINE_MODEL_LARGE",
            ),
            (3, "ISA Info/ISA 1/FBarrier Max Size", "32"),
            (1, "Feature", "None specified"),
            (1, "Max Queue Number", "0(0x0)"),
            (1, "Cacheline Size", "64(0x40)"),
            (1, "WatchPts on Addr. Ranges", "1"),
        ],
    ),
    // https://github.com/ROCm/ROCm/issues/4208 (MI250X, EPYC 7A53 in NPS4,
    // ROCm 6.2.1): Agent 1 (a CPU) and Agent 5 (the first GCD).
    (
        "mi250x-4",
        &[
            (1, "Name", "AMD EPYC 7A53 64-Core Processor"),
            (1, "Cache Info/L1", "32768(0x8000) KB"),
            (1, "Max Clock Freq. (MHz)", "2000"),
            (1, "Compute Unit", "32"),
            (5, "Name", "gfx90a"),
            (5, "Cache Info/L1", "16(0x10) KB"),
            (5, "Cache Info/L2", "8192(0x2000) KB"),
            (5, "Cacheline Size", "64(0x40)"),
            (5, "Max Clock Freq. (MHz)", "1700"),
            (5, "Compute Unit", "110"),
            (5, "SIMDs per CU", "4"),
            (5, "Shader Engines", "8"),
            (5, "Shader Arrs. per Eng.", "1"),
            (5, "Max Waves Per CU", "32(0x20)"),
            (5, "Pool Info/Pool 1/Size", "67092480(0x3ffc000) KB"),
            (
                5,
                "ISA Info/ISA 1/Name",
                "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-",
            ),
        ],
    ),
    // https://github.com/ROCm/ROCm/issues/5191 (Ryzen 9 7950X and an RX
    // 7900 XTX, ROCm 6.4.1): Agent 1 and Agent 2.
    (
        "rx7900xtx",
        &[
            (1, "Name", "AMD Ryzen 9 7950X 16-Core Processor"),
            (1, "Cache Info/L1", "32768(0x8000) KB"),
            (1, "Max Clock Freq. (MHz)", "5883"),
            (1, "Compute Unit", "32"),
            (2, "Name", "gfx1100"),
            (2, "Cache Info/L1", "32(0x20) KB"),
            (2, "Cache Info/L2", "6144(0x1800) KB"),
            (2, "Cache Info/L3", "98304(0x18000) KB"),
            (2, "Cacheline Size", "128(0x80)"),
            (2, "Compute Unit", "96"),
            (2, "SIMDs per CU", "2"),
            (2, "Shader Engines", "6"),
            (2, "Shader Arrs. per Eng.", "2"),
            (2, "Wavefront Size", "32(0x20)"),
            (2, "Max Waves Per CU", "32(0x20)"),
            (2, "Max Work-item Per CU", "1024(0x400)"),
            (2, "ISA Info/ISA 1/Name", "amdgcn-amd-amdhsa--gfx1100"),
        ],
    ),
    // MI210: https://github.com/ROCm/ROCm/issues/4563 (ROCm 6.2.4), Agent 2;
    // MI100: https://github.com/ROCm/ROCm/issues/2594 (ROCm 5.7), Agent 2.
    (
        "mixed-isa",
        &[
            (2, "Name", "gfx90a"),
            (2, "Marketing Name", "AMD Instinct MI210"),
            (2, "Cache Info/L2", "8192(0x2000) KB"),
            (2, "Chip ID", "29711(0x740f)"),
            (2, "Cacheline Size", "128(0x80)"),
            (2, "Max Clock Freq. (MHz)", "1700"),
            (2, "Compute Unit", "104"),
            (2, "Shader Engines", "8"),
            (2, "Max Waves Per CU", "32(0x20)"),
            (4, "Name", "gfx908"),
            (4, "Marketing Name", "AMD Instinct MI100"),
            (4, "Cache Info/L1", "16(0x10) KB"),
            (4, "Chip ID", "29580(0x738c)"),
            (4, "Max Clock Freq. (MHz)", "1502"),
            (4, "Compute Unit", "120"),
            (4, "SIMDs per CU", "4"),
            (4, "Max Waves Per CU", "40(0x28)"),
            (4, "Max Work-item Per CU", "2560(0xa00)"),
            (
                4,
                "ISA Info/ISA 1/Name",
                "amdgcn-amd-amdhsa--gfx908:sramecc+:xnack-",
            ),
        ],
    ),
    // The CPU agent shape every output above shows.
    (
        "cpu-only",
        &[
            (1, "Feature", "None specified"),
            (1, "Profile", "FULL_PROFILE"),
            (1, "Queue Type", "MULTI"),
            (1, "Cache Info/L1", "32768(0x8000) KB"),
            (1, "Cacheline Size", "64(0x40)"),
            (1, "SIMDs per CU", "0"),
            (1, "WatchPts on Addr. Ranges", "1"),
            (1, "Features", "None"),
            (
                1,
                "Pool Info/Pool 2/Segment",
                "GLOBAL; FLAGS: KERNARG, FINE GRAINED",
            ),
        ],
    ),
];

/// The system attributes every published rocminfo of a Linux node prints.
const PUBLISHED_SYSTEM: &[(&str, &str)] = &[
    ("System Timestamp Freq.", "1000.000000MHz"),
    (
        "Sig. Max Wait Duration",
        "18446744073709551615 (0xFFFFFFFFFFFFFFFF) (timestamp count)",
    ),
    ("Machine Model", "LARGE"),
    ("System Endianness", "LITTLE"),
];

fn check_preset(preset: &str) {
    if let Some(reason) = unavailable() {
        skip(&format!("rocminfo on the {preset} preset"), reason);
        return;
    }
    let machine: Machine = amdgpu_sim::presets::load_preset(preset)
        .expect("a preset")
        .expect("a valid preset");
    let output = Command::new(workspace().join("scripts/sim-rocminfo.sh"))
        .arg(preset)
        .env("AMDGPU_SIM_LIB_DIR", library_dir(preset))
        .env_remove("AMDGPU_SIM_FAULTS")
        .output()
        .expect("run scripts/sim-rocminfo.sh");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "rocminfo on {preset}: {}\n{stdout}\n{stderr}",
        output.status
    );
    // The loader's one remark about the unversioned stand-in is all stderr holds.
    for noise in stderr.lines().filter(|l| !l.trim().is_empty()) {
        assert!(
            noise.contains("no version information available"),
            "unexpected stderr from rocminfo on {preset}: {noise}"
        );
    }
    assert!(stdout.contains("ROCk module is loaded"));
    assert!(stdout.trim_end().ends_with("*** Done ***"), "{stdout}");

    let printed = parse(&stdout);
    let expect = |key: &str, value: &str| {
        let found = printed.system.iter().find(|l| l.key == key);
        assert_eq!(
            found.map(|l| l.value.as_str()),
            Some(value),
            "{preset}: {key}"
        );
    };
    // The release the preset claims (`[hsa]`; 1.1 without the table).
    expect(
        "Runtime Version",
        &format!(
            "{}.{}",
            machine.system.version_major, machine.system.version_minor
        ),
    );
    for (key, value) in PUBLISHED_SYSTEM {
        expect(key, value);
    }

    assert_eq!(
        printed.agents.len(),
        machine.agents.len(),
        "{preset}: every agent printed"
    );
    for (i, (agent, lines)) in machine.agents.iter().zip(&printed.agents).enumerate() {
        let wanted = agent_lines(agent);
        for (n, (got, want)) in lines.iter().zip(&wanted).enumerate() {
            assert_eq!(
                got,
                want,
                "{preset} agent {} ({}), line {n}",
                i + 1,
                agent.id
            );
        }
        assert_eq!(
            lines.len(),
            wanted.len(),
            "{preset} agent {} ({}): line count",
            i + 1,
            agent.id
        );
    }

    // The presets with excerpts in fixtures/machines/dumps are held against
    // them line by line in published_dumps.rs; these are the older
    // transcriptions (a line or two each) of the dumps the presets cite.
    let published = PUBLISHED
        .iter()
        .find(|(name, _)| *name == preset)
        .map_or(&[][..], |(_, lines)| *lines);
    for &(agent, key, value) in published {
        let lines = &printed.agents[agent - 1];
        assert!(
            lines.iter().any(|l| l.key == key && l.value == value),
            "{preset} agent {agent}: the real board prints '{key}: {value}'"
        );
    }
}

#[test]
fn rocminfo_prints_the_mi300x_node() {
    check_preset("mi300x-8");
}

#[test]
fn rocminfo_prints_the_mi250x_node() {
    check_preset("mi250x-4");
}

#[test]
fn rocminfo_prints_the_w7900_node() {
    check_preset("w7900");
}

#[test]
fn rocminfo_prints_the_mixed_isa_node() {
    check_preset("mixed-isa");
}

#[test]
fn rocminfo_prints_the_cpu_only_node() {
    check_preset("cpu-only");
}

#[test]
fn rocminfo_prints_the_mi325x_node() {
    check_preset("mi325x-8");
}

#[test]
fn rocminfo_prints_the_mi300a_node() {
    check_preset("mi300a-4");
}

#[test]
fn rocminfo_prints_the_rx7900xtx_node() {
    check_preset("rx7900xtx");
}

#[test]
fn rocminfo_prints_the_r9700_node() {
    check_preset("r9700-4");
}

#[test]
fn rocminfo_prints_the_mi355x_node() {
    check_preset("mi355x-8");
}

#[test]
fn every_preset_has_a_rocminfo_test() {
    // A new preset gets its own test above (and rocminfo's check).
    let tested = [
        "mi300x-8",
        "mi250x-4",
        "w7900",
        "mixed-isa",
        "cpu-only",
        "mi325x-8",
        "mi300a-4",
        "rx7900xtx",
        "r9700-4",
        "mi355x-8",
    ];
    for (name, _) in amdgpu_sim::presets::PRESETS {
        assert!(tested.contains(name), "no rocminfo test for preset {name}");
    }
}

/// Most HSA calls the fault sweep fails in turn (a w7900 run makes 131).
const MAX_SWEEP: u32 = 1000;

#[test]
fn rocminfo_reports_every_failed_call_on_the_w7900_node() {
    // Fail the N-th HSA call of a whole run, for every N: rocminfo must
    // report the HSA error and exit 1, never die of a signal. Its only
    // unchecked query is the UUID (rocminfo.cc ignores that status), one
    // per agent; the sweep ends at the first N past the last call.
    if let Some(reason) = unavailable() {
        skip("the rocminfo fault sweep", reason);
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rocminfo");
    let lib = library_dir("sweep");
    let mut ignored = Vec::new();
    let mut calls = None;
    for n in 1..=MAX_SWEEP {
        let report = dir.join("sweep.report");
        let _ = std::fs::remove_file(&report);
        let output = Command::new(workspace().join("scripts/sim-rocminfo.sh"))
            .arg("w7900")
            .env("AMDGPU_SIM_LIB_DIR", &lib)
            .env("AMDGPU_SIM_FAULTS", format!("hsa@{n}=0x1001"))
            .env("AMDGPU_SIM_REPORT", &report)
            .output()
            .expect("run scripts/sim-rocminfo.sh");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.code().is_some(),
            "call {n}: rocminfo died: {}",
            output.status
        );
        if output.status.success() {
            // Success: either the fault hit the UUID, or N is past the run.
            let report = std::fs::read_to_string(&report).unwrap_or_default();
            match report.lines().find(|l| l.starts_with("injected ")) {
                Some(fault) => ignored.push((n, fault.to_string())),
                None => {
                    calls = Some(n - 1);
                    break;
                }
            }
        } else {
            assert_eq!(output.status.code(), Some(1), "call {n}: {stdout}");
            assert!(
                stdout.contains("hsa api call failure")
                    && stdout.contains("Call returned HSA_STATUS_ERROR_INVALID_ARGUMENT"),
                "call {n}: {stdout}"
            );
        }
    }
    let calls = calls.expect("the sweep reached the end of the run");
    assert!(calls > 100, "a w7900 run makes {calls} HSA calls");
    // Two agents, two ignored UUID queries.
    assert_eq!(ignored.len(), 2, "{ignored:?}");
    assert!(
        ignored
            .iter()
            .all(|(_, fault)| fault.starts_with("injected hsa_agent_get_info")),
        "{ignored:?}"
    );
}

#[test]
fn rocminfo_fails_cleanly_without_a_machine() {
    // No machine: hsa_init fails like a node without /dev/kfd, and rocminfo
    // reports the HSA error instead of printing agents.
    if let Some(reason) = unavailable() {
        skip("rocminfo without a machine", reason);
        return;
    }
    let output = Command::new(workspace().join("scripts/sim-rocminfo.sh"))
        .arg("no-such-machine")
        .env("AMDGPU_SIM_LIB_DIR", library_dir("none"))
        .output()
        .expect("run scripts/sim-rocminfo.sh");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stdout}");
    assert!(
        stdout.contains("HSA_STATUS_ERROR_OUT_OF_RESOURCES"),
        "{stdout}"
    );
    assert!(
        stderr.contains("no machine preset or file named 'no-such-machine'"),
        "{stderr}"
    );
    assert!(!stdout.contains("Agent 1"));
}

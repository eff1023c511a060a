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
use amdgpu_sim::machine::AgentKind;
use amdgpu_sim::validate::{Agent, Pool};

/// One line saying what is skipped and why, or a failure when CI requires
/// every optional dependency.
fn skip(what: &str, reason: &str) {
    let line = format!("skipped: {what} ({reason})");
    if std::env::var("AMDGPU_HAL_REQUIRE_ALL").as_deref() == Ok("1") {
        panic!("{line}, and AMDGPU_HAL_REQUIRE_ALL=1");
    }
    eprintln!("{line}");
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
fn unavailable() -> Option<&'static str> {
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
    None
}

fn workspace() -> PathBuf {
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
fn library_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("rocminfo")
        .join(name);
    std::fs::create_dir_all(&dir).expect("lib dir");
    let link = dir.join("libhsa-runtime64.so.1");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(library(), &link).expect("symlink");
    dir
}

/// rocminfo's `int_to_string`: decimal, then hex in parentheses.
fn int(value: u64) -> String {
    format!("{value}(0x{value:x})")
}

fn flag(value: bool) -> &'static str {
    if value { "TRUE" } else { "FALSE" }
}

/// One printed line: the section path (`Pool 2`, `ISA 1`, …) and its
/// label, and the value.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Line {
    key: String,
    value: String,
}

fn line(key: impl Into<String>, value: impl Into<String>) -> Line {
    Line {
        key: key.into(),
        value: value.into(),
    }
}

/// What rocminfo printed: the system attributes and each agent's lines.
struct Printed {
    system: Vec<Line>,
    agents: Vec<Vec<Line>>,
}

/// Splits rocminfo's output into labelled lines, nesting by indentation
/// (`Pool 2/Size`, `ISA 1/Workgroup Max Size per Dimension/x`).
fn parse(stdout: &str) -> Printed {
    let mut printed = Printed {
        system: Vec::new(),
        agents: Vec::new(),
    };
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut lines = stdout.lines().peekable();
    while let Some(raw) = lines.next() {
        let text = raw.trim_end();
        let trimmed = text.trim_start();
        if trimmed.is_empty()
            || trimmed.starts_with("===")
            || trimmed == "HSA Agents"
            || trimmed == "*** Done ***"
        {
            continue;
        }
        if trimmed.starts_with("*******") {
            // "*******" / "Agent N" / "*******" opens an agent.
            if lines.peek().is_some_and(|l| l.trim().starts_with("Agent ")) {
                lines.next();
                lines.next();
                printed.agents.push(Vec::new());
                stack.clear();
            }
            continue;
        }
        let indent = text.len() - trimmed.len();
        let (key, value) = match trimmed.split_once(':') {
            Some((key, value)) => (key.trim().to_string(), value.trim().to_string()),
            None => match trimmed.split_once(char::is_whitespace) {
                // "Pool 1", "ISA 2": a section.
                Some((word, n)) if n.trim().parse::<u32>().is_ok() && !word.is_empty() => {
                    (format!("{word} {}", n.trim()), String::new())
                }
                Some((key, value)) => (key.to_string(), value.trim().to_string()),
                None => (trimmed.to_string(), String::new()),
            },
        };
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        let path: Vec<&str> = stack
            .iter()
            .map(|(_, k)| k.as_str())
            .chain([key.as_str()])
            .collect();
        let entry = line(path.join("/"), value.clone());
        match printed.agents.last_mut() {
            Some(agent) => agent.push(entry),
            None => printed.system.push(entry),
        }
        if value.is_empty() {
            stack.push((indent, key));
        }
    }
    printed
}

/// The lines rocminfo 5.2.3 prints for `pool` (`Pool n`).
fn pool_lines(n: usize, pool: &Pool) -> Vec<Line> {
    let p = |key: &str| format!("Pool {n}/{key}");
    let segment = match pool.segment {
        0 => {
            // rocminfo 5.2.3 names these three flags only (not the
            // extended-scope fine-grained flag, which it prints as nothing).
            let names: Vec<&str> = [(1, "KERNARG"), (2, "FINE GRAINED"), (4, "COARSE GRAINED")]
                .iter()
                .filter(|(bit, _)| pool.flags & bit != 0)
                .map(|(_, name)| *name)
                .collect();
            format!("GLOBAL; FLAGS: {}", names.join(", "))
        }
        1 => "READONLY".to_string(),
        2 => "PRIVATE".to_string(),
        _ => "GROUP".to_string(),
    };
    vec![
        line(format!("Pool {n}"), ""),
        line(p("Segment"), segment.trim_end()),
        line(p("Size"), format!("{} KB", int(pool.size / 1024))),
        line(p("Allocatable"), flag(pool.alloc_allowed)),
        line(p("Alloc Granule"), format!("{}KB", pool.granule / 1024)),
        line(p("Alloc Alignment"), format!("{}KB", pool.alignment / 1024)),
        line(p("Accessible by all"), flag(pool.accessible_by_all)),
    ]
}

/// Every line rocminfo 5.2.3 prints for `agent`, from the machine
/// description and ROCr's constants (typed here from ROCR-Runtime's
/// `GetInfo`, not taken from the simulator).
fn agent_lines(agent: &Agent) -> Vec<Line> {
    let gpu = agent.kind == AgentKind::Gpu;
    let h = &agent.hsa;
    let mut out = vec![
        line("Name", agent.name.as_str()),
        line("Uuid", agent.uuid.as_str()),
        line("Marketing Name", agent.product.as_str()),
        line("Vendor Name", agent.vendor.as_str()),
        line(
            "Feature",
            if gpu {
                "KERNEL_DISPATCH"
            } else {
                "None specified"
            },
        ),
        line(
            "Profile",
            if agent.profile == 0 {
                "BASE_PROFILE"
            } else {
                "FULL_PROFILE"
            },
        ),
        line(
            "Float Round Mode",
            if agent.rounding_mode == 1 {
                "ZERO"
            } else {
                "NEAR"
            },
        ),
        line("Max Queue Number", int(agent.queues_max.into())),
        line("Queue Min Size", int(if gpu { 64 } else { 0 })),
        line("Queue Max Size", int(if gpu { 131_072 } else { 0 })),
        line("Queue Type", "MULTI"),
        line("Node", agent.node.to_string()),
        line("Device Type", if gpu { "GPU" } else { "CPU" }),
        line("Cache Info", ""),
    ];
    for (level, &size) in h.cache_sizes.iter().enumerate() {
        if size != 0 {
            out.push(line(
                format!("Cache Info/L{}", level + 1),
                format!("{} KB", int((size / 1024).into())),
            ));
        }
    }
    out.extend([
        line("Chip ID", int(agent.chip_id.into())),
        line("Cacheline Size", int(h.cacheline_size.into())),
        line("Max Clock Freq. (MHz)", h.max_clock_mhz.to_string()),
        line("BDFID", agent.bdf_id.to_string()),
        line("Internal Node ID", agent.node.to_string()),
        line("Compute Unit", agent.compute_units.to_string()),
        line("SIMDs per CU", h.simds_per_cu.to_string()),
        line("Shader Engines", h.shader_engines.to_string()),
        line(
            "Shader Arrs. per Eng.",
            h.shader_arrays_per_engine.to_string(),
        ),
        line("WatchPts on Addr. Ranges", h.watch_points.to_string()),
        line("Features", if gpu { "KERNEL_DISPATCH" } else { "None" }),
    ]);
    if gpu {
        let wave = agent.wavefront_size;
        out.extend([
            line("Fast F16 Operation", "TRUE"),
            line("Wavefront Size", int(wave.into())),
            line("Workgroup Max Size", int(h.workgroup_max_size.into())),
            line("Workgroup Max Size per Dimension", ""),
        ]);
        for (axis, dim) in ["x", "y", "z"].iter().zip(h.workgroup_max_dim) {
            out.push(line(
                format!("Workgroup Max Size per Dimension/{axis}"),
                int(dim.into()),
            ));
        }
        out.extend([
            line("Max Waves Per CU", int(h.max_waves_per_cu.into())),
            line(
                "Max Work-item Per CU",
                int(u64::from(wave) * u64::from(h.max_waves_per_cu)),
            ),
            line("Grid Max Size", int(u32::MAX.into())),
            line("Grid Max Size per Dimension", ""),
        ]);
        for axis in ["x", "y", "z"] {
            out.push(line(
                format!("Grid Max Size per Dimension/{axis}"),
                int(u32::MAX.into()),
            ));
        }
        out.push(line("Max fbarriers/Workgrp", "32"));
    }
    out.push(line("Pool Info", ""));
    for (j, pool) in agent.pools.iter().enumerate() {
        out.extend(pool_lines(j + 1, pool).into_iter().map(|l| Line {
            key: format!("Pool Info/{}", l.key),
            value: l.value,
        }));
    }
    out.push(line("ISA Info", ""));
    for (k, isa) in agent.isas.iter().enumerate() {
        let i = |key: &str| format!("ISA Info/ISA {}/{key}", k + 1);
        out.extend([
            line(format!("ISA Info/ISA {}", k + 1), ""),
            line(i("Name"), isa.name.as_str()),
            line(i("Machine Models"), "HSA_MACHINE_MODEL_LARGE"),
            line(i("Profiles"), "HSA_PROFILE_BASE"),
            line(i("Default Rounding Mode"), "NEAR"),
            line(i("Default Rounding Mode"), "NEAR"),
            line(i("Fast f16"), "TRUE"),
            line(i("Workgroup Max Size"), int(isa.workgroup_max_size.into())),
            line(i("Workgroup Max Size per Dimension"), ""),
        ]);
        for (axis, dim) in ["x", "y", "z"].iter().zip(isa.workgroup_max_dim) {
            out.push(line(
                i(&format!("Workgroup Max Size per Dimension/{axis}")),
                int(dim.into()),
            ));
        }
        out.extend([
            line(i("Grid Max Size"), int(u32::MAX.into())),
            line(i("Grid Max Size per Dimension"), ""),
        ]);
        for axis in ["x", "y", "z"] {
            out.push(line(
                i(&format!("Grid Max Size per Dimension/{axis}")),
                int(u32::MAX.into()),
            ));
        }
        out.push(line(i("FBarrier Max Size"), "32"));
    }
    out
}

/// Lines printed by the real boards the presets cite, `(agent number as
/// rocminfo counts it, label, value)`, transcribed from the published
/// outputs (only the lines the simulated agent shares with that board).
const PUBLISHED: &[(&str, &[(usize, &str, &str)])] = &[
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
            (5, "Chip ID", "29704(0x7408)"),
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
    // https://github.com/ROCm/ROCm/issues/5191 (Ryzen 9 7950X and a Navi 31,
    // ROCm 6.4.1): Agent 1 and Agent 2.
    (
        "w7900",
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
    expect("Runtime Version", "1.1");
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

    let published = PUBLISHED
        .iter()
        .find(|(name, _)| *name == preset)
        .map_or(&[][..], |(_, lines)| *lines);
    assert!(!published.is_empty(), "{preset} cites a real rocminfo");
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

#[test]
fn the_parser_reads_rocminfo_lines() {
    // rocminfo's label column is 25 wide: a 25-character label runs into
    // its value ("WatchPts on Addr. Ranges:4").
    let text = "Runtime Version:         1.1\n*******                  \nAgent 1                  \n\
                *******                  \n  Name:                    gfx942\n  \
                WatchPts on Addr. Ranges:4\n  Pool Info:               \n    Pool 1                   \n      \
                Size:                    64(0x40) KB\n  ISA Info:\n    ISA 1\n      \
                Workgroup Max Size per Dimension:\n        x                        1024(0x400)\n";
    let printed = parse(text);
    assert_eq!(printed.system, [line("Runtime Version", "1.1")]);
    assert_eq!(
        printed.agents,
        [vec![
            line("Name", "gfx942"),
            line("WatchPts on Addr. Ranges", "4"),
            line("Pool Info", ""),
            line("Pool Info/Pool 1", ""),
            line("Pool Info/Pool 1/Size", "64(0x40) KB"),
            line("ISA Info", ""),
            line("ISA Info/ISA 1", ""),
            line("ISA Info/ISA 1/Workgroup Max Size per Dimension", ""),
            line(
                "ISA Info/ISA 1/Workgroup Max Size per Dimension/x",
                "1024(0x400)"
            ),
        ]]
    );
}

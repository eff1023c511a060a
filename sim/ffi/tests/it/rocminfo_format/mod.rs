//! rocminfo 5.2.3's output format (`rocminfo.cc` of ROCm/rocminfo at tag
//! rocm-5.2.3): the parser the test reads its output with, and the lines
//! it prints for an agent of a machine description.

use amdgpu_sim::machine::AgentKind;
use amdgpu_sim::validate::{Agent, Pool};

/// rocminfo's `int_to_string`: decimal, then hex in parentheses.
pub fn int(value: u64) -> String {
    format!("{value}(0x{value:x})")
}

fn flag(value: bool) -> &'static str {
    if value { "TRUE" } else { "FALSE" }
}

/// One printed line: the section path (`Pool 2`, `ISA 1`, …) and its
/// label, and the value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Section path and label.
    pub key: String,
    /// The value (trimmed).
    pub value: String,
}

pub fn line(key: impl Into<String>, value: impl Into<String>) -> Line {
    Line {
        key: key.into(),
        value: value.into(),
    }
}

/// What rocminfo printed: the system attributes and each agent's lines.
pub struct Printed {
    /// The system attributes.
    pub system: Vec<Line>,
    /// Each agent's lines.
    pub agents: Vec<Vec<Line>>,
}

/// Splits rocminfo's output into labelled lines, nesting by indentation
/// (`Pool 2/Size`, `ISA 1/Workgroup Max Size per Dimension/x`).
pub fn parse(stdout: &str) -> Printed {
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
pub fn agent_lines(agent: &Agent) -> Vec<Line> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}

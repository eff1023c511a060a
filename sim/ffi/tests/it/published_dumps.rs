//! Every preset against the published rocminfo outputs of the boards it
//! describes: the committed excerpts in `fixtures/machines/dumps/` (one file
//! per cited dump, per-instance values masked) hold each line the real board
//! printed against what the simulated node answers.
//!
//! A line rocminfo 5.2.3 prints is compared with Debian's rocminfo run on
//! the preset (`scripts/sim-rocminfo.sh`). The lines only ROCm 6's rocminfo
//! prints (the runtime's extension version and features, ASIC revision,
//! coherent host access, memory properties, firmware versions, IOMMU, the
//! recommended granule, the extended fine-grained flag's name) are written
//! in ROCm 6's format from the simulator's own HSA answers
//! (`hsa_system_get_info`, `hsa_agent_get_info`,
//! `hsa_amd_memory_pool_get_info`), as `rocminfo.cc` of ROCm 6 formats them.
//! A published `rocm-smi --showtopo` weight matrix is held against the
//! NUMA distances of the GPUs' links (the KFD io_link weight ROCr reports).
//!
//! Needs what `rocminfo.rs` needs (rocminfo, `unshare`, root); otherwise
//! each test prints one `skipped:` line, or fails under
//! `AMDGPU_HAL_REQUIRE_ALL=1`.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

use amdgpu_sim::Sim;
use amdgpu_sys::hsa_info::{AgentInfo, AgentMemoryPoolInfo, MemoryPoolInfo, SystemInfo};
use amdgpu_sys::hsa_values::{IOMMU_SUPPORT_V2, MEMORY_PROPERTY_AGENT_IS_APU};

use crate::rocminfo::{library_dir, skip, unavailable, workspace};
use crate::rocminfo_format::{Line, int, line, parse};

/// A masked (per-instance) value in an excerpt: not compared.
const MASKED: &str = "<masked>";

/// Where the lines of an excerpt belong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Section {
    /// HSA System Attributes.
    System,
    /// The preset's agent (1-based, as rocminfo counts), with the dump's number.
    Agent { dump: usize, preset: usize },
}

/// One published line.
struct Published {
    section: Section,
    key: String,
    value: String,
    /// Line number in the excerpt file (1-based).
    at: usize,
}

/// rocminfo's section indentation: a section `k` levels deep holds its
/// lines at `2 * (k + 1)` spaces (agent keys at 2, `Pool N` at 4, a pool's
/// keys at 6), which `# in:` relies on.
fn depth_indent(depth: usize) -> usize {
    2 * (depth + 1)
}

/// Reads an excerpt: `# system`, `# agent N [as M]`, `# in: A/B` and
/// published `Agent N` headers steer; other `#` lines are comments.
fn read_excerpt(text: &str) -> Vec<Published> {
    let mut out = Vec::new();
    let mut section = None;
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((n, raw)) = lines.next() {
        let text = raw.trim_end();
        let trimmed = text.trim_start();
        if let Some(directive) = trimmed.strip_prefix('#') {
            let directive = directive.trim();
            if directive == "system" {
                section = Some(Section::System);
                stack.clear();
            } else if let Some(rest) = directive.strip_prefix("agent ") {
                let mut words = rest.split_whitespace();
                let dump: usize = words
                    .next()
                    .and_then(|w| w.parse().ok())
                    .expect("# agent N");
                let preset = match (words.next(), words.next()) {
                    (Some("as"), Some(m)) => m.parse().expect("# agent N as M"),
                    _ => dump,
                };
                section = Some(Section::Agent { dump, preset });
                stack.clear();
            } else if let Some(path) = directive.strip_prefix("in:") {
                stack = path
                    .trim()
                    .split('/')
                    .enumerate()
                    .map(|(depth, key)| (depth_indent(depth), key.to_string()))
                    .collect();
            }
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with("***") || trimmed.starts_with("===") {
            if trimmed.starts_with("***")
                && let Some((_, next)) = lines.peek()
                && let Some(rest) = next.trim().strip_prefix("Agent ")
            {
                // "Agent 3 (first GPU — …)": the number comes first.
                let dump: usize = rest
                    .split(|c: char| !c.is_ascii_digit())
                    .next()
                    .and_then(|d| d.parse().ok())
                    .expect("Agent N");
                lines.next();
                lines.next();
                section = Some(Section::Agent { dump, preset: dump });
                stack.clear();
            }
            continue;
        }
        let indent = text.len() - trimmed.len();
        let (key, value) = match trimmed.split_once(':') {
            // ROCm 6 prints some labels with a doubled colon
            // ("Packet Processor uCode::").
            Some((key, value)) => (
                key.trim().to_string(),
                value.trim_start_matches(':').trim().to_string(),
            ),
            None => match trimmed.split_once(char::is_whitespace) {
                Some((word, n)) if n.trim().parse::<u32>().is_ok() => {
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
        let section = section.unwrap_or_else(|| panic!("line {}: no section yet", n + 1));
        out.push(Published {
            section,
            key: path.join("/"),
            value: value.clone(),
            at: n + 1,
        });
        if value.is_empty() {
            stack.push((indent, key));
        }
    }
    out
}

/// The excerpt files of `preset`, sorted.
fn excerpts(preset: &str) -> Vec<PathBuf> {
    let dir = workspace().join("fixtures/machines/dumps");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/machines/dumps")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{preset}.")) && n.ends_with(".txt"))
        })
        .collect();
    files.sort();
    files
}

fn yes_no(value: bool, yes: &str, no: &str) -> String {
    (if value { yes } else { no }).to_string()
}

fn u32_of(bytes: &[u8]) -> u32 {
    u32::from_ne_bytes(bytes.try_into().expect("4 bytes"))
}

fn u16_of(bytes: &[u8]) -> u16 {
    u16::from_ne_bytes(bytes.try_into().expect("2 bytes"))
}

fn usize_of(bytes: &[u8]) -> u64 {
    usize::from_ne_bytes(bytes.try_into().expect("size_t")) as u64
}

/// The global flags as ROCm 6's rocminfo names them (`MakeGlobalFlagsString`).
fn rocm6_flags(flags: u32) -> String {
    [
        (1, "KERNARG"),
        (2, "FINE GRAINED"),
        (4, "COARSE GRAINED"),
        (8, "EXTENDED FINE GRAINED"),
    ]
    .iter()
    .filter(|(bit, _)| flags & bit != 0)
    .map(|(_, name)| *name)
    .collect::<Vec<_>>()
    .join(", ")
}

/// What ROCm 6's rocminfo prints beyond 5.2.3 for the simulated node, from
/// the simulator's HSA answers: the system lines, then each agent's.
fn rocm6_lines(preset: &str) -> (Vec<Line>, Vec<Vec<Line>>) {
    let sim = Sim::preset(preset).expect("a preset").expect("valid");
    sim.hsa_init().expect("hsa_init");
    let sys = |a: SystemInfo| sim.system_get_info(a).expect("system attribute");
    let system = vec![
        line(
            "Runtime Ext Version",
            format!(
                "{}.{}",
                u16_of(&sys(SystemInfo::ExtVersionMajor)),
                u16_of(&sys(SystemInfo::ExtVersionMinor))
            ),
        ),
        line(
            "Mwaitx",
            yes_no(
                sys(SystemInfo::MwaitxEnabled)[0] != 0,
                "ENABLED",
                "DISABLED",
            ),
        ),
        line(
            "XNACK enabled",
            yes_no(sys(SystemInfo::XnackEnabled)[0] != 0, "YES", "NO"),
        ),
        line(
            "DMAbuf Support",
            yes_no(sys(SystemInfo::DmabufSupported)[0] != 0, "YES", "NO"),
        ),
        line(
            "VMM Support",
            yes_no(sys(SystemInfo::VirtualMemApiSupported)[0] != 0, "YES", "NO"),
        ),
    ];
    let agents = sim.iterate_agents().expect("agents");
    let mut per_agent = Vec::new();
    for &agent in &agents {
        let info = |a: AgentInfo| sim.agent_get_info(agent, a).expect("agent attribute");
        let gpu = u32_of(&info(AgentInfo::Device)) == 1;
        let mut lines = vec![line(
            "ASIC Revision",
            int(u32_of(&info(AgentInfo::AsicRevision)).into()),
        )];
        if gpu {
            lines.push(line(
                "Coherent Host Access",
                yes_no(
                    info(AgentInfo::SvmDirectHostAccess)[0] != 0,
                    "TRUE",
                    "FALSE",
                ),
            ));
        }
        // hsa_flag_isset64: the enumerator is a bit position.
        let properties = info(AgentInfo::MemoryProperties);
        let bit = MEMORY_PROPERTY_AGENT_IS_APU as usize;
        let apu = properties[bit / 8] & (1 << (bit % 8)) != 0;
        lines.push(line("Memory Properties", if apu { "APU" } else { "" }));
        if gpu {
            lines.extend([
                line(
                    "Packet Processor uCode",
                    u32_of(&info(AgentInfo::UcodeVersion)).to_string(),
                ),
                line(
                    "SDMA engine uCode",
                    u32_of(&info(AgentInfo::SdmaUcodeVersion)).to_string(),
                ),
                line(
                    "IOMMU Support",
                    yes_no(
                        u32_of(&info(AgentInfo::IommuSupport)) == IOMMU_SUPPORT_V2,
                        "V2",
                        "None",
                    ),
                ),
            ]);
        }
        let pools = sim.agent_iterate_memory_pools(agent).expect("pools");
        for (j, &pool) in pools.iter().enumerate() {
            let p = |a: MemoryPoolInfo| sim.memory_pool_get_info(pool, a).expect("pool attribute");
            let key = |k: &str| format!("Pool Info/Pool {}/{k}", j + 1);
            let segment = match u32_of(&p(MemoryPoolInfo::Segment)) {
                0 => format!(
                    "GLOBAL; FLAGS: {}",
                    rocm6_flags(u32_of(&p(MemoryPoolInfo::GlobalFlags)))
                ),
                1 => "READONLY".to_string(),
                2 => "PRIVATE".to_string(),
                _ => "GROUP".to_string(),
            };
            let size_kb = usize_of(&p(MemoryPoolInfo::Size)) / 1024;
            // The condensed form some posters paste ("Pool 1: GLOBAL;
            // COARSE GRAINED   268419072 KB").
            lines.push(line(
                format!("Pool Info/Pool {}", j + 1),
                format!("{} {size_kb} KB", segment.replace("FLAGS: ", "")),
            ));
            lines.push(line(key("Segment"), segment));
            lines.push(line(
                key("Alloc Recommended Granule"),
                format!(
                    "{}KB",
                    usize_of(&p(MemoryPoolInfo::RuntimeAllocRecGranule)) / 1024
                ),
            ));
        }
        for (k, &isa) in sim
            .agent_iterate_isas(agent)
            .expect("isas")
            .iter()
            .enumerate()
        {
            let name = sim
                .isa_get_info(isa, amdgpu_sys::hsa_info::IsaInfo::Name)
                .expect("isa name");
            let name = String::from_utf8_lossy(&name)
                .trim_end_matches('\0')
                .to_string();
            lines.push(line(format!("ISA Info/ISA {}", k + 1), name));
        }
        per_agent.push(lines);
    }
    (system, per_agent)
}

/// The keys only ROCm 6's rocminfo prints (or prints differently from
/// 5.2.3): looked up in [`rocm6_lines`].
fn rocm6_key(key: &str, value: &str) -> bool {
    let last = key.rsplit('/').next().unwrap_or(key);
    matches!(
        last,
        "Runtime Ext Version"
            | "Mwaitx"
            | "XNACK enabled"
            | "DMAbuf Support"
            | "VMM Support"
            | "ASIC Revision"
            | "Coherent Host Access"
            | "Memory Properties"
            | "Packet Processor uCode"
            | "SDMA engine uCode"
            | "IOMMU Support"
            | "Alloc Recommended Granule"
            | "Segment"
    ) || ((key.starts_with("Pool Info/Pool ") || key.starts_with("ISA Info/ISA "))
        && key.matches('/').count() == 1
        && !value.is_empty())
}

/// Whitespace runs as one blank (rocminfo pads; posters re-space).
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The `n`-th line with `key` in `lines`.
fn nth<'a>(lines: &'a [Line], key: &str, n: usize) -> Option<&'a str> {
    lines
        .iter()
        .filter(|l| l.key == key)
        .nth(n)
        .map(|l| l.value.as_str())
}

/// Holds `preset` against its excerpts; the number of lines compared.
fn check_preset(preset: &str) -> usize {
    let files = excerpts(preset);
    assert!(
        !files.is_empty(),
        "{preset} cites no published dump in fixtures/machines/dumps"
    );
    let output = Command::new(workspace().join("scripts/sim-rocminfo.sh"))
        .arg(preset)
        .env(
            "AMDGPU_SIM_LIB_DIR",
            library_dir(&format!("dumps-{preset}")),
        )
        .env_remove("AMDGPU_SIM_FAULTS")
        .output()
        .expect("run scripts/sim-rocminfo.sh");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "rocminfo on {preset}: {stdout}");
    let printed = parse(&stdout);
    let (rocm6_system, rocm6_agents) = rocm6_lines(preset);
    let mut compared = 0;
    let mut failures = Vec::new();
    for file in &files {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        if name.ends_with(".showtopo.txt") {
            compared += check_showtopo(preset, file);
            continue;
        }
        let text = std::fs::read_to_string(file).expect("read excerpt");
        let mut seen: HashMap<(Section, String), usize> = HashMap::new();
        for p in read_excerpt(&text) {
            let count = seen.entry((p.section, p.key.clone())).or_default();
            let n = *count;
            *count += 1;
            if p.value == MASKED {
                continue;
            }
            let rocm6 = rocm6_key(&p.key, &p.value);
            let (lines, agent) = match p.section {
                Section::System if rocm6 => (&rocm6_system, None),
                Section::System => (&printed.system, None),
                Section::Agent { preset: m, .. } => {
                    let set = if rocm6 {
                        &rocm6_agents
                    } else {
                        &printed.agents
                    };
                    match set.get(m - 1) {
                        Some(lines) => (lines, Some(m)),
                        None => {
                            failures.push(format!("{name}:{}: the preset has no agent {m}", p.at));
                            continue;
                        }
                    }
                }
            };
            // Repeated keys ("Default Rounding Mode" twice) pair up in order.
            let got = nth(lines, &p.key, n);
            compared += 1;
            if got.map(squeeze) != Some(squeeze(&p.value)) {
                let dump = match p.section {
                    Section::Agent { dump, .. } => format!("Agent {dump}"),
                    Section::System => "system".to_string(),
                };
                failures.push(format!(
                    "{name}:{} ({dump}, preset agent {agent:?}): '{}' is '{}' on the real board, '{}' simulated",
                    p.at,
                    p.key,
                    p.value,
                    got.unwrap_or("<not printed>")
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{preset} differs from its published dumps:\n{}",
        failures.join("\n")
    );
    compared
}

/// Holds a published `rocm-smi --showtopo` weight matrix (and the hops
/// rows it shows) against the GPUs' links: GPU i's link to GPU j's first
/// pool, its NUMA distance (the KFD weight) and its hop count.
fn check_showtopo(preset: &str, file: &std::path::Path) -> usize {
    let text = std::fs::read_to_string(file).expect("read showtopo");
    let sim = Sim::preset(preset).expect("a preset").expect("valid");
    sim.hsa_init().expect("hsa_init");
    let agents = sim.iterate_agents().expect("agents");
    let gpus: Vec<u64> = agents
        .iter()
        .copied()
        .filter(|&a| {
            let device = sim.agent_get_info(a, AgentInfo::Device).expect("device");
            u32_of(&device) == 1
        })
        .collect();
    let mut block = "";
    let mut compared = 0;
    for raw in text.lines() {
        let trimmed = raw.trim();
        if trimmed.starts_with('#') || trimmed.is_empty() {
            continue;
        }
        if trimmed.starts_with("===") {
            block = if trimmed.contains("Weight") {
                "weight"
            } else if trimmed.contains("Hops") {
                "hops"
            } else {
                ""
            };
            continue;
        }
        // A row starts at the margin with its GPU; the column header is indented.
        if !raw.starts_with("GPU") {
            continue;
        }
        let mut words = trimmed.split_whitespace();
        let Some(row) = words.next().and_then(|w| w.strip_prefix("GPU")) else {
            continue;
        };
        let Ok(i) = row.parse::<usize>() else {
            continue;
        };
        for (j, cell) in words.enumerate() {
            if i == j || block.is_empty() {
                continue;
            }
            let want: u32 = cell.parse().expect("a number");
            let pool = sim.agent_iterate_memory_pools(gpus[j]).expect("pools")[0];
            let hops = u32_of(
                &sim.agent_memory_pool_get_info(gpus[i], pool, AgentMemoryPoolInfo::NumLinkHops)
                    .expect("hops"),
            );
            let got = if block == "weight" {
                let info = sim
                    .agent_memory_pool_get_info(gpus[i], pool, AgentMemoryPoolInfo::LinkInfo)
                    .expect("link info");
                // The KFD weight is the summed NUMA distance of the hops
                // (`hsa_amd_memory_pool_link_info_t::numa_distance`, at 24).
                info.chunks(amdgpu_sys::hsa_types::LINK_INFO_SIZE)
                    .map(|hop| u32_of(&hop[24..28]))
                    .sum()
            } else {
                hops
            };
            assert_eq!(got, want, "{preset} GPU{i} -> GPU{j} {block}");
            compared += 1;
        }
    }
    compared
}

/// The presets and their published dumps, checked one by one.
const PRESETS: &[&str] = &[
    "mi300x-8",
    "mi250x-4",
    "w7900",
    "mi325x-8",
    "mi300a-4",
    "rx7900xtx",
    "r9700-4",
    "mi355x-8",
];

#[test]
fn every_preset_agrees_with_its_published_dumps() {
    if let Some(reason) = unavailable() {
        skip("the published-dump comparison", reason);
        return;
    }
    let mut table = Vec::new();
    for preset in PRESETS {
        let compared = check_preset(preset);
        assert!(compared > 0, "{preset}: nothing compared");
        table.push(format!(
            "| {preset} | {} | {compared} |",
            excerpts(preset).len()
        ));
    }
    println!("| preset | dumps | published lines compared |\n|---|---|---|");
    println!("{}", table.join("\n"));
}

#[test]
fn the_excerpt_reader_follows_rocminfo_and_the_directives() {
    let text = "# system\nRuntime Version:         1.14\n# agent 16 as 5\n  Name:    gfx90a\n\
                # in: Pool Info/Pool 2\n      Alloc Granule:           4KB\n    Pool 3\n      \
                Size:   64(0x40) KB\n  Packet Processor uCode:: 96\n*******\nAgent 3 (first GPU)\n\
                *******\n  Uuid:   <masked>\n";
    let lines = read_excerpt(text);
    let got: Vec<(Section, &str, &str)> = lines
        .iter()
        .map(|p| (p.section, p.key.as_str(), p.value.as_str()))
        .collect();
    let agent = Section::Agent {
        dump: 16,
        preset: 5,
    };
    assert_eq!(
        got,
        [
            (Section::System, "Runtime Version", "1.14"),
            (agent, "Name", "gfx90a"),
            (agent, "Pool Info/Pool 2/Alloc Granule", "4KB"),
            (agent, "Pool Info/Pool 3", ""),
            (agent, "Pool Info/Pool 3/Size", "64(0x40) KB"),
            (agent, "Packet Processor uCode", "96"),
            (Section::Agent { dump: 3, preset: 3 }, "Uuid", MASKED),
        ]
    );
}

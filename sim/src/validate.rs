//! Parsing and validating a machine description into a [`Machine`]: the
//! resolved model the simulator runs on (defaults filled in, links expanded
//! to directed pairs, HIP properties derived).

use std::cell::Cell;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;

use amdgpu_sys::hip_types::HipDeviceProps;

use crate::hsa_info::AgentHsa;
pub use crate::hsa_info::{Isa, MAX_CACHE_LEVELS};
use crate::machine::{
    AgentDesc, AgentKind, HipPropsDesc, LinkDesc, MachineDesc, PoolDesc, ProfileDesc, RoundingDesc,
    SegmentDesc, amd_hip_uuid, parse_hip_uuid,
};

/// Most bytes a description file may have.
pub const MAX_DESCRIPTION_BYTES: usize = 1 << 20;
/// Most agents a machine may have (IREE's 64 GPU + 64 CPU agents).
pub const MAX_AGENTS: usize = 128;
/// Most ISAs per agent.
pub const MAX_ISAS_PER_AGENT: usize = 64;
/// Most memory pools per agent.
pub const MAX_POOLS_PER_AGENT: usize = 16;
/// Most directed agent pairs all links expand to.
pub const MAX_LINKS: usize = MAX_AGENTS * MAX_AGENTS;
/// Most entries the `links` list may have: each entry must describe at
/// least one directed pair no other entry describes, so a longer list can
/// never be valid and is refused before any entry is looked at.
pub const MAX_LINK_ENTRIES: usize = MAX_LINKS;
/// Most agent ids one side (`from` or `to`) of a link entry may list: every
/// agent at most once. With this cap an entry expands to at most
/// `MAX_LINK_ENDPOINTS²` pairs, and validation stays linear in the text.
pub const MAX_LINK_ENDPOINTS: usize = MAX_AGENTS;
/// Most hops a link may report.
pub const MAX_LINK_HOPS: u32 = 4;
/// Longest HSA ISA name (`HSA_ISA_INFO_NAME` holds 64 bytes plus a NUL).
pub const MAX_ISA_NAME_BYTES: usize = 64;
/// Longest agent name, product or vendor (`char[64]` with its NUL).
pub const MAX_AGENT_NAME_BYTES: usize = 63;
/// Longest agent UUID (`char[21]` with its NUL).
pub const MAX_UUID_BYTES: usize = 20;
/// Longest machine name or agent id.
pub const MAX_ID_BYTES: usize = 64;
/// Most bytes of a parser's message a description error keeps: parser
/// messages quote the input (a key, a string value, TOML's whole offending
/// line), and a hostile description must not put megabytes on stderr.
pub const MAX_ERROR_ECHO_BYTES: usize = 1024;
/// Largest pool (8 TiB): each pool gets a 16 TiB window of simulated addresses.
pub const MAX_POOL_SIZE: u64 = 1 << 43;

/// A machine description that failed to load, naming the file and the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineError {
    /// The file (or preset) the description came from.
    pub source_name: String,
    /// The field, e.g. `agents[3].pools[1].size` (empty for parse errors, whose message names it).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for MachineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Ids, names and parser messages come from the description: shown
        // with their control characters escaped, on one line.
        let source = escape_controls(&self.source_name);
        let message = escape_controls(&self.message);
        if self.field.is_empty() {
            write!(f, "machine description '{source}': {message}")
        } else {
            let field = escape_controls(&self.field);
            write!(f, "machine description '{source}': {field}: {message}")
        }
    }
}

impl std::error::Error for MachineError {}

/// `text` with every control character (newlines too) as `\u{..}`: parser
/// messages quote the input, which must not reach a terminal raw nor
/// break the error's line.
fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// `message` cut to [`MAX_ERROR_ECHO_BYTES`] on a character boundary (with
/// the number of bytes left out) and its control characters escaped.
fn cap_echo(message: &str) -> String {
    if message.len() <= MAX_ERROR_ECHO_BYTES {
        return escape_controls(message);
    }
    let mut cut = MAX_ERROR_ECHO_BYTES;
    while !message.is_char_boundary(cut) {
        cut -= 1;
    }
    let head = message.get(..cut).unwrap_or_default();
    format!(
        "{}… ({} more bytes)",
        escape_controls(head),
        message.len() - cut
    )
}

/// A TOML error on one line: where (1-based line and column, from its
/// span) and toml's message, capped; never the offending line itself.
fn toml_error(error: &toml::de::Error, text: &str) -> String {
    let message = cap_echo(error.message().trim_end());
    match error.span().and_then(|span| text.get(..span.start)) {
        Some(before) => {
            let line = before.matches('\n').count() + 1;
            let column = before
                .rsplit('\n')
                .next()
                .map_or(0, |last| last.chars().count())
                + 1;
            format!("TOML parse error at line {line}, column {column}: {message}")
        }
        None => format!("TOML parse error: {message}"),
    }
}

/// A JSON error with its message capped (serde_json's position kept).
fn json_error(error: &serde_json::Error) -> String {
    let full = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    match full.strip_suffix(&position) {
        Some(message) => format!("{}{position}", cap_echo(message)),
        None => cap_echo(&full),
    }
}

/// The format of a description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// TOML (`.toml`, the presets' format).
    Toml,
    /// JSON (`.json`).
    Json,
}

impl Format {
    /// The format a file name implies: JSON for `.json`, TOML otherwise.
    pub fn from_file_name(name: &str) -> Format {
        if name.to_ascii_lowercase().ends_with(".json") {
            Format::Json
        } else {
            Format::Toml
        }
    }
}

/// A validated machine.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// The machine's name.
    pub name: String,
    /// Its description line.
    pub description: String,
    /// `hipDriverGetVersion`.
    pub hip_driver_version: i32,
    /// `hipRuntimeGetVersion`.
    pub hip_runtime_version: i32,
    /// `ncclGetVersion` of the node's RCCL, if it has one.
    pub rccl_version: Option<i32>,
    /// `hsa_system_get_info` answers (`[hsa]` with ROCr's defaults).
    pub system: crate::hsa_info::SystemInfo,
    /// Agents in HSA order.
    pub agents: Vec<Agent>,
    /// Directed links, sorted by (from, to).
    pub links: Vec<Link>,
}

/// A validated agent.
#[derive(Clone, Debug, PartialEq)]
pub struct Agent {
    /// The description's id.
    pub id: String,
    /// CPU or GPU.
    pub kind: AgentKind,
    /// `HSA_AGENT_INFO_NAME`.
    pub name: String,
    /// `HSA_AMD_AGENT_INFO_PRODUCT_NAME`.
    pub product: String,
    /// `HSA_AGENT_INFO_VENDOR_NAME`.
    pub vendor: String,
    /// `HSA_AMD_AGENT_INFO_UUID`.
    pub uuid: String,
    /// `HSA_AGENT_INFO_NODE`.
    pub node: u32,
    /// Host NUMA node.
    pub numa_node: u32,
    /// Index of the nearest CPU agent (GPUs).
    pub nearest_cpu: Option<usize>,
    /// Compute units (cores for a CPU).
    pub compute_units: u32,
    /// Wavefront size.
    pub wavefront_size: u32,
    /// Hardware queues.
    pub queues_max: u32,
    /// PCI device id.
    pub chip_id: u32,
    /// PCI bus/device/function.
    pub bdf_id: u32,
    /// PCI domain.
    pub domain: u32,
    /// KFD unique id.
    pub driver_uid: u32,
    /// `hsa_profile_t` value.
    pub profile: u32,
    /// `hsa_default_float_rounding_mode_t` value.
    pub rounding_mode: u32,
    /// ISAs in priority order.
    pub isas: Vec<Isa>,
    /// Memory pools.
    pub pools: Vec<Pool>,
    /// HIP properties (GPUs only).
    pub hip: Option<HipProps>,
    /// The remaining HSA attributes (`[agents.hsa]` with ROCr's defaults).
    pub hsa: AgentHsa,
}

/// A validated memory pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    /// `hsa_amd_segment_t` value.
    pub segment: u32,
    /// Global flags bits.
    pub flags: u32,
    /// Size in bytes.
    pub size: u64,
    /// Runtime allocation allowed.
    pub alloc_allowed: bool,
    /// Allocation granule.
    pub granule: u64,
    /// Allocation alignment.
    pub alignment: u64,
    /// Recommended allocation granule.
    pub rec_granule: u64,
    /// Accessible by all agents.
    pub accessible_by_all: bool,
    /// Largest single allocation.
    pub alloc_max_size: u64,
}

/// A validated directed link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// Source agent index.
    pub from: usize,
    /// Destination agent index.
    pub to: usize,
    /// `hsa_amd_link_info_type_t` value.
    pub link_type: u32,
    /// Hops.
    pub hops: u32,
    /// NUMA distance.
    pub numa_distance: u32,
    /// Min latency (ns).
    pub min_latency: u32,
    /// Max latency (ns).
    pub max_latency: u32,
    /// Min bandwidth (MB/s).
    pub min_bandwidth: u32,
    /// Max bandwidth (MB/s).
    pub max_bandwidth: u32,
    /// 32-bit atomics.
    pub atomic_32bit: bool,
    /// 64-bit atomics.
    pub atomic_64bit: bool,
    /// Coherent.
    pub coherent: bool,
}

/// A GPU's HIP identity (resolved): its `hipGetDeviceProperties` answer
/// and its `hipDeviceGetUuid` bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HipProps {
    /// `hipGetDeviceProperties`.
    pub device: HipDeviceProps,
    /// `hipDeviceGetUuid`'s bytes.
    pub uuid: [u8; 16],
}

struct Ctx<'a> {
    source: &'a str,
    /// Validation steps taken so far (see [`Machine::parse_measured`]).
    steps: Cell<u64>,
}

impl Ctx<'_> {
    fn new(source: &str) -> Ctx<'_> {
        Ctx {
            source,
            steps: Cell::new(0),
        }
    }

    /// Counts `n` steps of work.
    fn step(&self, n: u64) {
        self.steps.set(self.steps.get().saturating_add(n));
    }

    fn err(&self, field: impl Into<String>, message: impl Into<String>) -> MachineError {
        MachineError {
            source_name: self.source.to_string(),
            field: field.into(),
            message: message.into(),
        }
    }

    fn text(&self, field: &str, value: &str, max: usize) -> Result<(), MachineError> {
        if value.is_empty() {
            return Err(self.err(field, "must not be empty"));
        }
        if value.len() > max {
            return Err(self.err(
                field,
                format!("is {} bytes long; the limit is {max}", value.len()),
            ));
        }
        if value.contains('\0') {
            return Err(self.err(field, "must not contain NUL"));
        }
        // Names reach terminals and one-line errors: no ESC, BEL, newline…
        if let Some(c) = value.chars().find(|c| c.is_control()) {
            return Err(self.err(
                field,
                format!(
                    "must not contain control characters (U+{:04X})",
                    u32::from(c)
                ),
            ));
        }
        Ok(())
    }
}

impl Machine {
    /// Parses and validates `text` in `format`; errors name `source_name`.
    pub fn parse(source_name: &str, text: &str, format: Format) -> Result<Machine, MachineError> {
        Machine::parse_measured(source_name, text, format).0
    }

    /// [`Machine::parse`], also returning how many validation steps it took:
    /// agent ids looked up, agents, ISAs and pools resolved, directed link
    /// pairs expanded (parsing the text itself is serde's, linear). Every
    /// description is refused or accepted within
    /// `4 * text.len() + 4 * MAX_LINKS + 2 * MAX_LINK_ENDPOINTS²` steps: tests
    /// assert that bound instead of timing anything.
    pub fn parse_measured(
        source_name: &str,
        text: &str,
        format: Format,
    ) -> (Result<Machine, MachineError>, u64) {
        let ctx = Ctx::new(source_name);
        let result = Machine::parse_in(&ctx, text, format);
        (result, ctx.steps.get())
    }

    fn parse_in(ctx: &Ctx<'_>, text: &str, format: Format) -> Result<Machine, MachineError> {
        if text.len() > MAX_DESCRIPTION_BYTES {
            return Err(ctx.err(
                "",
                format!(
                    "is {} bytes; the limit is {MAX_DESCRIPTION_BYTES}",
                    text.len()
                ),
            ));
        }
        let desc: MachineDesc = match format {
            Format::Toml => toml::from_str(text).map_err(|e| ctx.err("", toml_error(&e, text)))?,
            Format::Json => serde_json::from_str(text).map_err(|e| ctx.err("", json_error(&e)))?,
        };
        Machine::validate(ctx, &desc)
    }

    /// Validates a parsed description.
    pub fn from_desc(source_name: &str, desc: &MachineDesc) -> Result<Machine, MachineError> {
        Machine::validate(&Ctx::new(source_name), desc)
    }

    fn validate(ctx: &Ctx<'_>, desc: &MachineDesc) -> Result<Machine, MachineError> {
        ctx.text("name", &desc.name, MAX_ID_BYTES)?;
        if desc.agents.is_empty() {
            return Err(ctx.err("agents", "a machine needs at least one agent"));
        }
        if desc.agents.len() > MAX_AGENTS {
            return Err(ctx.err(
                "agents",
                format!("{} agents; the limit is {MAX_AGENTS}", desc.agents.len()),
            ));
        }
        let mut index_of: HashMap<&str, usize> = HashMap::new();
        for (i, agent) in desc.agents.iter().enumerate() {
            ctx.step(1);
            let field = format!("agents[{i}].id");
            ctx.text(&field, &agent.id, MAX_ID_BYTES)?;
            if index_of.insert(agent.id.as_str(), i).is_some() {
                return Err(ctx.err(field, format!("duplicate agent id '{}'", agent.id)));
            }
        }
        // A GPU without `nearest_cpu` hangs off the first CPU.
        let first_cpu = desc.agents.iter().position(|a| a.kind == AgentKind::Cpu);
        let mut uuids: HashMap<&str, usize> = HashMap::new();
        let mut hip_uuids: HashMap<[u8; 16], usize> = HashMap::new();
        let mut nodes: HashMap<(u32, AgentKind), usize> = HashMap::new();
        let mut agents = Vec::with_capacity(desc.agents.len());
        for (i, agent) in desc.agents.iter().enumerate() {
            let resolved = resolve_agent(ctx, i, agent, desc, &index_of, first_cpu)?;
            // `CPU-XX`/`GPU-XX` is ROCr's "no unique id": it repeats
            // legitimately (and ROCr's own device filter never matches it,
            // `amd_filter_device.h`). Any other repeat is an error.
            if agent.uuid != placeholder_uuid(agent.kind)
                && let Some(first) = uuids.insert(agent.uuid.as_str(), i)
            {
                return Err(ctx.err(
                    format!("agents[{i}].uuid"),
                    format!(
                        "duplicate UUID '{}' (also agents[{first}].uuid)",
                        agent.uuid
                    ),
                ));
            }
            // The HIP UUID is what a `GPU-<uuid>` device path selects: two
            // GPUs sharing one would make that path name either. (Two
            // `GPU-XX` agents derive the same one: each needs `hip.uuid`.)
            if let Some(hip) = &resolved.hip
                && let Some(first) = hip_uuids.insert(hip.uuid, i)
            {
                return Err(ctx.err(
                    format!("agents[{i}].hip.uuid"),
                    format!(
                        "duplicate HIP UUID {} (also agents[{first}]): a device path GPU-<uuid> must name one device; give each GPU a distinct hip.uuid",
                        crate::machine::format_hip_uuid(&hip.uuid)
                    ),
                ));
            }
            // ROCr makes one CPU agent and one GPU agent per KFD node at
            // most (`amd_topology.cpp`: an APU node gives both), so a node id
            // repeats only across kinds.
            if let Some(first) = nodes.insert((agent.node, agent.kind), i) {
                return Err(ctx.err(
                    format!("agents[{i}].node"),
                    format!(
                        "node {} is also agents[{first}].node; one KFD node has at most one agent of each kind",
                        agent.node
                    ),
                ));
            }
            agents.push(resolved);
        }
        let links = resolve_links(ctx, &desc.links, &index_of)?;
        require_gpu_links(ctx, desc, &links)?;
        Ok(Machine {
            name: desc.name.clone(),
            description: desc.description.clone(),
            hip_driver_version: desc.hip.driver_version,
            hip_runtime_version: desc.hip.runtime_version,
            rccl_version: desc.hip.rccl_version,
            system: crate::hsa_info::SystemInfo::resolve(&desc.hsa),
            agents,
            links,
        })
    }

    /// The directed link from agent `from` to agent `to`, if any.
    pub fn link(&self, from: usize, to: usize) -> Option<&Link> {
        self.links
            .binary_search_by(|link| (link.from, link.to).cmp(&(from, to)))
            .ok()
            .and_then(|i| self.links.get(i))
    }

    /// Indices of the GPU agents, in HSA order (= HIP ordinal order).
    pub fn gpu_indices(&self) -> Vec<usize> {
        self.agents
            .iter()
            .enumerate()
            .filter(|(_, a)| a.kind == AgentKind::Gpu)
            .map(|(i, _)| i)
            .collect()
    }
}

fn resolve_agent(
    ctx: &Ctx<'_>,
    i: usize,
    agent: &AgentDesc,
    desc: &MachineDesc,
    index_of: &HashMap<&str, usize>,
    first_cpu: Option<usize>,
) -> Result<Agent, MachineError> {
    ctx.step(1);
    let at = |field: &str| format!("agents[{i}].{field}");
    ctx.text(&at("name"), &agent.name, MAX_AGENT_NAME_BYTES)?;
    let product = agent.product.clone().unwrap_or_else(|| agent.name.clone());
    ctx.text(&at("product"), &product, MAX_AGENT_NAME_BYTES)?;
    let vendor = agent.vendor.clone().unwrap_or_else(|| {
        match agent.kind {
            AgentKind::Cpu => "CPU",
            AgentKind::Gpu => "AMD",
        }
        .to_string()
    });
    ctx.text(&at("vendor"), &vendor, MAX_AGENT_NAME_BYTES)?;
    ctx.text(&at("uuid"), &agent.uuid, MAX_UUID_BYTES)?;
    check_agent_uuid(ctx, &at("uuid"), agent)?;
    check_wavefront_size(ctx, &at("wavefront_size"), agent)?;
    let nearest_cpu = match (&agent.nearest_cpu, agent.kind) {
        (Some(_), AgentKind::Cpu) => {
            return Err(ctx.err(at("nearest_cpu"), "only a GPU agent has a nearest CPU"));
        }
        (Some(id), AgentKind::Gpu) => {
            let index = *index_of
                .get(id.as_str())
                .ok_or_else(|| ctx.err(at("nearest_cpu"), format!("no agent with id '{id}'")))?;
            if desc.agents.get(index).map(|a| a.kind) != Some(AgentKind::Cpu) {
                return Err(ctx.err(at("nearest_cpu"), format!("agent '{id}' is not a CPU")));
            }
            Some(index)
        }
        (None, AgentKind::Gpu) => first_cpu,
        (None, AgentKind::Cpu) => None,
    };
    let numa_node = match (agent.numa_node, nearest_cpu) {
        (Some(node), _) => node,
        (None, Some(cpu)) => desc
            .agents
            .get(cpu)
            .map_or(0, |c| c.numa_node.unwrap_or(c.node)),
        (None, None) => {
            if agent.kind == AgentKind::Cpu {
                agent.node
            } else {
                0
            }
        }
    };
    if agent.isas.len() > MAX_ISAS_PER_AGENT {
        return Err(ctx.err(
            at("isas"),
            format!(
                "{} ISAs; the limit is {MAX_ISAS_PER_AGENT}",
                agent.isas.len()
            ),
        ));
    }
    let mut isas = Vec::with_capacity(agent.isas.len());
    for (j, isa) in agent.isas.iter().enumerate() {
        ctx.step(1);
        ctx.text(
            &at(&format!("isas[{j}].name")),
            &isa.name,
            MAX_ISA_NAME_BYTES,
        )?;
        if isa.workgroup_max_size == 0 {
            return Err(ctx.err(
                at(&format!("isas[{j}].workgroup_max_size")),
                "must not be 0",
            ));
        }
        if isa.workgroup_max_dim.contains(&0) {
            return Err(ctx.err(
                at(&format!("isas[{j}].workgroup_max_dim")),
                "no dimension may be 0",
            ));
        }
        isas.push(Isa {
            name: isa.name.clone(),
            workgroup_max_size: isa.workgroup_max_size,
            workgroup_max_dim: isa.workgroup_max_dim,
        });
    }
    if agent.pools.len() > MAX_POOLS_PER_AGENT {
        return Err(ctx.err(
            at("pools"),
            format!(
                "{} pools; the limit is {MAX_POOLS_PER_AGENT}",
                agent.pools.len()
            ),
        ));
    }
    let mut pools = Vec::with_capacity(agent.pools.len());
    for (j, pool) in agent.pools.iter().enumerate() {
        ctx.step(1);
        pools.push(resolve_pool(
            ctx,
            &at(&format!("pools[{j}]")),
            pool,
            agent.kind,
        )?);
    }
    let hip = match (agent.kind, &agent.hip) {
        (AgentKind::Cpu, Some(_)) => {
            return Err(ctx.err(at("hip"), "only a GPU agent has HIP properties"));
        }
        (AgentKind::Cpu, None) => None,
        (AgentKind::Gpu, hip) => Some(derive_hip(
            ctx,
            &at("hip"),
            agent,
            &product,
            &isas,
            &pools,
            hip.as_ref(),
        )?),
    };
    let hsa = AgentHsa::resolve(agent.kind, &agent.hsa, &agent.name, isas.first())
        .map_err(|(field, message)| ctx.err(at(&format!("hsa.{field}")), message))?;
    Ok(Agent {
        id: agent.id.clone(),
        kind: agent.kind,
        name: agent.name.clone(),
        product,
        vendor,
        uuid: agent.uuid.clone(),
        node: agent.node,
        numa_node,
        nearest_cpu,
        compute_units: agent.compute_units,
        wavefront_size: agent.wavefront_size,
        queues_max: agent.queues_max,
        chip_id: agent.chip_id,
        bdf_id: agent.bdf_id,
        domain: agent.domain,
        driver_uid: agent.driver_uid.unwrap_or(agent.node),
        profile: match agent.profile.unwrap_or(match agent.kind {
            AgentKind::Cpu => ProfileDesc::Full,
            AgentKind::Gpu => ProfileDesc::Base,
        }) {
            ProfileDesc::Base => 0,
            ProfileDesc::Full => 1,
        },
        rounding_mode: match agent.rounding_mode.unwrap_or(RoundingDesc::Near) {
            RoundingDesc::Zero => 1,
            RoundingDesc::Near => 2,
        },
        isas,
        pools,
        hip,
        hsa,
    })
}

/// ROCr's placeholder UUID of an agent without a unique id: every CPU
/// agent (`amd_cpu_agent.cpp`, `HSA_AMD_AGENT_INFO_UUID`) and a GPU whose
/// KFD unique id is 0 (`amd_gpu_agent.cpp`).
fn placeholder_uuid(kind: AgentKind) -> &'static str {
    match kind {
        AgentKind::Cpu => "CPU-XX",
        AgentKind::Gpu => "GPU-XX",
    }
}

/// An agent UUID as ROCr writes it (`amd_gpu_agent.cpp`,
/// `HSA_AMD_AGENT_INFO_UUID`): a CPU is always `CPU-XX`; a GPU is `GPU-`
/// and its nonzero 64-bit KFD unique id as 16 lowercase hex digits
/// (`std::hex`, zero-filled to width 16), or `GPU-XX` when the id is 0.
fn check_agent_uuid(ctx: &Ctx<'_>, at: &str, agent: &AgentDesc) -> Result<(), MachineError> {
    let uuid = agent.uuid.as_str();
    let placeholder = placeholder_uuid(agent.kind);
    if uuid == placeholder {
        return Ok(());
    }
    let shown = uuid.escape_debug();
    let digits = match (agent.kind, uuid.strip_prefix("GPU-")) {
        (AgentKind::Gpu, Some(digits)) => digits,
        (AgentKind::Cpu, _) => {
            return Err(ctx.err(
                at,
                format!("'{shown}': a CPU agent's UUID is always 'CPU-XX' (ROCr)"),
            ));
        }
        (AgentKind::Gpu, None) => {
            return Err(ctx.err(at, format!("'{shown}' must start with 'GPU-'")));
        }
    };
    let lower_hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
    if digits.len() != 16 || !digits.bytes().all(lower_hex) {
        return Err(ctx.err(
            at,
            format!(
                "'{shown}' is neither 'GPU-XX' nor 'GPU-' and 16 lowercase hex digits (ROCr's form)"
            ),
        ));
    }
    if digits.bytes().all(|b| b == b'0') {
        return Err(ctx.err(
            at,
            format!("'{shown}': ROCr reports a unique id of 0 as 'GPU-XX'"),
        ));
    }
    Ok(())
}

/// `HSA_AGENT_INFO_WAVEFRONT_SIZE`: ROCr reports 0 for a CPU agent
/// (`amd_cpu_agent.cpp`); a GPU's comes from KFD, and AMD GPUs run wave32 or
/// wave64 only (LLVM's AMDGPU target: features `wavefrontsize32` and
/// `wavefrontsize64`; HIP on NVIDIA reports a warp of 32). `hsa.h` allows
/// any power of two up to 256, which no GPU this models reports.
fn check_wavefront_size(ctx: &Ctx<'_>, at: &str, agent: &AgentDesc) -> Result<(), MachineError> {
    let size = agent.wavefront_size;
    match agent.kind {
        AgentKind::Cpu if size != 0 => {
            Err(ctx.err(at, format!("{size}: a CPU agent reports 0 (ROCr)")))
        }
        AgentKind::Gpu if size != 32 && size != 64 => Err(ctx.err(
            at,
            format!("{size}: a GPU runs wave32 or wave64 (32 or 64)"),
        )),
        _ => Ok(()),
    }
}

fn resolve_pool(
    ctx: &Ctx<'_>,
    at: &str,
    pool: &PoolDesc,
    kind: AgentKind,
) -> Result<Pool, MachineError> {
    if pool.size == 0 {
        return Err(ctx.err(format!("{at}.size"), "a pool must not be empty (size 0)"));
    }
    if pool.size > MAX_POOL_SIZE {
        return Err(ctx.err(
            format!("{at}.size"),
            format!("{} bytes; the limit is {MAX_POOL_SIZE}", pool.size),
        ));
    }
    let global = pool.segment == SegmentDesc::Global;
    if !global && !pool.flags.is_empty() {
        return Err(ctx.err(format!("{at}.flags"), "only a global pool has flags"));
    }
    let alloc_allowed = pool.alloc_allowed.unwrap_or(global);
    if alloc_allowed && !global {
        return Err(ctx.err(
            format!("{at}.alloc_allowed"),
            "only a global pool can be allocated from",
        ));
    }
    let default_granule = if alloc_allowed { 4096 } else { 0 };
    let granule = pool.granule.unwrap_or(default_granule);
    let alignment = pool.alignment.unwrap_or(default_granule);
    let default_rec_granule = if alloc_allowed && kind == AgentKind::Gpu {
        crate::hsa_info::GPU_REC_GRANULE
    } else {
        granule
    };
    let rec_granule = pool.rec_granule.unwrap_or(default_rec_granule);
    for (name, value) in [
        ("granule", granule),
        ("alignment", alignment),
        ("rec_granule", rec_granule),
    ] {
        if alloc_allowed && !value.is_power_of_two() {
            return Err(ctx.err(
                format!("{at}.{name}"),
                format!("{value} is not a power of two"),
            ));
        }
    }
    let alloc_max_size = pool
        .alloc_max_size
        .unwrap_or(if alloc_allowed { pool.size } else { 0 });
    if alloc_max_size > pool.size {
        return Err(ctx.err(format!("{at}.alloc_max_size"), "exceeds the pool's size"));
    }
    let flags = pool.flags.iter().fold(0, |bits, flag| bits | flag.bit());
    let segment = match pool.segment {
        SegmentDesc::Global => 0,
        SegmentDesc::Readonly => 1,
        SegmentDesc::Private => 2,
        SegmentDesc::Group => 3,
    };
    Ok(Pool {
        segment,
        flags,
        size: pool.size,
        alloc_allowed,
        granule,
        alignment,
        rec_granule,
        accessible_by_all: pool.accessible_by_all,
        alloc_max_size,
    })
}

/// `gfx942` → (9, 4); `gfx90a` → (9, 0); `gfx1100` → (11, 0): the last digit
/// is the stepping, the one before it the minor version, the rest the major.
fn gfx_version(arch: &str) -> (i32, i32) {
    let digits = arch.strip_prefix("gfx").unwrap_or("");
    let digits = digits.split([':', '-']).next().unwrap_or("");
    if digits.len() < 3 || !digits.is_ascii() {
        return (0, 0);
    }
    let major = digits
        .get(..digits.len() - 2)
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    let minor = digits
        .get(digits.len() - 2..digits.len() - 1)
        .and_then(|m| i32::from_str_radix(m, 16).ok())
        .unwrap_or(0);
    (major, minor)
}

fn derive_hip(
    ctx: &Ctx<'_>,
    at: &str,
    agent: &AgentDesc,
    product: &str,
    isas: &[Isa],
    pools: &[Pool],
    hip: Option<&HipPropsDesc>,
) -> Result<HipProps, MachineError> {
    let d = hip.cloned().unwrap_or_default();
    let arch = d.gcn_arch_name.clone().unwrap_or_else(|| {
        isas.first()
            .map(|isa| {
                isa.name
                    .strip_prefix("amdgcn-amd-amdhsa--")
                    .unwrap_or(&isa.name)
                    .to_string()
            })
            .unwrap_or_else(|| agent.name.clone())
    });
    let name = d.name.clone().unwrap_or_else(|| product.to_string());
    // hipDeviceProp_t's name is char[256] and gcnArchName char[256].
    ctx.text(&format!("{at}.name"), &name, 255)?;
    ctx.text(&format!("{at}.gcn_arch_name"), &arch, 255)?;
    let coarse = pools.iter().find(|p| p.segment == 0 && p.flags & 4 != 0);
    let global = coarse.or_else(|| pools.iter().find(|p| p.segment == 0));
    let group = pools.iter().find(|p| p.segment == 3);
    let (major, minor) = gfx_version(&arch);
    let isa = isas.first();
    let to_i32 = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
    let uuid = match &d.uuid {
        Some(text) => parse_hip_uuid(text).ok_or_else(|| {
            ctx.err(
                format!("{at}.uuid"),
                format!(
                    "'{}' is not 32 hex digits (plain or dashed 8-4-4-4-12)",
                    text.escape_debug()
                ),
            )
        })?,
        None => amd_hip_uuid(&agent.uuid),
    };
    let device = HipDeviceProps {
        name,
        gcn_arch_name: arch,
        total_global_mem: d
            .total_global_mem
            .unwrap_or_else(|| global.map_or(0, |p| p.size)),
        shared_mem_per_block: d
            .shared_mem_per_block
            .unwrap_or_else(|| group.map_or(65536, |p| p.size)),
        regs_per_block: d.regs_per_block.unwrap_or(65536),
        warp_size: to_i32(agent.wavefront_size),
        max_threads_per_block: isa.map_or(1024, |i| to_i32(i.workgroup_max_size)),
        max_threads_dim: isa.map_or([1024; 3], |i| i.workgroup_max_dim.map(i32::from)),
        max_grid_size: d.max_grid_size.unwrap_or([i32::MAX, 65536, 65536]),
        clock_rate: d.clock_rate.unwrap_or(0),
        memory_clock_rate: d.memory_clock_rate.unwrap_or(0),
        memory_bus_width: d.memory_bus_width.unwrap_or(0),
        total_const_mem: d.total_const_mem.unwrap_or(2_147_483_647),
        major: d.major.unwrap_or(major),
        minor: d.minor.unwrap_or(minor),
        multi_processor_count: to_i32(agent.compute_units),
        l2_cache_size: d.l2_cache_size.unwrap_or(0),
        max_threads_per_multi_processor: d.max_threads_per_multi_processor.unwrap_or(2048),
        pci_domain_id: to_i32(agent.domain),
        pci_bus_id: to_i32(agent.bdf_id >> 8),
        pci_device_id: to_i32((agent.bdf_id >> 3) & 0x1f),
        is_multi_gpu_board: d.is_multi_gpu_board.unwrap_or(0),
        integrated: d.integrated.unwrap_or(0),
        managed_memory: d.managed_memory.unwrap_or(1),
        ecc_enabled: d.ecc_enabled.unwrap_or(0),
    };
    Ok(HipProps { device, uuid })
}

/// The agent indices one side of a link entry names: at most
/// [`MAX_LINK_ENDPOINTS`] ids (checked before any is looked up), each known
/// and listed once.
fn link_side(
    ctx: &Ctx<'_>,
    field: &str,
    ids: &[&str],
    index_of: &HashMap<&str, usize>,
) -> Result<Vec<usize>, MachineError> {
    if ids.is_empty() {
        return Err(ctx.err(field, "names no agent"));
    }
    if ids.len() > MAX_LINK_ENDPOINTS {
        return Err(ctx.err(
            field,
            format!(
                "{} agent ids; the limit is {MAX_LINK_ENDPOINTS} (each agent once)",
                ids.len()
            ),
        ));
    }
    let mut seen = HashSet::with_capacity(ids.len());
    ids.iter()
        .map(|&id| {
            ctx.step(1);
            let index = index_of
                .get(id)
                .copied()
                .ok_or_else(|| ctx.err(field, format!("no agent with id '{id}'")))?;
            // A repeated id would only repeat pairs: refuse it rather than
            // guess what the author meant.
            if !seen.insert(index) {
                return Err(ctx.err(field, format!("agent id '{id}' is listed twice")));
            }
            Ok(index)
        })
        .collect()
}

/// With two or more GPUs, every GPU must appear in some link. A GPU with
/// none would still get an edge to each peer (the HAL's host-staged class,
/// `HOST`), a fact the description never stated: a real node reports at
/// least each GPU's PCIe link to its CPU (KFD's io_link). A single GPU
/// without links is accepted (a capture through HIP on CUDA has none, and
/// has no pair for an edge).
fn require_gpu_links(
    ctx: &Ctx<'_>,
    desc: &MachineDesc,
    links: &[Link],
) -> Result<(), MachineError> {
    let gpus: Vec<usize> = (0..desc.agents.len())
        .filter(|&i| desc.agents.get(i).is_some_and(|a| a.kind == AgentKind::Gpu))
        .collect();
    if gpus.len() < 2 {
        return Ok(());
    }
    let mut linked = vec![false; desc.agents.len()];
    for link in links {
        for end in [link.from, link.to] {
            if let Some(slot) = linked.get_mut(end) {
                *slot = true;
            }
        }
    }
    match gpus
        .iter()
        .find(|&&i| !linked.get(i).copied().unwrap_or(false))
    {
        None => Ok(()),
        Some(&i) => {
            let id = desc.agents.get(i).map_or("", |a| a.id.as_str());
            Err(ctx.err(
                format!("agents[{i}]"),
                format!(
                    "GPU '{id}' has no link, so its edges to the other GPUs are unknown; \
                     describe at least its link to its CPU (a [[links]] entry with \
                     from = \"{id}\"), as a real node's KFD topology does"
                ),
            ))
        }
    }
}

fn resolve_links(
    ctx: &Ctx<'_>,
    links: &[LinkDesc],
    index_of: &HashMap<&str, usize>,
) -> Result<Vec<Link>, MachineError> {
    if links.len() > MAX_LINK_ENTRIES {
        return Err(ctx.err(
            "links",
            format!("{} entries; the limit is {MAX_LINK_ENTRIES}", links.len()),
        ));
    }
    let mut out: Vec<Link> = Vec::new();
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    for (i, link) in links.iter().enumerate() {
        let from = link_side(ctx, &format!("links[{i}].from"), &link.from.ids(), index_of)?;
        let to = link_side(ctx, &format!("links[{i}].to"), &link.to.ids(), index_of)?;
        if link.hops == 0 || link.hops > MAX_LINK_HOPS {
            return Err(ctx.err(
                format!("links[{i}].hops"),
                format!("{} is not in 1..={MAX_LINK_HOPS}", link.hops),
            ));
        }
        if link.min_bandwidth > link.max_bandwidth || link.min_latency > link.max_latency {
            return Err(ctx.err(format!("links[{i}]"), "a minimum exceeds its maximum"));
        }
        // Pairs within one entry may repeat (`from` and `to` listing the same
        // agents, all-to-all); across entries they may not. Both sides are
        // capped and duplicate-free, so this is at most 2 * MAX_LINK_ENDPOINTS²
        // steps, and at least a quarter of them are new pairs (or the entry
        // fails): all entries together stay within 4 * MAX_LINKS + one entry.
        let mut pairs = BTreeSet::new();
        for &a in &from {
            for &b in &to {
                ctx.step(if link.bidirectional { 2 } else { 1 });
                if a != b {
                    pairs.insert((a, b));
                    if link.bidirectional {
                        pairs.insert((b, a));
                    }
                }
            }
        }
        if pairs.is_empty() {
            return Err(ctx.err(
                format!("links[{i}]"),
                "describes no pair of two different agents",
            ));
        }
        for (src, dst) in pairs {
            if !seen.insert((src, dst)) {
                return Err(ctx.err(
                    format!("links[{i}]"),
                    format!("a link from agent {src} to agent {dst} is already described"),
                ));
            }
            if out.len() >= MAX_LINKS {
                return Err(ctx.err(
                    format!("links[{i}]"),
                    format!("more than {MAX_LINKS} directed links"),
                ));
            }
            out.push(Link {
                from: src,
                to: dst,
                link_type: link.link_type.raw(),
                hops: link.hops,
                numa_distance: link.numa_distance,
                min_latency: link.min_latency,
                max_latency: link.max_latency,
                min_bandwidth: link.min_bandwidth,
                max_bandwidth: link.max_bandwidth,
                atomic_32bit: link.atomic_32bit,
                atomic_64bit: link.atomic_64bit,
                coherent: link.coherent,
            });
        }
    }
    out.sort_by_key(|link| (link.from, link.to));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gfx_versions() {
        assert_eq!(gfx_version("gfx942:sramecc+:xnack-"), (9, 4));
        assert_eq!(gfx_version("gfx90a"), (9, 0));
        assert_eq!(gfx_version("gfx1100"), (11, 0));
        assert_eq!(gfx_version("nonsense"), (0, 0));
        assert_eq!(gfx_version("gfx"), (0, 0));
    }

    #[test]
    fn hip_uuids_parse_plain_or_dashed() {
        let real = [
            0x42, 0x60, 0xbf, 0xb0, 0x64, 0x5d, 0x3c, 0xec, 0xf3, 0xd7, 0x76, 0x4b, 0xea, 0x0d,
            0xaa, 0x6c,
        ];
        let dashed = "4260bfb0-645d-3cec-f3d7-764bea0daa6c";
        assert_eq!(parse_hip_uuid(dashed), Some(real));
        assert_eq!(parse_hip_uuid(&dashed.replace('-', "")), Some(real));
        assert_eq!(parse_hip_uuid(&dashed.to_uppercase()), Some(real));
        assert_eq!(crate::machine::format_hip_uuid(&real), dashed);
        for bad in [
            "",
            "4260bfb0-645d-3cec-f3d7-764bea0daa6",
            "4260bfb0645d-3cec-f3d7-764bea0daa6c-",
            "4260bfb0-645d-3cec-f3d7-764bea0daa6g",
            "4260bfb0-645d3-cec-f3d7-764bea0daa6c",
            "+260bfb0645d3cecf3d7764bea0daa6c",
            "4260bfb0645d3cecf3d7764bea0daa6c00",
            "€260bfb0645d3cecf3d7764bea0daa6",
        ] {
            assert_eq!(parse_hip_uuid(bad), None, "{bad}");
        }
    }
}

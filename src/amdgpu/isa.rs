//! ISA support: an agent's ISAs, their target IDs, whether an executable
//! format can run on an agent, the device limits of the matched ISA, and the
//! check that all GPU agents of a topology support the same ISAs
//! (the "ISA Support" part of IREE's `executable.c`).

use crate::backend::{Agent, CallResultExt, Hsa, HsaExt, Isa};
use crate::codeobj::target_id::{HSA_ISA_PREFIX, check_compatible};
use crate::codeobj::{Mismatch, ParseFlags, TargetId, TargetKind};
use crate::status::{Result, Status};

use super::agents::AgentTopology;

/// Most ISAs IREE accepts per agent (its fixed iteration buffer).
pub const MAX_AGENT_ISAS: usize = 32;
/// Largest `HSA_ISA_INFO_NAME_LENGTH` accepted: 64 characters plus the NUL.
pub const MAX_ISA_NAME_LENGTH: u32 = 64 + 1;

/// An agent's ISAs in priority order; more than [`MAX_AGENT_ISAS`] is the
/// error IREE's iterator raises (`HSA_STATUS_ERROR_OUT_OF_RESOURCES`).
pub fn agent_isas(hsa: &dyn Hsa, agent: Agent) -> Result<Vec<Isa>> {
    let isas = hsa
        .agent_iterate_isas(agent)
        .call_status("hsa_agent_iterate_isas")?;
    if isas.len() > MAX_AGENT_ISAS {
        return Err(crate::backend::HsaStatus::ErrorOutOfResources
            .to_status("hsa_agent_iterate_isas")
            .annotate(format!(
                "agent reports {} ISAs; at most {MAX_AGENT_ISAS} are supported",
                isas.len()
            )));
    }
    Ok(isas)
}

/// One ISA with its name and parsed target ID.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IsaTarget {
    /// The ISA handle.
    pub isa: Isa,
    /// The HSA ISA name (`amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-`).
    pub name: String,
    /// The parsed target ID.
    pub target_id: TargetId,
}

/// The name and target of `isa`. The reported name length (with NUL) must be
/// in `1..=65` (`RESOURCE_EXHAUSTED` otherwise, as in IREE).
pub fn isa_target(hsa: &dyn Hsa, isa: Isa) -> Result<IsaTarget> {
    let length = hsa
        .isa_name_length(isa)
        .call_status("hsa_isa_get_info_alt")?;
    if length == 0 || length > MAX_ISA_NAME_LENGTH {
        return Err(crate::status!(
            ResourceExhausted,
            "ISA name invalid (empty or too long: {length})"
        ));
    }
    let mut name = hsa
        .isa_name_of_length(isa, length)
        .call_status("hsa_isa_get_info_alt")?;
    // The C buffer holds `length - 1` characters; never trust the string past it.
    let keep = (length - 1) as usize;
    if name.len() > keep {
        let cut = (0..=keep)
            .rev()
            .find(|&i| name.is_char_boundary(i))
            .unwrap_or(0);
        name.truncate(cut);
    }
    let target_id = TargetId::parse_hsa_isa_name(&name)?;
    Ok(IsaTarget {
        isa,
        name,
        target_id,
    })
}

/// The answer of [`format_supported`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatSupport {
    /// The first compatible ISA, in the agent's priority order.
    Supported(IsaTarget),
    /// No ISA is compatible; with the first ISA's target and why it is not
    /// (`None` for a format that names no AMDGPU target, or an agent without ISAs).
    Unsupported(Option<(TargetId, Mismatch)>),
}

/// Whether code in `format` (a target ID, with or without the HSA prefix)
/// runs on `agent`: the first of the agent's ISAs, in priority order, that is
/// compatible. A format that names no AMDGPU target (`"spirv"`) is simply
/// unsupported; one that looks like a target but does not parse is an error.
pub fn format_supported(hsa: &dyn Hsa, agent: Agent, format: &str) -> Result<FormatSupport> {
    if !format.starts_with("gfx") && !format.starts_with(HSA_ISA_PREFIX) {
        return Ok(FormatSupport::Unsupported(None));
    }
    let wanted = TargetId::parse(
        format,
        ParseFlags::ALLOW_HSA_PREFIX
            | ParseFlags::ALLOW_ARCH_ONLY
            | ParseFlags::ALLOW_FEATURE_SUFFIXES,
    )?;
    let mut first = None;
    for isa in agent_isas(hsa, agent)? {
        let target = isa_target(hsa, isa)?;
        let mismatch = check_compatible(&wanted, &target.target_id);
        if mismatch.is_compatible() {
            return Ok(FormatSupport::Supported(target));
        }
        if first.is_none() {
            first = Some((target.target_id, mismatch));
        }
    }
    Ok(FormatSupport::Unsupported(first))
}

pub use crate::wrapped::DeviceLimits;

/// Checks a workgroup size against `limits`: each dimension, then the product
/// (in u64). Returns a description of the violation, if any.
pub fn check_workgroup_size(
    limits: &DeviceLimits,
    size: [u32; 3],
) -> std::result::Result<(), String> {
    let dims = limits.max_workgroup_size_per_dim;
    if size.iter().zip(dims).any(|(s, d)| *s > u32::from(d)) {
        return Err(format!(
            "workgroup size dims {}x{}x{} exceed device maximum {}x{}x{}",
            size[0], size[1], size[2], dims[0], dims[1], dims[2]
        ));
    }
    let total = u64::from(size[0]) * u64::from(size[1]) * u64::from(size[2]);
    if total > u64::from(limits.max_workgroup_size) {
        return Err(format!(
            "workgroup size total {total} exceeds device maximum {}",
            limits.max_workgroup_size
        ));
    }
    Ok(())
}

/// The workgroup limits of `isa`.
pub fn device_limits(hsa: &dyn Hsa, isa: Isa) -> Result<DeviceLimits> {
    Ok(DeviceLimits {
        max_workgroup_size: hsa
            .isa_workgroup_max_size(isa)
            .call_status("hsa_isa_get_info_alt")?,
        max_workgroup_size_per_dim: hsa
            .isa_workgroup_max_dim(isa)
            .call_status("hsa_isa_get_info_alt")?,
    })
}

/// How two agent ISAs differ, field by field (IREE's `verify_isas_equal`):
/// kind or version → processor; for generic kinds the processor string →
/// generic family; then generic version, sramecc and xnack.
pub fn isa_difference(a: &TargetId, b: &TargetId) -> Mismatch {
    let mut m = Mismatch::empty();
    if a.kind != b.kind || a.version != b.version {
        m |= Mismatch::PROCESSOR;
    }
    if (a.kind == TargetKind::Generic || b.kind == TargetKind::Generic)
        && a.processor != b.processor
    {
        m |= Mismatch::GENERIC_FAMILY;
    }
    if a.generic_version != b.generic_version {
        m |= Mismatch::GENERIC_VERSION;
    }
    if a.sramecc != b.sramecc {
        m |= Mismatch::SRAMECC;
    }
    if a.xnack != b.xnack {
        m |= Mismatch::XNACK;
    }
    m
}

/// Requires every GPU agent to report the same ISAs, index by index, as GPU
/// agent 0 (`FAILED_PRECONDITION` with IREE's messages). One GPU is always fine.
pub fn verify_device_isa_commonality(hsa: &dyn Hsa, topology: &AgentTopology) -> Result<()> {
    let gpus = topology.gpu_agents();
    let Some((first, rest)) = gpus.split_first() else {
        return Ok(());
    };
    if rest.is_empty() {
        return Ok(());
    }
    let expected = agent_isas(hsa, *first)?;
    let mut expected_targets: Vec<Option<IsaTarget>> = vec![None; expected.len()];
    for (i, agent) in rest.iter().enumerate() {
        let agent_ordinal = i + 1;
        let available = agent_isas(hsa, *agent)?;
        if available.len() != expected.len() {
            return Err(crate::status!(
                FailedPrecondition,
                "runtime currently expects all GPU agents must support the same ISAs; \
                 gpu_agents[{agent_ordinal}] does not match gpu_agents[0]"
            ));
        }
        for (j, (isa_a, isa_b)) in expected.iter().zip(&available).enumerate() {
            let a = match expected_targets.get_mut(j) {
                Some(Some(t)) => t.clone(),
                Some(slot) => {
                    let t = isa_target(hsa, *isa_a)?;
                    *slot = Some(t.clone());
                    t
                }
                None => isa_target(hsa, *isa_a)?,
            };
            let b = isa_target(hsa, *isa_b)?;
            let mismatch = isa_difference(&a.target_id, &b.target_id);
            if !mismatch.is_compatible() {
                return Err(crate::status!(
                    FailedPrecondition,
                    "GPU agent[0] ISA[{j}] target `{}` does not match GPU agent[{agent_ordinal}] \
                     ISA[{j}] target `{}` (mismatched {mismatch})",
                    a.target_id,
                    b.target_id
                ));
            }
        }
    }
    Ok(())
}

/// IREE's `INCOMPATIBLE` status for a format the template agent cannot run,
/// extended with the agent's target and the reasons when known.
pub fn format_not_supported(
    format: &str,
    agent_ordinal: usize,
    first_mismatch: Option<&(TargetId, Mismatch)>,
) -> Status {
    let status = crate::status!(
        Incompatible,
        "executable format `{format}` not supported by the devices in the topology"
    );
    match first_mismatch {
        Some((target, mismatch)) => status.annotate(format!(
            "GPU agent[{agent_ordinal}] target `{target}` (mismatched {mismatch})"
        )),
        None => status,
    }
}

/// Preflight of a code object's target against one selected agent: the agent
/// must report an ISA and one of them must be compatible; otherwise
/// `INCOMPATIBLE` naming both targets and the first mismatch's reasons.
pub fn preflight_agent(hsa: &dyn Hsa, agent: Agent, ordinal: usize, code: &TargetId) -> Result<()> {
    let isas = agent_isas(hsa, agent)?;
    if isas.is_empty() {
        return Err(crate::status!(
            Incompatible,
            "GPU agent[{ordinal}] reports no AMDGPU ISA targets"
        ));
    }
    let mut first: Option<(Mismatch, TargetId)> = None;
    for isa in isas {
        let target = isa_target(hsa, isa)?;
        let mismatch = check_compatible(code, &target.target_id);
        if mismatch.is_compatible() {
            return Ok(());
        }
        if first.is_none() {
            first = Some((mismatch, target.target_id));
        }
    }
    let (mismatch, agent_target) = first.unwrap_or((Mismatch::empty(), code.clone()));
    Err(crate::status!(
        Incompatible,
        "AMDGPU code object target `{code}` is not compatible with GPU agent[{ordinal}] target \
         `{agent_target}` (mismatched {mismatch})"
    ))
}

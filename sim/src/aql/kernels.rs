//! The kernels an agent runs: a kernel loaded on it found by its
//! descriptor's address (an AQL packet's `kernel_object`) or by where its
//! code starts (a PM4 dispatch's `COMPUTE_PGM_LO/HI`) among the loader's
//! loads, read and decoded for the agent's chip.

use std::sync::Arc;

use amdgpu_isa::{Chip, KernelDescriptor, Program};

use super::AqlError;
use crate::kernel_exec::{decode_kernel, kernel_code_span};
use crate::state::State;
use crate::topology::Topology;

/// The kernel loaded on agent `agent_index` that `find` names,
/// decoded; `None` under `AMDGPU_SIM_KERNELS=skip` (counted skipped).
pub(super) fn agent_kernel(
    topology: &Topology,
    state: &mut State,
    agent_index: usize,
    find: Find,
) -> Result<Option<AgentKernel>, AqlError> {
    let fault = |what: String| AqlError::Fault(what);
    let memory = &mut state.memory;
    let mut starts_at = |object: u64, entry: u64| {
        let mut kd = [0u8; 64];
        memory.read(object, &mut kd).is_ok()
            && KernelDescriptor::parse(&kd).is_some_and(|d| {
                object.wrapping_add_signed(d.kernel_code_entry_byte_offset) == entry
            })
    };
    let found = state
        .loader
        .kernels_on(agent_index)
        .find(|&(_, _, object, _)| match find {
            Find::Descriptor(wanted) => object == wanted,
            Find::Entry(entry) => starts_at(object, entry),
        })
        .map(|(code, symbol, object, kernarg_size)| {
            (Arc::clone(code), symbol.name.clone(), object, kernarg_size)
        });
    let Some((code, symbol_name, object, kernarg_size)) = found else {
        return Err(fault(match find {
            Find::Descriptor(object) => {
                format!("kernel object {object:#x} is no kernel loaded on the agent")
            }
            Find::Entry(entry) => format!(
                "a PM4 dispatch's program at {entry:#x} (COMPUTE_PGM_LO/HI) is the entry of \
                 no kernel loaded on the agent"
            ),
        }));
    };
    let name = symbol_name
        .strip_suffix(".kd")
        .unwrap_or(&symbol_name)
        .to_owned();
    let mut kd = [0u8; 64];
    state
        .memory
        .read(object, &mut kd)
        .map_err(|_| fault(format!("kernel `{name}`: its descriptor cannot be read")))?;
    let descriptor = KernelDescriptor::parse(&kd)
        .ok_or_else(|| fault(format!("kernel `{name}`: a malformed descriptor")))?;
    if state.kernels.skip_dispatch() {
        return Ok(None);
    }
    let unsupported =
        |reason: String| AqlError::Unsupported(format!("kernel `{name}` cannot execute: {reason}"));
    let processor = topology
        .machine
        .agents
        .get(agent_index)
        .and_then(|a| a.isas.first())
        .map(|i| i.name.clone())
        .unwrap_or_default();
    let chip = Chip::from_name(&processor)
        .ok_or_else(|| unsupported(format!("the interpreter does not run {processor}")))?;
    let code_span = kernel_code_span(&code.code, &name)
        .ok_or_else(|| unsupported("no function symbol gives its code's size".into()))?;
    let program = {
        let memory = &mut state.memory;
        let mut read = |address: u64, out: &mut [u8]| memory.read(address, out).is_ok();
        decode_kernel(chip, &descriptor, object, code_span, &mut read).map_err(unsupported)?
    };
    Ok(Some(AgentKernel {
        name,
        program,
        descriptor,
        kernarg_size,
    }))
}

/// How [`agent_kernel`] finds a kernel: by its descriptor's address
/// (an AQL packet's `kernel_object`), or by where its code starts (a PM4
/// dispatch's `COMPUTE_PGM_LO/HI`).
#[derive(Clone, Copy)]
pub(super) enum Find {
    Descriptor(u64),
    Entry(u64),
}

/// A loaded kernel, decoded.
pub(super) struct AgentKernel {
    pub(super) name: String,
    pub(super) program: Program,
    /// Its descriptor as loaded.
    pub(super) descriptor: KernelDescriptor,
    pub(super) kernarg_size: u32,
}

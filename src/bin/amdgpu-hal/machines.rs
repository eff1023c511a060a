//! `amdgpu-hal machines`: the embedded machine presets.

use std::io::Write;

use clap::Args;
use serde::Serialize;

use super::{GlobalArgs, write_error, write_json};
use amdgpu_hal::status::{Result, Status};

/// Arguments of `machines` (none besides the global ones).
#[derive(Debug, Args)]
pub struct MachinesArgs {}

#[derive(Serialize)]
struct MachinesJson {
    machines: Vec<MachineJson>,
}

#[derive(Serialize)]
struct MachineJson {
    name: String,
    description: String,
    default: bool,
    cpu_agents: usize,
    gpu_agents: usize,
}

/// Lists every preset with its description and agent counts.
pub fn run(global: &GlobalArgs, _args: &MachinesArgs, out: &mut dyn Write) -> Result<()> {
    let mut machines = Vec::new();
    for (name, _) in amdgpu_sim::presets::PRESETS {
        let machine = amdgpu_sim::presets::load_preset(name)
            .ok_or_else(|| Status::internal(format!("preset '{name}' vanished")))?
            .map_err(|e| Status::internal(e.to_string()))?;
        let gpus = machine.gpu_indices().len();
        machines.push(MachineJson {
            name: machine.name.clone(),
            description: machine.description.clone(),
            default: *name == super::DEFAULT_MACHINE,
            cpu_agents: machine.agents.len() - gpus,
            gpu_agents: gpus,
        });
    }
    if global.json {
        return write_json(out, &MachinesJson { machines });
    }
    let width = machines.iter().map(|m| m.name.len()).max().unwrap_or(0);
    for m in &machines {
        let marker = if m.default { " (default)" } else { "" };
        let agents = if m.cpu_agents == 1 {
            "agent "
        } else {
            "agents"
        };
        writeln!(
            out,
            "{:width$}  {} GPU, {} CPU {agents}  {}{marker}",
            m.name, m.gpu_agents, m.cpu_agents, m.description
        )
        .map_err(write_error)?;
    }
    Ok(())
}

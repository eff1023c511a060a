//! The `devices` document: every agent of a backend, through its HSA trait,
//! or for the HIP backends (`hip`, `cuda`) the GPUs as IREE's HIP driver
//! lists them; each GPU with its other names ([`super::identity`]).

use serde::Serialize;

use super::agents::{AgentJson, list_hsa_agents};
use crate::backend::Backend;
use crate::status::Result;

/// The `devices --json` document (keys fixed by docs/CLI.md).
#[derive(Debug, Serialize)]
pub struct DevicesJson {
    /// The backend's name.
    pub backend: String,
    /// The machine.
    pub machine: String,
    /// Agents in HSA order.
    pub agents: Vec<AgentJson>,
}

/// Enumerates every agent of `backend`: through its HSA trait, or for HIP
/// backends (`hip`, `cuda`) the GPUs as IREE's HIP driver lists them.
pub fn list_agents(backend: &Backend) -> Result<DevicesJson> {
    let agents = if matches!(backend.name(), "hip" | "cuda") {
        let devices = super::hip_devices::list_hip_devices(backend)?;
        devices.iter().map(|d| d.agent_json()).collect()
    } else {
        let mut agents = list_hsa_agents(backend)?;
        // Each GPU's other names (report::identity): its place among the GPUs
        // and, joined by UUID, its HIP device.
        let hips = super::identity::hip_devices(backend);
        for (k, agent) in agents.iter_mut().filter(|a| a.kind == "gpu").enumerate() {
            agent.gpu_index = Some(k);
            if let Some(hip) = super::identity::hip_of_agent(&hips, &agent.uuid) {
                agent.device_id = Some(hip.device.saturating_add(1));
                agent.path = Some(hip.uuid.path());
            }
        }
        agents
    };
    Ok(DevicesJson {
        backend: backend.name().to_string(),
        machine: backend.machine().to_string(),
        agents,
    })
}

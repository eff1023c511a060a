//! One identity for a GPU under every name the CLI prints:
//!
//! | name | where | what |
//! |---|---|---|
//! | `[n]` | `devices` | the HSA agent index (CPUs count too) |
//! | `GPUk`, `GPU agent[k]` | `topology`, `load`, the loader's (IREE's) messages | the k-th GPU agent = the k-th device of the group |
//! | `GPU-8af705259683161c` | `devices`, rocminfo | the HSA agent UUID |
//! | `GPU-38616637-…`, device id | `--backend hip`, `info`, IREE's `hip://` paths | the HIP UUID (ROCm: the agent UUID's digits in ASCII), HIP device + 1 |
//!
//! The HSA and HIP views are joined by UUID ([`DeviceUuid::agent_uuid`]),
//! never by position.

use crate::backend::Backend;
use crate::group::report::DeviceIdentity;
use crate::hip::DeviceUuid;
use crate::status::Result;

/// One HIP device: its handle and UUID.
#[derive(Clone, Copy, Debug)]
pub struct HipIdentity {
    /// `hipDeviceGet`'s handle (IREE's device id is this + 1).
    pub device: i32,
    /// `hipDeviceGetUuid`.
    pub uuid: DeviceUuid,
}

impl HipIdentity {
    /// IREE's device id.
    pub fn device_id(&self) -> u64 {
        u64::try_from(self.device).map_or(0, |d| d + 1)
    }
}

/// The HIP devices of `backend`, in ordinal order; empty when its HIP does
/// not answer (no GPU, no runtime).
pub fn hip_devices(backend: &Backend) -> Vec<HipIdentity> {
    let hip = backend.hip();
    if hip.init(0).is_err() {
        return Vec::new();
    }
    let count = hip.get_device_count().unwrap_or(0);
    (0..count)
        .filter_map(|ordinal| {
            let device = hip.device_get(ordinal).ok()?;
            let uuid = hip.device_get_uuid(device).ok()?;
            Some(HipIdentity {
                device: device.raw(),
                uuid: DeviceUuid(uuid.0),
            })
        })
        .collect()
}

/// The HIP device whose agent UUID is `agent_uuid` (`GPU-<16 hex>`).
pub fn hip_of_agent<'a>(hips: &'a [HipIdentity], agent_uuid: &str) -> Option<&'a HipIdentity> {
    hips.iter().find(|h| {
        h.uuid
            .agent_uuid()
            .to_string()
            .eq_ignore_ascii_case(agent_uuid)
    })
}

/// The identity of every GPU agent of `backend`'s HSA, in agent order (the
/// order of `topology`'s group), with its HIP device where HIP answers.
pub fn hsa_gpu_identities(backend: &Backend) -> Result<Vec<DeviceIdentity>> {
    let agents = super::agents::list_hsa_agents(backend)?;
    let hips = hip_devices(backend);
    Ok(agents
        .into_iter()
        .filter(|agent| agent.kind == "gpu")
        .map(|agent| {
            let hip = hip_of_agent(&hips, &agent.uuid);
            DeviceIdentity {
                agent_index: Some(agent.index),
                product: agent.product,
                device_id: hip.map(HipIdentity::device_id),
                path: hip.map(|h| h.uuid.path()),
                uuid: agent.uuid,
            }
        })
        .collect())
}

/// The identity of a HIP device named `name`; `agents` are `(index, UUID)`
/// of the HSA GPU agents where HSA answers (the simulated node), to find
/// its agent.
pub fn hip_identity(hip: HipIdentity, name: &str, agents: &[(usize, String)]) -> DeviceIdentity {
    let uuid = hip.uuid.agent_uuid().to_string();
    DeviceIdentity {
        agent_index: agents
            .iter()
            .find(|(_, u)| u.eq_ignore_ascii_case(&uuid))
            .map(|(index, _)| *index),
        uuid,
        product: name.to_owned(),
        device_id: Some(hip.device_id()),
        path: Some(hip.uuid.path()),
    }
}

/// `(index, UUID)` of `backend`'s HSA GPU agents; empty when its HSA does
/// not answer (HIP on NVIDIA).
pub fn hsa_gpu_agents(backend: &Backend) -> Vec<(usize, String)> {
    super::agents::list_hsa_agents(backend)
        .map(|agents| {
            agents
                .into_iter()
                .filter(|a| a.kind == "gpu")
                .map(|a| (a.index, a.uuid))
                .collect()
        })
        .unwrap_or_default()
}

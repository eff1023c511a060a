//! The GPUs of a HIP backend (`--backend hip|cuda`), listed by the HIP
//! driver ([`crate::hip::driver::HipDriver`]: `hipInit`, `hipGetDeviceCount`,
//! then per ordinal `hipDeviceGet`, `hipDeviceGetName`, `hipDeviceGetUuid`),
//! plus `hipGetDeviceProperties`, in the shape of `devices`' agent entries.
//!
//! What HSA would report and HIP does not is derived, the same way for both
//! platforms:
//! - `name`: the arch without features (`gfx942` from `gfx942:sramecc+:xnack-`);
//!   on NVIDIA, where `gcnArchName` is empty, `sm_<major><minor>`;
//! - `isas`: `amdgcn-amd-amdhsa--<gcnArchName>`, or `nvptx64-nvidia-cuda--sm_XY`;
//! - `uuid` (HSA's `GPU-<16 hex>`): on AMD, HIP's 16 UUID bytes *are* the
//!   ASCII of those 16 hex digits; otherwise the first 8 bytes in hex. The
//!   full 16-byte UUID is `path` (what `nvidia-smi -L` prints on NVIDIA);
//! - `node`: the ordinal; `numa_node`: where the backend's HSA answers (ROCm,
//!   the simulator) the node of the GPU agent with the same UUID, as
//!   `devices` shows it; otherwise the PCI device's sysfs `numa_node` (HIP's
//!   PCI location is all HIP tells of it); 0 when neither knows;
//! - `pools`: one global, coarse-grained, allocatable pool of `totalGlobalMem`.

use crate::backend::{Backend, CallResultExt, HipDeviceProps, HipUuid};
use crate::hip::HipOptions;
use crate::hip::driver::HipDriver;
use crate::status::Result;

use super::agents::{AgentJson, PoolJson};

/// What one HIP device reports, with the derived HSA-shaped fields.
#[derive(Clone, Debug)]
pub struct HipDeviceReport {
    /// The ordinal.
    pub ordinal: i32,
    /// `hipDeviceGet`'s device.
    pub device: i32,
    /// `hipDeviceGetName`.
    pub name: String,
    /// `hipDeviceGetUuid`.
    pub uuid: HipUuid,
    /// `hipGetDeviceProperties`.
    pub props: HipDeviceProps,
    /// The host NUMA node of the PCI device.
    pub numa_node: u32,
}

impl HipDeviceReport {
    /// True for an AMD device (HIP reports a `gcnArchName`).
    pub fn is_amd(&self) -> bool {
        !self.props.gcn_arch_name.is_empty()
    }

    /// The agent name HSA would report.
    pub fn arch(&self) -> String {
        if self.is_amd() {
            let arch = &self.props.gcn_arch_name;
            arch.split(':').next().unwrap_or(arch).to_string()
        } else {
            format!("sm_{}{}", self.props.major, self.props.minor)
        }
    }

    /// The device's ISA name.
    pub fn isa(&self) -> String {
        if self.is_amd() {
            format!("amdgcn-amd-amdhsa--{}", self.props.gcn_arch_name)
        } else {
            format!("nvptx64-nvidia-cuda--{}", self.arch())
        }
    }

    /// HSA's `GPU-<16 hex>` form of the UUID (module docs).
    pub fn hsa_uuid(&self) -> String {
        hsa_uuid_of(&self.uuid)
    }

    /// The entry `devices` prints.
    pub fn agent_json(&self) -> AgentJson {
        AgentJson {
            index: usize::try_from(self.ordinal).unwrap_or(0),
            kind: "gpu",
            name: self.arch(),
            uuid: self.hsa_uuid(),
            isas: vec![self.isa()],
            numa_node: self.numa_node,
            product: self.name.clone(),
            node: u32::try_from(self.ordinal).unwrap_or(0),
            pools: vec![PoolJson {
                segment: "global",
                flags: vec!["coarse_grained"],
                size: self.props.total_global_mem,
                alloc_allowed: true,
            }],
            gpu_index: usize::try_from(self.ordinal).ok(),
            device_id: Some(self.device.saturating_add(1)),
            path: Some(self.uuid.device_path()),
        }
    }
}

/// HSA's `GPU-<16 hex>` form of a HIP UUID: on AMD the 16 bytes are those
/// ASCII hex digits; otherwise the first 8 bytes in hex.
pub fn hsa_uuid_of(uuid: &HipUuid) -> String {
    crate::hip::DeviceUuid(uuid.0).agent_uuid().to_string()
}

/// The sysfs NUMA node of a PCI device, `None` when the kernel reports
/// none (`-1`) or the device is not there (a simulated one).
pub fn pci_numa_node(props: &HipDeviceProps) -> Option<u32> {
    let path = format!(
        "/sys/bus/pci/devices/{:04x}:{:02x}:{:02x}.0/numa_node",
        props.pci_domain_id, props.pci_bus_id, props.pci_device_id
    );
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| text.trim().parse::<u32>().ok())
}

/// `(HSA UUID, NUMA node)` of every GPU agent, where the backend's HSA
/// answers (empty for HIP on NVIDIA, which has no HSA).
pub fn hsa_gpu_numa_nodes(backend: &Backend) -> Vec<(String, u32)> {
    super::agents::list_hsa_agents(backend)
        .map(|agents| {
            agents
                .into_iter()
                .filter(|a| a.kind == "gpu")
                .map(|a| (a.uuid, a.numa_node))
                .collect()
        })
        .unwrap_or_default()
}

/// Enumerates the HIP devices of `backend` through the HIP driver
/// ([`HipDriver::query_available_devices`]: IREE's order, ids and paths),
/// then reads each device's properties and NUMA node (module docs).
pub fn list_hip_devices(backend: &Backend) -> Result<Vec<HipDeviceReport>> {
    let driver = HipDriver::from_backend(backend, HipOptions::default())?;
    let hsa_numa = hsa_gpu_numa_nodes(backend);
    let mut out = Vec::new();
    for info in driver.query_available_devices()? {
        let props = backend
            .hip()
            .get_device_properties(info.ordinal)
            .call_status("hipGetDeviceProperties")?;
        let uuid = HipUuid(*info.uuid.bytes());
        let hsa_uuid = hsa_uuid_of(&uuid);
        let numa_node = hsa_numa
            .iter()
            .find(|(u, _)| *u == hsa_uuid)
            .map(|(_, node)| *node)
            .or_else(|| pci_numa_node(&props))
            .unwrap_or(0);
        out.push(HipDeviceReport {
            ordinal: info.ordinal,
            device: info.device.raw(),
            name: info.name,
            uuid,
            props,
            numa_node,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(gcn: &str, uuid: [u8; 16]) -> HipDeviceReport {
        HipDeviceReport {
            ordinal: 0,
            device: 0,
            name: "X".into(),
            uuid: HipUuid(uuid),
            props: HipDeviceProps {
                gcn_arch_name: gcn.into(),
                major: 9,
                minor: 0,
                ..Default::default()
            },
            numa_node: 0,
        }
    }

    #[test]
    fn amd_uuid_bytes_are_the_hsa_digits() {
        let r = report("gfx942:sramecc+:xnack-", *b"e56b237e725ec427");
        assert_eq!(r.hsa_uuid(), "GPU-e56b237e725ec427");
        assert_eq!(r.arch(), "gfx942");
        assert_eq!(r.isa(), "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-");
    }

    #[test]
    fn nvidia_uuid_bytes_are_binary() {
        let bytes = [
            0xda, 0xbf, 0x1f, 0x1f, 0xee, 0xb9, 0x48, 0xc3, 0x62, 0xb8, 0x69, 0xc3, 0x6d, 0x7c,
            0x95, 0xdb,
        ];
        let r = report("", bytes);
        assert_eq!(r.hsa_uuid(), "GPU-dabf1f1feeb948c3");
        assert_eq!(
            r.uuid.device_path(),
            "GPU-dabf1f1f-eeb9-48c3-62b8-69c36d7c95db"
        );
        assert_eq!(r.arch(), "sm_90");
        assert_eq!(r.isa(), "nvptx64-nvidia-cuda--sm_90");
        let json = r.agent_json();
        assert_eq!(
            (json.device_id, json.path.as_deref()),
            (Some(1), Some("GPU-dabf1f1f-eeb9-48c3-62b8-69c36d7c95db"))
        );
    }
}

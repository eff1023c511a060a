//! The HIP driver's reports: which runtime a `hip` or `cuda` [`Selection`]
//! opens, the HIP view of `devices`, and the HIP device group `topology`
//! draws.
//!
//! `--backend hip` runs IREE's HIP driver. Over a machine preset or file
//! (`--machine`, the default) it drives the simulated node's HIP; with
//! `--machine host` it loads the real `libamdhip64` (cargo feature `real`),
//! searched as IREE does (`IREE_HIP_DYLIB_PATH`). `--backend cuda` runs it
//! over HIP on NVIDIA (`libcuda`) for `info`, and for `topology` over NVML's
//! answers where NVML can give CUDA's ([`open_listing_driver`]).

use serde::Serialize;

use super::selection::{CUDA_BACKEND_NAME, HIP_BACKEND_NAME, HOST_MACHINE, Selection, no_gpu};
use super::topology::{TopologyDocument, TopologyStyle, render_group};
use crate::backend::{Backend, CallResultExt};
use crate::hip::{DeviceInfo, DeviceUuid, HipDriver, HipOptions};
use crate::status::{Result, Status};

/// The HIP driver `selection` selects, with the simulated backend it runs on
/// (`None` on the host).
pub fn open_driver(selection: &Selection) -> Result<(HipDriver, Option<Backend>)> {
    if selection.backend == CUDA_BACKEND_NAME {
        let (driver, backend) = open_cuda_driver()?;
        return Ok((with_pci_numa_nodes(driver)?, backend));
    }
    if selection.machine() == HOST_MACHINE {
        return Ok((with_pci_numa_nodes(open_host_driver()?)?, None));
    }
    let backend = Backend::sim(selection.machine())?;
    let driver = HipDriver::from_backend(&backend, HipOptions::default())?;
    let numa = hsa_numa_nodes(&backend)?
        .into_iter()
        .filter_map(|(uuid, node)| Some((uuid_of_hsa(&uuid)?, u8::try_from(node).ok()?)))
        .collect();
    let hsa = backend.hsa()?;
    hsa.init().call_status("hsa_init")?;
    let slit = Status::join_results(
        crate::amdgpu::device::hsa_numa_distances(hsa),
        hsa.shut_down().call_status("hsa_shut_down"),
    )?;
    let driver = driver
        .with_numa_nodes(numa)
        .with_numa_distances(std::sync::Arc::new(slit));
    Ok((driver, Some(backend)))
}

/// [`open_driver`] for the listings (`topology`): with `--backend cuda`
/// the driver runs over NVML's answers where NVML can give CUDA's
/// ([`Selection::open_listing_backend`]); `info` keeps [`open_driver`].
pub fn open_listing_driver(selection: &Selection) -> Result<(HipDriver, Option<Backend>)> {
    if selection.backend != CUDA_BACKEND_NAME {
        return open_driver(selection);
    }
    let backend = selection.open_listing_backend(true)?;
    let driver = HipDriver::from_backend(&backend, HipOptions::default())?;
    Ok((with_pci_numa_nodes(driver)?, Some(backend)))
}

/// `(HSA UUID, NUMA node)` of every GPU agent of `backend`.
fn hsa_numa_nodes(backend: &Backend) -> Result<Vec<(String, u32)>> {
    Ok(hsa_gpus(backend)?
        .into_iter()
        .map(|a| (a.uuid, a.numa_node))
        .collect())
}

/// The GPU agents of `backend`'s HSA.
fn hsa_gpus(backend: &Backend) -> Result<Vec<super::agents::AgentJson>> {
    Ok(super::agents::list_hsa_agents(backend)?
        .into_iter()
        .filter(|a| a.kind == "gpu")
        .collect())
}

/// A driver over the host's runtime, given each device's NUMA node from its
/// PCI location (sysfs), the one NUMA fact HIP offers; devices the kernel
/// gives no node keep IREE's default.
fn with_pci_numa_nodes(driver: HipDriver) -> Result<HipDriver> {
    let mut nodes = Vec::new();
    for info in driver.query_available_devices()? {
        if let Some(props) = driver.device_properties(info.device)?
            && let Some(node) = super::hip_devices::pci_numa_node(&props)
            && let Ok(node) = u8::try_from(node)
        {
            nodes.push((info.uuid, node));
        }
    }
    Ok(driver.with_numa_nodes(nodes))
}

/// The `hipUUID` ROCm reports for an HSA agent UUID (`GPU-` + 16
/// characters: their ASCII bytes).
pub fn uuid_of_hsa(uuid: &str) -> Option<DeviceUuid> {
    let text = uuid.strip_prefix("GPU-")?.as_bytes();
    <[u8; 16]>::try_from(text).ok().map(DeviceUuid)
}

#[cfg(feature = "real")]
fn open_host_driver() -> Result<HipDriver> {
    use crate::backend::dylib::hip::HipLibrary;
    use crate::hip::LoadedHip;
    use crate::hip::options::HIP_DYLIB_PATH_ENV;
    use std::sync::Arc;
    let env = std::env::var(HIP_DYLIB_PATH_ENV).ok();
    let options = HipOptions::from_pairs(std::iter::empty(), env.as_deref())?;
    HipDriver::create(
        options,
        |paths| {
            let entries: Vec<String> = paths.iter().map(|p| p.as_entry()).collect();
            let library = HipLibrary::load(&entries)?;
            let library_path = Some(library.path().to_owned());
            Ok(LoadedHip {
                hip: Arc::new(library),
                library_path,
            })
        },
        || Err(crate::hip::rccl::rccl_not_available()),
    )
}

/// IREE's HIP driver over HIP on NVIDIA (`libcuda.so.1`), with NCCL in the
/// RCCL slot when the backend found it.
#[cfg(feature = "real")]
fn open_cuda_driver() -> Result<(HipDriver, Option<Backend>)> {
    let backend = crate::backend::dylib::open_backend(CUDA_BACKEND_NAME)?;
    let driver = HipDriver::from_backend(&backend, HipOptions::default())?;
    Ok((driver, Some(backend)))
}

#[cfg(not(feature = "real"))]
fn open_cuda_driver() -> Result<(HipDriver, Option<Backend>)> {
    Err(Status::unavailable(
        "backend 'cuda' (HIP on NVIDIA) needs cargo feature `real`",
    ))
}

#[cfg(not(feature = "real"))]
fn open_host_driver() -> Result<HipDriver> {
    Err(Status::unavailable(
        "the real HIP runtime (--machine host) needs cargo feature `real`",
    ))
}

/// The `devices --backend hip --json` document (docs/CLI.md keys, plus
/// `device_id` and `path`).
#[derive(Debug, Serialize)]
pub struct HipDevicesJson {
    /// `hip`.
    pub backend: &'static str,
    /// The machine (`host` for the real runtime).
    pub machine: String,
    /// HIP devices in HIP ordinal order.
    pub agents: Vec<HipDeviceJson>,
}

/// One HIP device.
#[derive(Debug, Serialize)]
pub struct HipDeviceJson {
    /// The HIP ordinal.
    pub index: i32,
    /// Always `gpu`.
    pub kind: &'static str,
    /// The processor (`gfx942`), from `gcnArchName`.
    pub name: String,
    /// The HSA-style UUID (`GPU-` + the 16 characters ROCm's
    /// `hipDeviceGetUuid` returns), or the path when the bytes are not text.
    pub uuid: String,
    /// `amdgcn-amd-amdhsa--` + `gcnArchName`.
    pub isas: Vec<String>,
    /// The host NUMA node: the matching HSA agent's, else the PCI device's
    /// (sysfs); `null` when neither is known.
    pub numa_node: Option<u32>,
    /// `hipDeviceGetName`.
    pub product: String,
    /// The index of the device's HSA agent (`devices`' `[n]`), where the
    /// backend's HSA answers (the simulated node).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_index: Option<usize>,
    /// IREE's device id: ordinal + 1.
    pub device_id: u64,
    /// IREE's device path: `GPU-` + 8-4-4-4-12 hex.
    pub path: String,
}

/// ROCm fills `hipUUID` with the ASCII of the agent's 16-digit UUID; this
/// is that text as rocminfo prints it, `None` when the bytes are not text.
pub fn hsa_style_uuid(bytes: &[u8; 16]) -> Option<String> {
    bytes
        .iter()
        .all(u8::is_ascii_alphanumeric)
        .then(|| format!("GPU-{}", String::from_utf8_lossy(bytes)))
}

fn describe(
    driver: &HipDriver,
    info: &DeviceInfo,
    agents: &[super::agents::AgentJson],
) -> Result<HipDeviceJson> {
    let props = driver.device_properties(info.device)?;
    let uuid = hsa_style_uuid(info.uuid.bytes()).unwrap_or_else(|| info.path.clone());
    let agent = agents.iter().find(|a| a.uuid == uuid);
    let numa_node = agent
        .map(|a| a.numa_node)
        .or_else(|| props.as_ref().and_then(super::hip_devices::pci_numa_node));
    let arch = props.map(|p| p.gcn_arch_name).unwrap_or_default();
    Ok(HipDeviceJson {
        index: info.ordinal,
        kind: "gpu",
        name: arch.split(':').next().unwrap_or_default().to_owned(),
        isas: if arch.is_empty() {
            Vec::new()
        } else {
            vec![format!("amdgcn-amd-amdhsa--{arch}")]
        },
        uuid,
        numa_node,
        product: info.name.clone(),
        agent_index: agent.map(|a| a.index),
        device_id: info.device_id.0,
        path: info.path.clone(),
    })
}

/// Enumerates the HIP devices `selection` selects.
pub fn list_devices(selection: &Selection) -> Result<HipDevicesJson> {
    let (driver, backend) = open_driver(selection)?;
    // The simulated node's NUMA nodes are its HSA agents'; the host's HIP
    // (`--machine host`, `cuda`) has them from sysfs (`describe`).
    let hsa = match &backend {
        Some(backend) if selection.backend == HIP_BACKEND_NAME => hsa_gpus(backend)?,
        _ => Vec::new(),
    };
    let agents = driver
        .query_available_devices()?
        .iter()
        .map(|info| describe(&driver, info, &hsa))
        .collect::<Result<Vec<_>>>()?;
    Ok(HipDevicesJson {
        backend: HIP_BACKEND_NAME,
        machine: backend.map_or_else(|| HOST_MACHINE.to_owned(), |b| b.machine().to_owned()),
        agents,
    })
}

/// The group of the HIP devices `path` selects (every device when empty),
/// one HAL device each, with HIP→HIP edges refined from peer access and P2P
/// attributes, drawn in `style`.
pub fn hip_topology(
    selection: &Selection,
    path: &str,
    style: TopologyStyle,
) -> Result<TopologyDocument> {
    use crate::device::FrontierTracker;
    let (driver, backend) = open_listing_driver(selection)?;
    let machine = backend
        .as_ref()
        .map_or_else(|| HOST_MACHINE.to_owned(), |b| b.machine().to_owned());
    if path.is_empty() && driver.query_available_devices()?.is_empty() {
        return Err(no_gpu(&machine, &selection.backend));
    }
    let group = driver
        .group_of_path(path, std::sync::Arc::new(FrontierTracker::default()))
        .map_err(|e| {
            e.annotate(format!(
                "building the HIP device group of machine '{machine}'"
            ))
        })?;
    // Each device's other names (report::identity); its HSA agent where the
    // simulated node's HSA answers.
    let agents = match &backend {
        Some(backend) if selection.backend == HIP_BACKEND_NAME => {
            super::identity::hsa_gpu_agents(backend)
        }
        _ => Vec::new(),
    };
    let identities: Vec<_> = group
        .devices()
        .iter()
        .map(|device| {
            let any: &dyn std::any::Any = device.as_ref();
            let hip = any.downcast_ref::<crate::hip::HipLogicalDevice>()?;
            let p = hip.physical_devices().first()?;
            let id = super::identity::HipIdentity {
                device: p.device.raw(),
                uuid: p.uuid,
            };
            Some(super::identity::hip_identity(id, &p.name, &agents))
        })
        .collect();
    Ok(render_group(
        &group,
        &machine,
        &selection.backend,
        &identities,
        style,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hsa_and_hip_uuids_correspond() {
        let hip = uuid_of_hsa("GPU-8af705259683161c").unwrap();
        assert_eq!(hip.path(), "GPU-38616637-3035-3235-3936-383331363163");
        assert_eq!(
            hsa_style_uuid(hip.bytes()).as_deref(),
            Some("GPU-8af705259683161c")
        );
        assert_eq!(uuid_of_hsa("GPU-XX"), None);
        assert_eq!(uuid_of_hsa("8af705259683161c"), None);
        assert_eq!(hsa_style_uuid(&[0; 16]), None);
    }
}

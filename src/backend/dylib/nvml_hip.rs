//! HIP's enumeration and topology calls answered from NVML
//! ([`super::nvml`]), for `devices` and `topology` with `--backend cuda`:
//! the same documents as HIP on NVIDIA ([`super::cuda`]) without `cuInit`,
//! which is almost all of that path's time.
//!
//! Everything is read once, when the backend opens ([`NvmlHip::read`]), so
//! every NVML failure is reported with NVML's code and string naming the
//! NVML call; the [`Hip`] methods then answer from the snapshot:
//!
//! | HIP call | NVML |
//! |---|---|
//! | `hipGetDeviceCount`, `hipDeviceGet` | `nvmlDeviceGetCount_v2`, index order (`hipErrorNoDevice` for 0, as CUDA) |
//! | `hipDeviceGetName` | `nvmlDeviceGetName` |
//! | `hipDeviceGetUuid` | `nvmlDeviceGetUUID` (`GPU-` + 32 hex digits → the 16 bytes `cuDeviceGetUuid` gives) |
//! | `totalGlobalMem` | `nvmlDeviceGetMemoryInfo_v2` `total − reserved` (what `cuDeviceTotalMem` reports: docs/HARDWARE.md) |
//! | `major`, `minor` | `nvmlDeviceGetCudaComputeCapability` |
//! | `pciDomainID`, `pciBusID`, `pciDeviceID` | `nvmlDeviceGetPciInfo_v3` |
//! | `hipDeviceAttributeIntegrated`, `…ManagedMemory` | 0 and 1: NVML manages discrete GPUs only, all with managed memory on 64-bit Linux |
//! | `hipDeviceCanAccessPeer`, `hipDevP2PAttrAccessSupported` | `nvmlDeviceGetP2PStatus` READ and WRITE both OK |
//! | `hipDevP2PAttrNativeAtomicSupported` | `nvmlDeviceGetP2PStatus` ATOMICS OK |
//! | `hipDevP2PAttrPerformanceRank` | 0 (NVML has no rank; the link class below carries the distance) |
//! | [`Hip::peer_link_class`] | NVLINK OK: `NVLINK_IF`; else `nvmlDeviceGetTopologyCommonAncestor` ≤ host bridge (PIX/PXB/PHB): `PCIE_SAME_ROOT`, NODE/SYS: `PCIE_CROSS_ROOT` |
//!
//! Every other property and attribute is HIP's alone (`info` and `capture`
//! keep the CUDA driver): they answer `hipErrorNotSupported` here. NVML's
//! index order is CUDA's ordinal order only when CUDA sees every GPU in PCI
//! order, so [`NvmlHip::read`] declines (a `FAILED_PRECONDITION` reason; the
//! caller falls back to the CUDA driver) when `CUDA_VISIBLE_DEVICES` is set, when
//! a GPU is in MIG mode, and when the GPUs are not all one product while
//! `CUDA_DEVICE_ORDER` is not `PCI_BUS_ID` (CUDA's default puts the fastest
//! first).

use super::library::{DynamicLibrary, NVML};
use super::nvml::{NvmlLibrary, NvmlResult, P2pCapability, TopologyLevel, nvml_status};
use crate::backend::{
    Hip, HipDevice, HipDeviceAttribute, HipDeviceProps, HipError, HipP2pAttribute, HipResult,
    HipUuid,
};
use crate::status::{Result, Status};
use crate::topology::LinkClass;

/// What NVML reports of one GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NvmlGpu {
    /// `nvmlDeviceGetName`.
    pub name: String,
    /// `nvmlDeviceGetUUID` as its 16 bytes.
    pub uuid: [u8; 16],
    /// `total − reserved` of `nvmlDeviceGetMemoryInfo_v2`.
    pub memory: u64,
    /// `nvmlDeviceGetCudaComputeCapability`.
    pub compute_capability: (i32, i32),
    /// PCI domain, bus and device (`nvmlDeviceGetPciInfo_v3`).
    pub pci: (u32, u32, u32),
}

/// What NVML reports of the link from one GPU to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NvmlPair {
    /// P2P READ and WRITE are both OK.
    pub peer: bool,
    /// P2P ATOMICS is OK.
    pub atomics: bool,
    /// The class of the physical link (module docs).
    pub link_class: LinkClass,
}

/// IREE's link class of a pair: NVLink, or PCIe by the common ancestor.
pub fn pair_link_class(nvlink: bool, level: TopologyLevel) -> LinkClass {
    if nvlink {
        LinkClass::NvlinkIf
    } else if level <= TopologyLevel::HostBridge {
        LinkClass::PcieSameRoot
    } else {
        LinkClass::PcieCrossRoot
    }
}

/// HIP's enumeration and topology answered from an NVML snapshot.
#[derive(Clone, Debug)]
pub struct NvmlHip {
    gpus: Vec<NvmlGpu>,
    /// `pairs[i * n + j]`: the link from GPU i to GPU j; `None` on the
    /// diagonal and when links were not read.
    pairs: Vec<Option<NvmlPair>>,
    path: String,
}

/// Parses NVML's `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` into 16 bytes.
pub fn parse_nvml_uuid(text: &str) -> Option<[u8; 16]> {
    let hex: Vec<u8> = text
        .strip_prefix("GPU-")?
        .bytes()
        .filter(|&b| b != b'-')
        .collect();
    if hex.len() != 32 {
        return None;
    }
    let mut out = [0u8; 16];
    for (slot, pair) in out.iter_mut().zip(hex.chunks_exact(2)) {
        let text = std::str::from_utf8(pair).ok()?;
        *slot = u8::from_str_radix(text, 16).ok()?;
    }
    Some(out)
}

impl NvmlHip {
    /// Loads NVML and reads every GPU and, with `links`, every ordered
    /// pair's link; NVML is shut down after. `Ok(Err(reason))`: NVML cannot
    /// answer for CUDA and the caller uses the CUDA driver — the library is
    /// missing or incomplete (`UNAVAILABLE`), or NVML's order would not be
    /// CUDA's (`FAILED_PRECONDITION`, module docs). `Err`: NVML failed
    /// (`nvmlInit_v2` included), with NVML's code and string.
    pub fn read(links: bool) -> Result<std::result::Result<NvmlHip, Status>> {
        if let Ok(value) = std::env::var("CUDA_VISIBLE_DEVICES") {
            return Ok(Err(crate::status!(
                FailedPrecondition,
                "CUDA_VISIBLE_DEVICES={value:?} is set: CUDA's ordinals are not NVML's indices"
            )));
        }
        let opened = DynamicLibrary::open(&NVML, &[]).and_then(NvmlLibrary::resolve);
        let mut nvml = match opened {
            Ok(nvml) => nvml,
            Err(reason) => return Ok(Err(reason)),
        };
        nvml.init()?;
        let pci_order = std::env::var("CUDA_DEVICE_ORDER").is_ok_and(|v| v == "PCI_BUS_ID");
        match NvmlHip::read_from(&nvml, links, pci_order) {
            Err(reason) if reason.code() == crate::status::StatusCode::FailedPrecondition => {
                Ok(Err(reason))
            }
            other => other.map(Ok),
        }
    }

    /// [`NvmlHip::read`] over an initialized library; `pci_order`: CUDA
    /// orders devices by PCI bus id (`CUDA_DEVICE_ORDER=PCI_BUS_ID`).
    pub fn read_from(nvml: &NvmlLibrary, links: bool, pci_order: bool) -> Result<NvmlHip> {
        let call = |name: &'static str| move |e| nvml_status(nvml, e, name);
        let count = nvml.device_count().map_err(call("nvmlDeviceGetCount_v2"))?;
        let mut handles = Vec::new();
        let mut gpus = Vec::new();
        for index in 0..count {
            let device = nvml
                .device_by_index(index)
                .map_err(call("nvmlDeviceGetHandleByIndex_v2"))?;
            if nvml
                .mig_enabled(device)
                .map_err(call("nvmlDeviceGetMigMode"))?
            {
                return Err(crate::status!(
                    FailedPrecondition,
                    "NVML device {index} is in MIG mode: CUDA enumerates its instances"
                ));
            }
            let uuid_text = nvml.uuid(device).map_err(call("nvmlDeviceGetUUID"))?;
            let uuid = parse_nvml_uuid(&uuid_text).ok_or_else(|| {
                crate::status!(
                    Unknown,
                    "NVML device {index}'s UUID {:?} is not GPU- + 32 hex digits",
                    crate::escape::Escaped(&uuid_text).to_string()
                )
            })?;
            let memory = nvml
                .memory_info(device)
                .map_err(call("nvmlDeviceGetMemoryInfo_v2"))?;
            let pci = nvml
                .pci_info(device)
                .map_err(call("nvmlDeviceGetPciInfo_v3"))?;
            gpus.push(NvmlGpu {
                name: nvml.name(device).map_err(call("nvmlDeviceGetName"))?,
                uuid,
                memory: memory.total.saturating_sub(memory.reserved),
                compute_capability: nvml
                    .compute_capability(device)
                    .map_err(call("nvmlDeviceGetCudaComputeCapability"))?,
                pci: (pci.domain, pci.bus, pci.device),
            });
            handles.push(device);
        }
        if !pci_order
            && gpus
                .windows(2)
                .any(|w| w.first().map(|g| &g.name) != w.last().map(|g| &g.name))
        {
            return Err(Status::failed_precondition(
                "the GPUs are not all one product and CUDA_DEVICE_ORDER is not PCI_BUS_ID: \
                 CUDA's fastest-first order is not NVML's",
            ));
        }
        let n = handles.len();
        let mut pairs = vec![None; n * n];
        if links {
            for (slot, k) in pairs.iter_mut().zip(0..) {
                let (i, j) = (k / n, k % n);
                if let (true, Some(&a), Some(&b)) = (i != j, handles.get(i), handles.get(j)) {
                    *slot = Some(read_pair(nvml, a, b).map_err(|(e, name)| {
                        nvml_status(nvml, e, name).annotate(format!("NVML devices {i} and {j}"))
                    })?);
                }
            }
        }
        Ok(NvmlHip {
            gpus,
            pairs,
            path: nvml.path().to_owned(),
        })
    }

    /// The path NVML was opened by.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The GPUs, in NVML's index order.
    pub fn gpus(&self) -> &[NvmlGpu] {
        &self.gpus
    }

    fn gpu(&self, ordinal: i32) -> HipResult<&NvmlGpu> {
        usize::try_from(ordinal)
            .ok()
            .and_then(|i| self.gpus.get(i))
            .ok_or(HipError::InvalidDevice)
    }

    fn pair(&self, src: i32, dst: i32) -> HipResult<Option<NvmlPair>> {
        self.gpu(src)?;
        self.gpu(dst)?;
        let n = self.gpus.len();
        let (i, j) = (src as usize, dst as usize);
        if i == j {
            return Err(HipError::InvalidDevice);
        }
        Ok(self.pairs.get(i * n + j).copied().flatten())
    }
}

type PairResult<T> = std::result::Result<T, (super::nvml::NvmlError, &'static str)>;

fn read_pair(
    nvml: &NvmlLibrary,
    a: super::nvml::NvmlDevice,
    b: super::nvml::NvmlDevice,
) -> PairResult<NvmlPair> {
    let p2p = |cap| -> PairResult<bool> {
        nvml.p2p_ok(a, b, cap)
            .map_err(|e| (e, "nvmlDeviceGetP2PStatus"))
    };
    let level: NvmlResult<TopologyLevel> = nvml.common_ancestor(a, b);
    let level = level.map_err(|e| (e, "nvmlDeviceGetTopologyCommonAncestor"))?;
    Ok(NvmlPair {
        peer: p2p(P2pCapability::Read)? && p2p(P2pCapability::Write)?,
        atomics: p2p(P2pCapability::Atomics)?,
        link_class: pair_link_class(p2p(P2pCapability::Nvlink)?, level),
    })
}

impl Hip for NvmlHip {
    fn init(&self, _flags: u32) -> HipResult<()> {
        Ok(())
    }
    fn driver_get_version(&self) -> HipResult<i32> {
        Err(HipError::NotSupported)
    }
    fn runtime_get_version(&self) -> HipResult<i32> {
        Err(HipError::NotSupported)
    }
    fn get_device_count(&self) -> HipResult<i32> {
        match self.gpus.len() {
            0 => Err(HipError::NoDevice),
            n => Ok(i32::try_from(n).unwrap_or(i32::MAX)),
        }
    }
    fn device_get(&self, ordinal: i32) -> HipResult<HipDevice> {
        self.gpu(ordinal).map(|_| HipDevice(ordinal))
    }
    fn device_get_name(&self, device: HipDevice, len: usize) -> HipResult<String> {
        if len == 0 {
            return Err(HipError::InvalidValue);
        }
        // What a C `char[len]` holds: at most `len - 1` bytes, whole characters.
        let mut name = String::new();
        for c in self.gpu(device.0)?.name.chars() {
            if name.len() + c.len_utf8() >= len {
                break;
            }
            name.push(c);
        }
        Ok(name)
    }
    fn device_get_uuid(&self, device: HipDevice) -> HipResult<HipUuid> {
        Ok(HipUuid(self.gpu(device.0)?.uuid))
    }
    fn get_device_properties(&self, ordinal: i32) -> HipResult<HipDeviceProps> {
        let gpu = self.gpu(ordinal)?;
        let int = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
        Ok(HipDeviceProps {
            name: gpu.name.clone(),
            total_global_mem: gpu.memory,
            major: gpu.compute_capability.0,
            minor: gpu.compute_capability.1,
            pci_domain_id: int(gpu.pci.0),
            pci_bus_id: int(gpu.pci.1),
            pci_device_id: int(gpu.pci.2),
            ..HipDeviceProps::default()
        })
    }
    fn device_get_attribute(&self, attribute: HipDeviceAttribute, ordinal: i32) -> HipResult<i32> {
        self.gpu(ordinal)?;
        match attribute {
            HipDeviceAttribute::Integrated => Ok(0),
            HipDeviceAttribute::ManagedMemory => Ok(1),
            _ => Err(HipError::NotSupported),
        }
    }
    fn device_can_access_peer(&self, ordinal: i32, peer_ordinal: i32) -> HipResult<bool> {
        Ok(self
            .pair(ordinal, peer_ordinal)?
            .is_some_and(|pair| pair.peer))
    }
    fn set_device(&self, ordinal: i32) -> HipResult<()> {
        self.gpu(ordinal).map(|_| ())
    }
    fn device_enable_peer_access(&self, _peer_ordinal: i32, _flags: u32) -> HipResult<()> {
        Err(HipError::NotSupported)
    }
    fn device_get_p2p_attribute(
        &self,
        attribute: HipP2pAttribute,
        src: i32,
        dst: i32,
    ) -> HipResult<i32> {
        let pair = self.pair(src, dst)?;
        Ok(match attribute {
            HipP2pAttribute::PerformanceRank => 0,
            HipP2pAttribute::AccessSupported => pair.is_some_and(|p| p.peer).into(),
            HipP2pAttribute::NativeAtomicSupported => pair.is_some_and(|p| p.atomics).into(),
            HipP2pAttribute::HipArrayAccessSupported => return Err(HipError::NotSupported),
        })
    }
    fn peer_link_class(&self, src: i32, dst: i32) -> Option<LinkClass> {
        self.pair(src, dst).ok().flatten().map(|p| p.link_class)
    }
    fn get_error_name(&self, error: HipError) -> String {
        error.name().to_string()
    }
    fn get_error_string(&self, error: HipError) -> String {
        format!(
            "{} (answered from NVML, which has no such fact)",
            error.description()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_parse_like_cuda() {
        let bytes = parse_nvml_uuid("GPU-4260bfb0-645d-3cec-f3d7-764bea0daa6c").unwrap();
        assert_eq!(bytes[0], 0x42);
        assert_eq!(bytes[15], 0x6c);
        assert_eq!(
            parse_nvml_uuid("MIG-4260bfb0-645d-3cec-f3d7-764bea0daa6c"),
            None
        );
        assert_eq!(parse_nvml_uuid("GPU-4260bfb0"), None);
        assert_eq!(
            parse_nvml_uuid("GPU-4260bfb0-645d-3cec-f3d7-764bea0daa6g"),
            None
        );
    }

    #[test]
    fn classes_follow_nvidia_smi() {
        assert_eq!(
            pair_link_class(true, TopologyLevel::System),
            LinkClass::NvlinkIf
        );
        for level in [
            TopologyLevel::Internal,
            TopologyLevel::Single,
            TopologyLevel::Multiple,
            TopologyLevel::HostBridge,
        ] {
            assert_eq!(pair_link_class(false, level), LinkClass::PcieSameRoot);
        }
        assert_eq!(
            pair_link_class(false, TopologyLevel::Node),
            LinkClass::PcieCrossRoot
        );
        assert_eq!(
            pair_link_class(false, TopologyLevel::System),
            LinkClass::PcieCrossRoot
        );
    }
}

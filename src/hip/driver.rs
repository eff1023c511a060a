//! The HIP driver: creation, enumeration, device info and device selection
//! over the backend's [`Hip`] trait (IREE's `hip_driver.c`).

use std::sync::Arc;

use crate::backend::{
    Ccl, HIP_MAX_DEVICE_NAME_LENGTH, Hip, HipDevice, HipDeviceAttribute, HipDeviceProps, HipError,
};
use crate::status;
use crate::status::{Result, Status};

use super::device::{HipLogicalDevice, check_distinct};
use super::dump::{DumpFacts, format_device_info};
use super::error::hip_status;
use super::options::{DeviceParams, DriverOptions, HipOptions, parse_create_params};
use super::path::{DevicePath, DeviceSpec, MAX_PHYSICAL_DEVICES};
use super::rccl::{Collectives, NcclVersion, check_nccl_version, rccl_not_available};
use super::search_paths::SearchPath;
use super::uuid::DeviceUuid;

/// Enumeration reserves room for at most this many devices up front; more
/// are still listed (the vector grows), so a runtime reporting an absurd
/// count cannot make one huge allocation.
pub const ENUMERATION_RESERVE: usize = 64;

/// IREE's `iree_hal_device_id_t` for HIP: the `hipDevice_t` plus one, with
/// 0 meaning "the driver's default device".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeviceId(pub u64);

impl DeviceId {
    /// The default device (`IREE_HAL_DEVICE_ID_DEFAULT`).
    pub const DEFAULT: DeviceId = DeviceId(0);

    /// The id of a HIP device handle (`device + 1`); `None` for a negative
    /// handle, which has no id (IREE would turn -1 into DEFAULT).
    pub fn from_device(device: HipDevice) -> Option<DeviceId> {
        u64::try_from(device.raw()).ok().map(|d| DeviceId(d + 1))
    }

    /// The HIP device handle of this id (`id - 1`); `None` for
    /// [`DeviceId::DEFAULT`] or an id beyond any `int` handle.
    pub fn device(self) -> Option<HipDevice> {
        let raw = self.0.checked_sub(1)?;
        i32::try_from(raw).ok().map(HipDevice)
    }
}

/// One enumerated device (IREE's `iree_hal_device_info_t`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    /// `hipDevice + 1`.
    pub device_id: DeviceId,
    /// The enumeration ordinal it was found at.
    pub ordinal: i32,
    /// The HIP device handle.
    pub device: HipDevice,
    /// `GPU-` + the UUID, 8-4-4-4-12 lowercase.
    pub path: String,
    /// The UUID.
    pub uuid: DeviceUuid,
    /// `hipDeviceGetName` (at most 127 bytes, as IREE's 128-byte buffer).
    pub name: String,
}

/// The HIP runtime the driver was created over, as the loader hands it in.
pub struct LoadedHip {
    /// The runtime.
    pub hip: Arc<dyn Hip>,
    /// The file it was loaded from, when known (printed by the device dump).
    pub library_path: Option<String>,
}

/// A created HIP driver.
pub struct HipDriver {
    hip: Arc<dyn Hip>,
    options: DriverOptions,
    device_params: DeviceParams,
    library_path: Option<String>,
    collectives: Collectives,
    numa_nodes: Vec<(DeviceUuid, u8)>,
    numa_distances: Option<Arc<dyn crate::topology::NumaDistances>>,
}

impl std::fmt::Debug for HipDriver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HipDriver")
            .field("options", &self.options)
            .field("library_path", &self.library_path)
            .field("collectives", &self.collectives)
            .finish_non_exhaustive()
    }
}

/// A RCCL library's checked version (IREE's `nccl_check_version`).
fn ccl_version(ccl: &dyn Ccl) -> Result<NcclVersion> {
    let code = ccl.get_version().map_err(|e| {
        status!(
            Unavailable,
            "ncclGetVersion() failed with error {}",
            e.raw()
        )
    })?;
    check_nccl_version(code)
}

impl HipDriver {
    /// Creates the driver in IREE's order: load the HIP runtime from the
    /// options' search paths (fatal), load RCCL and check its version
    /// (every failure deferred, see [`super::rccl`]), then `hipInit(0)`.
    pub fn create<'c>(
        options: HipOptions,
        load_hip: impl FnOnce(&[SearchPath]) -> Result<LoadedHip>,
        load_ccl: impl FnOnce() -> Result<&'c dyn Ccl>,
    ) -> Result<HipDriver> {
        let loaded = load_hip(&options.driver.search_paths)?;
        let collectives = match load_ccl().and_then(ccl_version) {
            Ok(version) => Collectives::Available(version),
            Err(reason) => Collectives::Unavailable(reason),
        };
        loaded
            .hip
            .init(0)
            .map_err(|e| hip_status(loaded.hip.as_ref(), e, "hipInit"))?;
        Ok(HipDriver {
            hip: loaded.hip,
            options: options.driver,
            device_params: options.device,
            library_path: loaded.library_path,
            collectives,
            numa_nodes: Vec::new(),
            numa_distances: None,
        })
    }

    /// Creates the driver over a backend bundle: its HIP runtime, and its
    /// collective library if it has one (otherwise collectives are
    /// unavailable with IREE's RCCL message).
    pub fn from_backend(
        backend: &crate::backend::Backend,
        options: HipOptions,
    ) -> Result<HipDriver> {
        HipDriver::create(
            options,
            |_| {
                Ok(LoadedHip {
                    hip: backend.hip_arc(),
                    library_path: None,
                })
            },
            || backend.ccl().ok_or_else(rccl_not_available),
        )
    }

    /// The same driver, told each device's host NUMA node by UUID (HIP
    /// cannot say; the HSA agents of the same node can). Created devices
    /// report it in their capabilities.
    #[must_use]
    pub fn with_numa_nodes(mut self, nodes: Vec<(DeviceUuid, u8)>) -> HipDriver {
        self.numa_nodes = nodes;
        self
    }

    /// The same driver with the SLIT its device groups use instead of the
    /// host's (a simulated machine's, from its HSA agents).
    #[must_use]
    pub fn with_numa_distances(
        mut self,
        numa: Arc<dyn crate::topology::NumaDistances>,
    ) -> HipDriver {
        self.numa_distances = Some(numa);
        self
    }

    /// The SLIT set by [`with_numa_distances`](Self::with_numa_distances).
    pub fn numa_distances(&self) -> Option<&Arc<dyn crate::topology::NumaDistances>> {
        self.numa_distances.as_ref()
    }

    /// The HIP runtime.
    pub fn hip(&self) -> &Arc<dyn Hip> {
        &self.hip
    }

    /// Whether collectives (RCCL) can be used, or why not.
    pub fn collectives(&self) -> &Collectives {
        &self.collectives
    }

    /// The driver options.
    pub fn options(&self) -> &DriverOptions {
        &self.options
    }

    /// The default parameters of created devices.
    pub fn device_params(&self) -> &DeviceParams {
        &self.device_params
    }

    /// The HIP library file, when the loader knows it.
    pub fn library_path(&self) -> Option<&str> {
        self.library_path.as_deref()
    }

    fn call<T>(&self, result: std::result::Result<T, HipError>, call: &str) -> Result<T> {
        result.map_err(|e| hip_status(self.hip.as_ref(), e, call))
    }

    /// `hipGetDeviceCount`. ROCm answers `hipErrorNoDevice` when there is no
    /// GPU; that is a count of 0 here (so the default path reports IREE's
    /// "no compatible HIP devices were found" and enumeration is empty),
    /// where IREE fails the query. A negative count is `INTERNAL`.
    pub fn device_count(&self) -> Result<u32> {
        let count = match self.hip.get_device_count() {
            Err(HipError::NoDevice) => 0,
            other => self.call(other, "hipGetDeviceCount")?,
        };
        u32::try_from(count).map_err(|_| {
            status!(
                Internal,
                "hipGetDeviceCount returned a negative count ({count})"
            )
        })
    }

    fn device_at(&self, ordinal: i32) -> Result<HipDevice> {
        self.call(self.hip.device_get(ordinal), "hipDeviceGet")
    }

    fn uuid_of(&self, device: HipDevice) -> Result<DeviceUuid> {
        self.call(self.hip.device_get_uuid(device), "hipDeviceGetUuid")
            .map(|u| DeviceUuid(u.0))
    }

    fn id_of(device: HipDevice) -> Result<DeviceId> {
        DeviceId::from_device(device).ok_or_else(|| {
            status!(
                Internal,
                "hipDeviceGet returned a negative device handle ({})",
                device.raw()
            )
        })
    }

    /// Every device: id, path and name (IREE's `query_available_devices`).
    /// The first failing call fails the whole query.
    pub fn query_available_devices(&self) -> Result<Vec<DeviceInfo>> {
        let count = self.device_count()?;
        let mut infos = Vec::with_capacity((count as usize).min(ENUMERATION_RESERVE));
        for ordinal in 0..count as i32 {
            let device = self.device_at(ordinal)?;
            let name = self.call(
                self.hip.device_get_name(device, HIP_MAX_DEVICE_NAME_LENGTH),
                "hipDeviceGetName",
            )?;
            let uuid = self.uuid_of(device)?;
            infos.push(DeviceInfo {
                device_id: Self::id_of(device)?,
                ordinal,
                device,
                path: uuid.path(),
                uuid,
                name: truncate_name(name),
            });
        }
        Ok(infos)
    }

    /// The device facts IREE's `dump_device_info` prints (see
    /// [`super::dump`]). Without the optional `hipGetDeviceProperties`
    /// (the runtime answers `hipErrorNotSupported` or
    /// `hipErrorSharedObjectSymbolNotFound`), the facts come from
    /// `hipDeviceGetAttribute` instead; IREE would call a NULL pointer.
    pub fn dump_device_info(&self, id: DeviceId) -> Result<String> {
        let device = self.device_of_id(id)?;
        let facts = match self.device_properties(device)? {
            Some(props) => DumpFacts {
                props,
                from_properties_call: true,
            },
            None => DumpFacts {
                props: self.props_from_attributes(device)?,
                from_properties_call: false,
            },
        };
        let mut out = String::new();
        format_device_info(&mut out, self.library_path(), &facts);
        Ok(out)
    }

    /// `hipGetDeviceProperties`, or `None` when the runtime lacks this
    /// optional call (`hipErrorNotSupported` or
    /// `hipErrorSharedObjectSymbolNotFound`).
    pub fn device_properties(&self, device: HipDevice) -> Result<Option<HipDeviceProps>> {
        match self.hip.get_device_properties(device.raw()) {
            Ok(props) => Ok(Some(props)),
            Err(HipError::NotSupported | HipError::SharedObjectSymbolNotFound) => Ok(None),
            Err(e) => Err(hip_status(self.hip.as_ref(), e, "hipGetDeviceProperties")),
        }
    }

    fn props_from_attributes(&self, device: HipDevice) -> Result<HipDeviceProps> {
        use HipDeviceAttribute as A;
        let get = |a: A| {
            self.call(
                self.hip.device_get_attribute(a, device.raw()),
                "hipDeviceGetAttribute",
            )
        };
        let bytes = |a: A| get(a).map(|v| u64::try_from(v).unwrap_or(0));
        Ok(HipDeviceProps {
            major: get(A::ComputeCapabilityMajor)?,
            minor: get(A::ComputeCapabilityMinor)?,
            max_threads_dim: [
                get(A::MaxBlockDimX)?,
                get(A::MaxBlockDimY)?,
                get(A::MaxBlockDimZ)?,
            ],
            max_threads_per_block: get(A::MaxThreadsPerBlock)?,
            regs_per_block: get(A::MaxRegistersPerBlock)?,
            shared_mem_per_block: bytes(A::MaxSharedMemoryPerBlock)?,
            integrated: get(A::Integrated)?,
            managed_memory: get(A::ManagedMemory)?,
            total_const_mem: bytes(A::TotalConstantMemory)?,
            l2_cache_size: get(A::L2CacheSize)?,
            multi_processor_count: get(A::MultiprocessorCount)?,
            clock_rate: get(A::ClockRate)?,
            memory_clock_rate: get(A::MemoryClockRate)?,
            warp_size: get(A::WarpSize)?,
            ..HipDeviceProps::default()
        })
    }

    /// The HIP device of an id: the default device for
    /// [`DeviceId::DEFAULT`], otherwise checked against the device count
    /// (IREE trusts explicit ids unchecked).
    pub fn device_of_id(&self, id: DeviceId) -> Result<HipDevice> {
        if id == DeviceId::DEFAULT {
            return self.select_default_device();
        }
        let count = self.device_count()?;
        match id.device() {
            Some(device) if (device.raw() as u32) < count => Ok(device),
            _ => Err(status!(
                NotFound,
                "device id {} not found (of {count} enumerated)",
                id.0
            )),
        }
    }

    /// IREE's `select_default_device`: the device at the default index of a
    /// full enumeration.
    pub fn select_default_device(&self) -> Result<HipDevice> {
        let infos = self.query_available_devices()?;
        if infos.is_empty() {
            return Err(Status::unavailable("no compatible HIP devices were found"));
        }
        let index = self.options.default_device_index;
        infos
            .get(index as usize)
            .map(|info| info.device)
            .ok_or_else(|| {
                status!(
                    NotFound,
                    "default device {index} not found (of {} enumerated)",
                    infos.len()
                )
            })
    }

    /// The device id one path entry names (IREE's `get_device_id_by_path`).
    pub fn device_id_by_spec(&self, spec: &DeviceSpec) -> Result<DeviceId> {
        Self::id_of(self.device_by_spec(spec)?)
    }

    /// The HIP device one path entry names: a HIP UUID scan, an HSA UUID
    /// scan, or an index checked against the device count.
    ///
    /// IREE's scan stops at the first match, so two devices reporting the
    /// same UUID (GPUs without a unique id, or a broken runtime) would make
    /// the path silently name the first. Both scans read every device and
    /// refuse such a path, as ROCr refuses a `ROCR_VISIBLE_DEVICES` UUID that
    /// matches two or more devices (`amd_filter_device.h`); an index still
    /// names either device.
    pub fn device_by_spec(&self, spec: &DeviceSpec) -> Result<HipDevice> {
        match *spec {
            DeviceSpec::Uuid(uuid) => {
                let count = self.device_count()?;
                let mut found: Option<(i32, HipDevice)> = None;
                for ordinal in 0..count as i32 {
                    let device = self.device_at(ordinal)?;
                    if self.uuid_of(device)? != uuid {
                        continue;
                    }
                    if let Some((first, _)) = found {
                        return Err(status!(
                            FailedPrecondition,
                            "HIP UUID {} is reported by devices {first} and {ordinal}; a UUID path must name one device (select it by index)",
                            uuid.path()
                        ));
                    }
                    found = Some((ordinal, device));
                }
                found.map(|(_, device)| device).ok_or_else(|| {
                    status!(NotFound, "HIP device with UUID {} not found", uuid.path())
                })
            }
            DeviceSpec::AgentUuid(agent) => {
                let count = self.device_count()?;
                let mut found = None;
                for ordinal in 0..count as i32 {
                    let device = self.device_at(ordinal)?;
                    if self.uuid_of(device)?.agent_uuid() == agent {
                        if found.is_some() {
                            return Err(status!(
                                InvalidArgument,
                                "HSA UUID {agent} matches more than one HIP device; use the HIP path"
                            ));
                        }
                        found = Some(device);
                    }
                }
                found.ok_or_else(|| status!(NotFound, "HIP device with HSA UUID {agent} not found"))
            }
            DeviceSpec::Index(index) => {
                let count = self.device_count()?;
                if index >= count {
                    return Err(status!(
                        NotFound,
                        "device {index} not found (of {count} enumerated)"
                    ));
                }
                self.device_at(index as i32)
            }
        }
    }

    /// The physical devices a path selects, in order: one for the empty
    /// path (the default device) or a single entry, one per entry for a
    /// list. The same device twice is `INVALID_ARGUMENT`.
    pub fn resolve_path(&self, path: &str) -> Result<Vec<HipDevice>> {
        let specs = match DevicePath::parse(path)? {
            DevicePath::Default => return Ok(vec![self.select_default_device()?]),
            DevicePath::Single(spec) => vec![spec],
            DevicePath::List(specs) => specs,
        };
        let devices = specs
            .iter()
            .map(|spec| self.device_by_spec(spec))
            .collect::<Result<Vec<_>>>()?;
        check_distinct(&devices)?;
        Ok(devices)
    }

    /// Checks a list of explicit ids (IREE's `create_multi_queue_device_by_ids`
    /// rules, plus: known ids only, no device twice) and maps them to devices.
    fn devices_of_ids(&self, ids: &[DeviceId]) -> Result<Vec<HipDevice>> {
        if ids.len() > MAX_PHYSICAL_DEVICES {
            return Err(status!(
                InvalidArgument,
                "too many physical devices allocated for this logical device ({} > {MAX_PHYSICAL_DEVICES})",
                ids.len()
            ));
        }
        if ids.contains(&DeviceId::DEFAULT) {
            return Err(Status::invalid_argument(
                "invalid to create a device group with the default device id",
            ));
        }
        let devices = ids
            .iter()
            .map(|&id| self.device_of_id(id))
            .collect::<Result<Vec<_>>>()?;
        check_distinct(&devices)?;
        Ok(devices)
    }

    /// Creates the logical device a path names (IREE's
    /// `create_device_by_path`); `params` are IREE's per-device pairs
    /// (`hip_external_stream`, single-device only).
    pub fn create_device_by_path(
        &self,
        path: &str,
        params: &[(&str, &str)],
    ) -> Result<HipLogicalDevice> {
        let devices = self.resolve_path(path)?;
        self.create_logical(devices, params)
    }

    /// Creates a single-device logical device by id (IREE's `create_device_by_id`).
    pub fn create_device_by_id(
        &self,
        id: DeviceId,
        params: &[(&str, &str)],
    ) -> Result<HipLogicalDevice> {
        let device = self.device_of_id(id)?;
        self.create_logical(vec![device], params)
    }

    /// Creates one logical device over several physical devices by id;
    /// the default id is `INVALID_ARGUMENT` here, as in IREE.
    pub fn create_multi_device_by_ids(&self, ids: &[DeviceId]) -> Result<HipLogicalDevice> {
        let devices = self.devices_of_ids(ids)?;
        self.create_logical(devices, &[])
    }

    pub(crate) fn create_logical(
        &self,
        devices: Vec<HipDevice>,
        params: &[(&str, &str)],
    ) -> Result<HipLogicalDevice> {
        let mut device_params = self.device_params.clone();
        if let Some(stream) = parse_create_params(params.iter().copied())? {
            if devices.len() > 1 {
                return Err(Status::invalid_argument(
                    "hip_external_stream applies to a single physical device, not a logical device over several",
                ));
            }
            device_params.external_stream = Some(stream);
        }
        let mut device = HipLogicalDevice::create(
            Arc::clone(&self.hip),
            &devices,
            device_params,
            self.collectives.clone(),
        )?;
        if !self.numa_nodes.is_empty() {
            device.assign_numa_nodes(|uuid| {
                self.numa_nodes
                    .iter()
                    .find(|(u, _)| u == uuid)
                    .map(|(_, n)| *n)
            });
        }
        Ok(device)
    }
}

/// A name as IREE's 128-byte `hipDeviceGetName` buffer holds it: at most
/// 127 bytes, cut on a character boundary.
fn truncate_name(mut name: String) -> String {
    let max = HIP_MAX_DEVICE_NAME_LENGTH - 1;
    if name.len() > max {
        let mut cut = max;
        while !name.is_char_boundary(cut) {
            cut -= 1;
        }
        name.truncate(cut);
    }
    name
}

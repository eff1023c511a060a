//! A loaded executable: its HSA executable, per-device kernel-args tables and
//! dispatch descriptors, reflection, and the lookups over them. Every lookup
//! is O(1) (index or hash probe). Dropping it frees every device table and
//! destroys the HSA executable.

use std::sync::Arc;

use crate::amdgpu::dispatch::DispatchDescriptor;
use crate::amdgpu::kernarg::{DEVICE_KERNEL_ARGS_SIZE, KernelArgs};
use crate::amdgpu::profile::Hash128;
use crate::amdgpu::queue_affinity::{QUEUE_AFFINITY_ANY, QueueAffinity, QueueAffinityDomain};
use crate::backend::{
    Agent, CallResultExt, DevicePtr, Executable as HsaExecutable, Hsa, HsaExt, SymbolKind,
};
use crate::status::Result;

use super::plan::{Container, check_symbol_name};
use super::reflection::{ExportInfo, Parameter, Reflection, export_out_of_range};

/// The tables of one loaded device.
#[derive(Clone, Debug)]
pub(crate) struct DeviceTables {
    /// The kernel-args table in the agent's coarse-grained pool (`None` with no exports).
    pub(crate) kernel_args_table: Option<DevicePtr>,
    /// One descriptor per export (its kernel args carry this device's kernel object).
    pub(crate) descriptors: Vec<DispatchDescriptor>,
}

/// An export's kernel args as uploaded to one device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceKernelArgs {
    /// Device address of the 40-byte record in the device's table.
    pub address: DevicePtr,
    /// The record's contents.
    pub kernel_args: KernelArgs,
}

/// A device global of an executable: its address and size on one device.
/// Holds the executable alive (IREE's buffer release callback).
#[derive(Clone, Debug)]
pub struct GlobalBuffer {
    executable: Arc<Executable>,
    /// Device address of the variable.
    pub address: DevicePtr,
    /// Bytes of the variable.
    pub size: u64,
    /// The queues (of one physical device) the buffer is placed for.
    pub queue_affinity: QueueAffinity,
    /// The physical device holding this copy.
    pub physical_device_ordinal: usize,
}

impl GlobalBuffer {
    /// The executable this global belongs to.
    pub fn executable(&self) -> &Arc<Executable> {
        &self.executable
    }
}

/// A loaded AMDGPU executable (`iree_hal_amdgpu_executable_t`). `Send + Sync`;
/// share it with `Arc`.
pub struct Executable {
    pub(crate) hsa: Arc<dyn Hsa>,
    pub(crate) handle: Option<HsaExecutable>,
    pub(crate) container: Container,
    pub(crate) profile_id: u64,
    pub(crate) code_object_hash: Hash128,
    pub(crate) reflection: Reflection,
    pub(crate) symbols: Vec<String>,
    pub(crate) code_object_kernarg_alignments: Vec<u32>,
    pub(crate) host_kernel_args: Vec<KernelArgs>,
    pub(crate) queue_affinity: QueueAffinity,
    pub(crate) queue_affinity_domain: QueueAffinityDomain,
    pub(crate) loaded_device_mask: u64,
    pub(crate) device_agents: Vec<Agent>,
    pub(crate) devices: Vec<Option<DeviceTables>>,
}

impl std::fmt::Debug for Executable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Executable")
            .field("handle", &self.handle)
            .field("container", &self.container)
            .field("profile_id", &self.profile_id)
            .field("exports", &self.reflection.export_count())
            .field(
                "queue_affinity",
                &format_args!("0x{:x}", self.queue_affinity),
            )
            .field(
                "loaded_device_mask",
                &format_args!("0x{:x}", self.loaded_device_mask),
            )
            .finish_non_exhaustive()
    }
}

impl Executable {
    /// The container the executable was created from.
    pub fn container(&self) -> Container {
        self.container
    }

    /// The profile-registry id of the executable.
    pub fn profile_id(&self) -> u64 {
        self.profile_id
    }

    /// The 128-bit hash of the exact code-object bytes.
    pub fn code_object_hash(&self) -> Hash128 {
        self.code_object_hash
    }

    /// The HSA executable handle.
    pub fn hsa_executable(&self) -> Option<HsaExecutable> {
        self.handle
    }

    /// The normalized queue affinity the executable was loaded for.
    pub fn queue_affinity(&self) -> QueueAffinity {
        self.queue_affinity
    }

    /// Bit `d` set for each physical device the code object is loaded on.
    pub fn loaded_device_mask(&self) -> u64 {
        self.loaded_device_mask
    }

    /// The physical device ordinals the code object is loaded on, ascending.
    pub fn loaded_devices(&self) -> Vec<usize> {
        (0..self.devices.len())
            .filter(|d| self.devices.get(*d).is_some_and(Option::is_some))
            .collect()
    }

    /// Physical devices of the topology the executable was created on.
    pub fn device_count(&self) -> usize {
        self.device_agents.len()
    }

    /// The reflection of all exports.
    pub fn reflection(&self) -> &Reflection {
        &self.reflection
    }

    /// Number of exports.
    pub fn export_count(&self) -> usize {
        self.reflection.export_count()
    }

    /// The info of export `ordinal`.
    pub fn export_info(&self, ordinal: u64) -> Result<&ExportInfo> {
        self.reflection.export_info(ordinal)
    }

    /// The reflected parameters of export `ordinal`.
    pub fn export_parameters(&self, ordinal: u64) -> Result<&[Parameter]> {
        self.reflection.export_parameters(ordinal)
    }

    /// The ordinal of the export named `name` (O(1)).
    pub fn lookup_export_by_name(&self, name: &str) -> Result<u32> {
        self.reflection.lookup_export_by_name(name)
    }

    /// The loader symbol of export `ordinal` (`name.kd`).
    pub fn export_symbol(&self, ordinal: u64) -> Result<&str> {
        self.index(ordinal).and_then(|i| {
            self.symbols
                .get(i)
                .map(String::as_str)
                .ok_or_else(|| self.oor(ordinal))
        })
    }

    /// Export `ordinal`'s kernarg segment alignment as its code object
    /// declares it (`.kernarg_segment_align`, what `inspect` shows). The
    /// HSA loader's own number, which the kernel-args records carry, is
    /// [`Self::kernel_args_for_host`]'s `kernarg_alignment` (ROCr reports a
    /// fixed 16 for code object V3+ kernels, `loader/executable.cpp`).
    pub fn export_code_object_kernarg_alignment(&self, ordinal: u64) -> Result<u32> {
        let i = self.index(ordinal)?;
        self.code_object_kernarg_alignments
            .get(i)
            .copied()
            .ok_or_else(|| self.oor(ordinal))
    }

    fn oor(&self, ordinal: u64) -> crate::Status {
        export_out_of_range(ordinal, self.export_count())
    }

    fn index(&self, ordinal: u64) -> Result<usize> {
        usize::try_from(ordinal)
            .ok()
            .filter(|&i| i < self.export_count())
            .ok_or_else(|| self.oor(ordinal))
    }

    /// The host copy of export `ordinal`'s kernel args. Valid except for
    /// `kernel_object`, which is per device and 0 here.
    pub fn kernel_args_for_host(&self, ordinal: u64) -> Result<&KernelArgs> {
        let i = self.index(ordinal)?;
        self.host_kernel_args
            .get(i)
            .ok_or_else(|| self.oor(ordinal))
    }

    fn device(&self, ordinal: u64, device_ordinal: usize) -> Result<(usize, &DeviceTables)> {
        let i = self.index(ordinal)?;
        if device_ordinal >= self.device_count() {
            return Err(crate::status!(
                OutOfRange,
                "device ordinal {device_ordinal} out of range; executable topology has {} physical devices",
                self.device_count()
            ));
        }
        match self.devices.get(device_ordinal) {
            Some(Some(tables)) => Ok((i, tables)),
            _ => Err(crate::status!(
                FailedPrecondition,
                "device ordinal {device_ordinal} is not in executable queue affinity 0x{:x}",
                self.queue_affinity
            )),
        }
    }

    /// Export `ordinal`'s kernel args on device `device_ordinal`: the device
    /// address of its record and the record. `OUT_OF_RANGE` for a bad export
    /// or device, `FAILED_PRECONDITION` for a device it is not loaded on.
    pub fn kernel_args_for_device(
        &self,
        ordinal: u64,
        device_ordinal: usize,
    ) -> Result<DeviceKernelArgs> {
        let (i, tables) = self.device(ordinal, device_ordinal)?;
        let descriptor = tables.descriptors.get(i).ok_or_else(|| self.oor(ordinal))?;
        let address = tables
            .kernel_args_table
            .and_then(|table| table.checked_add((i * DEVICE_KERNEL_ARGS_SIZE) as u64))
            .ok_or_else(|| crate::Status::internal("device kernel-args table missing"))?;
        Ok(DeviceKernelArgs {
            address,
            kernel_args: descriptor.kernel_args,
        })
    }

    /// The dispatch descriptor of export `ordinal` on device `device_ordinal`
    /// (same errors as [`Executable::kernel_args_for_device`]).
    pub fn dispatch_descriptor(
        &self,
        ordinal: u64,
        device_ordinal: usize,
    ) -> Result<&DispatchDescriptor> {
        let (i, tables) = self.device(ordinal, device_ordinal)?;
        tables.descriptors.get(i).ok_or_else(|| self.oor(ordinal))
    }

    /// The kernel-args table of device `device_ordinal`, if loaded there and non-empty.
    pub fn kernel_args_table(&self, device_ordinal: usize) -> Option<DevicePtr> {
        self.devices
            .get(device_ordinal)
            .and_then(Option::as_ref)
            .and_then(|t| t.kernel_args_table)
    }

    /// The device global `name` on the one physical device `queue_affinity`
    /// selects (0 means any): the symbol must be a variable (`NOT_FOUND`
    /// otherwise). The returned buffer keeps the executable alive.
    pub fn lookup_global_by_name(
        self: &Arc<Self>,
        name: &str,
        queue_affinity: QueueAffinity,
    ) -> Result<GlobalBuffer> {
        let requested = if queue_affinity == 0 {
            QUEUE_AFFINITY_ANY
        } else {
            queue_affinity
        };
        let (selected, device) = self
            .queue_affinity_domain
            .normalize_for_physical_device(requested)?;
        check_symbol_name("global", name)?;
        let handle = self
            .handle
            .ok_or_else(|| crate::Status::failed_precondition("executable is not loaded"))?;
        let agent = *self.device_agents.get(device).ok_or_else(|| {
            crate::status!(OutOfRange, "physical device ordinal {device} out of range")
        })?;
        let symbol = self
            .hsa
            .executable_get_symbol_by_name(handle, name, Some(agent))
            .call_status("hsa_executable_get_symbol_by_name")?;
        let kind = self
            .hsa
            .symbol_kind(symbol)
            .call_status("hsa_executable_symbol_get_info")?;
        if kind != SymbolKind::Variable {
            return Err(crate::status!(
                NotFound,
                "executable global `{name}` not found"
            ));
        }
        let address = self
            .hsa
            .symbol_variable_address(symbol)
            .call_status("hsa_executable_symbol_get_info")?;
        let size = self
            .hsa
            .symbol_variable_size(symbol)
            .call_status("hsa_executable_symbol_get_info")?;
        Ok(GlobalBuffer {
            executable: Arc::clone(self),
            address: DevicePtr(address),
            size: u64::from(size),
            queue_affinity: selected,
            physical_device_ordinal: device,
        })
    }

    /// Frees every device table and destroys the HSA executable, joining
    /// every failure (all steps run). Idempotent; `Drop` calls it.
    pub(crate) fn release(&mut self) -> Result<()> {
        let mut result: Result<()> = Ok(());
        for tables in self.devices.iter_mut().flatten() {
            if let Some(table) = tables.kernel_args_table.take() {
                let freed = self
                    .hsa
                    .memory_pool_free(table)
                    .call_status("hsa_amd_memory_pool_free");
                result = Status::join_results(result, freed);
            }
        }
        if let Some(handle) = self.handle.take() {
            let destroyed = self
                .hsa
                .executable_destroy(handle)
                .call_status("hsa_executable_destroy");
            result = Status::join_results(result, destroyed);
        }
        result
    }
}

use crate::status::Status;

impl Drop for Executable {
    fn drop(&mut self) {
        if let Err(status) = self.release() {
            tracing::warn!(%status, "releasing executable resources failed");
        }
    }
}

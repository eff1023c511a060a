//! [`Hip`] over the real `libamdhip64` ([`HipLibrary`]) and over the CUDA
//! driver ([`CudaHip`], HIP's NVIDIA platform), and [`Ccl`] over RCCL/NCCL.

use super::cuda::CudaHip;
use super::hip::HipLibrary;
use amdgpu_sys::hip_error::hipError_t;
use amdgpu_sys::hip_types::hipDeviceProp_tR0000;

use super::hip::c_chars_to_string;
use super::nccl::NcclLibrary;
use crate::backend::{
    Ccl, CclError, Hip, HipDevice, HipDeviceAttribute, HipDeviceProps, HipError, HipP2pAttribute,
    HipResult, HipUuid,
};

fn error(raw: hipError_t) -> HipError {
    HipError::from_raw(raw).unwrap_or(HipError::Other(raw))
}

/// The trait's properties from the C struct (either platform fills it).
pub(crate) fn props_from_c(props: &hipDeviceProp_tR0000) -> HipDeviceProps {
    HipDeviceProps {
        name: c_chars_to_string(&props.name),
        gcn_arch_name: c_chars_to_string(&props.gcnArchName),
        total_global_mem: props.totalGlobalMem as u64,
        shared_mem_per_block: props.sharedMemPerBlock as u64,
        regs_per_block: props.regsPerBlock,
        warp_size: props.warpSize,
        max_threads_per_block: props.maxThreadsPerBlock,
        max_threads_dim: props.maxThreadsDim,
        max_grid_size: props.maxGridSize,
        clock_rate: props.clockRate,
        memory_clock_rate: props.memoryClockRate,
        memory_bus_width: props.memoryBusWidth,
        total_const_mem: props.totalConstMem as u64,
        major: props.major,
        minor: props.minor,
        multi_processor_count: props.multiProcessorCount,
        l2_cache_size: props.l2CacheSize,
        max_threads_per_multi_processor: props.maxThreadsPerMultiProcessor,
        pci_domain_id: props.pciDomainID,
        pci_bus_id: props.pciBusID,
        pci_device_id: props.pciDeviceID,
        is_multi_gpu_board: props.isMultiGpuBoard,
        integrated: props.integrated,
        managed_memory: props.managedMemory,
        ecc_enabled: props.ECCEnabled,
    }
}

macro_rules! impl_hip {
    ($ty:ty) => {
        impl Hip for $ty {
            fn init(&self, flags: u32) -> HipResult<()> {
                <$ty>::init(self, flags).map_err(error)
            }
            fn driver_get_version(&self) -> HipResult<i32> {
                <$ty>::driver_get_version(self).map_err(error)
            }
            fn runtime_get_version(&self) -> HipResult<i32> {
                <$ty>::runtime_get_version(self).map_err(error)
            }
            fn get_device_count(&self) -> HipResult<i32> {
                <$ty>::get_device_count(self).map_err(error)
            }
            fn device_get(&self, ordinal: i32) -> HipResult<HipDevice> {
                <$ty>::device_get(self, ordinal)
                    .map(HipDevice)
                    .map_err(error)
            }
            fn device_get_name(&self, device: HipDevice, len: usize) -> HipResult<String> {
                <$ty>::device_get_name(self, device.0, len).map_err(error)
            }
            fn device_get_uuid(&self, device: HipDevice) -> HipResult<HipUuid> {
                <$ty>::device_get_uuid(self, device.0)
                    .map(HipUuid)
                    .map_err(error)
            }
            fn get_device_properties(&self, ordinal: i32) -> HipResult<HipDeviceProps> {
                <$ty>::get_device_properties(self, ordinal)
                    .map(|p| props_from_c(&p))
                    .map_err(error)
            }
            fn device_get_attribute(
                &self,
                attribute: HipDeviceAttribute,
                ordinal: i32,
            ) -> HipResult<i32> {
                <$ty>::device_get_attribute(self, attribute.raw(), ordinal).map_err(error)
            }
            fn device_can_access_peer(&self, ordinal: i32, peer_ordinal: i32) -> HipResult<bool> {
                <$ty>::device_can_access_peer(self, ordinal, peer_ordinal).map_err(error)
            }
            fn set_device(&self, ordinal: i32) -> HipResult<()> {
                <$ty>::set_device(self, ordinal).map_err(error)
            }
            fn device_enable_peer_access(&self, peer_ordinal: i32, flags: u32) -> HipResult<()> {
                <$ty>::device_enable_peer_access(self, peer_ordinal, flags).map_err(error)
            }
            fn device_get_p2p_attribute(
                &self,
                attribute: HipP2pAttribute,
                src: i32,
                dst: i32,
            ) -> HipResult<i32> {
                <$ty>::device_get_p2p_attribute(self, attribute.raw(), src, dst).map_err(error)
            }
            fn get_error_name(&self, error: HipError) -> String {
                <$ty>::get_error_name(self, error.raw())
            }
            fn get_error_string(&self, error: HipError) -> String {
                <$ty>::get_error_string(self, error.raw())
            }
        }
    };
}

impl_hip!(HipLibrary);
impl_hip!(CudaHip);

impl Ccl for NcclLibrary {
    fn get_version(&self) -> Result<i32, CclError> {
        NcclLibrary::get_version(self)
            .map_err(|raw| CclError::from_raw(raw).unwrap_or(CclError::Other(raw)))
    }
}

//! Typed values of the HIP queries: `hipUUID`, the device-properties struct
//! (the fields of `hipDeviceProp_t` the driver reads — every one the seed's
//! `dump_device_info` prints, plus PCI location and limits); the device and
//! peer-to-peer attributes are `amdgpu-sys`'s.

pub use amdgpu_sys::hip_types::{HipDeviceAttribute, HipP2pAttribute};

/// `hipUUID`: the 16 raw bytes `hipDeviceGetUuid` returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HipUuid(pub [u8; 16]);

impl HipUuid {
    /// The bytes.
    pub const fn bytes(&self) -> &[u8; 16] {
        &self.0
    }

    /// IREE's device path: `GPU-` + 8-4-4-4-12 lowercase hex of the bytes in order.
    pub fn device_path(&self) -> String {
        let b = &self.0;
        format!(
            "GPU-{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}",
            b[0],
            b[1],
            b[2],
            b[3],
            b[4],
            b[5],
            b[6],
            b[7],
            b[8],
            b[9],
            b[10],
            b[11],
            b[12],
            b[13],
            b[14],
            b[15]
        )
    }
}

/// The fields of `hipDeviceProp_t` (the pre-6.0 `R0000` layout IREE reads)
/// that the HAL uses. Units are HIP's: bytes, kHz, bits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HipDeviceProps {
    /// `name`: the marketing name, e.g. `AMD Instinct MI300X`.
    pub name: String,
    /// `gcnArchName`: the target ID, e.g. `gfx942:sramecc+:xnack-`.
    pub gcn_arch_name: String,
    /// `totalGlobalMem` (bytes).
    pub total_global_mem: u64,
    /// `sharedMemPerBlock` (bytes of LDS per workgroup).
    pub shared_mem_per_block: u64,
    /// `regsPerBlock`: 32-bit registers per block.
    pub regs_per_block: i32,
    /// `warpSize` (wavefront size: 64 on CDNA, 32 on RDNA).
    pub warp_size: i32,
    /// `maxThreadsPerBlock`.
    pub max_threads_per_block: i32,
    /// `maxThreadsDim[3]`.
    pub max_threads_dim: [i32; 3],
    /// `maxGridSize[3]`.
    pub max_grid_size: [i32; 3],
    /// `clockRate` (kHz).
    pub clock_rate: i32,
    /// `memoryClockRate` (kHz).
    pub memory_clock_rate: i32,
    /// `memoryBusWidth` (bits).
    pub memory_bus_width: i32,
    /// `totalConstMem` (bytes).
    pub total_const_mem: u64,
    /// `major` compute capability (HIP's approximation; 9 for gfx9xx).
    pub major: i32,
    /// `minor` compute capability.
    pub minor: i32,
    /// `multiProcessorCount`: compute units.
    pub multi_processor_count: i32,
    /// `l2CacheSize` (bytes).
    pub l2_cache_size: i32,
    /// `maxThreadsPerMultiProcessor`.
    pub max_threads_per_multi_processor: i32,
    /// `pciDomainID`.
    pub pci_domain_id: i32,
    /// `pciBusID`.
    pub pci_bus_id: i32,
    /// `pciDeviceID`.
    pub pci_device_id: i32,
    /// `isMultiGpuBoard`.
    pub is_multi_gpu_board: i32,
    /// `integrated`: 1 for an APU.
    pub integrated: i32,
    /// `managedMemory`: managed (unified) allocations supported.
    pub managed_memory: i32,
    /// `ECCEnabled`.
    pub ecc_enabled: i32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid_path_is_lowercase_8_4_4_4_12() {
        let uuid = HipUuid([
            0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd,
            0xee, 0xff,
        ]);
        assert_eq!(
            uuid.device_path(),
            "GPU-00112233-4455-6677-8899-aabbccddeeff"
        );
        assert_eq!(uuid.device_path().len(), 40);
    }
}

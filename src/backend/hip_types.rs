//! Typed values of the HIP queries: `hipUUID`, the device-properties struct
//! (the fields of `hipDeviceProp_t` the driver reads — every one the seed's
//! `dump_device_info` prints, plus PCI location and limits); the device and
//! peer-to-peer attributes are `amdgpu-sys`'s.

pub use amdgpu_sys::hip_types::{HipDeviceAttribute, HipDeviceProps, HipP2pAttribute};

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

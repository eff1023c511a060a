//! HIP device UUIDs and their `GPU-` path form.

use std::fmt;

use super::text::parse_hex_bytes;

/// The prefix of a UUID device path (case-sensitive, as in IREE).
pub const UUID_PATH_PREFIX: &str = "GPU-";

/// Length of a formatted UUID path: `GPU-` + 8-4-4-4-12 hex digits.
pub const UUID_PATH_LEN: usize = 40;

/// The 16 bytes `hipDeviceGetUuid` returns for a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct DeviceUuid(pub [u8; 16]);

impl DeviceUuid {
    /// The device path of this UUID: `GPU-` + lowercase 8-4-4-4-12 hex
    /// (IREE's `%02x` format, 40 characters).
    pub fn path(&self) -> String {
        let mut out = String::with_capacity(UUID_PATH_LEN);
        out.push_str(UUID_PATH_PREFIX);
        for (i, &byte) in self.0.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                out.push('-');
            }
            // Both nibbles are < 16, so both digits exist.
            for nibble in [byte >> 4, byte & 0x0f] {
                out.extend(char::from_digit(u32::from(nibble), 16));
            }
        }
        out
    }

    /// Parses the text after `GPU-` with IREE's hex rules
    /// ([`parse_hex_bytes`]): `00112233-4455-6677-8899-aabbccddeeff` and
    /// `00112233445566778899AABBCCDDEEFF` are the same UUID.
    pub fn parse_hex(text: &str) -> Option<DeviceUuid> {
        parse_hex_bytes::<16>(text).map(DeviceUuid)
    }

    /// The raw bytes.
    pub fn bytes(&self) -> &[u8; 16] {
        &self.0
    }
}

impl fmt::Display for DeviceUuid {
    /// Formats as the device path, `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.path())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_iree() {
        let uuid = DeviceUuid([
            0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd,
            0xee, 0xff,
        ]);
        assert_eq!(uuid.path(), "GPU-00112233-4455-6677-8899-aabbccddeeff");
        assert_eq!(uuid.path().len(), UUID_PATH_LEN);
        assert_eq!(
            DeviceUuid::parse_hex("00112233-4455-6677-8899-aabbccddeeff"),
            Some(uuid)
        );
        assert_eq!(
            DeviceUuid::parse_hex("00112233445566778899AABBCCDDEEFF"),
            Some(uuid)
        );
        assert_eq!(DeviceUuid::parse_hex("00112233"), None);
    }
}

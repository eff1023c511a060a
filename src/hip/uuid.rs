//! HIP device UUIDs and their `GPU-` path form, and the HSA agent UUID of
//! the same device (`GPU-<16 hex>`, what rocminfo and `devices` print).
//!
//! ROCm's `hipDeviceGetUuid` returns the 16 hex digits of the HSA agent
//! UUID as ASCII bytes, so one device has two spellings:
//! `GPU-8af705259683161c` (HSA) and
//! `GPU-38616637-3035-3235-3936-383331363163` (HIP, IREE's path). On NVIDIA
//! the 16 bytes are binary and the HSA-style spelling is the first 8 bytes.

use std::fmt;

use super::text::{parse_hex_bytes, trim_c_space};

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

    /// The HSA agent UUID of this device (module docs): the 16 bytes read
    /// as hex digits when they all are (ROCm), else the first 8 bytes.
    pub fn agent_uuid(&self) -> AgentUuid {
        match parse_hex_bytes::<8>(std::str::from_utf8(&self.0).unwrap_or_default()) {
            Some(bytes) if self.0.iter().all(u8::is_ascii_hexdigit) => AgentUuid(bytes),
            _ => {
                let mut bytes = [0u8; 8];
                bytes.copy_from_slice(&self.0[..8]);
                AgentUuid(bytes)
            }
        }
    }
}

/// Number of hex digits after `GPU-` in an HSA agent UUID.
pub const AGENT_UUID_DIGITS: usize = 16;

/// An HSA agent UUID, `GPU-` + 16 hex digits (8 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct AgentUuid(pub [u8; 8]);

impl AgentUuid {
    /// Parses the text after `GPU-`: exactly 16 hex digits, either case, no
    /// separators (HSA prints none); surrounding whitespace is ignored, as
    /// IREE's hex rule ignores it around a HIP UUID.
    pub fn parse_digits(text: &str) -> Option<AgentUuid> {
        let text = trim_c_space(text);
        if text.len() != AGENT_UUID_DIGITS || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        parse_hex_bytes::<8>(text).map(AgentUuid)
    }

    /// The HIP UUID ROCm reports for this agent: its 16 lowercase hex
    /// digits as ASCII bytes.
    pub fn rocm_device_uuid(&self) -> DeviceUuid {
        let mut bytes = [0u8; 16];
        for (pair, byte) in bytes.chunks_exact_mut(2).zip(self.0) {
            for (slot, nibble) in pair.iter_mut().zip([byte >> 4, byte & 0x0f]) {
                *slot = char::from_digit(u32::from(nibble), 16).map_or(b'0', |c| c as u8);
            }
        }
        DeviceUuid(bytes)
    }
}

impl fmt::Display for AgentUuid {
    /// `GPU-` + 16 lowercase hex digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(UUID_PATH_PREFIX)?;
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
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
        assert_eq!(uuid.to_string(), "GPU-00112233-4455-6677-8899-aabbccddeeff");
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

    /// rocminfo's `GPU-8af705259683161c` and the HIP path of the same
    /// MI300X (hipDeviceGetUuid's bytes are those digits in ASCII).
    #[test]
    fn hsa_and_hip_spellings_of_one_device() {
        let agent = AgentUuid::parse_digits("8af705259683161c").unwrap();
        assert_eq!(agent.to_string(), "GPU-8af705259683161c");
        let hip = agent.rocm_device_uuid();
        assert_eq!(hip.bytes(), b"8af705259683161c");
        assert_eq!(hip.path(), "GPU-38616637-3035-3235-3936-383331363163");
        assert_eq!(hip.agent_uuid(), agent);
        assert_eq!(AgentUuid::parse_digits("8AF705259683161C"), Some(agent));
        for bad in [
            "8af70525968316",
            "8af705259683161c0",
            "8af70525-9683161c",
            "8af705259683161g",
        ] {
            assert_eq!(AgentUuid::parse_digits(bad), None, "{bad}");
        }
        // NVIDIA's binary bytes: the first 8.
        let cuda = DeviceUuid([
            0x42, 0x60, 0xbf, 0xb0, 0x64, 0x5d, 0x3c, 0xec, 0xf3, 0xd7, 0x76, 0x4b, 0xea, 0x0d,
            0xaa, 0x6c,
        ]);
        assert_eq!(cuda.agent_uuid().to_string(), "GPU-4260bfb0645d3cec");
    }
}

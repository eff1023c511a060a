//! The device path grammar of the HIP driver (`--device PATH`).
//!
//! ```text
//! path  := ""                      the default device (driver option `hip_default_index`)
//!        | entry                   one physical device
//!        | entry ("," entry)+      one logical device over several physical devices
//! entry := "GPU-" hex-uuid         16 bytes by IREE's hex rules (dashes/spaces optional)
//!        | "GPU-" 16*hexdigit      ours: the HSA agent UUID of the device (rocminfo's form)
//!        | index                   a device ordinal, decimal or 0x-hex
//! ```
//!
//! The HSA form is an extension IREE does not have: 16 digits are never a
//! valid IREE UUID (that needs 32), so every path IREE accepts means the same
//! here. It names the device whose HIP UUID is those digits in ASCII (ROCm)
//! or, for binary UUIDs (NVIDIA), starts with those 8 bytes
//! ([`DeviceUuid::agent_uuid`]).
//!
//! Parsing is pure: resolving entries to devices (and rejecting the same
//! device named twice) is the driver's job. IREE's messages are kept as the
//! first words of each error; the gaps IREE leaves are closed with
//! `INVALID_ARGUMENT`: negative indices, trailing characters after an index,
//! octal-looking leading zeros, empty list entries (including a trailing
//! comma, which IREE silently drops).

use crate::status;
use crate::status::{Result, Status};

use super::text::{looks_numeric, parse_int, trim_c_space};
use super::uuid::{AgentUuid, DeviceUuid, UUID_PATH_PREFIX};

/// At most this many physical devices form one logical device
/// (IREE's `IREE_HAL_MAX_QUEUES`).
pub const MAX_PHYSICAL_DEVICES: usize = 64;

/// The largest device index a path may name (HIP ordinals are `int`).
pub const MAX_DEVICE_INDEX: u32 = i32::MAX as u32;

/// Error messages quote at most this many characters of the user's path.
pub const MAX_QUOTED_CHARS: usize = 80;

/// One physical device named in a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceSpec {
    /// `GPU-<uuid>`: the device whose `hipDeviceGetUuid` matches.
    Uuid(DeviceUuid),
    /// `GPU-<16 hex>`: the device whose HSA agent UUID this is.
    AgentUuid(AgentUuid),
    /// A HIP device ordinal.
    Index(u32),
}

/// A parsed device path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DevicePath {
    /// The empty path: the driver's default device.
    Default,
    /// A single physical device.
    Single(DeviceSpec),
    /// A comma list: one logical device over these physical devices, in order
    /// (2..=[`MAX_PHYSICAL_DEVICES`] entries).
    List(Vec<DeviceSpec>),
}

/// `text` in single quotes, cut at [`MAX_QUOTED_CHARS`] characters, its
/// control characters escaped (`crate::escape::Escaped`).
pub(crate) fn quote(text: &str) -> String {
    use crate::escape::Escaped;
    match text.char_indices().nth(MAX_QUOTED_CHARS) {
        Some((cut, _)) => format!("'{}…'", Escaped(text.get(..cut).unwrap_or_default())),
        None => format!("'{}'", Escaped(text)),
    }
}

impl DevicePath {
    /// Parses a device path (see the module docs for the grammar).
    pub fn parse(path: &str) -> Result<DevicePath> {
        if path.is_empty() {
            return Ok(DevicePath::Default);
        }
        if !path.contains(',') {
            return DeviceSpec::parse(path).map(DevicePath::Single);
        }
        // Count before allocating: the bound holds whatever the input length.
        let entries = path.bytes().filter(|&b| b == b',').count() + 1;
        if entries > MAX_PHYSICAL_DEVICES {
            return Err(status!(
                InvalidArgument,
                "too many physical devices allocated for this logical device ({entries} > {MAX_PHYSICAL_DEVICES})"
            ));
        }
        let mut specs = Vec::with_capacity(entries);
        for (i, entry) in path.split(',').enumerate() {
            if trim_c_space(entry).is_empty() {
                return Err(status!(
                    InvalidArgument,
                    "empty entry {} in device list {}",
                    i + 1,
                    quote(path)
                ));
            }
            specs.push(DeviceSpec::parse(entry)?);
        }
        Ok(DevicePath::List(specs))
    }
}

impl DeviceSpec {
    /// Parses one list entry: `GPU-<uuid>` or an index. Surrounding
    /// whitespace is ignored (`"0, 1"` works).
    pub fn parse(entry: &str) -> Result<DeviceSpec> {
        let entry = trim_c_space(entry);
        if entry.is_empty() {
            return Err(Status::invalid_argument("device path entry is blank"));
        }
        if let Some(hex) = entry.strip_prefix(UUID_PATH_PREFIX) {
            return DeviceUuid::parse_hex(hex)
                .map(DeviceSpec::Uuid)
                .or_else(|| AgentUuid::parse_digits(hex).map(DeviceSpec::AgentUuid))
                .ok_or_else(|| {
                    status!(
                        InvalidArgument,
                        "invalid GPU UUID: {} (expected HIP's 32 hex digits, dashes optional, or HSA's 16)",
                        quote(hex)
                    )
                });
        }
        if looks_numeric(entry) {
            return parse_int(entry, 0, i64::from(MAX_DEVICE_INDEX))
                .map(|v| DeviceSpec::Index(v as u32))
                .map_err(|why| {
                    status!(
                        InvalidArgument,
                        "device path is not an index: {} ({why})",
                        quote(entry)
                    )
                });
        }
        Err(status!(
            Unimplemented,
            "unsupported device path: {} (expected a device index, GPU-<uuid>, or a comma-separated list of them)",
            quote(entry)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::StatusCode;

    fn err(path: &str) -> Status {
        DevicePath::parse(path).unwrap_err()
    }

    #[test]
    fn grammar() {
        assert_eq!(DevicePath::parse(""), Ok(DevicePath::Default));
        assert_eq!(
            DevicePath::parse("3"),
            Ok(DevicePath::Single(DeviceSpec::Index(3)))
        );
        assert_eq!(
            DevicePath::parse("0x1f"),
            Ok(DevicePath::Single(DeviceSpec::Index(31)))
        );
        let a = DevicePath::parse("GPU-00112233-4455-6677-8899-aabbccddeeff").unwrap();
        let b = DevicePath::parse("GPU-00112233445566778899AABBCCDDEEFF").unwrap();
        assert_eq!(a, b);
        assert_eq!(
            DevicePath::parse("1, GPU-00112233445566778899AABBCCDDEEFF ,0"),
            Ok(DevicePath::List(vec![
                DeviceSpec::Index(1),
                DeviceSpec::Uuid(DeviceUuid([
                    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc,
                    0xdd, 0xee, 0xff
                ])),
                DeviceSpec::Index(0),
            ]))
        );
    }

    #[test]
    fn errors_keep_iree_words_and_close_gaps() {
        let e = err("GPU-0011");
        assert_eq!(e.code(), StatusCode::InvalidArgument);
        assert_eq!(
            e.message(),
            "invalid GPU UUID: '0011' (expected HIP's 32 hex digits, dashes optional, or HSA's 16)"
        );
        for (path, why) in [
            ("-1", "negative"),
            ("1abc", "after the number"),
            ("010", "octal"),
            ("2147483648", "out of range"),
        ] {
            let e = err(path);
            assert_eq!(e.code(), StatusCode::InvalidArgument, "{path}");
            assert!(
                e.message().starts_with("device path is not an index"),
                "{e}"
            );
            assert!(e.message().contains(why), "{e}");
        }
        let e = err("gpu-00112233445566778899aabbccddeeff");
        assert_eq!(e.code(), StatusCode::Unimplemented);
        assert!(e.message().starts_with("unsupported device path"));
        assert_eq!(err("   ").code(), StatusCode::InvalidArgument);
        for path in ["0,,1", "0,1,", ",0", " , "] {
            let e = err(path);
            assert_eq!(e.code(), StatusCode::InvalidArgument, "{path}");
            assert!(e.message().starts_with("empty entry"), "{e}");
        }
        assert_eq!(err("0,1,").message(), "empty entry 3 in device list '0,1,'");
        let many = vec!["0"; MAX_PHYSICAL_DEVICES + 1].join(",");
        let e = err(&many);
        assert_eq!(e.code(), StatusCode::InvalidArgument);
        assert!(e.message().starts_with("too many physical devices"));
        let max = vec!["0"; MAX_PHYSICAL_DEVICES].join(",");
        assert!(matches!(DevicePath::parse(&max), Ok(DevicePath::List(v)) if v.len() == 64));
        // An entry error inside a list is the entry's own error.
        assert_eq!(err("0,xyz").code(), StatusCode::Unimplemented);
    }

    #[test]
    fn quotes_are_bounded() {
        let long = "x".repeat(10_000);
        let e = err(&long);
        assert!(e.message().len() < 300, "{}", e.message().len());
        assert!(e.message().contains('…'));
    }
}

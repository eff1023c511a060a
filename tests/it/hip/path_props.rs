//! Property tests of the HIP device path grammar and IREE's text rules.

use amdgpu_hal::hip::text::{parse_hex_bytes, parse_int};
use amdgpu_hal::hip::{AgentUuid, DevicePath, DeviceSpec, DeviceUuid, MAX_PHYSICAL_DEVICES};
use proptest::prelude::*;

/// A model of IREE's `iree_string_view_atoi_int32` (strtol, base 0, on a
/// 16-byte NUL-terminated copy, 64-bit `long`, truncated to int32).
fn iree_atoi_i32(text: &str) -> Option<i32> {
    let bytes = text.as_bytes();
    if bytes.len() >= 16 {
        return None;
    }
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let s = &bytes[..end];
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
        i += 1;
    }
    let mut negative = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        negative = s[i] == b'-';
        i += 1;
    }
    let mut radix = 10;
    if i + 1 < s.len() && s[i] == b'0' && (s[i + 1] | 0x20) == b'x' {
        if i + 2 < s.len() && (s[i + 2] as char).is_ascii_hexdigit() {
            radix = 16;
            i += 2;
        } else {
            radix = 8;
        }
    } else if i < s.len() && s[i] == b'0' {
        radix = 8;
    }
    let start = i;
    let mut value: i128 = 0;
    while i < s.len() {
        let Some(d) = (s[i] as char).to_digit(radix) else {
            break;
        };
        value = value * i128::from(radix) + i128::from(d);
        i += 1;
    }
    if i == start {
        return None;
    }
    let value = if negative { -value } else { value };
    if value > i128::from(i64::MAX) || value < i128::from(i64::MIN) {
        return None;
    }
    Some(value as i64 as i32)
}

/// A model of IREE's `iree_string_view_parse_hex_bytes(value, N, out)`
/// (runtime/src/iree/base/string_view.c): trim whitespace, then per byte
/// skip one `' '` or `'-'` (not before the first), take two hex nibbles;
/// everything must be consumed.
fn iree_parse_hex_bytes<const N: usize>(value: &str) -> Option<[u8; N]> {
    let is_space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r');
    let mut rest: Vec<char> = value.trim_matches(is_space).chars().collect();
    let mut out = [0u8; N];
    for (i, slot) in out.iter_mut().enumerate() {
        if i > 0 && matches!(rest.first(), Some(' ' | '-')) {
            rest.remove(0);
        }
        if rest.len() < 2 {
            return None;
        }
        let hi = rest[0].to_digit(16)?;
        let lo = rest[1].to_digit(16)?;
        *slot = (hi * 16 + lo) as u8;
        rest.drain(..2);
    }
    rest.is_empty().then_some(out)
}

fn uuid_text(bytes: [u8; 16], seps: Vec<u8>, upper: Vec<bool>) -> String {
    let mut s = String::new();
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            match seps[i] % 4 {
                1 => s.push('-'),
                2 => s.push(' '),
                _ => {}
            }
        }
        let hex = format!("{b:02x}");
        s.push_str(&if upper[i] { hex.to_uppercase() } else { hex });
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_strings_never_panic(s in "\\PC{0,80}") {
        let _ = DevicePath::parse(&s);
        let _ = parse_hex_bytes::<16>(&s);
        let _ = parse_int(&s, i64::MIN, i64::MAX);
    }

    #[test]
    fn path_like_strings_never_panic(s in "(GPU-|[0-9 ,x+-]|[a-fA-F]){0,64}") {
        let _ = DevicePath::parse(&s);
    }

    #[test]
    fn formatted_uuid_paths_parse_back(bytes in any::<[u8; 16]>()) {
        let uuid = DeviceUuid(bytes);
        let path = uuid.path();
        prop_assert_eq!(path.len(), 40);
        prop_assert_eq!(DevicePath::parse(&path), Ok(DevicePath::Single(DeviceSpec::Uuid(uuid))));
    }

    #[test]
    fn any_single_separators_and_case_give_the_same_uuid(
        bytes in any::<[u8; 16]>(),
        seps in prop::collection::vec(any::<u8>(), 16),
        upper in prop::collection::vec(any::<bool>(), 16),
    ) {
        let text = uuid_text(bytes, seps, upper);
        prop_assert_eq!(DeviceUuid::parse_hex(&text), Some(DeviceUuid(bytes)));
    }

    #[test]
    fn indices_parse_back(index in 0u32..=i32::MAX as u32) {
        prop_assert_eq!(
            DevicePath::parse(&index.to_string()),
            Ok(DevicePath::Single(DeviceSpec::Index(index)))
        );
        prop_assert_eq!(
            DevicePath::parse(&format!("{index:#x}")),
            Ok(DevicePath::Single(DeviceSpec::Index(index)))
        );
    }

    /// Whatever we accept, IREE reads as the same number: no input selects a
    /// different device here than in IREE.
    #[test]
    fn accepted_indices_agree_with_iree(s in "[ \t]{0,2}[+-]?(0[xX])?[0-9a-fA-F]{0,10}[ g]{0,1}") {
        if let Ok(v) = parse_int(&s, 0, i64::from(i32::MAX))
            && s.len() < 16
        {
            prop_assert_eq!(iree_atoi_i32(&s), Some(v as i32), "{:?}", s);
        }
    }

    #[test]
    fn lists_of_k_valid_entries_give_k_specs_in_order(
        entries in prop::collection::vec(
            prop_oneof![
                (0u32..1000).prop_map(DeviceSpec::Index),
                any::<[u8; 16]>().prop_map(|b| DeviceSpec::Uuid(DeviceUuid(b))),
            ],
            2..=MAX_PHYSICAL_DEVICES,
        )
    ) {
        let text: Vec<String> = entries.iter().map(|e| match e {
            DeviceSpec::Index(i) => i.to_string(),
            DeviceSpec::Uuid(u) => u.path(),
            DeviceSpec::AgentUuid(a) => a.to_string(),
        }).collect();
        prop_assert_eq!(DevicePath::parse(&text.join(",")), Ok(DevicePath::List(entries)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// IREE's grammar is the oracle for `GPU-` paths: whatever IREE's
    /// `get_device_id_by_uuid` accepts means the same UUID here; the one
    /// extension, HSA's 16 hex digits, is text IREE refuses; everything else
    /// is refused here too, as `INVALID_ARGUMENT`.
    #[test]
    fn gpu_paths_agree_with_iree(
        tail in "[0-9a-fA-F]{0,40}|[0-9a-fA-F -]{0,44}|[0-9a-fxyzG -]{14,18}| ?[0-9a-f]{16} ?"
    ) {
        let path = format!("GPU-{tail}");
        let ours = DevicePath::parse(&path);
        if let Some(bytes) = iree_parse_hex_bytes::<16>(&tail) {
            prop_assert_eq!(ours, Ok(DevicePath::Single(DeviceSpec::Uuid(DeviceUuid(bytes)))));
        } else if let Some(digits) = Some(tail.trim_matches(' '))
            && digits.len() == 16
            && digits.bytes().all(|b| b.is_ascii_hexdigit())
        {
            let bytes = iree_parse_hex_bytes::<8>(digits).unwrap();
            prop_assert_eq!(ours, Ok(DevicePath::Single(DeviceSpec::AgentUuid(AgentUuid(bytes)))));
        } else {
            let err = ours.unwrap_err();
            prop_assert_eq!(err.code(), amdgpu_hal::StatusCode::InvalidArgument);
            prop_assert!(err.message().starts_with("invalid GPU UUID: '"), "{}", err);
        }
    }
}

#[test]
fn iree_hex_model_matches_iree_tests() {
    // runtime/src/iree/base/string_view_test.cc, ParseHex16.
    let expected: [u8; 16] = std::array::from_fn(|i| i as u8);
    for text in [
        "000102030405060708090A0B0C0D0E0F",
        "00010203-0405-0607-0809-0a0B0c0D0e0F",
        "00010203-0405-0607-0809-0A0B0C0D0E0F",
        "00010203-0405-0607-0809-0a0b0c0d0e0f",
    ] {
        assert_eq!(iree_parse_hex_bytes::<16>(text), Some(expected), "{text}");
    }
    assert_eq!(iree_parse_hex_bytes::<2>("Ab-eF"), Some([0xab, 0xef]));
    assert_eq!(iree_parse_hex_bytes::<1>(" EF "), Some([0xef]));
    assert_eq!(iree_parse_hex_bytes::<2>("AB--EF"), None);
    assert_eq!(iree_parse_hex_bytes::<16>("8af705259683161c"), None);
}

#[test]
fn iree_model_matches_known_values() {
    assert_eq!(iree_atoi_i32("0x10"), Some(16));
    assert_eq!(iree_atoi_i32("010"), Some(8));
    assert_eq!(iree_atoi_i32("1abc"), Some(1));
    assert_eq!(iree_atoi_i32("abc"), None);
    assert_eq!(iree_atoi_i32(" -1"), Some(-1));
}

/// IREE's hip_driver.c refuses a logical device of more than
/// `IREE_HAL_MAX_QUEUES` (64) physical devices ("too many physical devices
/// allocated for this logical device"); 64 entries are a list of 64.
#[test]
fn lists_hold_at_most_64_devices() {
    let list = |n: u32| (0..n).map(|i| i.to_string()).collect::<Vec<_>>().join(",");
    match DevicePath::parse(&list(64)) {
        Ok(DevicePath::List(specs)) => {
            assert_eq!(specs.len(), 64);
            assert_eq!(specs[63], DeviceSpec::Index(63));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(MAX_PHYSICAL_DEVICES, 64);
    for n in [65, 130] {
        let err = DevicePath::parse(&list(n)).unwrap_err();
        assert!(
            err.message().starts_with(&format!(
                "too many physical devices allocated for this logical device ({n} > 64)"
            )),
            "{err}"
        );
    }
}

/// IREE skips a separator only *between* bytes: one before the first byte
/// (left after trimming whitespace) fails, as the model says.
#[test]
fn no_separator_before_the_first_byte() {
    for text in [
        "-ABEF",
        " -ABEF",
        "- ABEF",
        "-00010203-0405-0607-0809-0a0b0c0d0e0f",
    ] {
        assert_eq!(
            parse_hex_bytes::<2>(text),
            iree_parse_hex_bytes::<2>(text),
            "{text}"
        );
        assert_eq!(
            parse_hex_bytes::<16>(text),
            iree_parse_hex_bytes::<16>(text),
            "{text}"
        );
    }
    assert_eq!(parse_hex_bytes::<2>("-ABEF"), None);
    assert_eq!(parse_hex_bytes::<2>("AB-EF"), Some([0xab, 0xef]));
}

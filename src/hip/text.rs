//! IREE's text rules for device paths and options: hex byte strings and
//! integers.
//!
//! [`parse_hex_bytes`] is IREE's `iree_string_view_parse_hex_bytes` exactly
//! (a `GPU-` UUID must select the same device here as in IREE). Integers are
//! stricter than IREE's `strtol`-based `atoi`: every input IREE reads as some
//! number is either read as the *same* number here or rejected with a reason —
//! never silently read as a different one.

use std::fmt;

/// C's `isspace` in the "C" locale (Rust's `is_ascii_whitespace` lacks `\v`).
pub(crate) fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// `s` without leading and trailing C whitespace (IREE's `iree_string_view_trim`).
pub fn trim_c_space(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_ascii() && is_c_space(c as u8))
}

fn hex_nibble(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Parses exactly `N` bytes of hex from `text`, by IREE's rules: surrounding
/// whitespace is trimmed; before every byte but the first, at most one `'-'`
/// or `' '` may be skipped (anywhere, not only at UUID positions); nibbles
/// are case-insensitive; the input must be consumed exactly.
///
/// Returns `None` on any deviation (IREE's `false`).
///
/// ```
/// use amdgpu_hal::hip::text::parse_hex_bytes;
/// assert_eq!(parse_hex_bytes::<2>("Ab-eF"), Some([0xab, 0xef]));
/// assert_eq!(parse_hex_bytes::<2>("ab--ef"), None);
/// assert_eq!(parse_hex_bytes::<0>("  "), Some([]));
/// ```
pub fn parse_hex_bytes<const N: usize>(text: &str) -> Option<[u8; N]> {
    let mut rest = trim_c_space(text).as_bytes();
    let mut out = [0u8; N];
    for (i, slot) in out.iter_mut().enumerate() {
        if i > 0
            && let Some((b' ' | b'-', tail)) = rest.split_first()
        {
            rest = tail;
        }
        let (&hi, tail) = rest.split_first()?;
        let (&lo, tail) = tail.split_first()?;
        *slot = (hex_nibble(hi)? << 4) | hex_nibble(lo)?;
        rest = tail;
    }
    rest.is_empty().then_some(out)
}

/// Why a text is not an acceptable integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntError {
    /// Nothing that starts a number (IREE's `atoi` fails too).
    NotANumber,
    /// A `-` sign where only non-negative values make sense.
    Negative,
    /// Characters after the digits (IREE ignores them; `"1abc"` is 1 there).
    TrailingCharacters,
    /// A multi-digit decimal with a leading `0`: IREE reads it as octal
    /// (`"010"` is 8), which nobody means; rejected rather than guessed.
    AmbiguousLeadingZero,
    /// The value does not fit the target type (IREE truncates).
    OutOfRange,
}

impl fmt::Display for IntError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IntError::NotANumber => "not a number",
            IntError::Negative => "negative values are not allowed",
            IntError::TrailingCharacters => "unexpected characters after the number",
            IntError::AmbiguousLeadingZero => {
                "leading zero (IREE would read it as octal); write the decimal value without it"
            }
            IntError::OutOfRange => "out of range",
        })
    }
}

/// Whether `text`, after leading C whitespace and an optional sign, starts
/// with a decimal digit — i.e. whether IREE's `atoi` would read *some*
/// number from it. Used to tell "a bad index" from "not an index at all".
pub fn looks_numeric(text: &str) -> bool {
    let t = text.trim_start_matches(|c: char| c.is_ascii() && is_c_space(c as u8));
    let t = t
        .strip_prefix('+')
        .or_else(|| t.strip_prefix('-'))
        .unwrap_or(t);
    t.as_bytes().first().is_some_and(u8::is_ascii_digit)
}

/// Parses a signed integer in `[min, max]`: surrounding whitespace, an
/// optional sign, then decimal digits or `0x`/`0X` hex digits, and nothing
/// else. `"0"` is fine; `"010"` is [`IntError::AmbiguousLeadingZero`].
pub fn parse_int(text: &str, min: i64, max: i64) -> Result<i64, IntError> {
    let t = trim_c_space(text);
    let (negative, t) = match (t.strip_prefix('-'), t.strip_prefix('+')) {
        (Some(rest), _) => (true, rest),
        (None, Some(rest)) => (false, rest),
        (None, None) => (false, t),
    };
    let (radix, digits) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => (16, hex),
        None => (10, t),
    };
    let run = digits
        .bytes()
        .take_while(|&b| (b as char).is_digit(radix))
        .count();
    if run == 0 {
        // "0x" alone: strtol reads the 0 and stops; we ask for hex digits.
        return Err(if radix == 16 {
            IntError::TrailingCharacters
        } else {
            IntError::NotANumber
        });
    }
    if run != digits.len() {
        return Err(IntError::TrailingCharacters);
    }
    if radix == 10 && run > 1 && digits.starts_with('0') {
        return Err(IntError::AmbiguousLeadingZero);
    }
    // Accumulate in i128 with a cap so long digit runs cannot overflow.
    let mut magnitude: i128 = 0;
    for b in digits.bytes() {
        let d = (b as char).to_digit(radix).unwrap_or(0);
        magnitude = magnitude * i128::from(radix) + i128::from(d);
        if magnitude > i128::from(u64::MAX) {
            return Err(IntError::OutOfRange);
        }
    }
    let value = if negative { -magnitude } else { magnitude };
    if negative && value != 0 && min >= 0 {
        return Err(IntError::Negative);
    }
    if value < i128::from(min) || value > i128::from(max) {
        return Err(IntError::OutOfRange);
    }
    i64::try_from(value).map_err(|_| IntError::OutOfRange)
}

/// Parses an unsigned 64-bit integer with the rules of [`parse_int`].
pub fn parse_u64(text: &str) -> Result<u64, IntError> {
    let t = trim_c_space(text);
    if t.starts_with('-') && looks_numeric(t) {
        return Err(IntError::Negative);
    }
    let t = t.strip_prefix('+').unwrap_or(t);
    let (radix, digits) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => (16, hex),
        None => (10, t),
    };
    if digits.is_empty() || !digits.bytes().all(|b| (b as char).is_digit(radix)) {
        return Err(if looks_numeric(t) {
            IntError::TrailingCharacters
        } else {
            IntError::NotANumber
        });
    }
    if radix == 10 && digits.len() > 1 && digits.starts_with('0') {
        return Err(IntError::AmbiguousLeadingZero);
    }
    u64::from_str_radix(digits, radix).map_err(|_| IntError::OutOfRange)
}

#[cfg(test)]
mod tests {
    use super::*;

    // IREE's string_view_test.cc ParseHex0/1/2/16 and InvalidParseHex.
    #[test]
    fn iree_parse_hex_cases() {
        assert_eq!(parse_hex_bytes::<0>(""), Some([]));
        assert_eq!(parse_hex_bytes::<0>(" "), Some([]));
        assert_eq!(parse_hex_bytes::<0>("  "), Some([]));
        assert_eq!(parse_hex_bytes::<1>("EF"), Some([0xef]));
        assert_eq!(parse_hex_bytes::<1>("Ef"), Some([0xef]));
        assert_eq!(parse_hex_bytes::<1>("00"), Some([0x00]));
        assert_eq!(parse_hex_bytes::<1>("FF"), Some([0xff]));
        assert_eq!(parse_hex_bytes::<1>(" EF "), Some([0xef]));
        assert_eq!(parse_hex_bytes::<2>("ABEF"), Some([0xab, 0xef]));
        assert_eq!(parse_hex_bytes::<2>("Ab-eF"), Some([0xab, 0xef]));
        assert_eq!(parse_hex_bytes::<2>("AB-EF"), Some([0xab, 0xef]));
        assert_eq!(parse_hex_bytes::<2>("ab-ef"), Some([0xab, 0xef]));
        assert_eq!(parse_hex_bytes::<2>("00-00"), Some([0, 0]));
        assert_eq!(parse_hex_bytes::<2>("FF-FF"), Some([0xff, 0xff]));
        let seq: [u8; 16] = std::array::from_fn(|i| i as u8);
        for text in [
            "000102030405060708090A0B0C0D0E0F",
            "00010203-0405-0607-0809-0a0B0c0D0e0F",
            "00010203-0405-0607-0809-0A0B0C0D0E0F",
            "00010203-0405-0607-0809-0a0b0c0d0e0f",
            "00-01-02-03-04-05-06-07-08-09-0a-0b-0c-0d-0e-0f",
        ] {
            assert_eq!(parse_hex_bytes::<16>(text), Some(seq), "{text}");
        }
        assert_eq!(
            parse_hex_bytes::<16>("00000000-0000-0000-0000-000000000000"),
            Some([0; 16])
        );
        assert_eq!(
            parse_hex_bytes::<16>("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"),
            Some([0xff; 16])
        );
        for bad in ["-", "-ab", "ab-", "", "a"] {
            assert_eq!(parse_hex_bytes::<1>(bad), None, "{bad:?}");
        }
        for bad in ["abc", "ab-a", "ab--ef", "ab ef-", "ZF00", "AB-C?"] {
            assert_eq!(parse_hex_bytes::<2>(bad), None, "{bad:?}");
        }
        assert_eq!(parse_hex_bytes::<0>("ab"), None);
        assert_eq!(parse_hex_bytes::<1>("ZF"), None);
        // A space is also a separator; a tab is only trimmed at the ends.
        assert_eq!(parse_hex_bytes::<2>("ab ef"), Some([0xab, 0xef]));
        assert_eq!(parse_hex_bytes::<2>("ab\tef"), None);
        assert_eq!(parse_hex_bytes::<1>("\x0bab\x0b"), Some([0xab]));
        // Non-ASCII never panics on a char boundary.
        assert_eq!(parse_hex_bytes::<2>("aé"), None);
    }

    #[test]
    fn ints_match_iree_or_are_rejected() {
        assert_eq!(parse_int("0", 0, 9), Ok(0));
        assert_eq!(parse_int("  7 ", 0, 9), Ok(7));
        assert_eq!(parse_int("+7", 0, 9), Ok(7));
        assert_eq!(parse_int("0x10", 0, 99), Ok(16));
        assert_eq!(parse_int("0XfF", 0, 999), Ok(255));
        assert_eq!(parse_int("-3", -9, 9), Ok(-3));
        assert_eq!(parse_int("-0", 0, 9), Ok(0));
        assert_eq!(parse_int("-1", 0, 9), Err(IntError::Negative));
        assert_eq!(parse_int("1abc", 0, 9), Err(IntError::TrailingCharacters));
        assert_eq!(parse_int("1 2", 0, 99), Err(IntError::TrailingCharacters));
        assert_eq!(parse_int("0x", 0, 9), Err(IntError::TrailingCharacters));
        assert_eq!(parse_int("010", 0, 99), Err(IntError::AmbiguousLeadingZero));
        assert_eq!(parse_int("08", 0, 99), Err(IntError::AmbiguousLeadingZero));
        assert_eq!(parse_int("", 0, 9), Err(IntError::NotANumber));
        assert_eq!(parse_int("abc", 0, 9), Err(IntError::NotANumber));
        assert_eq!(parse_int("-", 0, 9), Err(IntError::NotANumber));
        assert_eq!(parse_int("10", 0, 9), Err(IntError::OutOfRange));
        assert_eq!(
            parse_int("99999999999999999999999999", 0, i64::MAX),
            Err(IntError::OutOfRange)
        );
        // Far past i128 as well: the magnitude stops growing at the first
        // digit beyond u64 (summing on would overflow).
        assert_eq!(
            parse_int(&"9".repeat(60), 0, i64::MAX),
            Err(IntError::OutOfRange)
        );
        assert_eq!(
            parse_int(&format!("-0x{}", "f".repeat(40)), i64::MIN, 0),
            Err(IntError::OutOfRange)
        );
        assert_eq!(
            parse_int("2147483648", 0, i64::from(i32::MAX)),
            Err(IntError::OutOfRange)
        );
        assert_eq!(parse_u64("0xffffffffffffffff"), Ok(u64::MAX));
        // The leading-zero rule of decimals, not of hex digits; "0" is zero.
        assert_eq!(parse_u64("0"), Ok(0));
        assert_eq!(parse_u64("010"), Err(IntError::AmbiguousLeadingZero));
        assert_eq!(parse_u64("0x010"), Ok(16));
        assert_eq!(parse_u64("18446744073709551616"), Err(IntError::OutOfRange));
        assert_eq!(parse_u64("-1"), Err(IntError::Negative));
        assert_eq!(parse_u64("12x"), Err(IntError::TrailingCharacters));
        assert_eq!(parse_u64("x"), Err(IntError::NotANumber));
        assert!(looks_numeric(" -1"));
        assert!(looks_numeric("1abc"));
        assert!(!looks_numeric("abc"));
        assert!(!looks_numeric(""));
    }
}

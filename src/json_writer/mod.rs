//! Pretty JSON written by hand: the same bytes `serde_json::to_writer_pretty`
//! gives (two-space indentation, one line per value), at a fraction of its
//! cost for documents of many small values (`inspect` and `load` of objects
//! with thousands of kernels). Keys and indentation are byte-string
//! constants of the caller; values are appended to a chunk buffer, and the
//! chunk goes to the writer every [`CHUNK_BYTES`]. Every other document
//! goes through serde with [`to_writer_pretty`] (same layout, same escapes).

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter};

/// Bytes gathered before each write to the output.
pub const CHUNK_BYTES: usize = 64 * 1024;

/// A chunk buffer in front of a writer.
pub(crate) struct JsonChunks<'w> {
    buf: Vec<u8>,
    out: &'w mut dyn Write,
}

impl<'w> JsonChunks<'w> {
    pub(crate) fn new(out: &'w mut dyn Write) -> Self {
        JsonChunks {
            buf: Vec::with_capacity(CHUNK_BYTES + 4096),
            out,
        }
    }

    /// Bytes as they are (keys, punctuation, indentation).
    pub(crate) fn raw(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    pub(crate) fn int<T: itoa::Integer + TryInto<u8>>(&mut self, value: T) {
        // Most counts, sizes and offsets of a report are under 100: their
        // digits are pushed, not formatted into a buffer and copied (a
        // large report writes a quarter of a million numbers).
        if let Ok(small @ 0..100) = value.try_into() {
            if small >= 10 {
                self.buf.push(b'0' + small / 10);
            }
            self.buf.push(b'0' + small % 10);
            return;
        }
        self.buf
            .extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
    }

    pub(crate) fn opt_int<T: itoa::Integer + TryInto<u8>>(&mut self, value: Option<T>) {
        match value {
            Some(value) => self.int(value),
            None => self.raw(b"null"),
        }
    }

    /// `value` as a JSON string of lower-case hex, `"0x…"` (what `{:#x}`
    /// gives), without formatting machinery.
    pub(crate) fn hex_string(&mut self, value: u64) {
        // Digits from the highest non-zero nibble down (one for zero).
        let digits = (u64::BITS - value.leading_zeros()).div_ceil(4).max(1);
        self.raw(b"\"0x");
        for nibble in (0..digits).rev() {
            let digit = ((value >> (4 * nibble)) & 0xf) as u8;
            self.buf.push(match digit {
                0..=9 => b'0' + digit,
                _ => b'a' + (digit - 10),
            });
        }
        self.raw(b"\"");
    }

    pub(crate) fn bool(&mut self, value: bool) {
        self.raw(if value { b"true" } else { b"false" });
    }

    pub(crate) fn string(&mut self, value: &str) {
        write_string(&mut self.buf, value);
    }

    /// A list of integers as serde's pretty printer lays it out, one per
    /// line at `indent` (the list's own line's indentation).
    pub(crate) fn int_list<T: itoa::Integer + TryInto<u8> + Copy>(
        &mut self,
        values: &[T],
        indent: &[u8],
    ) {
        if values.is_empty() {
            self.raw(b"[]");
            return;
        }
        self.raw(b"[");
        for (i, value) in values.iter().enumerate() {
            self.raw(if i == 0 { b"\n" } else { b",\n" });
            self.raw(indent);
            self.raw(b"  ");
            self.int(*value);
        }
        self.raw(b"\n");
        self.raw(indent);
        self.raw(b"]");
    }

    /// Writes the chunk out once it holds [`CHUNK_BYTES`].
    pub(crate) fn flush_if_full(&mut self) -> io::Result<()> {
        if self.buf.len() >= CHUNK_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes everything gathered so far.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }
}

/// Whether `c` is written as a `\u00XX` escape beyond what serde_json
/// escapes: DEL and the C1 controls, which JSON allows raw but a terminal
/// acts on.
fn is_extra_control(c: char) -> bool {
    matches!(c, '\u{7f}'..='\u{9f}')
}

/// `\u00XX` for a character below U+0100, lowercase hex as serde_json.
fn push_unicode_escape(out: &mut Vec<u8>, c: char) {
    let hex = |nibble: u32| char::from_digit(nibble & 0xf, 16).map_or(b'0', |d| d as u8);
    let code = c as u32;
    out.extend_from_slice(b"\\u00");
    out.push(hex(code >> 4));
    out.push(hex(code));
}

/// Whether no byte of `bytes` can start an escape: no C0 control, `"`,
/// `\\`, DEL, or `0xC2` (the lead byte of the C1 controls; U+00A0..=U+00BF
/// share it and take the careful path needlessly, but correctly). Without
/// branches, so that the bytes are compared together.
fn is_plain(bytes: &[u8]) -> bool {
    !bytes.iter().fold(false, |hit, &b| {
        hit | (b < 0x20) | (b == b'"') | (b == b'\\') | (b == 0x7f) | (b == 0xc2)
    })
}

/// `value` as a JSON string: serde_json's escapes (`\"`, `\\`, `\b`,
/// `\f`, `\n`, `\r`, `\t`, `\u00XX` for the other C0 controls), and DEL and
/// the C1 controls as `\u00XX` too, so that no control character of an
/// input reaches a terminal through a JSON document.
pub(crate) fn write_string(out: &mut Vec<u8>, value: &str) {
    if is_plain(value.as_bytes()) {
        out.reserve(value.len() + 2);
        out.push(b'"');
        out.extend_from_slice(value.as_bytes());
        out.push(b'"');
        return;
    }
    out.push(b'"');
    let mut clean_from = 0;
    for (i, c) in value.char_indices() {
        let escape: Option<&[u8]> = match c {
            '"' => Some(b"\\\""),
            '\\' => Some(b"\\\\"),
            '\u{8}' => Some(b"\\b"),
            '\u{c}' => Some(b"\\f"),
            '\n' => Some(b"\\n"),
            '\r' => Some(b"\\r"),
            '\t' => Some(b"\\t"),
            c if (c as u32) < 0x20 || is_extra_control(c) => Some(b""),
            _ => None,
        };
        let Some(escape) = escape else { continue };
        out.extend_from_slice(value.as_bytes().get(clean_from..i).unwrap_or_default());
        if escape.is_empty() {
            push_unicode_escape(out, c);
        } else {
            out.extend_from_slice(escape);
        }
        clean_from = i + c.len_utf8();
    }
    out.extend_from_slice(value.as_bytes().get(clean_from..).unwrap_or_default());
    out.push(b'"');
}

/// serde_json's pretty layout with [`write_string`]'s escapes: DEL and
/// the C1 controls in strings escaped as well.
pub(crate) struct TerminalSafePretty<'a>(PrettyFormatter<'a>);

impl Formatter for TerminalSafePretty<'_> {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // serde hands over the runs between its own escapes: only DEL and
        // the C1 controls are left to escape here.
        let mut clean_from = 0;
        for (i, c) in fragment.char_indices() {
            if is_extra_control(c) {
                w.write_all(fragment.as_bytes().get(clean_from..i).unwrap_or_default())?;
                let mut escape = Vec::with_capacity(6);
                push_unicode_escape(&mut escape, c);
                w.write_all(&escape)?;
                clean_from = i + c.len_utf8();
            }
        }
        w.write_all(fragment.as_bytes().get(clean_from..).unwrap_or_default())
    }
}

/// `value` as pretty JSON: serde's layout and escapes, plus DEL and the C1
/// controls as `\u00XX`, so the document passes the terminal escaper
/// unchanged and stays valid JSON.
pub fn to_writer_pretty<W: Write, T: ?Sized + Serialize>(
    writer: W,
    value: &T,
) -> serde_json::Result<()> {
    let mut serializer =
        serde_json::Serializer::with_formatter(writer, TerminalSafePretty(PrettyFormatter::new()));
    value.serialize(&mut serializer)
}

/// `value` as a pretty JSON string, as [`to_writer_pretty`] writes it.
pub fn to_string_pretty<T: ?Sized + Serialize>(value: &T) -> serde_json::Result<String> {
    let mut out = Vec::new();
    to_writer_pretty(&mut out, value)?;
    // Only UTF-8 input and ASCII escapes went in.
    String::from_utf8(out).map_err(|e| serde_json::Error::io(io::Error::other(e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ours(value: &str) -> String {
        let mut out = Vec::new();
        write_string(&mut out, value);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn controls_are_escaped_as_json_spells_them() {
        assert_eq!(ours("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(ours("\u{8}\u{c}\n\r\t"), r#""\b\f\n\r\t""#);
        assert_eq!(ours("\u{0}\u{1b}\u{1f}"), r#""\u0000\u001b\u001f""#);
        assert_eq!(
            ours("\u{7f}\u{80}\u{85}\u{9f}\u{a0}é"),
            "\"\\u007f\\u0080\\u0085\\u009f\u{a0}é\""
        );
        assert_eq!(
            to_string_pretty("\u{85}\u{1b}").unwrap(),
            r#""\u0085\u001b""#
        );
    }

    fn int<T: itoa::Integer + TryInto<u8>>(value: T) -> String {
        let mut out = Vec::new();
        let mut json = JsonChunks::new(&mut out);
        json.int(value);
        json.flush().unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn integers_on_both_sides_of_the_pushed_digits_are_decimal() {
        for value in [
            0u32,
            1,
            9,
            10,
            11,
            42,
            99,
            100,
            101,
            255,
            256,
            1000,
            u32::MAX,
        ] {
            assert_eq!(int(value), value.to_string());
            assert_eq!(int(u64::from(value)), value.to_string());
        }
        for value in [0i64, 5, 99, 100, -1, -9, -10, -99, -100, i64::MIN, i64::MAX] {
            assert_eq!(int(value), value.to_string());
        }
        assert_eq!(int(u8::MAX), "255");
        assert_eq!(int(u16::MAX), "65535");
    }

    proptest! {
        #[test]
        fn integers_are_what_display_writes(a in any::<u64>(), b in any::<i32>(), c in 0u16..300) {
            prop_assert_eq!(int(a), a.to_string());
            prop_assert_eq!(int(b), b.to_string());
            prop_assert_eq!(int(c), c.to_string());
        }
    }

    fn hex(value: u64) -> String {
        let mut out = Vec::new();
        let mut json = JsonChunks::new(&mut out);
        json.hex_string(value);
        json.flush().unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn plain_strings_are_the_ones_without_escapable_bytes() {
        for plain in ["", "kernel_name.kd", "été", "\u{100}\u{1f600}", " ~"] {
            assert!(is_plain(plain.as_bytes()), "{plain:?}");
        }
        // Each byte that can start an escape, alone and twice (a fold that
        // toggled instead of accumulating would pass a pair).
        for care in [
            "\u{0}", "\u{1f}", "\"", "\\", "\u{7f}", "\u{80}", "\u{9f}", "\u{a0}",
        ] {
            for text in [care.to_string(), format!("a{care}{care}b")] {
                assert!(!is_plain(text.as_bytes()), "{text:?}");
            }
        }
    }

    #[test]
    fn hex_strings_are_what_std_formats() {
        for (value, text) in [
            (0, r#""0x0""#),
            (0xf, r#""0xf""#),
            (0x10, r#""0x10""#),
            (0x7f3c_0010, r#""0x7f3c0010""#),
            (u64::MAX, r#""0xffffffffffffffff""#),
        ] {
            assert_eq!(hex(value), text);
        }
    }

    proptest! {
        #[test]
        fn hex_strings_match_std(value in any::<u64>()) {
            prop_assert_eq!(hex(value), format!("\"{value:#x}\""));
        }

        /// serde_json's escapes for everything it escapes; both parse back
        /// to the same string; nothing in 0x7f..=0x9f is left raw.
        #[test]
        fn strings_match_serde_and_parse_back(value in "\\PC{0,8}|[\\u{0}-\\u{a0}\"\\\\a]{0,8}") {
            let text = ours(&value);
            prop_assert_eq!(&text, &to_string_pretty(&value).unwrap());
            let back: String = serde_json::from_str(&text).unwrap();
            prop_assert_eq!(&back, &value);
            let raw_control = text
                .chars()
                .any(|c| matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}'));
            prop_assert!(!raw_control);
            if !value.chars().any(is_extra_control) {
                prop_assert_eq!(text, serde_json::to_string(&value).unwrap());
            }
        }
    }
}

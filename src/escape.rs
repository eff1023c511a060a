//! Text from inputs, made safe for a terminal.
//!
//! Kernel names, symbols, device names and machine descriptions are bytes
//! from outside: an ESC or BEL in them would reach the terminal as a
//! command. Every text renderer shows such strings through [`Escaped`]
//! (control characters as `\u{1b}`), and the CLI passes all of its output,
//! the error line included, through [`TerminalWriter`], so nothing it prints
//! carries a raw control character but the newlines and tabs of its own
//! layout. Error messages that quote their input quote at most
//! [`MAX_ECHO_BYTES`] of it, newlines escaped too ([`echo`]).

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};

/// Most bytes of its input an error message quotes; the rest is replaced
/// by a note of how much was left out.
pub const MAX_ECHO_BYTES: usize = 256;

/// True for the characters a terminal may act on: C0 controls, DEL and the
/// C1 controls (U+0080..=U+009F, e.g. U+009B, a one-character CSI).
pub fn is_terminal_control(c: char) -> bool {
    c.is_control()
}

/// `text` with every control character (newlines and tabs included) written
/// as `\u{..}`; `Display` it where a single field is shown.
#[derive(Clone, Copy, Debug)]
pub struct Escaped<'a>(pub &'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(at) = rest.find(is_terminal_control) {
            let (clean, tail) = rest.split_at(at);
            f.write_str(clean)?;
            let mut chars = tail.chars();
            if let Some(c) = chars.next() {
                write!(f, "\\u{{{:x}}}", u32::from(c))?;
            }
            rest = chars.as_str();
        }
        f.write_str(rest)
    }
}

/// `text` with its control characters (newlines too) escaped, borrowed
/// when it has none.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if text.contains(is_terminal_control) {
        Cow::Owned(Escaped(text).to_string())
    } else {
        Cow::Borrowed(text)
    }
}

/// A path as messages show it: `Path::display` with its control
/// characters escaped (a file name may hold any byte but NUL and `/`).
pub fn display_path(path: &std::path::Path) -> String {
    Escaped(&path.display().to_string()).to_string()
}

/// `text` as an error message quotes it: control characters escaped and at
/// most [`MAX_ECHO_BYTES`] of it (cut on a character boundary), with the
/// number of bytes left out.
pub fn echo(text: &str) -> String {
    if text.len() <= MAX_ECHO_BYTES {
        return escape_controls(text).into_owned();
    }
    let mut cut = MAX_ECHO_BYTES;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let (head, _) = text.split_at(cut);
    format!("{}… ({} more bytes)", Escaped(head), text.len() - cut)
}

/// A writer that passes text through with its control characters escaped,
/// except newlines and tabs (the layout of text output). Bytes are
/// expected to be UTF-8, split anywhere between writes: the C1 controls
/// (`0xC2 0x80..=0x9F`) are recognized across a split.
pub struct TerminalWriter<W: Write> {
    inner: W,
    /// A `0xC2` lead byte not written yet (its continuation decides).
    pending_c2: bool,
}

impl<W: Write> TerminalWriter<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> Self {
        TerminalWriter {
            inner,
            pending_c2: false,
        }
    }

    /// The wrapped writer (a pending lead byte is written first).
    pub fn into_inner(mut self) -> io::Result<W> {
        self.finish()?;
        Ok(self.inner)
    }

    fn finish(&mut self) -> io::Result<()> {
        if std::mem::take(&mut self.pending_c2) {
            self.inner.write_all(&[0xc2])?;
        }
        Ok(())
    }
}

fn escape_byte(out: &mut impl Write, code: u8) -> io::Result<()> {
    write!(out, "\\u{{{code:x}}}")
}

/// Whether `byte` may need escaping: a C0 control other than newline and
/// tab, DEL, or `0xC2` (the lead byte of the C1 controls).
fn needs_care(byte: u8) -> bool {
    // `&`/`|`, not `&&`/`||`: no branch, so a block's bytes are compared at once.
    ((byte < 0x20) & (byte != b'\n') & (byte != b'\t')) | (byte == 0x7f) | (byte == 0xc2)
}

/// Bytes looked at together by [`first_care`]: two SSE2 registers.
const SCAN_BLOCK: usize = 32;

/// The offset of the first byte of `bytes` that [`needs_care`]. A block at
/// a time, with no branch inside a block (so the compiler can compare its
/// bytes together in vector registers): JSON and text output is long runs
/// of ordinary bytes.
fn first_care(bytes: &[u8]) -> Option<usize> {
    let mut blocks = bytes.chunks_exact(SCAN_BLOCK);
    let mut at = 0;
    for block in &mut blocks {
        if block.iter().fold(false, |hit, &b| hit | needs_care(b)) {
            return block.iter().position(|&b| needs_care(b)).map(|i| at + i);
        }
        at += SCAN_BLOCK;
    }
    let rest = blocks.remainder();
    rest.iter().position(|&b| needs_care(b)).map(|i| at + i)
}

impl<W: Write> Write for TerminalWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut at = 0;
        if std::mem::take(&mut self.pending_c2) {
            match buf.first() {
                None => {
                    self.pending_c2 = true;
                    return Ok(0);
                }
                Some(&byte) if (0x80..=0x9f).contains(&byte) => escape_byte(&mut self.inner, byte)?,
                Some(&byte) => self.inner.write_all(&[0xc2, byte])?,
            }
            at = 1;
        }
        // Runs of ordinary bytes go out whole: the scan looks at a word at
        // a time, and most output has no byte to care about.
        while let Some(offset) = buf.get(at..).and_then(first_care) {
            let i = at + offset;
            self.inner.write_all(buf.get(at..i).unwrap_or_default())?;
            let byte = buf.get(i).copied().unwrap_or_default();
            if byte != 0xc2 {
                escape_byte(&mut self.inner, byte)?;
                at = i + 1;
                continue;
            }
            match buf.get(i + 1) {
                None => {
                    self.pending_c2 = true;
                    return Ok(buf.len());
                }
                Some(&next) if (0x80..=0x9f).contains(&next) => escape_byte(&mut self.inner, next)?,
                Some(&next) => self.inner.write_all(&[0xc2, next])?,
            }
            at = i + 2;
        }
        self.inner.write_all(buf.get(at..).unwrap_or_default())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A writer for output that is terminal-safe by construction — the JSON
/// documents `json_writer` writes, which escape every C0 control, DEL and
/// the C1 controls inside strings and hold no other control than newlines
/// — so [`TerminalWriter`] would pass it unchanged: bytes go through
/// without the scan. Debug builds (every test run) still run each write
/// through [`TerminalWriter`] and panic if it would change a byte.
pub struct TerminalSafe<W: Write> {
    inner: W,
}

impl<W: Write> TerminalSafe<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> Self {
        TerminalSafe { inner }
    }
}

impl<W: Write> Write for TerminalSafe<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        #[cfg(debug_assertions)]
        {
            let mut escaped = TerminalWriter::new(Vec::with_capacity(buf.len()));
            let checked = escaped
                .write_all(buf)
                .and_then(|()| escaped.into_inner())
                .is_ok_and(|escaped| escaped == buf);
            assert!(
                checked,
                "output written as terminal-safe needs escaping: {:?}",
                String::from_utf8_lossy(buf)
            );
        }
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_safe_output_passes_unchanged() {
        let mut out = TerminalSafe::new(Vec::new());
        let text = "{\n  \"name\": \"caf\u{e9} \\u001b \u{a9}\"\n}";
        out.write_all(text.as_bytes()).unwrap();
        out.flush().unwrap();
        assert_eq!(out.inner, text.as_bytes());
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "needs escaping")]
    fn a_control_written_as_terminal_safe_is_caught_in_debug_builds() {
        let _ = TerminalSafe::new(Vec::new()).write_all(b"\"\x1b[31m\"");
    }

    fn through_writer(chunks: &[&[u8]]) -> String {
        let mut writer = TerminalWriter::new(Vec::new());
        for chunk in chunks {
            writer.write_all(chunk).unwrap();
        }
        String::from_utf8(writer.into_inner().unwrap()).unwrap()
    }

    proptest::proptest! {
        /// The word-at-a-time scan finds what a byte-at-a-time one finds,
        /// over bytes weighted toward the ones that matter and their
        /// neighbours.
        #[test]
        fn first_care_is_the_first_byte_needing_care(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::prelude::any::<u8>(),
                    proptest::sample::select(vec![
                        0u8, 0x08, 0x09, 0x0a, 0x0b, 0x1f, 0x20, 0x7e, 0x7f, 0x80, 0xc1, 0xc2, 0xc3,
                        0xff,
                    ]),
                    proptest::prelude::Just(b'a'),
                ],
                0..100,
            )
        ) {
            proptest::prop_assert_eq!(
                first_care(&bytes),
                bytes.iter().position(|&b| needs_care(b))
            );
        }
    }

    #[test]
    fn every_byte_value_is_judged_as_one_byte_would_be() {
        for byte in 0..=u8::MAX {
            for at in 0..2 * SCAN_BLOCK {
                let mut bytes = [b'x'; 2 * SCAN_BLOCK];
                bytes[at] = byte;
                let expected = needs_care(byte).then_some(at);
                assert_eq!(first_care(&bytes), expected, "{byte:#x} at {at}");
            }
        }
    }

    #[test]
    fn fields_escape_every_control_character() {
        assert_eq!(
            Escaped("k\u{1b}[2J\u{7}\n\t\u{9b}é").to_string(),
            "k\\u{1b}[2J\\u{7}\\u{a}\\u{9}\\u{9b}é"
        );
        assert!(matches!(escape_controls("plain"), Cow::Borrowed("plain")));
    }

    #[test]
    fn the_writer_keeps_layout_and_escapes_the_rest_across_splits() {
        let text = "a\u{1b}]0;x\u{7}\n\tb\u{9b}c\u{a0}é\r\u{7f}";
        let expected = "a\\u{1b}]0;x\\u{7}\n\tb\\u{9b}c\u{a0}é\\u{d}\\u{7f}";
        assert_eq!(through_writer(&[text.as_bytes()]), expected);
        // Every split point, C1's two bytes included.
        for at in 0..=text.len() {
            let (a, b) = text.as_bytes().split_at(at);
            assert_eq!(through_writer(&[a, b]), expected, "split at {at}");
        }
    }

    #[test]
    fn echo_caps_what_it_quotes() {
        assert_eq!(echo("short\u{1b}"), "short\\u{1b}");
        let long = "é".repeat(200);
        let quoted = echo(&long);
        assert!(quoted.starts_with(&"é".repeat(128)), "{quoted}");
        assert!(quoted.ends_with("… (144 more bytes)"), "{quoted}");
        // The cap inside a character: cut back to the character's start.
        let odd = format!("a{}", "é".repeat(200));
        assert_eq!(
            echo(&odd),
            format!("a{}… (146 more bytes)", "é".repeat(127))
        );
        let euros = "€".repeat(100);
        assert_eq!(echo(&euros), format!("{}… (45 more bytes)", "€".repeat(85)));
    }

    #[test]
    fn flush_reaches_the_wrapped_writer() {
        let mut writer = TerminalWriter::new(std::io::BufWriter::new(Vec::new()));
        writer.write_all(b"held").unwrap();
        assert!(writer.inner.get_ref().is_empty());
        writer.flush().unwrap();
        assert_eq!(writer.inner.get_ref(), b"held");
    }

    #[test]
    fn a_lead_byte_left_at_the_end_is_written_when_the_writer_finishes() {
        let mut writer = TerminalWriter::new(Vec::new());
        writer.write_all(b"x\xc2").unwrap();
        assert_eq!(writer.into_inner().unwrap(), b"x\xc2");
    }
}

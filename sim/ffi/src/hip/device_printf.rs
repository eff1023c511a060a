//! Device-side `printf` messages formatted on the host, as ROCclr's
//! printf service does: the message's words are a version (0), the format
//! string's bytes (NUL-terminated, padded to a word), then one word per
//! argument — integers zero-extended, `float`s promoted to `double` and
//! their bits sent, pointers as addresses — and, for each `%s`, the
//! string's bytes in place (NUL-terminated, padded to a word). Each
//! conversion is formatted by the C library's own `snprintf` with the
//! program's conversion specification, so the text is what the host's
//! `printf` makes of the same values.

use std::ffi::{CString, c_char, c_int, c_longlong, c_void};

/// Most bytes one conversion may format to (a width of a million).
const MAX_CONVERSION_BYTES: usize = 1 << 20;

/// The words a message's bytes are read from, a cursor moving over them.
struct Words<'a> {
    words: &'a [u64],
    next: usize,
}

impl Words<'_> {
    fn take(&mut self) -> Option<u64> {
        let w = *self.words.get(self.next)?;
        self.next += 1;
        Some(w)
    }

    /// A NUL-terminated string from the next word on, the cursor moved
    /// past its padding. A string the message ends inside ends there.
    fn string(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        while let Some(w) = self.take() {
            for b in w.to_le_bytes() {
                if b == 0 {
                    return out;
                }
                out.push(b);
            }
        }
        out
    }
}

/// Formats one `printf` message; `Err` when it is no `printf` message.
pub(crate) fn format(message: &[u64]) -> Result<Vec<u8>, String> {
    let mut words = Words {
        words: message,
        next: 0,
    };
    match words.take() {
        Some(0) => {}
        Some(v) => return Err(format!("printf message version {v} (only 0 is known)")),
        None => return Err("an empty printf message".into()),
    }
    let format = words.string();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = format.get(i) {
        if c != b'%' {
            out.push(c);
            i += 1;
            continue;
        }
        let start = i;
        let (spec, end) = parse_spec(&format, i + 1, &mut words);
        i = end;
        match spec {
            Some(spec) => convert(&spec, &mut words, &mut out),
            // What is no conversion is printed as written.
            None => out.extend_from_slice(format.get(start..end).unwrap_or(&[])),
        }
    }
    Ok(out)
}

/// A conversion specification: its text for `snprintf` (flags, width and
/// precision as numbers; the length modifier normalized) and its
/// conversion character.
struct Spec {
    text: Vec<u8>,
    length: Length,
    conversion: u8,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Length {
    /// `int` or narrower (none, `h`, `hh`): 32 bits of the word.
    Int,
    /// `l`, `ll`, `j`, `z`, `t`, `q`: 64 bits.
    Long,
}

/// Parses the specification after `%` at `start`; `*` widths and
/// precisions take their `int` from the message. Answers the spec (`None`
/// for an unknown conversion) and the index after it.
fn parse_spec(format: &[u8], start: usize, words: &mut Words) -> (Option<Spec>, usize) {
    let mut text = vec![b'%'];
    let mut i = start;
    let at = |i: usize| format.get(i).copied().unwrap_or(0);
    while matches!(at(i), b'-' | b'+' | b' ' | b'#' | b'0' | b'\'') {
        text.push(at(i));
        i += 1;
    }
    let number = |i: &mut usize, text: &mut Vec<u8>, words: &mut Words| {
        if at(*i) == b'*' {
            *i += 1;
            let n = words.take().unwrap_or(0) as u32 as i32;
            text.extend_from_slice(n.to_string().as_bytes());
        } else {
            while at(*i).is_ascii_digit() {
                text.push(at(*i));
                *i += 1;
            }
        }
    };
    number(&mut i, &mut text, words);
    if at(i) == b'.' {
        text.push(b'.');
        i += 1;
        number(&mut i, &mut text, words);
    }
    let mut length = Length::Int;
    loop {
        match at(i) {
            b'h' => {}
            b'l' | b'j' | b'z' | b't' | b'q' | b'L' => length = Length::Long,
            _ => break,
        }
        i += 1;
    }
    let conversion = at(i);
    if conversion == 0 {
        return (None, i);
    }
    i += 1;
    let known = b"diouxXcsfFeEgGaApn%".contains(&conversion);
    if !known {
        return (None, i);
    }
    let is_integer = b"diouxXc".contains(&conversion);
    if is_integer && length == Length::Long {
        text.extend_from_slice(b"ll");
    }
    text.push(conversion);
    (
        Some(Spec {
            text,
            length,
            conversion,
        }),
        i,
    )
}

/// Formats `spec` with its argument from `words` onto `out`.
fn convert(spec: &Spec, words: &mut Words, out: &mut Vec<u8>) {
    let Ok(text) = CString::new(spec.text.clone()) else {
        return;
    };
    match spec.conversion {
        b'%' => out.push(b'%'),
        // Writing back a count is not done: its argument is passed over.
        b'n' => {
            words.take();
        }
        b's' => {
            let s = words.string();
            let s = CString::new(s).unwrap_or_default();
            snprintf(&text, out, |buf, n, f| {
                // SAFETY: `f` is a NUL-terminated `%…s` specification
                // and `s` a NUL-terminated string, both live for the call;
                // `buf` holds `n` bytes (or is null with `n` 0).
                unsafe { libc::snprintf(buf, n, f, s.as_ptr()) }
            });
        }
        b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
            let v = f64::from_bits(words.take().unwrap_or(0));
            snprintf(&text, out, |buf, n, f| {
                // SAFETY: `f` is a NUL-terminated floating-point
                // specification taking one `double`; `buf` holds `n` bytes.
                unsafe { libc::snprintf(buf, n, f, v) }
            });
        }
        b'p' => {
            let v = words.take().unwrap_or(0) as usize as *const c_void;
            snprintf(&text, out, |buf, n, f| {
                // SAFETY: `%p` reads the pointer's value only; `buf` holds
                // `n` bytes.
                unsafe { libc::snprintf(buf, n, f, v) }
            });
        }
        _ => {
            let w = words.take().unwrap_or(0);
            match spec.length {
                Length::Long => {
                    let v = w as c_longlong;
                    snprintf(&text, out, |buf, n, f| {
                        // SAFETY: `f` is an integer specification with the
                        // `ll` modifier taking one `long long`; `buf`
                        // holds `n` bytes.
                        unsafe { libc::snprintf(buf, n, f, v) }
                    });
                }
                Length::Int => {
                    let v = w as u32 as c_int;
                    snprintf(&text, out, |buf, n, f| {
                        // SAFETY: `f` is an integer or `%c` specification
                        // (at most `h`/`hh`) taking one `int`; `buf` holds
                        // `n` bytes.
                        unsafe { libc::snprintf(buf, n, f, v) }
                    });
                }
            }
        }
    }
}

/// Runs `call` (an `snprintf` of one value) to measure, then to format
/// onto `out`.
fn snprintf(
    spec: &CString,
    out: &mut Vec<u8>,
    call: impl Fn(*mut c_char, usize, *const c_char) -> c_int,
) {
    let Ok(len) = usize::try_from(call(std::ptr::null_mut(), 0, spec.as_ptr())) else {
        return;
    };
    if len > MAX_CONVERSION_BYTES {
        return;
    }
    let mut buf = vec![0u8; len + 1];
    call(buf.as_mut_ptr().cast(), buf.len(), spec.as_ptr());
    buf.truncate(len);
    out.extend_from_slice(&buf);
}

unsafe extern "C" {
    /// C's standard output stream (glibc's `stdout`).
    static stdout: *mut libc::FILE;
}

/// Writes `bytes` to C's `stdout`, where the program's own `printf` goes.
pub(crate) fn write_stdout(bytes: &[u8]) {
    if bytes.is_empty() {
        return;
    }
    // SAFETY: `stdout` is glibc's stream, valid for the process's life;
    // `bytes` is live for the call.
    unsafe {
        libc::fwrite(bytes.as_ptr().cast(), 1, bytes.len(), stdout);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs a message: the version, the format string, then `args`.
    fn message(format: &str, args: &[u64]) -> Vec<u64> {
        let mut words = vec![0];
        words.extend(string_words(format));
        words.extend_from_slice(args);
        words
    }

    fn string_words(s: &str) -> Vec<u64> {
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        bytes
            .chunks(8)
            .map(|c| {
                let mut w = [0u8; 8];
                w[..c.len()].copy_from_slice(c);
                u64::from_le_bytes(w)
            })
            .collect()
    }

    fn text(m: &[u64]) -> String {
        String::from_utf8(format(m).unwrap()).unwrap()
    }

    // Expected texts are C's printf of the same values, written out.
    #[test]
    fn integers_take_their_width_from_the_length_modifier() {
        let m = message(
            "%d %u %x %ld %lld %5d|%-4d|%c",
            &[
                u32::MAX as u64,
                u32::MAX as u64,
                255,
                u64::MAX,
                1 << 40,
                42,
                7,
                b'z' as u64,
            ],
        );
        assert_eq!(text(&m), "-1 4294967295 ff -1 1099511627776    42|7   |z");
    }

    #[test]
    fn floats_strings_and_star_widths() {
        let mut m = message(
            "%f %.2e %g [%*d] %s!",
            &[
                0.5f64.to_bits(),
                12345.678f64.to_bits(),
                1e-5f64.to_bits(),
                6,
                9,
            ],
        );
        m.extend(string_words("a string longer than eight bytes"));
        assert_eq!(
            text(&m),
            "0.500000 1.23e+04 1e-05 [     9] a string longer than eight bytes!"
        );
    }

    #[test]
    fn a_missing_argument_or_unknown_conversion_does_not_fail() {
        assert_eq!(text(&message("%d and %y 100%%", &[])), "0 and %y 100%");
    }

    #[test]
    fn a_message_of_another_version_is_refused() {
        let err = format(&[1, 0]).unwrap_err();
        assert!(err.contains("version 1"), "{err}");
        assert!(format(&[]).is_err());
    }
}

//! A pull reader over the MessagePack subset AMDGPU metadata uses, borrowing
//! strings from the input. Markers are classified with `rmp::Marker`; lengths
//! and values are read with checked big-endian reads, so nothing is read past
//! the slice and no allocation depends on a claimed count.

use rmp::Marker;

use crate::{Result, Status, status};

/// Deepest container nesting accepted (IREE's skip limit). Real metadata is
/// about four levels deep.
pub const MAX_NESTING_DEPTH: u32 = 64;
/// Longest string accepted, in bytes (symbol names, value kinds, type names).
pub const MAX_STRING_LENGTH: usize = 64 * 1024;

/// A cursor over a MessagePack buffer.
#[derive(Clone, Debug)]
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

fn truncated() -> Status {
    Status::invalid_argument("truncated AMDGPU MessagePack metadata")
}

impl<'a> Reader<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Reader<'a> {
        Reader { data, pos: 0 }
    }

    pub(crate) fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    pub(crate) fn is_at_end(&self) -> bool {
        self.remaining() == 0
    }

    fn take(&mut self, len: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(len).ok_or_else(truncated)?;
        let bytes = self.data.get(self.pos..end).ok_or_else(truncated)?;
        self.pos = end;
        Ok(bytes)
    }

    fn byte(&mut self) -> Result<u8> {
        let byte = *self.data.get(self.pos).ok_or_else(truncated)?;
        self.pos += 1;
        Ok(byte)
    }

    fn be<const N: usize>(&mut self) -> Result<[u8; N]> {
        let bytes = self.take(N)?;
        bytes.try_into().map_err(|_| truncated())
    }

    fn u8_len(&mut self) -> Result<usize> {
        Ok(usize::from(self.byte()?))
    }

    fn u16_len(&mut self) -> Result<usize> {
        Ok(usize::from(u16::from_be_bytes(self.be()?)))
    }

    fn u32_len(&mut self) -> Result<usize> {
        usize::try_from(u32::from_be_bytes(self.be()?)).map_err(|_| truncated())
    }

    fn peek_marker(&self) -> Result<Marker> {
        self.data
            .get(self.pos)
            .map(|&byte| Marker::from_u8(byte))
            .ok_or_else(truncated)
    }

    /// Each element needs at least `min_bytes` bytes: a count the rest of the
    /// buffer cannot hold is rejected before anything loops over it.
    fn check_count(&self, count: usize, min_bytes: usize) -> Result<usize> {
        if count.saturating_mul(min_bytes) > self.remaining() {
            return Err(status!(
                InvalidArgument,
                "AMDGPU MessagePack container claims {count} elements but only {} bytes remain",
                self.remaining()
            ));
        }
        Ok(count)
    }

    /// A map header: the number of key/value pairs.
    pub(crate) fn read_map_len(&mut self) -> Result<usize> {
        let count = match self.peek_marker()? {
            Marker::FixMap(n) => {
                self.pos += 1;
                usize::from(n)
            }
            Marker::Map16 => {
                self.pos += 1;
                self.u16_len()?
            }
            Marker::Map32 => {
                self.pos += 1;
                self.u32_len()?
            }
            other => {
                return Err(status!(
                    InvalidArgument,
                    "expected AMDGPU MessagePack map tag, got 0x{:02X}",
                    other.to_u8()
                ));
            }
        };
        self.check_count(count, 2)
    }

    /// An array header: the number of elements.
    pub(crate) fn read_array_len(&mut self) -> Result<usize> {
        let count = match self.peek_marker()? {
            Marker::FixArray(n) => {
                self.pos += 1;
                usize::from(n)
            }
            Marker::Array16 => {
                self.pos += 1;
                self.u16_len()?
            }
            Marker::Array32 => {
                self.pos += 1;
                self.u32_len()?
            }
            other => {
                return Err(status!(
                    InvalidArgument,
                    "expected AMDGPU MessagePack array tag, got 0x{:02X}",
                    other.to_u8()
                ));
            }
        };
        self.check_count(count, 1)
    }

    /// The raw bytes of a string (`bin` is not a string), borrowed from the
    /// input and not yet checked to be UTF-8: map keys are only compared with
    /// known ASCII names, so validating them would be wasted work.
    #[inline(always)]
    pub(crate) fn read_str_bytes(&mut self) -> Result<&'a [u8]> {
        // A fixstr (`0b101xxxxx`, at most 31 bytes), what every metadata
        // key and most values are: its one byte is the whole header.
        if let Some(&marker) = self.data.get(self.pos)
            && marker & 0xe0 == 0xa0
        {
            self.pos += 1;
            return self.take(usize::from(marker & 0x1f));
        }
        let len = match self.peek_marker()? {
            Marker::FixStr(n) => {
                self.pos += 1;
                usize::from(n)
            }
            Marker::Str8 => {
                self.pos += 1;
                self.u8_len()?
            }
            Marker::Str16 => {
                self.pos += 1;
                self.u16_len()?
            }
            Marker::Str32 => {
                self.pos += 1;
                self.u32_len()?
            }
            other => {
                return Err(status!(
                    InvalidArgument,
                    "expected AMDGPU MessagePack string tag, got 0x{:02X}",
                    other.to_u8()
                ));
            }
        };
        if len > MAX_STRING_LENGTH {
            return Err(status!(
                InvalidArgument,
                "AMDGPU MessagePack string of {len} bytes exceeds the {MAX_STRING_LENGTH}-byte limit"
            ));
        }
        self.take(len)
    }

    /// A UTF-8 string, borrowed from the input.
    pub(crate) fn read_str(&mut self) -> Result<&'a str> {
        let bytes = self.read_str_bytes()?;
        std::str::from_utf8(bytes)
            .map_err(|_| Status::invalid_argument("AMDGPU MessagePack string is not valid UTF-8"))
    }

    /// A UTF-8 string that is usually one of the names `known` recognizes
    /// (an argument's value kind, an address space): a known name is
    /// given as the static string equal to it, with no UTF-8 check to pay
    /// for; any other is read as [`Reader::read_str`] reads it.
    pub(crate) fn read_name(
        &mut self,
        known: fn(&[u8]) -> Option<&'static str>,
    ) -> Result<&'a str> {
        let bytes = self.read_str_bytes()?;
        match known(bytes) {
            Some(name) => Ok(name),
            None => std::str::from_utf8(bytes).map_err(|_| {
                Status::invalid_argument("AMDGPU MessagePack string is not valid UTF-8")
            }),
        }
    }

    /// A non-negative integer of any width.
    pub(crate) fn read_u64(&mut self) -> Result<u64> {
        let marker = self.peek_marker()?;
        self.pos += 1;
        let negative =
            || Status::invalid_argument("expected non-negative AMDGPU MessagePack integer");
        Ok(match marker {
            Marker::FixPos(n) => u64::from(n),
            Marker::U8 => u64::from(self.byte()?),
            Marker::U16 => u64::from(u16::from_be_bytes(self.be()?)),
            Marker::U32 => u64::from(u32::from_be_bytes(self.be()?)),
            Marker::U64 => u64::from_be_bytes(self.be()?),
            Marker::I8 => u64::try_from(i8::from_be_bytes(self.be()?)).map_err(|_| negative())?,
            Marker::I16 => u64::try_from(i16::from_be_bytes(self.be()?)).map_err(|_| negative())?,
            Marker::I32 => u64::try_from(i32::from_be_bytes(self.be()?)).map_err(|_| negative())?,
            Marker::I64 => u64::try_from(i64::from_be_bytes(self.be()?)).map_err(|_| negative())?,
            Marker::FixNeg(_) => return Err(negative()),
            other => {
                self.pos -= 1;
                return Err(status!(
                    InvalidArgument,
                    "expected AMDGPU MessagePack integer tag, got 0x{:02X}",
                    other.to_u8()
                ));
            }
        })
    }

    /// A non-negative integer that fits in `u32` (`OUT_OF_RANGE` otherwise).
    #[inline(always)]
    pub(crate) fn read_u32(&mut self) -> Result<u32> {
        // A positive fixint (`0b0xxxxxxx`), what most counts and offsets are.
        if let Some(&byte) = self.data.get(self.pos)
            && byte < 0x80
        {
            self.pos += 1;
            return Ok(u32::from(byte));
        }
        let value = self.read_u64()?;
        u32::try_from(value).map_err(|_| {
            status!(
                OutOfRange,
                "AMDGPU metadata integer exceeds uint32_t: {value}"
            )
        })
    }

    /// A boolean.
    pub(crate) fn read_bool(&mut self) -> Result<bool> {
        match self.peek_marker()? {
            Marker::True => {
                self.pos += 1;
                Ok(true)
            }
            Marker::False => {
                self.pos += 1;
                Ok(false)
            }
            other => Err(status!(
                InvalidArgument,
                "expected AMDGPU MessagePack boolean tag, got 0x{:02X}",
                other.to_u8()
            )),
        }
    }

    /// Skips one value of any type, containers included, nested at most
    /// [`MAX_NESTING_DEPTH`] deep below `depth`.
    pub(crate) fn skip(&mut self, depth: u32) -> Result<()> {
        if depth > MAX_NESTING_DEPTH {
            return Err(status!(
                InvalidArgument,
                "AMDGPU MessagePack metadata is nested too deeply (more than {MAX_NESTING_DEPTH} levels)"
            ));
        }
        let marker = self.peek_marker()?;
        let skip_bytes = match marker {
            Marker::FixPos(_) | Marker::FixNeg(_) | Marker::Null | Marker::True | Marker::False => {
                0
            }
            Marker::U8 | Marker::I8 => 1,
            Marker::U16 | Marker::I16 => 2,
            Marker::U32 | Marker::I32 | Marker::F32 => 4,
            Marker::U64 | Marker::I64 | Marker::F64 => 8,
            Marker::FixExt1 => 2,
            Marker::FixExt2 => 3,
            Marker::FixExt4 => 5,
            Marker::FixExt8 => 9,
            Marker::FixExt16 => 17,
            Marker::FixStr(_) | Marker::Str8 | Marker::Str16 | Marker::Str32 => {
                self.read_str_bytes()?;
                return Ok(());
            }
            Marker::Bin8 | Marker::Ext8 => {
                self.pos += 1;
                let len = self.u8_len()?;
                self.take(len + usize::from(marker == Marker::Ext8))?;
                return Ok(());
            }
            Marker::Bin16 | Marker::Ext16 => {
                self.pos += 1;
                let len = self.u16_len()?;
                self.take(len + usize::from(marker == Marker::Ext16))?;
                return Ok(());
            }
            Marker::Bin32 | Marker::Ext32 => {
                self.pos += 1;
                let len = self.u32_len()?;
                self.take(
                    len.checked_add(usize::from(marker == Marker::Ext32))
                        .ok_or_else(truncated)?,
                )?;
                return Ok(());
            }
            Marker::FixArray(_) | Marker::Array16 | Marker::Array32 => {
                for _ in 0..self.read_array_len()? {
                    self.skip(depth + 1)?;
                }
                return Ok(());
            }
            Marker::FixMap(_) | Marker::Map16 | Marker::Map32 => {
                for _ in 0..self.read_map_len()? {
                    self.skip(depth + 1)?;
                    self.skip(depth + 1)?;
                }
                return Ok(());
            }
            Marker::Reserved => {
                return Err(status!(
                    InvalidArgument,
                    "unsupported AMDGPU MessagePack tag 0x{:02X}",
                    marker.to_u8()
                ));
            }
        };
        self.pos += 1;
        self.take(skip_bytes)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_scalars_and_rejects_negatives() {
        let mut r = Reader::new(&[
            0x05, 0xcc, 0xff, 0xd0, 0x07, 0xff, 0xd0, 0x80, 0xcf, 0, 0, 0, 1, 0, 0, 0, 0,
        ]);
        assert_eq!(r.read_u32().unwrap(), 5);
        assert_eq!(r.read_u32().unwrap(), 255);
        assert_eq!(r.read_u32().unwrap(), 7);
        assert!(r.read_u32().unwrap_err().message().contains("non-negative"));
        assert!(r.read_u32().unwrap_err().message().contains("non-negative"));
        let err = r.read_u32().unwrap_err();
        assert_eq!(err.code(), crate::StatusCode::OutOfRange);
        assert!(r.is_at_end());
    }

    #[test]
    fn skips_every_type_but_reserved() {
        let data = [
            0xc0, 0xc2, 0xc3, 0xca, 0, 0, 0, 0, 0xd4, 1, 2, 0xc4, 1, 9, 0xc7, 1, 3, 9, 0x92, 0x81,
            0xa1, b'k', 0x01, 0xe0,
        ];
        let mut r = Reader::new(&data);
        while !r.is_at_end() {
            r.skip(0).unwrap();
        }
        let err = Reader::new(&[0xc1]).skip(0).unwrap_err();
        assert!(err.message().contains("0xC1"));
    }

    #[test]
    fn rejects_claims_larger_than_the_input() {
        let err = Reader::new(&[0xdb, 0xff, 0xff, 0xff, 0xff, b'a'])
            .read_str()
            .unwrap_err();
        assert!(err.message().contains("exceeds"), "{err}");
        let err = Reader::new(&[0xdd, 0xff, 0xff, 0xff, 0xff, 0x01])
            .read_array_len()
            .unwrap_err();
        assert!(
            err.message().contains("claims 4294967295 elements"),
            "{err}"
        );
        let err = Reader::new(&[0xc6, 0xff, 0xff, 0xff, 0xff])
            .skip(0)
            .unwrap_err();
        assert!(err.message().contains("truncated"), "{err}");
    }

    #[test]
    fn names_known_or_not_read_as_their_text() {
        let data = [
            0xa6, b'g', b'l', b'o', b'b', b'a', b'l', // known
            0xa6, b'g', b'l', b'o', b'b', b'a', b'L', // not known
            0xa2, 0xff, 0xfe, // not UTF-8
        ];
        let known = |bytes: &[u8]| (bytes == b"global").then_some("global");
        let mut r = Reader::new(&data);
        let global = r.read_name(known).unwrap();
        assert_eq!(global, "global");
        assert!(
            !std::ptr::eq(global.as_ptr(), data[1..].as_ptr()),
            "the static name"
        );
        let other = r.read_name(known).unwrap();
        assert_eq!(other, "globaL");
        assert!(std::ptr::eq(other.as_ptr(), data[8..].as_ptr()), "borrowed");
        let err = r.read_name(known).unwrap_err();
        assert!(err.message().contains("not valid UTF-8"), "{err}");
    }

    #[test]
    fn one_byte_headers_are_bounded_like_the_others() {
        // A fixstr claiming more bytes than remain, then a fixint and a
        // str8 of the same text.
        let err = Reader::new(&[0xa5, b'a', b'b']).read_str().unwrap_err();
        assert!(err.message().contains("truncated"), "{err}");
        let mut r = Reader::new(&[0x7f, 0x00, 0xd9, 2, b'h', b'i', 0xa2, b'h', b'i']);
        assert_eq!(r.read_u32().unwrap(), 127);
        assert_eq!(r.read_u32().unwrap(), 0);
        assert_eq!(r.read_str().unwrap(), "hi");
        assert_eq!(r.read_str().unwrap(), "hi");
        assert!(r.is_at_end());
        assert!(r.read_u32().unwrap_err().message().contains("truncated"));
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = vec![0x91u8; 10_000];
        let err = Reader::new(&deep).skip(0).unwrap_err();
        assert!(err.message().contains("nested too deeply"), "{err}");
    }
}

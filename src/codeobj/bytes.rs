//! Bounds-checked little-endian reads from untrusted byte slices. Every read
//! returns `None` instead of panicking when it would leave the slice.

/// `len` bytes at `offset`, if they lie inside `data`.
pub(crate) fn slice_at(data: &[u8], offset: u64, len: u64) -> Option<&[u8]> {
    let start = usize::try_from(offset).ok()?;
    let end = start.checked_add(usize::try_from(len).ok()?)?;
    data.get(start..end)
}

/// A little-endian `u16` at `offset`.
pub(crate) fn u16_at(data: &[u8], offset: u64) -> Option<u16> {
    let bytes = slice_at(data, offset, 2)?;
    Some(u16::from_le_bytes(bytes.try_into().ok()?))
}

/// A little-endian `u32` at `offset`.
pub(crate) fn u32_at(data: &[u8], offset: u64) -> Option<u32> {
    let bytes = slice_at(data, offset, 4)?;
    Some(u32::from_le_bytes(bytes.try_into().ok()?))
}

/// A little-endian `u64` at `offset`.
pub(crate) fn u64_at(data: &[u8], offset: u64) -> Option<u64> {
    let bytes = slice_at(data, offset, 8)?;
    Some(u64::from_le_bytes(bytes.try_into().ok()?))
}

/// `value` rounded up to a multiple of 4, or `None` on overflow.
pub(crate) fn align4(value: u64) -> Option<u64> {
    value.checked_add(3).map(|v| v & !3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stay_in_bounds() {
        let data = [1u8, 2, 3, 4, 5, 6, 7, 8];
        assert_eq!(u16_at(&data, 0), Some(0x0201));
        assert_eq!(u32_at(&data, 4), Some(0x0807_0605));
        assert_eq!(u64_at(&data, 0), Some(0x0807_0605_0403_0201));
        assert_eq!(u32_at(&data, 5), None);
        assert_eq!(u64_at(&data, u64::MAX), None);
        assert_eq!(slice_at(&data, 8, 0), Some(&[][..]));
        assert_eq!(slice_at(&data, 1, u64::MAX), None);
        assert_eq!(align4(5), Some(8));
        assert_eq!(align4(u64::MAX), None);
    }
}

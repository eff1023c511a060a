//! A loaded code object's image as every mapping of it shares it: the
//! code object's bytes and where each segment's file image lies.

use std::ops::Range;

use crate::shared_bytes::SharedBytes;

/// The contents of a loaded code object's image, shared by every mapping
/// of it: the code object's bytes and, for each segment, where its file
/// image lies in the loaded image. Bytes no segment covers read as zero.
#[derive(Debug)]
pub struct Image {
    bytes: SharedBytes,
    /// `(offset in the image, range of `bytes`)`, in segment order: where
    /// two overlap, the later one is what a read sees (as if each had been
    /// written in turn).
    pieces: Vec<(u64, Range<usize>)>,
    size: u64,
}

impl Image {
    /// An image of `size` bytes made of `pieces` of `bytes` (each as
    /// `(offset in the image, range of bytes)`); `None` when a range lies
    /// outside `bytes` or a piece outside the image.
    pub fn new(
        bytes: impl Into<SharedBytes>,
        size: u64,
        pieces: Vec<(u64, Range<usize>)>,
    ) -> Option<Image> {
        let bytes = bytes.into();
        let fits = pieces.iter().all(|(at, range)| {
            range.start <= range.end
                && range.end <= bytes.len()
                && at
                    .checked_add((range.end - range.start) as u64)
                    .is_some_and(|end| end <= size)
        });
        fits.then_some(Image {
            bytes,
            pieces,
            size,
        })
    }

    /// The image's size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The bytes the pieces are ranges of.
    pub fn bytes(&self) -> &SharedBytes {
        &self.bytes
    }

    /// Reads `out.len()` bytes at `offset` of the image (zero where no
    /// piece covers them).
    pub fn read(&self, offset: u64, out: &mut [u8]) {
        out.fill(0);
        let end = offset.saturating_add(out.len() as u64);
        for (at, range) in &self.pieces {
            let piece_end = at + (range.end - range.start) as u64;
            let (from, to) = (offset.max(*at), end.min(piece_end));
            if from >= to {
                continue;
            }
            let src = range.start + (from - at) as usize..range.start + (to - at) as usize;
            let dst = (from - offset) as usize..(to - offset) as usize;
            if let (Some(dst), Some(src)) = (out.get_mut(dst), self.bytes.get(src)) {
                dst.copy_from_slice(src);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[test]
    fn an_image_refuses_pieces_outside_its_bytes_or_its_size() {
        let bytes: Arc<[u8]> = Arc::from(&[1u8; 16][..]);
        assert!(Image::new(Arc::clone(&bytes), 32, vec![(0, 0..17)]).is_none());
        assert!(Image::new(Arc::clone(&bytes), 32, vec![(17, 0..16)]).is_none());
        assert!(Image::new(Arc::clone(&bytes), 32, vec![(u64::MAX, 0..16)]).is_none());
        assert!(Image::new(bytes, 32, vec![(16, 0..16)]).is_some());
    }
}

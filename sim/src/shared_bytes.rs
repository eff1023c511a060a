//! Bytes several holders share without copying them: a code object's bytes
//! as its reader, its loaded image and the caller's own records keep them.
//! The owner can be anything that gives bytes — a reference-counted slice
//! or the caller's memory map of the file — and a holder sees a byte range
//! of it, so a code object inside a wrapped executable is shared as the
//! range it occupies.

use std::fmt;
use std::ops::{Deref, Range};
use std::sync::Arc;

/// What owns shared bytes.
pub type ByteOwner = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// A byte range of a shared owner; cloning shares, never copies.
#[derive(Clone)]
pub struct SharedBytes {
    owner: ByteOwner,
    range: Range<usize>,
}

impl SharedBytes {
    /// `range` of `owner`'s bytes; `None` when it does not lie inside them.
    pub fn new(owner: ByteOwner, range: Range<usize>) -> Option<SharedBytes> {
        let bytes: &[u8] = (*owner).as_ref();
        bytes.get(range.clone())?;
        Some(SharedBytes { owner, range })
    }

    /// The whole of `owner`'s bytes.
    pub fn whole(owner: ByteOwner) -> SharedBytes {
        let len = (*owner).as_ref().len();
        SharedBytes {
            owner,
            range: 0..len,
        }
    }

    /// `part`, a slice of these bytes (found by its address), shared with
    /// them; `None` when `part` does not lie inside them.
    pub fn share_part(&self, part: &[u8]) -> Option<SharedBytes> {
        let base = self.as_ptr() as usize;
        let start = (part.as_ptr() as usize).checked_sub(base)?;
        let end = start.checked_add(part.len())?;
        if end > self.len() {
            return None;
        }
        Some(SharedBytes {
            owner: Arc::clone(&self.owner),
            range: self.range.start + start..self.range.start + end,
        })
    }
}

impl Deref for SharedBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        // `new` checked the range; an owner whose length changed since
        // reads as empty rather than out of bounds.
        (*self.owner)
            .as_ref()
            .get(self.range.clone())
            .unwrap_or(&[])
    }
}

impl AsRef<[u8]> for SharedBytes {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl From<Arc<[u8]>> for SharedBytes {
    fn from(bytes: Arc<[u8]>) -> SharedBytes {
        SharedBytes::whole(Arc::new(bytes))
    }
}

impl From<Vec<u8>> for SharedBytes {
    fn from(bytes: Vec<u8>) -> SharedBytes {
        SharedBytes::whole(Arc::new(bytes))
    }
}

impl From<&[u8]> for SharedBytes {
    /// A copy of `bytes`, to be shared from now on.
    fn from(bytes: &[u8]) -> SharedBytes {
        SharedBytes::from(bytes.to_vec())
    }
}

impl fmt::Debug for SharedBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SharedBytes({} bytes)", self.len())
    }
}

impl PartialEq for SharedBytes {
    fn eq(&self, other: &SharedBytes) -> bool {
        self[..] == other[..]
    }
}

impl Eq for SharedBytes {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_reads_its_bytes_and_parts_are_shared_not_copied() {
        let owner: ByteOwner = Arc::new((0..100u8).collect::<Vec<u8>>());
        let middle = SharedBytes::new(Arc::clone(&owner), 10..30).unwrap();
        assert_eq!(&middle[..], &(10..30u8).collect::<Vec<u8>>()[..]);
        assert!(SharedBytes::new(Arc::clone(&owner), 90..101).is_none());
        #[allow(clippy::reversed_empty_ranges)]
        let reversed = SharedBytes::new(Arc::clone(&owner), 30..10);
        assert!(reversed.is_none());
        let part = middle.share_part(&middle[5..8]).unwrap();
        assert_eq!(&part[..], &[15, 16, 17]);
        assert_eq!(
            part.as_ptr(),
            middle[5..].as_ptr(),
            "the same bytes, not a copy"
        );
        assert!(middle.share_part(&[1, 2, 3]).is_none());
        let whole = SharedBytes::whole(Arc::clone(&owner));
        assert!(
            middle.share_part(&whole[25..35]).is_none(),
            "runs past the end"
        );
        assert!(middle.share_part(&whole[5..12]).is_none(), "starts before");
        assert_eq!(whole.share_part(&middle[..]).unwrap(), middle);
        assert_eq!(format!("{middle:?}"), "SharedBytes(20 bytes)");
        let copied = SharedBytes::from(&middle[..]);
        assert_eq!(copied, middle);
        assert_ne!(copied.as_ptr(), middle.as_ptr());
    }
}

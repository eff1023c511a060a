//! What a client read back from the devices: every copy whose destination
//! is the client's host memory and whose bytes came from a simulated
//! device (a HIP device-to-host copy, in any API, stream or graph node; an
//! HSA copy into host memory), summed into a digest the report prints
//! (`read_back_copies`, `read_back_bytes`, `read_back_digest`).
//!
//! Two runs of one program whose results are the same bits have the same
//! digest whatever order their copies ran in: each copy's bytes hash to 64
//! bits and the digest is the wrapping sum of those hashes, so a client's
//! threads (IREE reads results back from several) may copy in any order.
//! The sum, not an exclusive or, so that two equal copies do not cancel.
//! The hash is not cryptographic: it tells results apart, nothing more.
//!
//! Hashing costs a pass over every byte read back, so it runs only while a
//! report is written (`AMDGPU_SIM_REPORT`); without one nothing is counted.

use std::sync::atomic::{AtomicU64, Ordering};

/// The running totals; every field only grows, so each is an atomic of its
/// own and recording takes no lock.
#[derive(Debug, Default)]
pub(crate) struct ReadBack {
    enabled: bool,
    copies: AtomicU64,
    bytes: AtomicU64,
    digest: AtomicU64,
}

/// The totals at one moment, as the report prints them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ReadBackTotals {
    /// Copies recorded.
    pub(crate) copies: u64,
    /// Their bytes, in all.
    pub(crate) bytes: u64,
    /// The wrapping sum of every copy's [`hash`].
    pub(crate) digest: u64,
}

impl ReadBack {
    /// Totals that count only when `enabled` (a report is written).
    pub(crate) fn new(enabled: bool) -> ReadBack {
        ReadBack {
            enabled,
            ..ReadBack::default()
        }
    }

    /// Counts one copy's bytes, as they reached the client.
    pub(crate) fn record(&self, bytes: &[u8]) {
        if !self.enabled {
            return;
        }
        self.copies.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        self.digest.fetch_add(hash(bytes), Ordering::Relaxed);
    }

    /// The totals so far.
    pub(crate) fn totals(&self) -> ReadBackTotals {
        ReadBackTotals {
            copies: self.copies.load(Ordering::Relaxed),
            bytes: self.bytes.load(Ordering::Relaxed),
            digest: self.digest.load(Ordering::Relaxed),
        }
    }
}

/// The report's lines for `totals`.
pub(crate) fn render(totals: &ReadBackTotals) -> String {
    format!(
        "read_back_copies {}\nread_back_bytes {}\nread_back_digest {:016x}\n",
        totals.copies, totals.bytes, totals.digest
    )
}

/// A 64-bit hash of `bytes` (their length included): eight bytes a step,
/// each word mixed by a multiply and a rotation, the tail padded with
/// zeros, the result through SplitMix64's finalizer so that every input
/// bit reaches every output bit.
pub(crate) fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let w = u64::from_le_bytes(word.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(K).rotate_left(31);
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        let mut last = [0u8; 8];
        last[..tail.len()].copy_from_slice(tail);
        h = (h ^ u64::from_le_bytes(last))
            .wrapping_mul(K)
            .rotate_left(31);
    }
    finalize(h)
}

/// SplitMix64's output function.
fn finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_does_not_depend_on_the_order_of_copies() {
        let (a, b) = (ReadBack::new(true), ReadBack::new(true));
        let copies: [&[u8]; 3] = [b"first result", &[0; 4096], b"x"];
        for copy in copies {
            a.record(copy);
        }
        for copy in copies.iter().rev() {
            b.record(copy);
        }
        assert_eq!(a.totals(), b.totals());
        assert_eq!(a.totals().copies, 3);
        assert_eq!(a.totals().bytes, 12 + 4096 + 1);
    }

    #[test]
    fn one_different_bit_or_byte_count_changes_the_digest() {
        let base = vec![0x5au8; 1000];
        let mut flipped = base.clone();
        flipped[999] ^= 1;
        assert_ne!(hash(&base), hash(&flipped));
        // A trailing zero byte is not the same copy.
        assert_ne!(hash(&base[..999]), hash(&base[..1000]));
        assert_ne!(hash(&[]), hash(&[0]));
        // Two equal copies do not cancel out.
        let twice = ReadBack::new(true);
        twice.record(&base);
        twice.record(&base);
        assert_ne!(twice.totals().digest, 0);
        assert_eq!(twice.totals().digest, hash(&base).wrapping_mul(2));
    }

    #[test]
    fn nothing_is_counted_without_a_report() {
        let off = ReadBack::new(false);
        off.record(b"result");
        assert_eq!(off.totals(), ReadBackTotals::default());
        assert_eq!(
            render(&off.totals()),
            "read_back_copies 0\nread_back_bytes 0\nread_back_digest 0000000000000000\n"
        );
    }
}

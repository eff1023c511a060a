//! Simulated device memory: allocations per pool with capacity enforced,
//! loaded code-object images, and sparse byte storage so that copies really
//! copy (tests read what they wrote) without backing terabytes.
//!
//! A loaded image is not copied per mapping: every mapping of one code
//! object references one shared [`Image`] (the code object's bytes and where
//! its segments lie), and a write into a mapping copies the pages it touches
//! into that mapping alone (copy-on-write), so reads see what was written
//! there and every other mapping of the image is unchanged.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::sync::Arc;

use crate::codes::HsaCode;
use crate::shared_bytes::SharedBytes;

/// Bytes per storage page.
pub const PAGE_BYTES: u64 = 4096;
/// Simulated address window of each pool (2 TiB): small enough that the
/// windows of the first 127 pools lie below 2^48, the base a buffer
/// resource (V#) holds, so a kernel reaches an allocation of any GPU of
/// an 8-GPU node (40 pools on the presets); a pool larger than its window
/// gives at most the window.
pub const POOL_WINDOW_BYTES: u64 = 1 << 41;
/// Largest single `memory_copy`.
pub const MAX_COPY_BYTES: u64 = 1 << 32;

/// What a region of simulated memory is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionKind {
    /// An allocation from pool `pool` (global pool index).
    Allocation {
        /// Global pool index.
        pool: usize,
    },
    /// A loaded code object's image.
    CodeObject,
}

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
    fn read(&self, offset: u64, out: &mut [u8]) {
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

#[derive(Clone, Debug)]
struct Region {
    kind: RegionKind,
    size: u64,
    reserved: u64,
    /// The shared contents of a mapped image (code objects only).
    image: Option<Arc<Image>>,
    // Sparse contents: absent pages read as the image (zero without one);
    // a page of an image is copied here when it is first written.
    pages: BTreeMap<u64, Box<[u8]>>,
}

/// What the mapped code-object images hold (for tests and reports).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImageUsage {
    /// Mapped code-object regions.
    pub mappings: u64,
    /// Distinct shared images they reference.
    pub shared_images: u64,
    /// Bytes those shared images hold (each counted once).
    pub shared_bytes: u64,
    /// Pages copied into mappings by writes (copy-on-write).
    pub private_pages: u64,
    /// Mappings no loaded code object or HIP module owns: a leak, always 0
    /// ([`crate::Sim::image_usage`] counts them; `Memory` alone cannot).
    pub unowned_mappings: u64,
}

/// Per-pool accounting.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PoolUsage {
    /// Bytes reserved by live allocations (rounded to the granule).
    pub reserved_bytes: u64,
    /// Live allocations.
    pub allocations: u64,
}

/// All simulated memory.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    regions: BTreeMap<u64, Region>,
    usage: Vec<PoolUsage>,
    next: Vec<u64>,
}

/// Start of pool `pool`'s address window.
pub fn pool_base(pool: usize) -> u64 {
    (pool as u64 + 1) * POOL_WINDOW_BYTES
}

impl Memory {
    /// Memory for `pool_count` pools.
    pub fn new(pool_count: usize) -> Memory {
        Memory {
            regions: BTreeMap::new(),
            usage: vec![PoolUsage::default(); pool_count],
            next: vec![0; pool_count],
        }
    }

    /// Usage of pool `pool`.
    pub fn usage(&self, pool: usize) -> PoolUsage {
        self.usage.get(pool).cloned().unwrap_or_default()
    }

    /// Live allocations over all pools.
    pub fn live_allocations(&self) -> u64 {
        self.usage.iter().map(|u| u.allocations).sum()
    }

    /// Reserves `size` bytes (rounded up to `granule`, aligned to `alignment`)
    /// in pool `pool` of capacity `capacity`.
    pub fn allocate(
        &mut self,
        pool: usize,
        size: u64,
        granule: u64,
        alignment: u64,
        capacity: u64,
    ) -> Result<u64, HsaCode> {
        let granule = granule.max(1);
        let reserved = size
            .div_ceil(granule)
            .checked_mul(granule)
            .ok_or(HsaCode::OUT_OF_RESOURCES)?;
        let usage = self.usage.get(pool).ok_or(HsaCode::INVALID_MEMORY_POOL)?;
        if usage
            .reserved_bytes
            .checked_add(reserved)
            .is_none_or(|total| total > capacity)
        {
            return Err(HsaCode::OUT_OF_RESOURCES);
        }
        let align = alignment.max(granule).max(1).next_power_of_two();
        let base = pool_base(pool);
        let next = self.next.get(pool).copied().unwrap_or(0);
        // Addresses are handed out in order and never reused while space
        // remains, so stale pointers stay invalid; wrap to a first fit otherwise.
        let offset = align_up(next, align)
            .filter(|o| {
                o.checked_add(reserved)
                    .is_some_and(|end| end <= POOL_WINDOW_BYTES)
            })
            .or_else(|| self.first_fit(pool, reserved, align))
            .ok_or(HsaCode::OUT_OF_RESOURCES)?;
        let address = base + offset;
        self.regions.insert(
            address,
            Region {
                kind: RegionKind::Allocation { pool },
                size,
                reserved,
                image: None,
                pages: BTreeMap::new(),
            },
        );
        if let Some(n) = self.next.get_mut(pool) {
            *n = offset + reserved;
        }
        if let Some(u) = self.usage.get_mut(pool) {
            u.reserved_bytes += reserved;
            u.allocations += 1;
        }
        Ok(address)
    }

    fn first_fit(&self, pool: usize, reserved: u64, align: u64) -> Option<u64> {
        let base = pool_base(pool);
        let mut cursor = 0u64;
        for (&address, region) in self.regions.range(base..base + POOL_WINDOW_BYTES) {
            let start = address - base;
            let candidate = align_up(cursor, align)?;
            if candidate.checked_add(reserved)? <= start {
                return Some(candidate);
            }
            cursor = start + region.reserved;
        }
        let candidate = align_up(cursor, align)?;
        (candidate.checked_add(reserved)? <= POOL_WINDOW_BYTES).then_some(candidate)
    }

    /// Frees the allocation starting at `address`.
    pub fn free(&mut self, address: u64) -> Result<(), HsaCode> {
        match self.regions.get(&address) {
            Some(Region {
                kind: RegionKind::Allocation { pool },
                reserved,
                ..
            }) => {
                let (pool, reserved) = (*pool, *reserved);
                self.regions.remove(&address);
                if let Some(u) = self.usage.get_mut(pool) {
                    u.reserved_bytes -= reserved;
                    u.allocations -= 1;
                }
                Ok(())
            }
            _ => Err(HsaCode::INVALID_ALLOCATION),
        }
    }

    /// Maps `image` at `address`: the mapping references the shared image
    /// and copies nothing until it is written.
    pub fn map_image(&mut self, address: u64, image: Arc<Image>) {
        self.regions.insert(
            address,
            Region {
                kind: RegionKind::CodeObject,
                size: image.size,
                reserved: image.size,
                image: Some(image),
                pages: BTreeMap::new(),
            },
        );
    }

    /// What the mapped code-object images hold.
    pub fn image_usage(&self) -> ImageUsage {
        let mut usage = ImageUsage::default();
        let mut seen = BTreeSet::new();
        for region in self.regions.values() {
            let Some(image) = &region.image else { continue };
            usage.mappings += 1;
            usage.private_pages += region.pages.len() as u64;
            if seen.insert(Arc::as_ptr(image)) {
                usage.shared_images += 1;
                usage.shared_bytes += image.bytes.len() as u64;
            }
        }
        usage
    }

    /// The bases of the mapped code-object images.
    pub fn image_bases(&self) -> impl Iterator<Item = u64> + '_ {
        self.regions
            .iter()
            .filter(|(_, region)| region.image.is_some())
            .map(|(&base, _)| base)
    }

    /// Unmaps a code-object image.
    pub fn unmap_image(&mut self, address: u64) {
        if matches!(
            self.regions.get(&address),
            Some(Region {
                kind: RegionKind::CodeObject,
                ..
            })
        ) {
            self.regions.remove(&address);
        }
    }

    /// The region holding `[address, address + len)`, as (base, region).
    fn region_mut(&mut self, address: u64, len: u64) -> Result<(u64, &mut Region), HsaCode> {
        let (&base, region) = self
            .regions
            .range_mut(..=address)
            .next_back()
            .ok_or(HsaCode::INVALID_ARGUMENT)?;
        let end = address.checked_add(len).ok_or(HsaCode::INVALID_ARGUMENT)?;
        if end > base + region.size {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        Ok((base, region))
    }

    /// The kind of region that holds `address`, and its base.
    pub fn region_of(&self, address: u64) -> Option<(u64, RegionKind)> {
        let (&base, region) = self.regions.range(..=address).next_back()?;
        (address < base + region.size).then_some((base, region.kind))
    }

    /// Writes `bytes` at `address`.
    pub fn write(&mut self, address: u64, bytes: &[u8]) -> Result<(), HsaCode> {
        let len = bytes.len() as u64;
        if len > MAX_COPY_BYTES {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        let (base, region) = self.region_mut(address, len)?;
        let mut done = 0u64;
        while done < len {
            let offset = address - base + done;
            let page = offset / PAGE_BYTES;
            let in_page = offset % PAGE_BYTES;
            let n = (PAGE_BYTES - in_page).min(len - done);
            let image = &region.image;
            let storage = region.pages.entry(page).or_insert_with(|| {
                let mut fresh = vec![0u8; PAGE_BYTES as usize].into_boxed_slice();
                if let Some(image) = image {
                    image.read(page * PAGE_BYTES, &mut fresh);
                }
                fresh
            });
            let (src_start, src_end) = (done as usize, (done + n) as usize);
            if let (Some(dst), Some(src)) = (
                storage.get_mut(in_page as usize..(in_page + n) as usize),
                bytes.get(src_start..src_end),
            ) {
                dst.copy_from_slice(src);
            }
            done += n;
        }
        Ok(())
    }

    /// Reads `out.len()` bytes at `address`.
    pub fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), HsaCode> {
        let len = out.len() as u64;
        if len > MAX_COPY_BYTES {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        let (base, region) = self.region_mut(address, len)?;
        let mut done = 0u64;
        while done < len {
            let offset = address - base + done;
            let page = offset / PAGE_BYTES;
            let in_page = offset % PAGE_BYTES;
            let n = (PAGE_BYTES - in_page).min(len - done);
            if let Some(dst) = out.get_mut(done as usize..(done + n) as usize) {
                match (region.pages.get(&page), &region.image) {
                    (Some(p), _) => match p.get(in_page as usize..(in_page + n) as usize) {
                        Some(src) => dst.copy_from_slice(src),
                        None => dst.fill(0),
                    },
                    (None, Some(image)) => image.read(offset, dst),
                    (None, None) => dst.fill(0),
                }
            }
            done += n;
        }
        Ok(())
    }
}

fn align_up(value: u64, align: u64) -> Option<u64> {
    value.checked_add(align - 1).map(|v| v & !(align - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_127_pool_windows_lie_below_a_buffer_resources_base() {
        // A V# holds a 48-bit base: an allocation above it is unreachable
        // by the buffer instructions a kernel uses.
        assert!(pool_base(126) + POOL_WINDOW_BYTES <= 1 << 48);
        assert!(pool_base(127) + POOL_WINDOW_BYTES > 1 << 48);
        assert_eq!(pool_base(0), POOL_WINDOW_BYTES);
    }

    #[test]
    fn capacity_and_round_trip() {
        let mut memory = Memory::new(1);
        let a = memory.allocate(0, 100, 4096, 4096, 8192).unwrap();
        let b = memory.allocate(0, 4096, 4096, 4096, 8192).unwrap();
        assert_eq!(
            memory.allocate(0, 1, 4096, 4096, 8192),
            Err(HsaCode::OUT_OF_RESOURCES)
        );
        memory.write(a + 10, b"hello").unwrap();
        let mut out = [0u8; 7];
        memory.read(a + 9, &mut out).unwrap();
        assert_eq!(&out, b"\0hello\0");
        assert_eq!(memory.write(a + 98, b"abc"), Err(HsaCode::INVALID_ARGUMENT));
        assert_eq!(memory.free(a + 1), Err(HsaCode::INVALID_ALLOCATION));
        memory.free(a).unwrap();
        assert_eq!(memory.free(a), Err(HsaCode::INVALID_ALLOCATION));
        memory.free(b).unwrap();
        assert_eq!(memory.live_allocations(), 0);
    }

    /// An image of two pieces over 3 pages: bytes 1..=200 at 100, and
    /// bytes 50..=249 at 4090 (across the first page boundary); a third
    /// piece overlaps the first, and the later one wins.
    fn image() -> (Arc<Image>, Vec<u8>) {
        let bytes: Arc<[u8]> = (0..=255u8).collect::<Vec<u8>>().into();
        let pieces = vec![(100, 1..201), (4090, 50..250), (150, 0..10)];
        let image = Arc::new(Image::new(Arc::clone(&bytes), 3 * PAGE_BYTES, pieces).unwrap());
        let mut flat = vec![0u8; 3 * PAGE_BYTES as usize];
        flat[100..300].copy_from_slice(&bytes[1..201]);
        flat[4090..4290].copy_from_slice(&bytes[50..250]);
        flat[150..160].copy_from_slice(&bytes[0..10]);
        (image, flat)
    }

    fn read_all(memory: &mut Memory, base: u64, len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        memory.read(base, &mut out).unwrap();
        out
    }

    #[test]
    fn mappings_share_the_image_and_copy_only_the_pages_written() {
        let (image, flat) = image();
        let (a, b) = (1 << 40, 2 << 40);
        let mut memory = Memory::new(0);
        memory.map_image(a, Arc::clone(&image));
        memory.map_image(b, Arc::clone(&image));
        assert_eq!(Arc::strong_count(&image), 3);
        assert_eq!(read_all(&mut memory, a, flat.len()), flat);
        // Unaligned reads inside and across pieces and pages.
        let mut out = [0u8; 20];
        memory.read(b + 4085, &mut out).unwrap();
        assert_eq!(out[..], flat[4085..4105]);
        let usage = memory.image_usage();
        assert_eq!(
            (usage.mappings, usage.shared_images, usage.private_pages),
            (2, 1, 0)
        );
        assert_eq!(usage.shared_bytes, 256);

        // A write across the page boundary copies both pages into `a` only.
        memory.write(a + 4094, &[0xee; 4]).unwrap();
        let mut written = flat.clone();
        written[4094..4098].fill(0xee);
        assert_eq!(read_all(&mut memory, a, flat.len()), written);
        assert_eq!(read_all(&mut memory, b, flat.len()), flat);
        assert_eq!(memory.image_usage().private_pages, 2);
        // A page no piece covers is copied as zeros.
        memory.write(b + 2 * PAGE_BYTES + 1, &[1]).unwrap();
        let mut written_b = flat.clone();
        written_b[2 * PAGE_BYTES as usize + 1] = 1;
        assert_eq!(read_all(&mut memory, b, flat.len()), written_b);
        // Past the end is refused, as for any region.
        assert_eq!(
            memory.write(b + 3 * PAGE_BYTES - 1, &[0, 0]),
            Err(HsaCode::INVALID_ARGUMENT)
        );

        // Each unmap drops its reference once; unmapping twice, or an
        // allocation's address, drops nothing.
        memory.unmap_image(a);
        memory.unmap_image(a);
        assert_eq!(Arc::strong_count(&image), 2);
        assert_eq!(memory.image_usage().mappings, 1);
        memory.unmap_image(b);
        assert_eq!(Arc::strong_count(&image), 1);
        assert_eq!(memory.image_usage(), ImageUsage::default());
    }

    #[test]
    fn an_image_refuses_pieces_outside_its_bytes_or_its_size() {
        let bytes: Arc<[u8]> = Arc::from(&[1u8; 16][..]);
        assert!(Image::new(Arc::clone(&bytes), 32, vec![(0, 0..17)]).is_none());
        assert!(Image::new(Arc::clone(&bytes), 32, vec![(17, 0..16)]).is_none());
        assert!(Image::new(Arc::clone(&bytes), 32, vec![(u64::MAX, 0..16)]).is_none());
        assert!(Image::new(bytes, 32, vec![(16, 0..16)]).is_some());
    }
}

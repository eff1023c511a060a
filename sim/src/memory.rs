//! Simulated device memory: what lies where — allocations per pool with
//! capacity enforced, loaded code-object images, virtual-memory mappings —
//! with every access checked against it, over a [`ByteStore`] that holds
//! the bytes (by default [`SparseStore`], the simulator's own pages; the C
//! library's store puts them in process mappings at the same addresses).
//!
//! # Address layout
//!
//! Every simulated address lies in user space on x86-64 Linux (below
//! 2^47), so that a store can back it at the very address it has:
//!
//! | addresses | what |
//! |---|---|
//! | `[512 GiB, 1 TiB)` | [`VMEM_WINDOW_BASE`]: virtual-memory reservations (`hsa_amd_vmem_address_reserve`) |
//! | `[1 TiB, 2 TiB)` | code windows, 8 GiB per agent ([`crate::loader::code_base`]) |
//! | from 2 TiB | pool windows, 2 TiB each ([`pool_base`]) |
//!
//! The 40 pools of the largest presets end at 82 TiB, far below where
//! Linux puts a position-independent program (about 85 TiB) and its
//! shared mappings (below 128 TiB).

mod image;
mod sparse;
mod store;
#[cfg(test)]
mod tests;
mod view;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

pub use image::Image;
pub use sparse::SparseStore;
pub use store::ByteStore;
pub use view::{ATOMIC_STRIPES, MemoryView};
use view::{AtomicStripes, Retired, Retirement};

use crate::codes::HsaCode;

/// Bytes per page: the unit every region is placed and backed in (ROCr
/// rounds every allocation up to whole pages).
pub const PAGE_BYTES: u64 = 4096;
/// Simulated address window of each pool (2 TiB): small enough that the
/// windows of the first 127 pools lie below 2^48, the base a buffer
/// resource (V#) holds, so a kernel reaches an allocation of any GPU of
/// an 8-GPU node (40 pools on the presets); a pool larger than its window
/// gives at most the window.
pub const POOL_WINDOW_BYTES: u64 = 1 << 41;
/// Largest single `memory_copy`.
pub const MAX_COPY_BYTES: u64 = 1 << 32;
/// Start of the window of virtual-memory reservations.
pub const VMEM_WINDOW_BASE: u64 = 1 << 39;
/// Bytes of the window of virtual-memory reservations.
pub const VMEM_WINDOW_BYTES: u64 = 1 << 39;

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
    /// Physical memory `handle` of the virtual-memory API mapped into a
    /// reservation.
    Mapping {
        /// The physical memory's handle.
        handle: u64,
    },
}

#[derive(Clone, Debug)]
struct Region {
    kind: RegionKind,
    size: u64,
    reserved: u64,
    /// The shared contents of a mapped image (code objects only).
    image: Option<Arc<Image>>,
    /// A mapping's reservation: reads and writes run on across mappings
    /// of one reservation that touch, as the addresses are contiguous.
    reservation: Option<u64>,
    /// A mapping's permission per agent index (`hsa_access_permission_t`).
    access: BTreeMap<usize, u32>,
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
    /// Bytes of live physical memory of the virtual-memory API.
    pub physical_bytes: u64,
}

/// Regions by base address.
type Regions = BTreeMap<u64, Region>;

/// All simulated memory.
#[derive(Debug)]
pub struct Memory {
    /// Shared with the [`MemoryView`]s taken of it; changed copy-on-write
    /// while one lives.
    regions: Arc<Regions>,
    usage: Vec<PoolUsage>,
    next: Vec<u64>,
    store: Arc<dyn ByteStore>,
    stripes: Arc<AtomicStripes>,
    /// What frees left backed for the views that may still see it.
    retirement: Retirement,
}

impl Drop for Memory {
    /// What frees left backed for views goes with the memory (unless a
    /// view still lives, which keeps the store too).
    fn drop(&mut self) {
        self.reclaim();
    }
}

/// Start of pool `pool`'s address window.
pub fn pool_base(pool: usize) -> u64 {
    (pool as u64 + 1) * POOL_WINDOW_BYTES
}

/// `value` rounded up to a multiple of `align` (a power of two).
pub(crate) fn align_up(value: u64, align: u64) -> Option<u64> {
    value.checked_add(align - 1).map(|v| v & !(align - 1))
}

/// Whether a mapping's `permission` lets an agent read (`write` false) or
/// write: `HSA_ACCESS_PERMISSION_RO` (1), `_WO` (2), `_RW` (3); anything
/// else is no access.
pub fn permits(permission: u32, write: bool) -> bool {
    matches!((permission, write), (1 | 3, false) | (2 | 3, true))
}

impl Memory {
    /// Memory for `pool_count` pools in the simulator's own pages.
    pub fn new(pool_count: usize) -> Memory {
        Memory::with_store(pool_count, Box::new(SparseStore::new()))
    }

    /// Memory for `pool_count` pools whose bytes `store` holds.
    pub fn with_store(pool_count: usize, store: Box<dyn ByteStore>) -> Memory {
        Memory {
            regions: Arc::default(),
            usage: vec![PoolUsage::default(); pool_count],
            next: vec![0; pool_count],
            store: Arc::from(store),
            stripes: Arc::default(),
            retirement: Retirement::default(),
        }
    }

    /// A view of the memory as it is now, for a dispatch's threads to read
    /// and write without the owner's lock ([`MemoryView`] says what it
    /// guarantees while it lives).
    pub fn view(&self) -> MemoryView {
        MemoryView::new(&self.regions, &self.store, &self.stripes, &self.retirement)
    }

    /// Drops what frees left backed once no view that may see it lives
    /// (also done by every free).
    pub fn reclaim(&mut self) {
        self.retirement.reclaim(&*self.store);
    }

    /// Freed regions whose backing waits for views to end.
    pub fn retired_waiting(&self) -> usize {
        self.retirement.waiting()
    }

    fn regions_mut(&mut self) -> &mut Regions {
        Arc::make_mut(&mut self.regions)
    }

    /// Usage of pool `pool`.
    pub fn usage(&self, pool: usize) -> PoolUsage {
        self.usage.get(pool).cloned().unwrap_or_default()
    }

    /// Live allocations over all pools.
    pub fn live_allocations(&self) -> u64 {
        self.usage.iter().map(|u| u.allocations).sum()
    }

    /// Reserves `size` bytes (rounded up to `granule` and whole pages,
    /// aligned to `alignment`, the granule and a page) in pool `pool` of
    /// capacity `capacity`.
    pub fn allocate(
        &mut self,
        pool: usize,
        size: u64,
        granule: u64,
        alignment: u64,
        capacity: u64,
    ) -> Result<u64, HsaCode> {
        let granule = granule.max(1).next_power_of_two().max(PAGE_BYTES);
        let reserved = size
            .div_ceil(granule)
            .checked_mul(granule)
            .ok_or(HsaCode::OUT_OF_RESOURCES)?;
        self.charge(pool, reserved, capacity)?;
        let align = alignment.max(granule).next_power_of_two();
        let base = pool_base(pool);
        self.reclaim();
        let next = self.next.get(pool).copied().unwrap_or(0);
        // Addresses are handed out in order and never reused while space
        // remains, so stale pointers stay invalid; wrap to a first fit otherwise.
        let offset = align_up(next, align)
            .filter(|o| {
                o.checked_add(reserved)
                    .is_some_and(|end| end <= POOL_WINDOW_BYTES)
                    && !self.retirement.holds(base + o, reserved)
            })
            .map(|o| base + o)
            .or_else(|| self.first_fit(base, POOL_WINDOW_BYTES, reserved, align))
            .ok_or(HsaCode::OUT_OF_RESOURCES)?;
        self.store.back(offset, reserved)?;
        self.regions_mut().insert(
            offset,
            Region {
                kind: RegionKind::Allocation { pool },
                size,
                reserved,
                image: None,
                reservation: None,
                access: BTreeMap::new(),
            },
        );
        if let Some(n) = self.next.get_mut(pool) {
            *n = offset - base + reserved;
        }
        if let Some(u) = self.usage.get_mut(pool) {
            u.reserved_bytes += reserved;
            u.allocations += 1;
        }
        Ok(offset)
    }

    /// Whether `bytes` more fit in pool `pool` of capacity `capacity`.
    fn charge(&self, pool: usize, bytes: u64, capacity: u64) -> Result<(), HsaCode> {
        let usage = self.usage.get(pool).ok_or(HsaCode::INVALID_MEMORY_POOL)?;
        usage
            .reserved_bytes
            .checked_add(usage.physical_bytes)
            .and_then(|used| used.checked_add(bytes))
            .filter(|&total| total <= capacity)
            .map(drop)
            .ok_or(HsaCode::OUT_OF_RESOURCES)
    }

    /// The lowest address of `[base, base + window)` where `len` bytes
    /// aligned to `align` fit between the regions there.
    /// Ranges freed but still backed for views count as taken.
    pub fn first_fit(&self, base: u64, window: u64, len: u64, align: u64) -> Option<u64> {
        let mut cursor = base;
        for (&address, region) in self.regions.range(base..base + window) {
            if let Some(candidate) = self.fit_before(cursor, address, len, align) {
                return Some(candidate);
            }
            cursor = address + region.reserved;
        }
        self.fit_before(cursor, base.checked_add(window)?, len, align)
    }

    /// The lowest address in `[cursor, end)` where `len` bytes aligned to
    /// `align` fit clear of the retired ranges there.
    fn fit_before(&self, mut cursor: u64, end: u64, len: u64, align: u64) -> Option<u64> {
        loop {
            let candidate = align_up(cursor, align)?;
            if candidate.checked_add(len)? > end {
                return None;
            }
            // Past a retired range the candidate meets, until none does.
            match self.retirement.overlap_end(candidate, len) {
                Some(past) => cursor = past,
                None => return Some(candidate),
            }
        }
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
                self.regions_mut().remove(&address);
                let range = Retired::Range {
                    address,
                    len: reserved,
                };
                self.retirement.retire(&*self.store, range);
                if let Some(u) = self.usage.get_mut(pool) {
                    u.reserved_bytes -= reserved;
                    u.allocations -= 1;
                }
                Ok(())
            }
            _ => Err(HsaCode::INVALID_ALLOCATION),
        }
    }

    /// Maps `image` at `address` (page-aligned, free): the bytes of its
    /// segments, zeros elsewhere; `OUT_OF_RESOURCES` when the store cannot
    /// back it.
    pub fn map_image(&mut self, address: u64, image: Arc<Image>) -> Result<(), HsaCode> {
        let reserved = align_up(image.size(), PAGE_BYTES).ok_or(HsaCode::OUT_OF_RESOURCES)?;
        self.store.back_image(address, reserved, &image)?;
        self.regions_mut().insert(
            address,
            Region {
                kind: RegionKind::CodeObject,
                size: image.size(),
                reserved,
                image: Some(image),
                reservation: None,
                access: BTreeMap::new(),
            },
        );
        Ok(())
    }

    /// What the mapped code-object images hold.
    pub fn image_usage(&self) -> ImageUsage {
        let mut usage = ImageUsage::default();
        let mut seen = BTreeSet::new();
        for (&base, region) in self.regions.iter() {
            let Some(image) = &region.image else { continue };
            usage.mappings += 1;
            usage.private_pages += self.store.written_image_pages(base, region.reserved);
            if seen.insert(Arc::as_ptr(image)) {
                usage.shared_images += 1;
                usage.shared_bytes += image.bytes().len() as u64;
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
        if let Some(Region {
            kind: RegionKind::CodeObject,
            reserved,
            ..
        }) = self.regions.get(&address)
        {
            let reserved = *reserved;
            self.regions_mut().remove(&address);
            let range = Retired::Range {
                address,
                len: reserved,
            };
            self.retirement.retire(&*self.store, range);
        }
    }

    /// The kind of region that holds `address`, and its base.
    pub fn region_of(&self, address: u64) -> Option<(u64, RegionKind)> {
        let (base, region) = region_at(&self.regions, address)?;
        Some((base, region.kind))
    }

    /// The size the region at `base` was asked for (`None`: no region
    /// starts there).
    pub fn region_size(&self, base: u64) -> Option<u64> {
        self.regions.get(&base).map(|r| r.size)
    }

    /// Checks that `len` bytes at `address` lie in simulated memory (one
    /// region, or touching mappings of one reservation).
    pub fn check(&self, address: u64, len: u64) -> Result<(), HsaCode> {
        if len > MAX_COPY_BYTES {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        pieces(&self.regions, address, len.max(1)).map(drop)
    }

    /// Whether agent `agent` may read (or `write`) `len` bytes at
    /// `address`: anywhere outside mappings, and in mappings where
    /// `hsa_amd_vmem_set_access` (or `hsa_amd_agents_allow_access`) gave
    /// it that permission.
    pub fn agent_may(&self, agent: usize, address: u64, len: u64, write: bool) -> bool {
        agent_may(&self.regions, agent, address, len, write)
    }

    /// Writes `bytes` at `address`.
    pub fn write(&mut self, address: u64, bytes: &[u8]) -> Result<(), HsaCode> {
        write_bytes(&self.regions, &*self.store, address, bytes)
    }

    /// Reads `out.len()` bytes at `address`.
    pub fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), HsaCode> {
        read_bytes(&self.regions, &*self.store, address, out)
    }

    // --- Virtual memory (the bookkeeping of reservations and handles is
    // `crate::vmem`'s; these place and drop the bytes) ---

    /// Backs a reservation of `len` bytes at `address` (nothing readable).
    pub(crate) fn reserve(&mut self, address: u64, len: u64) -> Result<(), HsaCode> {
        self.store.reserve(address, len)
    }

    /// Gives a reservation's addresses back.
    pub(crate) fn unreserve(&mut self, address: u64, len: u64) {
        self.store.unreserve(address, len);
    }

    /// Creates physical memory `handle` of `len` bytes charged to pool
    /// `pool` of capacity `capacity`.
    pub(crate) fn create_physical(
        &mut self,
        pool: usize,
        handle: u64,
        len: u64,
        capacity: u64,
    ) -> Result<(), HsaCode> {
        self.charge(pool, len, capacity)?;
        self.store.create_physical(handle, len)?;
        if let Some(u) = self.usage.get_mut(pool) {
            u.physical_bytes += len;
        }
        Ok(())
    }

    /// Frees physical memory `handle` of `len` bytes of pool `pool`.
    pub(crate) fn release_physical(&mut self, pool: usize, handle: u64, len: u64) {
        self.retirement
            .retire(&*self.store, Retired::Physical { handle });
        if let Some(u) = self.usage.get_mut(pool) {
            u.physical_bytes = u.physical_bytes.saturating_sub(len);
        }
    }

    /// Maps the first `len` bytes of physical memory `handle` at `address`
    /// in the reservation at `reservation`.
    pub(crate) fn map_physical(
        &mut self,
        address: u64,
        len: u64,
        handle: u64,
        reservation: u64,
    ) -> Result<(), HsaCode> {
        self.store.map_physical(address, len, handle)?;
        self.regions_mut().insert(
            address,
            Region {
                kind: RegionKind::Mapping { handle },
                size: len,
                reserved: len,
                image: None,
                reservation: Some(reservation),
                access: BTreeMap::new(),
            },
        );
        Ok(())
    }

    /// Unmaps the mapping at `address`.
    pub(crate) fn unmap_physical(&mut self, address: u64) -> Result<(), HsaCode> {
        let len = match self.regions.get(&address) {
            Some(r) if r.reservation.is_some() => r.size,
            _ => return Err(HsaCode::INVALID_ALLOCATION),
        };
        self.store.unmap_physical(address, len)?;
        self.regions_mut().remove(&address);
        Ok(())
    }

    /// The mappings at and after `address` in `[address, end)`, as
    /// `(base, size)`, stopping at the first gap.
    pub(crate) fn mappings_from(&self, address: u64, end: u64) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        let mut at = address;
        while at < end {
            match self.regions.get(&at) {
                Some(r) if r.reservation.is_some() => {
                    out.push((at, r.size));
                    at += r.size;
                }
                _ => break,
            }
        }
        out
    }

    /// The mapping holding `address` (its base and size), `end` inclusive
    /// when `inclusive`.
    pub(crate) fn mapping_at(&self, address: u64, inclusive: bool) -> Option<(u64, u64)> {
        let (&base, region) = self.regions.range(..=address).next_back()?;
        let inside = if inclusive {
            address - base <= region.size
        } else {
            address - base < region.size
        };
        (region.reservation.is_some() && inside).then_some((base, region.size))
    }

    /// Live virtual-memory mappings.
    pub(crate) fn mapping_count(&self) -> u64 {
        self.regions
            .values()
            .filter(|r| r.reservation.is_some())
            .count() as u64
    }

    /// Whether any region lies in `[address, address + len)`.
    pub(crate) fn any_region_in(&self, address: u64, len: u64) -> bool {
        let end = address.saturating_add(len);
        self.retirement.holds(address, len)
            || self
                .regions
                .range(..end)
                .next_back()
                .is_some_and(|(&base, region)| base + region.reserved > address)
    }

    /// Agent `agent`'s permission on the mapping at `base`.
    pub(crate) fn mapping_access(&self, base: u64, agent: usize) -> Option<u32> {
        self.regions.get(&base)?.access.get(&agent).copied()
    }

    /// Sets agent `agent`'s permission on the mapping at `base`; a CPU
    /// agent's (`host`) also sets what the host may do there.
    pub(crate) fn set_mapping_access(
        &mut self,
        base: u64,
        agent: usize,
        permission: u32,
        host: bool,
    ) -> Result<(), HsaCode> {
        let len = match self.regions.get(&base) {
            Some(r) if r.reservation.is_some() => r.size,
            _ => return Err(HsaCode::INVALID_ALLOCATION),
        };
        if host {
            self.store.set_host_access(base, len, permission)?;
        }
        if let Some(r) = self.regions_mut().get_mut(&base) {
            r.access.insert(agent, permission);
        }
        Ok(())
    }
}

/// The region of `regions` holding `address`, and its base.
fn region_at(regions: &Regions, address: u64) -> Option<(u64, &Region)> {
    let (&base, region) = regions.range(..=address).next_back()?;
    (address - base < region.size).then_some((base, region))
}

/// The pieces of `[address, address + len)`, each inside one region
/// (`(address, length, region base)`): one region, or mappings of one
/// reservation that touch. `INVALID_ARGUMENT` when any byte lies
/// outside them.
fn pieces(regions: &Regions, address: u64, len: u64) -> Result<Vec<(u64, u64, u64)>, HsaCode> {
    let end = address.checked_add(len).ok_or(HsaCode::INVALID_ARGUMENT)?;
    let mut pieces = Vec::new();
    let mut at = address;
    let mut reservation = None;
    loop {
        let (base, region) = region_at(regions, at).ok_or(HsaCode::INVALID_ARGUMENT)?;
        if at != address && (region.reservation.is_none() || region.reservation != reservation) {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        reservation = region.reservation;
        let piece_end = end.min(base + region.size);
        pieces.push((at, piece_end - at, base));
        if piece_end == end {
            return Ok(pieces);
        }
        at = piece_end;
    }
}

/// Whether agent `agent` may read (or `write`) `len` bytes at `address`
/// of `regions` ([`Memory::agent_may`]).
fn agent_may(regions: &Regions, agent: usize, address: u64, len: u64, write: bool) -> bool {
    let permitted = |region: &Region| {
        region.reservation.is_none()
            || region
                .access
                .get(&agent)
                .is_some_and(|&permission| permits(permission, write))
    };
    // One region holds the whole access (nearly every access): no pieces.
    if let Some((base, region)) = region_at(regions, address)
        && address - base + len.max(1) <= region.size
    {
        return permitted(region);
    }
    let Ok(pieces) = pieces(regions, address, len.max(1)) else {
        return false;
    };
    pieces
        .iter()
        .all(|&(_, _, base)| regions.get(&base).is_some_and(permitted))
}

/// Where the bytes of one piece lie in `store`.
fn piece_of(region: &Region, base: u64, at: u64) -> Piece {
    match region.kind {
        RegionKind::Mapping { handle } => Piece::Physical(handle, at - base),
        _ => Piece::Address(at),
    }
}

/// Where a piece's bytes lie: at its address, or in physical memory.
enum Piece {
    Address(u64),
    Physical(u64, u64),
}

/// Writes `bytes` at `address` of `regions` in `store`.
fn write_bytes(
    regions: &Regions,
    store: &dyn ByteStore,
    address: u64,
    bytes: &[u8],
) -> Result<(), HsaCode> {
    let len = bytes.len() as u64;
    if len > MAX_COPY_BYTES {
        return Err(HsaCode::INVALID_ARGUMENT);
    }
    let put = |piece: Piece, data: &[u8]| match piece {
        Piece::Physical(handle, offset) => store.write_physical(handle, offset, data),
        Piece::Address(at) => store.write(at, data),
    };
    // One region holds the whole access (nearly every access): no pieces.
    if let Some((base, region)) = region_at(regions, address)
        && address - base + len <= region.size
    {
        put(piece_of(region, base, address), bytes);
        return Ok(());
    }
    for (at, n, base) in pieces(regions, address, len)? {
        let from = (at - address) as usize;
        let (Some(data), Some(region)) = (bytes.get(from..from + n as usize), regions.get(&base))
        else {
            continue;
        };
        put(piece_of(region, base, at), data);
    }
    Ok(())
}

/// Reads `out.len()` bytes at `address` of `regions` from `store`.
fn read_bytes(
    regions: &Regions,
    store: &dyn ByteStore,
    address: u64,
    out: &mut [u8],
) -> Result<(), HsaCode> {
    let len = out.len() as u64;
    if len > MAX_COPY_BYTES {
        return Err(HsaCode::INVALID_ARGUMENT);
    }
    let get = |piece: Piece, dst: &mut [u8]| match piece {
        Piece::Physical(handle, offset) => store.read_physical(handle, offset, dst),
        Piece::Address(at) => store.read(at, dst),
    };
    if let Some((base, region)) = region_at(regions, address)
        && address - base + len <= region.size
    {
        get(piece_of(region, base, address), out);
        return Ok(());
    }
    for (at, n, base) in pieces(regions, address, len)? {
        let from = (at - address) as usize;
        let (Some(dst), Some(region)) = (out.get_mut(from..from + n as usize), regions.get(&base))
        else {
            continue;
        };
        get(piece_of(region, base, at), dst);
    }
    Ok(())
}

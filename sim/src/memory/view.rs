//! Device memory as running kernels see it, without the node's lock: a
//! [`MemoryView`] holds the region table as it was when the view was
//! taken (an immutable snapshot, shared until [`super::Memory`] next
//! changes it) and the byte store, which serves reads and writes through
//! `&self` from any thread.
//!
//! What a view guarantees while it lives (one dispatch's run):
//!
//! - It sees the regions, their kinds and mappings' permissions as they
//!   were when it was taken; allocations, frees, maps and permission
//!   changes made meanwhile are not seen.
//! - The bytes of every region it sees stay backed: a free, an unmap of a
//!   code object or a release of physical memory made meanwhile takes the
//!   region out of the table at once (its addresses are not handed out
//!   again, and the pool is credited), but what backs it is dropped only
//!   when every view taken before it has ended ([`Retirement`]). A kernel
//!   writing memory freed under it writes bytes no one reads again.
//! - Atomics through views are atomic among all views and threads: each
//!   holds one of [`ATOMIC_STRIPES`] locks, chosen by the 64-byte line of
//!   its address, across its read and write.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use super::{ByteStore, RegionKind, Regions, agent_may, read_bytes, region_at, write_bytes};
use crate::codes::HsaCode;

/// Locks that make atomics atomic: one per 64-byte line, modulo this many.
pub const ATOMIC_STRIPES: usize = 256;

/// Bytes of memory one atomic stripe lock covers at a time (an aligned
/// atomic of up to 8 bytes never spans two).
const STRIPE_BYTES: u64 = 64;

/// The locks atomics hold across their read and write.
#[derive(Debug)]
pub(super) struct AtomicStripes(Vec<Mutex<()>>);

impl Default for AtomicStripes {
    fn default() -> AtomicStripes {
        AtomicStripes((0..ATOMIC_STRIPES).map(|_| Mutex::new(())).collect())
    }
}

impl AtomicStripes {
    /// The lock of the line holding `address`.
    fn lock(&self, address: u64) -> Option<MutexGuard<'_, ()>> {
        let stripe = (address / STRIPE_BYTES) as usize % ATOMIC_STRIPES;
        let lock = self.0.get(stripe)?;
        Some(lock.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

/// What a free or release left for later: dropped once no view taken
/// before it lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Retired {
    /// An allocation's or a code object's backed range.
    Range {
        /// Its base.
        address: u64,
        /// Its reserved bytes.
        len: u64,
    },
    /// Physical memory of the virtual-memory API.
    Physical {
        /// Its handle.
        handle: u64,
    },
}

/// Live views by the epoch they were taken at (how many of each).
type LiveViews = Arc<Mutex<BTreeMap<u64, usize>>>;

/// Deferred reclamation: which views live, and what waits for them.
#[derive(Debug, Default)]
pub(super) struct Retirement {
    /// Advances past each item retired while views live: a view taken at
    /// epoch `v` may see an item retired at `r` when `v <= r`.
    epoch: u64,
    live: LiveViews,
    waiting: Vec<(u64, Retired)>,
}

fn lock_live(live: &LiveViews) -> MutexGuard<'_, BTreeMap<u64, usize>> {
    live.lock().unwrap_or_else(|p| p.into_inner())
}

impl Retirement {
    /// Registers a view taken now.
    fn enter(&self) -> ViewToken {
        *lock_live(&self.live).entry(self.epoch).or_insert(0) += 1;
        ViewToken {
            epoch: self.epoch,
            live: Arc::clone(&self.live),
        }
    }

    /// Drops `item` from `store` now if no view lives, else once the
    /// views living now have ended.
    pub(super) fn retire(&mut self, store: &dyn ByteStore, item: Retired) {
        self.reclaim(store);
        if lock_live(&self.live).is_empty() {
            drop_item(store, item);
        } else {
            self.waiting.push((self.epoch, item));
            self.epoch += 1;
        }
    }

    /// Drops what no living view can see any more.
    pub(super) fn reclaim(&mut self, store: &dyn ByteStore) {
        if self.waiting.is_empty() {
            return;
        }
        let oldest = lock_live(&self.live).keys().next().copied();
        self.waiting.retain(|&(retired, item)| {
            let seen = oldest.is_some_and(|v| v <= retired);
            if !seen {
                drop_item(store, item);
            }
            seen
        });
    }

    /// Whether a range waiting to be dropped overlaps `[address, address + len)`
    /// (its addresses are not handed out again until it is dropped).
    pub(super) fn holds(&self, address: u64, len: u64) -> bool {
        self.overlap_end(address, len).is_some()
    }

    /// The end of a waiting range overlapping `[address, address + len)`,
    /// if one does.
    pub(super) fn overlap_end(&self, address: u64, len: u64) -> Option<u64> {
        let end = address.saturating_add(len);
        self.waiting.iter().find_map(|(_, item)| match *item {
            Retired::Range { address: a, len: l } => {
                let range_end = a.saturating_add(l);
                (a < end && address < range_end).then_some(range_end)
            }
            Retired::Physical { .. } => None,
        })
    }

    /// Items waiting for views to end.
    pub(super) fn waiting(&self) -> usize {
        self.waiting.len()
    }
}

fn drop_item(store: &dyn ByteStore, item: Retired) {
    match item {
        Retired::Range { address, len } => store.drop_range(address, len),
        Retired::Physical { handle } => store.release_physical(handle),
    }
}

/// A view's registration, ended when the view is dropped.
#[derive(Debug)]
struct ViewToken {
    epoch: u64,
    live: LiveViews,
}

impl Drop for ViewToken {
    fn drop(&mut self) {
        let mut live = lock_live(&self.live);
        if let Some(n) = live.get_mut(&self.epoch) {
            *n -= 1;
            if *n == 0 {
                live.remove(&self.epoch);
            }
        }
    }
}

/// Device memory as one dispatch sees it, from any number of threads at
/// once and without the node's lock (see the module's guarantees).
#[derive(Debug)]
pub struct MemoryView {
    regions: Arc<Regions>,
    store: Arc<dyn ByteStore>,
    stripes: Arc<AtomicStripes>,
    _token: ViewToken,
}

impl MemoryView {
    /// A view of `regions` over `store`, registered with `retirement`.
    pub(super) fn new(
        regions: &Arc<Regions>,
        store: &Arc<dyn ByteStore>,
        stripes: &Arc<AtomicStripes>,
        retirement: &Retirement,
    ) -> MemoryView {
        MemoryView {
            regions: Arc::clone(regions),
            store: Arc::clone(store),
            stripes: Arc::clone(stripes),
            _token: retirement.enter(),
        }
    }

    /// The kind of region that holds `address`, and its base.
    pub fn region_of(&self, address: u64) -> Option<(u64, RegionKind)> {
        region_at(&self.regions, address).map(|(base, r)| (base, r.kind))
    }

    /// Whether agent `agent` may read (or `write`) `len` bytes at
    /// `address` ([`super::Memory::agent_may`]).
    pub fn agent_may(&self, agent: usize, address: u64, len: u64, write: bool) -> bool {
        agent_may(&self.regions, agent, address, len, write)
    }

    /// Reads `out.len()` bytes at `address`.
    pub fn read(&self, address: u64, out: &mut [u8]) -> Result<(), HsaCode> {
        read_bytes(&self.regions, &*self.store, address, out)
    }

    /// Writes `data` at `address`.
    pub fn write(&self, address: u64, data: &[u8]) -> Result<(), HsaCode> {
        write_bytes(&self.regions, &*self.store, address, data)
    }

    /// Runs `access` (an atomic's read and write of memory at `address`)
    /// holding the atomic lock of its line, so no other view's atomic on
    /// the line comes between.
    pub fn atomically<T>(&self, address: u64, access: impl FnOnce(&MemoryView) -> T) -> T {
        let _held = self.stripes.lock(address);
        access(self)
    }
}

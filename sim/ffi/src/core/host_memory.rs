//! Host memory the runtimes know: `hipHostMalloc` and `hipMallocManaged`
//! give real host memory (the client reads and writes it directly, as it
//! would pinned or managed memory), `hipHostRegister` records ranges, and
//! so does `hsa_amd_memory_lock` (kernels may reach all of them). Each
//! live allocation, registration and lock is counted in the leak report.
//! The HSA runtime's own host memory that the command processor and
//! kernels address (each queue's packet ring and `amd_queue_t`, in system
//! memory as ROCr places them: IREE's device library rewrites the next
//! packet of a ring in place) is known here too, while its owner lives;
//! it is counted with its owner, not here.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

use amdgpu_isa::{Memory, OutOfBounds};
use amdgpu_sim::HipCode;

use super::ptr;

/// Largest single host allocation.
pub const MAX_HOST_ALLOCATION: usize = 1 << 40;

/// What a host allocation came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HostKind {
    /// `hipHostMalloc`.
    Pinned,
    /// `hipMallocManaged`.
    Managed,
}

/// A range `hsa_amd_memory_lock` locked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Locked {
    /// Its size in bytes.
    pub(crate) size: usize,
    /// The agents it was locked for (empty: every GPU).
    pub(crate) agents: Vec<u64>,
    /// Its global flags as pointer info reports them.
    pub(crate) global_flags: u32,
    /// Locks not yet unlocked (the driver counts registrations of one range).
    count: u64,
}

/// The host memory the runtimes know, by base address.
#[derive(Default)]
pub(crate) struct HostMemory {
    allocations: BTreeMap<usize, (usize, HostKind)>,
    registered: BTreeMap<usize, usize>,
    locked: BTreeMap<usize, Locked>,
    /// Ranges the runtime placed in host memory for the agents: base -> size.
    runtime: BTreeMap<usize, usize>,
}

/// Locks `host`, whatever a panicking holder left.
pub(crate) fn lock(host: &Mutex<HostMemory>) -> MutexGuard<'_, HostMemory> {
    host.lock().unwrap_or_else(|p| p.into_inner())
}

/// The host memory HIP knows (allocations and registrations), which a
/// kernel reaches through the same addresses as the host; any other host
/// address is a fault, never a dereference.
pub(crate) struct KnownHostMemory<'a>(pub(crate) &'a Mutex<HostMemory>);

impl Memory for KnownHostMemory<'_> {
    fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), OutOfBounds> {
        let at = usize::try_from(address).map_err(|_| OutOfBounds)?;
        if !lock(self.0).is_known_range(at, out.len()) {
            return Err(OutOfBounds);
        }
        // SAFETY: `out.len()` bytes at `at` lie in one live allocation or
        // registration of the client's (checked just above); the bytes are
        // copied out before returning.
        let bytes = unsafe { ptr::read_bytes(at as *const _, out.len()) }.ok_or(OutOfBounds)?;
        out.copy_from_slice(&bytes);
        Ok(())
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), OutOfBounds> {
        let at = usize::try_from(address).map_err(|_| OutOfBounds)?;
        if !lock(self.0).is_known_range(at, data.len()) {
            return Err(OutOfBounds);
        }
        // SAFETY: as in `read`: the range is the client's live, writable
        // host memory that HIP allocated or registered.
        unsafe { ptr::write_bytes(at as *mut _, data) }
            .then_some(())
            .ok_or(OutOfBounds)
    }
}

impl HostMemory {
    /// Allocates `size` zeroed bytes.
    pub(crate) fn allocate(&mut self, size: usize, kind: HostKind) -> Result<usize, HipCode> {
        if size > MAX_HOST_ALLOCATION {
            return Err(HipCode::OUT_OF_MEMORY);
        }
        let address = ptr::host_alloc(size).ok_or(HipCode::OUT_OF_MEMORY)?;
        self.allocations.insert(address, (size, kind));
        Ok(address)
    }

    /// Frees an allocation of `kind`.
    pub(crate) fn free(&mut self, address: usize, kind: HostKind) -> Result<(), HipCode> {
        match self.allocations.get(&address) {
            Some(&(size, k)) if k == kind => {
                self.allocations.remove(&address);
                ptr::host_free(address, size);
                Ok(())
            }
            _ => Err(HipCode::INVALID_VALUE),
        }
    }

    /// Whether `address` is the base of a managed allocation.
    pub(crate) fn is_managed(&self, address: usize) -> bool {
        self.allocations
            .get(&address)
            .is_some_and(|&(_, kind)| kind == HostKind::Managed)
    }

    /// Whether `address` lies in host memory the runtimes know (allocated,
    /// registered or locked).
    pub(crate) fn is_known(&self, address: usize) -> bool {
        self.is_known_range(address, 1)
    }

    /// Whether all `len` bytes at `address` lie in one allocation,
    /// registration or lock.
    pub(crate) fn is_known_range(&self, address: usize, len: usize) -> bool {
        let Some(last) = address.checked_add(len.max(1) - 1) else {
            return false;
        };
        let holds = |base: usize, size: usize| address >= base && last - base < size.max(1);
        self.registered
            .range(..=address)
            .next_back()
            .is_some_and(|(&base, &size)| holds(base, size))
            || self
                .allocations
                .range(..=address)
                .next_back()
                .is_some_and(|(&base, &(size, _))| holds(base, size))
            || self
                .locked
                .range(..=address)
                .next_back()
                .is_some_and(|(&base, l)| holds(base, l.size))
            || self
                .runtime
                .range(..=address)
                .next_back()
                .is_some_and(|(&base, &size)| holds(base, size))
    }

    /// Records `size` bytes at `address` as the runtime's own host memory
    /// that agents address (a queue's ring), until [`Self::forget_runtime`].
    pub(crate) fn add_runtime(&mut self, address: usize, size: usize) {
        self.runtime.insert(address, size);
    }

    /// Forgets the runtime range at `address`.
    pub(crate) fn forget_runtime(&mut self, address: usize) {
        self.runtime.remove(&address);
    }

    /// The host allocation holding `address`: its base, size and kind.
    pub(crate) fn allocation_at(&self, address: usize) -> Option<(usize, usize, HostKind)> {
        let (&base, &(size, kind)) = self.allocations.range(..=address).next_back()?;
        (address - base < size.max(1)).then_some((base, size, kind))
    }

    /// The registration (`hipHostRegister`) holding `address`: base, size.
    pub(crate) fn registration_at(&self, address: usize) -> Option<(usize, usize)> {
        let (&base, &size) = self.registered.range(..=address).next_back()?;
        (address - base < size.max(1)).then_some((base, size))
    }

    /// The lock holding `address`, with its base.
    pub(crate) fn lock_at(&self, address: usize) -> Option<(usize, &Locked)> {
        let (&base, locked) = self.locked.range(..=address).next_back()?;
        (address - base < locked.size.max(1)).then_some((base, locked))
    }

    /// `hsa_amd_memory_lock`: records `size` bytes at `address` for
    /// `agents`; locking a range again counts once more.
    pub(crate) fn lock(&mut self, address: usize, size: usize, agents: &[u64], global_flags: u32) {
        self.locked
            .entry(address)
            .and_modify(|l| l.count += 1)
            .or_insert_with(|| Locked {
                size,
                agents: agents.to_vec(),
                global_flags,
                count: 1,
            });
    }

    /// `hsa_amd_memory_unlock`: drops one lock of the range at `address`
    /// (nothing for an address that is none: ROCr ignores it too).
    pub(crate) fn unlock(&mut self, address: usize) {
        if let Some(l) = self.locked.get_mut(&address) {
            l.count -= 1;
            if l.count == 0 {
                self.locked.remove(&address);
            }
        }
    }

    /// Locked ranges.
    pub(crate) fn locks(&self) -> usize {
        self.locked.len()
    }

    /// `hipHostRegister`.
    pub(crate) fn register(&mut self, address: usize, size: usize) -> Result<(), HipCode> {
        if address == 0 || size == 0 {
            return Err(HipCode::INVALID_VALUE);
        }
        if self.registered.contains_key(&address) {
            return Err(HipCode::HOST_MEMORY_ALREADY_REGISTERED);
        }
        self.registered.insert(address, size);
        Ok(())
    }

    /// `hipHostUnregister`.
    pub(crate) fn unregister(&mut self, address: usize) -> Result<(), HipCode> {
        self.registered
            .remove(&address)
            .map(|_| ())
            .ok_or(HipCode::HOST_MEMORY_NOT_REGISTERED)
    }

    /// Live allocations and registrations.
    pub(crate) fn live(&self) -> (usize, usize) {
        (self.allocations.len(), self.registered.len())
    }
}

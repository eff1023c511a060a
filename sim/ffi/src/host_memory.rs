//! Host memory of the HIP runtime: `hipHostMalloc` and `hipMallocManaged`
//! give real host memory (the client reads and writes it directly, as it
//! would pinned or managed memory), and `hipHostRegister` records ranges.
//! Each live allocation and registration is counted in the leak report.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, OnceLock};

use amdgpu_sim::HipCode;

use crate::ptr;

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

#[derive(Default)]
pub(crate) struct HostMemory {
    allocations: BTreeMap<usize, (usize, HostKind)>,
    registered: BTreeMap<usize, usize>,
}

pub(crate) fn host_memory() -> MutexGuard<'static, HostMemory> {
    static HOST: OnceLock<Mutex<HostMemory>> = OnceLock::new();
    HOST.get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner())
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

    /// Whether `address` lies in host memory HIP knows (allocated or registered).
    pub(crate) fn is_known(&self, address: usize) -> bool {
        let inside = |map: &BTreeMap<usize, usize>| {
            map.range(..=address)
                .next_back()
                .is_some_and(|(&base, &size)| address - base < size.max(1))
        };
        inside(&self.registered)
            || self
                .allocations
                .range(..=address)
                .next_back()
                .is_some_and(|(&base, &(size, _))| address - base < size.max(1))
    }

    /// Whether all `len` bytes at `address` lie in one allocation or
    /// registration HIP knows.
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

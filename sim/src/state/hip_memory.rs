//! The rules of the HIP runtime's memory (`crate::hip_memory`'s calls):
//! primary-context retains, device allocations from each GPU's
//! coarse-grained pool, and `hipMemPool_t` pools with their allocations.

use std::collections::BTreeMap;

use crate::codes::HipCode;
use crate::handles::{Serials, TAG_HIP_CONTEXT, TAG_HIP_POOL, handle, serial};
use crate::memory::Memory;
use crate::topology::Topology;

/// `hipMemPoolAttr` values (`hip_runtime_api.h`).
pub mod pool_attribute {
    /// `hipMemPoolReuseFollowEventDependencies`.
    pub const REUSE_FOLLOW_EVENT_DEPENDENCIES: i32 = 1;
    /// `hipMemPoolReuseAllowOpportunistic`.
    pub const REUSE_ALLOW_OPPORTUNISTIC: i32 = 2;
    /// `hipMemPoolReuseAllowInternalDependencies`.
    pub const REUSE_ALLOW_INTERNAL_DEPENDENCIES: i32 = 3;
    /// `hipMemPoolAttrReleaseThreshold` (a `uint64_t`).
    pub const RELEASE_THRESHOLD: i32 = 4;
    /// `hipMemPoolAttrReservedMemCurrent`.
    pub const RESERVED_MEM_CURRENT: i32 = 5;
    /// `hipMemPoolAttrReservedMemHigh`.
    pub const RESERVED_MEM_HIGH: i32 = 6;
    /// `hipMemPoolAttrUsedMemCurrent`.
    pub const USED_MEM_CURRENT: i32 = 7;
    /// `hipMemPoolAttrUsedMemHigh`.
    pub const USED_MEM_HIGH: i32 = 8;
}

/// One device allocation.
#[derive(Clone, Copy, Debug)]
struct HipAllocation {
    pool: Option<u64>,
    size: u64,
    ordinal: i32,
}

/// What HIP knows of a device pointer (`hipPointerGetAttributes`): the
/// allocation holding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HipPointer {
    /// The allocation's base address.
    pub base: u64,
    /// The size it was asked for.
    pub size: u64,
    /// The device it lives on.
    pub ordinal: i32,
}

/// One `hipMemPool_t`.
#[derive(Clone, Debug, Default)]
struct HipPool {
    ordinal: i32,
    destroyed: bool,
    release_threshold: u64,
    reuse: [i32; 3],
    used: u64,
    used_high: u64,
    live: u64,
}

/// The HIP runtime's memory state: primary-context retains, device
/// allocations and memory pools.
#[derive(Debug, Default)]
pub(crate) struct HipMemory {
    /// Primary-context retains per ordinal.
    context_refs: BTreeMap<i32, u64>,
    /// Device allocations by base address.
    allocations: BTreeMap<u64, HipAllocation>,
    /// Memory pools by serial.
    pools: BTreeMap<u64, HipPool>,
}

impl HipMemory {
    /// Pools not yet destroyed, or destroyed with allocations outstanding.
    pub(crate) fn live_pools(&self) -> u64 {
        self.pools
            .values()
            .filter(|p| !p.destroyed || p.live > 0)
            .count() as u64
    }

    /// Primary-context retains not yet released.
    pub(crate) fn context_retains(&self) -> u64 {
        self.context_refs.values().sum()
    }

    /// `hipDevicePrimaryCtxRetain`: the context handle of `ordinal`.
    pub(crate) fn retain_context(
        &mut self,
        topology: &Topology,
        ordinal: i32,
    ) -> Result<u64, HipCode> {
        topology.gpu_agent(ordinal)?;
        *self.context_refs.entry(ordinal).or_default() += 1;
        Ok(context_handle(ordinal))
    }

    /// `hipDevicePrimaryCtxRelease`.
    pub(crate) fn release_context(
        &mut self,
        topology: &Topology,
        ordinal: i32,
    ) -> Result<(), HipCode> {
        topology.gpu_agent(ordinal)?;
        let refs = self.context_refs.entry(ordinal).or_default();
        // ROCm answers a release without a retain with hipErrorInvalidContext.
        *refs = refs.checked_sub(1).ok_or(HipCode::INVALID_CONTEXT)?;
        if *refs == 0 {
            self.context_refs.remove(&ordinal);
        }
        Ok(())
    }

    /// A device allocation of `size` bytes on `ordinal` (`hipMalloc`,
    /// `hipMallocAsync`); size 0 gives the null pointer, as HIP does.
    pub(crate) fn allocate(
        &mut self,
        topology: &Topology,
        memory: &mut Memory,
        ordinal: i32,
        size: u64,
    ) -> Result<u64, HipCode> {
        self.allocate_in(topology, memory, ordinal, size, None)
    }

    /// `hipMallocFromPoolAsync`.
    pub(crate) fn allocate_from_pool(
        &mut self,
        topology: &Topology,
        memory: &mut Memory,
        pool: u64,
        size: u64,
    ) -> Result<u64, HipCode> {
        let s = serial(pool, TAG_HIP_POOL).ok_or(HipCode::INVALID_VALUE)?;
        let ordinal = match self.pools.get(&s) {
            Some(p) if !p.destroyed => p.ordinal,
            _ => return Err(HipCode::INVALID_VALUE),
        };
        self.allocate_in(topology, memory, ordinal, size, Some(s))
    }

    fn allocate_in(
        &mut self,
        topology: &Topology,
        memory: &mut Memory,
        ordinal: i32,
        size: u64,
        pool: Option<u64>,
    ) -> Result<u64, HipCode> {
        let (index, info) = topology.device_pool(ordinal)?;
        if size == 0 {
            return Ok(0);
        }
        if size > info.alloc_max_size {
            return Err(HipCode::OUT_OF_MEMORY);
        }
        let base = memory
            .allocate(index, size, info.granule, info.alignment, info.size)
            .map_err(|_| HipCode::OUT_OF_MEMORY)?;
        self.allocations.insert(
            base,
            HipAllocation {
                pool,
                size,
                ordinal,
            },
        );
        if let Some(p) = pool.and_then(|s| self.pools.get_mut(&s)) {
            p.live += 1;
            p.used = p.used.saturating_add(size);
            p.used_high = p.used_high.max(p.used);
        }
        Ok(base)
    }

    /// Frees the device allocation at `ptr` (null is a no-op).
    pub(crate) fn free(&mut self, memory: &mut Memory, ptr: u64) -> Result<(), HipCode> {
        if ptr == 0 {
            return Ok(());
        }
        let allocation = self
            .allocations
            .remove(&ptr)
            .ok_or(HipCode::INVALID_VALUE)?;
        memory.free(ptr).map_err(|_| HipCode::INVALID_VALUE)?;
        if let Some(s) = allocation.pool
            && let Some(p) = self.pools.get_mut(&s)
        {
            p.live = p.live.saturating_sub(1);
            p.used = p.used.saturating_sub(allocation.size);
            if p.destroyed && p.live == 0 {
                self.pools.remove(&s);
            }
        }
        Ok(())
    }

    /// Whether `ptr` is the base of a live device allocation.
    pub(crate) fn is_allocation(&self, ptr: u64) -> bool {
        self.allocations.contains_key(&ptr)
    }

    /// The live allocation holding `ptr` (its base or any byte inside).
    pub(crate) fn allocation_of(&self, ptr: u64) -> Option<HipPointer> {
        let (&base, a) = self.allocations.range(..=ptr).next_back()?;
        (ptr - base < a.size).then_some(HipPointer {
            base,
            size: a.size,
            ordinal: a.ordinal,
        })
    }

    /// `hipDeviceReset`'s memory part: every allocation on `ordinal` freed
    /// and every pool of `ordinal` gone (ROCm's `Device::Reset` releases
    /// the pools and purges the device's memory objects).
    pub(crate) fn reset_device(&mut self, memory: &mut Memory, ordinal: i32) {
        let bases: Vec<u64> = self
            .allocations
            .iter()
            .filter(|(_, a)| a.ordinal == ordinal)
            .map(|(&base, _)| base)
            .collect();
        for base in bases {
            // Each base is a live allocation of this map, so freeing succeeds.
            let _ = self.free(memory, base);
        }
        self.pools.retain(|_, p| p.ordinal != ordinal);
    }

    /// `hipMemPoolCreate` on `ordinal`.
    pub(crate) fn create_pool(
        &mut self,
        topology: &Topology,
        serials: &mut Serials,
        ordinal: i32,
    ) -> Result<u64, HipCode> {
        topology
            .gpu_agent(ordinal)
            .map_err(|_| HipCode::INVALID_VALUE)?;
        let s = serials.next();
        self.pools.insert(
            s,
            HipPool {
                ordinal,
                reuse: [1, 1, 1],
                ..HipPool::default()
            },
        );
        Ok(handle(TAG_HIP_POOL, s))
    }

    /// `hipMemPoolDestroy`: allocations still out keep the pool until freed.
    pub(crate) fn destroy_pool(&mut self, pool: u64) -> Result<(), HipCode> {
        let (s, p) = self.live_pool_mut(pool)?;
        p.destroyed = true;
        if p.live == 0 {
            self.pools.remove(&s);
        }
        Ok(())
    }

    /// `hipMemPoolTrimTo`: nothing is cached, so there is nothing to release.
    pub(crate) fn trim_pool(&self, pool: u64) -> Result<(), HipCode> {
        self.live_pool(pool).map(|_| ())
    }

    /// `hipMemPoolGetAttribute`: the value widened to 64 bits.
    pub(crate) fn pool_attribute(&self, pool: u64, attribute: i32) -> Result<u64, HipCode> {
        use pool_attribute as a;
        let p = self.live_pool(pool)?;
        Ok(match attribute {
            a::REUSE_FOLLOW_EVENT_DEPENDENCIES..=a::REUSE_ALLOW_INTERNAL_DEPENDENCIES => {
                let i = usize::try_from(attribute - 1).unwrap_or(0);
                p.reuse.get(i).copied().unwrap_or(0) as u64
            }
            a::RELEASE_THRESHOLD => p.release_threshold,
            a::RESERVED_MEM_CURRENT | a::USED_MEM_CURRENT => p.used,
            a::RESERVED_MEM_HIGH | a::USED_MEM_HIGH => p.used_high,
            _ => return Err(HipCode::INVALID_VALUE),
        })
    }

    /// `hipMemPoolSetAttribute`: the reuse flags, the release threshold,
    /// and resetting a high-water mark (only to 0, as HIP requires).
    pub(crate) fn set_pool_attribute(
        &mut self,
        pool: u64,
        attribute: i32,
        value: u64,
    ) -> Result<(), HipCode> {
        use pool_attribute as a;
        let (_, p) = self.live_pool_mut(pool)?;
        match attribute {
            a::REUSE_FOLLOW_EVENT_DEPENDENCIES..=a::REUSE_ALLOW_INTERNAL_DEPENDENCIES => {
                let i = usize::try_from(attribute - 1).unwrap_or(0);
                if let Some(slot) = p.reuse.get_mut(i) {
                    *slot = i32::from(value != 0);
                }
            }
            a::RELEASE_THRESHOLD => p.release_threshold = value,
            a::RESERVED_MEM_HIGH | a::USED_MEM_HIGH if value == 0 => p.used_high = p.used,
            _ => return Err(HipCode::INVALID_VALUE),
        }
        Ok(())
    }

    fn live_pool(&self, pool: u64) -> Result<&HipPool, HipCode> {
        serial(pool, TAG_HIP_POOL)
            .and_then(|s| self.pools.get(&s))
            .filter(|p| !p.destroyed)
            .ok_or(HipCode::INVALID_VALUE)
    }

    /// A pool not yet destroyed, with its serial, for a call that changes it.
    fn live_pool_mut(&mut self, pool: u64) -> Result<(u64, &mut HipPool), HipCode> {
        let s = serial(pool, TAG_HIP_POOL).ok_or(HipCode::INVALID_VALUE)?;
        let p = self
            .pools
            .get_mut(&s)
            .filter(|p| !p.destroyed)
            .ok_or(HipCode::INVALID_VALUE)?;
        Ok((s, p))
    }
}

/// The context handle of `ordinal`.
pub(crate) fn context_handle(ordinal: i32) -> u64 {
    handle(TAG_HIP_CONTEXT, u64::from(ordinal.unsigned_abs()) + 1)
}

/// The ordinal a context handle names, if it names one.
pub(crate) fn context_ordinal(context: u64) -> Option<i32> {
    serial(context, TAG_HIP_CONTEXT).and_then(|s| i32::try_from(s - 1).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::SparseStore;
    use crate::presets::load_preset;

    #[test]
    fn a_destroyed_pool_lives_until_its_last_allocation_is_freed() {
        let machine = load_preset("mi300x-8").unwrap().unwrap();
        let topology = Topology::new(machine);
        let pools = topology.tables.pools.len();
        let mut memory = Memory::with_store(pools, Box::new(SparseStore::new()));
        let mut serials = Serials::default();
        let mut hip = HipMemory::default();

        let pool = hip.create_pool(&topology, &mut serials, 0).unwrap();
        let ptr = hip
            .allocate_from_pool(&topology, &mut memory, pool, 4096)
            .unwrap();
        let used = pool_attribute::USED_MEM_CURRENT;
        assert_eq!(hip.pool_attribute(pool, used), Ok(4096));
        hip.destroy_pool(pool).unwrap();
        assert_eq!(hip.live_pools(), 1);
        assert_eq!(
            hip.allocate_from_pool(&topology, &mut memory, pool, 1),
            Err(HipCode::INVALID_VALUE)
        );
        hip.free(&mut memory, ptr).unwrap();
        assert_eq!(hip.live_pools(), 0);
        assert!(!hip.is_allocation(ptr));
        assert_eq!(hip.free(&mut memory, ptr), Err(HipCode::INVALID_VALUE));
    }
}

//! The HIP runtime's memory on the simulated node: primary contexts,
//! device allocations (`hipMalloc`, stream-ordered pools), and the reads,
//! writes, copies and fills that copies and memsets perform.
//!
//! Device memory is the node's [`crate::memory::Memory`]: an allocation
//! comes from the GPU's coarse-grained global pool, counts against its
//! capacity and holds real bytes, so what a client copies in it copies back
//! out byte for byte. Host memory (`hipHostMalloc`, managed memory) is the
//! C library's: it must be dereferenceable by the client.

use std::collections::BTreeMap;

use crate::codes::HipCode;
use crate::node::{Sim, State, handle, serial};

/// Handle tag of primary contexts (`hipCtx_t`).
pub(crate) const TAG_HIP_CONTEXT: u64 = 0x10;
/// Handle tag of memory pools (`hipMemPool_t`).
pub(crate) const TAG_HIP_POOL: u64 = 0x11;

/// `HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED`.
const COARSE_GRAINED: u32 = 4;
/// `HSA_AMD_SEGMENT_GLOBAL`.
const SEGMENT_GLOBAL: u32 = 0;

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
pub(crate) struct HipAllocation {
    pub(crate) pool: Option<u64>,
    pub(crate) size: u64,
}

/// One `hipMemPool_t`.
#[derive(Clone, Debug, Default)]
pub(crate) struct HipPool {
    pub(crate) ordinal: i32,
    pub(crate) destroyed: bool,
    pub(crate) release_threshold: u64,
    pub(crate) reuse: [i32; 3],
    pub(crate) used: u64,
    pub(crate) used_high: u64,
    pub(crate) live: u64,
}

/// HIP runtime state of the node.
#[derive(Debug, Default)]
pub(crate) struct HipRuntime {
    /// Primary-context retains per ordinal.
    pub(crate) context_refs: BTreeMap<i32, u64>,
    /// Device allocations by base address.
    pub(crate) allocations: BTreeMap<u64, HipAllocation>,
    /// Memory pools by serial.
    pub(crate) pools: BTreeMap<u64, HipPool>,
    /// Modules and functions (see `hip_module`).
    pub(crate) modules: crate::hip_module::Modules,
}

impl HipRuntime {
    /// Pools not yet destroyed, or destroyed with allocations outstanding.
    pub(crate) fn live_pools(&self) -> u64 {
        self.pools
            .values()
            .filter(|p| !p.destroyed || p.live > 0)
            .count() as u64
    }
}

impl Sim {
    /// Counts one HIP call made to a part of the runtime the C library
    /// models itself (streams, events, host memory) and applies its faults.
    pub fn hip_gate(&self, op: &'static str, args: impl FnOnce() -> String) -> Result<(), HipCode> {
        self.hip(op, args, |_, _| Ok(()))
    }

    /// Runs one HIP call the C library models itself: counted and faulted
    /// like any other, then `body` runs without the node locked (it may
    /// call back into the node), and its outcome is logged.
    pub fn hip_external<T: std::fmt::Debug>(
        &self,
        op: &'static str,
        body: impl FnOnce() -> Result<T, HipCode>,
    ) -> Result<T, HipCode> {
        self.hip_faulted(op)?;
        let result = body();
        self.hip_log(op, &result);
        result
    }

    /// The GPU agent of ordinal `ordinal`.
    pub(crate) fn gpu_agent(&self, ordinal: i32) -> Result<usize, HipCode> {
        usize::try_from(ordinal)
            .ok()
            .and_then(|o| self.tables.gpus.get(o).copied())
            .ok_or(HipCode::INVALID_DEVICE)
    }

    /// Global pool index of the coarse-grained global pool of `ordinal`'s agent.
    fn device_pool(&self, ordinal: i32) -> Result<(usize, &crate::validate::Pool), HipCode> {
        let agent = self.gpu_agent(ordinal)?;
        let start = self.tables.pool_start.get(agent).copied().unwrap_or(0);
        self.machine
            .agents
            .get(agent)
            .into_iter()
            .flat_map(|a| a.pools.iter().enumerate())
            .find(|(_, p)| {
                p.segment == SEGMENT_GLOBAL && p.flags & COARSE_GRAINED != 0 && p.alloc_allowed
            })
            .map(|(i, p)| (start + i, p))
            .ok_or(HipCode::OUT_OF_MEMORY)
    }

    /// `hipDevicePrimaryCtxRetain`: the context handle of `ordinal`.
    pub fn hip_primary_ctx_retain(&self, ordinal: i32) -> Result<u64, HipCode> {
        self.hip(
            "hipDevicePrimaryCtxRetain",
            || format!("{ordinal}"),
            |sim, state| {
                sim.gpu_agent(ordinal)?;
                *state.hip_rt.context_refs.entry(ordinal).or_default() += 1;
                Ok(context_handle(ordinal))
            },
        )
    }

    /// `hipDevicePrimaryCtxRelease`.
    pub fn hip_primary_ctx_release(&self, ordinal: i32) -> Result<(), HipCode> {
        self.hip(
            "hipDevicePrimaryCtxRelease",
            || format!("{ordinal}"),
            |sim, state| {
                sim.gpu_agent(ordinal)?;
                let refs = state.hip_rt.context_refs.entry(ordinal).or_default();
                // ROCm answers a release without a retain with hipErrorInvalidContext.
                *refs = refs.checked_sub(1).ok_or(HipCode::INVALID_CONTEXT)?;
                if *refs == 0 {
                    state.hip_rt.context_refs.remove(&ordinal);
                }
                Ok(())
            },
        )
    }

    /// The ordinal of context handle `context` (no call is counted).
    pub fn hip_context_device(&self, context: u64) -> Result<i32, HipCode> {
        let ordinal = serial(context, TAG_HIP_CONTEXT)
            .and_then(|s| i32::try_from(s - 1).ok())
            .ok_or(HipCode::INVALID_CONTEXT)?;
        self.gpu_agent(ordinal)
            .map(|_| ordinal)
            .map_err(|_| HipCode::INVALID_CONTEXT)
    }

    /// The context handle of `ordinal` (no call is counted).
    pub fn hip_device_context(ordinal: i32) -> u64 {
        context_handle(ordinal)
    }

    /// A device allocation of `size` bytes on `ordinal` (`hipMalloc`,
    /// `hipMallocAsync`); size 0 gives the null pointer, as HIP does.
    pub fn hip_malloc(&self, op: &'static str, ordinal: i32, size: u64) -> Result<u64, HipCode> {
        self.hip(
            op,
            || format!("{ordinal}, {size}"),
            |sim, state| allocate(sim, state, ordinal, size, None),
        )
    }

    /// `hipMallocFromPoolAsync`.
    pub fn hip_malloc_from_pool(&self, pool: u64, size: u64) -> Result<u64, HipCode> {
        self.hip(
            "hipMallocFromPoolAsync",
            || format!("{pool:#x}, {size}"),
            |sim, state| {
                let s = serial(pool, TAG_HIP_POOL).ok_or(HipCode::INVALID_VALUE)?;
                let ordinal = match state.hip_rt.pools.get(&s) {
                    Some(p) if !p.destroyed => p.ordinal,
                    _ => return Err(HipCode::INVALID_VALUE),
                };
                allocate(sim, state, ordinal, size, Some(s))
            },
        )
    }

    /// `hipFree`/`hipFreeAsync` of a device allocation (null is a no-op).
    pub fn hip_free(&self, op: &'static str, ptr: u64) -> Result<(), HipCode> {
        self.hip(op, || format!("{ptr:#x}"), |_, state| free(state, ptr))
    }

    /// `hipMemPoolCreate` on `ordinal`.
    pub fn hip_mem_pool_create(&self, ordinal: i32) -> Result<u64, HipCode> {
        self.hip(
            "hipMemPoolCreate",
            || format!("{ordinal}"),
            |sim, state| {
                sim.gpu_agent(ordinal).map_err(|_| HipCode::INVALID_VALUE)?;
                let s = state.serial();
                state.hip_rt.pools.insert(
                    s,
                    HipPool {
                        ordinal,
                        reuse: [1, 1, 1],
                        ..HipPool::default()
                    },
                );
                Ok(handle(TAG_HIP_POOL, s))
            },
        )
    }

    /// `hipMemPoolDestroy`: allocations still out keep the pool until freed.
    pub fn hip_mem_pool_destroy(&self, pool: u64) -> Result<(), HipCode> {
        self.hip(
            "hipMemPoolDestroy",
            || format!("{pool:#x}"),
            |_, state| {
                let (s, p) = live_pool_mut(state, pool)?;
                p.destroyed = true;
                if p.live == 0 {
                    state.hip_rt.pools.remove(&s);
                }
                Ok(())
            },
        )
    }

    /// `hipMemPoolTrimTo`: nothing is cached, so there is nothing to release.
    pub fn hip_mem_pool_trim_to(&self, pool: u64, keep: u64) -> Result<(), HipCode> {
        self.hip(
            "hipMemPoolTrimTo",
            || format!("{pool:#x}, {keep}"),
            |_, state| live_pool(state, pool).map(|_| ()),
        )
    }

    /// `hipMemPoolGetAttribute`: the value widened to 64 bits (the C side
    /// writes an `int` for the reuse flags, a `uint64_t` for the others).
    pub fn hip_mem_pool_get_attribute(&self, pool: u64, attribute: i32) -> Result<u64, HipCode> {
        self.hip(
            "hipMemPoolGetAttribute",
            || format!("{pool:#x}, {attribute}"),
            |_, state| {
                use pool_attribute as a;
                let p = live_pool(state, pool)?;
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
            },
        )
    }

    /// `hipMemPoolSetAttribute`: the reuse flags, the release threshold, and
    /// resetting a high-water mark (only to 0, as HIP requires).
    pub fn hip_mem_pool_set_attribute(
        &self,
        pool: u64,
        attribute: i32,
        value: u64,
    ) -> Result<(), HipCode> {
        self.hip(
            "hipMemPoolSetAttribute",
            || format!("{pool:#x}, {attribute}, {value}"),
            |_, state| {
                use pool_attribute as a;
                let (_, p) = live_pool_mut(state, pool)?;
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
            },
        )
    }

    /// Whether `[ptr, ptr + len)` lies inside one live device allocation
    /// or loaded image (no call is counted).
    pub fn hip_is_device_range(&self, ptr: u64, len: u64) -> bool {
        let state = self.lock();
        state.memory.region_of(ptr).is_some_and(|(base, _)| {
            ptr.checked_add(len.max(1)).is_some_and(|end| {
                state
                    .memory
                    .region_of(end - 1)
                    .is_some_and(|(b, _)| b == base)
            })
        })
    }

    /// Whether `ptr` is inside device memory at all (no call is counted).
    pub fn hip_is_device(&self, ptr: u64) -> bool {
        self.lock().memory.region_of(ptr).is_some()
    }

    /// Writes host bytes into device memory (the work of a copy; no call is counted).
    pub fn hip_write(&self, dst: u64, bytes: &[u8]) -> Result<(), HipCode> {
        if bytes.is_empty() {
            return Ok(());
        }
        self.lock()
            .memory
            .write(dst, bytes)
            .map_err(|_| HipCode::INVALID_VALUE)
    }

    /// Reads device memory into host bytes (no call is counted).
    pub fn hip_read(&self, src: u64, out: &mut [u8]) -> Result<(), HipCode> {
        if out.is_empty() {
            return Ok(());
        }
        self.lock()
            .memory
            .read(src, out)
            .map_err(|_| HipCode::INVALID_VALUE)
    }

    /// Fills `count` elements of `pattern` at device address `dst` (no call is counted).
    pub fn hip_fill(&self, dst: u64, pattern: &[u8], count: u64) -> Result<(), HipCode> {
        let len = count
            .checked_mul(pattern.len() as u64)
            .filter(|&n| n <= crate::memory::MAX_COPY_BYTES)
            .ok_or(HipCode::INVALID_VALUE)?;
        let len = usize::try_from(len).map_err(|_| HipCode::INVALID_VALUE)?;
        let bytes: Vec<u8> = pattern.iter().copied().cycle().take(len).collect();
        self.hip_write(dst, &bytes)
    }
}

fn context_handle(ordinal: i32) -> u64 {
    handle(TAG_HIP_CONTEXT, u64::from(ordinal.unsigned_abs()) + 1)
}

fn live_pool(state: &State, pool: u64) -> Result<&HipPool, HipCode> {
    serial(pool, TAG_HIP_POOL)
        .and_then(|s| state.hip_rt.pools.get(&s))
        .filter(|p| !p.destroyed)
        .ok_or(HipCode::INVALID_VALUE)
}

/// A pool not yet destroyed, with its serial, for a call that changes it.
fn live_pool_mut(state: &mut State, pool: u64) -> Result<(u64, &mut HipPool), HipCode> {
    let s = serial(pool, TAG_HIP_POOL).ok_or(HipCode::INVALID_VALUE)?;
    let p = state
        .hip_rt
        .pools
        .get_mut(&s)
        .filter(|p| !p.destroyed)
        .ok_or(HipCode::INVALID_VALUE)?;
    Ok((s, p))
}

fn allocate(
    sim: &Sim,
    state: &mut State,
    ordinal: i32,
    size: u64,
    pool: Option<u64>,
) -> Result<u64, HipCode> {
    let (index, info) = sim.device_pool(ordinal)?;
    if size == 0 {
        return Ok(0);
    }
    if size > info.alloc_max_size {
        return Err(HipCode::OUT_OF_MEMORY);
    }
    let base = state
        .memory
        .allocate(index, size, info.granule, info.alignment, info.size)
        .map_err(|_| HipCode::OUT_OF_MEMORY)?;
    state
        .hip_rt
        .allocations
        .insert(base, HipAllocation { pool, size });
    if let Some(p) = pool.and_then(|s| state.hip_rt.pools.get_mut(&s)) {
        p.live += 1;
        p.used = p.used.saturating_add(size);
        p.used_high = p.used_high.max(p.used);
    }
    Ok(base)
}

fn free(state: &mut State, ptr: u64) -> Result<(), HipCode> {
    if ptr == 0 {
        return Ok(());
    }
    let allocation = state
        .hip_rt
        .allocations
        .remove(&ptr)
        .ok_or(HipCode::INVALID_VALUE)?;
    state.memory.free(ptr).map_err(|_| HipCode::INVALID_VALUE)?;
    if let Some(s) = allocation.pool
        && let Some(p) = state.hip_rt.pools.get_mut(&s)
    {
        p.live = p.live.saturating_sub(1);
        p.used = p.used.saturating_sub(allocation.size);
        if p.destroyed && p.live == 0 {
            state.hip_rt.pools.remove(&s);
        }
    }
    Ok(())
}

impl Sim {
    /// Frees a device allocation without counting a call: the work of a
    /// `hipFreeAsync` that was counted when it was enqueued.
    pub fn hip_release(&self, ptr: u64) -> Result<(), HipCode> {
        free(&mut self.lock(), ptr)
    }

    /// Whether `ptr` is the base of a live device allocation (no call is counted).
    pub fn hip_is_allocation(&self, ptr: u64) -> bool {
        self.lock().hip_rt.allocations.contains_key(&ptr)
    }
}

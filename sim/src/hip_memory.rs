//! The HIP runtime's memory on the simulated node: primary contexts,
//! device allocations (`hipMalloc`, stream-ordered pools), and the reads,
//! writes, copies and fills that copies and memsets perform.
//!
//! Device memory is the node's [`crate::memory::Memory`]: an allocation
//! comes from the GPU's coarse-grained global pool, counts against its
//! capacity and holds real bytes, so what a client copies in it copies back
//! out byte for byte. Host memory (`hipHostMalloc`, managed memory) is the
//! C library's: it must be dereferenceable by the client.
//!
//! The calls are here, with the gate of the HIP calls the C library models
//! itself; `state::hip_memory`'s `HipMemory` holds the rules.

use crate::codes::HipCode;
use crate::node::Sim;
use crate::state::hip_memory::{context_handle, context_ordinal};

pub use crate::state::hip_memory::{HipPointer, pool_attribute};

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

    /// `hipDevicePrimaryCtxRetain`: the context handle of `ordinal`.
    pub fn hip_primary_ctx_retain(&self, ordinal: i32) -> Result<u64, HipCode> {
        self.hip(
            "hipDevicePrimaryCtxRetain",
            || format!("{ordinal}"),
            |topology, state| state.hip_memory.retain_context(topology, ordinal),
        )
    }

    /// `hipDevicePrimaryCtxRelease`.
    pub fn hip_primary_ctx_release(&self, ordinal: i32) -> Result<(), HipCode> {
        self.hip(
            "hipDevicePrimaryCtxRelease",
            || format!("{ordinal}"),
            |topology, state| state.hip_memory.release_context(topology, ordinal),
        )
    }

    /// The ordinal of context handle `context` (no call is counted).
    pub fn hip_context_device(&self, context: u64) -> Result<i32, HipCode> {
        let ordinal = context_ordinal(context).ok_or(HipCode::INVALID_CONTEXT)?;
        self.topology
            .gpu_agent(ordinal)
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
            |topology, state| {
                state
                    .hip_memory
                    .allocate(topology, &mut state.memory, ordinal, size)
            },
        )
    }

    /// `hipMallocFromPoolAsync`.
    pub fn hip_malloc_from_pool(&self, pool: u64, size: u64) -> Result<u64, HipCode> {
        self.hip(
            "hipMallocFromPoolAsync",
            || format!("{pool:#x}, {size}"),
            |topology, state| {
                state
                    .hip_memory
                    .allocate_from_pool(topology, &mut state.memory, pool, size)
            },
        )
    }

    /// `hipFree`/`hipFreeAsync` of a device allocation (null is a no-op).
    pub fn hip_free(&self, op: &'static str, ptr: u64) -> Result<(), HipCode> {
        self.hip(
            op,
            || format!("{ptr:#x}"),
            |_, state| state.hip_memory.free(&mut state.memory, ptr),
        )
    }

    /// Frees a device allocation without counting a call: the work of a
    /// `hipFreeAsync` that was counted when it was enqueued.
    pub fn hip_release(&self, ptr: u64) -> Result<(), HipCode> {
        let state = &mut *self.lock();
        state.hip_memory.free(&mut state.memory, ptr)
    }

    /// Whether `ptr` is the base of a live device allocation (no call is counted).
    pub fn hip_is_allocation(&self, ptr: u64) -> bool {
        self.lock().hip_memory.is_allocation(ptr)
    }

    /// The device allocation holding `ptr`, if any (no call is counted).
    pub fn hip_pointer(&self, ptr: u64) -> Option<HipPointer> {
        self.lock().hip_memory.allocation_of(ptr)
    }

    /// `hipMemGetInfo` on `ordinal`: `(free, total)` bytes of its
    /// coarse-grained global pool, where allocations come from; free is
    /// what live allocations (rounded to the granule) and physical memory
    /// of the virtual-memory API leave.
    pub fn hip_mem_get_info(&self, ordinal: i32) -> Result<(u64, u64), HipCode> {
        self.hip(
            "hipMemGetInfo",
            || format!("{ordinal}"),
            |topology, state| {
                let (index, info) = topology.device_pool(ordinal)?;
                let usage = state.memory.usage(index);
                let used = usage.reserved_bytes.saturating_add(usage.physical_bytes);
                Ok((info.size.saturating_sub(used), info.size))
            },
        )
    }

    /// `hipDeviceReset`'s memory part on `ordinal`: its allocations freed,
    /// its pools destroyed. No call is counted: the C library counts
    /// `hipDeviceReset` before it stops the device's streams.
    pub fn hip_device_reset(&self, ordinal: i32) -> Result<(), HipCode> {
        self.topology.gpu_agent(ordinal)?;
        let state = &mut *self.lock();
        state.hip_memory.reset_device(&mut state.memory, ordinal);
        Ok(())
    }

    /// `hipMemPoolCreate` on `ordinal`.
    pub fn hip_mem_pool_create(&self, ordinal: i32) -> Result<u64, HipCode> {
        self.hip(
            "hipMemPoolCreate",
            || format!("{ordinal}"),
            |topology, state| {
                state
                    .hip_memory
                    .create_pool(topology, &mut state.serials, ordinal)
            },
        )
    }

    /// `hipMemPoolDestroy`: allocations still out keep the pool until freed.
    pub fn hip_mem_pool_destroy(&self, pool: u64) -> Result<(), HipCode> {
        self.hip(
            "hipMemPoolDestroy",
            || format!("{pool:#x}"),
            |_, state| state.hip_memory.destroy_pool(pool),
        )
    }

    /// `hipMemPoolTrimTo`: nothing is cached, so there is nothing to release.
    pub fn hip_mem_pool_trim_to(&self, pool: u64, keep: u64) -> Result<(), HipCode> {
        self.hip(
            "hipMemPoolTrimTo",
            || format!("{pool:#x}, {keep}"),
            |_, state| state.hip_memory.trim_pool(pool),
        )
    }

    /// `hipMemPoolGetAttribute`: the value widened to 64 bits (the C side
    /// writes an `int` for the reuse flags, a `uint64_t` for the others).
    pub fn hip_mem_pool_get_attribute(&self, pool: u64, attribute: i32) -> Result<u64, HipCode> {
        self.hip(
            "hipMemPoolGetAttribute",
            || format!("{pool:#x}, {attribute}"),
            |_, state| state.hip_memory.pool_attribute(pool, attribute),
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
            |_, state| state.hip_memory.set_pool_attribute(pool, attribute, value),
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

//! The HSA exports (`hsa.h`, `hsa_ext_amd.h`) over the simulated node.
//!
//! Each export validates its pointers, makes the simulator call that the
//! in-process backend (`amdgpu-hal`'s `backend::sim`) makes for the same
//! query, and writes the answer in the header's C type. Attributes outside
//! the simulator's model are `HSA_STATUS_ERROR_INVALID_ARGUMENT`, ROCr's
//! answer to an attribute it does not know.

use std::ffi::{c_char, c_void};

use amdgpu_sim::elf::SymbolKind;
use amdgpu_sim::{HsaCode, Sim};

use crate::abi::*;
use crate::node::{Node, node};
use crate::ptr::{self, c_exports};

/// `hsa_status_t (*)(T, void*)`: the iteration callbacks.
pub type Callback<T> = Option<extern "C" fn(T, *mut c_void) -> hsa_status_t>;

/// An export's body: `Err` is the status returned.
pub(crate) type Call = Result<(), HsaCode>;

pub(crate) const INVALID: HsaCode = HsaCode::INVALID_ARGUMENT;

/// Runs `body` on the node; no node is `HSA_STATUS_ERROR_NOT_INITIALIZED`.
pub(crate) fn on_node(body: impl FnOnce(&Node) -> Call) -> hsa_status_t {
    match node() {
        None => HSA_STATUS_ERROR_NOT_INITIALIZED,
        Some(node) => match body(node) {
            Ok(()) => HSA_STATUS_SUCCESS,
            Err(code) => code.0,
        },
    }
}

/// Writes `value` to `out`, or `INVALID_ARGUMENT` for NULL.
pub(crate) fn put<T: Copy>(out: *mut c_void, value: T) -> Call {
    if ptr::write(out, value) {
        Ok(())
    } else {
        Err(INVALID)
    }
}

/// Copies `bytes` to `out`, or `INVALID_ARGUMENT` for NULL.
pub(crate) fn put_bytes(out: *mut c_void, bytes: &[u8]) -> Call {
    if ptr::write_bytes(out, bytes) {
        Ok(())
    } else {
        Err(INVALID)
    }
}

/// A `char[N]` attribute: the text cut to `N - 1` bytes, NUL-padded.
pub(crate) fn put_chars<const N: usize>(out: *mut c_void, text: &str) -> Call {
    let mut buffer = [0u8; N];
    for (slot, byte) in buffer.iter_mut().take(N - 1).zip(text.bytes()) {
        *slot = byte;
    }
    put_bytes(out, &buffer)
}

/// Hands each item to `callback`; a non-success return stops the
/// iteration and is returned (`HSA_STATUS_INFO_BREAK` included), as in ROCr.
pub(crate) fn iterate<T: Copy>(
    items: &[T],
    callback: Callback<T>,
    data: *mut c_void,
) -> hsa_status_t {
    let Some(callback) = callback else {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    };
    for &item in items {
        let status = callback(item, data);
        if status != HSA_STATUS_SUCCESS {
            return status;
        }
    }
    HSA_STATUS_SUCCESS
}

fn iterate_on_node<T: Copy>(
    collect: impl FnOnce(&Sim) -> Result<Vec<T>, HsaCode>,
    callback: Callback<T>,
    data: *mut c_void,
) -> hsa_status_t {
    if callback.is_none() {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    let Some(node) = node() else {
        return HSA_STATUS_ERROR_NOT_INITIALIZED;
    };
    // The callback runs with no simulator lock held, so it may call back in.
    match collect(&node.sim) {
        Ok(items) => iterate(&items, callback, data),
        Err(code) => code.0,
    }
}

fn size_t(value: u64) -> Result<usize, HsaCode> {
    usize::try_from(value).map_err(|_| HsaCode::ERROR)
}

fn pool_info(sim: &Sim, pool: u64, attribute: u32, value: *mut c_void) -> Call {
    use pool_info as p;
    if value.is_null() {
        return Err(INVALID);
    }
    match attribute {
        p::SEGMENT => put(
            value,
            sim.pool_info(pool, "HSA_AMD_MEMORY_POOL_INFO_SEGMENT", |p| p.segment)?,
        ),
        p::GLOBAL_FLAGS => put(
            value,
            sim.pool_info(pool, "HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS", |p| p.flags)?,
        ),
        p::SIZE => put(
            value,
            size_t(sim.pool_info(pool, "HSA_AMD_MEMORY_POOL_INFO_SIZE", |p| p.size)?)?,
        ),
        p::RUNTIME_ALLOC_ALLOWED => put(
            value,
            sim.pool_info(
                pool,
                "HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED",
                |p| p.alloc_allowed,
            )?,
        ),
        p::RUNTIME_ALLOC_GRANULE => put(
            value,
            size_t(sim.pool_info(
                pool,
                "HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE",
                |p| p.granule,
            )?)?,
        ),
        p::RUNTIME_ALLOC_ALIGNMENT => put(
            value,
            size_t(sim.pool_info(
                pool,
                "HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT",
                |p| p.alignment,
            )?)?,
        ),
        p::ACCESSIBLE_BY_ALL => put(
            value,
            sim.pool_info(pool, "HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL", |p| {
                p.accessible_by_all
            })?,
        ),
        p::ALLOC_MAX_SIZE => put(
            value,
            size_t(
                sim.pool_info(pool, "HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE", |p| {
                    p.alloc_max_size
                })?,
            )?,
        ),
        _ => Err(INVALID),
    }
}

fn agent_pool_info(sim: &Sim, agent: u64, pool: u64, attribute: u32, value: *mut c_void) -> Call {
    if value.is_null() {
        return Err(INVALID);
    }
    match attribute {
        agent_pool_info::ACCESS => put(value, sim.agent_pool_access(agent, pool)?),
        agent_pool_info::NUM_LINK_HOPS => put(value, sim.agent_pool_num_link_hops(agent, pool)?),
        agent_pool_info::LINK_INFO => {
            let mut bytes = Vec::new();
            for link in sim.agent_pool_link_info(agent, pool)? {
                let hop = hsa_amd_memory_pool_link_info_t {
                    min_latency: link.min_latency,
                    max_latency: link.max_latency,
                    min_bandwidth: link.min_bandwidth,
                    max_bandwidth: link.max_bandwidth,
                    atomic_support_32bit: link.atomic_32bit,
                    atomic_support_64bit: link.atomic_64bit,
                    coherent_support: link.coherent,
                    link_type: link.link_type,
                    numa_distance: link.numa_distance,
                };
                bytes.extend_from_slice(&hop.to_bytes());
            }
            put_bytes(value, &bytes)
        }
        _ => Err(INVALID),
    }
}

/// `hsa_executable_symbol_get_info`: one simulator query, then the
/// attribute; kernel attributes of a variable (and the reverse) are
/// `INVALID_ARGUMENT`, as in ROCr.
fn symbol_info(sim: &Sim, symbol: u64, attribute: u32, value: *mut c_void) -> Call {
    use symbol_info as s;
    if value.is_null() {
        return Err(INVALID);
    }
    let name = match attribute {
        s::TYPE => "HSA_EXECUTABLE_SYMBOL_INFO_TYPE",
        s::NAME_LENGTH => "HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH",
        s::NAME => "HSA_EXECUTABLE_SYMBOL_INFO_NAME",
        s::VARIABLE_SIZE => "HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE",
        s::KERNARG_SEGMENT_SIZE => "HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE",
        s::KERNARG_SEGMENT_ALIGNMENT => {
            "HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT"
        }
        s::GROUP_SEGMENT_SIZE => "HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE",
        s::PRIVATE_SEGMENT_SIZE => "HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE",
        s::AGENT => "HSA_EXECUTABLE_SYMBOL_INFO_AGENT",
        s::VARIABLE_ADDRESS => "HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS",
        s::KERNEL_OBJECT => "HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT",
        _ => return Err(INVALID),
    };
    let info = sim.symbol_info(symbol, name)?;
    let kernel = match info.kind {
        SymbolKind::Kernel {
            group_segment_size,
            private_segment_size,
            kernarg_size,
        } => Some((group_segment_size, private_segment_size, kernarg_size)),
        SymbolKind::Variable => None,
    };
    match (attribute, kernel) {
        (s::TYPE, Some(_)) => put(value, symbol_kind::KERNEL),
        (s::TYPE, None) => put(value, symbol_kind::VARIABLE),
        (s::NAME_LENGTH, _) => put(
            value,
            u32::try_from(info.name.len()).map_err(|_| HsaCode::ERROR)?,
        ),
        (s::NAME, _) => put_bytes(value, info.name.as_bytes()),
        (s::AGENT, _) => put(value, hsa_agent_t { handle: info.agent }),
        (s::KERNEL_OBJECT, Some(_)) => put(value, info.address),
        (s::KERNARG_SEGMENT_SIZE, Some((_, _, kernarg))) => put(value, kernarg),
        // ROCr reports 16 for code object v3+ kernels (it does not read the metadata).
        (s::KERNARG_SEGMENT_ALIGNMENT, Some(_)) => put(value, 16u32),
        (s::GROUP_SEGMENT_SIZE, Some((group, _, _))) => put(value, group),
        (s::PRIVATE_SEGMENT_SIZE, Some((_, private, _))) => put(value, private),
        (s::VARIABLE_ADDRESS, None) => put(value, info.address),
        (s::VARIABLE_SIZE, None) => put(
            value,
            u32::try_from(info.size).map_err(|_| HsaCode::INVALID_EXECUTABLE_SYMBOL)?,
        ),
        _ => Err(INVALID),
    }
}

/// `hsa_memory_copy`: each side is simulated memory when it lies in a live
/// allocation or a code-object window, host memory otherwise.
fn memory_copy(node: &Node, dst: *mut c_void, src: *const c_void, size: usize) -> Call {
    let (dst_addr, src_addr) = (dst as u64, src as u64);
    let size64 = u64::try_from(size).map_err(|_| INVALID)?;
    match (node.is_device(dst_addr), node.is_device(src_addr)) {
        (true, true) => node.sim.memory_copy(dst_addr, src_addr, size64),
        (true, false) => {
            if size64 > amdgpu_sim::memory::MAX_COPY_BYTES {
                return Err(INVALID);
            }
            let bytes = ptr::read_bytes(src, size).ok_or(INVALID)?;
            node.sim.memory_copy_to_device(dst_addr, &bytes)
        }
        (false, true) => {
            if size64 > amdgpu_sim::memory::MAX_COPY_BYTES {
                return Err(INVALID);
            }
            if dst.is_null() && size != 0 {
                return Err(INVALID);
            }
            let mut bytes = vec![0u8; size];
            node.sim.memory_copy_from_device(&mut bytes, src_addr)?;
            put_bytes(dst, &bytes)
        }
        // Host-to-host copies are outside the simulator's model.
        (false, false) => Err(INVALID),
    }
}

c_exports! {
    /// `hsa_init`: creates the node from the environment on first use.
    fn hsa_init() -> hsa_status_t {
        match node() {
            None => HSA_STATUS_ERROR_OUT_OF_RESOURCES,
            Some(node) => match node.sim.hsa_init() {
                Ok(()) => HSA_STATUS_SUCCESS,
                Err(code) => code.0,
            },
        }
    }

    /// `hsa_shut_down`; rewrites the report file.
    fn hsa_shut_down() -> hsa_status_t {
        on_node(|node| {
            let result = node.sim.hsa_shut_down();
            node.write_report();
            result
        })
    }

    /// `hsa_status_string`: a static text for every status the headers define.
    fn hsa_status_string(status: hsa_status_t, status_string: *mut *const c_char) -> hsa_status_t {
        match crate::strings::HSA_STATUS_TEXT.iter().find(|(raw, _)| *raw == status) {
            Some((_, text)) => {
                if ptr::write(status_string.cast(), text.as_ptr()) {
                    HSA_STATUS_SUCCESS
                } else {
                    HSA_STATUS_ERROR_INVALID_ARGUMENT
                }
            }
            None => HSA_STATUS_ERROR_INVALID_ARGUMENT,
        }
    }

    /// `hsa_system_get_info`.
    fn hsa_system_get_info(attribute: u32, value: *mut c_void) -> hsa_status_t {
        on_node(|node| crate::info::system_info(&node.sim, attribute, value))
    }

    /// `hsa_iterate_agents`.
    fn hsa_iterate_agents(callback: Callback<hsa_agent_t>, data: *mut c_void) -> hsa_status_t {
        iterate_on_node(
            |sim| Ok(sim.iterate_agents()?.into_iter().map(|handle| hsa_agent_t { handle }).collect()),
            callback,
            data,
        )
    }

    /// `hsa_agent_get_info`.
    fn hsa_agent_get_info(agent: hsa_agent_t, attribute: u32, value: *mut c_void) -> hsa_status_t {
        on_node(|node| crate::info::agent_info(&node.sim, agent.handle, attribute, value))
    }

    /// `hsa_agent_iterate_isas`.
    fn hsa_agent_iterate_isas(
        agent: hsa_agent_t,
        callback: Callback<hsa_isa_t>,
        data: *mut c_void,
    ) -> hsa_status_t {
        iterate_on_node(
            |sim| {
                Ok(sim
                    .agent_iterate_isas(agent.handle)?
                    .into_iter()
                    .map(|handle| hsa_isa_t { handle })
                    .collect())
            },
            callback,
            data,
        )
    }

    /// `hsa_isa_get_info_alt`.
    fn hsa_isa_get_info_alt(isa: hsa_isa_t, attribute: u32, value: *mut c_void) -> hsa_status_t {
        on_node(|node| crate::info::isa_info(&node.sim, isa.handle, attribute, value))
    }

    /// `hsa_amd_agent_iterate_memory_pools`.
    fn hsa_amd_agent_iterate_memory_pools(
        agent: hsa_agent_t,
        callback: Callback<hsa_amd_memory_pool_t>,
        data: *mut c_void,
    ) -> hsa_status_t {
        iterate_on_node(
            |sim| {
                Ok(sim
                    .agent_iterate_memory_pools(agent.handle)?
                    .into_iter()
                    .map(|handle| hsa_amd_memory_pool_t { handle })
                    .collect())
            },
            callback,
            data,
        )
    }

    /// `hsa_amd_memory_pool_get_info`.
    fn hsa_amd_memory_pool_get_info(
        pool: hsa_amd_memory_pool_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t {
        on_node(|node| pool_info(&node.sim, pool.handle, attribute, value))
    }

    /// `hsa_amd_agent_memory_pool_get_info`.
    fn hsa_amd_agent_memory_pool_get_info(
        agent: hsa_agent_t,
        pool: hsa_amd_memory_pool_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t {
        on_node(|node| agent_pool_info(&node.sim, agent.handle, pool.handle, attribute, value))
    }

    /// `hsa_amd_memory_pool_allocate`: simulated memory (its address is not
    /// host memory and must not be dereferenced).
    fn hsa_amd_memory_pool_allocate(
        pool: hsa_amd_memory_pool_t,
        size: usize,
        flags: u32,
        ptr: *mut *mut c_void,
    ) -> hsa_status_t {
        on_node(|node| {
            if ptr.is_null() {
                return Err(INVALID);
            }
            let size = u64::try_from(size).map_err(|_| INVALID)?;
            let base = node.sim.memory_pool_allocate(pool.handle, size, flags)?;
            node.allocated(base, size);
            put(ptr.cast(), base as usize)
        })
    }

    /// `hsa_amd_memory_pool_free`.
    fn hsa_amd_memory_pool_free(ptr: *mut c_void) -> hsa_status_t {
        on_node(|node| {
            node.sim.memory_pool_free(ptr as u64)?;
            node.freed(ptr as u64);
            Ok(())
        })
    }

    /// `hsa_memory_copy` between host memory and simulated memory.
    fn hsa_memory_copy(dst: *mut c_void, src: *const c_void, size: usize) -> hsa_status_t {
        on_node(|node| memory_copy(node, dst, src, size))
    }

    /// `hsa_amd_agents_allow_access`.
    fn hsa_amd_agents_allow_access(
        num_agents: u32,
        agents: *const hsa_agent_t,
        flags: *const u32,
        ptr: *const c_void,
    ) -> hsa_status_t {
        let _ = flags; // reserved: must be NULL, and ROCr ignores it
        on_node(|node| {
            let count = usize::try_from(num_agents).map_err(|_| INVALID)?;
            let agents = ptr::read_array(agents, count).ok_or(INVALID)?;
            let raw: Vec<u64> = agents.iter().map(|a| a.handle).collect();
            node.sim.agents_allow_access(&raw, ptr as u64)
        })
    }

    /// `hsa_code_object_reader_create_from_memory`: the bytes are copied, so
    /// the caller's buffer may go away at once.
    fn hsa_code_object_reader_create_from_memory(
        code_object: *const c_void,
        size: usize,
        code_object_reader: *mut hsa_code_object_reader_t,
    ) -> hsa_status_t {
        on_node(|node| {
            if code_object.is_null() || code_object_reader.is_null() {
                return Err(INVALID);
            }
            let bytes = ptr::read_bytes(code_object, size).ok_or(INVALID)?;
            let handle = node.sim.code_object_reader_create_from_memory(&bytes)?;
            put(code_object_reader.cast(), hsa_code_object_reader_t { handle })
        })
    }

    /// `hsa_code_object_reader_destroy`.
    fn hsa_code_object_reader_destroy(code_object_reader: hsa_code_object_reader_t) -> hsa_status_t {
        on_node(|node| node.sim.code_object_reader_destroy(code_object_reader.handle))
    }

    /// `hsa_executable_create_alt` (options are not read).
    fn hsa_executable_create_alt(
        profile: u32,
        default_float_rounding_mode: u32,
        options: *const c_char,
        executable: *mut hsa_executable_t,
    ) -> hsa_status_t {
        let _ = options;
        on_node(|node| {
            if executable.is_null() {
                return Err(INVALID);
            }
            let handle = node.sim.executable_create_alt(profile, default_float_rounding_mode)?;
            put(executable.cast(), hsa_executable_t { handle })
        })
    }

    /// `hsa_executable_load_agent_code_object` (`loaded_code_object` may be NULL).
    fn hsa_executable_load_agent_code_object(
        executable: hsa_executable_t,
        agent: hsa_agent_t,
        code_object_reader: hsa_code_object_reader_t,
        options: *const c_char,
        loaded_code_object: *mut hsa_loaded_code_object_t,
    ) -> hsa_status_t {
        let _ = options;
        on_node(|node| {
            let handle = node.sim.executable_load_agent_code_object(
                executable.handle,
                agent.handle,
                code_object_reader.handle,
            )?;
            if !loaded_code_object.is_null() {
                put(loaded_code_object.cast(), hsa_loaded_code_object_t { handle })?;
            }
            Ok(())
        })
    }

    /// `hsa_executable_freeze`.
    fn hsa_executable_freeze(executable: hsa_executable_t, options: *const c_char) -> hsa_status_t {
        let _ = options;
        on_node(|node| node.sim.executable_freeze(executable.handle))
    }

    /// `hsa_executable_destroy`.
    fn hsa_executable_destroy(executable: hsa_executable_t) -> hsa_status_t {
        on_node(|node| node.sim.executable_destroy(executable.handle))
    }

    /// `hsa_executable_get_symbol_by_name` (`agent` NULL for program symbols).
    fn hsa_executable_get_symbol_by_name(
        executable: hsa_executable_t,
        symbol_name: *const c_char,
        agent: *const hsa_agent_t,
        symbol: *mut hsa_executable_symbol_t,
    ) -> hsa_status_t {
        on_node(|node| {
            if symbol.is_null() {
                return Err(INVALID);
            }
            let name = ptr::read_c_str(symbol_name).ok_or(INVALID)?;
            let agent = if agent.is_null() {
                None
            } else {
                ptr::read_array(agent, 1).and_then(|a| a.first().map(|a| a.handle))
            };
            let handle = node.sim.executable_get_symbol_by_name(executable.handle, &name, agent)?;
            put(symbol.cast(), hsa_executable_symbol_t { handle })
        })
    }

    /// `hsa_executable_symbol_get_info`.
    fn hsa_executable_symbol_get_info(
        executable_symbol: hsa_executable_symbol_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t {
        on_node(|node| symbol_info(&node.sim, executable_symbol.handle, attribute, value))
    }
}

//! The HSA exports (`hsa.h`, `hsa_ext_amd.h`) over the simulated node.
//!
//! Each export validates its pointers, makes the simulator call that the
//! in-process backend (`amdgpu-hal`'s `backend::sim`) makes for the same
//! query, and writes the answer in the header's C type (every `*_get_info`
//! answer is `amdgpu_sim::get_info`'s, the same bytes the in-process backend
//! copies). Attributes outside the simulator's model are
//! `HSA_STATUS_ERROR_INVALID_ARGUMENT`, ROCr's answer to an attribute it
//! does not know.

use std::ffi::{c_char, c_void};

use amdgpu_sim::{HsaCode, Sim};
use amdgpu_sys::hsa_info::{
    AgentInfo, AgentMemoryPoolInfo, ExecutableSymbolInfo, IsaInfo, MemoryPoolInfo, RegionInfo,
    SystemInfo,
};

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
///
/// # Safety
/// `out` is NULL or points at writable storage of `T`'s C type.
pub(crate) unsafe fn put<T: Copy>(out: *mut c_void, value: T) -> Call {
    // SAFETY: the caller's promise, passed on.
    if unsafe { ptr::write(out, value) } {
        Ok(())
    } else {
        Err(INVALID)
    }
}

/// Copies `bytes` (an info answer in C layout) to `out`, or
/// `INVALID_ARGUMENT` for NULL.
///
/// # Safety
/// `out` is NULL or has room for `bytes.len()` bytes: the C type of the
/// attribute `bytes` answers.
pub(crate) unsafe fn put_bytes(out: *mut c_void, bytes: &[u8]) -> Call {
    // SAFETY: the caller's promise, passed on.
    if unsafe { ptr::write_bytes(out, bytes) } {
        Ok(())
    } else {
        Err(INVALID)
    }
}

/// Answers a `*_get_info` call: NULL `value` and an attribute outside the
/// model are `INVALID_ARGUMENT` before the simulator is asked (as before a
/// call to ROCr); otherwise `answer`'s bytes are written to `value`.
///
/// # Safety
/// `value` is NULL or has room for the attribute's C type (the C
/// contract of every `*_get_info` call).
pub(crate) unsafe fn get_info<A>(
    value: *mut c_void,
    attribute: Option<A>,
    answer: impl FnOnce(A) -> Result<Vec<u8>, HsaCode>,
) -> Call {
    if value.is_null() {
        return Err(INVALID);
    }
    let bytes = answer(attribute.ok_or(INVALID)?)?;
    // SAFETY: the caller's promise; `bytes` is the attribute's C value.
    unsafe { put_bytes(value, &bytes) }
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
    ///
    /// # Safety
    /// `status_string` is NULL or points at a writable `const char*`.
    unsafe fn hsa_status_string(status: hsa_status_t, status_string: *mut *const c_char) -> hsa_status_t {
        let Some(text) = crate::texts::hsa_status_string(status) else {
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        };
        // SAFETY: the caller's contract (above).
        if unsafe { ptr::write(status_string.cast(), text.as_ptr()) } {
            HSA_STATUS_SUCCESS
        } else {
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        }
    }

    /// `hsa_system_get_info`.
    ///
    /// # Safety
    /// `value` is NULL or has room for the attribute's C type.
    unsafe fn hsa_system_get_info(attribute: u32, value: *mut c_void) -> hsa_status_t {
        on_node(|node| {
            // SAFETY: the caller's contract (above).
            unsafe {
                get_info(value, SystemInfo::from_raw(attribute), |a| {
                    node.sim.system_get_info(a)
                })
            }
        })
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
    ///
    /// # Safety
    /// `value` is NULL or has room for the attribute's C type.
    unsafe fn hsa_agent_get_info(agent: hsa_agent_t, attribute: u32, value: *mut c_void) -> hsa_status_t {
        on_node(|node| {
            // SAFETY: the caller's contract (above).
            unsafe {
                get_info(value, AgentInfo::from_raw(attribute), |a| {
                    node.sim.agent_get_info(agent.handle, a)
                })
            }
        })
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
    ///
    /// # Safety
    /// `value` is NULL or has room for the attribute's C type (for the
    /// name, `HSA_ISA_INFO_NAME_LENGTH` bytes).
    unsafe fn hsa_isa_get_info_alt(isa: hsa_isa_t, attribute: u32, value: *mut c_void) -> hsa_status_t {
        on_node(|node| {
            // SAFETY: the caller's contract (above).
            unsafe {
                get_info(value, IsaInfo::from_raw(attribute), |a| {
                    node.sim.isa_get_info(isa.handle, a)
                })
            }
        })
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
    ///
    /// # Safety
    /// `value` is NULL or has room for the attribute's C type.
    unsafe fn hsa_amd_memory_pool_get_info(
        pool: hsa_amd_memory_pool_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t {
        on_node(|node| {
            // SAFETY: the caller's contract (above).
            unsafe {
                get_info(value, MemoryPoolInfo::from_raw(attribute), |a| {
                    node.sim.memory_pool_get_info(pool.handle, a)
                })
            }
        })
    }

    /// `hsa_amd_agent_memory_pool_get_info`.
    ///
    /// # Safety
    /// `value` is NULL or has room for the attribute's C type (for the
    /// link info, one `hsa_amd_memory_pool_link_info_t` per hop).
    unsafe fn hsa_amd_agent_memory_pool_get_info(
        agent: hsa_agent_t,
        pool: hsa_amd_memory_pool_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t {
        on_node(|node| {
            // SAFETY: the caller's contract (above).
            unsafe {
                get_info(value, AgentMemoryPoolInfo::from_raw(attribute), |a| {
                    node.sim.agent_memory_pool_get_info(agent.handle, pool.handle, a)
                })
            }
        })
    }

    /// `hsa_agent_iterate_regions`: the agent's memory pools as ROCr lists
    /// its regions (the same handles; `Sim::agent_iterate_regions`).
    fn hsa_agent_iterate_regions(
        agent: hsa_agent_t,
        callback: Callback<hsa_region_t>,
        data: *mut c_void,
    ) -> hsa_status_t {
        iterate_on_node(
            |sim| {
                Ok(sim
                    .agent_iterate_regions(agent.handle)?
                    .into_iter()
                    .map(|handle| hsa_region_t { handle })
                    .collect())
            },
            callback,
            data,
        )
    }

    /// `hsa_region_get_info`.
    ///
    /// # Safety
    /// `value` is NULL or has room for the attribute's C type.
    unsafe fn hsa_region_get_info(region: hsa_region_t, attribute: u32, value: *mut c_void) -> hsa_status_t {
        on_node(|node| {
            // SAFETY: the caller's contract (above).
            unsafe {
                get_info(value, RegionInfo::from_raw(attribute), |a| {
                    node.sim.region_get_info(region.handle, a)
                })
            }
        })
    }

    /// `hsa_code_object_reader_create_from_memory`: the bytes are copied, so
    /// the caller's buffer may go away at once.
    ///
    /// # Safety
    /// `code_object` is NULL or holds `size` readable bytes;
    /// `code_object_reader` is NULL or points at a writable reader handle.
    unsafe fn hsa_code_object_reader_create_from_memory(
        code_object: *const c_void,
        size: usize,
        code_object_reader: *mut hsa_code_object_reader_t,
    ) -> hsa_status_t {
        on_node(|node| {
            if code_object.is_null() || code_object_reader.is_null() {
                return Err(INVALID);
            }
            // SAFETY: the caller's contract (above).
            let bytes = unsafe { ptr::read_shared(code_object, size) }.ok_or(INVALID)?;
            let handle = node.sim.code_object_reader_create_from_shared(bytes)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(code_object_reader.cast(), hsa_code_object_reader_t { handle }) }
        })
    }

    /// `hsa_code_object_reader_destroy`.
    fn hsa_code_object_reader_destroy(code_object_reader: hsa_code_object_reader_t) -> hsa_status_t {
        on_node(|node| node.sim.code_object_reader_destroy(code_object_reader.handle))
    }

    /// `hsa_executable_create_alt` (options are not read).
    ///
    /// # Safety
    /// `executable` is NULL or points at a writable executable handle.
    unsafe fn hsa_executable_create_alt(
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
            // SAFETY: the caller's contract (above).
            unsafe { put(executable.cast(), hsa_executable_t { handle }) }
        })
    }

    /// `hsa_executable_load_agent_code_object` (`loaded_code_object` may be NULL).
    ///
    /// # Safety
    /// `loaded_code_object` is NULL or points at a writable handle.
    unsafe fn hsa_executable_load_agent_code_object(
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
                // SAFETY: the caller's contract (above).
                unsafe { put(loaded_code_object.cast(), hsa_loaded_code_object_t { handle }) }?;
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
    ///
    /// # Safety
    /// `symbol_name` is NULL or NUL-terminated, `agent` NULL or pointing at
    /// an agent, `symbol` NULL or pointing at a writable symbol handle.
    unsafe fn hsa_executable_get_symbol_by_name(
        executable: hsa_executable_t,
        symbol_name: *const c_char,
        agent: *const hsa_agent_t,
        symbol: *mut hsa_executable_symbol_t,
    ) -> hsa_status_t {
        on_node(|node| {
            if symbol.is_null() {
                return Err(INVALID);
            }
            // SAFETY: the caller's contract (above).
            let name = unsafe { ptr::read_c_str(symbol_name) }.ok_or(INVALID)?;
            let agent = if agent.is_null() {
                None
            } else {
                // SAFETY: the caller's contract (above).
                unsafe { ptr::read_array(agent, 1) }.and_then(|a| a.first().map(|a| a.handle))
            };
            let handle = node.sim.executable_get_symbol_by_name(executable.handle, &name, agent)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(symbol.cast(), hsa_executable_symbol_t { handle }) }
        })
    }

    /// `hsa_executable_symbol_get_info`.
    ///
    /// # Safety
    /// `value` is NULL or has room for the attribute's C type (for the
    /// name, `HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH` bytes).
    unsafe fn hsa_executable_symbol_get_info(
        executable_symbol: hsa_executable_symbol_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t {
        on_node(|node| {
            // SAFETY: the caller's contract (above).
            unsafe {
                get_info(value, ExecutableSymbolInfo::from_raw(attribute), |a| {
                    node.sim.executable_symbol_get_info(executable_symbol.handle, a)
                })
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Canary bytes after the attribute: a write past the C type shows here.
    const SLACK: usize = 16;

    fn node() -> Sim {
        let sim = Sim::preset("mi300x-8")
            .expect("preset exists")
            .expect("preset is valid");
        sim.hsa_init().expect("hsa_init");
        sim
    }

    /// Runs `query` on a canary-filled buffer of `size + SLACK` bytes;
    /// returns the status and whether nothing past `size` changed.
    fn written(size: usize, query: impl FnOnce(*mut c_void) -> Call) -> (Call, Vec<u8>) {
        let mut buffer = vec![0xAAu8; size + SLACK];
        let status = query(buffer.as_mut_ptr().cast());
        assert!(
            buffer[size..].iter().all(|&b| b == 0xAA),
            "wrote past the {size}-byte C type"
        );
        buffer.truncate(size);
        (status, buffer)
    }

    #[test]
    fn every_agent_attribute_fills_exactly_its_c_type() {
        use amdgpu_sys::hsa_info::InfoSize;
        let sim = node();
        for agent in [Sim::agent_handle(0), Sim::agent_handle(2)] {
            for &attribute in AgentInfo::ALL {
                let InfoSize::Fixed(size) = attribute.size() else {
                    panic!("{attribute:?}");
                };
                // SAFETY: a buffer of the attribute's size plus slack.
                let (status, _) = written(size, |v| unsafe {
                    get_info(v, Some(attribute), |a| sim.agent_get_info(agent, a))
                });
                assert_eq!(status, Ok(()), "{attribute:?} of {agent:#x}");
            }
        }
    }

    #[test]
    fn unknown_attributes_and_null_outputs_are_invalid_arguments() {
        let sim = node();
        let gpu = Sim::agent_handle(2);
        let calls = sim.hsa_call_count();
        // HSA_AGENT_INFO_EXTENSIONS (20), HSA_AMD_AGENT_INFO_HDP_FLUSH, a
        // value no header defines: refused without asking the node.
        for attribute in [20, 0xA00E, 0xFFFF] {
            // SAFETY: a 64-byte buffer plus slack.
            let (status, bytes) = written(64, |v| unsafe {
                get_info(v, AgentInfo::from_raw(attribute), |a| {
                    sim.agent_get_info(gpu, a)
                })
            });
            assert_eq!(status, Err(HsaCode::INVALID_ARGUMENT), "{attribute:#x}");
            assert!(bytes.iter().all(|&b| b == 0xAA), "nothing written");
        }
        // HSA_ISA_INFO_CALL_CONVENTION_COUNT (2), HSA_SYSTEM_INFO_EXTENSIONS (7).
        assert_eq!(IsaInfo::from_raw(2), None);
        assert_eq!(SystemInfo::from_raw(7), None);
        // SAFETY: NULL is refused before any write.
        let null = unsafe {
            get_info(std::ptr::null_mut(), Some(AgentInfo::Feature), |a| {
                sim.agent_get_info(gpu, a)
            })
        };
        assert_eq!(null, Err(HsaCode::INVALID_ARGUMENT));
        assert_eq!(sim.hsa_call_count(), calls, "no call reached the node");
    }
}

//! HSA code objects and executables (`hsa.h`): readers over the client's
//! bytes, executables, loads on an agent, freezing, symbols and their
//! attributes.

use std::ffi::{c_char, c_void};

use amdgpu_sys::hsa_info::ExecutableSymbolInfo;

use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hsa_call::{INVALID, get_info, on_runtime, put};
use crate::core::ptr;

c_exports! {
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
        on_runtime(|rt| {
            if code_object.is_null() || code_object_reader.is_null() {
                return Err(INVALID);
            }
            // SAFETY: the caller's contract (above).
            let bytes = unsafe { ptr::read_shared(code_object, size) }.ok_or(INVALID)?;
            let handle = rt.sim.code_object_reader_create_from_shared(bytes)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(code_object_reader.cast(), hsa_code_object_reader_t { handle }) }
        })
    }

    /// `hsa_code_object_reader_destroy`.
    fn hsa_code_object_reader_destroy(code_object_reader: hsa_code_object_reader_t) -> hsa_status_t {
        on_runtime(|rt| rt.sim.code_object_reader_destroy(code_object_reader.handle))
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
        on_runtime(|rt| {
            if executable.is_null() {
                return Err(INVALID);
            }
            let handle = rt.sim.executable_create_alt(profile, default_float_rounding_mode)?;
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
        on_runtime(|rt| {
            let handle = rt.sim.executable_load_agent_code_object(
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
        on_runtime(|rt| rt.sim.executable_freeze(executable.handle))
    }

    /// `hsa_executable_destroy`.
    fn hsa_executable_destroy(executable: hsa_executable_t) -> hsa_status_t {
        on_runtime(|rt| rt.sim.executable_destroy(executable.handle))
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
        on_runtime(|rt| {
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
            let handle = rt.sim.executable_get_symbol_by_name(executable.handle, &name, agent)?;
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
        on_runtime(|rt| {
            // SAFETY: the caller's contract (above).
            unsafe {
                get_info(value, ExecutableSymbolInfo::from_raw(attribute), |a| {
                    rt.sim.executable_symbol_get_info(executable_symbol.handle, a)
                })
            }
        })
    }
}

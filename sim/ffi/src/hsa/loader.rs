//! The AMD loader extension (`hsa_ven_amd_loader.h`, version 1.03): the
//! function table `hsa_system_get_major_extension_table` hands out.
//!
//! The simulator models loaded code objects, whose images are process
//! memory at their device addresses (`mapped_store`): a device address in
//! one is its own host address. The segment-descriptor, executable-lookup,
//! file-reader and executable-iteration entries are outside its model and
//! fail with `HSA_STATUS_ERROR` (HSA has no "not supported" status).

use std::ffi::c_void;

use amdgpu_sys::hsa_info::LoadedCodeObjectInfo;

use crate::abi::*;
use amdgpu_sim::HsaCode;

use crate::core::exports::c_exports;
use crate::core::hsa_call::{get_info, on_runtime, put};
use crate::core::ptr;
use crate::core::runtime::runtime;

/// `hsa_ven_amd_loader_query_host_address`: an address in a loaded code
/// object is its own host address; any other is `INVALID_ARGUMENT`, as in
/// ROCr.
///
/// # Safety
/// `host_address` is NULL or points at a writable `const void*`.
unsafe extern "C" fn query_host_address(
    device_address: *const c_void,
    host_address: *mut *const c_void,
) -> hsa_status_t {
    on_runtime(|rt| {
        rt.sim.hsa_external(
            "hsa_ven_amd_loader_query_host_address",
            || format!("{device_address:?}"),
            || {
                if device_address.is_null() || host_address.is_null() {
                    return Err(HsaCode::INVALID_ARGUMENT);
                }
                if !rt.sim.is_loaded_code(device_address as u64) {
                    return Err(HsaCode::INVALID_ARGUMENT);
                }
                // SAFETY: the caller's contract (non-NULL, checked above).
                unsafe { put(host_address.cast(), device_address) }
            },
        )
    })
}

unsafe extern "C" fn query_segment_descriptors(
    segment_descriptors: *mut c_void,
    num_segment_descriptors: *mut usize,
) -> hsa_status_t {
    let _ = (segment_descriptors, num_segment_descriptors);
    HSA_STATUS_ERROR
}

unsafe extern "C" fn query_executable(
    device_address: *const c_void,
    executable: *mut hsa_executable_t,
) -> hsa_status_t {
    let _ = (device_address, executable);
    HSA_STATUS_ERROR
}

unsafe extern "C" fn executable_iterate_loaded_code_objects(
    executable: hsa_executable_t,
    callback: Option<LoadedCodeObjectCallback>,
    data: *mut c_void,
) -> hsa_status_t {
    let Some(callback) = callback else {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    };
    let Some(rt) = runtime() else {
        return HSA_STATUS_ERROR_NOT_INITIALIZED;
    };
    match rt
        .sim
        .executable_iterate_loaded_code_objects(executable.handle)
    {
        Err(code) => code.0,
        Ok(loaded) => {
            for handle in loaded {
                let status = callback(executable, hsa_loaded_code_object_t { handle }, data);
                if status != HSA_STATUS_SUCCESS {
                    return status;
                }
            }
            HSA_STATUS_SUCCESS
        }
    }
}

/// `hsa_ven_amd_loader_loaded_code_object_get_info`.
///
/// # Safety
/// `value` is NULL or has room for the attribute's C type.
unsafe extern "C" fn loaded_code_object_get_info(
    loaded_code_object: hsa_loaded_code_object_t,
    attribute: u32,
    value: *mut c_void,
) -> hsa_status_t {
    on_runtime(|rt| {
        // SAFETY: the caller's contract (above).
        unsafe {
            get_info(value, LoadedCodeObjectInfo::from_raw(attribute), |a| {
                rt.sim
                    .loaded_code_object_get_info(loaded_code_object.handle, a)
            })
        }
    })
}

unsafe extern "C" fn code_object_reader_create_from_file_with_offset_size(
    file: i32,
    offset: usize,
    size: usize,
    code_object_reader: *mut hsa_code_object_reader_t,
) -> hsa_status_t {
    let _ = (file, offset, size, code_object_reader);
    HSA_STATUS_ERROR
}

unsafe extern "C" fn iterate_executables(
    callback: Option<extern "C" fn(hsa_executable_t, *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t {
    let _ = (callback, data);
    HSA_STATUS_ERROR
}

/// The 1.03 table, typed as the header lays it out.
fn table() -> hsa_ven_amd_loader_1_03_pfn_t {
    hsa_ven_amd_loader_1_03_pfn_t {
        query_host_address: Some(query_host_address),
        query_segment_descriptors: Some(query_segment_descriptors),
        query_executable: Some(query_executable),
        executable_iterate_loaded_code_objects: Some(executable_iterate_loaded_code_objects),
        loaded_code_object_get_info: Some(loaded_code_object_get_info),
        code_object_reader_create_from_file_with_offset_size: Some(
            code_object_reader_create_from_file_with_offset_size,
        ),
        iterate_executables: Some(iterate_executables),
    }
}

/// The table's bytes: its seven pointers in order.
fn table_bytes() -> Vec<u8> {
    let t = table();
    [
        t.query_host_address.map(|f| f as usize),
        t.query_segment_descriptors.map(|f| f as usize),
        t.query_executable.map(|f| f as usize),
        t.executable_iterate_loaded_code_objects.map(|f| f as usize),
        t.loaded_code_object_get_info.map(|f| f as usize),
        t.code_object_reader_create_from_file_with_offset_size
            .map(|f| f as usize),
        t.iterate_executables.map(|f| f as usize),
    ]
    .iter()
    .flat_map(|f| f.unwrap_or(0).to_ne_bytes())
    .collect()
}

c_exports! {
    /// `hsa_system_major_extension_supported`: the AMD loader at 1.03; no
    /// other extension.
    ///
    /// # Safety
    /// `version_minor` and `result` are NULL or point at a writable
    /// `uint16_t` and `bool`.
    unsafe fn hsa_system_major_extension_supported(
        extension: u16,
        version_major: u16,
        version_minor: *mut u16,
        result: *mut bool,
    ) -> hsa_status_t {
        if version_minor.is_null() || result.is_null() {
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        }
        let supported = extension == HSA_EXTENSION_AMD_LOADER && version_major == 1;
        // SAFETY: the caller's contract (above).
        if supported && !unsafe { ptr::write(version_minor.cast(), AMD_LOADER_MINOR) } {
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        }
        // SAFETY: the caller's contract (above).
        if unsafe { ptr::write(result.cast(), supported) } {
            HSA_STATUS_SUCCESS
        } else {
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        }
    }

    /// `hsa_system_get_major_extension_table`: the first `table_length`
    /// bytes of the loader's 1.03 table (a shorter length is an older minor).
    ///
    /// # Safety
    /// `table_out` is NULL or has room for `table_length` bytes.
    unsafe fn hsa_system_get_major_extension_table(
        extension: u16,
        version_major: u16,
        table_length: usize,
        table_out: *mut c_void,
    ) -> hsa_status_t {
        if extension != HSA_EXTENSION_AMD_LOADER || version_major != 1 {
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        }
        let bytes = table_bytes();
        let length = table_length.min(bytes.len());
        match bytes.get(..length) {
            // SAFETY: `length <= table_length` bytes, the caller's contract.
            Some(prefix) if unsafe { ptr::write_bytes(table_out, prefix) } => HSA_STATUS_SUCCESS,
            _ => HSA_STATUS_ERROR_INVALID_ARGUMENT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_the_header_size() {
        assert_eq!(table_bytes().len(), LOADER_TABLE_SIZES[3]);
    }
}

//! The AMD loader extension (`hsa_ven_amd_loader.h`, version 1.03): the
//! function table `hsa_system_get_major_extension_table` hands out.
//!
//! The simulator models loaded code objects; the host-address,
//! segment-descriptor, executable-lookup, file-reader and
//! executable-iteration entries are outside its model and fail with
//! `HSA_STATUS_ERROR` (HSA has no "not supported" status).

use std::ffi::c_void;

use crate::abi::*;
use crate::hsa::{Call, on_node, put};
use crate::ptr::{self, c_exports};

/// `hsa_ven_amd_loader_loaded_code_object_get_info` callback shape.
type LoadedCallback =
    Option<extern "C" fn(hsa_executable_t, hsa_loaded_code_object_t, *mut c_void) -> hsa_status_t>;

extern "C" fn query_host_address(
    device_address: *const c_void,
    host_address: *mut *const c_void,
) -> hsa_status_t {
    let _ = (device_address, host_address);
    HSA_STATUS_ERROR
}

extern "C" fn query_segment_descriptors(
    segment_descriptors: *mut c_void,
    num_segment_descriptors: *mut usize,
) -> hsa_status_t {
    let _ = (segment_descriptors, num_segment_descriptors);
    HSA_STATUS_ERROR
}

extern "C" fn query_executable(
    device_address: *const c_void,
    executable: *mut hsa_executable_t,
) -> hsa_status_t {
    let _ = (device_address, executable);
    HSA_STATUS_ERROR
}

extern "C" fn executable_iterate_loaded_code_objects(
    executable: hsa_executable_t,
    callback: LoadedCallback,
    data: *mut c_void,
) -> hsa_status_t {
    let Some(callback) = callback else {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    };
    let Some(node) = crate::node::node() else {
        return HSA_STATUS_ERROR_NOT_INITIALIZED;
    };
    match node
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

extern "C" fn loaded_code_object_get_info(
    loaded_code_object: hsa_loaded_code_object_t,
    attribute: u32,
    value: *mut c_void,
) -> hsa_status_t {
    use loaded_code_object_info as l;
    on_node(|node| -> Call {
        let name = match attribute {
            l::AGENT => "HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT",
            l::LOAD_DELTA => "HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA",
            l::LOAD_BASE => "HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE",
            l::LOAD_SIZE => "HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE",
            _ => return Err(amdgpu_sim::HsaCode::INVALID_ARGUMENT),
        };
        if value.is_null() {
            return Err(amdgpu_sim::HsaCode::INVALID_ARGUMENT);
        }
        let info = node
            .sim
            .loaded_code_object_info(loaded_code_object.handle, name)?;
        match attribute {
            l::AGENT => put(value, hsa_agent_t { handle: info.agent }),
            l::LOAD_DELTA => put(value, info.load_delta),
            l::LOAD_BASE => put(value, info.load_base),
            _ => put(value, info.load_size),
        }
    })
}

extern "C" fn code_object_reader_create_from_file_with_offset_size(
    file: i32,
    offset: usize,
    size: usize,
    code_object_reader: *mut hsa_code_object_reader_t,
) -> hsa_status_t {
    let _ = (file, offset, size, code_object_reader);
    HSA_STATUS_ERROR
}

extern "C" fn iterate_executables(
    callback: Option<extern "C" fn(hsa_executable_t, *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t {
    let _ = (callback, data);
    HSA_STATUS_ERROR
}

/// The 1.03 table as the header lays it out: seven pointers in order.
fn table() -> [usize; 7] {
    [
        query_host_address as *const () as usize,
        query_segment_descriptors as *const () as usize,
        query_executable as *const () as usize,
        executable_iterate_loaded_code_objects as *const () as usize,
        loaded_code_object_get_info as *const () as usize,
        code_object_reader_create_from_file_with_offset_size as *const () as usize,
        iterate_executables as *const () as usize,
    ]
}
const _: () = assert!(size_of::<[usize; 7]>() == AMD_LOADER_1_03_TABLE_SIZE);

c_exports! {
    /// `hsa_system_major_extension_supported`: the AMD loader at 1.03; no
    /// other extension.
    fn hsa_system_major_extension_supported(
        extension: u16,
        version_major: u16,
        version_minor: *mut u16,
        result: *mut bool,
    ) -> hsa_status_t {
        if version_minor.is_null() || result.is_null() {
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        }
        let supported = extension == HSA_EXTENSION_AMD_LOADER && version_major == 1;
        if supported && !ptr::write(version_minor.cast(), AMD_LOADER_MINOR) {
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        }
        if ptr::write(result.cast(), supported) {
            HSA_STATUS_SUCCESS
        } else {
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        }
    }

    /// `hsa_system_get_major_extension_table`: the first `table_length`
    /// bytes of the loader's 1.03 table (a shorter length is an older minor).
    fn hsa_system_get_major_extension_table(
        extension: u16,
        version_major: u16,
        table_length: usize,
        table_out: *mut c_void,
    ) -> hsa_status_t {
        if extension != HSA_EXTENSION_AMD_LOADER || version_major != 1 {
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        }
        let bytes: Vec<u8> = table().iter().flat_map(|f| f.to_ne_bytes()).collect();
        let length = table_length.min(bytes.len());
        match bytes.get(..length) {
            Some(prefix) if ptr::write_bytes(table_out, prefix) => HSA_STATUS_SUCCESS,
            _ => HSA_STATUS_ERROR_INVALID_ARGUMENT,
        }
    }
}

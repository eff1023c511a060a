//! The rest of the vendor tables the `amdgpu-hal` dylib backend requires
//! at load, and the rest of IREE's AMDGPU driver's `libhsa_tables.h`:
//! dmabuf export, IPC memory and signals, interop, SVM attributes, system
//! events, caches, some queue calls and executable validation. The
//! simulated node models none of them, so each one fails with
//! `HSA_STATUS_ERROR` (ROCm 5.2's headers have no "not supported" status).
//! Signatures are the headers' own.
//!
//! Signals (`signal`), queues and their index operations (`queue`), regions
//! (`hsa`), memory copies, fills, pointer info and locked host memory
//! (`memory`, `async_copy`) and virtual memory (`vmem`) are modelled; the
//! queue calls here (`hsa_soft_queue_create`, `hsa_queue_inactivate`, CU
//! masks, priorities) are not.

#![allow(clippy::too_many_arguments, non_camel_case_types)]

use std::ffi::{c_char, c_int, c_void};

use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::finish;

/// A C enum passed by value.
type c_enum = u32;

macro_rules! unsupported {
    ($fail:expr, $ret:ty; $( fn $name:ident($($arg:ident: $ty:ty),* $(,)?); )*) => {
        c_exports! {$(
            #[doc = concat!("`", stringify!($name), "`: outside the simulator's model.")]
            fn $name($($arg: $ty),*) -> $ret {
                let _ = ($($arg,)*);
                crate::unsupported::fail_with($fail)
            }
        )*}
    };
}

/// Records a HIP failure as the last error; HSA values pass through.
pub(crate) fn fail_with<T: Copy + 'static>(value: T) -> T {
    if let Some(error) = (&value as &dyn std::any::Any).downcast_ref::<hipError_t>() {
        finish(*error);
    }
    value
}

type SystemEventCallback = Option<extern "C" fn(*const c_void, *mut c_void) -> hsa_status_t>;
type CacheCallback = Option<extern "C" fn(hsa_cache_t, *mut c_void) -> hsa_status_t>;

unsupported! { HSA_STATUS_ERROR, hsa_status_t;
    fn hsa_amd_ipc_memory_create(ptr: *mut c_void, len: usize, handle: *mut c_void);
    fn hsa_amd_ipc_memory_attach(handle: *const c_void, len: usize, num_agents: u32,
        mapping_agents: *const hsa_agent_t, mapped_ptr: *mut *mut c_void);
    fn hsa_amd_ipc_memory_detach(mapped_ptr: *mut c_void);
    fn hsa_amd_interop_map_buffer(num_agents: u32, agents: *mut hsa_agent_t, interop_handle: c_int,
        flags: u32, size: *mut usize, ptr: *mut *mut c_void, metadata_size: *mut usize,
        metadata: *mut *const c_void);
    fn hsa_amd_interop_unmap_buffer(ptr: *mut c_void);
    fn hsa_amd_svm_attributes_get(ptr: *mut c_void, size: usize, attribute_list: *mut c_void,
        attribute_count: usize);
    fn hsa_amd_svm_attributes_set(ptr: *mut c_void, size: usize, attribute_list: *mut c_void,
        attribute_count: usize);
    fn hsa_amd_svm_prefetch_async(ptr: *mut c_void, size: usize, agent: hsa_agent_t,
        num_dep_signals: u32, dep_signals: *const hsa_signal_t, completion_signal: hsa_signal_t);
    fn hsa_amd_register_system_event_handler(callback: SystemEventCallback, data: *mut c_void);
    fn hsa_agent_iterate_caches(agent: hsa_agent_t, callback: CacheCallback, data: *mut c_void);
    fn hsa_cache_get_info(cache: hsa_cache_t, attribute: c_enum, value: *mut c_void);
    fn hsa_amd_ipc_signal_create(signal: hsa_signal_t, handle: *mut c_void);
    fn hsa_amd_ipc_signal_attach(handle: *const c_void, signal: *mut hsa_signal_t);
    fn hsa_soft_queue_create(region: hsa_region_t, size: u32, queue_type: u32, features: u32,
        doorbell_signal: hsa_signal_t, queue: *mut *mut c_void);
    fn hsa_queue_inactivate(queue: *mut c_void);
    fn hsa_amd_queue_cu_set_mask(queue: *const c_void, num_cu_mask_count: u32, cu_mask: *const u32);
    fn hsa_amd_queue_set_priority(queue: *mut c_void, priority: c_enum);
    fn hsa_executable_validate_alt(executable: hsa_executable_t, options: *const c_char,
        result: *mut u32);
    fn hsa_amd_portable_export_dmabuf(ptr: *const c_void, size: usize, dmabuf: *mut c_int,
        offset: *mut u64);
    fn hsa_amd_portable_close_dmabuf(dmabuf: c_int);
}

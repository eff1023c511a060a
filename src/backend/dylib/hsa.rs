//! `libhsa-runtime64` through its symbol table: one safe, thin method per C
//! call, failures as the raw `hsa_status_t` (the `*_get_info` calls are in
//! [`super::hsa_info`]); its types and values are `amdgpu-sys`'s.
//!
//! Memory safety the C API cannot give is kept here:
//! - code-object readers keep their own copy of the bytes until destroyed
//!   (the runtime reads them lazily);
//! - host↔device copies are accepted only inside allocations this library
//!   made, so a stray address is `INVALID_ARGUMENT`, never a wild write;
//! - an info answer is written only into a buffer that holds it (see
//!   [`super::hsa_info`]).

use std::collections::{BTreeMap, HashMap};
use std::ffi::{CString, c_char, c_void};
use std::sync::Mutex;

use amdgpu_sys::hsa_info::SystemInfo;
use amdgpu_sys::hsa_status::*;
use amdgpu_sys::hsa_types::*;

use super::library::{DynamicLibrary, HSA};
use super::symbols::symbol_table;
use crate::status::Result;

/// Most agents, ISAs per agent or pools per agent collected from one
/// iteration (beyond it the iteration fails with `HSA_STATUS_ERROR`).
pub const MAX_ITERATED_ITEMS: usize = 4096;

symbol_table! {
    /// HSA entry points (`hsa.h`, `hsa_ext_amd.h`). The `checked` group is the
    /// rest of IREE's `libhsa_tables.h` that Debian's ROCm 5.2 exports (its
    /// `hsa_amd_vmem_*`, `hsa_amd_portable_*`, `hsa_amd_signal_wait_all` and
    /// `hsa_amd_queue_get_info` are ROCm 6 additions and are not required).
    pub struct HsaSymbols {
        required {
            fn hsa_init() -> hsa_status_t;
            fn hsa_shut_down() -> hsa_status_t;
            fn hsa_status_string(hsa_status_t, *mut *const c_char) -> hsa_status_t;
            fn hsa_system_get_info(u32, *mut c_void) -> hsa_status_t;
            fn hsa_system_major_extension_supported(u16, u16, *mut u16, *mut bool) -> hsa_status_t;
            fn hsa_system_get_major_extension_table(u16, u16, usize, *mut c_void) -> hsa_status_t;
            fn hsa_iterate_agents(IterateCallback<hsa_agent_t>, *mut c_void) -> hsa_status_t;
            fn hsa_agent_get_info(hsa_agent_t, u32, *mut c_void) -> hsa_status_t;
            fn hsa_agent_iterate_isas(hsa_agent_t, IterateCallback<hsa_isa_t>, *mut c_void) -> hsa_status_t;
            fn hsa_isa_get_info_alt(hsa_isa_t, u32, *mut c_void) -> hsa_status_t;
            fn hsa_amd_agent_iterate_memory_pools(
                hsa_agent_t, IterateCallback<hsa_amd_memory_pool_t>, *mut c_void) -> hsa_status_t;
            fn hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t, u32, *mut c_void) -> hsa_status_t;
            fn hsa_amd_agent_memory_pool_get_info(
                hsa_agent_t, hsa_amd_memory_pool_t, u32, *mut c_void) -> hsa_status_t;
            fn hsa_amd_memory_pool_allocate(
                hsa_amd_memory_pool_t, usize, u32, *mut *mut c_void) -> hsa_status_t;
            fn hsa_amd_memory_pool_free(*mut c_void) -> hsa_status_t;
            fn hsa_memory_copy(*mut c_void, *const c_void, usize) -> hsa_status_t;
            fn hsa_amd_agents_allow_access(u32, *const hsa_agent_t, *const u32, *const c_void) -> hsa_status_t;
            fn hsa_code_object_reader_create_from_memory(
                *const c_void, usize, *mut hsa_code_object_reader_t) -> hsa_status_t;
            fn hsa_code_object_reader_destroy(hsa_code_object_reader_t) -> hsa_status_t;
            fn hsa_executable_create_alt(u32, u32, *const c_char, *mut hsa_executable_t) -> hsa_status_t;
            fn hsa_executable_load_agent_code_object(
                hsa_executable_t, hsa_agent_t, hsa_code_object_reader_t, *const c_char,
                *mut hsa_loaded_code_object_t) -> hsa_status_t;
            fn hsa_executable_freeze(hsa_executable_t, *const c_char) -> hsa_status_t;
            fn hsa_executable_destroy(hsa_executable_t) -> hsa_status_t;
            fn hsa_executable_get_symbol_by_name(
                hsa_executable_t, *const c_char, *const hsa_agent_t,
                *mut hsa_executable_symbol_t) -> hsa_status_t;
            fn hsa_executable_symbol_get_info(hsa_executable_symbol_t, u32, *mut c_void) -> hsa_status_t;
        }
        optional {}
        checked {
            hsa_amd_memory_async_copy, hsa_amd_memory_lock,
            hsa_amd_memory_lock_to_pool, hsa_amd_memory_unlock, hsa_amd_pointer_info,
            hsa_amd_ipc_memory_create, hsa_amd_ipc_memory_attach, hsa_amd_ipc_memory_detach,
            hsa_amd_interop_map_buffer, hsa_amd_interop_unmap_buffer, hsa_amd_svm_attributes_get,
            hsa_amd_svm_attributes_set, hsa_amd_svm_prefetch_async,
            hsa_amd_register_system_event_handler, hsa_agent_iterate_caches, hsa_cache_get_info,
            hsa_agent_iterate_regions, hsa_region_get_info, hsa_amd_signal_create,
            hsa_signal_destroy, hsa_signal_load_scacquire, hsa_signal_store_screlease,
            hsa_signal_subtract_screlease, hsa_signal_wait_scacquire, hsa_amd_signal_wait_any,
            hsa_amd_ipc_signal_create, hsa_amd_ipc_signal_attach, hsa_queue_create,
            hsa_soft_queue_create, hsa_queue_destroy, hsa_queue_inactivate,
            hsa_amd_queue_cu_set_mask, hsa_amd_queue_set_priority,
            hsa_amd_profiling_set_profiler_enabled, hsa_queue_load_read_index_scacquire,
            hsa_queue_add_write_index_scacq_screl, hsa_executable_validate_alt,
        }
    }
}

/// Raw outcome of an HSA call.
pub type HsaCall<T> = std::result::Result<T, hsa_status_t>;

pub(super) fn check(status: hsa_status_t) -> HsaCall<()> {
    if status == HSA_STATUS_SUCCESS {
        Ok(())
    } else {
        Err(status)
    }
}

/// What an iteration callback collects into.
struct Collector<T> {
    items: Vec<T>,
}

extern "C" fn collect<T>(item: T, data: *mut c_void) -> hsa_status_t {
    // SAFETY: `data` is the `&mut Collector<T>` that `iterate` passes to the
    // runtime for exactly the duration of the iteration call, and the runtime
    // calls back on the calling thread before returning.
    let collector = unsafe { &mut *data.cast::<Collector<T>>() };
    if collector.items.len() >= MAX_ITERATED_ITEMS || collector.items.try_reserve(1).is_err() {
        return HSA_STATUS_ERROR;
    }
    collector.items.push(item);
    HSA_STATUS_SUCCESS
}

extern "C" fn collect_loaded(
    _executable: hsa_executable_t,
    loaded: hsa_loaded_code_object_t,
    data: *mut c_void,
) -> hsa_status_t {
    collect::<hsa_loaded_code_object_t>(loaded, data)
}

/// The HSA runtime, loaded and resolved.
pub struct HsaLibrary {
    pub(super) symbols: HsaSymbols,
    loader: Mutex<Option<hsa_ven_amd_loader_1_03_pfn_t>>,
    readers: Mutex<HashMap<u64, Box<[u8]>>>,
    allocations: Mutex<BTreeMap<u64, usize>>,
    library: DynamicLibrary,
}

impl std::fmt::Debug for HsaLibrary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HsaLibrary")
            .field("path", &self.library.path())
            .finish_non_exhaustive()
    }
}

impl HsaLibrary {
    /// Opens `libhsa-runtime64` by the search rules ([`super::library`]) and
    /// resolves every required symbol. Does not call `hsa_init`.
    pub fn load(search_paths: &[String]) -> Result<HsaLibrary> {
        HsaLibrary::from_library(DynamicLibrary::open(&HSA, search_paths)?)
    }

    /// Resolves the table from an already opened library.
    pub fn from_library(library: DynamicLibrary) -> Result<HsaLibrary> {
        let symbols = HsaSymbols::resolve(&library)?;
        Ok(HsaLibrary {
            symbols,
            loader: Mutex::new(None),
            readers: Mutex::new(HashMap::new()),
            allocations: Mutex::new(BTreeMap::new()),
            library,
        })
    }

    /// The path the library was opened by.
    pub fn path(&self) -> &str {
        self.library.path()
    }

    /// `hsa_init`.
    pub fn init(&self) -> HsaCall<()> {
        // SAFETY: no arguments; the runtime is reference counted and safe to
        // initialize from any thread.
        check(unsafe { (self.symbols.hsa_init)() })
    }

    /// `hsa_shut_down`.
    pub fn shut_down(&self) -> HsaCall<()> {
        // SAFETY: no arguments; the runtime checks its own reference count.
        check(unsafe { (self.symbols.hsa_shut_down)() })
    }

    /// `hsa_status_string`: the runtime's own text for `status` (works before
    /// `hsa_init`); `None` for a code it does not know.
    pub fn status_string(&self, status: hsa_status_t) -> Option<String> {
        let mut text: *const c_char = std::ptr::null();
        // SAFETY: `text` is a valid out-pointer; on success the runtime
        // stores a pointer to a static NUL-terminated string.
        let result = unsafe { (self.symbols.hsa_status_string)(status, &mut text) };
        if result != HSA_STATUS_SUCCESS || text.is_null() {
            return None;
        }
        // SAFETY: non-null and NUL-terminated static storage (checked above).
        Some(
            unsafe { std::ffi::CStr::from_ptr(text) }
                .to_string_lossy()
                .into_owned(),
        )
    }

    /// `HSA_SYSTEM_INFO_VERSION_MAJOR` / `_MINOR`.
    pub fn system_version(&self) -> HsaCall<(u16, u16)> {
        let (mut major, mut minor) = (0u16, 0u16);
        // SAFETY: both attributes are `uint16_t`; the out-pointers are valid.
        check(unsafe {
            (self.symbols.hsa_system_get_info)(
                SystemInfo::VersionMajor.raw(),
                (&raw mut major).cast(),
            )
        })?;
        // SAFETY: as above.
        check(unsafe {
            (self.symbols.hsa_system_get_info)(
                SystemInfo::VersionMinor.raw(),
                (&raw mut minor).cast(),
            )
        })?;
        Ok((major, minor))
    }

    /// `hsa_iterate_agents`.
    pub fn iterate_agents(&self) -> HsaCall<Vec<hsa_agent_t>> {
        let mut collector = Collector { items: Vec::new() };
        // SAFETY: the callback matches `hsa_status_t (*)(hsa_agent_t, void*)`
        // and `data` points at `collector`, alive for the whole call.
        check(unsafe {
            (self.symbols.hsa_iterate_agents)(collect::<hsa_agent_t>, (&raw mut collector).cast())
        })?;
        Ok(collector.items)
    }

    /// `hsa_agent_iterate_isas`.
    pub fn agent_iterate_isas(&self, agent: hsa_agent_t) -> HsaCall<Vec<hsa_isa_t>> {
        let mut collector = Collector { items: Vec::new() };
        // SAFETY: as in `iterate_agents`, for `hsa_isa_t`.
        check(unsafe {
            (self.symbols.hsa_agent_iterate_isas)(
                agent,
                collect::<hsa_isa_t>,
                (&raw mut collector).cast(),
            )
        })?;
        Ok(collector.items)
    }

    /// `hsa_amd_agent_iterate_memory_pools`.
    pub fn agent_iterate_memory_pools(
        &self,
        agent: hsa_agent_t,
    ) -> HsaCall<Vec<hsa_amd_memory_pool_t>> {
        let mut collector = Collector { items: Vec::new() };
        // SAFETY: as in `iterate_agents`, for `hsa_amd_memory_pool_t`.
        check(unsafe {
            (self.symbols.hsa_amd_agent_iterate_memory_pools)(
                agent,
                collect::<hsa_amd_memory_pool_t>,
                (&raw mut collector).cast(),
            )
        })?;
        Ok(collector.items)
    }

    /// `hsa_amd_memory_pool_allocate`; the allocation is remembered so later
    /// copies can be checked against it.
    pub fn memory_pool_allocate(
        &self,
        pool: hsa_amd_memory_pool_t,
        size: u64,
        flags: u32,
    ) -> HsaCall<u64> {
        let size = usize::try_from(size).map_err(|_| HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        let mut ptr: *mut c_void = std::ptr::null_mut();
        // SAFETY: `ptr` is a valid out-pointer; the runtime validates pool and size.
        check(unsafe { (self.symbols.hsa_amd_memory_pool_allocate)(pool, size, flags, &mut ptr) })?;
        let addr = ptr as u64;
        if let Ok(mut allocations) = self.allocations.lock() {
            allocations.insert(addr, size);
        }
        Ok(addr)
    }

    /// `hsa_amd_memory_pool_free` of an allocation made by this library.
    pub fn memory_pool_free(&self, addr: u64) -> HsaCall<()> {
        let known = self
            .allocations
            .lock()
            .map(|mut a| a.remove(&addr).is_some())
            .unwrap_or(false);
        if !known {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: `addr` was returned by `hsa_amd_memory_pool_allocate` and
        // has not been freed (it was still in the table).
        check(unsafe { (self.symbols.hsa_amd_memory_pool_free)(addr as *mut c_void) })
    }

    fn inside_allocation(&self, addr: u64, len: usize) -> bool {
        let Ok(allocations) = self.allocations.lock() else {
            return false;
        };
        let Some((&base, &size)) = allocations.range(..=addr).next_back() else {
            return false;
        };
        let (Some(end), Some(want)) = (base.checked_add(size as u64), addr.checked_add(len as u64))
        else {
            return false;
        };
        want <= end
    }

    /// `hsa_memory_copy` from host bytes into one of this library's allocations.
    pub fn memory_copy_to_device(&self, dst: u64, src: &[u8]) -> HsaCall<()> {
        if !self.inside_allocation(dst, src.len()) {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: `dst..dst+len` lies inside a live allocation of this
        // runtime (checked above) and `src` is a valid host slice.
        check(unsafe {
            (self.symbols.hsa_memory_copy)(dst as *mut c_void, src.as_ptr().cast(), src.len())
        })
    }

    /// `hsa_memory_copy` from one of this library's allocations into host bytes.
    pub fn memory_copy_from_device(&self, dst: &mut [u8], src: u64) -> HsaCall<()> {
        if !self.inside_allocation(src, dst.len()) {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: as in `memory_copy_to_device`, reversed.
        check(unsafe {
            (self.symbols.hsa_memory_copy)(dst.as_mut_ptr().cast(), src as *const c_void, dst.len())
        })
    }

    /// `hsa_memory_copy` between two ranges inside this library's allocations.
    pub fn memory_copy(&self, dst: u64, src: u64, size: u64) -> HsaCall<()> {
        let size = usize::try_from(size).map_err(|_| HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        if !self.inside_allocation(dst, size) || !self.inside_allocation(src, size) {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: both ranges lie inside live allocations of this runtime.
        check(unsafe {
            (self.symbols.hsa_memory_copy)(dst as *mut c_void, src as *const c_void, size)
        })
    }

    /// `hsa_amd_agents_allow_access(agents, NULL, ptr)` for one of this
    /// library's allocations.
    pub fn agents_allow_access(&self, agents: &[hsa_agent_t], ptr: u64) -> HsaCall<()> {
        if !self.inside_allocation(ptr, 0) {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let count = u32::try_from(agents.len()).map_err(|_| HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        // SAFETY: `agents` is a valid array of `count` handles, flags may be
        // NULL, and `ptr` is a live allocation of this runtime.
        check(unsafe {
            (self.symbols.hsa_amd_agents_allow_access)(
                count,
                agents.as_ptr(),
                std::ptr::null(),
                ptr as *const c_void,
            )
        })
    }

    /// `hsa_code_object_reader_create_from_memory` over a private copy of `image`.
    pub fn code_object_reader_create(&self, image: &[u8]) -> HsaCall<hsa_code_object_reader_t> {
        let copy: Box<[u8]> = image.into();
        let mut reader = hsa_code_object_reader_t::default();
        // SAFETY: `copy` is kept alive in `readers` until the reader is
        // destroyed (moving a Box does not move its heap bytes).
        check(unsafe {
            (self.symbols.hsa_code_object_reader_create_from_memory)(
                copy.as_ptr().cast(),
                copy.len(),
                &mut reader,
            )
        })?;
        if let Ok(mut readers) = self.readers.lock() {
            readers.insert(reader.handle, copy);
        }
        Ok(reader)
    }

    /// `hsa_code_object_reader_destroy`; the private copy goes with it.
    pub fn code_object_reader_destroy(&self, reader: hsa_code_object_reader_t) -> HsaCall<()> {
        // SAFETY: the runtime validates the handle.
        check(unsafe { (self.symbols.hsa_code_object_reader_destroy)(reader) })?;
        if let Ok(mut readers) = self.readers.lock() {
            readers.remove(&reader.handle);
        }
        Ok(())
    }

    /// `hsa_executable_create_alt(profile, rounding_mode, NULL)`.
    pub fn executable_create_alt(
        &self,
        profile: u32,
        rounding_mode: u32,
    ) -> HsaCall<hsa_executable_t> {
        let mut executable = hsa_executable_t::default();
        // SAFETY: NULL options are allowed; the out-pointer is valid.
        check(unsafe {
            (self.symbols.hsa_executable_create_alt)(
                profile,
                rounding_mode,
                std::ptr::null(),
                &mut executable,
            )
        })?;
        Ok(executable)
    }

    /// `hsa_executable_load_agent_code_object(executable, agent, reader, NULL)`.
    pub fn executable_load_agent_code_object(
        &self,
        executable: hsa_executable_t,
        agent: hsa_agent_t,
        reader: hsa_code_object_reader_t,
    ) -> HsaCall<hsa_loaded_code_object_t> {
        let mut loaded = hsa_loaded_code_object_t::default();
        // SAFETY: handles are validated by the runtime; NULL options allowed.
        check(unsafe {
            (self.symbols.hsa_executable_load_agent_code_object)(
                executable,
                agent,
                reader,
                std::ptr::null(),
                &mut loaded,
            )
        })?;
        Ok(loaded)
    }

    /// `hsa_executable_freeze(executable, NULL)`.
    pub fn executable_freeze(&self, executable: hsa_executable_t) -> HsaCall<()> {
        // SAFETY: handle validated by the runtime; NULL options allowed.
        check(unsafe { (self.symbols.hsa_executable_freeze)(executable, std::ptr::null()) })
    }

    /// `hsa_executable_destroy`.
    pub fn executable_destroy(&self, executable: hsa_executable_t) -> HsaCall<()> {
        // SAFETY: handle validated by the runtime.
        check(unsafe { (self.symbols.hsa_executable_destroy)(executable) })
    }

    /// `hsa_executable_get_symbol_by_name`; `agent` is `None` for
    /// program-scope symbols. A name with a NUL is `INVALID_ARGUMENT`.
    pub fn executable_get_symbol_by_name(
        &self,
        executable: hsa_executable_t,
        name: &str,
        agent: Option<hsa_agent_t>,
    ) -> HsaCall<hsa_executable_symbol_t> {
        let name = CString::new(name).map_err(|_| HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        let agent_ptr = agent.as_ref().map_or(std::ptr::null(), std::ptr::from_ref);
        let mut symbol = hsa_executable_symbol_t::default();
        // SAFETY: `name` is NUL-terminated, `agent_ptr` is NULL or points at
        // a live local, and the out-pointer is valid.
        check(unsafe {
            (self.symbols.hsa_executable_get_symbol_by_name)(
                executable,
                name.as_ptr(),
                agent_ptr,
                &mut symbol,
            )
        })?;
        Ok(symbol)
    }

    /// The AMD loader extension table, fetched once (after a successful
    /// `hsa_init`) at the length of the minor version the runtime reports.
    pub fn loader(&self) -> HsaCall<hsa_ven_amd_loader_1_03_pfn_t> {
        let mut cached = self.loader.lock().map_err(|_| HSA_STATUS_ERROR)?;
        if let Some(table) = *cached {
            return Ok(table);
        }
        let (mut minor, mut supported) = (0u16, false);
        // SAFETY: both out-pointers are valid (`uint16_t`, `bool`).
        check(unsafe {
            (self.symbols.hsa_system_major_extension_supported)(
                HSA_EXTENSION_AMD_LOADER,
                1,
                &mut minor,
                &mut supported,
            )
        })?;
        if !supported {
            return Err(HSA_STATUS_ERROR);
        }
        let length = LOADER_TABLE_SIZES
            .get(usize::from(minor))
            .or(LOADER_TABLE_SIZES.last())
            .copied()
            .unwrap_or(0);
        let mut table = hsa_ven_amd_loader_1_03_pfn_t::default();
        // SAFETY: `table` is at least `length` bytes (the 1.03 struct is the
        // largest) and the runtime writes `length` bytes of function pointers.
        check(unsafe {
            (self.symbols.hsa_system_get_major_extension_table)(
                HSA_EXTENSION_AMD_LOADER,
                1,
                length,
                (&raw mut table).cast(),
            )
        })?;
        *cached = Some(table);
        Ok(table)
    }

    /// `hsa_ven_amd_loader_executable_iterate_loaded_code_objects`.
    pub fn executable_iterate_loaded_code_objects(
        &self,
        executable: hsa_executable_t,
    ) -> HsaCall<Vec<hsa_loaded_code_object_t>> {
        let iterate = self
            .loader()?
            .executable_iterate_loaded_code_objects
            .ok_or(HSA_STATUS_ERROR)?;
        let mut collector = Collector::<hsa_loaded_code_object_t> { items: Vec::new() };
        // SAFETY: the callback matches the table's declared signature and
        // `data` points at `collector`, alive for the call.
        check(unsafe {
            iterate(
                executable,
                Some(collect_loaded),
                (&raw mut collector).cast(),
            )
        })?;
        Ok(collector.items)
    }
}

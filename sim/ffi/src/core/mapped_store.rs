//! The C library's [`ByteStore`]: simulated memory is process memory at the
//! simulated addresses themselves, so the pointer `hsa_amd_memory_pool_allocate`
//! returns is one the client writes through, a kernel object address is
//! the kernel descriptor's host address, and kernels (which the node runs
//! over the same store) see exactly what the host wrote, and the host what
//! kernels wrote. This is the large-BAR / APU view IREE's AMDGPU driver
//! takes of every pool.
//!
//! - An allocation or a loaded image is an anonymous private mapping placed
//!   with `MAP_FIXED_NOREPLACE` (`MAP_NORESERVE`: a large allocation costs
//!   only the pages touched); an image's segments are copied into it. An
//!   address the process already maps is never taken: the call fails with
//!   `HSA_STATUS_ERROR_OUT_OF_RESOURCES`.
//! - A virtual-memory reservation is a `PROT_NONE` mapping of its range.
//! - Physical memory of the virtual-memory API is a memfd, mapped
//!   read-write once for the store's own reads and writes; mapping it into
//!   a reservation maps the same memfd there (`MAP_SHARED | MAP_FIXED`), so
//!   every address it is mapped at shows the same bytes. The host's access
//!   there follows `hsa_amd_vmem_set_access` (`mprotect`), as ROCr maps it
//!   for the CPU only when a CPU agent is given access.
//!
//! Every raw pointer here is an address this store mapped itself, or one
//! [`amdgpu_sim::memory::Memory`] checked lies inside such a mapping before
//! it asks for a read or write: the store never touches an address it did
//! not map. Client threads may write the same bytes meanwhile (as on
//! hardware, where host and device share the memory); what they see is
//! whatever was last written.
//!
//! Reads and writes take no lock: a dispatch's threads copy bytes in and
//! out of the mappings through `&self` at once (racing ones may see torn
//! values, never a fault). The table of physical memory's views sits
//! behind a read-write lock, taken for reading by accesses to it.

use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use amdgpu_sim::HsaCode;
use amdgpu_sim::memory::{ByteStore, Image, PAGE_BYTES};

/// The host page size the store needs: simulated addresses and sizes are
/// whole [`PAGE_BYTES`] pages, which `mmap` must be able to place.
const HOST_PAGE_BYTES: usize = PAGE_BYTES as usize;

/// A physical memory handle's memfd and the store's own view of it.
#[derive(Debug)]
struct Physical {
    fd: c_int,
    view: usize,
    len: usize,
}

/// Simulated memory as process mappings at the simulated addresses.
#[derive(Debug, Default)]
pub(crate) struct MappedStore {
    physical: RwLock<HashMap<u64, Physical>>,
}

impl MappedStore {
    /// A store, or `None` (said by the caller) where the host's pages are
    /// not 4 KiB.
    pub(crate) fn new() -> Option<MappedStore> {
        // SAFETY: sysconf reads a system constant.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        (usize::try_from(page).ok() == Some(HOST_PAGE_BYTES)).then(MappedStore::default)
    }
}

fn len_of(len: u64) -> Result<usize, HsaCode> {
    usize::try_from(len).map_err(|_| HsaCode::OUT_OF_RESOURCES)
}

/// Maps `len` fresh bytes at exactly `address` with `prot`, or fails
/// without touching whatever the process has there.
fn map_fresh(address: u64, len: u64, prot: c_int) -> Result<(), HsaCode> {
    let len = len_of(len)?;
    let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE;
    // SAFETY: MAP_FIXED_NOREPLACE never replaces an existing mapping; a
    // kernel (or valgrind) that ignores the flag treats the address as a
    // hint, and a mapping placed elsewhere is undone below.
    let got = unsafe {
        libc::mmap(
            address as *mut c_void,
            len,
            prot,
            flags | libc::MAP_FIXED_NOREPLACE,
            -1,
            0,
        )
    };
    if got == libc::MAP_FAILED {
        return Err(HsaCode::OUT_OF_RESOURCES);
    }
    if got as u64 != address {
        // SAFETY: `got` is the mapping of `len` bytes just made, nothing else.
        unsafe { libc::munmap(got, len) };
        return Err(HsaCode::OUT_OF_RESOURCES);
    }
    Ok(())
}

/// Unmaps `len` bytes at `address`, a mapping this store made.
fn unmap(address: u64, len: u64) {
    if let Ok(len) = len_of(len) {
        // SAFETY: the caller's range is one of this store's mappings, which
        // nothing else in the process uses.
        unsafe { libc::munmap(address as *mut c_void, len) };
    }
}

/// `hsa_access_permission_t` → `PROT_*`, as ROCr maps a mapping for the
/// host (none, read, write, both; anything else none).
fn prot(permission: u32) -> c_int {
    match permission {
        1 => libc::PROT_READ,
        2 => libc::PROT_WRITE,
        3 => libc::PROT_READ | libc::PROT_WRITE,
        _ => libc::PROT_NONE,
    }
}

impl ByteStore for MappedStore {
    fn back(&self, address: u64, len: u64) -> Result<(), HsaCode> {
        map_fresh(address, len, libc::PROT_READ | libc::PROT_WRITE)
    }

    fn back_image(&self, address: u64, len: u64, image: &Arc<Image>) -> Result<(), HsaCode> {
        self.back(address, len)?;
        let size = usize::try_from(image.size().min(len)).map_err(|_| HsaCode::OUT_OF_RESOURCES)?;
        // SAFETY: the fresh read-write mapping of `len` bytes made just
        // above; no one else has its address yet.
        let bytes = unsafe { std::slice::from_raw_parts_mut(address as *mut u8, size) };
        image.read(0, bytes);
        Ok(())
    }

    fn drop_range(&self, address: u64, len: u64) {
        unmap(address, len);
    }

    fn read(&self, address: u64, out: &mut [u8]) {
        // SAFETY: `Memory` (or a view of it) checked that `out.len()` bytes
        // at `address` lie in an allocation or image this store backed
        // read-write, and it is still mapped: `Memory` drops a freed range
        // only once no view that may reach it lives. Other threads may
        // write the bytes meanwhile (a racing program's torn values; bytes
        // are plain data, any value valid).
        unsafe { std::ptr::copy_nonoverlapping(address as *const u8, out.as_mut_ptr(), out.len()) };
    }

    fn write(&self, address: u64, data: &[u8]) {
        // SAFETY: as in `read`: a live read-write mapping of this store.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), address as *mut u8, data.len()) };
    }

    fn reserve(&self, address: u64, len: u64) -> Result<(), HsaCode> {
        map_fresh(address, len, libc::PROT_NONE)
    }

    fn unreserve(&self, address: u64, len: u64) {
        unmap(address, len);
    }

    fn create_physical(&self, handle: u64, len: u64) -> Result<(), HsaCode> {
        let size = len_of(len)?;
        let offset = libc::off_t::try_from(len).map_err(|_| HsaCode::OUT_OF_RESOURCES)?;
        // SAFETY: a NUL-terminated name; the descriptor is closed below on
        // failure or when the handle is released.
        let fd = unsafe { libc::memfd_create(c"amdgpu-sim-vmem".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(HsaCode::OUT_OF_RESOURCES);
        }
        // SAFETY: `fd` is the memfd just created, the view a fresh shared
        // mapping of it at an address of the kernel's choosing.
        let view = unsafe {
            if libc::ftruncate(fd, offset) != 0 {
                libc::close(fd);
                return Err(HsaCode::OUT_OF_RESOURCES);
            }
            libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                fd,
                0,
            )
        };
        if view == libc::MAP_FAILED {
            // SAFETY: the memfd created above, used by nothing else.
            unsafe { libc::close(fd) };
            return Err(HsaCode::OUT_OF_RESOURCES);
        }
        self.physical_mut().insert(
            handle,
            Physical {
                fd,
                view: view as usize,
                len: size,
            },
        );
        Ok(())
    }

    fn release_physical(&self, handle: u64) {
        let released = self.physical_mut().remove(&handle);
        if let Some(p) = released {
            // SAFETY: the handle's own view and memfd, removed from the
            // table so released once; no mapping shows it any more.
            unsafe {
                libc::munmap(p.view as *mut c_void, p.len);
                libc::close(p.fd);
            }
        }
    }

    fn map_physical(&self, address: u64, len: u64, handle: u64) -> Result<(), HsaCode> {
        let physical = self.physical();
        let p = physical.get(&handle).ok_or(HsaCode::INVALID_ARGUMENT)?;
        let size = len_of(len)?;
        if size > p.len {
            return Err(HsaCode::OUT_OF_RESOURCES);
        }
        // SAFETY: `[address, address + len)` lies in a reservation of this
        // store with no mapping in it (checked by the caller): MAP_FIXED
        // replaces only this store's own PROT_NONE pages.
        let got = unsafe {
            libc::mmap(
                address as *mut c_void,
                size,
                libc::PROT_NONE,
                libc::MAP_SHARED | libc::MAP_FIXED,
                p.fd,
                0,
            )
        };
        if got as u64 != address {
            return Err(HsaCode::OUT_OF_RESOURCES);
        }
        Ok(())
    }

    fn unmap_physical(&self, address: u64, len: u64) -> Result<(), HsaCode> {
        let size = len_of(len)?;
        let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED;
        // SAFETY: the range is one of this store's mappings of physical
        // memory: it becomes reserved PROT_NONE pages again.
        let got =
            unsafe { libc::mmap(address as *mut c_void, size, libc::PROT_NONE, flags, -1, 0) };
        if got as u64 != address {
            return Err(HsaCode::ERROR);
        }
        Ok(())
    }

    fn set_host_access(&self, address: u64, len: u64, permission: u32) -> Result<(), HsaCode> {
        let size = len_of(len)?;
        // SAFETY: the range is one of this store's mappings of physical memory.
        let status = unsafe { libc::mprotect(address as *mut c_void, size, prot(permission)) };
        if status != 0 {
            return Err(HsaCode::ERROR);
        }
        Ok(())
    }

    fn read_physical(&self, handle: u64, offset: u64, out: &mut [u8]) {
        let physical = self.physical();
        match view(&physical, handle, offset, out.len()) {
            // SAFETY: `view` checked the range lies in the handle's view,
            // which stays mapped while the table's read lock is held.
            Some(src) => unsafe {
                std::ptr::copy_nonoverlapping(src as *const u8, out.as_mut_ptr(), out.len());
            },
            None => out.fill(0),
        }
    }

    fn write_physical(&self, handle: u64, offset: u64, data: &[u8]) {
        let physical = self.physical();
        if let Some(dst) = view(&physical, handle, offset, data.len()) {
            // SAFETY: `view` checked the range lies in the handle's view,
            // which stays mapped while the table's read lock is held.
            unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), dst as *mut u8, data.len()) };
        }
    }
}

/// The address of `len` bytes at `offset` of physical memory `handle`'s
/// view, if they lie in it.
fn view(physical: &HashMap<u64, Physical>, handle: u64, offset: u64, len: usize) -> Option<usize> {
    let p = physical.get(&handle)?;
    let offset = usize::try_from(offset).ok()?;
    (offset.checked_add(len)? <= p.len).then_some(p.view + offset)
}

impl MappedStore {
    fn physical(&self) -> RwLockReadGuard<'_, HashMap<u64, Physical>> {
        self.physical.read().unwrap_or_else(|p| p.into_inner())
    }

    fn physical_mut(&self) -> RwLockWriteGuard<'_, HashMap<u64, Physical>> {
        self.physical.write().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for MappedStore {
    fn drop(&mut self) {
        let handles: Vec<u64> = self.physical().keys().copied().collect();
        for handle in handles {
            self.release_physical(handle);
        }
    }
}

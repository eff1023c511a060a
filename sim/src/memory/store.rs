//! Where simulated memory's bytes live. [`super::Memory`] decides what lies
//! where (pools and their capacity, regions, code windows, virtual-memory
//! reservations and mappings) and checks every access against its regions;
//! a [`ByteStore`] holds the bytes behind those addresses.
//!
//! The default store, [`super::SparseStore`], keeps them in the simulator's
//! own pages (nothing is host memory). The C library supplies a store whose
//! bytes are process mappings at the simulated addresses themselves, so a
//! client writes through the pointer an allocation returns and kernels see
//! what it wrote.
//!
//! A store is used through `&self` from several threads at once: a
//! dispatch's threads read and write through a [`super::MemoryView`]
//! without the node's lock while other threads allocate and free. Reads
//! and writes of the same bytes racing one another may see torn values
//! (as on a GPU) but never fail; [`super::Memory`] never drops a range a
//! view may still reach.

use std::fmt::Debug;
use std::sync::Arc;

use super::Image;
use crate::codes::HsaCode;

/// The bytes behind simulated addresses. Every range handed in is whole
/// [`super::PAGE_BYTES`] pages at a page-aligned address, and
/// [`super::Memory`] has checked that it lies in what it placed before it
/// reads or writes; a store only fails where the host refuses it resources
/// (`HSA_STATUS_ERROR_OUT_OF_RESOURCES`, e.g. an address another mapping
/// of the process already holds).
pub trait ByteStore: Send + Sync + Debug {
    /// Backs `len` zero bytes at `address`: a new allocation.
    fn back(&self, address: u64, len: u64) -> Result<(), HsaCode>;
    /// Backs `len` bytes at `address` holding `image` (zeros past its end):
    /// a loaded code object.
    fn back_image(&self, address: u64, len: u64, image: &Arc<Image>) -> Result<(), HsaCode>;
    /// Drops what [`ByteStore::back`] or [`ByteStore::back_image`] placed at
    /// `address` (`len` bytes).
    fn drop_range(&self, address: u64, len: u64);
    /// Reads an allocation's or an image's bytes at `address`.
    fn read(&self, address: u64, out: &mut [u8]);
    /// Writes an allocation's or an image's bytes at `address`.
    fn write(&self, address: u64, data: &[u8]);

    /// Reserves `len` bytes of addresses at `address` with nothing behind
    /// them (`hsa_amd_vmem_address_reserve`).
    fn reserve(&self, address: u64, len: u64) -> Result<(), HsaCode>;
    /// Gives a reservation's addresses back.
    fn unreserve(&self, address: u64, len: u64);
    /// Creates physical memory `handle`: `len` zero bytes no address shows
    /// yet (`hsa_amd_vmem_handle_create`).
    fn create_physical(&self, handle: u64, len: u64) -> Result<(), HsaCode>;
    /// Frees physical memory `handle` (no mapping shows it any more).
    fn release_physical(&self, handle: u64);
    /// Makes the first `len` bytes of physical memory `handle` appear at
    /// `address`, inside a reservation (`hsa_amd_vmem_map`); one handle
    /// mapped at several addresses shows the same bytes at each. The host
    /// may not touch them until [`ByteStore::set_host_access`].
    fn map_physical(&self, address: u64, len: u64, handle: u64) -> Result<(), HsaCode>;
    /// Turns a mapping back into bare reserved addresses.
    fn unmap_physical(&self, address: u64, len: u64) -> Result<(), HsaCode>;
    /// What the host may do with a mapping's addresses
    /// (`hsa_access_permission_t`: none, read, write, both).
    fn set_host_access(&self, address: u64, len: u64, permission: u32) -> Result<(), HsaCode>;
    /// Reads physical memory `handle` at `offset` (what a mapping shows,
    /// whatever the host's access to it).
    fn read_physical(&self, handle: u64, offset: u64, out: &mut [u8]);
    /// Writes physical memory `handle` at `offset`.
    fn write_physical(&self, handle: u64, offset: u64, data: &[u8]);

    /// Pages of the image regions in `[address, address + len)` that
    /// writes have copied out of the shared image (0 for a store that
    /// copies every image whole when it backs it).
    fn written_image_pages(&self, address: u64, len: u64) -> u64 {
        let _ = (address, len);
        0
    }
}

//! The default [`ByteStore`]: the simulator's own sparse pages, so copies
//! really copy (tests read what they wrote) without backing terabytes, and
//! nothing is host memory.
//!
//! A backed image is not copied: its region reads the shared [`Image`]
//! until a write copies the pages it touches (copy-on-write), so every
//! other mapping of the image stays as loaded. Physical memory of the
//! virtual-memory API has pages of its own, which every mapping of it reads
//! and writes.
//!
//! Its pages are the simulator's own, so threads reach them through one
//! lock of the store's (the C library's store, which backs simulated
//! memory with process memory, takes none).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use super::{ByteStore, Image, PAGE_BYTES};
use crate::codes::HsaCode;

type Pages = BTreeMap<u64, Box<[u8]>>;

/// Pages of simulated memory kept by the simulator.
#[derive(Debug, Default)]
pub struct SparseStore(Mutex<Sparse>);

/// What [`SparseStore`] holds, behind its lock.
#[derive(Debug, Default)]
struct Sparse {
    /// Written pages by page number (`address / PAGE_BYTES`); absent pages
    /// read as their image, else zero.
    pages: Pages,
    /// Backed images by base address, with their length.
    images: BTreeMap<u64, (u64, Arc<Image>)>,
    /// Physical memory by handle: its written pages by page number.
    physical: BTreeMap<u64, Pages>,
}

impl SparseStore {
    /// An empty store.
    pub fn new() -> SparseStore {
        SparseStore::default()
    }

    fn lock(&self) -> MutexGuard<'_, Sparse> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Sparse {
    fn image_at(&self, address: u64) -> Option<(u64, &Arc<Image>)> {
        let (&base, (len, image)) = self.images.range(..=address).next_back()?;
        (address - base < *len).then_some((base, image))
    }

    /// A fresh page `page` as it reads before any write: its image's bytes,
    /// else zeros.
    fn fresh(&self, page: u64) -> Box<[u8]> {
        let mut bytes = vec![0u8; PAGE_BYTES as usize].into_boxed_slice();
        let address = page * PAGE_BYTES;
        if let Some((base, image)) = self.image_at(address) {
            image.read(address - base, &mut bytes);
        }
        bytes
    }
}

/// Calls `each(page, offset in page, range of the buffer)` for every page
/// `[offset, offset + len)` touches.
fn pages_of(offset: u64, len: usize, mut each: impl FnMut(u64, usize, std::ops::Range<usize>)) {
    let mut done = 0usize;
    while done < len {
        let at = offset + done as u64;
        let in_page = (at % PAGE_BYTES) as usize;
        let n = (PAGE_BYTES as usize - in_page).min(len - done);
        each(at / PAGE_BYTES, in_page, done..done + n);
        done += n;
    }
}

fn read_pages(pages: &Pages, offset: u64, out: &mut [u8], fallback: impl Fn(u64, &mut [u8])) {
    let len = out.len();
    pages_of(offset, len, |page, in_page, range| {
        let n = range.len();
        if let Some(dst) = out.get_mut(range) {
            match pages.get(&page).and_then(|p| p.get(in_page..in_page + n)) {
                Some(src) => dst.copy_from_slice(src),
                None => fallback(page * PAGE_BYTES + in_page as u64, dst),
            }
        }
    });
}

fn write_pages(pages: &mut Pages, offset: u64, data: &[u8], fresh: impl Fn(u64) -> Box<[u8]>) {
    pages_of(offset, data.len(), |page, in_page, range| {
        let n = range.len();
        let storage = pages.entry(page).or_insert_with(|| fresh(page));
        if let (Some(dst), Some(src)) = (storage.get_mut(in_page..in_page + n), data.get(range)) {
            dst.copy_from_slice(src);
        }
    });
}

impl ByteStore for SparseStore {
    fn back(&self, _address: u64, _len: u64) -> Result<(), HsaCode> {
        Ok(())
    }

    fn back_image(&self, address: u64, len: u64, image: &Arc<Image>) -> Result<(), HsaCode> {
        let mut this = self.lock();
        this.images.insert(address, (len, Arc::clone(image)));
        Ok(())
    }

    fn drop_range(&self, address: u64, len: u64) {
        let mut this = self.lock();
        let (first, end) = (address / PAGE_BYTES, (address + len).div_ceil(PAGE_BYTES));
        let dropped: Vec<u64> = this.pages.range(first..end).map(|(&p, _)| p).collect();
        for page in dropped {
            this.pages.remove(&page);
        }
        this.images.remove(&address);
    }

    fn read(&self, address: u64, out: &mut [u8]) {
        let this = self.lock();
        let this = &*this;
        read_pages(&this.pages, address, out, |at, dst| {
            match this.image_at(at) {
                Some((base, image)) => image.read(at - base, dst),
                None => dst.fill(0),
            }
        });
    }

    fn write(&self, address: u64, data: &[u8]) {
        let mut this = self.lock();
        let mut pages = std::mem::take(&mut this.pages);
        write_pages(&mut pages, address, data, |page| this.fresh(page));
        this.pages = pages;
    }

    fn reserve(&self, _address: u64, _len: u64) -> Result<(), HsaCode> {
        Ok(())
    }

    fn unreserve(&self, _address: u64, _len: u64) {}

    fn create_physical(&self, handle: u64, _len: u64) -> Result<(), HsaCode> {
        let mut this = self.lock();
        this.physical.insert(handle, Pages::new());
        Ok(())
    }

    fn release_physical(&self, handle: u64) {
        let mut this = self.lock();
        this.physical.remove(&handle);
    }

    fn map_physical(&self, _address: u64, _len: u64, _handle: u64) -> Result<(), HsaCode> {
        Ok(())
    }

    fn unmap_physical(&self, _address: u64, _len: u64) -> Result<(), HsaCode> {
        Ok(())
    }

    fn set_host_access(&self, _: u64, _: u64, _: u32) -> Result<(), HsaCode> {
        Ok(())
    }

    fn read_physical(&self, handle: u64, offset: u64, out: &mut [u8]) {
        let this = self.lock();
        match this.physical.get(&handle) {
            Some(pages) => read_pages(pages, offset, out, |_, dst| dst.fill(0)),
            None => out.fill(0),
        }
    }

    fn write_physical(&self, handle: u64, offset: u64, data: &[u8]) {
        let mut this = self.lock();
        if let Some(pages) = this.physical.get_mut(&handle) {
            let zero = |_| vec![0u8; PAGE_BYTES as usize].into_boxed_slice();
            write_pages(pages, offset, data, zero);
        }
    }

    fn written_image_pages(&self, address: u64, len: u64) -> u64 {
        let this = self.lock();
        let (first, end) = (address / PAGE_BYTES, (address + len).div_ceil(PAGE_BYTES));
        this.pages.range(first..end).count() as u64
    }
}

//! Read-only memory maps of input files.
//!
//! `amdgpu-hal` reads code objects of tens of megabytes of which `inspect`
//! needs the headers and the metadata notes: mapping the file lets the
//! kernel bring in only the pages a parser touches, and nothing is copied.
//! A reader done with part of a large file lets those pages go again
//! (`FileMap::release`). Mapping and releasing are `unsafe` calls (the
//! bytes are only as stable as the file), so they live here, at the
//! boundary with the operating system, and the library crate keeps
//! `#![forbid(unsafe_code)]`.
//!
//! The caller decides when to map (a regular file it has checked, large
//! enough to be worth it) and keeps reading as the fallback.

#![deny(unsafe_code)]

use std::fs::File;
use std::io;
use std::ops::Deref;

/// The bytes of a file mapped read-only; unmapped when dropped.
#[derive(Debug)]
pub struct FileMap(memmap2::Mmap);

/// Maps the whole of `file` read-only (private, so nothing is written back).
///
/// The bytes are the file's as it is read page by page, not a snapshot:
/// if another process writes the file while it is mapped, a parser may see
/// bytes from both versions (each of `amdgpu-hal`'s parsers bounds every
/// read, so that is a wrong answer or an error, never an out-of-bounds
/// access), and if it truncates the file, touching a page past the new end
/// raises `SIGBUS`. Callers that cannot rule that out read the file instead.
pub fn map(file: &File) -> io::Result<FileMap> {
    // SAFETY: a private read-only mapping of a file opened for reading; the
    // `Mmap` owns the mapping and unmaps it once, on drop. What memmap2
    // cannot promise, that the file does not change while mapped, is the
    // caller's contract, stated above.
    #[allow(unsafe_code)]
    let map = unsafe { memmap2::MmapOptions::new().map(file)? };
    Ok(FileMap(map))
}

/// [`FileMap::release`] works in whole blocks of this many bytes: a multiple
/// of every page size Linux uses (4 KiB, 16 KiB, 64 KiB), so a block start is
/// always a page start.
pub const RELEASE_BLOCK_BYTES: usize = 64 * 1024;

impl FileMap {
    /// Drops the pages of the whole blocks ([`RELEASE_BLOCK_BYTES`]) inside
    /// `start..end` (a range reaching the end of the map takes its last
    /// partial block too) from this process's memory: a reader that has finished
    /// with them keeps its resident size down. The bytes stay readable: a
    /// page touched again is brought back from the file (the page cache),
    /// with the same contents. Advice only: ranges outside the map are
    /// clipped, and a refusal by the kernel changes nothing.
    pub fn release(&self, start: usize, end: usize) {
        let start = start.div_ceil(RELEASE_BLOCK_BYTES) * RELEASE_BLOCK_BYTES;
        // Up to the end of the map, its last partial page included.
        let end = if end >= self.0.len() {
            self.0.len()
        } else {
            end / RELEASE_BLOCK_BYTES * RELEASE_BLOCK_BYTES
        };
        if start >= end {
            return;
        }
        // SAFETY: `start..end` lies inside the map and starts on a page
        // boundary (the map itself does, and the offset is a multiple of
        // every page size). `MADV_DONTNEED` on this mapping, which is
        // read-only and never written, only unmaps the pages: the next read
        // maps the file's page again, so every `&[u8]` borrowed from the map
        // keeps reading the same bytes, under the contract `map` states (the
        // file does not change while mapped).
        #[allow(unsafe_code)]
        let result = unsafe {
            self.0
                .unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start)
        };
        // Advice: keeping the pages is always correct.
        let _ = result;
    }
}

impl Deref for FileMap {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for FileMap {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_mapped_file_reads_as_its_bytes() {
        let dir = std::env::temp_dir().join(format!("amdgpu-filemap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bytes");
        let bytes: Vec<u8> = (0..3 * 4096 + 17).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::File::create(&path)
            .unwrap()
            .write_all(&bytes)
            .unwrap();
        let map = map(&File::open(&path).unwrap()).unwrap();
        assert_eq!(&map[..], &bytes[..]);
        assert_eq!(map.as_ref().len(), bytes.len());
        drop(map);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Resident pages of the mapping at `address` (`/proc/self/smaps`).
    fn resident_kib(address: usize) -> u64 {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut lines = smaps.lines();
        while let Some(line) = lines.next() {
            let range = line.split(' ').next().unwrap_or_default();
            let Some((lo, hi)) = range.split_once('-') else {
                continue;
            };
            let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
            else {
                continue;
            };
            if (lo..hi).contains(&address) {
                for line in lines.by_ref() {
                    if let Some(rss) = line.strip_prefix("Rss:") {
                        return rss.trim().trim_end_matches(" kB").trim().parse().unwrap();
                    }
                }
            }
        }
        panic!("no mapping at {address:#x}");
    }

    #[test]
    fn released_pages_leave_memory_and_read_back_the_same() {
        let dir = std::env::temp_dir().join(format!("amdgpu-filemap-r-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bytes");
        let bytes: Vec<u8> = (0..16 * RELEASE_BLOCK_BYTES + 100)
            .map(|i| (i * 13 % 251) as u8)
            .collect();
        std::fs::File::create(&path)
            .unwrap()
            .write_all(&bytes)
            .unwrap();
        let map = map(&File::open(&path).unwrap()).unwrap();
        let address = map.as_ptr() as usize;
        assert_eq!(&map[..], &bytes[..]);
        let all = resident_kib(address);
        assert!(all >= 16 * 64, "{all} KiB resident after reading 1 MiB");
        // Blocks 2..10, whole; the partial blocks at either end stay.
        map.release(RELEASE_BLOCK_BYTES + 1, 10 * RELEASE_BLOCK_BYTES + 5);
        let after = resident_kib(address);
        assert_eq!(all - after, 8 * 64, "{all} KiB before, {after} KiB after");
        // The last partial block goes with a range that reaches the end.
        map.release(15 * RELEASE_BLOCK_BYTES, usize::MAX);
        let tail = resident_kib(address);
        assert_eq!(after - tail, 64 + 4, "{after} KiB before, {tail} KiB after");
        assert_eq!(
            &map[15 * RELEASE_BLOCK_BYTES..],
            &bytes[15 * RELEASE_BLOCK_BYTES..]
        );
        let after = resident_kib(address);
        // Out of range, empty and reversed ranges are ignored.
        map.release(bytes.len(), usize::MAX);
        map.release(5, 5);
        map.release(9 * RELEASE_BLOCK_BYTES, 2 * RELEASE_BLOCK_BYTES);
        assert_eq!(resident_kib(address), after);
        assert_eq!(&map[..], &bytes[..]);
        assert_eq!(resident_kib(address), all);
        drop(map);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

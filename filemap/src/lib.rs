//! Read-only memory maps of input files.
//!
//! `amdgpu-hal` reads code objects of tens of megabytes of which `inspect`
//! needs the headers and the metadata notes: mapping the file lets the
//! kernel bring in only the pages a parser touches, and nothing is copied.
//! Mapping is an `unsafe` call (the bytes are only as stable as the file),
//! so it lives here, at the boundary with the operating system, and the
//! library crate keeps `#![forbid(unsafe_code)]`.
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
}

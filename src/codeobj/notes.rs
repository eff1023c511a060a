//! ELF notes: walking a note area and finding the AMDGPU metadata notes
//! (owner `AMDGPU`, type `NT_AMDGPU_METADATA`) whose descriptors are the
//! MessagePack metadata blobs.
//!
//! A code object linked from several translation units (`ld.lld -shared` or
//! `-r` over several `.o`) holds one metadata note per unit, all in one
//! `.note` section, and `llvm-readelf --notes` lists each. Every one is read
//! here: IREE's `iree_hal_amdgpu_hsaco_metadata_find_note`
//! (`runtime/src/iree/hal/drivers/amdgpu/util/hsaco_metadata.c`) stops at the
//! first and so loses the other units' kernels; comgr's `getElfMetadataRoot`
//! (`amd/comgr/src/comgr-metadata.cpp`, `mergeNoteRecords`), which HIP's
//! runtime uses, merges the kernels of every note whose `amdhsa.version`
//! agrees — what [`super::metadata`] does with the list returned here.
//!
//! Notes are found through `PT_NOTE` program headers, as the HSA loader and
//! IREE do; a relocatable object without program headers is searched through
//! its `SHT_NOTE` sections instead. When a file has both, the two views must
//! hold the same metadata notes (llvm-readelf reads the sections, loaders the
//! segments: a file where they differ is refused). Tables are read entry by
//! entry with checked reads (see [`super::elf`] for why not goblin's table
//! parsers).

use goblin::elf::header::{
    EI_CLASS, EI_DATA, EI_VERSION, ELFCLASS64, ELFDATA2LSB, EM_AMDGPU, EV_CURRENT,
};
use goblin::elf::program_header::PT_NOTE;
use goblin::elf::section_header::SHT_NOTE;

use super::bytes;
use super::elf::{ELF64_HEADER_SIZE, ELF64_PHDR_SIZE, ELF64_SHDR_SIZE, is_elf};
use super::layout::check_layout;
use crate::{Result, Status, status};

/// Note type of the code object V3+ MessagePack metadata.
pub const NT_AMDGPU_METADATA: u32 = 32;
/// Owner name of AMDGPU notes.
pub const AMDGPU_NOTE_OWNER: &[u8] = b"AMDGPU";
/// Size of a note header (`namesz`, `descsz`, `type`).
pub const NOTE_HEADER_SIZE: u64 = 12;
/// Most `NT_AMDGPU_METADATA` notes one code object may hold (one per linked
/// translation unit); each is at least a note header, so the list a file
/// yields is bounded by its size too.
pub const MAX_METADATA_NOTES: usize = 1 << 16;

/// One note of a note area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Note<'a> {
    /// The owner name with one trailing NUL removed.
    pub name: &'a [u8],
    /// The note type.
    pub kind: u32,
    /// The descriptor bytes.
    pub desc: &'a [u8],
}

/// Iterates the notes of one note area (a `PT_NOTE` segment or `SHT_NOTE`
/// section). Yields `Err` once and then stops when a note does not fit.
#[derive(Clone, Debug)]
pub struct Notes<'a> {
    area: &'a [u8],
    offset: u64,
    failed: bool,
}

impl<'a> Notes<'a> {
    /// Notes of `area` (names and descriptors padded to 4 bytes).
    pub fn new(area: &'a [u8]) -> Notes<'a> {
        Notes {
            area,
            offset: 0,
            failed: false,
        }
    }

    fn read(&mut self) -> Result<Note<'a>> {
        let area = self.area;
        let end = area.len() as u64;
        let header = self.offset;
        let field = |at: u64| {
            bytes::u32_at(area, header + at)
                .map(u64::from)
                .ok_or_else(|| {
                    Status::out_of_range("AMDGPU ELF note header exceeds PT_NOTE bounds")
                })
        };
        let (namesz, descsz, kind) = (field(0)?, field(4)?, field(8)?);
        let name_start = header + NOTE_HEADER_SIZE;
        let name_end = name_start + namesz; // both < 2^33: no overflow
        let name = bytes::slice_at(area, name_start, namesz).ok_or_else(|| {
            Status::invalid_argument("AMDGPU ELF note name exceeds PT_NOTE bounds")
        })?;
        let desc_start = bytes::align4(name_end)
            .ok_or_else(|| Status::invalid_argument("AMDGPU ELF note alignment overflow"))?;
        if desc_start > end {
            return Err(Status::invalid_argument(
                "AMDGPU ELF note descriptor offset exceeds PT_NOTE bounds",
            ));
        }
        let desc = bytes::slice_at(area, desc_start, descsz).ok_or_else(|| {
            Status::invalid_argument("AMDGPU ELF note descriptor exceeds PT_NOTE bounds")
        })?;
        let desc_end = desc_start + descsz;
        let next = bytes::align4(desc_end)
            .ok_or_else(|| Status::invalid_argument("AMDGPU ELF note alignment overflow"))?;
        // A last note may omit its final padding.
        if next > end && desc_end != end {
            return Err(Status::invalid_argument(
                "AMDGPU ELF note padding exceeds PT_NOTE bounds",
            ));
        }
        self.offset = next.min(end);
        let name = name.strip_suffix(&[0]).unwrap_or(name);
        Ok(Note {
            name,
            kind: kind as u32,
            desc,
        })
    }
}

impl<'a> Iterator for Notes<'a> {
    type Item = Result<Note<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        let remaining = (self.area.len() as u64).saturating_sub(self.offset);
        if self.failed || remaining < NOTE_HEADER_SIZE {
            return None;
        }
        let note = self.read();
        self.failed = note.is_err();
        Some(note)
    }
}

/// Appends the metadata note descriptors of one note area to `out`.
fn collect_in_area<'a>(area: &'a [u8], out: &mut Vec<&'a [u8]>) -> Result<()> {
    for note in Notes::new(area) {
        let note = note?;
        if note.kind == NT_AMDGPU_METADATA && note.name == AMDGPU_NOTE_OWNER {
            if out.len() >= MAX_METADATA_NOTES {
                return Err(status!(
                    OutOfRange,
                    "AMDGPU ELF holds more than {MAX_METADATA_NOTES} metadata notes"
                ));
            }
            out.push(note.desc);
        }
    }
    Ok(())
}

/// The only `AMDGPU`/`NT_AMDGPU_METADATA` note of a code object.
/// `NOT_FOUND` when there is none and `INVALID_ARGUMENT`, naming the count,
/// when there are several (read those with [`find_metadata_notes`]); the
/// other errors are [`find_metadata_notes`]'s.
pub fn find_metadata_note(data: &[u8]) -> Result<&[u8]> {
    match find_metadata_notes(data)?.as_slice() {
        [only] => Ok(only),
        notes => Err(status!(
            InvalidArgument,
            "AMDGPU ELF holds {} metadata notes where one was expected (an object linked from \
             several translation units; read every note)",
            notes.len()
        )),
    }
}

/// The descriptors of every `AMDGPU`/`NT_AMDGPU_METADATA` note of a 64-bit
/// little-endian AMDGPU ELF, in file order: the MessagePack metadata of each
/// linked translation unit. Never empty: `NOT_FOUND` when there is no note;
/// `INVALID_ARGUMENT` for a file whose tables, segments or sections do not
/// fit in it ([`check_layout`]: truncated or corrupt),
/// `INVALID_ARGUMENT`/`OUT_OF_RANGE` for malformed notes, and
/// `INVALID_ARGUMENT` when the `PT_NOTE` segments and the `SHT_NOTE`
/// sections hold different metadata notes.
pub fn find_metadata_notes(data: &[u8]) -> Result<Vec<&[u8]>> {
    if data.len() < ELF64_HEADER_SIZE {
        return Err(status!(
            InvalidArgument,
            "AMDGPU ELF data too small ({} bytes, the header alone is {ELF64_HEADER_SIZE})",
            data.len()
        ));
    }
    if !is_elf(data) {
        return Err(Status::invalid_argument(
            "AMDGPU metadata input is not an ELF file",
        ));
    }
    if data.get(EI_CLASS) != Some(&ELFCLASS64) {
        return Err(Status::invalid_argument(
            "AMDGPU metadata ELF must be 64-bit",
        ));
    }
    if data.get(EI_DATA) != Some(&ELFDATA2LSB) {
        return Err(Status::invalid_argument(
            "AMDGPU metadata ELF must be little-endian",
        ));
    }
    if data.get(EI_VERSION) != Some(&EV_CURRENT) {
        return Err(Status::invalid_argument(
            "AMDGPU metadata ELF has unsupported version",
        ));
    }
    let machine = bytes::u16_at(data, 18).unwrap_or(0);
    if machine != EM_AMDGPU {
        return Err(status!(
            InvalidArgument,
            "AMDGPU metadata ELF has non-AMDGPU machine {machine}"
        ));
    }
    // A truncated or corrupt file never gets as far as its notes.
    check_layout(data)?;
    let header_field = |offset| bytes::u64_at(data, offset).unwrap_or(0);
    let half = |offset| u64::from(bytes::u16_at(data, offset).unwrap_or(0));
    let (phoff, phentsize, phnum) = (header_field(32), half(54), half(56));
    let (shoff, shentsize) = (header_field(40), half(58));
    // As llvm-readelf: no section header offset, no sections.
    let shnum = if shoff == 0 { 0 } else { half(60) };

    if phnum == 0 {
        if shnum == 0 {
            return Err(Status::not_found("AMDGPU ELF has no program headers"));
        }
        let notes = in_sections(data, shoff, shentsize, shnum)?;
        if notes.is_empty() {
            return Err(Status::not_found("AMDGPU metadata note not found"));
        }
        return Ok(notes);
    }
    let notes = in_segments(data, phoff, phentsize, phnum)?;
    if notes.is_empty() {
        return Err(Status::not_found("AMDGPU metadata note not found"));
    }
    if shnum != 0 {
        let in_sections = in_sections(data, shoff, shentsize, shnum)?;
        if !same_notes(&in_sections, &notes) {
            return Err(status!(
                InvalidArgument,
                "AMDGPU ELF PT_NOTE segments hold {} metadata notes but its SHT_NOTE sections \
                 hold {} different ones",
                notes.len(),
                in_sections.len()
            ));
        }
    }
    Ok(notes)
}

/// Whether two lists of notes hold the same bytes. The two views of one
/// file normally name the same bytes: those are equal without reading them
/// (a metadata note is megabytes in a large object).
fn same_notes(a: &[&[u8]], b: &[&[u8]]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(a, b)| a.len() == b.len() && (std::ptr::eq(a.as_ptr(), b.as_ptr()) || a == b))
}

fn in_segments(data: &[u8], phoff: u64, phentsize: u64, phnum: u64) -> Result<Vec<&[u8]>> {
    if phentsize < ELF64_PHDR_SIZE {
        return Err(Status::invalid_argument(
            "AMDGPU ELF program header entries are too small",
        ));
    }
    let table_len = phentsize * phnum; // both < 2^16
    if phoff
        .checked_add(table_len)
        .is_none_or(|end| end > data.len() as u64)
    {
        return Err(Status::invalid_argument(
            "AMDGPU ELF program headers exceed file bounds",
        ));
    }
    let mut notes = Vec::new();
    for index in 0..phnum {
        let entry = phoff + index * phentsize;
        if bytes::u32_at(data, entry) != Some(PT_NOTE) {
            continue;
        }
        let offset = bytes::u64_at(data, entry + 8).unwrap_or(0);
        let filesz = bytes::u64_at(data, entry + 32).unwrap_or(0);
        let area = bytes::slice_at(data, offset, filesz)
            .ok_or_else(|| Status::invalid_argument("AMDGPU ELF PT_NOTE exceeds file bounds"))?;
        collect_in_area(area, &mut notes)?;
    }
    Ok(notes)
}

fn in_sections(data: &[u8], shoff: u64, shentsize: u64, shnum: u64) -> Result<Vec<&[u8]>> {
    if shentsize < ELF64_SHDR_SIZE {
        return Err(Status::invalid_argument(
            "AMDGPU ELF section header entries are too small",
        ));
    }
    let table_len = shentsize * shnum;
    if shoff
        .checked_add(table_len)
        .is_none_or(|end| end > data.len() as u64)
    {
        return Err(Status::invalid_argument(
            "AMDGPU ELF section headers exceed file bounds",
        ));
    }
    let mut notes = Vec::new();
    for index in 0..shnum {
        let entry = shoff + index * shentsize;
        if bytes::u32_at(data, entry + 4) != Some(SHT_NOTE) {
            continue;
        }
        let offset = bytes::u64_at(data, entry + 24).unwrap_or(0);
        let size = bytes::u64_at(data, entry + 32).unwrap_or(0);
        let area = bytes::slice_at(data, offset, size).ok_or_else(|| {
            Status::invalid_argument("AMDGPU ELF SHT_NOTE section exceeds file bounds")
        })?;
        collect_in_area(area, &mut notes)?;
    }
    Ok(notes)
}

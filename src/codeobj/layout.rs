//! The layout checks `llvm-readelf` makes before it dumps a code object: the
//! program and section header tables, every segment's and every section's
//! file bytes, the section-name string table index and the symbol tables'
//! entry size and links must all lie inside the file. A truncated code object
//! fails them (lld writes the section header table last, so any cut does),
//! where readelf says `unable to continue dumping, the file is corrupt:
//! section header table goes past the end of the file`.
//!
//! [`check_layout`] runs before any metadata note is read
//! ([`super::notes::find_metadata_notes`]), so that no truncated or corrupt
//! file yields a kernel list. Its messages keep IREE's wording where IREE
//! has a check (`program headers exceed file bounds`, `PT_NOTE exceeds file
//! bounds`) and say what llvm-readelf says otherwise, with the numbers.

use goblin::elf::program_header::PT_NOTE;
use goblin::elf::section_header::{SHT_DYNSYM, SHT_NOBITS, SHT_SYMTAB};

use super::bytes;
use super::elf::{ELF64_HEADER_SIZE, ELF64_PHDR_SIZE, ELF64_SHDR_SIZE};
use super::symbols::ELF64_SYM_SIZE;
use crate::{Result, status};

/// `e_shstrndx` value meaning "the index is in section 0's `sh_link`".
pub const SHN_XINDEX: u16 = 0xffff;

/// The tail of every layout error: what it means for the user.
const CORRUPT: &str = "the file is truncated or corrupt";

/// Checks the layout of a 64-bit little-endian ELF image (`data` is the
/// whole file) as llvm-readelf does. `INVALID_ARGUMENT` naming the table,
/// segment or section that does not fit, with its offset, size and the file
/// size; `UNIMPLEMENTED` for extended section numbering (`e_shnum` 0 with the
/// count in section 0), which no AMDGPU code object needs.
pub fn check_layout(data: &[u8]) -> Result<()> {
    let length = data.len() as u64;
    if data.len() < ELF64_HEADER_SIZE {
        return Err(status!(
            InvalidArgument,
            "AMDGPU ELF header is truncated ({length} of {ELF64_HEADER_SIZE} bytes); {CORRUPT}"
        ));
    }
    let word = |offset| bytes::u64_at(data, offset).unwrap_or(0);
    let half = |offset| bytes::u16_at(data, offset).unwrap_or(0);
    // Sections first: a truncated file then fails as llvm-readelf reports it.
    check_sections(data, word(40), half(58), half(60), half(62))?;
    check_segments(data, word(32), half(54), half(56))
}

/// A table of `count` entries of `entry_size` bytes at `offset` lies inside
/// `length` bytes.
fn table_fits(offset: u64, entry_size: u16, count: u64, length: u64) -> bool {
    count
        .checked_mul(u64::from(entry_size))
        .and_then(|size| offset.checked_add(size))
        .is_some_and(|end| end <= length)
}

/// `size` bytes at `offset` lie inside `length` bytes.
fn range_fits(offset: u64, size: u64, length: u64) -> bool {
    offset.checked_add(size).is_some_and(|end| end <= length)
}

fn check_segments(data: &[u8], phoff: u64, phentsize: u16, phnum: u16) -> Result<()> {
    if phnum == 0 {
        return Ok(());
    }
    let length = data.len() as u64;
    if u64::from(phentsize) < ELF64_PHDR_SIZE {
        return Err(status!(
            InvalidArgument,
            "AMDGPU ELF program header entries are too small (e_phentsize {phentsize} < \
             {ELF64_PHDR_SIZE})"
        ));
    }
    if !table_fits(phoff, phentsize, u64::from(phnum), length) {
        return Err(status!(
            InvalidArgument,
            "AMDGPU ELF program headers exceed file bounds (e_phoff {phoff:#x} + {phnum} x \
             {phentsize} bytes, file is {length} bytes); {CORRUPT}"
        ));
    }
    for index in 0..u64::from(phnum) {
        let entry = phoff + index * u64::from(phentsize);
        let kind = bytes::u32_at(data, entry).unwrap_or(0);
        let offset = bytes::u64_at(data, entry + 8).unwrap_or(0);
        let filesz = bytes::u64_at(data, entry + 32).unwrap_or(0);
        if range_fits(offset, filesz, length) {
            continue;
        }
        let what = if kind == PT_NOTE {
            "PT_NOTE".to_owned()
        } else {
            format!("segment {index} (p_type {kind:#x})")
        };
        return Err(status!(
            InvalidArgument,
            "AMDGPU ELF {what} exceeds file bounds (p_offset {offset:#x} + p_filesz {filesz:#x} \
             > file size {length:#x}); {CORRUPT}"
        ));
    }
    Ok(())
}

/// A section header's fields the checks read.
struct Section {
    kind: u32,
    offset: u64,
    size: u64,
    link: u32,
    entsize: u64,
}

fn section_at(data: &[u8], entry: u64) -> Section {
    let word = |at: u64| bytes::u64_at(data, entry + at).unwrap_or(0);
    let half = |at: u64| bytes::u32_at(data, entry + at).unwrap_or(0);
    Section {
        kind: half(4),
        offset: word(24),
        size: word(32),
        link: half(40),
        entsize: word(56),
    }
}

fn check_sections(
    data: &[u8],
    shoff: u64,
    shentsize: u16,
    shnum: u16,
    shstrndx: u16,
) -> Result<()> {
    if shoff == 0 {
        return Ok(());
    }
    let length = data.len() as u64;
    if u64::from(shentsize) < ELF64_SHDR_SIZE {
        return Err(status!(
            InvalidArgument,
            "AMDGPU ELF section header entries are too small (e_shentsize {shentsize} < \
             {ELF64_SHDR_SIZE})"
        ));
    }
    // Section 0 is read even when e_shnum is 0: then it may hold the count.
    if !table_fits(shoff, shentsize, u64::from(shnum.max(1)), length) {
        return Err(status!(
            InvalidArgument,
            "AMDGPU ELF section headers exceed file bounds: the section header table goes past \
             the end of the file (e_shoff {shoff:#x} + {} x {shentsize} bytes, file is {length} \
             bytes); {CORRUPT}",
            shnum.max(1)
        ));
    }
    let first = section_at(data, shoff);
    if shnum == 0 && first.size != 0 {
        return Err(status!(
            Unimplemented,
            "AMDGPU ELF uses extended section numbering ({} sections counted in section 0); \
             code objects do not",
            first.size
        ));
    }
    let count = u64::from(shnum);
    if shstrndx != 0 {
        let index = if shstrndx == SHN_XINDEX {
            u64::from(first.link)
        } else {
            u64::from(shstrndx)
        };
        if index >= count {
            return Err(status!(
                InvalidArgument,
                "AMDGPU ELF e_shstrndx {index} is out of range of its {count} section headers; \
                 {CORRUPT}"
            ));
        }
    }
    for index in 0..count {
        let section = section_at(data, shoff + index * u64::from(shentsize));
        if section.kind != SHT_NOBITS && !range_fits(section.offset, section.size, length) {
            return Err(status!(
                InvalidArgument,
                "AMDGPU ELF section {index} (sh_type {:#x}) exceeds file bounds (sh_offset {:#x} \
                 + sh_size {:#x} > file size {length:#x}); {CORRUPT}",
                section.kind,
                section.offset,
                section.size
            ));
        }
        if section.kind == SHT_SYMTAB || section.kind == SHT_DYNSYM {
            if section.entsize != ELF64_SYM_SIZE {
                return Err(status!(
                    InvalidArgument,
                    "AMDGPU ELF symbol table section {index} has sh_entsize {} (expected \
                     {ELF64_SYM_SIZE})",
                    section.entsize
                ));
            }
            if !section.size.is_multiple_of(ELF64_SYM_SIZE) {
                return Err(status!(
                    InvalidArgument,
                    "AMDGPU ELF symbol table section {index} has sh_size {} which is not a \
                     multiple of {ELF64_SYM_SIZE}; {CORRUPT}",
                    section.size
                ));
            }
            if u64::from(section.link) >= count {
                return Err(status!(
                    InvalidArgument,
                    "AMDGPU ELF symbol table section {index} links string table {} of {count} \
                     sections; {CORRUPT}",
                    section.link
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StatusCode;

    /// An ELF64 header, a section header table at 64 with `sections`
    /// (type, offset, size, link, entsize), `extra` file bytes after it.
    fn elf(sections: &[(u32, u64, u64, u32, u64)], shstrndx: u16, extra: usize) -> Vec<u8> {
        let mut data = vec![0u8; 64];
        data[..4].copy_from_slice(b"\x7fELF");
        data[40..48].copy_from_slice(&64u64.to_le_bytes());
        data[58..60].copy_from_slice(&64u16.to_le_bytes());
        data[60..62].copy_from_slice(&(sections.len() as u16).to_le_bytes());
        data[62..64].copy_from_slice(&shstrndx.to_le_bytes());
        for &(kind, offset, size, link, entsize) in sections {
            let mut entry = [0u8; 64];
            entry[4..8].copy_from_slice(&kind.to_le_bytes());
            entry[24..32].copy_from_slice(&offset.to_le_bytes());
            entry[32..40].copy_from_slice(&size.to_le_bytes());
            entry[40..44].copy_from_slice(&link.to_le_bytes());
            entry[56..64].copy_from_slice(&entsize.to_le_bytes());
            data.extend_from_slice(&entry);
        }
        data.resize(data.len() + extra, 0);
        data
    }

    fn fails(data: &[u8], code: StatusCode, needle: &str) {
        let err = check_layout(data).unwrap_err();
        assert_eq!(err.code(), code, "{err}");
        assert!(err.mentions(needle), "{needle}: {err}");
    }

    #[test]
    fn tables_segments_and_sections_must_lie_in_the_file() {
        // The table at 64..256: a null section, a 16-byte string table at
        // 256 and a two-symbol table at 272..320.
        let good = [
            (0, 0, 0, 0, 0),
            (3, 256, 16, 0, 0),
            (SHT_SYMTAB, 272, 48, 1, 24),
        ];
        let data = elf(&good, 1, 64);
        assert_eq!(data.len(), 320);
        check_layout(&data).unwrap();
        // Every strict prefix fails.
        for len in 0..data.len() {
            assert!(check_layout(&data[..len]).is_err(), "{len}");
        }
        fails(
            &data[..100],
            StatusCode::InvalidArgument,
            "section header table",
        );
        fails(
            &data[..300],
            StatusCode::InvalidArgument,
            "section 2 (sh_type 0x2) exceeds file bounds",
        );
        // NOBITS sections take no file bytes, wherever they claim to be.
        let nobits = [(0, 0, 0, 0, 0), (SHT_NOBITS, 1 << 40, 1 << 40, 0, 0)];
        check_layout(&elf(&nobits, 0, 0)).unwrap();
        fails(
            &elf(&good, 3, 64),
            StatusCode::InvalidArgument,
            "e_shstrndx 3",
        );
        let bad_entsize = [(0, 0, 0, 0, 0), (SHT_DYNSYM, 128, 48, 0, 16)];
        fails(
            &elf(&bad_entsize, 0, 64),
            StatusCode::InvalidArgument,
            "sh_entsize 16",
        );
        let ragged = [(0, 0, 0, 0, 0), (SHT_SYMTAB, 128, 40, 0, 24)];
        fails(
            &elf(&ragged, 0, 64),
            StatusCode::InvalidArgument,
            "sh_size 40",
        );
        let bad_link = [(0, 0, 0, 0, 0), (SHT_SYMTAB, 128, 48, 9, 24)];
        fails(
            &elf(&bad_link, 0, 64),
            StatusCode::InvalidArgument,
            "string table 9",
        );
        let overflow = [(0, 0, 0, 0, 0), (1, u64::MAX, 2, 0, 0)];
        fails(
            &elf(&overflow, 0, 0),
            StatusCode::InvalidArgument,
            "exceeds file bounds",
        );
    }

    #[test]
    fn extended_numbering_and_no_sections() {
        // e_shnum 0 with a count in section 0: not for code objects.
        let mut data = elf(&[(0, 0, 5, 0, 0)], 0, 0);
        data[60..62].copy_from_slice(&0u16.to_le_bytes());
        fails(
            &data,
            StatusCode::Unimplemented,
            "extended section numbering",
        );
        // e_shoff 0: no sections, whatever e_shnum says (llvm-readelf's rule).
        let mut data = elf(&[(0, 0, 0, 0, 0)], 0, 0);
        data[40..48].copy_from_slice(&0u64.to_le_bytes());
        data[60..62].copy_from_slice(&9u16.to_le_bytes());
        check_layout(&data).unwrap();
    }

    #[test]
    fn segments_must_lie_in_the_file() {
        let mut data = vec![0u8; 64 + 2 * 56];
        data[..4].copy_from_slice(b"\x7fELF");
        data[32..40].copy_from_slice(&64u64.to_le_bytes());
        data[54..56].copy_from_slice(&56u16.to_le_bytes());
        data[56..58].copy_from_slice(&2u16.to_le_bytes());
        let segment = |data: &mut Vec<u8>, index: usize, kind: u32, offset: u64, size: u64| {
            let entry = 64 + index * 56;
            data[entry..entry + 4].copy_from_slice(&kind.to_le_bytes());
            data[entry + 8..entry + 16].copy_from_slice(&offset.to_le_bytes());
            data[entry + 32..entry + 40].copy_from_slice(&size.to_le_bytes());
        };
        segment(&mut data, 0, 1, 0, 176);
        segment(&mut data, 1, PT_NOTE, 120, 56);
        check_layout(&data).unwrap();
        fails(
            &data[..170],
            StatusCode::InvalidArgument,
            "program headers exceed file bounds",
        );
        segment(&mut data, 0, 1, 0, 177);
        fails(
            &data,
            StatusCode::InvalidArgument,
            "segment 0 (p_type 0x1) exceeds",
        );
        segment(&mut data, 0, 1, 0, 176);
        segment(&mut data, 1, PT_NOTE, 120, 57);
        fails(
            &data,
            StatusCode::InvalidArgument,
            "PT_NOTE exceeds file bounds",
        );
        data[54..56].copy_from_slice(&32u16.to_le_bytes());
        fails(&data, StatusCode::InvalidArgument, "entries are too small");
    }
}

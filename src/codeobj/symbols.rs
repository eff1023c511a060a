//! ELF symbols of a code object: the dynamic symbol table (`.dynsym`, or
//! `.symtab` when there is none), and the file bytes a symbol's value and size
//! cover (a kernel descriptor, a global variable's initializer).
//!
//! Section headers and symbols are read entry by entry with checked reads;
//! counts come from section sizes, which are checked against the file first.

use goblin::elf::section_header::{SHT_DYNSYM, SHT_NOBITS, SHT_SYMTAB};

use super::bytes;
use super::elf::{ELF64_SHDR_SIZE, read_amdgpu_header};
use crate::{Result, Status, status};

/// Size of an ELF64 symbol table entry.
pub const ELF64_SYM_SIZE: u64 = 24;
/// Longest symbol name accepted, in bytes (IREE's stack symbol name limit).
pub const MAX_SYMBOL_NAME_LENGTH: usize = 4096;
/// `STT_OBJECT`: a data object (kernel descriptors, global variables).
pub const STT_OBJECT: u8 = 1;
/// `STT_FUNC`: code (a kernel's entry point).
pub const STT_FUNC: u8 = 2;

/// One symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symbol<'a> {
    /// The name (empty for the null symbol).
    pub name: &'a str,
    /// `ELF64_ST_TYPE(st_info)`: [`STT_OBJECT`], [`STT_FUNC`], ...
    pub kind: u8,
    /// `ELF64_ST_BIND(st_info)`: local 0, global 1, weak 2.
    pub binding: u8,
    /// `st_other & 3`: default 0, internal 1, hidden 2, protected 3.
    pub visibility: u8,
    /// `st_shndx`: the section it is defined in (0 = undefined).
    pub section: u16,
    /// `st_value`: its virtual address.
    pub value: u64,
    /// `st_size`.
    pub size: u64,
}

/// A section header's fields that symbol reading needs.
#[derive(Clone, Copy, Debug)]
struct Section {
    kind: u32,
    addr: u64,
    offset: u64,
    size: u64,
    link: u32,
    entsize: u64,
}

fn section(data: &[u8], index: u64) -> Result<Section> {
    let header = read_amdgpu_header(data)?;
    if index >= u64::from(header.shnum) {
        return Err(status!(
            OutOfRange,
            "ELF section index {index} out of range ({} sections)",
            header.shnum
        ));
    }
    if u64::from(header.shentsize) < ELF64_SHDR_SIZE {
        return Err(Status::invalid_argument(
            "64-bit ELF section header entry too small",
        ));
    }
    let entry = header
        .shoff
        .checked_add(index * u64::from(header.shentsize))
        .ok_or_else(|| Status::out_of_range("ELF section header offset overflow"))?;
    // A saturated offset is past any slice: the read then fails cleanly.
    let read = |at: u64| bytes::u64_at(data, entry.saturating_add(at));
    let word = |at: u64| bytes::u32_at(data, entry.saturating_add(at));
    match (word(4), read(16), read(24), read(32), word(40), read(56)) {
        (Some(kind), Some(addr), Some(offset), Some(size), Some(link), Some(entsize)) => {
            Ok(Section {
                kind,
                addr,
                offset,
                size,
                link,
                entsize,
            })
        }
        _ => Err(Status::out_of_range(
            "ELF section header table is truncated",
        )),
    }
}

fn section_bytes<'a>(data: &'a [u8], section: &Section) -> Result<&'a [u8]> {
    if section.kind == SHT_NOBITS {
        return Ok(&[]);
    }
    bytes::slice_at(data, section.offset, section.size)
        .ok_or_else(|| Status::out_of_range("ELF section contents exceed the file"))
}

/// The symbols of the dynamic symbol table (or of `.symtab` when there is no
/// `.dynsym`, as in relocatable objects), in table order.
pub fn symbols(data: &[u8]) -> Result<Vec<Symbol<'_>>> {
    let header = read_amdgpu_header(data)?;
    let mut table = None;
    for index in 0..u64::from(header.shnum) {
        let candidate = section(data, index)?;
        match candidate.kind {
            SHT_DYNSYM => {
                table = Some(candidate);
                break;
            }
            SHT_SYMTAB if table.is_none() => table = Some(candidate),
            _ => {}
        }
    }
    let Some(table) = table else {
        return Err(Status::not_found("ELF has no symbol table"));
    };
    if table.entsize != ELF64_SYM_SIZE {
        return Err(status!(
            InvalidArgument,
            "ELF symbol table entry size {} is not {ELF64_SYM_SIZE}",
            table.entsize
        ));
    }
    let entries = section_bytes(data, &table)?;
    let strings = section_bytes(data, &section(data, u64::from(table.link))?)?;
    let count = entries.len() / ELF64_SYM_SIZE as usize;
    let mut out = Vec::with_capacity(count);
    for index in 0..count as u64 {
        let at = index * ELF64_SYM_SIZE;
        let (Some(name), Some(&info), Some(&other), Some(shndx), Some(value), Some(size)) = (
            bytes::u32_at(entries, at),
            entries.get((at + 4) as usize),
            entries.get((at + 5) as usize),
            bytes::u16_at(entries, at + 6),
            bytes::u64_at(entries, at + 8),
            bytes::u64_at(entries, at + 16),
        ) else {
            return Err(Status::out_of_range("ELF symbol table is truncated"));
        };
        out.push(Symbol {
            name: symbol_name(strings, name)?,
            kind: info & 0xf,
            binding: info >> 4,
            visibility: other & 3,
            section: shndx,
            value,
            size,
        });
    }
    Ok(out)
}

fn symbol_name(strings: &[u8], offset: u32) -> Result<&str> {
    let tail = strings.get(offset as usize..).ok_or_else(|| {
        status!(
            OutOfRange,
            "ELF symbol name offset {offset} exceeds the string table"
        )
    })?;
    let window = tail
        .get(..tail.len().min(MAX_SYMBOL_NAME_LENGTH + 1))
        .unwrap_or(tail);
    let Some(end) = window.iter().position(|&byte| byte == 0) else {
        return Err(Status::invalid_argument(
            "ELF symbol name is unterminated or longer than the symbol name limit",
        ));
    };
    let (name, _) = window.split_at(end);
    std::str::from_utf8(name)
        .map_err(|_| Status::invalid_argument("ELF symbol name is not valid UTF-8"))
}

/// The symbol named exactly `name`. `NOT_FOUND` when there is none.
pub fn find_symbol<'a>(data: &'a [u8], name: &str) -> Result<Symbol<'a>> {
    if name.is_empty() {
        return Err(Status::invalid_argument("symbol name is empty"));
    }
    if name.len() > MAX_SYMBOL_NAME_LENGTH {
        return Err(status!(
            OutOfRange,
            "symbol name of {} bytes exceeds the {MAX_SYMBOL_NAME_LENGTH}-byte limit",
            name.len()
        ));
    }
    symbols(data)?
        .into_iter()
        .find(|symbol| symbol.name == name)
        .ok_or_else(|| status!(NotFound, "symbol `{name}` not found in the code object"))
}

/// The file bytes a defined symbol covers (`st_size` bytes at its address,
/// mapped through its section). `SHT_NOBITS` data (zero-initialized) has no
/// file bytes: `FAILED_PRECONDITION`.
pub fn symbol_bytes<'a>(data: &'a [u8], symbol: &Symbol<'_>) -> Result<&'a [u8]> {
    if symbol.section == 0 || symbol.section >= 0xff00 {
        return Err(status!(
            FailedPrecondition,
            "symbol `{}` is not defined in a section",
            symbol.name
        ));
    }
    let section = section(data, u64::from(symbol.section))?;
    if section.kind == SHT_NOBITS {
        return Err(status!(
            FailedPrecondition,
            "symbol `{}` is zero-initialized and has no file contents",
            symbol.name
        ));
    }
    let within = symbol
        .value
        .checked_sub(section.addr)
        .filter(|start| {
            start
                .checked_add(symbol.size)
                .is_some_and(|end| end <= section.size)
        })
        .ok_or_else(|| {
            status!(
                OutOfRange,
                "symbol `{}` lies outside its section",
                symbol.name
            )
        })?;
    let contents = section_bytes(data, &section)?;
    bytes::slice_at(contents, within, symbol.size).ok_or_else(|| {
        status!(
            OutOfRange,
            "symbol `{}` lies outside its section",
            symbol.name
        )
    })
}

//! A small bounds-checked reader of AMDGPU code objects (ELF64 LE): the
//! header, `PT_LOAD` segments and the dynamic symbol table. Every offset is
//! checked; malformed input is an error, never a panic.

/// Largest code object the reader accepts.
pub const MAX_CODE_OBJECT_BYTES: usize = 256 << 20;
/// Most program headers.
pub const MAX_PROGRAM_HEADERS: usize = 1024;
/// Most section headers.
pub const MAX_SECTIONS: usize = 1 << 16;
/// Most dynamic symbols: two per kernel (the function and its `.kd`), so
/// room for the metadata decoder's 2^20 kernels. Each takes 24 bytes of the
/// file, so the count is bounded by the input as well.
pub const MAX_SYMBOLS: usize = 1 << 21;
/// Longest symbol name.
pub const MAX_SYMBOL_NAME_BYTES: usize = 4096;
/// Size of an AMDHSA kernel descriptor.
pub const KERNEL_DESCRIPTOR_BYTES: usize = 64;

/// `EM_AMDGPU`.
pub const EM_AMDGPU: u16 = 224;
/// `ELFOSABI_AMDGPU_HSA`.
pub const ELFOSABI_AMDGPU_HSA: u8 = 64;

const PT_LOAD: u32 = 1;
const SHT_DYNSYM: u32 = 11;
const STT_OBJECT: u8 = 1;
/// `STT_FUNC`: code (a kernel's entry).
const STT_FUNC: u8 = 2;
const STB_LOCAL: u8 = 0;

/// Why a code object was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElfError(pub String);

impl std::fmt::Display for ElfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(message: impl Into<String>) -> Result<T, ElfError> {
    Err(ElfError(message.into()))
}

/// A loadable segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// `p_offset`.
    pub offset: u64,
    /// `p_vaddr`.
    pub vaddr: u64,
    /// `p_filesz`.
    pub filesz: u64,
    /// `p_memsz`.
    pub memsz: u64,
}

/// What a symbol is to the loader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// A `.kd` kernel descriptor, with the facts read from it.
    Kernel {
        /// `group_segment_fixed_size`.
        group_segment_size: u32,
        /// `private_segment_fixed_size`.
        private_segment_size: u32,
        /// `kernarg_size`.
        kernarg_size: u32,
    },
    /// A data object (a device global).
    Variable,
}

/// A defined, non-local dynamic symbol the loader exposes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The name (with `.kd` for kernels).
    pub name: String,
    /// `st_value` (a virtual address in the code object).
    pub value: u64,
    /// `st_size`.
    pub size: u64,
    /// Kernel or variable.
    pub kind: SymbolKind,
}

/// A function symbol: `(name, st_value, st_size)`.
pub type Function = (String, u64, u64);

/// A parsed code object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeObject {
    /// `e_flags` (the target: machine and features).
    pub e_flags: u32,
    /// `EI_ABIVERSION` (1 = code object v3, 2 = v4, 3 = v5, 4 = v6).
    pub abi_version: u8,
    /// `PT_LOAD` segments in file order.
    pub segments: Vec<Segment>,
    /// Kernels and variables from the dynamic symbol table.
    pub symbols: Vec<Symbol>,
    /// Functions (`STT_FUNC`: a kernel's code, by the kernel's name) from
    /// the dynamic symbol table: `(name, st_value, st_size)`. A kernel with
    /// no function symbol (IREE's prebuilt device library keeps only the
    /// descriptors) gets one made from its descriptor: its code runs from
    /// the entry the descriptor names to the next kernel's entry, or to the
    /// end of the segment holding it (`kernel_code_extents`).
    pub functions: Vec<Function>,
}

struct Bytes<'a>(&'a [u8]);

impl<'a> Bytes<'a> {
    fn slice(&self, offset: u64, len: u64) -> Result<&'a [u8], ElfError> {
        let start = usize::try_from(offset).map_err(|_| ElfError("offset out of range".into()))?;
        let len = usize::try_from(len).map_err(|_| ElfError("length out of range".into()))?;
        let end = start
            .checked_add(len)
            .ok_or_else(|| ElfError("range overflows".into()))?;
        self.0.get(start..end).ok_or_else(|| {
            ElfError(format!(
                "range {start}..{end} is outside the {}-byte code object",
                self.0.len()
            ))
        })
    }

    fn u8(&self, offset: u64) -> Result<u8, ElfError> {
        Ok(self.slice(offset, 1)?.first().copied().unwrap_or(0))
    }

    fn u16(&self, offset: u64) -> Result<u16, ElfError> {
        let b = self.slice(offset, 2)?;
        Ok(u16::from_le_bytes([
            b.first().copied().unwrap_or(0),
            b.get(1).copied().unwrap_or(0),
        ]))
    }

    fn u32(&self, offset: u64) -> Result<u32, ElfError> {
        let mut out = [0u8; 4];
        out.copy_from_slice(self.slice(offset, 4)?);
        Ok(u32::from_le_bytes(out))
    }

    fn u64(&self, offset: u64) -> Result<u64, ElfError> {
        let mut out = [0u8; 8];
        out.copy_from_slice(self.slice(offset, 8)?);
        Ok(u64::from_le_bytes(out))
    }
}

fn add(at: u64, offset: u64) -> Result<u64, ElfError> {
    at.checked_add(offset)
        .ok_or_else(|| ElfError("offset overflows".into()))
}

fn table_entry(base: u64, index: usize, entsize: u64) -> Result<u64, ElfError> {
    u64::try_from(index)
        .ok()
        .and_then(|i| i.checked_mul(entsize))
        .and_then(|off| off.checked_add(base))
        .ok_or_else(|| ElfError("table offset overflows".into()))
}

impl CodeObject {
    /// Parses `bytes` as an AMDGPU HSA code object.
    pub fn parse(bytes: &[u8]) -> Result<CodeObject, ElfError> {
        if bytes.len() > MAX_CODE_OBJECT_BYTES {
            return err(format!(
                "{} bytes; the limit is {MAX_CODE_OBJECT_BYTES}",
                bytes.len()
            ));
        }
        let b = Bytes(bytes);
        if b.slice(0, 4)? != b"\x7fELF" {
            return err("not an ELF file (bad magic)");
        }
        if b.slice(0, 64).is_err() {
            return err("truncated ELF header");
        }
        if b.u8(4)? != 2 || b.u8(5)? != 1 || b.u8(6)? != 1 {
            return err("not a little-endian ELF64 version 1 file");
        }
        if b.u8(7)? != ELFOSABI_AMDGPU_HSA {
            return err(format!("EI_OSABI {} is not ELFOSABI_AMDGPU_HSA", b.u8(7)?));
        }
        let abi_version = b.u8(8)?;
        if b.u16(18)? != EM_AMDGPU {
            return err(format!("e_machine {} is not EM_AMDGPU", b.u16(18)?));
        }
        if b.u32(20)? != 1 {
            return err("e_version is not 1");
        }
        let e_flags = b.u32(48)?;
        let phoff = b.u64(32)?;
        let shoff = b.u64(40)?;
        let phentsize = u64::from(b.u16(54)?);
        let phnum = usize::from(b.u16(56)?);
        let shentsize = u64::from(b.u16(58)?);
        let shnum = usize::from(b.u16(60)?);
        if phnum > MAX_PROGRAM_HEADERS || shnum > MAX_SECTIONS {
            return err("too many program or section headers");
        }
        if phnum > 0 && phentsize < 56 {
            return err("program header entries are too small");
        }
        let mut segments = Vec::new();
        for i in 0..phnum {
            let at = table_entry(phoff, i, phentsize)?;
            if b.u32(at)? != PT_LOAD {
                continue;
            }
            let segment = Segment {
                offset: b.u64(add(at, 8)?)?,
                vaddr: b.u64(add(at, 16)?)?,
                filesz: b.u64(add(at, 32)?)?,
                memsz: b.u64(add(at, 40)?)?,
            };
            if segment.filesz > segment.memsz {
                return err("a PT_LOAD segment's file size exceeds its memory size");
            }
            segment
                .vaddr
                .checked_add(segment.memsz)
                .ok_or_else(|| ElfError("segment end overflows".into()))?;
            b.slice(segment.offset, segment.filesz)?;
            segments.push(segment);
        }
        if segments.is_empty() {
            return err("no PT_LOAD segment");
        }
        let (symbols, mut functions) = if shnum > 0 {
            read_dynamic_symbols(&b, &segments, shoff, shentsize, shnum)?
        } else {
            (Vec::new(), Vec::new())
        };
        functions.extend(kernel_code_extents(&b, &segments, &symbols, &functions));
        Ok(CodeObject {
            e_flags,
            abi_version,
            segments,
            symbols,
            functions,
        })
    }

    /// The file bytes behind `len` bytes at virtual address `vaddr`, if a
    /// segment's file image covers them.
    pub fn bytes_at<'a>(&self, file: &'a [u8], vaddr: u64, len: u64) -> Option<&'a [u8]> {
        segment_bytes(&self.segments, file, vaddr, len)
    }

    /// Where in `file` the bytes [`CodeObject::bytes_at`] gives lie.
    pub fn file_range_at(
        &self,
        file: &[u8],
        vaddr: u64,
        len: u64,
    ) -> Option<std::ops::Range<usize>> {
        let start = segment_file_offset(&self.segments, vaddr, len)?;
        let start = usize::try_from(start).ok()?;
        let end = start.checked_add(usize::try_from(len).ok()?)?;
        (end <= file.len()).then_some(start..end)
    }

    /// Lowest `p_vaddr` of the segments.
    pub fn min_vaddr(&self) -> u64 {
        self.segments.iter().map(|s| s.vaddr).min().unwrap_or(0)
    }

    /// Highest `p_vaddr + p_memsz` of the segments.
    pub fn max_vaddr(&self) -> u64 {
        self.segments
            .iter()
            .map(|s| s.vaddr.saturating_add(s.memsz))
            .max()
            .unwrap_or(0)
    }
}

fn segment_bytes<'a>(
    segments: &[Segment],
    file: &'a [u8],
    vaddr: u64,
    len: u64,
) -> Option<&'a [u8]> {
    let offset = segment_file_offset(segments, vaddr, len)?;
    Bytes(file).slice(offset, len).ok()
}

/// The file offset of `len` bytes at `vaddr`: in the first segment whose
/// file image covers them.
fn segment_file_offset(segments: &[Segment], vaddr: u64, len: u64) -> Option<u64> {
    let segment = segments.iter().find(|s| {
        vaddr >= s.vaddr
            && vaddr
                .checked_add(len)
                .is_some_and(|end| end <= s.vaddr + s.filesz)
    })?;
    segment.offset.checked_add(vaddr - segment.vaddr)
}

fn read_dynamic_symbols(
    b: &Bytes<'_>,
    segments: &[Segment],
    shoff: u64,
    shentsize: u64,
    shnum: usize,
) -> Result<(Vec<Symbol>, Vec<Function>), ElfError> {
    if shentsize < 64 {
        return err("section header entries are too small");
    }
    let section = |i: usize| -> Result<(u32, u64, u64, u32, u64), ElfError> {
        let at = table_entry(shoff, i, shentsize)?;
        Ok((
            b.u32(add(at, 4)?)?,
            b.u64(add(at, 24)?)?,
            b.u64(add(at, 32)?)?,
            b.u32(add(at, 40)?)?,
            b.u64(add(at, 56)?)?,
        ))
    };
    let mut out = Vec::new();
    let mut functions = Vec::new();
    for i in 0..shnum {
        let (sh_type, offset, size, link, entsize) = section(i)?;
        if sh_type != SHT_DYNSYM {
            continue;
        }
        if entsize != 24 {
            return err("dynamic symbol entries are not 24 bytes");
        }
        let link = usize::try_from(link).map_err(|_| ElfError("bad sh_link".into()))?;
        if link >= shnum {
            return err("the dynamic symbol table links to a missing string table");
        }
        let (_, str_offset, str_size, _, _) = section(link)?;
        let strtab = b.slice(str_offset, str_size)?;
        let count =
            usize::try_from(size / 24).map_err(|_| ElfError("symbol count out of range".into()))?;
        if count > MAX_SYMBOLS {
            return err(format!(
                "{count} dynamic symbols; the limit is {MAX_SYMBOLS}"
            ));
        }
        b.slice(offset, size)?;
        for s in 1..count {
            let at = table_entry(offset, s, 24)?;
            let name_offset =
                usize::try_from(b.u32(at)?).map_err(|_| ElfError("bad st_name".into()))?;
            let info = b.u8(add(at, 4)?)?;
            let shndx = b.u16(add(at, 6)?)?;
            let value = b.u64(add(at, 8)?)?;
            let size = b.u64(add(at, 16)?)?;
            if shndx == 0 || info >> 4 == STB_LOCAL {
                continue;
            }
            if info & 0xf == STT_FUNC {
                functions.push((symbol_name(strtab, name_offset)?, value, size));
                continue;
            }
            if info & 0xf != STT_OBJECT {
                continue;
            }
            let name = symbol_name(strtab, name_offset)?;
            let kind = if name.ends_with(".kd") {
                let kd = segment_bytes(segments, b.0, value, KERNEL_DESCRIPTOR_BYTES as u64)
                    .ok_or_else(|| {
                        ElfError(format!(
                            "kernel descriptor '{name}' is outside the loaded image"
                        ))
                    })?;
                let word = |at: usize| {
                    let mut w = [0u8; 4];
                    if let Some(src) = kd.get(at..at + 4) {
                        w.copy_from_slice(src);
                    }
                    u32::from_le_bytes(w)
                };
                SymbolKind::Kernel {
                    group_segment_size: word(0),
                    private_segment_size: word(4),
                    kernarg_size: word(8),
                }
            } else {
                SymbolKind::Variable
            };
            out.push(Symbol {
                name,
                value,
                size,
                kind,
            });
        }
    }
    Ok((out, functions))
}

/// Byte offset of `kernel_code_entry_byte_offset` (an `i64`, from the
/// descriptor's own address) in an AMDHSA kernel descriptor.
const KERNEL_CODE_ENTRY_OFFSET: u64 = 16;

/// Function entries for the kernels `functions` does not name: each from
/// the entry its descriptor names to the next entry of any kernel or
/// function, or to the end of the file image of the segment holding it. A
/// descriptor whose entry lies outside every segment gets none (a dispatch
/// of it is then refused, as with no symbol at all).
fn kernel_code_extents(
    b: &Bytes<'_>,
    segments: &[Segment],
    symbols: &[Symbol],
    functions: &[Function],
) -> Vec<Function> {
    let entry_of = |kd: &Symbol| -> Option<u64> {
        let field = segment_bytes(
            segments,
            b.0,
            kd.value.checked_add(KERNEL_CODE_ENTRY_OFFSET)?,
            8,
        )?;
        let offset = i64::from_le_bytes(field.try_into().ok()?);
        kd.value.checked_add_signed(offset)
    };
    let kernels: Vec<(&str, u64)> = symbols
        .iter()
        .filter(|s| matches!(s.kind, SymbolKind::Kernel { .. }))
        .filter_map(|s| Some((s.name.strip_suffix(".kd")?, entry_of(s)?)))
        .collect();
    let mut starts: Vec<u64> = kernels
        .iter()
        .map(|&(_, entry)| entry)
        .chain(functions.iter().map(|&(_, start, _)| start))
        .collect();
    starts.sort_unstable();
    let named: std::collections::HashSet<&str> =
        functions.iter().map(|(f, _, _)| f.as_str()).collect();
    let mut by_address: Vec<&Segment> = segments.iter().collect();
    by_address.sort_unstable_by_key(|s| s.vaddr);
    kernels
        .into_iter()
        .filter(|(name, _)| !named.contains(name))
        .filter_map(|(name, entry)| {
            // The last segment starting at or below the entry.
            let segment = by_address
                .get(
                    by_address
                        .partition_point(|s| s.vaddr <= entry)
                        .checked_sub(1)?,
                )
                .filter(|s| entry - s.vaddr < s.filesz)?;
            let segment_end = segment.vaddr + segment.filesz;
            let next = starts
                .get(starts.partition_point(|&start| start <= entry))
                .copied()
                .unwrap_or(segment_end);
            Some((name.to_owned(), entry, next.min(segment_end) - entry))
        })
        .collect()
}

fn symbol_name(strtab: &[u8], offset: usize) -> Result<String, ElfError> {
    let tail = strtab
        .get(offset..)
        .ok_or_else(|| ElfError("symbol name is outside the string table".into()))?;
    let len = tail
        .iter()
        .position(|&c| c == 0)
        .ok_or_else(|| ElfError("unterminated symbol name".into()))?;
    if len == 0 || len > MAX_SYMBOL_NAME_BYTES {
        return err(format!(
            "symbol name length {len} is not in 1..={MAX_SYMBOL_NAME_BYTES}"
        ));
    }
    let raw = tail.get(..len).unwrap_or_default();
    String::from_utf8(raw.to_vec()).map_err(|_| ElfError("symbol name is not UTF-8".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_garbage_without_panicking() {
        assert!(CodeObject::parse(b"").is_err());
        assert!(CodeObject::parse(b"\x7fELF").is_err());
        let mut header = vec![0u8; 64];
        header[..4].copy_from_slice(b"\x7fELF");
        assert!(CodeObject::parse(&header).is_err());
    }

    fn fixture(path: &str) -> CodeObject {
        let bytes = std::fs::read(format!("{}/../fixtures/{path}", env!("CARGO_MANIFEST_DIR")))
            .expect("fixture");
        CodeObject::parse(&bytes).expect("a valid code object")
    }

    /// IREE's device library keeps only kernel descriptors; each kernel's
    /// code is found from them. Expected entries from `llvm-readelf-19` and
    /// `llvm-objdump-19` of the fixture: descriptors in `.rodata`, whose
    /// entry offsets name 256-byte-aligned starts in the executable segment
    /// 0x3b00..0x5c8c, the last kernel (the timestamp harvester) at 0x5c00.
    #[test]
    fn kernels_without_function_symbols_run_to_the_next_kernel() {
        let code = fixture("iree/device/amdgcn-amd-amdhsa--gfx11-generic.so");
        let kernels = code
            .symbols
            .iter()
            .filter(|s| matches!(s.kind, SymbolKind::Kernel { .. }))
            .count();
        assert_eq!(kernels, 14);
        assert_eq!(code.functions.len(), 14, "one function per kernel");
        let mut extents: Vec<(u64, u64)> = code.functions.iter().map(|f| (f.1, f.2)).collect();
        extents.sort_unstable();
        assert_eq!(extents.first().map(|e| e.0), Some(0x3b00));
        assert_eq!(extents.last(), Some(&(0x5c00, 0x8c)));
        for pair in extents.windows(2) {
            assert_eq!(pair[0].0 + pair[0].1, pair[1].0, "contiguous: {pair:?}");
        }
        let function = |name: &str| {
            code.functions
                .iter()
                .find(|f| f.0 == name)
                .map(|f| (f.1, f.2))
        };
        assert_eq!(
            function("iree_hal_amdgpu_device_buffer_fill_block_x16"),
            Some((0x4e00, 0x300))
        );
    }

    /// A code object with function symbols keeps exactly those.
    #[test]
    fn function_symbols_are_kept_as_they_are() {
        let code = fixture("isa/partial_groups.gfx1100.hsaco");
        assert_eq!(code.functions.len(), 1);
        assert_eq!(code.functions[0].0, "partial_groups");
    }
}

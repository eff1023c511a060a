//! The ELF layer of an AMDGPU code object: identity checks, the target ID
//! encoded in `e_flags`, the code object version, and the byte extent of an
//! ELF image.
//!
//! File headers are decoded with `goblin` (`header64::Header::parse` /
//! `header32::Header::parse`: fixed-size reads, no allocation). Program and
//! section header *tables* are read entry by entry by hand with checked reads,
//! because goblin's table parsers allocate a `Vec` sized from the untrusted
//! counts; every offset and count is checked against the slice before use.

use goblin::elf::header::{
    self as gh, EI_ABIVERSION, EI_CLASS, EI_DATA, EI_OSABI, EI_VERSION, ELFCLASS32, ELFCLASS64,
    ELFDATA2LSB, ELFMAG, EM_AMDGPU, EV_CURRENT,
};
use goblin::elf::section_header::SHT_NOBITS;

use super::bytes;
use super::processors;
use super::target_id::{FeatureState, ParseFlags, TargetId, TargetKind};
use crate::{Result, status};

/// `EI_OSABI` of AMDGPU HSA code objects.
pub const ELFOSABI_AMDGPU_HSA: u8 = 64;
/// Size of an ELF64 file header.
pub const ELF64_HEADER_SIZE: usize = gh::header64::SIZEOF_EHDR;
/// Size of an ELF32 file header.
pub const ELF32_HEADER_SIZE: usize = gh::header32::SIZEOF_EHDR;
/// Size of an ELF64 program header entry.
pub const ELF64_PHDR_SIZE: u64 = 56;
/// Size of an ELF64 section header entry.
pub const ELF64_SHDR_SIZE: u64 = 64;
/// Size of an ELF32 program header entry.
pub const ELF32_PHDR_SIZE: u64 = 32;
/// Size of an ELF32 section header entry.
pub const ELF32_SHDR_SIZE: u64 = 40;

/// `e_type` of a relocatable object: the compiler's output (`.o`).
pub const ET_REL: u16 = 1;
/// `e_type` of an executable: not an AMDGPU code object type.
pub const ET_EXEC: u16 = 2;
/// `e_type` of a shared object: a linked, loadable code object.
pub const ET_DYN: u16 = 3;

pub use amdgpu_sys::processors::EF_AMDGPU_MACH;
/// Code object V3 xnack bit.
pub const EF_AMDGPU_FEATURE_XNACK_V3: u32 = 0x100;
/// Code object V3 sramecc bit.
pub const EF_AMDGPU_FEATURE_SRAMECC_V3: u32 = 0x200;
/// Code object V4+ xnack field.
pub const EF_AMDGPU_FEATURE_XNACK_V4: u32 = 0x300;
/// Code object V4+ sramecc field.
pub const EF_AMDGPU_FEATURE_SRAMECC_V4: u32 = 0xc00;
/// Code object V6 generic version field.
pub const EF_AMDGPU_GENERIC_VERSION: u32 = 0xff00_0000;
/// Shift of [`EF_AMDGPU_GENERIC_VERSION`].
pub const EF_AMDGPU_GENERIC_VERSION_OFFSET: u32 = 24;

/// True when `data` starts with the ELF magic (`\x7fELF`). An empty slice is
/// not an ELF: here the slice is all there is.
pub fn is_elf(data: &[u8]) -> bool {
    data.starts_with(ELFMAG)
}

/// The AMDGPU HSA code object version (3..=6) of `data`, after the same
/// identity checks as [`target_id_from_elf`].
pub fn code_object_version(data: &[u8]) -> Result<u32> {
    Ok(read_amdgpu_header(data)?.code_object_version)
}

/// The fields of an AMDGPU code object's ELF header we use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AmdgpuElfHeader {
    /// `e_type` (`ET_DYN` = 3 for loadable code objects, `ET_REL` = 1 for `.o`).
    pub e_type: u16,
    /// `e_flags`: processor, features, generic version.
    pub e_flags: u32,
    /// `EI_ABIVERSION` (1..=4).
    pub abi_version: u8,
    /// The code object version, `abi_version + 2`.
    pub code_object_version: u32,
    /// `e_phoff`.
    pub phoff: u64,
    /// `e_phentsize`.
    pub phentsize: u16,
    /// `e_phnum`.
    pub phnum: u16,
    /// `e_shoff`.
    pub shoff: u64,
    /// `e_shentsize`.
    pub shentsize: u16,
    /// `e_shnum`.
    pub shnum: u16,
}

/// Checks that `data` is a 64-bit little-endian AMDGPU HSA ELF (code object
/// V3-V6) and returns its header fields. Codes as IREE: `INVALID_ARGUMENT` for
/// a wrong identity, `OUT_OF_RANGE` for a truncated header.
pub fn read_amdgpu_header(data: &[u8]) -> Result<AmdgpuElfHeader> {
    if !is_elf(data) {
        return Err(status!(
            InvalidArgument,
            "AMDGPU code object does not begin with ELF magic"
        ));
    }
    let Some(ident_and_header) = data.get(..ELF64_HEADER_SIZE) else {
        return Err(status!(
            OutOfRange,
            "AMDGPU code object ELF header truncated ({} of {ELF64_HEADER_SIZE} bytes)",
            data.len()
        ));
    };
    let ident = |index: usize| ident_and_header.get(index).copied().unwrap_or(0);
    if ident(EI_CLASS) != ELFCLASS64 {
        return Err(status!(
            InvalidArgument,
            "AMDGPU code object must be a 64-bit ELF"
        ));
    }
    if ident(EI_DATA) != ELFDATA2LSB {
        return Err(status!(
            InvalidArgument,
            "AMDGPU code object must be little-endian"
        ));
    }
    if ident(EI_VERSION) != EV_CURRENT {
        return Err(status!(
            InvalidArgument,
            "unsupported AMDGPU code object ELF version {}",
            ident(EI_VERSION)
        ));
    }
    if ident(EI_OSABI) != ELFOSABI_AMDGPU_HSA {
        return Err(status!(
            InvalidArgument,
            "AMDGPU code object must use HSA OSABI (EI_OSABI {} is not {ELFOSABI_AMDGPU_HSA})",
            ident(EI_OSABI)
        ));
    }
    let header = gh::header64::Header::parse(ident_and_header).map_err(|error| {
        status!(
            InvalidArgument,
            "AMDGPU code object ELF header unreadable: {error}"
        )
    })?;
    if header.e_machine != EM_AMDGPU {
        return Err(status!(
            InvalidArgument,
            "ELF machine {} is not AMDGPU",
            header.e_machine
        ));
    }
    if header.e_version != u32::from(EV_CURRENT) {
        return Err(status!(
            InvalidArgument,
            "unsupported AMDGPU code object e_version {}",
            header.e_version
        ));
    }
    // LLVM's AMDGPUUsage: `e_type` is `ET_REL` (compiler output) or `ET_DYN`
    // (linked); anything else is not an AMDGPU code object.
    if header.e_type != ET_REL && header.e_type != ET_DYN {
        return Err(status!(
            InvalidArgument,
            "AMDGPU code object e_type {} is neither ET_REL (1) nor ET_DYN (3)",
            header.e_type
        ));
    }
    let abi_version = ident(EI_ABIVERSION);
    if !(1..=4).contains(&abi_version) {
        return Err(status!(
            InvalidArgument,
            "unsupported AMDGPU HSA code object ABI version {abi_version} (code object V3-V6 \
             are ABI versions 1-4)"
        ));
    }
    Ok(AmdgpuElfHeader {
        e_type: header.e_type,
        e_flags: header.e_flags,
        abi_version,
        code_object_version: u32::from(abi_version) + 2,
        phoff: header.e_phoff,
        phentsize: header.e_phentsize,
        phnum: header.e_phnum,
        shoff: header.e_shoff,
        shentsize: header.e_shentsize,
        shnum: header.e_shnum,
    })
}

/// The target ID a code object was built for, decoded from its `e_flags`:
/// the processor from `EF_AMDGPU_MACH`, xnack/sramecc from the V3 bits or the
/// V4+ fields, and the V6 generic version.
pub fn target_id_from_elf(data: &[u8]) -> Result<TargetId> {
    let header = read_amdgpu_header(data)?;
    target_id_from_e_flags(header.e_flags, header.code_object_version)
}

/// Decodes `e_flags` of a code object of version `code_object_version` (3..=6).
pub fn target_id_from_e_flags(e_flags: u32, code_object_version: u32) -> Result<TargetId> {
    let mach = (e_flags & EF_AMDGPU_MACH) as u8;
    let Some(processor) = processors::by_mach(mach) else {
        return Err(status!(
            InvalidArgument,
            "unsupported AMDGPU code object processor e_flags value {mach:#x}"
        ));
    };
    let mut target = TargetId::parse(processor.name, ParseFlags::empty())?;
    match code_object_version {
        3 => {
            let v3 = |bit: u32, representable: bool| match (e_flags & bit != 0, representable) {
                (true, _) => FeatureState::On,
                (false, true) => FeatureState::Off,
                (false, false) => FeatureState::Unsupported,
            };
            target.sramecc = v3(EF_AMDGPU_FEATURE_SRAMECC_V3, processor.sramecc);
            target.xnack = v3(EF_AMDGPU_FEATURE_XNACK_V3, processor.xnack);
        }
        4..=6 => {
            target.xnack = match e_flags & EF_AMDGPU_FEATURE_XNACK_V4 {
                0x000 => FeatureState::Unsupported,
                0x100 => FeatureState::Any,
                0x200 => FeatureState::Off,
                _ => FeatureState::On,
            };
            target.sramecc = match e_flags & EF_AMDGPU_FEATURE_SRAMECC_V4 {
                0x000 => FeatureState::Unsupported,
                0x400 => FeatureState::Any,
                0x800 => FeatureState::Off,
                _ => FeatureState::On,
            };
            if code_object_version == 6 {
                target.generic_version =
                    (e_flags & EF_AMDGPU_GENERIC_VERSION) >> EF_AMDGPU_GENERIC_VERSION_OFFSET;
            }
        }
        other => {
            return Err(status!(
                InvalidArgument,
                "unsupported AMDGPU code object version {other}"
            ));
        }
    }
    match (target.kind, target.generic_version) {
        (TargetKind::Generic, _) if code_object_version != 6 => Err(status!(
            InvalidArgument,
            "generic AMDGPU code object target requires HSA ABI v6"
        )),
        (TargetKind::Generic, 0) => Err(status!(
            InvalidArgument,
            "generic AMDGPU code object target has no generic version"
        )),
        (TargetKind::Exact, version) if version != 0 => Err(status!(
            InvalidArgument,
            "non-generic AMDGPU code object target has generic version {version}"
        )),
        _ => Ok(target),
    }
}

/// Layout constants of one ELF class.
struct ClassLayout {
    header_size: u64,
    shdr_size: u64,
    phdr_size: u64,
    /// Offsets of `sh_type`, `sh_offset`, `sh_size` in a section header.
    sh_type: u64,
    sh_offset: u64,
    sh_size: u64,
    /// Offsets of `p_offset`, `p_filesz` in a program header.
    p_offset: u64,
    p_filesz: u64,
    wide: bool,
}

const ELF64: ClassLayout = ClassLayout {
    header_size: ELF64_HEADER_SIZE as u64,
    shdr_size: ELF64_SHDR_SIZE,
    phdr_size: ELF64_PHDR_SIZE,
    sh_type: 4,
    sh_offset: 24,
    sh_size: 32,
    p_offset: 8,
    p_filesz: 32,
    wide: true,
};

const ELF32: ClassLayout = ClassLayout {
    header_size: ELF32_HEADER_SIZE as u64,
    shdr_size: ELF32_SHDR_SIZE,
    phdr_size: ELF32_PHDR_SIZE,
    sh_type: 4,
    sh_offset: 16,
    sh_size: 20,
    p_offset: 4,
    p_filesz: 16,
    wide: false,
};

impl ClassLayout {
    fn word(&self, data: &[u8], offset: u64) -> Option<u64> {
        if self.wide {
            bytes::u64_at(data, offset)
        } else {
            bytes::u32_at(data, offset).map(u64::from)
        }
    }
}

fn table_end(offset: u64, count: u16, entry_size: u16) -> Result<u64> {
    u64::from(count)
        .checked_mul(u64::from(entry_size))
        .ok_or_else(|| status!(OutOfRange, "ELF table size overflow"))?
        .checked_add(offset)
        .ok_or_else(|| status!(OutOfRange, "ELF table extent overflow"))
}

/// The number of bytes the ELF image at the start of `data` occupies: the
/// furthest of its header, program and section header tables, segment file
/// contents and section contents (`SHT_NOBITS` sections occupy no file bytes).
///
/// Works on any little-endian ELF32/ELF64, not only AMDGPU. Unlike IREE's
/// "unknown length" mode nothing is read past `data`: tables that do not fit
/// are `OUT_OF_RANGE`, and so is an image whose contents extend past the end of
/// `data`. Trailing bytes after the image are fine (the size is smaller than
/// `data.len()` then).
pub fn calculate_size(data: &[u8]) -> Result<usize> {
    if !is_elf(data) {
        return Err(status!(
            InvalidArgument,
            "data does not begin with ELF magic"
        ));
    }
    if data.len() < 24 {
        return Err(status!(OutOfRange, "ELF header truncated"));
    }
    if data.get(EI_DATA) != Some(&ELFDATA2LSB) {
        return Err(status!(
            InvalidArgument,
            "only little-endian ELF files are supported"
        ));
    }
    let class = data.get(EI_CLASS).copied().unwrap_or(0);
    let (layout, phoff, phentsize, phnum, shoff, shentsize, shnum) = match class {
        ELFCLASS64 => {
            let header = data
                .get(..ELF64_HEADER_SIZE)
                .and_then(|bytes| gh::header64::Header::parse(bytes).ok())
                .ok_or_else(|| status!(OutOfRange, "64-bit ELF header truncated"))?;
            (
                &ELF64,
                header.e_phoff,
                header.e_phentsize,
                header.e_phnum,
                header.e_shoff,
                header.e_shentsize,
                header.e_shnum,
            )
        }
        ELFCLASS32 => {
            let header = data
                .get(..ELF32_HEADER_SIZE)
                .and_then(|bytes| gh::header32::Header::parse(bytes).ok())
                .ok_or_else(|| status!(OutOfRange, "32-bit ELF header truncated"))?;
            (
                &ELF32,
                u64::from(header.e_phoff),
                header.e_phentsize,
                header.e_phnum,
                u64::from(header.e_shoff),
                header.e_shentsize,
                header.e_shnum,
            )
        }
        other => return Err(status!(InvalidArgument, "unsupported ELF class {other}")),
    };
    let length = data.len() as u64;
    let mut end = layout.header_size;

    if phoff != 0 && phnum != 0 {
        if u64::from(phentsize) < layout.phdr_size {
            return Err(status!(
                InvalidArgument,
                "ELF program header entry too small ({phentsize} < {} bytes)",
                layout.phdr_size
            ));
        }
        let ph_end = table_end(phoff, phnum, phentsize)?;
        if ph_end > length {
            return Err(status!(
                OutOfRange,
                "ELF program header table is truncated (ends at {ph_end}, data is {length} bytes)"
            ));
        }
        end = end.max(ph_end);
        for index in 0..u64::from(phnum) {
            let entry = phoff + index * u64::from(phentsize);
            let offset = layout.word(data, entry + layout.p_offset);
            let filesz = layout.word(data, entry + layout.p_filesz);
            let (Some(offset), Some(filesz)) = (offset, filesz) else {
                return Err(status!(OutOfRange, "ELF program header table is truncated"));
            };
            let segment_end = offset
                .checked_add(filesz)
                .ok_or_else(|| status!(OutOfRange, "ELF segment extent overflow"))?;
            end = end.max(segment_end);
        }
    }

    if shoff != 0 && shnum != 0 {
        if u64::from(shentsize) < layout.shdr_size {
            return Err(status!(
                InvalidArgument,
                "{}-bit ELF section header entry too small ({shentsize} < {} bytes)",
                if layout.wide { 64 } else { 32 },
                layout.shdr_size
            ));
        }
        let sh_end = table_end(shoff, shnum, shentsize)?;
        if sh_end > length {
            return Err(status!(
                OutOfRange,
                "ELF section header table is truncated (ends at {sh_end}, data is {length} bytes)"
            ));
        }
        end = end.max(sh_end);
        for index in 0..u64::from(shnum) {
            let entry = shoff + index * u64::from(shentsize);
            let kind = bytes::u32_at(data, entry + layout.sh_type);
            let offset = layout.word(data, entry + layout.sh_offset);
            let size = layout.word(data, entry + layout.sh_size);
            let (Some(kind), Some(offset), Some(size)) = (kind, offset, size) else {
                return Err(status!(OutOfRange, "ELF section header table is truncated"));
            };
            if kind == SHT_NOBITS {
                continue;
            }
            let section_end = offset
                .checked_add(size)
                .ok_or_else(|| status!(OutOfRange, "ELF section extent overflow"))?;
            end = end.max(section_end);
        }
    }

    if end > length {
        return Err(status!(
            OutOfRange,
            "ELF image extends past the end of the data (needs {end} bytes, have {length})"
        ));
    }
    usize::try_from(end).map_err(|_| status!(OutOfRange, "ELF size exceeds host size range"))
}

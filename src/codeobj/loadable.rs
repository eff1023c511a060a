//! What the HSA runtime loader needs of a code object beyond its identity:
//! a linked (`ET_DYN`) object whose `PT_LOAD` segments can be laid out as
//! one image. ROCr's loader copies each segment to its `p_vaddr` offset
//! without checking, so overlapping segments would silently overwrite each
//! other; these checks run before any backend call instead.

use super::bytes;
use super::elf::{ELF64_PHDR_SIZE, ET_DYN, ET_EXEC, ET_REL, read_amdgpu_header};
use crate::{Result, status};

/// `p_type` of a loadable segment.
const PT_LOAD: u32 = 1;

/// The name of an `e_type`, for messages.
fn e_type_name(e_type: u16) -> &'static str {
    match e_type {
        0 => "ET_NONE",
        ET_REL => "ET_REL",
        ET_EXEC => "ET_EXEC",
        ET_DYN => "ET_DYN",
        4 => "ET_CORE",
        _ => "unknown",
    }
}

/// Checks that `data` is a code object the HSA runtime loader accepts:
///
/// - `e_type` is `ET_DYN` (LLVM's AMDGPUUsage: "The AMD HSA runtime loader
///   requires a `ET_DYN` code object"; `ET_REL` is the compiler's
///   unlinked output, `ET_EXEC` is not an AMDGPU code object type);
/// - it has a `PT_LOAD` segment, each with `p_filesz <= p_memsz`, inside the
///   file, without address overflow, in ascending `p_vaddr` order (the
///   System V gABI's rule for loadable segments) and not overlapping an
///   earlier one in memory (an empty segment overlaps nothing).
///
/// Every failure is `INVALID_ARGUMENT`, except a program header table or
/// segment past the end of `data` (`OUT_OF_RANGE`, as elsewhere).
pub fn check_loadable(data: &[u8]) -> Result<()> {
    let header = read_amdgpu_header(data)?;
    // A truncated file first fails as llvm-readelf reports it.
    super::layout::check_layout(data)?;
    if header.e_type != ET_DYN {
        return Err(status!(
            InvalidArgument,
            "AMDGPU code object e_type {} ({}) is not ET_DYN: the HSA runtime loader requires a linked code object",
            header.e_type,
            e_type_name(header.e_type)
        ));
    }
    let entry_size = u64::from(header.phentsize);
    if header.phnum > 0 && entry_size < ELF64_PHDR_SIZE {
        return Err(status!(
            InvalidArgument,
            "ELF program header entry too small ({entry_size} < {} bytes)",
            ELF64_PHDR_SIZE
        ));
    }
    let truncated = || status!(OutOfRange, "ELF program header table is truncated");
    // The previous PT_LOAD's (index, p_vaddr), and the (index, start, end)
    // of the earlier non-empty segment reaching furthest: with ascending
    // starts, a segment overlaps an earlier one exactly when it starts
    // before that end. An empty segment overlaps nothing.
    let mut previous: Option<(u16, u64)> = None;
    let mut furthest: Option<(u16, u64, u64)> = None;
    for index in 0..header.phnum {
        let entry = u64::from(index)
            .checked_mul(entry_size)
            .and_then(|offset| offset.checked_add(header.phoff))
            .ok_or_else(truncated)?;
        let field = |offset: u64| entry.checked_add(offset).ok_or_else(truncated);
        if bytes::u32_at(data, entry).ok_or_else(truncated)? != PT_LOAD {
            continue;
        }
        let word = |offset: u64| -> Result<u64> {
            bytes::u64_at(data, field(offset)?).ok_or_else(truncated)
        };
        let (offset, vaddr, filesz, memsz) = (word(8)?, word(16)?, word(32)?, word(40)?);
        if filesz > memsz {
            return Err(status!(
                InvalidArgument,
                "PT_LOAD segment (program header {index}) has p_filesz {filesz} > p_memsz {memsz}"
            ));
        }
        if bytes::slice_at(data, offset, filesz).is_none() {
            return Err(status!(
                OutOfRange,
                "PT_LOAD segment (program header {index}) file bytes [{offset}, +{filesz}) lie past the end of the code object ({} bytes)",
                data.len()
            ));
        }
        let end = vaddr.checked_add(memsz).ok_or_else(|| {
            status!(
                InvalidArgument,
                "PT_LOAD segment (program header {index}) address range overflows"
            )
        })?;
        if let Some((before, start)) = previous
            && vaddr < start
        {
            return Err(status!(
                InvalidArgument,
                "PT_LOAD segments are not in ascending p_vaddr order (program header {index} at {vaddr:#x} follows {before} at {start:#x})"
            ));
        }
        if memsz > 0 {
            match furthest {
                Some((before, start, before_end)) if vaddr < before_end => {
                    return Err(status!(
                        InvalidArgument,
                        "PT_LOAD segments overlap in memory (program header {before} [{start:#x}, {before_end:#x}) and {index} [{vaddr:#x}, {end:#x}))"
                    ));
                }
                Some((_, _, before_end)) if end <= before_end => {}
                _ => furthest = Some((index, vaddr, end)),
            }
        }
        previous = Some((index, vaddr));
    }
    if previous.is_none() {
        return Err(status!(
            InvalidArgument,
            "AMDGPU code object has no PT_LOAD segment"
        ));
    }
    Ok(())
}

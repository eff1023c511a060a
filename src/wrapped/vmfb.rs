//! IREE's bytecode module (`.vmfb`) as the file that carries a program's
//! HAL executables: each executable is one of the module's read-only data
//! segments, held in the FlatBuffer or after it. What is read here is what
//! IREE's `iree_vm_bytecode_archive_parse_header` reads (an optional ZIP
//! local file header, the FlatBuffer's size prefix, the segment area after
//! it) and the segments themselves; which segments are executables is told
//! by their bytes (a wrapped header, an ELF), since the module names its
//! executables only in its bytecode.

use amdgpu_hal_schemas::vm::iree::vm as fb;

use super::header::{AMD1_IDENTIFIER, HIP1_IDENTIFIER, has_identifier};
use super::verify::VERIFIER_OPTIONS;
use crate::status;
use crate::status::Result;

/// The identifier of a bytecode module's FlatBuffer.
pub const VMFB_IDENTIFIER: [u8; 4] = *b"IREE";

/// Alignment of the segment area after the FlatBuffer
/// (`IREE_VM_ARCHIVE_SEGMENT_ALIGNMENT`).
pub const SEGMENT_ALIGNMENT: usize = 64;

/// The signature of a ZIP local file header, which a module written as a
/// ZIP-compatible archive starts with.
const ZIP_LOCAL_FILE_SIGNATURE: [u8; 4] = *b"PK\x03\x04";

/// Bytes of a ZIP local file header before its name and extra field.
const ZIP_LOCAL_FILE_HEADER_SIZE: usize = 30;

/// ELF `e_machine` of AMDGPU code objects.
const EM_AMDGPU: u16 = 224;

/// What a read-only data segment that holds an executable is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbeddedKind {
    /// A wrapped AMDGPU executable (`AMD1`).
    Amd1,
    /// A wrapped HIP executable (`HIP1`).
    Hip1,
    /// A raw AMDGPU code object.
    AmdgpuElf,
    /// An ELF for another machine (IREE's CPU executables), by `e_machine`.
    OtherElf(u16),
}

/// One executable a module holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmbeddedExecutable<'a> {
    /// Its index in the module's read-only data segments.
    pub segment: usize,
    /// Where its bytes start in the file.
    pub offset: usize,
    /// Its bytes.
    pub data: &'a [u8],
    /// What it is.
    pub kind: EmbeddedKind,
}

/// A bytecode module: its name, version and the executables it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vmfb<'a> {
    /// The module's name.
    pub name: &'a str,
    /// The bytecode version its compiler wrote.
    pub version: u32,
    /// Its read-only data segments.
    pub segments: usize,
    /// The segments that hold executables, in segment order.
    pub executables: Vec<EmbeddedExecutable<'a>>,
}

/// Whether `data` looks like a bytecode module: a ZIP local file header
/// (IREE writes modules as ZIP-compatible archives) or a size-prefixed
/// FlatBuffer with the `IREE` identifier.
pub fn is_vmfb(data: &[u8]) -> bool {
    has_identifier(data, ZIP_LOCAL_FILE_SIGNATURE) || data.get(8..12) == Some(&VMFB_IDENTIFIER[..])
}

/// Reads a bytecode module and finds the executables among its segments.
/// Every offset and length is checked against the file: a segment outside
/// it, or compressed with a scheme IREE does not define, is
/// `INVALID_ARGUMENT`.
pub fn parse(data: &[u8]) -> Result<Vmfb<'_>> {
    let start = module_start(data)?;
    let module = data.get(start..).unwrap_or_default();
    let Some(prefix) = module.first_chunk::<4>().filter(|_| module.len() >= 16) else {
        return Err(status!(
            InvalidArgument,
            "bytecode module FlatBuffer data is not present or less than 16 bytes ({} total)",
            module.len()
        ));
    };
    let length = u32::from_le_bytes(*prefix) as usize;
    if length > module.len() - 4 {
        return Err(status!(
            InvalidArgument,
            "bytecode module FlatBuffer length prefix out of bounds (prefix is {length} but only {} available)",
            module.len() - 4
        ));
    }
    // Verified with its size prefix: the FlatBuffer's alignment counts
    // from the prefix, as its writer laid it out.
    let prefixed = module.get(..4 + length).unwrap_or_default();
    // Read here rather than by `flatbuffers::buffer_has_identifier`, which
    // asserts that the buffer can hold an identifier.
    if prefixed.get(8..12) != Some(&VMFB_IDENTIFIER[..]) {
        return Err(status!(
            InvalidArgument,
            "bytecode module FlatBuffer identifier is not `IREE`"
        ));
    }
    let def = flatbuffers::size_prefixed_root_with_opts::<fb::BytecodeModuleDef>(
        &VERIFIER_OPTIONS,
        prefixed,
    )
    .map_err(|e| {
        status!(
            InvalidArgument,
            "bytecode module FlatBuffer failed verification: {e}"
        )
    })?;
    // The segment area starts after the FlatBuffer, aligned.
    let rodata = (start + 4 + length).next_multiple_of(SEGMENT_ALIGNMENT);
    let segments = def.rodata_segments();
    let mut executables = Vec::new();
    for (index, segment) in segments.iter().flatten().enumerate() {
        let bytes = segment_bytes(data, rodata, index, &segment)?;
        if let Some(kind) = embedded_kind(bytes) {
            executables.push(EmbeddedExecutable {
                segment: index,
                offset: (bytes.as_ptr() as usize).saturating_sub(data.as_ptr() as usize),
                data: bytes,
                kind,
            });
        }
    }
    Ok(Vmfb {
        name: def.name(),
        version: def.version(),
        segments: segments.map_or(0, |list| list.len()),
        executables,
    })
}

/// Where the module starts: past a ZIP local file header, if any (IREE's
/// rule: the header's fixed part, then its name and extra field).
fn module_start(data: &[u8]) -> Result<usize> {
    if !has_identifier(data, ZIP_LOCAL_FILE_SIGNATURE) {
        return Ok(0);
    }
    let field = |at: usize| usize::from(le_u16(data, at).unwrap_or(0));
    let start = ZIP_LOCAL_FILE_HEADER_SIZE + field(26) + field(28);
    if start > data.len() {
        return Err(status!(
            InvalidArgument,
            "archive self-reports as a zip but does not have enough data to contain a module"
        ));
    }
    Ok(start)
}

/// Segment `index`'s bytes: its embedded data, or its range of the segment
/// area at `rodata`.
fn segment_bytes<'a>(
    data: &'a [u8],
    rodata: usize,
    index: usize,
    segment: &fb::RodataSegmentDef<'a>,
) -> Result<&'a [u8]> {
    if segment.compression_type_type() != fb::CompressionTypeDef::NONE
        && segment
            .compression_type_as_uncompressed_data_def()
            .is_none()
    {
        return Err(status!(
            InvalidArgument,
            "rodata segment {index} uses an unknown compression type {}",
            segment.compression_type_type().0
        ));
    }
    if let Some(embedded) = segment.embedded_data() {
        return Ok(embedded.bytes());
    }
    let (offset, length) = (
        segment.external_data_offset(),
        segment.external_data_length(),
    );
    usize::try_from(offset)
        .ok()
        .and_then(|offset| rodata.checked_add(offset))
        .zip(usize::try_from(length).ok())
        .and_then(|(start, length)| data.get(start..start.checked_add(length)?))
        .ok_or_else(|| {
            status!(
                InvalidArgument,
                "rodata segment {index} external data (offset {offset}, length {length}) lies outside the {}-byte file",
                data.len()
            )
        })
}

/// The little-endian `u16` at `at`, if `data` holds it.
fn le_u16(data: &[u8], at: usize) -> Option<u16> {
    data.get(at..)?
        .first_chunk::<2>()
        .map(|b| u16::from_le_bytes(*b))
}

/// What a segment holding an executable is; `None` for any other data.
fn embedded_kind(bytes: &[u8]) -> Option<EmbeddedKind> {
    if has_identifier(bytes, AMD1_IDENTIFIER) {
        return Some(EmbeddedKind::Amd1);
    }
    if has_identifier(bytes, HIP1_IDENTIFIER) {
        return Some(EmbeddedKind::Hip1);
    }
    if !has_identifier(bytes, *b"\x7fELF") {
        return None;
    }
    // `e_machine`, little-endian (every ELF IREE embeds is).
    let machine = le_u16(bytes, 18)?;
    Some(if machine == EM_AMDGPU {
        EmbeddedKind::AmdgpuElf
    } else {
        EmbeddedKind::OtherElf(machine)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zip_header_is_skipped_with_its_name_and_extra_field() {
        let mut data = vec![0u8; 30];
        data[..4].copy_from_slice(b"PK\x03\x04");
        data[26] = 5;
        data[28] = 3;
        data.extend_from_slice(&[0; 8]);
        assert_eq!(module_start(&data).unwrap(), 38);
        data.truncate(37);
        assert!(module_start(&data).is_err());
        assert_eq!(module_start(b"\x10\0\0\0").unwrap(), 0);
    }

    #[test]
    fn a_size_prefix_too_small_for_an_identifier_is_refused() {
        // The fuzzer's find: 16 bytes or more, a prefix of 5.
        let mut data = vec![0u8; 32];
        data[0] = 5;
        for prefix in [0u8, 5, 7, 8] {
            data[0] = prefix;
            let err = parse(&data).unwrap_err();
            assert!(
                err.to_string().contains("identifier is not `IREE`"),
                "{err}"
            );
        }
    }

    #[test]
    fn executables_are_told_by_their_first_bytes() {
        assert_eq!(embedded_kind(b"AMD1...."), Some(EmbeddedKind::Amd1));
        assert_eq!(embedded_kind(b"HIP1...."), Some(EmbeddedKind::Hip1));
        let mut elf = vec![0u8; 20];
        elf[..4].copy_from_slice(b"\x7fELF");
        elf[18] = 224;
        assert_eq!(embedded_kind(&elf), Some(EmbeddedKind::AmdgpuElf));
        elf[18] = 62;
        assert_eq!(embedded_kind(&elf), Some(EmbeddedKind::OtherElf(62)));
        assert_eq!(embedded_kind(&elf[..19]), None);
        assert_eq!(embedded_kind(b"rocm-hsaco-fb"), None);
    }
}

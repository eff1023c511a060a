//! Decoding the AMDGPU MessagePack metadata map into the model, in one pass.
//!
//! Rules (IREE's, with LLVM's key set): the root is a map with
//! `amdhsa.kernels` (required) and optional `amdhsa.target`/`amdhsa.version`;
//! known keys may appear once (`AMDGPU metadata repeats field`); unknown keys
//! are skipped whatever their type; nothing may follow the root map. Unlike
//! IREE, a kernel without `.args` has no arguments (LLVM omits the key then).

use super::model::{ArgMetadata, CodeObjectMetadata, KernelMetadata, ValueKind, reflection_name};
use super::msgpack::Reader;
use crate::{Result, Status, status};

/// Most kernels one code object may declare.
pub const MAX_KERNEL_COUNT: usize = 1 << 20;
/// Most arguments one kernel may declare.
pub const MAX_ARGS_PER_KERNEL: usize = 1 << 16;

/// Tracks which known keys of one map were seen.
#[derive(Default)]
struct Seen(u64);

impl Seen {
    #[inline(always)]
    fn first(&mut self, bit: u32, key: &[u8]) -> Result<()> {
        let mask = 1u64 << bit;
        if self.0 & mask != 0 {
            return Err(status!(
                InvalidArgument,
                "AMDGPU metadata repeats field `{}`",
                String::from_utf8_lossy(key)
            ));
        }
        self.0 |= mask;
        Ok(())
    }
}

/// The code-object-wide fields of the metadata (what is not a kernel).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MetadataHeader<'a> {
    /// `amdhsa.version`, if present.
    pub version: Option<[u32; 2]>,
    /// `amdhsa.target`, if present.
    pub target: Option<&'a str>,
    /// Kernels in `amdhsa.kernels`.
    pub kernel_count: usize,
}

/// What receives the kernels of a metadata walk ([`super::visit_msgpack`]).
pub trait KernelVisitor<'a> {
    /// The number of kernels the blob declares (at most
    /// [`MAX_KERNEL_COUNT`]; not yet checked against the input's size).
    fn kernel_count(&mut self, _count: usize) {}
    /// One decoded kernel, in order; an error stops the walk.
    fn kernel(&mut self, kernel: KernelMetadata<'a>) -> Result<()>;
}

/// Keeps every kernel, for [`CodeObjectMetadata`].
struct Collect<'a> {
    kernels: Vec<KernelMetadata<'a>>,
    limit: usize,
}

impl<'a> KernelVisitor<'a> for Collect<'a> {
    fn kernel_count(&mut self, count: usize) {
        // A valid kernel map takes well over 64 bytes: reserve no more than
        // the input could hold, whatever the count claims (over several
        // notes, no more than all of them could).
        let room = self.limit.saturating_sub(self.kernels.len());
        self.kernels.reserve_exact(count.min(room));
    }

    fn kernel(&mut self, kernel: KernelMetadata<'a>) -> Result<()> {
        self.kernels.push(kernel);
        Ok(())
    }
}

/// Decodes a whole MessagePack metadata blob.
pub(crate) fn decode(data: &[u8]) -> Result<CodeObjectMetadata<'_>> {
    decode_notes(&[data])
}

/// Decodes the metadata blobs of every note of one code object into one
/// model: their kernels in note order, with [`visit_notes`]'s agreement checks.
pub(crate) fn decode_notes<'a>(notes: &[&'a [u8]]) -> Result<CodeObjectMetadata<'a>> {
    let mut collect = Collect {
        kernels: Vec::new(),
        limit: notes.iter().map(|note| note.len() / 64).sum(),
    };
    let header = visit_notes(notes, &mut collect)?;
    Ok(CodeObjectMetadata::new(
        header.version,
        header.target,
        collect.kernels,
    ))
}

/// Walks the blobs of several metadata notes of one code object as one:
/// the kernels go to `visitor` in note order, and the returned header is the notes' common
/// `amdhsa.version`/`amdhsa.target` with the total kernel count. Notes must
/// agree on both fields (absent in both is agreement): otherwise
/// `INVALID_ARGUMENT` naming the two notes and their values. Errors inside
/// a note are annotated with its number when there are several.
pub(crate) fn visit_notes<'a, V: KernelVisitor<'a> + ?Sized>(
    notes: &[&'a [u8]],
    visitor: &mut V,
) -> Result<MetadataHeader<'a>> {
    let count = notes.len();
    let mut merged: Option<MetadataHeader<'a>> = None;
    for (index, &note) in notes.iter().enumerate() {
        let header = visit(note, visitor).map_err(|error| {
            if count > 1 {
                error.annotate(format!("metadata note {} of {count}", index + 1))
            } else {
                error
            }
        })?;
        merged = Some(match merged {
            None => header,
            Some(first) => merge(first, header, index + 1)?,
        });
    }
    merged.ok_or_else(|| Status::not_found("AMDGPU metadata note not found"))
}

/// The header of notes 1..`note` merged with that of note `note` (1-based).
fn merge<'a>(
    first: MetadataHeader<'a>,
    next: MetadataHeader<'a>,
    note: usize,
) -> Result<MetadataHeader<'a>> {
    let show_version = |version: Option<[u32; 2]>| {
        version.map_or_else(
            || "none".to_owned(),
            |[major, minor]| format!("{major}.{minor}"),
        )
    };
    if first.version != next.version {
        return Err(status!(
            InvalidArgument,
            "AMDGPU metadata notes disagree on `amdhsa.version`: note 1 has {}, note {note} has {}",
            show_version(first.version),
            show_version(next.version)
        ));
    }
    if first.target != next.target {
        return Err(status!(
            InvalidArgument,
            "AMDGPU metadata notes disagree on `amdhsa.target`: note 1 has `{}`, note {note} has `{}`",
            first.target.unwrap_or("none"),
            next.target.unwrap_or("none")
        ));
    }
    let kernel_count = first
        .kernel_count
        .checked_add(next.kernel_count)
        .filter(|&total| total <= MAX_KERNEL_COUNT)
        .ok_or_else(|| {
            status!(
                OutOfRange,
                "AMDGPU metadata notes declare more than the {MAX_KERNEL_COUNT} kernels accepted"
            )
        })?;
    Ok(MetadataHeader {
        kernel_count,
        ..first
    })
}

/// Decodes a metadata blob, handing each kernel to `visitor` as soon as it
/// is decoded instead of keeping them: the same checks and errors as
/// [`decode`], without holding every kernel's arguments at once.
pub(crate) fn visit<'a, V: KernelVisitor<'a> + ?Sized>(
    data: &'a [u8],
    visitor: &mut V,
) -> Result<MetadataHeader<'a>> {
    let mut reader = Reader::new(data);
    let entries = reader.read_map_len().map_err(|error| {
        if error.message().starts_with("expected") {
            Status::invalid_argument("AMDGPU metadata root must be a MessagePack map")
        } else {
            error
        }
    })?;
    let mut seen = Seen::default();
    let mut version = None;
    let mut target = None;
    let mut kernels = None;
    for _ in 0..entries {
        let key = reader.read_str_bytes()?;
        match key {
            b"amdhsa.version" => {
                seen.first(0, key)?;
                version = Some(read_u32_array::<2>(&mut reader, key)?);
            }
            b"amdhsa.target" => {
                seen.first(1, key).map_err(|_| {
                    Status::invalid_argument("AMDGPU metadata repeats `amdhsa.target`")
                })?;
                target = Some(reader.read_str()?);
            }
            b"amdhsa.kernels" => {
                seen.first(2, key).map_err(|_| {
                    Status::invalid_argument("AMDGPU metadata repeats `amdhsa.kernels`")
                })?;
                kernels = Some(read_kernels(&mut reader, visitor)?);
            }
            _ => reader.skip(1)?,
        }
    }
    let Some(kernels) = kernels else {
        return Err(Status::invalid_argument(
            "AMDGPU metadata missing `amdhsa.kernels`",
        ));
    };
    if !reader.is_at_end() {
        return Err(status!(
            InvalidArgument,
            "AMDGPU metadata has trailing MessagePack bytes ({} after the root map)",
            reader.remaining()
        ));
    }
    Ok(MetadataHeader {
        version,
        target,
        kernel_count: kernels,
    })
}

fn read_u32_array<const N: usize>(reader: &mut Reader<'_>, key: &[u8]) -> Result<[u32; N]> {
    let len = reader.read_array_len()?;
    if len != N {
        let key_text = String::from_utf8_lossy(key);
        return Err(
            if key == b".reqd_workgroup_size" || key == b".workgroup_size_hint" {
                status!(
                    InvalidArgument,
                    "AMDGPU workgroup size metadata must have three elements (`{key_text}` has {len})"
                )
            } else {
                status!(
                    InvalidArgument,
                    "AMDGPU metadata `{key_text}` must have {N} elements, not {len}"
                )
            },
        );
    }
    let mut values = [0u32; N];
    for value in &mut values {
        *value = reader.read_u32()?;
    }
    Ok(values)
}

fn read_kernels<'a, V: KernelVisitor<'a> + ?Sized>(
    reader: &mut Reader<'a>,
    visitor: &mut V,
) -> Result<usize> {
    let count = reader.read_array_len()?;
    if count > MAX_KERNEL_COUNT {
        return Err(status!(
            OutOfRange,
            "AMDGPU metadata declares {count} kernels, more than the {MAX_KERNEL_COUNT} accepted"
        ));
    }
    visitor.kernel_count(count);
    for index in 0..count {
        let kernel =
            read_kernel(reader).map_err(|error| error.annotate(format!("kernel {index}")))?;
        visitor.kernel(kernel)?;
    }
    Ok(count)
}

/// The spellings LLVM's AMDGPUUsage gives `.language`.
fn known_language(bytes: &[u8]) -> Option<&'static str> {
    Some(match bytes {
        b"OpenCL C" => "OpenCL C",
        b"OpenCL C++" => "OpenCL C++",
        b"HCC" => "HCC",
        b"HIP" => "HIP",
        b"OpenMP" => "OpenMP",
        b"Assembler" => "Assembler",
        _ => return None,
    })
}

/// The `.value_kind`s of AMDGPUUsage's code object V3+ argument table.
fn known_value_kind(bytes: &[u8]) -> Option<&'static str> {
    Some(match bytes {
        b"by_value" => "by_value",
        b"global_buffer" => "global_buffer",
        b"dynamic_shared_pointer" => "dynamic_shared_pointer",
        b"sampler" => "sampler",
        b"image" => "image",
        b"pipe" => "pipe",
        b"queue" => "queue",
        b"hidden_global_offset_x" => "hidden_global_offset_x",
        b"hidden_global_offset_y" => "hidden_global_offset_y",
        b"hidden_global_offset_z" => "hidden_global_offset_z",
        b"hidden_none" => "hidden_none",
        b"hidden_printf_buffer" => "hidden_printf_buffer",
        b"hidden_hostcall_buffer" => "hidden_hostcall_buffer",
        b"hidden_default_queue" => "hidden_default_queue",
        b"hidden_completion_action" => "hidden_completion_action",
        b"hidden_multigrid_sync_arg" => "hidden_multigrid_sync_arg",
        b"hidden_heap_v1" => "hidden_heap_v1",
        b"hidden_block_count_x" => "hidden_block_count_x",
        b"hidden_block_count_y" => "hidden_block_count_y",
        b"hidden_block_count_z" => "hidden_block_count_z",
        b"hidden_group_size_x" => "hidden_group_size_x",
        b"hidden_group_size_y" => "hidden_group_size_y",
        b"hidden_group_size_z" => "hidden_group_size_z",
        b"hidden_remainder_x" => "hidden_remainder_x",
        b"hidden_remainder_y" => "hidden_remainder_y",
        b"hidden_remainder_z" => "hidden_remainder_z",
        b"hidden_grid_dims" => "hidden_grid_dims",
        b"hidden_private_base" => "hidden_private_base",
        b"hidden_shared_base" => "hidden_shared_base",
        b"hidden_queue_ptr" => "hidden_queue_ptr",
        b"hidden_dynamic_lds_size" => "hidden_dynamic_lds_size",
        _ => return None,
    })
}

/// AMDGPUUsage's `.address_space` values.
fn known_address_space(bytes: &[u8]) -> Option<&'static str> {
    Some(match bytes {
        b"private" => "private",
        b"global" => "global",
        b"constant" => "constant",
        b"local" => "local",
        b"generic" => "generic",
        b"region" => "region",
        _ => return None,
    })
}

/// AMDGPUUsage's `.access` and `.actual_access` values.
fn known_access(bytes: &[u8]) -> Option<&'static str> {
    Some(match bytes {
        b"read_only" => "read_only",
        b"write_only" => "write_only",
        b"read_write" => "read_write",
        _ => return None,
    })
}

fn read_kernel<'a>(reader: &mut Reader<'a>) -> Result<KernelMetadata<'a>> {
    let entries = reader.read_map_len()?;
    let mut seen = Seen::default();
    let mut name = None;
    let mut symbol = None;
    let mut language = None;
    let (mut kernarg_size, mut kernarg_align, mut group, mut private) = (None, None, None, None);
    let mut counts = [None; 7];
    let (mut reqd, mut hint, mut dynamic_stack) = (None, None, None);
    let mut args = Vec::new();
    for _ in 0..entries {
        let key = reader.read_str_bytes()?;
        let slot = match key {
            b".name" => 0,
            b".symbol" => 1,
            b".language" => 2,
            b".kernarg_segment_size" => 3,
            b".kernarg_segment_align" => 4,
            b".group_segment_fixed_size" => 5,
            b".private_segment_fixed_size" => 6,
            b".reqd_workgroup_size" => 7,
            b".workgroup_size_hint" => 8,
            b".uses_dynamic_stack" => 9,
            b".args" => 10,
            b".wavefront_size" => 11,
            b".sgpr_count" => 12,
            b".vgpr_count" => 13,
            b".agpr_count" => 14,
            b".sgpr_spill_count" => 15,
            b".vgpr_spill_count" => 16,
            b".max_flat_workgroup_size" => 17,
            _ => {
                reader.skip(2)?;
                continue;
            }
        };
        if slot == 10 {
            seen.first(slot, key)
                .map_err(|_| Status::invalid_argument("AMDGPU kernel metadata repeats `.args`"))?;
        } else {
            seen.first(slot, key)?;
        }
        match slot {
            0 => name = Some(reader.read_str()?),
            1 => symbol = Some(reader.read_str()?),
            2 => language = Some(reader.read_name(known_language)?),
            3 => kernarg_size = Some(reader.read_u32()?),
            4 => kernarg_align = Some(reader.read_u32()?),
            5 => group = Some(reader.read_u32()?),
            6 => private = Some(reader.read_u32()?),
            7 => reqd = Some(read_u32_array::<3>(reader, key)?),
            8 => hint = Some(read_u32_array::<3>(reader, key)?),
            9 => dynamic_stack = Some(reader.read_bool()?),
            10 => args = read_args(reader)?,
            _ => {
                if let Some(count) = counts.get_mut(slot as usize - 11) {
                    *count = Some(reader.read_u32()?);
                }
            }
        }
    }
    let (
        Some(symbol),
        Some(kernarg_segment_size),
        Some(kernarg_segment_align),
        Some(group),
        Some(private),
    ) = (symbol, kernarg_size, kernarg_align, group, private)
    else {
        return Err(Status::invalid_argument(
            "AMDGPU kernel metadata missing required fields (`.symbol`, `.kernarg_segment_size`, \
             `.kernarg_segment_align`, `.group_segment_fixed_size`, `.private_segment_fixed_size`)",
        ));
    };
    if !kernarg_segment_align.is_power_of_two() {
        return Err(status!(
            InvalidArgument,
            "AMDGPU kernel kernarg alignment must be a power of two (`{symbol}` has {kernarg_segment_align})"
        ));
    }
    let reflection_name = reflection_name(name, symbol);
    check_arg_layout(reflection_name, kernarg_segment_size, &args)?;
    let [
        wavefront_size,
        sgpr_count,
        vgpr_count,
        agpr_count,
        sgpr_spill_count,
        vgpr_spill_count,
        max_flat_workgroup_size,
    ] = counts;
    // LLVM's AMDGPUUsage: `.wavefront_size` "must be a power of 2" (0 is not).
    if let Some(size) = wavefront_size
        && !size.is_power_of_two()
    {
        return Err(status!(
            InvalidArgument,
            "AMDGPU kernel wavefront size must be a power of two (`{symbol}` has {size})"
        ));
    }
    Ok(KernelMetadata {
        name,
        symbol,
        reflection_name,
        language,
        kernarg_segment_size,
        kernarg_segment_align,
        group_segment_fixed_size: group,
        private_segment_fixed_size: private,
        wavefront_size,
        sgpr_count,
        vgpr_count,
        agpr_count,
        sgpr_spill_count,
        vgpr_spill_count,
        max_flat_workgroup_size,
        reqd_workgroup_size: reqd,
        workgroup_size_hint: hint,
        uses_dynamic_stack: dynamic_stack,
        args,
    })
}

/// Each argument lies inside the kernarg segment, after the previous one.
fn check_arg_layout(kernel: &str, kernarg_size: u32, args: &[ArgMetadata<'_>]) -> Result<()> {
    let mut previous_end = 0u64;
    for (index, arg) in args.iter().enumerate() {
        let start = u64::from(arg.offset);
        let end = start + u64::from(arg.size);
        if end > u64::from(kernarg_size) {
            return Err(status!(
                InvalidArgument,
                "AMDGPU kernel `{kernel}` argument {index} exceeds kernarg segment size {kernarg_size} \
                 (offset {} + size {})",
                arg.offset,
                arg.size
            ));
        }
        if start < previous_end {
            return Err(status!(
                InvalidArgument,
                "AMDGPU kernel `{kernel}` argument {index} overlaps a previous argument or is not \
                 sorted by offset"
            ));
        }
        previous_end = end;
    }
    Ok(())
}

fn read_args<'a>(reader: &mut Reader<'a>) -> Result<Vec<ArgMetadata<'a>>> {
    let count = reader.read_array_len()?;
    if count > MAX_ARGS_PER_KERNEL {
        return Err(status!(
            OutOfRange,
            "AMDGPU kernel declares {count} arguments, more than the {MAX_ARGS_PER_KERNEL} accepted"
        ));
    }
    let mut args = Vec::with_capacity(count.min(reader.remaining() / 16));
    for index in 0..count {
        let arg = read_arg(reader).map_err(|error| error.annotate(format!("argument {index}")))?;
        args.push(arg);
    }
    Ok(args)
}

fn read_arg<'a>(reader: &mut Reader<'a>) -> Result<ArgMetadata<'a>> {
    let entries = reader.read_map_len()?;
    let mut seen = Seen::default();
    let (mut name, mut type_name, mut offset, mut size) = (None, None, None, None);
    let (mut alignment, mut pointee_align, mut value_kind) = (None, None, None);
    let (mut address_space, mut access, mut actual_access) = (None, None, None);
    for _ in 0..entries {
        let key = reader.read_str_bytes()?;
        match key {
            b".name" => {
                seen.first(0, key)?;
                name = Some(reader.read_str()?);
            }
            b".type_name" => {
                seen.first(1, key)?;
                type_name = Some(reader.read_str()?);
            }
            b".offset" => {
                seen.first(2, key)?;
                offset = Some(reader.read_u32()?);
            }
            b".size" => {
                seen.first(3, key)?;
                size = Some(reader.read_u32()?);
            }
            // IREE treats both spellings as one field.
            b".align" | b".alignment" => {
                seen.first(4, key)?;
                alignment = Some(reader.read_u32()?);
            }
            b".pointee_align" => {
                seen.first(5, key)?;
                pointee_align = Some(reader.read_u32()?);
            }
            b".value_kind" => {
                seen.first(6, key)?;
                value_kind = Some(reader.read_name(known_value_kind)?);
            }
            b".address_space" => {
                seen.first(7, key)?;
                address_space = Some(reader.read_name(known_address_space)?);
            }
            b".access" => {
                seen.first(8, key)?;
                access = Some(reader.read_name(known_access)?);
            }
            b".actual_access" => {
                seen.first(9, key)?;
                actual_access = Some(reader.read_name(known_access)?);
            }
            _ => reader.skip(3)?,
        }
    }
    let (Some(offset), Some(size), Some(value_kind)) = (offset, size, value_kind) else {
        return Err(Status::invalid_argument(
            "AMDGPU kernel argument metadata missing required offset, size, or value_kind",
        ));
    };
    let alignment = alignment.unwrap_or(0);
    if alignment != 0 && !alignment.is_power_of_two() {
        return Err(status!(
            InvalidArgument,
            "AMDGPU kernel argument alignment must be a power of two (got {alignment})"
        ));
    }
    if alignment != 0 && offset % alignment != 0 {
        return Err(status!(
            InvalidArgument,
            "AMDGPU kernel argument offset is not aligned (offset {offset}, alignment {alignment})"
        ));
    }
    Ok(ArgMetadata {
        name,
        type_name,
        offset,
        size,
        alignment,
        pointee_align,
        kind: ValueKind::classify(value_kind),
        value_kind,
        address_space,
        access: actual_access.or(access),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every known name is its own spelling (a misspelt entry would read
    /// an input's name as another), and near misses are not known.
    #[test]
    fn known_names_are_their_own_spelling() {
        type Known = fn(&[u8]) -> Option<&'static str>;
        let tables: [(Known, &[&str]); 4] = [
            (
                known_language,
                &[
                    "OpenCL C",
                    "OpenCL C++",
                    "HCC",
                    "HIP",
                    "OpenMP",
                    "Assembler",
                ],
            ),
            (
                known_value_kind,
                &[
                    "by_value",
                    "global_buffer",
                    "dynamic_shared_pointer",
                    "hidden_none",
                    "hidden_block_count_x",
                    "hidden_dynamic_lds_size",
                    "hidden_multigrid_sync_arg",
                ],
            ),
            (
                known_address_space,
                &[
                    "private", "global", "constant", "local", "generic", "region",
                ],
            ),
            (known_access, &["read_only", "write_only", "read_write"]),
        ];
        for (known, names) in tables {
            for name in names {
                assert_eq!(known(name.as_bytes()), Some(*name));
                assert_eq!(known(&name.as_bytes()[1..]), None);
                assert_eq!(known(format!("{name} ").as_bytes()), None);
            }
        }
    }
}

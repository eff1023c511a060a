//! Code-object metadata: the MessagePack `NT_AMDGPU_METADATA` note decoded
//! into kernels and arguments (borrowing strings from the input), kernel
//! lookup by symbol, and IREE's export-parameter projection.

mod decode;
mod export;
mod model;
mod msgpack;
mod unique;

pub use decode::{KernelVisitor, MAX_ARGS_PER_KERNEL, MAX_KERNEL_COUNT, MetadataHeader};
pub use export::{
    ExportParameter, ExportParameterRequirements, ExportParameters, MAX_PARAMETER_COUNT,
    MAX_PARAMETER_SIZE, ParameterType,
};
pub use model::{ArgMetadata, CodeObjectMetadata, KernelMetadata, ValueKind, reflection_name};
pub use msgpack::{MAX_NESTING_DEPTH, MAX_STRING_LENGTH};
pub use unique::KernelNames;

use crate::Result;

impl<'a> CodeObjectMetadata<'a> {
    /// Decodes the metadata of a code object: finds its AMDGPU metadata note
    /// ([`crate::codeobj::notes::find_metadata_note`]) and decodes it.
    pub fn from_elf(elf: &'a [u8]) -> Result<CodeObjectMetadata<'a>> {
        let note = crate::codeobj::notes::find_metadata_note(elf)?;
        CodeObjectMetadata::from_msgpack(note)
    }

    /// Decodes a MessagePack metadata blob (the note descriptor).
    pub fn from_msgpack(data: &'a [u8]) -> Result<CodeObjectMetadata<'a>> {
        decode::decode(data)
    }
}

/// Decodes a MessagePack metadata blob kernel by kernel: `visitor` hears how
/// many kernels the blob declares, then gets each one as soon as it is
/// decoded, and is the only holder of it. The checks and errors are
/// [`CodeObjectMetadata::from_msgpack`]'s; what is gained is memory — no
/// list of every kernel with its arguments — for callers that need each
/// kernel once. An error from the visitor stops the walk and is returned.
pub fn visit_msgpack<'a>(
    data: &'a [u8],
    visitor: &mut dyn KernelVisitor<'a>,
) -> Result<MetadataHeader<'a>> {
    decode::visit(data, visitor)
}

//! Code-object metadata: the MessagePack `NT_AMDGPU_METADATA` note decoded
//! into kernels and arguments (borrowing strings from the input), kernel
//! lookup by symbol, and IREE's export-parameter projection.

mod decode;
mod export;
mod model;
mod msgpack;
mod prehashed;
mod unique;

pub use decode::{KernelVisitor, MAX_ARGS_PER_KERNEL, MAX_KERNEL_COUNT, MetadataHeader};
pub use export::{
    ExportParameter, ExportParameterRequirements, ExportParameters, MAX_PARAMETER_COUNT,
    MAX_PARAMETER_SIZE, ParameterType, projection_refusal,
};
pub use model::{
    ArgMetadata, CodeObjectMetadata, KernelMetadata, SymbolIndex, ValueKind, reflection_name,
};
pub use msgpack::{MAX_NESTING_DEPTH, MAX_STRING_LENGTH};
pub use unique::KernelNames;

use crate::Result;

impl<'a> CodeObjectMetadata<'a> {
    /// Decodes the metadata of a code object: finds every AMDGPU metadata
    /// note ([`crate::codeobj::notes::find_metadata_notes`]; one per linked
    /// translation unit) and decodes them into one model, their kernels in
    /// note order. The notes must agree on `amdhsa.version` and
    /// `amdhsa.target` (`INVALID_ARGUMENT` naming both values otherwise).
    pub fn from_elf(elf: &'a [u8]) -> Result<CodeObjectMetadata<'a>> {
        let notes = crate::codeobj::notes::find_metadata_notes(elf)?;
        decode::decode_notes(&notes)
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

/// [`visit_msgpack`] over every metadata note of a code object
/// ([`crate::codeobj::notes::find_metadata_notes`]), in note order, with
/// [`CodeObjectMetadata::from_elf`]'s checks: the header returned is the
/// notes' common version and target and their total kernel count.
pub fn visit_elf<'a>(
    elf: &'a [u8],
    visitor: &mut dyn KernelVisitor<'a>,
) -> Result<MetadataHeader<'a>> {
    let notes = crate::codeobj::notes::find_metadata_notes(elf)?;
    visit_notes(&notes, visitor)
}

/// [`visit_elf`] over notes already found
/// ([`crate::codeobj::notes::find_metadata_notes`]), in the order given.
pub fn visit_notes<'a>(
    notes: &[&'a [u8]],
    visitor: &mut dyn KernelVisitor<'a>,
) -> Result<MetadataHeader<'a>> {
    decode::visit_notes(notes, visitor)
}

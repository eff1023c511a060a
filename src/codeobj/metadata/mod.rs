//! Code-object metadata: the MessagePack `NT_AMDGPU_METADATA` note decoded
//! into kernels and arguments (borrowing strings from the input), kernel
//! lookup by symbol, and IREE's export-parameter projection.

mod decode;
mod export;
mod model;
mod msgpack;

pub use decode::{MAX_ARGS_PER_KERNEL, MAX_KERNEL_COUNT};
pub use export::{
    ExportParameter, ExportParameterRequirements, ExportParameters, MAX_PARAMETER_COUNT,
    MAX_PARAMETER_SIZE, ParameterType,
};
pub use model::{ArgMetadata, CodeObjectMetadata, KernelMetadata, ValueKind, reflection_name};
pub use msgpack::{MAX_NESTING_DEPTH, MAX_STRING_LENGTH};

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

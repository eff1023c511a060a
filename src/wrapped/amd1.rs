//! A wrapped AMDGPU executable (`AMD1`): the header plus a structurally
//! verified `iree.hal.amdgpu.ExecutableDef`, borrowed from the input bytes.

use amdgpu_hal_schemas::amdgpu::iree::hal::amdgpu as fb;

use super::header::{AMD1_IDENTIFIER, DataExtent, ExecutableHeader, read_header};
use super::verify::{DeviceLimits, single_module_image, verify_semantics, verify_structure};
use crate::status::Result;

/// A structurally verified `AMD1` executable.
#[derive(Clone, Copy)]
pub struct Amd1Executable<'a> {
    /// The 64-byte header.
    pub header: ExecutableHeader,
    /// The FlatBuffer (the header's content).
    pub flatbuffer: &'a [u8],
    /// The verified root table.
    pub def: fb::ExecutableDef<'a>,
}

impl<'a> Amd1Executable<'a> {
    /// Reads the header and verifies the FlatBuffer's structure.
    pub fn parse(data: &'a [u8], extent: DataExtent) -> Result<Amd1Executable<'a>> {
        let (header, flatbuffer) = read_header(data, AMD1_IDENTIFIER, extent)?;
        let def = verify_structure(flatbuffer)?;
        Ok(Amd1Executable {
            header,
            flatbuffer,
            def,
        })
    }

    /// IREE's semantic rules against `limits` (see [`verify_semantics`]).
    pub fn verify(&self, limits: &DeviceLimits) -> Result<()> {
        verify_semantics(&self.def, limits)
    }

    /// The image of the single module (see [`single_module_image`]).
    pub fn single_module_image(&self) -> Result<&'a [u8]> {
        single_module_image(&self.def)
    }

    /// Header plus content: the bytes this executable occupies.
    pub fn size(&self) -> u64 {
        self.header.total_size()
    }
}

//! IREE's `infer_format` for the AMDGPU driver: is the data a wrapped `AMD1`
//! executable or a raw HSACO, which target ID was its code object built for
//! (from the ELF `e_flags`, never the FlatBuffer's `isa` field), and how many
//! bytes does it occupy.

use super::amd1::Amd1Executable;
use super::header::{AMD1_IDENTIFIER, DataExtent, HIP1_IDENTIFIER, has_identifier};
use super::offload_bundle;
use crate::codeobj::TargetId;
use crate::codeobj::elf;
use crate::status;
use crate::status::{Result, ResultExt};

/// What kind of container the bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Container {
    /// IREE's wrapped AMDGPU executable (`AMD1` header + FlatBuffer).
    Amd1,
    /// IREE's wrapped HIP executable (`HIP1` header + FlatBuffer).
    Hip1,
    /// A raw HSACO (an AMDGPU ELF code object).
    Elf,
}

/// The result of [`infer_format`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InferredFormat {
    /// Wrapped or raw.
    pub container: Container,
    /// The code object's target ID.
    pub target: TargetId,
    /// The target ID formatted as IREE does (`gfx942:sramecc+:xnack-`): the
    /// executable format string.
    pub format: String,
    /// Bytes the executable occupies: header + content for a wrapped one; for
    /// a raw HSACO the slice length ([`DataExtent::Known`], as IREE) or the ELF's
    /// own extent ([`DataExtent::Infer`]).
    pub size: usize,
}

/// Checks that `image` is an AMDGPU ELF and returns its target ID; an
/// offload bundle (SPIR-V) gets an error saying so.
pub fn code_object_target(image: &[u8]) -> Result<TargetId> {
    if offload_bundle::is_offload_bundle(image) {
        return Err(offload_bundle::not_an_elf_error(image));
    }
    elf::target_id_from_elf(image)
}

/// Infers the format and size of an AMDGPU executable (IREE's
/// `iree_hal_amdgpu_executable_infer_format`).
///
/// Wrapped (first four bytes `AMD1`): the header is read, the FlatBuffer
/// verified structurally, the single module taken (IREE's errors for zero or
/// several modules and an empty image) and its ELF target decoded.
/// A wrapped HIP executable (`HIP1`) is refused with a message saying so
/// (IREE would fail on its missing ELF magic). Anything else is taken as a
/// raw HSACO.
pub fn infer_format(data: &[u8], extent: DataExtent) -> Result<InferredFormat> {
    if has_identifier(data, HIP1_IDENTIFIER) {
        return Err(status!(
            InvalidArgument,
            "executable is a wrapped HIP executable (`HIP1`); the AMDGPU driver loads `AMD1` executables or raw HSACO code objects"
        ));
    }
    if has_identifier(data, AMD1_IDENTIFIER) {
        let exe = Amd1Executable::parse(data, extent)?;
        let image = exe.single_module_image()?;
        let target = code_object_target(image).annotate("reading the module's code object")?;
        let size = usize::try_from(exe.size())
            .map_err(|_| status!(OutOfRange, "executable size does not fit in memory"))?;
        return Ok(InferredFormat {
            container: Container::Amd1,
            format: target.to_string(),
            target,
            size,
        });
    }
    let size = match extent {
        DataExtent::Known => data.len(),
        DataExtent::Infer => {
            elf::calculate_size(data).annotate("calculating raw HSACO ELF size")?
        }
    };
    let hsaco = data.get(..size).unwrap_or(data);
    let target = code_object_target(hsaco)?;
    Ok(InferredFormat {
        container: Container::Elf,
        format: target.to_string(),
        target,
        size,
    })
}

/// The target ID (as IREE formats it) of the code object an executable
/// holds: an `AMD1`'s module, a `HIP1`'s first module, or a raw HSACO.
pub fn embedded_target(data: &[u8]) -> Result<String> {
    if has_identifier(data, HIP1_IDENTIFIER) {
        let exe = super::hip::Hip1Executable::parse(data, DataExtent::Known)?;
        let Some(image) = exe.module_images().first().copied() else {
            return Err(status!(
                InvalidArgument,
                "HIP executable declares no modules"
            ));
        };
        return Ok(code_object_target(image)?.to_string());
    }
    if has_identifier(data, AMD1_IDENTIFIER) {
        let exe = Amd1Executable::parse(data, DataExtent::Known)?;
        return Ok(code_object_target(exe.single_module_image()?)?.to_string());
    }
    Ok(code_object_target(data)?.to_string())
}

/// Whether `data` begins with the magic number of something an executable
/// file can be: a wrapped header (`AMD1`, `HIP1`), an ELF, a clang offload
/// bundle (refused later, with its own message) or a bytecode module. Bytes
/// too few to hold a magic number count when they begin one: the
/// container's own reader then says they are truncated.
pub fn has_known_magic(data: &[u8]) -> bool {
    let begins = |magic: &[u8]| {
        let n = data.len().min(magic.len());
        data.get(..n) == magic.get(..n)
    };
    [&AMD1_IDENTIFIER[..], &HIP1_IDENTIFIER, b"\x7fELF"]
        .into_iter()
        .any(begins)
        || offload_bundle::is_offload_bundle(data)
        || super::vmfb::is_vmfb(data)
}

//! Verification of wrapped AMDGPU executables: the FlatBuffer structure (the
//! `flatbuffers` verifier with named limits, the in-buffer identifier and the
//! NUL after each image string) and then IREE's semantic rules against the
//! device limits.

use amdgpu_hal_schemas::amdgpu::iree::hal::amdgpu as fb;
use flatbuffers::{Vector, VerifierOptions};

use crate::status;
use crate::status::{Result, ResultExt, Status, StatusCode};

/// Deepest table nesting accepted. The schemas nest at most five tables
/// (executable, export, debug export, stage location, file location).
pub const MAX_TABLE_DEPTH: usize = 16;

/// Most tables accepted in one executable (exports, modules, debug tables).
pub const MAX_TABLE_COUNT: usize = 1 << 20;

/// Largest "apparent" size (the FlatBuffer DAG expanded into a tree) accepted:
/// bounds the verifier's work on buffers whose offsets share data.
pub const MAX_APPARENT_SIZE: usize = 1 << 30;

/// The verifier options used for every wrapped executable.
pub const VERIFIER_OPTIONS: VerifierOptions = VerifierOptions {
    max_depth: MAX_TABLE_DEPTH,
    max_tables: MAX_TABLE_COUNT,
    max_apparent_size: MAX_APPARENT_SIZE,
    ignore_missing_null_terminator: false,
};

/// Most bindings an export may declare (`IREE_HAL_AMDGPU_MAX_DISPATCH_BINDING_COUNT`).
pub const MAX_DISPATCH_BINDING_COUNT: usize = u16::MAX as usize;

/// Most 32-bit constants an export may declare (`IREE_HAL_AMDGPU_MAX_DISPATCH_CONSTANT_COUNT`).
pub const MAX_DISPATCH_CONSTANT_COUNT: u32 = u16::MAX as u32;

/// The device limits an executable is checked against (what HSA reports as
/// `HSA_ISA_INFO_WORKGROUP_MAX_SIZE` and `HSA_ISA_INFO_WORKGROUP_MAX_DIM`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceLimits {
    /// Most work items in one workgroup (`x * y * z`).
    pub max_workgroup_size: u32,
    /// Most work items along each dimension.
    pub max_workgroup_size_per_dim: [u16; 3],
}

impl DeviceLimits {
    /// What HSA reports for every current AMD GPU: 1024 in total and per dimension.
    pub const AMDGPU: DeviceLimits = DeviceLimits {
        max_workgroup_size: 1024,
        max_workgroup_size_per_dim: [1024, 1024, 1024],
    };
}

/// Maps a `flatbuffers` verifier error to IREE's message.
pub(crate) fn verification_failed(error: impl std::fmt::Display) -> Status {
    status!(InvalidArgument, "flatbuffer verification failed: {error}")
}

/// Checks the file identifier at bytes 4..8 of a FlatBuffer, as flatcc's
/// `verify_as_root` does.
pub(crate) fn check_buffer_identifier(flatbuffer: &[u8], identifier: [u8; 4]) -> Result<()> {
    match flatbuffer.get(4..8) {
        Some(found) if found == identifier => Ok(()),
        Some(_) => Err(verification_failed("identifier mismatch")),
        None => Err(verification_failed("buffer header too small")),
    }
}

/// Checks that the byte vector `image` (read as `[ubyte]`, declared `string`)
/// is followed by the NUL every FlatBuffers string has: IREE's flatcc verifier
/// rejects a missing one.
pub(crate) fn check_string_terminator(flatbuffer: &[u8], image: &Vector<'_, u8>) -> Result<()> {
    let bytes = image.bytes();
    // `bytes` borrows from `flatbuffer`: its distance from the start is its offset.
    let offset = (bytes.as_ptr() as usize).wrapping_sub(flatbuffer.as_ptr() as usize);
    match offset
        .checked_add(bytes.len())
        .and_then(|end| flatbuffer.get(end))
    {
        Some(0) => Ok(()),
        _ => Err(verification_failed("string not zero terminated")),
    }
}

/// Structural verification of an `AMD1` FlatBuffer (the bytes after the
/// 64-byte header): identifier, the `flatbuffers` verifier with
/// [`VERIFIER_OPTIONS`], and the image strings' terminators. On success the
/// returned table can be walked without further bounds checks.
pub fn verify_structure(flatbuffer: &[u8]) -> Result<fb::ExecutableDef<'_>> {
    check_buffer_identifier(flatbuffer, super::header::AMD1_IDENTIFIER)?;
    let def = fb::root_as_executable_def_with_opts(&VERIFIER_OPTIONS, flatbuffer)
        .map_err(verification_failed)?;
    for module in def.modules().iter().flatten() {
        if let Some(image) = module.image() {
            check_string_terminator(flatbuffer, &image)?;
        }
    }
    Ok(def)
}

/// IREE's semantic rules for a structurally verified executable
/// (`iree_hal_amdgpu_executable_flatbuffer_verify`), each with IREE's message
/// and `INVALID_ARGUMENT`. In addition to IREE, a workgroup size with a zero
/// dimension is rejected (it can never be dispatched).
pub fn verify_semantics(def: &fb::ExecutableDef<'_>, limits: &DeviceLimits) -> Result<()> {
    for (i, module) in def.modules().iter().flatten().enumerate() {
        if module.image().is_none_or(|image| image.is_empty()) {
            return Err(status!(InvalidArgument, "modules[{i}] contents are empty"));
        }
    }
    for (i, export) in def.exports().iter().flatten().enumerate() {
        if export.symbol_name().is_none_or(str::is_empty) {
            return Err(status!(InvalidArgument, "exports[{i}] name is empty"));
        }
        let Some(size) = export.workgroup_size() else {
            return Err(status!(
                InvalidArgument,
                "exports[{i}] workgroup size dims are missing"
            ));
        };
        check_workgroup_size(i, [size.x(), size.y(), size.z()], limits)?;
        let binding_count = export.binding_flags().map_or(0, |flags| flags.len());
        check_dispatch_counts(i, export.constant_count(), binding_count)?;
        if let Some(debug) = export.debug_info() {
            amdgpu_debug::verify_export(&debug)
                .annotate_with(|| format!("verifying exports[{i}] debug_info"))?;
        }
    }
    Ok(())
}

/// Checks export `i`'s declared constant and binding counts against the
/// HAL's dispatch limits (both containers declare them alike).
pub(crate) fn check_dispatch_counts(i: usize, constants: u32, bindings: usize) -> Result<()> {
    if constants > MAX_DISPATCH_CONSTANT_COUNT {
        return Err(status!(
            InvalidArgument,
            "exports[{i}] constant_count {constants} exceeds maximum of {MAX_DISPATCH_CONSTANT_COUNT}"
        ));
    }
    if bindings > MAX_DISPATCH_BINDING_COUNT {
        return Err(status!(
            InvalidArgument,
            "exports[{i}] binding_flags count {bindings} exceeds maximum of {MAX_DISPATCH_BINDING_COUNT}"
        ));
    }
    Ok(())
}

/// Checks one export's workgroup size against the limits.
pub(crate) fn check_workgroup_size(i: usize, size: [u32; 3], limits: &DeviceLimits) -> Result<()> {
    let [x, y, z] = size;
    let [mx, my, mz] = limits.max_workgroup_size_per_dim;
    if x > u32::from(mx) || y > u32::from(my) || z > u32::from(mz) {
        return Err(status!(
            InvalidArgument,
            "exports[{i}] workgroup size dims {x}x{y}x{z} exceeds device maximum {mx}x{my}x{mz}"
        ));
    }
    let total = u64::from(x) * u64::from(y) * u64::from(z);
    if total > u64::from(limits.max_workgroup_size) {
        return Err(status!(
            InvalidArgument,
            "exports[{i}] workgroup size total {total} exceeds device maximum {}",
            limits.max_workgroup_size
        ));
    }
    if total == 0 {
        return Err(status!(
            InvalidArgument,
            "exports[{i}] workgroup size {x}x{y}x{z} has a zero dimension"
        ));
    }
    Ok(())
}

/// IREE's `iree_hal_debug_verify_export_def` for one generated debug module.
macro_rules! debug_export_verifier {
    ($name:ident, $debug:path) => {
        pub(crate) mod $name {
            use $debug as debug;

            use crate::status::{Result, ResultExt, Status, StatusCode};

            fn non_empty(field: &str, value: Option<&str>) -> Result<()> {
                if value.is_none_or(str::is_empty) {
                    return Err(Status::new(
                        StatusCode::InvalidArgument,
                        format!(
                            "expected debug info field `{field}` to contain a non-empty string value"
                        ),
                    ));
                }
                Ok(())
            }

            fn verify_location(location: Option<debug::FileLineLocDef<'_>>) -> Result<()> {
                match location {
                    Some(location) => non_empty("filename", location.filename()),
                    None => Ok(()),
                }
            }

            /// Verifies one export's debug info.
            pub(crate) fn verify_export(export: &debug::ExportDef<'_>) -> Result<()> {
                verify_location(export.location())?;
                for (i, stage) in export.stage_locations().iter().flatten().enumerate() {
                    non_empty("stage", stage.stage())
                        .and_then(|()| verify_location(stage.location()))
                        .annotate_with(|| format!("verifying stage_locations[{i}]"))?;
                }
                Ok(())
            }
        }
    };
}

debug_export_verifier!(amdgpu_debug, amdgpu_hal_schemas::amdgpu::iree::hal::debug);
debug_export_verifier!(hip_debug, amdgpu_hal_schemas::hip::iree::hal::debug);

/// IREE's single-module rule (`get_single_module_image`): exactly one module,
/// with a non-empty image, whose bytes are returned.
pub fn single_module_image<'a>(def: &fb::ExecutableDef<'a>) -> Result<&'a [u8]> {
    let modules = def.modules();
    let count = modules.map_or(0, |modules| modules.len());
    if count != 1 {
        return Err(status!(
            Unimplemented,
            "only a single ModuleDef per ExecutableDef is supported; executable declares {count} modules"
        ));
    }
    let image = modules
        .iter()
        .flatten()
        .next()
        .and_then(|module| module.image())
        .map(|image| image.bytes())
        .unwrap_or_default();
    if image.is_empty() {
        return Err(Status::new(
            StatusCode::InvalidArgument,
            "module image is empty",
        ));
    }
    Ok(image)
}

//! `pack`: wraps a raw HSACO into an `AMD1` executable, one export per kernel
//! of its metadata, the way IREE's compiler lays one out.

use crate::codeobj::loadable::check_loadable;
use crate::codeobj::metadata::{
    CodeObjectMetadata, KernelMetadata, KernelNames, ValueKind, projection_refusal,
};
use crate::status;
use crate::status::{Result, ResultExt};

use super::amd1::Amd1Executable;
use super::builder::{
    BindingBits, ExecutableSpec, ExportDebugSpec, ExportSpec, SourceFileSpec, build_amd1,
};
use super::header::DataExtent;
use super::infer::code_object_target;
use super::verify::DeviceLimits;

/// What `pack` writes besides the exports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackOptions {
    /// Write each export's reflection name as its debug name.
    pub debug_names: bool,
    /// Source files to embed (sorted by path when written).
    pub source_files: Vec<SourceFileSpec>,
    /// Workgroup size for kernels without `.reqd_workgroup_size`. An `AMD1`
    /// export has a fixed size and the metadata of such a kernel gives none,
    /// so packing one without this is refused (naming the kernels) rather
    /// than guessed; kernels with a required size always keep theirs.
    pub default_workgroup_size: Option<[u32; 3]>,
    /// Limits the result is verified against before it is returned.
    pub limits: DeviceLimits,
    /// Only these kernels (by name or `.kd` symbol), in metadata order; `None`
    /// packs every kernel. Lets a code object with kernels outside IREE's HAL
    /// projection (e.g. `char` or dynamic-LDS arguments) be packed partially.
    pub kernels: Option<Vec<String>>,
}

impl Default for PackOptions {
    fn default() -> PackOptions {
        PackOptions {
            debug_names: false,
            source_files: Vec::new(),
            default_workgroup_size: None,
            limits: DeviceLimits::AMDGPU,
            kernels: None,
        }
    }
}

/// The export IREE's runtime needs for `kernel`: its `.kd` symbol, the
/// required workgroup size (or `options`' size; `None` when neither exists),
/// the 32-bit constant count and one binding per `global_buffer` argument
/// (`READ_ONLY` when the kernel only reads it).
fn export_for(kernel: &KernelMetadata<'_>, options: &PackOptions) -> Result<ExportSpec> {
    let requirements = kernel.default_export_parameter_requirements()?;
    let workgroup_size = kernel
        .reqd_workgroup_size
        .or(options.default_workgroup_size);
    let binding_flags = kernel
        .args
        .iter()
        .filter(|arg| arg.kind == ValueKind::GlobalBuffer)
        .map(|arg| match arg.access {
            Some("read_only") => BindingBits::READ_ONLY,
            _ => BindingBits::empty(),
        })
        .collect();
    Ok(ExportSpec {
        symbol_name: kernel.symbol.to_string(),
        workgroup_size,
        constant_count: u32::from(requirements.constant_count),
        binding_flags,
        debug: options.debug_names.then(|| ExportDebugSpec {
            name: kernel.reflection_name.to_string(),
            location: None,
        }),
    })
}

/// The selected kernels without `.reqd_workgroup_size` need
/// `options.default_workgroup_size`, within each one's
/// `.max_flat_workgroup_size`: one error naming every kernel that lacks a
/// size or exceeds its maximum.
fn check_workgroup_sizes(selected: &[&KernelMetadata<'_>], options: &PackOptions) -> Result<()> {
    let unsized_kernels: Vec<&KernelMetadata<'_>> = selected
        .iter()
        .copied()
        .filter(|kernel| kernel.reqd_workgroup_size.is_none())
        .collect();
    let Some(size) = options.default_workgroup_size else {
        if unsized_kernels.is_empty() {
            return Ok(());
        }
        let names: Vec<_> = unsized_kernels
            .iter()
            .map(|kernel| match kernel.max_flat_workgroup_size {
                Some(max) => format!("`{}` (at most {max} work-items)", kernel.reflection_name),
                None => format!("`{}`", kernel.reflection_name),
            })
            .collect();
        return Err(status!(
            InvalidArgument,
            "{} of {} kernels have no `.reqd_workgroup_size` and an AMD1 export needs a fixed \
             work-group size: {}; give it with `--workgroup-size X,Y,Z` (used for every such \
             kernel)",
            names.len(),
            selected.len(),
            names.join(", ")
        ));
    };
    let threads: u64 = size.iter().map(|&d| u64::from(d)).product();
    let too_large: Vec<_> = unsized_kernels
        .iter()
        .filter_map(|kernel| {
            let max = kernel.max_flat_workgroup_size?;
            (threads > u64::from(max))
                .then(|| format!("`{}` (at most {max})", kernel.reflection_name))
        })
        .collect();
    if too_large.is_empty() {
        return Ok(());
    }
    Err(status!(
        InvalidArgument,
        "work-group size {}x{}x{} ({threads} work-items) exceeds the \
         `.max_flat_workgroup_size` of {}",
        size[0],
        size[1],
        size[2],
        too_large.join(", ")
    ))
}

/// Wraps `hsaco` (a raw AMDGPU code object) into an `AMD1` executable.
///
/// The ELF target and metadata must be readable; every kernel must project to
/// HAL parameters. The result is verified (structure, IREE's rules against
/// `options.limits`, the single-module rule) before it is returned.
pub fn pack(hsaco: &[u8], options: &PackOptions) -> Result<Vec<u8>> {
    let target = code_object_target(hsaco)?;
    check_loadable(hsaco)?;
    let metadata = CodeObjectMetadata::from_elf(hsaco)?;
    let mut names = KernelNames::default();
    for kernel in &metadata.kernels {
        names.insert(kernel)?;
    }
    if let Some(selected) = &options.kernels {
        for wanted in selected {
            let known = metadata
                .kernels
                .iter()
                .any(|kernel| kernel.reflection_name == wanted || kernel.symbol == wanted);
            if !known {
                return Err(status!(
                    NotFound,
                    "kernel `{wanted}` not found in the code object's metadata"
                ));
            }
        }
    }
    let is_selected = |kernel: &&KernelMetadata<'_>| {
        options.kernels.as_ref().is_none_or(|selected| {
            selected
                .iter()
                .any(|wanted| kernel.reflection_name == wanted || kernel.symbol == wanted)
        })
    };
    // Every selected kernel is tried before failing, so that the error names
    // all the refused ones and all the ones `--kernel` could pick instead.
    let selected: Vec<&KernelMetadata<'_>> = metadata.kernels.iter().filter(is_selected).collect();
    let mut exports = Vec::with_capacity(selected.len());
    let mut refused = Vec::new();
    let mut packable = Vec::new();
    for kernel in &selected {
        // The loader resolves exports by symbol: an ambiguous one is refused here.
        let export = metadata
            .find_kernel_by_symbol(kernel.symbol)
            .and_then(|_| export_for(kernel, options));
        match export {
            Ok(export) => {
                packable.push(kernel.reflection_name);
                exports.push(export);
            }
            Err(status) => refused.push(status),
        }
    }
    if !refused.is_empty() {
        let hint = if packable.is_empty() {
            "no selected kernel can be packed".to_owned()
        } else {
            format!(
                "pack the others with `--kernel NAME` (repeatable): {}",
                packable.join(", ")
            )
        };
        return Err(projection_refusal(&refused, selected.len(), "kernels").annotate(hint));
    }
    check_workgroup_sizes(&selected, options)?;
    let spec = ExecutableSpec {
        isa: Some(target.to_string()),
        exports,
        images: vec![hsaco],
        source_files: options.source_files.clone(),
    };
    let packed = build_amd1(&spec)?;
    let exe = Amd1Executable::parse(&packed, DataExtent::Known)?;
    exe.verify(&options.limits)
        .annotate("verifying the packed executable")?;
    exe.single_module_image()?;
    Ok(packed)
}

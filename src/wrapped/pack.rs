//! `pack`: wraps a raw HSACO into an `AMD1` executable, one export per kernel
//! of its metadata, the way IREE's compiler lays one out.

use crate::codeobj::loadable::check_loadable;
use crate::codeobj::metadata::{CodeObjectMetadata, KernelMetadata, KernelNames, ValueKind};
use crate::status;
use crate::status::{Result, ResultExt};

use super::amd1::Amd1Executable;
use super::builder::{
    BindingBits, ExecutableSpec, ExportDebugSpec, ExportSpec, SourceFileSpec, build_amd1,
};
use super::header::DataExtent;
use super::infer::code_object_target;
use super::verify::DeviceLimits;

/// Workgroup size written for a kernel without `.reqd_workgroup_size`: IREE's
/// minimum granularity for such kernels (its raw-HSACO path uses 1x1x1 too).
pub const DEFAULT_WORKGROUP_SIZE: [u32; 3] = [1, 1, 1];

/// What `pack` writes besides the exports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackOptions {
    /// Write each export's reflection name as its debug name.
    pub debug_names: bool,
    /// Source files to embed (sorted by path when written).
    pub source_files: Vec<SourceFileSpec>,
    /// Workgroup size for kernels without `.reqd_workgroup_size`.
    pub default_workgroup_size: [u32; 3],
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
            default_workgroup_size: DEFAULT_WORKGROUP_SIZE,
            limits: DeviceLimits::AMDGPU,
            kernels: None,
        }
    }
}

/// The export IREE's runtime needs for `kernel`: its `.kd` symbol, the
/// required workgroup size (or the default), the 32-bit constant count and one
/// binding per `global_buffer` argument (`READ_ONLY` when the kernel only reads it).
fn export_for(kernel: &KernelMetadata<'_>, options: &PackOptions) -> Result<ExportSpec> {
    let requirements = kernel
        .default_export_parameter_requirements()
        .annotate_with(|| format!("projecting HSACO parameters for kernel `{}`", kernel.symbol))?;
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
        workgroup_size: Some(
            kernel
                .reqd_workgroup_size
                .unwrap_or(options.default_workgroup_size),
        ),
        constant_count: u32::from(requirements.constant_count),
        binding_flags,
        debug: options.debug_names.then(|| ExportDebugSpec {
            name: kernel.reflection_name.to_string(),
            location: None,
        }),
    })
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
    let exports = metadata
        .kernels
        .iter()
        .filter(is_selected)
        .map(|kernel| {
            // The loader resolves exports by symbol: an ambiguous one is refused here.
            metadata.find_kernel_by_symbol(kernel.symbol)?;
            export_for(kernel, options).annotate(
                "only kernels IREE's HAL can describe can be packed; select them with `--kernel NAME`",
            )
        })
        .collect::<Result<Vec<_>>>()?;
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

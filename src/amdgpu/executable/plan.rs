//! The backend-independent half of creation: turning executable bytes into a
//! [`LoadPlan`] — the code object to load, and per export its symbol and
//! reflection — with every metadata and limit rule checked before the
//! backend is touched.
//!
//! The raw-HSACO path lives here; the wrapped (`AMD1` FlatBuffer) path
//! produces the same plan from the FlatBuffer's exports and its single
//! module image, so the loader does not care which container it came from.

use crate::amdgpu::isa::{DeviceLimits, check_workgroup_size};
use crate::codeobj::loadable::check_loadable;
use crate::codeobj::metadata::{
    CodeObjectMetadata, KernelMetadata, KernelNames, projection_refusal,
};
use crate::status::{Result, ResultExt};
use crate::wrapped::{Amd1Executable, DataExtent};

use super::reflection::{ExportFlags, ExportInfo, Parameter, Reflection};

/// Most bytes of a symbol name passed to the loader
/// (`IREE_HAL_AMDGPU_MAX_STACK_SYMBOL_NAME_LENGTH`).
pub const MAX_SYMBOL_NAME_LENGTH: usize = 4096;

/// Which container the executable bytes were in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Container {
    /// IREE's wrapped FlatBuffer (`AMD1` header).
    Wrapped,
    /// A raw HSACO ELF.
    RawHsaco,
}

impl Container {
    /// `"amd1"` or `"elf"`, as the CLI prints it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Container::Wrapped => "amd1",
            Container::RawHsaco => "elf",
        }
    }
}

/// What creation loads: the code object and, per export, its loader symbol.
#[derive(Clone, Debug)]
pub struct LoadPlan<'a> {
    /// Where the bytes came from.
    pub container: Container,
    /// The exact code-object (ELF) bytes.
    pub code_object: &'a [u8],
    /// Export reflection, in ordinal order.
    pub reflection: Reflection,
    /// The loader symbol of each export (the kernel descriptor, `name.kd`).
    pub symbols: Vec<String>,
    /// Each export's kernarg segment alignment as its code object declares
    /// it (`.kernarg_segment_align`). The HSA loader reports its own number
    /// (ROCr: a fixed 16), which is what the HAL's kernel-args records carry.
    pub kernarg_alignments: Vec<u32>,
}

/// HAL counts and parameters projected from one kernel's metadata.
pub(crate) struct Projection {
    pub(crate) parameter_count: u16,
    pub(crate) binding_count: u16,
    pub(crate) constant_count: u16,
    pub(crate) parameters: Vec<Parameter>,
}

/// IREE's default projection of a kernel's arguments onto HAL parameters.
pub(crate) fn project(kernel: &KernelMetadata<'_>) -> Result<Projection> {
    let projected = kernel.default_export_parameters()?;
    let r = projected.requirements;
    Ok(Projection {
        parameter_count: r.parameter_count,
        binding_count: r.binding_count,
        constant_count: r.constant_count,
        parameters: projected
            .parameters
            .iter()
            .map(Parameter::from_export_parameter)
            .collect(),
    })
}

/// Checks a symbol name before it goes to the loader: non-empty
/// (`INVALID_ARGUMENT`) and at most [`MAX_SYMBOL_NAME_LENGTH`] bytes (`OUT_OF_RANGE`).
pub fn check_symbol_name(what: &str, name: &str) -> Result<()> {
    if name.is_empty() {
        return Err(crate::status!(
            InvalidArgument,
            "executable {what} name is empty"
        ));
    }
    if name.len() > MAX_SYMBOL_NAME_LENGTH {
        return Err(crate::status!(
            OutOfRange,
            "executable {what} name `{name}` exceeds maximum length {MAX_SYMBOL_NAME_LENGTH}"
        ));
    }
    Ok(())
}

/// Plans a raw HSACO: `amdhsa.target` is required; each kernel's
/// `.reqd_workgroup_size` must fit `limits`; kernels without one are dynamic
/// (1×1×1 minimum, [`ExportFlags::WORKGROUP_SIZE_DYNAMIC`]); HAL counts and
/// parameters come from the default projection.
pub fn plan_raw_hsaco<'a>(data: &'a [u8], limits: &DeviceLimits) -> Result<LoadPlan<'a>> {
    check_loadable(data)?;
    let metadata = CodeObjectMetadata::from_elf(data)?;
    if metadata.target.is_none_or(str::is_empty) {
        return Err(crate::status!(
            InvalidArgument,
            "raw HSACO metadata is missing `amdhsa.target`; direct loading requires the code \
             object to declare its target ISA"
        ));
    }
    let mut reflection = Reflection::with_capacity(metadata.kernels.len());
    let mut symbols = Vec::with_capacity(metadata.kernels.len());
    let mut kernarg_alignments = Vec::with_capacity(metadata.kernels.len());
    // Every kernel is checked before failing, so that the error names all
    // the kernels IREE's HAL refuses, not only the first.
    let mut refused = Vec::new();
    let mut names = KernelNames::default();
    for kernel in &metadata.kernels {
        names.insert(kernel)?;
        if let Some(reqd) = kernel.reqd_workgroup_size
            && let Err(why) = check_workgroup_size(limits, reqd)
        {
            refused.push(crate::status!(
                InvalidArgument,
                "raw HSACO kernel `{}` {why}",
                kernel.symbol
            ));
            continue;
        }
        let projection = match project(kernel) {
            Ok(projection) => projection,
            Err(status) => {
                refused.push(status);
                continue;
            }
        };
        let (flags, workgroup_size) = match kernel.reqd_workgroup_size {
            Some(reqd) => (ExportFlags::empty(), reqd),
            None => (ExportFlags::WORKGROUP_SIZE_DYNAMIC, [1, 1, 1]),
        };
        reflection.push(
            ExportInfo {
                name: kernel.reflection_name.to_owned(),
                flags,
                constant_count: projection.constant_count,
                binding_count: projection.binding_count,
                parameter_count: projection.parameter_count,
                workgroup_size,
            },
            projection.parameters,
        )?;
        symbols.push(kernel.symbol.to_owned());
        kernarg_alignments.push(kernel.kernarg_segment_align);
    }
    if !refused.is_empty() {
        return Err(
            projection_refusal(&refused, metadata.kernels.len(), "kernels")
                .annotate("projecting HSACO parameters for raw kernels"),
        );
    }
    Ok(LoadPlan {
        container: Container::RawHsaco,
        code_object: data,
        reflection,
        symbols,
        kernarg_alignments,
    })
}

/// Plans a wrapped `AMD1` executable: strict header read, FlatBuffer
/// verification against `limits`, the single module image, then per export
/// the metadata kernel of its symbol. The FlatBuffer owns the HAL counts:
/// the metadata may reflect fewer constants or bindings (optimized-away
/// arguments) but never more (`INVALID_ARGUMENT`).
pub fn plan_wrapped<'a>(data: &'a [u8], limits: &DeviceLimits) -> Result<LoadPlan<'a>> {
    let wrapped = Amd1Executable::parse(data, DataExtent::Known)?;
    wrapped.verify(limits)?;
    let image = wrapped.single_module_image()?;
    check_loadable(image)?;
    let metadata = CodeObjectMetadata::from_elf(image)?;
    let exports = wrapped.def.exports();
    let count = exports.map_or(0, |e| e.len());
    let mut reflection = Reflection::with_capacity(count);
    let mut symbols = Vec::with_capacity(count);
    let mut kernarg_alignments = Vec::with_capacity(count);
    let mut refused = Vec::new();
    for (i, export) in exports.iter().flatten().enumerate() {
        let symbol = export.symbol_name().unwrap_or_default();
        let kernel = metadata
            .find_kernel_by_symbol(symbol)
            .annotate_with(|| format!("looking up HSACO metadata for export `{symbol}`"))?;
        // A refused export is remembered and the walk goes on, so that the
        // error names every export IREE's HAL refuses.
        let projection = match project(kernel) {
            Ok(projection) => projection,
            Err(status) => {
                refused.push(status.annotate(format!("export `{symbol}`")));
                continue;
            }
        };
        let constant_count = export.constant_count();
        if u32::from(projection.constant_count) > constant_count {
            refused.push(crate::status!(
                InvalidArgument,
                "HSACO metadata for export `{symbol}` declares {} reflected constants but \
                 ExecutableDef only declares {constant_count}",
                projection.constant_count
            ));
            continue;
        }
        let binding_count = export.binding_flags().map_or(0, |f| f.len());
        if usize::from(projection.binding_count) > binding_count {
            refused.push(crate::status!(
                InvalidArgument,
                "HSACO metadata for export `{symbol}` declares {} reflected bindings but \
                 ExecutableDef only declares {binding_count}",
                projection.binding_count
            ));
            continue;
        }
        let narrow = |value: usize, what: &str| {
            u16::try_from(value).map_err(|_| {
                crate::status!(InvalidArgument, "exports[{i}] {what} {value} exceeds 65535")
            })
        };
        let debug_name = export
            .debug_info()
            .and_then(|d| d.name())
            .filter(|n| !n.is_empty());
        let name = debug_name.unwrap_or_else(|| symbol.strip_suffix(".kd").unwrap_or(symbol));
        let workgroup_size = export
            .workgroup_size()
            .map(|d| [d.x(), d.y(), d.z()])
            .ok_or_else(|| {
                crate::status!(
                    InvalidArgument,
                    "exports[{i}] workgroup size dims are missing"
                )
            })?;
        reflection.push(
            ExportInfo {
                name: name.to_owned(),
                flags: ExportFlags::empty(),
                constant_count: narrow(constant_count as usize, "constant_count")?,
                binding_count: narrow(binding_count, "binding count")?,
                parameter_count: projection.parameter_count,
                workgroup_size,
            },
            projection.parameters,
        )?;
        symbols.push(symbol.to_owned());
        kernarg_alignments.push(kernel.kernarg_segment_align);
    }
    if !refused.is_empty() {
        return Err(projection_refusal(&refused, count, "exports")
            .annotate("projecting HSACO parameters for exports"));
    }
    Ok(LoadPlan {
        container: Container::Wrapped,
        code_object: image,
        reflection,
        symbols,
        kernarg_alignments,
    })
}

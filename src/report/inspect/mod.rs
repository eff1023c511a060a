//! `inspect`: what an executable file holds — a wrapped `AMD1` or `HIP1`
//! executable or a raw HSACO — as a report whose JSON keys are the ones
//! docs/CLI.md fixes for `amdgpu-hal inspect --json`.
//!
//! The wrapped FlatBuffer gives each export's HAL view (name, symbol,
//! workgroup size, constant and binding counts); the code object's metadata
//! gives the kernel facts (reflected parameters, kernarg size and alignment,
//! segment sizes, register counts). Both are checked against each other the
//! way IREE's loader does; where the loader would refuse an export, the
//! export is still listed, with the reason in `hal_error` (`inspect` is a
//! viewer: every kernel of every metadata note is shown).
//!
//! One path: the container is parsed and verified (`wrapped`), the
//! metadata notes are walked kernel by kernel (`codeobj::metadata`), each
//! kernel becomes its export's report (`export`), and the report is
//! printed as text (`document`) or JSON (`json`). A caller's
//! [`Progress`] hears how far each pass over the file has got, so that a
//! mapped file's pages can go behind it.

mod document;
mod export;
mod json;

pub use document::{ExportReport, InspectReport, ParameterReport};

use crate::codeobj::elf;
use crate::codeobj::metadata::{
    self, CodeObjectMetadata, KernelMetadata, KernelNames, KernelVisitor, SymbolIndex,
};
use crate::codeobj::notes::find_metadata_notes;
use crate::input::Progress;
use crate::status;
use crate::status::{Result, ResultExt, Status};
use crate::wrapped::amd1_fb as fb;
use crate::wrapped::header::{AMD1_IDENTIFIER, HIP1_IDENTIFIER, has_identifier};
use crate::wrapped::infer::{code_object_target, has_known_magic};
use crate::wrapped::verify::check_workgroup_size;
use crate::wrapped::{
    Amd1Executable, Container, DataExtent, DeviceLimits, Hip1Executable, HipLimits,
};
use export::{HalView, Reflected, kernel_facts};

/// Inspects a whole file: `AMD1` and `HIP1` by their identifier, anything
/// else as a raw HSACO. Wrapped executables are verified against `limits`
/// (HIP ones against [`HipLimits::AMDGPU`]) and checked against their code
/// object's metadata as IREE's loaders do. `progress` hears how far the
/// metadata walk of a raw HSACO or `AMD1` executable has got (`&()` when
/// nothing listens; [`crate::input::ReleaseBehind`] lets a mapped file's
/// pages go behind it).
pub fn inspect<'a>(
    data: &'a [u8],
    limits: &DeviceLimits,
    progress: &dyn Progress,
) -> Result<InspectReport<'a>> {
    let _span = tracing::info_span!("inspect", bytes = data.len()).entered();
    if has_identifier(data, AMD1_IDENTIFIER) {
        inspect_amd1(data, limits, progress)
    } else if has_identifier(data, HIP1_IDENTIFIER) {
        inspect_hip1(data)
    } else {
        inspect_elf(data, limits, progress)
    }
}

fn inspect_amd1<'a>(
    data: &'a [u8],
    limits: &DeviceLimits,
    progress: &dyn Progress,
) -> Result<InspectReport<'a>> {
    let exe = Amd1Executable::parse(data, DataExtent::Known)?;
    exe.verify(limits)?;
    let image = exe.single_module_image()?;
    let target = code_object_target(image).annotate("reading the module's code object")?;
    let notes = find_metadata_notes(image)?;
    progress.finished();
    let mut kernels = KernelsBySymbol {
        reports: Vec::new(),
        reflected: Vec::new(),
        by_symbol: SymbolIndex::default(),
        limit: image.len() / 64,
        progress,
    };
    metadata::visit_notes(&notes, &mut kernels)?;
    progress.finished();
    let KernelsBySymbol {
        mut reports,
        reflected,
        by_symbol,
        ..
    } = kernels;
    let declared = exe.def.exports();
    let mut resolved = Vec::with_capacity(declared.map_or(0, |list| list.len()));
    for (i, export) in declared.iter().flatten().enumerate() {
        // Verification proved the symbol present.
        let symbol = export.symbol_name().unwrap_or_default();
        let index = by_symbol
            .get(symbol)
            .annotate_with(|| format!("resolving exports[{i}]"))?;
        // The lookup read the kernel's own symbol again, in its note.
        if let Some(report) = reports.get(index) {
            progress.past(report.symbol.as_ptr() as usize);
        }
        resolved.push(index);
    }
    progress.finished();
    let views = declared.iter().flatten().map(amd1_view);
    let out_of_sync = || Status::internal("AMDGPU metadata symbol index out of sync");
    let exports = if resolved.iter().copied().eq(0..reports.len()) {
        // Every kernel once, in order (what IREE's compiler and `pack`
        // write): the kernels' reports become the exports in place.
        for ((report, reflected), view) in reports.iter_mut().zip(&reflected).zip(views) {
            view.complete(report, reflected);
        }
        reports
    } else {
        let mut exports = Vec::with_capacity(resolved.len());
        for (&index, view) in resolved.iter().zip(views) {
            let (Some(report), Some(reflected)) = (reports.get(index), reflected.get(index)) else {
                return Err(out_of_sync());
            };
            let mut report = report.clone();
            view.complete(&mut report, reflected);
            exports.push(report);
        }
        exports
    };
    Ok(InspectReport {
        container: Container::Amd1,
        format: target.to_string(),
        size: exe.size(),
        code_object_version: elf::code_object_version(image)?,
        exports,
    })
}

/// An `AMD1` export's HAL view: its debug name (else its symbol without
/// `.kd`), symbol, workgroup size and declared counts.
fn amd1_view(export: fb::ExportDef<'_>) -> HalView<'_> {
    let symbol = export.symbol_name().unwrap_or_default();
    let bindings = export.binding_flags().map_or(0, |flags| flags.len());
    HalView {
        name: export
            .debug_info()
            .and_then(|debug| debug.name())
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| symbol.strip_suffix(".kd").unwrap_or(symbol)),
        hal_symbol: symbol,
        // Verification proved the workgroup size present.
        workgroup_size: export
            .workgroup_size()
            .map_or([0; 3], |size| [size.x(), size.y(), size.z()]),
        dynamic_workgroup_size: false,
        declared: Some((export.constant_count(), bindings as u32)),
        refused: None,
    }
}

/// The facts of every kernel of a wrapped module's code object, by symbol,
/// gathered while its metadata is decoded: a huge object never holds every
/// kernel's arguments at once.
struct KernelsBySymbol<'a, 'p> {
    /// Each kernel's facts and projection, in metadata order.
    reports: Vec<ExportReport<'a>>,
    reflected: Vec<Reflected>,
    by_symbol: SymbolIndex<'a>,
    /// Most kernels to reserve room for (what the code object could hold).
    limit: usize,
    progress: &'p dyn Progress,
}

impl<'a> KernelVisitor<'a> for KernelsBySymbol<'a, '_> {
    fn kernel_count(&mut self, count: usize) {
        let room = self.limit.saturating_sub(self.reports.len());
        self.reports.reserve_exact(count.min(room));
        self.reflected.reserve_exact(count.min(room));
        self.by_symbol.reserve(count.min(room));
    }

    fn kernel(&mut self, kernel: KernelMetadata<'a>) -> Result<()> {
        self.by_symbol.insert(kernel.symbol, self.reports.len());
        let (report, reflected) = kernel_facts(&kernel);
        self.reports.push(report);
        self.reflected.push(reflected);
        self.progress.past(kernel.symbol.as_ptr() as usize);
        Ok(())
    }
}

fn inspect_hip1(data: &[u8]) -> Result<InspectReport<'_>> {
    let exe = Hip1Executable::parse(data, DataExtent::Known)?;
    exe.verify(&HipLimits::AMDGPU)?;
    let images = exe.module_images();
    let mut modules = Vec::with_capacity(images.len());
    for (i, image) in images.iter().enumerate() {
        let target = code_object_target(image)
            .annotate_with(|| format!("reading modules[{i}]'s code object"))?;
        let version = elf::code_object_version(image)?;
        let metadata = CodeObjectMetadata::from_elf(image)?;
        modules.push((target, version, metadata));
    }
    let Some((target, version, _)) = modules.first() else {
        return Err(status!(
            InvalidArgument,
            "HIP executable declares no modules"
        ));
    };
    let mut exports = Vec::new();
    for (i, export) in exe.def.exports().iter().flatten().enumerate() {
        // Verification proved the ordinal in range and the name and dims present.
        let Some((_, _, metadata)) = modules.get(export.module_ordinal() as usize) else {
            continue;
        };
        let kernel_name = export.kernel_name().unwrap_or_default();
        let dims = export
            .block_dims()
            .map_or([0; 3], |dims| [dims.x(), dims.y(), dims.z()]);
        let name = export
            .debug_info()
            .and_then(|debug| debug.name())
            .filter(|name| !name.is_empty())
            .unwrap_or(kernel_name);
        let kernel = metadata
            .find_kernel_by_symbol(&format!("{kernel_name}.kd"))
            .annotate_with(|| format!("resolving exports[{i}]"))?;
        let bindings = export.binding_flags().map_or(0, |flags| flags.len());
        let (mut report, reflected) = kernel_facts(kernel);
        HalView {
            name,
            hal_symbol: kernel_name,
            workgroup_size: dims,
            dynamic_workgroup_size: false,
            declared: Some((export.constant_count(), bindings as u32)),
            refused: None,
        }
        .complete(&mut report, &reflected);
        exports.push(report);
    }
    Ok(InspectReport {
        container: Container::Hip1,
        format: target.to_string(),
        size: exe.header.total_size(),
        code_object_version: *version,
        exports,
    })
}

fn inspect_elf<'a>(
    data: &'a [u8],
    limits: &DeviceLimits,
    progress: &dyn Progress,
) -> Result<InspectReport<'a>> {
    if !has_known_magic(data) {
        return Err(status!(
            InvalidArgument,
            "not an executable: inspect reads IREE's wrapped executables (`AMD1`, `HIP1`), raw HSACOs (ELF) and IREE bytecode modules (`.vmfb`), and these bytes begin with none of their magic numbers"
        ));
    }
    let target = code_object_target(data)?;
    let notes = find_metadata_notes(data)?;
    progress.finished();
    let mut raw = RawExports {
        exports: Vec::new(),
        limit: data.len() / 64,
        limits,
        names: KernelNames::default(),
        progress,
    };
    let header = metadata::visit_notes(&notes, &mut raw)?;
    progress.finished();
    if header.target.is_none_or(str::is_empty) {
        return Err(status!(
            InvalidArgument,
            "raw HSACO metadata is missing `amdhsa.target`; direct loading requires the code object to declare its target ISA"
        ));
    }
    Ok(InspectReport {
        container: Container::Elf,
        format: target.to_string(),
        size: data.len() as u64,
        code_object_version: elf::code_object_version(data)?,
        exports: raw.exports,
    })
}

/// Builds a raw HSACO's exports while its metadata is decoded: each
/// kernel's arguments are dropped once projected.
struct RawExports<'a, 'l> {
    exports: Vec<ExportReport<'a>>,
    /// Most exports to reserve room for (what the file could hold).
    limit: usize,
    limits: &'l DeviceLimits,
    /// Export names and symbols so far: a repeat is an ambiguous export.
    names: KernelNames<'a>,
    progress: &'l dyn Progress,
}

impl<'a> KernelVisitor<'a> for RawExports<'a, '_> {
    fn kernel_count(&mut self, count: usize) {
        let room = self.limit.saturating_sub(self.exports.len());
        self.exports.reserve_exact(count.min(room));
        self.names.reserve(count.min(room));
    }

    fn kernel(&mut self, kernel: KernelMetadata<'a>) -> Result<()> {
        // A repeated name is no viewer's business to pick from: refused
        // whole, as load and pack refuse it.
        self.names.insert(&kernel)?;
        let index = self.exports.len();
        self.exports.push(raw_export(index, &kernel, self.limits));
        self.progress.past(kernel.symbol.as_ptr() as usize);
        Ok(())
    }
}

/// A raw HSACO kernel as an export: its own projection, its required
/// workgroup size (checked against `limits`) or a dynamic one.
fn raw_export<'a>(
    index: usize,
    kernel: &KernelMetadata<'a>,
    limits: &DeviceLimits,
) -> ExportReport<'a> {
    let refused = kernel.reqd_workgroup_size.and_then(|size| {
        check_workgroup_size(index, size, limits)
            .annotate_with(|| format!("raw HSACO kernel `{}`", kernel.symbol))
            .err()
    });
    let (mut report, reflected) = kernel_facts(kernel);
    HalView {
        name: kernel.reflection_name,
        hal_symbol: kernel.symbol,
        workgroup_size: kernel.reqd_workgroup_size.unwrap_or([1, 1, 1]),
        dynamic_workgroup_size: kernel.reqd_workgroup_size.is_none(),
        declared: None,
        refused,
    }
    .complete(&mut report, &reflected);
    report
}

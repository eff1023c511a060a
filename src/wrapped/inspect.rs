//! `inspect`: what an executable file holds — a wrapped `AMD1` or `HIP1`
//! executable or a raw HSACO — as a serializable report whose JSON keys are
//! the ones docs/CLI.md fixes for `amdgpu-hal inspect --json`.
//!
//! The wrapped FlatBuffer gives each export's HAL view (name, symbol,
//! workgroup size, constant and binding counts); the code object's metadata
//! gives the kernel facts (reflected parameters, kernarg size and alignment,
//! segment sizes, register counts). Both are checked against each other the
//! way IREE's loader does; where the loader would refuse an export, the
//! export is still listed, with the reason in `hal_error` (`inspect` is a
//! viewer: every kernel of every metadata note is shown).

use super::symbol_copies::SymbolCopies;
use crate::codeobj::elf;
use crate::codeobj::metadata::{
    self, CodeObjectMetadata, KernelMetadata, KernelNames, KernelVisitor, SPLIT_MIN_KERNELS,
    SplitKernelVisitor, SymbolIndex, ThreadWarmUp, WARM_UP_MIN_BYTES, split_share,
};
use crate::codeobj::notes::find_metadata_notes;
use crate::input::Progress;
use crate::status;
use crate::status::{Result, ResultExt};

use super::amd1::Amd1Executable;
use super::export_runs::{ExportRuns, InspectRuns};
use super::header::{AMD1_IDENTIFIER, DataExtent, HIP1_IDENTIFIER, has_identifier};
use super::hip::{Hip1Executable, HipLimits};
use super::infer::{Container, code_object_target};
pub use super::inspect_report::{ExportReport, InspectReport, ParameterReport};
use super::kernel_facts::{FactsRun, HalView, kernel_facts, kernel_facts_with};
use super::verify::{DeviceLimits, check_workgroup_size};
use amdgpu_hal_schemas::amdgpu::iree::hal::amdgpu as fb;

fn inspect_amd1<'a>(
    data: &'a [u8],
    limits: &DeviceLimits,
    progress: &(dyn Progress + Sync),
) -> Result<InspectRuns<'a>> {
    // The split's second thread, readied while the container is checked.
    let warm_up = (data.len() >= WARM_UP_MIN_BYTES).then(ThreadWarmUp::start);
    let exe = Amd1Executable::parse(data, DataExtent::Known)?;
    exe.verify(limits)?;
    let image = exe.single_module_image()?;
    let target = code_object_target(image).annotate("reading the module's code object")?;
    // Each kernel's facts, not its metadata: a huge object never holds
    // every kernel's arguments at once.
    let mut kernels = KernelsBySymbol {
        facts: FactsRun::default(),
        by_symbol: SymbolIndex::default(),
        symbols: SymbolCopies::default(),
        limit: image.len() / 64,
    };
    // The ELF's tables, checked while finding the notes, are not read again.
    let notes = find_metadata_notes(image)?;
    progress.finished();
    // Ended (joined) before the decode that may need a second thread.
    drop(warm_up);
    metadata::visit_notes_split(&notes, &mut kernels, progress)?;
    progress.finished();
    let KernelsBySymbol {
        facts,
        by_symbol,
        symbols,
        ..
    } = kernels;
    // Each export's kernel: the kernel of its own index when that kernel's
    // symbol (copied) is the export's and no symbol repeats, which is what
    // `get` would answer; otherwise a lookup, which reads the kernel's
    // symbol in the note again.
    let unique = !by_symbol.has_repeats();
    let mut resolved = Vec::with_capacity(exe.def.exports().map_or(0, |list| list.len()));
    for (i, export) in exe.def.exports().iter().flatten().enumerate() {
        // Verification proved the symbol present.
        let symbol = export.symbol_name().unwrap_or_default();
        if unique && symbols.get(i) == Some(symbol) {
            resolved.push(i);
            continue;
        }
        let index = by_symbol
            .get(symbol)
            .annotate_with(|| format!("resolving exports[{i}]"))?;
        if let Some(symbol) = facts.symbol(index) {
            progress.past(symbol.as_ptr() as usize);
        }
        resolved.push(index);
    }
    progress.finished();
    let view = |export: fb::ExportDef<'a>| {
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
    };
    let exports = facts.exports(&resolved, exe.def.exports().iter().flatten().map(view))?;
    Ok(InspectRuns::from_runs(
        InspectReport {
            container: Container::Amd1,
            format: target.to_string(),
            size: exe.size(),
            code_object_version: elf::code_object_version(image)?,
            exports: Vec::new(),
        },
        vec![exports],
    ))
}

/// The facts of every kernel of a wrapped module's code object, by symbol,
/// gathered while its metadata is decoded.
struct KernelsBySymbol<'a> {
    /// Each kernel's facts, in metadata order.
    facts: FactsRun<'a>,
    by_symbol: SymbolIndex<'a>,
    /// Each kernel's symbol, copied while its page is in memory.
    symbols: SymbolCopies,
    /// Most kernels to reserve room for (what the code object could hold).
    limit: usize,
}

impl<'a> KernelVisitor<'a> for KernelsBySymbol<'a> {
    fn kernel_count(&mut self, count: usize) {
        let room = self.limit.saturating_sub(self.facts.len());
        self.facts.reserve_exact(count.min(room));
        self.symbols.reserve(count.min(room));
    }

    fn kernel(&mut self, kernel: KernelMetadata<'a>) -> Result<()> {
        self.by_symbol.insert(kernel.symbol, self.facts.len());
        self.symbols.push(kernel.symbol);
        self.facts.push(&kernel);
        Ok(())
    }
}

impl<'a> SplitKernelVisitor<'a> for KernelsBySymbol<'a> {
    fn fork(&self, kernels: usize) -> Self {
        let room = kernels.min(self.limit);
        KernelsBySymbol {
            facts: FactsRun::with_capacity(room),
            by_symbol: self.by_symbol.fork(room),
            symbols: SymbolCopies::with_capacity(room),
            limit: self.limit,
        }
    }

    fn join(&mut self, tail: Self, first: usize) -> Result<bool> {
        // Nothing here depends on a kernel's index but the symbol index.
        self.by_symbol.join(tail.by_symbol, first);
        self.symbols.append(tail.symbols);
        self.facts.append(tail.facts);
        Ok(true)
    }
}

fn inspect_hip1(data: &[u8]) -> Result<InspectRuns<'_>> {
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
        exports.push(kernel_facts(kernel).export(HalView {
            name,
            hal_symbol: kernel_name,
            workgroup_size: dims,
            dynamic_workgroup_size: false,
            declared: Some((export.constant_count(), bindings as u32)),
            refused: None,
        }));
    }
    Ok(InspectRuns::whole(InspectReport {
        container: Container::Hip1,
        format: target.to_string(),
        size: exe.header.total_size(),
        code_object_version: *version,
        exports,
    }))
}

fn inspect_elf<'a>(
    data: &'a [u8],
    limits: &DeviceLimits,
    progress: &(dyn Progress + Sync),
) -> Result<InspectRuns<'a>> {
    // The split's second thread, readied while the ELF is checked.
    let warm_up = (data.len() >= WARM_UP_MIN_BYTES).then(ThreadWarmUp::start);
    let target = code_object_target(data)?;
    // Kernel by kernel, over every metadata note: each one's arguments are
    // dropped once projected, so a huge object never holds every kernel's
    // metadata and its report at once.
    let mut raw = RawExports {
        exports: ExportRuns::default(),
        index: 0,
        limit: data.len() / 64,
        limits,
        names: KernelNames::default(),
        placed: false,
    };
    // The ELF's tables, checked while finding the notes, are not read again.
    let notes = find_metadata_notes(data)?;
    progress.finished();
    // Ended (joined) before the decode that may need a second thread.
    drop(warm_up);
    let header = metadata::visit_notes_split(&notes, &mut raw, progress)?;
    progress.finished();
    if header.target.is_none_or(str::is_empty) {
        return Err(status!(
            InvalidArgument,
            "raw HSACO metadata is missing `amdhsa.target`; direct loading requires the code object to declare its target ISA"
        ));
    }
    Ok(InspectRuns::from_runs(
        InspectReport {
            container: Container::Elf,
            format: target.to_string(),
            size: data.len() as u64,
            code_object_version: elf::code_object_version(data)?,
            exports: Vec::new(),
        },
        raw.exports.into_runs(),
    ))
}

/// Builds a raw HSACO's exports while its metadata is decoded.
struct RawExports<'a, 'l> {
    /// A joined part's exports stay in the run its thread filled.
    exports: ExportRuns<'a>,
    index: usize,
    /// Most exports to reserve room for (what the file could hold).
    limit: usize,
    limits: &'l DeviceLimits,
    /// Export names and symbols so far: a repeat is an ambiguous export.
    names: KernelNames<'a>,
    /// An export's report names its index (a refused workgroup size): a
    /// split part that counts from 0 cannot be joined as it is.
    placed: bool,
}

impl<'a> KernelVisitor<'a> for RawExports<'a, '_> {
    fn kernel_count(&mut self, count: usize) {
        let room = self.limit.saturating_sub(self.exports.len());
        self.exports.reserve_exact(count.min(room));
        // A split array's names stay in one table per thread
        // (`KernelNames::join`): this one holds about its share.
        let names = if count >= SPLIT_MIN_KERNELS {
            split_share(count)
        } else {
            count
        };
        self.names.reserve(names.min(room));
    }

    fn kernel(&mut self, kernel: KernelMetadata<'a>) -> Result<()> {
        // A repeated name is no viewer's business to pick from: refused
        // whole, as load and pack refuse it.
        self.names.insert(&kernel)?;
        let (index, limits) = (self.index, self.limits);
        let mut placed = false;
        self.exports.push_with(|parameters| {
            let export;
            (export, placed) = raw_export(index, &kernel, limits, parameters);
            export
        });
        self.placed |= placed;
        self.index += 1;
        Ok(())
    }
}

impl<'a> SplitKernelVisitor<'a> for RawExports<'a, '_> {
    fn fork(&self, kernels: usize) -> Self {
        let room = kernels.min(self.limit);
        RawExports {
            exports: ExportRuns::with_capacity(room),
            index: 0,
            limit: self.limit,
            limits: self.limits,
            names: self.names.fork(room),
            placed: false,
        }
    }

    fn join(&mut self, tail: Self, first: usize) -> Result<bool> {
        if tail.placed {
            return Ok(false);
        }
        debug_assert_eq!(first, self.index);
        self.names.join(tail.names)?;
        self.exports.append(tail.exports);
        self.index += tail.index;
        Ok(true)
    }
}

/// A raw HSACO kernel as an export: its own projection (its parameters
/// added to `parameters`), its required workgroup size (checked against
/// `limits`) or a dynamic one; and whether the report names `index` (the
/// workgroup size is refused).
fn raw_export<'a>(
    index: usize,
    kernel: &KernelMetadata<'a>,
    limits: &DeviceLimits,
    parameters: &mut Vec<ParameterReport<'a>>,
) -> (ExportReport<'a>, bool) {
    let refused = kernel.reqd_workgroup_size.and_then(|size| {
        check_workgroup_size(index, size, limits)
            .annotate_with(|| format!("raw HSACO kernel `{}`", kernel.symbol))
            .err()
    });
    let placed = refused.is_some();
    let export = kernel_facts_with(kernel, parameters).export(HalView {
        name: kernel.reflection_name,
        hal_symbol: kernel.symbol,
        workgroup_size: kernel.reqd_workgroup_size.unwrap_or([1, 1, 1]),
        dynamic_workgroup_size: kernel.reqd_workgroup_size.is_none(),
        declared: None,
        refused,
    });
    (export, placed)
}

/// Inspects a whole file: `AMD1` and `HIP1` by their identifier, anything
/// else as a raw HSACO. Wrapped executables are verified against `limits`
/// (HIP ones against [`HipLimits::AMDGPU`]) and checked against their code
/// object's metadata as IREE's loaders do.
pub fn inspect<'a>(data: &'a [u8], limits: &DeviceLimits) -> Result<InspectReport<'a>> {
    inspect_with(data, limits, &())
}

/// [`inspect_with`], the exports left in the runs that decoding them on
/// two threads gave (a raw HSACO's large kernel array): for writing the
/// report ([`InspectRuns::write_json_with`]) without gathering them first.
pub fn inspect_runs<'a>(
    data: &'a [u8],
    limits: &DeviceLimits,
    progress: &(dyn Progress + Sync),
) -> Result<InspectRuns<'a>> {
    let _span = tracing::info_span!("inspect", bytes = data.len()).entered();
    if has_identifier(data, AMD1_IDENTIFIER) {
        inspect_amd1(data, limits, progress)
    } else if has_identifier(data, HIP1_IDENTIFIER) {
        inspect_hip1(data)
    } else {
        inspect_elf(data, limits, progress)
    }
}

/// [`inspect`], telling `progress` how far the metadata walk of a raw HSACO
/// or `AMD1` executable has got ([`crate::input::ReleaseBehind`] lets a
/// mapped file's pages go behind it). The report is the same.
pub fn inspect_with<'a>(
    data: &'a [u8],
    limits: &DeviceLimits,
    progress: &(dyn Progress + Sync),
) -> Result<InspectReport<'a>> {
    inspect_runs(data, limits, progress).map(InspectRuns::into_report)
}

//! An export's report from two sources: its kernel's metadata (the
//! facts: parameters, kernarg and segment sizes, registers, and the
//! kernel's own projection) and the container's HAL view of it (name,
//! symbol, workgroup size, declared counts), checked against each other as
//! IREE's loader checks them. An `AMD1` module's kernels are gathered as
//! facts first, into one run of compact records ([`FactsRun`]), and become
//! exports once the FlatBuffer's exports are resolved to them.

use crate::codeobj::metadata::{ExportParameter, KernelMetadata};
use crate::status;
use crate::status::{Result, Status};

use super::export_record::{ExportFields, ExportRecord};
use super::export_runs::ExportRun;
use super::inspect_report::{ExportReport, ParameterReport};

pub(super) fn parameter_report<'a>(parameter: &ExportParameter<'a>) -> ParameterReport<'a> {
    ParameterReport {
        kind: parameter.kind,
        size: parameter.size,
        offset: parameter.offset,
        name: parameter.name,
    }
}

/// What an export's report takes from its kernel's metadata: everything
/// but the container's HAL view, with the kernel's own projection (its
/// reflected constant and binding counts, or why IREE refuses it).
#[derive(Clone, Debug)]
pub(super) struct KernelFacts<'a> {
    /// The report with the kernel's fields set; `name`, `hal_symbol`, the
    /// workgroup size, the counts and `hal_error` are the export's.
    pub(super) report: ExportReport<'a>,
    pub(super) reflected: Result<(u32, u32)>,
}

pub(super) fn kernel_facts<'a>(kernel: &KernelMetadata<'a>) -> KernelFacts<'a> {
    let visible = kernel
        .args
        .iter()
        .filter(|arg| !arg.kind.is_hidden())
        .count();
    let mut parameters = Vec::with_capacity(visible);
    let mut facts = kernel_facts_with(kernel, &mut parameters);
    facts.report.parameters = parameters;
    facts
}

/// [`kernel_facts`], the kernel's parameters added to `parameters` (a
/// run's list, [`ExportRuns::push_with`]) rather than to the report's own:
/// none where the projection is refused.
pub(super) fn kernel_facts_with<'a>(
    kernel: &KernelMetadata<'a>,
    parameters: &mut Vec<ParameterReport<'a>>,
) -> KernelFacts<'a> {
    let start = parameters.len();
    let reflected = kernel
        .for_each_default_export_parameter(|parameter| {
            parameters.push(parameter_report(&parameter));
        })
        .map(|counts| {
            (
                u32::from(counts.constant_count),
                u32::from(counts.binding_count),
            )
        });
    if reflected.is_err() {
        // A refused projection lists no parameters.
        parameters.truncate(start);
    }
    KernelFacts {
        report: ExportReport {
            name: "",
            symbol: kernel.symbol,
            hal_symbol: "",
            workgroup_size: [1, 1, 1],
            dynamic_workgroup_size: false,
            constant_count: None,
            binding_count: None,
            parameters: Vec::new(),
            kernarg_size: kernel.kernarg_segment_size,
            kernarg_alignment: kernel.kernarg_segment_align,
            group_segment_size: kernel.group_segment_fixed_size,
            private_segment_size: kernel.private_segment_fixed_size,
            vgpr_count: kernel.vgpr_count,
            sgpr_count: kernel.sgpr_count,
            agpr_count: kernel.agpr_count,
            vgpr_spill_count: kernel.vgpr_spill_count,
            sgpr_spill_count: kernel.sgpr_spill_count,
            wavefront_size: kernel.wavefront_size,
            max_flat_workgroup_size: kernel.max_flat_workgroup_size,
            uses_dynamic_stack: kernel.uses_dynamic_stack,
            hal_error: None,
        },
        reflected,
    }
}

/// The HAL view of one export, which completes its kernel's facts.
pub(super) struct HalView<'a> {
    pub(super) name: &'a str,
    pub(super) hal_symbol: &'a str,
    pub(super) workgroup_size: [u32; 3],
    pub(super) dynamic_workgroup_size: bool,
    /// The constant and binding counts the container declares (`None`: use
    /// the metadata's own projection, as for a raw HSACO).
    pub(super) declared: Option<(u32, u32)>,
    /// Why the caller's own check refuses the export.
    pub(super) refused: Option<Status>,
}

impl<'a> HalView<'a> {
    /// What this export makes of its kernel's facts (whose projection is
    /// `reflected`). Never fails: where IREE's HAL would refuse the export
    /// — `refused`, the projection, or declared counts below the reflected
    /// ones — the reason is its `hal_error`.
    pub(super) fn completion(self, reflected: &Result<(u32, u32)>) -> Completion<'a> {
        let hal_symbol = self.hal_symbol;
        let mut reasons: Vec<Status> = self.refused.into_iter().collect();
        let mut counts = self.declared;
        match (reflected, self.declared) {
            // IREE's rule: optimized-away arguments make fewer legal, never more.
            (Ok((constants, _)), Some((declared, _))) if *constants > declared => {
                reasons.push(status!(
                    InvalidArgument,
                    "HSACO metadata for export `{hal_symbol}` declares {constants} reflected constants but ExecutableDef only declares {declared}"
                ));
            }
            (Ok((_, bindings)), Some((_, declared))) if *bindings > declared => {
                reasons.push(status!(
                    InvalidArgument,
                    "HSACO metadata for export `{hal_symbol}` declares {bindings} reflected bindings but ExecutableDef only declares {declared}"
                ));
            }
            (Ok(_), Some(_)) => {}
            (Ok(reflected), None) => counts = Some(*reflected),
            (Err(status), _) => reasons.push(status.clone()),
        }
        Completion {
            name: self.name,
            hal_symbol,
            workgroup_size: self.workgroup_size,
            dynamic_workgroup_size: self.dynamic_workgroup_size,
            counts,
            hal_error: (!reasons.is_empty()).then(|| {
                reasons
                    .iter()
                    .map(Status::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            }),
        }
    }

    /// Fills `report` (a kernel's facts, whose projection is `reflected`)
    /// in as this export ([`HalView::completion`]).
    pub(super) fn complete(self, report: &mut ExportReport<'a>, reflected: &Result<(u32, u32)>) {
        let done = self.completion(reflected);
        report.name = done.name;
        report.hal_symbol = done.hal_symbol;
        report.workgroup_size = done.workgroup_size;
        report.dynamic_workgroup_size = done.dynamic_workgroup_size;
        report.constant_count = done.counts.map(|(constants, _)| constants);
        report.binding_count = done.counts.map(|(_, bindings)| bindings);
        report.hal_error = done.hal_error;
    }
}

/// An export's fields that its HAL view sets ([`HalView::completion`]).
pub(super) struct Completion<'a> {
    pub(super) name: &'a str,
    pub(super) hal_symbol: &'a str,
    pub(super) workgroup_size: [u32; 3],
    pub(super) dynamic_workgroup_size: bool,
    /// The constant and binding counts the HAL passes.
    pub(super) counts: Option<(u32, u32)>,
    pub(super) hal_error: Option<String>,
}

impl<'a> KernelFacts<'a> {
    /// The export of this kernel seen as `view`.
    pub(super) fn export(mut self, view: HalView<'a>) -> ExportReport<'a> {
        view.complete(&mut self.report, &self.reflected);
        self.report
    }
}

/// Kernels' facts in metadata order, as a run keeps exports (compact
/// records, one parameter list), each with its projection's outcome: an
/// `AMD1` module's kernels while its metadata is decoded.
#[derive(Debug, Default)]
pub(super) struct FactsRun<'a> {
    run: ExportRun<'a>,
    reflected: Vec<Result<(u32, u32)>>,
}

impl<'a> FactsRun<'a> {
    /// Room for `kernels` kernels' facts.
    pub(super) fn with_capacity(kernels: usize) -> Self {
        FactsRun {
            run: ExportRun::with_capacity(kernels),
            reflected: Vec::with_capacity(kernels),
        }
    }

    /// Room for `more` kernels, and no more.
    pub(super) fn reserve_exact(&mut self, more: usize) {
        self.run.reserve_exact(more);
        self.reflected.reserve_exact(more);
    }

    /// Kernels gathered.
    pub(super) fn len(&self) -> usize {
        self.run.len()
    }

    /// Adds `kernel`'s facts.
    pub(super) fn push(&mut self, kernel: &KernelMetadata<'a>) {
        // The parameters go straight into the run's list, before the
        // record whose end they mark.
        let facts = kernel_facts_with(kernel, &mut self.run.parameters);
        self.reflected.push(facts.reflected);
        self.run.push_unnamed(|_| facts.report);
    }

    /// Appends `tail`'s kernels after these.
    pub(super) fn append(&mut self, tail: FactsRun<'a>) {
        self.run.append(tail.run);
        self.reflected.extend(tail.reflected);
    }

    /// The symbol of kernel `index`.
    pub(super) fn symbol(&self, index: usize) -> Option<&'a str> {
        self.run.records.get(index).map(ExportRecord::symbol)
    }

    /// The exports: kernel `index` seen as `view` for each `(index, view)`
    /// in export order. When they are every kernel once, in order (what
    /// IREE's compiler and `pack` write), the kernels' records become the
    /// exports in place; otherwise each export copies its kernel's.
    pub(super) fn exports(
        self,
        resolved: &[usize],
        views: impl Iterator<Item = HalView<'a>>,
    ) -> Result<ExportRun<'a>> {
        let FactsRun { mut run, reflected } = self;
        if resolved.iter().copied().eq(0..run.len()) {
            for (index, view) in views.enumerate().take(run.len()) {
                let Some(facts) = reflected.get(index) else {
                    break;
                };
                complete(&mut run, index, view.completion(facts));
            }
            return Ok(run);
        }
        let mut exports = ExportRun::with_capacity(resolved.len());
        for (&index, view) in resolved.iter().zip(views) {
            let Some(facts) = reflected.get(index) else {
                return Err(Status::internal("AMDGPU metadata symbol index out of sync"));
            };
            if !exports.push_copy(&run, index) {
                return Err(Status::internal("AMDGPU metadata symbol index out of sync"));
            }
            let last = exports.len() - 1;
            complete(&mut exports, last, view.completion(facts));
        }
        Ok(exports)
    }
}

/// Sets export `index` of `run` (its kernel's facts) as `done` makes it.
fn complete<'a>(run: &mut ExportRun<'a>, index: usize, done: Completion<'a>) {
    if let Some(record) = run.records.get_mut(index) {
        record.set_view(
            done.name,
            done.hal_symbol,
            (done.workgroup_size, done.dynamic_workgroup_size),
            done.counts,
        );
    }
    if let Some(reason) = done.hal_error {
        // Exports are completed in order: the list stays sorted.
        run.hal_errors.push((index, reason));
    }
}

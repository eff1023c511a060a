//! An export's report from two sources: its kernel's metadata (the
//! facts: parameters, kernarg and segment sizes, registers, and the
//! kernel's own projection) and the container's HAL view of it (name,
//! symbol, workgroup size, declared counts), checked against each other as
//! IREE's loader checks them.

use crate::codeobj::metadata::KernelMetadata;
use crate::status;
use crate::status::{Result, Status};

use super::document::{ExportReport, ParameterReport};

/// A kernel's own projection: its reflected constant and binding counts,
/// or why IREE refuses it.
pub(super) type Reflected = Result<(u32, u32)>;

/// What an export's report takes from its kernel's metadata: everything
/// but the container's HAL view (`name`, `hal_symbol`, the workgroup size,
/// the counts and `hal_error` are left for [`HalView::complete`]), and the
/// kernel's projection.
pub(super) fn kernel_facts<'a>(kernel: &KernelMetadata<'a>) -> (ExportReport<'a>, Reflected) {
    let visible = kernel
        .args
        .iter()
        .filter(|arg| !arg.kind.is_hidden())
        .count();
    let mut parameters = Vec::with_capacity(visible);
    let reflected = kernel
        .for_each_default_export_parameter(|parameter| {
            parameters.push(ParameterReport {
                kind: parameter.kind,
                size: parameter.size,
                offset: parameter.offset,
                name: parameter.name,
            });
        })
        .map(|counts| {
            (
                u32::from(counts.constant_count),
                u32::from(counts.binding_count),
            )
        });
    if reflected.is_err() {
        // A refused projection lists no parameters.
        parameters.clear();
    }
    let report = ExportReport {
        name: "",
        symbol: kernel.symbol,
        hal_symbol: "",
        workgroup_size: [1, 1, 1],
        dynamic_workgroup_size: false,
        constant_count: None,
        binding_count: None,
        parameters,
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
    };
    (report, reflected)
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
    /// Makes `report`, a kernel's facts whose projection is `reflected`,
    /// this export's. Never fails: where IREE's HAL would refuse the
    /// export — the view's own refusal, the projection, or declared counts
    /// below the reflected ones — the reason is its `hal_error`.
    pub(super) fn complete(self, report: &mut ExportReport<'a>, reflected: &Reflected) {
        let view = self;
        let hal_symbol = view.hal_symbol;
        let mut reasons: Vec<Status> = view.refused.into_iter().collect();
        let mut counts = view.declared;
        match (reflected, view.declared) {
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
        report.name = view.name;
        report.hal_symbol = hal_symbol;
        report.workgroup_size = view.workgroup_size;
        report.dynamic_workgroup_size = view.dynamic_workgroup_size;
        report.constant_count = counts.map(|(constants, _)| constants);
        report.binding_count = counts.map(|(_, bindings)| bindings);
        report.hal_error = (!reasons.is_empty()).then(|| {
            reasons
                .iter()
                .map(Status::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        });
    }
}

//! An export as a run keeps it ([`ExportRecord`]): an [`ExportReport`]'s
//! fields without its parameter list and `hal_error`, its optional numbers
//! packed behind one mask. A report is 200 bytes, most of them `Option`
//! padding and the two owned fields; a record is 120. At 10,000 kernels
//! the reports were 2 MB of fresh pages, 40% of `inspect --json`'s page
//! faults (`docs/PERFORMANCE.md`). The run keeps the parameters and the
//! (rare) refusals beside its records.

use super::inspect_report::{ExportReport, ParameterReport};

/// The optional numbers of a report, in [`ExportRecord::optional`]'s order.
const OPTIONAL_COUNT: usize = 9;

/// One export's report fields but its parameters and `hal_error`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ExportRecord<'a> {
    name: &'a str,
    symbol: &'a str,
    hal_symbol: &'a str,
    workgroup_size: [u32; 3],
    /// `kernarg_size`, `kernarg_alignment`, `group_segment_size`,
    /// `private_segment_size`.
    segments: [u32; 4],
    /// `constant_count`, `binding_count`, `vgpr_count`, `sgpr_count`,
    /// `agpr_count`, `vgpr_spill_count`, `sgpr_spill_count`,
    /// `wavefront_size`, `max_flat_workgroup_size`; 0 where absent.
    optional: [u32; OPTIONAL_COUNT],
    /// Bit `i` set when `optional[i]` is present.
    present: u16,
    dynamic_workgroup_size: bool,
    uses_dynamic_stack: Option<bool>,
}

/// An optional number of a record, by its place in
/// [`ExportRecord::optional`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Optional {
    ConstantCount,
    BindingCount,
    VgprCount,
    SgprCount,
    AgprCount,
    VgprSpillCount,
    SgprSpillCount,
    WavefrontSize,
    MaxFlatWorkgroupSize,
}

impl<'a> ExportRecord<'a> {
    /// The record of `report` (its parameters and `hal_error` left out).
    pub(crate) fn of(report: &ExportReport<'a>) -> Self {
        let mut optional = [0; OPTIONAL_COUNT];
        let mut present = 0u16;
        let values = [
            report.constant_count,
            report.binding_count,
            report.vgpr_count,
            report.sgpr_count,
            report.agpr_count,
            report.vgpr_spill_count,
            report.sgpr_spill_count,
            report.wavefront_size,
            report.max_flat_workgroup_size,
        ];
        for (bit, (slot, value)) in optional.iter_mut().zip(values).enumerate() {
            if let Some(value) = value {
                *slot = value;
                present |= 1 << bit;
            }
        }
        ExportRecord {
            name: report.name,
            symbol: report.symbol,
            hal_symbol: report.hal_symbol,
            workgroup_size: report.workgroup_size,
            segments: [
                report.kernarg_size,
                report.kernarg_alignment,
                report.group_segment_size,
                report.private_segment_size,
            ],
            optional,
            present,
            dynamic_workgroup_size: report.dynamic_workgroup_size,
            uses_dynamic_stack: report.uses_dynamic_stack,
        }
    }

    /// `report`'s record, and what it leaves out: its `hal_error` and its
    /// parameters (the list taken, `report`'s left empty).
    pub(crate) fn take(
        report: &mut ExportReport<'a>,
    ) -> (Self, Option<String>, Vec<ParameterReport<'a>>) {
        let parameters = std::mem::take(&mut report.parameters);
        (Self::of(report), report.hal_error.take(), parameters)
    }

    /// Sets what an export's HAL view decides: its name, HAL symbol,
    /// workgroup size (and whether it is dynamic) and constant and binding
    /// counts.
    pub(crate) fn set_view(
        &mut self,
        name: &'a str,
        hal_symbol: &'a str,
        (workgroup_size, dynamic): ([u32; 3], bool),
        counts: Option<(u32, u32)>,
    ) {
        self.name = name;
        self.hal_symbol = hal_symbol;
        self.workgroup_size = workgroup_size;
        self.dynamic_workgroup_size = dynamic;
        let mask = 1 << Optional::ConstantCount as u16 | 1 << Optional::BindingCount as u16;
        let (constants, bindings) = counts.unwrap_or_default();
        let [constant_slot, binding_slot, ..] = &mut self.optional;
        (*constant_slot, *binding_slot) = (constants, bindings);
        self.present = if counts.is_some() {
            self.present | mask
        } else {
            self.present & !mask
        };
    }

    /// The report again, with `parameters` and `hal_error`.
    pub(crate) fn report(
        &self,
        parameters: Vec<ParameterReport<'a>>,
        hal_error: Option<String>,
    ) -> ExportReport<'a> {
        let [
            constant_count,
            binding_count,
            vgpr_count,
            sgpr_count,
            agpr_count,
            vgpr_spill_count,
            sgpr_spill_count,
            wavefront_size,
            max_flat_workgroup_size,
        ] = [
            Optional::ConstantCount,
            Optional::BindingCount,
            Optional::VgprCount,
            Optional::SgprCount,
            Optional::AgprCount,
            Optional::VgprSpillCount,
            Optional::SgprSpillCount,
            Optional::WavefrontSize,
            Optional::MaxFlatWorkgroupSize,
        ]
        .map(|field| self.optional(field));
        let [
            kernarg_size,
            kernarg_alignment,
            group_segment_size,
            private_segment_size,
        ] = self.segments;
        ExportReport {
            name: self.name,
            symbol: self.symbol,
            hal_symbol: self.hal_symbol,
            workgroup_size: self.workgroup_size,
            dynamic_workgroup_size: self.dynamic_workgroup_size,
            constant_count,
            binding_count,
            parameters,
            kernarg_size,
            kernarg_alignment,
            group_segment_size,
            private_segment_size,
            vgpr_count,
            sgpr_count,
            agpr_count,
            vgpr_spill_count,
            sgpr_spill_count,
            wavefront_size,
            max_flat_workgroup_size,
            uses_dynamic_stack: self.uses_dynamic_stack,
            hal_error,
        }
    }
}

/// The fields of one export that its JSON is written from, whether a run
/// keeps it as an [`ExportRecord`] or a report holds it whole.
pub(crate) trait ExportFields<'a> {
    /// The HAL function name.
    fn name(&self) -> &'a str;
    /// The kernel descriptor symbol.
    fn symbol(&self) -> &'a str;
    /// The name IREE's HAL resolves the export by.
    fn hal_symbol(&self) -> &'a str;
    /// The workgroup size, and whether it is dynamic.
    fn workgroup_size(&self) -> ([u32; 3], bool);
    /// `kernarg_size`, `kernarg_alignment`, `group_segment_size`,
    /// `private_segment_size`.
    fn segments(&self) -> [u32; 4];
    /// One of the optional numbers.
    fn optional(&self, field: Optional) -> Option<u32>;
    /// `.uses_dynamic_stack`.
    fn uses_dynamic_stack(&self) -> Option<bool>;
}

impl<'a> ExportFields<'a> for ExportRecord<'a> {
    fn name(&self) -> &'a str {
        self.name
    }

    fn symbol(&self) -> &'a str {
        self.symbol
    }

    fn hal_symbol(&self) -> &'a str {
        self.hal_symbol
    }

    fn workgroup_size(&self) -> ([u32; 3], bool) {
        (self.workgroup_size, self.dynamic_workgroup_size)
    }

    fn segments(&self) -> [u32; 4] {
        self.segments
    }

    fn optional(&self, field: Optional) -> Option<u32> {
        let bit = field as usize;
        let value = self.optional.get(bit).copied();
        value.filter(|_| self.present >> bit & 1 == 1)
    }

    fn uses_dynamic_stack(&self) -> Option<bool> {
        self.uses_dynamic_stack
    }
}

impl<'a> ExportFields<'a> for ExportReport<'a> {
    fn name(&self) -> &'a str {
        self.name
    }

    fn symbol(&self) -> &'a str {
        self.symbol
    }

    fn hal_symbol(&self) -> &'a str {
        self.hal_symbol
    }

    fn workgroup_size(&self) -> ([u32; 3], bool) {
        (self.workgroup_size, self.dynamic_workgroup_size)
    }

    fn segments(&self) -> [u32; 4] {
        [
            self.kernarg_size,
            self.kernarg_alignment,
            self.group_segment_size,
            self.private_segment_size,
        ]
    }

    fn optional(&self, field: Optional) -> Option<u32> {
        match field {
            Optional::ConstantCount => self.constant_count,
            Optional::BindingCount => self.binding_count,
            Optional::VgprCount => self.vgpr_count,
            Optional::SgprCount => self.sgpr_count,
            Optional::AgprCount => self.agpr_count,
            Optional::VgprSpillCount => self.vgpr_spill_count,
            Optional::SgprSpillCount => self.sgpr_spill_count,
            Optional::WavefrontSize => self.wavefront_size,
            Optional::MaxFlatWorkgroupSize => self.max_flat_workgroup_size,
        }
    }

    fn uses_dynamic_stack(&self) -> Option<bool> {
        self.uses_dynamic_stack
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codeobj::metadata::ParameterType;

    fn report<'a>() -> ExportReport<'a> {
        ExportReport {
            name: "k",
            symbol: "k.kd",
            hal_symbol: "k_hal.kd",
            workgroup_size: [4, 5, 6],
            dynamic_workgroup_size: true,
            constant_count: Some(1),
            binding_count: Some(2),
            parameters: vec![ParameterReport {
                kind: ParameterType::Binding,
                size: 8,
                offset: 0,
                name: "buffer",
            }],
            kernarg_size: 24,
            kernarg_alignment: 8,
            group_segment_size: 512,
            private_segment_size: 16,
            vgpr_count: Some(3),
            sgpr_count: Some(4),
            agpr_count: Some(5),
            vgpr_spill_count: Some(6),
            sgpr_spill_count: Some(7),
            wavefront_size: Some(64),
            max_flat_workgroup_size: Some(256),
            uses_dynamic_stack: Some(true),
            hal_error: Some("INVALID_ARGUMENT; refused".into()),
        }
    }

    #[test]
    fn a_record_gives_back_the_report_it_was_taken_from() {
        let original = report();
        let mut taken = original.clone();
        let (record, hal_error, parameters) = ExportRecord::take(&mut taken);
        assert_eq!(hal_error.as_deref(), Some("INVALID_ARGUMENT; refused"));
        assert_eq!(parameters, original.parameters);
        assert!(taken.parameters.is_empty() && taken.hal_error.is_none());
        assert_eq!(record.report(parameters, hal_error), original);
    }

    #[test]
    fn each_absent_number_stays_absent_and_no_other() {
        // One optional field at a time absent (and every one), so that a
        // field read back from another's slot or mask bit shows.
        let clear: [fn(&mut ExportReport<'_>); OPTIONAL_COUNT] = [
            |r| r.constant_count = None,
            |r| r.binding_count = None,
            |r| r.vgpr_count = None,
            |r| r.sgpr_count = None,
            |r| r.agpr_count = None,
            |r| r.vgpr_spill_count = None,
            |r| r.sgpr_spill_count = None,
            |r| r.wavefront_size = None,
            |r| r.max_flat_workgroup_size = None,
        ];
        let mut all_absent = report();
        for clear in clear {
            let mut original = report();
            clear(&mut original);
            clear(&mut all_absent);
            for original in [&original, &all_absent] {
                let mut taken = original.clone();
                let (record, hal_error, parameters) = ExportRecord::take(&mut taken);
                assert_eq!(&record.report(parameters, hal_error), original);
            }
        }
        let mut original = report();
        original.uses_dynamic_stack = None;
        original.hal_error = None;
        original.dynamic_workgroup_size = false;
        let (record, hal_error, parameters) = ExportRecord::take(&mut original.clone());
        assert_eq!(record.report(parameters, hal_error), original);
    }

    #[test]
    fn a_view_sets_the_name_symbol_size_and_counts_and_nothing_else() {
        let mut original = report();
        original.hal_error = None;
        let (mut record, _, parameters) = ExportRecord::take(&mut original.clone());
        record.set_view("view", "view.kd", ([7, 8, 9], false), Some((3, 4)));
        let mut expected = original.clone();
        (expected.name, expected.hal_symbol) = ("view", "view.kd");
        (expected.workgroup_size, expected.dynamic_workgroup_size) = ([7, 8, 9], false);
        (expected.constant_count, expected.binding_count) = (Some(3), Some(4));
        assert_eq!(record.report(parameters.clone(), None), expected);
        // No counts (a refused projection): both absent, the rest kept.
        record.set_view("view", "view.kd", ([7, 8, 9], true), None);
        (expected.constant_count, expected.binding_count) = (None, None);
        expected.dynamic_workgroup_size = true;
        assert_eq!(record.report(parameters.clone(), None), expected);
        record.set_view("view", "view.kd", ([7, 8, 9], true), Some((0, 0)));
        (expected.constant_count, expected.binding_count) = (Some(0), Some(0));
        assert_eq!(record.report(parameters, None), expected);
    }

    #[test]
    fn a_record_is_smaller_than_a_report() {
        // What the record is for: fewer fresh pages per export.
        assert!(
            size_of::<ExportRecord<'_>>() <= 120,
            "{}",
            size_of::<ExportRecord<'_>>()
        );
        assert!(size_of::<ExportRecord<'_>>() * 5 <= size_of::<ExportReport<'_>>() * 3);
    }
}

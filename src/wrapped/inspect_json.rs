//! [`InspectReport`] as JSON, written by hand (`json_writer`): the
//! same bytes serde's pretty printer gives (with DEL and C1 escaped). A report of 10,000
//! kernels is ~8 MB of JSON; through serde most of `inspect`'s time went to
//! per-token writes and to escaping the constant keys.

use std::io::{self, Write};

use crate::codeobj::metadata::ParameterType;
use crate::input::Progress;
pub use crate::json_writer::CHUNK_BYTES;
use crate::json_writer::{JsonChunks, write_on_two_threads};

use super::export_record::{ExportFields, Optional};
use super::export_runs::{ExportRun, InspectRuns, NameCopies};
use super::infer::Container;
use super::inspect_report::{ExportReport, InspectReport, ParameterReport};

impl InspectReport<'_> {
    /// Writes the report as pretty JSON (what `serde_json::to_writer_pretty`
    /// writes, without its cost; no trailing newline).
    pub fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        write_report(self, out)
    }

    /// [`Self::write_json`], telling `progress` after each export how far
    /// into the inspected file's bytes the writing has got (the export's
    /// symbol: exports come in metadata order), so that a mapped file's
    /// pages can go behind it ([`crate::input::ReleaseBehind`]).
    pub fn write_json_with(&self, out: &mut dyn Write, progress: &dyn Progress) -> io::Result<()> {
        write_with_progress(self, &[RunView::Reports(&self.exports)], out, progress)
    }
}

impl InspectRuns<'_> {
    /// [`InspectReport::write_json_with`] for the report these runs make:
    /// the same bytes, written run after run.
    pub fn write_json_with(&self, out: &mut dyn Write, progress: &dyn Progress) -> io::Result<()> {
        let runs: Vec<RunView<'_, '_>> = [RunView::Reports(&self.report.exports)]
            .into_iter()
            .chain(self.runs.iter().map(RunView::Run))
            .collect();
        write_with_progress(&self.report, &runs, out, progress)
    }
}

/// Writes `report` as pretty JSON (no trailing newline) to `out`.
pub fn write_report(report: &InspectReport<'_>, out: &mut dyn Write) -> io::Result<()> {
    write_with_progress(report, &[RunView::Reports(&report.exports)], out, &())
}

/// Fewest exports for the document to be formatted on a second thread
/// while this one writes it (`json_writer::write_on_two_threads`).
pub const THREADED_MIN_EXPORTS: usize = 512;

/// Exports to write: a report's own list (each with its parameters, its
/// names read from it), or a run's records ([`ExportRun`]).
#[derive(Clone, Copy)]
enum RunView<'r, 'a> {
    Reports(&'r [ExportReport<'a>]),
    Run(&'r ExportRun<'a>),
}

impl<'r, 'a> RunView<'r, 'a> {
    fn len(self) -> usize {
        match self {
            RunView::Reports(exports) => exports.len(),
            RunView::Run(run) => run.len(),
        }
    }

    /// The names' copies ([`ExportRun::names`]), or `""`.
    fn names(self) -> &'r str {
        match self {
            RunView::Reports(_) => "",
            RunView::Run(run) => &run.names,
        }
    }
}

/// Writes the document of `report`'s header and the exports of `runs`.
fn write_with_progress(
    report: &InspectReport<'_>,
    runs: &[RunView<'_, '_>],
    out: &mut dyn Write,
    progress: &dyn Progress,
) -> io::Result<()> {
    let exports = runs.iter().map(|run| run.len()).sum::<usize>();
    let document = |json: &mut JsonChunks<'_>| write_document(json, report, runs);
    if exports >= THREADED_MIN_EXPORTS {
        write_on_two_threads(out, progress, &document)
    } else {
        document(&mut JsonChunks::with_progress(out, progress))
    }
}

/// The whole document. Where a run's names are read from the inspected
/// file rather than from copies, each export marks how far into the file's
/// bytes the writing is (the export's symbol: exports come in metadata
/// order).
fn write_document(
    json: &mut JsonChunks<'_>,
    report: &InspectReport<'_>,
    runs: &[RunView<'_, '_>],
) -> io::Result<()> {
    json.raw(b"{\n  \"container\": ");
    json.string(match report.container {
        Container::Amd1 => "amd1",
        Container::Hip1 => "hip1",
        Container::Elf => "elf",
    });
    json.raw(b",\n  \"format\": ");
    json.string(&report.format);
    json.raw(b",\n  \"size\": ");
    json.int(report.size);
    json.raw(b",\n  \"code_object_version\": ");
    json.int(report.code_object_version);
    json.raw(b",\n  \"exports\": ");
    if runs.iter().all(|run| run.len() == 0) {
        json.raw(b"[]");
    } else {
        json.raw(b"[");
        let mut first = true;
        for run in runs {
            let mut copies = NameCopies::new(run.names());
            let from_file = !copies.any();
            match *run {
                RunView::Reports(exports) => {
                    let exports = exports.iter().map(|export| {
                        let hal_error = export.hal_error.as_deref();
                        (export, hal_error, export.parameters.as_slice())
                    });
                    json.exports(exports, &mut first, &mut copies, from_file)?;
                }
                RunView::Run(run) => {
                    json.exports(run.each(), &mut first, &mut copies, from_file)?;
                }
            }
        }
        json.raw(b"\n  ]");
    }
    json.raw(b"\n}");
    json.flush()
}

impl JsonChunks<'_> {
    /// Each export (its fields, `hal_error` and parameters) after any
    /// written before (`first` false); one whose names are read from the
    /// file (`from_file`) marks how far into it the writing is.
    fn exports<'e, 'a: 'e, E: ExportFields<'a> + 'e>(
        &mut self,
        exports: impl Iterator<Item = (&'e E, Option<&'e str>, &'e [ParameterReport<'a>])>,
        first: &mut bool,
        copies: &mut NameCopies<'_>,
        from_file: bool,
    ) -> io::Result<()> {
        for (export, hal_error, parameters) in exports {
            self.raw(if *first { b"\n" } else { b",\n" });
            *first = false;
            self.export(export, hal_error, parameters, copies);
            if from_file {
                self.mark(export.symbol().as_ptr() as usize);
            }
            self.flush_if_full()?;
        }
        Ok(())
    }

    /// One export (`record`, `hal_error`) with its `parameters`, its names
    /// read from `copies` (in [`super::export_runs::for_each_name`]'s order).
    fn export<'a>(
        &mut self,
        record: &impl ExportFields<'a>,
        hal_error: Option<&str>,
        parameters: &[ParameterReport<'_>],
        copies: &mut NameCopies<'_>,
    ) {
        self.raw(b"    {\n      \"name\": ");
        self.string(copies.next(record.name()));
        self.raw(b",\n      \"symbol\": ");
        self.string(copies.next(record.symbol()));
        self.raw(b",\n      \"hal_symbol\": ");
        self.string(copies.next(record.hal_symbol()));
        self.raw(b",\n      \"workgroup_size\": [\n        ");
        let ([x, y, z], dynamic) = record.workgroup_size();
        self.int(x);
        self.raw(b",\n        ");
        self.int(y);
        self.raw(b",\n        ");
        self.int(z);
        self.raw(b"\n      ],\n      \"dynamic_workgroup_size\": ");
        self.bool(dynamic);
        self.raw(b",\n      \"constant_count\": ");
        self.opt_int(record.optional(Optional::ConstantCount));
        self.raw(b",\n      \"binding_count\": ");
        self.opt_int(record.optional(Optional::BindingCount));
        self.raw(b",\n      \"parameters\": ");
        if parameters.is_empty() {
            self.raw(b"[]");
        } else {
            self.raw(b"[");
            for (i, parameter) in parameters.iter().enumerate() {
                self.raw(if i == 0 { b"\n" } else { b",\n" });
                self.parameter(parameter, copies.next(parameter.name));
            }
            self.raw(b"\n      ]");
        }
        let [kernarg_size, kernarg_alignment, group, private] = record.segments();
        self.raw(b",\n      \"kernarg_size\": ");
        self.int(kernarg_size);
        self.raw(b",\n      \"kernarg_alignment\": ");
        self.int(kernarg_alignment);
        self.raw(b",\n      \"group_segment_size\": ");
        self.int(group);
        self.raw(b",\n      \"private_segment_size\": ");
        self.int(private);
        self.raw(b",\n      \"vgpr_count\": ");
        self.opt_int(record.optional(Optional::VgprCount));
        self.raw(b",\n      \"sgpr_count\": ");
        self.opt_int(record.optional(Optional::SgprCount));
        self.raw(b",\n      \"agpr_count\": ");
        self.opt_int(record.optional(Optional::AgprCount));
        self.raw(b",\n      \"vgpr_spill_count\": ");
        self.opt_int(record.optional(Optional::VgprSpillCount));
        self.raw(b",\n      \"sgpr_spill_count\": ");
        self.opt_int(record.optional(Optional::SgprSpillCount));
        self.raw(b",\n      \"wavefront_size\": ");
        self.opt_int(record.optional(Optional::WavefrontSize));
        self.raw(b",\n      \"max_flat_workgroup_size\": ");
        self.opt_int(record.optional(Optional::MaxFlatWorkgroupSize));
        self.raw(b",\n      \"uses_dynamic_stack\": ");
        match record.uses_dynamic_stack() {
            Some(value) => self.bool(value),
            None => self.raw(b"null"),
        }
        self.raw(b",\n      \"hal_error\": ");
        match hal_error {
            Some(reason) => self.string(reason),
            None => self.raw(b"null"),
        }
        self.raw(b"\n    }");
    }

    /// One parameter, its name `name` (the parameter's own or a copy).
    fn parameter(&mut self, parameter: &ParameterReport<'_>, name: &str) {
        // The type is one of three fixed names: written with its key.
        let head: &[u8] = match parameter.kind {
            ParameterType::Binding => {
                b"        {\n          \"type\": \"binding\",\n          \"size\": "
            }
            ParameterType::Constant => {
                b"        {\n          \"type\": \"constant\",\n          \"size\": "
            }
            ParameterType::BufferPtr => {
                b"        {\n          \"type\": \"buffer_ptr\",\n          \"size\": "
            }
        };
        self.raw(head);
        self.int(parameter.size);
        self.raw(b",\n          \"offset\": ");
        self.int(parameter.offset);
        self.raw(b",\n          \"name\": ");
        self.string(name);
        self.raw(b"\n        }");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn report_json(report: &InspectReport<'_>) -> String {
        let mut out = Vec::new();
        write_report(report, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn export<'a>(name: &'a str, parameters: Vec<ParameterReport<'a>>) -> ExportReport<'a> {
        ExportReport {
            name,
            symbol: name,
            hal_symbol: name,
            workgroup_size: [64, 1, 1],
            dynamic_workgroup_size: false,
            constant_count: Some(1),
            binding_count: Some(2),
            parameters,
            kernarg_size: u32::MAX,
            kernarg_alignment: 8,
            group_segment_size: 0,
            private_segment_size: 16,
            vgpr_count: Some(12),
            sgpr_count: None,
            agpr_count: Some(0),
            vgpr_spill_count: Some(u32::MAX),
            sgpr_spill_count: None,
            wavefront_size: Some(64),
            max_flat_workgroup_size: Some(1024),
            uses_dynamic_stack: Some(false),
            hal_error: None,
        }
    }

    #[test]
    fn empty_lists_print_as_serde_does() {
        let mut report = InspectReport {
            container: Container::Hip1,
            format: "gfx90a:xnack+".into(),
            size: u64::MAX,
            code_object_version: 6,
            exports: Vec::new(),
        };
        assert_eq!(
            report_json(&report),
            crate::json_writer::to_string_pretty(&report).unwrap()
        );
        report.exports.push(export("k", Vec::new()));
        assert_eq!(
            report_json(&report),
            crate::json_writer::to_string_pretty(&report).unwrap()
        );
    }

    #[test]
    fn chunks_reach_the_writer_in_order() {
        // Enough exports to flush several chunks.
        let names: Vec<String> = (0..2000).map(|i| format!("kernel_{i}")).collect();
        let exports = names
            .iter()
            .map(|name| {
                let parameter = ParameterReport {
                    kind: ParameterType::Constant,
                    size: 4,
                    offset: 0,
                    name,
                };
                export(name, vec![parameter])
            })
            .collect();
        let report = InspectReport {
            container: Container::Elf,
            format: "gfx942".into(),
            size: 1,
            code_object_version: 5,
            exports,
        };
        let json = report_json(&report);
        assert!(json.len() > 4 * CHUNK_BYTES);
        assert_eq!(json, crate::json_writer::to_string_pretty(&report).unwrap());
    }

    proptest! {
        #[test]
        fn same_bytes_as_serde(
            names in proptest::collection::vec(".{0,12}", 0..6),
            kinds in proptest::collection::vec(0usize..3, 0..6),
            sizes in any::<(u8, u16, u32, bool)>(),
        ) {
            let exports = names
                .iter()
                .map(|name| {
                    let parameters = kinds
                        .iter()
                        .map(|&k| ParameterReport {
                            kind: [
                                ParameterType::Binding,
                                ParameterType::Constant,
                                ParameterType::BufferPtr,
                            ][k],
                            size: sizes.0,
                            offset: sizes.1,
                            name,
                        })
                        .collect();
                    let mut e = export(name, parameters);
                    e.kernarg_size = sizes.2;
                    e.dynamic_workgroup_size = sizes.3;
                    e.uses_dynamic_stack = [None, Some(true), Some(false)][kinds.len() % 3];
                    e.sgpr_count = sizes.3.then_some(sizes.2);
                    if sizes.3 {
                        // A refused raw kernel: no counts, a reason to escape.
                        e.constant_count = None;
                        e.binding_count = None;
                        e.hal_error = Some(format!("INVALID_ARGUMENT; \"{name}\"\n"));
                    }
                    e
                })
                .collect();
            let report = InspectReport {
                container: Container::Amd1,
                format: names.first().cloned().unwrap_or_default(),
                size: u64::from(sizes.2),
                code_object_version: 4,
                exports,
            };
            prop_assert_eq!(report_json(&report), crate::json_writer::to_string_pretty(&report).unwrap());
        }
    }
}

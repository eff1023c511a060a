//! [`InspectReport`] as JSON, written by hand (`json_writer`): the same
//! bytes serde's pretty printer gives for the report (with DEL and C1
//! escaped). A report of 10,000 kernels is ~8 MB of small values, where
//! serde's per-token writes cost several times the formatting itself.

use std::io::{self, Write};

use crate::codeobj::metadata::ParameterType;
use crate::input::Progress;
use crate::json_writer::JsonChunks;
use crate::wrapped::Container;

use super::document::{ExportReport, InspectReport, ParameterReport};

impl InspectReport<'_> {
    /// Writes the report as pretty JSON (no trailing newline), telling
    /// `progress` after each export how far into the inspected file the
    /// writing has got (its symbol: exports come in metadata order), so
    /// that a mapped file's pages can go behind it
    /// ([`crate::input::ReleaseBehind`]; `&()` when nothing listens).
    pub fn write_json(&self, out: &mut dyn Write, progress: &dyn Progress) -> io::Result<()> {
        let mut json = JsonChunks::new(out);
        json.raw(b"{\n  \"container\": ");
        json.string(match self.container {
            Container::Amd1 => "amd1",
            Container::Hip1 => "hip1",
            Container::Elf => "elf",
        });
        json.raw(b",\n  \"format\": ");
        json.string(&self.format);
        json.raw(b",\n  \"size\": ");
        json.int(self.size);
        json.raw(b",\n  \"code_object_version\": ");
        json.int(self.code_object_version);
        json.raw(b",\n  \"exports\": ");
        if self.exports.is_empty() {
            json.raw(b"[]");
        } else {
            json.raw(b"[");
            for (i, export) in self.exports.iter().enumerate() {
                json.raw(if i == 0 { b"\n" } else { b",\n" });
                write_export(&mut json, export);
                progress.past(export.symbol.as_ptr() as usize);
                json.flush_if_full()?;
            }
            json.raw(b"\n  ]");
        }
        json.raw(b"\n}");
        json.flush()
    }
}

fn write_export(json: &mut JsonChunks<'_>, export: &ExportReport<'_>) {
    json.raw(b"    {\n      \"name\": ");
    json.string(export.name);
    json.raw(b",\n      \"symbol\": ");
    json.string(export.symbol);
    json.raw(b",\n      \"hal_symbol\": ");
    json.string(export.hal_symbol);
    json.raw(b",\n      \"workgroup_size\": [\n        ");
    let [x, y, z] = export.workgroup_size;
    json.int(x);
    json.raw(b",\n        ");
    json.int(y);
    json.raw(b",\n        ");
    json.int(z);
    json.raw(b"\n      ],\n      \"dynamic_workgroup_size\": ");
    json.bool(export.dynamic_workgroup_size);
    json.raw(b",\n      \"constant_count\": ");
    json.opt_int(export.constant_count);
    json.raw(b",\n      \"binding_count\": ");
    json.opt_int(export.binding_count);
    json.raw(b",\n      \"parameters\": ");
    if export.parameters.is_empty() {
        json.raw(b"[]");
    } else {
        json.raw(b"[");
        for (i, parameter) in export.parameters.iter().enumerate() {
            json.raw(if i == 0 { b"\n" } else { b",\n" });
            write_parameter(json, parameter);
        }
        json.raw(b"\n      ]");
    }
    json.raw(b",\n      \"kernarg_size\": ");
    json.int(export.kernarg_size);
    json.raw(b",\n      \"kernarg_alignment\": ");
    json.int(export.kernarg_alignment);
    json.raw(b",\n      \"group_segment_size\": ");
    json.int(export.group_segment_size);
    json.raw(b",\n      \"private_segment_size\": ");
    json.int(export.private_segment_size);
    json.raw(b",\n      \"vgpr_count\": ");
    json.opt_int(export.vgpr_count);
    json.raw(b",\n      \"sgpr_count\": ");
    json.opt_int(export.sgpr_count);
    json.raw(b",\n      \"agpr_count\": ");
    json.opt_int(export.agpr_count);
    json.raw(b",\n      \"vgpr_spill_count\": ");
    json.opt_int(export.vgpr_spill_count);
    json.raw(b",\n      \"sgpr_spill_count\": ");
    json.opt_int(export.sgpr_spill_count);
    json.raw(b",\n      \"wavefront_size\": ");
    json.opt_int(export.wavefront_size);
    json.raw(b",\n      \"max_flat_workgroup_size\": ");
    json.opt_int(export.max_flat_workgroup_size);
    json.raw(b",\n      \"uses_dynamic_stack\": ");
    match export.uses_dynamic_stack {
        Some(value) => json.bool(value),
        None => json.raw(b"null"),
    }
    json.raw(b",\n      \"hal_error\": ");
    match &export.hal_error {
        Some(reason) => json.string(reason),
        None => json.raw(b"null"),
    }
    json.raw(b"\n    }");
}

fn write_parameter(json: &mut JsonChunks<'_>, parameter: &ParameterReport<'_>) {
    // The type is one of three fixed names: written with its key.
    json.raw(match parameter.kind {
        ParameterType::Binding => {
            b"        {\n          \"type\": \"binding\",\n          \"size\": "
        }
        ParameterType::Constant => {
            b"        {\n          \"type\": \"constant\",\n          \"size\": "
        }
        ParameterType::BufferPtr => {
            b"        {\n          \"type\": \"buffer_ptr\",\n          \"size\": "
        }
    });
    json.int(parameter.size);
    json.raw(b",\n          \"offset\": ");
    json.int(parameter.offset);
    json.raw(b",\n          \"name\": ");
    json.string(parameter.name);
    json.raw(b"\n        }");
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn report_json(report: &InspectReport<'_>) -> String {
        let mut out = Vec::new();
        report.write_json(&mut out, &()).unwrap();
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
        assert!(json.len() > 4 * crate::json_writer::CHUNK_BYTES);
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

//! The `load --json` document written by hand (`json_writer`): the
//! same bytes serde's pretty printer gives for [`LoadJson`] (with DEL and C1 escaped), which
//! the tests hold it to. An 8-device load of a large object writes tens of
//! megabytes of small values, where serde's per-token writes dominated.

use std::io::{self, Write};

use super::load::{CodeObjectLoadJson, DeviceExportJson, LoadExportJson, LoadJson};
use crate::json_writer::JsonChunks;

/// Writes `doc` as pretty JSON (no trailing newline) to `out`.
pub fn write_load(doc: &LoadJson, out: &mut dyn Write) -> io::Result<()> {
    write_document(&mut JsonChunks::new(out), doc)
}

fn write_document(json: &mut JsonChunks<'_>, doc: &LoadJson) -> io::Result<()> {
    json.raw(b"{\n  \"machine\": ");
    json.string(&doc.machine);
    json.raw(b",\n  \"backend\": ");
    json.string(&doc.backend);
    json.raw(b",\n  \"container\": ");
    json.string(doc.container);
    if let Some(embedded) = &doc.embedded {
        json.raw(b",\n  \"embedded\": {\n    \"segment\": ");
        json.int(embedded.segment);
        json.raw(b",\n    \"container\": ");
        json.string(embedded.container);
        json.raw(b"\n  }");
    }
    json.raw(b",\n  \"format\": ");
    json.string(&doc.format);
    json.raw(b",\n  \"queue_affinity\": ");
    json.string(&doc.queue_affinity);
    json.raw(b",\n  \"loaded_devices\": ");
    json.int_list(&doc.loaded_devices, b"  ");
    json.raw(b",\n  \"profile_id\": ");
    json.int(doc.profile_id);
    json.raw(b",\n  \"code_object_hash\": [\n    ");
    json.string(&doc.code_object_hash[0]);
    json.raw(b",\n    ");
    json.string(&doc.code_object_hash[1]);
    json.raw(b"\n  ],\n  \"code_object_loads\": ");
    if doc.code_object_loads.is_empty() {
        json.raw(b"[]");
    } else {
        json.raw(b"[");
        for (i, load) in doc.code_object_loads.iter().enumerate() {
            json.raw(if i == 0 { b"\n" } else { b",\n" });
            write_code_object_load(json, load);
        }
        json.raw(b"\n  ]");
    }
    json.raw(b",\n  \"exports\": ");
    if doc.exports.is_empty() {
        json.raw(b"[]");
    } else {
        json.raw(b"[");
        for (i, export) in doc.exports.iter().enumerate() {
            json.raw(if i == 0 { b"\n" } else { b",\n" });
            write_export(json, export);
            json.flush_if_full()?;
        }
        json.raw(b"\n  ]");
    }
    json.raw(b"\n}");
    json.flush()
}

fn write_code_object_load(json: &mut JsonChunks<'_>, load: &CodeObjectLoadJson) {
    json.raw(b"    {\n      \"device\": ");
    json.int(load.device);
    json.raw(b",\n      \"load_delta\": ");
    json.hex_string(load.load_delta.0);
    json.raw(b",\n      \"load_size\": ");
    json.int(load.load_size);
    json.raw(b"\n    }");
}

fn write_export(json: &mut JsonChunks<'_>, export: &LoadExportJson) {
    json.raw(b"    {\n      \"name\": ");
    json.string(&export.name);
    json.raw(b",\n      \"symbol\": ");
    json.string(&export.symbol);
    json.raw(b",\n      \"kernel_objects\": ");
    if export.kernel_objects.is_empty() {
        json.raw(b"[]");
    } else {
        json.raw(b"[");
        for (i, object) in export.kernel_objects.iter().enumerate() {
            json.raw(if i == 0 {
                b"\n        "
            } else {
                b",\n        "
            });
            json.hex_string(object.0);
        }
        json.raw(b"\n      ]");
    }
    json.raw(b",\n      \"workgroup_size\": ");
    json.int_list(&export.workgroup_size, b"      ");
    json.raw(b",\n      \"dynamic_workgroup_size\": ");
    json.bool(export.dynamic_workgroup_size);
    json.raw(b",\n      \"constant_count\": ");
    json.int(export.constant_count);
    json.raw(b",\n      \"binding_count\": ");
    json.int(export.binding_count);
    json.raw(b",\n      \"parameter_count\": ");
    json.int(export.parameter_count);
    let args = &export.kernel_args;
    json.raw(b",\n      \"kernel_args\": {\n        \"kernarg_size\": ");
    json.int(args.kernarg_size);
    json.raw(b",\n        \"kernarg_alignment\": ");
    json.int(args.kernarg_alignment);
    json.raw(b",\n        \"hsa_kernarg_alignment\": ");
    json.int(args.hsa_kernarg_alignment);
    json.raw(b",\n        \"group_segment_size\": ");
    json.int(args.group_segment_size);
    json.raw(b",\n        \"private_segment_size\": ");
    json.int(args.private_segment_size);
    json.raw(b"\n      },\n      \"devices\": ");
    if export.devices.is_empty() {
        json.raw(b"[]");
    } else {
        json.raw(b"[");
        for (i, device) in export.devices.iter().enumerate() {
            json.raw(if i == 0 { b"\n" } else { b",\n" });
            write_device(json, device);
        }
        json.raw(b"\n      ]");
    }
    json.raw(b"\n    }");
}

fn write_device(json: &mut JsonChunks<'_>, device: &DeviceExportJson) {
    json.raw(b"        {\n          \"device\": ");
    json.int(device.device);
    json.raw(b",\n          \"kernel_object\": ");
    json.hex_string(device.kernel_object.0);
    json.raw(b",\n          \"kernel_args_address\": ");
    json.hex_string(device.kernel_args_address.0);
    json.raw(b",\n          \"hal_kernarg_size\": ");
    json.int(device.hal_kernarg_size);
    json.raw(b",\n          \"hal_implicit_args\": ");
    json.bool(device.hal_implicit_args);
    json.raw(b",\n          \"hal_kernarg_blocks\": ");
    json.int(device.hal_kernarg_blocks);
    json.raw(b",\n          \"custom_kernarg_blocks\": ");
    json.int(device.custom_kernarg_blocks);
    json.raw(b",\n          \"max_workgroup_count\": ");
    json.int_list(&device.max_workgroup_count, b"          ");
    json.raw(b",\n          \"max_dynamic_workgroup_local_memory\": ");
    json.int(device.max_dynamic_workgroup_local_memory);
    json.raw(b"\n        }");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::load::EmbeddedSource;
    use crate::report::load::{CodeObjectLoadJson, Hex, KernelArgsJson};
    use proptest::prelude::*;

    fn device(n: usize, names: &str) -> DeviceExportJson {
        DeviceExportJson {
            device: n,
            kernel_object: Hex(u64::MAX >> (4 * (n % 16)) ^ names.len() as u64),
            kernel_args_address: Hex(n as u64 * 40),
            hal_kernarg_size: n * 8,
            hal_implicit_args: n.is_multiple_of(2),
            hal_kernarg_blocks: n as u32,
            custom_kernarg_blocks: n as u32 + 1,
            max_workgroup_count: [u32::MAX, n as u32, 0],
            max_dynamic_workgroup_local_memory: 65_536,
        }
    }

    fn doc(exports: usize, devices: usize, name: &str) -> LoadJson {
        LoadJson {
            machine: name.to_string(),
            backend: "sim".into(),
            container: "amd1",
            embedded: (exports % 2 == 1).then_some(EmbeddedSource {
                segment: devices,
                container: "hip1",
            }),
            format: format!("amdgcn-amd-amdhsa--{name}"),
            queue_affinity: "0xffffffffffffffff".into(),
            loaded_devices: (0..devices).collect(),
            profile_id: u64::MAX,
            code_object_hash: ["0x0123".into(), "0xabcd".into()],
            code_object_loads: (0..devices)
                .map(|d| CodeObjectLoadJson {
                    device: d,
                    load_delta: Hex((d as u64).wrapping_neg()),
                    load_size: d as u64 * 4096,
                })
                .collect(),
            exports: (0..exports)
                .map(|e| LoadExportJson {
                    name: format!("{name}{e}"),
                    symbol: format!("{name}{e}.kd"),
                    kernel_objects: (0..devices)
                        .map(|d| Hex(d as u64 * 0x1_0000_0040))
                        .collect(),
                    workgroup_size: [e as u32, 1, 1],
                    dynamic_workgroup_size: e.is_multiple_of(3),
                    constant_count: e as u16,
                    binding_count: 2,
                    parameter_count: u16::MAX,
                    kernel_args: KernelArgsJson {
                        kernarg_size: 4096,
                        kernarg_alignment: 8,
                        hsa_kernarg_alignment: 16,
                        group_segment_size: 0,
                        private_segment_size: u32::MAX,
                    },
                    devices: (0..devices).map(|d| device(d, name)).collect(),
                })
                .collect(),
        }
    }

    fn ours(doc: &LoadJson) -> String {
        let mut out = Vec::new();
        write_load(doc, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// Records the size of every write it is given.
    struct Writes(Vec<usize>, Vec<u8>);

    impl Write for Writes {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.push(buf.len());
            self.1.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A large document reaches the writer in chunks of at least 64 KiB
    /// (one system call per chunk on stdout), the last one excepted.
    #[test]
    fn large_documents_are_written_in_64_kib_chunks() {
        let doc = doc(2000, 8, "kernel");
        let mut writes = Writes(Vec::new(), Vec::new());
        write_load(&doc, &mut writes).unwrap();
        let (last, full) = writes.0.split_last().unwrap();
        assert!(full.len() >= 2, "{} writes", writes.0.len());
        assert!(full.iter().all(|&n| n >= 64 * 1024), "{:?}", writes.0);
        assert!(*last > 0);
        assert_eq!(
            writes.1,
            crate::json_writer::to_string_pretty(&doc)
                .unwrap()
                .into_bytes()
        );
    }

    #[test]
    fn empty_lists_print_as_serde_does() {
        let empty = doc(0, 0, "");
        assert_eq!(
            ours(&empty),
            crate::json_writer::to_string_pretty(&empty).unwrap()
        );
        let no_devices = doc(2, 0, "k");
        assert_eq!(
            ours(&no_devices),
            crate::json_writer::to_string_pretty(&no_devices).unwrap()
        );
    }

    proptest! {
        #[test]
        fn same_bytes_as_serde(
            exports in 0usize..6,
            devices in 0usize..5,
            name in "\\PC{0,12}|[\\u{0}-\\u{1f}\"\\\\]{0,4}",
        ) {
            let doc = doc(exports, devices, &name);
            prop_assert_eq!(ours(&doc), crate::json_writer::to_string_pretty(&doc).unwrap());
        }
    }
}

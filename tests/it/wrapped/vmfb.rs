//! IREE bytecode modules (`.vmfb`): the executables found among a module's
//! read-only data segments, held against IREE's own `iree-dump-module`
//! (every segment's bytes as it prints them) on every committed module;
//! hostile modules refused with the code and a key word, never a panic.

use std::collections::BTreeMap;
use std::process::Command;

use amdgpu_hal::StatusCode;
use amdgpu_hal::report::inspect::inspect;
use amdgpu_hal::report::vmfb::inspect_vmfb;
use amdgpu_hal::wrapped::DeviceLimits;
use amdgpu_hal::wrapped::vmfb::{self, EmbeddedKind};
use amdgpu_hal_schemas::vm::iree::vm as fb;

use crate::sim::iree_client::iree;
use crate::support::fixture_files;

/// Every committed module, as (path under fixtures/, bytes).
fn modules() -> Vec<(String, Vec<u8>)> {
    let mut all = Vec::new();
    for dir in ["iree/vmfb", "kernels/vmfb"] {
        for (name, data) in fixture_files(&format!("fixtures/{dir}"), "vmfb") {
            all.push((format!("{dir}/{name}"), data));
        }
    }
    assert!(all.len() > 100, "{} modules", all.len());
    all
}

/// Segment index -> bytes, from `iree-dump-module`'s `vm.rodata[N] = HEX` lines.
fn dumped_segments(dump: &std::path::Path, path: &str) -> BTreeMap<usize, Vec<u8>> {
    let out = Command::new(dump).arg(path).output().unwrap();
    assert!(out.status.success(), "iree-dump-module {path}");
    let text = String::from_utf8(out.stdout).unwrap();
    let mut segments = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("vm.rodata[") else {
            continue;
        };
        let (index, hex) = rest.split_once("] = ").unwrap();
        let bytes = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        segments.insert(index.parse().unwrap(), bytes);
    }
    segments
}

#[test]
fn every_modules_executables_are_the_segments_iree_dump_module_prints() {
    let Some(run) =
        iree("listing the executables of each committed .vmfb against iree-dump-module")
    else {
        return;
    };
    let dump = run.with_file_name("iree-dump-module");
    let (mut executables, mut gpu) = (0, 0);
    for (name, data) in modules() {
        let path = format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
        let dumped = dumped_segments(&dump, &path);
        let module = vmfb::parse(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(module.segments, dumped.len(), "{name}");
        let expected: Vec<usize> = dumped
            .iter()
            .filter(|(_, bytes)| {
                [&b"AMD1"[..], b"HIP1", b"\x7fELF"]
                    .iter()
                    .any(|magic| bytes.starts_with(magic))
            })
            .map(|(&index, _)| index)
            .collect();
        let found: Vec<usize> = module.executables.iter().map(|e| e.segment).collect();
        assert_eq!(found, expected, "{name}");
        for exe in &module.executables {
            assert_eq!(
                exe.data,
                &dumped[&exe.segment][..],
                "{name} segment {}",
                exe.segment
            );
            assert_eq!(&data[exe.offset..exe.offset + exe.data.len()], exe.data);
            // IREE 3.13 compiles GPU programs for its HIP driver and CPU
            // programs as embedded x86-64 ELF.
            let cpu = name.contains(".cpu.");
            assert_eq!(
                exe.kind,
                if cpu {
                    EmbeddedKind::OtherElf(62)
                } else {
                    EmbeddedKind::Hip1
                },
                "{name}"
            );
            gpu += usize::from(!cpu);
        }
        executables += module.executables.len();
    }
    assert!(gpu > 80 && executables > gpu, "{gpu} of {executables}");
}

#[test]
fn a_modules_executable_reports_as_the_same_executable_file_does() {
    // The build wrote the HIP1 executable beside the module: byte for byte
    // the module's segment (the previous test proves the segment's bytes).
    let module = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/iree/vmfb/dynamic.gfx942.vmfb"
    ))
    .unwrap();
    let file = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/iree/dynamic.gfx942.hip1"
    ))
    .unwrap();
    let report = inspect_vmfb(&module, &DeviceLimits::AMDGPU).unwrap();
    assert_eq!((report.name, report.rodata_segments), ("module", 9));
    let [exe] = &report.executables[..] else {
        panic!("{:?}", report.executables);
    };
    assert_eq!((exe.segment, exe.container.as_str()), (4, "hip1"));
    assert_eq!(exe.format.as_deref(), Some("gfx942"));
    assert_eq!(
        exe.inspect.as_ref().unwrap(),
        &inspect(&file, &DeviceLimits::AMDGPU, &()).unwrap()
    );
    // A CPU module lists its executable without inspecting it.
    let cpu = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/kernels/vmfb/argmax.cpu.vmfb"
    ))
    .unwrap();
    let report = inspect_vmfb(&cpu, &DeviceLimits::AMDGPU).unwrap();
    let [exe] = &report.executables[..] else {
        panic!("{:?}", report.executables);
    };
    assert_eq!(exe.container, "elf-x86-64");
    assert_eq!(
        (&exe.format, &exe.inspect, &exe.error),
        (&None, &None, &None)
    );
}

#[test]
fn every_prefix_and_byte_flip_of_a_module_is_read_or_refused_without_a_panic() {
    let data = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/iree/vmfb/dynamic.gfx942.vmfb"
    ))
    .unwrap();
    for len in 0..data.len() {
        let _ = inspect_vmfb(&data[..len], &DeviceLimits::AMDGPU);
    }
    for at in (0..data.len()).step_by(7) {
        let mut bad = data.clone();
        bad[at] ^= 0x5a;
        let _ = inspect_vmfb(&bad, &DeviceLimits::AMDGPU);
    }
    let err = vmfb::parse(&[0; 12]).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.to_string().contains("less than 16 bytes"), "{err}");
}

/// A module built here: `segments` external (offset, length) pairs after
/// a FlatBuffer of IREE's layout, then `tail` bytes of segment area.
fn built_module(segments: &[(u64, u64)], tail: usize) -> Vec<u8> {
    let mut fbb = flatbuffers::FlatBufferBuilder::new();
    let name = fbb.create_string("built");
    let defs: Vec<_> = segments
        .iter()
        .map(|&(offset, length)| {
            fb::RodataSegmentDef::create(
                &mut fbb,
                &fb::RodataSegmentDefArgs {
                    external_data_offset: offset,
                    external_data_length: length,
                    ..Default::default()
                },
            )
        })
        .collect();
    let defs = fbb.create_vector(&defs);
    let root = fb::BytecodeModuleDef::create(
        &mut fbb,
        &fb::BytecodeModuleDefArgs {
            name: Some(name),
            version: 0,
            rodata_segments: Some(defs),
        },
    );
    fbb.finish_size_prefixed(root, Some("IREE"));
    let mut data = fbb.finished_data().to_vec();
    data.resize(data.len().next_multiple_of(vmfb::SEGMENT_ALIGNMENT), 0);
    let area = data.len();
    data.resize(area + tail, 0);
    // An AMD1-looking segment at the area's start.
    if tail >= 4 {
        data[area..area + 4].copy_from_slice(b"AMD1");
    }
    data
}

#[test]
fn a_flatbuffer_that_ends_the_file_is_read() {
    // No segment area after it: the size prefix counts every byte left.
    let mut data = built_module(&[], 0);
    let length = u32::from_le_bytes(data[..4].try_into().unwrap()) as usize;
    data.truncate(4 + length);
    let module = vmfb::parse(&data).unwrap();
    assert_eq!((module.name, module.segments), ("built", 0));
    // One byte fewer than the prefix claims is out of bounds.
    data.pop();
    let err = vmfb::parse(&data).unwrap_err();
    assert!(
        err.to_string().contains("length prefix out of bounds"),
        "{err}"
    );
}

#[test]
fn external_segments_must_lie_inside_the_file() {
    let data = built_module(&[(0, 8)], 8);
    assert!(vmfb::is_vmfb(&data));
    let module = vmfb::parse(&data).unwrap();
    assert_eq!((module.name, module.segments), ("built", 1));
    assert_eq!(module.executables[0].kind, EmbeddedKind::Amd1);
    for (offset, length) in [(0, 9), (8, 1), (u64::MAX, 1), (1, u64::MAX)] {
        let err = vmfb::parse(&built_module(&[(offset, length)], 8)).unwrap_err();
        assert_eq!(err.code(), StatusCode::InvalidArgument, "{err}");
        assert!(err.to_string().contains("lies outside"), "{err}");
    }
}

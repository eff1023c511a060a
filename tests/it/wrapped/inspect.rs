//! `inspect` on every real executable: reviewed snapshots of the IREE-produced
//! ones, kernel facts checked against `llvm-readelf-19 --notes` (an independent
//! reader of the metadata), and `pack` → `inspect` round trips for every HSACO.

use crate::support;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use amdgpu_hal::StatusCode;
use amdgpu_hal::codeobj::metadata::CodeObjectMetadata;
use amdgpu_hal::report::inspect::inspect;
use amdgpu_hal::report::inspect::{ExportReport, InspectReport};
use amdgpu_hal::wrapped::builder::SourceFileSpec;
use amdgpu_hal::wrapped::{Amd1Executable, Container, DataExtent, DeviceLimits, PackOptions, pack};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &str, ext: &str) -> Vec<(String, Vec<u8>)> {
    support::fixture_files(dir, ext)
}

/// Kernel facts as `llvm-readelf-19 --notes` prints them (YAML), by symbol:
/// kernarg size and alignment, group and private segment sizes, reqd size,
/// register and spill counts, wavefront size, max flat work-group size and
/// dynamic stack (`None`: readelf shows no such key).
#[derive(Debug, Default, PartialEq)]
struct OracleKernel {
    kernarg_size: u32,
    kernarg_alignment: u32,
    group_segment_size: u32,
    private_segment_size: u32,
    reqd_workgroup_size: Vec<u32>,
    vgpr_count: Option<u32>,
    sgpr_count: Option<u32>,
    agpr_count: Option<u32>,
    vgpr_spill_count: Option<u32>,
    sgpr_spill_count: Option<u32>,
    wavefront_size: Option<u32>,
    max_flat_workgroup_size: Option<u32>,
    uses_dynamic_stack: Option<bool>,
}

fn oracle(tool: &str, image: &[u8]) -> BTreeMap<String, OracleKernel> {
    let dir =
        std::env::temp_dir().join(format!("amdgpu-hal-wrapped-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let path = dir.join(format!("{}.hsaco", NEXT.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&path, image).unwrap();
    let out = Command::new(tool)
        .arg("--notes")
        .arg(&path)
        .output()
        .expect("run llvm-readelf-19");
    std::fs::remove_file(&path).ok();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut kernels = BTreeMap::new();
    let mut current: Option<(String, OracleKernel)> = None;
    let mut key = String::new();
    let mut in_kernels = false;
    for line in text.lines() {
        if line.starts_with("amdhsa.kernels:") {
            in_kernels = true;
            continue;
        }
        if !in_kernels {
            continue;
        }
        if !line.starts_with(' ') {
            in_kernels = false;
            continue;
        }
        let field = if let Some(rest) = line.strip_prefix("  - ") {
            if let Some((symbol, kernel)) = current.take() {
                kernels.insert(symbol, kernel);
            }
            current = Some((String::new(), OracleKernel::default()));
            Some(rest)
        } else if line.starts_with("    .") {
            Some(line.trim_start())
        } else {
            let value = line.trim().strip_prefix("- ");
            if let (".reqd_workgroup_size", Some(value)) = (key.as_str(), value) {
                let kernel = &mut current.as_mut().unwrap().1;
                kernel.reqd_workgroup_size.push(value.parse().unwrap());
            }
            None
        };
        let Some(field) = field else { continue };
        let (name, value) = field.split_once(':').unwrap();
        key = name.to_string();
        let value = value.trim();
        let (symbol, kernel) = current.as_mut().unwrap();
        match name {
            ".symbol" => *symbol = value.to_string(),
            ".kernarg_segment_size" => kernel.kernarg_size = value.parse().unwrap(),
            ".kernarg_segment_align" => kernel.kernarg_alignment = value.parse().unwrap(),
            ".group_segment_fixed_size" => kernel.group_segment_size = value.parse().unwrap(),
            ".private_segment_fixed_size" => kernel.private_segment_size = value.parse().unwrap(),
            ".vgpr_count" => kernel.vgpr_count = Some(value.parse().unwrap()),
            ".sgpr_count" => kernel.sgpr_count = Some(value.parse().unwrap()),
            ".agpr_count" => kernel.agpr_count = Some(value.parse().unwrap()),
            ".vgpr_spill_count" => kernel.vgpr_spill_count = Some(value.parse().unwrap()),
            ".sgpr_spill_count" => kernel.sgpr_spill_count = Some(value.parse().unwrap()),
            ".wavefront_size" => kernel.wavefront_size = Some(value.parse().unwrap()),
            ".max_flat_workgroup_size" => {
                kernel.max_flat_workgroup_size = Some(value.parse().unwrap());
            }
            ".uses_dynamic_stack" => kernel.uses_dynamic_stack = Some(value.parse().unwrap()),
            _ => {}
        }
    }
    if let Some((symbol, kernel)) = current {
        kernels.insert(symbol, kernel);
    }
    kernels
}

/// `llvm-readelf-19` for the kernel-fact comparisons of one test, or `None`
/// (one line printed) when it is not installed.
fn readelf(test: &str) -> Option<&'static str> {
    support::requires::llvm_readelf(&format!("{test}: kernel facts vs llvm-readelf-19 --notes"))
}

/// Every export's kernel facts equal what llvm-readelf reads from `image`
/// (nothing is compared without the tool).
fn assert_agrees_with_oracle(tool: Option<&str>, name: &str, report: &InspectReport, image: &[u8]) {
    let Some(tool) = tool else { return };
    let kernels = oracle(tool, image);
    assert!(!kernels.is_empty(), "{name}: llvm-readelf found no kernels");
    for export in &report.exports {
        // `symbol` is the code object's descriptor symbol in every
        // container; `hal_symbol` what the HAL looks up (HIP: the function).
        let symbol = export.symbol.to_string();
        let hal_symbol = if report.container == Container::Hip1 {
            symbol.trim_end_matches(".kd")
        } else {
            &symbol
        };
        assert_eq!(export.hal_symbol, hal_symbol, "{name}");
        let kernel = kernels
            .get(&symbol)
            .unwrap_or_else(|| panic!("{name}: no {symbol}"));
        assert_eq!(export.kernarg_size, kernel.kernarg_size, "{name} {symbol}");
        assert_eq!(
            export.kernarg_alignment, kernel.kernarg_alignment,
            "{name} {symbol}"
        );
        assert_eq!(
            export.group_segment_size, kernel.group_segment_size,
            "{name} {symbol}"
        );
        assert_eq!(
            export.private_segment_size, kernel.private_segment_size,
            "{name} {symbol}"
        );
        let ours = (
            [
                export.vgpr_count,
                export.sgpr_count,
                export.agpr_count,
                export.vgpr_spill_count,
                export.sgpr_spill_count,
                export.wavefront_size,
                export.max_flat_workgroup_size,
            ],
            export.uses_dynamic_stack,
        );
        let theirs = (
            [
                kernel.vgpr_count,
                kernel.sgpr_count,
                kernel.agpr_count,
                kernel.vgpr_spill_count,
                kernel.sgpr_spill_count,
                kernel.wavefront_size,
                kernel.max_flat_workgroup_size,
            ],
            kernel.uses_dynamic_stack,
        );
        assert_eq!(ours, theirs, "{name} {symbol}: registers, wavefront, stack");
        // LLVM 19 writes all of them for every kernel, but `.agpr_count`
        // only for targets with AGPRs (gfx90a, gfx942).
        let agpr = export.agpr_count.is_some();
        assert!(
            theirs.0.iter().filter(|n| n.is_some()).count() == 6 + usize::from(agpr),
            "{name} {symbol}"
        );
        if report.container == Container::Elf {
            if kernel.reqd_workgroup_size.is_empty() {
                assert!(export.dynamic_workgroup_size, "{name} {symbol}");
            } else {
                assert_eq!(
                    export.workgroup_size.to_vec(),
                    kernel.reqd_workgroup_size,
                    "{name} {symbol}"
                );
            }
        }
    }
    if report.container == Container::Elf {
        assert_eq!(report.exports.len(), kernels.len(), "{name}");
    }
}

fn module_image(data: &[u8]) -> Vec<u8> {
    Amd1Executable::parse(data, DataExtent::Known)
        .unwrap()
        .single_module_image()
        .unwrap()
        .to_vec()
}

#[test]
fn iree_amd1_executables_inspect_to_reviewed_snapshots() {
    let all = files("fixtures/iree", "amd1");
    assert!(all.len() >= 16);
    let tool = readelf("iree_amd1_executables_inspect_to_reviewed_snapshots");
    for (name, data) in all.iter().filter(|(name, _)| !name.contains(".spirv.")) {
        let report =
            inspect(data, &DeviceLimits::AMDGPU, &()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(report.container, Container::Amd1);
        assert_agrees_with_oracle(tool, name, &report, &module_image(data));
        insta::assert_json_snapshot!(format!("inspect_{name}"), report);
    }
}

#[test]
fn iree_hip1_executables_inspect_to_reviewed_snapshots() {
    let tool = readelf("iree_hip1_executables_inspect_to_reviewed_snapshots");
    for (name, data) in files("fixtures/iree", "hip1")
        .iter()
        .filter(|(name, _)| !name.contains(".spirv."))
    {
        let report =
            inspect(data, &DeviceLimits::AMDGPU, &()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(report.container, Container::Hip1);
        let exe = amdgpu_hal::wrapped::Hip1Executable::parse(data, DataExtent::Known).unwrap();
        for image in exe.module_images() {
            assert_agrees_with_oracle(tool, name, &report, image);
        }
        insta::assert_json_snapshot!(format!("inspect_{name}"), report);
    }
}

#[test]
fn iree_raw_hsaco_matches_its_wrapped_executable() {
    let tool = readelf("iree_raw_hsaco_matches_its_wrapped_executable");
    for (name, data) in files("fixtures/iree", "hsaco") {
        let raw =
            inspect(&data, &DeviceLimits::AMDGPU, &()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(raw.container, Container::Elf);
        assert_agrees_with_oracle(tool, &name, &raw, &data);
        let wrapped_path = root()
            .join("fixtures/iree")
            .join(name.replace(".hsaco", ".amd1"));
        let wrapped_data = std::fs::read(wrapped_path).unwrap();
        let wrapped = inspect(&wrapped_data, &DeviceLimits::AMDGPU, &()).unwrap();
        assert_eq!(raw.format, wrapped.format, "{name}");
        assert_eq!(
            raw.code_object_version, wrapped.code_object_version,
            "{name}"
        );
        assert_eq!(raw.exports.len(), wrapped.exports.len(), "{name}");
        for (r, w) in raw.exports.iter().zip(&wrapped.exports) {
            assert_eq!(
                (&r.symbol, &r.parameters),
                (&w.symbol, &w.parameters),
                "{name}"
            );
            assert_eq!(
                (r.kernarg_size, r.group_segment_size),
                (w.kernarg_size, w.group_segment_size)
            );
            assert_eq!(
                (r.constant_count, r.binding_count),
                (w.constant_count, w.binding_count)
            );
            // IREE writes `.reqd_workgroup_size` into the metadata: the same as the FlatBuffer's.
            assert!(!r.dynamic_workgroup_size, "{name}");
            assert_eq!(r.workgroup_size, w.workgroup_size, "{name}");
        }
    }
}

#[test]
fn spirv_executables_are_reported_as_offload_bundles() {
    for name in ["elementwise.spirv.amd1", "elementwise.spirv.hip1"] {
        let data = std::fs::read(root().join("fixtures/iree").join(name)).unwrap();
        let err = inspect(&data, &DeviceLimits::AMDGPU, &()).unwrap_err();
        assert_eq!(err.code(), StatusCode::InvalidArgument, "{name}");
        assert!(
            err.mentions("clang offload bundle (entries: hip-spirv64-amd-amdhsa--amdgcnspirv)"),
            "{err}"
        );
    }
}

fn hsaco_fixtures() -> Vec<(String, Vec<u8>)> {
    let mut all = files("fixtures/hsaco", "hsaco");
    all.extend(files("fixtures/iree", "hsaco"));
    assert!(all.len() >= 18, "{} HSACO fixtures", all.len());
    all
}

/// The kernels IREE's HAL projection can describe, by `.kd` symbol.
fn projectable_kernels(hsaco: &[u8]) -> (Vec<String>, Vec<String>) {
    let metadata = CodeObjectMetadata::from_elf(hsaco).unwrap();
    let (ok, refused): (Vec<_>, Vec<_>) = metadata
        .kernels
        .iter()
        .partition(|kernel| kernel.default_export_parameter_requirements().is_ok());
    let symbols = |kernels: Vec<&amdgpu_hal::codeobj::metadata::KernelMetadata<'_>>| {
        kernels
            .iter()
            .map(|k| k.symbol.to_string())
            .collect::<Vec<_>>()
    };
    (symbols(ok), symbols(refused))
}

#[test]
fn pack_then_inspect_round_trips_every_hsaco() {
    let tool = readelf("pack_then_inspect_round_trips_every_hsaco");
    let mut partial = 0;
    for (name, hsaco) in hsaco_fixtures() {
        let (supported, refused) = projectable_kernels(&hsaco);
        // The raw view lists every kernel, refused ones included, with
        // readelf's facts.
        let raw =
            inspect(&hsaco, &DeviceLimits::AMDGPU, &()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_agrees_with_oracle(tool, &name, &raw, &hsaco);
        let reasons = raw.exports.iter().filter(|e| e.hal_error.is_some()).count();
        assert_eq!(reasons, refused.len(), "{name}");
        // Kernels without `.reqd_workgroup_size` need a size (the largest
        // every fixture kernel accepts).
        let sized = PackOptions {
            default_workgroup_size: Some([64, 1, 1]),
            ..PackOptions::default()
        };
        let options = if refused.is_empty() {
            sized
        } else {
            // Packing everything fails naming every kernel IREE cannot
            // describe, and listing the ones `--kernel` can pick.
            let err = pack(&hsaco, &sized).unwrap_err();
            assert_eq!(err.code(), StatusCode::InvalidArgument, "{name}: {err}");
            for symbol in &refused {
                let kernel = symbol.trim_end_matches(".kd");
                assert!(
                    err.mentions(&format!("AMDGPU kernel `{kernel}`")),
                    "{name}: {err}"
                );
            }
            let names: Vec<_> = supported
                .iter()
                .map(|s| s.trim_end_matches(".kd"))
                .collect();
            assert!(
                err.mentions(&format!(
                    "pack the others with `--kernel NAME` (repeatable): {}",
                    names.join(", ")
                )),
                "{name}: {err}"
            );
            partial += 1;
            PackOptions {
                kernels: Some(supported.clone()),
                ..sized
            }
        };
        let packed = pack(&hsaco, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            module_image(&packed),
            hsaco,
            "{name}: the image is stored byte for byte"
        );
        let wrapped =
            inspect(&packed, &DeviceLimits::AMDGPU, &()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(wrapped.container, Container::Amd1);
        assert_eq!(wrapped.size, packed.len() as u64, "{name}");
        let symbols: Vec<_> = wrapped.exports.iter().map(|e| e.symbol).collect();
        assert_eq!(symbols, supported, "{name}");
        assert_agrees_with_oracle(tool, &name, &wrapped, &hsaco);
        if refused.is_empty() {
            // The same view as inspecting the raw HSACO, the dynamic size
            // made static: the size given to `pack`.
            let raw = inspect(&hsaco, &DeviceLimits::AMDGPU, &())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(wrapped.format, raw.format, "{name}");
            for (w, r) in wrapped.exports.iter().zip(&raw.exports) {
                let mut expected = r.clone();
                if expected.dynamic_workgroup_size {
                    expected.dynamic_workgroup_size = false;
                    expected.workgroup_size = [64, 1, 1];
                }
                assert_eq!(w, &expected, "{name}");
            }
        } else {
            let inferred = amdgpu_hal::wrapped::infer_format(&hsaco, DataExtent::Known).unwrap();
            assert_eq!(wrapped.format, inferred.format, "{name}");
        }
    }
    assert!(
        partial > 0,
        "the kernels.* fixtures hold kernels outside the HAL projection"
    );
}

#[test]
fn pack_refuses_an_unknown_kernel_selection() {
    let hsaco = std::fs::read(root().join("fixtures/hsaco/vector_add.gfx1100.cov5.hsaco")).unwrap();
    let options = PackOptions {
        kernels: Some(vec!["nope".into()]),
        ..PackOptions::default()
    };
    let err = pack(&hsaco, &options).unwrap_err();
    assert_eq!(err.code(), StatusCode::NotFound);
    assert!(err.mentions("kernel `nope` not found"), "{err}");
    // By name or by symbol.
    let options = PackOptions {
        kernels: Some(vec!["bump".into()]),
        ..PackOptions::default()
    };
    let by_name = pack(&hsaco, &options).unwrap();
    let options = PackOptions {
        kernels: Some(vec!["bump.kd".into()]),
        ..PackOptions::default()
    };
    assert_eq!(pack(&hsaco, &options).unwrap(), by_name);
}

/// `pack` never invents a work-group size: a kernel without
/// `.reqd_workgroup_size` needs one given, within its
/// `.max_flat_workgroup_size` (`vector_add`: 256, from `llvm-readelf-19
/// --notes`), and the error names every such kernel.
#[test]
fn pack_requires_a_workgroup_size_for_kernels_without_one() {
    let hsaco = std::fs::read(root().join("fixtures/hsaco/vector_add.gfx1100.cov5.hsaco")).unwrap();
    let err = pack(&hsaco, &PackOptions::default()).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.mentions(
            "1 of 2 kernels have no `.reqd_workgroup_size` and an AMD1 export needs a fixed \
             work-group size: `vector_add` (at most 256 work-items); give it with \
             `--workgroup-size X,Y,Z`"
        ),
        "{err}"
    );
    let sized = |size| PackOptions {
        default_workgroup_size: Some(size),
        ..PackOptions::default()
    };
    let err = pack(&hsaco, &sized([16, 16, 2])).unwrap_err();
    assert!(
        err.mentions(
            "work-group size 16x16x2 (512 work-items) exceeds the `.max_flat_workgroup_size` of \
             `vector_add` (at most 256)"
        ),
        "{err}"
    );
    let packed = pack(&hsaco, &sized([16, 16, 1])).unwrap();
    let report = inspect(&packed, &DeviceLimits::AMDGPU, &()).unwrap();
    assert_eq!(report.exports[0].workgroup_size, [16, 16, 1]);
    // A kernel with a required size keeps it, whatever size is given.
    assert_eq!(report.exports[1].workgroup_size, [64, 1, 1]);
    // Selecting only kernels with a required size needs no size.
    let only_bump = PackOptions {
        kernels: Some(vec!["bump".into()]),
        ..PackOptions::default()
    };
    assert!(pack(&hsaco, &only_bump).is_ok());
    // Every kernel without a size is named (kernels.*: three of them).
    let kernels = std::fs::read(root().join("fixtures/hsaco/kernels.gfx942.cov5.hsaco")).unwrap();
    let projectable = PackOptions {
        kernels: Some(vec![
            "lds_reduce".into(),
            "scratch_walk".into(),
            "implicit_args".into(),
        ]),
        ..PackOptions::default()
    };
    let err = pack(&kernels, &projectable).unwrap_err();
    assert!(
        err.mentions("2 of 3 kernels have no `.reqd_workgroup_size`")
            && err.mentions(
                "`scratch_walk` (at most 256 work-items), `implicit_args` (at most 256 work-items)"
            ),
        "{err}"
    );
}

#[test]
fn pack_writes_debug_names_and_sorted_sources() {
    let hsaco = std::fs::read(root().join("fixtures/hsaco/vector_add.gfx1100.cov5.hsaco")).unwrap();
    let options = PackOptions {
        debug_names: true,
        source_files: vec![
            SourceFileSpec {
                path: "src/z.cl".into(),
                content: b"// z".to_vec(),
            },
            SourceFileSpec {
                path: "src/a.cl".into(),
                content: b"// a".to_vec(),
            },
        ],
        default_workgroup_size: Some([32, 2, 1]),
        ..PackOptions::default()
    };
    let packed = pack(&hsaco, &options).unwrap();
    let exe = Amd1Executable::parse(&packed, DataExtent::Known).unwrap();
    assert_eq!(exe.def.isa(), Some("gfx1100"));
    let paths: Vec<_> = exe
        .def
        .source_files()
        .unwrap()
        .iter()
        .map(|f| f.path().unwrap())
        .collect();
    assert_eq!(paths, ["src/a.cl", "src/z.cl"]);
    let names: Vec<_> = exe
        .def
        .exports()
        .unwrap()
        .iter()
        .map(|e| e.debug_info().unwrap().name().unwrap())
        .collect();
    assert_eq!(names, ["vector_add", "bump"]);
    // `bump` has `.reqd_workgroup_size` 64x1x1; `vector_add` has none and
    // gets the size given.
    let report = inspect(&packed, &DeviceLimits::AMDGPU, &()).unwrap();
    assert_eq!(report.exports[0].workgroup_size, [32, 2, 1]);
    assert_eq!(report.exports[1].workgroup_size, [64, 1, 1]);
}

#[test]
fn pack_marks_bindings_the_kernel_only_reads_read_only() {
    // IREE's elementwise kernel: `.actual_access` read_only, read_only, write_only.
    let hsaco = std::fs::read(root().join("fixtures/iree/elementwise.gfx942.hsaco")).unwrap();
    let packed = pack(&hsaco, &PackOptions::default()).unwrap();
    let exe = Amd1Executable::parse(&packed, DataExtent::Known).unwrap();
    let export = exe.def.exports().unwrap().iter().next().unwrap();
    let flags: Vec<_> = export
        .binding_flags()
        .unwrap()
        .iter()
        .map(|f| f.bits())
        .collect();
    assert_eq!(flags, [1, 1, 0]);
    assert_eq!(
        export.workgroup_size().map(|s| [s.x(), s.y(), s.z()]),
        Some([64, 1, 1])
    );
}

#[test]
fn pack_refuses_what_is_not_an_hsaco() {
    let err = pack(b"definitely not an ELF", &PackOptions::default()).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    let spirv = std::fs::read(root().join("fixtures/iree/elementwise.spirv.amd1")).unwrap();
    let bundle = module_image(&spirv);
    let err = pack(&bundle, &PackOptions::default()).unwrap_err();
    assert!(err.mentions("clang offload bundle"), "{err}");
}

#[test]
fn inspect_checks_reflected_counts_against_the_flatbuffer() {
    // Rewrite an IREE executable so that it declares fewer bindings than its kernel uses.
    use amdgpu_hal::wrapped::builder::{BindingBits, ExecutableSpec, ExportSpec, build_amd1};
    let data = std::fs::read(root().join("fixtures/iree/elementwise.gfx942.amd1")).unwrap();
    let image = module_image(&data);
    let exe = Amd1Executable::parse(&data, DataExtent::Known).unwrap();
    let symbol = exe
        .def
        .exports()
        .unwrap()
        .get(0)
        .symbol_name()
        .unwrap()
        .to_string();
    let rebuilt = build_amd1(&ExecutableSpec {
        isa: Some("gfx942".into()),
        exports: vec![ExportSpec {
            symbol_name: symbol.clone(),
            workgroup_size: Some([64, 1, 1]),
            constant_count: 0,
            binding_flags: vec![BindingBits::INDIRECT; 2],
            debug: None,
        }],
        images: vec![&image],
        source_files: vec![],
    })
    .unwrap();
    // `inspect` shows the export with the reason IREE's loader refuses it.
    let report = inspect(&rebuilt, &DeviceLimits::AMDGPU, &()).unwrap();
    let reason = report.exports[0].hal_error.as_deref().unwrap();
    assert!(
        reason.starts_with("INVALID_ARGUMENT; ")
            && reason.contains("declares 3 reflected bindings but ExecutableDef only declares 2"),
        "{reason}"
    );
    assert_eq!(report.exports[0].binding_count, Some(2));
    assert_eq!(report.exports[0].parameters.len(), 3);
    // A symbol the code object does not have is NOT_FOUND.
    let missing = build_amd1(&ExecutableSpec {
        exports: vec![ExportSpec {
            symbol_name: "missing.kd".into(),
            workgroup_size: Some([64, 1, 1]),
            constant_count: 0,
            binding_flags: vec![],
            debug: None,
        }],
        images: vec![&image],
        ..Default::default()
    })
    .unwrap();
    let err = inspect(&missing, &DeviceLimits::AMDGPU, &()).unwrap_err();
    assert_eq!(err.code(), StatusCode::NotFound, "{err}");
    assert!(err.mentions("resolving exports[0]"), "{err}");
}

#[test]
fn inspect_checks_reflected_constants_against_the_flatbuffer() {
    // `scratch_walk` reflects one constant and one binding (clang-built
    // fixture; `llvm-readelf --notes` lists a by_value and a global_buffer
    // argument). Declared in an AMD1 with fewer constants, IREE's loader
    // refuses it; with as many or more, it loads.
    use amdgpu_hal::wrapped::builder::{BindingBits, ExecutableSpec, ExportSpec, build_amd1};
    let image = std::fs::read(root().join("fixtures/hsaco/kernels.gfx942.cov5.hsaco")).unwrap();
    let with_constants = |constant_count: u32| {
        let data = build_amd1(&ExecutableSpec {
            isa: Some("gfx942".into()),
            exports: vec![ExportSpec {
                symbol_name: "scratch_walk.kd".into(),
                workgroup_size: Some([64, 1, 1]),
                constant_count,
                binding_flags: vec![BindingBits::INDIRECT; 1],
                debug: None,
            }],
            images: vec![&image],
            source_files: vec![],
        })
        .unwrap();
        let report = inspect(&data, &DeviceLimits::AMDGPU, &()).unwrap();
        let export = report.exports[0].clone();
        (export.constant_count, export.hal_error)
    };
    let (count, reason) = with_constants(0);
    assert_eq!(count, Some(0));
    let reason = reason.expect("fewer constants declared than reflected");
    assert!(
        reason.starts_with("INVALID_ARGUMENT; ")
            && reason.contains(
                "export `scratch_walk.kd` declares 1 reflected constants but ExecutableDef only declares 0"
            ),
        "{reason}"
    );
    assert_eq!(with_constants(1), (Some(1), None));
    assert_eq!(with_constants(2), (Some(2), None));
}

/// The CLI's hand-written JSON is byte for byte what serde writes, for every
/// fixture the product ships.
#[test]
fn hand_written_json_equals_serde_on_every_fixture() {
    let mut checked = 0;
    for (dir, ext) in [
        ("fixtures/hsaco", "hsaco"),
        ("fixtures/iree", "hsaco"),
        ("fixtures/iree", "amd1"),
        ("fixtures/iree", "hip1"),
    ] {
        for (name, data) in files(dir, ext) {
            let Ok(report) = inspect(&data, &DeviceLimits::AMDGPU, &()) else {
                continue;
            };
            let mut json = Vec::new();
            report.write_json(&mut json, &()).unwrap();
            let expected = serde_json::to_string_pretty(&report).unwrap();
            assert_eq!(String::from_utf8(json).unwrap(), expected, "{name}");
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} fixtures inspected");
}

/// Exports sharing one kernel each get its parameters: `inspect` drops a
/// kernel's argument list only after the last export that uses it.
#[test]
fn exports_sharing_a_kernel_all_get_its_parameters() {
    use amdgpu_hal::wrapped::builder::{BindingBits, ExecutableSpec, ExportSpec, build_amd1};
    let data = std::fs::read(root().join("fixtures/iree/elementwise.gfx942.amd1")).unwrap();
    let image = module_image(&data);
    let original = inspect(&data, &DeviceLimits::AMDGPU, &()).unwrap();
    let first = &original.exports[0];
    let export = ExportSpec {
        symbol_name: first.symbol.to_string(),
        workgroup_size: Some(first.workgroup_size),
        constant_count: first.constant_count.unwrap(),
        binding_flags: vec![BindingBits::empty(); first.binding_count.unwrap() as usize],
        debug: None,
    };
    let rebuilt = build_amd1(&ExecutableSpec {
        isa: Some("gfx942".into()),
        exports: vec![export.clone(), export.clone(), export],
        images: vec![&image],
        source_files: vec![],
    })
    .unwrap();
    let report = inspect(&rebuilt, &DeviceLimits::AMDGPU, &()).unwrap();
    assert_eq!(report.exports.len(), 3);
    assert!(!first.parameters.is_empty());
    for export in &report.exports {
        assert_eq!(export.parameters, first.parameters);
    }
}

/// Exports listed in another order than the code object's kernels each get
/// their own kernel's facts: IREE's executable (its exports in metadata
/// order, the kernels' reports filled in place) and the same exports
/// reversed (each looked up) agree export for export.
#[test]
fn exports_out_of_metadata_order_get_their_own_kernels() {
    use amdgpu_hal::wrapped::builder::{BindingBits, ExecutableSpec, ExportSpec, build_amd1};
    let data = std::fs::read(root().join("fixtures/iree/multi_dispatch.gfx942.amd1")).unwrap();
    let image = module_image(&data);
    let in_order = inspect(&data, &DeviceLimits::AMDGPU, &()).unwrap();
    let kernels = CodeObjectMetadata::from_elf(&image).unwrap().kernels;
    let symbols: Vec<_> = in_order
        .exports
        .iter()
        .map(|export| export.symbol)
        .collect();
    let metadata_order: Vec<_> = kernels.iter().map(|kernel| kernel.symbol).collect();
    assert_eq!(
        symbols, metadata_order,
        "IREE lists its kernels in metadata order"
    );
    assert_eq!(symbols.len(), 3);
    let reversed: Vec<ExportSpec> = in_order
        .exports
        .iter()
        .rev()
        .map(|export| ExportSpec {
            symbol_name: export.symbol.to_string(),
            workgroup_size: Some(export.workgroup_size),
            constant_count: export.constant_count.unwrap(),
            binding_flags: vec![BindingBits::empty(); export.binding_count.unwrap() as usize],
            debug: None,
        })
        .collect();
    let rebuilt = build_amd1(&ExecutableSpec {
        isa: Some("gfx942".into()),
        exports: reversed,
        images: vec![&image],
        source_files: vec![],
    })
    .unwrap();
    let report = inspect(&rebuilt, &DeviceLimits::AMDGPU, &()).unwrap();
    assert_eq!(report.exports.len(), 3);
    for (got, want) in report.exports.iter().zip(in_order.exports.iter().rev()) {
        // Without debug names an export is named by its symbol.
        let name = want.symbol.strip_suffix(".kd").unwrap();
        assert_eq!(got.name, name);
        assert_eq!(
            *got,
            ExportReport {
                name,
                ..want.clone()
            }
        );
    }
}

/// An export's name is its debug name, or where that is absent or empty its
/// symbol without `.kd` (IREE's `executable.c`).
#[test]
fn an_empty_debug_name_falls_back_to_the_symbol() {
    use amdgpu_hal::wrapped::builder::{
        BindingBits, ExecutableSpec, ExportDebugSpec, ExportSpec, build_amd1,
    };
    let data = std::fs::read(root().join("fixtures/iree/elementwise.gfx942.amd1")).unwrap();
    let image = module_image(&data);
    let first = inspect(&data, &DeviceLimits::AMDGPU, &()).unwrap().exports[0].clone();
    let export = |debug: Option<&str>| ExportSpec {
        symbol_name: first.symbol.to_string(),
        workgroup_size: Some(first.workgroup_size),
        constant_count: first.constant_count.unwrap(),
        binding_flags: vec![BindingBits::empty(); first.binding_count.unwrap() as usize],
        debug: debug.map(|name| ExportDebugSpec {
            name: name.to_owned(),
            location: None,
        }),
    };
    let rebuilt = build_amd1(&ExecutableSpec {
        isa: Some("gfx942".into()),
        exports: vec![export(Some("")), export(Some("named")), export(None)],
        images: vec![&image],
        source_files: vec![],
    })
    .unwrap();
    let report = inspect(&rebuilt, &DeviceLimits::AMDGPU, &()).unwrap();
    let bare = first.symbol.strip_suffix(".kd").unwrap();
    let names: Vec<_> = report.exports.iter().map(|export| export.name).collect();
    assert_eq!(names, [bare, "named", bare]);
}

/// A `HIP1` export's empty debug name falls back to its kernel name, as an
/// `AMD1`'s does to its symbol: the fixture's name emptied in place.
#[test]
fn a_hip1_exports_empty_debug_name_falls_back_to_its_kernel_name() {
    use amdgpu_hal::wrapped::{DataExtent, Hip1Executable};
    let mut data = std::fs::read(root().join("fixtures/iree/matmul.gfx942.hip1")).unwrap();
    let (at, kernel_name) = {
        let exe = Hip1Executable::parse(&data, DataExtent::Known).unwrap();
        let export = exe.def.exports().unwrap().get(0);
        let name = export.debug_info().unwrap().name().unwrap();
        assert!(!name.is_empty());
        (
            name.as_ptr() as usize - data.as_ptr() as usize,
            export.kernel_name().unwrap().to_owned(),
        )
    };
    // A FlatBuffer string: its length before it, a NUL after it.
    data[at - 4..at].copy_from_slice(&0u32.to_le_bytes());
    data[at] = 0;
    let report = inspect(&data, &DeviceLimits::AMDGPU, &()).unwrap();
    assert_eq!(report.exports[0].name, kernel_name);
}

//! Truncated code objects never inspect or load as fine: every strict prefix
//! of every real fixture (raw HSACOs, `AMD1`, `HIP1`), at every length, is a
//! clear error from `inspect`, from the metadata reader and from the load
//! planner — never a kernel list. llvm-readelf calls these files corrupt
//! (`section header table goes past the end of the file`); so do we.
//! `fixtures/hsaco/broken/` holds one such file for the CLI (see
//! `fixtures/hsaco/build.sh`).

use crate::support;

use std::path::{Path, PathBuf};

use amdgpu_hal::StatusCode;
use amdgpu_hal::amdgpu::executable::plan::{plan_raw_hsaco, plan_wrapped};
use amdgpu_hal::codeobj::metadata::CodeObjectMetadata;
use amdgpu_hal::report::inspect::inspect;
use amdgpu_hal::wrapped::builder::{ExecutableSpec, ExportSpec, build_amd1};
use amdgpu_hal::wrapped::{Amd1Executable, DataExtent, DeviceLimits};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &str, ext: &str) -> Vec<(String, Vec<u8>)> {
    support::fixture_files(dir, ext)
}

fn is_elf(data: &[u8]) -> bool {
    data.starts_with(b"\x7fELF")
}

/// A prefix must fail with a code a truncated input earns and a message that
/// says what is wrong.
fn assert_clear(name: &str, len: usize, what: &str, err: &amdgpu_hal::Status) {
    assert!(
        matches!(
            err.code(),
            StatusCode::InvalidArgument | StatusCode::OutOfRange
        ),
        "{name}[..{len}] {what}: {err}"
    );
    let text = err.to_string();
    let clear = [
        "truncated",
        "exceeds file bounds",
        "ELF magic",
        "not an ELF",
        "too small",
        "smaller than",
        "less than",
        "out of bounds",
    ];
    assert!(
        clear.iter().any(|word| text.contains(word)),
        "{name}[..{len}] {what}: unclear error: {err}"
    );
}

#[test]
fn every_prefix_of_every_real_fixture_is_refused() {
    let mut all = files("fixtures/hsaco", "hsaco");
    all.extend(files("fixtures/hsaco", "o"));
    for ext in ["hsaco", "amd1", "hip1"] {
        all.extend(files("fixtures/iree", ext));
    }
    assert!(all.len() >= 84, "{} fixtures", all.len());
    let limits = DeviceLimits::AMDGPU;
    let (mut cases, mut fixtures) = (0usize, 0usize);
    for (name, data) in &all {
        // The whole file is fine (SPIR-V bundles are refused whatever their
        // length: they are not checked here).
        if name.contains("spirv") {
            continue;
        }
        fixtures += 1;
        inspect(data, &limits, &()).unwrap_or_else(|e| panic!("{name}: {e}"));
        for len in 0..data.len() {
            let prefix = &data[..len];
            let err = inspect(prefix, &limits, &()).expect_err(name);
            assert_clear(name, len, "inspect", &err);
            if is_elf(data) {
                // Past the ELF header, the layout check is what refuses it.
                if len >= 64 {
                    assert!(
                        err.mentions("the file is truncated or corrupt"),
                        "{name}: {err}"
                    );
                }
                let err = CodeObjectMetadata::from_elf(prefix).expect_err(name);
                assert_clear(name, len, "metadata", &err);
                let err = plan_raw_hsaco(prefix, &limits).expect_err(name);
                assert_clear(name, len, "load plan", &err);
            } else if name.ends_with(".amd1") {
                let err = plan_wrapped(prefix, &limits).expect_err(name);
                assert_clear(name, len, "load plan", &err);
            }
            cases += 1;
        }
    }
    println!("truncation cases tried: {cases} prefixes of {fixtures} fixtures");
    assert!(cases > 400_000, "{cases}");
}

/// A well-formed `AMD1` around a truncated image: the FlatBuffer is fine, the
/// code object is not. Every 61st length of each IREE-built image.
#[test]
fn a_truncated_image_inside_a_valid_wrapper_is_refused() {
    let limits = DeviceLimits::AMDGPU;
    let mut cases = 0usize;
    for (name, data) in files("fixtures/iree", "amd1") {
        if name.contains("spirv") {
            continue;
        }
        let exe = Amd1Executable::parse(&data, DataExtent::Known).unwrap();
        let image = exe.single_module_image().unwrap().to_vec();
        let exports: Vec<ExportSpec> = exe
            .def
            .exports()
            .unwrap()
            .iter()
            .map(|export| ExportSpec {
                symbol_name: export.symbol_name().unwrap().to_owned(),
                workgroup_size: export.workgroup_size().map(|d| [d.x(), d.y(), d.z()]),
                constant_count: export.constant_count(),
                binding_flags: vec![Default::default(); export.binding_flags().unwrap().len()],
                debug: None,
            })
            .collect();
        for len in (64..image.len()).step_by(61) {
            let Ok(wrapped) = build_amd1(&ExecutableSpec {
                isa: Some("gfx942".into()),
                exports: exports.clone(),
                images: vec![&image[..len]],
                source_files: vec![],
            }) else {
                continue;
            };
            let err = inspect(&wrapped, &limits, &()).expect_err(&name);
            assert_clear(&name, len, "inspect", &err);
            let err = plan_wrapped(&wrapped, &limits).expect_err(&name);
            assert_clear(&name, len, "load plan", &err);
            cases += 1;
        }
    }
    println!("truncated images in valid wrappers: {cases}");
    assert!(cases > 500, "{cases}");
}

/// The committed truncated copy: what `amdgpu-hal inspect` and `load` print,
/// and that llvm-readelf-19 also calls it corrupt (when installed).
#[test]
fn the_committed_truncated_copy_is_refused_like_llvm_readelf_does() {
    let path: &Path = &root().join("fixtures/hsaco/broken/vector_add.gfx942.cov5.first2000.hsaco");
    let data = std::fs::read(path).unwrap();
    let whole = std::fs::read(root().join("fixtures/hsaco/vector_add.gfx942.cov5.hsaco")).unwrap();
    assert_eq!(data.len(), 2000);
    assert_eq!(data[..], whole[..2000]);
    let err = inspect(&data, &DeviceLimits::AMDGPU, &()).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.mentions("section header table goes past the end of the file")
            && err.mentions("the file is truncated or corrupt"),
        "{err}"
    );
    match std::process::Command::new("llvm-readelf-19")
        .arg("--notes")
        .arg(path)
        .output()
    {
        Ok(out) => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains("the file is corrupt")
                    && stderr.contains("section header table goes past the end of the file"),
                "{stderr}"
            );
            assert!(
                !String::from_utf8_lossy(&out.stdout).contains(".symbol:"),
                "readelf listed kernels"
            );
        }
        Err(_) => {
            assert!(
                std::env::var("AMDGPU_HAL_REQUIRE_ALL").as_deref() != Ok("1"),
                "llvm-readelf-19 is required (AMDGPU_HAL_REQUIRE_ALL=1)"
            );
            println!(
                "skipped: llvm-readelf-19's verdict on the truncated copy (needs Debian package llvm-19)"
            );
        }
    }
}

//! `infer_format` on IREE's own test cases and on every real executable.

use crate::support;

use std::path::PathBuf;

use amdgpu_hal::StatusCode;
use amdgpu_hal::wrapped::builder::{ExecutableSpec, ExportSpec, build_amd1};
use amdgpu_hal::wrapped::{Container, DataExtent, HEADER_SIZE, infer_format};

fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/iree")
}

/// The target ID the file name promises (`matmul.gfx942_sramecc+_xnack-.amd1`).
fn expected_format(name: &str) -> String {
    name.split('.').nth(1).unwrap().replace('_', ":")
}

fn files(ext: &str) -> Vec<(String, Vec<u8>)> {
    support::fixture_files("fixtures/iree", ext)
}

fn wrap(image: &[u8], isa: &str) -> Vec<u8> {
    build_amd1(&ExecutableSpec {
        isa: Some(isa.into()),
        exports: vec![ExportSpec {
            symbol_name: "k.kd".into(),
            workgroup_size: Some([64, 1, 1]),
            constant_count: 0,
            binding_flags: vec![],
            debug: None,
        }],
        images: vec![image],
        source_files: vec![],
    })
    .unwrap()
}

#[test]
fn iree_raw_64_byte_elf_infers_gfx942_and_its_length() {
    let elf = support::amdgpu_header(3, 0x04c | 0xc00 | 0x200);
    let inferred = infer_format(&elf, DataExtent::Known).unwrap();
    assert_eq!(inferred.container, Container::Elf);
    assert_eq!(inferred.format, "gfx942:sramecc+:xnack-");
    assert_eq!(inferred.size, 64);
    // Unknown length: the ELF's own extent, trailing bytes ignored.
    let mut longer = elf.clone();
    longer.extend_from_slice(&[0xEE; 100]);
    let inferred = infer_format(&longer, DataExtent::Infer).unwrap();
    assert_eq!(inferred.size, 64);
    assert_eq!(infer_format(&longer, DataExtent::Known).unwrap().size, 164);
}

#[test]
fn iree_wrapped_format_comes_from_the_elf_not_the_isa_field() {
    let elf = support::amdgpu_header(3, 0x04c | 0xc00 | 0x200);
    let wrapped = wrap(&elf, "gfx1100");
    let content = u64::from_le_bytes(wrapped[8..16].try_into().unwrap()) as usize;
    let inferred = infer_format(&wrapped, DataExtent::Known).unwrap();
    assert_eq!(inferred.container, Container::Amd1);
    assert_eq!(inferred.format, "gfx942:sramecc+:xnack-");
    assert_eq!(inferred.size, HEADER_SIZE + content);
}

#[test]
fn every_iree_executable_infers_its_target_and_size() {
    let amd1 = files("amd1");
    let hsaco = files("hsaco");
    assert!(amd1.len() >= 16 && hsaco.len() >= 16);
    for (name, data) in amd1.iter().chain(&hsaco) {
        if name.contains(".spirv.") {
            continue;
        }
        let inferred =
            infer_format(data, DataExtent::Known).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(inferred.format, expected_format(name), "{name}");
        assert_eq!(inferred.size, data.len(), "{name}");
        // With the length unknown (more bytes follow), the same size is inferred.
        let mut followed = data.clone();
        followed.extend_from_slice(&[0x5A; 256]);
        let inferred =
            infer_format(&followed, DataExtent::Infer).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(inferred.size, data.len(), "{name}");
    }
}

#[test]
fn spirv_offload_bundle_is_reported_clearly() {
    let data = std::fs::read(fixture_dir().join("elementwise.spirv.amd1")).unwrap();
    let err = infer_format(&data, DataExtent::Known).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.mentions("clang offload bundle"), "{err}");
    assert!(err.mentions("hip-spirv64-amd-amdhsa--amdgcnspirv"), "{err}");
    assert!(err.mentions("--iree-rocm-use-spirv"), "{err}");
}

#[test]
fn hip1_is_refused_by_name() {
    let data = std::fs::read(fixture_dir().join("matmul.gfx942.hip1")).unwrap();
    let err = infer_format(&data, DataExtent::Known).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.mentions("wrapped HIP executable (`HIP1`)"), "{err}");
}

#[test]
fn image_that_is_not_an_elf_is_invalid_argument() {
    let wrapped = wrap(b"this is not an ELF image", "gfx942");
    let err = infer_format(&wrapped, DataExtent::Known).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.mentions("ELF"), "{err}");
}

#[test]
fn zero_and_two_modules_are_unimplemented() {
    let elf = support::amdgpu_header(3, 0x04c | 0xc00 | 0x200);
    for images in [vec![], vec![&elf[..], &elf[..]]] {
        let count = images.len();
        let wrapped = build_amd1(&ExecutableSpec {
            images,
            ..Default::default()
        })
        .unwrap();
        let err = infer_format(&wrapped, DataExtent::Known).unwrap_err();
        assert_eq!(err.code(), StatusCode::Unimplemented);
        assert!(
            err.mentions(&format!("executable declares {count} modules")),
            "{err}"
        );
    }
}

#[test]
fn bad_header_errors_come_through() {
    let elf = support::amdgpu_header(3, 0x04c | 0xc00 | 0x200);
    let mut wrapped = wrap(&elf, "gfx942");
    wrapped[4] = 7;
    assert_eq!(
        infer_format(&wrapped, DataExtent::Known)
            .unwrap_err()
            .code(),
        StatusCode::Incompatible
    );
    let short = &wrap(&elf, "gfx942")[..40];
    assert_eq!(
        infer_format(short, DataExtent::Known).unwrap_err().code(),
        StatusCode::InvalidArgument
    );
    assert_eq!(
        infer_format(short, DataExtent::Infer).unwrap_err().code(),
        StatusCode::OutOfRange
    );
}

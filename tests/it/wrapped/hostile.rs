//! Hostile wrapped executables: each gives a specific code and message, never a panic.

use amdgpu_hal::StatusCode;
use amdgpu_hal::wrapped::builder::{
    BindingBits, ExecutableSpec, ExportDebugSpec, ExportSpec, build_amd1,
};
use amdgpu_hal::wrapped::{Amd1Executable, DataExtent, DeviceLimits, HEADER_SIZE};

const ELEMENTWISE: &[u8] = include_bytes!("../../../fixtures/iree/elementwise.gfx942.amd1");

fn export(symbol: &str, workgroup_size: Option<[u32; 3]>, bindings: usize) -> ExportSpec {
    ExportSpec {
        symbol_name: symbol.to_string(),
        workgroup_size,
        constant_count: 0,
        binding_flags: vec![BindingBits::READ_ONLY; bindings],
        debug: None,
    }
}

fn spec_with(exports: Vec<ExportSpec>, images: Vec<&[u8]>) -> Vec<u8> {
    build_amd1(&ExecutableSpec {
        isa: Some("gfx942".into()),
        exports,
        images,
        source_files: vec![],
    })
    .unwrap()
}

/// Parses, verifies against the default limits and takes the single module.
fn check(data: &[u8]) -> amdgpu_hal::Result<()> {
    let exe = Amd1Executable::parse(data, DataExtent::Known)?;
    exe.verify(&DeviceLimits::AMDGPU)?;
    exe.single_module_image().map(|_| ())
}

fn assert_status(data: &[u8], code: StatusCode, words: &str) {
    let err = check(data).expect_err(words);
    assert_eq!(err.code(), code, "{err}");
    assert!(err.mentions(words), "`{err}` does not mention `{words}`");
}

fn put_u32(data: &mut [u8], at: usize, value: u32) {
    data[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

#[test]
fn header_version_not_zero_is_incompatible() {
    let mut data = ELEMENTWISE.to_vec();
    put_u32(&mut data, 4, 1);
    assert_status(
        &data,
        StatusCode::Incompatible,
        "executable version 1 not compatible",
    );
}

#[test]
fn content_size_past_the_end_is_out_of_range() {
    let mut data = ELEMENTWISE.to_vec();
    let past = (data.len() - HEADER_SIZE + 1) as u64;
    data[8..16].copy_from_slice(&past.to_le_bytes());
    assert_status(&data, StatusCode::OutOfRange, "size prefix out of bounds");
}

#[test]
fn content_size_zero_is_invalid_argument() {
    let mut data = ELEMENTWISE.to_vec();
    data[8..16].fill(0);
    assert_status(
        &data,
        StatusCode::InvalidArgument,
        "reported as zero-length",
    );
}

#[test]
fn header_identifier_mismatch_is_invalid_argument() {
    let mut data = ELEMENTWISE.to_vec();
    data[0..4].copy_from_slice(b"HIP1");
    assert_status(&data, StatusCode::InvalidArgument, "expected `AMD1`");
}

#[test]
fn flatbuffer_identifier_mismatch_is_invalid_argument() {
    let mut data = ELEMENTWISE.to_vec();
    data[HEADER_SIZE + 4..HEADER_SIZE + 8].copy_from_slice(b"AMDX");
    assert_status(&data, StatusCode::InvalidArgument, "identifier mismatch");
}

#[test]
fn root_offset_outside_the_buffer_fails_verification() {
    let mut data = ELEMENTWISE.to_vec();
    put_u32(&mut data, HEADER_SIZE, 0x7fff_fff0);
    assert_status(
        &data,
        StatusCode::InvalidArgument,
        "flatbuffer verification failed",
    );
}

#[test]
fn vector_length_of_2_pow_31_fails_verification() {
    let mut data = ELEMENTWISE.to_vec();
    let exe = Amd1Executable::parse(ELEMENTWISE, DataExtent::Known).unwrap();
    let exports = exe.def.exports().unwrap();
    let flags = exports.get(0).binding_flags().unwrap();
    // The vector's length word sits right before its elements.
    let at = flags.bytes().as_ptr() as usize - ELEMENTWISE.as_ptr() as usize - 4;
    put_u32(&mut data, at, 1 << 31);
    assert_status(
        &data,
        StatusCode::InvalidArgument,
        "flatbuffer verification failed",
    );
}

#[test]
fn image_without_its_nul_fails_verification() {
    let mut data = ELEMENTWISE.to_vec();
    let exe = Amd1Executable::parse(ELEMENTWISE, DataExtent::Known).unwrap();
    let image = exe.single_module_image().unwrap();
    let end = image.as_ptr() as usize - ELEMENTWISE.as_ptr() as usize + image.len();
    assert_eq!(data[end], 0);
    data[end] = b'!';
    assert_status(
        &data,
        StatusCode::InvalidArgument,
        "string not zero terminated",
    );
}

#[test]
fn zero_modules_is_unimplemented() {
    let data = spec_with(vec![export("k.kd", Some([64, 1, 1]), 1)], vec![]);
    assert_status(
        &data,
        StatusCode::Unimplemented,
        "executable declares 0 modules",
    );
}

#[test]
fn two_modules_is_unimplemented() {
    let image = b"\x7fELF-not-really";
    let data = spec_with(
        vec![export("k.kd", Some([64, 1, 1]), 1)],
        vec![&image[..], &image[..]],
    );
    assert_status(
        &data,
        StatusCode::Unimplemented,
        "executable declares 2 modules",
    );
}

#[test]
fn empty_image_is_invalid_argument() {
    let data = spec_with(vec![export("k.kd", Some([64, 1, 1]), 1)], vec![&[]]);
    assert_status(
        &data,
        StatusCode::InvalidArgument,
        "modules[0] contents are empty",
    );
}

#[test]
fn workgroup_size_zero_is_invalid_argument() {
    let data = spec_with(vec![export("k.kd", Some([0, 0, 0]), 1)], vec![b"x"]);
    assert_status(
        &data,
        StatusCode::InvalidArgument,
        "exports[0] workgroup size 0x0x0 has a zero dimension",
    );
}

#[test]
fn workgroup_size_over_a_dimension_limit_is_invalid_argument() {
    let data = spec_with(
        vec![
            export("a.kd", Some([64, 1, 1]), 0),
            export("b.kd", Some([1, 2048, 1]), 0),
        ],
        vec![b"x"],
    );
    assert_status(
        &data,
        StatusCode::InvalidArgument,
        "exports[1] workgroup size dims 1x2048x1 exceeds device maximum 1024x1024x1024",
    );
}

#[test]
fn workgroup_size_over_the_total_limit_is_invalid_argument() {
    let data = spec_with(
        vec![export("k.kd", Some([1024, 1024, 1024]), 0)],
        vec![b"x"],
    );
    assert_status(
        &data,
        StatusCode::InvalidArgument,
        "exports[0] workgroup size total 1073741824 exceeds device maximum 1024",
    );
}

#[test]
fn workgroup_size_missing_is_invalid_argument() {
    let data = spec_with(vec![export("k.kd", None, 0)], vec![b"x"]);
    assert_status(
        &data,
        StatusCode::InvalidArgument,
        "exports[0] workgroup size dims are missing",
    );
}

#[test]
fn seventy_thousand_bindings_is_invalid_argument() {
    let data = spec_with(vec![export("k.kd", Some([64, 1, 1]), 70_000)], vec![b"x"]);
    assert_status(
        &data,
        StatusCode::InvalidArgument,
        "exports[0] binding_flags count 70000 exceeds maximum of 65535",
    );
}

#[test]
fn constant_count_over_the_maximum_is_invalid_argument() {
    let mut too_many = export("k.kd", Some([64, 1, 1]), 0);
    too_many.constant_count = 65_536;
    let data = spec_with(vec![too_many], vec![b"x"]);
    assert_status(
        &data,
        StatusCode::InvalidArgument,
        "exports[0] constant_count 65536 exceeds maximum of 65535",
    );
}

#[test]
fn empty_symbol_name_is_invalid_argument() {
    let data = spec_with(vec![export("", Some([64, 1, 1]), 0)], vec![b"x"]);
    assert_status(
        &data,
        StatusCode::InvalidArgument,
        "exports[0] name is empty",
    );
}

#[test]
fn debug_location_with_empty_filename_is_invalid_argument() {
    let mut with_debug = export("k.kd", Some([64, 1, 1]), 0);
    with_debug.debug = Some(ExportDebugSpec {
        name: "k".into(),
        location: Some((String::new(), 3)),
    });
    let data = spec_with(vec![with_debug], vec![b"x"]);
    assert_status(
        &data,
        StatusCode::InvalidArgument,
        "expected debug info field `filename` to contain a non-empty string value",
    );
    assert!(
        check(&data)
            .unwrap_err()
            .mentions("verifying exports[0] debug_info")
    );
}

#[test]
fn every_truncation_of_a_real_executable_fails_cleanly() {
    for len in 0..ELEMENTWISE.len() {
        let err = check(&ELEMENTWISE[..len]).expect_err("a strict prefix must fail");
        assert!(
            matches!(
                err.code(),
                StatusCode::InvalidArgument | StatusCode::OutOfRange
            ),
            "{len}: {err}"
        );
    }
}

//! Symbols and kernel descriptors of the committed fixtures, checked against
//! their metadata, plus hostile descriptor/symbol inputs.

use std::path::Path;

use amdgpu_hal::StatusCode;
use amdgpu_hal::codeobj::kernel_descriptor::{KERNEL_DESCRIPTOR_SIZE, KernelDescriptor};
use amdgpu_hal::codeobj::metadata::CodeObjectMetadata;
use amdgpu_hal::codeobj::symbols::{STT_FUNC, STT_OBJECT, find_symbol, symbol_bytes, symbols};
use proptest::prelude::*;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/hsaco")
            .join(name),
    )
    .unwrap()
}

fn all_fixtures() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hsaco");
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "hsaco"))
        .map(|path| (path.display().to_string(), std::fs::read(&path).unwrap()))
        .collect();
    out.sort();
    assert!(out.len() >= 40);
    out
}

#[test]
fn descriptors_agree_with_metadata_in_every_fixture() {
    for (name, data) in all_fixtures() {
        let md = CodeObjectMetadata::from_elf(&data).unwrap();
        for kernel in &md.kernels {
            let kd_symbol = find_symbol(&data, kernel.symbol).unwrap();
            assert_eq!(kd_symbol.kind, STT_OBJECT, "{name} {}", kernel.symbol);
            assert_eq!(
                kd_symbol.value % 64,
                0,
                "{name}: descriptor not 64-byte aligned"
            );
            let kd = KernelDescriptor::from_elf(&data, kernel.symbol).unwrap();
            assert_eq!(
                kd.group_segment_fixed_size, kernel.group_segment_fixed_size,
                "{name}"
            );
            assert_eq!(
                kd.private_segment_fixed_size, kernel.private_segment_fixed_size,
                "{name}"
            );
            assert_eq!(kd.kernarg_size, kernel.kernarg_segment_size, "{name}");
            assert_eq!(kd.is_wave32(), kernel.wavefront_size == Some(32), "{name}");
            assert_eq!(
                kd.uses_dynamic_stack(),
                kernel.uses_dynamic_stack == Some(true)
            );
            assert_eq!(
                kd.enables_private_segment(),
                kernel.private_segment_fixed_size > 0,
                "{name}"
            );
            // The entry offset lands on the kernel's code symbol.
            let entry = find_symbol(&data, kernel.reflection_name).unwrap();
            assert_eq!(entry.kind, STT_FUNC);
            assert_eq!(
                kd.entry_address(kd_symbol.value),
                Some(entry.value),
                "{name}"
            );
        }
    }
}

#[test]
fn reads_a_global_variable_initializer() {
    let data = fixture("vector_add.gfx1100.cov5.hsaco");
    let counter = find_symbol(&data, "counter").unwrap();
    assert_eq!((counter.kind, counter.size), (STT_OBJECT, 4));
    assert_eq!(symbol_bytes(&data, &counter).unwrap(), 42i32.to_le_bytes());
    let names: Vec<_> = symbols(&data).unwrap().iter().map(|s| s.name).collect();
    for expected in ["vector_add", "vector_add.kd", "bump", "bump.kd", "counter"] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    let err = find_symbol(&data, "missing").unwrap_err();
    assert_eq!(err.code(), StatusCode::NotFound);
    assert_eq!(
        find_symbol(&data, "").unwrap_err().code(),
        StatusCode::InvalidArgument
    );
    let long = "x".repeat(5000);
    assert_eq!(
        find_symbol(&data, &long).unwrap_err().code(),
        StatusCode::OutOfRange
    );
}

#[test]
fn rejects_short_descriptors_and_wrong_sizes() {
    let err = KernelDescriptor::parse(&[0; 63]).unwrap_err();
    assert_eq!(err.code(), StatusCode::OutOfRange);
    let mut raw = [0u8; KERNEL_DESCRIPTOR_SIZE];
    raw[16..24].copy_from_slice(&(-64i64).to_le_bytes());
    raw[56..58].copy_from_slice(&(1u16 << 10).to_le_bytes());
    let kd = KernelDescriptor::parse(&raw).unwrap();
    assert_eq!(kd.entry_address(0x1000), Some(0x1000 - 64));
    assert_eq!(kd.entry_address(0), None);
    assert!(kd.is_wave32());
    let data = fixture("vector_add.gfx1100.cov5.hsaco");
    let err = KernelDescriptor::from_elf(&data, "counter").unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.message().contains("is 4 bytes, not 64"), "{err}");
}

proptest! {
    #[test]
    fn mutated_fixtures_never_panic(index in 0usize..4800, value in any::<u8>()) {
        let mut data = fixture("vector_add.gfx1100.cov5.hsaco");
        let index = index % data.len();
        data[index] = value;
        if let Ok(all) = symbols(&data) {
            for symbol in &all {
                let _ = symbol_bytes(&data, symbol);
            }
        }
        let _ = KernelDescriptor::from_elf(&data, "vector_add.kd");
        let _ = CodeObjectMetadata::from_elf(&data);
    }
}

#[test]
fn section_table_at_the_end_of_the_address_space_fails_cleanly() {
    let mut data = fixture("vector_add.gfx1100.cov5.hsaco");
    data[40..48].copy_from_slice(&(u64::MAX - 8).to_le_bytes());
    let err = symbols(&data).unwrap_err();
    assert_eq!(err.code(), StatusCode::OutOfRange, "{err}");
    assert_eq!(
        KernelDescriptor::from_elf(&data, "vector_add.kd")
            .unwrap_err()
            .code(),
        StatusCode::OutOfRange
    );
}

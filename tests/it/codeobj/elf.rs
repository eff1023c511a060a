//! IREE's `code_object_target_test.cc` and `elf_format_test.cc` cases with the
//! same values, the hostile ELF inputs of issue 4, and property tests.

use crate::support;

use amdgpu_hal::StatusCode;
use amdgpu_hal::codeobj::elf::{calculate_size, code_object_version, is_elf, target_id_from_elf};
use amdgpu_hal::codeobj::notes::find_metadata_note;
use amdgpu_hal::codeobj::target_id::{FeatureState, TargetKind};
use proptest::prelude::*;
use support::amdgpu_header;

#[test]
fn decodes_v5_exact_target_with_features() {
    let t = target_id_from_elf(&amdgpu_header(3, 0x04c | 0xc00 | 0x200)).unwrap();
    assert_eq!(t.kind, TargetKind::Exact);
    assert_eq!(t.generic_version, 0);
    assert_eq!((t.sramecc, t.xnack), (FeatureState::On, FeatureState::Off));
    assert_eq!(t.to_string(), "gfx942:sramecc+:xnack-");
    assert_eq!(code_object_version(&amdgpu_header(3, 0x04c)).unwrap(), 5);
}

#[test]
fn decodes_v5_any_and_unsupported_features() {
    let t = target_id_from_elf(&amdgpu_header(3, 0x041 | 0x400)).unwrap();
    assert_eq!(
        (t.sramecc, t.xnack),
        (FeatureState::Any, FeatureState::Unsupported)
    );
    assert_eq!(t.to_string(), "gfx1100");
}

#[test]
fn decodes_v6_generic_version() {
    let t = target_id_from_elf(&amdgpu_header(4, 0x054 | (1 << 24))).unwrap();
    assert_eq!(t.kind, TargetKind::Generic);
    assert_eq!(t.generic_version, 1);
    assert_eq!(t.to_string(), "gfx11-generic");
    assert_eq!(
        code_object_version(&amdgpu_header(4, 0x054 | (1 << 24))).unwrap(),
        6
    );
}

#[test]
fn decodes_v3_feature_bits() {
    let t = target_id_from_elf(&amdgpu_header(1, 0x02f)).unwrap();
    assert_eq!((t.sramecc, t.xnack), (FeatureState::Off, FeatureState::Off));
    assert_eq!(t.to_string(), "gfx906:sramecc-:xnack-");
    let t = target_id_from_elf(&amdgpu_header(1, 0x02f | 0x100 | 0x200)).unwrap();
    assert_eq!(t.to_string(), "gfx906:sramecc+:xnack+");
    let t = target_id_from_elf(&amdgpu_header(1, 0x036)).unwrap();
    assert_eq!(
        (t.sramecc, t.xnack),
        (FeatureState::Unsupported, FeatureState::Unsupported)
    );
}

fn assert_err(data: &[u8], code: StatusCode, needle: &str) {
    let err = target_id_from_elf(data).unwrap_err();
    assert_eq!(err.code(), code, "{err}");
    assert!(err.message().contains(needle), "{err}");
}

#[test]
fn rejects_bad_targets_like_iree() {
    assert_err(
        &amdgpu_header(4, 0x054),
        StatusCode::InvalidArgument,
        "no generic version",
    );
    assert_err(
        &amdgpu_header(3, 0x054),
        StatusCode::InvalidArgument,
        "requires HSA ABI v6",
    );
    assert_err(
        &amdgpu_header(4, 0x04c | (2 << 24)),
        StatusCode::InvalidArgument,
        "non-generic",
    );
    assert_err(
        &amdgpu_header(3, 0x027),
        StatusCode::InvalidArgument,
        "e_flags value 0x27",
    );
    let mut h = amdgpu_header(3, 0x04c);
    h[18] = 3;
    assert_err(
        &h,
        StatusCode::InvalidArgument,
        "ELF machine 3 is not AMDGPU",
    );
}

#[test]
fn rejects_wrong_identity() {
    assert_err(b"", StatusCode::InvalidArgument, "ELF magic");
    assert_err(b"MZ\x90\x00", StatusCode::InvalidArgument, "ELF magic");
    assert_err(
        &amdgpu_header(3, 0x04c)[..63],
        StatusCode::OutOfRange,
        "truncated",
    );
    let mutate = |index: usize, value: u8, needle: &str| {
        let mut h = amdgpu_header(3, 0x04c);
        h[index] = value;
        assert_err(&h, StatusCode::InvalidArgument, needle);
    };
    mutate(4, 1, "64-bit");
    mutate(5, 2, "little-endian");
    mutate(6, 0, "ELF version 0");
    mutate(7, 0, "HSA OSABI");
    mutate(8, 0, "ABI version 0");
    mutate(8, 5, "ABI version 5");
    mutate(20, 2, "e_version 2");
}

#[test]
fn a_non_amdgpu_elf_is_rejected() {
    // A host x86-64 executable header.
    let mut h = amdgpu_header(0, 0);
    h[7] = 0;
    h[18..20].copy_from_slice(&62u16.to_le_bytes());
    let err = target_id_from_elf(&h).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    let err = find_metadata_note(&h).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.message().contains("non-AMDGPU machine 62"), "{err}");
}

/// IREE's elf_format fixture: phdrs at 64 (1 x 56), shdrs at 160 (1 x 64), one
/// section at 512 of 96 bytes: 608 bytes in all.
fn elf_format_fixture() -> Vec<u8> {
    let mut elf = amdgpu_header(3, 0x04c);
    elf[32..40].copy_from_slice(&64u64.to_le_bytes());
    elf[40..48].copy_from_slice(&160u64.to_le_bytes());
    elf[54..56].copy_from_slice(&56u16.to_le_bytes());
    elf[56..58].copy_from_slice(&1u16.to_le_bytes());
    elf[58..60].copy_from_slice(&64u16.to_le_bytes());
    elf[60..62].copy_from_slice(&1u16.to_le_bytes());
    elf.resize(608, 0);
    let shdr = 160;
    elf[shdr + 4..shdr + 8].copy_from_slice(&1u32.to_le_bytes()); // SHT_PROGBITS
    elf[shdr + 24..shdr + 32].copy_from_slice(&512u64.to_le_bytes());
    elf[shdr + 32..shdr + 40].copy_from_slice(&96u64.to_le_bytes());
    elf
}

#[test]
fn calculates_size_like_iree() {
    let elf = elf_format_fixture();
    assert!(is_elf(&elf));
    assert!(!is_elf(b""));
    assert!(!is_elf(b"\x7fEL"));
    assert_eq!(calculate_size(&elf).unwrap(), 608);
    // Trailing bytes are not part of the image.
    let mut padded = elf.clone();
    padded.extend_from_slice(&[0xAB; 100]);
    assert_eq!(calculate_size(&padded).unwrap(), 608);

    let err = calculate_size(&elf[..128]).unwrap_err();
    assert_eq!(err.code(), StatusCode::OutOfRange);
    assert!(
        err.message().contains("section header table is truncated"),
        "{err}"
    );

    let mut bad = elf.clone();
    bad[58..60].copy_from_slice(&1u16.to_le_bytes());
    let err = calculate_size(&bad).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.message().contains("section header entry too small"),
        "{err}"
    );
}

#[test]
fn calculate_size_is_bounded_by_the_slice() {
    let elf = elf_format_fixture();
    // The section's contents run past the end: IREE would report 608.
    let err = calculate_size(&elf[..600]).unwrap_err();
    assert_eq!(err.code(), StatusCode::OutOfRange);
    assert!(err.message().contains("needs 608 bytes, have 600"), "{err}");
    // SHT_NOBITS occupies no file bytes.
    let mut nobits = elf.clone();
    nobits[164..168].copy_from_slice(&8u32.to_le_bytes());
    nobits[160 + 32..160 + 40].copy_from_slice(&u64::MAX.to_le_bytes());
    assert_eq!(calculate_size(&nobits).unwrap(), 224);
    // Section extents that overflow.
    let mut overflow = elf.clone();
    overflow[160 + 24..160 + 32].copy_from_slice(&u64::MAX.to_le_bytes());
    assert_eq!(
        calculate_size(&overflow).unwrap_err().code(),
        StatusCode::OutOfRange
    );
    // A section table past the end.
    let mut past = elf.clone();
    past[40..48].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let err = calculate_size(&past).unwrap_err();
    assert_eq!(err.code(), StatusCode::OutOfRange);
    assert!(
        err.message().contains("section header table is truncated"),
        "{err}"
    );
    // Headers.
    assert_eq!(
        calculate_size(b"\x7fELF").unwrap_err().code(),
        StatusCode::OutOfRange
    );
    assert_eq!(
        calculate_size(b"nope").unwrap_err().code(),
        StatusCode::InvalidArgument
    );
    let mut be = elf.clone();
    be[5] = 2;
    assert_eq!(
        calculate_size(&be).unwrap_err().code(),
        StatusCode::InvalidArgument
    );
    let mut class = elf.clone();
    class[4] = 9;
    let err = calculate_size(&class).unwrap_err();
    assert!(err.message().contains("unsupported ELF class 9"), "{err}");
}

#[test]
fn calculates_elf32_sizes() {
    let mut elf = vec![0u8; 52];
    elf[..4].copy_from_slice(b"\x7fELF");
    elf[4] = 1;
    elf[5] = 1;
    elf[6] = 1;
    elf[32..36].copy_from_slice(&52u32.to_le_bytes()); // e_shoff
    elf[46..48].copy_from_slice(&40u16.to_le_bytes()); // e_shentsize
    elf[48..50].copy_from_slice(&1u16.to_le_bytes()); // e_shnum
    elf.resize(92, 0);
    elf[52 + 16..52 + 20].copy_from_slice(&92u32.to_le_bytes());
    elf[52 + 20..52 + 24].copy_from_slice(&8u32.to_le_bytes());
    elf.resize(100, 0);
    assert_eq!(calculate_size(&elf).unwrap(), 100);
    assert_eq!(
        calculate_size(&elf[..40]).unwrap_err().code(),
        StatusCode::OutOfRange
    );
}

/// The real code object the mutation property starts from.
const VECTOR_ADD: &[u8] = include_bytes!("../../../fixtures/hsaco/vector_add.gfx942.cov5.hsaco");

proptest! {
    /// A real code object with up to 8 bytes overwritten anywhere and maybe
    /// cut short: unlike random bytes, most of these pass the ELF magic and
    /// reach the header, segment and note checks.
    #[test]
    fn mutated_fixture_never_panics(
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..8),
        cut in proptest::option::of(any::<usize>()),
    ) {
        let mut data = VECTOR_ADD.to_vec();
        for (at, byte) in edits {
            let at = at % data.len();
            data[at] = byte;
        }
        if let Some(cut) = cut {
            data.truncate(cut % (data.len() + 1));
        }
        let _ = target_id_from_elf(&data);
        if let Ok(size) = calculate_size(&data) {
            prop_assert!(size <= data.len());
        }
        let _ = find_metadata_note(&data);
    }

    #[test]
    fn mutated_headers_never_panic(index in 0usize..64, value in any::<u8>(), flags in any::<u32>()) {
        let mut elf = elf_format_fixture();
        elf[48..52].copy_from_slice(&flags.to_le_bytes());
        elf[index] = value;
        if let Ok(size) = calculate_size(&elf) {
            prop_assert!(size <= elf.len());
        }
        if let Ok(target) = target_id_from_elf(&elf) {
            prop_assert!(!target.to_string().is_empty());
        }
    }

    #[test]
    fn every_mach_value_decodes_or_fails_cleanly(mach in 0u32..256, features in 0u32..16, abi in 0u8..8) {
        let e_flags = mach | (features << 8) | if abi == 4 { 1 << 24 } else { 0 };
        if let Ok(target) = target_id_from_elf(&amdgpu_header(abi, e_flags)) {
            prop_assert_eq!(
                amdgpu_hal::codeobj::processors::by_mach(mach as u8).map(|row| row.name),
                Some(target.processor.as_str())
            );
        }
    }
}

#[test]
fn reads_the_committed_fixtures() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hsaco");
    let cases = [
        (
            "vector_add.gfx942_sramecc+_xnack-.cov5.hsaco",
            "gfx942:sramecc+:xnack-",
        ),
        ("vector_add.gfx1100.cov5.hsaco", "gfx1100"),
    ];
    for (file, expected) in cases {
        let data = std::fs::read(root.join(file)).unwrap();
        assert_eq!(
            target_id_from_elf(&data).unwrap().to_string(),
            expected,
            "{file}"
        );
        assert_eq!(code_object_version(&data).unwrap(), 5, "{file}");
        assert_eq!(calculate_size(&data).unwrap(), data.len(), "{file}");
        assert!(find_metadata_note(&data).unwrap().len() > 100, "{file}");
    }
}

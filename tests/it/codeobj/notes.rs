//! Code objects with several `NT_AMDGPU_METADATA` notes (one per translation
//! unit linked into them): every note is read, their kernels merged in note
//! order, and notes that disagree on `amdhsa.version`/`amdhsa.target` are
//! refused naming both values. The real-compiler case (clang-19 + ld.lld-19
//! over several units) is `fixtures/hsaco/multi_tu.*` in `codeobj/fixtures.rs`.

use crate::support;

use amdgpu_hal::StatusCode;
use amdgpu_hal::codeobj::metadata::{self, CodeObjectMetadata, KernelMetadata, KernelVisitor};
use amdgpu_hal::codeobj::notes::{find_metadata_note, find_metadata_notes};
use amdgpu_hal::report::inspect::inspect;
use amdgpu_hal::wrapped::DeviceLimits;
use support::*;

/// A metadata blob with `version`/`target` (omitted when `None`) and one
/// kernel per symbol, each with one 8-byte global buffer argument.
fn blob(version: Option<[u64; 2]>, target: Option<&str>, symbols: &[&str]) -> Vec<u8> {
    let mut p = Pack::default();
    p.map(1 + u32::from(version.is_some()) + u32::from(target.is_some()));
    if let Some([major, minor]) = version {
        p.str("amdhsa.version").array(2).uint(major).uint(minor);
    }
    if let Some(target) = target {
        p.field_str("amdhsa.target", target);
    }
    p.str("amdhsa.kernels").array(symbols.len() as u32);
    for symbol in symbols {
        p.map(7)
            .field_str(".name", symbol.trim_end_matches(".kd"))
            .field_str(".symbol", symbol)
            .field_uint(".kernarg_segment_size", 8)
            .field_uint(".kernarg_segment_align", 8)
            .field_uint(".group_segment_fixed_size", 0)
            .field_uint(".private_segment_fixed_size", 0);
        p.str(".args").array(1).raw(&arg(0, 8, "global_buffer"));
    }
    p.0
}

const TARGET: &str = "amdgcn-amd-amdhsa--gfx942";

/// One ELF whose note area holds each blob as an AMDGPU metadata note, with
/// an unrelated note between the first two.
fn elf_with_notes(blobs: &[Vec<u8>]) -> Vec<u8> {
    let mut area = Vec::new();
    for (i, blob) in blobs.iter().enumerate() {
        area.extend(note(b"AMDGPU\0", 32, blob));
        if i == 0 {
            area.extend(note(b"GNU\0", 3, b"build-id"));
        }
    }
    elf_with_note_area(&area)
}

fn symbols<'a>(md: &'a CodeObjectMetadata<'_>) -> Vec<&'a str> {
    md.kernels.iter().map(|k| k.symbol).collect()
}

#[test]
fn every_note_contributes_its_kernels_in_order() {
    let elf = elf_with_notes(&[
        blob(Some([1, 2]), Some(TARGET), &["a0.kd", "a1.kd"]),
        blob(Some([1, 2]), Some(TARGET), &["b0.kd"]),
        blob(Some([1, 2]), Some(TARGET), &["c0.kd", "c1.kd", "c2.kd"]),
    ]);
    assert_eq!(find_metadata_notes(&elf).unwrap().len(), 3);
    let md = CodeObjectMetadata::from_elf(&elf).unwrap();
    assert_eq!(
        symbols(&md),
        ["a0.kd", "a1.kd", "b0.kd", "c0.kd", "c1.kd", "c2.kd"]
    );
    assert_eq!((md.version, md.target), (Some([1, 2]), Some(TARGET)));
    // Lookups reach the kernels of every note.
    assert_eq!(md.kernel_index_by_symbol("c1.kd").unwrap(), 4);
    assert_eq!(md.find_kernel_by_symbol("b0.kd").unwrap().symbol, "b0.kd");

    // The streaming walk sees the same kernels and the summed count.
    struct Names(Vec<String>, usize);
    impl<'a> KernelVisitor<'a> for Names {
        fn kernel_count(&mut self, count: usize) {
            self.1 += count;
        }
        fn kernel(&mut self, kernel: KernelMetadata<'a>) -> amdgpu_hal::Result<()> {
            self.0.push(kernel.symbol.to_owned());
            Ok(())
        }
    }
    let mut names = Names(Vec::new(), 0);
    let header = metadata::visit_elf(&elf, &mut names).unwrap();
    assert_eq!(header.kernel_count, 6);
    assert_eq!(names.1, 6);
    assert_eq!(names.0, symbols(&md));

    // `inspect` lists all six.
    let report = inspect(&elf, &DeviceLimits::AMDGPU, &()).unwrap();
    let exported: Vec<_> = report.exports.iter().map(|e| e.symbol).collect();
    assert_eq!(exported, symbols(&md));
}

#[test]
fn the_single_note_reader_refuses_several_naming_the_count() {
    let two = elf_with_notes(&[
        blob(Some([1, 2]), Some(TARGET), &["a.kd"]),
        blob(Some([1, 2]), Some(TARGET), &["b.kd"]),
    ]);
    let err = find_metadata_note(&two).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.mentions("holds 2 metadata notes"), "{err}");
    let one = elf_with_notes(&[blob(Some([1, 2]), Some(TARGET), &["a.kd"])]);
    assert!(find_metadata_note(&one).is_ok());
}

#[test]
fn notes_must_agree_on_version_and_target() {
    let cases = [
        (
            blob(Some([1, 2]), Some(TARGET), &["a.kd"]),
            blob(Some([1, 1]), Some(TARGET), &["b.kd"]),
            "`amdhsa.version`: note 1 has 1.2, note 2 has 1.1",
        ),
        (
            blob(Some([1, 2]), Some(TARGET), &["a.kd"]),
            blob(None, Some(TARGET), &["b.kd"]),
            "`amdhsa.version`: note 1 has 1.2, note 2 has none",
        ),
        (
            blob(Some([1, 2]), Some(TARGET), &["a.kd"]),
            blob(Some([1, 2]), Some("amdgcn-amd-amdhsa--gfx90a"), &["b.kd"]),
            "`amdhsa.target`: note 1 has `amdgcn-amd-amdhsa--gfx942`, note 2 has `amdgcn-amd-amdhsa--gfx90a`",
        ),
        (
            blob(Some([1, 2]), None, &["a.kd"]),
            blob(Some([1, 2]), Some(TARGET), &["b.kd"]),
            "`amdhsa.target`: note 1 has `none`, note 2 has `amdgcn-amd-amdhsa--gfx942`",
        ),
    ];
    for (first, second, needle) in cases {
        let elf = elf_with_notes(&[first, second]);
        let err = CodeObjectMetadata::from_elf(&elf).unwrap_err();
        assert_eq!(err.code(), StatusCode::InvalidArgument, "{err}");
        assert!(err.mentions(needle), "{needle}: {err}");
        let err = inspect(&elf, &DeviceLimits::AMDGPU, &()).unwrap_err();
        assert!(err.mentions(needle), "{needle}: {err}");
    }
    // Agreement by absence (code object V3 has no target) is agreement.
    let elf = elf_with_notes(&[
        blob(Some([1, 0]), None, &["a.kd"]),
        blob(Some([1, 0]), None, &["b.kd"]),
    ]);
    assert_eq!(
        symbols(&CodeObjectMetadata::from_elf(&elf).unwrap()),
        ["a.kd", "b.kd"]
    );
}

#[test]
fn an_error_inside_a_later_note_names_that_note() {
    let elf = elf_with_notes(&[
        blob(Some([1, 2]), Some(TARGET), &["a.kd"]),
        b"\x81\xa1x".to_vec(), // a map without `amdhsa.kernels`
    ]);
    let err = CodeObjectMetadata::from_elf(&elf).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.mentions("metadata note 2 of 2"), "{err}");
}

#[test]
fn an_error_in_the_only_note_is_not_numbered() {
    let elf = elf_with_notes(&[b"\x81\xa1x".to_vec()]);
    let err = CodeObjectMetadata::from_elf(&elf).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(!err.mentions("metadata note 1 of 1"), "{err}");
}

#[test]
fn the_same_symbol_in_two_notes_is_ambiguous_not_dropped() {
    let elf = elf_with_notes(&[
        blob(Some([1, 2]), Some(TARGET), &["k.kd"]),
        blob(Some([1, 2]), Some(TARGET), &["k.kd"]),
    ]);
    let md = CodeObjectMetadata::from_elf(&elf).unwrap();
    assert_eq!(md.kernels.len(), 2);
    let err = md.find_kernel_by_symbol("k.kd").unwrap_err();
    assert_eq!(err.code(), StatusCode::FailedPrecondition);
    assert!(err.mentions("duplicate kernel symbol `k.kd`"), "{err}");
}

/// An ELF of `area` (at offset 128) whose one `PT_NOTE` covers its first
/// `segment` bytes and whose one `SHT_NOTE` section (after a null one)
/// covers `section` (offsets in `area`).
fn elf_with_note_views(area: &[u8], segment: usize, section: std::ops::Range<usize>) -> Vec<u8> {
    let mut elf = elf_with_note_area(area);
    elf[64 + 32..64 + 40].copy_from_slice(&(segment as u64).to_le_bytes());
    let shoff = elf.len().next_multiple_of(8);
    elf.resize(shoff + 128, 0);
    elf[40..48].copy_from_slice(&(shoff as u64).to_le_bytes());
    elf[58..60].copy_from_slice(&64u16.to_le_bytes());
    elf[60..62].copy_from_slice(&2u16.to_le_bytes());
    let header = shoff + 64;
    elf[header + 4..header + 8].copy_from_slice(&7u32.to_le_bytes()); // SHT_NOTE
    elf[header + 24..header + 32].copy_from_slice(&((128 + section.start) as u64).to_le_bytes());
    elf[header + 32..header + 40].copy_from_slice(&(section.len() as u64).to_le_bytes());
    elf
}

/// A relocatable-style ELF (no program headers) whose notes live in one
/// `SHT_NOTE` section, plus the same file given a `PT_NOTE` over a
/// different area: the two views must agree.
#[test]
fn segments_and_sections_must_hold_the_same_notes() {
    let a = note(
        b"AMDGPU\0",
        32,
        &blob(Some([1, 2]), Some(TARGET), &["a.kd"]),
    );
    let b = note(
        b"AMDGPU\0",
        32,
        &blob(Some([1, 2]), Some(TARGET), &["b.kd"]),
    );
    let area: Vec<u8> = [a.clone(), b].concat();
    // PT_NOTE over the first note, SHT_NOTE over both.
    let mut elf = elf_with_note_views(&area, a.len(), 0..area.len());
    let err = find_metadata_notes(&elf).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.mentions("PT_NOTE segments hold 1 metadata notes but its SHT_NOTE sections hold 2"),
        "{err}"
    );
    // Once the segment covers the whole area the views agree.
    elf[64 + 32..64 + 40].copy_from_slice(&(area.len() as u64).to_le_bytes());
    assert_eq!(find_metadata_notes(&elf).unwrap().len(), 2);
    // Without program headers the section is read.
    elf[56..58].copy_from_slice(&0u16.to_le_bytes());
    let md = CodeObjectMetadata::from_elf(&elf).unwrap();
    assert_eq!(symbols(&md), ["a.kd", "b.kd"]);
}

/// One note in each view, of the same length, at two places: the views
/// agree when the bytes are the same and not when one byte differs (the
/// notes are compared by content, not only by where they lie).
#[test]
fn notes_of_one_length_at_two_places_are_compared_by_content() {
    let a = note(
        b"AMDGPU\0",
        32,
        &blob(Some([1, 2]), Some(TARGET), &["a.kd"]),
    );
    let b = note(
        b"AMDGPU\0",
        32,
        &blob(Some([1, 2]), Some(TARGET), &["b.kd"]),
    );
    assert_eq!(a.len(), b.len());
    // PT_NOTE over the first copy, SHT_NOTE over the second.
    let with_section_over_second = |second: &[u8]| {
        elf_with_note_views(
            &[a.clone(), second.to_vec()].concat(),
            a.len(),
            a.len()..a.len() + second.len(),
        )
    };
    let err = find_metadata_notes(&with_section_over_second(&b)).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.mentions(
            "PT_NOTE segments hold 1 metadata notes but its SHT_NOTE sections hold 1 different ones"
        ),
        "{err}"
    );
    let same = with_section_over_second(&a);
    let notes = find_metadata_notes(&same).unwrap();
    let desc = blob(Some([1, 2]), Some(TARGET), &["a.kd"]);
    assert_eq!(notes, [&desc[..]]);
    // The segment's copy is the one returned.
    let first = same[128..128 + a.len()].as_ptr_range();
    assert!(first.contains(&notes[0].as_ptr()));
}

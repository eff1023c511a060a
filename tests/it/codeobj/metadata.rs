//! IREE's `hsaco_metadata_test.cc` cases with the same values, the hostile
//! metadata inputs of issue 4, and property tests.

use crate::support;

use amdgpu_hal::StatusCode;
use amdgpu_hal::codeobj::metadata::{
    CodeObjectMetadata, ExportParameter, ParameterType, ValueKind,
};
use proptest::prelude::*;
use support::*;

fn parse_elf(elf: &[u8]) -> amdgpu_hal::Result<CodeObjectMetadata<'_>> {
    CodeObjectMetadata::from_elf(elf)
}

#[test]
fn parses_valid_metadata() {
    let elf = elf_with_metadata(&iree_kernel_metadata(KernelOptions::default()));
    let md = parse_elf(&elf).unwrap();
    assert_eq!(md.kernels.len(), 1);
    assert_eq!(md.arg_count(), 4);
    assert_eq!(md.version, Some([1, 2]));
    assert!(md.target.unwrap().starts_with("amdgcn-amd-amdhsa--gfx"));
    let k = &md.kernels[0];
    assert_eq!(k.name, Some("vector_add"));
    assert_eq!(k.symbol, "vector_add.kd");
    assert_eq!(k.reflection_name, "vector_add");
    assert_eq!(k.kernarg_segment_size, 24);
    assert_eq!(k.kernarg_segment_align, 8);
    assert_eq!(k.group_segment_fixed_size, 1024);
    assert_eq!(k.private_segment_fixed_size, 64);
    assert_eq!(k.reqd_workgroup_size, Some([16, 4, 1]));
    assert_eq!(k.args.len(), 4);
    assert_eq!(k.arg_name_storage_size(), 12);
    assert_eq!(md.reflection_name_storage_size(), 10);
    assert_eq!(md.arg_name_storage_size(), 12);

    let lhs = &k.args[0];
    assert_eq!(lhs.name, Some("lhs"));
    assert_eq!((lhs.offset, lhs.size, lhs.alignment), (0, 8, 8));
    assert_eq!(lhs.kind, ValueKind::GlobalBuffer);
    assert_eq!(lhs.value_kind, "global_buffer");
    assert_eq!(lhs.address_space, Some("global"));
    assert_eq!(lhs.access, Some("read_only"));
    assert_eq!(k.args[1].name, Some("rhs"));
    assert_eq!((k.args[1].offset, k.args[1].size), (8, 8));
    assert_eq!(k.args[1].access, Some("write_only"));
    assert_eq!(k.args[2].name, Some("n"));
    assert_eq!(
        (k.args[2].offset, k.args[2].size, k.args[2].kind),
        (16, 4, ValueKind::ByValue)
    );
    assert_eq!(k.args[3].name, Some("alpha"));
    assert_eq!(
        (k.args[3].offset, k.args[3].size, k.args[3].kind),
        (20, 4, ValueKind::ByValue)
    );
}

fn param(
    kind: ParameterType,
    size: u8,
    name: &'static str,
    offset: u16,
) -> ExportParameter<'static> {
    ExportParameter {
        kind,
        size,
        flags: 0,
        name,
        offset,
    }
}

#[test]
fn populates_default_export_parameters() {
    let elf = elf_with_metadata(&iree_kernel_metadata(KernelOptions::default()));
    let md = parse_elf(&elf).unwrap();
    let k = &md.kernels[0];
    let req = k.default_export_parameter_requirements().unwrap();
    assert_eq!(
        (
            req.parameter_count,
            req.binding_count,
            req.constant_count,
            req.name_storage_size
        ),
        (4, 2, 2, 12)
    );
    let projected = k.default_export_parameters().unwrap();
    assert_eq!(projected.requirements, req);
    let expected = [
        param(ParameterType::Binding, 8, "lhs", 0),
        param(ParameterType::Binding, 8, "rhs", 1),
        param(ParameterType::Constant, 4, "n", 0),
        param(ParameterType::Constant, 4, "alpha", 4),
    ];
    assert_eq!(projected.parameters, expected);

    let mut out = [param(ParameterType::BufferPtr, 0, "", 0); 4];
    assert_eq!(k.populate_default_export_parameters(&mut out).unwrap(), 4);
    assert_eq!(out, expected);
    let mut small = [param(ParameterType::BufferPtr, 0, "", 0); 3];
    let err = k
        .populate_default_export_parameters(&mut small)
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::ResourceExhausted);
    assert!(err.message().contains("capacity too small"));
}

#[test]
fn default_export_parameters_skip_hidden_arguments() {
    let elf = elf_with_metadata(&iree_hidden_argument_metadata());
    let md = parse_elf(&elf).unwrap();
    let k = &md.kernels[0];
    assert_eq!(k.name, None);
    assert_eq!(k.reflection_name, "hidden_args");
    assert_eq!(k.args[1].kind, ValueKind::Hidden);
    let projected = k.default_export_parameters().unwrap();
    let req = projected.requirements;
    assert_eq!(
        (
            req.parameter_count,
            req.binding_count,
            req.constant_count,
            req.name_storage_size
        ),
        (2, 1, 1, 11)
    );
    assert_eq!(
        projected.parameters,
        [
            param(ParameterType::Binding, 8, "buffer", 0),
            param(ParameterType::Constant, 4, "value", 0)
        ]
    );
}

#[test]
fn rejects_narrow_by_value_default_export_parameter() {
    let elf = elf_with_metadata(&iree_kernel_metadata(KernelOptions {
        narrow_by_value_arg: true,
        ..Default::default()
    }));
    let md = parse_elf(&elf).unwrap();
    let err = md.kernels[0].default_export_parameters().unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.message()
            .contains("by_value argument 2 size 2 is not a whole number"),
        "{err}"
    );
}

#[test]
fn finds_kernel_by_symbol() {
    let elf = elf_with_metadata(&iree_kernel_metadata(KernelOptions::default()));
    let md = parse_elf(&elf).unwrap();
    assert_eq!(
        md.find_kernel_by_symbol("vector_add.kd")
            .unwrap()
            .reflection_name,
        "vector_add"
    );
    let err = md.find_kernel_by_symbol("missing.kd").unwrap_err();
    assert_eq!(err.code(), StatusCode::NotFound);
    assert!(err.message().contains("`missing.kd` not found"));
}

#[test]
fn duplicate_symbols_fail_lookup_not_parse() {
    let mut p = Pack::default();
    p.map(1).str("amdhsa.kernels").array(2);
    for _ in 0..2 {
        p.map(5)
            .field_str(".symbol", "twice.kd")
            .field_uint(".kernarg_segment_size", 0)
            .field_uint(".kernarg_segment_align", 4)
            .field_uint(".group_segment_fixed_size", 0)
            .field_uint(".private_segment_fixed_size", 0);
    }
    let md = CodeObjectMetadata::from_msgpack(&p.0).unwrap();
    assert!(
        md.kernels[0].args.is_empty(),
        "a kernel without `.args` has none"
    );
    let err = md.find_kernel_by_symbol("twice.kd").unwrap_err();
    assert_eq!(err.code(), StatusCode::FailedPrecondition);
    assert!(err.message().contains("duplicate kernel symbol `twice.kd`"));
}

#[test]
fn allows_unknown_value_kind_as_opaque_metadata() {
    let elf = elf_with_metadata(&iree_kernel_metadata(KernelOptions {
        unknown_value_kind: true,
        ..Default::default()
    }));
    let md = parse_elf(&elf).unwrap();
    assert_eq!(md.kernels[0].args[0].kind, ValueKind::Unknown);
    assert_eq!(md.kernels[0].args[0].value_kind, "made_up_kind");
    let err = md.kernels[0].default_export_parameters().unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.message()
            .contains("unsupported reflected value_kind `made_up_kind`"),
        "{err}"
    );
}

#[test]
fn rejects_out_of_range_argument() {
    let elf = elf_with_metadata(&iree_kernel_metadata(KernelOptions {
        out_of_range_arg: true,
        ..Default::default()
    }));
    let err = parse_elf(&elf).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.message()
            .contains("argument 3 exceeds kernarg segment size 24"),
        "{err}"
    );
}

#[test]
fn rejects_missing_metadata_note() {
    let msgpack = iree_kernel_metadata(KernelOptions::default());
    let elf = elf_with_note_area(&note(b"OTHER\0", 32, &msgpack));
    let err = parse_elf(&elf).unwrap_err();
    assert_eq!(err.code(), StatusCode::NotFound);
    assert!(err.message().contains("AMDGPU metadata note not found"));
    // Right owner, wrong type.
    let elf = elf_with_note_area(&note(b"AMDGPU\0", 33, &msgpack));
    assert_eq!(parse_elf(&elf).unwrap_err().code(), StatusCode::NotFound);
}

#[test]
fn rejects_malformed_message_pack_metadata() {
    let mut p = Pack::default();
    p.map(1).str("amdhsa.kernels").array(1).map(0);
    let err = parse_elf(&elf_with_metadata(&p.0)).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.message().contains("missing required fields"), "{err}");
}

#[test]
fn rejects_duplicate_argument_field() {
    let mut dup = Pack::default();
    dup.map(4)
        .field_uint(".offset", 0)
        .field_uint(".offset", 4)
        .field_uint(".size", 4)
        .field_str(".value_kind", "by_value");
    let blob = one_kernel(0, &[], &[dup.0], 8);
    let err = parse_elf(&elf_with_metadata(&blob)).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.message().contains("repeats field `.offset`"), "{err}");
    // `.align` and `.alignment` are one field.
    let mut both = Pack::default();
    both.map(5)
        .field_uint(".offset", 0)
        .field_uint(".align", 4)
        .field_uint(".alignment", 4)
        .field_uint(".size", 4)
        .field_str(".value_kind", "by_value");
    let err = CodeObjectMetadata::from_msgpack(&one_kernel(0, &[], &[both.0], 8)).unwrap_err();
    assert!(
        err.message().contains("repeats field `.alignment`"),
        "{err}"
    );
}

#[test]
fn truncated_elf_prefixes_never_succeed() {
    let elf = elf_with_metadata(&iree_kernel_metadata(KernelOptions::default()));
    assert!(parse_elf(&elf).is_ok());
    for len in 0..elf.len() {
        assert!(
            parse_elf(&elf[..len]).is_err(),
            "prefix of {len} bytes parsed"
        );
    }
}

fn err_of(blob: &[u8]) -> amdgpu_hal::Status {
    CodeObjectMetadata::from_msgpack(blob).unwrap_err()
}

#[test]
fn rejects_hostile_metadata() {
    // Nesting 10,000 deep under an unknown key.
    let mut deep = Pack::default();
    deep.map(2)
        .str("amdhsa.kernels")
        .array(0)
        .str("x")
        .raw(&vec![0x91; 10_000])
        .uint(0);
    let err = err_of(&deep.0);
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.message().contains("nested too deeply"), "{err}");
    // A string claiming 4 GiB.
    let mut huge = Pack::default();
    huge.map(1)
        .raw(&[0xdb, 0xff, 0xff, 0xff, 0xff])
        .raw(b"amdhsa");
    let err = err_of(&huge.0);
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.message().contains("4294967295 bytes exceeds"), "{err}");
    // An array claiming 4 billion kernels.
    let mut many = Pack::default();
    many.map(1)
        .str("amdhsa.kernels")
        .raw(&[0xdd, 0xff, 0xff, 0xff, 0xff]);
    assert!(
        err_of(&many.0)
            .message()
            .contains("claims 4294967295 elements")
    );
    // An argument offset past the kernarg segment.
    let err = err_of(&one_kernel(0, &[], &[arg(64, 4, "by_value")], 16));
    assert!(
        err.message().contains("exceeds kernarg segment size 16"),
        "{err}"
    );
    let err = err_of(&one_kernel(
        0,
        &[],
        &[arg(u32::MAX as u64, 8, "by_value")],
        16,
    ));
    assert!(
        err.message().contains("exceeds kernarg segment size"),
        "{err}"
    );
    // Overlapping / unsorted args.
    let err = err_of(&one_kernel(
        0,
        &[],
        &[arg(8, 8, "global_buffer"), arg(4, 4, "by_value")],
        16,
    ));
    assert!(
        err.message().contains("overlaps a previous argument"),
        "{err}"
    );
    // Trailing bytes, non-map root, missing kernels, repeated root keys.
    let mut trailing = one_kernel(0, &[], &[], 0);
    trailing.push(0xc0);
    assert!(
        err_of(&trailing)
            .message()
            .contains("trailing MessagePack bytes")
    );
    assert!(
        err_of(&[0x90])
            .message()
            .contains("root must be a MessagePack map")
    );
    assert!(
        err_of(&[0x80])
            .message()
            .contains("missing `amdhsa.kernels`")
    );
    let mut twice = Pack::default();
    twice
        .map(2)
        .str("amdhsa.kernels")
        .array(0)
        .str("amdhsa.kernels")
        .array(0);
    assert!(
        err_of(&twice.0)
            .message()
            .contains("repeats `amdhsa.kernels`")
    );
    // Integers: negative, too wide; alignment rules.
    let mut neg = Pack::default();
    neg.str(".wavefront_size").raw(&[0xff]);
    assert!(
        err_of(&one_kernel(1, &neg.0, &[], 0))
            .message()
            .contains("non-negative")
    );
    let mut wide = Pack::default();
    wide.field_uint(".sgpr_count", 1 << 40);
    assert_eq!(
        err_of(&one_kernel(1, &wide.0, &[], 0)).code(),
        StatusCode::OutOfRange
    );
    let mut misaligned = Pack::default();
    misaligned
        .map(4)
        .field_uint(".offset", 2)
        .field_uint(".size", 4)
        .field_str(".value_kind", "by_value")
        .field_uint(".align", 4);
    assert!(
        err_of(&one_kernel(0, &[], &[misaligned.0], 8))
            .message()
            .contains("offset is not aligned")
    );
    let mut bad_align = Pack::default();
    bad_align
        .map(4)
        .field_uint(".offset", 0)
        .field_uint(".size", 4)
        .field_str(".value_kind", "by_value")
        .field_uint(".align", 3);
    assert!(
        err_of(&one_kernel(0, &[], &[bad_align.0], 8))
            .message()
            .contains("power of two")
    );
    // Non-string keys, bin as a string, reserved tag.
    assert!(err_of(&[0x81, 0x01, 0x01]).message().contains("string tag"));
    let mut bin = Pack::default();
    bin.map(1).raw(&[0xc4, 1, b'x']).uint(1);
    assert!(err_of(&bin.0).message().contains("string tag, got 0xC4"));
    let mut reserved = Pack::default();
    reserved
        .map(2)
        .str("amdhsa.kernels")
        .array(0)
        .str("x")
        .raw(&[0xc1]);
    assert!(err_of(&reserved.0).message().contains("tag 0xC1"));
    // reqd_workgroup_size must have three elements.
    let mut two = Pack::default();
    two.str(".reqd_workgroup_size").array(2).uint(1).uint(1);
    assert!(
        err_of(&one_kernel(1, &two.0, &[], 0))
            .message()
            .contains("three elements")
    );
    // Kernarg alignment 0.
    let mut p = Pack::default();
    p.map(1)
        .str("amdhsa.kernels")
        .array(1)
        .map(5)
        .field_str(".symbol", "k.kd")
        .field_uint(".kernarg_segment_size", 0)
        .field_uint(".kernarg_segment_align", 0)
        .field_uint(".group_segment_fixed_size", 0)
        .field_uint(".private_segment_fixed_size", 0);
    assert!(
        err_of(&p.0)
            .message()
            .contains("kernarg alignment must be a power of two")
    );
}

#[test]
fn tolerates_unknown_keys_of_any_type() {
    let mut extra = Pack::default();
    extra
        .str(".new_key")
        .map(1)
        .str("nested")
        .array(2)
        .raw(&[0xcb, 0, 0, 0, 0, 0, 0, 0, 0, 0xc3]);
    extra.str(".agpr_count").uint(4);
    let mut arg_extra = Pack::default();
    arg_extra
        .map(5)
        .field_uint(".offset", 0)
        .field_uint(".size", 8)
        .field_str(".value_kind", "global_buffer")
        .field_str(".type_name", "float*")
        .str(".is_const")
        .raw(&[0xc3]);
    let blob = one_kernel(2, &extra.0, &[arg_extra.0], 8);
    let md = CodeObjectMetadata::from_msgpack(&blob).unwrap();
    assert_eq!(md.kernels[0].agpr_count, Some(4));
    assert_eq!(md.kernels[0].args[0].type_name, Some("float*"));
}

/// A real code object of three linked translation units (three metadata
/// notes), the start of the mutation property.
const MULTI_TU: &[u8] = include_bytes!("../../../fixtures/hsaco/multi_tu.gfx942.cov5.hsaco");

proptest! {
    /// Raw MessagePack, which has no magic number to pass: random bytes are
    /// real inputs here.
    #[test]
    fn arbitrary_msgpack_never_panics(data in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = CodeObjectMetadata::from_msgpack(&data);
        let elf = elf_with_metadata(&data);
        let _ = CodeObjectMetadata::from_elf(&elf);
    }

    #[test]
    fn mutated_metadata_never_panics(index in 0usize..400, value in any::<u8>()) {
        let mut blob = iree_kernel_metadata(KernelOptions::default());
        let index = index % blob.len();
        blob[index] = value;
        if let Ok(md) = CodeObjectMetadata::from_msgpack(&blob) {
            for kernel in &md.kernels {
                let _ = kernel.default_export_parameters();
            }
        }
    }

    /// A real code object (several kernels, three metadata notes) with up to
    /// 8 bytes overwritten and maybe cut short: random bytes would stop at the
    /// ELF magic, these reach the note walk and the MessagePack decode.
    #[test]
    fn mutated_fixture_elf_never_panics(
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..8),
        cut in proptest::option::of(any::<usize>()),
    ) {
        let mut data = MULTI_TU.to_vec();
        for (at, byte) in edits {
            let at = at % data.len();
            data[at] = byte;
        }
        if let Some(cut) = cut {
            data.truncate(cut % (data.len() + 1));
        }
        if let Ok(md) = CodeObjectMetadata::from_elf(&data) {
            for kernel in &md.kernels {
                let _ = kernel.default_export_parameters();
            }
        }
    }
}

fn raw_note(namesz: u32, descsz: u32, kind: u32, tail: &[u8]) -> Vec<u8> {
    let mut n = Vec::new();
    n.extend_from_slice(&namesz.to_le_bytes());
    n.extend_from_slice(&descsz.to_le_bytes());
    n.extend_from_slice(&kind.to_le_bytes());
    n.extend_from_slice(tail);
    n
}

#[test]
fn rejects_note_sizes_that_overflow() {
    let cases: &[(Vec<u8>, &str)] = &[
        (
            raw_note(u32::MAX, 4, 32, b"AMDGPU\0\0abcd"),
            "note name exceeds PT_NOTE bounds",
        ),
        (
            raw_note(7, u32::MAX, 32, b"AMDGPU\0\0abcd"),
            "note descriptor exceeds PT_NOTE bounds",
        ),
        (
            raw_note(7, 0xFFFF_FFF0, 32, b"AMDGPU\0\0"),
            "note descriptor exceeds PT_NOTE bounds",
        ),
        (
            raw_note(13, 0, 32, b"AMDGPU\0\0abcd\x01"),
            "descriptor offset exceeds PT_NOTE bounds",
        ),
    ];
    for (area, needle) in cases {
        let err = parse_elf(&elf_with_note_area(area)).unwrap_err();
        assert_eq!(err.code(), StatusCode::InvalidArgument, "{needle}: {err}");
        assert!(err.message().contains(needle), "{needle}: {err}");
    }
    // A PT_NOTE whose range overflows or passes the end of the file.
    let mut elf = elf_with_metadata(&iree_kernel_metadata(KernelOptions::default()));
    elf[64 + 8..64 + 16].copy_from_slice(&u64::MAX.to_le_bytes());
    let err = parse_elf(&elf).unwrap_err();
    assert!(
        err.message().contains("PT_NOTE exceeds file bounds"),
        "{err}"
    );
    // Program headers past the end, and too small.
    let mut elf = elf_with_metadata(&iree_kernel_metadata(KernelOptions::default()));
    elf[32..40].copy_from_slice(&(1u64 << 62).to_le_bytes());
    let err = parse_elf(&elf).unwrap_err();
    assert!(
        err.message().contains("program headers exceed file bounds"),
        "{err}"
    );
    let mut elf = elf_with_metadata(&iree_kernel_metadata(KernelOptions::default()));
    elf[54..56].copy_from_slice(&32u16.to_le_bytes());
    let err = parse_elf(&elf).unwrap_err();
    assert!(err.message().contains("entries are too small"), "{err}");
    // No program headers and no sections.
    let mut elf = elf_with_metadata(&iree_kernel_metadata(KernelOptions::default()));
    elf[56..58].copy_from_slice(&0u16.to_le_bytes());
    assert_eq!(parse_elf(&elf).unwrap_err().code(), StatusCode::NotFound);
}

/// Which message a wrong-length array gets depends on its key: LLVM's
/// workgroup-size keys are `[x, y, z]`, `amdhsa.version` is `[major, minor]`.
#[test]
fn array_length_errors_name_the_key_and_its_length() {
    let mut version = Pack::default();
    version
        .map(2)
        .str("amdhsa.version")
        .array(3)
        .uint(1)
        .uint(2)
        .uint(0)
        .str("amdhsa.kernels")
        .array(0);
    let err = err_of(&version.0);
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.message()
            .contains("`amdhsa.version` must have 2 elements, not 3"),
        "{err}"
    );
    for key in [".reqd_workgroup_size", ".workgroup_size_hint"] {
        let mut two = Pack::default();
        two.str(key).array(2).uint(64).uint(1);
        let err = err_of(&one_kernel(1, &two.0, &[], 0));
        assert_eq!(err.code(), StatusCode::InvalidArgument, "{key}");
        assert!(
            err.message()
                .contains(&format!("must have three elements (`{key}` has 2)")),
            "{key}: {err}"
        );
    }
}

/// `.workgroup_size_hint` (OpenCL's `work_group_size_hint`) is decoded, not
/// skipped as an unknown key, and kept apart from `.reqd_workgroup_size`.
#[test]
fn workgroup_size_hint_is_decoded() {
    let mut sizes = Pack::default();
    sizes
        .str(".workgroup_size_hint")
        .array(3)
        .uint(16)
        .uint(4)
        .uint(2);
    sizes
        .str(".reqd_workgroup_size")
        .array(3)
        .uint(64)
        .uint(1)
        .uint(1);
    let blob = one_kernel(2, &sizes.0, &[], 0);
    let md = CodeObjectMetadata::from_msgpack(&blob).unwrap();
    assert_eq!(md.kernels[0].workgroup_size_hint, Some([16, 4, 2]));
    assert_eq!(md.kernels[0].reqd_workgroup_size, Some([64, 1, 1]));
}

/// A repeated `.args` has its own message; other repeated kernel fields name
/// the field.
#[test]
fn repeated_kernel_fields_are_named() {
    let mut args = Pack::default();
    args.str(".args").array(0);
    let err = err_of(&one_kernel(1, &args.0, &[], 0));
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.message().contains("kernel metadata repeats `.args`"),
        "{err}"
    );
    let mut symbol = Pack::default();
    symbol.field_str(".symbol", "again.kd");
    let err = err_of(&one_kernel(1, &symbol.0, &[], 0));
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.message().contains("repeats field `.symbol`"), "{err}");
}

/// The kernel-count cap admits exactly `MAX_KERNEL_COUNT`: a blob declaring
/// that many gets as far as its first kernel (an empty map here, so kernel 0
/// lacks its fields), one more is refused up front as out of range. Each
/// claim is followed by as many bytes as it claims elements, so the reader's
/// own claim-versus-remaining check passes.
#[test]
fn kernel_count_cap_is_inclusive() {
    let declaring = |count: u32| {
        let mut p = Pack::default();
        p.map(1)
            .str("amdhsa.kernels")
            .raw(&[0xdd])
            .raw(&count.to_be_bytes())
            .raw(&vec![0x80; count as usize]);
        p.0
    };
    let max = amdgpu_hal::codeobj::metadata::MAX_KERNEL_COUNT as u32;
    let err = err_of(&declaring(max));
    assert_ne!(err.code(), StatusCode::OutOfRange, "{err}");
    assert!(err.to_string().ends_with("; kernel 0"), "{err}");
    let err = err_of(&declaring(max + 1));
    assert_eq!(err.code(), StatusCode::OutOfRange, "{err}");
    assert!(
        err.message().contains(&format!(
            "declares {} kernels, more than the {max}",
            max + 1
        )),
        "{err}"
    );
}

/// The argument-count cap admits exactly `MAX_ARGS_PER_KERNEL`: a kernel
/// declaring that many gets as far as its first argument (an empty map, so
/// argument 0 lacks its fields), one more is refused up front as out of
/// range. As above, each claim is backed by as many bytes as elements.
#[test]
fn argument_count_cap_is_inclusive() {
    let declaring = |count: u32| {
        let mut args = Pack::default();
        args.str(".args")
            .raw(&[0xdd])
            .raw(&count.to_be_bytes())
            .raw(&vec![0x80; count as usize]);
        // `one_kernel` appends its own (empty) `.args`: this one comes first.
        one_kernel(1, &args.0, &[], 0)
    };
    let max = amdgpu_hal::codeobj::metadata::MAX_ARGS_PER_KERNEL as u32;
    let err = err_of(&declaring(max));
    assert_ne!(err.code(), StatusCode::OutOfRange, "{err}");
    assert!(err.to_string().contains("; argument 0"), "{err}");
    let err = err_of(&declaring(max + 1));
    assert_eq!(err.code(), StatusCode::OutOfRange, "{err}");
    assert!(
        err.message().contains(&format!(
            "declares {} arguments, more than the {max}",
            max + 1
        )),
        "{err}"
    );
}

/// Every refusal in one status, in order (the documented format of
/// `projection_refusal`): a count of the whole, then each message with its
/// annotations in parentheses, `; ` between them; the first refusal's code.
#[test]
fn projection_refusals_are_listed_in_order_with_their_context() {
    use amdgpu_hal::Status;
    use amdgpu_hal::codeobj::metadata::projection_refusal;
    let refused = [
        Status::out_of_range("too many bindings").annotate("kernel `a`"),
        Status::invalid_argument("narrow by-value argument"),
        Status::unimplemented("odd kind")
            .annotate("argument 2")
            .annotate("kernel `c`"),
    ];
    let status = projection_refusal(&refused, 5, "kernels");
    assert_eq!(status.code(), StatusCode::OutOfRange);
    assert_eq!(
        status.message(),
        "3 of 5 kernels are outside IREE's HAL projection: too many bindings (kernel `a`); \
         narrow by-value argument; odd kind (argument 2, kernel `c`)"
    );
    // One refusal: no separator; its code, whatever it is.
    let one = projection_refusal(&refused[1..2], 1, "exports");
    assert_eq!(one.code(), StatusCode::InvalidArgument);
    assert_eq!(
        one.message(),
        "1 of 1 exports are outside IREE's HAL projection: narrow by-value argument"
    );
    // None is a caller's mistake, said as such.
    let none = projection_refusal(&[], 3, "kernels");
    assert_eq!(none.code(), StatusCode::Internal);
    assert!(none.message().contains("without refusals"), "{none}");
}

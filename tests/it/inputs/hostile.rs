//! The hostile-input table: hand-made malformed inputs, one row each, across
//! every parser that reads bytes or text from outside the process, with the
//! exact status code and a key word of the message each must fail with.
//!
//! More cases of the same kind live next to their parsers and are not
//! repeated here: `tests/it/wrapped/hostile.rs` (AMD1 header fields, FlatBuffer
//! root/vector/terminator corruption and IREE's semantic rules),
//! `tests/it/codeobj/metadata.rs` (`rejects_hostile_metadata`,
//! `rejects_note_sizes_that_overflow`), `tests/it/codeobj/elf.rs` (identity and
//! `e_flags` rules), `tests/it/hip/path_props.rs` (device paths against a model
//! of IREE's parser). `tests/it/inputs/memory_bounds.rs` checks the allocations.

use crate::exec_support;
use crate::support;

use amdgpu_hal::StatusCode;
use amdgpu_hal::codeobj::kernel_descriptor::KernelDescriptor;
use amdgpu_hal::codeobj::metadata::CodeObjectMetadata;
use amdgpu_hal::codeobj::target_id::{ParseFlags, TargetId};
use amdgpu_hal::codeobj::{elf, notes, symbols};
use amdgpu_hal::hip::path::DevicePath;
use amdgpu_hal::report::inspect::inspect;
use amdgpu_hal::wrapped::header::ExecutableHeader;
use amdgpu_hal::wrapped::{
    Amd1Executable, DataExtent, DeviceLimits, Hip1Executable, HipLimits, infer_format,
};
use amdgpu_sim::{Format, Machine};
use support::{Pack, elf_with_metadata, elf_with_note_area, note};

const HSACO: &[u8] = include_bytes!("../../../fixtures/hsaco/vector_add.gfx942.cov5.hsaco");
const AMD1: &[u8] = include_bytes!("../../../fixtures/iree/elementwise.gfx942.amd1");
const HIP1: &[u8] = include_bytes!("../../../fixtures/iree/elementwise.gfx942.hip1");

/// Which parser a row feeds.
#[derive(Clone, Copy, Debug)]
enum Parser {
    ElfTarget,
    ElfSize,
    MetadataNote,
    MetadataElf,
    MetadataMsgpack,
    Symbols,
    KernelDescriptor,
    Amd1,
    Hip1,
    InferKnown,
    InferUnknownSize,
    Inspect,
    TargetId,
    HsaIsaName,
    DevicePath,
    Loadable,
    PlanRaw,
    Pack,
}

fn run(parser: Parser, data: &[u8]) -> amdgpu_hal::Result<()> {
    let text = || std::str::from_utf8(data).expect("text rows are UTF-8");
    match parser {
        Parser::ElfTarget => elf::target_id_from_elf(data).map(drop),
        Parser::ElfSize => elf::calculate_size(data).map(drop),
        Parser::MetadataNote => notes::find_metadata_note(data).map(drop),
        Parser::MetadataElf => CodeObjectMetadata::from_elf(data).map(drop),
        Parser::MetadataMsgpack => CodeObjectMetadata::from_msgpack(data).map(drop),
        Parser::Symbols => symbols::symbols(data).map(drop),
        Parser::KernelDescriptor => KernelDescriptor::from_elf(data, "vector_add.kd").map(drop),
        Parser::Amd1 => {
            Amd1Executable::parse(data, DataExtent::Known)?.verify(&DeviceLimits::AMDGPU)
        }
        Parser::Hip1 => Hip1Executable::parse(data, DataExtent::Known)?.verify(&HipLimits::AMDGPU),
        Parser::InferKnown => infer_format(data, DataExtent::Known).map(drop),
        Parser::InferUnknownSize => infer_format(data, DataExtent::Infer).map(drop),
        Parser::Inspect => inspect(data, &DeviceLimits::AMDGPU, &()).map(drop),
        Parser::TargetId => TargetId::parse(text(), ParseFlags::all()).map(drop),
        Parser::HsaIsaName => TargetId::parse_hsa_isa_name(text()).map(drop),
        Parser::DevicePath => DevicePath::parse(text()).map(drop),
        Parser::Loadable => amdgpu_hal::codeobj::loadable::check_loadable(data),
        Parser::PlanRaw => {
            amdgpu_hal::amdgpu::executable::plan::plan_raw_hsaco(data, &DeviceLimits::AMDGPU)
                .map(drop)
        }
        Parser::Pack => {
            amdgpu_hal::wrapped::pack::pack(data, &amdgpu_hal::wrapped::PackOptions::default())
                .map(drop)
        }
    }
}

/// The fixture HSACO with `bytes` written at `at`.
fn patched(at: usize, bytes: &[u8]) -> Vec<u8> {
    let mut out = HSACO.to_vec();
    out[at..at + bytes.len()].copy_from_slice(bytes);
    out
}

/// A wrapped fixture with `bytes` written at `at`.
fn patched_exe(exe: &[u8], at: usize, bytes: &[u8]) -> Vec<u8> {
    let mut out = exe.to_vec();
    out[at..at + bytes.len()].copy_from_slice(bytes);
    out
}

/// Where the embedded code object starts in a wrapped fixture.
fn elf_magic_at(exe: &[u8]) -> usize {
    exe.windows(4).position(|w| w == b"\x7fELF").unwrap()
}

/// The fixture HSACO with the `p_vaddr` of program header `index` set.
fn with_segment_vaddr(index: usize, vaddr: u64) -> Vec<u8> {
    patched(64 + 56 * index + 16, &vaddr.to_le_bytes())
}

/// A synthetic raw HSACO whose second kernel repeats the first one's
/// `.name` (and, with `symbol`, its `.symbol` too).
fn twin_kernels(symbol: bool) -> Vec<u8> {
    let mut data = exec_support::synthetic_hsaco(&exec_support::Synthetic {
        kernels: 2,
        target: Some("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"),
        reqd_workgroup_size: Some([64, 1, 1]),
    });
    let replace = |data: &mut Vec<u8>, from: &[u8], to: &[u8]| {
        let at = data.windows(from.len()).position(|w| w == from).unwrap();
        data[at..at + to.len()].copy_from_slice(to);
    };
    if symbol {
        replace(&mut data, b"\xa5k1.kd", b"\xa5k0.kd");
    } else {
        replace(&mut data, b"\xa2k1", b"\xa2k0");
    }
    data
}

/// A one-kernel metadata blob with `.wavefront_size` = `size`.
fn wavefront_metadata(size: u64) -> Vec<u8> {
    msgpack(|p| {
        p.map(1).str("amdhsa.kernels").array(1).map(6);
        p.field_str(".symbol", "k.kd")
            .field_uint(".kernarg_segment_size", 0)
            .field_uint(".kernarg_segment_align", 4)
            .field_uint(".group_segment_fixed_size", 0)
            .field_uint(".private_segment_fixed_size", 0)
            .field_uint(".wavefront_size", size);
    })
}

fn note_elf(name: &[u8], kind: u32, desc: &[u8]) -> Vec<u8> {
    elf_with_note_area(&note(name, kind, desc))
}

fn msgpack(build: impl FnOnce(&mut Pack)) -> Vec<u8> {
    let mut pack = Pack::default();
    build(&mut pack);
    pack.0
}

struct Case {
    name: &'static str,
    parser: Parser,
    input: Vec<u8>,
    code: StatusCode,
    word: &'static str,
}

fn case(
    name: &'static str,
    parser: Parser,
    input: impl Into<Vec<u8>>,
    code: StatusCode,
    word: &'static str,
) -> Case {
    Case {
        name,
        parser,
        input: input.into(),
        code,
        word,
    }
}

fn table() -> Vec<Case> {
    use Parser::*;
    use StatusCode::*;
    let u64_max = u64::MAX.to_le_bytes();
    vec![
        // ELF identity and headers.
        case("empty input", ElfTarget, vec![], InvalidArgument, "ELF"),
        case(
            "magic only",
            ElfSize,
            b"\x7fELF".to_vec(),
            OutOfRange,
            "truncated",
        ),
        case(
            "not an ELF",
            ElfTarget,
            b"MZ\x90\0".repeat(32),
            InvalidArgument,
            "ELF",
        ),
        case(
            "ELF class 3",
            ElfSize,
            patched(4, &[3]),
            InvalidArgument,
            "class",
        ),
        case(
            "big-endian data",
            ElfTarget,
            patched(5, &[2]),
            InvalidArgument,
            "little",
        ),
        case(
            "x86-64 machine",
            ElfTarget,
            patched(18, &[62, 0]),
            InvalidArgument,
            "machine",
        ),
        case(
            "Linux OSABI",
            ElfTarget,
            patched(7, &[0]),
            InvalidArgument,
            "OSABI",
        ),
        case(
            "ABI version 99",
            ElfTarget,
            patched(8, &[99]),
            InvalidArgument,
            "version",
        ),
        case(
            "mach 0",
            ElfTarget,
            patched(48, &[0]),
            InvalidArgument,
            "processor e_flags",
        ),
        case(
            "mach 0xff",
            ElfTarget,
            patched(48, &[0xff]),
            InvalidArgument,
            "processor e_flags",
        ),
        case(
            "e_phoff at 2^64-1",
            ElfSize,
            patched(32, &u64_max),
            OutOfRange,
            "overflow",
        ),
        case(
            "e_shoff at 2^64-1",
            ElfSize,
            patched(40, &u64_max),
            OutOfRange,
            "overflow",
        ),
        case(
            "e_phnum 65535 past the end",
            ElfSize,
            patched(56, &[0xff, 0xff]),
            OutOfRange,
            "truncated",
        ),
        case(
            "63-byte header",
            ElfSize,
            HSACO[..63].to_vec(),
            OutOfRange,
            "truncated",
        ),
        case(
            "symbols of a truncated file",
            Symbols,
            HSACO[..HSACO.len() / 2].to_vec(),
            OutOfRange,
            "truncated",
        ),
        case(
            "kernel descriptor of a headerless ELF",
            KernelDescriptor,
            HSACO[..64].to_vec(),
            OutOfRange,
            "truncated",
        ),
        // What the HSA loader needs (issue 20: silent accepts).
        case(
            "ET_EXEC",
            ElfTarget,
            patched(16, &[2, 0]),
            InvalidArgument,
            "e_type 2 is neither ET_REL (1) nor ET_DYN (3)",
        ),
        case(
            "ET_REL given to the loader",
            Loadable,
            patched(16, &[1, 0]),
            InvalidArgument,
            "e_type 1 (ET_REL) is not ET_DYN",
        ),
        case(
            "overlapping PT_LOAD segments",
            Loadable,
            with_segment_vaddr(2, 0x800),
            InvalidArgument,
            "PT_LOAD segments overlap in memory (program header 1 [0x0, 0x8c4) and 2 [0x800, 0xd80))",
        ),
        case(
            "PT_LOAD segments out of order",
            Loadable,
            with_segment_vaddr(3, 0x1000),
            InvalidArgument,
            "not in ascending p_vaddr order",
        ),
        case(
            "PT_LOAD p_filesz over p_memsz",
            Loadable,
            patched(64 + 56 + 32, &0x900u64.to_le_bytes()),
            InvalidArgument,
            "p_filesz 2304 > p_memsz 2244",
        ),
        case(
            "overlapping PT_LOAD, raw load",
            PlanRaw,
            with_segment_vaddr(2, 0x800),
            InvalidArgument,
            "overlap",
        ),
        case(
            "overlapping PT_LOAD, pack",
            Pack,
            with_segment_vaddr(2, 0x800),
            InvalidArgument,
            "overlap",
        ),
        case(
            "metadata wavefront size 0",
            MetadataMsgpack,
            wavefront_metadata(0),
            InvalidArgument,
            "wavefront size must be a power of two (`k.kd` has 0)",
        ),
        case(
            "metadata wavefront size 48",
            MetadataMsgpack,
            wavefront_metadata(48),
            InvalidArgument,
            "`k.kd` has 48",
        ),
        // Duplicate kernels would become duplicate exports.
        case(
            "two kernels of one name, inspect",
            Inspect,
            twin_kernels(false),
            InvalidArgument,
            "kernels 0 and 1 share the export name `k0`",
        ),
        case(
            "two kernels of one name, raw load",
            PlanRaw,
            twin_kernels(false),
            InvalidArgument,
            "kernels 0 and 1 share the export name `k0`",
        ),
        case(
            "two kernels of one name, pack",
            Pack,
            twin_kernels(false),
            InvalidArgument,
            "share the export name `k0`",
        ),
        case(
            "two kernels of one symbol, inspect",
            Inspect,
            twin_kernels(true),
            InvalidArgument,
            "kernels 0 and 1 share the symbol `k0.kd`",
        ),
        // Notes.
        case(
            "note of another owner",
            MetadataNote,
            note_elf(b"GNU\0", 32, b"\x80"),
            NotFound,
            "metadata",
        ),
        case(
            "AMDGPU note of another type",
            MetadataNote,
            note_elf(b"AMDGPU\0", 1, b"\x80"),
            NotFound,
            "metadata",
        ),
        case(
            "note area of 5 bytes",
            MetadataNote,
            elf_with_note_area(&[7, 0, 0, 0, 1]),
            NotFound,
            "not found",
        ),
        // MessagePack metadata.
        case(
            "empty MessagePack",
            MetadataMsgpack,
            vec![],
            InvalidArgument,
            "MessagePack",
        ),
        case(
            "map32 claiming 2^32-1 pairs",
            MetadataMsgpack,
            vec![0xdf, 0xff, 0xff, 0xff, 0xff],
            InvalidArgument,
            "4294967295",
        ),
        case(
            "kernels is a string",
            MetadataMsgpack,
            msgpack(|p| {
                p.map(1).str("amdhsa.kernels").str("x");
            }),
            InvalidArgument,
            "array tag",
        ),
        case(
            "kernel without .symbol",
            MetadataMsgpack,
            msgpack(|p| {
                p.map(1)
                    .str("amdhsa.kernels")
                    .array(1)
                    .map(1)
                    .field_str(".name", "k");
            }),
            InvalidArgument,
            ".symbol",
        ),
        case(
            "float where a size goes",
            MetadataMsgpack,
            msgpack(|p| {
                p.map(1)
                    .str("amdhsa.kernels")
                    .array(1)
                    .map(1)
                    .str(".kernarg_segment_size")
                    .raw(&[0xcb, 0, 0, 0, 0, 0, 0, 0, 0]);
            }),
            InvalidArgument,
            "integer tag",
        ),
        case(
            "metadata of a note-less ELF",
            MetadataElf,
            elf_with_metadata(&[]),
            InvalidArgument,
            "MessagePack",
        ),
        // Wrapped headers and FlatBuffers (HIP1 here; AMD1 in wrapped/hostile.rs).
        case(
            "HIP1 shorter than its header",
            Hip1,
            HIP1[..63].to_vec(),
            InvalidArgument,
            "header size",
        ),
        case(
            "HIP1 version 1",
            Hip1,
            patched_exe(HIP1, 4, &[1]),
            Incompatible,
            "version",
        ),
        case(
            "HIP1 content past the end",
            Hip1,
            patched_exe(HIP1, 8, &[0xff, 0xff, 0xff, 0x7f]),
            OutOfRange,
            "size",
        ),
        case(
            "HIP1 FlatBuffer identifier",
            Hip1,
            patched_exe(HIP1, 64 + 4, b"AMD1"),
            InvalidArgument,
            "identifier",
        ),
        case(
            "HIP1 root offset past the end",
            Hip1,
            patched_exe(HIP1, 64, &[0xff, 0xff, 0xff, 0x7f]),
            InvalidArgument,
            "verification",
        ),
        case(
            "AMD1 header on a HIP1 body",
            Amd1,
            patched_exe(HIP1, 0, b"AMD1"),
            InvalidArgument,
            "identifier",
        ),
        case(
            "HIP1 given to the AMDGPU driver",
            InferKnown,
            HIP1.to_vec(),
            InvalidArgument,
            "HIP1",
        ),
        case(
            "AMD1 header of 2^64-1 content bytes",
            InferUnknownSize,
            [
                &ExecutableHeader::encode(*b"AMD1", u64::MAX)[..],
                &AMD1[64..],
            ]
            .concat(),
            OutOfRange,
            "size",
        ),
        case(
            "AMD1 whose image is not an ELF",
            Inspect,
            patched_exe(AMD1, elf_magic_at(AMD1), b"XELF"),
            InvalidArgument,
            "ELF",
        ),
        case(
            "raw ELF cut in the program headers",
            InferUnknownSize,
            HSACO[..80].to_vec(),
            OutOfRange,
            "truncated",
        ),
        // Target IDs.
        case(
            "empty target ID",
            TargetId,
            b"".to_vec(),
            InvalidArgument,
            "target",
        ),
        case(
            "unknown processor",
            TargetId,
            b"gfx9999".to_vec(),
            InvalidArgument,
            "gfx9999",
        ),
        case(
            "feature without sign",
            TargetId,
            b"gfx942:xnack".to_vec(),
            InvalidArgument,
            "xnack",
        ),
        case(
            "feature named twice",
            TargetId,
            b"gfx942:xnack+:xnack-".to_vec(),
            InvalidArgument,
            "xnack",
        ),
        case(
            "unknown feature",
            TargetId,
            b"gfx942:wavefrontsize64+".to_vec(),
            InvalidArgument,
            "wavefrontsize64",
        ),
        case(
            "300-byte target ID",
            TargetId,
            "gfx942".repeat(50).into_bytes(),
            InvalidArgument,
            "256",
        ),
        case(
            "ISA name without the HSA prefix",
            HsaIsaName,
            b"amdgcn-amd-amdpal--gfx942".to_vec(),
            InvalidArgument,
            "amdpal",
        ),
        // HIP device paths.
        case(
            "negative index",
            DevicePath,
            b"-1".to_vec(),
            InvalidArgument,
            "-1",
        ),
        case(
            "empty list entry",
            DevicePath,
            b"0,,1".to_vec(),
            InvalidArgument,
            "empty entry 2",
        ),
        case(
            "trailing comma",
            DevicePath,
            b"0,1,".to_vec(),
            InvalidArgument,
            "empty entry 3",
        ),
        case(
            "index past i32",
            DevicePath,
            b"2147483648".to_vec(),
            InvalidArgument,
            "out of range",
        ),
        case(
            "UUID of 15 bytes",
            DevicePath,
            b"GPU-00112233445566778899aabbccddee".to_vec(),
            InvalidArgument,
            "UUID",
        ),
        case(
            "UUID with a bad digit",
            DevicePath,
            b"GPU-0011223344556677889900aabbccddeg".to_vec(),
            InvalidArgument,
            "UUID",
        ),
        case(
            "65 devices",
            DevicePath,
            vec!["0"; 65].join(",").into_bytes(),
            InvalidArgument,
            "64",
        ),
        case(
            "index with trailing text",
            DevicePath,
            b"1abc".to_vec(),
            InvalidArgument,
            "1abc",
        ),
    ]
}

#[test]
fn every_hostile_input_fails_with_its_code_and_word() {
    let table = table();
    assert!(table.len() >= 30, "{} cases", table.len());
    let mut failures = Vec::new();
    for case in &table {
        match std::panic::catch_unwind(|| run(case.parser, &case.input)) {
            Err(_) => failures.push(format!("{}: panics", case.name)),
            Ok(Ok(())) => failures.push(format!("{}: accepted", case.name)),
            Ok(Err(err)) if err.code() != case.code || !err.to_string().contains(case.word) => {
                failures.push(format!(
                    "{}: expected {:?} mentioning `{}`, got {:?}: {err}",
                    case.name,
                    case.code,
                    case.word,
                    err.code()
                ))
            }
            Ok(Err(_)) => {}
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn the_unpatched_fixtures_are_accepted() {
    // Each row breaks exactly one thing of an input that is otherwise valid.
    for parser in [
        Parser::ElfTarget,
        Parser::ElfSize,
        Parser::MetadataNote,
        Parser::Symbols,
    ] {
        run(parser, HSACO).unwrap();
    }
    run(Parser::Amd1, AMD1).unwrap();
    run(Parser::Hip1, HIP1).unwrap();
    run(Parser::Inspect, AMD1).unwrap();
    run(Parser::TargetId, b"gfx942:sramecc+:xnack-").unwrap();
    run(Parser::DevicePath, b"0,1").unwrap();
    run(Parser::Loadable, HSACO).unwrap();
    run(Parser::MetadataMsgpack, &wavefront_metadata(32)).unwrap();
    let distinct = exec_support::synthetic_hsaco(&exec_support::Synthetic {
        kernels: 2,
        target: Some("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"),
        reqd_workgroup_size: Some([64, 1, 1]),
    });
    run(Parser::Inspect, &distinct).unwrap();
    run(Parser::PlanRaw, &distinct).unwrap();
}

/// Machine descriptions report a field and message (`MachineError`), not a status.
#[test]
fn hostile_machine_descriptions_name_the_field() {
    let cases: &[(&str, Format, &str, &str)] = &[
        ("[[agents]\n", Format::Toml, "", "TOML"),
        ("{\"name\": 1}", Format::Json, "", "invalid type"),
        ("[", Format::Json, "", "EOF"),
        (
            &format!("{{\"x\": {}", "[".repeat(100_000)),
            Format::Json,
            "",
            "unknown field",
        ),
        (
            &format!("x = {}", "[".repeat(100_000)),
            Format::Toml,
            "",
            "TOML",
        ),
        (
            &format!("x = {}", "{a = ".repeat(100_000)),
            Format::Toml,
            "",
            "TOML",
        ),
    ];
    for &(text, format, field, word) in cases {
        let err = Machine::parse("hostile", text, format).unwrap_err();
        assert_eq!(err.field, field, "{err}");
        assert!(err.to_string().contains(word), "`{err}` lacks `{word}`");
    }
    let huge = " ".repeat(amdgpu_sim::validate::MAX_DESCRIPTION_BYTES + 1);
    let err = Machine::parse("hostile", &huge, Format::Toml).unwrap_err();
    assert!(err.message.contains("limit"), "{err}");
}

// --- The CLI's hostile-input table -----------------------------------------
//
// Inputs that reach the binary as files or flags: each row is the command
// line, the exit code, the IREE status code `Error: CODE; …` starts with and
// words of the message. Every run has a deadline, so an input that blocks
// or reads forever fails its row instead of hanging the suite.

/// A file the CLI rows read, made once per run under the target's tmp dir.
struct CliFiles {
    dir: std::path::PathBuf,
}

impl CliFiles {
    fn new() -> CliFiles {
        let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hostile-cli");
        std::fs::create_dir_all(&dir).unwrap();
        CliFiles { dir }
    }

    /// Writes `bytes` to `name` and returns its path.
    fn file(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.display().to_string()
    }

    /// A sparse file of `len` bytes (nothing written).
    fn sparse(&self, name: &str, len: u64) -> String {
        let path = self.dir.join(name);
        std::fs::File::create(&path).unwrap().set_len(len).unwrap();
        path.display().to_string()
    }

    /// A FIFO nobody writes to: opening it for reading would block forever.
    fn fifo(&self, name: &str) -> String {
        let path = self.dir.join(name);
        let _ = std::fs::remove_file(&path);
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .expect("mkfifo (coreutils) runs");
        assert!(made.success());
        path.display().to_string()
    }
}

struct CliCase {
    name: &'static str,
    args: Vec<String>,
    exit: i32,
    code: &'static str,
    words: &'static [&'static str],
}

fn cli_case(
    name: &'static str,
    args: &[&str],
    exit: i32,
    code: &'static str,
    words: &'static [&'static str],
) -> CliCase {
    CliCase {
        name,
        args: args.iter().map(|a| a.to_string()).collect(),
        exit,
        code,
        words,
    }
}

/// The issue-20 description: one link listing an agent 100,000 times on
/// each side (~800 KB of JSON).
fn quadratic_machine() -> String {
    let side = format!("[{}]", vec!["\"a\""; 100_000].join(","));
    format!(
        r#"{{"name":"q","agents":[{{"id":"a","kind":"gpu","name":"gfx942","uuid":"GPU-0000000000000001","node":0,"wavefront_size":64}}],"links":[{{"from":{side},"to":{side},"type":"xgmi"}}]}}"#
    )
}

fn cli_table(files: &CliFiles) -> Vec<CliCase> {
    const HSACO_PATH: &str = "fixtures/hsaco/vector_add.gfx942.cov5.hsaco";
    let out = files.dir.join("out.amd1").display().to_string();
    let fifo = files.fifo("fifo");
    let empty = files.file("empty.hsaco", b"");
    let empty_toml = files.file("empty.toml", b"");
    let dir = files.dir.display().to_string();
    let huge = files.sparse("huge.amd1", amdgpu_hal::input::MAX_EXECUTABLE_BYTES + 1);
    let big_toml = files.sparse(
        "big.toml",
        amdgpu_hal::input::MAX_MACHINE_DESCRIPTION_BYTES + 1,
    );
    let big_source = files.sparse("big.c", amdgpu_hal::input::MAX_SOURCE_FILE_BYTES + 1);
    let latin1 = files.file("latin1.toml", b"name = \"caf\xe9\"\n");
    let quadratic = files.file("quadratic.json", quadratic_machine().as_bytes());
    let twin = files.file("twin.hsaco", &twin_kernels(false));
    let long_line = files.file(
        "long-line.toml",
        format!("name = \"x\"\nagents = \"{}\"\n", "k".repeat(200_000)).as_bytes(),
    );
    let long_key = files.file(
        "long-key.json",
        format!(
            "{{\"name\":\"x\",\"agents\":\"\\u001b[2J\\u0007{}\"}}",
            "k".repeat(200_000)
        )
        .as_bytes(),
    );
    let overlap = files.file("overlap.hsaco", &with_segment_vaddr(2, 0x800));
    let et_exec = files.file("exec.hsaco", &patched(16, &[2, 0]));
    let w7900 = include_str!("../../../fixtures/machines/w7900.toml");
    let wave0 = files.file(
        "wave0.toml",
        w7900
            .replace("wavefront_size = 32", "wavefront_size = 0")
            .as_bytes(),
    );
    let zzzz = files.file(
        "zzzz.toml",
        w7900
            .replace("GPU-e56b237e725ec427", "GPU-zzzzzzzzzzzzzzzz")
            .as_bytes(),
    );
    // mixed-isa's first two GPUs given one HIP UUID.
    let same_hip = files.file(
        "same-hip.toml",
        include_str!("../../../fixtures/machines/mixed-isa.toml")
            .replacen(
                "  [agents.hip]\n",
                "  [agents.hip]\n  uuid = \"00000000000000000000000000000001\"\n",
                2,
            )
            .as_bytes(),
    );
    let mut table = vec![
        cli_case(
            "inspect /dev/zero",
            &["inspect", "/dev/zero"],
            1,
            "FAILED_PRECONDITION",
            &["/dev/zero", "character device", "regular file"],
        ),
        cli_case(
            "inspect /dev/urandom",
            &["inspect", "/dev/urandom"],
            1,
            "FAILED_PRECONDITION",
            &["character device"],
        ),
        cli_case(
            "load /dev/zero",
            &["load", "/dev/zero"],
            1,
            "FAILED_PRECONDITION",
            &["character device", "an executable"],
        ),
        cli_case(
            "pack /dev/zero",
            &["pack", "/dev/zero", "-o", &out],
            1,
            "FAILED_PRECONDITION",
            &["a code object"],
        ),
        cli_case(
            "pack --source /dev/zero",
            &["pack", HSACO_PATH, "-o", &out, "--source", "/dev/zero"],
            1,
            "FAILED_PRECONDITION",
            &["a source file"],
        ),
        cli_case(
            "inspect a FIFO",
            &["inspect", &fifo],
            1,
            "FAILED_PRECONDITION",
            &["FIFO"],
        ),
        cli_case(
            "load a FIFO",
            &["load", &fifo],
            1,
            "FAILED_PRECONDITION",
            &["FIFO"],
        ),
        cli_case(
            "--machine a FIFO",
            &["devices", "--machine", &fifo],
            1,
            "FAILED_PRECONDITION",
            &["FIFO", "a machine description"],
        ),
        cli_case(
            "--machine /dev/zero",
            &["devices", "--machine", "/dev/zero"],
            1,
            "FAILED_PRECONDITION",
            &["character device"],
        ),
        cli_case(
            "inspect a directory",
            &["inspect", &dir],
            1,
            "FAILED_PRECONDITION",
            &["is a directory"],
        ),
        cli_case(
            "inspect an empty file",
            &["inspect", &empty],
            1,
            "INVALID_ARGUMENT",
            &["is empty", "an executable cannot be empty"],
        ),
        cli_case(
            "load an empty file",
            &["load", &empty],
            1,
            "INVALID_ARGUMENT",
            &["is empty"],
        ),
        cli_case(
            "pack an empty file",
            &["pack", &empty, "-o", &out],
            1,
            "INVALID_ARGUMENT",
            &["a code object cannot be empty"],
        ),
        cli_case(
            "--machine an empty file",
            &["devices", "--machine", &empty_toml],
            1,
            "INVALID_ARGUMENT",
            &["is empty"],
        ),
        cli_case(
            "inspect a missing file",
            &["inspect", "no/such.amd1"],
            1,
            "NOT_FOUND",
            &["opening `no/such.amd1`"],
        ),
        cli_case(
            "executable over 1 GiB",
            &["inspect", &huge],
            1,
            "RESOURCE_EXHAUSTED",
            &["1073741825 bytes", "size limit is 1073741824"],
        ),
        cli_case(
            "load over 1 GiB",
            &["load", &huge],
            1,
            "RESOURCE_EXHAUSTED",
            &["size limit"],
        ),
        cli_case(
            "source over 64 MiB",
            &["pack", HSACO_PATH, "-o", &out, "--source", &big_source],
            1,
            "RESOURCE_EXHAUSTED",
            &["source file size limit"],
        ),
        cli_case(
            "description over 1 MiB",
            &["devices", "--machine", &big_toml],
            1,
            "RESOURCE_EXHAUSTED",
            &["machine description size limit is 1048576"],
        ),
        cli_case(
            "description not UTF-8",
            &["devices", "--machine", &latin1],
            1,
            "INVALID_ARGUMENT",
            &["not UTF-8", "offset 11"],
        ),
        cli_case(
            "100,000 ids on each side of a link",
            &["devices", "--machine", &quadratic],
            1,
            "INVALID_ARGUMENT",
            &["links[0].from", "100000 agent ids; the limit is 128"],
        ),
        cli_case(
            "pack into a missing directory",
            &[
                "pack",
                HSACO_PATH,
                "--workgroup-size",
                "64,1,1",
                "-o",
                "no/such/dir/out.amd1",
            ],
            1,
            "NOT_FOUND",
            &["writing no/such/dir/out.amd1"],
        ),
        cli_case(
            "capture onto a directory",
            &["capture", "--machine", "w7900", "-o", &dir],
            1,
            "FAILED_PRECONDITION",
            &["Is a directory"],
        ),
        cli_case(
            "inspect two kernels of one name",
            &["inspect", &twin],
            1,
            "INVALID_ARGUMENT",
            &["share the export name `k0`", "inspecting"],
        ),
        cli_case(
            "load two kernels of one name",
            &["load", &twin],
            1,
            "INVALID_ARGUMENT",
            &["share the export name `k0`"],
        ),
        cli_case(
            "load overlapping PT_LOAD segments",
            &["load", &overlap],
            1,
            "INVALID_ARGUMENT",
            &["PT_LOAD segments overlap"],
        ),
        cli_case(
            "load an ET_EXEC code object",
            &["load", &et_exec],
            1,
            "INVALID_ARGUMENT",
            &["e_type 2"],
        ),
        cli_case(
            "--machine with GPU wavefront 0",
            &["devices", "--machine", &wave0],
            1,
            "INVALID_ARGUMENT",
            &["agents[1].wavefront_size", "wave32 or wave64"],
        ),
        cli_case(
            "--machine with two GPUs of one HIP UUID",
            &["devices", "--backend", "hip", "--machine", &same_hip],
            1,
            "INVALID_ARGUMENT",
            &["agents[2].hip.uuid", "duplicate HIP UUID"],
        ),
        cli_case(
            "--machine with a GPU-zzzz UUID",
            &["devices", "--machine", &zzzz],
            1,
            "INVALID_ARGUMENT",
            &["agents[1].uuid", "GPU-zzzzzzzzzzzzzzzz"],
        ),
        cli_case(
            "TOML error quoting a 200 KB string",
            &["devices", "--machine", &long_line],
            1,
            "INVALID_ARGUMENT",
            &[
                "TOML parse error at line 2, column 10: invalid type: string",
                "more bytes)",
            ],
        ),
        cli_case(
            "JSON error quoting a 200 KB string with ESC and BEL",
            &["devices", "--machine", &long_key],
            1,
            "INVALID_ARGUMENT",
            &[
                "invalid type: string \"\\u{1b}[2J\\u{7}kkk",
                "more bytes) at line 1 column",
            ],
        ),
        cli_case(
            "HIP path with ESC",
            &["info", "GPU-\u{1b}[2J"],
            1,
            "INVALID_ARGUMENT",
            &["\\u{1b}[2J"],
        ),
        cli_case(
            "HIP path with a newline",
            &["info", "GPU-00\nError: forged"],
            1,
            "INVALID_ARGUMENT",
            &["'00\\u{a}Error: forged'"],
        ),
        cli_case(
            "file name with a newline and ESC",
            &["inspect", "no/such\n\u{1b}[2J.amd1"],
            1,
            "NOT_FOUND",
            &["`no/such\\u{a}\\u{1b}[2J.amd1`"],
        ),
        cli_case(
            "machine file name with a newline",
            &[
                "devices",
                "--machine",
                &files.file("bad\nname.toml", b"name = 1"),
            ],
            1,
            "INVALID_ARGUMENT",
            &["bad\\u{a}name.toml", "invalid type: integer `1`"],
        ),
    ];
    // An unreadable file: only when this process cannot read it either
    // (root reads through mode 000).
    let locked = files.file("locked.amd1", AMD1);
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    }
    if std::fs::read(&locked).is_err() {
        table.push(cli_case(
            "an unreadable file",
            &["inspect", &locked],
            1,
            "PERMISSION_DENIED",
            &["opening", "locked.amd1"],
        ));
    } else {
        println!("skipping the PERMISSION_DENIED row: this user reads mode-000 files (root)");
    }
    table
}

/// Longest error line a hostile input may produce (the longest rows quote
/// a capped parser message plus a path).
const MAX_ERROR_LINE: usize = 2048;

#[test]
fn every_hostile_cli_input_fails_with_its_exit_code_status_and_words() {
    let files = CliFiles::new();
    let table = cli_table(&files);
    let mut failures = Vec::new();
    for case in &table {
        let output = assert_cmd::Command::cargo_bin("amdgpu-hal")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(&case.args)
            // Far above any row's real cost (milliseconds): only a blocked
            // or unbounded read gets near it.
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        let prefix = format!("Error: {}; ", case.code);
        // Whatever the input, the error is one line of at most
        // MAX_ERROR_LINE bytes without a raw control character.
        let raw_control = stderr.trim_end_matches('\n').chars().any(char::is_control);
        if output.status.code() != Some(case.exit)
            || !stderr.starts_with(&prefix)
            || !case.words.iter().all(|w| stderr.contains(w))
            || !output.stdout.is_empty()
            || stderr.lines().count() != 1
            || stderr.len() > MAX_ERROR_LINE
            || raw_control
        {
            failures.push(format!(
                "{}: expected exit {} `{prefix}…` with {:?}, got {:?}: {stderr}",
                case.name,
                case.exit,
                case.words,
                output.status.code()
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// The vector_add fixture with its kernel's `.name` (not its symbol)
/// rewritten to start with ESC `[2J` (clear screen) and BEL.
fn escape_named_kernel() -> Vec<u8> {
    let mut data = HSACO.to_vec();
    let from = b"\xaavector_add";
    let at = data.windows(from.len()).position(|w| w == from).unwrap();
    data[at..at + from.len()].copy_from_slice(b"\xaa\x1b[2J\x07r_add");
    data
}

#[test]
fn control_characters_in_names_never_reach_the_terminal() {
    let files = CliFiles::new();
    let file = files.file("escape-name.hsaco", &escape_named_kernel());
    for args in [
        vec!["inspect", &file],
        vec!["inspect", &file, "--json"],
        vec!["load", &file],
        vec!["load", &file, "--json"],
    ] {
        let output = assert_cmd::Command::cargo_bin("amdgpu-hal")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(&args)
            .output()
            .unwrap();
        assert!(output.status.success(), "{args:?}: {output:?}");
        let stdout = String::from_utf8(output.stdout).unwrap();
        let raw: Vec<char> = stdout
            .chars()
            .filter(|&c| c.is_control() && c != '\n' && c != '\t')
            .collect();
        assert!(raw.is_empty(), "{args:?} printed {raw:?}");
        // Text shows the escape; JSON keeps its own (the name round-trips).
        let shown = if args.contains(&"--json") {
            "\\u001b[2J\\u0007r_add"
        } else {
            "\\u{1b}[2J\\u{7}r_add"
        };
        assert!(stdout.contains(shown), "{args:?}:\n{stdout}");
    }
}

/// A C1 control (U+009B, CSI: the one-character form of ESC `[`) in a
/// kernel name: JSON allows it raw, a terminal acts on it. `--json` spells
/// it `\u009b` (so the document stays valid JSON and the name round-trips);
/// text shows `\u{9b}`.
#[test]
fn c1_controls_in_names_are_escaped_json_that_parses_back() {
    let mut data = HSACO.to_vec();
    let from = b"\xaavector_add";
    let at = data.windows(from.len()).position(|w| w == from).unwrap();
    data[at..at + from.len()].copy_from_slice(b"\xaa\xc2\x9b2J\x07r_add");
    let files = CliFiles::new();
    let file = files.file("c1-name.hsaco", &data);
    for command in ["inspect", "load"] {
        let run = |json: bool| {
            let mut args = vec![command, file.as_str()];
            if json {
                args.push("--json");
            }
            let output = assert_cmd::Command::cargo_bin("amdgpu-hal")
                .unwrap()
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .args(&args)
                .output()
                .unwrap();
            assert!(output.status.success(), "{args:?}: {output:?}");
            String::from_utf8(output.stdout).unwrap()
        };
        let json = run(true);
        assert!(json.contains("\\u009b2J\\u0007r_add"), "{command}:\n{json}");
        let doc: serde_json::Value = serde_json::from_str(&json)
            .unwrap_or_else(|e| panic!("{command} --json is not JSON ({e}):\n{json}"));
        assert_eq!(doc["exports"][0]["name"], "\u{9b}2J\u{7}r_add", "{command}");
        let text = run(false);
        assert!(text.contains("\\u{9b}2J\\u{7}r_add"), "{command}:\n{text}");
        assert!(!text.contains('\u{9b}') && !json.contains('\u{9b}'));
    }
}

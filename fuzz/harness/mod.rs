//! The body of every fuzz target, shared by the cargo-fuzz binaries
//! (`fuzz/fuzz_targets/*.rs`) and the plain-`cargo test` replay of the
//! committed corpora and crash regressions (`tests/it/inputs/fuzz_replay.rs`), so the
//! replay runs exactly what the fuzzer ran.
//!
//! Each function takes the raw fuzz input, must never panic on any input
//! except through its own assertions (properties every parser promises), and
//! returns whether the input was accepted by the main parser it targets.
#![allow(dead_code)]

use amdgpu_hal::codeobj::kernel_descriptor::KernelDescriptor;
use amdgpu_hal::codeobj::metadata::{
    CodeObjectMetadata, KernelMetadata, KernelVisitor, visit_msgpack,
};
use amdgpu_hal::codeobj::target_id::{
    ParseFlags, TargetId, check_compatible, lookup_code_object_target,
};
use amdgpu_hal::codeobj::{elf, notes, symbols};
use amdgpu_hal::hip::path::{DevicePath, DeviceSpec, MAX_PHYSICAL_DEVICES};
use amdgpu_hal::hip::text::{parse_hex_bytes, parse_int, parse_u64};
use amdgpu_hal::hip::uuid::DeviceUuid;
use amdgpu_hal::report::inspect::inspect;
use amdgpu_hal::report::vmfb::inspect_vmfb;
use amdgpu_hal::wrapped::builder::{
    BindingBits, ExecutableSpec, ExportDebugSpec, ExportSpec, SourceFileSpec, build_amd1,
};
use amdgpu_hal::wrapped::{
    Amd1Executable, DataExtent, DeviceLimits, Hip1Executable, HipLimits, PackOptions, infer_format,
    offload_bundle, pack, verify,
};
use amdgpu_sim::{Format, Machine};
use arbitrary::{Result as ArbitraryResult, Unstructured};

/// Input cap of the metadata target, as IREE's metadata fuzzer.
pub const MAX_METADATA_INPUT: usize = 64 * 1024;

/// `codeobj_elf`: raw bytes as a code object.
pub fn codeobj_elf(data: &[u8]) -> bool {
    let target = elf::target_id_from_elf(data);
    let _ = elf::code_object_version(data);
    if let Ok(size) = elf::calculate_size(data) {
        assert!(size <= data.len(), "calculate_size {size} > {}", data.len());
    }
    let _ = notes::find_metadata_note(data);
    if let Ok(metadata) = CodeObjectMetadata::from_elf(data) {
        for kernel in &metadata.kernels {
            let _ = kernel.default_export_parameters();
            let _ = KernelDescriptor::from_elf(data, kernel.symbol);
        }
    }
    if let Ok(all) = symbols::symbols(data) {
        for symbol in all.iter().take(64) {
            let _ = symbols::symbol_bytes(data, symbol);
        }
    }
    target.is_ok()
}

/// The minimal ELF64 whose only program header is a `PT_NOTE` holding one
/// `AMDGPU`/`NT_AMDGPU_METADATA` note with `msgpack` as its descriptor.
pub fn wrap_in_elf(msgpack: &[u8]) -> Vec<u8> {
    let mut note = Vec::new();
    note.extend_from_slice(&7u32.to_le_bytes());
    note.extend_from_slice(
        &u32::try_from(msgpack.len())
            .unwrap_or(u32::MAX)
            .to_le_bytes(),
    );
    note.extend_from_slice(&32u32.to_le_bytes());
    note.extend_from_slice(b"AMDGPU\0\0");
    note.extend_from_slice(msgpack);
    while note.len() % 4 != 0 {
        note.push(0);
    }
    let mut elf = vec![0u8; 128];
    elf[..4].copy_from_slice(b"\x7fELF");
    elf[4] = 2;
    elf[5] = 1;
    elf[6] = 1;
    elf[7] = 64;
    elf[8] = 3;
    elf[18..20].copy_from_slice(&224u16.to_le_bytes());
    elf[20..24].copy_from_slice(&1u32.to_le_bytes());
    elf[32..40].copy_from_slice(&64u64.to_le_bytes());
    elf[54..56].copy_from_slice(&56u16.to_le_bytes());
    elf[56..58].copy_from_slice(&1u16.to_le_bytes());
    elf[64..68].copy_from_slice(&4u32.to_le_bytes());
    elf[72..80].copy_from_slice(&128u64.to_le_bytes());
    elf[96..104].copy_from_slice(&(note.len() as u64).to_le_bytes());
    elf.extend_from_slice(&note);
    elf
}

fn exercise_metadata(metadata: &CodeObjectMetadata<'_>) {
    for kernel in &metadata.kernels {
        let _ = kernel.default_export_parameters();
        let _ = metadata.find_kernel_by_symbol(kernel.symbol);
    }
}

/// `codeobj_metadata`: MessagePack decoded raw and wrapped in an ELF note.
pub fn codeobj_metadata(data: &[u8]) -> bool {
    if data.len() > MAX_METADATA_INPUT {
        return false;
    }
    let raw = CodeObjectMetadata::from_msgpack(data);
    if let Ok(metadata) = &raw {
        exercise_metadata(metadata);
    }
    // The kernel-by-kernel walk sees the same kernels, or the same error.
    let mut seen = SeenKernels(Vec::new());
    let walked = visit_msgpack(data, &mut seen);
    match (&raw, &walked) {
        (Ok(metadata), Ok(header)) => {
            assert_eq!(metadata.kernels, seen.0, "walk and decode disagree");
            assert_eq!(
                (header.version, header.target),
                (metadata.version, metadata.target)
            );
            assert_eq!(header.kernel_count, metadata.kernels.len());
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!("walk and decode disagree: {raw:?} / {walked:?}"),
    }
    let elf = wrap_in_elf(data);
    let wrapped = CodeObjectMetadata::from_elf(&elf);
    if let Ok(metadata) = &wrapped {
        exercise_metadata(metadata);
    }
    assert_eq!(
        raw.is_ok(),
        wrapped.is_ok(),
        "raw and note-wrapped disagree"
    );
    raw.is_ok()
}

/// Keeps what a metadata walk hands over.
struct SeenKernels<'a>(Vec<KernelMetadata<'a>>);

impl<'a> KernelVisitor<'a> for SeenKernels<'a> {
    fn kernel(&mut self, kernel: KernelMetadata<'a>) -> amdgpu_hal::Result<()> {
        self.0.push(kernel);
        Ok(())
    }
}

/// `target_id`: first byte = parse flags, rest = UTF-8 text.
pub fn target_id(data: &[u8]) -> bool {
    let Some((&flags, text)) = data.split_first() else {
        return false;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return false;
    };
    let flags = ParseFlags::from_bits_retain(u32::from(flags & 0x0f));
    let Ok(target) = TargetId::parse(text, flags) else {
        return false;
    };
    let again = TargetId::parse(&target.to_string(), ParseFlags::all())
        .unwrap_or_else(|e| panic!("`{target}` does not re-parse: {e}"));
    assert_eq!(again.processor, target.processor);
    assert_eq!(
        (again.sramecc.is_explicit(), again.xnack.is_explicit()),
        (target.sramecc.is_explicit(), target.xnack.is_explicit())
    );
    let _ = check_compatible(&target, &again).to_string();
    let _ = lookup_code_object_target(&target);
    true
}

/// `wrapped`: header + FlatBuffer verification (AMD1 and HIP1), format
/// inference under both extents, `inspect` (reflection against the code
/// object's metadata), offload-bundle reading (compressed `CCOB` bundles
/// decompressed, their output bounded) and bytecode modules (`.vmfb`:
/// every executable found lies inside the input).
pub fn wrapped(data: &[u8]) -> bool {
    let mut accepted = false;
    for extent in [DataExtent::Known, DataExtent::Infer] {
        if let Ok(exe) = Amd1Executable::parse(data, extent) {
            accepted = true;
            assert!(exe.size() <= data.len() as u64, "AMD1 size past the slice");
            let _ = exe.verify(&DeviceLimits::AMDGPU);
            let _ = exe.single_module_image();
        }
        if let Ok(exe) = Hip1Executable::parse(data, extent) {
            accepted = true;
            let _ = exe.module_images();
            let _ = exe.verify(&HipLimits::AMDGPU);
        }
        if let Ok(format) = infer_format(data, extent) {
            assert!(format.size <= data.len(), "inferred size past the slice");
        }
    }
    // The bare FlatBuffer, so mutations need not keep a valid 64-byte header.
    for flatbuffer in [data, data.get(64..).unwrap_or_default()] {
        if let Ok(def) = verify::verify_structure(flatbuffer) {
            let _ = verify::verify_semantics(&def, &DeviceLimits::AMDGPU);
            let _ = verify::single_module_image(&def);
        }
    }
    if let Ok(report) = inspect(data, &DeviceLimits::AMDGPU, &()) {
        assert!(
            report.size <= data.len() as u64,
            "inspected size past the slice"
        );
        let _ = format!("{report:?}");
    }
    if offload_bundle::is_offload_bundle(data) {
        let _ = offload_bundle::entry_ids(data);
    }
    let _ = offload_bundle::not_an_elf_error(data).to_string();
    // A bytecode module: every executable found lies inside the input.
    if let Ok(module) = inspect_vmfb(data, &DeviceLimits::AMDGPU) {
        accepted = true;
        for exe in &module.executables {
            let end = exe.offset.checked_add(exe.size);
            assert!(
                end.is_some_and(|end| end <= data.len()),
                "segment past the input"
            );
        }
        let _ = module.to_string();
    }
    accepted
}

/// `hip_path`: HIP device paths and IREE's integer/hex rules on UTF-8 text.
pub fn hip_path(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let _ = parse_int(text, i64::MIN, i64::MAX);
    let _ = parse_int(text, 0, i64::from(i32::MAX));
    let _ = parse_u64(text);
    let _ = parse_hex_bytes::<16>(text);
    if let Some(uuid) = DeviceUuid::parse_hex(text) {
        assert_eq!(
            DeviceSpec::parse(&uuid.path()).ok(),
            Some(DeviceSpec::Uuid(uuid))
        );
    }
    if let Ok(DeviceSpec::Uuid(uuid)) = DeviceSpec::parse(text) {
        assert_eq!(
            DeviceSpec::parse(&uuid.path()).ok(),
            Some(DeviceSpec::Uuid(uuid))
        );
    }
    match DevicePath::parse(text) {
        Ok(DevicePath::List(list)) => {
            assert!((2..=MAX_PHYSICAL_DEVICES).contains(&list.len()));
            true
        }
        Ok(_) => true,
        Err(error) => {
            // Messages quote the path cut short: never the whole of a huge input.
            assert!(error.to_string().len() < 1024 + text.len().min(1024));
            false
        }
    }
}

/// `machine`: first byte even = TOML, odd = JSON; rest = UTF-8 description.
pub fn machine(data: &[u8]) -> bool {
    let Some((&kind, text)) = data.split_first() else {
        return false;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return false;
    };
    let format = if kind % 2 == 0 {
        Format::Toml
    } else {
        Format::Json
    };
    let Ok(machine) = Machine::parse("fuzz", text, format) else {
        return false;
    };
    let gpus = machine.gpu_indices();
    for &from in gpus.iter().take(16) {
        for &to in gpus.iter().take(16) {
            let _ = machine.link(from, to);
        }
    }
    true
}

/// Real code objects the structure-aware target packs and embeds.
pub const IMAGES: &[&[u8]] = &[
    include_bytes!("../../fixtures/hsaco/vector_add.gfx942.cov5.hsaco"),
    include_bytes!("../../fixtures/hsaco/kernels.gfx90a.cov4.hsaco"),
    include_bytes!("../../fixtures/iree/elementwise.gfx1100.hsaco"),
];

fn small_string(u: &mut Unstructured<'_>, names: &[&str]) -> ArbitraryResult<String> {
    if u.ratio(3, 4)? {
        Ok((*u.choose(names)?).to_string())
    } else {
        let len = u.int_in_range(0..=24)?;
        let bytes = u.bytes(len)?;
        Ok(String::from_utf8_lossy(bytes).into_owned())
    }
}

fn export_spec(u: &mut Unstructured<'_>) -> ArbitraryResult<ExportSpec> {
    const SYMBOLS: &[&str] = &["vector_add.kd", "add.kd", "", "x", "scale.kd"];
    let symbol_name = small_string(u, SYMBOLS)?;
    let workgroup_size = if u.ratio(7, 8)? {
        let mut dims = [0u32; 3];
        for dim in &mut dims {
            *dim = if u.ratio(3, 4)? {
                u.int_in_range(0..=1025)?
            } else {
                u.arbitrary()?
            };
        }
        Some(dims)
    } else {
        None
    };
    let constant_count = if u.ratio(7, 8)? {
        u.int_in_range(0..=64)?
    } else {
        u.arbitrary()?
    };
    let binding_count = u.int_in_range(0..=32)?;
    let mut binding_flags = Vec::with_capacity(binding_count);
    for _ in 0..binding_count {
        binding_flags.push(BindingBits::from_bits_retain(u.arbitrary()?));
    }
    let debug = if u.arbitrary()? {
        let name = small_string(u, &["vector_add", "main$async_dispatch_0", ""])?;
        let location = if u.arbitrary()? {
            Some((small_string(u, &["a.mlir", ""])?, u.arbitrary()?))
        } else {
            None
        };
        Some(ExportDebugSpec { name, location })
    } else {
        None
    };
    Ok(ExportSpec {
        symbol_name,
        workgroup_size,
        constant_count,
        binding_flags,
        debug,
    })
}

fn image<'a>(u: &mut Unstructured<'a>) -> ArbitraryResult<std::borrow::Cow<'a, [u8]>> {
    Ok(match u.int_in_range(0..=3)? {
        0 => {
            let len = u.int_in_range(0..=256)?;
            std::borrow::Cow::Borrowed(u.bytes(len)?)
        }
        1 => {
            // A real image with a few bytes overwritten.
            let mut bytes = u.choose(IMAGES)?.to_vec();
            for _ in 0..u.int_in_range(1..=8)? {
                let at = u.choose_index(bytes.len())?;
                bytes[at] = u.arbitrary()?;
            }
            std::borrow::Cow::Owned(bytes)
        }
        _ => std::borrow::Cow::Borrowed(*u.choose(IMAGES)?),
    })
}

/// `wrapped_build`: structure-aware. Builds an `AMD1` executable from random
/// exports, images and source files with the crate's own builder (and packs a
/// possibly mutated real code object with random options), then checks that
/// whatever the writers produce reads back: the structure always verifies,
/// and a packed executable passes inference and `inspect`.
pub fn wrapped_build(data: &[u8]) -> bool {
    let mut u = Unstructured::new(data);
    let Ok(built) = build_from(&mut u) else {
        return false;
    };
    built
}

fn build_from(u: &mut Unstructured<'_>) -> ArbitraryResult<bool> {
    let export_count = u.int_in_range(0..=8)?;
    let mut exports = Vec::with_capacity(export_count);
    for _ in 0..export_count {
        exports.push(export_spec(u)?);
    }
    let image_count = u.int_in_range(0..=3)?;
    let mut images = Vec::with_capacity(image_count);
    for _ in 0..image_count {
        images.push(image(u)?);
    }
    let source_count = u.int_in_range(0..=3)?;
    let mut source_files = Vec::with_capacity(source_count);
    for _ in 0..source_count {
        let path = small_string(u, &["a.mlir", "b/c.mlir", ""])?;
        let len = u.int_in_range(0..=64)?;
        source_files.push(SourceFileSpec {
            path,
            content: u.bytes(len)?.to_vec(),
        });
    }
    let isa = if u.arbitrary()? {
        Some(small_string(
            u,
            &["gfx942", "amdgcn-amd-amdhsa--gfx90a", ""],
        )?)
    } else {
        None
    };
    let spec = ExecutableSpec {
        isa,
        exports,
        images: images.iter().map(|image| image.as_ref()).collect(),
        source_files: source_files.clone(),
    };
    let mut accepted = false;
    if let Ok(bytes) = build_amd1(&spec) {
        accepted = true;
        let exe = Amd1Executable::parse(&bytes, DataExtent::Known)
            .unwrap_or_else(|e| panic!("built executable does not parse: {e}"));
        assert_eq!(exe.size(), bytes.len() as u64);
        Amd1Executable::parse(&bytes, DataExtent::Infer)
            .unwrap_or_else(|e| panic!("built executable does not infer: {e}"));
        wrapped(&bytes);
    }

    let hsaco = image(u)?;
    let options = PackOptions {
        debug_names: u.arbitrary()?,
        source_files,
        default_workgroup_size: if u.arbitrary()? {
            Some([
                u.int_in_range(0..=1025)?,
                u.int_in_range(0..=1025)?,
                u.int_in_range(0..=1025)?,
            ])
        } else {
            None
        },
        limits: DeviceLimits::AMDGPU,
        kernels: if u.arbitrary()? {
            Some(vec![small_string(u, &["vector_add", "add", "scale.kd"])?])
        } else {
            None
        },
    };
    if let Ok(bytes) = pack(&hsaco, &options) {
        accepted = true;
        let format = infer_format(&bytes, DataExtent::Infer)
            .unwrap_or_else(|e| panic!("packed executable does not infer: {e}"));
        assert_eq!(format.size, bytes.len());
        inspect(&bytes, &DeviceLimits::AMDGPU, &())
            .unwrap_or_else(|e| panic!("packed executable does not inspect: {e}"));
        wrapped(&bytes);
    }
    Ok(accepted)
}

/// `isa_program`: machine code for the ISA interpreter. Byte 0 picks the
/// chip, bytes 1..65 are the kernel descriptor, the next 6 the grid and
/// block (one byte per dimension; the last one's top bit: user SGPRs as a
/// PM4 dispatch's user-data registers give them, else as an AQL packet
/// processor sets them), the next 64 the kernarg segment (or the user
/// data), the rest the code. The code decodes or is refused; a program that
/// decodes runs to its end, a fault or a 10,000-instruction limit per wave
/// over 64 KiB of memory. Accepted: the code decoded.
pub fn isa_program(data: &[u8]) -> bool {
    use amdgpu_isa::{Chip, Dispatch, Inputs, KernelDescriptor, Program, run_dispatch};
    let Some((&chip, rest)) = data.split_first() else {
        return false;
    };
    let chip = [Chip::Gfx90a, Chip::Gfx942, Chip::Gfx1100][usize::from(chip % 3)];
    let (Some(kd), Some(shape), Some(kernargs)) =
        (rest.get(..64), rest.get(64..70), rest.get(70..134))
    else {
        return false;
    };
    let code = rest.get(134..).unwrap_or_default();
    let Ok(program) = Program::decode(chip, code) else {
        return false;
    };
    let Some(descriptor) = KernelDescriptor::parse(kd) else {
        return true;
    };
    let dim = |i: usize| u32::from(shape[i] % 4) + 1;
    let user_data: Vec<u32>;
    let dispatch = Dispatch {
        program: &program,
        descriptor,
        // Work-items, not always whole work-groups: partial ones too.
        grid_size: [dim(0) * 37, dim(1) * 3, dim(2)],
        block: [
            u32::from(shape[3] % 128) + 1,
            u32::from(shape[4] % 4) + 1,
            1,
        ],
        dynamic_lds: u32::from(shape[5] & 0x7F) * 64,
        inputs: if shape[5] & 0x80 == 0 {
            Inputs::Packet {
                kernel_object: 0x1000,
                kernarg_address: 0x1_0000_0000,
                kernargs,
                packet_address: 0x2_0000_0000,
            }
        } else {
            // USER_SGPR_COUNT values when the 16 dwords hold them; fewer
            // (a count past 16) are refused by the dispatch.
            user_data = kernargs
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .take(descriptor.user_sgpr_count() as usize)
                .collect();
            Inputs::UserData(&user_data)
        },
        instruction_limit: 10_000,
    };
    // 64 KiB of memory at 0x1000.
    let mut memory = amdgpu_isa::Regions::new(vec![(0x1000, vec![0; 64 << 10])]);
    let _ = run_dispatch(&dispatch, &mut memory);
    true
}

/// Most dwords of a `pm4` input: 16 KiB of indirect buffer.
pub const MAX_PM4_DWORDS: usize = 4096;

/// `pm4`: an indirect buffer as the packet processor reads it from client
/// memory. Byte 0 picks the command processor's generation (even gfx9,
/// odd gfx10+), the rest are the buffer's dwords (little-endian; a
/// trailing partial dword is dropped). Every packet decodes into commands
/// or is refused, and the stream stops at the first refusal; register
/// writes stay inside the SH space and go into a queue's register file;
/// each `DISPATCH_DIRECT` launches from it or is refused, and a launch
/// holds at most 16 user-data values, a work-group of at most 1,024
/// work-items, whole work-groups unless `USE_THREAD_DIMENSIONS`, and a
/// 256-byte-aligned entry. Accepted: the whole buffer decoded.
pub fn pm4(data: &[u8]) -> bool {
    use amdgpu_sim::pm4::{
        Command, ComputeRegisters, Generation, MAX_USER_DATA, SH_REG_END, packets,
    };
    let Some((&generation, rest)) = data.split_first() else {
        return false;
    };
    let generation = if generation % 2 == 0 {
        Generation::Gfx9
    } else {
        Generation::Gfx10Plus
    };
    let dwords: Vec<u32> = rest
        .chunks_exact(4)
        .take(MAX_PM4_DWORDS)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut registers = ComputeRegisters::default();
    for commands in packets(&dwords, generation) {
        let Ok(commands) = commands else {
            return false;
        };
        for command in commands {
            match command {
                Command::SetShRegisters { first, values } => {
                    let last = u64::from(first) + values.len() as u64 - 1;
                    assert!(
                        first >= 0x2C00 && last <= u64::from(SH_REG_END),
                        "SET_SH_REG outside the SH space: {first:#x}..={last:#x}"
                    );
                    registers.set(first, &values);
                }
                Command::DispatchDirect {
                    dimensions,
                    initiator,
                } => {
                    if let Ok(Some(launch)) = registers.launch(dimensions, initiator, generation) {
                        assert!(launch.user_data.len() <= MAX_USER_DATA as usize);
                        let items: u64 = launch.block.iter().map(|&b| u64::from(b)).product();
                        assert!((1..=1024).contains(&items), "{launch:?}");
                        assert_eq!(launch.entry % 256, 0, "{launch:?}");
                        if initiator & (1 << 5) == 0 {
                            for (axis, groups) in dimensions.into_iter().enumerate() {
                                assert_eq!(
                                    u64::from(launch.grid_size[axis]),
                                    u64::from(groups) * u64::from(launch.block[axis]),
                                    "{launch:?}"
                                );
                            }
                        } else {
                            assert_eq!(launch.grid_size, dimensions);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    true
}

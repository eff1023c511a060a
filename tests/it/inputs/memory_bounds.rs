//! Memory bounds: a counting global allocator measures the peak bytes each
//! parser holds at once. Every parser's peak stays within a small multiple
//! of its input, and inputs whose counts claim gigabytes fail without
//! allocating them.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use amdgpu_hal::StatusCode;
use amdgpu_hal::codeobj::metadata::CodeObjectMetadata;
use amdgpu_hal::codeobj::{elf, notes, symbols};
use amdgpu_hal::hip::path::DevicePath;
use amdgpu_hal::report::inspect::inspect;
use amdgpu_hal::wrapped::header::ExecutableHeader;
use amdgpu_hal::wrapped::{Amd1Executable, DataExtent, DeviceLimits, Hip1Executable, infer_format};
use amdgpu_sim::{Format, Machine};

/// Counts per thread, so the tests of this binary may run in parallel.
struct Counting;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
    /// `(size, count)`: how many allocations of exactly `size` bytes were made.
    static SIZED: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

fn add(bytes: usize) {
    let _ = SIZED.try_with(|sized| {
        let (size, count) = sized.get();
        if size != 0 && bytes == size {
            sized.set((size, count + 1));
        }
    });
    let _ = LIVE.try_with(|live| {
        let now = live.get().saturating_add(bytes);
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

fn sub(bytes: usize) {
    let _ = LIVE.try_with(|live| live.set(live.get().saturating_sub(bytes)));
}

// SAFETY: forwards every call to `System` unchanged; only counts sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(layout.size());
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        sub(layout.size());
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        add(new_size);
        sub(layout.size());
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Peak bytes allocated (above what was live before) while `f` runs,
/// results dropped included.
fn peak_of<T>(f: impl FnOnce() -> T) -> usize {
    let before = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(before));
    drop(f());
    PEAK.with(Cell::get) - before
}

/// How many allocations of exactly `size` bytes `f` makes.
fn allocations_of<T>(size: usize, f: impl FnOnce() -> T) -> usize {
    SIZED.with(|sized| sized.set((size, 0)));
    drop(f());
    SIZED.with(|sized| sized.replace((0, 0)).1)
}

/// Most bytes a parser may hold for `input_len` bytes of input: 8 times the
/// input plus 64 KiB of fixed overhead (messages, small tables).
fn bound(input_len: usize) -> usize {
    8 * input_len + 64 * 1024
}

/// Most bytes a call may hold when it rejects a size claim.
const REJECT_BOUND: usize = 64 * 1024;

fn fixtures(dir: &str, suffix: &str) -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    assert!(!out.is_empty());
    out
}

fn check(name: &str, input_len: usize, peak: usize) {
    assert!(
        peak <= bound(input_len),
        "{name}: peak {peak} bytes for {input_len} bytes of input (bound {})",
        bound(input_len)
    );
}

#[test]
fn code_object_parsers_stay_within_a_multiple_of_the_input() {
    let mut all = fixtures("fixtures/hsaco", ".hsaco");
    all.extend(fixtures("fixtures/iree", ".hsaco"));
    for (name, data) in &all {
        check(name, data.len(), peak_of(|| elf::target_id_from_elf(data)));
        check(name, data.len(), peak_of(|| elf::calculate_size(data)));
        check(
            name,
            data.len(),
            peak_of(|| notes::find_metadata_note(data)),
        );
        check(
            name,
            data.len(),
            peak_of(|| CodeObjectMetadata::from_elf(data)),
        );
        check(name, data.len(), peak_of(|| symbols::symbols(data)));
        check(
            name,
            data.len(),
            peak_of(|| inspect(data, &DeviceLimits::AMDGPU, &())),
        );
    }
}

#[test]
fn wrapped_parsers_stay_within_a_multiple_of_the_input() {
    let mut all = fixtures("fixtures/iree", ".amd1");
    all.extend(fixtures("fixtures/iree", ".hip1"));
    for (name, data) in &all {
        check(
            name,
            data.len(),
            peak_of(|| Amd1Executable::parse(data, DataExtent::Known)),
        );
        check(
            name,
            data.len(),
            peak_of(|| Hip1Executable::parse(data, DataExtent::Known)),
        );
        check(
            name,
            data.len(),
            peak_of(|| infer_format(data, DataExtent::Infer)),
        );
        check(
            name,
            data.len(),
            peak_of(|| inspect(data, &DeviceLimits::AMDGPU, &())),
        );
    }
}

#[test]
fn text_parsers_stay_within_a_multiple_of_the_input() {
    for (name, data) in fixtures("fixtures/machines", ".toml") {
        let text = String::from_utf8(data).unwrap();
        // TOML builds a document tree before the typed description: allow 32x.
        let peak = peak_of(|| Machine::parse(&name, &text, Format::Toml));
        assert!(peak <= 32 * text.len() + 64 * 1024, "{name}: {peak} bytes");
    }
    let long_list = vec!["GPU-00112233-4455-6677-8899-aabbccddeeff"; 64].join(",");
    for path in ["0", "0,1,2,3", long_list.as_str(), &"9".repeat(100_000)] {
        check(path, path.len(), peak_of(|| DevicePath::parse(path)));
    }
}

/// A minimal ELF64 header for AMDGPU (v5) with the given table fields.
fn elf_header(phoff: u64, phnum: u16, shoff: u64, shnum: u16) -> Vec<u8> {
    let mut h = vec![0u8; 64];
    h[..4].copy_from_slice(b"\x7fELF");
    h[4] = 2;
    h[5] = 1;
    h[6] = 1;
    h[7] = 64;
    h[8] = 3;
    h[16] = 3;
    h[18..20].copy_from_slice(&224u16.to_le_bytes());
    h[20] = 1;
    h[32..40].copy_from_slice(&phoff.to_le_bytes());
    h[40..48].copy_from_slice(&shoff.to_le_bytes());
    h[48..52].copy_from_slice(&0x4cu32.to_le_bytes());
    h[52..54].copy_from_slice(&64u16.to_le_bytes());
    h[54..56].copy_from_slice(&56u16.to_le_bytes());
    h[56..58].copy_from_slice(&phnum.to_le_bytes());
    h[58..60].copy_from_slice(&64u16.to_le_bytes());
    h[60..62].copy_from_slice(&shnum.to_le_bytes());
    h
}

#[test]
fn counts_claiming_gigabytes_fail_without_allocating_them() {
    type Call = Box<dyn Fn() -> amdgpu_hal::Result<()>>;
    let elf_tables = elf_header(64, u16::MAX, 1 << 40, u16::MAX);
    let elf_sections = elf_header(0, 0, 64, u16::MAX);
    let hsaco = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/hsaco/vector_add.gfx942.cov5.hsaco"),
    )
    .unwrap();
    let amd1 = [
        &ExecutableHeader::encode(*b"AMD1", u64::MAX)[..],
        &[0u8; 64],
    ]
    .concat();
    let hip1 = [&ExecutableHeader::encode(*b"HIP1", 1 << 40)[..], &[0u8; 64]].concat();
    // A FlatBuffer whose root table claims a 2^31-element vector.
    let mut flatbuffer = [&ExecutableHeader::encode(*b"AMD1", 64)[..], &[0u8; 64]].concat();
    flatbuffer[64..68].copy_from_slice(&16u32.to_le_bytes());
    flatbuffer[68..72].copy_from_slice(b"AMD1");
    flatbuffer[72..76].copy_from_slice(&[8, 0, 8, 0]);
    flatbuffer[76..80].copy_from_slice(&[4, 0, 0, 0]);
    flatbuffer[80..84].copy_from_slice(&8i32.to_le_bytes());
    flatbuffer[84..88].copy_from_slice(&4u32.to_le_bytes());
    flatbuffer[88..92].copy_from_slice(&(1u32 << 31).to_le_bytes());
    let cases: Vec<(&str, Call, StatusCode)> = vec![
        (
            "MessagePack array32 of 2^32-1 kernels",
            Box::new(|| {
                CodeObjectMetadata::from_msgpack(b"\x81\xaeamdhsa.kernels\xdd\xff\xff\xff\xff")
                    .map(drop)
            }),
            StatusCode::InvalidArgument,
        ),
        (
            "MessagePack map32 of 2^32-1 pairs",
            Box::new(|| CodeObjectMetadata::from_msgpack(b"\xdf\xff\xff\xff\xff").map(drop)),
            StatusCode::InvalidArgument,
        ),
        (
            "MessagePack str32 of 4 GiB",
            Box::new(|| {
                CodeObjectMetadata::from_msgpack(b"\x81\xdb\xff\xff\xff\xffamdhsa").map(drop)
            }),
            StatusCode::InvalidArgument,
        ),
        (
            "MessagePack bin32 of 4 GiB under an unknown key",
            Box::new(|| {
                CodeObjectMetadata::from_msgpack(b"\x81\xa1x\xc6\xff\xff\xff\xff").map(drop)
            }),
            StatusCode::InvalidArgument,
        ),
        (
            "ELF of 65535 program and section headers",
            Box::new(move || elf::calculate_size(&elf_tables).map(drop)),
            StatusCode::OutOfRange,
        ),
        (
            "ELF symbols over 65535 claimed sections",
            Box::new(move || symbols::symbols(&elf_sections).map(drop)),
            StatusCode::OutOfRange,
        ),
        (
            "ELF symbol table of 2^60 bytes",
            Box::new(move || {
                // Every section header's sh_size set huge.
                let mut data = hsaco.clone();
                let shoff = u64::from_le_bytes(data[40..48].try_into().unwrap()) as usize;
                let shnum = u16::from_le_bytes(data[60..62].try_into().unwrap()) as usize;
                for i in 0..shnum {
                    let at = shoff + i * 64 + 32;
                    data[at..at + 8].copy_from_slice(&(1u64 << 60).to_le_bytes());
                }
                symbols::symbols(&data).map(drop)
            }),
            StatusCode::OutOfRange,
        ),
        (
            "AMD1 header of 2^64-1 content bytes",
            Box::new(move || infer_format(&amd1, DataExtent::Infer).map(drop)),
            StatusCode::OutOfRange,
        ),
        (
            "HIP1 header of 1 TiB content",
            Box::new(move || Hip1Executable::parse(&hip1, DataExtent::Infer).map(drop)),
            StatusCode::OutOfRange,
        ),
        (
            "FlatBuffer vector of 2^31 elements",
            Box::new(move || Amd1Executable::parse(&flatbuffer, DataExtent::Known).map(drop)),
            StatusCode::InvalidArgument,
        ),
    ];
    for (name, call, code) in cases {
        let mut result = None;
        let peak = peak_of(|| result = Some(call()));
        let err = result.unwrap().expect_err(name);
        assert_eq!(err.code(), code, "{name}: {err}");
        assert!(peak <= REJECT_BOUND, "{name}: allocated {peak} bytes");
    }
}

#[test]
fn file_reads_hold_at_most_the_file_and_refuse_oversized_ones_unread() {
    use amdgpu_hal::input::{InputKind, MAX_EXECUTABLE_BYTES, read_file};
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("memory-bounds-reads");
    std::fs::create_dir_all(&dir).unwrap();
    // A sparse file one byte over the limit: refused from its size alone,
    // so nothing near a gigabyte is ever allocated (or read).
    let huge = dir.join("huge.amd1");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(MAX_EXECUTABLE_BYTES + 1)
        .unwrap();
    let mut code = None;
    let peak = peak_of(|| code = Some(read_file(&huge, InputKind::Executable).unwrap_err().code()));
    assert_eq!(code, Some(StatusCode::ResourceExhausted));
    assert!(peak <= REJECT_BOUND, "peak {peak} bytes");
    // A fixture: held once, without growth slack.
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/iree/matmul.gfx942.amd1");
    let len = std::fs::metadata(&path).unwrap().len() as usize;
    let peak = peak_of(|| read_file(&path, InputKind::Executable).unwrap());
    assert!(
        peak <= len + 4096,
        "peak {peak} bytes for a {len}-byte file"
    );
}

/// Loading a code object on the simulated 8-GPU node copies its bytes once:
/// the loader's shared copy serves the runtime's reader (kept as the loaded
/// image every agent maps) and the profile registry alike, where each used to
/// take its own copy. Loaded from bytes the caller shares
/// (`create_shared`, what `load` does with the file), it is never copied.
#[test]
fn a_load_copies_the_code_object_once_and_shared_bytes_never() {
    use amdgpu_hal::amdgpu::agents::{AgentTopology, DEFAULT_GPU_AGENT_QUEUE_COUNT};
    use amdgpu_hal::amdgpu::executable::{
        ExecutableParams, SharedExecutable, create, create_shared,
    };
    use amdgpu_hal::amdgpu::profile::ProfileRegistry;
    use amdgpu_hal::backend::{Backend, SharedBytes};

    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/hsaco/multi_tu.gfx942.cov5.hsaco"
    );
    let data = std::fs::read(path).unwrap();
    let backend = Backend::sim("mi300x-8").unwrap();
    let hsa = backend.hsa().unwrap();
    hsa.init().unwrap();
    let topology = AgentTopology::from_backend(hsa, DEFAULT_GPU_AGENT_QUEUE_COUNT).unwrap();
    assert_eq!(topology.gpu_agents().len(), 8);
    let params = ExecutableParams {
        executable_format: "gfx942",
        executable_data: &data,
        queue_affinity: u64::MAX,
        constant_count: 0,
    };
    let load = |registry: &ProfileRegistry| {
        let exe = create(backend.hsa_arc().unwrap(), &topology, &params, registry).unwrap();
        assert_eq!(exe.loaded_devices().len(), 8);
        exe
    };
    // A copy is a `Vec` of exactly the code object's bytes.
    let registry = ProfileRegistry::new();
    let copies = allocations_of(data.len(), || load(&registry));
    assert_eq!(copies, 1, "copies of the {}-byte code object", data.len());
    // The registry's record is that copy, byte for byte.
    let exe = load(&registry);
    let record = registry.code_object(exe.profile_id()).unwrap();
    assert_eq!(&record.data[..], &data[..]);
    // The counter itself counts: a size nothing allocates gives 0.
    assert_eq!(allocations_of(data.len() + 1, || load(&registry)), 0);
    drop(exe);

    // Shared: the caller's bytes, told when the loader is done with them.
    let shared = SharedBytes::from(data.clone());
    let finished = std::cell::Cell::new(0);
    struct Count<'a>(&'a std::cell::Cell<u32>);
    impl amdgpu_hal::input::Progress for Count<'_> {
        fn past(&self, _address: usize) {}
        fn finished(&self) {
            self.0.set(self.0.get() + 1);
        }
    }
    let shared_params = ExecutableParams {
        executable_data: &shared,
        ..params
    };
    let load_shared = || {
        let progress = Count(&finished);
        let source = SharedExecutable {
            bytes: &shared,
            progress: &progress,
        };
        create_shared(
            backend.hsa_arc().unwrap(),
            &topology,
            &shared_params,
            &registry,
            source,
        )
        .unwrap()
    };
    assert_eq!(allocations_of(data.len(), load_shared), 0);
    assert_eq!(finished.get(), 1, "told once, after the load");
    let exe = load_shared();
    let record = registry.code_object(exe.profile_id()).unwrap();
    assert_eq!(record.data.as_ptr(), shared.as_ptr(), "the caller's bytes");
    drop(exe);
    // Shared bytes that do not hold the code object: it is copied, once.
    let elsewhere = SharedBytes::from(vec![0u8; 64]);
    let progress = Count(&finished);
    let copied = allocations_of(data.len(), || {
        let source = SharedExecutable {
            bytes: &elsewhere,
            progress: &progress,
        };
        create_shared(
            backend.hsa_arc().unwrap(),
            &topology,
            &params,
            &registry,
            source,
        )
        .unwrap()
    });
    assert_eq!(copied, 1);
    assert_eq!(finished.get(), 3);
    let exe = load_shared();
    drop(exe);
    hsa.shut_down().unwrap();
}

/// A kernel count the input can back byte for byte (one-byte empty maps)
/// still reserves no more than the input could hold as real kernels (a
/// kernel map takes well over 64 bytes): the decode fails at kernel 0 within
/// the parsers' bound, not after reserving a full kernel record per byte.
#[test]
fn kernel_count_reservation_follows_the_input_size() {
    const CLAIMED: u32 = 100_000;
    let mut blob = b"\x81\xaeamdhsa.kernels\xdd".to_vec();
    blob.extend_from_slice(&CLAIMED.to_be_bytes());
    blob.resize(blob.len() + CLAIMED as usize, 0x80);
    let mut result = None;
    let peak = peak_of(|| result = Some(CodeObjectMetadata::from_msgpack(&blob).map(drop)));
    let err = result.unwrap().unwrap_err();
    assert!(err.to_string().ends_with("; kernel 0"), "{err}");
    check("100,000 one-byte kernel maps", blob.len(), peak);
}

/// The same claim inside a code object, raw and wrapped: `inspect`
/// reserves its export reports by what the code object could hold, not by
/// the count.
#[test]
fn inspect_reserves_by_the_code_object_not_the_claimed_count() {
    use amdgpu_hal::wrapped::builder::{ExecutableSpec, build_amd1};
    const CLAIMED: u32 = 100_000;
    let mut blob = b"\x81\xaeamdhsa.kernels\xdd".to_vec();
    blob.extend_from_slice(&CLAIMED.to_be_bytes());
    blob.resize(blob.len() + CLAIMED as usize, 0x80);
    let elf = crate::support::elf_with_metadata(&blob);
    let wrapped = build_amd1(&ExecutableSpec {
        isa: Some("gfx942".into()),
        exports: vec![],
        images: vec![&elf],
        source_files: vec![],
    })
    .unwrap();
    for (what, data) in [("raw", &elf), ("AMD1", &wrapped)] {
        let mut result = None;
        let peak = peak_of(|| {
            result = Some(inspect(data, &DeviceLimits::AMDGPU, &()).map(drop));
        });
        let err = result.unwrap().unwrap_err();
        assert!(err.to_string().contains("kernel 0"), "{what}: {err}");
        check(what, data.len(), peak);
    }
}

/// Files from `MAP_THRESHOLD_BYTES` up are mapped, not copied: the bytes are
/// the file's, the heap holds none of them, and the checks are `read_file`'s
/// (an oversized sparse file is refused from its size, unmapped and unread).
/// Smaller files are read.
#[test]
fn large_files_are_mapped_with_the_reads_checks() {
    use amdgpu_hal::input::{
        InputKind, MAP_THRESHOLD_BYTES, MAX_EXECUTABLE_BYTES, map_or_read_file, read_file,
    };
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("memory-bounds-maps");
    std::fs::create_dir_all(&dir).unwrap();
    let large = dir.join("large.bin");
    let bytes: Vec<u8> = (0..MAP_THRESHOLD_BYTES as usize + 4099)
        .map(|i| (i % 253) as u8)
        .collect();
    std::fs::write(&large, &bytes).unwrap();
    let mut mapped = None;
    let peak = peak_of(|| mapped = Some(map_or_read_file(&large, InputKind::Executable).unwrap()));
    let mapped = mapped.unwrap();
    assert!(mapped.is_mapped());
    assert_eq!(&mapped[..], &bytes[..]);
    assert!(peak <= REJECT_BOUND, "peak {peak} bytes for a mapped file");

    let small = dir.join("small.bin");
    std::fs::write(&small, &bytes[..MAP_THRESHOLD_BYTES as usize - 1]).unwrap();
    let read = map_or_read_file(&small, InputKind::Executable).unwrap();
    assert!(!read.is_mapped());
    assert_eq!(&read[..], &bytes[..MAP_THRESHOLD_BYTES as usize - 1]);

    let huge = dir.join("huge.amd1");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(MAX_EXECUTABLE_BYTES + 1)
        .unwrap();
    let empty = dir.join("empty.amd1");
    std::fs::write(&empty, b"").unwrap();
    for path in [huge, empty, dir.clone(), dir.join("missing")] {
        let read = read_file(&path, InputKind::Executable).unwrap_err();
        let mut map = None;
        let peak =
            peak_of(|| map = Some(map_or_read_file(&path, InputKind::Executable).unwrap_err()));
        let map = map.unwrap();
        assert_eq!((map.code(), map.message()), (read.code(), read.message()));
        assert!(
            peak <= REJECT_BOUND,
            "{}: peak {peak} bytes",
            path.display()
        );
    }
}

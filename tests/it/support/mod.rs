//! Builders of synthetic ELF images for the code-object tests, and
//! [`requires`]: the skip-or-fail rule of tests that need a system package.
#![allow(dead_code)]

pub mod notes_oracle;
pub mod requires;

/// Every file of the repository folder `dir` whose extension is `ext`, as
/// (file name, bytes), sorted by name.
pub fn fixture_files(dir: &str, ext: &str) -> Vec<(String, Vec<u8>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out: Vec<_> = std::fs::read_dir(root.join(dir))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == ext))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// A 64-byte ELF64 AMDGPU HSA header with `EI_ABIVERSION = abi` and `e_flags`.
pub fn amdgpu_header(abi: u8, e_flags: u32) -> Vec<u8> {
    let mut h = vec![0u8; 64];
    h[..4].copy_from_slice(b"\x7fELF");
    h[4] = 2; // ELFCLASS64
    h[5] = 1; // little-endian
    h[6] = 1; // EV_CURRENT
    h[7] = 64; // ELFOSABI_AMDGPU_HSA
    h[8] = abi;
    h[16..18].copy_from_slice(&3u16.to_le_bytes()); // ET_DYN
    h[18..20].copy_from_slice(&224u16.to_le_bytes()); // EM_AMDGPU
    h[20..24].copy_from_slice(&1u32.to_le_bytes());
    h[48..52].copy_from_slice(&e_flags.to_le_bytes());
    h[52..54].copy_from_slice(&64u16.to_le_bytes()); // e_ehsize
    h
}

/// One note record (`namesz`, `descsz`, `type`, padded name, padded desc).
pub fn note(name: &[u8], kind: u32, desc: &[u8]) -> Vec<u8> {
    let mut n = Vec::new();
    n.extend_from_slice(&(name.len() as u32).to_le_bytes());
    n.extend_from_slice(&(desc.len() as u32).to_le_bytes());
    n.extend_from_slice(&kind.to_le_bytes());
    n.extend_from_slice(name);
    while n.len() % 4 != 0 {
        n.push(0);
    }
    n.extend_from_slice(desc);
    while n.len() % 4 != 0 {
        n.push(0);
    }
    n
}

/// IREE's metadata fixture layout: header, one PT_NOTE phdr at 64, the note
/// area at 128.
pub fn elf_with_note_area(area: &[u8]) -> Vec<u8> {
    let mut elf = amdgpu_header(3, 0x04c | 0xc00 | 0x200);
    elf[32..40].copy_from_slice(&64u64.to_le_bytes()); // e_phoff
    elf[54..56].copy_from_slice(&56u16.to_le_bytes()); // e_phentsize
    elf[56..58].copy_from_slice(&1u16.to_le_bytes()); // e_phnum
    let mut phdr = vec![0u8; 56];
    phdr[..4].copy_from_slice(&4u32.to_le_bytes()); // PT_NOTE
    phdr[8..16].copy_from_slice(&128u64.to_le_bytes()); // p_offset
    phdr[32..40].copy_from_slice(&(area.len() as u64).to_le_bytes()); // p_filesz
    phdr[40..48].copy_from_slice(&(area.len() as u64).to_le_bytes()); // p_memsz
    phdr[48..56].copy_from_slice(&4u64.to_le_bytes()); // p_align
    elf.extend_from_slice(&phdr);
    elf.resize(128, 0);
    elf.extend_from_slice(area);
    elf
}

/// An ELF with the AMDGPU metadata note holding `msgpack`.
pub fn elf_with_metadata(msgpack: &[u8]) -> Vec<u8> {
    elf_with_note_area(&note(b"AMDGPU\0", 32, msgpack))
}

/// A tiny MessagePack writer for building metadata blobs.
#[derive(Default)]
pub struct Pack(pub Vec<u8>);

impl Pack {
    pub fn map(&mut self, len: u32) -> &mut Self {
        rmp::encode::write_map_len(&mut self.0, len).unwrap();
        self
    }
    pub fn array(&mut self, len: u32) -> &mut Self {
        rmp::encode::write_array_len(&mut self.0, len).unwrap();
        self
    }
    pub fn str(&mut self, value: &str) -> &mut Self {
        rmp::encode::write_str(&mut self.0, value).unwrap();
        self
    }
    pub fn uint(&mut self, value: u64) -> &mut Self {
        rmp::encode::write_uint(&mut self.0, value).unwrap();
        self
    }
    pub fn field_str(&mut self, key: &str, value: &str) -> &mut Self {
        self.str(key).str(value)
    }
    pub fn field_uint(&mut self, key: &str, value: u64) -> &mut Self {
        self.str(key).uint(value)
    }
    pub fn raw(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.extend_from_slice(bytes);
        self
    }
}

/// Options of IREE's `BuildKernelMetadata`.
#[derive(Default, Clone, Copy)]
pub struct KernelOptions {
    pub out_of_range_arg: bool,
    pub unknown_value_kind: bool,
    pub narrow_by_value_arg: bool,
}

/// IREE's `hsaco_metadata_test.cc` `BuildKernelMetadata` blob.
pub fn iree_kernel_metadata(options: KernelOptions) -> Vec<u8> {
    let mut p = Pack::default();
    p.map(3);
    p.str("amdhsa.version").array(2).uint(1).uint(2);
    p.field_str("amdhsa.target", "amdgcn-amd-amdhsa--gfx1100");
    p.str("amdhsa.kernels").array(1).map(8);
    p.field_str(".name", "vector_add")
        .field_str(".symbol", "vector_add.kd")
        .field_uint(".kernarg_segment_size", 24)
        .field_uint(".kernarg_segment_align", 8)
        .field_uint(".group_segment_fixed_size", 1024)
        .field_uint(".private_segment_fixed_size", 64);
    p.str(".reqd_workgroup_size")
        .array(3)
        .uint(16)
        .uint(4)
        .uint(1);
    p.str(".args").array(4);
    p.map(8)
        .field_str(".name", "lhs")
        .field_uint(".offset", 0)
        .field_uint(".size", 8)
        .field_str(
            ".value_kind",
            if options.unknown_value_kind {
                "made_up_kind"
            } else {
                "global_buffer"
            },
        )
        .field_str(".address_space", "global")
        .field_str(".access", "read_write")
        .field_str(".actual_access", "read_only")
        .field_uint(".align", 8);
    p.map(7)
        .field_str(".name", "rhs")
        .field_uint(".offset", 8)
        .field_uint(".size", 8)
        .field_str(".value_kind", "global_buffer")
        .field_str(".address_space", "global")
        .field_str(".access", "write_only")
        .field_uint(".align", 8);
    p.map(5)
        .field_str(".name", "n")
        .field_uint(".offset", 16)
        .field_uint(".size", if options.narrow_by_value_arg { 2 } else { 4 })
        .field_str(".value_kind", "by_value")
        .field_uint(".align", 4);
    p.map(5)
        .field_str(".name", "alpha")
        .field_uint(".offset", 20)
        .field_uint(".size", if options.out_of_range_arg { 8 } else { 4 })
        .field_str(".value_kind", "by_value")
        .field_uint(".align", 4);
    p.0
}

/// IREE's `BuildHiddenArgumentMetadata` blob.
pub fn iree_hidden_argument_metadata() -> Vec<u8> {
    let mut p = Pack::default();
    p.map(1).str("amdhsa.kernels").array(1).map(6);
    p.field_str(".symbol", "hidden_args.kd")
        .field_uint(".kernarg_segment_size", 20)
        .field_uint(".kernarg_segment_align", 8)
        .field_uint(".group_segment_fixed_size", 0)
        .field_uint(".private_segment_fixed_size", 0);
    p.str(".args").array(3);
    p.map(5)
        .field_str(".name", "buffer")
        .field_uint(".offset", 0)
        .field_uint(".size", 8)
        .field_str(".value_kind", "global_buffer")
        .field_uint(".align", 8);
    p.map(5)
        .field_str(".name", "grid_x")
        .field_uint(".offset", 8)
        .field_uint(".size", 8)
        .field_str(".value_kind", "hidden_global_offset_x")
        .field_uint(".align", 8);
    p.map(5)
        .field_str(".name", "value")
        .field_uint(".offset", 16)
        .field_uint(".size", 4)
        .field_str(".value_kind", "by_value")
        .field_uint(".align", 4);
    p.0
}

/// A root map with one kernel whose map holds the required fields plus `extra`
/// (already-encoded key/value pairs, `extra_pairs` of them) and `args`.
pub fn one_kernel(extra_pairs: u32, extra: &[u8], args: &[Vec<u8>], kernarg_size: u64) -> Vec<u8> {
    let mut p = Pack::default();
    p.map(1).str("amdhsa.kernels").array(1).map(6 + extra_pairs);
    p.field_str(".symbol", "k.kd")
        .field_uint(".kernarg_segment_size", kernarg_size)
        .field_uint(".kernarg_segment_align", 8)
        .field_uint(".group_segment_fixed_size", 0)
        .field_uint(".private_segment_fixed_size", 0)
        .raw(extra);
    p.str(".args").array(args.len() as u32);
    for arg in args {
        p.raw(arg);
    }
    p.0
}

/// An argument map with offset, size and value kind.
pub fn arg(offset: u64, size: u64, kind: &str) -> Vec<u8> {
    let mut p = Pack::default();
    p.map(3)
        .field_uint(".offset", offset)
        .field_uint(".size", size)
        .field_str(".value_kind", kind);
    p.0
}

/// What the `amdgpu-hal` binary prints for `args`: stdout when it exits 0,
/// otherwise its one error line without the `Error: ` prefix (the status as
/// `Status`'s `Display` writes it, joined to one line).
pub fn answer(args: &[&str]) -> Result<String, String> {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_amdgpu-hal"))
        .args(args)
        .output()
        .expect("the amdgpu-hal binary runs");
    if output.status.success() {
        return Ok(String::from_utf8(output.stdout).expect("UTF-8 output"));
    }
    let stderr = String::from_utf8(output.stderr).expect("UTF-8 errors");
    Err(stderr
        .trim_end()
        .strip_prefix("Error: ")
        .unwrap_or(&stderr)
        .to_owned())
}

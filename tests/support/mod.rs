//! Builders of synthetic ELF images for the code-object tests.
#![allow(dead_code)]

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

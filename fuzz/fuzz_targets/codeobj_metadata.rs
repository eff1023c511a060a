//! The MessagePack metadata decoder, fed raw and wrapped as the descriptor of
//! a synthetic AMDGPU note in a minimal ELF (as IREE's own fuzzer does), so
//! mutations reach the decoder past the ELF layer.
#![no_main]

use amdgpu_hal::codeobj::metadata::CodeObjectMetadata;
use libfuzzer_sys::fuzz_target;

/// Input cap, as IREE's metadata fuzzer.
const MAX_INPUT: usize = 64 * 1024;

fn wrap_in_elf(msgpack: &[u8]) -> Vec<u8> {
    let mut note = Vec::new();
    note.extend_from_slice(&7u32.to_le_bytes());
    note.extend_from_slice(&(msgpack.len() as u32).to_le_bytes());
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

fn exercise(metadata: &CodeObjectMetadata<'_>) {
    for kernel in &metadata.kernels {
        let _ = kernel.default_export_parameters();
        let _ = metadata.find_kernel_by_symbol(kernel.symbol);
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    if let Ok(metadata) = CodeObjectMetadata::from_msgpack(data) {
        exercise(&metadata);
    }
    let elf = wrap_in_elf(data);
    if let Ok(metadata) = CodeObjectMetadata::from_elf(&elf) {
        exercise(&metadata);
    }
});

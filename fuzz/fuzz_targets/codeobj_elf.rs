//! Raw code object reading: identity and `e_flags` target, size, metadata
//! note discovery, symbols, kernel descriptors.
#![no_main]

use amdgpu_hal::codeobj::kernel_descriptor::KernelDescriptor;
use amdgpu_hal::codeobj::metadata::CodeObjectMetadata;
use amdgpu_hal::codeobj::{elf, notes, symbols};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = elf::target_id_from_elf(data);
    let _ = elf::code_object_version(data);
    if let Ok(size) = elf::calculate_size(data) {
        assert!(size <= data.len());
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
});

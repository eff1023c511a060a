//! The MessagePack metadata decoder, fed raw and wrapped as the descriptor of
//! a synthetic AMDGPU note in a minimal ELF (as IREE's own fuzzer does), so
//! mutations reach the decoder past the ELF layer.
#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    harness::codeobj_metadata(data);
});

//! Raw code object reading: identity and `e_flags` target, size, metadata
//! note discovery, symbols, kernel descriptors.
#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    harness::codeobj_elf(data);
});

//! Machine code for the ISA interpreter: decode, then execute.
#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    harness::isa_program(data);
});

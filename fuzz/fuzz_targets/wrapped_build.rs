//! Structure-aware: wrapped executables built by the crate's own builder and
//! `pack` from random exports, images and options must read back.
#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    harness::wrapped_build(data);
});

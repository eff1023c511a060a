//! Wrapped executables: AMD1/HIP1 headers, FlatBuffer verification,
//! format inference, `inspect` (reflection) and offload bundles.
#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    harness::wrapped(data);
});

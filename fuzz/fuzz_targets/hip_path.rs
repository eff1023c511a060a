//! HIP device paths (`--device`) and IREE's integer and hex rules.
#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    harness::hip_path(data);
});

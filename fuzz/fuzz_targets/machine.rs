//! Simulated machine descriptions: first byte even = TOML, odd = JSON.
#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    harness::machine(data);
});

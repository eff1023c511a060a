//! Target-ID strings under every parse-flag combination; whatever parses
//! must format and re-parse to the same target.
#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    harness::target_id(data);
});

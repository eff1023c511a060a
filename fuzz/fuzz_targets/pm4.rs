//! PM4 indirect buffers: byte 0 the generation (even gfx9, odd gfx10+),
//! the rest dwords.
#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    harness::pm4(data);
});

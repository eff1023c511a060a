//! The host's own f32 multiply-add rate on one core: the limit that
//! docs/PERFORMANCE.md sets the interpreter's matrix rate against
//! (scripts/bench-matmul.py compiles and runs it, in the same run as the
//! kernels). 64 independent chains `x = x * m + k`, 8 lanes wide, held in
//! registers: throughput-bound, not latency- or memory-bound. Built with
//! `-C target-cpu=native` it uses the host's fused multiply-add
//! (`f32::mul_add`), as it does at `-C target-cpu=x86-64-v3`, the level the
//! simulator's library is built for (`.cargo/config.toml`); built for the
//! baseline x86-64 target, a multiply and an add.
//!
//!     rustc -O [-C target-cpu=native] scripts/host-fma.rs -o host-fma
//!     ./host-fma        # prints multiply-adds per second

use std::hint::black_box;
use std::time::Instant;

/// Chains per row and rows: 64 accumulators.
const LANES: usize = 8;
const ROWS: usize = 8;
/// Passes over the accumulators (about half a second at 10^11/s).
const PASSES: usize = 1 << 26;

#[inline(always)]
fn step(x: f32, m: f32, k: f32) -> f32 {
    if cfg!(target_feature = "fma") {
        x.mul_add(m, k)
    } else {
        x * m + k
    }
}

fn main() {
    let (m, k) = (black_box(0.999_999_9f32), black_box(1e-7f32));
    let mut acc = [[1.0f32; LANES]; ROWS];
    let start = Instant::now();
    for _ in 0..PASSES {
        for row in acc.iter_mut() {
            for x in row.iter_mut() {
                *x = step(*x, m, k);
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    black_box(&acc);
    let rate = (PASSES * LANES * ROWS) as f64 / seconds;
    println!("{rate:.4e}");
}

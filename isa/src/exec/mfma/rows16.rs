//! Dense MFMA of 16-bit float inputs (f16, bf16) into f32 with register
//! operands and no broadcast controls (CBSZ, ABID and BLGP all 0): the
//! form IREE's and Triton's matmuls use, computed a row of D at a time
//! straight into the register file.
//!
//! The arithmetic is [`super::run`]'s, element for element: each output is
//! its C widened to f64 plus the K products (exact in f64) in K order,
//! rounded once to f32. What differs is only where the values go on the
//! way: A is converted row-major (`[i][k]`, so that a row's K values are
//! consecutive), B `[k][j]` in chunks of [`CHUNK`] columns (the sums of a
//! chunk stay in vector registers over the whole K loop), C is read and D
//! written a row of lanes at a time, with no buffer between when D cannot
//! overwrite a value still to be read. `exec::mfma::oracle`'s property test
//! holds it to the element-by-element form on every dense shape.

use super::{F16_VALUES, Source, bf16_to_f32};
use crate::inst::Inst;
use crate::op::{MatrixType, Mfma};
use crate::wave::{LANES, VREGS, Wave};

/// Columns of D summed together: 16 f64 sums are 8 SSE2 registers.
const CHUNK: usize = 16;

/// The largest K whose rows this form keeps (gfx950's 16x16x32).
const MAX_K: usize = 32;

/// Runs `inst` if it is of this form, with A, B and C resolved by the
/// caller; false, having changed nothing, for any other MFMA.
pub(super) fn run(
    wave: &mut Wave,
    inst: &Inst,
    shape: Mfma,
    sources: [Source; 3],
    scratch: &mut Vec<f64>,
) -> bool {
    let [Source::Register(a_base), Source::Register(b_base), c] = sources else {
        return false;
    };
    let f16 = match shape.a {
        MatrixType::F16 => true,
        MatrixType::Bf16 => false,
        _ => return false,
    };
    let (m, n, kk, blocks) = (
        usize::from(shape.m),
        usize::from(shape.n),
        usize::from(shape.k),
        usize::from(shape.blocks),
    );
    let per_lane = kk * m * blocks / 64;
    let Some(d_base) = wave.vbase(inst.dst[0], 0).map(|d| d / LANES) else {
        return false;
    };
    let in_regs = per_lane / 2;
    let out_regs = shape.output_regs();
    let overlaps = |base: usize, regs: usize| base < d_base + out_regs && d_base < base + regs;
    let c_ok = match c {
        Source::Register(c_base) => c_base == d_base || !overlaps(c_base, out_regs),
        Source::Constant { .. } => true,
    };
    if shape.b != shape.a
        || inst.imm != 0
        || m != n
        // Row placement divides by M N / 4 (every shape has M >= 4).
        || m < 4
        || !m.is_power_of_two()
        || !(n.is_multiple_of(CHUNK) || n < CHUNK)
        || per_lane == 0
        || !per_lane.is_multiple_of(2)
        || kk > MAX_K
        || !kk.is_multiple_of(per_lane)
        || m * blocks * (kk / per_lane) > LANES
        || !(m * n * blocks).is_multiple_of(LANES)
        || wave.v.len() < VREGS * LANES
        || a_base + in_regs > VREGS
        || b_base + in_regs > VREGS
        || d_base + out_regs > VREGS
        || matches!(c, Source::Register(c_base) if c_base + out_regs > VREGS)
        || overlaps(a_base, in_regs)
        || overlaps(b_base, in_regs)
        || !c_ok
    {
        return false;
    }
    if scratch.len() < (m + n) * kk {
        scratch.resize((m + n) * kk, 0.0);
    }
    let (a, b) = scratch.split_at_mut(m * kk);
    let form = Form {
        m,
        n,
        kk,
        blocks,
        per_lane,
        a: a_base,
        b: b_base,
        c,
        d: d_base,
    };
    match (n.min(CHUNK), f16) {
        (CHUNK, true) => form.run::<CHUNK, true>(&mut wave.v, a, b),
        (CHUNK, false) => form.run::<CHUNK, false>(&mut wave.v, a, b),
        (4, true) => form.run::<4, true>(&mut wave.v, a, b),
        (4, false) => form.run::<4, false>(&mut wave.v, a, b),
        (_, true) => form.run::<1, true>(&mut wave.v, a, b),
        (_, false) => form.run::<1, false>(&mut wave.v, a, b),
    }
    true
}

/// An instruction of this form, checked: its sizes and where its operands
/// lie (registers' indices in the vector file).
struct Form {
    m: usize,
    n: usize,
    kk: usize,
    blocks: usize,
    /// A's (and B's) elements per lane.
    per_lane: usize,
    a: usize,
    b: usize,
    c: Source,
    d: usize,
}

impl Form {
    /// Every block: A row-major into `a`, B into `b` in chunks of `W`
    /// columns (chunk, then k), then each row's chunks summed from C into
    /// D. `W` is `n` or divides it ([`run`] checked); 1 stands for any
    /// other width.
    #[inline(always)]
    fn run<const W: usize, const F16: bool>(&self, v: &mut [u32], a: &mut [f64], b: &mut [f64]) {
        let (m, n, kk, blocks) = (self.m, self.n, self.kk, self.blocks);
        let width = if W == 1 { n } else { W };
        let b = &mut b[..n * kk];
        // Where row i of a block lies in C and D: `super::output_at`, with
        // every size a power of two, by shifts and masks.
        let multirows = LANES / n;
        let per_register = LANES.div_ceil(n * m / 4);
        let multirow_shift = (4 * multirows).trailing_zeros();
        let rows_per_block = m * n / LANES;
        for block in 0..blocks {
            for group in 0..kk / self.per_lane {
                let first = m * block + m * blocks * group;
                for reg in 0..self.per_lane / 2 {
                    let k = group * self.per_lane + 2 * reg;
                    let (Some(a_words), Some(b_words)) = (
                        v.get((self.a + reg) * LANES + first..(self.a + reg) * LANES + first + m),
                        v.get((self.b + reg) * LANES + first..(self.b + reg) * LANES + first + n),
                    ) else {
                        continue;
                    };
                    halves::<F16>(a_words, b_words, a, b, k, kk, width);
                }
            }
            for (i, a_row) in a.chunks_exact(kk).enumerate() {
                let slot = block * rows_per_block + (i >> multirow_shift) * 4 + (i & 3);
                let lane = (block & (per_register - 1)) * n
                    + ((i >> 2) & (multirows - 1)) * per_register * n;
                for (chunk, b_chunk) in b.chunks_exact(kk * width).enumerate() {
                    let first = lane + chunk * width;
                    let at = |base: usize| (base + slot) * LANES + first;
                    let c = match self.c {
                        Source::Register(c) => Ok(at(c)),
                        Source::Constant { word, .. } => Err(f64::from(f32::from_bits(word))),
                    };
                    if W == 1 {
                        chunk_row(v, c, at(self.d), a_row, b_chunk, width);
                    } else {
                        chunk_row_fixed::<W>(v, c, at(self.d), a_row, b_chunk);
                    }
                }
            }
        }
    }
}

/// One row of a chunk of `W` columns: its C (`Ok`: the lanes from that
/// index of the file; `Err`: a constant) widened, the K products added,
/// rounded into D's lanes from `d`. A fixed width, so that the sums and
/// the lanes' loops need no length.
#[inline(always)]
fn chunk_row_fixed<const W: usize>(
    v: &mut [u32],
    c: Result<usize, f64>,
    d: usize,
    a_row: &[f64],
    b_chunk: &[f64],
) {
    let mut sums = match c {
        Ok(c) => {
            let Some(words) = v.get(c..c + W).and_then(|w| <&[u32; W]>::try_from(w).ok()) else {
                return;
            };
            words.map(|w| f64::from(f32::from_bits(w)))
        }
        Err(constant) => [constant; W],
    };
    row::<W>(a_row, b_chunk, &mut sums);
    if let Some(d) = v
        .get_mut(d..d + W)
        .and_then(|d| <&mut [u32; W]>::try_from(d).ok())
    {
        *d = sums.map(|sum| (sum as f32).to_bits());
    }
}

/// [`chunk_row_fixed`] for any other width (below [`CHUNK`]).
fn chunk_row(
    v: &mut [u32],
    c: Result<usize, f64>,
    d: usize,
    a_row: &[f64],
    b_chunk: &[f64],
    width: usize,
) {
    let mut sums = [0f64; CHUNK];
    let Some(sums) = sums.get_mut(..width) else {
        return;
    };
    match c {
        Ok(c) => {
            let Some(words) = v.get(c..c + width) else {
                return;
            };
            for (sum, &w) in sums.iter_mut().zip(words) {
                *sum = f64::from(f32::from_bits(w));
            }
        }
        Err(constant) => sums.fill(constant),
    }
    row::<1>(a_row, b_chunk, sums);
    if let Some(d) = v.get_mut(d..d + width) {
        for (d, &sum) in d.iter_mut().zip(sums.iter()) {
            *d = (sum as f32).to_bits();
        }
    }
}

/// `sums[j] += a[k] * b[k][j]` for each `k` in order: one row of a chunk,
/// its sums kept in registers over the K loop, two `k` a turn (the loop's
/// own instructions were a tenth of it).
#[inline(always)]
fn row<const W: usize>(a: &[f64], b: &[f64], sums: &mut [f64]) {
    let fixed = if W == 1 {
        None
    } else {
        <&mut [f64; W]>::try_from(&mut *sums).ok()
    };
    let Some(fixed) = fixed else {
        // Another width: the chunk's columns one at a time.
        let width = sums.len().max(1);
        for (&x, r) in a.iter().zip(b.chunks_exact(width)) {
            for (sum, &y) in sums.iter_mut().zip(r) {
                *sum += x * y;
            }
        }
        return;
    };
    let mut s = *fixed;
    let rows = b.as_chunks::<W>().0;
    let (pairs, last) = a.as_chunks::<2>();
    for ([x0, x1], [r0, r1]) in pairs.iter().zip(rows.as_chunks::<2>().0) {
        for j in 0..W {
            s[j] += x0 * r0[j];
        }
        for j in 0..W {
            s[j] += x1 * r1[j];
        }
    }
    if let (Some(&x), Some(r)) = (last.first(), rows.get(2 * pairs.len())) {
        for j in 0..W {
            s[j] += x * r[j];
        }
    }
    *fixed = s;
}

/// Elements `k` and `k + 1` of every row of A (`a_words`, a register's
/// lanes for rows `0..m`) and of every column of B (`b_words`) as f64:
/// A's into its rows of `kk`, B's into its chunks of `width` columns.
#[inline(always)]
fn halves<const F16: bool>(
    a_words: &[u32],
    b_words: &[u32],
    a: &mut [f64],
    b: &mut [f64],
    k: usize,
    kk: usize,
    width: usize,
) {
    let table = &**F16_VALUES;
    let convert = |half: u32| -> f64 {
        if F16 {
            table[usize::from(half as u16)]
        } else {
            f64::from(bf16_to_f32(half as u16))
        }
    };
    for (row, &w) in a.chunks_exact_mut(kk).zip(a_words) {
        if let Some([low, high]) = row.get_mut(k..k + 2) {
            *low = convert(w);
            *high = convert(w >> 16);
        }
    }
    for (chunk, words) in b.chunks_exact_mut(kk * width).zip(b_words.chunks(width)) {
        if let Some(rows) = chunk.get_mut(k * width..(k + 2) * width) {
            let (low, high) = rows.split_at_mut(width);
            for ((&w, low), high) in words.iter().zip(low).zip(high) {
                *low = convert(w);
                *high = convert(w >> 16);
            }
        }
    }
}

//! Matrix instructions: CDNA's matrix fused multiply-add (`v_mfma_*`) and
//! RDNA3's wave matrix multiply-accumulate (`v_wmma_*`).
//!
//! # MFMA
//!
//! Every gfx90a and gfx942 `v_mfma_*` and gfx942's sparse `v_smfmac_*`
//! (`sparse`, below): f32,
//! xf32, f16, bf16 (gfx90a's `_1k` forms and its older ones with two
//! elements per register), i8, f64, and gfx942's fp8/bf8 inputs, in one or
//! several blocks. Where each element of A, B, C and D lies (register,
//! bits, lane) is the general rule of AMD's matrix instruction calculator
//! (<https://github.com/ROCm/amd_matrix_instruction_calculator>,
//! `matrix_calculator.py`, the gfx9 class's `__get_input_reg_lanes` and
//! `__get_output_reg_lanes`), which its per-instruction formulas
//! (`--detail-instruction`) instantiate:
//!
//! - A (B alike with `j` for `i`): with `E = K * M * blocks / 64` elements
//!   per lane, `A[i][k]` of block `b` is element `k % E` of lane
//!   `M * b + M * blocks * (k / E) + i`; element `e` is register `e` (f32),
//!   register pair `e` (f64), or bits `16 (e % 2)` of register `e / 2`
//!   (f16, bf16), bits `8 (e % 4)` of register `e / 4` (i8, fp8, bf8).
//! - C and D: rows in groups of 4 (f64: 1) registers ("multi-rows"), `64 /
//!   N` multi-rows across the lanes of a register, blocks packed side by
//!   side where a block takes fewer than 64 lanes; f64 in register pairs.
//!
//! The broadcast controls are the calculator's too: CBSZ and ABID make
//! block `b` read A of block `(b >> CBSZ << CBSZ) + ABID`; BLGP makes the
//! B element of lane `l` come from another lane (1: the first 32 lanes
//! repeated, 2: the second 32, 3: rotated by 16, 4-7: one 16-lane group to
//! all); on gfx942's f64 forms the BLGP bits negate A, B and C
//! (`inst.neg`). The decoder refuses the values the calculator does not
//! define.
//!
//! Arithmetic: each product of f32, xf32, f16, bf16 or fp8/bf8 inputs is
//! exact in f64; they are added to C in f64, in K order, and the sum is
//! rounded once to f32 (to nearest even), as before this module knew more
//! shapes. The calculator and LLVM state no order of accumulation or
//! intermediate rounding for the hardware, and none was taken from the ISA
//! guides, so results agree with a GPU's where the sum is exact in f64 and
//! may differ in the last bit otherwise. f64 shapes
//! add each product to C by a fused multiply-add in K order. i8
//! products are summed with C as wrapping i32. xf32 inputs are the f32
//! register with its low 13 mantissa bits dropped (rounding toward zero):
//! the CDNA3 ISA guide is reported to mention both rounding and truncation
//! (ROCm/rocm-libraries pull request 6768, review), and ROCm's libraries
//! report and compensate the hardware's truncation (pull request 9176:
//! "gfx942's native `v_mfma_f32_*_xf32` truncates fp32->tf32
//! (round-toward-zero) in hardware"; triton-lang/triton
//! pull request 11783, a NaN whose payload lies in those bits becoming an
//! infinity). gfx942's fp8 is E4M3FNUZ (bias 8) and bf8 E5M2FNUZ (bias
//! 16): no infinities, no negative zero, 0x80 a NaN. gfx950 runs the same
//! fp8/bf8 shapes on OCP's E4M3FN and E5M2 (`exec::ocp8`; the decoder's
//! `tables::on_gfx950` gives them `MatrixType::OcpFp8`/`OcpBf8`), the
//! arithmetic unchanged. EXEC does not mask the instruction.

use crate::exec::error::ExecError;
use crate::exec::float::{f16_to_f32, f32_to_f16, odd32};
use crate::exec::ocp8::{Ocp8Format, ocp8_to_f32};
use crate::inst::{Inst, Operand};
use crate::op::{MatrixType, Mfma, Wmma};
use crate::wave::{LANES, Wave, Width};

#[cfg(test)]
mod oracle;
mod rows16;
pub(crate) mod scaled;

/// Where an input element lies: register (of a pair for f64), low bit,
/// lane.
fn input_at(
    shape: Mfma,
    ty: MatrixType,
    row: usize,
    k: usize,
    block: usize,
) -> (usize, u32, usize) {
    let m = usize::from(shape.m);
    let blocks = usize::from(shape.blocks);
    let per_lane = usize::from(shape.k) * m * blocks / 64;
    let element = k % per_lane;
    let lane = m * block + m * blocks * (k / per_lane) + row;
    let (reg, bit) = match ty.bits() {
        64 => (2 * element, 0),
        32 => (element, 0),
        16 => (element / 2, 16 * (element % 2) as u32),
        _ => (element / 4, 8 * (element % 4) as u32),
    };
    (reg, bit, lane)
}

/// Where element `[i][j]` of block `block` of C or D lies: register (the
/// first of a pair for f64), lane.
fn output_at(shape: Mfma, i: usize, j: usize, block: usize) -> (usize, usize) {
    let (m, n) = (usize::from(shape.m), usize::from(shape.n));
    let f64 = shape.f64_output();
    let height = if f64 { 1 } else { 4 };
    let multirows = 64 / n;
    let blocks_per_register = 64_usize.div_ceil(n * m / height);
    let slot = block * (m * n / 64) + i / (height * multirows) * height + i % height;
    let lane =
        (block % blocks_per_register) * n + (i / height) % multirows * blocks_per_register * n + j;
    (if f64 { 2 * slot } else { slot }, lane)
}

/// BLGP's B lane: the calculator's `_get_blgp_transformed_lane`.
fn blgp_lane(lane: usize, blgp: i32) -> usize {
    match blgp {
        1 => lane % 32,
        2 => lane % 32 + 32,
        3 => (lane + 16) % 64,
        4..=7 => lane % 16 + 16 * (blgp as usize - 4),
        _ => lane,
    }
}

/// gfx942's fp8 (E4M3FNUZ) or bf8 (E5M2FNUZ) byte as f64.
pub(crate) fn fnuz8(byte: u8, exponent_bits: u32) -> f64 {
    if byte == 0x80 {
        return f64::NAN;
    }
    let mantissa_bits = 7 - exponent_bits;
    let bias = 1 << (exponent_bits - 1);
    let e = i32::from(byte >> mantissa_bits) & ((1 << exponent_bits) - 1);
    let mantissa = f64::from(byte & ((1 << mantissa_bits) - 1));
    let scale = f64::from(1u32 << mantissa_bits);
    let magnitude = if e == 0 {
        mantissa / scale * 2f64.powi(1 - bias)
    } else {
        (1.0 + mantissa / scale) * 2f64.powi(e - bias)
    };
    if byte & 0x80 != 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// An input element's value: floats as f64 (exact), i8 as i64.
fn element(
    wave: &Wave,
    operand: crate::inst::Operand,
    ty: MatrixType,
    at: (usize, u32, usize),
) -> (f64, i64) {
    let (reg, bit, lane) = at;
    let constant = wave.src32(operand, lane, Width::B32);
    let word = wave.vreg_or(operand, reg, lane, constant);
    match ty {
        MatrixType::F64 => {
            let value = match operand {
                crate::inst::Operand::Vgpr(_) | crate::inst::Operand::Agpr(_) => {
                    u64::from(word) | u64::from(wave.vreg(operand, reg + 1, lane)) << 32
                }
                _ => wave.scalar64(operand, Width::F64),
            };
            (f64::from_bits(value), 0)
        }
        _ => (value(ty, word, bit), i64::from(integer(word, bit))),
    }
}

/// A 32-bit-or-narrower float element (bits `bit..` of `word`) as f64,
/// exactly.
#[inline(always)]
fn value(ty: MatrixType, word: u32, bit: u32) -> f64 {
    match ty {
        MatrixType::F32 => f64::from(f32::from_bits(word)),
        MatrixType::Xf32 => f64::from(f32::from_bits(word & 0xffff_e000)),
        MatrixType::F16 => f64::from(f16_to_f32((word >> bit) as u16)),
        MatrixType::Bf16 => f64::from(bf16_to_f32((word >> bit) as u16)),
        MatrixType::Fp8 => fnuz8((word >> bit) as u8, 4),
        MatrixType::Bf8 => fnuz8((word >> bit) as u8, 5),
        MatrixType::OcpFp8 => f64::from(ocp8_to_f32((word >> bit) as u8, Ocp8Format::E4m3fn)),
        MatrixType::OcpBf8 => f64::from(ocp8_to_f32((word >> bit) as u8, Ocp8Format::E5m2)),
        // Integers are read by `integer`; f64 in pairs; the `f8f6f4`
        // formats by `scaled`.
        MatrixType::I8 | MatrixType::F64 | MatrixType::F8f6f4 | MatrixType::Mx(_) => 0.0,
    }
}

/// An i8 element (bits `bit..bit + 8` of `word`).
#[inline(always)]
fn integer(word: u32, bit: u32) -> i32 {
    i32::from((word >> bit) as u8 as i8)
}

/// A matrix operand resolved once per instruction: the index of its first
/// register in the vector file, or a constant (an inline constant or
/// literal in every register and lane).
#[derive(Clone, Copy)]
enum Source {
    Register(usize),
    Constant { word: u32, pair: u64 },
}

impl Source {
    fn new(wave: &Wave, operand: Operand) -> Source {
        match wave.vbase(operand, 0) {
            Some(base) => Source::Register(base / LANES),
            None if matches!(operand, Operand::Vgpr(_) | Operand::Agpr(_)) => {
                Source::Constant { word: 0, pair: 0 }
            }
            None => Source::Constant {
                word: wave.scalar32(operand, Width::B32),
                pair: wave.scalar64(operand, Width::F64),
            },
        }
    }

    /// Register `reg` of the operand in `lane` (0 past the file's end).
    #[inline(always)]
    fn word(self, v: &[u32], reg: usize, lane: usize) -> u32 {
        match self {
            Source::Register(first) => v.get((first + reg) * LANES + lane).copied().unwrap_or(0),
            Source::Constant { word, .. } => word,
        }
    }

    /// The f64 in registers `reg`, `reg + 1` of `lane`.
    #[inline(always)]
    fn pair(self, v: &[u32], reg: usize, lane: usize) -> f64 {
        f64::from_bits(match self {
            Source::Register(_) => {
                u64::from(self.word(v, reg, lane)) | u64::from(self.word(v, reg + 1, lane)) << 32
            }
            Source::Constant { pair, .. } => pair,
        })
    }
}

/// Register and low bit of element `e` of a lane's share of A or B.
#[inline(always)]
fn register_bit(ty: MatrixType, e: usize) -> (usize, u32) {
    match ty.bits() {
        64 => (2 * e, 0),
        32 => (e, 0),
        16 => (e / 2, 16 * (e % 2) as u32),
        _ => (e / 4, 8 * (e % 4) as u32),
    }
}

/// Every f16's value as f64 (exactly: [`f16_to_f32`] widened), by its
/// bits: a lookup is a fifth of the conversion's instructions, and f16
/// MFMA and WMMA operands are converted element by element, each to f64
/// (the table is 512 KiB, built once per process; holding f64, not f32,
/// saves the widening of every element). A fixed-size array, so that an
/// index of 16 bits needs no bounds check.
static F16_VALUES: std::sync::LazyLock<Box<[f64; 1 << 16]>> = std::sync::LazyLock::new(|| {
    let values: Vec<f64> = (0..=u16::MAX).map(|h| f64::from(f16_to_f32(h))).collect();
    values
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("one value per 16-bit pattern"))
});

/// Elements `bit..` of `words` as f64, into `out`: one loop per type (f16
/// by [`F16_VALUES`], passed in as `table` so that the lazy table is
/// resolved once per operand), the type matched once per row, not per
/// element.
#[inline(always)]
fn convert(ty: MatrixType, words: &[u32], bit: u32, out: &mut [f64], table: &[f64; 1 << 16]) {
    let pairs = words.iter().zip(out.iter_mut());
    match ty {
        MatrixType::F16 => {
            for (&w, slot) in pairs {
                *slot = table[usize::from((w >> bit) as u16)];
            }
        }
        MatrixType::Bf16 => {
            for (&w, slot) in pairs {
                *slot = f64::from(f32::from_bits((w >> bit & 0xffff) << 16));
            }
        }
        MatrixType::F32 => {
            for (&w, slot) in pairs {
                *slot = f64::from(f32::from_bits(w));
            }
        }
        ty => {
            for (&w, slot) in pairs {
                *slot = value(ty, w, bit);
            }
        }
    }
}

/// One block's A or B, stored `[k][row]` (row `i` of A, column `j` of B):
/// element `k` of row `r` is element `k % E` of lane
/// `M * block + M * blocks * (k / E) + r` ([`input_at`]), `lane_of`
/// applying BLGP for B. Floats go to `floats`, i8 to `ints`.
struct Gather<L: Fn(usize) -> usize> {
    shape: Mfma,
    ty: MatrixType,
    source: Source,
    block: usize,
    /// Rows (A: M) or columns (B: N) of the operand.
    rows: usize,
    lane_of: L,
    /// `lane_of` is the identity (no BLGP).
    identity: bool,
}

impl<L: Fn(usize) -> usize> Gather<L> {
    fn run(&self, v: &[u32], floats: &mut [f64], ints: &mut [i32]) {
        let (m, kk, blocks) = (
            usize::from(self.shape.m),
            usize::from(self.shape.k),
            usize::from(self.shape.blocks),
        );
        let rows = self.rows.min(LANES);
        let per_lane = (kk * m * blocks / 64).max(1);
        let table = &**F16_VALUES;
        let mut words = [0u32; LANES];
        for k in 0..kk {
            let (reg, bit) = register_bit(self.ty, k % per_lane);
            let first = m * self.block + m * blocks * (k / per_lane);
            let at = k * rows..(k + 1) * rows;
            if self.ty == MatrixType::F64 {
                if let Some(dst) = floats.get_mut(at) {
                    for (r, slot) in dst.iter_mut().enumerate() {
                        *slot = self.source.pair(v, reg, (self.lane_of)(first + r));
                    }
                }
                continue;
            }
            // Consecutive lanes of one register are read in place.
            let whole = match self.source {
                Source::Register(base) if self.identity => {
                    let start = (base + reg) * LANES + first;
                    v.get(start..start + rows)
                }
                _ => None,
            };
            let lanes = match whole {
                Some(lanes) => lanes,
                None => {
                    let words = &mut words[..rows];
                    for (r, slot) in words.iter_mut().enumerate() {
                        *slot = self.source.word(v, reg, (self.lane_of)(first + r));
                    }
                    words
                }
            };
            if self.ty == MatrixType::I8 {
                if let Some(dst) = ints.get_mut(at) {
                    for (slot, &w) in dst.iter_mut().zip(lanes) {
                        *slot = integer(w, bit);
                    }
                }
            } else if let Some(dst) = floats.get_mut(at) {
                convert(self.ty, lanes, bit, dst, table);
            }
        }
    }
}

/// Dense MFMA. Each output is its C plus the K products in K order, as
/// ever; the loops run over a row of outputs at a time (`j` innermost, so
/// that the compiler vectorizes across the row) from operands gathered
/// once per block into plain arrays (`[k][row]`, converted as whole rows of
/// a register's lanes). The matmuls' form (f16 or bf16 in registers, no
/// broadcast controls) goes to [`rows16`], which writes D row by row.
/// `exec::mfma::oracle` (tests) keeps the element-by-element form this
/// replaced, and property tests hold both to the same bits.
pub(crate) fn run(wave: &mut Wave, inst: &Inst, shape: Mfma) -> Result<(), ExecError> {
    if shape.sparse {
        return sparse(wave, inst, shape);
    }
    if shape.f8f6f4() {
        return scaled::run(wave, inst, shape);
    }
    let (m, n, kk, blocks) = (
        usize::from(shape.m),
        usize::from(shape.n),
        usize::from(shape.k),
        usize::from(shape.blocks),
    );
    // The decoder refuses shapes whose blocks do not fill 64 lanes; a
    // gfx9 kernel whose descriptor asks for wave32 is known only here.
    if wave.lanes != 64 {
        return Err(ExecError::WaveSize {
            mnemonic: inst.mnemonic,
            lanes: wave.lanes,
        });
    }
    let cbsz = (inst.imm & 7) as u32;
    let abid = (inst.imm >> 3 & 15) as usize;
    let blgp = inst.imm >> 7 & 7;
    let negate = |bit: u8| if inst.neg & bit != 0 { -1.0 } else { 1.0 };
    let (neg_a, neg_b, neg_c) = (negate(1), negate(2), negate(4));
    let [src_a, src_b, src_c, _] = inst.src;
    let (src_a, src_b, src_c) = (
        Source::new(wave, src_a),
        Source::new(wave, src_b),
        Source::new(wave, src_c),
    );
    let f64_out = shape.f64_output();
    let int_out = shape.int_output();
    let mut scratch = SCRATCH.with(|s| std::mem::take(&mut *s.borrow_mut()));
    if rows16::run(wave, inst, shape, [src_a, src_b, src_c], &mut scratch.a) {
        SCRATCH.with(|s| *s.borrow_mut() = scratch);
        return Ok(());
    }
    let Scratch { out, a, b, ai, bi } = &mut scratch;
    out.clear();
    out.resize(shape.output_regs() * LANES, 0);
    for (operand, len) in [(&mut *a, m * kk), (&mut *b, kk * n)] {
        if operand.len() < len {
            operand.resize(len, 0.0);
        }
    }
    for (operand, len) in [(&mut *ai, m * kk), (&mut *bi, kk * n)] {
        if int_out && operand.len() < len {
            operand.resize(len, 0);
        }
    }
    let mut acc = [0f64; LANES];
    let mut acc_int = [0i32; LANES];
    let v = &wave.v;
    for block in 0..blocks {
        let a_block = (block >> cbsz << cbsz) + abid;
        let a_block = if a_block < blocks { a_block } else { block };
        Gather {
            shape,
            ty: shape.a,
            source: src_a,
            block: a_block,
            rows: m,
            lane_of: |lane| lane,
            identity: true,
        }
        .run(v, a, ai);
        Gather {
            shape,
            ty: shape.b,
            source: src_b,
            block,
            rows: n,
            lane_of: |lane| blgp_lane(lane, blgp),
            identity: blgp == 0,
        }
        .run(v, b, bi);
        for i in 0..m {
            let (reg, first) = output_at(shape, i, 0, block);
            let row_at = |reg: usize| reg * LANES + first..reg * LANES + first + n;
            if f64_out {
                let acc = &mut acc[..n];
                for (j, slot) in acc.iter_mut().enumerate() {
                    *slot = neg_c * src_c.pair(v, reg, first + j);
                }
                for (&x, row) in a[i..m * kk].iter().step_by(m).zip(b.chunks_exact(n)) {
                    for (slot, &y) in acc.iter_mut().zip(row) {
                        *slot = (neg_a * x).mul_add(neg_b * y, *slot);
                    }
                }
                // An f64's high half is in the next register's lane.
                for (half, shift) in [(reg, 0), (reg + 1, 32)] {
                    if let Some(d) = out.get_mut(row_at(half)) {
                        for (slot, &sum) in d.iter_mut().zip(acc.iter()) {
                            *slot = (sum.to_bits() >> shift) as u32;
                        }
                    }
                }
                continue;
            }
            let Some(d) = out.get_mut(row_at(reg)) else {
                continue;
            };
            if int_out {
                let acc = &mut acc_int[..n];
                for (j, slot) in acc.iter_mut().enumerate() {
                    *slot = src_c.word(v, reg, first + j) as i32;
                }
                for (&x, row) in ai[i..m * kk].iter().step_by(m).zip(bi.chunks_exact(n)) {
                    for (slot, &y) in acc.iter_mut().zip(row) {
                        *slot = slot.wrapping_add(x * y);
                    }
                }
                for (slot, &sum) in d.iter_mut().zip(acc.iter()) {
                    *slot = sum as u32;
                }
            } else {
                let acc = &mut acc[..n];
                match src_c {
                    Source::Register(base) => {
                        let start = (base + reg) * LANES + first;
                        match v.get(start..start + n) {
                            Some(c) => {
                                for (slot, &w) in acc.iter_mut().zip(c) {
                                    *slot = f64::from(f32::from_bits(w));
                                }
                            }
                            None => {
                                for (j, slot) in acc.iter_mut().enumerate() {
                                    *slot =
                                        f64::from(f32::from_bits(src_c.word(v, reg, first + j)));
                                }
                            }
                        }
                    }
                    Source::Constant { word, .. } => acc.fill(f64::from(f32::from_bits(word))),
                }
                accumulate(&a[i..m * kk], m, &b[..kk * n], acc);
                for (slot, &sum) in d.iter_mut().zip(acc.iter()) {
                    *slot = (sum as f32).to_bits();
                }
            }
        }
    }
    write_registers(wave, inst.dst[0], out);
    SCRATCH.with(|s| *s.borrow_mut() = scratch);
    Ok(())
}

/// Buffers of the operands and result, kept per thread across
/// instructions: allocating and zeroing them for each instruction cost a
/// tenth of a 16x16x16 f16 MFMA.
#[derive(Default)]
struct Scratch {
    out: Vec<u32>,
    a: Vec<f64>,
    b: Vec<f64>,
    ai: Vec<i32>,
    bi: Vec<i32>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// `acc[j] += a[k * stride] * b[k][j]` for each `k` in order (`b`
/// row-major, rows of `acc.len()`): a row of outputs, each summed in K
/// order. The common widths get a loop of fixed width, whose accumulators
/// the compiler keeps in vector registers.
fn accumulate(a: &[f64], stride: usize, b: &[f64], acc: &mut [f64]) {
    let stride = stride.max(1);
    match acc.len() {
        4 => accumulate_n::<4>(a, stride, b, acc),
        16 => accumulate_n::<16>(a, stride, b, acc),
        32 => accumulate_n::<32>(a, stride, b, acc),
        n => {
            for (&x, row) in a.iter().step_by(stride).zip(b.chunks_exact(n.max(1))) {
                for (slot, &y) in acc.iter_mut().zip(row) {
                    *slot += x * y;
                }
            }
        }
    }
}

fn accumulate_n<const N: usize>(a: &[f64], stride: usize, b: &[f64], acc: &mut [f64]) {
    let Ok(acc) = <&mut [f64; N]>::try_from(acc) else {
        return;
    };
    let mut sums = *acc;
    for (k, row) in b.as_chunks::<N>().0.iter().enumerate() {
        let Some(&x) = a.get(k * stride) else {
            break;
        };
        for j in 0..N {
            sums[j] += x * row[j];
        }
    }
    *acc = sums;
}

/// Writes `out` (register-major, 64 lanes a register) to the registers
/// from `dst` on, every lane (EXEC does not mask matrix instructions).
fn write_registers(wave: &mut Wave, dst: Operand, out: &[u32]) {
    for (r, chunk) in out.chunks_exact(LANES).enumerate() {
        if let Some(base) = wave.vbase(dst, r)
            && let Some(lanes) = wave.v.get_mut(base..base + LANES)
        {
            lanes.copy_from_slice(chunk);
        }
    }
}

/// gfx942's sparse `v_smfmac_*`: `D += A B` with A 4:2 structured-sparse
/// (of every four consecutive elements of a row of A, at most two are not
/// zero, and only those two are held). As AMD's matrix instruction
/// calculator lays it out (CDNA3, `--detail-instruction`, and its README's
/// sparse example): B, C and D are the dense shape's; A is the dense layout
/// of an M x K/2 matrix (its compressed rows); the compression index of
/// compressed element `e` of a lane is bits `2e + 1 : 2e` of the index
/// VGPR (`src2`) in that lane, offset by the set ABID picks when CBSZ is 0
/// (8 bits a set for 16-bit inputs, 16 for 8-bit ones), and says which of
/// the four elements of its group (compressed elements `2g`, `2g + 1` are
/// group `g`, columns `4g..4g + 4` of the dense row) it is. The
/// accumulator is D itself. Arithmetic as for the dense forms: products
/// exact in f64 (or i64), summed with D in f64 in K order (the compressed
/// order) and rounded once; i32 wrapping.
fn sparse(wave: &mut Wave, inst: &Inst, shape: Mfma) -> Result<(), ExecError> {
    let (m, n, kk) = (
        usize::from(shape.m),
        usize::from(shape.n),
        usize::from(shape.k),
    );
    // The decoder gives sparse forms one square block of a K that is a
    // multiple of 4; the wave's size is known only here.
    if wave.lanes != 64 {
        return Err(ExecError::WaveSize {
            mnemonic: inst.mnemonic,
            lanes: wave.lanes,
        });
    }
    let compressed = Mfma {
        k: shape.k / 2,
        ..shape
    };
    let half = kk / 2;
    let per_lane = half * m / 64;
    let cbsz = inst.imm & 7;
    let abid = (inst.imm >> 3 & 15) as usize;
    let set = if cbsz == 0 { abid } else { 0 };
    let [src_a, src_b, src_index, _] = inst.src;
    // Row i's non-zero elements: (dense column, value).
    let a: Vec<(usize, (f64, i64))> = (0..m * half)
        .map(|x| {
            let (i, c) = (x / half, x % half);
            let at = input_at(compressed, shape.a, i, c, 0);
            let slot = 2 * (set * per_lane + c % per_lane);
            let index = wave.src32_at(src_index, 0, at.2) >> slot & 3;
            (
                4 * (c / 2) + index as usize,
                element(wave, src_a, shape.a, at),
            )
        })
        .collect();
    let b: Vec<(f64, i64)> = (0..kk * n)
        .map(|x| {
            let at = input_at(shape, shape.b, x % n, x / n, 0);
            element(wave, src_b, shape.b, at)
        })
        .collect();
    let mut out = vec![0u32; shape.output_regs() * 64];
    for i in 0..m {
        for j in 0..n {
            let (reg, lane) = output_at(shape, i, j, 0);
            let d = wave.src32_at(inst.dst[0], reg, lane);
            let row = &a[i * half..(i + 1) * half];
            let value = if shape.int_output() {
                row.iter().fold(d as i32, |acc, &(k, (_, x))| {
                    acc.wrapping_add((x * b[k * n + j].1) as i32)
                }) as u32
            } else {
                let sum = row
                    .iter()
                    .fold(f64::from(f32::from_bits(d)), |acc, &(k, (x, _))| {
                        acc + x * b[k * n + j].0
                    });
                (sum as f32).to_bits()
            };
            if let Some(slot) = out.get_mut(reg * 64 + lane) {
                *slot = value;
            }
        }
    }
    write_registers(wave, inst.dst[0], &out);
    Ok(())
}

/// A bf16's bits as f32 (exact: bf16 is f32's high half).
fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits(u32::from(h) << 16)
}

/// A WMMA operand's elements, `[row][k]`: floats as f64, integers as i64.
type Elements = Vec<(f64, i64)>;

/// RDNA3's `v_wmma_*_16x16x16_*`, wave32 and wave64, in the layout of
/// AMD's matrix instruction calculator (RDNA3, "matrix element to register
/// mapping"): `A[i][k]` is element `k % E` (E per register: 2 for 16-bit,
/// 4 for 8-bit, 8 for 4-bit inputs) of register `k / E` in lane `i` (and
/// repeated in lanes `i + 16`, ...); B likewise with column `j`; `C[i][j]`
/// and `D[i][j]` are register `i / 2` (wave64: `i / 4`) of lane
/// `(16 i) % lanes + j`, for 16-bit results the half `op_sel[2]` picks
/// (the other half of D is kept). The modifiers are the calculator's
/// (decoded by `decode::wmma_modifiers`): on float inputs `neg_lo`/`neg_hi`
/// negate A's and B's low/high-half elements, `neg_lo[2]` negates C and
/// `neg_hi[2]` takes its absolute value first; on integer inputs `neg_lo`
/// bits 0 and 1 make A and B signed, and clamp saturates to i32.
/// Products are exact in f64 (integers: in i64), summed with C in f64 in K
/// order and rounded once to the result type (to nearest even); integer
/// sums wrap to i32 unless clamped.
pub(crate) fn wmma(wave: &mut Wave, inst: &Inst, kind: Wmma) -> Result<(), ExecError> {
    let lanes = wave.lanes;
    let per_reg = 32 / usize::from(kind.input_bits());
    let bits = u32::from(kind.input_bits());
    let integer = bits < 16;
    // Element k of A's row (B's column) `index`, as f64 or i64.
    let element = |operand, index: usize, k: usize, source: u8| -> (f64, i64) {
        let word = wave.vreg(operand, k / per_reg, index);
        let shift = bits * (k % per_reg) as u32;
        let raw = (word >> shift) & ((1u64 << bits) - 1) as u32;
        if integer {
            let signed = inst.neg >> source & 1 == 1;
            let value = if signed {
                i64::from((raw << (32 - bits)) as i32 >> (32 - bits))
            } else {
                i64::from(raw)
            };
            return (0.0, value);
        }
        let value = match kind {
            Wmma::F32F16 | Wmma::F16F16 => f64::from(f16_to_f32(raw as u16)),
            _ => f64::from(bf16_to_f32(raw as u16)),
        };
        let high = k % 2 == 1;
        let negate = if high { inst.neg_hi } else { inst.neg } >> source & 1 == 1;
        (if negate { -value } else { value }, 0)
    };
    let rows_per_reg = lanes / 16;
    let high_half = inst.op_sel & 4 != 0;
    // C's register `reg` in `lane` (as `Wave::src32_at` reads it).
    let c_source = Source::new(wave, inst.src[2]);
    let c_word = |reg: usize, lane: usize| c_source.word(&wave.v, reg, lane);
    // D[i][j], written once every sum is done (D may overlap C).
    let mut out = [0u32; 256];
    if integer {
        // Integer inputs element by element.
        let a: Elements = (0..256)
            .map(|x| element(inst.src[0], x / 16, x % 16, 0))
            .collect();
        let b: Elements = (0..256)
            .map(|x| element(inst.src[1], x / 16, x % 16, 1))
            .collect();
        for (x, slot) in out.iter_mut().enumerate() {
            let (i, j) = (x / 16, x % 16);
            let mut acc = i64::from(c_word(i / rows_per_reg, (16 * i) % lanes + j) as i32);
            for k in 0..16 {
                acc += a[i * 16 + k].1 * b[j * 16 + k].1;
            }
            *slot = if inst.clamp {
                acc.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
            } else {
                acc as i32 as u32
            };
        }
    } else {
        // Float sums a row of D at a time ([`accumulate`]): A's row, and B
        // stored `[k][j]`.
        let mut a_rows = [0f64; 256];
        let mut b_rows = [0f64; 256];
        wmma_operand(wave, inst, kind, 0, |i, k, x| a_rows[i * 16 + k] = x);
        wmma_operand(wave, inst, kind, 1, |j, k, x| b_rows[k * 16 + j] = x);
        let table = &**F16_VALUES;
        for (i, row) in out.chunks_exact_mut(16).enumerate() {
            let (reg, first) = (i / rows_per_reg, (16 * i) % lanes);
            // Row i of C: 16 consecutive lanes of one register.
            let mut words = [0u32; 16];
            match c_source {
                Source::Register(base)
                    if let Some(lanes) = wave
                        .v
                        .get((base + reg) * LANES + first..(base + reg) * LANES + first + 16) =>
                {
                    words.copy_from_slice(lanes);
                }
                _ => {
                    for (j, word) in words.iter_mut().enumerate() {
                        *word = c_word(reg, first + j);
                    }
                }
            }
            let shift = if high_half { 16 } else { 0 };
            let mut sums = [0f64; 16];
            let pairs = sums.iter_mut().zip(words);
            match kind {
                Wmma::F16F16 => {
                    for (sum, w) in pairs {
                        *sum = table[usize::from((w >> shift) as u16)];
                    }
                }
                Wmma::Bf16Bf16 => {
                    for (sum, w) in pairs {
                        *sum = f64::from(bf16_to_f32((w >> shift) as u16));
                    }
                }
                _ => {
                    for (sum, w) in pairs {
                        *sum = f64::from(f32::from_bits(w));
                    }
                }
            }
            if inst.neg_hi & 4 != 0 {
                sums.iter_mut().for_each(|c| *c = c.abs());
            }
            if inst.neg & 4 != 0 {
                sums.iter_mut().for_each(|c| *c = -*c);
            }
            accumulate(&a_rows[i * 16..(i + 1) * 16], 1, &b_rows, &mut sums);
            let pairs = row.iter_mut().zip(sums);
            match kind {
                Wmma::F16F16 => pairs.for_each(|(slot, acc)| *slot = u32::from(f64_to_f16(acc))),
                Wmma::Bf16Bf16 => {
                    pairs.for_each(|(slot, acc)| *slot = u32::from(f64_to_bf16(acc)));
                }
                _ => pairs.for_each(|(slot, acc)| *slot = (acc as f32).to_bits()),
            }
        }
    }
    // Row i of D is 16 consecutive lanes of one register.
    for (i, row) in out.chunks_exact(16).enumerate() {
        let (reg, first) = (i / rows_per_reg, (16 * i) % lanes);
        let Some(base) = wave.vbase(inst.dst[0], reg) else {
            continue;
        };
        let Some(d) = wave.v.get_mut(base + first..base + first + 16) else {
            continue;
        };
        for (slot, &value) in d.iter_mut().zip(row) {
            *slot = if !kind.half_output() {
                value
            } else if high_half {
                (*slot & 0xffff) | value << 16
            } else {
                (*slot & 0xffff_0000) | value
            };
        }
    }
    Ok(())
}

/// A float WMMA's A (`source` 0) or B (1): element `k` of row (column)
/// `r`, its `neg_lo`/`neg_hi` applied, to `put(r, k, value)`; as the
/// element-by-element read ([`wmma`]'s integer path) but a register's 16
/// lanes at a time, f16 by table ([`F16_VALUES`]).
fn wmma_operand(
    wave: &Wave,
    inst: &Inst,
    kind: Wmma,
    source: u8,
    mut put: impl FnMut(usize, usize, f64),
) {
    let operand = inst.src[usize::from(source)];
    // A non-register operand reads 0, as `Wave::vreg` reads it.
    let registers = match operand {
        Operand::Vgpr(_) | Operand::Agpr(_) => Source::new(wave, operand),
        _ => Source::Constant { word: 0, pair: 0 },
    };
    let f16 = matches!(kind, Wmma::F32F16 | Wmma::F16F16);
    let table = &**F16_VALUES;
    for reg in 0..8 {
        let mut words = [0u32; 16];
        match registers {
            Source::Register(first)
                if let Some(lanes) = wave
                    .v
                    .get((first + reg) * LANES..(first + reg) * LANES + 16) =>
            {
                words.copy_from_slice(lanes);
            }
            _ => {
                for (r, slot) in words.iter_mut().enumerate() {
                    *slot = registers.word(&wave.v, reg, r);
                }
            }
        }
        for (high, neg) in [(false, inst.neg), (true, inst.neg_hi)] {
            let k = 2 * reg + usize::from(high);
            let shift = if high { 16 } else { 0 };
            let negate = neg >> source & 1 == 1;
            for (r, &word) in words.iter().enumerate() {
                let half = (word >> shift) as u16;
                let value = if f16 {
                    table[usize::from(half)]
                } else {
                    f64::from(bf16_to_f32(half))
                };
                put(r, k, if negate { -value } else { value });
            }
        }
    }
}

/// An f64 rounded once to f16, to nearest even: to f32 by rounding to odd
/// (24 bits, more than f16's 11 plus two), then to f16.
fn f64_to_f16(x: f64) -> u16 {
    f32_to_f16(odd32(x))
}

/// An f64 rounded once to bf16 likewise (bf16 has 8 bits); NaN stays a
/// quiet NaN.
fn f64_to_bf16(x: f64) -> u16 {
    let bits = odd32(x).to_bits();
    if x.is_nan() {
        return (bits >> 16) as u16 | 0x40;
    }
    (bits.wrapping_add(0x7fff + (bits >> 16 & 1)) >> 16) as u16
}

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
//! infinity). fp8 is E4M3FNUZ (bias 8) and bf8 E5M2FNUZ (bias 16): no
//! infinities, no negative zero, 0x80 a NaN. EXEC does not mask the
//! instruction.

use crate::exec::error::ExecError;
use crate::exec::float::{f16_to_f32, f32_to_f16, odd32};
use crate::inst::Inst;
use crate::op::{MatrixType, Mfma, Wmma};
use crate::wave::{Wave, Width};

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
        MatrixType::F32 => (f64::from(f32::from_bits(word)), 0),
        MatrixType::Xf32 => (f64::from(f32::from_bits(word & 0xffff_e000)), 0),
        MatrixType::F16 => (f64::from(f16_to_f32((word >> bit) as u16)), 0),
        MatrixType::Bf16 => (f64::from(bf16_to_f32((word >> bit) as u16)), 0),
        MatrixType::I8 => (0.0, i64::from((word >> bit) as u8 as i8)),
        MatrixType::Fp8 => (fnuz8((word >> bit) as u8, 4), 0),
        MatrixType::Bf8 => (fnuz8((word >> bit) as u8, 5), 0),
    }
}

pub(crate) fn run(wave: &mut Wave, inst: &Inst, shape: Mfma) -> Result<(), ExecError> {
    if shape.sparse {
        return sparse(wave, inst, shape);
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
    let f64_out = shape.f64_output();
    let mut out = vec![0u32; shape.output_regs() * 64];
    for block in 0..blocks {
        let a_block = (block >> cbsz << cbsz) + abid;
        let a_block = if a_block < blocks { a_block } else { block };
        let a: Vec<(f64, i64)> = (0..m * kk)
            .map(|x| {
                let at = input_at(shape, shape.a, x / kk, x % kk, a_block);
                element(wave, src_a, shape.a, at)
            })
            .collect();
        let b: Vec<(f64, i64)> = (0..kk * n)
            .map(|x| {
                let (reg, bit, lane) = input_at(shape, shape.b, x % n, x / n, block);
                element(wave, src_b, shape.b, (reg, bit, blgp_lane(lane, blgp)))
            })
            .collect();
        for i in 0..m {
            for j in 0..n {
                let (reg, lane) = output_at(shape, i, j, block);
                let c = wave.src32_at(src_c, reg, lane);
                if f64_out {
                    let c = match src_c {
                        crate::inst::Operand::Vgpr(_) | crate::inst::Operand::Agpr(_) => {
                            f64::from_bits(
                                u64::from(c) | u64::from(wave.vreg(src_c, reg + 1, lane)) << 32,
                            )
                        }
                        _ => f64::from_bits(wave.scalar64(src_c, Width::F64)),
                    };
                    let mut acc = neg_c * c;
                    for k in 0..kk {
                        acc = (neg_a * a[i * kk + k].0).mul_add(neg_b * b[k * n + j].0, acc);
                    }
                    let bits = acc.to_bits();
                    if let Some(slot) = out.get_mut(reg * 64 + lane) {
                        *slot = bits as u32;
                    }
                    if let Some(slot) = out.get_mut((reg + 1) * 64 + lane) {
                        *slot = (bits >> 32) as u32;
                    }
                    continue;
                }
                let value = if shape.int_output() {
                    let mut acc = c as i32;
                    for k in 0..kk {
                        let product = a[i * kk + k].1 * b[k * n + j].1;
                        acc = acc.wrapping_add(product as i32);
                    }
                    acc as u32
                } else {
                    let mut acc = f64::from(f32::from_bits(c));
                    for k in 0..kk {
                        acc += a[i * kk + k].0 * b[k * n + j].0;
                    }
                    (acc as f32).to_bits()
                };
                if let Some(slot) = out.get_mut(reg * 64 + lane) {
                    *slot = value;
                }
            }
        }
    }
    for (r, chunk) in out.chunks_exact(64).enumerate() {
        for (lane, &v) in chunk.iter().enumerate() {
            wave.set_vreg(inst.dst[0], r, lane, v);
        }
    }
    Ok(())
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
    for (r, chunk) in out.chunks_exact(64).enumerate() {
        for (lane, &v) in chunk.iter().enumerate() {
            wave.set_vreg(inst.dst[0], r, lane, v);
        }
    }
    Ok(())
}

/// A bf16's bits as f32 (exact: bf16 is f32's high half).
fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits(u32::from(h) << 16)
}

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
    let a: Vec<(f64, i64)> = (0..256)
        .map(|x| element(inst.src[0], x / 16, x % 16, 0))
        .collect();
    let b: Vec<(f64, i64)> = (0..256)
        .map(|x| element(inst.src[1], x / 16, x % 16, 1))
        .collect();
    let rows_per_reg = lanes / 16;
    let high_half = inst.op_sel & 4 != 0;
    let mut out = vec![(0usize, 0usize, 0u32); 256];
    for i in 0..16 {
        for j in 0..16 {
            let (reg, lane) = (i / rows_per_reg, (16 * i) % lanes + j);
            let c_word = wave.src32_at(inst.src[2], reg, lane);
            let value = if integer {
                let mut acc = i64::from(c_word as i32);
                for k in 0..16 {
                    acc += a[i * 16 + k].1 * b[j * 16 + k].1;
                }
                if inst.clamp {
                    acc.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
                } else {
                    acc as i32 as u32
                }
            } else {
                let c = match kind {
                    Wmma::F16F16 | Wmma::Bf16Bf16 => {
                        let half = if high_half { c_word >> 16 } else { c_word } as u16;
                        if kind == Wmma::F16F16 {
                            f64::from(f16_to_f32(half))
                        } else {
                            f64::from(bf16_to_f32(half))
                        }
                    }
                    _ => f64::from(f32::from_bits(c_word)),
                };
                let c = if inst.neg_hi & 4 != 0 { c.abs() } else { c };
                let mut acc = if inst.neg & 4 != 0 { -c } else { c };
                for k in 0..16 {
                    acc += a[i * 16 + k].0 * b[j * 16 + k].0;
                }
                match kind {
                    Wmma::F16F16 => u32::from(f64_to_f16(acc)),
                    Wmma::Bf16Bf16 => u32::from(f64_to_bf16(acc)),
                    _ => (acc as f32).to_bits(),
                }
            };
            out[i * 16 + j] = (reg, lane, value);
        }
    }
    for (reg, lane, value) in out {
        let value = if kind.half_output() {
            let old = wave.vreg(inst.dst[0], reg, lane);
            if high_half {
                (old & 0xffff) | value << 16
            } else {
                (old & 0xffff_0000) | value
            }
        } else {
            value
        };
        wave.set_vreg(inst.dst[0], reg, lane, value);
    }
    Ok(())
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

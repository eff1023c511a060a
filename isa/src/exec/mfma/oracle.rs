//! The element-by-element form of dense MFMA that `exec::mfma::run`
//! replaced, kept as the oracle of a property test: for every dense shape
//! of the gfx9 tables, random registers, operands (registers, AGPRs,
//! constants, a destination overlapping the sources) and broadcast and
//! negation controls, the two write the same bits, but for NaN payloads
//! (Rust does not say which operand's payload an f64 addition of two NaNs
//! keeps, and the two forms' compiled code may differ in that).

use proptest::prelude::*;

use super::{
    bf16_to_f32, blgp_lane, element, f64_to_bf16, f64_to_f16, input_at, output_at, run as fast,
    wmma,
};
use crate::exec::error::ExecError;
use crate::exec::float::f16_to_f32;
use crate::inst::{Inst, Operand};
use crate::op::{MatrixType, Mfma, Op, Wmma};
use crate::wave::{LANES, VREGS, Wave, Width};

/// The former `exec::mfma::run` for dense shapes, verbatim but for its
/// name and the error path (the property test runs wave64 only).
fn run(wave: &mut Wave, inst: &Inst, shape: Mfma) {
    let (m, n, kk, blocks) = (
        usize::from(shape.m),
        usize::from(shape.n),
        usize::from(shape.k),
        usize::from(shape.blocks),
    );
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
}

/// Every dense MFMA shape the gfx9 tables decode.
fn shapes() -> Vec<Mfma> {
    let table = crate::tables::gfx9::VOP3P.iter().map(|&(_, _, op)| op);
    let overrides = crate::tables::gfx9::GFX90A_OVERRIDES
        .iter()
        .chain(crate::tables::gfx950::GFX950_OVERRIDES)
        .map(|&(_, _, _, op)| op);
    let mut shapes: Vec<Mfma> = table
        .chain(overrides)
        .filter_map(|op| match op {
            // The `f8f6f4` row's formats are resolved by the decoder
            // (`exec::mfma::scaled` has its own tests).
            Some(Op::Mfma(shape)) if !shape.sparse && shape.a != MatrixType::F8f6f4 => Some(shape),
            _ => None,
        })
        .collect();
    shapes.sort_by_key(|s| format!("{s:?}"));
    shapes.dedup();
    shapes
}

/// A register file of varied values from `seed` (xorshift): raw bits, and
/// words whose every 16-bit and 8-bit element is a small float, so that
/// most sums are finite and round.
fn random_wave(seed: u64) -> Wave {
    let mut wave = Wave::new(64, 0);
    let mut x = seed | 1;
    for slot in wave.v.iter_mut() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *slot = match x >> 60 {
            0..=3 => x as u32,
            // Exponents kept small in every element width.
            _ => (x as u32) & 0xbdbd_bdbd,
        };
    }
    wave
}

/// An A, B or C operand: a VGPR, an AGPR or an inline constant (C also a
/// literal).
fn operand(kind: u8, reg: u16, literal: u32) -> Operand {
    match kind % 5 {
        0 | 1 => Operand::Vgpr(reg),
        2 => Operand::Agpr(reg),
        3 => Operand::Inline(128 + (reg % 81) as u8),
        _ => Operand::Literal(literal),
    }
}

fn is_nan32(w: u32) -> bool {
    f32::from_bits(w).is_nan()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    #[test]
    fn dense_mfma_matches_the_element_by_element_form(
        shape in 0usize..64,
        seed in any::<u64>(),
        kinds in any::<[u8; 4]>(),
        regs in any::<[u16; 4]>(),
        literal in any::<u32>(),
        imm in 0i32..1024,
        neg in 0u8..8,
    ) {
        let shapes = shapes();
        let shape = shapes[shape % shapes.len()];
        let mut inst = Inst::new(Op::Mfma(shape), "v_mfma", 0, 8);
        let reg = |i: usize| regs[i] % 256;
        inst.src[0] = operand(kinds[0] % 4, reg(0), literal);
        inst.src[1] = operand(kinds[1] % 4, reg(1), literal);
        inst.src[2] = operand(kinds[2], reg(2), literal);
        inst.dst[0] = operand(kinds[3] % 3, reg(3), literal);
        inst.imm = imm;
        inst.neg = neg;
        same_as_oracle(&inst, shape, seed)?;
    }

    /// The matmuls' form (`exec::mfma::rows16`): no broadcast controls,
    /// A and B in registers, C in registers (often D itself, as compilers
    /// accumulate) or a constant, D anywhere, overlapping the sources or
    /// not, near the end of the file or not.
    #[test]
    fn dense_mfma_without_broadcast_matches_the_element_by_element_form(
        shape in 0usize..64,
        seed in any::<u64>(),
        kinds in any::<[u8; 4]>(),
        regs in any::<[u16; 4]>(),
        literal in any::<u32>(),
        c_is_d in any::<bool>(),
        neg in 0u8..8,
    ) {
        let shapes = shapes();
        let shape = shapes[shape % shapes.len()];
        let mut inst = Inst::new(Op::Mfma(shape), "v_mfma", 0, 8);
        let reg = |i: usize| regs[i] % 256;
        inst.src[0] = operand(kinds[0] % 3, reg(0), literal);
        inst.src[1] = operand(kinds[1] % 3, reg(1), literal);
        inst.dst[0] = operand(kinds[3] % 3, reg(3), literal);
        inst.src[2] = if c_is_d { inst.dst[0] } else { operand(kinds[2], reg(2), literal) };
        inst.neg = neg;
        same_as_oracle(&inst, shape, seed)?;
    }
}

/// Runs `inst` by the element-by-element form and by `exec::mfma::run` on
/// the same random wave; every register the same bits, but for NaN
/// payloads.
fn same_as_oracle(inst: &Inst, shape: Mfma, seed: u64) -> Result<(), TestCaseError> {
    {
        let mut old = random_wave(seed);
        let mut new = random_wave(seed);
        run(&mut old, inst, shape);
        fast(&mut new, inst, shape).unwrap();
        let f64_out = shape.f64_output();
        for r in 0..VREGS {
            for lane in 0..LANES {
                let (a, b) = (old.v[r * LANES + lane], new.v[r * LANES + lane]);
                if a == b {
                    continue;
                }
                let nan = if f64_out {
                    // Either half of an f64: look at the whole pair (the
                    // destination's registers are pairs from its first).
                    let base = match inst.dst[0] {
                        Operand::Agpr(d) => 256 + usize::from(d),
                        Operand::Vgpr(d) => usize::from(d),
                        _ => 0,
                    };
                    let lo = r - (r - base) % 2;
                    let pair = |w: &Wave| {
                        f64::from_bits(
                            u64::from(w.v[lo * LANES + lane])
                                | u64::from(w.v[(lo + 1) * LANES + lane]) << 32,
                        )
                    };
                    pair(&old).is_nan() && pair(&new).is_nan()
                } else {
                    !shape.int_output() && is_nan32(a) && is_nan32(b)
                };
                prop_assert!(
                    nan,
                    "{shape:?} {inst:?}: register {r} lane {lane}: {a:#x} != {b:#x}"
                );
            }
        }
    }
    Ok(())
}

/// The former `exec::mfma::wmma`, verbatim but for its name.
fn wmma_reference(wave: &mut Wave, inst: &Inst, kind: Wmma) -> Result<(), ExecError> {
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

/// Every WMMA kind the gfx11 tables decode.
fn wmma_kinds() -> Vec<Wmma> {
    crate::tables::gfx11::VOP3P
        .iter()
        .filter_map(|&(_, _, op)| match op {
            Some(Op::Wmma(kind)) => Some(kind),
            _ => None,
        })
        .collect()
}

/// Whether two results differ only in a NaN's payload: the words, or each
/// differing 16-bit half, are NaNs both (f32, f16 or bf16).
fn only_nans_differ(a: u32, b: u32) -> bool {
    let half_nan = |h: u32| {
        let h = h & 0xffff;
        (h & 0x7c00 == 0x7c00 && h & 0x3ff != 0) || (h & 0x7f80 == 0x7f80 && h & 0x7f != 0)
    };
    let halves = (0..2).all(|i| {
        let (x, y) = (a >> (16 * i) & 0xffff, b >> (16 * i) & 0xffff);
        x == y || (half_nan(x) && half_nan(y))
    });
    halves || (is_nan32(a) && is_nan32(b))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn wmma_matches_the_element_by_element_form(
        kind in 0usize..16,
        wave64 in any::<bool>(),
        seed in any::<u64>(),
        kinds in any::<[u8; 3]>(),
        regs in any::<[u16; 4]>(),
        literal in any::<u32>(),
        neg in 0u8..8,
        neg_hi in 0u8..8,
        op_sel in 0u8..8,
        clamp in any::<bool>(),
    ) {
        let kinds_all = wmma_kinds();
        let kind = kinds_all[kind % kinds_all.len()];
        let mut inst = Inst::new(Op::Wmma(kind), "v_wmma", 0, 8);
        let reg = |i: usize| regs[i] % 256;
        inst.src[0] = Operand::Vgpr(reg(0));
        inst.src[1] = Operand::Vgpr(reg(1));
        inst.src[2] = operand(if kinds[2] % 5 == 2 { 0 } else { kinds[2] }, reg(2), literal);
        inst.dst[0] = Operand::Vgpr(reg(3));
        inst.neg = neg;
        inst.neg_hi = neg_hi;
        inst.op_sel = op_sel;
        inst.clamp = clamp;
        let lanes = if wave64 { 64 } else { 32 };
        let mut old = random_wave(seed);
        let mut new = random_wave(seed);
        old.lanes = lanes;
        new.lanes = lanes;
        wmma_reference(&mut old, &inst, kind).unwrap();
        wmma(&mut new, &inst, kind).unwrap();
        for (i, (&a, &b)) in old.v.iter().zip(new.v.iter()).enumerate() {
            prop_assert!(
                a == b || only_nans_differ(a, b),
                "{kind:?} {inst:?}: register {} lane {}: {a:#x} != {b:#x}",
                i / LANES,
                i % LANES
            );
        }
    }
}

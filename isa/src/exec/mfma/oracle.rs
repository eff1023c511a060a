//! The element-by-element form of dense MFMA that `exec::mfma::run`
//! replaced, kept as the oracle of a property test: for every dense shape
//! of the gfx9 tables, random registers, operands (registers, AGPRs,
//! constants, a destination overlapping the sources) and broadcast and
//! negation controls, the two write the same bits, but for NaN payloads
//! (Rust does not say which operand's payload an f64 addition of two NaNs
//! keeps, and the two forms' compiled code may differ in that).

use proptest::prelude::*;

use super::{blgp_lane, element, input_at, output_at, run as fast};
use crate::inst::{Inst, Operand};
use crate::op::{Mfma, Op};
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
        .map(|&(_, _, _, op)| op);
    let mut shapes: Vec<Mfma> = table
        .chain(overrides)
        .filter_map(|op| match op {
            Some(Op::Mfma(shape)) if !shape.sparse => Some(shape),
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
        let mut old = random_wave(seed);
        let mut new = random_wave(seed);
        run(&mut old, &inst, shape);
        fast(&mut new, &inst, shape).unwrap();
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
                    let pair = |w: &Wave| f64::from_bits(
                        u64::from(w.v[lo * LANES + lane])
                            | u64::from(w.v[(lo + 1) * LANES + lane]) << 32,
                    );
                    pair(&old).is_nan() && pair(&new).is_nan()
                } else {
                    !shape.int_output() && is_nan32(a) && is_nan32(b)
                };
                prop_assert!(nan, "{shape:?} {inst:?}: register {r} lane {lane}: {a:#x} != {b:#x}");
            }
        }
    }
}

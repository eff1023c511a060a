//! The lane-by-lane form of LDS loads and stores that `exec::lds::run`
//! replaced (a copy of the access's size per lane and address, every
//! register matched per lane), kept as the oracle of a property test: for
//! every load and store of the gfx9 and gfx11 tables, random registers,
//! LDS contents, addresses (in range, across the end, past it), offsets,
//! EXEC masks and destinations (at the vector file's end too), the two
//! leave the same registers and LDS bytes.

use proptest::prelude::*;

use super::{Registers, address, lane_values, read, run as fast, write};
use crate::arch::Chip;
use crate::exec::lanes::active;
use crate::inst::{Inst, Operand};
use crate::op::{Lds, Op};
use crate::wave::{LANES, VREGS, Wave};

/// The former `exec::lds::run` for loads and stores, verbatim but for its
/// name.
fn run(wave: &mut Wave, inst: &Inst, op: Lds, lds: &mut [u8]) {
    let exec = wave.exec();
    let offset0 = inst.imm as u64;
    let offset1 = inst.imm2 as u64;
    let single = offset0 | offset1 << 8;
    match op {
        Lds::Load {
            bytes,
            two,
            st64,
            signed,
            half,
        } => {
            let scale = u64::from(bytes) * if st64 { 64 } else { 1 };
            let bases = lane_values(wave, inst.src[0]);
            let dst = Registers::new(wave, inst.dst[0]);
            for lane in active(exec & wave.lane_mask()) {
                let base = bases[lane];
                let addresses: &[u64] = if two {
                    &[
                        address(base, offset0 * scale),
                        address(base, offset1 * scale),
                    ]
                } else {
                    &[address(base, single)]
                };
                let mut reg = 0;
                for &address in addresses {
                    let mut buf = [0u8; 16];
                    let out = buf.get_mut(..bytes as usize).unwrap_or_default();
                    read(lds, address, out);
                    if bytes < 4 {
                        let v = match (bytes, signed) {
                            (1, true) => buf[0] as i8 as i32 as u32,
                            (1, false) => u32::from(buf[0]),
                            (_, true) => i16::from_le_bytes([buf[0], buf[1]]) as i32 as u32,
                            _ => u32::from(u16::from_le_bytes([buf[0], buf[1]])),
                        };
                        let old = dst.get(&wave.v, reg, lane);
                        let v = match half {
                            0 => (old & 0xffff_0000) | (v & 0xffff),
                            1 => (old & 0xffff) | v << 16,
                            _ => v,
                        };
                        dst.set(&mut wave.v, reg, lane, v);
                        reg += 1;
                        continue;
                    }
                    for chunk in out.chunks_exact(4) {
                        let mut word = [0u8; 4];
                        word.copy_from_slice(chunk);
                        dst.set(&mut wave.v, reg, lane, u32::from_le_bytes(word));
                        reg += 1;
                    }
                }
            }
        }
        Lds::Store {
            bytes,
            two,
            st64,
            high,
        } => {
            let scale = u64::from(bytes) * if st64 { 64 } else { 1 };
            let bases = lane_values(wave, inst.src[0]);
            let data = [
                Registers::new(wave, inst.src[1]),
                Registers::new(wave, inst.src[2]),
            ];
            for lane in active(exec & wave.lane_mask()) {
                let base = bases[lane];
                let pairs: &[(u64, usize)] = if two {
                    &[
                        (address(base, offset0 * scale), 1),
                        (address(base, offset1 * scale), 2),
                    ]
                } else {
                    &[(address(base, single), 1)]
                };
                for &(address, src) in pairs {
                    let mut buf = [0u8; 16];
                    for i in 0..(bytes as usize).div_ceil(4) {
                        let word = data[src - 1].get(&wave.v, i, lane);
                        let word = if high { word >> 16 } else { word };
                        if let Some(slot) = buf.get_mut(4 * i..4 * i + 4) {
                            slot.copy_from_slice(&word.to_le_bytes());
                        }
                    }
                    write(lds, address, buf.get(..bytes as usize).unwrap_or_default());
                }
            }
        }
        _ => {}
    }
}

/// Every LDS load and store the gfx9 and gfx11 tables decode.
fn accesses() -> Vec<(Lds, Chip)> {
    let gfx9 = crate::tables::gfx9::DS
        .iter()
        .map(|&(_, _, op)| (op, Chip::Gfx942));
    let gfx11 = crate::tables::gfx11::DS
        .iter()
        .map(|&(_, _, op)| (op, Chip::Gfx1100));
    gfx9.chain(gfx11)
        .filter_map(|(op, chip)| match op {
            Some(Op::Lds(lds @ (Lds::Load { .. } | Lds::Store { .. }))) => Some((lds, chip)),
            _ => None,
        })
        .collect()
}

/// LDS of this many bytes: small, so that random addresses fall in it,
/// across its end and past it.
const LDS_BYTES: usize = 4096;

fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    #[test]
    fn lds_loads_and_stores_match_the_lane_by_lane_form(
        which in 0usize..1024,
        seed in any::<u64>(),
        exec in any::<u64>(),
        regs in any::<[u16; 4]>(),
        imm in 0i32..256,
        imm2 in 0i32..256,
        wave32 in any::<bool>(),
    ) {
        let all = accesses();
        let (op, _chip) = all[which % all.len()];
        let mut inst = Inst::new(Op::Lds(op), "ds", 0, 8);
        // Registers anywhere in the file, the last few often (an access
        // running past the file's end).
        let reg = |i: usize| {
            let r = regs[i] % 600;
            if r >= 512 { (VREGS - 1 - usize::from(r % 8)) as u16 } else { r % 512 }
        };
        inst.src[0] = Operand::Vgpr(reg(0));
        inst.src[1] = Operand::Vgpr(reg(1));
        inst.src[2] = Operand::Vgpr(reg(2));
        inst.dst[0] = Operand::Vgpr(reg(3));
        inst.imm = imm;
        inst.imm2 = imm2;
        // The same wave and LDS twice, from the seed.
        let make = || {
            let mut x = seed | 1;
            let mut wave = Wave::new(if wave32 { 32 } else { 64 }, 0);
            for slot in wave.v.iter_mut() {
                *slot = xorshift(&mut x) as u32;
            }
            // Addresses: mostly inside LDS, some near or past its end.
            if let Some(base) = wave.vbase(inst.src[0], 0) {
                for lane in 0..LANES {
                    let r = xorshift(&mut x);
                    wave.v[base + lane] = match r % 8 {
                        0 => (LDS_BYTES as u32).wrapping_sub((r >> 8) as u32 % 64),
                        1 => (r >> 8) as u32,
                        _ => (r >> 8) as u32 % LDS_BYTES as u32,
                    };
                }
            }
            wave.set_exec(exec);
            let lds: Vec<u8> = (0..LDS_BYTES).map(|_| xorshift(&mut x) as u8).collect();
            (wave, lds)
        };
        let (mut old, mut old_lds) = make();
        let (mut new, mut new_lds) = make();
        run(&mut old, &inst, op, &mut old_lds);
        fast(&mut new, &inst, op, &mut new_lds, Chip::Gfx942);
        prop_assert!(old_lds == new_lds, "{op:?} {inst:?}: LDS differs");
        for (i, (a, b)) in old.v.iter().zip(new.v.iter()).enumerate() {
            prop_assert!(a == b, "{op:?} {inst:?}: register {} lane {}: {a:#x} != {b:#x}", i / LANES, i % LANES);
        }
    }
}

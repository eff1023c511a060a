//! The lane-by-lane addressing that `exec::memory::Addressing` replaced,
//! kept as the oracle of a property test: for buffer (raw, strided,
//! indexed, the private segment buffer), global (SGPR base or VGPR pair),
//! flat and scratch accesses, random descriptors, registers, offsets and
//! sizes, the two give every lane the same target.

use proptest::prelude::*;

use super::{Addressing, Target, swizzled_scratch};
use crate::exec::error::ExecError;
use crate::inst::{Inst, Operand, flags};
use crate::op::{Op, Segment};
use crate::wave::{SCRATCH_APERTURE, SCRATCH_APERTURE_BYTES, VREGS, Wave, Width};

/// The former `exec::memory::target`, verbatim but for its visibility.
fn target(
    wave: &Wave,
    inst: &Inst,
    segment: Segment,
    lane: usize,
    bytes: u64,
) -> Result<Target, ExecError> {
    let offset = i64::from(inst.imm);
    match segment {
        Segment::Buffer => {
            let Operand::Sreg(r) = inst.src[3] else {
                return Ok(Target::OutOfRange);
            };
            let r = r as usize;
            let d0 = u64::from(wave.sreg(r));
            let d1 = u64::from(wave.sreg(r + 1));
            let base = d0 | (d1 & 0xffff) << 32;
            let stride = (d1 >> 16) & 0x3fff;
            let records = u64::from(wave.sreg(r + 2));
            let soffset = u64::from(wave.scalar32(inst.src[2], Width::B32));
            let vaddr = |i: usize| u64::from(wave.vreg(inst.src[0], i, lane));
            let (index, voffset) = match (inst.has(flags::IDXEN), inst.has(flags::OFFEN)) {
                (true, true) => (vaddr(0), vaddr(1)),
                (true, false) => (vaddr(0), 0),
                (false, true) => (0, vaddr(0)),
                (false, false) => (0, 0),
            };
            // The offset is 32-bit arithmetic: a negative VGPR offset plus
            // the instruction's offset wraps to the byte it names.
            let within = u64::from((voffset as u32).wrapping_add(offset as u32));
            // Dwords of the access inside the range. A raw buffer (stride
            // 0) judges each dword of a multi-dword access on its own, dword
            // `i` inside when `within + 4 * i + 4 <= records`, so those
            // inside are a prefix; a shorter access is judged whole. LLVM
            // relies on it unless told otherwise (its `relaxed-buffer-oob-mode`
            // feature, off by default, is what lets an access be judged with
            // its neighbours), and so do MLIR's amdgpu dialect and IREE for
            // vector loads at a tensor's edge. An access that indexes a
            // buffer with a stride (IDXEN) judges the whole record, its index
            // against the records and its offset against the stride; one
            // that does not is judged as a raw buffer's, whatever the stride
            // (gfx942's cache-swizzled resources carry a cache stride there
            // and are read by offset: isa/tests/buffer_stride.rs).
            let dwords = bytes.div_ceil(4);
            let inside = if stride == 0 || !inst.has(flags::IDXEN) {
                if bytes > 4 {
                    (records.saturating_sub(within) / 4).min(dwords)
                } else if within.saturating_add(bytes) <= records {
                    dwords
                } else {
                    0
                }
            } else if index < records && within < stride {
                dwords
            } else {
                0
            };
            if let Some(private) = base.checked_sub(SCRATCH_APERTURE)
                && private < SCRATCH_APERTURE_BYTES
            {
                let (owner, offset) =
                    swizzled_scratch(private.wrapping_add(soffset), within, lane, wave.lanes);
                return Ok(Target::Scratch(owner, offset));
            }
            let address = base
                .wrapping_add(soffset)
                .wrapping_add(within)
                .wrapping_add(stride.wrapping_mul(index));
            Ok(if inside == dwords {
                Target::Address(address)
            } else if inside == 0 {
                Target::OutOfRange
            } else {
                Target::Clipped(address, inside as u8)
            })
        }
        Segment::Global | Segment::Flat => {
            let address = match inst.src[3] {
                Operand::Sreg(_) => wave
                    .scalar64(inst.src[3], Width::B64)
                    .wrapping_add(u64::from(wave.vreg(inst.src[0], 0, lane))),
                _ => wave.src64(inst.src[0], lane, Width::B64),
            };
            Ok(Target::Address(address.wrapping_add(offset as u64)))
        }
        Segment::Scratch => {
            let mut at = offset as u64;
            if inst.has(flags::SCRATCH_VADDR) {
                at = at.wrapping_add(u64::from(wave.vreg(inst.src[0], 0, lane)));
            }
            if let Operand::Sreg(_) = inst.src[3] {
                at = at.wrapping_add(u64::from(wave.scalar32(inst.src[3], Width::B32)));
            }
            Ok(Target::Scratch(lane, at & 0xffff_ffff))
        }
    }
}

/// A wave of random registers, whose SGPRs `r..r + 4` hold a buffer
/// descriptor: a base in device memory or the private segment, a stride
/// of 0 or not, and a record count near the VGPRs' offsets.
fn random_wave(seed: u64, r: usize, private: bool, stride: u64, records: u32, wild: bool) -> Wave {
    let mut wave = Wave::new(64, 0);
    let mut x = seed | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for slot in wave.v.iter_mut() {
        // Small offsets and indices (some of them any value in a wild
        // wave), so that ranges are crossed.
        let v = next();
        *slot = if wild && v >> 62 == 0 {
            v as u32
        } else {
            (v as u32) % 512
        };
    }
    for i in 0..wave.s.len() {
        let v = next() as u32;
        wave.set_sreg(i, v);
    }
    let base = if private {
        SCRATCH_APERTURE + next() % SCRATCH_APERTURE_BYTES
    } else {
        next() & 0xffff_ffff_ffff
    };
    wave.set_sreg(r, base as u32);
    wave.set_sreg(r + 1, (base >> 32) as u32 | (stride as u32) << 16);
    wave.set_sreg(r + 2, records);
    wave
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6_000))]

    #[test]
    fn addressing_matches_the_lane_by_lane_form(
        seed in any::<u64>(),
        segment in 0usize..4,
        r in 0usize..100,
        private in prop::bool::weighted(0.25),
        stride in prop_oneof![Just(0u64), 0u64..0x4000],
        records in prop_oneof![0u32..2048, any::<u32>()],
        flag_bits in any::<u16>(),
        vaddr in 0u16..260,
        resource in 0u8..6,
        soffset in 0u8..4,
        imm in prop_oneof![0i32..4096, -4096i32..4096, any::<i32>()],
        wild in any::<bool>(),
        edge in proptest::option::of((prop_oneof![Just(64usize), 0usize..64], prop_oneof![Just(0i64), -8i64..8])),
        bytes in prop_oneof![Just(1u64), Just(2), Just(4), Just(8), Just(12), Just(16)],
        lanes in prop_oneof![Just(32usize), Just(64)],
    ) {
        let segment = [Segment::Buffer, Segment::Global, Segment::Flat, Segment::Scratch][segment];
        let mut wave = random_wave(seed, r, private, stride, records, wild);
        wave.lanes = lanes;
        let mut inst = Inst::new(Op::Nop, "memory", 0, 8);
        inst.flags = flag_bits & (flags::IDXEN | flags::OFFEN | flags::SCRATCH_VADDR);
        inst.imm = imm;
        // VADDR: a VGPR (the last ones run past the file), an AGPR or,
        // for global and flat, an SGPR pair or a constant.
        inst.src[0] = match vaddr % 7 {
            5 => Operand::Sreg((vaddr / 4) as u8),
            6 => Operand::Inline(128 + (vaddr % 64) as u8),
            _ if vaddr >= 256 => Operand::Vgpr((VREGS as u16).saturating_sub(1)),
            _ => Operand::Vgpr(vaddr),
        };
        inst.src[2] = match soffset {
            0 => Operand::Sreg(((r + 7) % 100) as u8),
            1 => Operand::Inline(128 + soffset),
            2 => Operand::Literal(seed as u32),
            _ => Operand::Null,
        };
        inst.src[3] = match resource {
            0..=3 => Operand::Sreg(r as u8),
            4 => Operand::Null,
            _ => Operand::None,
        };
        // The records just past, at or just short of one lane's access or
        // the farthest lane's.
        if let (Some((lane, delta)), Operand::Vgpr(v)) = (edge, inst.src[0]) {
            let within = |lane: usize| wave.vreg(Operand::Vgpr(v), 0, lane).wrapping_add(imm as u32);
            let offset = match lane {
                64.. => (0..lanes).map(within).max().unwrap_or(0),
                _ => within(lane % lanes),
            };
            let records = (u64::from(offset) + bytes).saturating_add_signed(delta);
            wave.set_sreg(r + 2, records as u32);
        }
        let addressing = Addressing::new(&wave, &inst, segment, bytes);
        let mut expected = Some(Vec::new());
        for lane in 0..lanes {
            let old = target(&wave, &inst, segment, lane, bytes).unwrap();
            let new = addressing.at(&wave, lane);
            prop_assert_eq!(old, new, "{:?} {:?} lane {}", segment, inst, lane);
            expected = match (expected, old) {
                (Some(mut all), Target::Address(address)) => {
                    all.push(address);
                    Some(all)
                }
                _ => None,
            };
        }
        // Every lane's address at once: all of them exactly when every
        // lane's target is an address.
        let mut out = [0u64; 64];
        let whole = addressing.addresses(&wave, &mut out[..lanes]);
        match expected {
            Some(all) => {
                prop_assert!(whole, "{:?} {:?}", segment, inst);
                prop_assert_eq!(&out[..lanes], &all[..]);
            }
            None => prop_assert!(!whole, "{:?} {:?}", segment, inst),
        }
    }
}

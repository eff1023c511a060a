//! gfx942's sparse matrix instructions (`v_smfmac_*`, all 14): `D += A B`
//! with A 4:2 structured-sparse, held compressed, and a VGPR of
//! compression indices in the third source; against the plain product of
//! the dense logical matrices.
//!
//! The oracle is AMD's matrix instruction calculator
//! (<https://github.com/ROCm/amd_matrix_instruction_calculator>, commit
//! 2ef9189), independent of the interpreter's rule (`isa/src/exec/mfma.rs`,
//! `sparse`): each layout's strings are its text, copied from
//! `python3 matrix_calculator.py --architecture cdna3 --instruction NAME
//! --detail-instruction` ("Matrix element to register mapping with no
//! modifiers", in terms of the dense `k`), and evaluated by the MFMA tests'
//! expression reader (tests/mfma/mod.rs). The calculator's README
//! ("Example of Printing Compression Index Information for a Sparse Matrix
//! Instruction") gives the rest: of each group of four consecutive
//! elements of a row of A, two are held, the first in the low half of the
//! group's place (a register for 16-bit inputs, a 16-bit half for 8-bit
//! ones) and the second in the high half; their positions in the group
//! (0-3) are the two 2-bit fields of the group's index nibble, the first's
//! low; with CBSZ 0, ABID picks the set of indices (8-bit sets for 16-bit
//! inputs, 16-bit sets for 8-bit inputs), and with CBSZ non-zero ABID is
//! ignored. One correction: for the 16-bit forms `--detail-instruction`
//! prints B's GPR as `(k % 4)`, while the calculator's own `--get-register`
//! puts `B[5][3]` of `v_smfmac_f32_16x16x32_f16` at `v2{3}.[31:16]` and
//! `B[8][3]` of `v_smfmac_f32_32x32x16_f16` at `v0{35}.[15:0]`, i.e.
//! `(floor(k / 2) % 4)`, which is used below. The words are `llvm-mc-19
//! --arch=amdgcn --mcpu=gfx942 -show-encoding` of the text, which is also
//! what the interpreter's disassembler must print.
//!
//! The positions of the two held elements of each group and every value
//! are random (seeded); values are small dyadic numbers (fp8/bf8 codes of
//! a bounded exponent), so every sum is exact in f64 and the expected D is
//! D plus the exact sum rounded once to f32 (i32: wrapping).

mod handmade;
mod mfma;

use amdgpu_isa::{Chip, Program, Regions, disassemble};
use mfma::{Rng, T, element, eval, gpr, load, put, store};

/// One calculator layout: A's GPR and lane, the index nibble's GPR and
/// lane, B's GPR and lane, D's GPR and lane.
type Layout = [&'static str; 8];

const F16_16: Layout = [
    "(floor(k / 4) % 2)",
    "16 * floor(k / 8) + i",
    "0.[4*(floor(k / 4) % 2)+3 : 4*(floor(k / 4) % 2)]",
    "16 * floor(k / 8) + i",
    "(floor(k / 2) % 4).[16*(k % 2)+15 : 16*(k % 2)]",
    "16 * floor(k / 8) + j",
    "(i % 4)",
    "16 * floor(i / 4) + j",
];
const F16_32: Layout = [
    "(floor(k / 4) % 2)",
    "32 * floor(k / 8) + i",
    "0.[4*(floor(k / 4) % 2)+3 : 4*(floor(k / 4) % 2)]",
    "32 * floor(k / 8) + i",
    "(floor(k / 2) % 4).[16*(k % 2)+15 : 16*(k % 2)]",
    "32 * floor(k / 8) + j",
    "4 * floor(i / 8) + (i % 4)",
    "(32 * floor(i / 4)) % 64 + j",
];
const I8_16: Layout = [
    "(floor(k / 8) % 2).[16*(floor(k / 4) % 2)+15 : 16*(floor(k / 4) % 2)]",
    "16 * floor(k / 16) + i",
    "0.[4*(floor(k / 4) % 4)+3 : 4*(floor(k / 4) % 4)]",
    "16 * floor(k / 16) + i",
    "(floor(k / 4) % 4).[8*(k % 4)+7 : 8*(k % 4)]",
    "16 * floor(k / 16) + j",
    "(i % 4)",
    "16 * floor(i / 4) + j",
];
const I8_32: Layout = [
    "(floor(k / 8) % 2).[16*(floor(k / 4) % 2)+15 : 16*(floor(k / 4) % 2)]",
    "32 * floor(k / 16) + i",
    "0.[4*(floor(k / 4) % 4)+3 : 4*(floor(k / 4) % 4)]",
    "32 * floor(k / 16) + i",
    "(floor(k / 4) % 4).[8*(k % 4)+7 : 8*(k % 4)]",
    "32 * floor(k / 16) + j",
    "4 * floor(i / 8) + (i % 4)",
    "(32 * floor(i / 4)) % 64 + j",
];

struct Case {
    text: &'static str,
    words: [u32; 2],
    /// M (= N) and the dense K.
    mk: [usize; 2],
    types: [T; 2],
    layout: &'static Layout,
}

/// A in v[8:9], B in v[12:15], the indices in v32, D in v[64:].
const CASES: &[Case] = &[
    Case {
        text: "v_smfmac_f32_16x16x32_f16 v[64:67], v[8:9], v[12:15], v32",
        words: [0xd3e20040, 0x04821908],
        mk: [16, 32],
        types: [T::F16, T::F16],
        layout: &F16_16,
    },
    Case {
        text: "v_smfmac_f32_32x32x16_f16 v[64:79], v[8:9], v[12:15], v32",
        words: [0xd3e40040, 0x04821908],
        mk: [32, 16],
        types: [T::F16, T::F16],
        layout: &F16_32,
    },
    Case {
        text: "v_smfmac_f32_16x16x32_bf16 v[64:67], v[8:9], v[12:15], v32",
        words: [0xd3e60040, 0x04821908],
        mk: [16, 32],
        types: [T::Bf16, T::Bf16],
        layout: &F16_16,
    },
    Case {
        text: "v_smfmac_f32_32x32x16_bf16 v[64:79], v[8:9], v[12:15], v32",
        words: [0xd3e80040, 0x04821908],
        mk: [32, 16],
        types: [T::Bf16, T::Bf16],
        layout: &F16_32,
    },
    Case {
        text: "v_smfmac_i32_16x16x64_i8 v[64:67], v[8:9], v[12:15], v32",
        words: [0xd3ea0040, 0x04821908],
        mk: [16, 64],
        types: [T::I8, T::I8],
        layout: &I8_16,
    },
    Case {
        text: "v_smfmac_i32_32x32x32_i8 v[64:79], v[8:9], v[12:15], v32",
        words: [0xd3ec0040, 0x04821908],
        mk: [32, 32],
        types: [T::I8, T::I8],
        layout: &I8_32,
    },
    Case {
        text: "v_smfmac_f32_16x16x64_bf8_bf8 v[64:67], v[8:9], v[12:15], v32",
        words: [0xd3f80040, 0x04821908],
        mk: [16, 64],
        types: [T::Bf8, T::Bf8],
        layout: &I8_16,
    },
    Case {
        text: "v_smfmac_f32_16x16x64_bf8_fp8 v[64:67], v[8:9], v[12:15], v32",
        words: [0xd3f90040, 0x04821908],
        mk: [16, 64],
        types: [T::Bf8, T::Fp8],
        layout: &I8_16,
    },
    Case {
        text: "v_smfmac_f32_16x16x64_fp8_bf8 v[64:67], v[8:9], v[12:15], v32",
        words: [0xd3fa0040, 0x04821908],
        mk: [16, 64],
        types: [T::Fp8, T::Bf8],
        layout: &I8_16,
    },
    Case {
        text: "v_smfmac_f32_16x16x64_fp8_fp8 v[64:67], v[8:9], v[12:15], v32",
        words: [0xd3fb0040, 0x04821908],
        mk: [16, 64],
        types: [T::Fp8, T::Fp8],
        layout: &I8_16,
    },
    Case {
        text: "v_smfmac_f32_32x32x32_bf8_bf8 v[64:79], v[8:9], v[12:15], v32",
        words: [0xd3fc0040, 0x04821908],
        mk: [32, 32],
        types: [T::Bf8, T::Bf8],
        layout: &I8_32,
    },
    Case {
        text: "v_smfmac_f32_32x32x32_bf8_fp8 v[64:79], v[8:9], v[12:15], v32",
        words: [0xd3fd0040, 0x04821908],
        mk: [32, 32],
        types: [T::Bf8, T::Fp8],
        layout: &I8_32,
    },
    Case {
        text: "v_smfmac_f32_32x32x32_fp8_bf8 v[64:79], v[8:9], v[12:15], v32",
        words: [0xd3fe0040, 0x04821908],
        mk: [32, 32],
        types: [T::Fp8, T::Bf8],
        layout: &I8_32,
    },
    Case {
        text: "v_smfmac_f32_32x32x32_fp8_fp8 v[64:79], v[8:9], v[12:15], v32",
        words: [0xd3ff0040, 0x04821908],
        mk: [32, 32],
        types: [T::Fp8, T::Fp8],
        layout: &I8_32,
    },
];

const A_AT: u64 = 0x10_0000;
const B_AT: u64 = 0x20_0000;
const K_AT: u64 = 0x30_0000;
const D_AT: u64 = 0x40_0000;
/// Lane `l`'s register `r` of each image is dword `32 l + r`.
const LANE_DWORDS: usize = 32;

fn case(mnemonic: &str) -> &'static Case {
    CASES
        .iter()
        .find(|c| c.text.split(' ').next() == Some(mnemonic))
        .unwrap()
}

/// Runs `case`'s instruction as `words` (printed `text`) with CBSZ `cbsz`
/// and ABID `abid` on random inputs, and checks every element of D and
/// the disassembly.
fn check(case: &Case, words: [u32; 2], text: &str, cbsz: u32, abid: u32, seed: u64) {
    check_on(Chip::Gfx942, case, words, text, [cbsz, abid], seed);
}

/// [`check`] on `chip`, with `[cbsz, abid]`.
fn check_on(chip: Chip, case: &Case, words: [u32; 2], text: &str, controls: [u32; 2], seed: u64) {
    let [cbsz, abid] = controls;
    let [m, k] = case.mk;
    let n = m;
    let [ta, tb] = case.types;
    let int = ta == T::I8;
    let d_regs = m * n / 64;
    // Index bits a lane holds: two per held A element; the set ABID picks.
    let set_bits = if ta.bits() == 16 { 8 } else { 16 };
    let set = if cbsz == 0 { abid } else { 0 };
    let mut rng = Rng::new(seed);
    let image = || vec![0u32; 64 * LANE_DWORDS];
    let (mut a_img, mut b_img, mut k_img, mut d_img) = (image(), image(), image(), image());
    // Every index set but the one read holds noise.
    for lane in 0..64 {
        let noise = rng.next() as u32;
        let mask = !(((1u64 << set_bits) - 1) << (set_bits * set)) as u32;
        k_img[lane * LANE_DWORDS] = noise & mask;
    }
    let var = |i: usize, j: usize, kk: usize| [("i", i as i64), ("j", j as i64), ("k", kk as i64)];
    // The dense A: two elements of each group of four, at random places.
    let mut a = vec![0.0; m * k];
    for i in 0..m {
        for group in 0..k / 4 {
            let first = (rng.next() % 3) as usize;
            let second = first + 1 + (rng.next() % (3 - first as u64)) as usize;
            for (slot, place) in [first, second].into_iter().enumerate() {
                let kk = 4 * group + place;
                let v = var(i, 0, kk);
                let (bits, value) = element(ta, &mut rng);
                let (reg, lo, width) = gpr(case.layout[0], &v, 2 * ta.bits());
                let lane = eval(case.layout[1], &v) as usize;
                put(
                    &mut a_img,
                    reg,
                    lo + slot as u32 * width / 2,
                    width / 2,
                    lane,
                    bits,
                );
                a[i * k + kk] = value;
                let (reg, lo, _) = gpr(case.layout[2], &v, 4);
                let lane = eval(case.layout[3], &v) as usize;
                let lo = lo + 2 * slot as u32 + set_bits * set;
                put(&mut k_img, reg, lo, 2, lane, place as u64);
            }
        }
    }
    let mut b = vec![0.0; k * n];
    for kk in 0..k {
        for j in 0..n {
            let v = var(0, j, kk);
            let (bits, value) = element(tb, &mut rng);
            let (reg, lo, width) = gpr(case.layout[4], &v, tb.bits());
            let lane = eval(case.layout[5], &v) as usize;
            put(&mut b_img, reg, lo, width, lane, bits);
            b[kk * n + j] = value;
        }
    }
    let mut d = vec![0.0; m * n];
    let mut d_int = vec![0i32; m * n];
    for i in 0..m {
        for j in 0..n {
            let v = var(i, j, 0);
            let reg = eval(case.layout[6], &v) as usize;
            let lane = eval(case.layout[7], &v) as usize;
            d_img[lane * LANE_DWORDS + reg] = if int {
                // Near the ends of i32, so that sums wrap.
                let near = (rng.next() % 300_000) as i32;
                d_int[i * n + j] = if rng.next().is_multiple_of(2) {
                    i32::MAX - near
                } else {
                    i32::MIN + near
                };
                d_int[i * n + j] as u32
            } else {
                d[i * n + j] = rng.int(256) as f64 / 4.0;
                (d[i * n + j] as f32).to_bits()
            };
        }
    }

    // v1 = 128 * lane; A, B, the indices and D loaded, the instruction, D
    // stored back over its input.
    let mut code = vec![0x2402_0087]; // v_lshlrev_b32_e32 v1, 7, v0
    for r in 0..2 {
        code.extend(load(8 + r, 0, r));
    }
    for r in 0..4 {
        code.extend(load(12 + r, 2, r));
    }
    code.extend(load(32, 4, 0));
    for r in 0..d_regs {
        code.extend(load(64 + r, 6, r));
    }
    code.push(0xbf8c_0f70); // s_waitcnt vmcnt(0)
    code.extend(words);
    for r in 0..d_regs {
        code.extend(store(64 + r, r));
    }
    code.push(0xbf81_0000); // s_endpgm
    let program =
        Program::decode(chip, &handmade::bytes(&code)).unwrap_or_else(|e| panic!("{text}: {e}"));
    let printed = program
        .instructions()
        .iter()
        .find(|inst| inst.mnemonic.starts_with("v_smfmac"))
        .map(|inst| disassemble(inst, chip))
        .unwrap();
    assert_eq!(printed, text, "the disassembly");
    let to_bytes = |img: &[u32]| {
        img.iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let mut memory = Regions::new(vec![
        (A_AT, to_bytes(&a_img)),
        (B_AT, to_bytes(&b_img)),
        (K_AT, to_bytes(&k_img)),
        (D_AT, to_bytes(&d_img)),
    ]);
    let mut user = Vec::new();
    for at in [A_AT, B_AT, K_AT, D_AT] {
        user.extend([at as u32, (at >> 32) as u32]);
    }
    handmade::run(&program, &user, 64, &mut memory).unwrap_or_else(|e| panic!("{text}: {e}"));
    let out: Vec<u32> = memory
        .bytes(D_AT)
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    for i in 0..m {
        for j in 0..n {
            let v = var(i, j, 0);
            let reg = eval(case.layout[6], &v) as usize;
            let lane = eval(case.layout[7], &v) as usize;
            let want = if int {
                (0..k).fold(d_int[i * n + j], |acc, kk| {
                    acc.wrapping_add((a[i * k + kk] * b[kk * n + j]) as i32)
                }) as u32
            } else {
                let sum = (0..k).fold(d[i * n + j], |acc, kk| acc + a[i * k + kk] * b[kk * n + j]);
                (sum as f32).to_bits()
            };
            assert_eq!(
                out[lane * LANE_DWORDS + reg],
                want,
                "{text}: D[{i}][{j}] (v{} lane {lane})",
                64 + reg
            );
        }
    }
}

#[test]
fn every_smfmac_matches_the_plain_product_of_the_dense_matrices() {
    for (seed, case) in CASES.iter().enumerate() {
        check(case, case.words, case.text, 0, 0, seed as u64 + 1);
    }
}

/// gfx950 runs gfx942's fp8/bf8 sparse forms (the same words: `llvm-mc-22
/// --mcpu=gfx950 -show-encoding` of the same text) on OCP's E4M3FN and
/// E5M2 (tests/mfma/mod.rs's `ocp` values).
#[test]
fn gfx950_runs_the_eight_bit_float_smfmac_on_ocp_formats() {
    let ocp = |t: T| match t {
        T::Fp8 => T::OcpFp8,
        T::Bf8 => T::OcpBf8,
        t => t,
    };
    let mut n = 0;
    for (seed, case) in CASES.iter().enumerate() {
        if !matches!(case.types[0], T::Fp8 | T::Bf8) {
            continue;
        }
        let gfx950 = Case {
            types: case.types.map(ocp),
            ..*case
        };
        check_on(
            Chip::Gfx950,
            &gfx950,
            gfx950.words,
            gfx950.text,
            [0, 0],
            seed as u64 + 950,
        );
        n += 1;
    }
    assert_eq!(n, 8);
}

#[test]
fn abid_picks_the_index_set_unless_cbsz_is_set() {
    // llvm-mc-19 -show-encoding of each text.
    let runs: [(&str, [u32; 2], &str, u32, u32); 5] = [
        (
            "v_smfmac_f32_16x16x32_f16",
            [0xd3e20840, 0x04821908],
            "v_smfmac_f32_16x16x32_f16 v[64:67], v[8:9], v[12:15], v32 abid:1",
            0,
            1,
        ),
        (
            "v_smfmac_f32_16x16x32_f16",
            [0xd3e21840, 0x04821908],
            "v_smfmac_f32_16x16x32_f16 v[64:67], v[8:9], v[12:15], v32 abid:3",
            0,
            3,
        ),
        (
            "v_smfmac_f32_16x16x32_f16",
            [0xd3e21a40, 0x04821908],
            "v_smfmac_f32_16x16x32_f16 v[64:67], v[8:9], v[12:15], v32 cbsz:2 abid:3",
            2,
            3,
        ),
        (
            "v_smfmac_i32_32x32x32_i8",
            [0xd3ec0840, 0x04821908],
            "v_smfmac_i32_32x32x32_i8 v[64:79], v[8:9], v[12:15], v32 abid:1",
            0,
            1,
        ),
        (
            "v_smfmac_f32_32x32x32_fp8_bf8",
            [0xd3fe0940, 0x04821908],
            "v_smfmac_f32_32x32x32_fp8_bf8 v[64:79], v[8:9], v[12:15], v32 cbsz:1 abid:1",
            1,
            1,
        ),
    ];
    for (seed, (name, words, text, cbsz, abid)) in runs.into_iter().enumerate() {
        check(case(name), words, text, cbsz, abid, 100 + seed as u64);
    }
}

#[test]
fn the_index_register_stays_a_vgpr_when_a_b_c_and_d_are_agprs() {
    // `v_smfmac_f32_16x16x32_bf16 a[64:67], a[8:9], a[12:15], v32`.
    let words = [0xd3e68040u32, 0x1c821908, 0xbf81_0000];
    let program = Program::decode(Chip::Gfx942, &handmade::bytes(&words)).unwrap();
    let inst = &program.instructions()[0];
    assert_eq!(
        disassemble(inst, Chip::Gfx942),
        "v_smfmac_f32_16x16x32_bf16 a[64:67], a[8:9], a[12:15], v32"
    );
}

#[test]
fn an_abid_past_the_index_sets_or_a_blgp_fails_to_decode_naming_it() {
    // abid:4 of a 16-bit form (four sets), abid:2 of an 8-bit one (two),
    // and blgp:1: fields llvm-mc-19 does not assemble, set by hand in the
    // words of `v_smfmac_f32_16x16x32_f16` and `_i32_16x16x64_i8` above.
    for (words, field) in [
        ([0xd3e22040u32, 0x04821908], "abid:4"),
        ([0xd3ea1040, 0x04821908], "abid:2"),
        ([0xd3e20040, 0x24821908], "blgp:1"),
    ] {
        let code = [words[0], words[1], 0xbf81_0000];
        let error = Program::decode(Chip::Gfx942, &handmade::bytes(&code))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains(field), "{field}: {error:?}");
    }
}

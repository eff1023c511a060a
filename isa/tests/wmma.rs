//! RDNA3's WMMA (`v_wmma_*_16x16x16_*`) of every input and result type,
//! in wave32 and wave64: f32 results from f16 or bf16, f16 and bf16 results
//! (the half of each register `op_sel[2]` picks), i32 results from 8-bit
//! and 4-bit integers (signed or not by `neg_lo`, clamp saturating); float
//! negations by `neg_lo`/`neg_hi`. Each against a plain matrix product
//! over the layout AMD's matrix instruction calculator prints for it (the
//! formulas are the calculator's text, `python3 matrix_calculator.py
//! --architecture rdna3 --instruction NAME --detail-instruction
//! --wavefront 32|64`, evaluated by tests/mfma/mod.rs's reader), with the
//! modifiers as its README defines them ("OPSEL", "NEG"); words from
//! `llvm-mc-19 --arch=amdgcn --mcpu=gfx1100 -show-encoding` (wave64:
//! `-mattr=+wavefrontsize64`) of `text`. Inputs keep every sum exact in the
//! result type, so the expected D does not depend on the order of
//! accumulation; one test checks the single rounding to f16.

mod handmade;
mod mfma;

use amdgpu_isa::{Chip, Program, Regions, disassemble};
use mfma::{Rng, eval, f16_bits, gpr};

#[derive(Clone, Copy, PartialEq, Debug)]
enum In {
    F16,
    Bf16,
    Iu8,
    Iu4,
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Out {
    F32,
    F16,
    Bf16,
    I32,
}

struct Case {
    wave: usize,
    text: &'static str,
    words: [u32; 2],
    kind: (In, Out),
    /// Registers per lane of A (and B), of C (and D).
    regs: [usize; 2],
    /// The calculator's formulas: A GPR, A lanes, B GPR, B lanes, C/D GPR,
    /// C/D lane.
    layout: [&'static str; 6],
}

/// A in v[8:], B in v[16:], C in v[32:], D in v[64:].
const CASES: &[Case] = &[
    Case {
        wave: 32,
        text: "v_wmma_f32_16x16x16_f16 v[64:71], v[8:15], v[16:23], v[32:39]",
        words: [0xcc404040, 0x1c822108],
        kind: (In::F16, Out::F32),
        regs: [8, 8],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "i and i+16",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "j and j+16",
            "floor(i / 2)",
            "((16 * i) % 32) + j",
        ],
    },
    Case {
        wave: 32,
        text: "v_wmma_f32_16x16x16_bf16 v[64:71], v[8:15], v[16:23], v[32:39]",
        words: [0xcc414040, 0x1c822108],
        kind: (In::Bf16, Out::F32),
        regs: [8, 8],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "i and i+16",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "j and j+16",
            "floor(i / 2)",
            "((16 * i) % 32) + j",
        ],
    },
    Case {
        wave: 32,
        text: "v_wmma_f16_16x16x16_f16 v[64:71], v[8:15], v[16:23], v[32:39]",
        words: [0xcc424040, 0x1c822108],
        kind: (In::F16, Out::F16),
        regs: [8, 8],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "i and i+16",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "j and j+16",
            "(floor(i / 2)).[15:0]",
            "((16 * i) % 32) + j",
        ],
    },
    Case {
        wave: 32,
        text: "v_wmma_bf16_16x16x16_bf16 v[64:71], v[8:15], v[16:23], v[32:39]",
        words: [0xcc434040, 0x1c822108],
        kind: (In::Bf16, Out::Bf16),
        regs: [8, 8],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "i and i+16",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "j and j+16",
            "(floor(i / 2)).[15:0]",
            "((16 * i) % 32) + j",
        ],
    },
    Case {
        wave: 32,
        text: "v_wmma_i32_16x16x16_iu8 v[64:71], v[8:11], v[16:19], v[32:39]",
        words: [0xcc444040, 0x1c822108],
        kind: (In::Iu8, Out::I32),
        regs: [4, 8],
        layout: [
            "floor(k / 4).[8*(k % 4)+7 : 8*(k % 4)]",
            "i and i+16",
            "floor(k / 4).[8*(k % 4)+7 : 8*(k % 4)]",
            "j and j+16",
            "floor(i / 2)",
            "((16 * i) % 32) + j",
        ],
    },
    Case {
        wave: 32,
        text: "v_wmma_i32_16x16x16_iu4 v[64:71], v[8:9], v[16:17], v[32:39]",
        words: [0xcc454040, 0x1c822108],
        kind: (In::Iu4, Out::I32),
        regs: [2, 8],
        layout: [
            "floor(k / 8).[4*(k % 8)+3 : 4*(k % 8)]",
            "i and i+16",
            "floor(k / 8).[4*(k % 8)+3 : 4*(k % 8)]",
            "j and j+16",
            "floor(i / 2)",
            "((16 * i) % 32) + j",
        ],
    },
    Case {
        wave: 64,
        text: "v_wmma_f32_16x16x16_f16 v[64:67], v[8:15], v[16:23], v[32:35]",
        words: [0xcc404040, 0x1c822108],
        kind: (In::F16, Out::F32),
        regs: [8, 4],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "i, i+16, i+32, and i+48",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "j, j+16, j+32, and j+48",
            "floor(i / 4)",
            "((16 * i) % 64) + j",
        ],
    },
    Case {
        wave: 64,
        text: "v_wmma_f32_16x16x16_bf16 v[64:67], v[8:15], v[16:23], v[32:35]",
        words: [0xcc414040, 0x1c822108],
        kind: (In::Bf16, Out::F32),
        regs: [8, 4],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "i, i+16, i+32, and i+48",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "j, j+16, j+32, and j+48",
            "floor(i / 4)",
            "((16 * i) % 64) + j",
        ],
    },
    Case {
        wave: 64,
        text: "v_wmma_f16_16x16x16_f16 v[64:67], v[8:15], v[16:23], v[32:35]",
        words: [0xcc424040, 0x1c822108],
        kind: (In::F16, Out::F16),
        regs: [8, 4],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "i, i+16, i+32, and i+48",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "j, j+16, j+32, and j+48",
            "(floor(i / 4)).[15:0]",
            "((16 * i) % 64) + j",
        ],
    },
    Case {
        wave: 64,
        text: "v_wmma_bf16_16x16x16_bf16 v[64:67], v[8:15], v[16:23], v[32:35]",
        words: [0xcc434040, 0x1c822108],
        kind: (In::Bf16, Out::Bf16),
        regs: [8, 4],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "i, i+16, i+32, and i+48",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "j, j+16, j+32, and j+48",
            "(floor(i / 4)).[15:0]",
            "((16 * i) % 64) + j",
        ],
    },
    Case {
        wave: 64,
        text: "v_wmma_i32_16x16x16_iu8 v[64:67], v[8:11], v[16:19], v[32:35]",
        words: [0xcc444040, 0x1c822108],
        kind: (In::Iu8, Out::I32),
        regs: [4, 4],
        layout: [
            "floor(k / 4).[8*(k % 4)+7 : 8*(k % 4)]",
            "i, i+16, i+32, and i+48",
            "floor(k / 4).[8*(k % 4)+7 : 8*(k % 4)]",
            "j, j+16, j+32, and j+48",
            "floor(i / 4)",
            "((16 * i) % 64) + j",
        ],
    },
    Case {
        wave: 64,
        text: "v_wmma_i32_16x16x16_iu4 v[64:67], v[8:9], v[16:17], v[32:35]",
        words: [0xcc454040, 0x1c822108],
        kind: (In::Iu4, Out::I32),
        regs: [2, 4],
        layout: [
            "floor(k / 8).[4*(k % 8)+3 : 4*(k % 8)]",
            "i, i+16, i+32, and i+48",
            "floor(k / 8).[4*(k % 8)+3 : 4*(k % 8)]",
            "j, j+16, j+32, and j+48",
            "floor(i / 4)",
            "((16 * i) % 64) + j",
        ],
    },
];

fn case(wave: usize, mnemonic: &str) -> &'static Case {
    CASES
        .iter()
        .find(|c| c.wave == wave && c.text.split(' ').next() == Some(mnemonic))
        .unwrap()
}

/// The calculator's lane lists: `i and i+16`, `i, i+16, i+32, and i+48`.
fn lane_list(text: &str, vars: &[(&str, i64)]) -> Vec<usize> {
    text.replace(", and ", ",")
        .replace(" and ", ",")
        .split(',')
        .map(|l| eval(l, vars) as usize)
        .collect()
}

const LANE_DWORDS: usize = 32;
const AT: [u64; 4] = [0x10_0000, 0x20_0000, 0x30_0000, 0x40_0000];

/// Loads A, B and C (lane `l`'s register `r` at dword `32 l + r` of each
/// image), runs `words`, returns D's image.
fn run(case: &Case, words: &[u32], images: [&[u32]; 3]) -> Vec<u32> {
    // global_load_b32 v9, v1, s[2:3] offset:4 is [0x04,0x00,0x52,0xdc,
    // 0x01,0x00,0x02,0x09]; global_store_b32 v1, v65, s[6:7] offset:8 is
    // [0x08,0x00,0x6a,0xdc,0x01,0x41,0x06,0x00].
    let load = |reg: usize, pair: u32, i: usize| {
        [
            0xdc52_0000 | (4 * i as u32),
            (reg as u32) << 24 | pair << 16 | 1,
        ]
    };
    let mut code = vec![0x3002_0087]; // v_lshlrev_b32_e32 v1, 7, v0
    for r in 0..case.regs[0] {
        code.extend(load(8 + r, 0, r));
        code.extend(load(16 + r, 2, r));
    }
    for r in 0..case.regs[1] {
        code.extend(load(32 + r, 4, r));
    }
    code.push(0xbf89_03f7); // s_waitcnt vmcnt(0)
    code.extend(words);
    for r in 0..case.regs[1] {
        code.extend([
            0xdc6a_0000 | (4 * r as u32),
            6 << 16 | (64 + r as u32) << 8 | 1,
        ]);
    }
    code.push(0xbfb0_0000); // s_endpgm
    let program = Program::decode(Chip::Gfx1100, &handmade::bytes(&code))
        .unwrap_or_else(|e| panic!("{}: {e}", case.text));
    let to_bytes = |img: &[u32]| {
        img.iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let mut regions: Vec<(u64, Vec<u8>)> = images
        .iter()
        .zip(AT)
        .map(|(img, at)| (at, to_bytes(img)))
        .collect();
    regions.push((AT[3], vec![0; 64 * LANE_DWORDS * 4]));
    let mut memory = Regions::new(regions);
    let mut user = Vec::new();
    for at in AT {
        user.extend([at as u32, (at >> 32) as u32]);
    }
    // One wave of `case.wave` lanes (the descriptor's wave32 bit set for
    // gfx1100 by the harness; wave64 through its own descriptor).
    let dispatch = amdgpu_isa::Dispatch {
        program: &program,
        descriptor: handmade::descriptor(user.len(), case.wave == 32),
        grid_size: [case.wave as u32, 1, 1],
        block: [case.wave as u32, 1, 1],
        dynamic_lds: 0,
        inputs: amdgpu_isa::Inputs::UserData(&user),
        instruction_limit: amdgpu_isa::MAX_WAVE_INSTRUCTIONS,
    };
    amdgpu_isa::run_dispatch(&dispatch, &mut memory)
        .unwrap_or_else(|e| panic!("{}: {e}", case.text));
    memory
        .bytes(AT[3])
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Modifiers of a run: `neg_lo`, `neg_hi` (3 bits each), `op_sel[2]`,
/// clamp.
#[derive(Clone, Copy, Default)]
struct Mods {
    neg: u8,
    neg_hi: u8,
    high: bool,
    clamp: bool,
}

fn put(image: &mut [u32], reg: usize, lo: u32, width: u32, lane: usize, bits: u32) {
    let at = lane * LANE_DWORDS + reg;
    let mask = if width == 32 {
        u32::MAX
    } else {
        ((1u32 << width) - 1) << lo
    };
    image[at] = (image[at] & !mask) | (bits << lo & mask);
}

/// Random inputs by the layout, the instruction run, D checked.
fn check(case: &Case, words: &[u32], text: &str, mods: Mods, seed: u64) {
    let (input, out) = case.kind;
    let mut rng = Rng::new(seed);
    let bits = match input {
        In::F16 | In::Bf16 => 16,
        In::Iu8 => 8,
        In::Iu4 => 4,
    };
    let var = |i: usize, j: usize, k: usize| [("i", i as i64), ("j", j as i64), ("k", k as i64)];
    let image = || vec![0u32; 64 * LANE_DWORDS];
    let (mut a_img, mut b_img, mut c_img) = (image(), image(), image());
    let mut a = [[0f64; 16]; 16];
    let mut b = [[0f64; 16]; 16];
    let mut ai = [[0i64; 16]; 16];
    let mut bi = [[0i64; 16]; 16];
    let mut c = [[0f64; 16]; 16];
    let mut ci = [[0i64; 16]; 16];
    // An element's bits and values (float, integer) for source `s`.
    let element = |s: u8, lo: u32, rng: &mut Rng| -> (u32, f64, i64) {
        let negate = if lo == 0 { mods.neg } else { mods.neg_hi } >> s & 1 == 1;
        let sign = if negate { -1.0 } else { 1.0 };
        match input {
            In::F16 => {
                let v = rng.int(8) as f32 / 2.0;
                (u32::from(f16_bits(v)), sign * f64::from(v), 0)
            }
            In::Bf16 => {
                let v = rng.int(3) as f32;
                (v.to_bits() >> 16, sign * f64::from(v), 0)
            }
            In::Iu8 | In::Iu4 => {
                let raw = (rng.next() as u32) & ((1 << bits) - 1);
                let signed = mods.neg >> s & 1 == 1;
                let value = if signed && raw >> (bits - 1) == 1 {
                    i64::from(raw) - (1 << bits)
                } else {
                    i64::from(raw)
                };
                (raw, 0.0, value)
            }
        }
    };
    for i in 0..16 {
        for k in 0..16 {
            let v = var(i, 0, k);
            let (reg, lo, width) = gpr(case.layout[0], &v, bits);
            let (raw, f, n) = element(0, lo, &mut rng);
            for lane in lane_list(case.layout[1], &v) {
                put(&mut a_img, reg, lo, width.min(bits), lane, raw);
            }
            (a[i][k], ai[i][k]) = (f, n);
        }
    }
    for k in 0..16 {
        for j in 0..16 {
            let v = var(0, j, k);
            let (reg, lo, width) = gpr(case.layout[2], &v, bits);
            let (raw, f, n) = element(1, lo, &mut rng);
            for lane in lane_list(case.layout[3], &v) {
                put(&mut b_img, reg, lo, width.min(bits), lane, raw);
            }
            (b[k][j], bi[k][j]) = (f, n);
        }
    }
    let out_bits = match out {
        Out::F16 | Out::Bf16 => 16,
        _ => 32,
    };
    let shift = if mods.high { 16 } else { 0 };
    for i in 0..16 {
        for j in 0..16 {
            let v = var(i, j, 0);
            let (reg, lo, _) = gpr(case.layout[4], &v, out_bits);
            let lane = eval(case.layout[5], &v) as usize;
            let raw = match out {
                Out::F32 => {
                    c[i][j] = rng.int(256) as f64 / 4.0;
                    (c[i][j] as f32).to_bits()
                }
                Out::F16 => {
                    c[i][j] = rng.int(128) as f64 / 2.0;
                    u32::from(f16_bits(c[i][j] as f32))
                }
                Out::Bf16 => {
                    c[i][j] = rng.int(16) as f64;
                    (c[i][j] as f32).to_bits() >> 16
                }
                Out::I32 => {
                    let near = (rng.next() % 2000) as i64;
                    ci[i][j] = if rng.next().is_multiple_of(2) {
                        i64::from(i32::MAX) - near
                    } else {
                        i64::from(i32::MIN) + near
                    };
                    ci[i][j] as i32 as u32
                }
            };
            // The other half of a 16-bit C holds junk the instruction must
            // not read.
            let junk = if out_bits == 16 {
                0x5555 << (16 - shift)
            } else {
                0
            };
            put(&mut c_img, reg, lo + shift, out_bits, lane, raw);
            c_img[lane * LANE_DWORDS + reg] |= junk;
        }
    }
    if case.wave == 32 {
        let code = handmade::bytes(words);
        let program = Program::decode(Chip::Gfx1100, &code).unwrap();
        let printed = disassemble(&program.instructions()[0], Chip::Gfx1100);
        assert_eq!(printed, text, "the disassembly");
    }
    let d = run(case, words, [&a_img, &b_img, &c_img]);
    let mut checked = 0;
    for i in 0..16 {
        for j in 0..16 {
            let v = var(i, j, 0);
            let (reg, lo, _) = gpr(case.layout[4], &v, out_bits);
            let lane = eval(case.layout[5], &v) as usize;
            let word = d[lane * LANE_DWORDS + reg];
            let (got, want) = if out == Out::I32 {
                let mut acc = ci[i][j];
                for k in 0..16 {
                    acc += ai[i][k] * bi[k][j];
                }
                let acc = if mods.clamp {
                    acc.clamp(i64::from(i32::MIN), i64::from(i32::MAX))
                } else {
                    acc
                };
                (word, acc as i32 as u32)
            } else {
                let mut cv = c[i][j];
                if mods.neg_hi >> 2 & 1 == 1 {
                    cv = cv.abs();
                }
                if mods.neg >> 2 & 1 == 1 {
                    cv = -cv;
                }
                let mut acc = cv;
                for k in 0..16 {
                    acc += a[i][k] * b[k][j];
                }
                match out {
                    Out::F32 => (word, (acc as f32).to_bits()),
                    Out::F16 => {
                        assert_eq!(word >> (16 - shift) & 0xffff, 0, "the other half of D");
                        (
                            word >> (lo + shift) & 0xffff,
                            u32::from(f16_bits(acc as f32)),
                        )
                    }
                    _ => {
                        assert_eq!(word >> (16 - shift) & 0xffff, 0, "the other half of D");
                        (word >> (lo + shift) & 0xffff, (acc as f32).to_bits() >> 16)
                    }
                }
            };
            assert_eq!(
                got,
                want,
                "{text} wave{}: D[{i}][{j}] (v{} lane {lane})",
                case.wave,
                64 + reg
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 256);
}

#[test]
fn wmma_of_every_type_matches_the_plain_product_in_wave32_and_wave64() {
    for (seed, c) in CASES.iter().enumerate() {
        check(c, &c.words, c.text, Mods::default(), seed as u64 + 1);
    }
}

#[test]
fn integer_wmma_signedness_by_neg_lo_and_clamp() {
    for (mnemonic, words, text, mods) in [
        (
            "v_wmma_i32_16x16x16_iu8",
            [0xcc44_c040, 0x7c82_2108],
            "v_wmma_i32_16x16x16_iu8 v[64:71], v[8:11], v[16:19], v[32:39] neg_lo:[1,1,0] clamp",
            Mods {
                neg: 3,
                clamp: true,
                ..Mods::default()
            },
        ),
        (
            "v_wmma_i32_16x16x16_iu8",
            [0xcc44_4040, 0x5c82_2108],
            "v_wmma_i32_16x16x16_iu8 v[64:71], v[8:11], v[16:19], v[32:39] neg_lo:[0,1,0]",
            Mods {
                neg: 2,
                ..Mods::default()
            },
        ),
        (
            "v_wmma_i32_16x16x16_iu4",
            [0xcc45_4040, 0x3c82_2108],
            "v_wmma_i32_16x16x16_iu4 v[64:71], v[8:9], v[16:17], v[32:39] neg_lo:[1,0,0]",
            Mods {
                neg: 1,
                ..Mods::default()
            },
        ),
    ] {
        for seed in 0..3 {
            check(case(32, mnemonic), &words, text, mods, 100 + seed);
        }
    }
}

#[test]
fn sixteen_bit_results_go_to_the_half_op_sel_picks_and_float_inputs_negate() {
    for (mnemonic, words, text, mods) in [
        (
            "v_wmma_f16_16x16x16_f16",
            [0xcc42_6040, 0x1c82_2108],
            "v_wmma_f16_16x16x16_f16 v[64:71], v[8:15], v[16:23], v[32:39] op_sel:[0,0,1]",
            Mods {
                high: true,
                ..Mods::default()
            },
        ),
        (
            "v_wmma_bf16_16x16x16_bf16",
            [0xcc43_6640, 0xbc82_2108],
            "v_wmma_bf16_16x16x16_bf16 v[64:71], v[8:15], v[16:23], v[32:39] op_sel:[0,0,1] \
             neg_lo:[1,0,1] neg_hi:[0,1,1]",
            Mods {
                neg: 5,
                neg_hi: 6,
                high: true,
                ..Mods::default()
            },
        ),
        (
            "v_wmma_f32_16x16x16_f16",
            [0xcc40_4640, 0xbc82_2108],
            "v_wmma_f32_16x16x16_f16 v[64:71], v[8:15], v[16:23], v[32:39] neg_lo:[1,0,1] \
             neg_hi:[0,1,1]",
            Mods {
                neg: 5,
                neg_hi: 6,
                ..Mods::default()
            },
        ),
    ] {
        check(case(32, mnemonic), &words, text, mods, 200);
    }
}

#[test]
fn f16_wmma_rounds_once() {
    // C[0][0] = 2048, A[0][0] = B[0][0] = 1, A[0][1] = B[1][0] = 2^-10:
    // 2049 + 2^-20, just above the tie between f16's 2048 and 2050: 2050
    // (0x6801). Rounding to f32 first would give 2049, then the even 2048.
    let c = case(32, "v_wmma_f16_16x16x16_f16");
    let mut images = [
        vec![0u32; 64 * LANE_DWORDS],
        vec![0u32; 64 * LANE_DWORDS],
        vec![0u32; 64 * LANE_DWORDS],
    ];
    // A[0][k]: lanes 0 and 16, register k / 2, half k % 2 (the
    // calculator's layout); B[k][0] likewise in lanes 0 and 16.
    for lane in [0, 16] {
        images[0][lane * LANE_DWORDS] = 0x1400_3c00;
        images[1][lane * LANE_DWORDS] = 0x1400_3c00;
    }
    // C[0][0]: register 0, lane 0, low half.
    images[2][0] = 0x6800;
    let d = run(c, &c.words, [&images[0], &images[1], &images[2]]);
    assert_eq!(d[0] & 0xffff, 0x6801);
}

#[test]
fn wmma_modifiers_the_calculator_does_not_define_fail_to_decode_by_name() {
    for (words, what) in [
        // iu8 neg_hi:[1,0,0] (the calculator: NEG_HI must be 0 on integers).
        ([0xcc44_4140u32, 0x1c82_2108u32], "neg_lo[2]/neg_hi"),
        // iu8 neg_lo:[0,0,1].
        ([0xcc44_4040, 0x9c82_2108], "neg_lo[2]/neg_hi"),
        // f16 op_sel:[1,0,0] (only OPSEL[2] exists).
        ([0xcc42_4840, 0x1c82_2108], "op_sel"),
        // f32 results with op_sel[2] (no 16-bit halves).
        ([0xcc40_6040, 0x1c82_2108], "op_sel"),
    ] {
        let err = Program::decode(Chip::Gfx1100, &handmade::bytes(&words))
            .err()
            .unwrap_or_else(|| panic!("{words:x?} decoded"))
            .to_string();
        assert!(err.contains("WMMA modifier") && err.contains(what), "{err}");
    }
}

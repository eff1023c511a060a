//! RDNA4's WMMA (`v_wmma_*_16x16x16_*` on gfx1201, wave32) of every type
//! the interpreter executes, against a plain matrix product computed here.
//! The tiles are laid out in the registers as AMD's RDNA4 instruction set
//! guide lays them out ("Wave Matrix Multiply Accumulate": every element
//! held once, lane `l` holding row `l % 16` of A and column `l % 16` of B,
//! lanes 0-15 the elements K = 0-7 and lanes 16-31 K = 8-15, packed low
//! bits first; D holding column `l % 16`, lanes 0-15 rows 0-7 and lanes
//! 16-31 rows 8-15, one row a register or two 16-bit rows a register, the
//! even one low). The kernel corpus's `matmul_f16` (IREE's CPU results)
//! checks the same layout end to end. Inputs keep every sum exact in the
//! result type, so the expected D does not depend on the order of
//! accumulation. Words from `llvm-mc-19 --arch=amdgcn --mcpu=gfx1201
//! -show-encoding` of the text beside each.

// Matrix indices read as the formulas do (D[i][j] = Σ A[i][k] B[k][j]).
#![allow(clippy::needless_range_loop)]

mod handmade;
mod mfma;

use amdgpu_isa::{Chip, Program, Regions};
use handmade::bytes;
use mfma::{Rng, f16_bits};

const A: u64 = 0x10_0000;
const B: u64 = 0x20_0000;
const C: u64 = 0x30_0000;
const D: u64 = 0x40_0000;
/// Dwords of each lane's A and B (loaded whole; narrower types use fewer)
/// and of its C and D.
const AB_DWORDS: usize = 4;
const CD_DWORDS: usize = 8;

/// The kernel: A into v[8:11], B into v[12:15], C into v[0:7], the WMMA
/// (`wmma`'s two words), D from v[0:7].
fn kernel(wmma: [u32; 2]) -> Vec<u32> {
    let mut words = vec![
        0x30280084, // v_lshlrev_b32_e32 v20, 4, v0
        0x302a0085, // v_lshlrev_b32_e32 v21, 5, v0
        0xee05c000, 0x00000008, 0x00000014, // global_load_b128 v[8:11], v20, s[0:1]
        0xee05c002, 0x0000000c, 0x00000014, // global_load_b128 v[12:15], v20, s[2:3]
        0xee05c004, 0x00000000, 0x00000015, // global_load_b128 v[0:3], v21, s[4:5]
        0xee05c004, 0x00000004, 0x00001015, // global_load_b128 v[4:7], v21, s[4:5] offset:16
        0xbfc00000, // s_wait_loadcnt 0x0
    ];
    words.extend(wmma);
    words.extend([
        0xee074006, 0x00000000, 0x00000015, // global_store_b128 v21, v[0:3], s[6:7]
        0xee074006, 0x02000000, 0x00001015, // global_store_b128 v21, v[4:7], s[6:7] offset:16
        0xbfb00000, // s_endpgm
    ]);
    words
}

/// Where element `index` of K (of A's row or B's column `line`), or of
/// D's rows (of column `line`), is: (lane, dword, bit offset).
fn place(line: usize, index: usize, bits: usize) -> (usize, usize, usize) {
    let within = index % 8;
    (
        line + 16 * (index / 8),
        within * bits / 32,
        within * bits % 32,
    )
}

/// Writes `value`'s low `bits` bits at `place` of a lane-major image.
fn put(
    image: &mut [u32],
    per_lane: usize,
    (lane, dword, shift): (usize, usize, usize),
    bits: usize,
    value: u32,
) {
    let mask = if bits == 32 {
        u32::MAX
    } else {
        (1 << bits) - 1
    };
    let slot = &mut image[lane * per_lane + dword];
    *slot = (*slot & !(mask << shift)) | (value & mask) << shift;
}

fn get(
    image: &[u32],
    per_lane: usize,
    (lane, dword, shift): (usize, usize, usize),
    bits: usize,
) -> u32 {
    let mask = if bits == 32 {
        u32::MAX
    } else {
        (1 << bits) - 1
    };
    image[lane * per_lane + dword] >> shift & mask
}

/// Runs the kernel over the images; D's image.
fn run(wmma: [u32; 2], a: &[u32], b: &[u32], c: &[u32]) -> Vec<u32> {
    let program = Program::decode(Chip::Gfx1201, &bytes(&kernel(wmma))).unwrap();
    let image = |words: &[u32]| {
        words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let mut memory = Regions::new(vec![
        (A, image(a)),
        (B, image(b)),
        (C, image(c)),
        (D, vec![0; 32 * CD_DWORDS * 4]),
    ]);
    let mut user = Vec::new();
    for address in [A, B, C, D] {
        user.extend([address as u32, (address >> 32) as u32]);
    }
    handmade::run(&program, &user, 32, &mut memory).unwrap();
    memory
        .bytes(D)
        .unwrap()
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect()
}

/// The images of A and B from their matrices' raw elements (`a[i][k]`,
/// `b[k][j]`) of `bits` bits.
fn inputs(a: &[[u32; 16]; 16], b: &[[u32; 16]; 16], bits: usize) -> (Vec<u32>, Vec<u32>) {
    let mut ia = vec![0u32; 32 * AB_DWORDS];
    let mut ib = vec![0u32; 32 * AB_DWORDS];
    for x in 0..16 {
        for k in 0..16 {
            put(&mut ia, AB_DWORDS, place(x, k, bits), bits, a[x][k]);
            put(&mut ib, AB_DWORDS, place(x, k, bits), bits, b[k][x]);
        }
    }
    (ia, ib)
}

/// A 16×16 matrix of small integer-valued f16 (or bf16) elements and
/// their values.
fn float_matrix(rng: &mut Rng, bf16: bool) -> ([[u32; 16]; 16], [[f64; 16]; 16]) {
    let mut raw = [[0u32; 16]; 16];
    let mut value = [[0f64; 16]; 16];
    for i in 0..16 {
        for k in 0..16 {
            let v = (rng.next() % 9) as f64 - 4.0;
            value[i][k] = v;
            raw[i][k] = if bf16 {
                (v as f32).to_bits() >> 16
            } else {
                u32::from(f16_bits(v as f32))
            };
        }
    }
    (raw, value)
}

#[test]
fn f32_from_f16_is_the_plain_product_plus_c() {
    let mut rng = Rng::new(1201);
    let (ra, a) = float_matrix(&mut rng, false);
    let (rb, b) = float_matrix(&mut rng, false);
    let (ia, ib) = inputs(&ra, &rb, 16);
    let mut ic = vec![0u32; 32 * CD_DWORDS];
    let mut c = [[0f64; 16]; 16];
    for i in 0..16 {
        for j in 0..16 {
            c[i][j] = (rng.next() % 100) as f64 - 50.0;
            put(
                &mut ic,
                CD_DWORDS,
                place(j, i, 32),
                32,
                (c[i][j] as f32).to_bits(),
            );
        }
    }
    // v_wmma_f32_16x16x16_f16 v[0:7], v[8:11], v[12:15], v[0:7]
    let d = run([0xcc404000, 0x1c021908], &ia, &ib, &ic);
    for i in 0..16 {
        for j in 0..16 {
            let want = c[i][j] + (0..16).map(|k| a[i][k] * b[k][j]).sum::<f64>();
            let got = f32::from_bits(get(&d, CD_DWORDS, place(j, i, 32), 32));
            assert_eq!(f64::from(got), want, "D[{i}][{j}]");
        }
    }
}

#[test]
fn sixteen_bit_results_pack_two_rows_a_register() {
    for (bf16, wmma) in [
        // v_wmma_f16_16x16x16_f16 v[0:3], v[8:11], v[12:15], v[0:3]
        (false, [0xcc424000, 0x1c021908]),
        // v_wmma_bf16_16x16x16_bf16 v[0:3], v[8:11], v[12:15], v[0:3]
        (true, [0xcc434000, 0x1c021908]),
    ] {
        let mut rng = Rng::new(7);
        let (ra, a) = float_matrix(&mut rng, bf16);
        let (rb, b) = float_matrix(&mut rng, bf16);
        let (ia, ib) = inputs(&ra, &rb, 16);
        let mut ic = vec![0u32; 32 * CD_DWORDS];
        for i in 0..16 {
            for j in 0..16 {
                let v = (i as f32) - (j as f32);
                let raw = if bf16 {
                    v.to_bits() >> 16
                } else {
                    u32::from(f16_bits(v))
                };
                put(&mut ic, CD_DWORDS, place(j, i, 16), 16, raw);
            }
        }
        let d = run(wmma, &ia, &ib, &ic);
        for i in 0..16 {
            for j in 0..16 {
                let want = (i as f64 - j as f64) + (0..16).map(|k| a[i][k] * b[k][j]).sum::<f64>();
                let raw = get(&d, CD_DWORDS, place(j, i, 16), 16);
                let got = if bf16 {
                    f32::from_bits(raw << 16)
                } else {
                    half_to_f32(raw as u16)
                };
                assert_eq!(f64::from(got), want, "bf16 {bf16}: D[{i}][{j}]");
            }
        }
        // The registers past D's four are C's, untouched.
        assert!(
            (0..32).all(|lane| (4..8).all(|r| d[lane * CD_DWORDS + r] == ic[lane * CD_DWORDS + r]))
        );
    }
}

/// An f16's value (normal and zero values only: the products here).
fn half_to_f32(h: u16) -> f32 {
    let sign = if h >> 15 == 1 { -1.0 } else { 1.0 };
    let exponent = i32::from(h >> 10 & 0x1f);
    let mantissa = f32::from(h & 0x3ff);
    if exponent == 0 {
        return sign * mantissa * 2f32.powi(-24);
    }
    sign * (1.0 + mantissa / 1024.0) * 2f32.powi(exponent - 15)
}

#[test]
fn integer_inputs_signed_by_neg_lo_and_clamp_saturates() {
    for (bits, wmma, signed, clamp) in [
        // v_wmma_i32_16x16x16_iu8 v[0:7], v[8:9], v[12:13], v[0:7] neg_lo:[1,0,0]
        (8, [0xcc444000, 0x3c021908], [true, false], false),
        // v_wmma_i32_16x16x16_iu4 v[0:7], v8, v12, v[0:7] neg_lo:[1,1,0] clamp
        (4, [0xcc45c000, 0x7c021908], [true, true], true),
    ] {
        let mut rng = Rng::new(bits as u64);
        let mask = (1u32 << bits) - 1;
        let value = |raw: u32, signed: bool| {
            if signed {
                i64::from(((raw << (32 - bits)) as i32) >> (32 - bits))
            } else {
                i64::from(raw)
            }
        };
        let mut ra = [[0u32; 16]; 16];
        let mut rb = [[0u32; 16]; 16];
        for i in 0..16 {
            for k in 0..16 {
                ra[i][k] = rng.next() as u32 & mask;
                rb[k][i] = rng.next() as u32 & mask;
            }
        }
        let (ia, ib) = inputs(&ra, &rb, bits);
        let mut ic = vec![0u32; 32 * CD_DWORDS];
        let mut c = [[0i64; 16]; 16];
        for i in 0..16 {
            for j in 0..16 {
                // Near the i32 limits in one row, so that clamp matters.
                c[i][j] = if i == 3 {
                    i64::from(i32::MAX) - 5
                } else {
                    (rng.next() % 1000) as i64 - 500
                };
                put(
                    &mut ic,
                    CD_DWORDS,
                    place(j, i, 32),
                    32,
                    c[i][j] as i32 as u32,
                );
            }
        }
        let d = run(wmma, &ia, &ib, &ic);
        let mut saturated = 0;
        for i in 0..16 {
            for j in 0..16 {
                let sum = c[i][j]
                    + (0..16)
                        .map(|k| value(ra[i][k], signed[0]) * value(rb[k][j], signed[1]))
                        .sum::<i64>();
                let want = if clamp {
                    sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
                } else {
                    sum as i32
                };
                saturated += usize::from(i64::from(want) != sum && clamp);
                let got = get(&d, CD_DWORDS, place(j, i, 32), 32) as i32;
                assert_eq!(got, want, "{bits}-bit: D[{i}][{j}]");
            }
        }
        assert_eq!(
            saturated > 0,
            clamp,
            "{bits}-bit: {saturated} sums saturated"
        );
    }
}

/// Values of the 8-bit float tests and their bytes in OCP's E4M3FN
/// ("fp8") and E5M2 ("bf8"), from `ml_dtypes` 0.7
/// (`np.array([v], np.float32).astype(ml_dtypes.float8_e4m3fn)`, and
/// `float8_e5m2`): quarters whose products and sums are exact in f32; -0
/// has its own byte.
const EIGHT_BIT: [(f64, u8, u8); 14] = [
    (-4.0, 0xc8, 0xc4),
    (-3.0, 0xc4, 0xc2),
    (-2.0, 0xc0, 0xc0),
    (-1.5, 0xbc, 0xbe),
    (-1.0, 0xb8, 0xbc),
    (-0.5, 0xb0, 0xb8),
    (-0.0, 0x80, 0x80),
    (0.0, 0x00, 0x00),
    (0.5, 0x30, 0x38),
    (1.0, 0x38, 0x3c),
    (1.5, 0x3c, 0x3e),
    (2.0, 0x40, 0x40),
    (3.0, 0x44, 0x42),
    (4.0, 0x48, 0x44),
];

/// A 16×16 matrix of [`EIGHT_BIT`] values: the bytes in E4M3FN (`fp8`) or
/// E5M2, and the values.
fn eight_bit_matrix(rng: &mut Rng, fp8: bool) -> ([[u32; 16]; 16], [[f64; 16]; 16]) {
    let mut raw = [[0u32; 16]; 16];
    let mut value = [[0f64; 16]; 16];
    for i in 0..16 {
        for k in 0..16 {
            let (v, e4m3, e5m2) = EIGHT_BIT[rng.next() as usize % EIGHT_BIT.len()];
            value[i][k] = v;
            raw[i][k] = u32::from(if fp8 { e4m3 } else { e5m2 });
        }
    }
    (raw, value)
}

#[test]
fn f32_from_ocp_eight_bit_floats_is_the_plain_product_plus_c() {
    for (a_fp8, b_fp8, wmma) in [
        // v_wmma_f32_16x16x16_fp8_fp8 v[0:7], v[8:9], v[12:13], v[0:7]
        (true, true, [0xcc464000, 0x1c021908]),
        // v_wmma_f32_16x16x16_fp8_bf8 v[0:7], v[8:9], v[12:13], v[0:7]
        (true, false, [0xcc474000, 0x1c021908]),
        // v_wmma_f32_16x16x16_bf8_fp8 v[0:7], v[8:9], v[12:13], v[0:7]
        (false, true, [0xcc484000, 0x1c021908]),
        // v_wmma_f32_16x16x16_bf8_bf8 v[0:7], v[8:9], v[12:13], v[0:7]
        (false, false, [0xcc494000, 0x1c021908]),
    ] {
        let mut rng = Rng::new(8);
        let (ra, a) = eight_bit_matrix(&mut rng, a_fp8);
        let (rb, b) = eight_bit_matrix(&mut rng, b_fp8);
        let (ia, ib) = inputs(&ra, &rb, 8);
        let mut ic = vec![0u32; 32 * CD_DWORDS];
        let mut c = [[0f64; 16]; 16];
        for i in 0..16 {
            for j in 0..16 {
                c[i][j] = (rng.next() % 100) as f64 / 4.0 - 12.0;
                put(
                    &mut ic,
                    CD_DWORDS,
                    place(j, i, 32),
                    32,
                    (c[i][j] as f32).to_bits(),
                );
            }
        }
        let d = run(wmma, &ia, &ib, &ic);
        for i in 0..16 {
            for j in 0..16 {
                let want = c[i][j] + (0..16).map(|k| a[i][k] * b[k][j]).sum::<f64>();
                let got = f32::from_bits(get(&d, CD_DWORDS, place(j, i, 32), 32));
                assert_eq!(f64::from(got), want, "fp8 {a_fp8}/{b_fp8}: D[{i}][{j}]");
            }
        }
    }
}

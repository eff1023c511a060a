//! gfx950's `f8f6f4` MFMA with FP4, FP6, BF6 and OCP fp8/bf8 operands, scaled
//! (`v_mfma_ld_scale_b32` before it, which LLVM prints with it as
//! `v_mfma_scale_f32_*_f8f6f4`) and not, on random codes, E8M0 scales and
//! C, against the plain matrix product of the logical matrices: element
//! values from ml_dtypes (`microscaling/cases.txt`), the scales' values
//! 2^(e - 127) (OCP MX v1.0), the sum exact in f64 (the values and scales
//! are kept small enough) and rounded once to f32.
//!
//! The layout the test writes A, B, C and reads D by is AMD's for these
//! shapes (its matrix instruction calculator's general rule for CDNA3,
//! which CDNA4's 32-elements-a-lane operands follow; the ROCm blog's
//! "Matrix Core Programming on AMD CDNA3 and CDNA4"): `A[i][k]` is element
//! `k % 32` of lane `M (k / 32) + i`, `B[k][j]` element `k % 32` of lane
//! `N (k / 32) + j`, elements packed from bit 0 without gaps; the scale of
//! a lane's 32 elements is in that lane. D `[i][j]` of 16x16: register
//! `i % 4`, lane `16 (i / 4) + j`; of 32x32: register `4 (i / 8) + i % 4`,
//! lane `32 (i / 4 % 2) + j`. Words from `llvm-mc-22 --arch=amdgcn
//! --mcpu=gfx950 -show-encoding` of the text beside them.

mod handmade;

use std::collections::HashMap;

use amdgpu_isa::{Chip, Program, Regions};

const CASES: &str = include_str!("microscaling/cases.txt");
const LANES: usize = 64;

/// Each lane's record of 64 dwords: A from dword 0 (v0), B from 8 (v8),
/// the scales at 20 and 21 (v20, v21), C from 32 (v32); D (v64 on) is
/// stored to dwords 0-15 of the output record.
const IN_AT: u64 = 0x10_0000;
const OUT_AT: u64 = 0x20_0000;
const RECORD: usize = 64;

/// Every code's value: (format, code) -> f64.
fn values() -> HashMap<(String, u8), f64> {
    CASES
        .lines()
        .filter(|l| l.starts_with("value "))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let code = u8::from_str_radix(f[2], 16).unwrap();
            let bits = u32::from_str_radix(f[3], 16).unwrap();
            ((f[1].to_string(), code), f64::from(f32::from_bits(bits)))
        })
        .collect()
}

/// xorshift.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

struct Case {
    text: &'static str,
    words: &'static [u32],
    /// M (= N), K.
    mk: [usize; 2],
    /// A's and B's formats.
    formats: [&'static str; 2],
    /// The byte of v20 (A) and v21 (B) holding the scales; `None`:
    /// unscaled.
    bytes: Option<[u32; 2]>,
}

const MFMA: [Case; 9] = [
    Case {
        text: "v_mfma_f32_16x16x128_f8f6f4 v[64:67], v[0:3], v[8:11], v[32:35] cbsz:4 blgp:4",
        words: &[0xd3ad0440, 0x84821100],
        mk: [16, 128],
        formats: ["fp4", "fp4"],
        bytes: None,
    },
    Case {
        text: "v_mfma_scale_f32_16x16x128_f8f6f4 v[64:67], v[0:3], v[8:11], v[32:35], v20, v21 \
               op_sel:[1,0,0] op_sel_hi:[0,1,0] cbsz:4 blgp:4",
        words: &[0xd3ac0800, 0x10022b14, 0xd3ad0c40, 0x84821100],
        mk: [16, 128],
        formats: ["fp4", "fp4"],
        bytes: Some([1, 2]),
    },
    Case {
        text: "v_mfma_scale_f32_16x16x128_f8f6f4 v[64:67], v[0:5], v[8:11], v[32:35], v20, v21 \
               op_sel:[1,1,0] op_sel_hi:[1,0,0] cbsz:2 blgp:4",
        words: &[0xd3ac1800, 0x08022b14, 0xd3ad0a40, 0x84821100],
        mk: [16, 128],
        formats: ["fp6", "fp4"],
        bytes: Some([3, 1]),
    },
    Case {
        text: "v_mfma_scale_f32_32x32x64_f8f6f4 v[64:79], v[0:5], v[8:13], v[32:47], v20, v21 \
               op_sel_hi:[0,0,0] cbsz:3 blgp:2",
        words: &[0xd3ac0000, 0x00022b14, 0xd3ae0b40, 0x44821100],
        mk: [32, 64],
        formats: ["bf6", "fp6"],
        bytes: Some([0, 0]),
    },
    Case {
        text: "v_mfma_scale_f32_32x32x64_f8f6f4 v[64:79], v[0:3], v[8:13], v[32:47], v20, v21 \
               op_sel:[0,1,0] op_sel_hi:[1,1,0] cbsz:4 blgp:3",
        words: &[0xd3ac1000, 0x18022b14, 0xd3ae0c40, 0x64821100],
        mk: [32, 64],
        formats: ["fp4", "bf6"],
        bytes: Some([2, 3]),
    },
    Case {
        text: "v_mfma_f32_32x32x64_f8f6f4 v[64:79], v[0:5], v[8:11], v[32:47] cbsz:2 blgp:4",
        words: &[0xd3ae0240, 0x84821100],
        mk: [32, 64],
        formats: ["fp6", "fp4"],
        bytes: None,
    },
    Case {
        text: "v_mfma_scale_f32_16x16x128_f8f6f4 v[64:67], v[0:7], v[8:15], v[32:35], v20, v21 \
               op_sel:[0,1,0] op_sel_hi:[0,0,0] blgp:1",
        words: &[0xd3ac1000, 0x00022b14, 0xd3ad0840, 0x24821100],
        mk: [16, 128],
        formats: ["fp8", "bf8"],
        bytes: Some([0, 1]),
    },
    Case {
        text: "v_mfma_scale_f32_32x32x64_f8f6f4 v[64:79], v[0:7], v[8:11], v[32:47], v20, v21 \
               op_sel_hi:[0,0,0] cbsz:1 blgp:4",
        words: &[0xd3ac0000, 0x00022b14, 0xd3ae0940, 0x84821100],
        mk: [32, 64],
        formats: ["bf8", "fp4"],
        bytes: Some([0, 0]),
    },
    Case {
        text: "v_mfma_f32_16x16x128_f8f6f4 v[64:67], v[0:5], v[8:15], v[32:35] cbsz:3",
        words: &[0xd3ad0340, 0x04821100],
        mk: [16, 128],
        formats: ["bf6", "fp8"],
        bytes: None,
    },
];

fn bits_of(format: &str) -> usize {
    match format {
        "fp4" => 4,
        "fp6" | "bf6" => 6,
        _ => 8,
    }
}

/// Writes `code` as element `e` (of `bits` bits, packed from bit 0) of the
/// registers from dword `first` of `record`.
fn put(record: &mut [u32], first: usize, bits: usize, e: usize, code: u8) {
    for b in 0..bits {
        if code >> b & 1 == 1 {
            let at = e * bits + b;
            record[first + at / 32] |= 1 << (at % 32);
        }
    }
}

/// D's register and lane of element `[i][j]`.
fn d_at(m: usize, i: usize, j: usize) -> (usize, usize) {
    if m == 16 {
        (i % 4, 16 * (i / 4) + j)
    } else {
        (4 * (i / 8) + i % 4, 32 * (i / 4 % 2) + j)
    }
}

/// Runs one case on random inputs; `nan_lane`: a lane whose A scale is
/// E8M0's NaN.
fn check(case: &Case, seed: u64, nan_lane: Option<usize>) {
    let values = values();
    let [m, k] = case.mk;
    let n = m;
    let [fa, fb] = case.formats;
    let mut rng = Rng(seed | 1);
    let mut records = vec![vec![0u32; RECORD]; LANES];
    // Finite codes (fp8's NaNs and bf8's infinities and NaNs left out).
    let code = |format: &str, rng: &mut Rng| loop {
        let c = (rng.next() % (1 << bits_of(format))) as u8;
        if values[&(format.to_string(), c)].is_finite() {
            break c;
        }
    };
    // A[i][k], B[k][j] as codes; the scales per lane.
    let a: Vec<u8> = (0..m * k).map(|_| code(fa, &mut rng)).collect();
    let b: Vec<u8> = (0..k * n).map(|_| code(fb, &mut rng)).collect();
    let mut scale_a = [127u8; LANES];
    let mut scale_b = [127u8; LANES];
    for lane in 0..LANES {
        if let Some([byte_a, byte_b]) = case.bytes {
            scale_a[lane] = 120 + (rng.next() % 15) as u8;
            scale_b[lane] = 120 + (rng.next() % 15) as u8;
            if nan_lane == Some(lane) {
                scale_a[lane] = 0xff;
            }
            // The other bytes of the scale registers hold other values.
            let (va, vb) = (rng.next() as u32, rng.next() as u32);
            records[lane][20] =
                va & !(0xff << (8 * byte_a)) | u32::from(scale_a[lane]) << (8 * byte_a);
            records[lane][21] =
                vb & !(0xff << (8 * byte_b)) | u32::from(scale_b[lane]) << (8 * byte_b);
        }
    }
    for i in 0..m {
        for kk in 0..k {
            put(
                &mut records[m * (kk / 32) + i],
                0,
                bits_of(fa),
                kk % 32,
                a[i * k + kk],
            );
        }
    }
    for kk in 0..k {
        for j in 0..n {
            put(
                &mut records[n * (kk / 32) + j],
                8,
                bits_of(fb),
                kk % 32,
                b[kk * n + j],
            );
        }
    }
    // C: small multiples of 1/8.
    let mut c = vec![0f64; m * n];
    for i in 0..m {
        for j in 0..n {
            let value = (rng.next() % 257) as f64 / 8.0 - 16.0;
            c[i * n + j] = value;
            let (reg, lane) = d_at(m, i, j);
            records[lane][32 + reg] = (value as f32).to_bits();
        }
    }
    // The kernel: the lane's offset in v60, the record's registers loaded,
    // the instruction, D stored.
    let mut code_words = vec![0x2478_0088]; // v_lshlrev_b32_e32 v60, 8, v0
    for r in (0..16).chain(20..22).chain(32..48) {
        // global_load_dword v{r}, v60, s[0:1] offset:{4 r}
        code_words.extend([0xdc50_8000 | (4 * r as u32), (r as u32) << 24 | 60]);
    }
    code_words.push(0xbf8c_0f70); // s_waitcnt vmcnt(0)
    code_words.extend(case.words);
    for r in 0..16 {
        // global_store_dword v60, v{64 + r}, s[6:7] offset:{4 r}
        code_words.extend([
            0xdc70_8000 | (4 * r as u32),
            6 << 16 | ((64 + r) as u32) << 8 | 60,
        ]);
    }
    code_words.push(0xbf81_0000); // s_endpgm
    let program = Program::decode(Chip::Gfx950, &handmade::bytes(&code_words))
        .unwrap_or_else(|e| panic!("{}: {e}", case.text));
    let image: Vec<u32> = records.concat();
    let mut memory = Regions::new(vec![
        (IN_AT, handmade::bytes(&image)),
        (OUT_AT, vec![0; LANES * RECORD * 4]),
    ]);
    let user = [IN_AT as u32, 0, 0, 0, 0, 0, OUT_AT as u32, 0];
    handmade::run(&program, &user, LANES as u32, &mut memory)
        .unwrap_or_else(|e| panic!("{}: {e}", case.text));
    let out: Vec<u32> = memory
        .bytes(OUT_AT)
        .unwrap()
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect();
    let scale = |e: u8| {
        if e == 0xff {
            f64::NAN
        } else {
            2f64.powi(i32::from(e) - 127)
        }
    };
    for i in 0..m {
        for j in 0..n {
            let mut sum = c[i * n + j];
            for kk in 0..k {
                let x =
                    values[&(fa.to_string(), a[i * k + kk])] * scale(scale_a[m * (kk / 32) + i]);
                let y =
                    values[&(fb.to_string(), b[kk * n + j])] * scale(scale_b[n * (kk / 32) + j]);
                sum += x * y;
            }
            let (reg, lane) = d_at(m, i, j);
            let got = f32::from_bits(out[lane * RECORD + reg]);
            let want = sum as f32;
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "{} D[{i}][{j}]: {got}, want {want}",
                case.text
            );
        }
    }
}

#[test]
fn every_format_pair_and_scale_byte() {
    for (index, case) in MFMA.iter().enumerate() {
        for seed in 0..3 {
            check(case, 0x950 + 17 * index as u64 + seed, None);
        }
    }
}

#[test]
fn a_nan_scale_makes_its_rows_nan() {
    // Lane 5 holds A's row 5 (first block of K): that row of D is NaN.
    check(&MFMA[1], 7, Some(5));
    check(&MFMA[4], 8, Some(37));
}

#[test]
fn formats_past_fp4_are_refused_by_name() {
    // `v_mfma_f32_16x16x128_f8f6f4 v[64:67], v[0:7], v[8:11], v[32:35]
    // cbsz:5 blgp:4`: llvm-mc-22 decodes CBSZ 5, which names no format.
    let err = Program::decode(Chip::Gfx950, &handmade::bytes(&[0xd3ad0540, 0x84821100]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("f8f6f4") && err.contains("cbsz:5"), "{err}");
}

#[test]
fn the_disassembly_is_llvms() {
    // The unscaled MFMA as LLVM prints it (its register counts by format),
    // and `v_mfma_ld_scale_b32` as LLVM prints it alone (its `op_sel_hi`
    // bit 2 set, as `llvm-mc-22` encodes it outside the pair).
    let cases: [(&[u32], &str); 4] = [
        (MFMA[0].words, MFMA[0].text),
        (MFMA[5].words, MFMA[5].text),
        (MFMA[8].words, MFMA[8].text),
        (
            &[0xd3ac4800, 0x10022b14],
            "v_mfma_ld_scale_b32 v20, v21 op_sel:[1,0] op_sel_hi:[0,1]",
        ),
    ];
    for (words, text) in cases {
        let program = Program::decode(Chip::Gfx950, &handmade::bytes(words)).unwrap();
        let inst = &program.instructions()[0];
        assert_eq!(amdgpu_isa::disassemble(inst, Chip::Gfx950), text);
    }
}

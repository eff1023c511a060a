//! Table-driven decoding, per encoding: each row of `encodings/rows.txt`
//! (written by `encodings/generate.py`: bytes from `llvm-mc-19
//! -show-encoding`, text from `llvm-mc-19 --disassemble` of them) is an
//! instruction's bytes and the text LLVM's disassembler prints for them; the
//! interpreter must decode the bytes to one instruction of that length
//! (a VOPD row: a pair) and print the same text. The rows that read v2-v4
//! and write v6 also run, over lanes of inputs, against results computed
//! here from the instruction's definition.

mod handmade;

use amdgpu_isa::{Chip, Program, disassemble};
use handmade::per_lane32;

const ROWS: &str = include_str!("encodings/rows.txt");

fn chip(name: &str) -> Chip {
    match name {
        "gfx942" => Chip::Gfx942,
        "gfx90a" => Chip::Gfx90a,
        "gfx1100" => Chip::Gfx1100,
        "gfx1201" => Chip::Gfx1201,
        other => panic!("no chip {other}"),
    }
}

fn bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn every_encoding_decodes_and_prints_as_llvm_does() {
    let mut encodings = std::collections::BTreeSet::new();
    for row in ROWS.lines() {
        let [name, encoding, hex, text] = row.splitn(4, '|').collect::<Vec<_>>()[..] else {
            panic!("malformed row: {row}");
        };
        let chip = chip(name);
        let program = Program::decode(chip, &bytes(hex)).unwrap_or_else(|e| panic!("{row}: {e}"));
        let printed: Vec<String> = program
            .instructions()
            .iter()
            .map(|inst| disassemble(inst, chip))
            .collect();
        assert_eq!(printed.join(" :: "), text, "{row}");
        encodings.insert((name, encoding));
    }
    // The 19 encodings of gfx942, 18 of gfx90a, 21 of gfx1100 and 20 of gfx1201 that
    // generate.py lists.
    assert_eq!(encodings.len(), 78, "{encodings:?}");
}

/// What a row that writes v6 from v2, v3 and v4 computes.
type Compute = fn([u32; 3]) -> u32;

/// A row's computation, by its text.
fn expected(text: &str) -> Option<Compute> {
    let compute: Compute = match text {
        "v_cvt_f32_i32_e32 v6, v2" => |[a, _, _]| (a as i32 as f32).to_bits(),
        "v_add_f32_e32 v6, v2, v3" => |[a, b, _]| (f32::from_bits(a) + f32::from_bits(b)).to_bits(),
        "v_lshlrev_b32_e32 v6, v2, v3" => |[a, b, _]| b << (a & 31),
        "v_fma_f32 v6, v2, v3, v4" => |[a, b, c]| {
            f32::from_bits(a)
                .mul_add(f32::from_bits(b), f32::from_bits(c))
                .to_bits()
        },
        "v_mad_u32_u24 v6, v2, v3, v4" => {
            |[a, b, c]| (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff).wrapping_add(c)
        }
        "v_pk_add_u16 v6, v2, v3" => |[a, b, _]| {
            let lo = (a as u16).wrapping_add(b as u16);
            let hi = ((a >> 16) as u16).wrapping_add((b >> 16) as u16);
            u32::from(lo) | u32::from(hi) << 16
        },
        _ => return None,
    };
    Some(compute)
}

/// Inputs per lane: small and large integers, floats of both signs, a
/// product whose rounding an unfused multiply-add would change.
const V2: [u32; 6] = [0, 1, 0xffff_ffff, 0x3f80_0001, 0xc2c8_0000, 0x0001_fffe];
const V3: [u32; 6] = [7, 31, 0x8000_0001, 0x3f7f_fffe, 0x4049_0fdb, 0xffff_0003];
const V4: [u32; 6] = [
    0x4000_0000,
    0xbf80_0000,
    5,
    0xbf80_0000,
    0x0000_0000,
    0x1234_5678,
];

#[test]
fn the_rows_that_compute_give_their_definition_s_results() {
    let mut ran = 0;
    for row in ROWS.lines() {
        let [name, _, hex, text] = row.splitn(4, '|').collect::<Vec<_>>()[..] else {
            panic!("malformed row: {row}");
        };
        let Some(compute) = expected(text) else {
            continue;
        };
        let words: Vec<u32> = bytes(hex)
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
            .collect();
        let got = per_lane32(chip(name), &words, &[&V2, &V3, &V4]);
        let want: Vec<u32> = (0..V2.len())
            .map(|i| compute([V2[i], V3[i], V4[i]]))
            .collect();
        assert_eq!(got, want, "{row}");
        ran += 1;
    }
    // Six instructions on gfx942, gfx1100 and gfx1201 each, three on gfx90a.
    assert_eq!(ran, 21);
}

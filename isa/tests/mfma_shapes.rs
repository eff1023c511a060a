//! MFMA shapes of several blocks (`v_mfma_f32_32x32x1_2b_f32`,
//! `16x16x1_4b_f32`, `4x4x1_16b_f32`, their f16 counterparts, gfx90a's
//! unmarked `32x32x1f32`, `16x16x1f32`, `4x4x1f32`, `32x32x4f16`,
//! `16x16x4f16`, `4x4x4f16`), each against the plain product over the
//! layout AMD's matrix instruction calculator prints (tests/mfma/mod.rs);
//! and the one-block f32 and f16 shapes that ran before, against the same
//! oracle.

mod handmade;
mod mfma;

use mfma::{T, check_all};

#[test]
fn multi_block_f32_and_f16_shapes_compute_each_block_in_the_calculators_layout() {
    let n = check_all(|c| c.mnk_blocks[3] > 1 && matches!(c.types[0], T::F32 | T::F16));
    assert_eq!(n, 12);
}

#[test]
fn one_block_f32_and_f16_shapes_match_the_calculators_layout() {
    let n = check_all(|c| c.ran_before);
    assert_eq!(n, 8);
}

/// A cell of the calculator's `--register-layout --csv` table: `v0{32}`,
/// `v1{0}.[31:16]`, `v[1:0]{3}` as (first register, low bit, lane).
fn cell(text: &str) -> (usize, u32, usize) {
    let (reg, rest) = text[1..].split_once('{').unwrap();
    let (lane, bits) = rest.split_once('}').unwrap();
    let reg = match reg.strip_prefix('[') {
        Some(pair) => pair.trim_end_matches(']').split_once(':').unwrap().1,
        None => reg,
    };
    let lo = match bits.strip_prefix(".[") {
        Some(range) => range.trim_end_matches(']').split_once(':').unwrap().1,
        None => "0",
    };
    (
        reg.parse().unwrap(),
        lo.parse().unwrap(),
        lane.parse().unwrap(),
    )
}

#[test]
fn the_layout_formulas_agree_with_the_calculators_printed_tables() {
    // `python3 matrix_calculator.py --architecture cdna3|cdna2
    // --instruction NAME --register-layout --A-matrix|--B-matrix|--D-matrix
    // --csv`, kept verbatim in tests/mfma/.
    let tables = [
        (
            amdgpu_isa::Chip::Gfx942,
            "v_mfma_f32_32x32x4_xf32",
            [
                include_str!("mfma/v_mfma_f32_32x32x4_xf32.A.csv"),
                include_str!("mfma/v_mfma_f32_32x32x4_xf32.B.csv"),
                include_str!("mfma/v_mfma_f32_32x32x4_xf32.D.csv"),
            ],
        ),
        (
            amdgpu_isa::Chip::Gfx90a,
            "v_mfma_f32_4x4x4f16",
            [
                include_str!("mfma/v_mfma_f32_4x4x4f16.A.csv"),
                include_str!("mfma/v_mfma_f32_4x4x4f16.B.csv"),
                include_str!("mfma/v_mfma_f32_4x4x4f16.D.csv"),
            ],
        ),
        (
            amdgpu_isa::Chip::Gfx942,
            "v_mfma_f64_16x16x4_f64",
            [
                include_str!("mfma/v_mfma_f64_16x16x4_f64.A.csv"),
                include_str!("mfma/v_mfma_f64_16x16x4_f64.B.csv"),
                include_str!("mfma/v_mfma_f64_16x16x4_f64.D.csv"),
            ],
        ),
    ];
    for (chip, mnemonic, csv) in tables {
        let case = mfma::case(chip, mnemonic);
        let [m, n, k, blocks] = case.mnk_blocks;
        let expected = [m * k * blocks, k * n * blocks, m * n * blocks];
        for (matrix, text) in csv.iter().enumerate() {
            let bits = if matrix == 2 {
                32
            } else {
                case.types[matrix].bits()
            };
            let mut block = 0;
            let mut cells = 0;
            for line in text.lines() {
                if let Some(b) = line.strip_prefix("Block ") {
                    block = b.trim().parse().unwrap();
                    continue;
                }
                let fields: Vec<&str> = line.split(',').collect();
                let Ok(row) = fields[0].parse::<i64>() else {
                    continue;
                };
                for (col, printed) in fields[1..].iter().enumerate() {
                    let col = col as i64;
                    let (i, j, kk) = match matrix {
                        0 => (row, 0, col),
                        1 => (0, col, row),
                        _ => (row, col, 0),
                    };
                    let vars = [("i", i), ("j", j), ("k", kk), ("block", block)];
                    let (reg, lo, _) = mfma::gpr(case.layout[2 * matrix], &vars, bits);
                    let lane = mfma::eval(case.layout[2 * matrix + 1], &vars) as usize;
                    assert_eq!(
                        (reg, lo, lane),
                        cell(printed),
                        "{mnemonic} matrix {matrix} block {block} [{row}][{col}]"
                    );
                    cells += 1;
                }
            }
            assert_eq!(cells, expected[matrix], "{mnemonic} matrix {matrix}");
        }
    }
}

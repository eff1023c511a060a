//! Table-driven decoding, per encoding: each row of `encodings/rows.txt`
//! (written by `encodings/generate.py` from `llvm-mc-19 -show-encoding`) is
//! an instruction's bytes and the text LLVM prints for them; the
//! interpreter must decode the bytes to one instruction of that length
//! (a VOPD row: a pair) and print the same text.

use amdgpu_isa::{Chip, Program, disassemble};

const ROWS: &str = include_str!("encodings/rows.txt");

fn chip(name: &str) -> Chip {
    match name {
        "gfx942" => Chip::Gfx942,
        "gfx1100" => Chip::Gfx1100,
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
    // The 17 encodings of gfx942 and 18 of gfx1100 generate.py lists.
    assert_eq!(encodings.len(), 35, "{encodings:?}");
}

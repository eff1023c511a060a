//! Which instructions of each chip the interpreter executes, by mnemonic:
//! the distinct mnemonics of the chip's opcode tables (every encoding, as
//! the decoder reads them for that chip), split into those the tables give
//! an operation and those they do not. A kernel with one of the latter
//! fails at its first launch, before anything runs.

use std::collections::BTreeMap;

use crate::arch::Chip;
use crate::op::Op;
use crate::tables::{gfx9, gfx11};

/// A chip's mnemonics, executed and lacking, each sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coverage {
    /// Mnemonics the interpreter executes.
    pub executed: Vec<&'static str>,
    /// Mnemonics it refuses.
    pub lacking: Vec<&'static str>,
}

impl Coverage {
    /// Every distinct mnemonic of the chip's tables.
    pub fn total(&self) -> usize {
        self.executed.len() + self.lacking.len()
    }
}

/// A row of an opcode table.
type Row = (u16, &'static str, Option<Op>);

/// The distinct mnemonics `chip`'s decoder can produce, each with whether
/// it has an operation.
fn mnemonics(chip: Chip) -> BTreeMap<&'static str, bool> {
    let gfx9_tables: [(&str, &[Row]); 17] = [
        ("SOP2", gfx9::SOP2),
        ("SOPK", gfx9::SOPK),
        ("SOP1", gfx9::SOP1),
        ("SOPC", gfx9::SOPC),
        ("SOPP", gfx9::SOPP),
        ("SMEM", gfx9::SMEM),
        ("VOP1", gfx9::VOP1),
        ("VOP2", gfx9::VOP2),
        ("VOPC", gfx9::VOPC),
        ("VOP3", gfx9::VOP3),
        ("VOP3P", gfx9::VOP3P),
        ("DS", gfx9::DS),
        ("MUBUF", gfx9::MUBUF),
        ("MTBUF", gfx9::MTBUF),
        ("FLAT", gfx9::FLAT),
        ("SCRATCH", gfx9::SCRATCH),
        ("GLOBAL", gfx9::GLOBAL),
    ];
    let gfx11_tables: [&[Row]; 19] = [
        gfx11::SOP2,
        gfx11::SOPK,
        gfx11::SOP1,
        gfx11::SOPC,
        gfx11::SOPP,
        gfx11::SMEM,
        gfx11::VOP1,
        gfx11::VOP2,
        gfx11::VOPC,
        gfx11::VOP3,
        gfx11::VOP3P,
        gfx11::VOPD_X,
        gfx11::VOPD_Y,
        gfx11::DS,
        gfx11::MUBUF,
        gfx11::MTBUF,
        gfx11::FLAT,
        gfx11::SCRATCH,
        gfx11::GLOBAL,
    ];
    match chip {
        Chip::Gfx942 => gfx9_tables
            .iter()
            .flat_map(|(_, table)| table.iter().map(|&(_, m, op)| (m, op.is_some())))
            .collect(),
        // As gfx90a's decoder reads gfx942's tables: its overrides first
        // (opcodes gfx942 lacks or names otherwise), gfx942-only opcodes
        // not at all.
        Chip::Gfx90a => {
            let overridden = |encoding: &str, opcode: u16| {
                gfx9::GFX90A_OVERRIDES
                    .iter()
                    .any(|&(e, o, _, _)| e == encoding && o == opcode)
            };
            let gfx942_only = |encoding: &str, opcode: u16| {
                gfx9::GFX942_ONLY
                    .iter()
                    .any(|&(e, o, _)| e == encoding && o == opcode)
            };
            gfx9_tables
                .iter()
                .flat_map(|&(encoding, table)| {
                    table
                        .iter()
                        .filter(move |&&(opcode, _, _)| {
                            !overridden(encoding, opcode) && !gfx942_only(encoding, opcode)
                        })
                        .map(|&(_, mnemonic, op)| (mnemonic, op.is_some()))
                })
                .chain(
                    gfx9::GFX90A_OVERRIDES
                        .iter()
                        .map(|&(_, _, m, op)| (m, op.is_some())),
                )
                .collect()
        }
        Chip::Gfx1100 => gfx11_tables
            .iter()
            .flat_map(|table| table.iter().map(|&(_, m, op)| (m, op.is_some())))
            .collect(),
    }
}

/// What the interpreter executes of `chip`'s instructions.
pub fn opcode_coverage(chip: Chip) -> Coverage {
    let (executed, lacking): (Vec<_>, Vec<_>) =
        mnemonics(chip).into_iter().partition(|&(_, runs)| runs);
    Coverage {
        executed: executed.into_iter().map(|(m, _)| m).collect(),
        lacking: lacking.into_iter().map(|(m, _)| m).collect(),
    }
}

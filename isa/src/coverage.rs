//! Which instructions of each chip the interpreter executes, by mnemonic:
//! the distinct mnemonics of the chip's opcode tables (every encoding, as
//! the decoder reads them for that chip), split into those the tables give
//! an operation and those they do not. A kernel with one of the latter
//! fails at its first launch, before anything runs.

use std::collections::BTreeMap;

use crate::arch::Chip;
use crate::tables::{GFX9, GFX11, GFX12, gfx9};

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

/// The distinct mnemonics `chip`'s decoder can produce, each with whether
/// it has an operation.
fn mnemonics(chip: Chip) -> BTreeMap<&'static str, bool> {
    match chip {
        Chip::Gfx942 => GFX9
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
            GFX9.iter()
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
        Chip::Gfx1100 => GFX11
            .iter()
            .flat_map(|(_, table)| table.iter().map(|&(_, m, op)| (m, op.is_some())))
            .collect(),
        Chip::Gfx1201 => GFX12
            .iter()
            .flat_map(|(_, table)| table.iter().map(|&(_, m, op)| (m, op.is_some())))
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

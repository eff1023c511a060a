//! Which instructions of each chip the interpreter executes, by mnemonic:
//! the distinct mnemonics of the chip's opcode tables (every encoding, as
//! the decoder reads them for that chip), split into those the tables give
//! an operation and those they do not. A kernel with one of the latter
//! fails at its first launch, before anything runs.

use std::collections::BTreeMap;

use crate::arch::Chip;
use crate::op::Op;
use crate::tables::{GFX9, GFX11, GFX12, gfx9, gfx950, on_gfx950};

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
        Chip::Gfx90a => gfx9_variant(gfx9::GFX90A_OVERRIDES, gfx9::GFX942_ONLY, |op| op),
        // As gfx950's decoder reads them (`tables::on_gfx950`).
        Chip::Gfx950 => gfx9_variant(gfx950::GFX950_OVERRIDES, gfx950::GFX950_REMOVED, on_gfx950),
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

/// A GFX9 chip's mnemonics as its decoder reads gfx942's tables: its
/// `overrides` first (opcodes gfx942 lacks or names otherwise), the
/// `removed` gfx942 opcodes not at all, each operation as `adjust` makes
/// it.
fn gfx9_variant(
    overrides: &'static [(&'static str, u16, &'static str, Option<Op>)],
    removed: &'static [(&'static str, u16, &'static str)],
    adjust: fn(Option<Op>) -> Option<Op>,
) -> BTreeMap<&'static str, bool> {
    let overridden = |encoding: &str, opcode: u16| {
        overrides
            .iter()
            .any(|&(e, o, _, _)| e == encoding && o == opcode)
    };
    let gone = |encoding: &str, opcode: u16| {
        removed
            .iter()
            .any(|&(e, o, _)| e == encoding && o == opcode)
    };
    GFX9.iter()
        .flat_map(|&(encoding, table)| {
            table
                .iter()
                .filter(move |&&(opcode, _, _)| {
                    !overridden(encoding, opcode) && !gone(encoding, opcode)
                })
                .map(move |&(_, mnemonic, op)| (mnemonic, adjust(op).is_some()))
        })
        .chain(
            overrides
                .iter()
                .map(|&(_, _, m, op)| (m, adjust(op).is_some())),
        )
        .collect()
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

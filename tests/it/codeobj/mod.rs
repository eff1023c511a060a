//! Code objects: ELF, notes, metadata, target IDs, symbols, truncation.

mod elf;
mod fixtures;
mod fuzz_corpus;
mod metadata;
mod notes;
mod symbols;
mod target_id;
mod truncation;
mod unique;

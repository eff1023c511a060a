//! Code objects: ELF, notes, metadata, target IDs, symbols, truncation, and the ISA decoder against llvm-objdump.

mod elf;
mod fixtures;
mod fuzz_corpus;
mod isa_decode;
mod metadata;
mod notes;
mod symbols;
mod target_id;
mod truncation;
mod unique;

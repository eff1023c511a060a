//! Code objects: reading AMDGPU HSACO files.
//!
//! - [`target_id`]: target IDs (`gfx942:sramecc+:xnack-`), parsing, canonical
//!   format, code-object targets and compatibility with an agent's ISA.
//! - [`processors`]: the processor / `EF_AMDGPU_MACH` table.
//! - [`elf`]: ELF identity checks, the `e_flags` target, the code object
//!   version and the byte size of an ELF image.
//! - [`layout`]: llvm-readelf's layout checks (tables, segments, sections
//!   inside the file): truncated or corrupt files are refused here.
//! - [`notes`]: ELF notes and the `NT_AMDGPU_METADATA` notes.
//! - [`metadata`]: the decoded MessagePack metadata and export reflection.
//! - [`symbols`]: the symbol table and the bytes a symbol covers.
//! - [`kernel_descriptor`]: the 64-byte AMDHSA kernel descriptor.
//! - [`loadable`]: what the HSA loader needs: `ET_DYN`, ordered, disjoint `PT_LOAD` segments.

mod bytes;
pub mod elf;
pub mod kernel_descriptor;
pub mod layout;
pub mod loadable;
pub mod metadata;
pub mod notes;
pub mod processors;
pub mod symbols;
pub mod target_id;

pub use target_id::{FeatureState, Mismatch, ParseFlags, TargetId, TargetKind};

//! A deterministic simulated ROCm node.
//!
//! A [`Machine`] (agents, ISAs, memory pools, links, HIP device properties)
//! is loaded from a TOML or JSON description ([`machine`], validated by
//! [`validate`]) or from an embedded preset ([`presets`]). [`Sim`] runs it:
//! HSA-like and HIP-like calls with real semantics — memory with capacity
//! and contents, a code-object loader that reads the ELF it is given,
//! ROCr's target check, freeze rules, symbols from the dynamic symbol table,
//! loaded code objects — plus fault injection, live-object counts and a call
//! log. It speaks raw vendor status values ([`codes`]), answers every HSA
//! info query in C layout ([`get_info`]), runs launched kernels on the ISA
//! interpreter ([`kernel_exec`]) and depends only on `amdgpu-sys` (the C
//! ABI) and `amdgpu-isa` (the interpreter); `amdgpu-hal`'s `backend::sim`
//! adapts it to the backend traits, and `amdgpu-sim-ffi` puts it behind the
//! C ABI.

// Bytes from outside reach most of this crate (code objects, executables,
// machine descriptions, device paths, vendor replies): no unwrap, expect,
// panic or unchecked indexing or slicing anywhere outside the unit tests
// (issue 10; CI's clippy run enforces it).
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::string_slice
)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod aql;
pub mod clock;
pub mod codes;
pub mod compressed_bundle;
pub mod elf;
pub mod faults;
pub mod get_info;
mod handles;
pub mod hip;
pub mod hip_memory;
pub mod hip_module;
pub mod hip_registered;
mod hsa;
pub mod hsa_info;
pub mod hsa_memory;
pub mod isa;
pub mod kernel_exec;
mod kernel_memory;
pub mod kernel_meta;
mod kernel_threads;
pub mod loader;
pub mod machine;
pub mod memory;
mod node;
pub mod pm4;
pub mod presets;
pub mod shared_bytes;
mod state;
pub mod suggest;
mod topology;
pub mod validate;
pub mod vmem;

pub use codes::{CclCode, HipCode, HsaCode};
pub use faults::{CallRecord, Fault, KernelFault, Trigger};
pub use loader::{LoadedInfo, SymbolInfo};
pub use node::Sim;
pub use shared_bytes::{ByteOwner, SharedBytes};
pub use state::LiveObjects;
pub use state::calls::CallSink;
pub use topology::QueueAgent;
pub use validate::{Format, Machine, MachineError};

impl Sim {
    /// A node running preset `name`, or `None` if there is no such preset.
    pub fn preset(name: &str) -> Option<Result<Sim, MachineError>> {
        presets::load_preset(name).map(|m| m.map(Sim::new))
    }
}

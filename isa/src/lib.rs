//! A functional interpreter of AMDGPU machine code: CDNA (gfx90a, gfx942)
//! and RDNA3 (gfx1100).
//!
//! [`Program::decode`] turns a kernel's code bytes into instructions once,
//! through opcode tables generated from LLVM's own disassembler
//! (the crate's `tables` module); a code object with an instruction the interpreter lacks is
//! refused there, naming the mnemonic and its address. [`run_dispatch`]
//! executes the kernel over its grid: each work-group's waves in lockstep
//! between barriers, with the register state AMDGPUUsage's "Initial Kernel
//! Execution State" specifies (user and system SGPRs from the kernel
//! descriptor, work-item IDs in VGPRs), LDS per work-group and memory
//! through the caller's [`Memory`]. An access outside what the caller's
//! memory holds ends the dispatch with a [`Fault`], never a host crash.
//!
//! Results do not depend on the order work-groups run in: each work-group
//! runs to completion before the next, and a kernel whose work-groups
//! communicate other than through atomics is undefined on hardware too.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod arch;
mod coverage;
mod decode;
mod descriptor;
mod disasm;
mod dispatch;
mod exec;
mod fidelity;
mod inst;
mod memory;
mod op;
mod program;
mod tables;
mod wave;
mod workgroups;

pub use arch::{Chip, Family};
pub use coverage::{Coverage, opcode_coverage};
pub use descriptor::KernelDescriptor;
pub use disasm::disassemble;
pub use dispatch::{
    Dispatch, Fault, FaultKind, Inputs, MAX_WAVE_INSTRUCTIONS, Stats, run_dispatch,
};
pub use exec::{Access, ExecError};
pub use fidelity::{Fidelity, FidelityCounts};
pub use inst::{Encoding, Inst, Operand, Syntax, flags, modifiers};
pub use memory::{Memory, OutOfBounds, Regions};
pub use op::Op;
pub use program::{DecodeError, MAX_CODE_BYTES, Program};
pub use workgroups::{MAX_THREADS, run_dispatch_threads};

//! # amdgpu-hal
//!
//! IREE's GPU hardware abstraction layer pieces for AMD GPUs, re-implemented
//! in Rust and simulation-first: device groups and their topology, the HIP
//! driver, and AMDGPU executable loading. Every HSA and HIP call goes through
//! the backend traits in [`backend`]; the default backend is a deterministic
//! simulated ROCm node ([`amdgpu_sim`]), so everything runs without a GPU.
//!
//! See `ARCHITECTURE.md` for the module map and the data flow.
#![cfg_attr(not(feature = "real"), forbid(unsafe_code))]
#![cfg_attr(feature = "real", deny(unsafe_code))]
#![warn(missing_docs)]

pub mod amdgpu;
pub mod backend;
pub mod cli;
pub mod codeobj;
pub mod device;
pub mod executable;
pub mod group;
pub mod hip;
pub mod status;
pub mod topology;
pub mod wrapped;

pub use status::{Result, ResultExt, Status, StatusCode};

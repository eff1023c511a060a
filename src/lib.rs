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

pub mod backend;
pub mod status;

pub use status::{Result, ResultExt, Status, StatusCode};

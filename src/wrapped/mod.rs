//! IREE's wrapped executables: the 64-byte header, the `AMD1` (AMDGPU) and
//! `HIP1` (HIP) FlatBuffers, their verification against device limits, and
//! IREE's rules for taking the code object out of them; and the bytecode
//! modules (`.vmfb`) that carry them.
//!
//! The FlatBuffer code is generated (crate `amdgpu-hal-schemas`, from
//! `schemas/*.fbs`); everything here reads it only after the `flatbuffers`
//! verifier has accepted the buffer with [`verify::VERIFIER_OPTIONS`].

pub mod amd1;
pub mod builder;
pub mod header;
pub mod hip;
pub mod infer;
pub mod offload_bundle;
pub mod pack;
pub mod verify;
pub mod vmfb;

pub use amd1::Amd1Executable;
pub use header::{DataExtent, ExecutableHeader, HEADER_SIZE};
pub use hip::{Hip1Executable, HipLimits};
pub use infer::{Container, InferredFormat, infer_format};
pub use pack::{PackOptions, pack};
pub use verify::DeviceLimits;

/// The generated FlatBuffer types of the `AMD1` schema.
pub use amdgpu_hal_schemas::amdgpu::iree::hal::amdgpu as amd1_fb;
/// The generated FlatBuffer types of the `HIP1` schema.
pub use amdgpu_hal_schemas::hip::iree::hal::hip as hip1_fb;

//! IREE's AMDGPU driver: the HSA agents it runs on, GPU agents as HAL
//! devices with their links, executables loaded on the GPUs a queue affinity
//! selects, and the pieces under dispatches (kernel arguments, packets,
//! profiling metadata).
//!
//! Nothing here is reached from below: the generic layers (`backend`,
//! `device`, `topology`, `group`, `codeobj`, `wrapped`) never import it.

pub mod agents;
pub mod device;
pub mod dispatch;
pub mod executable;
pub mod isa;
pub mod kernarg;
pub mod profile;
pub mod queue_affinity;

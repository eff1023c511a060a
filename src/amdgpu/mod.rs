//! The AMDGPU pieces under executables: queue affinity, kernel arguments and
//! kernarg layouts, dispatch descriptors and profiling metadata.

pub mod agents;
pub mod dispatch;
pub mod isa;
pub mod kernarg;
pub mod profile;
pub mod queue_affinity;

//! AMDGPU executables: creating them from wrapped or raw HSACO bytes on the
//! selected devices of a topology, and everything a dispatch needs afterwards.
//!
//! - [`plan`]: the backend-independent checks that turn bytes into a load plan.
//! - [`loader`]: [`create`] — preflight, load, kernel args, device tables, descriptors, profiling.
//! - [`loaded`]: [`Executable`] and its O(1) lookups, globals, destruction.
//! - [`reflection`]: export infos and parameters.

pub mod loaded;
pub mod loader;
pub mod plan;
pub mod reflection;

pub use loaded::{DeviceKernelArgs, Executable, GlobalBuffer};
pub use loader::{ExecutableParams, SharedExecutable, create, create_shared, is_wrapped};
pub use plan::{Container, LoadPlan};
pub use reflection::{ExportFlags, ExportInfo, Parameter, ParameterType, Reflection};

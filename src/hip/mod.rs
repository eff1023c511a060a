//! The HIP driver: IREE's `hip_driver.c` over the backend HIP trait.
//!
//! | module | what |
//! |---|---|
//! | [`text`] | IREE's hex-byte rule; strict integers |
//! | [`uuid`] | device UUIDs and `GPU-` paths |
//! | [`path`] | the device path grammar (default / UUID / index / comma list) |
//! | [`options`] | driver options and device parameters from IREE's flag pairs |
//! | [`search_paths`] | which HIP library files to try, and the UNAVAILABLE message |
//! | [`rccl`] | the NCCL version rule and deferred "unavailable" collectives |
//! | [`dump`] | `dump_device_info`'s lines |
//! | [`driver`] | creation, enumeration, dump, device selection |
//! | [`device`] | the logical HIP device over k physical devices |
//! | [`hal`] | the logical device as a HAL device: capabilities, edge refinement |

pub mod device;
pub mod driver;
pub mod dump;
pub mod error;
pub mod hal;
pub mod options;
pub mod path;
pub mod rccl;
pub mod search_paths;
pub mod text;
pub mod uuid;

pub use device::{HipLogicalDevice, PeerLink, PhysicalDevice};
pub use driver::{DeviceId, DeviceInfo, HipDriver, LoadedHip};
pub use options::{CommandBufferMode, DeviceParams, DriverOptions, HipOptions};
pub use path::{DevicePath, DeviceSpec, MAX_PHYSICAL_DEVICES};
pub use search_paths::SearchPath;
pub use uuid::{AgentUuid, DeviceUuid};

/// The driver's registry name.
pub const DRIVER_NAME: &str = "hip";
/// The driver's full name.
pub const DRIVER_FULL_NAME: &str = "HIP HAL driver (via dylib)";

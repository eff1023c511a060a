//! Device topology: the packed edge words, device capabilities and the edge
//! derived from them, the topology builder and the immutable N×N matrix.
//!
//! - [`edge`]: the 128-bit [`Edge`] with typed fields, [`InteropMode`],
//!   [`LinkClass`], [`TopologyCapabilities`], [`HandleTypes`] and the canned
//!   [`Edge::SELF`] / [`Edge::CROSS_DRIVER`] edges.
//! - [`capabilities`]: [`DeviceCapabilities`] and [`edge_from_capabilities`].
//! - [`numa`]: the SLIT behind [`NumaDistances`] (sysfs by default).
//! - [`builder`] / [`matrix`]: [`TopologyBuilder`] → [`Topology`].
//! - `format`: `Display` for edges and [`Topology::dump_matrix`].

pub mod builder;
pub mod capabilities;
pub mod edge;
mod format;
pub mod matrix;
pub mod numa;

pub use builder::TopologyBuilder;
pub use capabilities::{DeviceCapabilities, DeviceCapabilityFlags, edge_from_capabilities};
pub use edge::{Edge, HandleTypes, InteropMode, LinkClass, TopologyCapabilities};
pub use matrix::{PeerBitmaps, Topology};
pub use numa::{NumaDistances, SlitTable, SysfsNumaDistances};

/// The most devices in one topology (and one device group).
pub const MAX_DEVICE_COUNT: usize = 32;

/// A set of devices of one topology: bit `j` is device `j`.
pub type DeviceBitmap = u32;

/// IREE's "no device" ordinal.
pub const DEVICE_ORDINAL_INVALID: u32 = u32::MAX;

const _: () = assert!(DeviceBitmap::BITS as usize >= MAX_DEVICE_COUNT);

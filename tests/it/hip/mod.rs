//! The HIP driver: mocks, the simulator, properties, library search paths.

mod driver_mock;
mod driver_props;
mod driver_sim;
mod path_props;

//! AMDGPU executable loading: fixtures, the simulator, mocks, faults, properties, concurrency.

mod concurrency;
mod faults;
mod fixtures;
mod mock;
mod props;
mod sim;

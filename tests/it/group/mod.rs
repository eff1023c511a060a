//! Device groups and queue affinity (IREE's cases) and the HAL over scripted backends.

mod backend_mock;
mod device_group_iree;
mod queue_affinity_iree;

//! The C library's integration tests in one binary (`cargo test -p
//! amdgpu-sim-ffi --test it`): one module per suite, `MODULE::` filters one.

// Shared with `rocminfo` (its parser has unit tests of its own).
mod rocminfo_format;

mod aql;
mod child;
mod hip_streams;
mod iree_blits;
mod iree_built;
mod iree_packets;
mod iree_pm4_dispatch;
mod iree_symbols;
mod kernels;
mod kfd;
mod pinned_memory;
mod pool_memory;
mod published_dumps;
mod queues;
mod regions;
mod rocminfo;
mod signals;
mod sim_libs;
mod vendor_packets;
mod vmem;

//! The real backends (feature `real`): each vendor library, and the CLI over them.

mod backend;
mod cli;
mod cuda;
mod gpu;
mod hip;
mod hsa;
mod nccl;
mod nvml;

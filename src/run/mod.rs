//! Running an unmodified program on the simulated node (`amdgpu-hal run`):
//! what the CLI needs besides its arguments and the child process.
//!
//! - [`libraries`]: where the node's C library (`libamdgpu_sim_ffi.so`)
//!   and the `/dev/kfd` stand-in (`libamdgpu_sim_kfd.so`) are found from an
//!   installed or a freshly built CLI, and the one line that says what is
//!   missing;
//! - [`environment`]: the vendor library names linked to the C library in
//!   a private directory (what `scripts/sim-libs.sh` makes) and the
//!   environment a program needs to find the node there (the dynamic
//!   loader's path and preload, IREE's `IREE_HAL_AMDGPU_LIBHSA_PATH`, the
//!   simulator's `AMDGPU_SIM_*` variables);
//! - [`report`]: the reports the C library writes at exit
//!   (`AMDGPU_SIM_REPORT`, one per process of the run) merged, the
//!   failure they show (a kernel that faulted) and the paragraph printed
//!   at exit.
//!
//! Nothing here starts a process: the CLI does (`src/bin/amdgpu-hal/run.rs`),
//! so that a library user can run a program its own way with the same
//! environment.

pub mod environment;
pub mod libraries;
pub mod report;

//! The root crate's integration tests in one binary (`cargo test --test it`):
//! one module per suite, the shared helpers compiled once. Each suite's
//! tests are named `MODULE::...`, so `cargo test --test it cli_errors::`
//! runs one suite. `tests/sim_ffi.rs` stays a binary of its own (its own
//! `main`, see Cargo.toml).
//!
//! Process-wide: `memory_bounds` installs this binary's global allocator, a
//! counting one that counts per thread (each test runs on its own thread),
//! so the other suites run beside it unchanged.
//!
//! Proptest keeps a module's regression seeds in `tests/proptest-regressions/
//! MODULE.txt`: its default place (`SourceParallel`: beside the nearest
//! folder above the source that holds a `main.rs`, here `tests/it`).

// Shared helpers.
mod exec_support;
mod mocks;
#[cfg(feature = "real")]
mod real_support;
mod support;
mod sweep;

// The suites (formerly tests/MODULE.rs). `real_*` need the real backend.
mod backend_mock;
mod capture_roundtrip;
mod cli_conventions;
mod cli_devices;
mod cli_errors;
mod cli_identity;
mod cli_load;
mod cli_newcomer;
mod cli_snapshots;
mod cli_topology;
mod cli_wrapped;
mod codeobj_elf;
mod codeobj_fixtures;
mod codeobj_fuzz_corpus;
mod codeobj_metadata;
mod codeobj_notes;
mod codeobj_split;
mod codeobj_symbols;
mod codeobj_target_id;
mod codeobj_truncation;
mod device_group_iree;
mod executable_concurrency;
mod executable_faults;
mod executable_fixtures;
mod executable_mock;
mod executable_props;
mod executable_sim;
mod fault_sweep;
mod fuzz_replay;
mod h200_replay;
mod hip_cli;
mod hip_driver_mock;
mod hip_driver_props;
mod hip_driver_sim;
mod hip_path_props;
mod hostile_inputs;
mod iree_client;
mod iree_cts;
mod isa_decode;
mod kernels_corpus;
mod machine_format_doc;
mod memory_bounds;
mod optional_packages;
mod queue_affinity_iree;
mod readme_walkthrough;
#[cfg(feature = "real")]
mod real_backend;
#[cfg(feature = "real")]
mod real_cli;
#[cfg(feature = "real")]
mod real_cuda;
#[cfg(feature = "real")]
mod real_gpu;
#[cfg(feature = "real")]
mod real_hip;
#[cfg(feature = "real")]
mod real_hsa;
#[cfg(feature = "real")]
mod real_nccl;
#[cfg(feature = "real")]
mod real_nvml;
mod reliability_props;
mod requires_contract;
mod schemas_layout;
mod sim_faults;
mod sim_hip;
mod sim_images;
mod sim_loader;
mod sim_memory;
mod topology_iree;
mod topology_presets;
mod topology_props;
mod topology_report;
mod wrapped_fixtures;
mod wrapped_hostile;
mod wrapped_infer;
mod wrapped_inspect;
mod wrapped_proptest;

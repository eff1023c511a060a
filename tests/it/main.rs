//! The root crate's integration tests in one binary (`cargo test --test it`):
//! one module per suite, in folders by area, the shared helpers compiled
//! once. Each suite's tests are named `AREA::SUITE::...`, so `cargo test
//! --test it cli::errors::` runs one suite and `cli::` one area. `tests/sim_ffi.rs` stays a binary of its own (its own
//! `main`, see Cargo.toml).
//!
//! Process-wide: `inputs::memory_bounds` installs this binary's global allocator, a
//! counting one that counts per thread (each test runs on its own thread),
//! so the other suites run beside it unchanged.
//!
//! Proptest keeps a suite's regression seeds in `tests/proptest-regressions/
//! AREA/SUITE.txt`: its default place (`SourceParallel`: beside the nearest
//! folder above the source that holds a `main.rs`, here `tests/it`).

// Shared helpers.
mod exec_support;
mod mocks;
#[cfg(feature = "real")]
mod real_support;
mod support;
mod sweep;

// The suites, in folders by area (`tests/it/AREA/SUITE.rs`).
mod cli;
mod codeobj;
mod executable;
mod group;
mod hip;
mod inputs;
#[cfg(feature = "real")]
mod real;
mod sim;
mod topology;
mod wrapped;

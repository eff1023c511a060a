//! The simulator's integration tests in one binary (`cargo test -p amdgpu-sim
//! --test it`): one module per suite, `MODULE::` filters one.
//! Proptest's regression seeds: `sim/tests/proptest-regressions/MODULE.txt`.

mod elf_props;
mod machine_limits;
mod machine_validation;
mod pm4_props;

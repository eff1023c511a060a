//! Hostile input across every parser: the table, fuzz replay, memory bounds, properties, and the skip rule's contract.

mod fuzz_replay;
mod hostile;
mod memory_bounds;
mod optional_packages;
mod reliability_props;
mod requires_contract;

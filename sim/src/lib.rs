//! A deterministic simulated ROCm node.
#![forbid(unsafe_code)]

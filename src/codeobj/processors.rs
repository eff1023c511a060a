//! The AMDGPU processor table: every `gfx*` processor and generic family with
//! its `EF_AMDGPU_MACH` value, its generic code-object family and the target
//! features it supports (its sources: `amdgpu_sys::processors`). The table is
//! `amdgpu-sys`'s (the simulator's loader reads the same one); this module is
//! its place among the code-object parsers. Lookups are `const`: O(1) by
//! machine value, O(log n) by name.

pub use amdgpu_sys::processors::{PROCESSOR_COUNT, PROCESSORS, Processor, by_mach, by_name};

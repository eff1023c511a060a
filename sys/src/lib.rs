//! # amdgpu-sys
//!
//! The C ABI of the vendor libraries `amdgpu-hal` speaks, written once for
//! every crate of the workspace: the HAL (`backend::dylib` calls the real
//! libraries, `backend::sim` adapts the simulator), the simulator
//! (`amdgpu-sim`) and the simulator as a C library (`amdgpu-sim-ffi`).
//!
//! - [`hsa_status`], [`hip_error`], [`nccl`]: `hsa_status_t`, `hipError_t`
//!   and `ncclResult_t`, every value with its C name (and for HSA and HIP
//!   its description, [`codes::CodeEntry`]).
//! - [`hsa_types`]: the `repr(C)` HSA structs (handles, `hsa_dim3_t`,
//!   `hsa_amd_memory_pool_link_info_t`, the AMD loader table) with their
//!   sizes and offsets asserted at compile time.
//! - [`hsa_info`]: the info attributes (`hsa_agent_info_t`,
//!   `hsa_isa_info_t`, ...) as enums, each attribute's C value size known.
//! - [`hsa_values`]: the values those attributes answer (device types,
//!   segments, pool access, link types, ...).
//! - [`hip_types`]: `hipDeviceProp_t` (HIP 5 layout) and the Rust
//!   `HipDeviceProps` both sides fill from it, `hipUUID`, `dim3`, device
//!   and peer-to-peer attributes.
//! - [`hip_device_prop_r0600`]: `hipDeviceProp_tR0600`, ROCm 6's
//!   `hipDeviceProp_t`, every offset asserted at compile time.
//! - [`processors`]: the AMDGPU processor table (`EF_AMDGPU_MACH`).
//!
//! The values are those of Debian's ROCm 5.2 headers (`hsa.h`,
//! `hsa_ext_amd.h`, `hsa_ven_amd_loader.h`, `hip_runtime_api.h`) plus the
//! few ROCm 6 additions the HAL reads; `tests/headers.rs` compiles every
//! HSA value, size and offset here against the installed headers.
//!
//! No logic beyond tables and `const` lookups, and no `unsafe`.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

pub mod codes;
pub mod hip_device_prop_r0600;
pub mod hip_error;
pub mod hip_types;
pub mod hsa_info;
pub mod hsa_status;
pub mod hsa_types;
pub mod hsa_values;
pub mod nccl;
pub mod processors;

/// A NUL-terminated literal as a C string (a missing or inner NUL fails
/// the build: every caller is a `const` table entry).
const fn c_str(text: &'static str) -> &'static core::ffi::CStr {
    match core::ffi::CStr::from_bytes_with_nul(text.as_bytes()) {
        Ok(c) => c,
        Err(_) => panic!("not a C string"),
    }
}

/// Whether two strings are equal, in a `const` context.
const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

//! The backends behind the HSA and HIP calls.

#[cfg(feature = "real")]
#[allow(unsafe_code)]
pub mod dylib;

//! The device's cache and shared-memory configuration
//! (`hipDeviceSetCacheConfig`, `hipDeviceGetCacheConfig`,
//! `hipDeviceSetSharedMemConfig`, `hipDeviceGetSharedMemConfig`), which
//! CUDA programs ported to HIP set: ROCm validates the value and changes
//! nothing ("No way to set cache config yet", clr's
//! hip_device_runtime.cpp), and answers its fixed configuration, as here.

use std::ffi::c_int;

use amdgpu_sim::HipCode;

use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{call, put};

/// `hipFuncCache_t`: `hipFuncCachePreferNone` … `hipFuncCachePreferEqual`.
const CACHE_CONFIGS: std::ops::RangeInclusive<c_int> = 0..=3;
/// `hipFuncCachePreferNone`, what ROCm answers.
const CACHE_PREFER_NONE: c_int = 0;
/// `hipSharedMemConfig`: `hipSharedMemBankSizeDefault` … `EightByte`.
const SHARED_MEM_CONFIGS: std::ops::RangeInclusive<c_int> = 0..=2;
/// `hipSharedMemBankSizeFourByte`, what ROCm answers.
const SHARED_MEM_FOUR_BYTE: c_int = 1;

c_exports! {
    /// `hipDeviceSetCacheConfig`: a valid `hipFuncCache_t` is accepted and changes nothing.
    fn hipDeviceSetCacheConfig(config: c_int) -> hipError_t {
        call("hipDeviceSetCacheConfig", |_| {
            CACHE_CONFIGS.contains(&config).then_some(()).ok_or(HipCode::INVALID_VALUE)
        })
    }

    /// `hipDeviceGetCacheConfig`: `hipFuncCachePreferNone`.
    ///
    /// # Safety
    /// `config` is NULL or points at a writable `hipFuncCache_t`.
    unsafe fn hipDeviceGetCacheConfig(config: *mut c_int) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call("hipDeviceGetCacheConfig", |_| unsafe { put(config, CACHE_PREFER_NONE) })
    }

    /// `hipDeviceSetSharedMemConfig`: a valid `hipSharedMemConfig` is accepted and changes nothing.
    fn hipDeviceSetSharedMemConfig(config: c_int) -> hipError_t {
        call("hipDeviceSetSharedMemConfig", |_| {
            SHARED_MEM_CONFIGS.contains(&config).then_some(()).ok_or(HipCode::INVALID_VALUE)
        })
    }

    /// `hipDeviceGetSharedMemConfig`: `hipSharedMemBankSizeFourByte`.
    ///
    /// # Safety
    /// `config` is NULL or points at a writable `hipSharedMemConfig`.
    unsafe fn hipDeviceGetSharedMemConfig(config: *mut c_int) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call("hipDeviceGetSharedMemConfig", |_| unsafe { put(config, SHARED_MEM_FOUR_BYTE) })
    }
}

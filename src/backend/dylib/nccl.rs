//! The RCCL slot: RCCL (`librccl.so`) on AMD, NCCL (`libnccl.so.2`) on
//! NVIDIA — one ABI (`ncclResult_t`, `ncclGetVersion`).
//!
//! Load order follows IREE's: open the library, resolve `ncclGetVersion`,
//! check the version with the HIP driver's rule
//! ([`crate::backend::nccl_version::check_nccl_version`]: major 2, at least 2.18.0),
//! then resolve the rest of
//! the table. Unlike IREE, a library that passes the version check but lacks
//! a symbol is also `UNAVAILABLE`, so the optional library stays optional.

#![allow(non_camel_case_types)]

use std::ffi::{CStr, c_char, c_void};

use super::library::{DynamicLibrary, LibrarySpec};
use super::symbols::symbol_table;
use crate::backend::nccl_version::check_nccl_version;
use crate::status::{Result, ResultExt};

pub use amdgpu_sys::nccl::ncclResult_t;

symbol_table! {
    /// The version entry point, resolved first.
    pub struct NcclVersionSymbols {
        required {
            fn ncclGetVersion(*mut i32) -> ncclResult_t;
        }
        optional {}
        checked {}
    }
}

symbol_table! {
    /// NCCL/RCCL entry points (IREE's `rccl_dynamic_symbol_table.h`).
    pub struct NcclSymbols {
        required {
            fn ncclGetVersion(*mut i32) -> ncclResult_t;
            fn ncclGetErrorString(ncclResult_t) -> *const c_char;
            fn ncclGetUniqueId(*mut c_void) -> ncclResult_t;
        }
        optional {}
        checked {
            ncclCommInitRankConfig, ncclCommInitRank, ncclCommInitAll, ncclCommSplit,
            ncclCommFinalize, ncclCommDestroy, ncclCommAbort, ncclGetLastError,
            ncclCommGetAsyncError, ncclCommCount, ncclCommCuDevice, ncclCommUserRank,
            ncclRedOpCreatePreMulSum, ncclRedOpDestroy, ncclReduce, ncclBcast, ncclBroadcast,
            ncclAllReduce, ncclReduceScatter, ncclAllGather, ncclSend, ncclRecv, ncclGroupStart,
            ncclGroupEnd,
        }
    }
}

/// A collective library that passed the version check.
pub struct NcclLibrary {
    symbols: NcclSymbols,
    version: i32,
    library: DynamicLibrary,
}

impl std::fmt::Debug for NcclLibrary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NcclLibrary")
            .field("path", &self.library.path())
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

impl NcclLibrary {
    /// Opens `spec` ([`super::library::RCCL`] or [`super::library::NCCL`]),
    /// checks its version and resolves the table. Every failure is
    /// `UNAVAILABLE`: the caller treats the library as absent.
    pub fn load(spec: &LibrarySpec, search_paths: &[String]) -> Result<NcclLibrary> {
        NcclLibrary::from_library(DynamicLibrary::open(spec, search_paths)?)
    }

    /// [`NcclLibrary::load`] over an already opened library.
    pub fn from_library(library: DynamicLibrary) -> Result<NcclLibrary> {
        let name = library.spec().display_name;
        let get_version = NcclVersionSymbols::resolve(&library)?.ncclGetVersion;
        let mut version = 0;
        // SAFETY: valid out-pointer; `get_version` came from `library`,
        // which is alive for the call.
        let result = unsafe { get_version(&mut version) };
        if result != 0 {
            return Err(crate::status!(
                Unavailable,
                "{name} ncclGetVersion failed ({result})"
            ));
        }
        let decoded = check_nccl_version(version)
            .annotate_with(|| format!("{name} at {}", library.path()))?;
        let symbols =
            NcclSymbols::resolve(&library).annotate_with(|| format!("{name} {decoded}"))?;
        Ok(NcclLibrary {
            symbols,
            version,
            library,
        })
    }

    /// The path the library was opened by.
    pub fn path(&self) -> &str {
        self.library.path()
    }

    /// The version code read at load.
    pub fn version(&self) -> i32 {
        self.version
    }

    /// `ncclGetVersion` (called again).
    pub fn get_version(&self) -> std::result::Result<i32, ncclResult_t> {
        let mut version = 0;
        // SAFETY: valid out-pointer.
        match unsafe { (self.symbols.ncclGetVersion)(&mut version) } {
            0 => Ok(version),
            error => Err(error),
        }
    }

    /// `ncclGetErrorString`.
    pub fn get_error_string(&self, result: ncclResult_t) -> String {
        // SAFETY: any value is accepted; the result is a static string or NULL.
        let text = unsafe { (self.symbols.ncclGetErrorString)(result) };
        if text.is_null() {
            return String::new();
        }
        // SAFETY: non-null static NUL-terminated string.
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    }

    /// `ncclGetUniqueId` into its 128-byte `ncclUniqueId`.
    pub fn get_unique_id(&self) -> std::result::Result<[u8; 128], ncclResult_t> {
        let mut id = [0u8; 128];
        // SAFETY: `ncclUniqueId` is `char internal[128]`.
        match unsafe { (self.symbols.ncclGetUniqueId)(id.as_mut_ptr().cast()) } {
            0 => Ok(id),
            error => Err(error),
        }
    }
}

//! The next definition of each interposed function (`dlsym(RTLD_NEXT)`:
//! the one the process would have called without the preload, normally the
//! C library's), looked up on first use and kept.

use std::ffi::{CStr, c_void};
use std::sync::atomic::{AtomicPtr, Ordering};

/// A function of the C library found after this one.
pub(crate) struct Next {
    name: &'static CStr,
    address: AtomicPtr<c_void>,
}

impl Next {
    /// The next definition of `name`, looked up when first asked for.
    pub(crate) const fn new(name: &'static CStr) -> Next {
        Next {
            name,
            address: AtomicPtr::new(std::ptr::null_mut()),
        }
    }

    /// Its address; `None` when no later object defines it (a C library
    /// without the fortified variants, say). Two threads asking at once
    /// both look it up and store the same address.
    pub(crate) fn address(&self) -> Option<*mut c_void> {
        let known = self.address.load(Ordering::Acquire);
        if !known.is_null() {
            return Some(known);
        }
        // SAFETY: `name` is a NUL-terminated string; `RTLD_NEXT` asks the
        // loader for the definition after the object holding this code.
        // `dlsym` neither opens nor closes files, so it cannot re-enter the
        // interposer.
        let found = unsafe { libc::dlsym(libc::RTLD_NEXT, self.name.as_ptr()) };
        if found.is_null() {
            return None;
        }
        self.address.store(found, Ordering::Release);
        Some(found)
    }
}

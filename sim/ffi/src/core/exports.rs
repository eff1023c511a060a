//! The `#[no_mangle]` export macro: every C function of the library is
//! defined through it, under its vendor name, as a span of the timeline
//! when one is written. It names the runtime and the timeline; the HSA and
//! HIP modules use it.

/// Defines `extern "C"` functions exported under their own (unmangled)
/// names, so the library can stand in for `libhsa-runtime64` and
/// `libamdhip64`, each a span on the timeline when one is written
/// (`super::timeline`). An export that dereferences a caller's pointer is
/// declared `unsafe fn` (its doc states the caller's contract under
/// `# Safety`) and becomes `unsafe extern "C"`; the others stay safe.
macro_rules! c_exports {
    () => {};
    (
        $(#[$meta:meta])*
        unsafe fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block
        $($rest:tt)*
    ) => {
        $(#[$meta])*
        // SAFETY: exporting an unmangled symbol can clash with another
        // library's definition of the same name; standing in for the vendor
        // runtimes under their exact names is this library's purpose, and it
        // is meant to be loaded instead of them, never next to them.
        #[allow(unsafe_code)]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name($($arg: $ty),*) $(-> $ret)? {
            let _span = $crate::core::timeline::CallSpan::enter(
                $crate::core::runtime::timeline(),
                stringify!($name),
            );
            $body
        }
        $crate::core::exports::c_exports! { $($rest)* }
    };
    (
        $(#[$meta:meta])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block
        $($rest:tt)*
    ) => {
        $(#[$meta])*
        // SAFETY: as above (an unmangled symbol standing in for the vendor's).
        #[allow(unsafe_code)]
        #[unsafe(no_mangle)]
        pub extern "C" fn $name($($arg: $ty),*) $(-> $ret)? {
            let _span = $crate::core::timeline::CallSpan::enter(
                $crate::core::runtime::timeline(),
                stringify!($name),
            );
            $body
        }
        $crate::core::exports::c_exports! { $($rest)* }
    };
}
pub(crate) use c_exports;

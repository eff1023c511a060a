//! The functions the preload defines in place of the C library's: `open`,
//! `open64`, `openat`, `openat64`, the fortified `__open_2`, `__open64_2`,
//! `__openat_2`, `__openat64_2`, `close` and `ioctl`.
//!
//! Each one answers for the stand-in's own files and hands every other call
//! to the next definition (`dlsym(RTLD_NEXT)`: the C library's) with the
//! caller's arguments untouched. Only a path of exactly `/dev/kfd` is the
//! stand-in's (an `openat` directory is ignored for it, as the kernel
//! ignores it for an absolute path; other spellings such as `/dev//kfd`, and
//! `fopen`, which opens inside the C library without calling `open`, reach
//! the system), and only while `AMDGPU_SIM_MACHINE` names a machine: without
//! one (the reason is printed once on stderr) the process sees the system's
//! `/dev/kfd`, as the C library leaves a process without a node.
//!
//! # Re-entry
//! The stand-in opens and closes files itself (the machine description,
//! through Rust's `std`, whose calls land here too): those paths are not
//! `/dev/kfd`, so they go straight to the next definition; the descriptor
//! set is lock-free ([`crate::files`]), so a `close` from inside a load
//! never waits on the stand-in; and a `/dev/kfd` opened while the machine
//! is being loaded (a machine "file" named `/dev/kfd`) goes to the system
//! instead of waiting on the load.
//!
//! # The variadic C signatures
//! `open(const char *, int, ...)`, `openat(int, const char *, int, ...)`
//! and `ioctl(int, unsigned long, ...)` are variadic in C; Rust cannot
//! define a variadic function, so each is defined with its one optional
//! argument as a fixed parameter: `mode_t mode` (`unsigned int`) and
//! `void *arg`. On the targets this module is built for, a caller passes
//! the variadic arguments exactly where it would pass a fixed parameter of
//! the same type: on x86-64 (System V) in the next integer register (`rdx`,
//! or `rcx` for `openat`'s mode), with `al` holding a vector-register count
//! that a non-variadic callee ignores; on AArch64 Linux (AAPCS64, unlike
//! Apple's) in the next `x` register. A caller that passes no mode or no
//! argument leaves that register holding an unspecified value: the
//! definitions never look at the mode and hand it on as it came (the next
//! `open` reads it only for `O_CREAT`/`O_TMPFILE`, when a correct caller
//! passed it), and `ioctl` dereferences its argument only for a `/dev/kfd`
//! request whose size says it has one. Calls to the next definitions go
//! through C-variadic function pointers, which Rust can call.

use std::cell::Cell;
use std::ffi::{c_char, c_int, c_ulong, c_void};
use std::io::Write;
use std::sync::OnceLock;

use crate::files;
use crate::ioctl::{EFAULT, MAX_ARGS_BYTES, Request};
use crate::next::Next;
use crate::node::KfdNode;

/// The path the stand-in answers, NUL included.
const KFD_PATH: &[u8] = b"/dev/kfd\0";

type OpenFn = unsafe extern "C" fn(*const c_char, c_int, ...) -> c_int;
type OpenAtFn = unsafe extern "C" fn(c_int, *const c_char, c_int, ...) -> c_int;
type Open2Fn = unsafe extern "C" fn(*const c_char, c_int) -> c_int;
type OpenAt2Fn = unsafe extern "C" fn(c_int, *const c_char, c_int) -> c_int;
type CloseFn = unsafe extern "C" fn(c_int) -> c_int;
type IoctlFn = unsafe extern "C" fn(c_int, c_ulong, ...) -> c_int;

static NEXT_OPEN: Next = Next::new(c"open");
static NEXT_OPEN64: Next = Next::new(c"open64");
static NEXT_OPENAT: Next = Next::new(c"openat");
static NEXT_OPENAT64: Next = Next::new(c"openat64");
static NEXT_OPEN_2: Next = Next::new(c"__open_2");
static NEXT_OPEN64_2: Next = Next::new(c"__open64_2");
static NEXT_OPENAT_2: Next = Next::new(c"__openat_2");
static NEXT_OPENAT64_2: Next = Next::new(c"__openat64_2");
static NEXT_CLOSE: Next = Next::new(c"close");
static NEXT_IOCTL: Next = Next::new(c"ioctl");

/// The machine's KFD facts, loaded at the first `/dev/kfd` open; `None`
/// when the environment names no machine.
static NODE: OnceLock<Option<KfdNode>> = OnceLock::new();

thread_local! {
    /// Set while this thread loads the machine.
    static LOADING: Cell<bool> = const { Cell::new(false) };
}

/// The node, loaded from the environment on first use (the reason there
/// is none printed once); `None` too when this thread is loading it.
fn node() -> Option<&'static KfdNode> {
    if LOADING.with(Cell::get) {
        return None;
    }
    NODE.get_or_init(|| {
        LOADING.with(|loading| loading.set(true));
        let machine = amdgpu_sim::presets::machine_from_env();
        LOADING.with(|loading| loading.set(false));
        match machine {
            Ok(machine) => Some(KfdNode::of(&machine)),
            Err(message) => {
                // A failed write to stderr is no reason to fail the open.
                let _ = writeln!(
                    std::io::stderr(),
                    "amdgpu-sim-kfd: {message}; /dev/kfd is left to the system"
                );
                None
            }
        }
    })
    .as_ref()
}

/// Sets the calling thread's `errno` and returns the C failure value.
fn fail(errno: c_int) -> c_int {
    // SAFETY: `__errno_location` returns the calling thread's `errno`,
    // valid for writes for the thread's lifetime.
    unsafe { *libc::__errno_location() = errno };
    -1
}

/// Whether `path` is exactly `/dev/kfd`.
///
/// # Safety
/// `path` is NULL or a NUL-terminated string.
unsafe fn is_kfd_path(path: *const c_char) -> bool {
    if path.is_null() {
        return false;
    }
    for (i, &expected) in KFD_PATH.iter().enumerate() {
        // SAFETY: bytes 0..i matched KFD_PATH's, none of them NUL, so byte
        // i is inside the caller's string (at most its terminating NUL).
        let byte = unsafe { path.add(i).read() } as u8;
        if byte != expected {
            return false;
        }
    }
    true
}

/// The stand-in's answer to opening `path`: `Some` (a descriptor, or -1
/// with `errno`) when `path` is `/dev/kfd` and a machine is named.
///
/// # Safety
/// `path` is NULL or a NUL-terminated string.
unsafe fn open_kfd(path: *const c_char, flags: c_int) -> Option<c_int> {
    // SAFETY: the caller's contract.
    if !unsafe { is_kfd_path(path) } {
        return None;
    }
    node()?;
    Some(match files::open(flags & libc::O_CLOEXEC != 0) {
        Ok(fd) => fd,
        Err(errno) => fail(errno),
    })
}

/// The next definition as a function pointer of type `F`, or `ENOSYS`.
///
/// # Safety
/// `F` is the C signature of `next`'s function.
unsafe fn resolve<F: Copy>(next: &Next) -> Result<F, c_int> {
    const { assert!(size_of::<F>() == size_of::<*mut c_void>()) };
    let address = next.address().ok_or(libc::ENOSYS)?;
    // SAFETY: `address` is the non-null address of a function whose C
    // signature is `F` (the caller's contract), and `F` is a function
    // pointer of the same size as the address.
    Ok(unsafe { std::mem::transmute_copy::<*mut c_void, F>(&address) })
}

/// Defines `open` and `open64` (`const char *path, int flags, ...`).
macro_rules! open_path {
    ($name:ident, $next:ident) => {
        #[doc = concat!("`", stringify!($name), "(path, flags, ...)`: `/dev/kfd` is the stand-in's, any other path the C library's.")]
        ///
        /// # Safety
        /// The C contract: `path` is NULL or a NUL-terminated string;
        /// `mode` is whatever the caller passed as the variadic argument
        /// (the module's ABI note).
        // SAFETY (export): the unmangled name takes the C library's place
        // in this process; that is the preload's purpose.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(
            path: *const c_char,
            flags: c_int,
            mode: libc::mode_t,
        ) -> c_int {
            // SAFETY: the caller's contract on `path`.
            if let Some(answer) = unsafe { open_kfd(path, flags) } {
                return answer;
            }
            // SAFETY: the next definition has the C signature `OpenFn`.
            match unsafe { resolve::<OpenFn>(&$next) } {
                // SAFETY: the caller's own arguments, as it passed them.
                Ok(next) => unsafe { next(path, flags, mode) },
                Err(errno) => fail(errno),
            }
        }
    };
}

/// Defines `openat` and `openat64` (`int dirfd, const char *path, int flags, ...`).
macro_rules! open_at {
    ($name:ident, $next:ident) => {
        #[doc = concat!("`", stringify!($name), "(dirfd, path, flags, ...)`: `/dev/kfd` is the stand-in's, any other path the C library's.")]
        ///
        /// # Safety
        /// The C contract: `path` is NULL or a NUL-terminated string;
        /// `mode` is whatever the caller passed as the variadic argument
        /// (the module's ABI note).
        // SAFETY (export): as `open`'s.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(
            dirfd: c_int,
            path: *const c_char,
            flags: c_int,
            mode: libc::mode_t,
        ) -> c_int {
            // SAFETY: the caller's contract on `path`.
            if let Some(answer) = unsafe { open_kfd(path, flags) } {
                return answer;
            }
            // SAFETY: the next definition has the C signature `OpenAtFn`.
            match unsafe { resolve::<OpenAtFn>(&$next) } {
                // SAFETY: the caller's own arguments, as it passed them.
                Ok(next) => unsafe { next(dirfd, path, flags, mode) },
                Err(errno) => fail(errno),
            }
        }
    };
}

/// Defines `__open_2` and `__open64_2` (`const char *path, int flags`: the
/// calls `_FORTIFY_SOURCE` makes where no mode is passed).
macro_rules! open_path_fortified {
    ($name:ident, $next:ident) => {
        #[doc = concat!("`", stringify!($name), "(path, flags)`: `/dev/kfd` is the stand-in's, any other path the C library's (which checks the flags).")]
        ///
        /// # Safety
        /// The C contract: `path` is NULL or a NUL-terminated string.
        // SAFETY (export): as `open`'s.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(path: *const c_char, flags: c_int) -> c_int {
            // SAFETY: the caller's contract on `path`.
            if let Some(answer) = unsafe { open_kfd(path, flags) } {
                return answer;
            }
            // SAFETY: the next definition has the C signature `Open2Fn`.
            match unsafe { resolve::<Open2Fn>(&$next) } {
                // SAFETY: the caller's own arguments.
                Ok(next) => unsafe { next(path, flags) },
                Err(errno) => fail(errno),
            }
        }
    };
}

/// Defines `__openat_2` and `__openat64_2` (`int dirfd, const char *path, int flags`).
macro_rules! open_at_fortified {
    ($name:ident, $next:ident) => {
        #[doc = concat!("`", stringify!($name), "(dirfd, path, flags)`: `/dev/kfd` is the stand-in's, any other path the C library's (which checks the flags).")]
        ///
        /// # Safety
        /// The C contract: `path` is NULL or a NUL-terminated string.
        // SAFETY (export): as `open`'s.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(dirfd: c_int, path: *const c_char, flags: c_int) -> c_int {
            // SAFETY: the caller's contract on `path`.
            if let Some(answer) = unsafe { open_kfd(path, flags) } {
                return answer;
            }
            // SAFETY: the next definition has the C signature `OpenAt2Fn`.
            match unsafe { resolve::<OpenAt2Fn>(&$next) } {
                // SAFETY: the caller's own arguments.
                Ok(next) => unsafe { next(dirfd, path, flags) },
                Err(errno) => fail(errno),
            }
        }
    };
}

open_path!(open, NEXT_OPEN);
open_path!(open64, NEXT_OPEN64);
open_at!(openat, NEXT_OPENAT);
open_at!(openat64, NEXT_OPENAT64);
open_path_fortified!(__open_2, NEXT_OPEN_2);
open_path_fortified!(__open64_2, NEXT_OPEN64_2);
open_at_fortified!(__openat_2, NEXT_OPENAT_2);
open_at_fortified!(__openat64_2, NEXT_OPENAT64_2);

/// `close(fd)`: a stand-in descriptor is forgotten, then every descriptor
/// is closed by the C library (the stand-in's are real memory files).
// SAFETY (export): as `open`'s.
#[unsafe(no_mangle)]
pub extern "C" fn close(fd: c_int) -> c_int {
    files::forget(fd);
    // SAFETY: the next definition has the C signature `CloseFn`.
    match unsafe { resolve::<CloseFn>(&NEXT_CLOSE) } {
        // SAFETY: closing a descriptor dereferences nothing of the caller's.
        Ok(next) => unsafe { next(fd) },
        Err(errno) => fail(errno),
    }
}

/// `ioctl(fd, request, ...)`: on a stand-in `/dev/kfd` descriptor, the
/// KFD's answer ([`crate::ioctl`]); on any other, the C library's.
///
/// # Safety
/// The C contract: for a request whose size is not 0, `arg` is the
/// caller's argument, NULL or addressing at least that many bytes, readable
/// and writable as the request's direction says.
// SAFETY (export): as `open`'s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ioctl(fd: c_int, request: c_ulong, arg: *mut c_void) -> c_int {
    if files::is_kfd(fd)
        && let Some(Some(node)) = NODE.get()
    {
        // The kernel's `cmd` is an `unsigned int`: the low 32 bits are the
        // request the driver sees.
        let cmd = request as u32;
        // SAFETY: the caller's contract on `arg`.
        return unsafe { answer(node, cmd, arg.cast()) };
    }
    // SAFETY: the next definition has the C signature `IoctlFn`.
    match unsafe { resolve::<IoctlFn>(&NEXT_IOCTL) } {
        // SAFETY: the caller's own arguments, as it passed them.
        Ok(next) => unsafe { next(fd, request, arg) },
        Err(errno) => fail(errno),
    }
}

/// The KFD's answer to `cmd` with argument `arg`: 0, or -1 with `errno`.
///
/// # Safety
/// As [`ioctl`]'s on `arg`.
unsafe fn answer(node: &KfdNode, cmd: u32, arg: *mut u8) -> c_int {
    let request = match Request::decode(cmd) {
        Ok(request) => request,
        Err(errno) => return fail(errno),
    };
    if request.touches_argument() && arg.is_null() {
        return fail(EFAULT);
    }
    let clocks = match crate::clock::sample() {
        Ok(clocks) => clocks,
        Err(errno) => return fail(errno),
    };
    let mut args = [0u8; MAX_ARGS_BYTES];
    let copy_in = request.copy_in_len().min(MAX_ARGS_BYTES);
    // SAFETY: `arg` is not NULL (else nothing is copied), and the caller's
    // request size, which `copy_in` does not exceed, says it holds that
    // many readable bytes; `args` holds MAX_ARGS_BYTES.
    unsafe { std::ptr::copy_nonoverlapping(arg, args.as_mut_ptr(), copy_in) };
    request.answer(node, clocks, &mut args);
    let copy_out = request.copy_out_len().min(MAX_ARGS_BYTES);
    // SAFETY: as above, for writes of `copy_out` bytes.
    unsafe { std::ptr::copy_nonoverlapping(args.as_ptr(), arg, copy_out) };
    let tail = request.zeroed_tail_len();
    if tail > 0 {
        // SAFETY: a tail exists only when the caller's size exceeds the
        // answer's struct, which was copied out whole: the caller's size,
        // `copy_out + tail` bytes, is writable at `arg`.
        unsafe { std::ptr::write_bytes(arg.add(copy_out), 0, tail) };
    }
    0
}

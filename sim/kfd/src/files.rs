//! The descriptors the stand-in handed out for `/dev/kfd`, each with the
//! identity of the file behind it, and the files themselves.
//!
//! Every `close` and `ioctl` of the process asks whether its descriptor is
//! one of these, from any thread, at any time (in a signal handler too, and
//! while the stand-in itself is opening or closing files): so the set is a
//! fixed array of atomics, never locked and never allocated. A descriptor
//! can also be closed behind the stand-in's back (`dup2` over it,
//! `close_range`) and its number reused by another file: each entry keeps
//! the inode of the memory file it was, and an answer is given only while
//! the descriptor still refers to that file.

use std::sync::atomic::{AtomicI32, AtomicU64, AtomicUsize, Ordering};

/// `/dev/kfd` descriptors open at once (a KFD client opens one per
/// process; IREE's tests open a few): one more open fails with `EMFILE`.
pub const MAX_KFD_FILES: usize = 64;

/// The name of the memory files (`/proc/self/fd` shows
/// `/memfd:amdgpu-sim-kfd (deleted)`).
const FILE_NAME: &std::ffi::CStr = c"amdgpu-sim-kfd";

/// A free slot's descriptor.
const FREE: i32 = -1;
/// A slot being filled: taken, its inode not yet written (no descriptor
/// matches it).
const CLAIMED: i32 = -2;

struct Slot {
    fd: AtomicI32,
    inode: AtomicU64,
}

static SLOTS: [Slot; MAX_KFD_FILES] = [const {
    Slot {
        fd: AtomicI32::new(FREE),
        inode: AtomicU64::new(0),
    }
}; MAX_KFD_FILES];

/// Slots in use: lets the calls on other files skip the scan.
static IN_USE: AtomicUsize = AtomicUsize::new(0);

/// The inode of the file `fd` refers to, if it is open.
fn inode(fd: i32) -> Option<u64> {
    // SAFETY: an all-zero `struct stat` is a valid value of the type.
    let mut status: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: `status` is a valid, writable `struct stat`; `fstat` neither
    // opens nor closes files.
    if unsafe { libc::fstat(fd, &mut status) } != 0 {
        return None;
    }
    Some(status.st_ino)
}

/// Opens a new stand-in file: an anonymous memory file, close-on-exec when
/// `close_on_exec` (`O_CLOEXEC`), remembered until [`forget`]. `Err(errno)`
/// when the system refuses it, or `EMFILE` when [`MAX_KFD_FILES`] are open.
pub fn open(close_on_exec: bool) -> Result<i32, i32> {
    let flags = if close_on_exec { libc::MFD_CLOEXEC } else { 0 };
    // SAFETY: `FILE_NAME` is NUL-terminated; `memfd_create` is a system
    // call, not an `open`, so it does not come back here.
    let fd = unsafe { libc::memfd_create(FILE_NAME.as_ptr(), flags) };
    if fd < 0 {
        return Err(errno());
    }
    let Some(inode) = inode(fd) else {
        let error = errno();
        close_raw(fd);
        return Err(error);
    };
    if remember(fd, inode) {
        Ok(fd)
    } else {
        close_raw(fd);
        Err(libc::EMFILE)
    }
}

/// Records `fd` (a number already recorded was closed behind the
/// stand-in's back: its slot is taken over).
fn remember(fd: i32, inode: u64) -> bool {
    for slot in &SLOTS {
        if slot.fd.load(Ordering::Acquire) == fd {
            slot.inode.store(inode, Ordering::Release);
            return true;
        }
    }
    for slot in &SLOTS {
        // Claimed first, so that the inode written is this file's; the
        // descriptor is published after it, and a reader loads the
        // descriptor first.
        if slot
            .fd
            .compare_exchange(FREE, CLAIMED, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            slot.inode.store(inode, Ordering::Release);
            slot.fd.store(fd, Ordering::Release);
            IN_USE.fetch_add(1, Ordering::AcqRel);
            return true;
        }
    }
    false
}

/// The slot of `fd`, if it is recorded.
fn slot_of(fd: i32) -> Option<&'static Slot> {
    if fd < 0 || IN_USE.load(Ordering::Acquire) == 0 {
        return None;
    }
    SLOTS
        .iter()
        .find(|slot| slot.fd.load(Ordering::Acquire) == fd)
}

fn release(slot: &Slot, fd: i32) -> bool {
    let released = slot
        .fd
        .compare_exchange(fd, FREE, Ordering::AcqRel, Ordering::Acquire)
        .is_ok();
    if released {
        IN_USE.fetch_sub(1, Ordering::AcqRel);
    }
    released
}

/// Whether `fd` is a stand-in `/dev/kfd` descriptor that still refers to
/// its memory file (an entry whose number now names another file is
/// dropped).
pub fn is_kfd(fd: i32) -> bool {
    let Some(slot) = slot_of(fd) else {
        return false;
    };
    let recorded = slot.inode.load(Ordering::Acquire);
    if inode(fd) == Some(recorded) {
        return true;
    }
    release(slot, fd);
    false
}

/// Forgets `fd` (it is being closed); `true` if it was recorded.
pub fn forget(fd: i32) -> bool {
    slot_of(fd).is_some_and(|slot| release(slot, fd))
}

/// The calling thread's `errno`.
fn errno() -> i32 {
    std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO)
}

/// Closes a descriptor the stand-in made and has not handed out.
fn close_raw(fd: i32) {
    // SAFETY: `fd` is a descriptor this module just created and nobody
    // else holds; the raw system call bypasses the interposed `close`.
    unsafe {
        libc::syscall(libc::SYS_close, fd);
    }
}

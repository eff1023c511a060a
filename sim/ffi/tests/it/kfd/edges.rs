//! The stand-in at the edges, in the child under the preload: requests of
//! size 0 and NULL arguments as Linux's `kfd_ioctl` copies them
//! (`copy_from_user`/`copy_to_user` of the caller's `_IOC_SIZE`: 0 bytes
//! never fault, any other size at NULL is `EFAULT`), and descriptors as
//! `open(2)`/`close(2)` hand them out (the lowest free number, 0 included;
//! `EMFILE` with nothing left open when a process may open no more; `EBADF`
//! for -1), with other descriptors' calls leaving the stand-in's alone.

use std::ffi::{c_int, c_ulong, c_void};

use super::{
    AMDKFD_IOC_GET_VERSION, AMDKFD_IOCTL_BASE, GetVersionArgs, IOC_READ, IOC_WRITE, KFD, KFD_MAJOR,
    close, errno, ioc, ioctl, open_kfd,
};

/// `open("/dev/kfd")`: the descriptor, or `Err(errno)`.
fn try_open_kfd() -> Result<c_int, c_int> {
    // SAFETY: a NUL-terminated path; no mode needed without O_CREAT.
    match unsafe { libc::open(KFD.as_ptr(), libc::O_RDWR) } {
        -1 => Err(errno()),
        fd => Ok(fd),
    }
}

fn open_dev_null() -> c_int {
    // SAFETY: a NUL-terminated path.
    let fd = unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY) };
    assert!(fd >= 0, "/dev/null: errno {}", errno());
    fd
}

/// The number the next descriptor gets (the lowest free one).
fn lowest_free() -> c_int {
    let fd = open_dev_null();
    close(fd);
    fd
}

fn answers(fd: c_int) -> bool {
    let mut version = GetVersionArgs::default();
    ioctl(fd, AMDKFD_IOC_GET_VERSION, (&raw mut version).cast()).is_ok()
        && version.major_version == KFD_MAJOR
}

/// Size 0 copies nothing, so a NULL argument is never touched; any other
/// size at NULL faults, a read-only request's zeroed tail included.
pub(super) fn null_arguments(fd: c_int) {
    let null = std::ptr::null_mut::<c_void>();
    for nr in [0x01, 0x05] {
        let empty = ioc(IOC_READ | IOC_WRITE, AMDKFD_IOCTL_BASE, nr, 0);
        assert_eq!(ioctl(fd, empty, null), Ok(()), "request {nr:#x} of 0 bytes");
    }
    let empty_read = ioc(IOC_READ, AMDKFD_IOCTL_BASE, 0x01, 0);
    assert_eq!(ioctl(fd, empty_read, null), Ok(()));
    for size in [4, 8, 16] {
        let version: c_ulong = ioc(IOC_READ, AMDKFD_IOCTL_BASE, 0x01, size);
        assert_eq!(
            ioctl(fd, version, null),
            Err(libc::EFAULT),
            "version of {size} bytes"
        );
    }
}

/// Descriptor numbers at the edges, from no stand-in descriptor open.
pub(super) fn descriptors_at_the_edges() {
    // Calls on -1 and on the process's own standard output (a pipe to the
    // parent) are the system's, and leave the one stand-in descriptor
    // alone.
    let fd = open_kfd(libc::O_RDWR);
    // SAFETY: closing an invalid descriptor.
    assert_eq!((unsafe { libc::close(-1) }, errno()), (-1, libc::EBADF));
    let mut waiting: c_int = 0;
    assert_eq!(
        ioctl(-1, libc::FIONREAD, (&raw mut waiting).cast()),
        Err(libc::EBADF)
    );
    assert_eq!(ioctl(1, libc::FIONREAD, (&raw mut waiting).cast()), Ok(()));
    assert!(answers(fd), "after calls on -1 and 1");

    // Descriptor 0, once standard input is closed, is a number like any.
    // SAFETY: duplicating and closing this process's standard input.
    let stdin = unsafe { libc::dup(0) };
    assert!(stdin > 0);
    close(0);
    let zero = open_kfd(libc::O_RDWR);
    assert_eq!(zero, 0, "the lowest free number");
    assert!(answers(0), "a stand-in descriptor numbered 0");
    close(0);
    // SAFETY: both descriptors are this process's.
    assert_eq!(unsafe { libc::dup2(stdin, 0) }, 0);
    close(stdin);

    // Open until the stand-in refuses: EMFILE, and nothing left open by the
    // refusal.
    let mut open = Vec::new();
    let refusal = loop {
        assert!(open.len() < 4096, "no limit on /dev/kfd descriptors");
        let next = lowest_free();
        match try_open_kfd() {
            Ok(kfd) => open.push(kfd),
            Err(errno) => break (next, errno),
        }
    };
    assert_eq!(refusal.1, libc::EMFILE);
    assert_eq!(
        lowest_free(),
        refusal.0,
        "the refused open left a descriptor"
    );
    assert!(
        open.len() >= 8,
        "{} /dev/kfd descriptors at once",
        open.len()
    );
    // Closed, their numbers taken by other files: a new /dev/kfd gets a
    // new number, and answers.
    for &kfd in &open {
        close(kfd);
    }
    let others: Vec<c_int> = open.iter().map(|_| open_dev_null()).collect();
    let again = open_kfd(libc::O_RDWR);
    assert!(!open.contains(&again));
    assert!(answers(again));
    for other in others.into_iter().chain([again]) {
        close(other);
    }

    // With no descriptor left to the process, the system's EMFILE.
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: a valid out-pointer.
    assert_eq!(
        unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) },
        0
    );
    let lowered = libc::rlimit {
        rlim_cur: lowest_free() as libc::rlim_t,
        ..limit
    };
    // SAFETY: a valid limit, put back below.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lowered) }, 0);
    let refused = try_open_kfd();
    // SAFETY: as above.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) }, 0);
    assert_eq!(refused, Err(libc::EMFILE));
    assert!(answers(fd), "after the refusals");
    close(fd);
}

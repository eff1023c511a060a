//! The `/dev/kfd` stand-in (`libamdgpu_sim_kfd.so`, a test harness),
//! preloaded into a child process: the requests are spelt as Linux's
//! `include/uapi/linux/kfd_ioctl.h` spells them (the `_IOC` encoding of
//! `asm-generic/ioctl.h`, the argument structs' C layout), the answers held
//! to what `kfd_ioctl_get_clock_counters` in `kfd_chardev.c` returns (the
//! CPU counter is the raw monotonic clock and the system counter boot time,
//! both bracketed by the child's own reads of those clocks; 1 GHz; a GPU
//! counter for a GPU's `gpu_id`, 0 for any other), the GPU counter's rate
//! held to the node's `HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY`, its `gpu_id`s
//! to the node's `HSA_AMD_AGENT_INFO_DRIVER_UID`s and its version to the
//! KFD that ROCr needs for the node's system answers (`runtime.cpp`: DMA-buf
//! export from 1.12, the virtual-memory API from 1.15); every other file
//! opens, closes and takes ioctls as without the preload; sizes, NULL
//! arguments and descriptor numbers at their edges (`edges`). Then IREE's own
//! `util/kfd_test` and `util/device_clock_test` under the preload.

use std::ffi::{CStr, c_char, c_int, c_ulong, c_void};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use amdgpu_sys::hsa_status::HSA_STATUS_SUCCESS;
use amdgpu_sys::hsa_types::hsa_agent_t;

use super::iree_built::{iree_amdgpu_test, sim_lib_dir};

mod edges;
use super::rocminfo::skip;

// Links the library's exports into this test binary (the child asks the
// node what HSA answers).
use amdgpu_sim_ffi as _;

unsafe extern "C" {
    fn hsa_init() -> u32;
    fn hsa_shut_down() -> u32;
    fn hsa_system_get_info(attribute: u32, value: *mut c_void) -> u32;
    fn hsa_iterate_agents(
        callback: Option<extern "C" fn(hsa_agent_t, *mut c_void) -> u32>,
        data: *mut c_void,
    ) -> u32;
    fn hsa_agent_get_info(agent: hsa_agent_t, attribute: u32, value: *mut c_void) -> u32;
    // The fortified entry points `_FORTIFY_SOURCE` calls (glibc).
    fn __open_2(path: *const c_char, flags: c_int) -> c_int;
    fn __open64_2(path: *const c_char, flags: c_int) -> c_int;
    fn __openat_2(dirfd: c_int, path: *const c_char, flags: c_int) -> c_int;
    fn __openat64_2(dirfd: c_int, path: *const c_char, flags: c_int) -> c_int;
}

// hsa.h / hsa_ext_amd.h.
const HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY: u32 = 3;
const HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED: u32 = 0x204;
const HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED: u32 = 0x205;
const HSA_AGENT_INFO_DEVICE: u32 = 17;
const HSA_DEVICE_TYPE_GPU: u32 = 1;
const HSA_AMD_AGENT_INFO_DRIVER_UID: u32 = 0xA112;

// asm-generic/ioctl.h: _IOC(dir, type, nr, size).
const IOC_WRITE: c_ulong = 1;
const IOC_READ: c_ulong = 2;
const fn ioc(dir: c_ulong, kind: u8, nr: u8, size: usize) -> c_ulong {
    (dir << 30) | ((size as c_ulong) << 16) | ((kind as c_ulong) << 8) | nr as c_ulong
}

// kfd_ioctl.h.
const AMDKFD_IOCTL_BASE: u8 = b'K';
#[repr(C)]
#[derive(Default)]
struct GetVersionArgs {
    major_version: u32,
    minor_version: u32,
}
#[repr(C)]
#[derive(Default, Debug, Clone, Copy)]
pub(crate) struct GetClockCountersArgs {
    pub(crate) gpu_clock_counter: u64,
    cpu_clock_counter: u64,
    system_clock_counter: u64,
    system_clock_freq: u64,
    gpu_id: u32,
    pad: u32,
}
const AMDKFD_IOC_GET_VERSION: c_ulong = ioc(
    IOC_READ,
    AMDKFD_IOCTL_BASE,
    0x01,
    size_of::<GetVersionArgs>(),
);
const AMDKFD_IOC_GET_CLOCK_COUNTERS: c_ulong = ioc(
    IOC_READ | IOC_WRITE,
    AMDKFD_IOCTL_BASE,
    0x05,
    size_of::<GetClockCountersArgs>(),
);
/// `KFD_IOCTL_MAJOR_VERSION`.
const KFD_MAJOR: u32 = 1;

const KFD: &CStr = c"/dev/kfd";
const CHILD_ENV: &str = "AMDGPU_SIM_KFD_CHILD";

/// The stand-in as cargo built it beside this test binary (a dev-dependency).
pub(crate) fn preload() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let so = exe.parent().expect("deps dir").join("libamdgpu_sim_kfd.so");
    assert!(so.is_file(), "{} is not built", so.display());
    so
}

fn errno() -> c_int {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

fn now(clock: libc::clockid_t) -> u64 {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid out-pointer.
    assert_eq!(unsafe { libc::clock_gettime(clock, &mut time) }, 0);
    time.tv_sec as u64 * 1_000_000_000 + time.tv_nsec as u64
}

/// What the node's HSA answers.
struct Node {
    gpu_ids: Vec<u32>,
    other_ids: Vec<u32>,
    timestamp_frequency: u64,
    dmabuf: bool,
    virtual_memory: bool,
}

extern "C" fn collect(agent: hsa_agent_t, data: *mut c_void) -> u32 {
    // SAFETY: `data` is the `(Vec, Vec)` `node()` passes.
    let (gpus, others) = unsafe { &mut *data.cast::<(Vec<u32>, Vec<u32>)>() };
    let (mut device, mut uid) = (u32::MAX, 0u32);
    // SAFETY: out-pointers of the attributes' C types (uint32_t each).
    unsafe {
        assert_eq!(
            hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, (&raw mut device).cast()),
            HSA_STATUS_SUCCESS
        );
        assert_eq!(
            hsa_agent_get_info(agent, HSA_AMD_AGENT_INFO_DRIVER_UID, (&raw mut uid).cast()),
            HSA_STATUS_SUCCESS
        );
    }
    if device == HSA_DEVICE_TYPE_GPU {
        gpus.push(uid);
    } else {
        others.push(uid);
    }
    HSA_STATUS_SUCCESS
}

fn node() -> Node {
    let mut ids = (Vec::new(), Vec::new());
    let (mut timestamp_frequency, mut dmabuf, mut virtual_memory) = (0u64, false, false);
    // SAFETY: plain C calls; out-pointers of the attributes' C types.
    unsafe {
        assert_eq!(hsa_init(), HSA_STATUS_SUCCESS);
        assert_eq!(
            hsa_iterate_agents(Some(collect), (&raw mut ids).cast()),
            HSA_STATUS_SUCCESS
        );
        for (attribute, out) in [
            (
                HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY,
                (&raw mut timestamp_frequency).cast(),
            ),
            (
                HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED,
                (&raw mut dmabuf).cast(),
            ),
            (
                HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED,
                (&raw mut virtual_memory).cast(),
            ),
        ] {
            assert_eq!(hsa_system_get_info(attribute, out), HSA_STATUS_SUCCESS);
        }
        assert_eq!(hsa_shut_down(), HSA_STATUS_SUCCESS);
    }
    Node {
        gpu_ids: ids.0,
        other_ids: ids.1,
        timestamp_frequency,
        dmabuf,
        virtual_memory,
    }
}

pub(crate) fn open_kfd(flags: c_int) -> c_int {
    // SAFETY: a NUL-terminated path; no mode needed without O_CREAT.
    let fd = unsafe { libc::open(KFD.as_ptr(), flags) };
    assert!(fd >= 0, "open(/dev/kfd): errno {}", errno());
    fd
}

pub(crate) fn close(fd: c_int) {
    // SAFETY: closing a descriptor this test opened.
    assert_eq!(unsafe { libc::close(fd) }, 0, "close: errno {}", errno());
}

/// `ioctl(fd, request, arg)`: `Ok(())` or `Err(errno)`.
fn ioctl(fd: c_int, request: c_ulong, arg: *mut c_void) -> Result<(), c_int> {
    // SAFETY: `arg` is NULL or addresses the request's size in bytes.
    match unsafe { libc::ioctl(fd, request, arg) } {
        0 => Ok(()),
        -1 => Err(errno()),
        other => panic!("ioctl returned {other}"),
    }
}

pub(crate) fn clock_counters(fd: c_int, gpu_id: u32) -> GetClockCountersArgs {
    let mut args = GetClockCountersArgs {
        gpu_id,
        ..Default::default()
    };
    ioctl(fd, AMDKFD_IOC_GET_CLOCK_COUNTERS, (&raw mut args).cast()).expect("clock counters");
    assert_eq!(args.gpu_id, gpu_id, "gpu_id is the caller's");
    args
}

/// Every descriptor each open entry point hands out for `/dev/kfd`, the
/// close-on-exec flag as asked.
fn every_open_entry_point_answers() -> Vec<c_int> {
    let not_a_directory = 9999;
    // SAFETY: NUL-terminated paths; no mode needed without O_CREAT.
    let fds = unsafe {
        [
            libc::open(KFD.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC),
            libc::open64(KFD.as_ptr(), libc::O_RDWR),
            libc::openat(libc::AT_FDCWD, KFD.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC),
            // An absolute path ignores the directory, whatever it is.
            libc::openat64(not_a_directory, KFD.as_ptr(), libc::O_RDWR),
            __open_2(KFD.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC),
            __open64_2(KFD.as_ptr(), libc::O_RDWR),
            __openat_2(libc::AT_FDCWD, KFD.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC),
            __openat64_2(not_a_directory, KFD.as_ptr(), libc::O_RDWR),
        ]
    };
    for (i, &fd) in fds.iter().enumerate() {
        assert!(fd >= 0, "entry point {i}: errno {}", errno());
        // SAFETY: a descriptor query.
        let fd_flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
        let cloexec = fd_flags & libc::FD_CLOEXEC != 0;
        assert_eq!(cloexec, i % 2 == 0, "entry point {i}: O_CLOEXEC as asked");
        let mut version = GetVersionArgs::default();
        ioctl(fd, AMDKFD_IOC_GET_VERSION, (&raw mut version).cast()).expect("version");
        assert_eq!(version.major_version, KFD_MAJOR);
    }
    fds.to_vec()
}

/// The version ROCr needs for the node's answers.
fn version_agrees_with_the_node(fd: c_int, node: &Node) {
    let mut version = GetVersionArgs::default();
    ioctl(fd, AMDKFD_IOC_GET_VERSION, (&raw mut version).cast()).expect("version");
    assert_eq!(version.major_version, KFD_MAJOR);
    let minor = version.minor_version;
    if node.virtual_memory {
        assert!(
            minor >= 15,
            "VIRTUAL_MEM_API_SUPPORTED needs 1.15+, got 1.{minor}"
        );
    }
    if node.dmabuf {
        assert!(minor >= 12, "DMABUF_SUPPORTED needs 1.12+, got 1.{minor}");
    } else {
        assert!(
            minor < 12,
            "DMABUF_SUPPORTED false means below 1.12, got 1.{minor}"
        );
    }
}

/// The counters of every GPU, bracketed by the host clocks they sample;
/// any other `gpu_id` gets a GPU counter of 0 and the host counters.
fn counters_are_the_kfd_s(fd: c_int, node: &Node) {
    let mut not_gpus = node.other_ids.clone();
    not_gpus.extend(
        [
            0,
            u32::MAX,
            node.gpu_ids.iter().max().copied().unwrap_or(0) + 1,
        ]
        .into_iter()
        .filter(|id| !node.gpu_ids.contains(id)),
    );
    for (&gpu_id, is_gpu) in node
        .gpu_ids
        .iter()
        .map(|id| (id, true))
        .chain(not_gpus.iter().map(|id| (id, false)))
    {
        let (raw_before, boot_before) = (now(libc::CLOCK_MONOTONIC_RAW), now(libc::CLOCK_BOOTTIME));
        let args = clock_counters(fd, gpu_id);
        let (raw_after, boot_after) = (now(libc::CLOCK_MONOTONIC_RAW), now(libc::CLOCK_BOOTTIME));
        assert!(
            (raw_before..=raw_after).contains(&args.cpu_clock_counter),
            "cpu counter {args:?} outside [{raw_before}, {raw_after}]"
        );
        assert!(
            (boot_before..=boot_after).contains(&args.system_clock_counter),
            "system counter {args:?} outside [{boot_before}, {boot_after}]"
        );
        assert_eq!(args.system_clock_freq, 1_000_000_000);
        if is_gpu {
            assert_ne!(args.gpu_clock_counter, 0, "gpu_id {gpu_id}");
        } else {
            assert_eq!(args.gpu_clock_counter, 0, "gpu_id {gpu_id} is no GPU");
        }
    }
}

/// Over a fifth of a second, every GPU counter advances at the node's
/// timestamp frequency against the raw monotonic clock (within 1%).
fn gpu_counters_advance_at_the_node_s_frequency(fd: c_int, node: &Node) {
    let first: Vec<_> = node
        .gpu_ids
        .iter()
        .map(|&id| clock_counters(fd, id))
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    for (start, &id) in first.iter().zip(&node.gpu_ids) {
        let end = clock_counters(fd, id);
        let ticks = end.gpu_clock_counter - start.gpu_clock_counter;
        let nanos = end.cpu_clock_counter - start.cpu_clock_counter;
        assert!(nanos >= 200_000_000, "{nanos} ns");
        let rate = ticks as f64 * 1e9 / nanos as f64;
        let expected = node.timestamp_frequency as f64;
        assert!(
            (rate - expected).abs() <= expected / 100.0,
            "gpu_id {id}: {rate} ticks/s, the node reports {expected}"
        );
    }
}

/// The KFD copies the caller's size (`_IOC_SIZE`), whatever the struct's.
fn the_caller_s_size_is_copied(fd: c_int) {
    // 32 bytes: no gpu_id reaches the driver (it reads 0: no GPU), the
    // caller's bytes past them stay.
    let mut bytes = [0xA5u8; 40];
    let short = ioc(IOC_READ | IOC_WRITE, AMDKFD_IOCTL_BASE, 0x05, 32);
    ioctl(fd, short, bytes.as_mut_ptr().cast()).expect("short clock counters");
    assert_eq!(&bytes[0..8], &[0; 8], "gpu counter of gpu_id 0");
    assert_eq!(
        u64::from_ne_bytes(bytes[24..32].try_into().unwrap()),
        1_000_000_000
    );
    assert_eq!(&bytes[32..], &[0xA5; 8]);
    // 16 bytes of a read-only request: the answer, then zeros.
    let mut bytes = [0xA5u8; 20];
    let long = ioc(IOC_READ, AMDKFD_IOCTL_BASE, 0x01, 16);
    ioctl(fd, long, bytes.as_mut_ptr().cast()).expect("long version");
    assert_eq!(
        u32::from_ne_bytes(bytes[0..4].try_into().unwrap()),
        KFD_MAJOR
    );
    assert_eq!(&bytes[8..16], &[0; 8]);
    assert_eq!(&bytes[16..], &[0xA5; 4]);
    // An argument it cannot copy.
    assert_eq!(
        ioctl(fd, AMDKFD_IOC_GET_CLOCK_COUNTERS, std::ptr::null_mut()),
        Err(libc::EFAULT)
    );
}

/// Numbers the KFD does not know, and those the stand-in does not model,
/// fail with the KFD's `EINVAL`.
fn unknown_requests_fail(fd: c_int) {
    let mut bytes = [0u8; 64];
    for request in [
        ioc(IOC_READ | IOC_WRITE, AMDKFD_IOCTL_BASE, 0xFF, 8),
        ioc(0, AMDKFD_IOCTL_BASE, 0x00, 0),
        // AMDKFD_IOC_CREATE_QUEUE: a real KFD's, not the stand-in's.
        ioc(IOC_READ | IOC_WRITE, AMDKFD_IOCTL_BASE, 0x02, 64),
    ] {
        assert_eq!(
            ioctl(fd, request, bytes.as_mut_ptr().cast()),
            Err(libc::EINVAL),
            "request {request:#x}"
        );
    }
    assert_eq!(bytes, [0; 64], "a failed request writes nothing");
}

/// Other files, and the stand-in's descriptors once closed or replaced,
/// are the system's.
fn other_files_are_the_system_s() {
    let dir = std::env::temp_dir().join(format!("amdgpu-sim-kfd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("plain");
    std::fs::write(&path, b"plain bytes").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"plain bytes");
    let c_path = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();

    // A plain file through `open`: the system's answer to a KFD request.
    // SAFETY: a NUL-terminated path.
    let plain = unsafe { libc::open(c_path.as_ptr(), libc::O_RDONLY) };
    assert!(plain >= 0);
    let mut version = GetVersionArgs::default();
    assert_eq!(
        ioctl(plain, AMDKFD_IOC_GET_VERSION, (&raw mut version).cast()),
        Err(libc::ENOTTY)
    );
    close(plain);
    // A file created through `openat` with a mode (the variadic argument).
    let created =
        std::ffi::CString::new(dir.join("created").as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a NUL-terminated path and the mode O_CREAT needs.
    let fd = unsafe {
        libc::openat(
            libc::AT_FDCWD,
            created.as_ptr(),
            libc::O_CREAT | libc::O_WRONLY | libc::O_EXCL,
            0o640 as libc::c_uint,
        )
    };
    assert!(fd >= 0, "errno {}", errno());
    close(fd);
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(dir.join("created"))
            .unwrap()
            .permissions(),
    );
    assert_eq!(mode & 0o777, 0o640 & !umask());
    // A pipe's ioctl is the kernel's (FIONREAD: bytes waiting).
    let mut pipe = [0; 2];
    // SAFETY: a valid two-int array.
    assert_eq!(unsafe { libc::pipe(pipe.as_mut_ptr()) }, 0);
    // SAFETY: writing 3 bytes from a 3-byte buffer.
    assert_eq!(
        unsafe { libc::write(pipe[1], b"abc".as_ptr().cast(), 3) },
        3
    );
    let mut waiting: c_int = 0;
    assert_eq!(
        ioctl(pipe[0], libc::FIONREAD, (&raw mut waiting).cast()),
        Ok(())
    );
    assert_eq!(waiting, 3);

    // Closing forgets: the number is the system's again.
    let fd = open_kfd(libc::O_RDWR);
    close(fd);
    assert_eq!(
        ioctl(fd, AMDKFD_IOC_GET_VERSION, (&raw mut version).cast()),
        Err(libc::EBADF)
    );
    // SAFETY: a NUL-terminated path.
    let reused = unsafe { libc::open(c_path.as_ptr(), libc::O_RDONLY) };
    assert_eq!(reused, fd, "the lowest free number is reused");
    assert_eq!(
        ioctl(reused, AMDKFD_IOC_GET_VERSION, (&raw mut version).cast()),
        Err(libc::ENOTTY)
    );
    close(reused);
    // A descriptor replaced behind the stand-in's back (`dup2`) is the
    // replacement's.
    let fd = open_kfd(libc::O_RDWR);
    // SAFETY: both descriptors are this test's.
    assert_eq!(unsafe { libc::dup2(pipe[0], fd) }, fd);
    assert_eq!(ioctl(fd, libc::FIONREAD, (&raw mut waiting).cast()), Ok(()));
    assert_eq!(waiting, 3);
    assert_eq!(
        ioctl(fd, AMDKFD_IOC_GET_VERSION, (&raw mut version).cast()),
        Err(libc::ENOTTY)
    );
    for fd in [fd, pipe[0], pipe[1]] {
        close(fd);
    }
    // Only the exact path is the stand-in's.
    if !Path::new("/dev/kfd").exists() {
        // SAFETY: a NUL-terminated path.
        let fd = unsafe { libc::open(c"/dev//kfd".as_ptr(), libc::O_RDWR) };
        assert_eq!((fd, errno()), (-1, libc::ENOENT));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn umask() -> u32 {
    // SAFETY: reading the mask by setting it and putting it back.
    unsafe {
        let mask = libc::umask(0o022);
        libc::umask(mask);
        mask
    }
}

/// The child: everything above, on the machine its environment names.
#[test]
#[ignore = "a child of the_stand_in_answers_as_the_kfd"]
fn child_under_the_preload() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let node = node();
    let fds = every_open_entry_point_answers();
    let fd = fds[0];
    version_agrees_with_the_node(fd, &node);
    counters_are_the_kfd_s(fd, &node);
    gpu_counters_advance_at_the_node_s_frequency(fd, &node);
    the_caller_s_size_is_copied(fd);
    unknown_requests_fail(fd);
    edges::null_arguments(fd);
    for fd in fds {
        close(fd);
    }
    edges::descriptors_at_the_edges();
    other_files_are_the_system_s();
}

/// Runs the child under the preload with `machine` (unset for `None`).
fn run_child(machine: Option<&str>) -> std::process::Output {
    let mut command = crate::child::command("kfd::child_under_the_preload");
    command
        .env(CHILD_ENV, "1")
        .env("LD_PRELOAD", preload())
        .env_remove("AMDGPU_SIM_MACHINE");
    if let Some(machine) = machine {
        command.env("AMDGPU_SIM_MACHINE", machine);
    }
    command.output().expect("run the child")
}

#[test]
fn the_stand_in_answers_as_the_kfd() {
    let w7900_file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/machines/w7900.toml");
    // mi300x-8: ROCm 6.3's answers; the w7900 as a description file (the
    // C library's resolution); mixed-isa: Debian's ROCr 5.2.3 answers.
    for machine in ["mi300x-8", w7900_file.to_str().unwrap(), "mixed-isa"] {
        let output = run_child(Some(machine));
        crate::child::assert_passed(&output, machine);
    }
}

/// Without a machine (or with a misspelt one) `/dev/kfd` is the system's,
/// and the reason is printed once.
#[test]
fn without_a_machine_dev_kfd_is_the_system_s() {
    if Path::new("/dev/kfd").exists() {
        skip(
            "/dev/kfd without a machine",
            "this host has a real /dev/kfd",
        );
        return;
    }
    for (machine, reason) in [
        (None, "AMDGPU_SIM_MACHINE is not set"),
        (Some("mi300x8"), "did you mean 'mi300x-8'?"),
    ] {
        let mut command = Command::new("sh");
        command
            .args([
                "-c",
                "true 3</dev/kfd && echo opened; true 3</dev/kfd; true",
            ])
            .env("LD_PRELOAD", preload())
            .env_remove("AMDGPU_SIM_MACHINE");
        if let Some(machine) = machine {
            command.env("AMDGPU_SIM_MACHINE", machine);
        }
        let output = command.output().expect("run sh");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!String::from_utf8_lossy(&output.stdout).contains("opened"));
        assert_eq!(
            stderr.matches("/dev/kfd: No such file").count(),
            2,
            "{stderr}"
        );
        assert_eq!(stderr.matches("amdgpu-sim-kfd: ").count(), 1, "{stderr}");
        assert!(
            stderr.contains(reason) && stderr.contains("/dev/kfd is left to the system"),
            "{stderr}"
        );
    }
}

/// IREE's `util/kfd_test` (its `KFDTest` suite opens `/dev/kfd` and reads
/// the first GPU's clock counters) and `util/device_clock_test`, on
/// mi300x-8 under the preload: every test runs and passes.
#[test]
fn iree_kfd_and_device_clock_tests_pass_under_the_preload() {
    const WHAT: &str = "IREE's kfd_test and device_clock_test under the /dev/kfd stand-in";
    let mut binaries = Vec::new();
    for test in ["kfd_test", "device_clock_test"] {
        let Some(binary) = iree_amdgpu_test(&format!("util/{test}"), WHAT) else {
            return;
        };
        binaries.push((test, binary));
    }
    let out = sim_lib_dir("kfd-sim-lib");
    for (test, binary) in binaries {
        let output = Command::new(binary)
            .env("AMDGPU_SIM_MACHINE", "mi300x-8")
            .env("IREE_HAL_AMDGPU_LIBHSA_PATH", &out)
            .env("LD_PRELOAD", out.join("libamdgpu_sim_kfd.so"))
            .output()
            .expect("run IREE's test");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let log = format!(
            "{test}: {stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(output.status.success(), "{log}");
        // gtest's last summary line: "[==========] N tests from M test suites ran."
        let ran = stdout
            .lines()
            .find_map(|l| {
                l.strip_prefix("[==========] ")?
                    .split(" tests from")
                    .next()?
                    .parse::<u32>()
                    .ok()
            })
            .unwrap_or_else(|| panic!("no test count: {log}"));
        assert!(
            stdout.contains(&format!("[  PASSED  ] {ran} tests.")),
            "{log}"
        );
        assert!(!stdout.contains("SKIPPED"), "{log}");
        if test == "kfd_test" {
            for name in ["KFDTest.Lifetime", "KFDTest.GetClockCounters"] {
                assert!(stdout.contains(&format!("[       OK ] {name}")), "{log}");
            }
        }
    }
}

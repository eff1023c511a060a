//! The KFD's ioctl protocol, as `kfd_ioctl` in Linux's
//! `drivers/gpu/drm/amd/amdkfd/kfd_chardev.c` runs it, for the two
//! requests the stand-in answers.
//!
//! The KFD dispatches on the request's number alone (`_IOC_NR`): the
//! number picks the driver's own table entry, whose direction bits decide
//! what is copied; the caller's request supplies only the size (`_IOC_SIZE`)
//! of the copies. Arguments are copied in (when the entry reads them) into a
//! zeroed buffer of the entry's size, the handler runs, and the buffer is
//! copied back out (when the entry writes them), the caller's size either
//! way: a shorter caller gets a prefix, a longer one keeps its own bytes
//! past the entry's struct, or, for an entry that only writes, gets them
//! zeroed. A number outside the entries the stand-in answers fails with
//! `EINVAL`, the KFD's answer to a number outside its table in the drivers
//! whose interface versions the stand-in reports (ROCm 6.3's, Linux 6.1's);
//! a 2025 change (upstream commit 57af162bfc8c, "return ENOTTY for
//! unsupported IOCTLs") made later kernels answer `ENOTTY`.

use crate::node::{KfdNode, SYSTEM_CLOCK_FREQUENCY_HZ};

/// Bits of the request number field (`_IOC_NRBITS`).
const IOC_NRBITS: u32 = 8;
/// Bits of the type field (`_IOC_TYPEBITS`).
const IOC_TYPEBITS: u32 = 8;
/// Bits of the size field (`_IOC_SIZEBITS`).
const IOC_SIZEBITS: u32 = 14;
/// Where the type field starts (`_IOC_TYPESHIFT`).
const IOC_TYPESHIFT: u32 = IOC_NRBITS;
/// Where the size field starts (`_IOC_SIZESHIFT`).
const IOC_SIZESHIFT: u32 = IOC_TYPESHIFT + IOC_TYPEBITS;
/// Where the direction field starts (`_IOC_DIRSHIFT`).
const IOC_DIRSHIFT: u32 = IOC_SIZESHIFT + IOC_SIZEBITS;
/// The caller writes the argument (`_IOC_WRITE`): the driver reads it.
pub const IOC_WRITE: u32 = 1;
/// The caller reads the argument (`_IOC_READ`): the driver writes it.
pub const IOC_READ: u32 = 2;

/// `_IOC(dir, type, nr, size)` of `asm-generic/ioctl.h`.
pub const fn ioc(dir: u32, kind: u8, nr: u8, size: u32) -> u32 {
    (dir << IOC_DIRSHIFT) | (size << IOC_SIZESHIFT) | ((kind as u32) << IOC_TYPESHIFT) | nr as u32
}

/// `_IOC_NR(cmd)`.
pub const fn ioc_nr(cmd: u32) -> u32 {
    cmd & ((1 << IOC_NRBITS) - 1)
}

/// `_IOC_SIZE(cmd)`.
pub const fn ioc_size(cmd: u32) -> u32 {
    (cmd >> IOC_SIZESHIFT) & ((1 << IOC_SIZEBITS) - 1)
}

/// `_IOC_DIR(cmd)`.
pub const fn ioc_dir(cmd: u32) -> u32 {
    cmd >> IOC_DIRSHIFT
}

/// `AMDKFD_IOCTL_BASE`, the KFD's ioctl type (`'K'`).
pub const AMDKFD_IOCTL_BASE: u8 = b'K';

/// `sizeof(struct kfd_ioctl_get_version_args)`: `major_version`,
/// `minor_version` (`u32` each).
pub const GET_VERSION_ARGS_BYTES: usize = 8;
/// `sizeof(struct kfd_ioctl_get_clock_counters_args)`: four `u64`
/// counters, then `gpu_id` and `pad` (`u32` each).
pub const GET_CLOCK_COUNTERS_ARGS_BYTES: usize = 40;
/// The largest argument struct of the requests answered.
pub const MAX_ARGS_BYTES: usize = GET_CLOCK_COUNTERS_ARGS_BYTES;

/// `AMDKFD_IOC_GET_VERSION`: `_IOR('K', 0x01, struct kfd_ioctl_get_version_args)`.
pub const AMDKFD_IOC_GET_VERSION: u32 = ioc(
    IOC_READ,
    AMDKFD_IOCTL_BASE,
    0x01,
    GET_VERSION_ARGS_BYTES as u32,
);
/// `AMDKFD_IOC_GET_CLOCK_COUNTERS`:
/// `_IOWR('K', 0x05, struct kfd_ioctl_get_clock_counters_args)`.
pub const AMDKFD_IOC_GET_CLOCK_COUNTERS: u32 = ioc(
    IOC_READ | IOC_WRITE,
    AMDKFD_IOCTL_BASE,
    0x05,
    GET_CLOCK_COUNTERS_ARGS_BYTES as u32,
);

/// Offsets in `struct kfd_ioctl_get_clock_counters_args`.
const GPU_CLOCK_COUNTER: usize = 0;
const CPU_CLOCK_COUNTER: usize = 8;
const SYSTEM_CLOCK_COUNTER: usize = 16;
const SYSTEM_CLOCK_FREQ: usize = 24;
const GPU_ID: usize = 32;

/// `EINVAL` (Linux's 22): the KFD's answer to a request number it does not know.
pub const EINVAL: i32 = 22;
/// `EFAULT` (Linux's 14): an argument the driver cannot copy.
pub const EFAULT: i32 = 14;

/// A request the stand-in answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// `AMDKFD_IOC_GET_VERSION`.
    GetVersion,
    /// `AMDKFD_IOC_GET_CLOCK_COUNTERS`.
    GetClockCounters,
}

impl Command {
    /// The driver's table entry for this command.
    const fn entry(self) -> u32 {
        match self {
            Command::GetVersion => AMDKFD_IOC_GET_VERSION,
            Command::GetClockCounters => AMDKFD_IOC_GET_CLOCK_COUNTERS,
        }
    }
}

/// Host clock readings, sampled once per request (`kfd_ioctl_get_clock_counters`
/// reads each clock once, next to the GPU's counter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostClocks {
    /// `ktime_get_raw_ns()`: the raw monotonic clock, in nanoseconds.
    pub raw_ns: u64,
    /// `ktime_get_boottime_ns()`: monotonic time including suspend, in nanoseconds.
    pub boottime_ns: u64,
}

/// One request as the KFD decodes it: the command its number names and the
/// caller's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    command: Command,
    /// `_IOC_SIZE` of the caller's request (14 bits: at most 16383).
    user_size: usize,
}

impl Request {
    /// Decodes `cmd` (the kernel's `unsigned int`: a caller's wider
    /// request is truncated to its low 32 bits before the driver sees it);
    /// `Err(EINVAL)` for a number the stand-in does not answer.
    pub fn decode(cmd: u32) -> Result<Request, i32> {
        let command = match ioc_nr(cmd) {
            0x01 => Command::GetVersion,
            0x05 => Command::GetClockCounters,
            _ => return Err(EINVAL),
        };
        Ok(Request {
            command,
            user_size: ioc_size(cmd) as usize,
        })
    }

    /// The command.
    pub fn command(&self) -> Command {
        self.command
    }

    fn entry_bytes(&self) -> usize {
        ioc_size(self.command.entry()) as usize
    }

    /// Bytes read from the caller's argument before the handler runs.
    pub fn copy_in_len(&self) -> usize {
        if ioc_dir(self.command.entry()) & IOC_WRITE != 0 {
            self.user_size.min(self.entry_bytes())
        } else {
            0
        }
    }

    /// Bytes of the answer written to the caller's argument.
    pub fn copy_out_len(&self) -> usize {
        if ioc_dir(self.command.entry()) & IOC_READ != 0 {
            self.user_size.min(self.entry_bytes())
        } else {
            0
        }
    }

    /// Bytes zeroed in the caller's argument after the answer: the part of
    /// a longer caller's size past an entry the driver only writes (the KFD
    /// zeroes its buffer and copies all of it out).
    pub fn zeroed_tail_len(&self) -> usize {
        let entry = self.command.entry();
        if ioc_dir(entry) == IOC_READ {
            self.user_size.saturating_sub(self.entry_bytes())
        } else {
            0
        }
    }

    /// Whether the request touches the caller's argument at all (a request
    /// of size 0 copies nothing, so its argument is never dereferenced).
    pub fn touches_argument(&self) -> bool {
        self.copy_in_len() + self.copy_out_len() + self.zeroed_tail_len() > 0
    }

    /// Runs the handler over `args` (the copied-in bytes, zero past them).
    pub fn answer(&self, node: &KfdNode, clocks: HostClocks, args: &mut [u8; MAX_ARGS_BYTES]) {
        match self.command {
            Command::GetVersion => {
                let version = node.version();
                put_u32(args, 0, version.major);
                put_u32(args, 4, version.minor);
            }
            Command::GetClockCounters => {
                let gpu_id = get_u32(args, GPU_ID);
                // A gpu_id without a GPU behind it is not an error: the KFD
                // answers its counter 0 ("Node without GPU resource").
                let gpu = if node.is_gpu(gpu_id) {
                    node.gpu_counter(clocks.raw_ns)
                } else {
                    0
                };
                put_u64(args, GPU_CLOCK_COUNTER, gpu);
                put_u64(args, CPU_CLOCK_COUNTER, clocks.raw_ns);
                put_u64(args, SYSTEM_CLOCK_COUNTER, clocks.boottime_ns);
                put_u64(args, SYSTEM_CLOCK_FREQ, SYSTEM_CLOCK_FREQUENCY_HZ);
            }
        }
    }
}

// Every offset is a constant inside MAX_ARGS_BYTES; the checked accesses
// keep a wrong one from panicking across the C boundary.

fn put_u32(args: &mut [u8; MAX_ARGS_BYTES], at: usize, value: u32) {
    if let Some(field) = args.get_mut(at..at + 4) {
        field.copy_from_slice(&value.to_ne_bytes());
    }
}

fn put_u64(args: &mut [u8; MAX_ARGS_BYTES], at: usize, value: u64) {
    if let Some(field) = args.get_mut(at..at + 8) {
        field.copy_from_slice(&value.to_ne_bytes());
    }
}

fn get_u32(args: &[u8; MAX_ARGS_BYTES], at: usize) -> u32 {
    let mut bytes = [0; 4];
    if let Some(field) = args.get(at..at + 4) {
        bytes.copy_from_slice(field);
    }
    u32::from_ne_bytes(bytes)
}

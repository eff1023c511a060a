//! Bounded reads of the files users name: executables, code objects,
//! embedded sources and machine descriptions.
//!
//! Every read goes through [`read_file`] (or [`map_or_read_file`], which maps
//! large files instead of copying them): the path must be a regular file
//! (checked before it is opened, so a FIFO cannot block and `/dev/zero`
//! cannot be read until memory runs out), no larger than its kind's named
//! limit (checked against the file's size before reading, and again while
//! reading, since a file can grow or lie about its size), and not empty
//! where emptiness makes no sense. Each I/O failure keeps its own status
//! code, mapped from the OS error the way IREE's
//! `iree_status_code_from_errno` does (`runtime/src/iree/base/status.c`).

use std::cell::Cell;
use std::io::Read;
use std::path::Path;

use crate::status::{Status, StatusCode};

/// Largest executable (`AMD1`, `HIP1` or raw HSACO) `load` and `inspect` read.
pub const MAX_EXECUTABLE_BYTES: u64 = 1 << 30;
/// Largest code object `pack` wraps: the same as an executable, since the
/// wrapped result holds it whole.
pub const MAX_CODE_OBJECT_BYTES: u64 = MAX_EXECUTABLE_BYTES;
/// Largest source file `pack --source` embeds (the sources of one
/// executable, not a data set).
pub const MAX_SOURCE_FILE_BYTES: u64 = 64 << 20;
/// Largest machine description `--machine FILE` reads.
pub const MAX_MACHINE_DESCRIPTION_BYTES: u64 = amdgpu_sim::validate::MAX_DESCRIPTION_BYTES as u64;

/// What a file is read as; each kind has its own size limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// An executable to load or inspect ([`MAX_EXECUTABLE_BYTES`]).
    Executable,
    /// A raw HSACO to pack ([`MAX_CODE_OBJECT_BYTES`]).
    CodeObject,
    /// A source file to embed ([`MAX_SOURCE_FILE_BYTES`]; may be empty).
    SourceFile,
    /// A machine description ([`MAX_MACHINE_DESCRIPTION_BYTES`]).
    MachineDescription,
}

impl InputKind {
    /// The most bytes a file of this kind may have.
    pub const fn limit(self) -> u64 {
        match self {
            InputKind::Executable => MAX_EXECUTABLE_BYTES,
            InputKind::CodeObject => MAX_CODE_OBJECT_BYTES,
            InputKind::SourceFile => MAX_SOURCE_FILE_BYTES,
            InputKind::MachineDescription => MAX_MACHINE_DESCRIPTION_BYTES,
        }
    }

    /// The kind in words, for messages.
    pub const fn noun(self) -> &'static str {
        match self {
            InputKind::Executable => "executable",
            InputKind::CodeObject => "code object",
            InputKind::SourceFile => "source file",
            InputKind::MachineDescription => "machine description",
        }
    }

    /// The kind with its article, for messages ("an executable").
    pub const fn with_article(self) -> &'static str {
        match self {
            InputKind::Executable => "an executable",
            InputKind::CodeObject => "a code object",
            InputKind::SourceFile => "a source file",
            InputKind::MachineDescription => "a machine description",
        }
    }

    /// Whether an empty file is a valid input of this kind.
    const fn may_be_empty(self) -> bool {
        matches!(self, InputKind::SourceFile)
    }
}

/// The IREE status code of an I/O error, as `iree_status_code_from_errno`
/// maps the errno behind it (`UNKNOWN` for errors it does not list, such as
/// `EIO`).
pub fn io_status_code(error: &std::io::Error) -> StatusCode {
    use std::io::ErrorKind as K;
    match error.kind() {
        K::NotFound => StatusCode::NotFound,
        K::PermissionDenied | K::ReadOnlyFilesystem => StatusCode::PermissionDenied,
        K::AlreadyExists => StatusCode::AlreadyExists,
        K::IsADirectory
        | K::NotADirectory
        | K::DirectoryNotEmpty
        | K::ResourceBusy
        | K::ExecutableFileBusy
        | K::BrokenPipe
        | K::NotConnected => StatusCode::FailedPrecondition,
        K::InvalidInput
        | K::InvalidFilename
        | K::ArgumentListTooLong
        | K::NotSeekable
        | K::InvalidData => StatusCode::InvalidArgument,
        K::TimedOut => StatusCode::DeadlineExceeded,
        K::StorageFull | K::QuotaExceeded | K::OutOfMemory | K::TooManyLinks => {
            StatusCode::ResourceExhausted
        }
        K::FileTooLarge | K::UnexpectedEof => StatusCode::OutOfRange,
        K::Unsupported | K::CrossesDevices => StatusCode::Unimplemented,
        K::WouldBlock
        | K::Interrupted
        | K::ConnectionRefused
        | K::ConnectionReset
        | K::ConnectionAborted
        | K::HostUnreachable
        | K::NetworkUnreachable
        | K::NetworkDown => StatusCode::Unavailable,
        K::Deadlock | K::StaleNetworkFileHandle => StatusCode::Aborted,
        _ => StatusCode::Unknown,
    }
}

/// A status for `error` while `doing` (e.g. "opening `x.amd1`"), with the
/// code [`io_status_code`] gives it.
pub fn io_status(error: &std::io::Error, doing: &str) -> Status {
    Status::new(io_status_code(error), format!("{doing}: {error}"))
}

/// What a non-regular file is, for messages.
fn file_type_name(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Refuses anything but a regular file no larger than `kind`'s limit.
/// A directory or a special file is `FAILED_PRECONDITION` (the wrong type
/// of file, as IREE maps `EISDIR`/`ENOTBLK`); too large is
/// `RESOURCE_EXHAUSTED` (as IREE's `iree_io_file_contents_read` reports a
/// file too large to read into memory).
fn check_metadata(metadata: &std::fs::Metadata, name: &str, kind: InputKind) -> Result<(), Status> {
    let file_type = metadata.file_type();
    if !file_type.is_file() {
        return Err(Status::failed_precondition(format!(
            "`{name}` is {}; {} must be a regular file",
            file_type_name(file_type),
            kind.with_article()
        )));
    }
    too_large(metadata.len(), name, kind)
}

fn too_large(size: u64, name: &str, kind: InputKind) -> Result<(), Status> {
    if size > kind.limit() {
        return Err(Status::resource_exhausted(format!(
            "`{name}` is {size} bytes; the {} size limit is {} bytes",
            kind.noun(),
            kind.limit()
        )));
    }
    Ok(())
}

/// Opens `path` for reading without blocking: on Unix with `O_NONBLOCK`, so
/// that a FIFO swapped in after the metadata check still cannot block
/// (reads of a regular file ignore the flag).
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// `path` opened for reading as a `kind` input once it is known to be a
/// regular file within `kind`'s limit, with its escaped name and size.
fn open_checked(path: &Path, kind: InputKind) -> Result<(std::fs::File, String, u64), Status> {
    // A file name may hold any byte but NUL and '/': quoted escaped.
    let name = crate::escape::display_path(path);
    // `metadata` follows symlinks and never opens the file: a FIFO or a
    // device is refused before anything could block or stream forever.
    let metadata =
        std::fs::metadata(path).map_err(|e| io_status(&e, &format!("opening `{name}`")))?;
    check_metadata(&metadata, &name, kind)?;
    let file = open(path).map_err(|e| io_status(&e, &format!("opening `{name}`")))?;
    // The file opened may not be the one checked (a rename in between).
    let metadata = file
        .metadata()
        .map_err(|e| io_status(&e, &format!("reading `{name}`")))?;
    check_metadata(&metadata, &name, kind)?;
    Ok((file, name, metadata.len()))
}

/// Reads the whole of `path` as a `kind` input, bounded by its limit.
pub fn read_file(path: &Path, kind: InputKind) -> Result<Vec<u8>, Status> {
    let (file, name, size) = open_checked(path, kind)?;
    read_opened(file, &name, size, kind)
}

fn read_opened(
    file: std::fs::File,
    name: &str,
    size: u64,
    kind: InputKind,
) -> Result<Vec<u8>, Status> {
    let expected = usize::try_from(size).unwrap_or(usize::MAX);
    let mut data = Vec::with_capacity(expected);
    // One byte past the limit tells a file that grew past it from one that
    // ends exactly there.
    file.take(kind.limit().saturating_add(1))
        .read_to_end(&mut data)
        .map_err(|e| io_status(&e, &format!("reading `{name}`")))?;
    check_size(data.len(), name, kind)?;
    Ok(data)
}

/// The checks on the bytes actually got (the file may have changed size
/// since its metadata was checked): within the limit, and not empty where
/// `kind` cannot be.
fn check_size(len: usize, name: &str, kind: InputKind) -> Result<(), Status> {
    too_large(len as u64, name, kind)?;
    if len == 0 && !kind.may_be_empty() {
        return Err(Status::invalid_argument(format!(
            "`{name}` is empty; {} cannot be empty",
            kind.with_article()
        )));
    }
    Ok(())
}

/// Files from this size up are mapped by [`map_or_read_file`]; smaller ones
/// are read (a read of a few pages costs less than setting up a map).
pub const MAP_THRESHOLD_BYTES: u64 = 1 << 20;

/// Set (to anything) in the environment, [`map_or_read_file`] always reads:
/// for files another process may truncate while they are in use, where a
/// mapped page past the new end would raise `SIGBUS`.
pub const NO_MMAP_ENV: &str = "AMDGPU_HAL_NO_MMAP";

/// A file's bytes, mapped or read ([`map_or_read_file`]).
#[derive(Debug)]
pub enum FileBytes {
    /// Read into memory.
    Read(Vec<u8>),
    /// Mapped read-only: pages come in as they are touched.
    Mapped(amdgpu_filemap::FileMap),
}

impl FileBytes {
    /// Whether the bytes are a map of the file rather than a copy.
    pub fn is_mapped(&self) -> bool {
        matches!(self, FileBytes::Mapped(_))
    }
}

impl AsRef<[u8]> for FileBytes {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl std::ops::Deref for FileBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Read(data) => data,
            FileBytes::Mapped(map) => map,
        }
    }
}

/// How far one forward pass over an input has got: told an address inside
/// the input's bytes, it learns that the pass needs none of the bytes
/// before it again (reading them again stays correct, only slower).
/// [`ReleaseBehind`] drops such pages of a mapped file; `()` ignores it.
pub trait Progress {
    /// The pass is past every byte before `address`.
    fn past(&self, address: usize);
    /// The pass is over: none of the input's bytes is needed again soon,
    /// and the next [`Progress::past`] starts a new pass from the start.
    fn finished(&self);
}

impl Progress for () {
    fn past(&self, _address: usize) {}
    fn finished(&self) {}
}

/// How far a pass moves between two releases of [`ReleaseBehind`]: the
/// most of a mapped file it keeps resident behind itself, and what one
/// `madvise` call is paid for.
pub const RELEASE_STEP_BYTES: usize = 256 * 1024;

/// [`Progress`] for forward passes over [`FileBytes`]: the mapped pages
/// behind a pass leave the process's memory, [`RELEASE_STEP_BYTES`] at a
/// time, and all of them when it finishes, so a pass over a large file keeps
/// a window of it resident rather than all it has read (what the kernel
/// maps ahead of a read, a whole large folio of the page cache, is the
/// rest of the window). Bytes read into memory are kept.
pub struct ReleaseBehind<'a> {
    bytes: &'a FileBytes,
    /// Offset up to which this pass last released.
    released: Cell<usize>,
}

impl<'a> ReleaseBehind<'a> {
    /// A pass from the start of `bytes`.
    pub fn new(bytes: &'a FileBytes) -> ReleaseBehind<'a> {
        ReleaseBehind {
            bytes,
            released: Cell::new(0),
        }
    }
}

impl Progress for ReleaseBehind<'_> {
    fn past(&self, address: usize) {
        let FileBytes::Mapped(map) = self.bytes else {
            return;
        };
        let Some(offset) = address.checked_sub(map.as_ptr() as usize) else {
            return;
        };
        let released = self.released.get();
        if offset > map.len() || offset < released + RELEASE_STEP_BYTES {
            return;
        }
        // Everything behind, not only what is new since the last step: a
        // pass may look back (a hash table comparing an earlier kernel's
        // name), and what it touched there goes again. Unmapping pages
        // that are not mapped costs only the walk of their page table.
        let end =
            offset / amdgpu_filemap::RELEASE_BLOCK_BYTES * amdgpu_filemap::RELEASE_BLOCK_BYTES;
        map.release(0, end);
        self.released.set(end);
    }

    fn finished(&self) {
        if let FileBytes::Mapped(map) = self.bytes {
            map.release(0, map.len());
        }
        self.released.set(0);
    }
}

/// The whole of `path` as a `kind` input, with [`read_file`]'s checks and
/// errors, mapped instead of read when it is at least
/// [`MAP_THRESHOLD_BYTES`] (unless [`NO_MMAP_ENV`] is set): a parser then
/// brings in only the pages it touches, and nothing is copied. Where the
/// file system cannot map the file, it is read.
pub fn map_or_read_file(path: &Path, kind: InputKind) -> Result<FileBytes, Status> {
    let (file, name, size) = open_checked(path, kind)?;
    if size >= MAP_THRESHOLD_BYTES && std::env::var_os(NO_MMAP_ENV).is_none() {
        match amdgpu_filemap::map(&file) {
            // The map covers the file as it is now, which may have grown
            // or shrunk since it was checked.
            Ok(map) => {
                check_size(map.len(), &name, kind)?;
                tracing::debug!("mapped `{name}` ({} bytes)", map.len());
                return Ok(FileBytes::Mapped(map));
            }
            Err(error) => {
                tracing::debug!("mapping `{name}` failed ({error}); reading it instead");
            }
        }
    }
    tracing::debug!("reading `{name}` ({size} bytes)");
    read_opened(file, &name, size, kind).map(FileBytes::Read)
}

/// Reads `path` as UTF-8 text (a machine description): [`read_file`], then
/// invalid UTF-8 is `INVALID_ARGUMENT` naming the first bad byte's offset.
pub fn read_text_file(path: &Path, kind: InputKind) -> Result<String, Status> {
    let data = read_file(path, kind)?;
    String::from_utf8(data).map_err(|e| {
        Status::invalid_argument(format!(
            "`{}` is not UTF-8 text (invalid byte at offset {}); {} is text",
            crate::escape::display_path(path),
            e.utf8_error().valid_up_to(),
            kind.with_article()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Resident KiB of the mapping that holds `address` (`/proc/self/smaps`).
    fn resident_kib(address: usize) -> u64 {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split(' ').next().unwrap_or_default();
            if let Some((lo, hi)) = range.split_once('-')
                && let (Ok(lo), Ok(hi)) =
                    (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
            {
                inside = (lo..hi).contains(&address);
            } else if inside && let Some(rss) = line.strip_prefix("Rss:") {
                return rss.trim().trim_end_matches("kB").trim().parse().unwrap();
            }
        }
        panic!("no mapping at {address:#x}");
    }

    #[test]
    fn release_behind_lets_mapped_pages_go_in_steps_and_all_at_the_end() {
        let dir = std::env::temp_dir().join(format!("amdgpu-hal-release-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("object");
        // Large enough to be mapped, a few steps and a bit; under 2 MiB,
        // so that no page-table entry maps a huge folio of it (one would
        // leave whole): every page is counted on its own.
        let steps = (MAP_THRESHOLD_BYTES as usize).div_ceil(RELEASE_STEP_BYTES) + 1;
        let size = steps * RELEASE_STEP_BYTES + 100;
        assert!(size < 2 << 20);
        let bytes: Vec<u8> = (0..size).map(|i| (i % 253) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        let data = map_or_read_file(&path, InputKind::Executable).unwrap();
        assert!(data.is_mapped());
        assert_eq!(data.as_ref(), &bytes[..]);
        let base = data.as_ptr() as usize;
        let all = size.div_ceil(4096) as u64 * 4;
        let step = (RELEASE_STEP_BYTES / 1024) as u64;
        assert_eq!(resident_kib(base), all);
        let progress = ReleaseBehind::new(&data);
        // Less than a step: nothing goes.
        progress.past(base + RELEASE_STEP_BYTES - 1);
        assert_eq!(resident_kib(base), all);
        // A step: the whole blocks behind go.
        progress.past(base + RELEASE_STEP_BYTES);
        assert_eq!(resident_kib(base), all - step);
        // Less than a step further (a block and a bit): nothing more.
        progress.past(base + RELEASE_STEP_BYTES + (64 << 10) + 5);
        assert_eq!(resident_kib(base), all - step);
        // Addresses outside the bytes are not the pass's.
        progress.past(base - 1);
        progress.past(base + size + 1);
        assert_eq!(resident_kib(base), all - step);
        // The end of the bytes is in: the whole blocks before it go.
        progress.past(base + size);
        assert_eq!(resident_kib(base), all - steps as u64 * step);
        progress.finished();
        assert_eq!(resident_kib(base), 0);
        // Read again, the same bytes come back; the next pass starts over,
        // its first release half-way through a block: only whole blocks go.
        assert_eq!(&data[..], &bytes[..]);
        assert_eq!(resident_kib(base), all);
        progress.past(base + 2 * RELEASE_STEP_BYTES + (32 << 10));
        assert_eq!(resident_kib(base), all - 2 * step);
        drop(data);
        // Bytes read into memory stay.
        let read = FileBytes::Read(bytes.clone());
        let progress = ReleaseBehind::new(&read);
        progress.past(read.as_ptr() as usize + size);
        progress.finished();
        assert_eq!(read.as_ref(), &bytes[..]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn kind_of(kind: std::io::ErrorKind) -> StatusCode {
        io_status_code(&std::io::Error::from(kind))
    }

    #[test]
    fn io_errors_keep_their_iree_codes() {
        use std::io::ErrorKind as K;
        // iree_status_code_from_errno: ENOENT, EACCES, EISDIR, EFBIG, ENOSPC,
        // EAGAIN, EINVAL, EIO (unlisted).
        assert_eq!(kind_of(K::NotFound), StatusCode::NotFound);
        assert_eq!(kind_of(K::PermissionDenied), StatusCode::PermissionDenied);
        assert_eq!(kind_of(K::IsADirectory), StatusCode::FailedPrecondition);
        assert_eq!(kind_of(K::FileTooLarge), StatusCode::OutOfRange);
        assert_eq!(kind_of(K::StorageFull), StatusCode::ResourceExhausted);
        assert_eq!(kind_of(K::WouldBlock), StatusCode::Unavailable);
        assert_eq!(kind_of(K::InvalidInput), StatusCode::InvalidArgument);
        assert_eq!(
            io_status_code(&std::io::Error::from_raw_os_error(5)),
            StatusCode::Unknown
        );
        assert_eq!(
            io_status_code(&std::io::Error::from_raw_os_error(2)),
            StatusCode::NotFound
        );
    }
}

//! A larger stdout pipe for `inspect` and `load`, whose documents run to
//! megabytes. A pipe holds 64 KiB by default: a 10 MB document then fills
//! it some 170 times, and each time the writer sleeps until the reader has
//! drained it and wakes it again. With [`PIPE_BYTES`] the writer's chunks
//! go in whole and the reader drains them as they come (about 2.5% of
//! `inspect --json` at 10,000 kernels on a 2-core VM; docs/PERFORMANCE.md).

/// The pipe size asked for: Linux's default `pipe-max-size`, the most an
/// unprivileged process may set.
pub const PIPE_BYTES: usize = 1 << 20;

/// Grows stdout's pipe to [`PIPE_BYTES`] when stdout is a pipe smaller than
/// that. Anything else — a file, a terminal, a pipe already as large, a
/// system that refuses — is left as it is: the size changes only how often
/// the writer waits, never what is written.
pub fn grow_stdout_pipe() {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let stdout = std::io::stdout();
        if let Ok(size) = rustix::pipe::fcntl_getpipe_size(&stdout)
            && size < PIPE_BYTES
        {
            let _ = rustix::pipe::fcntl_setpipe_size(&stdout, PIPE_BYTES);
        }
    }
}

//! Text output written by a second thread: a large document (`inspect` of
//! thousands of kernels is megabytes) costs its writer as much time in
//! `write(2)` — copying into a pipe, waiting for the reader — as in
//! rendering. Handing full chunks to a thread that does the writing lets
//! the two overlap on two cores. A document smaller than one chunk never
//! starts the thread. (JSON is formatted on the second thread instead,
//! `json_writer::write_on_two_threads`: its chunks change hands uncopied.)

use std::io::{self, Write};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::{self, JoinHandle};

/// Bytes gathered before a chunk is handed to the writing thread.
pub const CHUNK_BYTES: usize = 128 * 1024;

/// Chunks in flight at once (one filling, the others queued or being
/// written): the memory the thread adds is bounded by this many chunks.
pub const CHUNKS: usize = 3;

/// The writing thread and the channels to it.
struct Worker<W> {
    full: SyncSender<Vec<u8>>,
    empty: Receiver<Vec<u8>>,
    handle: JoinHandle<io::Result<W>>,
}

/// A writer whose bytes reach `W` on another thread, in order, in chunks
/// of [`CHUNK_BYTES`]. [`OutputThread::finish`] writes the rest, waits for
/// the thread and reports its first error; a write after the thread failed
/// reports that the output broke off.
pub struct OutputThread<W: Write + Send + 'static> {
    buf: Vec<u8>,
    /// The writer, until the first chunk fills and the thread takes it.
    idle: Option<W>,
    worker: Option<Worker<W>>,
    /// Chunks made so far (at most [`CHUNKS`]).
    made: usize,
}

impl<W: Write + Send + 'static> OutputThread<W> {
    /// Wraps `out`; no thread starts until a chunk fills.
    pub fn new(out: W) -> Self {
        OutputThread {
            buf: Vec::new(),
            idle: Some(out),
            worker: None,
            made: 0,
        }
    }

    /// Hands the full chunk to the thread (starting it the first time) and
    /// takes an empty one back.
    fn hand_over(&mut self) -> io::Result<()> {
        if self.worker.is_none() {
            let Some(out) = self.idle.take() else {
                return Err(broken_off());
            };
            self.worker = Some(spawn(out)?);
        }
        let Some(worker) = &self.worker else {
            return Err(broken_off());
        };
        let chunk = std::mem::take(&mut self.buf);
        if worker.full.send(chunk).is_err() {
            return Err(self.failure());
        }
        self.buf = if self.made < CHUNKS {
            self.made += 1;
            Vec::with_capacity(CHUNK_BYTES)
        } else {
            match worker.empty.recv() {
                Ok(chunk) => chunk,
                Err(_) => return Err(self.failure()),
            }
        };
        Ok(())
    }

    /// The thread's own error, once it has stopped.
    fn failure(&mut self) -> io::Error {
        match self.worker.take() {
            Some(worker) => {
                drop(worker.full);
                match worker.handle.join() {
                    Ok(Err(error)) => error,
                    _ => broken_off(),
                }
            }
            None => broken_off(),
        }
    }

    /// Writes what is left, waits for the thread and gives the writer back
    /// (flushed), or the first error the writing met.
    pub fn finish(mut self) -> io::Result<W> {
        let Some(worker) = self.worker.take() else {
            let Some(mut out) = self.idle.take() else {
                return Err(broken_off());
            };
            out.write_all(&self.buf)?;
            out.flush()?;
            return Ok(out);
        };
        let rest = std::mem::take(&mut self.buf);
        let sent = rest.is_empty() || worker.full.send(rest).is_ok();
        drop(worker.full);
        let result = match worker.handle.join() {
            Ok(result) => result,
            Err(_) => Err(broken_off()),
        };
        match result {
            Ok(_) if !sent => Err(broken_off()),
            other => other,
        }
    }
}

impl<W: Write + Send + 'static> Drop for OutputThread<W> {
    /// Dropped without [`OutputThread::finish`] (a command failed after
    /// writing): what was written still goes out, as a `BufWriter`'s
    /// drop would, and the thread is waited for; errors have nowhere to go.
    fn drop(&mut self) {
        if self.worker.is_some() || self.idle.is_some() {
            let rest = std::mem::take(&mut self.buf);
            let _ = OutputThread {
                buf: rest,
                idle: self.idle.take(),
                worker: self.worker.take(),
                made: self.made,
            }
            .finish();
        }
    }
}

fn broken_off() -> io::Error {
    io::Error::other("the output thread stopped")
}

/// Starts the thread: it writes each chunk to `out` and sends it back
/// empty, until the sending side closes or a write fails.
fn spawn<W: Write + Send + 'static>(mut out: W) -> io::Result<Worker<W>> {
    let (full, chunks) = sync_channel::<Vec<u8>>(CHUNKS);
    let (recycle, empty) = sync_channel::<Vec<u8>>(CHUNKS);
    let handle = thread::Builder::new()
        .name("output".into())
        .spawn(move || {
            for mut chunk in chunks {
                out.write_all(&chunk)?;
                chunk.clear();
                // The producer gone: nothing more to recycle for.
                let _ = recycle.try_send(chunk);
            }
            out.flush()?;
            Ok(out)
        })?;
    Ok(Worker {
        full,
        empty,
        handle,
    })
}

impl<W: Write + Send + 'static> Write for OutputThread<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.buf.len() >= CHUNK_BYTES {
            self.hand_over()?;
        }
        if self.buf.capacity() == 0 {
            self.buf.reserve_exact(CHUNK_BYTES);
            self.made = self.made.max(1);
        }
        let room = CHUNK_BYTES.saturating_sub(self.buf.len());
        let taken = bytes.len().min(room);
        self.buf
            .extend_from_slice(bytes.get(..taken).unwrap_or(bytes));
        if self.buf.len() >= CHUNK_BYTES {
            self.hand_over()?;
        }
        Ok(taken)
    }

    /// Nothing to do: [`OutputThread::finish`] is where the bytes are
    /// known written. (A flush cannot wait for the thread without a
    /// round trip per call.)
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// Records what reaches it and on which threads; fails with `fail`
    /// once `limit` bytes have been taken.
    #[derive(Debug, Default)]
    struct Recorder {
        bytes: Vec<u8>,
        threads: Vec<Option<String>>,
        limit: Option<(usize, io::ErrorKind)>,
        flushed: bool,
    }

    impl Write for Recorder {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            if let Some((limit, kind)) = self.limit
                && self.bytes.len() + bytes.len() > limit
            {
                return Err(io::Error::new(kind, "recorder full"));
            }
            self.threads
                .push(thread::current().name().map(str::to_owned));
            self.bytes.extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            self.flushed = true;
            Ok(())
        }
    }

    /// A document of `len` bytes that no shift of a chunk boundary leaves
    /// unchanged.
    fn document(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i % 251) as u8).collect()
    }

    /// Writes `doc` in pieces of varying sizes (1 byte to past a chunk).
    fn write_in_pieces(out: &mut impl Write, doc: &[u8]) -> io::Result<()> {
        let sizes = [1, 7, 4096, CHUNK_BYTES - 3, 65_537, CHUNK_BYTES * 2 + 5];
        let mut rest = doc;
        for size in sizes.iter().cycle() {
            if rest.is_empty() {
                return Ok(());
            }
            let (piece, tail) = rest.split_at((*size).min(rest.len()));
            out.write_all(piece)?;
            rest = tail;
        }
        Ok(())
    }

    #[test]
    fn a_document_under_one_chunk_is_written_by_the_caller_at_finish() {
        let mut out = OutputThread::new(Recorder::default());
        let doc = document(CHUNK_BYTES - 1);
        write_in_pieces(&mut out, &doc).unwrap();
        assert!(out.worker.is_none(), "no thread for a small document");
        let inner = out.finish().unwrap();
        assert_eq!(inner.bytes, doc);
        assert!(inner.flushed);
        let caller = thread::current().name().map(str::to_owned);
        assert!(inner.threads.iter().all(|t| *t == caller));
    }

    #[test]
    fn a_large_document_arrives_whole_and_in_order_from_the_output_thread() {
        for len in [CHUNK_BYTES, CHUNK_BYTES + 1, CHUNK_BYTES * 9 + 12_345] {
            let mut out = OutputThread::new(Recorder::default());
            let doc = document(len);
            write_in_pieces(&mut out, &doc).unwrap();
            let inner = out.finish().unwrap();
            assert_eq!(inner.bytes.len(), len);
            assert!(inner.bytes == doc, "{len} bytes reordered or changed");
            assert!(inner.flushed);
            assert!(
                inner.threads.iter().all(|t| t.as_deref() == Some("output")),
                "every write of a {len}-byte document on the output thread"
            );
            assert_eq!(inner.threads.len(), len.div_ceil(CHUNK_BYTES));
        }
    }

    #[test]
    fn the_threads_write_error_reaches_the_caller() {
        let failing = Recorder {
            limit: Some((CHUNK_BYTES * 2, io::ErrorKind::StorageFull)),
            ..Recorder::default()
        };
        let mut out = OutputThread::new(failing);
        let error = write_in_pieces(&mut out, &document(CHUNK_BYTES * 40))
            .expect_err("writes stop once the thread has failed");
        assert_eq!(error.kind(), io::ErrorKind::StorageFull, "{error}");
        assert!(error.to_string().contains("recorder full"), "{error}");
        // Once reported, the output is gone: later calls say it broke off.
        let again = out.write_all(&[0; CHUNK_BYTES * 2]).unwrap_err();
        assert!(
            again.to_string().contains("output thread stopped"),
            "{again}"
        );
        assert!(out.finish().is_err());
    }

    #[test]
    fn an_error_in_the_last_chunk_is_reported_by_finish() {
        let failing = Recorder {
            limit: Some((CHUNK_BYTES, io::ErrorKind::StorageFull)),
            ..Recorder::default()
        };
        let mut out = OutputThread::new(failing);
        write_in_pieces(&mut out, &document(CHUNK_BYTES + 10)).unwrap();
        let error = out.finish().expect_err("the second chunk failed");
        assert_eq!(error.kind(), io::ErrorKind::StorageFull, "{error}");
    }

    #[test]
    fn a_closed_pipe_under_the_thread_is_swallowed_like_before() {
        let closed = Recorder {
            limit: Some((CHUNK_BYTES, io::ErrorKind::BrokenPipe)),
            ..Recorder::default()
        };
        let mut out = OutputThread::new(crate::PipeWriter::new(closed));
        write_in_pieces(&mut out, &document(CHUNK_BYTES * 6)).unwrap();
        let pipe = out.finish().expect("a closed pipe is not an error");
        assert!(pipe.closed);
        assert_eq!(pipe.inner.bytes, document(CHUNK_BYTES));
    }

    /// A writer whose bytes can be read after the `OutputThread` is gone.
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn dropping_without_finish_still_writes_everything() {
        for len in [10, CHUNK_BYTES * 3 + 17] {
            let seen = Arc::new(Mutex::new(Vec::new()));
            let mut out = OutputThread::new(Shared(Arc::clone(&seen)));
            let doc = document(len);
            write_in_pieces(&mut out, &doc).unwrap();
            drop(out);
            assert!(*seen.lock().unwrap() == doc, "{len} bytes after a drop");
        }
    }
}

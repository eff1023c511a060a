//! A large document formatted on a second thread while the calling thread
//! writes it: formatting `inspect` or `load` JSON of thousands of kernels
//! costs about as much as copying its megabytes into a pipe, and on two
//! cores the two overlap. Full chunks change hands whole (the formatter's
//! buffer becomes the writer's; no copy), at most [`CHUNKS`] of them at
//! once, and the writer is only ever touched by the calling thread, so it
//! need not be `Send`. The bytes are those of one thread.

use std::io::{self, Write};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use super::{JsonChunks, Sink};
use crate::input::Progress;

/// Bytes a chunk holds before it changes hands (fewer, larger handoffs
/// than a writer's chunk: each is a wake-up of the other thread).
pub const CHUNK_BYTES: usize = 128 * 1024;

/// Chunks in existence at once (being filled, queued, being written): the
/// memory the second thread adds is bounded by this many chunks.
pub const CHUNKS: usize = 3;

/// The formatter's end of the exchange: full chunks out with the input
/// address they are past, empty ones back.
pub(super) struct Handoff {
    full: SyncSender<(Vec<u8>, usize)>,
    empty: Receiver<Vec<u8>>,
    /// Chunk buffers made so far (at most [`CHUNKS`]).
    made: usize,
    /// The last [`JsonChunks::mark`].
    past: usize,
}

impl Handoff {
    pub(super) fn mark(&mut self, address: usize) {
        self.past = address;
    }

    /// Sends `chunk` to the writer and returns an empty one: a new buffer
    /// while fewer than [`CHUNKS`] exist, else one the writer is done with.
    pub(super) fn hand_over(&mut self, chunk: Vec<u8>) -> io::Result<Vec<u8>> {
        self.full.send((chunk, self.past)).map_err(|_| stopped())?;
        if self.made < CHUNKS {
            self.made += 1;
            return Ok(Vec::with_capacity(CHUNK_BYTES + 4096));
        }
        let mut chunk = self.empty.recv().map_err(|_| stopped())?;
        chunk.clear();
        Ok(chunk)
    }
}

fn stopped() -> io::Error {
    io::Error::other("the JSON writer stopped")
}

/// Runs `format` (which ends with [`JsonChunks::flush`]) on a second thread
/// and writes each chunk it fills to `out` here, in order, telling
/// `progress` after each the address the formatter had marked. The first
/// error of either side is returned; where no thread can be started,
/// `format` runs here, straight into `out`.
pub(crate) fn write_on_two_threads(
    out: &mut dyn Write,
    progress: &dyn Progress,
    format: &(dyn Fn(&mut JsonChunks<'_>) -> io::Result<()> + Sync),
) -> io::Result<()> {
    let (full_tx, full_rx) = sync_channel::<(Vec<u8>, usize)>(CHUNKS);
    let (empty_tx, empty_rx) = sync_channel::<Vec<u8>>(CHUNKS);
    let formatted = std::thread::scope(|scope| {
        // Owned by this closure: dropped before the scope waits for the
        // formatter, which then learns that the writing stopped.
        let (full_rx, empty_tx) = (full_rx, empty_tx);
        let formatter = std::thread::Builder::new()
            .name("json".into())
            .spawn_scoped(scope, move || {
                let mut json = JsonChunks {
                    buf: Vec::with_capacity(CHUNK_BYTES + 4096),
                    sink: Sink::Thread(Handoff {
                        full: full_tx,
                        empty: empty_rx,
                        made: 1,
                        past: 0,
                    }),
                };
                format(&mut json)
            });
        let Ok(formatter) = formatter else {
            return None;
        };
        let mut written = Ok(());
        for (chunk, past) in &full_rx {
            if let Err(error) = out.write_all(&chunk) {
                written = Err(error);
                break;
            }
            if past != 0 {
                progress.past(past);
            }
            // Full only if the formatter has ended: then it is not needed.
            let _ = empty_tx.try_send(chunk);
        }
        drop((full_rx, empty_tx));
        let formatted = formatter
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the JSON formatting thread panicked")));
        // A write error first: the formatter's is then only that it stopped.
        Some(written.and(formatted))
    });
    match formatted {
        Some(result) => result,
        None => format(&mut JsonChunks::with_progress(out, progress)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// Formats `len` bytes that no misplaced chunk leaves unchanged, in
    /// pieces of varying size, marking after each piece the number of
    /// bytes so far (standing in for an input address).
    fn counting(len: usize) -> impl Fn(&mut JsonChunks<'_>) -> io::Result<()> + Sync {
        move |json| {
            let mut done = 0;
            let mut piece = 1;
            while done < len {
                let n = piece.min(len - done);
                let bytes: Vec<u8> = (done..done + n).map(|i| (i % 251) as u8).collect();
                json.raw(&bytes);
                done += n;
                json.mark(done);
                json.flush_if_full()?;
                piece = piece * 7 % 40_000 + 1;
            }
            json.flush()
        }
    }

    fn expected(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i % 251) as u8).collect()
    }

    /// Collects what it is given; fails with `kind` once past `limit`.
    struct Collect {
        bytes: Rc<RefCell<Vec<u8>>>,
        limit: Option<(usize, io::ErrorKind)>,
    }

    impl Write for Collect {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let mut bytes = self.bytes.borrow_mut();
            if let Some((limit, kind)) = self.limit
                && bytes.len() + buf.len() > limit
            {
                return Err(io::Error::new(kind, "sink full"));
            }
            bytes.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Records each mark with the bytes written when it was told.
    struct Marks {
        written: Rc<RefCell<Vec<u8>>>,
        seen: RefCell<Vec<(usize, usize)>>,
    }

    impl Progress for Marks {
        fn past(&self, address: usize) {
            let written = self.written.borrow().len();
            self.seen.borrow_mut().push((address, written));
        }
        fn finished(&self) {}
    }

    #[test]
    fn chunks_arrive_whole_and_in_order_with_their_marks_after_them() {
        for len in [0, 10, CHUNK_BYTES, CHUNK_BYTES * 9 + 4321] {
            let bytes = Rc::new(RefCell::new(Vec::new()));
            let mut out = Collect {
                bytes: Rc::clone(&bytes),
                limit: None,
            };
            let marks = Marks {
                written: Rc::clone(&bytes),
                seen: RefCell::new(Vec::new()),
            };
            write_on_two_threads(&mut out, &marks, &counting(len)).unwrap();
            assert!(*bytes.borrow() == expected(len), "{len} bytes");
            let seen = marks.seen.into_inner();
            // One mark per full chunk at least, each told once its bytes
            // were written, never going back.
            assert!(seen.len() >= len / CHUNK_BYTES, "{len}: {seen:?}");
            assert!(seen.iter().all(|&(mark, written)| mark <= written));
            assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0));
            if len > 0 {
                assert_eq!(seen.last().map(|m| m.0), Some(len), "the last mark");
            }
        }
    }

    /// Records the address of every buffer it is given.
    struct Buffers(Vec<usize>);

    impl Write for Buffers {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.push(buf.as_ptr() as usize);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_chunks_are_the_same_few_buffers_handed_round() {
        // Pieces small enough never to grow a chunk past its capacity: each
        // buffer keeps its address, so the writer sees exactly the buffers
        // there are.
        let mut out = Buffers(Vec::new());
        write_on_two_threads(&mut out, &(), &|json| {
            for i in 0..CHUNK_BYTES * 12 / 1000 {
                json.raw(&[(i % 251) as u8; 1000]);
                json.flush_if_full()?;
            }
            json.flush()
        })
        .unwrap();
        assert!(out.0.len() >= 12, "{} chunks", out.0.len());
        let mut distinct = out.0.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), CHUNKS, "buffers made: {:x?}", out.0);
    }

    #[test]
    fn the_formatting_runs_on_its_own_thread() {
        let name = std::sync::Mutex::new(None);
        let mut out = Vec::new();
        write_on_two_threads(&mut out, &(), &|json| {
            *name.lock().unwrap() = std::thread::current().name().map(str::to_owned);
            json.raw(b"{}");
            json.flush()
        })
        .unwrap();
        assert_eq!(out, b"{}");
        assert_eq!(name.into_inner().unwrap().as_deref(), Some("json"));
    }

    #[test]
    fn a_write_error_is_returned_and_the_formatter_stops() {
        for limit in [0, CHUNK_BYTES / 2, CHUNK_BYTES * 5 + 17] {
            let bytes = Rc::new(RefCell::new(Vec::new()));
            let mut out = Collect {
                bytes: Rc::clone(&bytes),
                limit: Some((limit, io::ErrorKind::StorageFull)),
            };
            let error = write_on_two_threads(&mut out, &(), &counting(CHUNK_BYTES * 40))
                .expect_err("the writer fails");
            assert_eq!(error.kind(), io::ErrorKind::StorageFull, "{error}");
            assert!(error.to_string().contains("sink full"), "{error}");
            assert!(bytes.borrow().len() <= limit);
        }
    }

    #[test]
    fn a_formatting_error_is_returned_after_what_was_handed_over() {
        let mut out = Vec::new();
        let error = write_on_two_threads(&mut out, &(), &|json| {
            counting(CHUNK_BYTES * 2)(json)?;
            Err(io::Error::new(io::ErrorKind::InvalidData, "bad value"))
        })
        .expect_err("the formatter fails");
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert!(out == expected(CHUNK_BYTES * 2));
    }
}

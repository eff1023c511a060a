//! A large `amdhsa.kernels` array decoded on two threads, with the same
//! result and the same errors as one.
//!
//! MessagePack has no index: where the second half of the array starts is
//! only known once the first half is read. So a second thread guesses: from
//! the middle of the note it looks for bytes that decode as a whole kernel
//! map, and decodes kernels from there into a visitor of its own (the
//! tail). The first thread decodes from the start (the head) and watches
//! for the guessed offset among its kernels' boundaries. If it meets it,
//! the guess was a real boundary and the tail decoded exactly what the head
//! would have: the tail is joined on and the head jumps to the tail's end.
//! Anything else — the head passing the guess, the tail stopping early or
//! running past the array, an error in the tail, a tail the visitor cannot
//! take — leaves the head to decode on alone from where it is, so results
//! and errors are the single thread's by construction.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::decode::{
    KernelVisitor, MetadataHeader, read_indexed_kernel, read_kernel, read_kernel_count,
    read_kernel_range, visit_notes_with, visit_with,
};
use super::msgpack::Reader;
use crate::Result;
use crate::input::Progress;

/// Fewest kernels in one array for a second thread to be worth starting.
pub const SPLIT_MIN_KERNELS: usize = 256;
/// How far past the middle of the note the tail looks for a kernel map
/// before it gives up (the head then decodes everything).
pub const SPLIT_SEARCH_BYTES: usize = 64 * 1024;
/// Most candidate offsets the tail tries to decode as a kernel in that
/// span (an argument map looks like a kernel map until it is decoded).
pub const SPLIT_SEARCH_TRIES: usize = 64;

/// Smallest input for which [`ThreadWarmUp::start`] is worth calling: an
/// array of [`SPLIT_MIN_KERNELS`] kernels takes at least this many bytes of
/// metadata with LLVM's keys (well over 256 bytes a kernel).
pub(crate) const WARM_UP_MIN_BYTES: usize = SPLIT_MIN_KERNELS * 256;

/// A thread started and ended while the caller checks the ELF, before a
/// split's second thread is needed. Started only once decoding has begun,
/// that thread ran 0.2–4 ms late on a 2-vCPU VM (median about 2 ms of a
/// 20 ms `inspect`): the other vCPU was idle and slow to wake, and the new
/// thread's stack and malloc arena were mapped while the first thread was
/// faulting the note in, each `mmap`/`mprotect` taking the address space's
/// lock for writing. Started first, the other vCPU is awake by the time
/// the split begins, and glibc hands the second thread the cached stack
/// and the spare arena this one leaves (docs/PERFORMANCE.md: 7–14 %
/// faster from 1,000 to 10,000 kernels).
#[derive(Debug)]
pub(crate) struct ThreadWarmUp(Option<std::thread::JoinHandle<()>>);

impl ThreadWarmUp {
    /// Starts the thread; it allocates once (making its arena) and ends.
    pub(crate) fn start() -> Self {
        let thread = std::thread::Builder::new()
            .name("metadata-warm-up".into())
            .spawn(|| drop(std::hint::black_box(Box::new(0u64))));
        ThreadWarmUp(thread.ok())
    }
}

impl Drop for ThreadWarmUp {
    /// Waits for the thread to end: its stack and arena then wait for the
    /// next thread.
    fn drop(&mut self) {
        if let Some(thread) = self.0.take() {
            // Its only work cannot fail; a panic there is nothing to report.
            let _ = thread.join();
        }
    }
}

/// About how many kernels each part of a split array of `count` gets: a
/// little over half (the parts meet at a byte offset, not an index). What a
/// visitor reserves per part: room for all of them would touch twice the
/// pages.
pub(crate) fn split_share(count: usize) -> usize {
    count / 2 + count / 16
}

/// A [`KernelVisitor`] whose kernels can be gathered in two parts at once.
pub trait SplitKernelVisitor<'a>: KernelVisitor<'a> + Send + Sized {
    /// An empty visitor for the kernels after this one's, which are counted
    /// from 0 until [`SplitKernelVisitor::join`] places them. `kernels` is
    /// about how many it will get (room to reserve; it may get more).
    fn fork(&self, kernels: usize) -> Self;

    /// Appends `tail`'s kernels after this visitor's `first` ones, with the
    /// outcome [`KernelVisitor::kernel`] would have had for each of them in
    /// turn: the same error where one of them would have failed. `Ok(false)`
    /// when the tail holds something that depends on where its kernels
    /// fall: nothing is changed, and the kernels are decoded again here.
    fn join(&mut self, tail: Self, first: usize) -> Result<bool>;
}

/// [`super::visit_notes`] for a visitor whose kernels can be split: every
/// note's kernel array of at least [`SPLIT_MIN_KERNELS`] kernels is decoded
/// on two threads. `progress` hears the address after each kernel (the
/// tail's part through [`Progress::split_at`]). The result and errors are
/// those of one thread.
pub(crate) fn visit_notes_split<'a, V: SplitKernelVisitor<'a>>(
    notes: &[&'a [u8]],
    visitor: &mut V,
    progress: &(dyn Progress + Sync),
) -> Result<MetadataHeader<'a>> {
    visit_notes_with(notes, |note| {
        visit_with(note, |reader| read_kernels_split(reader, visitor, progress))
    })
}

/// What the tail reports back.
struct Tail<V> {
    visitor: V,
    /// Kernels decoded, without error, one after the other from the guess.
    kernels: usize,
    /// The reader's position after the last of them.
    end: usize,
}

/// `guess` before the tail has published one.
const PENDING: usize = usize::MAX;
/// `guess` when the tail found no kernel to start at.
const NONE: usize = usize::MAX - 1;

fn read_kernels_split<'a, V: SplitKernelVisitor<'a>>(
    reader: &mut Reader<'a>,
    visitor: &mut V,
    progress: &(dyn Progress + Sync),
) -> Result<usize> {
    let count = read_kernel_count(reader)?;
    visitor.kernel_count(count);
    if count < SPLIT_MIN_KERNELS {
        read_kernel_range(reader, visitor, 0..count, progress)?;
        return Ok(count);
    }
    let middle = reader.position() + reader.remaining() / 2;
    let guess = AtomicUsize::new(PENDING);
    let stop = AtomicBool::new(false);
    // The tail starts near the middle: room for about half the kernels
    // (a table sized for all of them would touch twice the pages), and
    // never for more than the bytes could hold (a kernel map takes well
    // over 64), whatever the count claims.
    let fork = visitor.fork(split_share(count).min(reader.remaining() / 64));
    let tail_reader = reader.at(middle);
    let (guess, stop) = (&guess, &stop);
    std::thread::scope(|scope| {
        let tail = std::thread::Builder::new()
            .name("metadata-tail".into())
            .spawn_scoped(scope, move || {
                decode_tail(tail_reader, fork, guess, stop, progress)
            });
        let Ok(tail) = tail else {
            // No second thread to be had: one does it all.
            read_kernel_range(reader, visitor, 0..count, progress)?;
            return Ok(count);
        };
        let met = decode_head(reader, visitor, count, middle, guess, progress);
        if !matches!(met, Ok(Some(_))) {
            // The tail's work is of no use: let it end early.
            stop.store(true, Ordering::Relaxed);
        }
        let Some(first) = met? else {
            tracing::debug!("{count} kernels decoded by one thread: the tail's guess was not met");
            return Ok(count);
        };
        let tail = tail.join().ok().flatten();
        let joined = match tail {
            Some(tail) if tail.kernels == count - first => {
                let end = tail.end;
                visitor.join(tail.visitor, first)?.then_some(end)
            }
            _ => None,
        };
        tracing::debug!(
            "{count} kernels decoded on two threads: {first} by the head, the rest by the tail{}",
            if joined.is_some() {
                ""
            } else {
                " (not joined: decoded again by the head)"
            }
        );
        match joined {
            Some(end) => {
                *reader = reader.at(end);
                progress.past(reader.address());
            }
            None => read_kernel_range(reader, visitor, first..count, progress)?,
        }
        Ok(count)
    })
}

/// The head: kernels from the first, until one starts at the tail's guess
/// (`Some(its index)`, the reader there) or the array ends (`None`). The
/// guess is never before `middle`, where the tail starts looking.
fn decode_head<'a, V: KernelVisitor<'a>>(
    reader: &mut Reader<'a>,
    visitor: &mut V,
    count: usize,
    middle: usize,
    guess: &AtomicUsize,
    progress: &(dyn Progress + Sync),
) -> Result<Option<usize>> {
    for index in 0..count {
        let at = reader.position();
        let mut target = guess.load(Ordering::Acquire);
        while target == PENDING && at >= middle {
            // The guess is at or past the middle: wait for it rather than
            // pass it unseen, so that whether the parts are joined does
            // not depend on when the second thread got to run.
            std::thread::yield_now();
            target = guess.load(Ordering::Acquire);
        }
        if at == target {
            return Ok(Some(index));
        }
        if target == NONE || (target != PENDING && at > target) {
            // Past the guess (or none was found): the rest is the head's.
            read_kernel_range(reader, visitor, index..count, progress)?;
            return Ok(None);
        }
        read_indexed_kernel(reader, visitor, index)?;
        progress.past(reader.address());
    }
    Ok(None)
}

/// The tail: finds a kernel map at or after the reader's position,
/// publishes its offset in `guess`, and decodes kernels from there until
/// one fails to decode (the array's end, or an error the head will meet
/// itself) or the input ends. `None` when the head says `stop` or the
/// visitor refuses a kernel.
fn decode_tail<'a, V: KernelVisitor<'a>>(
    mut reader: Reader<'a>,
    mut visitor: V,
    guess: &AtomicUsize,
    stop: &AtomicBool,
    progress: &(dyn Progress + Sync),
) -> Option<Tail<V>> {
    // However this ends (a panic included), the head, which may be
    // waiting for a guess, gets one.
    struct NoGuess<'g>(&'g AtomicUsize);
    impl Drop for NoGuess<'_> {
        fn drop(&mut self) {
            let _ = self
                .0
                .compare_exchange(PENDING, NONE, Ordering::Release, Ordering::Relaxed);
        }
    }
    let _no_guess = NoGuess(guess);
    let start = find_kernel(&reader)?;
    guess.store(start, Ordering::Release);
    reader = reader.at(start);
    let progress = progress.split_at(reader.address());
    let mut kernels = 0;
    while !reader.is_at_end() {
        if stop.load(Ordering::Relaxed) {
            // The head has no use for it (it passed the guess or failed).
            return None;
        }
        let mut next = reader.clone();
        let Ok(kernel) = read_kernel(&mut next) else {
            // The array's end (what follows it is a key, not a map), or an
            // error the head will meet itself.
            break;
        };
        if visitor.kernel(kernel).is_err() {
            // The visitor may hold part of the failed kernel (a name but
            // not its symbol): nothing of this part can be used.
            return None;
        }
        reader = next;
        kernels += 1;
        progress.past(reader.address());
    }
    Some(Tail {
        visitor,
        kernels,
        end: reader.position(),
    })
}

/// The first offset from the reader's position, within
/// [`SPLIT_SEARCH_BYTES`], where a whole kernel map decodes: a map header
/// whose first key is a `.`-name. At most [`SPLIT_SEARCH_TRIES`] are tried.
fn find_kernel(reader: &Reader<'_>) -> Option<usize> {
    let from = reader.position();
    let mut tries = 0;
    for pos in from..from.saturating_add(SPLIT_SEARCH_BYTES) {
        let probe = reader.at(pos);
        if probe.is_at_end() {
            return None;
        }
        if !looks_like_kernel(&probe) {
            continue;
        }
        if read_kernel(&mut probe.clone()).is_ok() {
            return Some(pos);
        }
        tries += 1;
        if tries == SPLIT_SEARCH_TRIES {
            return None;
        }
    }
    None
}

/// A fixmap of 1–15 entries or a map16, then a string starting with `.`.
fn looks_like_kernel(reader: &Reader<'_>) -> bool {
    let bytes = reader.rest();
    let key = match bytes {
        [0x81..=0x8f, rest @ ..] => rest,
        [0xde, _, _, rest @ ..] => rest,
        _ => return false,
    };
    matches!(key, [0xa1..=0xbf, b'.', ..] | [0xd9, _, b'.', ..])
}

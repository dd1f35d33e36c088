//! Calls that wait for another process: reading a pipe or a terminal, opening a FIFO,
//! writing into a pipe. They are marked while they run, so that a Ctrl-C handler can tell a
//! run that is stuck waiting (and would not see its interrupt flag until the other side
//! moves) from one that computes (and stops at its next poll) or one whose output is still
//! being taken, however slowly.
//!
//! Only the main thread's input and output are marked, one call at a time. A write hands
//! the system at most [`WRITE_PIECE`] bytes per call, which a pipe takes whole as soon as
//! it has that much room (a larger write to a full pipe returns only once the reader has
//! taken all of it), so that a reader that is slow but still reading lets calls end and
//! new ones begin.

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

/// Marked calls under way.
static ACTIVE: AtomicUsize = AtomicUsize::new(0);
/// Marked calls begun so far: tells one long call from a run of short ones.
static BEGUN: AtomicU64 = AtomicU64::new(0);
/// The [`Wait`] of the call begun last.
static KIND: AtomicU8 = AtomicU8::new(0);

/// The most bytes one marked write hands the system: `PIPE_BUF`, what a pipe takes in one
/// piece (4 KiB on Linux).
pub const WRITE_PIECE: usize = 1 << 12;

/// What a marked call waits for, which decides how long it may wait without anything
/// moving before a run that was told to stop gives up on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// Input from a pipe, a FIFO or a terminal. A run that was told to stop needs none.
    Read,
    /// Opening a FIFO, which waits for its other end to be opened.
    Open,
    /// Output into a pipe: a reader that takes it slowly still takes it.
    Write,
}

impl Wait {
    /// How long one call of this kind may wait, once the run was told to stop, before it is
    /// taken as stuck: 30 ms for reads and opens, one second for a write.
    pub const fn patience(self) -> Duration {
        match self {
            Wait::Read | Wait::Open => Duration::from_millis(30),
            Wait::Write => Duration::from_secs(1),
        }
    }

    const ALL: [Wait; 3] = [Wait::Read, Wait::Open, Wait::Write];
}

/// Runs `f`, marked as a call that may wait for another process for `wait`.
pub fn during<T>(wait: Wait, f: impl FnOnce() -> T) -> T {
    struct Done;
    impl Drop for Done {
        fn drop(&mut self) {
            ACTIVE.fetch_sub(1, Ordering::SeqCst);
        }
    }
    KIND.store(wait as u8, Ordering::SeqCst);
    BEGUN.fetch_add(1, Ordering::SeqCst);
    ACTIVE.fetch_add(1, Ordering::SeqCst);
    let _done = Done;
    f()
}

/// The marked call under way, if any: a token that stays the same while that one call
/// lasts (a new call gives a new token), and what it waits for.
pub fn waiting() -> Option<(u64, Wait)> {
    if ACTIVE.load(Ordering::SeqCst) == 0 {
        return None;
    }
    let kind = Wait::ALL[usize::from(KIND.load(Ordering::SeqCst)).min(2)];
    Some((BEGUN.load(Ordering::SeqCst), kind))
}

/// A reader or writer whose every call is marked with [`during`]: reads as [`Wait::Read`],
/// writes and flushes as [`Wait::Write`], at most [`WRITE_PIECE`] bytes per write.
#[derive(Debug)]
pub struct Marked<T>(pub T);

impl<R: Read> Read for Marked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        during(Wait::Read, || self.0.read(buf))
    }
}

impl<W: Write> Write for Marked<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let piece = &buf[..buf.len().min(WRITE_PIECE)];
        during(Wait::Write, || self.0.write(piece))
    }

    fn flush(&mut self) -> io::Result<()> {
        during(Wait::Write, || self.0.flush())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_marked_with_its_kind_while_it_runs() {
        // Other tests may mark calls of their own at the same time: the kind is the one of
        // the call begun last, so a call begun on another thread between this one's start
        // and its look would show its own. Each kind must be seen within a few tries.
        for wait in Wait::ALL {
            let seen = (0..50).any(|_| during(wait, || waiting().is_some_and(|(_, k)| k == wait)));
            assert!(seen, "{wait:?} never seen from inside its call");
            let (token, _) = during(wait, || waiting().expect("marked"));
            let (next, _) = during(wait, || waiting().expect("marked"));
            assert!(next > token, "a new call gives a new token");
        }
        // Writes go out in pieces, each a call of its own, marked as writes.
        struct Pieces(Vec<usize>, Vec<Option<Wait>>);
        impl Write for Pieces {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                self.1.push(waiting().map(|(_, k)| k));
                self.0.push(buf.len());
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut w = Marked(Pieces(Vec::new(), Vec::new()));
        w.write_all(&vec![7; 3 * WRITE_PIECE + 5]).unwrap();
        assert_eq!(w.0.0, [WRITE_PIECE, WRITE_PIECE, WRITE_PIECE, 5]);
        let kinds = &w.0.1;
        assert!(kinds.iter().all(Option::is_some), "{kinds:?}");
        assert!(kinds.contains(&Some(Wait::Write)), "{kinds:?}");
        let mut r = Marked(&b"xyz"[..]);
        let mut s = String::new();
        r.read_to_string(&mut s).unwrap();
        assert_eq!(s, "xyz");
    }
}

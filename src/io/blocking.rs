//! Calls that wait for another process: reading a pipe or a terminal, opening a FIFO,
//! writing into a pipe that nobody reads. They are marked while they run, so that a Ctrl-C
//! handler can tell a run that waits (and would not see its interrupt flag until the other
//! side moves) from one that computes (and stops at its next poll).

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Marked calls under way.
static ACTIVE: AtomicUsize = AtomicUsize::new(0);
/// Marked calls begun so far: tells one long call from a run of short ones.
static BEGUN: AtomicU64 = AtomicU64::new(0);

/// Runs `f`, marked as a call that may wait for another process.
pub fn during<T>(f: impl FnOnce() -> T) -> T {
    struct Done;
    impl Drop for Done {
        fn drop(&mut self) {
            ACTIVE.fetch_sub(1, Ordering::SeqCst);
        }
    }
    BEGUN.fetch_add(1, Ordering::SeqCst);
    ACTIVE.fetch_add(1, Ordering::SeqCst);
    let _done = Done;
    f()
}

/// A token of the marked calls under way, if any: the same token seen twice some time
/// apart means that one call has waited at least that long.
pub fn waiting() -> Option<u64> {
    (ACTIVE.load(Ordering::SeqCst) > 0).then(|| BEGUN.load(Ordering::SeqCst))
}

/// A reader or writer whose every call is marked with [`during`].
#[derive(Debug)]
pub struct Marked<T>(pub T);

impl<R: Read> Read for Marked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        during(|| self.0.read(buf))
    }
}

impl<W: Write> Write for Marked<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        during(|| self.0.write(buf))
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        during(|| self.0.write_all(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        during(|| self.0.flush())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_marked_while_it_runs() {
        // Other tests may mark calls of their own at the same time, so only what this
        // call must see is checked.
        let seen = during(waiting);
        assert!(seen.is_some());
        let mut w = Marked(Vec::new());
        w.write_all(b"abc").unwrap();
        let mut r = Marked(&b"xyz"[..]);
        let mut s = String::new();
        r.read_to_string(&mut s).unwrap();
        assert_eq!((w.0.as_slice(), s.as_str()), (&b"abc"[..], "xyz"));
    }
}

//! Input that may wait for another process (standard input, a FIFO, a terminal), read on a
//! thread of its own, so that Ctrl-C reaches a run waiting for more of it.
//!
//! A read from a pipe with nothing more in it yet blocks until the other side writes or
//! closes, and the flag that Ctrl-C raises would not be looked at until then. Here a
//! *pump* thread makes those reads and hands the bytes over in pieces; the run's own reads
//! take them with a timeout, and once Ctrl-C has come, a read that finds nothing waiting
//! fails with [`StoppedWaiting`] instead of waiting. `solve` and `count` then write the
//! results they finished (see `super::super::batch`); other commands exit with 130.
//!
//! Once the stop is asked, an end of input is refused, even one already handed over but not
//! yet taken: the other side of a pipe is usually stopped by the same Ctrl-C, and the end
//! that follows would otherwise pass for the input's real end. Bytes still coming are
//! taken, and the batch stops at its next puzzle, as it does reading a file.

use std::io::{self, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::Duration;

use crate::cli::exit::StoppedWaiting;

/// How often a read waiting for the pump looks at the stop flag.
const LOOK: Duration = Duration::from_millis(10);

/// Bytes the pump reads at once.
const PIECE: usize = 1 << 16;

/// Pieces read ahead and not yet taken (at most 256 KiB held).
const AHEAD: usize = 4;

/// Stack of the pump thread: it only reads into a heap buffer.
const PUMP_STACK: usize = 64 << 10;

/// A reader fed by a pump thread; see the module documentation.
pub(super) struct Pumped {
    from: Receiver<io::Result<Vec<u8>>>,
    piece: Vec<u8>,
    at: usize,
    ended: bool,
    stop: Arc<AtomicBool>,
}

impl Pumped {
    /// Starts a pump thread reading `inner`; a read waiting for it fails once `stop` is
    /// raised. Gives `inner` back when no thread can be started (`ulimit -v`): it is then
    /// read directly, and a run waiting for it is ended by the Ctrl-C handler instead.
    pub(super) fn start<R: Read + Send + 'static>(
        inner: R,
        stop: Arc<AtomicBool>,
    ) -> Result<Pumped, R> {
        let (to, from) = sync_channel(AHEAD);
        // The reader moves into the thread only once it has started.
        let (hand, take) = sync_channel::<R>(1);
        let started = std::thread::Builder::new()
            .name("input".into())
            .stack_size(PUMP_STACK)
            .spawn(move || {
                if let Ok(inner) = take.recv() {
                    pump(inner, &to);
                }
            });
        if started.is_err() {
            return Err(inner);
        }
        // The thread is waiting for it: this cannot fail.
        let _ = hand.send(inner);
        Ok(Pumped {
            from,
            piece: Vec::new(),
            at: 0,
            ended: false,
            stop,
        })
    }
}

/// The error of a read that the press stopped, once the press has been answered on stderr.
fn stopped_waiting() -> io::Error {
    crate::cli::progress::await_press_message();
    io::Error::other(StoppedWaiting)
}

/// The pump thread: reads `inner` until its end or an error, handing over each piece (an
/// empty piece is the end); stops when the run no longer takes them.
fn pump(mut inner: impl Read, to: &SyncSender<io::Result<Vec<u8>>>) {
    loop {
        let mut piece = vec![0; PIECE];
        let sent = match inner.read(&mut piece) {
            Ok(n) => {
                piece.truncate(n);
                let end = n == 0;
                to.send(Ok(piece)).is_ok() && !end
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => true,
            Err(e) => {
                let _ = to.send(Err(e));
                false
            }
        };
        if !sent {
            return;
        }
    }
}

impl Read for Pumped {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        while self.at == self.piece.len() {
            if self.ended {
                return Ok(0);
            }
            match self.from.recv_timeout(LOOK) {
                // An end after the press: the other side is often stopped by the same
                // Ctrl-C, so its end would pass for the input's. (Bytes still coming are
                // taken: the batch stops at its next puzzle, as when reading a file.)
                Ok(Ok(piece)) if piece.is_empty() && self.stop.load(Ordering::Relaxed) => {
                    return Err(stopped_waiting());
                }
                Err(RecvTimeoutError::Timeout) if self.stop.load(Ordering::Relaxed) => {
                    return Err(stopped_waiting());
                }
                Ok(Ok(piece)) => {
                    self.ended = piece.is_empty();
                    self.piece = piece;
                    self.at = 0;
                }
                Ok(Err(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                Err(RecvTimeoutError::Timeout) => {}
                // The pump ended without handing over an end or an error: it failed.
                Err(RecvTimeoutError::Disconnected) => {
                    self.ended = true;
                    return Err(io::Error::other("the thread reading the input stopped"));
                }
            }
        }
        let n = buf.len().min(self.piece.len() - self.at);
        buf[..n].copy_from_slice(&self.piece[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::exit::stopped_waiting;

    #[test]
    fn hands_over_everything_in_order_then_the_end() {
        let data: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
        let stop = Arc::new(AtomicBool::new(false));
        let Ok(mut r) = Pumped::start(io::Cursor::new(data.clone()), stop) else {
            panic!("no thread");
        };
        let mut got = Vec::new();
        r.read_to_end(&mut got).unwrap();
        assert_eq!(got, data);
        assert_eq!(r.read(&mut [0; 8]).unwrap(), 0, "the end stays the end");
    }

    /// A reader that gives one line, then blocks until the test ends.
    struct Stalls(Option<Vec<u8>>, Receiver<()>);

    impl Read for Stalls {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.0.take() {
                Some(line) => {
                    buf[..line.len()].copy_from_slice(&line);
                    Ok(line.len())
                }
                None => {
                    let _ = self.1.recv();
                    Ok(0)
                }
            }
        }
    }

    #[test]
    fn a_stop_ends_a_read_that_waits() {
        let (_hold, blocked) = sync_channel(0);
        let stop = Arc::new(AtomicBool::new(false));
        let stalls = Stalls(Some(b"1..4\n".to_vec()), blocked);
        let Ok(mut r) = Pumped::start(stalls, Arc::clone(&stop)) else {
            panic!("no thread");
        };
        let mut first = [0; 16];
        let n = r.read(&mut first).unwrap();
        assert_eq!(&first[..n], b"1..4\n");
        let flag = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            flag.store(true, Ordering::Relaxed);
        });
        let e = r.read(&mut first).unwrap_err();
        assert!(stopped_waiting(
            &anyhow::Error::new(e).context("cannot read <stdin>")
        ));
    }

    #[test]
    fn an_end_that_comes_while_a_stopped_read_waits_is_refused() {
        // The press, then the other side's end (it was stopped by the same Ctrl-C) while
        // the read waits: not the input's real end.
        for _ in 0..20 {
            let (release, blocked) = sync_channel(0);
            let stop = Arc::new(AtomicBool::new(false));
            let Ok(mut r) = Pumped::start(Stalls(None, blocked), Arc::clone(&stop)) else {
                panic!("no thread");
            };
            let flag = Arc::clone(&stop);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(15));
                flag.store(true, Ordering::Relaxed);
                let _ = release.send(());
            });
            let e = r.read(&mut [0; 8]).unwrap_err();
            assert!(e.get_ref().is_some_and(|e| e.is::<StoppedWaiting>()));
        }
    }

    #[test]
    fn a_pump_that_stops_without_an_end_is_an_error() {
        struct Fails;
        impl Read for Fails {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                panic!("the reader failed");
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let Ok(mut r) = Pumped::start(Fails, stop) else {
            panic!("no thread");
        };
        assert!(r.read(&mut [0; 8]).is_err(), "not an end of input");
    }

    #[test]
    fn once_stopped_what_was_not_taken_is_refused() {
        // An end of input the other side sent after the same Ctrl-C stopped it must not
        // pass for the input's real end.
        let stop = Arc::new(AtomicBool::new(false));
        let Ok(mut r) = Pumped::start(io::Cursor::new(Vec::new()), Arc::clone(&stop)) else {
            panic!("no thread");
        };
        std::thread::sleep(Duration::from_millis(20));
        stop.store(true, Ordering::Relaxed);
        let e = r.read(&mut [0; 8]).unwrap_err();
        assert!(e.get_ref().is_some_and(|e| e.is::<StoppedWaiting>()));
    }
}

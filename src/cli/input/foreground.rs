//! Reading a terminal from a background process group.
//!
//! A process that reads its terminal while its process group is not the terminal's
//! foreground group is stopped by SIGTTIN, and a stopped process runs no handler: the
//! SIGTERM that `timeout 60 shiftgrid count` sends from a script (with a SIGCONT) would
//! wake it only for the read to stop it again, so it never ended, and `timeout` waited for
//! ever. (A program that SIGTERM kills, as `cat`, just dies.) So the thread that reads a
//! terminal blocks SIGTTIN for itself, which makes a read from the background fail (EIO)
//! instead of stopping the process, and a read waits, awake, while the group is in the
//! background, looking every [`LOOK`]; the run's own Ctrl-C and SIGTERM handling then ends
//! it as it ends any read that waits (`super::pump`), and `fg` lets it go on. This holds
//! for a run sent to the background while it waits (Ctrl-Z, `bg`), too. A group that can
//! never come to the foreground (orphaned: no parent in another group of the session)
//! reads as before, and the read fails.

use std::io::Read;

/// Standard input, a terminal, read as the module documentation says (through a duplicate
/// of its descriptor, so that no buffer of `std::io::Stdin` holds input the wait cannot
/// see); standard input as it is where the descriptor cannot be duplicated, and off Unix.
pub(super) fn stdin() -> Box<dyn Read + Send> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() {
            return Box::new(Foreground(std::fs::File::from(fd)));
        }
    }
    Box::new(std::io::stdin())
}

/// A named terminal (`/dev/tty`), read as the module documentation says (as it is off
/// Unix).
pub(super) fn terminal(file: std::fs::File) -> Box<dyn Read + Send> {
    #[cfg(unix)]
    {
        Box::new(Foreground(file))
    }
    #[cfg(not(unix))]
    {
        Box::new(file)
    }
}

/// How often a read waiting for the foreground or for input looks again.
#[cfg(unix)]
const LOOK: std::time::Duration = std::time::Duration::from_millis(50);

/// A terminal read only while the process group is its foreground group and input is
/// waiting; see the module documentation.
#[cfg(unix)]
struct Foreground(std::fs::File);

#[cfg(unix)]
impl Read for Foreground {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use nix::sys::signal::{SigSet, SigmaskHow, Signal, pthread_sigmask};
        // For this thread only (the one that reads), and again at every read: cheap, and
        // right whichever thread reads.
        let mut ttin = SigSet::empty();
        ttin.add(Signal::SIGTTIN);
        let _ = pthread_sigmask(SigmaskHow::SIG_BLOCK, Some(&ttin), None);
        loop {
            let background = in_background(&self.0);
            if background && can_come_forward() {
                std::thread::sleep(LOOK);
            // An orphaned group's read fails at once (EIO), as it did before; a foreground
            // read is made once input is there, so that no read is under way when the run
            // is sent to the background.
            } else if background || ready(&self.0)? {
                match self.0.read(buf) {
                    // Sent to the background between the look and the read (Ctrl-Z, `bg`).
                    Err(e) if e.raw_os_error() == Some(nix::libc::EIO) && self.waits() => {}
                    read => return read,
                }
            }
        }
    }
}

#[cfg(unix)]
impl Foreground {
    /// Whether a read must wait for the foreground: the group is in the background, and
    /// can come to the foreground.
    fn waits(&self) -> bool {
        in_background(&self.0) && can_come_forward()
    }
}

/// Whether `terminal` is the controlling terminal and another process group holds its
/// foreground. Not for a terminal that is not this process's own (its reads then go on as
/// the system has them).
#[cfg(unix)]
fn in_background(terminal: &std::fs::File) -> bool {
    nix::unistd::tcgetpgrp(terminal).is_ok_and(|fg| fg != nix::unistd::getpgrp())
}

/// Whether this process group can come to the foreground: the parent is in the same
/// session (a shell that can `fg` it), in another group or in this one. Not when the parent
/// is in another session (a group orphaned when its shell went, now under init), which no
/// one can bring forward.
#[cfg(unix)]
fn can_come_forward() -> bool {
    use nix::unistd::{getppid, getsid};
    matches!((getsid(Some(getppid())), getsid(None)), (Ok(theirs), Ok(ours)) if theirs == ours)
}

/// Whether a read of `terminal` would not wait (input, its end, or an error is there),
/// waiting at most [`LOOK`] to see.
#[cfg(unix)]
fn ready(terminal: &std::fs::File) -> std::io::Result<bool> {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    use std::os::fd::AsFd;
    let mut fds = [PollFd::new(terminal.as_fd(), PollFlags::POLLIN)];
    let look = PollTimeout::try_from(LOOK).unwrap_or(PollTimeout::NONE);
    match poll(&mut fds, look) {
        Ok(ready) => Ok(ready > 0),
        Err(nix::errno::Errno::EINTR) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

//! Reading a terminal from a background process group.
//!
//! A process that reads its terminal while its process group is not the terminal's
//! foreground group is stopped by SIGTTIN, and a stopped process runs no handler: the
//! SIGTERM that `timeout 60 shiftgrid count` sends (with a SIGCONT) would wake it only for
//! the read to stop it again, so it never ended, and `timeout` waited for ever. (A program
//! that SIGTERM kills, as `cat`, just dies.) So a terminal is never read while the group is
//! in the background: a read waits, awake, for the foreground and for typed input, looking
//! every [`LOOK`] (a wait for input, `poll`, is no read, and stops nothing), and reads only
//! what is there. The run's own Ctrl-C and SIGTERM handling then ends it as it ends any read
//! that waits (`super::pump`), and `fg` lets it go on. This holds for a run sent to the
//! background while it waits (Ctrl-Z, `bg`), too.

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
        loop {
            if in_background(&self.0) {
                std::thread::sleep(LOOK);
            } else if waiting(&self.0)? {
                return self.0.read(buf);
            }
        }
    }
}

/// Whether `terminal` is the controlling terminal and another process group holds its
/// foreground. Not for a terminal that is not this process's own (its reads then go on as
/// the system has them).
#[cfg(unix)]
fn in_background(terminal: &std::fs::File) -> bool {
    rustix::termios::tcgetpgrp(terminal).is_ok_and(|fg| fg != rustix::process::getpgrp())
}

/// Whether a read of `terminal` would not wait (input, its end, or an error is there),
/// waiting at most [`LOOK`] to see.
#[cfg(unix)]
fn waiting(terminal: &std::fs::File) -> std::io::Result<bool> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let mut fds = [PollFd::new(terminal, PollFlags::IN)];
    let look = Timespec {
        tv_sec: 0,
        tv_nsec: LOOK.as_nanos().try_into().unwrap_or(0),
    };
    match poll(&mut fds, Some(&look)) {
        Ok(ready) => Ok(ready > 0),
        Err(rustix::io::Errno::INTR) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

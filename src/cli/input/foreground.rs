//! Reading a terminal from a background process group.
//!
//! A process that reads its terminal while its process group is not the terminal's
//! foreground group is stopped by SIGTTIN, and a stopped process runs no handler: the
//! SIGTERM that `timeout 60 shiftgrid count` sends (with a SIGCONT) would wake it only for
//! the read to stop it again, so it never ended, and `timeout` waited for ever. (A program
//! that SIGTERM kills, as `cat`, just dies.) So a read of a terminal first waits, awake,
//! while the group is in the background, looking every [`LOOK`]; the run's own Ctrl-C and
//! SIGTERM handling then ends it as it ends any read that waits (`super::pump`), and `fg`
//! lets the read go on as before.

use std::io::{self, Read};

/// How often a read waiting for the foreground looks again.
#[cfg(unix)]
const LOOK: std::time::Duration = std::time::Duration::from_millis(50);

/// A reader of a terminal (standard input or a named one, as `/dev/tty`) that reads only
/// while the process group is the terminal's foreground group; see the module documentation.
pub(super) struct Foreground<R>(pub(super) R);

#[cfg(unix)]
impl<R: Read + std::os::fd::AsFd> Read for Foreground<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while in_background(&self.0) {
            std::thread::sleep(LOOK);
        }
        self.0.read(buf)
    }
}

#[cfg(not(unix))]
impl<R: Read> Read for Foreground<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

/// Whether `terminal` is the controlling terminal and another process group holds its
/// foreground. Not for a terminal that is not this process's own (the read then fails or
/// goes on as the system has it).
#[cfg(unix)]
fn in_background(terminal: &impl std::os::fd::AsFd) -> bool {
    rustix::termios::tcgetpgrp(terminal).is_ok_and(|fg| fg != rustix::process::getpgrp())
}

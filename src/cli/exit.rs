//! Exit codes, following BSD `sysexits.h` where one fits, and the errors that carry them.

use std::process::ExitCode;

/// The process exit statuses `shiftgrid` uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Everything asked for was done.
    Success,
    /// A puzzle has no solution, or more than one where one was required, or a time limit
    /// stopped its search before either was settled.
    NotProper,
    /// Bad command-line usage (clap's own code).
    Usage,
    /// Bad input data: unreadable puzzle text, unsupported size, repeated givens.
    DataErr,
    /// An I/O error: a file that cannot be read or written.
    IoErr,
    /// Out of memory or threads: an allocation failed, or a thread could not start (under
    /// `ulimit -v` or a limit on processes, or with the machine's memory used up);
    /// `EX_OSERR`, the system refused a resource the run needs. The binary's allocator and
    /// panic hook end the process with it, with one line on stderr and nothing partial
    /// written.
    OutOfResources,
    /// Stopped by Ctrl-C (or SIGINT): nothing partial was written (`generate` writes the
    /// puzzles it finished: the best one so far, or a batch's finished prefix; `solve`,
    /// `count` and `grade` the results of a batch's finished prefix).
    Interrupted,
}

impl Exit {
    /// The numeric status.
    pub fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::NotProper => 1,
            Exit::Usage => 2,
            Exit::DataErr => 65,
            Exit::OutOfResources => 71,
            Exit::IoErr => 74,
            Exit::Interrupted => 130,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e.code())
    }
}

/// An error that ends the run with a chosen exit status. Attach it with
/// `anyhow::Error::new(CliError { .. })` or the helpers below; anything else maps to
/// [`Exit::IoErr`] when it wraps an `io::Error` and to [`Exit::DataErr`] otherwise.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct CliError {
    /// What the user reads.
    pub message: String,
    /// The exit status.
    pub exit: Exit,
}

/// A usage error with a message (a flag combination clap cannot express).
pub fn usage_error(message: impl Into<String>) -> anyhow::Error {
    CliError {
        message: message.into(),
        exit: Exit::Usage,
    }
    .into()
}

/// A "bad input data" error (exit status 65) with a message.
pub fn data_error(message: impl Into<String>) -> anyhow::Error {
    CliError {
        message: message.into(),
        exit: Exit::DataErr,
    }
    .into()
}

/// An "out of resources" error (exit status 71): the memory, address space or threads the
/// run needs are more than the system grants, found before the work starts.
pub fn resource_error(message: impl Into<String>) -> anyhow::Error {
    CliError {
        message: message.into(),
        exit: Exit::OutOfResources,
    }
    .into()
}

/// The "interrupted" error: the run was stopped and wrote nothing.
pub fn interrupted() -> anyhow::Error {
    CliError {
        message: "interrupted: no output was written".into(),
        exit: Exit::Interrupted,
    }
    .into()
}

/// The "interrupted" error of a batch that Ctrl-C stopped while it waited for input, before
/// any result was finished; `unsearched` says what was read but not searched.
pub fn interrupted_waiting(unsearched: Option<String>) -> anyhow::Error {
    let detail = unsearched.map(|u| format!(" ({u})")).unwrap_or_default();
    CliError {
        message: format!("{StoppedWaiting}{detail}"),
        exit: Exit::Interrupted,
    }
    .into()
}

/// The error a read of the input gives once Ctrl-C came while it waited for more
/// (`input/pump.rs`): the run exits with [`Exit::Interrupted`].
#[derive(Debug)]
pub struct StoppedWaiting;

impl std::fmt::Display for StoppedWaiting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted while waiting for input: no output was written")
    }
}

impl std::error::Error for StoppedWaiting {}

/// Whether `err` comes from a read that Ctrl-C stopped while it waited for input.
pub fn stopped_waiting(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::get_ref)
            .is_some_and(|e| e.is::<StoppedWaiting>())
    })
}

/// The status of a batch run that finished: [`Exit::DataErr`] when `bad` puzzles could not
/// be read (the others were still done), else [`Exit::NotProper`] when `not_proper` puzzles
/// lack the single solution asked for, else [`Exit::Success`].
pub fn final_status(bad: usize, not_proper: usize) -> Exit {
    if bad > 0 {
        Exit::DataErr
    } else if not_proper > 0 {
        Exit::NotProper
    } else {
        Exit::Success
    }
}

/// The exit status for an error that ended the run.
pub fn exit_code_of(err: &anyhow::Error) -> Exit {
    for cause in err.chain() {
        if let Some(c) = cause.downcast_ref::<CliError>() {
            return c.exit;
        }
        if let Some(e) = cause.downcast_ref::<std::io::Error>() {
            if e.get_ref().is_some_and(|e| e.is::<StoppedWaiting>()) {
                return Exit::Interrupted;
            }
            return Exit::IoErr;
        }
        // A roster's failed write, which does not give its `io::Error` as the source.
        if let Some(crate::io::csv::ExportError::Io(_)) = cause.downcast_ref() {
            return Exit::IoErr;
        }
    }
    Exit::DataErr
}

/// Whether the error is a broken pipe on output (the reader went away): not worth reporting.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes() {
        assert_eq!(Exit::Success.code(), 0);
        assert_eq!(Exit::NotProper.code(), 1);
        assert_eq!(Exit::Usage.code(), 2);
        assert_eq!(Exit::DataErr.code(), 65);
        assert_eq!(Exit::OutOfResources.code(), 71);
        assert_eq!(Exit::IoErr.code(), 74);
        assert_eq!(Exit::Interrupted.code(), 130);
    }

    /// A failed write is 74, a roster's CSV too (its error does not give the `io::Error`
    /// as its source); bad data is 65.
    #[test]
    fn failed_writes_are_io_errors() {
        let full = || std::io::Error::from(std::io::ErrorKind::StorageFull);
        let roster = anyhow::Error::from(crate::io::csv::ExportError::Io(full()))
            .context("cannot write out.csv");
        assert_eq!(exit_code_of(&roster), Exit::IoErr);
        assert_eq!(exit_code_of(&anyhow::Error::from(full())), Exit::IoErr);
        assert_eq!(exit_code_of(&anyhow::anyhow!("a bad cell")), Exit::DataErr);
    }

    #[test]
    fn batch_status() {
        assert_eq!(final_status(0, 0), Exit::Success);
        assert_eq!(final_status(0, 2), Exit::NotProper);
        assert_eq!(final_status(1, 2), Exit::DataErr);
    }

    #[test]
    fn mapping() {
        let io = anyhow::Error::new(std::io::Error::other("disk")).context("writing out.txt");
        assert_eq!(exit_code_of(&io), Exit::IoErr);
        assert_eq!(exit_code_of(&anyhow::anyhow!("bad data")), Exit::DataErr);
        assert_eq!(
            exit_code_of(&interrupted().context("solving")),
            Exit::Interrupted
        );
        assert_eq!(exit_code_of(&usage_error("x")), Exit::Usage);
        let waiting = anyhow::Error::new(std::io::Error::other(StoppedWaiting)).context("x");
        assert!(stopped_waiting(&waiting) && !stopped_waiting(&io));
        assert_eq!(exit_code_of(&waiting), Exit::Interrupted);
        assert_eq!(exit_code_of(&data_error("x")), Exit::DataErr);
        let pipe = anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert!(is_broken_pipe(&pipe));
        assert!(!is_broken_pipe(&io));
    }
}

//! The `shiftgrid` binary: parse the command line, run it, turn the result into an exit code.
//! Everything else lives in the library (`shiftgrid::cli` holds the command-line layer).

use std::io::Write;
use std::process::ExitCode;

mod resources;

/// The system allocator, but a failed allocation ends the run with a one-line message and
/// status 71 instead of an abort with a backtrace (status 134).
#[global_allocator]
static ALLOCATOR: resources::OutOfMemoryExit = resources::OutOfMemoryExit;

fn main() -> ExitCode {
    resources::thread_refusal_hook();
    resources::limits_at_start();
    match shiftgrid::cli::run() {
        Ok(code) => code.into(),
        Err(err) => {
            if shiftgrid::cli::is_broken_pipe(&err) {
                // The reader went away (`shiftgrid solve big.txt | head`): nothing to say,
                // but not a success either, which would hide a failure from `set -o
                // pipefail`. 141 is what a tool killed by SIGPIPE reports (128 + 13).
                return ExitCode::from(141);
            }
            // Not eprintln!, which panics when stderr is closed or full.
            let _ = writeln!(std::io::stderr(), "shiftgrid: error: {err:#}");
            shiftgrid::cli::exit_code_of(&err).into()
        }
    }
}

//! The `shiftgrid` binary: parse the command line, run it, turn the result into an exit code.
//! Everything else lives in the library (`shiftgrid::cli` holds the command-line layer).

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    match shiftgrid::cli::run() {
        Ok(code) => code.into(),
        Err(err) => {
            if shiftgrid::cli::is_broken_pipe(&err) {
                // `shiftgrid solve big.txt | head` is not an error.
                return ExitCode::SUCCESS;
            }
            // Not eprintln!, which panics when stderr is closed or full.
            let _ = writeln!(std::io::stderr(), "shiftgrid: error: {err:#}");
            shiftgrid::cli::exit_code_of(&err).into()
        }
    }
}

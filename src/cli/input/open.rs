//! Opening the input: a file or standard input, read line by line with its bytes counted
//! for the progress bar, and the first significant line peeked at to tell its form.

use std::io::{BufRead, BufReader, IsTerminal, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, Result};

use super::foreground;
use super::pump::Pumped;
use crate::io::blocking::{self, Marked};
use crate::io::lines::{LineError, LineReader};

/// The shared count of input bytes read, for a progress bar.
#[derive(Clone, Debug, Default)]
pub(in crate::cli) struct BytesRead(pub(in crate::cli) Arc<AtomicU64>);

/// A reader that adds what it reads to a [`BytesRead`].
struct Counting<R> {
    inner: R,
    count: BytesRead,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.0.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

pub(super) type Lines = LineReader<Box<dyn BufRead + Send>>;

/// Opens the input: the file, or standard input for `-`, counting the bytes read.
///
/// # Errors
/// The file cannot be opened.
pub(super) fn open_input(path: &Path) -> Result<(String, Lines, (BytesRead, Option<u64>))> {
    let count = BytesRead::default();
    let (name, size, inner): (String, Option<u64>, Box<dyn Read + Send>) = if path == Path::new("-")
    {
        let inner: Box<dyn Read + Send> = if stdin_is_file() {
            Box::new(Marked(std::io::stdin()))
        } else if std::io::stdin().is_terminal() {
            crate::cli::progress::reading_typed_input();
            note_typed_input();
            waited_for(foreground::stdin())
        } else {
            waited_for(std::io::stdin())
        };
        ("<stdin>".to_string(), None, inner)
    } else {
        // Opening a FIFO waits for a writer.
        let file = blocking::during(blocking::Wait::Open, || std::fs::File::open(path))
            .with_context(|| format!("cannot read {}", crate::cli::shown(path)))?;
        let size = file
            .metadata()
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.len());
        let inner = match size {
            Some(_) => Box::new(Marked(file)),
            None if file.is_terminal() => {
                crate::cli::progress::reading_typed_input();
                waited_for(foreground::terminal(file))
            }
            None => waited_for(file),
        };
        (crate::cli::shown(path), size, inner)
    };
    let reader: Box<dyn BufRead + Send> = Box::new(BufReader::with_capacity(
        1 << 16,
        Counting {
            inner,
            count: count.clone(),
        },
    ));
    Ok((
        name,
        LineReader::new(reader).lossy_comments(),
        (count, size),
    ))
}

/// Says, where standard input is a terminal, that the run reads what is typed there, where
/// it would otherwise wait without a word (`shiftgrid solve` with no FILE); not with
/// `--quiet`, nor where stderr is not a terminal.
fn note_typed_input() {
    let quiet = crate::cli::QUIET.load(std::sync::atomic::Ordering::Relaxed);
    if !quiet && std::io::stderr().is_terminal() {
        msg!("shiftgrid: reading puzzles typed here (end with Ctrl-D), or give a FILE");
    }
}

/// Whether standard input is a regular file (`< file`), which never waits.
fn stdin_is_file() -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        std::io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .and_then(|fd| std::fs::File::from(fd).metadata())
            .is_ok_and(|m| m.is_file())
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// Input that may wait for another process (not a regular file): read by a pump thread,
/// so that Ctrl-C ends a read that waits for more ([`super::pump`]); or, without room for a
/// thread, directly, marked as a call that may wait.
fn waited_for<R: Read + Send + 'static>(inner: R) -> Box<dyn Read + Send> {
    match Pumped::start(inner, crate::cli::progress::stop_flag()) {
        Ok(pumped) => Box::new(pumped),
        Err(inner) => Box::new(Marked(inner)),
    }
}

/// The most lines, and bytes, read ahead to find the first significant line.
const PEEK_LINES: usize = 1000;
const PEEK_BYTES: usize = 1 << 20;

/// The first line that is neither blank nor a `#` comment (`None` when there is none
/// within the first thousand lines or the first MiB); every line read is handed back.
///
/// # Errors
/// A failed read.
pub(super) fn peek_first_line(lines: &mut Lines, name: &str) -> Result<Option<String>> {
    let mut held = Vec::new();
    let mut bytes = 0;
    let mut found = None;
    while held.len() < PEEK_LINES && bytes < PEEK_BYTES {
        match lines.next_line() {
            None => break,
            Some(Err(LineError::Io(e))) => {
                return Err(anyhow::Error::new(e).context(format!("cannot read {name}")));
            }
            Some(Err(e)) => {
                held.push(Err(e));
                break;
            }
            Some(Ok((no, text))) => {
                bytes += text.len();
                let t = text.trim();
                let significant = !t.is_empty() && !t.starts_with('#');
                if significant {
                    found = Some(t.to_string());
                }
                held.push(Ok((no, text)));
                if significant {
                    break;
                }
            }
        }
    }
    for l in held {
        lines.push_back(l);
    }
    Ok(found)
}

/// Memory a roster CSV takes read whole, per line of the file (measured 2026-11-27: 228 MB
/// for a long file of 100,000 4x4 puzzles, 478,642 lines), rounded up.
const CSV_BYTES_PER_LINE: u64 = 500;

/// Refuses a roster CSV too large to read whole in the memory left: a long file's grids
/// share their names, so it is read whole, not a chunk at a time as text batches are, and
/// a failed allocation would abort the run. Files under 8 MB, and standard input, are not
/// checked; the others' lines are counted first (a pass over the file, as fast as the disk).
///
/// # Errors
/// An out-of-resources error (status 71) saying what the file needs and what is left.
pub(super) fn check_csv_room(path: &Path, name: &str, size: Option<u64>) -> Result<()> {
    use std::io::Read;
    if size.is_none_or(|s| s < 8 << 20) {
        return Ok(());
    }
    let room = crate::cli::memory::headroom();
    if room.resident.is_none() && room.address_space.is_none() {
        return Ok(());
    }
    let Ok(mut file) = std::fs::File::open(path) else {
        return Ok(());
    };
    let mut lines = 0u64;
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => lines += buf[..n].iter().filter(|&&b| b == b'\n').count() as u64,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            // Not counted: the read proper reports the error.
            Err(_) => return Ok(()),
        }
    }
    let need = lines.saturating_mul(CSV_BYTES_PER_LINE);
    // Under `ulimit -v` the allocator's reserves count too (measured: that file aborted
    // under a 300 MB limit, with 227 MB of address space left, and ran under 450 MB).
    if let Some((left, need, what)) = room.shortfall(need, need.saturating_add(64 << 20)) {
        return Err(super::exit::resource_error(format!(
            "{name} is a roster CSV of {lines} lines, read whole (a long file's grids share \
             their names): that takes about {:.1} GB, more than the {:.1} GB {what}; split \
             it into smaller files",
            need as f64 / 1e9,
            left as f64 / 1e9,
        )));
    }
    Ok(())
}

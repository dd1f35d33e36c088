//! [`Spool`]: a command's whole output, held until it is complete (in memory, then in a
//! temporary file), and copied out a piece at a time so that Ctrl-C can stop a long write.

use std::fs::File;
use std::io::{BufWriter, ErrorKind, Read, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// How much output is copied between checks for Ctrl-C.
const COPY_PIECE: usize = 1 << 20;

/// How much output is held in memory before the rest goes to a temporary file.
const SPOOL_MEMORY: usize = 16 << 20;

/// Where output past [`SPOOL_MEMORY`] waits: the directory of the `-o` file it is bound for
/// (on the disk that is to hold it anyway), set by [`spool_beside`]; else TMPDIR's.
static SPOOL_DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

/// Makes output past [`SPOOL_MEMORY`] wait in `dir`, the `-o` file's directory: a long
/// batch's output then needs no room in `/tmp`, nor a TMPDIR that works. The first call
/// of a process decides.
pub(in crate::cli) fn spool_beside(dir: std::path::PathBuf) {
    let _ = SPOOL_DIR.set(dir);
}

/// A command's output until it is complete: in memory up to 16 MiB, then in an anonymous
/// temporary file (removed by the system when the process ends, however it ends), in the
/// `-o` file's directory or else TMPDIR's. Only a
/// complete result is sent to stdout or `-o`, so a failure or Ctrl-C half-way writes nothing,
/// and a long batch does not hold its whole output in memory.
#[derive(Default)]
pub(in crate::cli) struct Spool {
    mem: Vec<u8>,
    file: Option<BufWriter<File>>,
    /// The directory of the temporary file, for its errors.
    dir: std::path::PathBuf,
}

impl Spool {
    /// An empty spool.
    pub(in crate::cli) fn new() -> Spool {
        Spool::default()
    }

    /// Whether nothing was written.
    pub(super) fn is_empty(&self) -> bool {
        self.file.is_none() && self.mem.is_empty()
    }

    /// Copies everything written into `w`, a MiB at a time, stopping with
    /// [`ErrorKind::Interrupted`] when `interrupt` is raised (Ctrl-C during a long write).
    pub(super) fn copy_into(
        self,
        w: &mut dyn Write,
        interrupt: &AtomicBool,
    ) -> std::io::Result<()> {
        let stop = || {
            if interrupt.load(Ordering::Relaxed) {
                Err(std::io::Error::from(ErrorKind::Interrupted))
            } else {
                Ok(())
            }
        };
        match self.file {
            None => {
                for piece in self.mem.chunks(COPY_PIECE) {
                    stop()?;
                    w.write_all(piece)?;
                }
            }
            Some(f) => {
                let dir = self.dir;
                let named = |e| file_error(&dir, e);
                let mut f = f.into_inner().map_err(|e| named(e.into_error()))?;
                f.seek(SeekFrom::Start(0)).map_err(named)?;
                let mut buf = vec![0; COPY_PIECE];
                loop {
                    stop()?;
                    let n = f.read(&mut buf).map_err(named)?;
                    if n == 0 {
                        break;
                    }
                    w.write_all(&buf[..n])?;
                }
            }
        }
        stop()
    }
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(f) = &mut self.file {
            return f.write(buf).map_err(|e| file_error(&self.dir, e));
        }
        if self.mem.len() + buf.len() > SPOOL_MEMORY {
            self.dir = SPOOL_DIR.get().cloned().unwrap_or_else(std::env::temp_dir);
            let file = match SPOOL_DIR.get() {
                Some(dir) => tempfile::tempfile_in(dir).map_err(|e| {
                    std::io::Error::new(
                        e.kind(),
                        format!(
                            "cannot make a temporary file for the output in {}: {e}",
                            crate::cli::shown(dir)
                        ),
                    )
                }),
                None => tempfile::tempfile().map_err(|e| {
                    let dir = std::env::temp_dir();
                    std::io::Error::new(
                        e.kind(),
                        format!(
                            "cannot make a temporary file for the output in {} (the \
                             directory TMPDIR names, else /tmp): {e}",
                            crate::cli::shown(&dir)
                        ),
                    )
                }),
            }?;
            let mut f = BufWriter::new(file);
            f.write_all(&self.mem)
                .and_then(|()| f.write_all(buf))
                .map_err(|e| file_error(&self.dir, e))?;
            self.mem = Vec::new();
            self.file = Some(f);
        } else {
            self.mem.extend_from_slice(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush().map_err(|e| file_error(&self.dir, e)),
            None => Ok(()),
        }
    }
}

/// An error `e` of the temporary file in `dir`, named (a disk or a `ulimit -f` can be full
/// there long before the output's own file is written).
fn file_error(dir: &std::path::Path, e: std::io::Error) -> std::io::Error {
    std::io::Error::new(
        e.kind(),
        format!(
            "cannot write the temporary file that holds the output past 16 MiB until the \
             run ends, in {}: {e}",
            crate::cli::shown(dir)
        ),
    )
}

impl From<Vec<u8>> for Spool {
    fn from(mem: Vec<u8>) -> Spool {
        Spool {
            mem,
            ..Spool::default()
        }
    }
}

//! Replacing output files safely.
//!
//! [`write_atomic`] writes into a temporary file beside the target and renames it over the
//! target only when everything was written, flushed and synced, so readers see either the old
//! file or the complete new one, never a half-written file. [`write_output`] is what a
//! command's `-o` does: it follows symlinks to their target and writes straight into
//! anything that is not a regular file (a FIFO, `/dev/null`, a terminal), which a rename
//! would replace. [`same_file`] lets a caller refuse to overwrite its own input.
//!
//! While a temporary file exists its path is registered, so that a process about to exit
//! without unwinding (a second Ctrl-C) can remove it with [`remove_temporary_files`].

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::io::blocking::{self, Wait};
use crate::io::quote::escaped_path as shown;

/// Temporary files being written, for [`remove_temporary_files`].
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes the temporary files of every [`write_atomic`] still under way. For a process
/// about to exit at once (destructors do not run then).
pub fn remove_temporary_files() {
    if let Ok(paths) = TEMPORARY.lock() {
        for p in paths.iter() {
            let _ = fs::remove_file(p);
        }
    }
}

/// [`remove_temporary_files`] for a process that cannot wait (its memory is used up): does
/// nothing when another thread holds the list, or this one (a failed allocation while it
/// registered a file).
pub fn remove_temporary_files_if_free() {
    if let Ok(paths) = TEMPORARY.try_lock() {
        for p in paths.iter() {
            let _ = fs::remove_file(p);
        }
    }
}

/// Registers a temporary path while it lives.
struct Registered(PathBuf);

impl Registered {
    fn new(path: &Path) -> Registered {
        if let Ok(mut v) = TEMPORARY.lock() {
            v.push(path.to_path_buf());
        }
        Registered(path.to_path_buf())
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Ok(mut v) = TEMPORARY.lock() {
            v.retain(|p| *p != self.0);
        }
    }
}

/// The most symlinks followed from one path (as Linux's `ELOOP` limit).
const MAX_LINKS: usize = 40;

/// The file that writing to `path` reaches: `path` itself unless it is a symlink, else its
/// target (followed through every link, even when the last one does not exist yet). A
/// link of a process's descriptor table (`/dev/fd/N`, `/proc/PID/fd/N`) is not followed:
/// its target may be a pipe with no path at all.
///
/// # Errors
/// A link that cannot be read, or too many levels of links.
pub fn resolve_target(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        if is_descriptor_link(&p) {
            return Ok(p);
        }
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(io::Error::other(format!(
        "{}: too many levels of symbolic links",
        shown(path)
    )))
}

/// Writes a command's output to `path`: atomically ([`write_atomic`]) when it is a regular
/// file or does not exist yet, straight into it when it is anything else (a FIFO, a device),
/// and through symlinks to their target (the link stays a link). A name of the process's
/// own standard output or error (`/dev/stdout`, `/dev/fd/2`, or the file either is
/// redirected to) is written through that stream, and another open descriptor
/// (`/dev/fd/N`) is appended to: neither is ever renamed over.
///
/// # Errors
/// As [`write_atomic`], or opening or writing the special file.
pub fn write_output<F>(path: &Path, f: F) -> io::Result<()>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    write_output_unless(path, f, &AtomicBool::new(false))
}

/// [`write_output`], with a regular file written by [`write_atomic_unless`]: a `stop`
/// raised by the time it is written keeps the old file.
///
/// # Errors
/// As [`write_output`], and the interruption.
pub fn write_output_unless<F>(path: &Path, f: F, stop: &AtomicBool) -> io::Result<()>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    // `/dev/stdout`, `/dev/fd/2` or any other name of the process's own standard output or
    // error: write into that stream, so that what the shell redirected it to (`>> log`, a
    // pipe, a group's file) gets the output where it would have gone, instead of a new file
    // renamed over it.
    match standard_stream(path) {
        Some(1) => {
            let mut w = io::stdout().lock();
            f(&mut w)?;
            return blocking::during(Wait::Write, || w.flush());
        }
        Some(_) => {
            let mut w = io::stderr().lock();
            f(&mut w)?;
            return blocking::during(Wait::Write, || w.flush());
        }
        None => {}
    }
    let target = resolve_target(path)?;
    if is_descriptor_link(&target) {
        // Another open descriptor (`/dev/fd/N`, `/proc/self/fd/N`): its target may be a
        // pipe, which has no path to rename over, or a file the shell opened for us; append
        // to it.
        let file = blocking::during(Wait::Open, || {
            fs::OpenOptions::new().append(true).open(&target)
        })?;
        let mut w = BufWriter::new(file);
        f(&mut w)?;
        return blocking::during(Wait::Write, || w.flush());
    }
    match fs::metadata(&target) {
        Ok(m) if !m.is_file() && !m.is_dir() => {
            // Opening a FIFO waits for a reader.
            let file = blocking::during(Wait::Open, || {
                fs::OpenOptions::new().write(true).open(&target)
            })?;
            let mut w = BufWriter::new(file);
            f(&mut w)?;
            blocking::during(Wait::Write, || w.flush())
        }
        _ => write_atomic_unless(&target, f, stop),
    }
}

/// What makes `path` no place for [`write_atomic`]'s file, found before anything is
/// written: a directory, a name that is not a file's, a read-only file, or a directory to
/// put it in that is not there.
fn check_new_file(path: &Path) -> io::Result<()> {
    let ends_in_slash = path.as_os_str().to_string_lossy().ends_with('/');
    if path.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is a directory", shown(path)),
        ));
    }
    if path.file_name().is_none() || ends_in_slash {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} does not name a file", shown(path)),
        ));
    }
    // Renaming over a file needs only the directory's permission, so a file made read-only
    // (to keep it) would be replaced all the same: refused, as `>` and `cp` refuse it.
    if std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().readonly()) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "{} is read-only: make it writable to replace it, or write elsewhere",
                shown(path)
            ),
        ));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("{} is not a directory that exists", shown(dir)),
        ));
    }
    Ok(())
}

/// Whether [`write_output`] could write `path`, told before the work that makes the output
/// (so that a long run does not end in a refusal): a standard stream, a FIFO or device, or
/// a new or writable regular file in a directory that exists.
///
/// # Errors
/// What [`write_output`] would fail with for those reasons.
pub fn check_output(path: &Path) -> io::Result<()> {
    if standard_stream(path).is_some() {
        return Ok(());
    }
    let target = resolve_target(path)?;
    if is_descriptor_link(&target) {
        return Ok(());
    }
    match fs::metadata(&target) {
        Ok(m) if !m.is_file() && !m.is_dir() => Ok(()),
        _ => {
            check_new_file(&target)?;
            // The temporary file goes beside the target: a directory that does not let
            // one be made (read-only, full) fails here, not after the work.
            let _probe = temporary_in(&target)?;
            Ok(())
        }
    }
}

/// A new temporary file in the directory of `path`, for [`write_atomic`] to rename over it.
fn temporary_in(path: &Path) -> io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".shiftgrid-").suffix(".tmp");
    #[cfg(unix)]
    {
        // Readable by the owner alone while it is written (a roster names people), and if a
        // kill leaves it behind; [`write_atomic`] gives it its final mode before the rename.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o600));
    }
    // tempfile's error ends with the temporary file's name (`… at path "dir/.shiftgrid-…"`),
    // which the user never asked for: name the directory instead.
    builder.tempfile_in(dir).map_err(|e| {
        let text = e.to_string();
        let reason = text.split(" at path ").next().unwrap_or(&text);
        io::Error::new(e.kind(), format!("{reason} (in directory {})", shown(dir)))
    })
}

/// Writes a file atomically.
///
/// The closure writes (through a buffer) into a temporary file in the same directory as
/// `path`, which only its owner can read until it is complete (on Unix). Only if it returns
/// `Ok` is the file flushed, synced to disk and renamed over `path`. On an error or a panic
/// the temporary file is removed: nothing new is left at `path`, and an old file there is
/// untouched. A file that replaces an old one keeps the old one's permissions (and on Unix
/// its owner and group, where this process may give them); it is a new file all the same,
/// so hard links to the old one keep the old contents. A new file
/// gets the usual ones (`0666` less the umask on Unix, as a file made there would). A
/// read-only file at `path` is not replaced ([`io::ErrorKind::PermissionDenied`]), nor a
/// directory.
///
/// # Errors
/// The closure's error, or any error creating, writing, syncing or renaming the file.
pub fn write_atomic<F>(path: &Path, f: F) -> io::Result<()>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    write_atomic_unless(path, f, &AtomicBool::new(false))
}

/// [`write_atomic`], except that a `stop` raised by the time the file is written and synced
/// (a Ctrl-C during the last flush) keeps the old file: the temporary file is removed and
/// the error is [`io::ErrorKind::Interrupted`].
///
/// # Errors
/// As [`write_atomic`], and the interruption.
pub fn write_atomic_unless<F>(path: &Path, f: F, stop: &AtomicBool) -> io::Result<()>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    check_new_file(path)?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = temporary_in(path)?;
    let _registered = Registered::new(tmp.path());
    {
        let mut w = BufWriter::new(tmp.as_file_mut());
        f(&mut w)?;
        w.flush()?;
    }
    match fs::metadata(path) {
        Ok(meta) if meta.is_file() => {
            // The old file's owner and group too, where the system lets this process give
            // them (root, or a group it belongs to): a service's file rewritten by root
            // stays the service's. Otherwise the file is the writer's, as a new one is.
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                let _ =
                    std::os::unix::fs::fchown(tmp.as_file(), Some(meta.uid()), Some(meta.gid()));
            }
            tmp.as_file().set_permissions(meta.permissions())?;
        }
        _ => new_file_mode(dir, tmp.as_file())?,
    }
    tmp.as_file().sync_all()?;
    if stop.load(Ordering::Relaxed) {
        return Err(io::Error::new(
            io::ErrorKind::Interrupted,
            "interrupted before the file was replaced",
        ));
    }
    tmp.persist(path).map_err(|e| e.error)?;
    // Make the rename itself durable; not every platform can open or sync a directory.
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Gives `file` the mode a new file made in `dir` gets (on Unix `0666` less the umask, and
/// what a default ACL there adds), told by an empty file made there for the purpose.
fn new_file_mode(dir: &Path, file: &fs::File) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let probe = tempfile::Builder::new()
            .prefix(".shiftgrid-")
            .suffix(".tmp")
            .permissions(fs::Permissions::from_mode(0o666))
            .tempfile_in(dir)?;
        // Registered as the file being written is, for a second Ctrl-C in its lifetime.
        let _registered = Registered::new(probe.path());
        file.set_permissions(probe.as_file().metadata()?.permissions())?;
    }
    #[cfg(not(unix))]
    let _ = (dir, file);
    Ok(())
}

/// Whether `p` is a link in a process's table of open descriptors: `/dev/fd/N`,
/// `/proc/self/fd/N` or `/proc/PID/fd/N`.
fn is_descriptor_link(p: &Path) -> bool {
    let text = p.to_string_lossy();
    let parts: Vec<&str> = text.split('/').collect();
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        ["", "dev", "fd", n] => number(n),
        ["", "proc", pid, "fd", n] => (*pid == "self" || number(pid)) && number(n),
        _ => false,
    }
}

/// Which of the process's standard output (1) and error (2) `path` names, if either: the
/// same device and inode as the open stream. `None` off Unix.
fn standard_stream(path: &Path) -> Option<u8> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::MetadataExt;
        let target = fs::metadata(path).ok()?;
        let same = |fd: std::os::fd::BorrowedFd<'_>| {
            fd.try_clone_to_owned()
                .ok()
                .and_then(|fd| fs::File::from(fd).metadata().ok())
                .is_some_and(|m| m.dev() == target.dev() && m.ino() == target.ino())
        };
        if same(io::stdout().as_fd()) {
            return Some(1);
        }
        if same(io::stderr().as_fd()) {
            return Some(2);
        }
        None
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Whether `a` and `b` name the same existing file: the same canonical path (or, on Unix,
/// the same device and inode, which also catches hard links). False if either does not exist.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y || same_inode(&x, &y),
        _ => false,
    }
}

/// Whether standard input is the existing regular file `path` (redirected from it with
/// `< path`), so that a command reading `-` can refuse to write over it. Always false off
/// Unix, and when standard input is a terminal, a pipe or closed.
pub fn is_stdin(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::MetadataExt;
        let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() else {
            return false;
        };
        let Ok(stdin) = fs::File::from(fd).metadata() else {
            return false;
        };
        stdin.is_file()
            && fs::metadata(path).is_ok_and(|m| m.dev() == stdin.dev() && m.ino() == stdin.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

#[cfg(unix)]
fn same_inode(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_inode(_: &Path, _: &Path) -> bool {
    false
}

#[cfg(test)]
mod tests;

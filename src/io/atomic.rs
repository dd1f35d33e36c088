//! Replacing output files safely.
//!
//! [`write_atomic`] writes into a temporary file beside the target and renames it over the
//! target only when everything was written, flushed and synced, so readers see either the old
//! file or the complete new one, never a half-written file. [`same_file`] lets a caller refuse
//! to overwrite its own input.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// Writes a file atomically.
///
/// The closure writes (through a buffer) into a temporary file in the same directory as
/// `path`. Only if it returns `Ok` is the file flushed, synced to disk and renamed over `path`.
/// On an error or a panic the temporary file is removed: nothing new is left at `path`, and an
/// old file there is untouched. A file that replaces an old one keeps the old one's
/// permissions; a new file gets the usual ones (`0666` less the umask on Unix).
///
/// # Errors
/// The closure's error, or any error creating, writing, syncing or renaming the file.
pub fn write_atomic<F>(path: &Path, f: F) -> io::Result<()>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    if path.file_name().is_none() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} does not name a file", path.display()),
        ));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".shiftgrid-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    {
        let mut w = BufWriter::new(tmp.as_file_mut());
        f(&mut w)?;
        w.flush()?;
    }
    if let Ok(meta) = fs::metadata(path) {
        if meta.is_file() {
            tmp.as_file().set_permissions(meta.permissions())?;
        }
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    // Make the rename itself durable; not every platform can open or sync a directory.
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Whether `a` and `b` name the same existing file: the same canonical path (or, on Unix,
/// the same device and inode, which also catches hard links). False if either does not exist.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y || same_inode(&x, &y),
        _ => false,
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
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn writes_a_new_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_atomic(&path, |w| {
            for i in 0..10_000 {
                writeln!(w, "{i}")?;
            }
            Ok(())
        })
        .unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 10_000);
        assert_eq!(entries(dir.path()), ["out.txt"]);
    }

    #[test]
    fn replaces_an_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        fs::write(&path, "old old old old\n").unwrap();
        write_atomic(&path, |w| w.write_all(b"new\n")).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
        assert_eq!(entries(dir.path()), ["out.txt"]);
    }

    #[cfg(unix)]
    #[test]
    fn keeps_old_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        fs::write(&path, "old\n").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&path, |w| w.write_all(b"new\n")).unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        // A new file is readable beyond the owner unless the umask forbids it.
        let fresh = dir.path().join("fresh.txt");
        write_atomic(&fresh, |w| w.write_all(b"x")).unwrap();
        let mode = fs::metadata(&fresh).unwrap().permissions().mode();
        assert_ne!(mode & 0o600, 0);
    }

    #[test]
    fn error_leaves_nothing_new() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let e = write_atomic(&path, |w| {
            w.write_all(b"partial")?;
            Err(io::Error::other("stop"))
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "stop");
        assert!(!path.exists());
        assert!(entries(dir.path()).is_empty());
        // An old file survives a failed rewrite.
        fs::write(&path, "old\n").unwrap();
        let _ = write_atomic(&path, |w| {
            w.write_all(&vec![b'x'; 100_000])?;
            Err(io::Error::other("stop"))
        });
        assert_eq!(fs::read_to_string(&path).unwrap(), "old\n");
        assert_eq!(entries(dir.path()), ["out.txt"]);
    }

    #[test]
    fn panic_leaves_nothing_new() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        fs::write(&path, "old\n").unwrap();
        let p = path.clone();
        let r = std::panic::catch_unwind(move || {
            let _ = write_atomic(&p, |w| {
                w.write_all(b"half")?;
                panic!("boom");
            });
        });
        assert!(r.is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "old\n");
        assert_eq!(entries(dir.path()), ["out.txt"]);
    }

    #[test]
    fn missing_directory_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/dir/out.txt");
        assert!(write_atomic(&path, |w| w.write_all(b"x")).is_err());
        assert!(write_atomic(dir.path(), |w| w.write_all(b"x")).is_err());
        assert!(write_atomic(Path::new("/"), |w| w.write_all(b"x")).is_err());
    }

    #[test]
    fn same_file_cases() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        let b = dir.path().join("b.txt");
        fs::write(&a, "a").unwrap();
        fs::write(&b, "b").unwrap();
        assert!(same_file(&a, &a));
        let dotted = dir.path().join(".").join("a.txt");
        assert!(same_file(&a, &dotted));
        assert!(!same_file(&a, &b));
        assert!(!same_file(&a, &dir.path().join("missing.txt")));
        let missing = dir.path().join("missing.txt");
        assert!(!same_file(&missing, &missing));
        #[cfg(unix)]
        {
            let link = dir.path().join("link.txt");
            std::os::unix::fs::symlink(&a, &link).unwrap();
            assert!(same_file(&a, &link));
            let hard = dir.path().join("hard.txt");
            fs::hard_link(&a, &hard).unwrap();
            assert!(same_file(&a, &hard));
        }
    }
}

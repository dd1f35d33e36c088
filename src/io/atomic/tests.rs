//! Tests of replacing output files safely.

use super::*;

fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A read-only file is kept (renaming would replace it all the same), and a directory
/// is named as one.
#[test]
fn read_only_files_and_directories_are_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("kept.txt");
    fs::write(&kept, "old").unwrap();
    let mut perms = fs::metadata(&kept).unwrap().permissions();
    perms.set_readonly(true);
    fs::set_permissions(&kept, perms).unwrap();
    let e = write_atomic(&kept, |w| w.write_all(b"new")).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::PermissionDenied);
    assert!(e.to_string().contains("is read-only"), "{e}");
    assert_eq!(fs::read_to_string(&kept).unwrap(), "old");
    assert_eq!(entries(dir.path()), ["kept.txt"]);
    let e = write_atomic(dir.path(), |w| w.write_all(b"new")).unwrap_err();
    assert!(e.to_string().ends_with("is a directory"), "{e}");
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

/// As root (a service's file rewritten by an administrator), the old file's owner and
/// group stay; it used to become root's. Not root: nothing to check (a file can only be
/// given away by root).
#[cfg(unix)]
#[test]
fn keeps_old_owner_where_it_may() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.txt");
    fs::write(&path, "old\n").unwrap();
    if fs::metadata(&path).unwrap().uid() != 0 {
        return;
    }
    std::os::unix::fs::chown(&path, Some(65534), Some(65534)).unwrap();
    write_atomic(&path, |w| w.write_all(b"new\n")).unwrap();
    let meta = fs::metadata(&path).unwrap();
    assert_eq!((meta.uid(), meta.gid()), (65534, 65534));
    assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
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

#[cfg(unix)]
#[test]
fn write_output_follows_links_and_writes_through_fifos() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.txt");
    fs::write(&target, "old\n").unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink("target.txt", &link).unwrap();
    write_output(&link, |w| w.write_all(b"new\n")).unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), "new\n");
    // A dangling link gets its target created.
    let dangling = dir.path().join("dangling.txt");
    std::os::unix::fs::symlink(dir.path().join("made.txt"), &dangling).unwrap();
    write_output(&dangling, |w| w.write_all(b"made\n")).unwrap();
    assert!(
        fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("made.txt")).unwrap(),
        "made\n"
    );
    // A FIFO is written into, not replaced.
    let fifo = dir.path().join("fifo");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    write_output(&fifo, |w| w.write_all(b"through\n")).unwrap();
    assert_eq!(reader.join().unwrap(), "through\n");
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    // A loop of links is an error, not a hang.
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    assert!(write_output(&a, |w| w.write_all(b"x")).is_err());
}

#[test]
fn temporary_files_are_registered_while_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.txt");
    write_atomic(&path, |w| {
        let held = TEMPORARY.lock().unwrap().clone();
        assert!(held.iter().any(|p| p.starts_with(dir.path())), "{held:?}");
        w.write_all(b"x")
    })
    .unwrap();
    let held = TEMPORARY.lock().unwrap().clone();
    assert!(!held.iter().any(|p| p.starts_with(dir.path())));
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

/// While it is written the temporary file is its owner's alone; the new file then gets the
/// mode any new file there gets, and a replaced file keeps its own.
#[cfg(unix)]
#[test]
fn the_temporary_file_is_private_until_it_is_whole() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let plain = dir.path().join("plain.txt");
    fs::write(&plain, "x").unwrap();
    let out = dir.path().join("out.txt");
    let mut seen = vec![];
    write_atomic(&out, |w| {
        for name in entries(dir.path()) {
            if name.starts_with(".shiftgrid-") {
                seen.push(mode(&dir.path().join(name)));
            }
        }
        w.write_all(b"new")
    })
    .unwrap();
    assert_eq!(seen, [0o600]);
    assert_eq!(mode(&out), mode(&plain));
    fs::set_permissions(&out, fs::Permissions::from_mode(0o640)).unwrap();
    write_atomic(&out, |w| w.write_all(b"newer")).unwrap();
    assert_eq!(mode(&out), 0o640);
    assert_eq!(entries(dir.path()), ["out.txt", "plain.txt"]);
}

/// A stop raised while the file was written (the last flush of a Ctrl-C) keeps the old
/// file and leaves no temporary one.
#[test]
fn a_stop_before_the_rename_keeps_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    fs::write(&out, "old").unwrap();
    let stop = AtomicBool::new(false);
    let e = write_output_unless(
        &out,
        |w| {
            w.write_all(b"new")?;
            stop.store(true, Ordering::Relaxed);
            Ok(())
        },
        &stop,
    )
    .unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::Interrupted);
    assert_eq!(fs::read_to_string(&out).unwrap(), "old");
    assert_eq!(entries(dir.path()), ["out.txt"]);
    write_output_unless(&out, |w| w.write_all(b"new"), &AtomicBool::new(false)).unwrap();
    assert_eq!(fs::read_to_string(&out).unwrap(), "new");
}

/// Paths in messages have their control characters escaped.
#[test]
fn messages_escape_control_characters_in_paths() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("n\u{1b}[2J").join("x.txt");
    let e = write_atomic(&missing, |w| w.write_all(b"x")).unwrap_err();
    let text = e.to_string();
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.contains("is not a directory that exists"), "{text}");
}

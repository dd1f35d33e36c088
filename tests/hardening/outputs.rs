//! Issue 14 (hardening), item 1: `-o` onto special files (devices, FIFOs, descriptors,
//! directories) and symlinks.

use std::fs;
use std::io::Read;
use std::process::{Command as StdCommand, Stdio};
use std::time::Duration;

use predicates::str::contains;

use super::{binary_command, entries};
use crate::util::{independently_valid, shiftgrid};

// ---- 1. -o onto special files and symlinks ----

#[cfg(unix)]
#[test]
fn issue14_1_output_writes_into_a_fifo() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(
        StdCommand::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let (tx, rx) = std::sync::mpsc::channel();
    {
        let fifo = fifo.clone();
        // Opening a FIFO blocks until a writer comes; the old behaviour never came.
        std::thread::spawn(move || {
            let mut text = String::new();
            let r = fs::File::open(fifo).and_then(|mut f| f.read_to_string(&mut text));
            let _ = tx.send(r.map(|_| text));
        });
    }
    shiftgrid()
        .args(["fill", "--box", "2", "--seed", "1", "-o"])
        .arg(&fifo)
        .assert()
        .success();
    let text = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the FIFO's reader got the output")
        .unwrap();
    let cells: Vec<u8> = text
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert!(independently_valid(4, &cells), "{text}");
    let kind = fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");
}

#[cfg(unix)]
#[test]
fn issue14_1_output_follows_a_symlink_to_its_target() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("real")).unwrap();
    let target = dir.path().join("real/out.txt");
    fs::write(&target, "old\n").unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink("real/out.txt", &link).unwrap();
    shiftgrid()
        .args(["fill", "--box", "2", "--seed", "1", "-f", "line", "-o"])
        .arg(&link)
        .assert()
        .success();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link was replaced"
    );
    let line = fs::read_to_string(&target).unwrap();
    assert_eq!(line.trim().len(), 16, "{line}");
    // The temporary file went next to the target and is gone.
    assert_eq!(entries(&dir.path().join("real")), ["out.txt"]);
}

/// `-o /dev/stdout` (or `/dev/stderr`, `/dev/fd/N`) writes into the stream the shell set
/// up: a log opened for appending keeps what it held, and nothing is renamed over it (it
/// used to be replaced by a new file holding the grid alone); a pipe gets the output.
#[cfg(unix)]
#[test]
fn issue14_1_output_to_dev_stdout_writes_into_the_stream() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.txt");
    for (name, to_stderr) in [
        ("/dev/stdout", false),
        ("/dev/stderr", true),
        ("/dev/fd/1", false),
    ] {
        fs::write(&log, "old\n").unwrap();
        let file = fs::OpenOptions::new().append(true).open(&log).unwrap();
        let mut cmd = binary_command();
        cmd.args([
            "-q", "fill", "--box", "2", "--seed", "1", "-f", "line", "-o", name,
        ]);
        if to_stderr {
            cmd.stderr(file);
        } else {
            cmd.stdout(file);
        }
        assert!(cmd.status().unwrap().success(), "{name}");
        let text = fs::read_to_string(&log).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{name}: {text}");
        assert_eq!(lines[0], "old", "{name}");
        assert_eq!(lines[1].len(), 16, "{name}: {text}");
        assert_eq!(entries(dir.path()), ["log.txt"], "{name}");
    }
    let out = binary_command()
        .args([
            "-q",
            "fill",
            "--box",
            "2",
            "--seed",
            "1",
            "-f",
            "line",
            "-o",
            "/dev/stdout",
        ])
        .stdout(Stdio::piped())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim().len(), 16);
}

/// A reader that went away before the output came (`… | head` after its lines) ends the
/// run with 141, what a tool killed by SIGPIPE reports, and no message: never 0, which
/// would hide the failure from `set -o pipefail` (it used to be 0).
#[cfg(unix)]
#[test]
fn issue14_1_closed_stdout_exits_141() {
    let mut child = binary_command()
        .args(["-q", "fill", "--box", "5", "--seed", "1", "--count", "200"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // More output than a pipe holds (about 375 kB), so the writer meets the closed end
    // whether it writes before or after the drop.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(141));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `-o /dev/null` writes into the device and leaves it one (a process once renamed a file
/// over it, which broke every later reader of /dev/null on the machine); `-o DIR` or a path
/// ending in `/` is refused as not naming a file.
#[cfg(unix)]
#[test]
fn issue14_1_dev_null_stays_a_device_and_directories_are_refused() {
    use std::os::unix::fs::FileTypeExt;
    shiftgrid()
        .args(["fill", "--box", "3", "--seed", "1", "-o", "/dev/null"])
        .assert()
        .success()
        .stdout("");
    let kind = fs::metadata("/dev/null").unwrap().file_type();
    assert!(kind.is_char_device(), "/dev/null is now {kind:?}");
    let dir = tempfile::tempdir().unwrap();
    for (target, message) in [
        (dir.path().to_path_buf(), "is a directory"),
        (dir.path().join("new/"), "does not name a file"),
    ] {
        shiftgrid()
            .args(["fill", "--box", "2", "--seed", "1", "-o"])
            .arg(&target)
            .assert()
            .code(74)
            .stderr(contains(message));
    }
    assert!(entries(dir.path()).is_empty());
}

/// A run with nothing to write (its only puzzle has no solution) leaves an existing `-o`
/// file as it was and says so, instead of replacing it with an empty one (an empty CSV
/// could not even be read back), and makes no new one.
#[test]
fn issue14_1_nothing_to_write_leaves_the_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let zero = dir.path().join("zero.txt");
    // No solution (tdoku's set; `grids/tdoku_counts.txt` gives its count, 0).
    fs::write(
        &zero,
        "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.\n",
    )
    .unwrap();
    let out = dir.path().join("out.csv");
    fs::write(&out, "keep\n").unwrap();
    binary_command()
        .arg("solve")
        .arg(&zero)
        .arg("-o")
        .arg(&out)
        .output()
        .map(|o| {
            assert_eq!(o.status.code(), Some(1));
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(
                err.contains("has no solution") && err.contains("left as it was"),
                "{err}"
            );
        })
        .unwrap();
    assert_eq!(fs::read_to_string(&out).unwrap(), "keep\n");
    // And a new -o file is not created empty (as CSV it could not be read back).
    let new = dir.path().join("new.csv");
    binary_command()
        .arg("solve")
        .arg(&zero)
        .args(["-f", "csv", "-o"])
        .arg(&new)
        .output()
        .map(|o| {
            assert_eq!(o.status.code(), Some(1));
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains("new.csv was not created"), "{err}");
        })
        .unwrap();
    assert!(!new.exists());
}

/// An output that cannot be written (read-only, a directory, a directory that is not
/// there) is refused before the work: no seed is picked or printed, nothing is made
/// (before, `fill` and `generate` made every grid first, for seconds, then refused).
#[test]
fn unwritable_outputs_are_refused_before_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("kept.txt");
    fs::write(&kept, "old").unwrap();
    let mut perms = fs::metadata(&kept).unwrap().permissions();
    perms.set_readonly(true);
    fs::set_permissions(&kept, perms).unwrap();
    for (target, message) in [
        (kept.clone(), "is read-only"),
        (dir.path().to_path_buf(), "is a directory"),
        (
            dir.path().join("no/such/x.txt"),
            "is not a directory that exists",
        ),
    ] {
        for cmd in [
            &["fill", "--box", "10", "-n", "100"][..],
            &["generate", "--box", "5", "-n", "20"],
        ] {
            shiftgrid()
                .args(cmd)
                .arg("-o")
                .arg(&target)
                .assert()
                .code(74)
                .stderr(predicates::prelude::PredicateBooleanExt::and(
                    contains(message),
                    predicates::prelude::PredicateBooleanExt::not(contains("seed")),
                ));
        }
    }
    assert_eq!(fs::read_to_string(&kept).unwrap(), "old");
}

//! Issue 14 (hardening), item 3 continued: Ctrl-C in a run that waits for another process
//! (input that does not come, a FIFO with no other end, output nobody reads), and a slow
//! reader after Ctrl-C.

use std::fs;
use std::io::Read;
use std::process::{Child, Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use super::{binary_command, entries, interrupt, ready, stderr_of, wait_for};

/// `generate` of an endless batch of 4×4 puzzles into a pipe, stderr piped, in `format`:
/// `line` (17 bytes a puzzle), or `json` (about 220) to be sure that what is finished by
/// the first press more than fills the pipe (64 KiB), even on a loaded machine.
fn endless_generate(format: &str) -> Child {
    binary_command()
        .args([
            "generate",
            "--box",
            "2",
            "--count",
            "100000000",
            "-f",
            format,
        ])
        .args(["--seed", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Ctrl-C ends a run that waits for another process, which would not reach its next poll
/// until the other side moved: input from a pipe kept open with nothing more in it, a
/// FIFO with no writer, output to a FIFO with no reader, a name file that is such a FIFO,
/// output into a pipe that nobody reads. It exits with 130 after one press, leaves no
/// temporary file, and says why.
#[cfg(unix)]
#[test]
fn issue14_3_ctrl_c_ends_a_run_that_waits_for_input_or_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fifo = |name: &str| {
        let ok = StdCommand::new("mkfifo")
            .arg(d.join(name))
            .status()
            .unwrap()
            .success();
        assert!(ok, "mkfifo failed");
    };
    fifo("in.fifo");
    fifo("out.fifo");
    fifo("names.fifo");
    fs::write(d.join("p.txt"), "1..4........4..1\n").unwrap();
    for args in [
        &["count", "-", "-o", "out.txt"][..],
        &["solve", "-"][..],
        &["count", "in.fifo", "-o", "out.txt"][..],
        &["solve", "p.txt", "-o", "out.fifo"][..],
        &["export", "p.txt", "--shifts", "names.fifo", "-o", "out.txt"][..],
    ] {
        let mut child = binary_command()
            .current_dir(d)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The first puzzle arrives; the pipe stays open with nothing more.
        let mut stdin = child.stdin.take().unwrap();
        std::io::Write::write_all(&mut stdin, b"1..4........4..1\n").unwrap();
        std::thread::sleep(Duration::from_millis(400));
        ready(&child, 0);
        assert!(child.try_wait().unwrap().is_none(), "{args:?} did not wait");
        interrupt(&child);
        let (code, took) = wait_for(&mut child, Duration::from_secs(10));
        drop(stdin);
        let stderr = stderr_of(&mut child);
        assert_eq!(code, Some(130), "{args:?}: {stderr}");
        // Far below the 10 s wait for it, far above what a loaded CI machine needs.
        assert!(took < Duration::from_secs(5), "{args:?} took {took:?}");
        assert!(
            stderr.contains("interrupted while waiting for"),
            "{args:?}: {stderr}"
        );
        if args[1] == "-" {
            // The puzzle that came was read, not searched: a batch goes a chunk at a time.
            assert!(
                stderr.contains("(puzzle 1, on line 1, and those after it were read but not"),
                "{args:?}: {stderr}"
            );
        }
        let left: Vec<String> = entries(d)
            .into_iter()
            .filter(|e| e.starts_with(".shiftgrid-") || e == "out.txt")
            .collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
    // Output into a pipe that nobody reads: `generate` writes what it finished after the
    // press, and gives up on the write after a second without progress.
    let mut child = endless_generate("json");
    let stdout = child.stdout.take().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    ready(&child, 0);
    interrupt(&child);
    let (code, took) = wait_for(&mut child, Duration::from_secs(10));
    drop(stdout);
    let stderr = stderr_of(&mut child);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert!(
        stderr.contains("interrupted while waiting for output to be read"),
        "{stderr}"
    );
}

/// After Ctrl-C, `generate` still hands everything it finished to a reader that is slow
/// but reading (4 KiB every 150 ms for three seconds, then the rest at once): the wait for
/// stuck output does not cut it short.
#[cfg(unix)]
#[test]
fn issue14_3_a_slow_reader_gets_all_that_generate_finished() {
    let mut child = endless_generate("line");
    let mut stdout = child.stdout.take().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    ready(&child, 0);
    let guard = watchdog(&child, Duration::from_secs(120));
    interrupt(&child);
    let mut got = Vec::new();
    let mut piece = vec![0u8; 1 << 12];
    for k in 0.. {
        let n = stdout.read(&mut piece).unwrap();
        if n == 0 {
            break;
        }
        got.extend_from_slice(&piece[..n]);
        if k < 20 {
            std::thread::sleep(Duration::from_millis(150));
        }
    }
    drop(guard);
    let (code, _) = wait_for(&mut child, Duration::from_secs(60));
    let stderr = stderr_of(&mut child);
    assert_eq!(code, Some(130), "{stderr}");
    // "writing the first K puzzles": all K arrived, whole.
    let k: usize = stderr
        .split("writing the first ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|k| k.parse().ok())
        .unwrap_or_else(|| panic!("{stderr}"));
    let text = String::from_utf8(got).unwrap();
    assert_eq!(text.lines().count(), k, "{stderr}");
    assert!(text.lines().all(|l| l.len() == 16), "a line cut short");
    assert!(!stderr.contains("waiting for output"), "{stderr}");
}

/// Ctrl-C once the output has begun on stdout lets it finish: cut there, a redirected file
/// or a pipe's reader would take the part for the whole (it once stopped at a MiB boundary,
/// mid-row, and said "no output was written"). The run ends with its own status.
#[cfg(unix)]
#[test]
fn ctrl_c_after_the_output_began_lets_it_finish() {
    let dir = tempfile::tempdir().unwrap();
    let grid = "123456789456789123789123456214365897365897214897214365531642978642978531978531642";
    let input = dir.path().join("grids.txt");
    fs::write(&input, format!("{grid}\n").repeat(1000)).unwrap();
    // About 2 MiB of long CSV: more than a pipe holds and than one piece of the copy.
    let mut child = binary_command()
        .args(["export", "--csv-shape", "long"])
        .arg(&input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut got = vec![0u8; 4096];
    stdout.read_exact(&mut got).unwrap();
    ready(&child, 0);
    interrupt(&child);
    // A pause for the press to land (well under the second after which a write that
    // hands over nothing ends the run).
    std::thread::sleep(Duration::from_millis(50));
    stdout.read_to_end(&mut got).unwrap();
    let (code, _) = wait_for(&mut child, Duration::from_secs(10));
    let stderr = stderr_of(&mut child);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("which was then finished"), "{stderr}");
    let text = String::from_utf8(got).unwrap();
    // A header, then 81 rows a grid, each ending in its shift.
    assert_eq!(text.lines().count(), 1 + 1000 * 81);
    assert!(
        text.ends_with('\n')
            && text
                .lines()
                .last()
                .unwrap()
                .ends_with("1000,Staff 9,Day 9,Shift 2")
    );
}

/// A second Ctrl-C exits at once, saying so, while the first stop is still under way. The
/// stop is held open for certain, not by luck of timing: `generate` hands what it finished
/// (as JSON: more than a pipe holds) to a pipe that nobody reads, which it gives up on only after a second without progress,
/// and the second press is sent once the first has been answered on stderr. (Sending both
/// blind, a run that stops within milliseconds of the first was gone before the second.)
#[cfg(unix)]
#[test]
fn issue14_3_second_ctrl_c_says_it_exits_at_once() {
    let mut child = endless_generate("json");
    let stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    ready(&child, 0);
    let guard = watchdog(&child, Duration::from_secs(120));
    interrupt(&child);
    let mut said = Vec::new();
    let mut piece = [0u8; 256];
    while !String::from_utf8_lossy(&said).contains("to exit at once)") {
        let n = stderr.read(&mut piece).unwrap();
        assert!(n > 0, "ended before answering the first press: {said:?}");
        said.extend_from_slice(&piece[..n]);
    }
    drop(guard);
    // Past the 20 ms within which a second signal is the same press.
    std::thread::sleep(Duration::from_millis(100));
    interrupt(&child);
    let (code, took) = wait_for(&mut child, Duration::from_secs(10));
    drop(stdout);
    stderr.read_to_end(&mut said).unwrap();
    let said = String::from_utf8(said).unwrap();
    assert_eq!(code, Some(130), "{said}");
    // At once: not the second that the first press gives a stuck write (the message below
    // tells the two apart; the time only has to be below the 10 s wait).
    assert!(took < Duration::from_secs(5), "took {took:?}: {said}");
    assert!(
        said.contains("interrupted again: exiting at once"),
        "{said}"
    );
    assert!(!said.contains("waiting for output"), "{said}");
}

/// Kills `child` once `limit` has passed, unless the guard is dropped first: for a test
/// that reads what the child writes until a line comes or the stream ends, which a run
/// that hangs would never let happen (the test then fails instead of holding CI).
fn watchdog(child: &Child, limit: Duration) -> Watchdog {
    use std::sync::atomic::{AtomicBool, Ordering};
    let done = std::sync::Arc::new(AtomicBool::new(false));
    let seen = std::sync::Arc::clone(&done);
    let pid = child.id().to_string();
    std::thread::spawn(move || {
        let start = Instant::now();
        while !seen.load(Ordering::SeqCst) {
            if start.elapsed() > limit {
                let _ = StdCommand::new("kill").args(["-KILL", &pid]).status();
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    });
    Watchdog(done)
}

/// See [`watchdog`]: dropping it lets the child be.
struct Watchdog(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

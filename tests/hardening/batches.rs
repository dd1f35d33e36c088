//! Issue 14 (hardening), item 3 continued: Ctrl-C in a `solve`, `count` or `grade` batch
//! keeps the results of the puzzles finished before the first one it cut short.

use std::fs;
use std::path::Path;
use std::process::{Command as StdCommand, Stdio};
use std::time::Duration;

use super::{binary_command, interrupt, ready, stderr_of, wait_for};
use crate::util::{repo, shiftgrid};

/// Runs `args` quietly in `dir` on `threads` threads, lets it work for `after` once it
/// handles Ctrl-C, presses it, and gives the exit code and stderr.
fn pressed_after(
    dir: &Path,
    threads: &str,
    args: &[&str],
    after: Duration,
) -> (Option<i32>, String) {
    let mut child = binary_command()
        .current_dir(dir)
        .args(["--quiet", "-j", threads])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    ready(&child, 0);
    std::thread::sleep(after);
    assert!(
        child.try_wait().unwrap().is_none(),
        "{args:?} ended before Ctrl-C"
    );
    interrupt(&child);
    let (code, _) = wait_for(&mut child, Duration::from_secs(10));
    (code, stderr_of(&mut child))
}

/// An easy 25×25 puzzle (a full grid with its first row blank: singles finish it) and a
/// hard one (Frisch's #18: seconds of search), as lines.
fn easy_and_hard_25x25() -> (String, String) {
    let grid = shiftgrid()
        .args(["fill", "--box", "5", "--seed", "1", "-f", "line"])
        .output()
        .unwrap();
    let grid = String::from_utf8(grid.stdout).unwrap();
    let mut cells: Vec<&str> = grid.split_whitespace().collect();
    cells[..25].fill("0");
    let frisch = fs::read_to_string(repo("grids/frisch_25x25.txt")).unwrap();
    let hard = frisch
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap();
    (cells.join(" "), hard.to_string())
}

/// Three easy 25×25 puzzles, then Frisch's #18 (seconds of search), then an easy one: a
/// press once the first three are done writes their results alone, and names puzzle 4
/// (the fifth, finished too, is left out so that the output is a prefix of the batch).
#[cfg(unix)]
#[test]
fn ctrl_c_in_a_solve_or_count_batch_keeps_the_finished_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let (easy, hard) = easy_and_hard_25x25();
    let batch = format!("{easy}\n{easy}\n{easy}\n{hard}\n{easy}\n");
    fs::write(dir.path().join("batch.txt"), batch).unwrap();
    for (args, records) in [
        (
            &["count", "batch.txt", "-o", "out.txt"][..],
            "1\t1\t1\tunique\n2\t2\t1\tunique\n3\t3\t1\tunique\n",
        ),
        (
            &["solve", "batch.txt", "-f", "json", "-o", "out.txt"][..],
            "",
        ),
    ] {
        // Two threads, as CI has: with many, #18 would get them all and could finish.
        let (code, stderr) = pressed_after(dir.path(), "2", args, Duration::from_secs(2));
        assert_eq!(code, Some(130), "{args:?}: {stderr}");
        assert!(
            stderr.contains(
                "interrupted: writing 3 results, of every puzzle before puzzle 4 (on line 4); it \
                 and those after it were not searched to the end"
            ),
            "{args:?}: {stderr}"
        );
        let out = fs::read_to_string(dir.path().join("out.txt")).unwrap();
        if args[0] == "count" {
            assert_eq!(out, records);
        } else {
            let puzzles: Vec<&str> = out
                .lines()
                .map(|r| &r[..r.find(",\"line\"").unwrap()])
                .collect();
            assert_eq!(puzzles, ["{\"puzzle\":1", "{\"puzzle\":2", "{\"puzzle\":3"]);
            assert!(
                out.lines()
                    .all(|r| r.contains("\"status\":\"unique\",\"complete\":true"))
            );
        }
        fs::remove_file(dir.path().join("out.txt")).unwrap();
    }
}

/// `grade` keeps its finished prefix as `count` does: three easy 25×25 puzzles, then
/// Frisch's #18 three times (beyond the techniques, then a short search: about 2 s each).
/// Before, an interrupted `grade` wrote nothing.
#[cfg(unix)]
#[test]
fn ctrl_c_in_a_grade_batch_keeps_the_finished_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let (easy, hard) = easy_and_hard_25x25();
    fs::write(
        dir.path().join("batch.txt"),
        format!("{easy}\n{easy}\n{easy}\n{hard}\n{hard}\n{hard}\n"),
    )
    .unwrap();
    let args = ["grade", "batch.txt", "-o", "out.txt"];
    let (code, stderr) = pressed_after(dir.path(), "2", &args, Duration::from_millis(700));
    assert_eq!(code, Some(130), "{stderr}");
    let out = fs::read_to_string(dir.path().join("out.txt")).unwrap();
    // The easy three at least, numbered from 1 with no gap; the message names the next.
    let numbers: Vec<usize> = out
        .lines()
        .map(|l| l.split('\t').next().unwrap().parse().unwrap())
        .collect();
    let kept = numbers.len();
    assert!((3..6).contains(&kept), "{out}");
    assert_eq!(numbers, (1..=kept).collect::<Vec<_>>());
    let next = kept + 1;
    let s = if kept == 1 { "" } else { "s" };
    assert!(
        stderr.contains(&format!(
            "interrupted: writing {kept} result{s}, of every puzzle before puzzle {next} (on \
             line {next}); it and those after it were not graded to the end"
        )),
        "{stderr}"
    );
}

/// With `--time-limit`, a puzzle its own limit ended before the press is a result like any
/// other (`0?`, `timeout`): the prefix goes on past it, up to the search the press cut.
#[cfg(unix)]
#[test]
fn a_puzzle_timed_out_before_ctrl_c_stays_in_the_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let frisch = fs::read_to_string(repo("grids/frisch_25x25.txt")).unwrap();
    let hard = frisch
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap();
    // One at a time, a second each: the press at 3.5 s lands in the fourth, or on a loaded
    // machine (three took 3.1 s at load 5) the third.
    fs::write(dir.path().join("hard.txt"), format!("{hard}\n").repeat(6)).unwrap();
    let args = ["count", "--time-limit", "1s", "hard.txt", "-o", "out.txt"];
    let (code, stderr) = pressed_after(dir.path(), "1", &args, Duration::from_millis(3500));
    assert_eq!(code, Some(130), "{stderr}");
    let out = fs::read_to_string(dir.path().join("out.txt")).unwrap();
    let rows: Vec<&str> = out.lines().collect();
    assert!((2..6).contains(&rows.len()), "{out}\n{stderr}");
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(
            *row,
            format!("{}\t{}\t0?\ttimeout", k + 1, k + 1),
            "{stderr}"
        );
    }
    let next = rows.len() + 1;
    assert!(
        stderr.contains(&format!(
            "before puzzle {next} (on line {next}); it and those after"
        )),
        "{stderr}"
    );
}

/// Ctrl-C while a batch waits for more input from a pipe (kept open, nothing more in it)
/// writes the results of every puzzle searched, a prefix of the batch, and names the first
/// puzzle read but not searched; before, it exited without writing anything.
#[cfg(unix)]
#[test]
fn ctrl_c_while_a_batch_waits_for_input_keeps_what_was_searched() {
    use std::io::Write;
    let made = three_hundred_4x4();
    for command in ["count", "solve"] {
        let form = if command == "count" { "text" } else { "line" };
        let mut child = binary_command()
            .args(["--quiet", "-j", "1", command, "-", "-f", form])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(&made).unwrap();
        ready(&child, 0);
        // One thread: chunks of 128 and one held back, so 256 searched in two chunks and
        // the rest read while the run waits for more (4×4 puzzles take microseconds).
        std::thread::sleep(Duration::from_millis(1500));
        assert!(
            child.try_wait().unwrap().is_none(),
            "{command} did not wait"
        );
        interrupt(&child);
        let (code, _) = wait_for(&mut child, Duration::from_secs(10));
        drop(stdin);
        let stderr = stderr_of(&mut child);
        let out = stdout_of(&mut child);
        assert_eq!(code, Some(130), "{command}: {stderr}");
        assert!(
            stderr.contains(
                "interrupted while waiting for input: writing 256 results, of every puzzle \
                 before puzzle 257 (on line 257)"
            ),
            "{command}: {stderr}"
        );
        let rows: Vec<&str> = out.lines().collect();
        assert_eq!(rows.len(), 256, "{command}: {stderr}");
        if command == "count" {
            for (k, row) in rows.iter().enumerate() {
                assert_eq!(*row, format!("{}\t{}\t1\tunique", k + 1, k + 1));
            }
        } else {
            // Each solution line completes its puzzle, in order.
            let puzzles = String::from_utf8(made.clone()).unwrap();
            for (row, puzzle) in rows.iter().zip(puzzles.lines()) {
                let fits = puzzle
                    .chars()
                    .zip(row.chars())
                    .all(|(p, s)| p == '.' || p == '0' || p == s);
                assert!(fits && row.len() == puzzle.len(), "{row} for {puzzle}");
            }
        }
    }
}

/// Ctrl-C in a terminal signals the whole pipeline: the producer dies with it, and the end
/// of its output must not pass for the input's end (nor lose the results). A producer and
/// `count` in one process group, the group signalled once both wait: every result
/// searched is written, and the run exits 130.
#[cfg(unix)]
#[test]
fn ctrl_c_to_the_pipeline_keeps_the_results_when_the_producer_dies_with_it() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let made = three_hundred_4x4();
    let batch = dir.path().join("batch.txt");
    fs::write(&batch, &made).unwrap();
    for _ in 0..3 {
        let mut producer = StdCommand::new("sh")
            .arg("-c")
            .arg("cat \"$0\"; exec sleep 20")
            .arg(&batch)
            .process_group(0)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let group = producer.id();
        let mut child = binary_command()
            .args(["--quiet", "-j", "1", "count", "-"])
            .process_group(group as i32)
            .stdin(producer.stdout.take().unwrap())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        ready(&child, 0);
        std::thread::sleep(Duration::from_millis(1500));
        assert!(child.try_wait().unwrap().is_none(), "count did not wait");
        let sent = StdCommand::new("kill")
            .args(["-INT", "--", &format!("-{group}")])
            .status()
            .unwrap();
        assert!(sent.success());
        let (code, _) = wait_for(&mut child, Duration::from_secs(10));
        let _ = producer.kill();
        let _ = producer.wait();
        let stderr = stderr_of(&mut child);
        let out = stdout_of(&mut child);
        assert_eq!(code, Some(130), "{stderr}");
        // 256 searched before the wait (two chunks of 128 on one thread); the rest was
        // read but not searched, or (when the end came before the press was seen) all 300.
        let rows: Vec<&str> = out.lines().collect();
        assert!(
            matches!(rows.len(), 256 | 300),
            "{} rows: {stderr}",
            rows.len()
        );
        for (k, row) in rows.iter().enumerate() {
            assert_eq!(*row, format!("{}\t{}\t1\tunique", k + 1, k + 1));
        }
        assert!(
            stderr.contains(&format!("writing {}", rows.len()))
                || stderr.contains(&format!("writing all {}", rows.len())),
            "{stderr}"
        );
    }
}

/// `generate -f line` of 300 4×4 puzzles (seed 1): a batch of two chunks and more on one
/// thread, each puzzle searched in microseconds.
fn three_hundred_4x4() -> Vec<u8> {
    let made = shiftgrid()
        .args(["generate", "--box", "2", "--seed", "1", "--count", "300"])
        .args(["-f", "line"])
        .output()
        .unwrap();
    assert!(made.status.success());
    made.stdout
}

/// All that `child` wrote on its piped stdout.
fn stdout_of(child: &mut std::process::Child) -> String {
    use std::io::Read;
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout piped")
        .read_to_string(&mut out)
        .unwrap();
    out
}

/// Ctrl-C in a `fill --count` batch writes its first grids, each whole (before, it wrote
/// nothing), and names the `--first-index` that resumes it: the prefix and the shard made
/// from there concatenate into what the whole batch makes.
#[cfg(unix)]
#[test]
fn ctrl_c_in_a_fill_batch_writes_a_prefix_that_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["fill", "--box", "6", "--seed", "8", "-f", "line"];
    let (code, stderr) = pressed_after(
        dir.path(),
        "2",
        &[&args[..], &["--count", "1000000", "-o", "cut.txt"]].concat(),
        Duration::from_millis(700),
    );
    assert_eq!(code, Some(130), "{stderr}");
    let Ok(cut) = fs::read_to_string(dir.path().join("cut.txt")) else {
        // No grid finished before the press (a very slow machine): the run says so.
        assert!(stderr.contains("no output was written"), "{stderr}");
        return;
    };
    let made = cut.lines().count();
    assert!(made > 0 && cut.lines().all(|l| l.split(' ').count() == 36 * 36));
    assert!(
        stderr.contains(&match made {
            1 => "writing grid 1 (resume with --first-index 1 --count 999999)".to_string(),
            _ => format!(
                "writing grids 1 to {made} (resume with --first-index {made} --count {})",
                1_000_000 - made
            ),
        }),
        "{stderr}"
    );
    let run = |extra: &[&str]| {
        let out = shiftgrid().args(args).args(extra).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let rest = run(&["--count", "2", "--first-index", &made.to_string()]);
    let whole = run(&["--count", &(made + 2).to_string()]);
    assert_eq!(cut + &rest, whole);
}

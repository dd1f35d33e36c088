//! Every example in a command's `--help` runs as shown, in a directory holding the files
//! the examples name (small ones), so that the help cannot drift from the tool.

use std::fs;
use std::path::Path;

use crate::util::shiftgrid;

/// The files the examples read, made with the tool itself.
fn fixtures(dir: &Path) {
    let run = |args: &[&str]| {
        let out = shiftgrid().args(args).current_dir(dir).output().unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
    };
    fs::write(dir.join("staff.txt"), "Ann\nBob\nCy\nDee\n").unwrap();
    fs::write(dir.join("days.txt"), "Mon\nTue\nWed\nThu\n").unwrap();
    fs::write(dir.join("shifts.txt"), "Early\nLate\nNight\nOff\n").unwrap();
    run(&[
        "generate",
        "-b",
        "3",
        "-s",
        "1",
        "-n",
        "3",
        "-f",
        "line",
        "-o",
        "puzzles.txt",
    ]);
    run(&["generate", "-b", "2", "-s", "2", "-o", "puzzle.txt"]);
    run(&[
        "generate", "-b", "3", "-s", "3", "-n", "2", "-f", "line", "-o", "big.txt",
    ]);
    run(&[
        "generate",
        "-b",
        "2",
        "-s",
        "3",
        "-f",
        "csv",
        "--shifts",
        "shifts.txt",
        "-o",
        "week.csv",
    ]);
    run(&[
        "generate",
        "-b",
        "4",
        "-s",
        "3",
        "--alphabet",
        "0-9A-F",
        "-f",
        "line",
        "-o",
        "hex16.txt",
    ]);
    fs::write(
        dir.join("roster.csv"),
        "staff,Mon,Tue,Wed,Thu\nAnn,Early,,,\nBob,,,,Night\nCy,,,,\nDee,,Off,Late,\n",
    )
    .unwrap();
}

#[test]
fn every_help_example_runs() {
    let dir = tempfile::tempdir().unwrap();
    fixtures(dir.path());
    let mut ran = 0;
    for command in [
        "fill", "generate", "solve", "count", "export", "grade", "render",
    ] {
        let help = shiftgrid()
            .args([command, "--help"])
            .output()
            .unwrap()
            .stdout;
        let help = String::from_utf8(help).unwrap();
        let examples = help
            .split("Examples:\n")
            .nth(1)
            .unwrap_or_else(|| panic!("{command} --help has no examples"));
        for line in examples.lines().filter(|l| l.starts_with("  shiftgrid ")) {
            // The command, up to the two spaces before its comment.
            let shown = line.trim().split("  ").next().unwrap();
            let args: Vec<&str> = shown.split_whitespace().skip(1).collect();
            let out = shiftgrid()
                .args(&args)
                .current_dir(dir.path())
                .output()
                .unwrap();
            // 0, or 1 where a listed puzzle has several solutions.
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{shown}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 18, "{ran} examples");
}

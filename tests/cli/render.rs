//! `render`: an SVG of a puzzle with its solution, and of a roster with its names.

use predicates::prelude::*;
use predicates::str::contains;

use crate::util::{repo, shiftgrid};

#[test]
fn render_draws_an_svg_with_the_solution() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo.svg");
    shiftgrid()
        .arg("render")
        .arg(repo("grids/demo_9x9.txt"))
        .args(["--solve", "--labels", "-o"])
        .arg(&out)
        .assert()
        .success();
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<?xml") && svg.trim_end().ends_with("</svg>"));
    // 81 digits drawn: 27 givens and 54 filled cells.
    assert_eq!(
        svg.matches("</text>").count()
            - svg.matches("Staff ").count()
            - svg.matches("Day ").count(),
        81
    );
    // A contradictory puzzle cannot be solved for drawing.
    shiftgrid()
        .args(["render", "-", "--solve"])
        .write_stdin("1 2 . .\n. . . .\n. . 3 .\n. . 4 .\n")
        .assert()
        .code(1);
    // An improper one is drawn with one of its solutions, with a note and exit 1, as
    // `solve` does.
    shiftgrid()
        .args(["render", "--solve"])
        .arg(repo("grids/empty_4x4.txt"))
        .assert()
        .code(1)
        .stdout(contains("</svg>"))
        .stderr(contains("more than one solution; drawing one"));
}

/// `render` draws a roster with its names: a roster CSV's own staff, days and shifts, or
/// the name files given with any input.
#[test]
fn render_draws_roster_names() {
    let dir = tempfile::tempdir().unwrap();
    let shifts = dir.path().join("shifts.txt");
    std::fs::write(&shifts, "Early\nLate\nNight\nOff\n").unwrap();
    let roster = "staff,Mon,Tue,Wed,Thu\nAnn,Early,Late,,\nBob,,,,\nCid,,,,\nDee,,,Early,Night\n";
    let svg = shiftgrid()
        .args([
            "render",
            "-",
            "--labels",
            "--input-format",
            "csv",
            "--shifts",
        ])
        .arg(&shifts)
        .write_stdin(roster)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let svg = String::from_utf8(svg).unwrap();
    for name in ["Ann", "Dee", "Mon", "Thu", ">Early<", ">Late<", ">Night<"] {
        assert!(svg.contains(name), "{name} missing");
    }
    assert!(!svg.contains("Staff 1") && !svg.contains("Day 1"));
    // Text input with name files: the same labels.
    let staff = dir.path().join("staff.txt");
    std::fs::write(&staff, "Ann\nBob\nCid\nDee\n").unwrap();
    shiftgrid()
        .args(["render", "-", "--labels", "--staff"])
        .arg(&staff)
        .write_stdin("1 2 . .\n. . . .\n. . . .\n. . . .\n")
        .assert()
        .success()
        .stdout(contains(">Cid<").and(contains("Day 4")));
}

/// `render` draws the first puzzle only: when it is bad, it says so plainly (no "puzzle 1
/// skipped", since nothing else is drawn) and draws nothing, without reading on.
#[test]
fn render_a_bad_first_puzzle_draws_nothing() {
    shiftgrid()
        .args(["render", "-"])
        .write_stdin("11..............\n.3.4......1.2...\n")
        .assert()
        .code(65)
        .stdout("")
        .stderr(contains("appears twice").and(contains("skipped").not()));
}

/// Staff and day names show only as labels: without `--labels`, on a text input, they are
/// refused rather than accepted and ignored; with it they are drawn.
#[test]
fn render_refuses_names_it_would_not_draw() {
    let dir = tempfile::tempdir().unwrap();
    let staff = dir.path().join("staff.txt");
    std::fs::write(&staff, "Ann\nBob\nCy\nDee\n").unwrap();
    let grid = "1 3 4 2\n2 4 1 3\n3 1 2 4\n4 2 3 1\n";
    shiftgrid()
        .args(["render", "-", "--staff"])
        .arg(&staff)
        .write_stdin(grid)
        .assert()
        .code(2)
        .stderr(contains("only with --labels"));
    shiftgrid()
        .args(["render", "-", "--labels", "--staff"])
        .arg(&staff)
        .write_stdin(grid)
        .assert()
        .success()
        .stdout(contains(">Ann<"));
}

#[test]
fn render_refuses_an_image_name_it_would_fill_with_svg() {
    let dir = tempfile::tempdir().unwrap();
    let grid = "1 3 4 2\n2 4 1 3\n3 1 2 4\n4 2 3 1\n";
    for name in ["roster.png", "roster.PDF", "roster.jpeg"] {
        let out = dir.path().join(name);
        shiftgrid()
            .args(["render", "-", "-o"])
            .arg(&out)
            .write_stdin(grid)
            .assert()
            .code(2)
            .stderr(contains("render writes SVG, not").and(contains("name the file .svg")));
        assert!(!out.exists(), "{name}");
    }
    let out = dir.path().join("roster.SVG");
    shiftgrid()
        .args(["render", "-", "-o"])
        .arg(&out)
        .write_stdin(grid)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("<?xml"));
}

/// A file of several puzzles: the first is drawn, and a note says so (not with --quiet).
#[test]
fn render_notes_that_it_draws_the_first_of_several() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.txt");
    std::fs::write(&file, "1..4........4..1\n.2..........3...\n").unwrap();
    let out = assert_cmd::Command::cargo_bin("shiftgrid")
        .unwrap()
        .arg("render")
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("render draws the first"), "{stderr}");
    assert!(String::from_utf8(out.stdout).unwrap().contains("<svg"));
    crate::util::shiftgrid()
        .arg("render")
        .arg(&file)
        .assert()
        .success()
        .stderr("");
}

/// `--puzzle K` draws the K-th puzzle of a file (a bad one before it is passed over
/// unreported, as it is not drawn), and a K past the end is an error naming the count.
#[test]
fn render_draws_the_puzzle_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("three.txt");
    // Puzzle 2 is bad (a repeated given is caught when drawn, not when passed over).
    std::fs::write(
        &file,
        "1..4........4..1\n11..............\n.2..........3...\n",
    )
    .unwrap();
    let drawn = |k: &str| {
        let out = shiftgrid()
            .args(["render", "--puzzle", k])
            .arg(&file)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let givens = |svg: &str| svg.matches("</text>").count();
    let (code, first) = drawn("1");
    assert_eq!((code, givens(&first)), (Some(0), 4));
    let (code, third) = drawn("3");
    assert_eq!((code, givens(&third)), (Some(0), 2));
    assert!(
        third.contains(">3</text>") && !third.contains(">4</text>"),
        "{third}"
    );
    assert_eq!(drawn("2").0, Some(65));
    shiftgrid()
        .args(["render", "--puzzle", "4"])
        .arg(&file)
        .assert()
        .code(65)
        .stderr(contains("holds 3 puzzles: there is no puzzle 4"));
}

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
    assert!(
        svg.contains("<title>9x9 solution of puzzle 1 from "),
        "{svg}"
    );
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
    for name in ["roster.png", "roster.PDF", "roster.jpeg", "roster.svgz"] {
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
    let out = crate::util::shiftgrid_loud()
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
    // The title names which puzzle of the file it is.
    assert!(third.contains("<title>4x4 puzzle 3 from "), "{third}");
    assert_eq!(drawn("2").0, Some(65));
    shiftgrid()
        .args(["render", "--puzzle", "4"])
        .arg(&file)
        .assert()
        .code(65)
        .stderr(contains("holds 3 puzzles: there is no puzzle 4"));
    // An input of blank and comment lines holds no puzzle (it read as holding one).
    shiftgrid()
        .args(["render", "--puzzle", "2", "-"])
        .write_stdin("\n# nothing here\n")
        .assert()
        .code(65)
        .stderr(contains("<stdin> holds no puzzle: there is no puzzle 2"));
}

/// `--cell-px` sets the cell size (the grid's lines are 9 cells long), and
/// `--candidates` pencils in every blank cell exactly the shifts no peer holds, as the
/// test works them out from the demo puzzle's givens.
#[test]
fn render_draws_cells_of_the_size_asked_for_with_their_candidates() {
    let width = |svg: &str| {
        let at = svg.find("width=\"").unwrap() + 7;
        svg[at..].split('"').next().unwrap().parse::<f64>().unwrap()
    };
    let render = |args: &[&str]| {
        let out = shiftgrid()
            .arg("render")
            .arg(repo("grids/demo_9x9.txt"))
            .args(args)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    // The lines between cells run the 9 cells' length: 180 and 360 pixels.
    let (small, large) = (render(&["--cell-px", "20"]), render(&["--cell-px", "40"]));
    assert!(small.contains("M0 20H180M20 0V180") && large.contains("M0 40H360M40 0V360"));
    assert!(width(&small) > 180.0 && width(&large) > 360.0);
    assert!(!small.contains("class=\"candidates\""));

    // The marks, by cell: each `<text x y>v</text>` of the candidates group lies in the
    // cell its coordinates fall in (the group is drawn in the grid's own frame).
    let svg = render(&["--cell-px", "30", "--candidates"]);
    let group = svg.split("class=\"candidates\"").nth(1).unwrap();
    let group = &group[..group.find("</g>").unwrap()];
    let mut drawn = std::collections::BTreeSet::new();
    for mark in group.split("<text ").skip(1) {
        let num = |key: &str| {
            let at = mark.find(key).unwrap() + key.len();
            mark[at..]
                .split('"')
                .next()
                .unwrap()
                .parse::<f64>()
                .unwrap()
        };
        let v: u8 = mark[mark.find('>').unwrap() + 1..mark.find("</text>").unwrap()]
            .parse()
            .unwrap();
        let (r, c) = ((num("y=\"") / 30.0) as usize, (num("x=\"") / 30.0) as usize);
        drawn.insert((r, c, v));
    }
    let rows: Vec<Vec<u8>> = std::fs::read_to_string(repo("grids/demo_9x9.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.bytes().map(|b| b - b'0').collect())
        .collect();
    let mut want = std::collections::BTreeSet::new();
    for r in 0..9 {
        for c in 0..9 {
            if rows[r][c] != 0 {
                continue;
            }
            for v in 1..=9u8 {
                let seen = (0..9).any(|k| {
                    rows[r][k] == v
                        || rows[k][c] == v
                        || rows[r / 3 * 3 + k / 3][c / 3 * 3 + k % 3] == v
                });
                if !seen {
                    want.insert((r, c, v));
                }
            }
        }
    }
    assert!(want.len() > 54);
    assert_eq!(drawn, want);
}

/// A 16x16 or 25x25 puzzle read in a letter alphabet is drawn in it, as its text and
/// `solve`'s answer key show it: every given's character, in its cell's order.
#[test]
fn render_draws_the_symbols_of_the_alphabet_it_read() {
    for (b, alphabet) in [(4, "0-9A-F"), (4, "1-9A"), (5, "A-Z"), (5, "1-9A")] {
        let line = shiftgrid()
            .args([
                "generate",
                "--box",
                &b.to_string(),
                "--seed",
                "3",
                "-f",
                "line",
            ])
            // A random grid without rounds of improvement: seconds at 25x25, not minutes.
            .args(["--grid", "random", "--improve", "0"])
            .args(["--alphabet", alphabet])
            .output()
            .unwrap()
            .stdout;
        let line = String::from_utf8(line).unwrap();
        let givens: Vec<String> = line
            .trim()
            .chars()
            .filter(|&c| c != '.')
            .map(String::from)
            .collect();
        let svg = shiftgrid()
            .args(["render", "-", "--alphabet", alphabet])
            .write_stdin(line.clone())
            .output()
            .unwrap()
            .stdout;
        let svg = String::from_utf8(svg).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        // Cell texts in document order (the title and key are not `text` elements).
        let drawn: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or("").to_string())
            .collect();
        assert_eq!(drawn, givens, "{alphabet} {b}");
        // Pencil marks in the alphabet too, without a key.
        let marked = shiftgrid()
            .args(["render", "-", "--candidates", "--alphabet", alphabet])
            .write_stdin(line)
            .output()
            .unwrap()
            .stdout;
        let marked = String::from_utf8(marked).unwrap();
        let doc = roxmltree::Document::parse(&marked).unwrap();
        assert!(!marked.contains("legend"), "{alphabet}");
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .collect();
        assert!(texts.len() > givens.len(), "{alphabet}: marks drawn");
        for t in texts {
            assert_eq!(t.chars().count(), 1, "{alphabet}: {t}");
            assert!(line_has_symbol(alphabet, t), "{alphabet}: {t}");
        }
    }
}

/// Whether `t` is one of the symbols of `alphabet` (the letter alphabets of 16x16/25x25).
fn line_has_symbol(alphabet: &str, t: &str) -> bool {
    let c = t.chars().next().unwrap();
    match alphabet {
        "0-9A-F" => c.is_ascii_hexdigit() && !c.is_ascii_lowercase(),
        "1-9A" => c.is_ascii_uppercase() || ('1'..='9').contains(&c),
        _ => c.is_ascii_uppercase(),
    }
}

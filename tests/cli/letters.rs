//! Letters in, letters out: `--alphabet` names the one-character-per-cell symbols of
//! 16x16 and 25x25 text (Gecode's and janko's `1-9A-G`, or `A-Y`), which `solve` reads and
//! writes, `fill` and `generate` write, and `generate --from` reads.

use predicates::str::contains;

use crate::util::{assert_solves, blank, full_grid, independently_valid, peers, shiftgrid};

/// The value of a compact cell, decoded here without the crate's alphabet: `1-9A`
/// (`gecode`) has 1-9 then A=10, `A-Z` has A=1; `.` is a blank.
fn decode(c: char, gecode: bool) -> u8 {
    match c {
        '.' => 0,
        '1'..='9' if gecode => c as u8 - b'0',
        'A'..='Z' if gecode => c as u8 - b'A' + 10,
        'A'..='Z' => c as u8 - b'A' + 1,
        _ => panic!("{c:?} is not a symbol"),
    }
}

/// Writes `cells` one character per cell, as the test's own encoder.
fn encode(cells: &[u8], gecode: bool) -> String {
    cells
        .iter()
        .map(|&v| match v {
            0 => '.',
            1..=9 if gecode => char::from(b'0' + v),
            _ if gecode => char::from(b'A' + v - 10),
            _ => char::from(b'A' + v - 1),
        })
        .collect()
}

fn stdout_of(args: &[&str], stdin: &str) -> String {
    let out = shiftgrid()
        .args(args)
        .write_stdin(stdin)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// `solve --alphabet` writes its solutions in the alphabet it read, in the line form (one
/// line of n² characters) and the grid form (n lines of n), each solving the puzzle.
#[test]
fn solve_writes_the_alphabet_it_reads() {
    for (b, seed, gecode, flag) in [
        (4, 1, true, "1-9A"),
        (5, 2, false, "A-Z"),
        (4, 3, false, "A-Z"),
    ] {
        let grid = full_grid(b, seed);
        let puzzle = blank(&grid, 0.3, seed);
        let n = puzzle.shape().side();
        let line = encode(puzzle.cells(), gecode);
        let out = stdout_of(&["solve", "--alphabet", flag, "-f", "line", "-"], &line);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 1, "{flag} {b}");
        let cells: Vec<u8> = lines[0].chars().map(|c| decode(c, gecode)).collect();
        assert_solves(&puzzle, &cells, flag);
        let out = stdout_of(&["solve", "--alphabet", flag, "-"], &line);
        let rows: Vec<&str> = out.lines().collect();
        assert_eq!(rows.len(), n, "{flag} {b}");
        assert!(rows.iter().all(|r| r.chars().count() == n), "{out}");
        let cells: Vec<u8> = out
            .lines()
            .flat_map(|r| r.chars())
            .map(|c| decode(c, gecode))
            .collect();
        assert_solves(&puzzle, &cells, flag);
        // JSON records keep numbers.
        let numeric = stdout_of(&["solve", "--alphabet", flag, "-f", "json", "-"], &line);
        assert!(numeric.contains("\"solution\":[["), "{numeric}");
    }
}

/// `fill` and `generate` write letters when asked; `generate --from` reads them; what
/// the alphabet cannot write, or output that is not text, is refused rather than the flag
/// ignored.
#[test]
fn fill_and_generate_write_letters_and_refuse_what_they_cannot() {
    let out = stdout_of(
        &[
            "fill",
            "--box",
            "5",
            "--seed",
            "3",
            "--alphabet",
            "A-Z",
            "-f",
            "line",
        ],
        "",
    );
    let line = out.trim_end();
    assert_eq!(line.chars().count(), 625);
    let cells: Vec<u8> = line.chars().map(|c| decode(c, false)).collect();
    assert!(independently_valid(25, &cells));

    // A 16x16 grid in Gecode's letters, made into a puzzle that keeps them.
    let out = stdout_of(
        &["fill", "--box", "4", "--seed", "3", "--alphabet", "1-9A"],
        "",
    );
    let cells: Vec<u8> = out
        .lines()
        .flat_map(|r| r.chars())
        .map(|c| decode(c, true))
        .collect();
    assert!(independently_valid(16, &cells));
    let dir = tempfile::tempdir().unwrap();
    let grid_file = dir.path().join("grid.txt");
    std::fs::write(&grid_file, &out).unwrap();
    let out = shiftgrid()
        .args([
            "generate",
            "--seed",
            "5",
            "--alphabet",
            "1-9A",
            "-f",
            "line",
            "--from",
        ])
        .arg(&grid_file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let puzzle_cells: Vec<u8> = text.trim_end().chars().map(|c| decode(c, true)).collect();
    let puzzle = shiftgrid::Puzzle::new(shiftgrid::Shape::new(4).unwrap(), puzzle_cells).unwrap();
    assert!(puzzle.givens() < 256);
    let o = crate::util::count(&puzzle, 2);
    assert_eq!(o.count, 1);
    assert_eq!(o.solutions[0].cells(), &cells[..]);

    for (args, message) in [
        (
            &["fill", "--box", "6", "--alphabet", "A-Z"][..],
            "not 36x36",
        ),
        (
            &["fill", "--box", "5", "--alphabet", "0-9A-F"],
            "writes 16x16 one character per cell, not 25x25",
        ),
        (
            &["fill", "--box", "4", "--alphabet", "1-9A", "-f", "json"],
            "grid and line output",
        ),
        (
            &["fill", "--box", "4", "--alphabet", "1-9A", "-f", "csv"],
            "grid and line output",
        ),
        (
            &["generate", "--box", "4", "--alphabet", "1-9A", "-f", "json"],
            "grid and line output",
        ),
        (
            &["fill", "--box", "3", "--alphabet", "A-Z"],
            "9x9 are written in digits",
        ),
    ] {
        shiftgrid()
            .args(args)
            .assert()
            .code(2)
            .stderr(contains(message));
    }
}

/// The default alphabet, named, goes with any output; spaced letters read in the alphabet
/// named; a 9x9 line in a hexadecimal batch keeps its digits' meaning (`0` a blank).
#[test]
fn named_numeric_spaced_letters_and_digits_beside_hex() {
    shiftgrid()
        .args(["fill", "--box", "3", "--alphabet", "numeric", "-f", "json"])
        .assert()
        .success();
    let grid = full_grid(4, 8);
    let puzzle = blank(&grid, 0.3, 8);
    let spaced: String = puzzle
        .cells()
        .chunks(16)
        .map(|row| {
            let row: Vec<String> = row.iter().map(|&v| encode(&[v], false)).collect();
            row.join(" ") + "\n"
        })
        .collect();
    let out = stdout_of(&["solve", "--alphabet", "A-Z", "-f", "line", "-"], &spaced);
    let cells: Vec<u8> = out.trim_end().chars().map(|c| decode(c, false)).collect();
    assert_solves(&puzzle, &cells, "spaced letters");
    // Norvig's "hardest" after a hexadecimal 16x16 line: read in digits, solved as itself.
    let hex16 = {
        let g = full_grid(4, 9);
        let p = blank(&g, 0.15, 9);
        p.cells()
            .iter()
            .map(|&v| match v {
                0 => '.',
                1..=10 => char::from(b'0' + v - 1),
                _ => char::from(b'A' + v - 11),
            })
            .collect::<String>()
    };
    let norvig =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let out = stdout_of(
        &["solve", "--alphabet", "0-9A-F", "-f", "line", "-"],
        &format!("{hex16}\n{norvig}\n"),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[1].len(), 81);
    let nine: Vec<u8> = lines[1].bytes().map(|c| c - b'0').collect();
    assert_solves(&norvig.parse().unwrap(), &nine, "norvig beside hex");
}

/// Janko's 16x16 puzzles as Gecode prints them: solved from that file with `--alphabet
/// 1-9A`, each solution is the one of the same puzzle in its numeric file.
#[test]
fn janko_letters_solve_to_the_numeric_solutions() {
    let Some(dir) = peers() else { return };
    let dir = dir.join("gecode_16x16_janko");
    let letters = std::fs::read_to_string(dir.join("puzzles.txt")).unwrap();
    let numeric = crate::util::puzzles(&dir.join("puzzles.numeric.txt"));
    let out = stdout_of(
        &["solve", "--alphabet", "1-9A", "-f", "line", "-"],
        &letters,
    );
    let solved: Vec<&str> = out.lines().collect();
    assert_eq!(solved.len(), numeric.len());
    for ((line, p), given) in solved.iter().zip(&numeric).zip(letters.lines()) {
        // The puzzle, encoded here, is the file's own line.
        assert_eq!(encode(p.cells(), true), given.trim());
        let cells: Vec<u8> = line.chars().map(|c| decode(c, true)).collect();
        assert_solves(p, &cells, "janko");
    }
}

/// `grade --explain` names the shifts of a puzzle read in a letter alphabet in its
/// characters, as the puzzle shows them: every "staff R / day C gets shift X" matches the
/// grid the puzzle was blanked from (a technique's single holds in every solution).
#[test]
fn grade_hints_name_shifts_in_the_alphabet_read() {
    for (b, seed, gecode, flag) in [(4, 5, false, "A-Z"), (4, 6, true, "1-9A")] {
        let grid = full_grid(b, seed);
        let puzzle = blank(&grid, 0.35, seed);
        let n = puzzle.shape().side();
        let line = encode(puzzle.cells(), gecode);
        // Exit status 1 for a puzzle with more than one solution: its hints hold all the same.
        let out = shiftgrid()
            .args(["grade", "--explain", "--alphabet", flag, "-"])
            .write_stdin(line)
            .output()
            .unwrap();
        let out = String::from_utf8(out.stdout).unwrap();
        let mut checked = 0;
        for hint in out.lines() {
            let Some((_, rest)) = hint.split_once(": staff ") else {
                continue;
            };
            let Some((cell, after)) = rest.split_once(" gets shift ") else {
                continue;
            };
            let (r, c) = cell.split_once(" / day ").unwrap();
            let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
            let symbol = after.split([',', ' ']).next().unwrap();
            assert_eq!(symbol.chars().count(), 1, "{hint}");
            let v = decode(symbol.chars().next().unwrap(), gecode);
            assert_eq!(v, grid.cells()[(r - 1) * n + c - 1], "{flag}: {hint}");
            checked += 1;
        }
        assert!(checked > 10, "{flag}: only {checked} hints in\n{out}");
    }
}

//! Text as people have it: grids printed with bars and rules, titles and comments
//! beside puzzles, letters without their alphabet; and the reader as an iterator.

use super::{err, ok, parse};
use crate::grid::Puzzle;
use crate::io::parse::{
    Alphabet, InputFormat, ParseErrorKind, ParseOptions, PuzzleReader, Record, parse_puzzles,
};

/// Norvig's "hardest" puzzle as his essay publishes it, and its solution as published.
const HARDEST: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const HARDEST_SOLVED: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

/// Grids as puzzle sites print them, with bars between the boxes and rules between the
/// bands (Norvig's "hardest" puzzle, spaced as his essay prints it and compact): the same
/// puzzle as its published line.
#[test]
fn printed_grids_with_bars_and_rules_read_as_plain_ones() {
    let published = HARDEST;
    let spaced = "4 . . |. . . |8 . 5 \n. 3 . |. . . |. . . \n. . . |7 . . |. . . \n\
                  ------+------+------\n. 2 . |. . . |. 6 . \n. . . |. 8 . |4 . . \n\
                  . . . |. 1 . |. . . \n------+------+------\n. . . |6 . 3 |. 7 . \n\
                  5 . . |2 . . |. . . \n1 . 4 |. . . |. . . \n";
    let compact = "+---+---+---+\n|4..|...|8.5|\n|.3.|...|...|\n|...|7..|...|\n+---+---+---+\n\
                   |.2.|...|.6.|\n|...|.8.|4..|\n|...|.1.|...|\n+---+---+---+\n\
                   |...|6.3|.7.|\n|5..|2..|...|\n|1.4|...|...|\n+---+---+---+\n";
    let want = ok(&parse(published)[0]).clone();
    for text in [spaced, compact, &format!("{spaced}\n{compact}")] {
        let got: Vec<Puzzle> = parse(text).iter().map(|r| ok(r).clone()).collect();
        assert!(!got.is_empty() && got.iter().all(|p| *p == want), "{text}");
    }
    // An error in a compact row with bars names the column the file has it at.
    let bad = "|4..|...|8.5|\n|.3.|...|...|\n|...|7..|...|\n|.2.|...|.6.|\n|...|.x.|4..|\n\
               |...|.1.|...|\n|...|6.3|.7.|\n|5..|2..|...|\n|1.4|...|...|\n";
    let records = parse(bad);
    let e = err(&records[0]);
    assert_eq!((e.line, e.col), (5, 7), "{e}");
    // A 16x16 row with two-digit shifts keeps its numbers apart.
    let row = "1 2 3 4 | 5 6 7 8 | 9 10 11 12 | 13 14 15 16";
    let line = super::text::Line::new(1, &super::reader::without_bars_mapped(row).0).width();
    assert_eq!(line, (16, false));
}

/// A `PuzzleReader` is an iterator over the records `parse_puzzles` gives.
#[test]
fn the_reader_iterates_over_the_records() {
    let text = "1..4........4..1\n# c\n1 2\n\n1 . . 4\n. . . .\n. . . .\n4 . . 1\n";
    let reader = PuzzleReader::new(
        crate::io::lines::LineReader::new(text.as_bytes()),
        ParseOptions::default(),
    );
    let records: Vec<Record> = reader.collect::<std::io::Result<_>>().unwrap();
    assert_eq!(records, parse(text));
    assert_eq!(records.len(), 3);
}

/// A comment after a puzzle, from a `#` that follows whitespace, is not part of it.
#[test]
fn comments_after_a_puzzle_are_skipped() {
    let line = HARDEST;
    let want = ok(&parse(line)[0]).clone();
    for text in [
        format!("{line} # Norvig's hardest\n"),
        format!("{line}\t#1\n"),
        format!("# header\n{line}   #\n"),
    ] {
        let r = parse(&text);
        assert_eq!(r.len(), 1, "{text}");
        assert_eq!(ok(&r[0]), &want, "{text}");
    }
    // A grid row with a comment.
    let grid = "1 . . 4 # first row\n. . . .\n. . . .\n4 . . 1\n";
    assert_eq!(ok(&parse(grid)[0]).givens(), 4);
}

/// Project Euler's file puts `Grid 01` before each grid; rows of bars alone space a printed
/// grid: neither is part of a puzzle.
#[test]
fn title_lines_and_spacer_rows_are_skipped() {
    let pe = "Grid 01\n003020600\n900305001\n001806400\n008102900\n700000008\n006708200\n\
              002609500\n800203009\n005010300\nGrid 02\n200080300\n060070084\n030500209\n\
              000105408\n000000000\n402706000\n301007040\n720040060\n004010003\n";
    let r = parse(pe);
    assert_eq!(r.len(), 2);
    assert_eq!(ok(&r[0]).givens(), 32);
    assert_eq!(ok(&r[1]).get(0, 0), 2);
    let spaced = "|4..|...|8.5|\n|   |   |   |\n|.3.|...|...|\n|...|7..|...|\n+---+---+---+\n\
                  |.2.|...|.6.|\n|...|.8.|4..|\n|...|.1.|...|\n+---+---+---+\n\
                  |...|6.3|.7.|\n|5..|2..|...|\n|1.4|...|...|\n";
    let r = parse(spaced);
    assert_eq!(r.len(), 1);
    assert_eq!(ok(&r[0]).givens(), 17);
}

/// Letters read with the digits' alphabet: the error says how letters are read.
#[test]
fn letters_without_an_alphabet_say_how_to_read_them() {
    let records = parse("D92.....G...43..\n");
    let e = err(&records[0]);
    let text = e.to_string();
    assert!(
        text.contains("named alphabet: 1-9A, 0-9A-F or A-Z"),
        "{text}"
    );
    // In words a library user can act on (the CLI adds its flag).
    assert!(!text.contains("--"), "{text}");
    assert!(e.kind.wants_alphabet());
    let records = parse("1..4........4..5\n");
    let e = err(&records[0]);
    assert!(!e.to_string().contains("alphabet") && !e.kind.wants_alphabet());
}

/// Lists from other tools put a rating, a solution or a count beside each puzzle: what
/// is beside a whole compact puzzle is not read, whatever separates it (Norvig's hardest as
/// published, with the ratings of sudoku-exchange's list, tdoku's `puzzle:count:solution`,
/// Kaggle's `puzzle,solution`). A field one cell short is still an error.
#[test]
fn ratings_and_solutions_beside_a_line_puzzle_are_not_read() {
    let line = HARDEST;
    let solution = HARDEST_SOLVED;
    let want = ok(&parse(line)[0]).clone();
    let tails = [" 7.2", "\t11.2", ",SE 9.0", ";x", &format!(":1:{solution}")];
    let text: String = tails.iter().map(|t| format!("{line}{t}\n")).collect();
    let r = parse(&text);
    assert_eq!(r.len(), tails.len());
    assert!(r.iter().all(|r| *ok(r) == want));
    // Also when the block is read as line puzzles by request.
    let r = parse_puzzles(&text, &super::opts(InputFormat::Line, Alphabet::Numeric));
    assert!(r.len() == tails.len() && r.iter().all(|r| *ok(r) == want));
    // One cell short: not a whole puzzle, so not cut short either.
    let r = parse(&format!("{} 7.2\n", &line[1..]));
    assert_eq!(r.len(), 1);
    assert_eq!(err(&r[0]).line, 1);
    // Nor is an identifier before it (sudoku-exchange's `hash puzzle rating`); an error in
    // the puzzle names its column in the file.
    let r = parse(&format!("00015097c6c3 {line}  7.2\n1;{line};2\n"));
    assert!(r.len() == 2 && r.iter().all(|r| *ok(r) == want));
    let r = parse(&format!("Ü1 {}x 7.2\n", &line[..80]));
    assert_eq!((err(&r[0]).line, err(&r[0]).col), (1, 84));
}

/// Simple Sudoku's printed grid: a frame of stars and dashes around bars and rules.
#[test]
fn simple_sudoku_frames_are_skipped() {
    let line = HARDEST;
    let framed = "*-----------*\n|4..|...|8.5|\n|.3.|...|...|\n|...|7..|...|\n|---+---+---|\n\
                  |.2.|...|.6.|\n|...|.8.|4..|\n|...|.1.|...|\n|---+---+---|\n\
                  |...|6.3|.7.|\n|5..|2..|...|\n|1.4|...|...|\n*-----------*\n";
    let r = parse(framed);
    assert_eq!(r.len(), 1);
    assert_eq!(ok(&r[0]), ok(&parse(line)[0]));
}

/// A block whose first 128 lines fit no size is reported once and skipped up to a line
/// that fits, not to the next blank line: the puzzles after the bad lines are read.
#[test]
fn puzzles_after_many_bad_lines_are_read() {
    let line = HARDEST;
    let mut text = "1 2 3 4 5\n".repeat(300);
    text.push_str(&format!("{line}\n{line}\n"));
    let r = parse(&text);
    assert_eq!(r.len(), 3);
    assert_eq!(err(&r[0]).line, 1);
    assert!(r[1..].iter().all(|r| ok(r) == ok(&parse(line)[0])));
    assert_eq!((r[1].line, r[2].line), (301, 302));
    // Fewer bad lines than that stay one bad grid, reported once.
    let r = parse(&"1 2 3 4 5\n".repeat(5));
    assert_eq!(r.len(), 1);
}

/// A lone line of 81 spaced numbers with a 10 in it is a 9×9 puzzle with a value out of
/// range, not the first row of an 81×81 grid cut short.
#[test]
fn a_lone_line_with_a_value_too_large_is_a_bad_line_puzzle() {
    let mut cells = vec!["0"; 81];
    cells[4] = "10";
    let r = parse(&format!("{}\n", cells.join(" ")));
    assert_eq!(r.len(), 1);
    let e = err(&r[0]);
    assert_eq!((e.line, e.col), (1, 9), "{e}");
    assert!(
        matches!(e.kind, ParseErrorKind::OutOfRange { side: 9, .. }),
        "{e}"
    );
}

/// A solution beside a puzzle that is not one whole compact field (spaced, one cell short,
/// in rows) is never read in its place: the line is an error, as the puzzle alone would be
/// unless whole. Nor is a 16×16 line split by a stray space read as the 9×9 puzzle of its
/// first 81 characters, nor a rule line of 81 dashes (a 25×25 grid's, printed with `%2s`
/// cells) as a puzzle.
#[test]
fn solutions_beside_a_puzzle_in_another_form_are_not_read_for_it() {
    let line = HARDEST;
    let solution = HARDEST_SOLVED;
    let spaced: Vec<String> = line.chars().map(String::from).collect();
    for text in [
        format!("{} {solution}\n", spaced.join(" ")),
        format!("{}:1:{solution}\n", &line[1..]),
        format!("{},{solution}\n", &line[1..]),
        format!("{} 0 {solution}\n", &line[1..]),
    ] {
        let r = parse(&text);
        assert!(r.iter().all(|r| r.puzzle.is_err()), "{text}");
    }
    let opts = super::opts(InputFormat::Auto, Alphabet::Gecode);
    let sixteen = format!("{line}{}", "1".repeat(256 - 81));
    let split = format!("{} {}\n", &sixteen[..81], &sixteen[81..]);
    let r = parse_puzzles(&split, &opts);
    assert!(r.len() == 1 && r[0].puzzle.is_err(), "{r:?}");
    let rule = format!("+{}+\n", "-".repeat(79));
    let r = parse(&format!("{rule}{line}\n{rule}"));
    assert_eq!(r.len(), 1);
    assert_eq!(ok(&r[0]), ok(&parse(line)[0]));
}

/// After many bad lines, a line of garbage that happens to have a grid row's width does
/// not start a grid (one error every n lines): only a good line puzzle ends the skip.
#[test]
fn garbage_with_a_rows_width_does_not_end_a_skip() {
    let line = HARDEST;
    let mut text = "x y\n".repeat(200);
    text.push_str("a b c d e f g h i\n");
    text.push_str(&"x y\n".repeat(100));
    text.push_str(&format!("{line}\n"));
    let r = parse(&text);
    assert_eq!(r.len(), 2, "{r:?}");
    assert_eq!(ok(&r[1]), ok(&parse(line)[0]));
}

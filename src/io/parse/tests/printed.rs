//! Text as people have it: grids printed with bars and rules, titles and comments
//! beside puzzles, letters without their alphabet; and the reader as an iterator.

use super::{err, ok, parse};
use crate::grid::Puzzle;
use crate::io::parse::{ParseOptions, PuzzleReader, Record};

/// Grids as puzzle sites print them, with bars between the boxes and rules between the
/// bands (Norvig's "hardest" puzzle, spaced as his essay prints it and compact): the same
/// puzzle as its published line.
#[test]
fn printed_grids_with_bars_and_rules_read_as_plain_ones() {
    let published =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
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
    let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
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

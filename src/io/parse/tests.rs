//! Tests of the parser: every form and alphabet, the detection rules, error positions, and
//! the committed fixtures. The never-panics properties are in [`robust`].

use super::*;
use crate::grid::{Grid, House, Pos, Shape};

mod fromstr;
mod json;
mod printed;
mod robust;
mod separated;
mod unnamed;

const DEMO: &str = "006200080\n008970000\n004810500\n000060002\n070000030\n\
                    600050000\n002047100\n003028400\n050001200\n";

fn opts(format: InputFormat, alphabet: Alphabet) -> ParseOptions {
    ParseOptions { format, alphabet }
}

fn parse(text: &str) -> Vec<Record> {
    parse_puzzles(text, &ParseOptions::default())
}

fn ok(r: &Record) -> &Puzzle {
    match &r.puzzle {
        Ok(p) => p,
        Err(e) => panic!("record at line {} failed: {e}", r.line),
    }
}

fn err(r: &Record) -> &ParseError {
    match &r.puzzle {
        Ok(p) => panic!("record at line {} parsed: {p:?}", r.line),
        Err(e) => e,
    }
}

/// The cells of a valid full grid of box size `b`.
fn pattern(b: usize) -> Vec<u8> {
    crate::io::fixtures::pattern(Shape::new(b).unwrap())
        .cells()
        .to_vec()
}

fn spaced_grid(n: usize, cells: &[u8]) -> String {
    cells
        .chunks(n)
        .map(|row| {
            let r: Vec<String> = row.iter().map(u8::to_string).collect();
            r.join(" ") + "\n"
        })
        .collect()
}

#[test]
fn compact_grid_rows() {
    let r = parse(DEMO);
    assert_eq!(r.len(), 1);
    let p = ok(&r[0]);
    assert_eq!(p.shape().side(), 9);
    assert_eq!(p.givens(), 27);
    assert_eq!(p.get(0, 2), 6);
    assert_eq!(r[0].line, 1);
}

#[test]
fn compact_line_equals_grid() {
    let line: String = DEMO.split('\n').collect();
    let a = parse(&line);
    let b = parse(DEMO);
    assert_eq!(ok(&a[0]), ok(&b[0]));
    let dots = line.replace('0', ".");
    assert_eq!(ok(&parse(&dots)[0]), ok(&b[0]));
    let spaced: Vec<String> = line.chars().map(String::from).collect();
    assert_eq!(ok(&parse(&spaced.join(" "))[0]), ok(&b[0]));
}

#[test]
fn comments_crlf_and_trailing_space() {
    let text = "# header\r\n\r\n1 2 . 4   \r\n  # a note inside\r\n3 4 1 2\t\r\n\
                2 1 4 3\r\n4 3 2 1 \r\n# trailer";
    let r = parse(text);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].line, 3);
    assert_eq!(ok(&r[0]).givens(), 15);
}

#[test]
fn byte_order_mark_is_ignored() {
    let r = parse("\u{feff}1234341221434321\n");
    assert!(ok(&r[0]).is_full());
}

#[test]
fn consecutive_grids_without_blank_lines() {
    let g = pattern(2);
    let text = spaced_grid(4, &g).repeat(3);
    let r = parse(&text);
    assert_eq!(r.len(), 3);
    assert_eq!(r.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 5, 9]);
    for rec in &r {
        assert_eq!(ok(rec).cells(), g.as_slice());
    }
}

#[test]
fn bad_puzzle_in_batch_does_not_stop_it() {
    let line: String = DEMO.split('\n').collect();
    let mut bad = line.clone();
    bad.replace_range(10..11, "x");
    let text = format!("{line}\n{bad}\n# c\n{line}\n");
    let r = parse(&text);
    assert_eq!(r.len(), 3);
    ok(&r[0]);
    let e = err(&r[1]);
    assert_eq!((e.line, e.col), (2, 11));
    assert!(matches!(&e.kind, ParseErrorKind::BadToken { token, .. } if token == "x"));
    assert_eq!(r[2].line, 4);
    ok(&r[2]);
}

#[test]
fn bad_grid_spoils_only_itself() {
    let g = spaced_grid(4, &pattern(2));
    let mut rows: Vec<&str> = g.lines().collect();
    rows[1] = "3 4 1";
    let bad = rows.join("\n");
    let text = format!("{g}\n{bad}\n\n{g}");
    let r = parse(&text);
    assert_eq!(r.len(), 3);
    ok(&r[0]);
    let e = err(&r[1]);
    assert_eq!((e.line, e.col), (7, 6));
    assert_eq!(
        e.kind,
        ParseErrorKind::WrongRowLength {
            found: 3,
            expected: 4
        }
    );
    ok(&r[2]);
}

#[test]
fn extra_token_is_located() {
    let text = "1 2 3 4\n3 4 1 2 7  9\n2 1 4 3\n4 3 2 1\n";
    let e = err(&parse(text)[0]).clone();
    assert_eq!((e.line, e.col), (2, 9));
    assert_eq!(
        e.to_string(),
        "line 2, column 9: row has 6 cells, expected 4"
    );
    // Compact rows count characters.
    let text = "420000000\n0070530011\n";
    let e = err(&parse(text)[0]).clone();
    assert_eq!((e.line, e.col), (2, 10));
    let text = "420000000\n00705300\n";
    let e = err(&parse(text)[0]).clone();
    assert_eq!((e.line, e.col), (2, 9));
}

#[test]
fn truncated_grid_names_the_line_after_or_the_last_line() {
    let text = "1 2 3 4\n3 4 1 2\n\n# next\n1234341221434321\n";
    let r = parse(text);
    assert_eq!(r.len(), 2);
    let e = err(&r[0]);
    assert_eq!((e.line, e.col), (3, 1));
    assert_eq!(
        e.to_string(),
        "line 3, column 1: grid ends after 2 rows, expected 4 (truncated grid)"
    );
    ok(&r[1]);
    // Truncated at the end of the input: its last line (there is no line after).
    let head: String = DEMO.lines().take(8).map(|l| format!("{l}\n")).collect();
    let e = err(&parse(&head)[0]).clone();
    assert_eq!(e.line, 8);
}

#[test]
fn non_numeric_and_out_of_range() {
    let e = err(&parse("1 2 3 4\n3 4 one 2\n2 1 4 3\n4 3 2 1\n")[0]).clone();
    assert_eq!((e.line, e.col), (2, 5));
    assert_eq!(
        e.to_string(),
        "line 2, column 5: unexpected \"one\": expected a number 1-4, or 0 or . for a blank"
    );
    let e = err(&parse("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 10\n")[0]).clone();
    assert_eq!((e.line, e.col), (4, 7));
    assert_eq!(
        e.kind,
        ParseErrorKind::OutOfRange {
            value: "10".into(),
            side: 4
        }
    );
    let e = err(&parse("-1 2 3 4\n")[0]).clone();
    assert!(matches!(e.kind, ParseErrorKind::BadToken { .. }), "{e}");
    // A huge number does not overflow.
    let e = err(&parse("1 2 3 99999999999999999999999999\n3 4 1 2\n2 1 4 3\n4 3 2 1\n")[0]).clone();
    assert!(matches!(e.kind, ParseErrorKind::OutOfRange { side: 4, .. }));
}

#[test]
fn unsupported_sizes() {
    // A 5x5 grid.
    let row = "1 2 3 4 5\n";
    let e = err(&parse(&row.repeat(5))[0]).clone();
    assert_eq!((e.line, e.col), (1, 1));
    assert!(matches!(e.kind, ParseErrorKind::Size(ShapeError::Side(5))));
    assert!(
        e.to_string().contains("supported sizes are 4x4, 9x9"),
        "{e}"
    );
    // A line of 80 cells.
    let line = "1".repeat(80);
    let e = err(&parse(&line)[0]).clone();
    assert!(matches!(
        e.kind,
        ParseErrorKind::Size(ShapeError::Cells(80))
    ));
    // Forced line form: a grid row is not a puzzle.
    let r = parse_puzzles("1 2 3 4\n", &opts(InputFormat::Line, Alphabet::Numeric));
    assert!(matches!(
        err(&r[0]).kind,
        ParseErrorKind::Size(ShapeError::Cells(4))
    ));
    // 16x16 compact lines need a named alphabet.
    let line = "1".repeat(256);
    let e = err(&parse(&line)[0]).clone();
    assert!(
        matches!(e.kind, ParseErrorKind::CompactTooLarge { side: 16, .. }),
        "{e}"
    );
    assert!(e.to_string().contains("name another alphabet"));
}

#[test]
fn first_row_too_short_uses_the_next_rows() {
    let text = "1 2 3\n3 4 1 2\n2 1 4 3\n4 3 2 1\n";
    let e = err(&parse(text)[0]).clone();
    assert_eq!(
        e.kind,
        ParseErrorKind::WrongRowLength {
            found: 3,
            expected: 4
        }
    );
    assert_eq!((e.line, e.col), (1, 6));
}

#[test]
fn empty_input() {
    for text in ["", "\n\n", "# only a comment\n\n  # another\n", "  \t \r\n"] {
        let r = parse(text);
        assert_eq!(r.len(), 1);
        let e = err(&r[0]);
        assert_eq!((e.line, e.col), (1, 1));
        assert_eq!(e.kind, ParseErrorKind::Empty);
        assert_eq!(e.to_string(), "line 1, column 1: no puzzle found");
    }
}

#[test]
fn duplicate_given_is_placed_at_second_occurrence() {
    let text = "# dup\n. 3 . .\n. . . .\n. . . .\n. 3 . .\n";
    let e = err(&parse(text)[0]).clone();
    assert_eq!((e.line, e.col), (5, 3));
    assert_eq!(
        e.kind,
        ParseErrorKind::Grid(GridError::Duplicate {
            symbol: 3,
            house: House::Col(1),
            first: Pos { row: 0, col: 1 },
            second: Pos { row: 3, col: 1 },
        })
    );
    assert!(
        e.to_string()
            .contains("at row 1, column 2 and at row 4, column 2")
    );
    // Compact line: the column is the character's.
    let e = err(&parse("11..............\n")[0]).clone();
    assert_eq!((e.line, e.col), (1, 2));
}

#[test]
fn ambiguous_sixteen_tokens() {
    // 4x4 line puzzles: no value above 4.
    let r = parse("1 2 3 4 3 4 1 2 2 1 4 3 4 3 2 1\n0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
    assert_eq!(r.len(), 2);
    assert_eq!(ok(&r[0]).shape().side(), 4);
    assert_eq!(ok(&r[1]).givens(), 0);
    // A 16x16 grid: a value above 4 on the first row.
    let g = pattern(4);
    let r = parse(&spaced_grid(16, &g));
    assert_eq!(r.len(), 1);
    assert_eq!(ok(&r[0]).cells(), g.as_slice());
    // A 16x16 grid whose first row has only small values but later rows do not.
    let mut h = g.clone();
    for v in &mut h[..16] {
        if *v > 4 {
            *v = 0;
        }
    }
    let r = parse(&spaced_grid(16, &h));
    assert_eq!(r.len(), 1);
    assert_eq!(ok(&r[0]).cells(), h.as_slice());
    // The empty 16x16 grid is one grid, not sixteen empty 4x4 puzzles.
    let r = parse(&". ".repeat(16).trim_end().to_string().repeat_lines(16));
    assert_eq!(r.len(), 1);
    assert_eq!(ok(&r[0]).shape().side(), 16);
    // Forced line form reads a 16x16 row as a (bad) 4x4 line puzzle.
    let r = parse_puzzles(
        &spaced_grid(16, &g),
        &opts(InputFormat::Line, Alphabet::Numeric),
    );
    assert_eq!(r.len(), 16);
    assert!(matches!(
        err(&r[0]).kind,
        ParseErrorKind::OutOfRange { side: 4, .. }
    ));
}

trait RepeatLines {
    fn repeat_lines(&self, n: usize) -> String;
}
impl RepeatLines for String {
    fn repeat_lines(&self, n: usize) -> String {
        format!("{self}\n").repeat(n)
    }
}

#[test]
fn ambiguous_eighty_one_tokens() {
    let line: String = DEMO.split('\n').collect();
    let spaced: Vec<String> = line.chars().map(String::from).collect();
    let r = parse(&spaced.join(" ").repeat_lines(3));
    assert_eq!(r.len(), 3);
    assert_eq!(ok(&r[2]).shape().side(), 9);
    let g = pattern(9);
    let r = parse(&spaced_grid(81, &g));
    assert_eq!(r.len(), 1);
    assert_eq!(ok(&r[0]).cells(), g.as_slice());
    // A sparse 81x81 puzzle (three givens a row) is still one grid.
    let sparse: Vec<u8> = (0..81 * 81)
        .map(|i| {
            if (i / 81 * 7 + i % 81 * 13) % 27 == 0 {
                g[i]
            } else {
                0
            }
        })
        .collect();
    let r = parse(&spaced_grid(81, &sparse));
    assert_eq!(r.len(), 1);
    assert_eq!(ok(&r[0]).cells(), sparse.as_slice());
    // Rosters with two shifts set, one of them small: grids, since their other rows are
    // blank (a 16x16 with 2 and 13, an 81x81 with 5 and 40).
    for (n, small, big) in [(16, 2, 13), (81, 5, 40)] {
        let mut two = vec![0u8; n * n];
        two[3] = small;
        two[n + 7] = big;
        let r = parse(&spaced_grid(n, &two));
        assert_eq!(r.len(), 1, "{n}");
        assert_eq!(ok(&r[0]).cells(), two.as_slice());
    }
}

/// A mistyped value above 9 in a batch of spaced 9x9 lines spoils its own line only: the
/// batch is not read as the first rows of an 81x81 grid.
#[test]
fn one_big_value_among_nine_by_nine_lines() {
    let line: String = DEMO.split('\n').collect();
    let spaced: Vec<String> = line.chars().map(String::from).collect();
    let mut typo = spaced.clone();
    typo[1] = "10".into();
    for (lines, bad) in [(3, 1), (100, 49)] {
        let text: String = (0..lines)
            .map(|k| if k == bad { typo.join(" ") } else { spaced.join(" ") } + "\n")
            .collect();
        let r = parse(&text);
        assert_eq!(r.len(), lines);
        for (k, rec) in r.iter().enumerate() {
            if k == bad {
                let e = err(rec);
                assert_eq!((e.line, e.col), (bad + 1, 3));
                assert!(matches!(e.kind, ParseErrorKind::OutOfRange { side: 9, .. }));
            } else {
                assert_eq!(ok(rec).shape().side(), 9);
            }
        }
    }
}

#[test]
fn forced_grid_form() {
    let r = parse_puzzles(
        "1 2 3 4 3 4 1 2 2 1 4 3 4 3 2 1\n",
        &opts(InputFormat::Grid, Alphabet::Numeric),
    );
    let e = err(&r[0]);
    assert_eq!(
        e.kind,
        ParseErrorKind::WrongRowCount {
            found: 1,
            expected: 16
        }
    );
    let r = parse_puzzles(DEMO, &opts(InputFormat::Grid, Alphabet::Numeric));
    ok(&r[0]);
    let r = parse_puzzles("1 2 3\n", &opts(InputFormat::Grid, Alphabet::Numeric));
    assert!(matches!(
        err(&r[0]).kind,
        ParseErrorKind::Size(ShapeError::Side(3))
    ));
}

fn encode(cells: &[u8], a: Alphabet) -> String {
    cells
        .iter()
        .map(|&v| a.encode(v as usize).unwrap_or('?'))
        .collect()
}

#[test]
fn alphabets() {
    for (a, b) in [
        (Alphabet::Gecode, 4),
        (Alphabet::Gecode, 5),
        (Alphabet::Hex, 4),
        (Alphabet::Letters, 4),
        (Alphabet::Letters, 5),
        (Alphabet::Gecode, 3),
        (Alphabet::Letters, 2),
    ] {
        let n = b * b;
        let mut g = pattern(b);
        for (i, v) in g.iter_mut().enumerate() {
            if i % 3 == 0 {
                *v = 0;
            }
        }
        let o = opts(InputFormat::Auto, a);
        let line = encode(&g, a);
        let r = parse_puzzles(&line, &o);
        assert_eq!(r.len(), 1, "{a} {n}");
        assert_eq!(ok(&r[0]).cells(), g.as_slice(), "{a} {n}");
        // Compact rows, one per line.
        let rows: String = line
            .chars()
            .collect::<Vec<_>>()
            .chunks(n)
            .map(|c| c.iter().collect::<String>() + "\n")
            .collect();
        let r = parse_puzzles(&rows, &o);
        assert_eq!(r.len(), 1, "{a} {n}");
        assert_eq!(ok(&r[0]).cells(), g.as_slice(), "{a} {n}");
        // Lower case reads the same.
        let r = parse_puzzles(&line.to_lowercase(), &o);
        assert_eq!(ok(&r[0]).cells(), g.as_slice(), "{a} {n}");
    }
    assert_eq!(Alphabet::Gecode.encode(16), Some('G'));
    assert_eq!(Alphabet::Gecode.encode(25), Some('P'));
    assert_eq!(Alphabet::Letters.encode(25), Some('Y'));
    assert_eq!(Alphabet::Hex.decode('0'), Some(1));
    assert_eq!(Alphabet::Hex.decode('f'), Some(16));
    assert_eq!(Alphabet::Hex.decode('G'), None);
    assert_eq!(Alphabet::Gecode.decode('0'), Some(0));
    assert_eq!(
        Alphabet::Gecode.describe(16),
        "a symbol 1-9 and A-G, or 0 or . for a blank"
    );
    assert_eq!(
        Alphabet::Hex.describe(16),
        "a symbol 0-9 and A-F, or . for a blank"
    );
    // Out of range in an alphabet.
    let mut line = encode(&pattern(4), Alphabet::Gecode);
    line.replace_range(5..6, "Z");
    let r = parse_puzzles(&line, &opts(InputFormat::Auto, Alphabet::Gecode));
    let e = err(&r[0]);
    assert_eq!(e.col, 6);
    assert_eq!(
        e.to_string(),
        "line 1, column 6: Z is out of range for a 16x16 grid (symbols 1..16)"
    );
    // Hex has no 0 blank: a 0 is a 1.
    let r = parse_puzzles(&"0.".repeat(128), &opts(InputFormat::Auto, Alphabet::Hex));
    assert!(matches!(
        err(&r[0]).kind,
        ParseErrorKind::Grid(GridError::Duplicate { symbol: 1, .. })
    ));
    // Sixteen letters: a 4x4 line unless a symbol is above 4.
    let r = parse_puzzles(
        "AB..............",
        &opts(InputFormat::Auto, Alphabet::Letters),
    );
    assert_eq!(ok(&r[0]).shape().side(), 4);
}

#[test]
fn not_text() {
    let r = parse_bytes(b"1234\n12\x0034\n", &ParseOptions::default());
    assert_eq!(r.len(), 1);
    let e = err(&r[0]);
    assert_eq!((e.line, e.col), (2, 3));
    assert!(e.to_string().contains("NUL byte"), "{e}");
    // "12" is read first, as it would be at the end of the input (a bad size).
    let r = parse_bytes(b"12\n\xc3\xa9\xff\xfe", &ParseOptions::default());
    assert_eq!(r.len(), 2);
    assert_eq!(err(&r[0]).line, 1);
    let e = err(&r[1]);
    assert_eq!((e.line, e.col), (2, 2));
    assert!(e.to_string().contains("invalid UTF-8"), "{e}");
    let r = parse_bytes(b"\x07", &ParseOptions::default());
    assert!(err(&r[0]).to_string().contains("U+0007"));
    let r = parse_puzzles("1\u{1b}[0m", &ParseOptions::default());
    assert_eq!(err(&r[0]).col, 2);
    let r = parse_bytes(DEMO.as_bytes(), &ParseOptions::default());
    ok(&r[0]);
    // Puzzles held while their block's form is undecided (spaced 9x9 lines wait for up to
    // 81 lines) are still read when a line that is not text ends the input.
    let line: String = DEMO
        .chars()
        .filter(char::is_ascii_digit)
        .map(|c| format!("{c} "))
        .collect();
    let mut input = format!("{line}\n").repeat(5).into_bytes();
    input.extend_from_slice(b"x\xff\n");
    let r = parse_bytes(&input, &ParseOptions::default());
    assert_eq!(r.len(), 6);
    for rec in &r[..5] {
        assert_eq!(ok(rec).givens(), 27);
    }
    assert_eq!((err(&r[5]).line, err(&r[5]).col), (6, 2));
    // Held lines that fit no form are reported as they would be at the end of the input.
    let r = parse_bytes(b"hello world\n\xff\n", &ParseOptions::default());
    assert_eq!(r.len(), 2);
    assert_eq!((err(&r[0]).line, err(&r[1]).line), (1, 2));
    assert!(err(&r[0]).to_string().contains("hello"), "{}", err(&r[0]));
}

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("grids")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn fixture_puzzles(name: &str, o: &ParseOptions) -> Vec<Puzzle> {
    parse_puzzles(&fixture(name), o)
        .iter()
        .map(|r| ok(r).clone())
        .collect()
}

#[test]
fn fixtures_parse() {
    let d = ParseOptions::default();
    let demo = fixture_puzzles("demo_9x9.txt", &d);
    assert_eq!(demo.len(), 1);
    assert_eq!(demo[0], *ok(&parse(DEMO)[0]));
    assert_eq!(demo[0].givens(), 27);
    let fc = fixture_puzzles("fc_report_9x9.txt", &d);
    assert_eq!((fc.len(), fc[0].givens()), (1, 26));
    let top = fixture_puzzles("top95.txt", &d);
    assert_eq!(top.len(), 95);
    assert!(top.iter().all(|p| p.shape().side() == 9));
    for (name, side, count) in [
        ("sudsoln_16x16.txt", 16, 1),
        ("sudsoln_16x16_solutions.txt", 16, 1),
        ("sudsoln_25x25.txt", 25, 2),
        ("sudsoln_25x25_solutions.txt", 25, 2),
        ("janko_16x16.txt", 16, 5),
        ("empty_4x4.txt", 4, 1),
        ("roster_4x4.txt", 4, 1),
    ] {
        let ps = fixture_puzzles(name, &d);
        assert_eq!(ps.len(), count, "{name}");
        assert!(ps.iter().all(|p| p.shape().side() == side), "{name}");
    }
    for name in ["sudsoln_16x16_solutions.txt", "sudsoln_25x25_solutions.txt"] {
        assert!(fixture_puzzles(name, &d).iter().all(Puzzle::is_full));
    }
    assert_eq!(fixture_puzzles("empty_4x4.txt", &d)[0].givens(), 0);
    // tdoku's file is PUZZLE:COUNT[:SOLUTION]; the puzzle is the part before the colon.
    let counts = fixture("tdoku_counts.txt");
    let puzzles: String = counts
        .lines()
        .filter_map(|l| l.split(':').next())
        .map(|p| format!("{p}\n"))
        .collect();
    assert_eq!(parse(&puzzles).iter().map(ok).count(), 43);
}

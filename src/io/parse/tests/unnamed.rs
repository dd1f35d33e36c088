//! A compact 16x16 grid written in a letter alphabet that was not named: each of its rows
//! is a 4x4 line puzzle's width, but it is one grid, and its one error names the alphabet.

use super::*;

/// The 16 rows of the pattern grid one character per cell in `alphabet`.
fn compact_16(alphabet: Alphabet) -> String {
    pattern(4)
        .chunks(16)
        .map(|row| {
            let mut line: String = row
                .iter()
                .map(|&v| alphabet.encode(usize::from(v)).unwrap())
                .collect();
            line.push('\n');
            line
        })
        .collect()
}

#[test]
fn a_compact_16x16_grid_is_one_grid_whose_error_names_the_alphabet() {
    for alphabet in [Alphabet::Gecode, Alphabet::Hex, Alphabet::Letters] {
        let text = compact_16(alphabet);
        // Its first row blank: still the grid. (A first row that a 4x4 line puzzle may be,
        // such as `..21..3.........`, is read as one at once, as a streamed list needs.)
        let first = "................";
        let rest: String = text.lines().skip(1).map(|l| format!("{l}\n")).collect();
        let records = parse(&format!("{first}\n{rest}"));
        assert_eq!(records.len(), 1, "{alphabet:?}");
        assert!(matches!(
            err(&records[0]).kind,
            ParseErrorKind::CompactTooLarge { side: 16, .. }
        ));
        // Read in its alphabet: the grid.
        let named = parse_puzzles(&text, &opts(InputFormat::Auto, alphabet));
        assert_eq!(named.len(), 1, "{alphabet:?}");
        assert_eq!(ok(&named[0]).cells(), &pattern(4)[..]);
        // Without it: one error for the 16 lines, not sixteen 4x4 lines, twice over.
        let twice = format!("{text}\n{text}");
        let records = parse(&twice);
        assert_eq!(records.len(), 2, "{alphabet:?}");
        for (r, line) in records.iter().zip([1, 18]) {
            let e = err(r);
            assert_eq!((e.line, e.col), (line, 1), "{alphabet:?}");
            assert!(
                matches!(e.kind, ParseErrorKind::CompactTooLarge { side: 16, .. }),
                "{alphabet:?}: {e}"
            );
        }
    }
}

/// A list of 4x4 lines stays a list: in digits from 0 to 4, with a stray letter or digit
/// in the first line (the bad one an error of its own), and sixteen or more lines in the
/// letters A to D, each an error naming its letter.
#[test]
fn a_list_of_4x4_lines_stays_a_list() {
    let lettered: String = (0..20)
        .map(|k| format!("{}\n", ["AB.C..D.........", "..D.C.....B.A..."][k % 2]))
        .collect();
    let records = parse(&lettered);
    assert_eq!(records.len(), 20);
    for r in &records {
        assert!(
            matches!(err(r).kind, ParseErrorKind::BadToken { .. }),
            "{}",
            err(r)
        );
    }
    let long: String = (0..20)
        .map(|k| format!("{}...............\n", k % 4 + 1))
        .collect();
    assert!(parse(&long).iter().all(|r| r.puzzle.is_ok()));
    let list = "1.3.............\n2...............\n..4.............\n";
    assert!(parse(list).iter().all(|r| r.puzzle.is_ok()));
    assert_eq!(parse(list).len(), 3);
    let typo = "1.A.............\n2...............\n..4.............\n";
    let records = parse(typo);
    assert_eq!(records.len(), 3);
    assert_eq!((err(&records[0]).line, err(&records[0]).col), (1, 3));
    assert!(records[1..].iter().all(|r| r.puzzle.is_ok()));
}

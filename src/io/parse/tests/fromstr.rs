//! `str::parse` and `Display` for puzzles and grids: round trips at every size, and the
//! same errors as `parse_puzzles`.

use super::*;

#[test]
fn str_parse_reads_one_puzzle_and_display_writes_it_back() {
    use crate::io::fixtures::{holes, pattern};
    for b in 2..=10 {
        let shape = Shape::new(b).unwrap();
        let (p, g) = (holes(shape), pattern(shape));
        // Grid form and line form both read back as the same puzzle or grid.
        for text in [p.to_string(), format!("{p:#}")] {
            assert_eq!(text.parse::<Puzzle>().unwrap(), p, "{b}");
        }
        for text in [g.to_string(), format!("{g:#}")] {
            assert_eq!(text.parse::<Grid>().unwrap(), g, "{b}");
        }
        // The grid form has n lines; the line form one.
        assert_eq!(p.to_string().lines().count(), shape.side());
        assert!(!p.to_string().ends_with('\n') && !format!("{p:#}").ends_with('\n'));
        assert_eq!(format!("{g:#}").lines().count(), 1);
        // A puzzle with blanks is not a grid.
        let e = p.to_string().parse::<Grid>().unwrap_err();
        let blanks = p.cells().iter().filter(|&&v| v == 0).count();
        assert_eq!(e.kind, ParseErrorKind::Blanks { blanks });
    }
    // What parse_puzzles reports, str::parse reports for one puzzle: the same error at the
    // same place.
    let bad = "1 2 . 4\n. 4 1 .\n. 1 4 .\n4 . 9 1\n";
    assert_eq!(
        bad.parse::<Puzzle>().unwrap_err(),
        parse(bad)[0].puzzle.clone().unwrap_err()
    );
    assert_eq!(
        "".parse::<Puzzle>().unwrap_err().kind,
        ParseErrorKind::Empty
    );
    assert_eq!(
        "# a comment\n\n".parse::<Puzzle>().unwrap_err().kind,
        ParseErrorKind::Empty
    );
    // Two puzzles are refused at the line where the second starts.
    let two = format!("{DEMO}\n{DEMO}");
    let e = two.parse::<Puzzle>().unwrap_err();
    assert_eq!((e.line, e.kind), (11, ParseErrorKind::SeveralPuzzles));
    // Text after the puzzle that is no puzzle: its own error, not "more than one puzzle".
    let e = "1..4.41..14.4..1\nhello".parse::<Puzzle>().unwrap_err();
    assert_eq!(e.line, 2);
    assert!(matches!(e.kind, ParseErrorKind::BadToken { .. }), "{e}");
    // The demo puzzle, read either way, is the same.
    assert_eq!(DEMO.parse::<Puzzle>().unwrap(), *ok(&parse(DEMO)[0]));
}

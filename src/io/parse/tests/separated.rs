//! Grids and line puzzles saved by a spreadsheet as CSV: numbers split by commas or
//! semicolons, empty fields for blanks.

use super::*;

/// Norvig's first example (from his essay), a row per line, blanks as empty fields.
const GRID: &str = "\
5,3,,,7,,,,
6,,,1,9,5,,,
,9,8,,,,,6,
8,,,,6,,,,3
4,,,8,,3,,,1
7,,,,2,,,,6
,6,,,,,2,8,
,,,4,1,9,,,5
,,,,8,,,7,9
";

#[test]
fn a_grid_saved_as_csv_reads_as_the_grid() {
    let spaced: String = GRID
        .lines()
        .map(|l| {
            let cells: Vec<&str> = l
                .split(',')
                .map(|f| if f.is_empty() { "." } else { f })
                .collect();
            format!("{}\n", cells.join(" "))
        })
        .collect();
    let want = ok(&parse(&spaced)[0]).clone();
    for text in [
        GRID.to_string(),
        GRID.replace(',', ";"),
        GRID.replace(',', ", "),
    ] {
        let r = parse(&text);
        assert_eq!(r.len(), 1, "{text}");
        assert_eq!(ok(&r[0]), &want);
    }
    // One line of 81 fields: a line puzzle.
    let line: Vec<&str> = GRID.lines().collect();
    let r = parse(&format!("{}\n", line.join(",")));
    assert_eq!(ok(&r[0]), &want);
}

/// A bad field is named where it stands in the file, empty fields before it counted.
#[test]
fn a_bad_field_is_named_at_its_column() {
    let text = GRID.replace(",,,,8,,,7,9", ",,,,8,,,x,9");
    let e = err(&parse(&text)[0]).clone();
    assert_eq!((e.line, e.col), (9, 9), "{e}");
    assert!(e.to_string().contains("\"x\""), "{e}");
}

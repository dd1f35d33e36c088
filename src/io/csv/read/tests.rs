//! Tests of reading roster CSVs: spreadsheet habits, delimiters, short rows, error positions,
//! name lists and header labels.

use super::super::test_util::{list, read, read_err};
use super::*;

#[test]
fn tolerates_spreadsheet_habits() {
    // BOM, CRLF, semicolons, quoted fields, trailing empty columns, blank rows.
    let text = "\u{feff}staff;\"Day 1\";Day 2;Day 3;Day 4;;\r\n\
                Staff 1; 1 ;;;;;\r\n;;;;;;\r\nStaff 2;;;;;\r\nStaff 3;;;;\r\nStaff 4;;;;\r\n";
    let r = &read(text, &CustomNames::default()).unwrap()[0];
    assert_eq!(r.puzzle.get(0, 0), 1);
    assert_eq!(r.puzzle.givens(), 1);
    let tabs = "staff\tDay 1\tDay 2\tDay 3\tDay 4\nA\t\t\t\t2\nB\t\t\t\t\nC\t\t\t\t\nD\t\t\t\t\n";
    assert_eq!(
        read(tabs, &CustomNames::default()).unwrap()[0]
            .puzzle
            .get(0, 3),
        2
    );
}

#[test]
fn whole_numbers_written_as_floats_are_numbers() {
    // pandas writes a number column with blanks as floats; LibreOffice may keep "3.".
    let text = "staff,1,2,3,4\n1,1.0,,4.00,\n2,,,,\n3,,,,\n4,,2.,,1\n";
    let r = &read(text, &CustomNames::default()).unwrap()[0];
    let cells: Vec<u8> = (0..4)
        .flat_map(|row| (0..4).map(move |col| (row, col)))
        .map(|(row, col)| r.puzzle.get(row, col))
        .collect();
    assert_eq!(cells, [1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1]);
    // The shifts were all numbers, so they are written back as numbers.
    let back = super::super::test_util::write(&r.puzzle, &r.names, Layout::Long);
    assert!(back.contains("\n1,1,1\n1,3,4\n"), "{back}");
    // Staff and day labels written so are names, in the file's order (`3.` is a day of the
    // month in German): only shifts are read as floats.
    let text = "staff,3.,4.,1.,2.\n1.0,1,,,\n3.0,,,,\n2.0,,,,\n4.0,,,,2\n";
    let r = &read(text, &CustomNames::default()).unwrap()[0];
    assert_eq!(r.names.staff, ["1.0", "3.0", "2.0", "4.0"]);
    assert_eq!(r.names.days, ["3.", "4.", "1.", "2."]);
    assert_eq!((r.puzzle.get(0, 0), r.puzzle.get(3, 3)), (1, 2));
    // A fraction that is not zero is not a whole number: a name, unknown here.
    let e = read_err(
        "staff,1,2,3,4\n1,1.5,,,\n2\n3\n4\n",
        &CustomNames::default(),
    );
    assert!(e.to_string().contains("1.5"), "{e}");
    for (text, whole) in [
        ("3", Some("3")),
        ("3.0", Some("3")),
        ("3.", Some("3")),
        ("03", Some("03")),
        ("0.0", Some("0")),
    ] {
        assert_eq!(whole_number(text), whole);
    }
    for text in [
        "3.5", "+3", "3e0", "", ".", ".0", "3.0.0", "-1", "06.00", "00.0",
    ] {
        assert_eq!(whole_number(text), None, "{text}");
    }
}

#[test]
fn the_header_label_is_kept_for_writing_back() {
    let d = CustomNames::default();
    let body = "Ann,1,,,\nBob,,2,,\nCy\nDi\n";
    for (label, kept) in [("Employee", "Employee"), ("", ""), ("=cmd()", "staff")] {
        let text = format!("{label},Mo,Tu,We,Th\n{body}");
        let r = &read(&text, &d).unwrap()[0];
        assert_eq!(r.names.corner(), kept);
        let back = super::super::test_util::write(&r.puzzle, &r.names, Layout::Wide);
        assert!(back.starts_with(&format!("{kept},Mo,Tu,We,Th\n")), "{back}");
    }
}

#[test]
fn a_short_row_split_on_another_delimiter_is_refused() {
    // Padding it would lose Ann's shift.
    let text = "staff,Mo,Tu,We,Th\nAnn;1;;;\nBob,,2,,\nCy\nDi\n";
    let e = read_err(text, &CustomNames::default());
    assert!(
        e.to_string()
            .starts_with("line 2: row has 1 fields, expected 5"),
        "{e}"
    );
    // A row that was split, whose name holds another delimiter, is only short.
    let text = "staff\tMo\tTu\tWe\tTh\nSmith, Ann\t1\nBob\nCy\nDi\n";
    let r = &read(text, &CustomNames::default()).unwrap()[0];
    assert_eq!(
        (r.names.staff[0].as_str(), r.puzzle.get(0, 0)),
        ("Smith, Ann", 1)
    );
    // So is a row that is one quoted field: quoted, it was split on the file's delimiter.
    let text = "staff,Mo,Tu,We,Th\nAnn,1,,,\n\"Smith; Bob\"\r\nCy\nDi\n";
    let r = &read(text, &CustomNames::default()).unwrap()[0];
    assert_eq!(r.names.staff[1], "Smith; Bob");
}

#[test]
fn a_delimiter_nothing_settles_is_refused() {
    let text = "staff;Mon, 1 Jan;Tue, 2 Jan;Wed, 3 Jan;Thu, 4 Jan\nAnn\nBob\nCy\nDi\n";
    let e = read_err(text, &CustomNames::default());
    assert!(e.to_string().contains("cannot tell the delimiter"), "{e}");
}

#[test]
fn short_rows_end_in_blanks() {
    // Trailing empty cells left out, as hand edits and some spreadsheets save rows.
    let text = "staff,Mon,Tue,Wed,Thu\nAnn,1,2\nBob\nCy,,,\nDee,,,1,3\n";
    let r = &read(text, &CustomNames::default()).unwrap()[0];
    let want = [1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3];
    assert_eq!(r.puzzle.cells(), want);
    assert_eq!(r.names.staff[1], "Bob");
}

#[test]
fn placed_by_number_means_the_numbers_1_to_n_in_order() {
    let v = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(placed_by_number(Axis::Staff, &v(&["1", "2", "3", "4"])));
    assert!(placed_by_number(
        Axis::Staff,
        &v(&["Staff 1", "staff 2", "3", "STAFF 4"])
    ));
    assert!(placed_by_number(
        Axis::Day,
        &v(&["Day 1", "Day 2", "Day 3", "Day 4"])
    ));
    // A gap, staff IDs or day-of-month numbers are names taken in the file's order.
    assert!(!placed_by_number(Axis::Staff, &v(&["1", "2", "3", "5"])));
    assert!(!placed_by_number(
        Axis::Staff,
        &v(&["1043", "2291", "3310", "4002"])
    ));
    assert!(!placed_by_number(Axis::Day, &v(&["3", "4", "5", "6"])));
    // Zero-padded IDs are names (no roster is written with them).
    assert!(!placed_by_number(
        Axis::Staff,
        &v(&["01", "02", "03", "04"])
    ));
    assert_eq!(default_number(Axis::Staff, "007"), None);
    assert_eq!(default_number(Axis::Staff, "Staff 07"), None);
    assert!(!placed_by_number(Axis::Staff, &v(&["Ann", "2", "3", "4"])));
}

#[test]
fn an_excel_sep_line_names_the_delimiter() {
    let d = CustomNames::default();
    // `sep=;` (Excel's hint) before a header whose days hold commas: the semicolon splits,
    // the hint is no row, and lines count from the file's first.
    let text = "sep=;\r\nstaff;Mon, 1 Jan;Tue, 2 Jan;Wed, 3 Jan;Thu, 4 Jan\r\nA;1;;;\r\nB;;2\r\n\
                C\r\nD;;;;3\r\n";
    let r = &read(text, &d).unwrap()[0];
    assert_eq!(r.names.days[1], "Tue, 2 Jan");
    assert_eq!(
        (r.puzzle.get(0, 0), r.puzzle.get(1, 1), r.puzzle.get(3, 3)),
        (1, 2, 3)
    );
    assert_eq!(r.line, 2);
    // Tab named; a name that merely starts so is a header cell.
    let text = "SEP=\t\nstaff\tMon\tTue\tWed\tThu\nA\t1\nB\nC\nD\n";
    assert_eq!(read(text, &d).unwrap()[0].puzzle.get(0, 0), 1);
    let text = "sep=x,Mon,Tue,Wed,Thu\nA,1,,,\nB,,,,\nC,,,,\nD,,,,\n";
    assert_eq!(read(text, &d).unwrap()[0].names.corner, "sep=x");
}

#[test]
fn delimiter_from_the_first_two_lines() {
    let d = CustomNames::default();
    // As many commas as semicolons in the header: the second line decides, whole or
    // short of its trailing empty fields.
    for row in ["Ann;1;2;;", "Ann;1;2", "Smith, Ann;1;2;;"] {
        let text = format!(
            "staff;Mon, 1 Jan;Tue, 2 Jan;Wed, 3 Jan;Thu, 4 Jan\r\n\r\n{row}\r\nB;;;;\r\nC;;;;\r\nD;;;1;3\r\n"
        );
        let r = &read(&text, &d).unwrap()[0];
        assert_eq!(r.names.days[0], "Mon, 1 Jan", "{row}");
        assert_eq!(r.puzzle.get(0, 1), 2, "{row}");
        assert_eq!(r.puzzle.get(3, 3), 3, "{row}");
    }
    // Commas with a semicolon in a name: the comma still splits the second line alike.
    let text = "staff,Mon;am,Tue,Wed,Thu\nA,1,,,\nB,,,,\nC,,,,\nD,,,,\n";
    assert_eq!(read(text, &d).unwrap()[0].names.days[0], "Mon;am");
    // Tabs with commas in the names.
    let text = "staff\tMon, 1\tTue, 2\tWed, 3\tThu, 4\nA\t\t4\nB\nC\nD\n";
    let r = &read(text, &d).unwrap()[0];
    assert_eq!(
        (r.names.days[3].as_str(), r.puzzle.get(0, 1)),
        ("Thu, 4", 4)
    );
    // A header alone has nothing to look ahead to: the most frequent wins.
    assert_eq!(sniff_delimiter("a;b;c,d", &[]), Some(b';'));
    assert_eq!(sniff_delimiter("a;b,c", &[]), None);
    // A first row with no delimiter at all (short of every field) settles nothing;
    // the rows after it do.
    let head = "staff;Mon, 1 Jan;Tue, 2 Jan;Wed, 3 Jan;Thu, 4 Jan";
    assert_eq!(
        sniff_delimiter(head, &["Ann", "Bob;1;;;", "Cy;;;;"]),
        Some(b';')
    );
    assert_eq!(sniff_delimiter(head, &["Ann", "Bob"]), None);
}

#[test]
fn error_positions() {
    let d = CustomNames::default();
    let head = "staff,Day 1,Day 2,Day 3,Day 4\n";
    let cases: &[(String, &str)] = &[
        (String::new(), "line 1: no roster found: the input is empty"),
        (
            "1 2 3 4\n".into(),
            "line 1: the header has 1 field: a wide roster's header",
        ),
        ("a,b,c\n".into(), "line 1: the header has 3 fields"),
        (
            "s,1,2,3,4,5,6,7,8\n".into(),
            "line 1: 8 day columns: unsupported size 8x8: supported sizes are 4x4, 9x9, 16x16, \
             25x25, 36x36, 49x49, 64x64, 81x81, 100x100; a 9x9 roster has 9 days: one is \
             missing?",
        ),
        (
            "staff,Mo,Tu,We,Th,Notes\n".into(),
            "line 1, field 6: 5 day columns: unsupported size 5x5: supported sizes are 4x4, \
             9x9, 16x16, 25x25, 36x36, 49x49, 64x64, 81x81, 100x100; a 4x4 roster has 4 days: \
             is \"Notes\" one? (remove the columns that are not days)",
        ),
        (
            "staff,Mo,Tu,We,,Th\n".into(),
            "line 1, field 5: 5 day columns: unsupported size 5x5: supported sizes are 4x4, \
             9x9, 16x16, 25x25, 36x36, 49x49, 64x64, 81x81, 100x100; one of them has no name \
             (a column added by mistake?)",
        ),
        (
            "staff,Mo,Tu,We,Th,Fr,Sa\n".into(),
            "line 1, field 6: 6 day columns: unsupported size 6x6: supported sizes are 4x4, \
             9x9, 16x16, 25x25, 36x36, 49x49, 64x64, 81x81, 100x100; a 4x4 roster has 4 days: \
             are \"Fr\", \"Sa\" days? (remove the columns that are not days)",
        ),
        (
            format!("{head}A,,,,,x\n"),
            "line 2, field 6: row has 6 fields, expected 5",
        ),
        (
            format!("{head}A,,Shift 5,,\n"),
            "line 2, field 3: unknown shift \"Shift 5\": expected \"Shift 1\" to \"Shift 4\"",
        ),
        (
            format!("{head}A,,,,\nB,,,,\nA,,,,\n"),
            "line 4, field 1: staff \"A\" has a second row (the first is on line 2)",
        ),
        (
            format!("{head}A,,,,\nB,,,,\nC,,,,\nD,,,,\nE,,,,\n"),
            "line 6: 5 staff rows, but a 4x4 roster has 4 staff",
        ),
        (
            format!("{head}A,,,,\nB,,,,\n"),
            "line 3: 2 staff rows, but a 4x4 roster has 4 staff",
        ),
        (
            "staff,Mon,Tue,Mon,Thu\n".into(),
            "line 1, field 4: day \"Mon\" has a second column (the first is field 2)",
        ),
        (
            "staff,Mon,Tue,=Wed(),Thu\n".into(),
            "line 1, field 4: day \"=Wed()\" starts with '='",
        ),
        (
            format!("{head}@A,,,,\n"),
            "line 2, field 1: staff \"@A\" starts with '@'",
        ),
        (
            format!("{head}A,1,,,\nB,,,,\nC,,,,\nD,1,,,\n"),
            "line 5, field 2: shift \"1\" is given twice on day \"Day 1\" (also at \
             line 2, field 2)",
        ),
        (
            format!("{head}A,1,,,\nB,,1,,\nC,,,,\nD,,,,\n"),
            "line 3, field 3: shift \"1\" is given twice in the block of staff \"A\" \
             to \"B\" and days \"Day 1\" to \"Day 2\" (also at line 2, field 2)",
        ),
        (
            "staff,day,shift\n1,1,1\n1,1,1\n1,1,2\n".into(),
            "line 4: staff \"Staff 1\" on day \"Day 1\" is assigned a second time \
             (first on line 2)",
        ),
        (
            "staff,day,shift\n1,1,1\n2,2,1\n".into(),
            "line 3, field 3: shift \"1\" is given twice in the block",
        ),
        (
            "grid,staff,day,shift\n+1,1,1,1\n".into(),
            "line 2, field 1: grid label \"+1\" starts with '+'",
        ),
        (
            "grid,staff,day,shift\n".into(),
            "line 1: no roster found: the header is not followed by any row",
        ),
        (
            "staff,day,shift\n1,1,1,x\n".into(),
            "line 2, field 4: row has 4 fields, expected 3 (staff, day, shift)",
        ),
        (
            format!("{head}A,\"unclosed,,,\n"),
            "line 2, field 2: malformed CSV: a quoted field is not closed on its line",
        ),
        (
            "staff,a\u{1}b\n".into(),
            "line 1, field 2: input is not CSV text: control character U+0001 at column 8",
        ),
    ];
    for (text, want) in cases {
        let e = read_err(text, &d);
        assert!(
            e.to_string().starts_with(want),
            "{text:?}:\n got {e}\nwant {want}"
        );
    }
    let e = read_rosters(b"staff,\xfe\n", &d).unwrap_err();
    assert_eq!((e.line, e.field), (1, Some(2)));
    assert!(e.to_string().contains("0xFE at column 7"), "{e}");
    // The field is told by the delimiter, quotes and all.
    let e = read_rosters(b"staff;\"a;b\";c\xfe\n", &d).unwrap_err();
    assert_eq!((e.line, e.field), (1, Some(3)));
    let e = read_rosters(b"staff,D1,D2,D3,D4\nA,1,\"x,\x01\"\n", &d).unwrap_err();
    assert_eq!((e.line, e.field), (2, Some(3)));
}

#[test]
fn line_numbers_with_crlf_and_no_quoted_line_breaks() {
    let d = CustomNames::default();
    for end in ["\n", "\r\n"] {
        let text = [
            "staff,day,shift",
            "1,1,1",
            "",
            "\"2\",\"Day",
            "1\",1",
            "1,1,3",
        ]
        .join(end);
        let e = read_err(&text, &d);
        // A quoted field may not span lines 4-5 (no name holds a line break): the
        // reader stops on line 4 instead of holding the rest of the file.
        assert_eq!((e.line, e.field), (4, Some(2)), "{end:?}: {e}");
        assert!(e.to_string().contains("not closed on its line"), "{e}");
        let text = ["staff,day,shift", "1,1,1", "", "2,2,1", "1,1,3"].join(end);
        let e = read_err(&text, &d);
        assert_eq!(e.line, 5, "{end:?}: {e}");
    }
}

#[test]
fn custom_names_match_in_any_case_when_that_is_unambiguous() {
    let custom = CustomNames {
        shifts: Some(list("sh.txt", &["Early", "Late", "Night", "late"])),
        ..CustomNames::default()
    };
    let head = "staff,Mo,Tu,We,Th\n";
    let r = &read(
        &format!("{head}A,EARLY,Night,late,Late\nB\nC\nD\n"),
        &custom,
    )
    .unwrap()[0];
    assert_eq!(&r.puzzle.cells()[..4], [1, 3, 4, 2]);
    // `LATE` could be either of two names: refused, as before.
    let e = read_err(&format!("{head}A,LATE\nB\nC\nD\n"), &custom);
    assert!(e.to_string().contains("unknown shift \"LATE\""), "{e}");
}

#[test]
fn name_lists_must_fit_the_roster() {
    let custom = CustomNames {
        shifts: Some(list("sh.txt", &["E", "L", "N"])),
        ..CustomNames::default()
    };
    let e = read_err("staff,Day 1,Day 2,Day 3,Day 4\n", &custom);
    assert_eq!(
        e.to_string(),
        "line 1: sh.txt: holds 3 names, but a 4x4 roster has 4 shifts"
    );
}

#[test]
fn shift_names_of_its_own_are_read_without_a_list() {
    // A roster written with shift names reads back without the list: the names it uses,
    // as many as its size, in order of first appearance, in any letter case.
    let shape = crate::grid::Shape::new(2).unwrap();
    let puzzle =
        crate::grid::Puzzle::new(shape, vec![1, 0, 0, 4, 0, 0, 1, 0, 0, 1, 0, 0, 4, 0, 2, 3])
            .unwrap();
    let listed = CustomNames {
        shifts: Some(list("shifts.txt", &["Early", "Late", "Night", "Off"])),
        ..CustomNames::default()
    };
    let names = Names::new(shape, &listed).unwrap();
    for layout in [Layout::Wide, Layout::Long] {
        let text = super::super::test_util::write(&puzzle, &names, layout);
        let text = text.replacen("Off", "OFF", 1);
        let r = &read(&text, &CustomNames::default()).unwrap()[0];
        // First appearance: Early (1), Off (4), Late (2), Night (3) in both layouts.
        assert_eq!(
            r.names.shifts,
            ["Early", "OFF", "Late", "Night"],
            "{layout:?}"
        );
        let relabel = [0, 1, 3, 4, 2];
        let expected: Vec<u8> = puzzle
            .cells()
            .iter()
            .map(|&v| relabel[usize::from(v)])
            .collect();
        assert_eq!(r.puzzle.cells(), &expected[..], "{layout:?}");
        // Written back, it says what the input said.
        let back = super::super::test_util::write(&r.puzzle, &r.names, layout);
        assert_eq!(back.to_lowercase(), text.to_lowercase(), "{layout:?}");
    }
    // Fewer names than the size: refused where the first is.
    let e = read_err(
        "staff,day,shift\nStaff 1,Day 1,Early\nStaff 2,Day 2,Late\nStaff 4,Day 4,\n",
        &CustomNames::default(),
    );
    assert_eq!((e.line, e.field), (2, Some(3)));
    assert!(
        e.to_string()
            .contains("names 2 shifts of its own (\"Early\", \"Late\")"),
        "{e}"
    );
    // A formula is no name, here as anywhere.
    let e = read_err(
        "staff,1,2,3,4\n1,=1+1,,,\n2\n3\n4\n",
        &CustomNames::default(),
    );
    assert!(
        e.to_string().contains("shift \"=1+1\" starts with '='"),
        "{e}"
    );
}

#[test]
fn a_file_without_a_header_is_named_as_such() {
    // The first staff row read as the header leaves one row short: the error says why.
    let text = "Staff 1,1,3,4,2\nStaff 2,2,4,1,3\nStaff 3,3,1,2,4\nStaff 4,4,2,3,1\n";
    let e = read_err(text, &CustomNames::default()).to_string();
    assert!(
        e.contains("3 staff rows, but a 4x4 roster has 4 staff"),
        "{e}"
    );
    assert!(e.contains("reads like a staff row"), "{e}");
    // A roster merely one row short, with days of its own, gets no such guess.
    let e = read_err(
        "staff,Mon,Tue,Wed,Thu\nA,1,,,\nB,,,,\nC,,,,\n",
        &CustomNames::default(),
    );
    assert!(!e.to_string().contains("reads like"), "{e}");
}

#[test]
fn one_shift_name_short_and_names_over_the_grids_of_a_file() {
    // A unique 4x4 puzzle may use three of its four shifts: the fourth is `Shift 4`.
    let text = "staff,Mon,Tue,Wed,Thu\nA,Early,,,Late\nB,,Night,,\nC,,,,\nD,Late,,,\n";
    let r = &read(text, &CustomNames::default()).unwrap()[0];
    assert_eq!(r.names.shifts, ["Early", "Late", "Night", "Shift 4"]);
    assert_eq!(
        (r.puzzle.get(0, 0), r.puzzle.get(0, 3), r.puzzle.get(1, 1)),
        (1, 2, 3)
    );
    // In a long file the names are gathered over its grids: grid 2 names two, grid 1 the
    // others, and both read with the same four.
    let text = "grid,staff,day,shift\n1,Staff 1,Day 1,Early\n1,Staff 2,Day 3,Late\n\
                1,Staff 4,Day 4,\n2,Staff 1,Day 1,Night\n2,Staff 2,Day 2,Off\n2,Staff 4,Day 4,\n";
    let rs = read(text, &CustomNames::default()).unwrap();
    for r in &rs {
        assert_eq!(r.names.shifts, ["Early", "Late", "Night", "Off"]);
    }
    assert_eq!((rs[1].puzzle.get(0, 0), rs[1].puzzle.get(1, 1)), (3, 4));
    // Own names tell the size too: nine of them in a file whose staff and days number 4.
    let mut text = String::from("staff,day,shift\n");
    for (k, name) in ["A", "B", "C", "D", "E", "F", "G", "H", "I"]
        .iter()
        .enumerate()
    {
        text += &format!(
            "Staff {},Day {},{name}\n",
            k / 3 * 3 + 1,
            k % 3 * 3 + 1 + k / 3
        );
    }
    text += "Staff 4,Day 4,A\n";
    let r = &read(&text, &CustomNames::default()).unwrap()[0];
    assert_eq!(r.puzzle.shape().side(), 9);
}

#[test]
fn own_shift_names_round_trip_and_typos_are_caught() {
    // Solved with one name short, the last shift is written `Shift 4`: it reads back.
    let text = "staff,Mon,Tue,Wed,Thu\nA,Early,Off,Late,Shift 4\nB,Late,Shift 4,Early,Off\n\
                C,Off,Early,Shift 4,Late\nD,Shift 4,Late,Off,Early\n";
    let r = &read(text, &CustomNames::default()).unwrap()[0];
    assert_eq!(r.names.shifts, ["Early", "Off", "Late", "Shift 4"]);
    assert_eq!(r.puzzle.givens(), 16);
    // A typo that would pass for the missing shift is named instead.
    let text = "staff,Mon,Tue,Wed,Thu\nA,Early,,,\nB,,Late,,\nC,,,Off,\nD,,,,Earl\n";
    let e = read_err(text, &CustomNames::default());
    assert_eq!((e.line, e.field), (5, Some(5)));
    assert!(
        e.to_string().contains(
            "shift \"Earl\" (used once) looks like \"Early\" (used once, first on line 2, \
             field 2) misspelt"
        ),
        "{e}"
    );
    // The slip is the name used less, wherever it comes: here first, and the name one too
    // many of a full 4x4 roster is met after it.
    let text = "staff,Mon,Tue,Wed,Thu\nA,Erly,Off,Late,Night\nB,Late,Early,Night,Off\n\
                C,Off,Night,Early,Late\nD,Night,Late,Off,Early\n";
    let e = read_err(text, &CustomNames::default());
    assert_eq!((e.line, e.field), (2, Some(2)), "{e}");
    assert!(
        e.to_string()
            .contains("shift \"Erly\" (used once) looks like \"Early\" (used 3 times"),
        "{e}"
    );
    // One name too many and no look-alike: the least used is named, where it is.
    let text = "staff,Mon,Tue,Wed,Thu\nA,Early,Off,Late,Night\nB,Late,-,Night,Off\n\
                C,Off,Night,Early,Late\nD,Night,Late,Off,Early\n";
    let e = read_err(text, &CustomNames::default());
    assert_eq!((e.line, e.field), (3, Some(3)), "{e}");
    assert!(
        e.to_string()
            .contains("but a 4x4 roster has 4: \"-\" is the least used (once, here)"),
        "{e}"
    );
    // Names used as little as each other: none is singled out; the error is where the name
    // one too many is met.
    let text = "staff,Mon,Tue,Wed,Thu\nA,a1,,,\nB,,b2,,\nC,c3,,,d4\nD,,e5,,\n";
    let e = read_err(text, &CustomNames::default());
    assert_eq!((e.line, e.field), (5, Some(3)), "{e}");
    assert!(!e.to_string().contains("least used"), "{e}");
    // A name spelt in two letter cases is one shift, written as most cells spell it,
    // wherever the other spelling comes first.
    let text = "staff,Mon,Tue,Wed,Thu\nA,EARLY,,,\nB,,Late,Early,\nC,,Early,Off,\nD,,,,\n";
    let r = &read(text, &CustomNames::default()).unwrap()[0];
    assert_eq!(r.names.shifts, ["Early", "Late", "Off", "Shift 4"]);
    // Names that merely share a start are distinct shifts.
    let text = "staff,Mon,Tue,Wed,Thu\nA,Day,,,\nB,,Day off,,\nC,,,Night,\nD,,,,\n";
    assert_eq!(
        read(text, &CustomNames::default()).unwrap()[0].names.shifts,
        ["Day", "Day off", "Night", "Shift 4"]
    );
    // Names apart by digits are distinct shifts (`Bed 1`, `Bed 11`), and so are look-alikes
    // in a full roster, where every shift is used as often as the others.
    let text = "staff,Mon,Tue,Wed,Thu\nA,Bed 1,,,\nB,,Bed 11,,\nC,,,Bed 2,\nD,,,,\n";
    let r = &read(text, &CustomNames::default()).unwrap()[0];
    assert_eq!(r.names.shifts, ["Bed 1", "Bed 11", "Bed 2", "Shift 4"]);
    let text = "staff,Mon,Tue,Wed,Thu\nA,Day,Days,Off,On\nB,Off,On,Day,Days\n\
                C,Days,Day,On,Off\nD,On,Off,Days,Day\n";
    let r = &read(text, &CustomNames::default()).unwrap()[0];
    assert_eq!(r.names.shifts, ["Day", "Days", "Off", "On"]);
}

#[test]
fn blanks_before_an_opening_quote_are_dropped() {
    use super::unspace_quotes;
    for (line, want) in [
        (r#"Ann, "Ea,rly",Late"#, r#"Ann,"Ea,rly",Late"#),
        (r#"Ann,  "a""b" ,  c"#, r#"Ann,"a""b" ,  c"#),
        // A quote inside a field, or inside a quoted field, is left alone.
        (r#"Ann, x "y", "z, w""#, r#"Ann, x "y","z, w""#),
        (r#"" a, "b","c""#, r#"" a, "b","c""#),
        // Empty fields, and a tab as the delimiter (then blanks are spaces only).
        (r#", ,, "d""#, r#", ,,"d""#),
    ] {
        assert_eq!(unspace_quotes(line, b','), want, "{line}");
    }
    assert_eq!(unspace_quotes("Ann\t \"x\ty\"", b'\t'), "Ann\t\"x\ty\"");
    assert_eq!(unspace_quotes("Ann,\t\"x,y\"", b','), "Ann,\"x,y\"");
}

#[test]
fn a_quote_after_a_blank_that_does_not_close_stays_text() {
    // A free-text note in an ignored column: the quote after the blank opens nothing.
    let text = "staff,day,shift,note\nStaff 1,Day 1,1, \"ask HR\n";
    let r = &read(text, &CustomNames::default()).unwrap()[0];
    assert_eq!(r.puzzle.get(0, 0), 1);
}

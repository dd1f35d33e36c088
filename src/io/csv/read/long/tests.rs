//! Tests of the long layout: numbers and names of its own, sizes, typos, repeated rows.

use crate::grid::Puzzle;
use crate::io::csv::test_util::{list, read, read_err, s2};
use crate::io::csv::{CsvErrorKind, CustomNames};

#[test]
fn numbers_and_case_for_default_names() {
    let text = "staff,day,shift\nstaff 1,DAY 1,3\n2,Day2,shift 4\n";
    let r = &read(text, &CustomNames::default()).unwrap()[0];
    assert_eq!(r.puzzle.get(0, 0), 3);
    assert_eq!(r.puzzle.get(1, 1), 4);
    // With a shift list, numbers are names like any other: unknown.
    let custom = CustomNames {
        shifts: Some(list("sh.txt", &["E", "L", "N", "O"])),
        ..CustomNames::default()
    };
    let e = read_err(text, &custom);
    assert_eq!(
        e.to_string(),
        "line 2, field 3: unknown shift \"3\": expected one of \"E\", \"L\", \"N\", \"O\" \
         (from sh.txt)"
    );
}

#[test]
fn long_size_is_inferred_or_from_lists() {
    let text = "staff,day,shift\nStaff 1,Day 1,Shift 5\n";
    assert_eq!(
        read(text, &CustomNames::default()).unwrap()[0]
            .puzzle
            .shape()
            .side(),
        9
    );
    let text = "staff,day,shift\nStaff 1,Day 1,Shift 101\n";
    let e = read_err(text, &CustomNames::default());
    assert_eq!((e.line, e.field), (2, Some(3)));
    // Names of its own must be as many as a roster has, every one listed.
    let e = read_err(
        "staff,day,shift\nAnn,Day 1,Shift 1\n",
        &CustomNames::default(),
    );
    assert!(e.to_string().contains("the file names 1 staff"), "{e}");
}

#[test]
fn names_of_its_own_are_placed_in_the_order_the_file_gives() {
    let d = CustomNames::default();
    // The first row's staff member (Ann) names every day, blanks included, and the
    // first row's day (Mo) every staff member; columns in any order, a note ignored.
    let text = "day,shift,staff,note\nMo,,Ann,x\nTu,2,Ann,\nWe,,Ann\nTh,4,Ann\n\
                Mo,,Bo\nMo,3,Cy,late\nTh,1,Cy\nMo,,Di\nWe,1,Bo\n";
    let r = &read(text, &d).unwrap()[0];
    assert_eq!(r.names.staff(), ["Ann", "Bo", "Cy", "Di"]);
    assert_eq!(r.names.days(), ["Mo", "Tu", "We", "Th"]);
    let want = [0, 2, 0, 4, 0, 0, 1, 0, 3, 0, 0, 1, 0, 0, 0, 0];
    assert_eq!(r.puzzle.cells(), want);
    // Without the first day's full list, the staff order is unknown: refused, not
    // guessed.
    let text = "staff,day,shift\nAnn,Mo,\nAnn,Tu,2\nAnn,We,\nAnn,Th,4\nBo,Mo,\n\
                Cy,Th,1\nDi,Mo,\n";
    let e = read_err(text, &d);
    assert!(
        e.to_string().starts_with(
            "line 2: the order of the staff is not given: the rows of \"Mo\", the first \
             row's day, name 3 of the 4 staff"
        ),
        "{e}"
    );
    // Numbered days with own staff names: the days by number.
    let text = "staff,day,shift\nAnn,2,1\nBo,2,\nCy,2,\nDi,2,\nAnn,1,\n";
    let r = &read(text, &d).unwrap()[0];
    assert_eq!(r.names.staff(), ["Ann", "Bo", "Cy", "Di"]);
    assert_eq!(r.puzzle.get(0, 1), 1);
    // Different counts of staff and days.
    let text = "staff,day,shift\nA,x,\nB,x,\nC,x,\nD,x,\nA,y,\n";
    let e = read_err(text, &d);
    assert!(e.to_string().contains("4 staff but 2 days"), "{e}");
}

#[test]
fn names_of_its_own_must_match_the_lists_and_typos_are_named() {
    let staff = CustomNames {
        staff: Some(list("st", &["Ann", "Bob", "Cy", "Di"])),
        ..CustomNames::default()
    };
    // Five days of its own, or two, where the staff list makes a 4x4 roster: refused
    // (five used to index past the end; two made up "Day 3" and "Day 4").
    let five = "staff,day,shift\nAnn,Mo,1\nAnn,Tu,\nAnn,We,\nAnn,Th,\nAnn,Fr,\n";
    let e = read_err(five, &staff);
    assert!(
        e.to_string()
            .contains("names 5 days, but its name lists make it a 4x4"),
        "{e}"
    );
    let e = read_err("staff,day,shift\nAnn,Mo,1\nAnn,Tu,2\n", &staff);
    assert!(e.to_string().contains("names 2 days"), "{e}");
    // A numbered file with one typo: the typo is named, on its line.
    let d = CustomNames::default();
    let e = read_err("staff,day,shift\n1,1,1\n2,2,2\nNobody,3,3\n", &d);
    assert_eq!((e.line, e.field), (4, Some(1)));
    assert!(e.to_string().contains("unknown staff \"Nobody\""), "{e}");
    // Own names that include a default-looking one ("1") read back in the file's order
    // when every cell has a row (as the writer writes them); with fewer rows, "Bob"
    // after "1" is taken for a typo.
    let mut text = String::from("staff,day,shift\n");
    for staff in ["1", "Bob", "Cy", "Di"] {
        for day in ["Mo", "Tu", "We", "Th"] {
            text.push_str(&format!("{staff},{day},\n"));
        }
    }
    let r = &read(&text, &d).unwrap()[0];
    assert_eq!(r.names.staff(), ["1", "Bob", "Cy", "Di"]);
    let text = "staff,day,shift\n1,Mo,1\n1,Tu,\n1,We,\n1,Th,\nBob,Mo,\nCy,Mo,\nDi,Mo,\n";
    let e = read_err(text, &d);
    assert!(e.to_string().contains("unknown staff \"Bob\""), "{e}");
    // A misspelt name beside four good ones: the one the ordering rows leave out is named,
    // on its line and field, for staff (with or without lists) and days.
    let five = "staff,day,shift\nAnn,Mon,1\nAnn,Tue,\nAnn,Wed,\nAnn,Thu,\nBob,Mon,\nCat,Mon,\n\
                Dee,Mon,\nDee,Thu,4\nBbo,Wed,2\n";
    let days = CustomNames {
        days: Some(list("d", &["Mon", "Tue", "Wed", "Thu"])),
        ..CustomNames::default()
    };
    for custom in [&d, &days] {
        let e = read_err(five, custom);
        assert_eq!((e.line, e.field), (10, Some(1)), "{e}");
        assert!(
            e.to_string()
                .contains("staff \"Bbo\" is not among the 4 staff on the rows of \"Mon\""),
            "{e}"
        );
    }
    // Too few names: no one is blamed.
    let few = "staff,day,shift\nAnn,Mon,1\nAnn,Tue,\nAnn,Wed,\nAnn,Thu,\nBob,Mon,\nCat,Tue,2\n";
    let e = read_err(few, &d);
    assert!(e.to_string().contains("names 3 staff but 4 days"), "{e}");
    let e = read_err(&five.replace("Bbo,Wed", "Bob,Frii"), &d);
    assert_eq!((e.line, e.field), (10, Some(2)), "{e}");
    assert!(
        e.to_string()
            .contains("day \"Frii\" is not among the 4 days on the rows of \"Ann\""),
        "{e}"
    );
}

#[test]
fn spellings_of_one_number_are_one_name_and_blanks_give_way() {
    let d = CustomNames::default();
    // Every staff member and day of a 100x100 written twice, as `k` and `Staff k`.
    let mut text = String::from("staff,day,shift\n");
    for k in 1..=100 {
        text.push_str(&format!("{k},{k},\nStaff {k},{},\n", k % 100 + 1));
    }
    let r = &read(&text, &d).unwrap()[0];
    assert_eq!(r.puzzle.shape().side(), 100);
    // A shift added after the cell's blank row (appended to an exported file), and a
    // blank after a shift: the shift stands either way.
    let text = "staff,day,shift\n1,1,\n1,1,2\n2,2,3\n2,2,\n4,4,\n";
    let r = &read(text, &d).unwrap()[0];
    assert_eq!((r.puzzle.get(0, 0), r.puzzle.get(1, 1)), (2, 3));
}

#[test]
fn empty_long_needs_names() {
    let e = read_err("staff,day,shift\n", &CustomNames::default());
    assert_eq!(e.kind, CsvErrorKind::UnknownSize);
    let custom = CustomNames {
        staff: Some(list("s", &["A", "B", "C", "D"])),
        ..CustomNames::default()
    };
    let r = &read("staff,day,shift\n", &custom).unwrap()[0];
    assert_eq!(r.puzzle, Puzzle::empty(s2()));
}

#[test]
fn a_repeated_header_is_skipped() {
    // Two long files joined with `cat`, as the parts of a batch run in shards.
    let part =
        |g: usize| format!("grid,staff,day,shift\n{g},Staff 1,Day 1,{g}\n{g},Staff 4,Day 4,\n");
    let joined = format!("{}\u{feff}{}", part(1), part(2).to_uppercase());
    let rosters = read(&joined, &CustomNames::default()).unwrap();
    assert_eq!(rosters.len(), 2);
    assert_eq!(rosters[1].label.as_deref(), Some("2"));
    assert_eq!(rosters[1].puzzle.get(0, 0), 2);
    // Without a grid column, the rows of both are one roster.
    let text = "staff,day,shift\nStaff 1,Day 1,1\nstaff,day,shift,,\nStaff 2,Day 3,1\n";
    let r = &read(text, &CustomNames::default()).unwrap()[0];
    assert_eq!((r.puzzle.get(0, 0), r.puzzle.get(1, 2)), (1, 1));
}

#[test]
fn staff_and_day_columns_under_the_names_rostering_tools_give_them() {
    // Employee,Date,Shift with other columns, as rostering tools export.
    let text = "Employee,Date,Shift,Location\nAnn,Mon,1,x\nAnn,Tue,,\nAnn,Wed,,\nAnn,Thu,,\n\
                Bob,Mon,,\nCat,Mon,,\nDee,Mon,2,\n";
    let r = &read(text, &CustomNames::default()).unwrap()[0];
    assert_eq!((r.puzzle.get(0, 0), r.puzzle.get(3, 0)), (1, 2));
    assert_eq!(r.names.staff[1], "Bob");
    assert_eq!(r.names.days[3], "Thu");
    // A column named `staff` wins over `Name`; two other names of one column are no
    // long header (read as wide, and refused here for its width).
    let text = "name,staff,day,shift\nx,Staff 1,Day 1,1\n";
    assert_eq!(
        read(text, &CustomNames::default()).unwrap()[0]
            .puzzle
            .get(0, 0),
        1
    );
    assert!(
        read(
            "employee,name,date,shift\nA,A,Day 1,1\n",
            &CustomNames::default()
        )
        .is_err()
    );
}

#[test]
fn names_listed_in_different_orders_are_refused() {
    let d = CustomNames::default();
    // A roster sorted by shift: Ann's rows give the days Mo, Tu, We, Th, but Bo's list
    // Th before Tu. Taking Ann's order would have placed the rest silently.
    let sorted = "staff,day,shift\nAnn,Mo,1\nBo,Th,1\nCy,Tu,1\nDi,We,1\nAnn,Tu,2\n\
                  Bo,We,2\nCy,Th,2\nDi,Mo,2\nAnn,We,3\nBo,Tu,3\nCy,Mo,3\nDi,Th,3\n\
                  Ann,Th,4\nBo,Mo,4\nCy,We,4\nDi,Tu,4\n";
    let e = read_err(sorted, &d);
    assert_eq!(e.line, 6, "{e}");
    assert!(
        e.to_string()
            .starts_with("line 6: the rows list the staff in different orders"),
        "{e}"
    );
    // With the staff listed, the days are the ones in doubt.
    let staff = CustomNames {
        staff: Some(list("staff.txt", &["Ann", "Bo", "Cy", "Di"])),
        ..CustomNames::default()
    };
    let e = read_err(sorted, &staff);
    assert_eq!(e.line, 7, "{e}");
    assert!(
        e.to_string().contains("\"Bo\" have \"We\" after \"Th\""),
        "{e}"
    );
    // A library error names no command-line flag (the CLI adds `--days FILE`).
    assert!(e.to_string().ends_with("with a name list"), "{e}");
    assert!(!e.to_string().contains("--"), "{e}");
    // Days named by dates are no exception: the rows' order is the order, and rows that
    // disagree are refused (a roster written with dates out of order reads back as written).
    let dated = sorted
        .replace("Mo", "2026-12-07")
        .replace("Tu", "2026-12-08")
        .replace("We", "2026-12-09")
        .replace("Th", "2026-12-10");
    let e = read_err(&dated, &staff);
    assert_eq!(e.line, 7, "{e}");
    let reversed = "staff,day,shift\nAnn,2026-12-10,4\nAnn,2026-12-09,3\nAnn,2026-12-08,2\n\
                    Ann,2026-12-07,1\nBo,2026-12-10,1\n";
    let r = &read(reversed, &staff).unwrap()[0];
    assert_eq!(r.names.days()[0], "2026-12-10");
    assert_eq!(r.puzzle.cells()[..5], [4, 3, 2, 1, 1]);
    // A file whose every staff member lists the days in one order keeps it, sorted by
    // day name or not (the order a long export of the roster writes).
    let by_staff = "staff,day,shift\nBo,Mo,4\nBo,Tu,3\nAnn,Mo,1\nAnn,Tu,2\nBo,We,2\nBo,Th,1\n\
                    Ann,We,3\nAnn,Th,4\nCy,Mo,3\nDi,Mo,2\n";
    let r = &read(by_staff, &staff).unwrap()[0];
    assert_eq!(r.names.days(), ["Mo", "Tu", "We", "Th"]);
}

#[test]
fn a_value_under_an_unnamed_column_of_a_short_row_is_out_of_place() {
    let d = CustomNames::default();
    // The shift sits under the header's empty third column, and the row stops before
    // the shift column: read padded, every shift would be blank.
    let e = read_err("staff,day,,shift\nStaff 1,Day 3,Shift 3\n", &d);
    assert_eq!((e.line, e.field), (2, Some(3)), "{e}");
    assert!(
        e.to_string()
            .contains("\"Shift 3\" is under a column the header does not name"),
        "{e}"
    );
    // A full row is fine (the unnamed column is ignored), and so is an unnamed first
    // column (pandas' index) before a short row.
    let r = &read("staff,day,,shift\nStaff 1,Day 3,x,Shift 3\n", &d).unwrap()[0];
    assert_eq!(r.puzzle.get(0, 2), 3);
    let r = &read(",staff,day,shift\n0,Staff 1,Day 3,3\n1,Staff 2,Day 1\n", &d).unwrap()[0];
    assert_eq!((r.puzzle.get(0, 2), r.puzzle.get(1, 0)), (3, 0));
    // Any value there in a short row is refused, a note as much as a shift: which it is
    // would be a guess (and shift names of the file's own look like notes).
    let note = "staff,day,,shift\nStaff 1,Day 3,,2\nStaff 2,Day 1,sick\n";
    let e = read_err(note, &d);
    assert_eq!((e.line, e.field), (3, Some(3)), "{e}");
    let e = read_err(
        "id,,staff,day,shift\n1,a,Staff 1,Day 3,2\n2,b,Staff 2,Day 1\n",
        &d,
    );
    assert_eq!((e.line, e.field), (3, Some(2)), "{e}");
    // A note in a row that reaches its shift column is fine.
    let r = &read("staff,day,,shift\nStaff 1,Day 3,sick,2\n", &d).unwrap()[0];
    assert_eq!(r.puzzle.get(0, 2), 2);
}

#[test]
fn codes_of_seven_digits_or_more_are_names() {
    let d = CustomNames::default();
    // Six digits or fewer are numbers: out of range, an unknown shift on its own line.
    let e = read_err(
        "staff,day,shift\nStaff 1,Day 1,1\nStaff 1,Day 2,999999\n",
        &d,
    );
    assert_eq!((e.line, e.field), (3, Some(3)), "{e}");
    assert!(e.to_string().contains("unknown shift \"999999\""), "{e}");
    // Longer ones are codes of the roster's own, for shifts as for staff.
    let text = "staff,day,shift\n1234567,Day 1,1000001\n2345678,Day 1,1000002\n\
                3456789,Day 1,1000003\n4567890,Day 1,1000004\n";
    let r = &read(text, &d).unwrap()[0];
    assert_eq!(r.names.staff()[0], "1234567");
    assert_eq!(r.names.shifts()[3], "1000004");
}

//! Rosters as CSV: grids and puzzles written for spreadsheets and rostering tools, and roster
//! CSVs read back as puzzles to complete.
//!
//! A roster names its three axes: the rows are **staff**, the columns are **days** and the
//! symbols are **shifts**. [`Names`] holds one name per staff member, day and shift; by default
//! `Staff 1…N`, `Day 1…N` and `Shift 1…N`, and otherwise from [`NameList`]s (one name per line,
//! see [`NameList::parse`]).
//!
//! # Layouts
//!
//! - [`Layout::Wide`], what people read: a header `staff,<day 1>,…,<day N>`, then one row per
//!   staff member, `<staff>,<shift>,…,<shift>`, with an empty cell for a blank.
//! - [`Layout::Long`], what rostering tools import: a header `staff,day,shift`, then one row per
//!   assignment, blank cells left out, except that a blank last cell (the last staff
//!   member's last day) is written with an empty shift, so that the file tells its size,
//!   and so are the first staff member's and the first day's blanks when the staff or days
//!   have names of the roster's own (not `Staff 1`…, `Day 1`… in order), so that the file
//!   names every one of them in order and reads back without name lists (staff with no
//!   shift are not lost); every blank, when some of those names could pass for numbers.
//!   [`LongWriter`] puts several grids in one file by adding a leading `grid` column
//!   (`grid,staff,day,shift`) that labels each row's grid. A wide file holds exactly one
//!   grid, because CSV has no way to separate tables that every reader understands.
//!
//! Records end with `\n` and fields are separated by commas, or as a [`Dialect`] says
//! ([`write_roster_as`], [`LongWriter::with_dialect`]: `;` or tab, CRLF, a byte-order mark;
//! [`Roster::dialect`] is a file's own, so a roster goes back as it came). Fields are quoted
//! only where CSV needs it (the delimiter, a quote or a line break), by the `csv` crate, or
//! every field of a wide roster whose header holds one of the other delimiters.
//!
//! A roster whose shifts are all written as plain numbers (`3`), read without a shift
//! list, has the numbers as its shift names, and so is written back with numbers.
//!
//! # Reading (roster completion)
//!
//! [`read_rosters`] takes a wide or long CSV with some shifts filled in and the rest blank and
//! gives the puzzles. The layout is told by the header: one that names the columns `staff`,
//! `day` and `shift` once each (and `grid` at most once), in any order and letter case, is
//! long, and its other columns (a note, say) are ignored; where no column is named `staff`
//! or `day`, one named as rostering tools export it stands in (`employee`, `person`,
//! `worker`, `name` or `staff member`; `date` or `shift date`), if only one does; anything else is wide (its first
//! header cell labels the staff column: it is kept in [`Names::corner`] and written back,
//! `Employee` or empty as it was). The delimiter is one of `,`, `;` and tab, so
//! spreadsheets that save with `;` or tabs are read too: the one that occurs in the first
//! line (outside quotes), and when more than one does (days named `Mon, 1 Jan` in a `;`
//! file), the one of those that splits the most of the next five lines into as many
//! fields, else that occurs most in them, else the most frequent in the first line; when
//! two stay level the file is refused (nothing is guessed). A first line `sep=;` (`sep=,`,
//! `sep=` and a tab), which Excel writes to say which one a file uses, names it and is no
//! row. Fields are trimmed (blanks before
//! an opening quote too: `Ann, "Late, early"` holds one name, where every quote so opened
//! on the line closes on it; otherwise those quotes are text, as before a trim), a leading byte-order
//! mark is skipped, rows whose fields are all empty are skipped (spreadsheets write them
//! for blank rows), and so are empty fields past the end of the header. A row short of
//! fields ends in blanks (hand edits and some spreadsheets leave trailing empty cells out),
//! unless it is a wide row of one unquoted field holding another of the three delimiters
//! (it was not split: saved with another delimiter), or a long row that ends before a
//! named column with a value under a column the header leaves unnamed (past the first,
//! which may be an index): its fields may be out of place, and it is refused.
//!
//! - **Names.** Shifts are matched against the shift name list when one is given (as
//!   written, or in any letter case when that matches one name of the list); otherwise
//!   against the default names, where `Shift 3`, `shift 3` and the plain number `3` (also
//!   `3.0`, as data tools write whole numbers in a column with blanks) all mean shift 3 (numbers are accepted only
//!   with default names, so that a typo in a custom roster is never read as a number). Without a shift list, shifts written as names of the
//!   roster's own (`Early`, `Late`, as a roster written with a list has them) are its
//!   shifts, in order of first appearance, when they are as many as its size or one fewer
//!   (as in every roster with one completion: two shifts it never names could swap), the
//!   last then `Shift N`; names that differ only in letter case are one shift, a long
//!   file's grids share the names they use, and fewer names (the others' are unknown),
//!   more, names beside numbers (but `Shift N` beside `N − 1` names, as the reader writes
//!   them back), or two names one letter apart by an insertion, a deletion or a swap (a
//!   typo that would pass for the missing shift) are refused. Floats such as `3.0` are
//!   numbers for shifts only; staff and day labels written so are names. In a wide file, the staff and day names are the file's own
//!   first column and header, in the file's order, unless a list is given: then rows and
//!   columns are matched to the list by name, as shifts are, and may come in any order. Default names
//!   (`Staff 3`, `Day 3`, or plain numbers) that number the axis out of order are placed by
//!   their numbers, so a wide file and its long export mean the same roster. In a long file,
//!   staff and days are matched against their lists; without a list, an axis whose names
//!   are all default ones (and fit the size) is taken by number, as shifts are, and one
//!   with names of its own is placed in the order the file gives: the staff in the order of
//!   the rows on the first row's day, the days in the order of the first row's staff
//!   member's rows, which must name every one, as many as the size (else the error says
//!   so, naming the likely typo where the rest are numbers: nothing is guessed), and every
//!   other staff member's (day's) rows must list them in that order too, skipping any they
//!   like (a file sorted by shift is refused, naming the first row out of order: which
//!   order is meant is not guessed, as it decides the blocks). Names that
//!   could pass for numbers but do not number the axis `1..=N` once each (`1` beside
//!   `Day 1`, or `Day 5` among four days), or a mix of default names and others, are the
//!   roster's own only in a file with a row for every cell, as the writer writes such
//!   rosters; otherwise they go by number, or the first name that is not one is a typo.
//!   A row that repeats an earlier one exactly, or a blank for a cell given a shift, is
//!   read once; a shift for a cell written blank fills it; a second, other shift for the
//!   same staff member and day is an error.
//! - **Size.** A wide file has `N` day columns and `N` staff rows, in its own order, which is
//!   the roster's: blocks are `b` adjacent staff × `b` adjacent days. A long file's `N` is the
//!   length of the name lists when any is given, else the number of staff (or days) it
//!   names of its own, and otherwise the smallest supported side that holds the largest
//!   staff, day or shift number used.
//! - **Errors.** The first problem stops reading, with its 1-based line and, where one
//!   field is to blame, its 1-based field number ([`CsvError`]): unknown or repeated names,
//!   rows too wide, the wrong number of staff rows, an unsupported size, a shift
//!   given twice in one staff row, day or block.
//!
//! # Spreadsheet formula injection
//!
//! Spreadsheets run a cell that starts with `=`, `+`, `-` or `@` as a formula (tab and carriage
//! return lead to the same in some), so a name such as `=HYPERLINK(…)` in a CSV can run code or
//! leak data when the file is opened. Instead of mangling such names with a quote, every name
//! and grid label is checked by [`check_name`] when it enters (from a name list, from a CSV
//! being read, or from code), and refused with a clear error. Every other cell shiftgrid
//! writes is a header word, a shift name or empty, so anything written is safe to open.
//! A roster a row of which would be longer than a line may be when read back
//! ([`MAX_LINE`](crate::io::lines::MAX_LINE)) is refused in the same way
//! ([`ExportError::RowTooLong`]), so every roster written reads back.
//!
//! # Where the code is
//!
//! `names` holds the name lists and [`check_name`]; `write` the two layouts out
//! ([`write_roster`], [`LongWriter`]); `read` the reader ([`read_rosters`]), with one module
//! per layout; `errors` every error type. These rules are stated here only: the README's
//! "Rosters (CSV)" section shows the command line and links here.
//!
//! ```
//! use shiftgrid::io::csv::{CustomNames, Layout, NameList, Names, read_rosters, write_roster};
//! use shiftgrid::{Puzzle, Shape};
//!
//! let shape = Shape::new(2)?;
//! let puzzle = Puzzle::new(shape, vec![1, 0, 0, 4, 0, 0, 1, 0, 0, 1, 0, 0, 4, 0, 0, 1])?;
//! let custom = CustomNames {
//!     shifts: Some(NameList::parse("shifts.txt", b"Early\nLate\nNight\nOff\n")?),
//!     ..CustomNames::default()
//! };
//! let names = Names::new(shape, &custom)?;
//!
//! let mut wide = Vec::new();
//! write_roster(&mut wide, &puzzle, &names, Layout::Wide)?;
//! assert_eq!(
//!     String::from_utf8(wide.clone())?,
//!     "staff,Day 1,Day 2,Day 3,Day 4\n\
//!      Staff 1,Early,,,Off\n\
//!      Staff 2,,,Early,\n\
//!      Staff 3,,Early,,\n\
//!      Staff 4,Off,,,Early\n"
//! );
//!
//! let mut long = Vec::new();
//! write_roster(&mut long, &puzzle, &names, Layout::Long)?;
//! assert!(String::from_utf8(long.clone())?.starts_with("staff,day,shift\nStaff 1,Day 1,Early\n"));
//!
//! // Both read back as the same puzzle with the same names.
//! for bytes in [&wide, &long] {
//!     let rosters = read_rosters(bytes, &custom)?;
//!     assert_eq!(rosters[0].puzzle, puzzle);
//!     assert_eq!(rosters[0].names, names);
//! }
//!
//! // A formula-like name is refused where it enters.
//! let err = NameList::parse("staff.txt", b"Ann\n=1+1\n").unwrap_err();
//! assert!(err.to_string().starts_with("staff.txt:2:1: name \"=1+1\" starts with '='"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod errors;
mod names;
mod read;
mod write;

pub use errors::{
    CsvError, CsvErrorKind, ExportError, NameProblem, NamesError, NamesErrorKind, OrderNames,
};
pub(crate) use names::is_numbered;
pub use names::{Axis, CustomNames, NameList, Names, check_name};
pub use read::{Roster, default_number, placed_by_number, read_rosters, read_rosters_from};
#[cfg(feature = "cli")]
pub(crate) use read::{case_twins, look_alike};
pub use write::{LongWriter, write_roster, write_roster_as};

use crate::grid::MAX_BOX;

/// The largest supported side (100).
const MAX_SIDE: usize = MAX_BOX * MAX_BOX;

/// The field delimiters a roster CSV may use (the reader tells them apart by itself).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Delimiter {
    /// `,`, the default.
    #[default]
    Comma,
    /// `;`, what spreadsheets write where the comma is the decimal separator.
    Semicolon,
    /// A tab: a spreadsheet's "Text (Tab delimited)", `.tsv` files.
    Tab,
}

impl Delimiter {
    /// All three, in the order that breaks the reader's ties.
    pub const ALL: [Delimiter; 3] = [Delimiter::Comma, Delimiter::Semicolon, Delimiter::Tab];

    /// The byte written between fields.
    pub fn byte(self) -> u8 {
        match self {
            Delimiter::Comma => b',',
            Delimiter::Semicolon => b';',
            Delimiter::Tab => b'\t',
        }
    }

    /// The delimiter written as `byte`, if it is one of the three.
    pub fn from_byte(byte: u8) -> Option<Delimiter> {
        Delimiter::ALL.into_iter().find(|d| d.byte() == byte)
    }
}

/// How a roster CSV is spelled, beyond its layout: the delimiter, the line ends and a
/// leading byte-order mark. [`read_rosters`] reports a file's ([`Roster::dialect`]), and
/// [`write_roster_as`] and [`LongWriter::with_dialect`] write one, so a roster from a
/// spreadsheet goes back to it as it came (a semicolon file to a spreadsheet that splits
/// on semicolons; the mark to one that reads UTF-8 only after it). The default is
/// shiftgrid's own: commas, `\n`, no mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dialect {
    /// The field delimiter.
    pub delimiter: Delimiter,
    /// Whether lines end in `\r\n` rather than `\n`.
    pub crlf: bool,
    /// Whether the file starts with a UTF-8 byte-order mark.
    pub bom: bool,
}

impl Dialect {
    /// The default dialect with `delimiter`.
    pub fn with_delimiter(delimiter: Delimiter) -> Dialect {
        Dialect {
            delimiter,
            ..Dialect::default()
        }
    }
}

/// The two CSV layouts of a roster (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// A header `staff,<day 1>,…,<day N>` and one row per staff member.
    #[default]
    Wide,
    /// A header `staff,day,shift` and one row per assignment.
    Long,
}

#[cfg(test)]
mod tests {
    use super::test_util::{holes, list, pattern, read, s2, write};
    use super::*;
    use crate::grid::{Puzzle, Shape};

    #[test]
    fn round_trip_every_shape_and_layout() {
        for shape in Shape::all() {
            let names = Names::defaults(shape);
            for p in [
                pattern(shape).to_puzzle(),
                holes(shape),
                Puzzle::empty(shape),
            ] {
                for layout in [Layout::Wide, Layout::Long] {
                    let text = write(&p, &names, layout);
                    let back = read(&text, &CustomNames::default()).unwrap();
                    assert_eq!(back.len(), 1);
                    assert_eq!(back[0].puzzle, p, "{shape} {layout:?}");
                    assert_eq!(back[0].names, names);
                    assert_eq!(back[0].layout, layout);
                }
            }
        }
    }

    #[test]
    fn custom_names_round_trip() {
        let shape = Shape::new(3).unwrap();
        let custom = CustomNames {
            staff: Some(list(
                "staff",
                &["Ann", "Bob", "Cy", "Dee", "Ed", "Flo", "Gus", "Hal", "Ivy"],
            )),
            days: Some(list(
                "days",
                &[
                    "Mon 1", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Mon 2", "Tue 2",
                ],
            )),
            shifts: Some(list(
                "shifts",
                &[
                    "E",
                    "L",
                    "N",
                    "D",
                    "\"Split\"",
                    "On call",
                    "Off, paid",
                    "X",
                    "Y",
                ],
            )),
        };
        let names = Names::new(shape, &custom).unwrap();
        let p = holes(shape);
        for layout in [Layout::Wide, Layout::Long] {
            let text = write(&p, &names, layout);
            let back = read(&text, &custom).unwrap();
            assert_eq!(back[0].puzzle, p);
            assert_eq!(back[0].names, names);
        }
        // Wide files carry their own staff and day names: only the shifts are needed.
        let text = write(&p, &names, Layout::Wide);
        assert!(text.contains("\"Off, paid\"") && text.contains("\"\"\"Split\"\"\""));
        let shifts_only = CustomNames {
            shifts: custom.shifts.clone(),
            ..CustomNames::default()
        };
        let back = read(&text, &shifts_only).unwrap();
        assert_eq!(back[0].names, names);
        assert_eq!(back[0].puzzle, p);
        // And so do long files, in the order they list them: wide -> long -> wide keeps
        // the roster with the shift list alone, even with the whole first staff member's
        // row and first day blank (those blanks are written, so every name is there).
        let mut cells = p.cells().to_vec();
        for k in 0..9 {
            cells[k] = 0;
            cells[k * 9] = 0;
        }
        let sparse = crate::grid::Puzzle::new(shape, cells).unwrap();
        for q in [&p, &sparse] {
            let long = write(q, &names, Layout::Long);
            let back = read(&long, &shifts_only).unwrap();
            assert_eq!(back[0].names, names);
            assert_eq!(&back[0].puzzle, q);
            let wide = write(&back[0].puzzle, &back[0].names, Layout::Wide);
            assert_eq!(wide, write(q, &names, Layout::Wide));
        }
    }

    /// Wide -> long -> back, with staff and day names drawn from a pool where some look
    /// like default names or numbers (`1`, `Staff 3`, `Day 10`, two spellings of one number),
    /// in random order, over random blanks, at 4x4 and 9x9: the same roster every time,
    /// with the shift list alone.
    #[test]
    fn own_names_survive_wide_to_long_and_back() {
        use rand::seq::SliceRandom;
        use rand::{Rng, SeedableRng};
        let pool = [
            "1", "2", "3", "4", "7", "10", "Staff 1", "Staff 3", "Staff 12", "Day 1", "Day 2",
            "Day 5", "Day 10", "Ann", "Bob", "Cy", "Dee", "Mon", "Tue", "x 1",
        ];
        let mut tried = 0;
        for seed in 0..600u64 {
            // 4x4 and 9x9: at 4x4 names like `Staff 1`, `Staff 2`, `Staff 3`, `Staff 5`.
            let shape = Shape::new(2 + (seed % 2) as usize).unwrap();
            let n = shape.side();
            let shifts: Vec<String> = (1..=n).map(|k| format!("S{k}")).collect();
            let custom = CustomNames {
                shifts: Some(NameList::new("shifts", &shifts).unwrap()),
                ..CustomNames::default()
            };
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut axis = || -> Vec<String> {
                let mut names: Vec<&str> = pool.to_vec();
                names.shuffle(&mut rng);
                names[..n].iter().map(|s| s.to_string()).collect()
            };
            let (staff, days) = (axis(), axis());
            let named = CustomNames {
                staff: Some(NameList::new("staff", &staff).unwrap()),
                days: Some(NameList::new("days", &days).unwrap()),
                shifts: custom.shifts.clone(),
            };
            let names = Names::new(shape, &named).unwrap();
            let keep = rng.gen_range(0.0..1.0);
            let cells = pattern(shape)
                .cells()
                .iter()
                .map(|&v| if rng.gen_bool(keep) { v } else { 0 })
                .collect();
            let p = Puzzle::new(shape, cells).unwrap();
            // Names that renumber an axis (`4`, `2`, `3`, `1`) place the rows by number, which
            // can make this arbitrary grid invalid: those are the wide reader's business.
            let Ok(wide) = read(&write(&p, &names, Layout::Wide), &custom) else {
                continue;
            };
            tried += 1;
            let long = write(&wide[0].puzzle, &wide[0].names, Layout::Long);
            let back = read(&long, &custom).unwrap_or_else(|e| panic!("{seed}: {e}\n{long}"));
            assert_eq!(back[0].puzzle, wide[0].puzzle, "{seed}\n{long}");
            assert_eq!(back[0].names, wide[0].names, "{seed}\n{long}");
        }
        assert!(tried > 500, "{tried}");
    }

    #[test]
    fn several_grids_in_long() {
        let s = s2();
        let names = Names::defaults(s);
        let a = holes(s);
        let b = pattern(Shape::new(3).unwrap()).to_puzzle();
        let mut w = LongWriter::new(Vec::new()).unwrap();
        w.write("1", &a, &names).unwrap();
        w.write("1 solution", &b, &Names::defaults(b.shape()))
            .unwrap();
        let e = w.write("=2", &a, &names).unwrap_err();
        assert!(matches!(e, ExportError::Label { .. }));
        let bytes = w.finish().unwrap();
        let back = read_rosters(&bytes, &CustomNames::default()).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].label.as_deref(), Some("1"));
        assert_eq!(back[0].puzzle, a);
        assert_eq!(back[1].label.as_deref(), Some("1 solution"));
        assert_eq!(back[1].puzzle, b);
        assert_eq!(back[1].line, 2 + a.givens());
    }
}

#[cfg(test)]
mod test_util;

//! The names of a roster: staff (rows), days (columns) and shifts (symbols). [`NameList`]s
//! are read from name files, [`Names`] holds one name per staff member, day and shift of a
//! roster, and [`check_name`] guards every name against spreadsheet formula injection (see
//! the [module documentation](super) for the rules).

use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead};

use super::MAX_SIDE;
use super::errors::{NameProblem, NamesError, NamesErrorKind};
use crate::grid::Shape;
use crate::io::lines::{LineError, LineReader, quote_prefix};

/// `name` in one Unicode form (NFC), the form names are compared in: an accent composed
/// (`é`, as most keyboards type it) or combined (`e` then U+0301, as macOS file names and
/// some editors keep it) makes one name, which looks the same either way. Borrowed when
/// `name` is in that form already (any ASCII name).
pub(crate) fn canonical(name: &str) -> Cow<'_, str> {
    use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};
    match is_nfc_quick(name.chars()) {
        IsNormalized::Yes => Cow::Borrowed(name),
        _ => Cow::Owned(name.nfc().collect()),
    }
}

/// The characters that make a spreadsheet read a cell as a formula.
const FORMULA_STARTS: [char; 4] = ['=', '+', '-', '@'];

/// One of the three things a roster names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    /// Staff members: the rows.
    Staff,
    /// Days: the columns.
    Day,
    /// Shifts: the symbols.
    Shift,
}

impl Axis {
    /// The word of the default names (`Staff 3`, `Day 3`, `Shift 3`).
    pub(super) fn word(self) -> &'static str {
        match self {
            Axis::Staff => "Staff",
            Axis::Day => "Day",
            Axis::Shift => "Shift",
        }
    }

    /// The plural, for counts.
    pub(super) fn plural(self) -> &'static str {
        match self {
            Axis::Staff => "staff",
            Axis::Day => "days",
            Axis::Shift => "shifts",
        }
    }
}

impl fmt::Display for Axis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Axis::Staff => "staff",
            Axis::Day => "day",
            Axis::Shift => "shift",
        })
    }
}

/// Whether `list` names its entries by their own numbers, `1`…`N` (shifts that a roster
/// writes as plain numbers): such names are numbers, not names of their own.
pub(crate) fn is_numbered(list: &[String]) -> bool {
    list.iter()
        .enumerate()
        .all(|(k, s)| *s == (k + 1).to_string())
}

/// Checks that `name` can be a staff, day or shift name or a grid label: not empty, trimmed,
/// not starting with `=`, `+`, `-` or `@` (which spreadsheets run as formulas; a lone `-`,
/// the usual mark of a day off, is text to them and allowed), and free of
/// control characters (tab and carriage return start formulas in some spreadsheets too).
///
/// Every name that [`Names`] holds has passed this check.
///
/// # Errors
/// The first problem found.
///
/// ```
/// use shiftgrid::io::csv::{NameProblem, check_name};
/// assert_eq!(check_name("Early"), Ok(()));
/// assert_eq!(check_name("@SUM(A1)"), Err(NameProblem::FormulaLike('@')));
/// assert_eq!(check_name("-1+2"), Err(NameProblem::FormulaLike('-')));
/// assert_eq!(check_name("-"), Ok(())); // a day off: no formula
/// assert_eq!(check_name("a\tb"), Err(NameProblem::Control('\t')));
/// ```
pub fn check_name(name: &str) -> Result<(), NameProblem> {
    if name.trim().is_empty() {
        return Err(NameProblem::Empty);
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err(NameProblem::Control(c));
    }
    if name.contains('\u{feff}') {
        return Err(NameProblem::ByteOrderMark);
    }
    if name.trim() != name {
        return Err(NameProblem::Untrimmed);
    }
    match name.chars().next() {
        // A lone `-` (the usual mark of a day off) is text to every spreadsheet.
        _ if name == "-" => Ok(()),
        Some(c) if FORMULA_STARTS.contains(&c) => Err(NameProblem::FormulaLike(c)),
        _ => Ok(()),
    }
}

impl NameProblem {
    /// Where in the name the problem is, in characters from its start (0 for the name as a
    /// whole).
    pub fn offset(&self, name: &str) -> usize {
        let at = |wanted: char| name.chars().position(|c| c == wanted).unwrap_or(0);
        match self {
            NameProblem::Control(c) => at(*c),
            NameProblem::ByteOrderMark => at('\u{feff}'),
            _ => 0,
        }
    }
}

/// A list of names for one axis, as read from a file: trimmed, each checked with
/// [`check_name`], no two alike. Its length is checked against a roster only when it is used
/// ([`Names::new`]), so one list can serve rosters read before their size is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameList {
    pub(super) source: String,
    pub(super) names: Vec<String>,
    /// The line of each name, for the message about a repeated one.
    lines: Vec<usize>,
}

/// The text of a CSV-quoted field (`"Smith, John"`, with `""` for a quote inside), or
/// `None` when `name` is not one whole quoted field.
fn unquoted(name: &str) -> Option<String> {
    let inner = name.strip_prefix('"')?.strip_suffix('"')?;
    let text = inner.replace("\"\"", "\"");
    // Every quote inside doubled: one whole field, not `"a" and "b"`.
    (text.matches('"').count() * 2 == inner.matches('"').count()).then_some(text)
}

impl NameList {
    /// Reads a name file: one name per line, trimmed; blank lines and lines whose first
    /// non-blank character is `#` are skipped (so a name cannot start with `#` in a file).
    /// A line that is one CSV-quoted field (`"Smith, John"`, `""` for a quote inside), as
    /// a one-column sheet saved as CSV writes a name with a comma or a quote, is the name
    /// inside the quotes. A leading byte-order mark and CRLF line ends are fine. `source`
    /// names the file in errors.
    ///
    /// # Errors
    /// [`NamesError`] with the line and column of the first bad or repeated name, or of the
    /// first byte that is not UTF-8.
    pub fn parse(source: impl Into<String>, bytes: &[u8]) -> Result<NameList, NamesError> {
        let source = source.into();
        NameList::read_from(source.clone(), bytes).unwrap_or_else(|e| {
            // Reading from memory does not fail; keep a message anyway.
            Err(NamesError {
                file: source,
                line: 0,
                col: 0,
                kind: NamesErrorKind::NotText {
                    reason: e.to_string(),
                },
            })
        })
    }

    /// Reads a name file from a stream, as [`NameList::parse`] does, holding one line at a
    /// time: a line longer than [`MAX_LINE`](crate::io::lines::MAX_LINE) or a name past the
    /// 100th (the largest roster has 100 of each) stops reading with an error.
    ///
    /// # Errors
    /// The outer error is a failed read; the inner one the first problem in the list.
    pub fn read_from<R: BufRead>(
        source: impl Into<String>,
        reader: R,
    ) -> io::Result<Result<NameList, NamesError>> {
        let mut list = NameList {
            source: source.into(),
            names: Vec::new(),
            lines: Vec::new(),
        };
        let mut lines = LineReader::new(reader).allow_controls();
        while let Some(next) = lines.next_line() {
            let (no, raw) = match next {
                Ok(l) => l,
                Err(LineError::Io(e)) => return Err(e),
                Err(e) => {
                    let (line, col) = e.position();
                    let kind = match e {
                        LineError::TooLong { limit, .. } => NamesErrorKind::LineTooLong { limit },
                        other => NamesErrorKind::NotText {
                            reason: other.to_string(),
                        },
                    };
                    return Ok(Err(NamesError {
                        file: list.source,
                        line,
                        col,
                        kind,
                    }));
                }
            };
            let name = raw.trim();
            if name.is_empty() || name.starts_with('#') {
                continue;
            }
            let col = raw.chars().take_while(|c| c.is_whitespace()).count() + 1;
            // A one-column sheet saved as CSV quotes a name with a comma or a quote in it
            // (`"Smith, John"`, `"Ann ""Red"" Lee"`): the name is what the quotes hold.
            let pushed = match unquoted(name) {
                Some(inner) => list.push(inner.trim(), no, col + 1),
                None => list.push(name, no, col),
            };
            if let Err(e) = pushed {
                return Ok(Err(e));
            }
        }
        Ok(Ok(list))
    }

    /// A list from names given in code, checked as [`NameList::parse`] checks a file; errors
    /// name `source` and give the position of the name in the list as its line.
    ///
    /// # Errors
    /// [`NamesError`] for the first bad or repeated name, or the first past the largest
    /// side (100).
    pub fn new<I, S>(source: impl Into<String>, names: I) -> Result<NameList, NamesError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut list = NameList {
            source: source.into(),
            names: Vec::new(),
            lines: Vec::new(),
        };
        for (i, name) in names.into_iter().enumerate() {
            list.push(name.as_ref().trim(), i + 1, 1)?;
        }
        Ok(list)
    }

    fn push(&mut self, name: &str, line: usize, col: usize) -> Result<(), NamesError> {
        let err = |kind| NamesError {
            file: self.source.clone(),
            line,
            col,
            kind,
        };
        if self.names.len() == MAX_SIDE {
            return Err(err(NamesErrorKind::TooMany { limit: MAX_SIDE }));
        }
        if let Err(problem) = check_name(name) {
            return Err(NamesError {
                col: col + problem.offset(name),
                ..err(NamesErrorKind::Bad {
                    name: quote_prefix(name),
                    problem,
                })
            });
        }
        let key = canonical(name);
        if let Some(k) = self.names.iter().position(|n| canonical(n) == key) {
            let (name, first_line) = (quote_prefix(name), self.lines[k]);
            return Err(err(if self.names[k] == *name {
                NamesErrorKind::Duplicate { name, first_line }
            } else {
                NamesErrorKind::OtherForm { name, first_line }
            }));
        }
        self.names.push(name.to_string());
        self.lines.push(line);
        Ok(())
    }

    /// Where the list came from (a file name or a label), for messages.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The names, in order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The number of names.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the list has no names.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// The name lists a user gave, each optional: an axis without a list gets the default names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CustomNames {
    /// Staff names (rows), or `None` for `Staff 1…N`.
    pub staff: Option<NameList>,
    /// Day names (columns), or `None` for `Day 1…N`.
    pub days: Option<NameList>,
    /// Shift names (symbols), or `None` for `Shift 1…N`.
    pub shifts: Option<NameList>,
}

impl CustomNames {
    /// The list for `axis`, if one was given.
    pub fn get(&self, axis: Axis) -> Option<&NameList> {
        match axis {
            Axis::Staff => self.staff.as_ref(),
            Axis::Day => self.days.as_ref(),
            Axis::Shift => self.shifts.as_ref(),
        }
    }

    /// Whether no list was given.
    pub fn is_empty(&self) -> bool {
        self.staff.is_none() && self.days.is_none() && self.shifts.is_none()
    }

    /// The roster shape that the first given list (staff, then days, then shifts) implies,
    /// or `None` when no list was given. The other lists are checked by [`Names::new`].
    ///
    /// # Errors
    /// [`NamesErrorKind::Size`] when that list's length is not a supported side.
    pub fn shape(&self) -> Result<Option<Shape>, NamesError> {
        let first = [Axis::Staff, Axis::Day, Axis::Shift]
            .into_iter()
            .find_map(|a| self.get(a).map(|l| (a, l)));
        match first {
            None => Ok(None),
            Some((axis, list)) => Shape::from_side(list.len())
                .map(Some)
                .map_err(|_| NamesError {
                    file: list.source.clone(),
                    line: 0,
                    col: 0,
                    kind: NamesErrorKind::Size {
                        axis,
                        found: list.len(),
                    },
                }),
        }
    }
}

/// The names of one roster: `n` staff, `n` days and `n` shifts for a grid of side `n`, each
/// checked with [`check_name`] and unique within its axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Names {
    shape: Shape,
    pub(super) staff: Vec<String>,
    pub(super) days: Vec<String>,
    pub(super) shifts: Vec<String>,
    /// The label over the staff column of a wide roster (its header's first cell).
    pub(super) corner: String,
}

impl Names {
    /// The default names: `Staff 1…N`, `Day 1…N`, `Shift 1…N`.
    pub fn defaults(shape: Shape) -> Names {
        let n = shape.side();
        let list = |axis: Axis| (1..=n).map(|k| format!("{} {k}", axis.word())).collect();
        Names {
            shape,
            staff: list(Axis::Staff),
            days: list(Axis::Day),
            shifts: list(Axis::Shift),
            corner: "staff".to_string(),
        }
    }

    /// The names for a roster of `shape`: each given list, defaults for the others.
    ///
    /// # Errors
    /// [`NamesErrorKind::Count`] when a list does not hold exactly `n` names.
    pub fn new(shape: Shape, custom: &CustomNames) -> Result<Names, NamesError> {
        let mut names = Names::defaults(shape);
        for axis in [Axis::Staff, Axis::Day, Axis::Shift] {
            if let Some(list) = custom.get(axis) {
                if list.len() != shape.side() {
                    return Err(NamesError {
                        file: list.source.clone(),
                        line: 0,
                        col: 0,
                        kind: NamesErrorKind::Count {
                            axis,
                            found: list.len(),
                            shape,
                        },
                    });
                }
                *names.get_mut(axis) = list.names.clone();
            }
        }
        Ok(names)
    }

    /// The shape these names fit.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The label over the staff column of a wide roster, the first cell of its header:
    /// `staff` unless a wide roster read gave another (`Employee`, or empty), which is
    /// written back as it was.
    pub fn corner(&self) -> &str {
        &self.corner
    }

    /// The staff names, one per row.
    pub fn staff(&self) -> &[String] {
        &self.staff
    }

    /// The day names, one per column.
    pub fn days(&self) -> &[String] {
        &self.days
    }

    /// The shift names: `shifts()[s - 1]` is the name of symbol `s`.
    pub fn shifts(&self) -> &[String] {
        &self.shifts
    }

    /// The names of `axis`.
    pub fn get(&self, axis: Axis) -> &[String] {
        match axis {
            Axis::Staff => &self.staff,
            Axis::Day => &self.days,
            Axis::Shift => &self.shifts,
        }
    }

    pub(super) fn get_mut(&mut self, axis: Axis) -> &mut Vec<String> {
        match axis {
            Axis::Staff => &mut self.staff,
            Axis::Day => &mut self.days,
            Axis::Shift => &mut self.shifts,
        }
    }

    /// The shift name of a cell value, `""` for a blank.
    pub(super) fn shift_text(&self, v: u8) -> &str {
        match v {
            0 => "",
            s => &self.shifts[usize::from(s) - 1],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{list, s2};
    use super::*;

    #[test]
    fn names_checks() {
        assert_eq!(check_name(""), Err(NameProblem::Empty));
        assert_eq!(check_name("  "), Err(NameProblem::Empty));
        assert_eq!(check_name(" Ann"), Err(NameProblem::Untrimmed));
        for c in FORMULA_STARTS {
            assert_eq!(
                check_name(&format!("{c}x")),
                Err(NameProblem::FormulaLike(c))
            );
        }
        assert_eq!(check_name("\tx"), Err(NameProblem::Control('\t')));
        assert_eq!(check_name("a\rb"), Err(NameProblem::Control('\r')));
        assert_eq!(check_name("Ann-Marie"), Ok(()));
        assert_eq!(check_name("O'Neil, Pat"), Ok(()));
        assert_eq!(check_name("#1"), Ok(()));
    }

    /// Lines a one-column sheet saved as CSV quotes are the names inside the quotes; a
    /// line with quotes that is not one quoted field keeps them.
    #[test]
    fn quoted_lines_of_a_saved_sheet_are_unquoted() {
        let text = "\"Smith, John\"\n\"Ann \"\"Red\"\" Lee\"\n  \" Bob \"\n\"a\" and \"b\"\nDee\n";
        let l = NameList::parse("s.csv", text.as_bytes()).unwrap();
        assert_eq!(
            l.names(),
            [
                "Smith, John",
                "Ann \"Red\" Lee",
                "Bob",
                "\"a\" and \"b\"",
                "Dee"
            ]
        );
        // An error inside the quotes names its column in the file.
        let e = NameList::parse("s.csv", "Ann\n\"=cmd\"\n".as_bytes()).unwrap_err();
        assert_eq!((e.line, e.col), (2, 2), "{e}");
    }

    #[test]
    fn name_files() {
        let l = NameList::parse(
            "s.txt",
            "\u{feff}# staff\r\n  Ann  \r\n\r\nBob\n# Carl left\nDee\nEve\n".as_bytes(),
        )
        .unwrap();
        assert_eq!(l.names(), ["Ann", "Bob", "Dee", "Eve"]);
        let e = NameList::parse("s.txt", b"Ann\nBob\n  Ann\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "s.txt:3:3: name \"Ann\" is repeated (first on line 1); names must be unique"
        );
        let e = NameList::parse("s.txt", b"Ann\n+Bob\n").unwrap_err();
        assert!(matches!(
            e.kind,
            NamesErrorKind::Bad {
                problem: NameProblem::FormulaLike('+'),
                ..
            }
        ));
        assert_eq!((e.line, e.col), (2, 1));
        let e = NameList::parse("s.txt", b"Ann\n\xff\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 1));
        assert!(e.to_string().contains("not UTF-8"), "{e}");
        let e = NameList::parse("s.txt", b"Ann\n  B\x00b\n").unwrap_err();
        assert!(e.to_string().contains("U+0000"), "{e}");
        // The column is the character's, not the name's.
        assert_eq!((e.line, e.col), (2, 4));
        // A second byte-order mark (a file saved twice) would stay in the first name, and a
        // roster written with it would not read back (a CSV reader drops it at a row's start).
        let e = NameList::parse("s.txt", "\u{feff}\u{feff}Ann\nBob\n".as_bytes()).unwrap_err();
        assert!(matches!(
            e.kind,
            NamesErrorKind::Bad {
                problem: NameProblem::ByteOrderMark,
                ..
            }
        ));
        assert_eq!((e.line, e.col), (1, 1));
        assert_eq!(check_name("An\u{feff}n"), Err(NameProblem::ByteOrderMark));
        // Joiners are parts of names in some scripts (Persian's zero-width non-joiner).
        assert_eq!(check_name("می\u{200c}رود"), Ok(()));
    }

    #[test]
    fn names_count_and_size() {
        let custom = CustomNames {
            days: Some(list("d.txt", &["Mon", "Tue", "Wed"])),
            ..CustomNames::default()
        };
        let e = Names::new(s2(), &custom).unwrap_err();
        assert_eq!(
            e.to_string(),
            "d.txt: holds 3 names, but a 4x4 roster has 4 days"
        );
        assert!(
            custom
                .shape()
                .unwrap_err()
                .to_string()
                .starts_with("d.txt: holds 3 day names, but a roster has 4, 9, 16")
        );
        assert_eq!(CustomNames::default().shape(), Ok(None));
        let d = Names::defaults(Shape::new(10).unwrap());
        assert_eq!(d.staff()[99], "Staff 100");
        assert_eq!(d.days()[0], "Day 1");
        assert_eq!(d.shifts()[41], "Shift 42");
    }

    /// A list of more names than the largest side is refused at the first too many, in a
    /// file and in code alike.
    #[test]
    fn at_most_a_hundred_names() {
        let names: Vec<String> = (1..=101).map(|k| format!("N{k}")).collect();
        let e = NameList::new("code", &names).unwrap_err();
        assert_eq!(
            (e.line, &e.kind),
            (101, &NamesErrorKind::TooMany { limit: 100 })
        );
        let file = names.join("\n");
        let e = NameList::parse("n.txt", file.as_bytes()).unwrap_err();
        assert_eq!(
            (e.line, &e.kind),
            (101, &NamesErrorKind::TooMany { limit: 100 })
        );
        assert_eq!(NameList::new("code", &names[..100]).unwrap().len(), 100);
    }
}

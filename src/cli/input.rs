//! Reading puzzles for the commands that take an input file (`solve`, `count`, `grade`,
//! `render`, `export`): the shared input flags, the roster-CSV name files, and
//! [`load_puzzles`], which turns a file of any supported form into parse records.
//!
//! A text batch is read record by record, so one bad puzzle does not stop the others
//! ([`good_records`] reports and skips it). A roster CSV is all or nothing: any error stops
//! the whole file with `FILE:LINE:FIELD: message`.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};

use super::exit::{self, data_error};
use crate::grid::{Puzzle, Shape};
use crate::io::csv::{Axis, CsvErrorKind, CustomNames, NameList, Names, read_rosters};
use crate::io::parse::{Alphabet, InputFormat, ParseOptions, Record, parse_bytes};

/// The input file and how to read it.
#[derive(Debug, Args)]
pub(super) struct InputArgs {
    /// Puzzle file, or - for standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    pub(super) input: PathBuf,
    /// How to read the input. auto detects grids and one-puzzle-per-line batches, and reads
    /// a roster CSV when the file name ends in .csv or the first line holds a comma or
    /// semicolon.
    #[arg(long, value_enum, default_value_t = InputFormatArg::Auto)]
    input_format: InputFormatArg,
    /// Letter alphabet of compact 16x16/25x25 lines (they conflict, so name one)
    /// [default: numeric].
    #[arg(long, value_enum)]
    alphabet: Option<AlphabetArg>,
}

/// Names for roster CSVs, read and written.
#[derive(Debug, Args)]
pub(super) struct NameArgs {
    /// Staff (row) names, one per line; blank lines and # comments are skipped
    /// [default: Staff 1..N].
    #[arg(long, value_name = "FILE", help_heading = "Roster CSV names")]
    staff: Option<PathBuf>,
    /// Day (column) names, one per line [default: Day 1..N].
    #[arg(long, value_name = "FILE", help_heading = "Roster CSV names")]
    days: Option<PathBuf>,
    /// Shift (symbol) names, one per line [default: Shift 1..N; reading also takes 1..N].
    #[arg(long, value_name = "FILE", help_heading = "Roster CSV names")]
    shifts: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum InputFormatArg {
    /// Grid or line form, decided per block; CSV by file name or first line.
    Auto,
    /// N lines of N cells per grid.
    Grid,
    /// One puzzle per line.
    Line,
    /// A roster CSV, wide or long (told by its header).
    Csv,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum AlphabetArg {
    /// Digits and space-separated integers (the default).
    Numeric,
    /// 1-9 then A=10, B=11, … (Gecode/janko 16x16 `1-9A-G`, 25x25 `1-9A-P`).
    #[value(name = "1-9A")]
    Gecode,
    /// 0-9A-F for 1..16 (hexadecimal 16x16).
    #[value(name = "0-9A-F")]
    Hex,
    /// A=1, B=2, … (16x16 `A-P`, 25x25 `A-Y`).
    #[value(name = "A-Z")]
    Letters,
}

impl InputArgs {
    fn options(&self) -> ParseOptions {
        ParseOptions {
            format: match self.input_format {
                InputFormatArg::Auto | InputFormatArg::Csv => InputFormat::Auto,
                InputFormatArg::Grid => InputFormat::Grid,
                InputFormatArg::Line => InputFormat::Line,
            },
            alphabet: match self.alphabet.unwrap_or(AlphabetArg::Numeric) {
                AlphabetArg::Numeric => Alphabet::Numeric,
                AlphabetArg::Gecode => Alphabet::Gecode,
                AlphabetArg::Hex => Alphabet::Hex,
                AlphabetArg::Letters => Alphabet::Letters,
            },
        }
    }

    /// Whether the input is a roster CSV: asked for, or (auto) a `.csv` file name or a first
    /// significant line with a comma or semicolon, which no text form holds.
    fn is_csv(&self, bytes: &[u8]) -> bool {
        match self.input_format {
            InputFormatArg::Csv => true,
            InputFormatArg::Grid | InputFormatArg::Line => false,
            InputFormatArg::Auto => has_csv_extension(&self.input) || looks_like_csv(bytes),
        }
    }
}

/// Whether `path` ends in `.csv`, in any case.
pub(super) fn has_csv_extension(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"))
}

/// Whether the first line that is neither blank nor a `#` comment holds a comma or semicolon.
fn looks_like_csv(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    bytes
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .find(|l| !l.is_empty() && !l.starts_with(b"#"))
        .is_some_and(|l| l.contains(&b',') || l.contains(&b';'))
}

impl NameArgs {
    /// Reads and checks the name files given.
    ///
    /// # Errors
    /// An I/O error for a file that cannot be read, a data error (`file:line:col: message`)
    /// for a bad or repeated name.
    pub(super) fn load(&self) -> Result<CustomNames> {
        let load = |path: &Option<PathBuf>| -> Result<Option<NameList>> {
            let Some(path) = path else { return Ok(None) };
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            NameList::parse(path.display().to_string(), &bytes)
                .map(Some)
                .map_err(|e| data_error(e.to_string()))
        };
        Ok(CustomNames {
            staff: load(&self.staff)?,
            days: load(&self.days)?,
            shifts: load(&self.shifts)?,
        })
    }

    /// Refuses name files where nothing reads or writes CSV (they would be ignored).
    ///
    /// # Errors
    /// A usage error when any name file is given.
    pub(super) fn refuse_unused(&self) -> Result<()> {
        if self.staff.is_some() || self.days.is_some() || self.shifts.is_some() {
            return Err(exit::usage_error(
                "--staff, --days and --shifts name the rows, columns and shifts of roster CSVs: \
                 use them with --format csv or CSV input",
            ));
        }
        Ok(())
    }
}

/// The flag that gives the names of `axis`.
fn names_flag(axis: Axis) -> &'static str {
    match axis {
        Axis::Staff => "--staff",
        Axis::Day => "--days",
        Axis::Shift => "--shifts",
    }
}

/// The puzzles of the input, read from text or a roster CSV.
pub(super) struct Loaded {
    /// The input's name for messages.
    pub(super) name: String,
    /// One record per puzzle, in input order.
    pub(super) records: Vec<Record>,
    /// For a roster CSV: each record's grid label and names.
    rosters: Option<Vec<(Option<String>, Names)>>,
}

impl Loaded {
    /// Record `i`'s label in a long CSV's grid column: the input's own, or its number.
    pub(super) fn label(&self, i: usize) -> String {
        self.rosters
            .as_ref()
            .and_then(|r| r[i].0.clone())
            .unwrap_or_else(|| (i + 1).to_string())
    }

    /// The names to write record `i` with: a roster's own, or the name files (defaults) for
    /// its shape.
    ///
    /// # Errors
    /// A data error when the name files do not fit the puzzle's shape.
    pub(super) fn names(&self, i: usize, shape: Shape, custom: &CustomNames) -> Result<Names> {
        match &self.rosters {
            Some(r) => Ok(r[i].1.clone()),
            None => Names::new(shape, custom).map_err(|e| {
                data_error(format!(
                    "{e} (puzzle {}, {}:{})",
                    i + 1,
                    self.name,
                    self.records[i].line
                ))
            }),
        }
    }
}

/// Reads the puzzles of the input: text in any form, or a roster CSV mapped to puzzles with
/// the name files. Also gives the names, which are refused (before being read) when neither
/// the input nor the output (`csv_output`) is CSV.
///
/// # Errors
/// I/O errors; for CSV, a data error `file:line:field: message` (a CSV is all or nothing,
/// unlike text batches, whose bad puzzles are reported and skipped later); usage errors for
/// `--alphabet` with CSV and for unused name files.
pub(super) fn load_puzzles(
    args: &InputArgs,
    names: &NameArgs,
    csv_output: bool,
) -> Result<(Loaded, CustomNames)> {
    let (name, bytes) = read_input(&args.input)?;
    let is_csv = args.is_csv(&bytes);
    if !is_csv && !csv_output {
        names.refuse_unused()?;
    }
    let custom = names.load()?;
    if !is_csv {
        let loaded = Loaded {
            records: parse_bytes(&bytes, &args.options()),
            name,
            rosters: None,
        };
        return Ok((loaded, custom));
    }
    if args.alphabet.is_some() {
        return Err(exit::usage_error(
            "--alphabet applies to compact text puzzles, not to CSV input",
        ));
    }
    let rosters = read_rosters(&bytes, &custom).map_err(|e| {
        let hint = match &e.kind {
            CsvErrorKind::Unknown { axis, .. } if custom.get(*axis).is_none() => format!(
                " (other {axis} names need a name file: {} FILE)",
                names_flag(*axis)
            ),
            _ => String::new(),
        };
        data_error(format!(
            "{name}:{}:{}: {}{hint}",
            e.line,
            e.field.unwrap_or(1),
            e.kind
        ))
    })?;
    let records = rosters
        .iter()
        .map(|r| Record {
            line: r.line,
            puzzle: Ok(r.puzzle.clone()),
        })
        .collect();
    let loaded = Loaded {
        name,
        records,
        rosters: Some(rosters.into_iter().map(|r| (r.label, r.names)).collect()),
    };
    Ok((loaded, custom))
}

/// The input's name for messages, and its bytes.
///
/// # Errors
/// The file (or standard input) cannot be read.
fn read_input(path: &Path) -> Result<(String, Vec<u8>)> {
    if path == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .context("reading standard input")?;
        Ok(("<stdin>".to_string(), buf))
    } else {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        Ok((path.display().to_string(), bytes))
    }
}

/// Reports bad records on stderr as `FILE:LINE:COL: message` (with "puzzle N skipped" in a
/// batch); returns the good ones with their index, and how many were bad.
pub(super) fn good_records<'a>(
    name: &str,
    records: &'a [Record],
) -> (Vec<(usize, &'a Puzzle)>, usize) {
    let mut good = Vec::new();
    let mut bad = 0;
    for (i, r) in records.iter().enumerate() {
        match &r.puzzle {
            Ok(p) => good.push((i, p)),
            Err(e) => {
                bad += 1;
                if records.len() > 1 {
                    eprintln!(
                        "{name}:{}:{}: {} (puzzle {} skipped)",
                        e.line,
                        e.col,
                        e.kind,
                        i + 1
                    );
                } else {
                    eprintln!("{name}:{}:{}: {}", e.line, e.col, e.kind);
                }
            }
        }
    }
    (good, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_is_told_by_the_first_significant_line() {
        assert!(looks_like_csv(b"staff,Day 1\n"));
        assert!(looks_like_csv(b"\n# a comment\n\n  staff;Mon\n"));
        assert!(!looks_like_csv(
            "\u{feff}# puzzles, one a line\n1..4........4..1\n".as_bytes()
        ));
        assert!(!looks_like_csv(b"1 2 3 4\n3,4\n"));
        assert!(!looks_like_csv(b""));
        assert!(has_csv_extension(Path::new("a/b.CSV")));
        assert!(!has_csv_extension(Path::new("csv")));
    }
}

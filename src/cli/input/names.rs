//! The name files of roster CSVs (`--staff`, `--days`, `--shifts`): the flags, reading
//! them, and refusing them where no CSV is read or written.

use std::io::BufReader;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

use crate::cli::exit::{self, data_error};
use crate::io::csv::{Axis, CustomNames, NameList};

/// Names for roster CSVs, read and written.
#[derive(Debug, Default, Args)]
pub(in crate::cli) struct NameArgs {
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

impl NameArgs {
    /// Whether a shift name file was given.
    pub(in crate::cli) fn has_shifts(&self) -> bool {
        self.shifts.is_some()
    }

    /// Whether staff or day names were given (shift names are used by every format).
    pub(in crate::cli) fn has_staff_or_days(&self) -> bool {
        self.staff.is_some() || self.days.is_some()
    }

    /// Reads and checks the name files given.
    ///
    /// # Errors
    /// An I/O error for a file that cannot be read, a data error (`file:line:col: message`)
    /// for a bad or repeated name.
    pub(in crate::cli) fn load(&self) -> Result<CustomNames> {
        let load = |path: &Option<PathBuf>| -> Result<Option<NameList>> {
            let Some(path) = path else { return Ok(None) };
            read_name_file(path).map(Some)
        };
        Ok(CustomNames {
            staff: load(&self.staff)?,
            days: load(&self.days)?,
            shifts: load(&self.shifts)?,
        })
    }

    /// Refuses name files where nothing reads or writes CSV (they would be ignored). The
    /// advice names CSV output where the command can write it (`writes_csv`), else making
    /// the puzzle a roster with `export` first.
    ///
    /// # Errors
    /// A usage error when any name file is given.
    pub(in crate::cli) fn refuse_unused(&self, writes_csv: bool) -> Result<()> {
        if self.staff.is_some() || self.days.is_some() || self.shifts.is_some() {
            let csv_input = "CSV input (a .csv file, a first line with a comma, semicolon or \
                             tab-separated names, or --input-format csv)";
            return Err(exit::usage_error(if writes_csv {
                format!(
                    "--staff, --days and --shifts name the rows, columns and shifts of roster \
                     CSVs: use them with CSV output (--format csv) or {csv_input}"
                )
            } else {
                format!(
                    "--staff, --days and --shifts name the rows, columns and shifts of roster \
                     CSVs: use them with {csv_input}; to name a text puzzle's, make it a roster \
                     first (shiftgrid export PUZZLE --staff FILE … -o roster.csv)"
                )
            }));
        }
        Ok(())
    }

    /// The paths a command reads besides its input: the name files given.
    pub(in crate::cli) fn paths(&self) -> impl Iterator<Item = &Path> {
        [&self.staff, &self.days, &self.shifts]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path)
    }
}

/// The flag that gives the names of `axis`.
pub(super) fn names_flag(axis: Axis) -> &'static str {
    match axis {
        Axis::Staff => "--staff",
        Axis::Day => "--days",
        Axis::Shift => "--shifts",
    }
}

/// Reads a name file with bounded memory. `-` is refused: standard input is for puzzles.
///
/// # Errors
/// I/O errors, a data error (`file:line:col: message`) for a bad list, and a usage error
/// for `-`.
fn read_name_file(path: &Path) -> Result<NameList> {
    if path == Path::new("-") {
        return Err(exit::usage_error(
            "--staff, --days and --shifts take a file, not standard input (-)",
        ));
    }
    let file = crate::io::blocking::during(crate::io::blocking::Wait::Open, || {
        std::fs::File::open(path)
    })
    .with_context(|| format!("cannot read {}", crate::cli::shown(path)))?;
    // A terminal (`/dev/tty`) is read as typed puzzles are (`super::foreground`).
    let file: Box<dyn std::io::Read + Send> = if std::io::IsTerminal::is_terminal(&file) {
        super::foreground::terminal(file)
    } else {
        Box::new(file)
    };
    let file = crate::io::blocking::Marked(file);
    NameList::read_from(crate::cli::shown(path), BufReader::new(file))
        .with_context(|| format!("cannot read {}", crate::cli::shown(path)))?
        .map_err(|e| data_error(e.to_string()))
}

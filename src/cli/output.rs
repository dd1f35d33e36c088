//! Where results go: the shared output flags, roster-CSV output gathered for one write, and
//! [`emit`], the single place that writes a command's bytes to stdout or, atomically, to a
//! file (never over the input).
//!
//! Commands serialize their whole result into a buffer first, so that a failure or Ctrl-C
//! half-way leaves no partial file behind.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};

use super::exit::{self, data_error};
use super::input::{NameArgs, has_csv_extension};
use crate::grid::{Puzzle, Shape};
use crate::io::atomic::{same_file, write_atomic};
use crate::io::csv::{Layout, LongWriter, Names, write_roster};
use crate::io::write::OutputFormat;

/// Output flags of the commands that write grids (`fill`, `generate`, `solve`).
#[derive(Debug, Args)]
pub(super) struct OutputArgs {
    /// Write to FILE (atomically: a temporary file renamed into place) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub(super) output: Option<PathBuf>,
    /// Output form [default: grid, or csv when -o FILE ends in .csv].
    #[arg(long, short, value_enum)]
    format: Option<OutputFormatArg>,
    /// Layout of --format csv: wide (a row per staff member, a column per day) or long
    /// (staff,day,shift rows; several grids get a leading grid column) [default: wide].
    #[arg(long, value_enum, value_name = "SHAPE")]
    csv_shape: Option<CsvShapeArg>,
}

/// The layouts of a roster CSV, as flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum CsvShapeArg {
    /// Header staff,<days>; one row per staff member, one column per day.
    Wide,
    /// Header staff,day,shift; one row per assignment.
    Long,
}

impl CsvShapeArg {
    /// The library's name for this layout.
    pub(super) fn to_lib(self) -> Layout {
        match self {
            CsvShapeArg::Wide => Layout::Wide,
            CsvShapeArg::Long => Layout::Long,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OutputFormatArg {
    /// N lines of N cells, `.` for a blank.
    Grid,
    /// One puzzle per line.
    Line,
    /// One JSON object per line.
    Json,
    /// A roster CSV (see --csv-shape and the name files).
    Csv,
}

/// Where output goes: a text format of `io::write`, or a roster CSV.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Out {
    /// Grid, line or JSON text.
    Text(OutputFormat),
    /// A roster CSV in this layout.
    Csv(Layout),
}

impl OutputArgs {
    /// The output form: `--format`, else CSV for an `-o` file ending in `.csv`, else grid.
    ///
    /// # Errors
    /// A usage error for `--csv-shape` without CSV output (it would be ignored).
    pub(super) fn resolve(&self) -> Result<Out> {
        let by_name = self
            .output
            .as_deref()
            .is_some_and(has_csv_extension)
            .then_some(OutputFormatArg::Csv);
        let format = self.format.or(by_name).unwrap_or(OutputFormatArg::Grid);
        let text = match format {
            OutputFormatArg::Csv => {
                let shape = self.csv_shape.unwrap_or(CsvShapeArg::Wide);
                return Ok(Out::Csv(shape.to_lib()));
            }
            OutputFormatArg::Grid => OutputFormat::Grid,
            OutputFormatArg::Line => OutputFormat::Line,
            OutputFormatArg::Json => OutputFormat::Json,
        };
        if self.csv_shape.is_some() {
            return Err(exit::usage_error(
                "--csv-shape applies only to CSV output: add --format csv",
            ));
        }
        Ok(Out::Text(text))
    }
}

/// Roster CSV output, gathered and written in one go.
pub(super) struct CsvOut {
    layout: Layout,
    /// Several grids may come: long CSV with a grid column (decided up front, so that the
    /// columns do not depend on how many grids a run happens to produce).
    several: bool,
    items: Vec<(String, Puzzle, Names)>,
}

impl CsvOut {
    /// CSV output for a run that may write several grids (`several`, because `what`).
    ///
    /// # Errors
    /// A usage error for several grids in a wide CSV, which holds one table.
    pub(super) fn new(
        layout: Layout,
        several: bool,
        what: impl FnOnce() -> String,
    ) -> Result<CsvOut> {
        if several && layout == Layout::Wide {
            return Err(exit::usage_error(format!(
                "a wide CSV holds one roster, but {}: use --csv-shape long, which labels each \
                 grid in a leading grid column",
                what()
            )));
        }
        Ok(CsvOut {
            layout,
            several,
            items: Vec::new(),
        })
    }

    /// Adds a grid (or puzzle) with its label for the long layout's grid column.
    pub(super) fn push(&mut self, label: String, puzzle: Puzzle, names: Names) {
        self.items.push((label, puzzle, names));
    }

    /// The CSV text. Every grid is checked before it is written.
    ///
    /// # Errors
    /// A grid that fails the check, or a CSV writer error.
    pub(super) fn into_bytes(self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        if self.several {
            let mut w = LongWriter::new(&mut out)?;
            for (label, puzzle, names) in &self.items {
                w.write(label, puzzle, names)?;
            }
            w.finish()?;
        } else if let Some((_, puzzle, names)) = self.items.first() {
            write_roster(&mut out, puzzle, names, self.layout)?;
        }
        Ok(out)
    }
}

/// CSV output for grids of one `shape` (fill, generate), with their names, checked before any
/// work: several grids need the long layout, and the name files must fit the shape.
///
/// # Errors
/// A usage error for several grids in a wide CSV; I/O or data errors from the name files.
pub(super) fn csv_for_shape(
    layout: Layout,
    shape: Shape,
    names: &NameArgs,
    several: bool,
    what: impl FnOnce() -> String,
) -> Result<(CsvOut, Names)> {
    let csv = CsvOut::new(layout, several, what)?;
    let custom = names.load()?;
    let names = Names::new(shape, &custom).map_err(|e| data_error(e.to_string()))?;
    Ok((csv, names))
}

/// Sends `bytes` to `output` (atomically) or stdout, refusing to overwrite the input.
///
/// # Errors
/// A usage error when `output` is the input file; I/O errors from writing.
pub(super) fn emit(output: Option<&Path>, input: &Path, bytes: &[u8]) -> Result<()> {
    match output {
        Some(path) if path != Path::new("-") => {
            if input != Path::new("-") && (same_file(path, input) || path == input) {
                return Err(exit::usage_error(format!(
                    "refusing to overwrite the input file {}",
                    path.display()
                )));
            }
            write_atomic(path, |w| w.write_all(bytes))
                .with_context(|| format!("cannot write {}", path.display()))
        }
        _ => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)?;
            out.flush()?;
            Ok(())
        }
    }
}

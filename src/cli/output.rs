//! Where results go: the shared output flags, the [`Sink`] every command writes its results
//! through, and [`emit`], the single place that writes a command's output to stdout or `-o`
//! (atomically for a regular file, straight into a FIFO or device, through symlinks, never
//! over a file the command reads).
//!
//! A command describes each result once, as an [`Entry`]: its grids (a puzzle, a solution),
//! its JSON record, its text lines. The sink picks what the chosen form needs and owns how
//! the forms look: the empty line between grids, the JSON record's shape (what identifies
//! the result, then `box` and `size`, then the command's own fields: see [`Record`]), and the
//! gathering of roster CSV (a wide CSV holds one grid to the end, a long one labels each).
//!
//! Commands serialize their whole result into a [`Spool`] first (memory, then a temporary
//! file), so that a failure or Ctrl-C half-way leaves no partial file behind.
//!
//! This module holds the flags and [`emit`]; `sink` the sink and its forms, `entry` what a
//! command hands it, `record` the JSON records, `roster` the roster CSV, `spool` the spool.

mod entry;
mod record;
mod roster;
mod sink;
mod spool;

use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};

use super::Ctx;
use super::exit;
use super::input::{AlphabetArg, has_csv_extension, has_json_extension, has_tsv_extension};
use crate::io::atomic::{is_stdin, same_file, write_output_unless};
use crate::io::blocking::Marked;
use crate::io::csv::{Delimiter, Dialect, Layout};
use crate::io::parse::Alphabet;
use crate::io::write::OutputFormat;

pub(super) use entry::{Entry, GridRef, Shown};
pub(super) use record::{InBatch, InInput, Record, Rows, first_in_batch};
pub(super) use roster::{note_full_roster_names, note_numbered_out_of_order, shift_names_note};
pub(super) use sink::{Form, Sink, sink_for_shape};
pub(super) use spool::Spool;

/// Output flags of the commands that write grids (`fill`, `generate`, `solve`).
#[derive(Debug, Args)]
pub(super) struct OutputArgs {
    /// Write to FILE (atomically: a temporary file renamed into place) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub(super) output: Option<PathBuf>,
    /// Output form [default: grid; csv when -o FILE ends in .csv or .tsv, json when it ends
    /// in .json, .jsonl or .ndjson].
    #[arg(long, short, value_enum)]
    format: Option<OutputFormatArg>,
    /// Layout of --format csv: wide (a row per staff member, a column per day) or long
    /// (staff,day,shift rows; several grids get a leading grid column) [default: wide].
    #[arg(long, value_enum, value_name = "SHAPE")]
    csv_shape: Option<CsvShapeArg>,
    /// Field delimiter of --format csv [default: tab for -o FILE.tsv; else the input
    /// roster's, where there is one; else comma].
    #[arg(long, value_enum, value_name = "D")]
    delimiter: Option<DelimiterArg>,
    /// Start --format csv with a UTF-8 byte-order mark, which Excel on Windows needs to
    /// read names that are not ASCII (an input roster's mark is kept without it).
    #[arg(long = "utf8-bom")]
    bom: bool,
}

/// The field delimiters of a roster CSV, as flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum DelimiterArg {
    /// `,`
    Comma,
    /// `;` (spreadsheets where the comma is the decimal separator)
    Semicolon,
    /// A tab (a spreadsheet's "Text (Tab delimited)", .tsv)
    Tab,
}

impl DelimiterArg {
    /// The library's name for this delimiter.
    pub(super) fn to_lib(self) -> Delimiter {
        match self {
            DelimiterArg::Comma => Delimiter::Comma,
            DelimiterArg::Semicolon => Delimiter::Semicolon,
            DelimiterArg::Tab => Delimiter::Tab,
        }
    }
}

/// The dialect of a roster CSV written to `output`: the input roster's (`input`), with
/// `delimiter` when given, else tab for a `.tsv` file name; shiftgrid's own otherwise. A
/// byte-order mark when the input had one or `bom` asks for it.
pub(super) fn dialect_for(
    input: Option<Dialect>,
    delimiter: Option<DelimiterArg>,
    bom: bool,
    output: Option<&Path>,
) -> Dialect {
    let mut dialect = input.unwrap_or_default();
    dialect.bom |= bom;
    if let Some(d) = delimiter {
        dialect.delimiter = d.to_lib();
    } else if output.is_some_and(has_tsv_extension) {
        dialect.delimiter = Delimiter::Tab;
    }
    dialect
}

/// The layouts of a roster CSV, as flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum CsvShapeArg {
    /// Header `staff,<days>`; one row per staff member, one column per day.
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
    /// A roster CSV in this layout and dialect.
    Csv(Layout, Dialect),
}

impl Out {
    /// Whether records are JSON (statistics then go in them, not on stderr).
    pub(super) fn is_json(self) -> bool {
        self == Out::Text(OutputFormat::Json)
    }
}

impl OutputArgs {
    /// The output form: `--format`, else CSV for an `-o` file ending in `.csv`, else grid.
    ///
    /// # Errors
    /// A usage error for `--csv-shape` without CSV output (it would be ignored).
    pub(super) fn resolve(&self) -> Result<Out> {
        self.resolve_for(None)
    }

    /// Checks, before any input is read, what is wrong whatever the input: `--csv-shape`,
    /// `--delimiter` or `--utf8-bom` with a text `--format`.
    ///
    /// # Errors
    /// A usage error, as [`OutputArgs::resolve`] gives.
    pub(super) fn check_early(&self) -> Result<()> {
        match self.explicit() {
            Some(OutputFormatArg::Csv) | None => Ok(()),
            Some(_) => self.resolve().map(|_| ()),
        }
    }

    /// Whether CSV output is asked for: `--format csv`, or an `-o` file ending in `.csv`
    /// or `.tsv` without `--format`.
    pub(super) fn asks_for_csv(&self) -> bool {
        self.explicit() == Some(OutputFormatArg::Csv)
    }

    /// The form asked for by `--format` or the `-o` file name (`.csv`, `.tsv`, `.json`), if
    /// any.
    fn explicit(&self) -> Option<OutputFormatArg> {
        let by_name = self.output.as_deref().and_then(|p| {
            if has_csv_extension(p) || has_tsv_extension(p) {
                Some(OutputFormatArg::Csv)
            } else if has_json_extension(p) {
                Some(OutputFormatArg::Json)
            } else {
                None
            }
        });
        self.format.or(by_name)
    }

    /// The output form for a command that reads puzzles (`solve`): as [`resolve`], except
    /// that a roster CSV input (`input` is its layout and dialect) gives a roster CSV in
    /// the same layout and dialect by default: rosters in, rosters out.
    ///
    /// [`resolve`]: OutputArgs::resolve
    ///
    /// # Errors
    /// A usage error for `--csv-shape` without CSV output (it would be ignored).
    pub(super) fn resolve_for(&self, input: Option<(Layout, Dialect)>) -> Result<Out> {
        let default = if input.is_some() {
            OutputFormatArg::Csv
        } else {
            OutputFormatArg::Grid
        };
        let text = match self.explicit().unwrap_or(default) {
            OutputFormatArg::Csv => {
                let shape = self
                    .csv_shape
                    .map(CsvShapeArg::to_lib)
                    .or(input.map(|i| i.0))
                    .unwrap_or(Layout::Wide);
                let dialect = dialect_for(
                    input.map(|i| i.1),
                    self.delimiter,
                    self.bom,
                    self.output.as_deref(),
                );
                return Ok(Out::Csv(shape, dialect));
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
        if self.delimiter.is_some() {
            return Err(exit::usage_error(
                "--delimiter applies only to CSV output: add --format csv",
            ));
        }
        if self.bom {
            return Err(exit::usage_error(
                "--utf8-bom applies only to CSV output: add --format csv",
            ));
        }
        Ok(Out::Text(text))
    }
}

/// The alphabet grids of `shape` are written in for `--alphabet` (`alphabet`) on a command
/// that makes grids (`fill`, `generate`) with output `out`; `reads` when the flag also
/// names the alphabet of an input (`generate --from`), which any output may go with.
///
/// # Errors
/// A usage error when the flag would be ignored: JSON or CSV output (unless it `reads`), or
/// a size the alphabet has no symbol for.
pub(super) fn alphabet_for(
    out: Out,
    alphabet: Option<AlphabetArg>,
    shape: crate::grid::Shape,
    reads: bool,
) -> Result<Alphabet> {
    let Some(arg) = alphabet else {
        return Ok(Alphabet::Numeric);
    };
    let lib = arg.to_lib();
    if lib == Alphabet::Numeric {
        // The default, named: nothing to check.
        return Ok(lib);
    }
    if !matches!(out, Out::Text(OutputFormat::Grid | OutputFormat::Line)) {
        if reads {
            return Ok(lib);
        }
        return Err(exit::usage_error(
            "--alphabet applies to grid and line output (--format grid or line)",
        ));
    }
    if reads {
        return Ok(lib);
    }
    let max = lib.max_side();
    if shape.side() > max || shape.side() <= 9 {
        return Err(exit::usage_error(format!(
            "--alphabet {lib} writes 16x16{} one character per cell, not {shape} (4x4 and \
             9x9 are written in digits)",
            if max == 25 { " and 25x25" } else { "" }
        )));
    }
    Ok(lib)
}

/// Refuses an `output` that is one of the regular files the command reads (`inputs`; `-`
/// for standard input), by any path or hard link, or that could not be written (a
/// directory, a read-only file, a directory that is not there): called by every command
/// before its work, and again by [`emit`].
///
/// # Errors
/// A usage error naming the input; an I/O error for an output that cannot be written.
pub(super) fn refuse_inputs<'a>(
    output: Option<&Path>,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<()> {
    let Some(path) = output.filter(|p| *p != Path::new("-")) else {
        return Ok(());
    };
    crate::io::atomic::check_output(path)
        .with_context(|| format!("cannot write {}", crate::cli::shown(path)))?;
    for input in inputs {
        if input == Path::new("-") && is_stdin(path) {
            return Err(exit::usage_error(format!(
                "refusing to overwrite the input file {} (standard input reads it; -o {})",
                crate::cli::shown(path),
                crate::cli::shown(path)
            )));
        }
        let regular = std::fs::metadata(input).is_ok_and(|m| m.is_file());
        if input != Path::new("-") && regular && (same_file(path, input) || path == input) {
            return Err(exit::usage_error(format!(
                "refusing to overwrite the input file {} (-o {})",
                crate::cli::shown(input),
                crate::cli::shown(path)
            )));
        }
    }
    Ok(())
}

/// What a command writes, for the check of its `-o` name: the extensions that say another
/// form, and its own forms in words.
pub(super) struct Writes {
    foreign: &'static [&'static str],
    what: &'static str,
    /// What to name the file instead of a workbook, image or archive.
    instead: &'static str,
}

/// `fill`, `generate` and `solve`: grids, lines, JSON or a roster CSV.
pub(super) const WRITES_GRIDS: Writes = Writes {
    foreign: &["svg"],
    what: "grids, lines, JSON or a roster CSV (render draws SVG)",
    instead: "name it .csv for a roster that spreadsheets open, or .txt",
};

/// `count` and `grade`: their tab-separated lines or JSON records (not CSV: a spreadsheet
/// would open a `.csv` of tab-separated lines one line to a cell).
pub(super) const WRITES_LINES: Writes = Writes {
    foreign: &["csv", "svg"],
    what: "tab-separated text or JSON lines (.txt, .tsv, .json)",
    instead: "name it .tsv (tab-separated, which spreadsheets open) or .json",
};

/// `export`: a roster CSV.
pub(super) const WRITES_ROSTER: Writes = Writes {
    foreign: &["json", "jsonl", "ndjson", "svg"],
    what: "a roster CSV (.csv, .tsv)",
    instead: "name it .csv, which every spreadsheet opens",
};

/// `render`: SVG.
pub(super) const WRITES_SVG: Writes = Writes {
    foreign: &["json", "jsonl", "ndjson", "csv", "tsv", "txt"],
    what: "SVG (.svg)",
    instead: "name it .svg (a converter such as rsvg-convert makes images and PDFs from it)",
};

/// The checks of `output` every command makes before its work, so that a long run does not
/// end in a refusal: its name says a form the command `writes` (`.svg` for anything but
/// `render`, `.json` for `export`, …: the file would hold something else than its name
/// says), then [`refuse_inputs`].
///
/// # Errors
/// A usage error naming what the command writes; those of [`refuse_inputs`].
pub(super) fn check_output_first<'a>(
    output: Option<&Path>,
    inputs: impl IntoIterator<Item = &'a Path>,
    writes: &Writes,
) -> Result<()> {
    let ext = output
        .and_then(|p| p.extension())
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if let Some(ext) = ext.as_deref().filter(|e| writes.foreign.contains(e)) {
        return Err(exit::usage_error(format!(
            "-o names a .{ext} file, but this command writes {}: {}",
            writes.what, writes.instead
        )));
    }
    if let Some((ext, kind)) = ext.as_deref().and_then(binary_form) {
        return Err(exit::usage_error(format!(
            "-o names a .{ext} file ({kind}), but this command writes {}: {}",
            writes.what, writes.instead
        )));
    }
    refuse_inputs(output, inputs)?;
    // A regular file (or one to make): the output waits beside it.
    if let Some(target) = output.and_then(|p| crate::io::atomic::resolve_target(p).ok()) {
        if std::fs::metadata(&target).map_or(true, |m| m.is_file()) {
            let dir = match target.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => std::path::PathBuf::from("."),
            };
            spool::spool_beside(dir);
        }
    }
    Ok(())
}

/// Extensions of binary forms that no command writes (a workbook, a document, an image,
/// an archive), and what the file would be. Text written under such a name would not open
/// in the program the name promises.
fn binary_form(ext: &str) -> Option<(&str, &'static str)> {
    let kind = match ext {
        "xlsx" | "xlsm" | "xls" | "xlsb" | "ods" | "numbers" => "a spreadsheet workbook",
        "docx" | "doc" | "odt" | "rtf" | "pdf" => "a document",
        "png" | "jpg" | "jpeg" | "gif" | "webp" | "bmp" | "tif" | "tiff" => "an image",
        "zip" | "gz" | "xz" | "bz2" | "zst" | "7z" | "tar" => "an archive",
        _ => return None,
    };
    Some((ext, kind))
}

/// Sends `out` to `output` or stdout. A regular file (or a new one) is replaced atomically,
/// unless there is nothing to write (an existing file is then left as it was, and a new
/// one is not created);
/// a symlink is followed to its target; anything else (a FIFO, a device) is written into.
/// An output that is one of the regular files the command reads (`inputs`: the input and
/// the name files) is refused.
///
/// # Errors
/// A usage error when `output` is an input file; I/O errors from writing.
pub(super) fn emit<'a>(
    ctx: &Ctx,
    output: Option<&Path>,
    inputs: impl IntoIterator<Item = &'a Path>,
    out: impl Into<Spool>,
) -> Result<()> {
    let out = out.into();
    let interrupt = &ctx.control.interrupt;
    let interrupted = |e: &std::io::Error| e.kind() == ErrorKind::Interrupted;
    match output {
        Some(path) if path != Path::new("-") => {
            refuse_inputs(Some(path), inputs)?;
            let existing = std::fs::metadata(path);
            if out.is_empty() && existing.as_ref().map_or(true, |m| m.is_file()) {
                // Nothing to write (every puzzle failed, and said so): an earlier result
                // is not replaced by an empty file, which as CSV could not even be read,
                // and no empty file is made where there was none. (A FIFO or device is
                // still opened and closed, so that its reader sees the end.)
                if !ctx.quiet {
                    let what = if existing.is_ok() {
                        "is left as it was"
                    } else {
                        "was not created"
                    };
                    msg!(
                        "shiftgrid: nothing to write: {} {what}",
                        crate::cli::shown(path)
                    );
                }
                return Ok(());
            }
            let write = |w: &mut dyn Write| out.copy_into(&mut Marked(w), interrupt);
            match write_output_unless(path, write, interrupt) {
                Err(e) if interrupted(&e) => Err(exit::interrupted()),
                Ok(()) if interrupt.load(std::sync::atomic::Ordering::Relaxed) => {
                    // The press came once the file was in place (its directory's sync).
                    if !ctx.quiet {
                        msg!(
                            "shiftgrid: interrupted while writing the output, which was then finished"
                        );
                    }
                    Ok(())
                }
                r => r.with_context(|| format!("cannot write {}", crate::cli::shown(path))),
            }
        }
        _ => {
            if interrupt.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(exit::interrupted());
            }
            // Once stdout has its first byte the output is finished, whatever comes: cut,
            // a redirected file or a pipe's reader would take what came for a whole result.
            // (A second Ctrl-C still exits at once, and a reader that stops reading is
            // caught by the watch for waits.)
            let mut stdout = Marked(std::io::stdout().lock());
            out.copy_into(&mut stdout, &AtomicBool::new(false))
                .context("cannot write <stdout>")?;
            stdout.flush().context("cannot write <stdout>")?;
            if interrupt.load(std::sync::atomic::Ordering::Relaxed) && !ctx.quiet {
                msg!("shiftgrid: interrupted while writing the output, which was then finished");
            }
            Ok(())
        }
    }
}

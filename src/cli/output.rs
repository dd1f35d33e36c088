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

use std::fs::File;
use std::io::{BufWriter, ErrorKind, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use serde::{Serialize, Serializer};

use std::sync::atomic::{AtomicBool, Ordering};

use super::Ctx;
use super::exit::{self, data_error};
use super::input::{NameArgs, has_csv_extension};
use crate::grid::{Grid, Puzzle, Shape};
use crate::io::atomic::{is_stdin, same_file, write_output};
use crate::io::csv::{Layout, LongWriter, Names, write_roster};
use crate::io::write::{OutputFormat, grid_separator, write_cells};

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

/// How much output is copied between checks for Ctrl-C.
const COPY_PIECE: usize = 1 << 20;

/// How much output is held in memory before the rest goes to a temporary file.
const SPOOL_MEMORY: usize = 16 << 20;

/// A command's output until it is complete: in memory up to 16 MiB, then in an anonymous
/// temporary file (removed by the system when the process ends, however it ends). Only a
/// complete result is sent to stdout or `-o`, so a failure or Ctrl-C half-way writes nothing,
/// and a long batch does not hold its whole output in memory.
#[derive(Default)]
pub(super) struct Spool {
    mem: Vec<u8>,
    file: Option<BufWriter<File>>,
}

impl Spool {
    /// An empty spool.
    pub(super) fn new() -> Spool {
        Spool::default()
    }

    /// Copies everything written into `w`, a MiB at a time, stopping with
    /// [`ErrorKind::Interrupted`] when `interrupt` is raised (Ctrl-C during a long write).
    fn copy_into(self, w: &mut dyn Write, interrupt: &AtomicBool) -> std::io::Result<()> {
        let stop = || {
            if interrupt.load(Ordering::Relaxed) {
                Err(std::io::Error::from(ErrorKind::Interrupted))
            } else {
                Ok(())
            }
        };
        match self.file {
            None => {
                for piece in self.mem.chunks(COPY_PIECE) {
                    stop()?;
                    w.write_all(piece)?;
                }
            }
            Some(f) => {
                let mut f = f.into_inner().map_err(|e| e.into_error())?;
                f.seek(SeekFrom::Start(0))?;
                let mut buf = vec![0; COPY_PIECE];
                loop {
                    stop()?;
                    let n = f.read(&mut buf)?;
                    if n == 0 {
                        break;
                    }
                    w.write_all(&buf[..n])?;
                }
            }
        }
        stop()
    }
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(f) = &mut self.file {
            return f.write(buf);
        }
        if self.mem.len() + buf.len() > SPOOL_MEMORY {
            let mut f = BufWriter::new(tempfile::tempfile()?);
            f.write_all(&self.mem)?;
            f.write_all(buf)?;
            self.mem = Vec::new();
            self.file = Some(f);
        } else {
            self.mem.extend_from_slice(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl From<Vec<u8>> for Spool {
    fn from(mem: Vec<u8>) -> Spool {
        Spool { mem, file: None }
    }
}

/// Roster CSV output: several grids are written as they come (long layout), one grid is
/// held until the end (the wide layout needs it whole).
pub(super) struct CsvOut {
    layout: Layout,
    /// Several grids may come: long CSV with a grid column (decided up front, so that the
    /// columns do not depend on how many grids a run happens to produce).
    long: Option<LongWriter<Spool>>,
    single: Option<(Puzzle, Names)>,
}

impl CsvOut {
    /// CSV output for a run that may write several grids (`several`, because `what`).
    ///
    /// # Errors
    /// A usage error for several grids in a wide CSV, which holds one table.
    fn new(layout: Layout, several: bool, what: impl FnOnce() -> String) -> Result<CsvOut> {
        if several && layout == Layout::Wide {
            return Err(exit::usage_error(format!(
                "a wide CSV holds one roster, but {}: use --csv-shape long, which labels each \
                 grid in a leading grid column",
                what()
            )));
        }
        let long = if several {
            Some(LongWriter::new(Spool::new())?)
        } else {
            None
        };
        Ok(CsvOut {
            layout,
            long,
            single: None,
        })
    }

    /// Adds a grid (or puzzle) with its label for the long layout's grid column. Every grid
    /// is checked before it is written.
    ///
    /// # Errors
    /// A grid that fails the check, or a CSV writer error.
    fn push(&mut self, label: &str, puzzle: &Puzzle, names: &Names) -> Result<()> {
        match &mut self.long {
            Some(w) => w.write(label, puzzle, names)?,
            None => {
                if self.single.is_none() {
                    self.single = Some((puzzle.clone(), names.clone()));
                }
            }
        }
        Ok(())
    }

    /// The CSV text.
    ///
    /// # Errors
    /// A grid that fails the check, or a CSV writer error.
    fn into_spool(self) -> Result<Spool> {
        if let Some(w) = self.long {
            return Ok(w.finish()?);
        }
        let mut out = Spool::new();
        if let Some((puzzle, names)) = &self.single {
            write_roster(&mut out, puzzle, names, self.layout)?;
        }
        Ok(out)
    }
}

/// The sink of a run that makes grids of one `shape` (fill, generate), in the output flags'
/// choice `out`. Checked before any work: several grids in a CSV need the long layout, the
/// name files must fit the shape, and name files without CSV output are refused.
///
/// # Errors
/// A usage error for several grids in a wide CSV or for unused name files; I/O or data
/// errors from the name files.
pub(super) fn sink_for_shape(
    out: Out,
    shape: Shape,
    names: &NameArgs,
    several: bool,
    what: impl FnOnce() -> String,
) -> Result<Sink> {
    let layout = match out {
        Out::Text(format) => {
            names.refuse_unused()?;
            return Ok(Sink::new(Form::of(format)));
        }
        Out::Csv(layout) => layout,
    };
    let sink = Sink::csv(layout, several, what)?;
    let custom = names.load()?;
    let names = Names::new(shape, &custom).map_err(|e| data_error(e.to_string()))?;
    Ok(Sink {
        names: Some(names),
        ..sink
    })
}

/// What a [`Sink`] writes.
pub(super) enum Form {
    /// Grids as text in the grid or line format of [`crate::io::write`].
    Grids(OutputFormat),
    /// One JSON [`Record`] per result and line.
    Json,
    /// The command's own text lines (`count`, `grade`).
    Text,
    /// A roster CSV of the grids (boxed: it holds a CSV writer, the others next to nothing).
    Csv(Box<CsvOut>),
}

impl Form {
    /// The form for the text output `format` (JSON records, or grids).
    pub(super) fn of(format: OutputFormat) -> Form {
        match format {
            OutputFormat::Json => Form::Json,
            OutputFormat::Grid | OutputFormat::Line => Form::Grids(format),
        }
    }
}

/// One grid of a result, as the grid, line and CSV forms write it.
pub(super) struct Shown<'a> {
    /// Its label in a long CSV's grid column.
    pub(super) label: String,
    /// The grid.
    pub(super) grid: GridRef<'a>,
}

/// A puzzle (blanks allowed) or a full grid.
#[derive(Clone, Copy)]
pub(super) enum GridRef<'a> {
    /// A puzzle.
    Puzzle(&'a Puzzle),
    /// A full grid.
    Grid(&'a Grid),
}

impl GridRef<'_> {
    fn shape(self) -> Shape {
        match self {
            GridRef::Puzzle(p) => p.shape(),
            GridRef::Grid(g) => g.shape(),
        }
    }

    fn cells(&self) -> &[u8] {
        match self {
            GridRef::Puzzle(p) => p.cells(),
            GridRef::Grid(g) => g.cells(),
        }
    }
}

/// One result of a command as every output form sees it. A command implements what its
/// forms use; the rest is empty.
pub(super) trait Entry {
    /// The JSON record ([`Form::Json`]); `null` for an entry of a command without JSON
    /// output.
    fn record(&self) -> impl Serialize {}

    /// The grids ([`Form::Grids`], [`Form::Csv`]), in the order written.
    fn grids(&self) -> Vec<Shown<'_>> {
        Vec::new()
    }

    /// The roster names of the grids in a CSV, when they are the entry's own (a roster
    /// read from CSV keeps its names); `None` for the sink's names.
    ///
    /// # Errors
    /// The names do not fit the grid.
    fn names(&self) -> Result<Option<Names>> {
        Ok(None)
    }

    /// The text lines ([`Form::Text`]).
    ///
    /// # Errors
    /// A failed write.
    fn text(&self, _out: &mut dyn Write) -> std::io::Result<()> {
        Ok(())
    }
}

/// The JSON record of one result, one per line: what identifies the result (`key`: its
/// place in the input, [`InInput`], or in a batch, [`InBatch`]), then the grid's `box` and
/// `size` when the record shows cells, then the command's own `fields`.
#[derive(Serialize)]
pub(super) struct Record<K, M> {
    #[serde(flatten)]
    key: K,
    #[serde(flatten)]
    shape: Option<ShapeJson>,
    #[serde(flatten)]
    fields: M,
}

impl<K: Serialize, M: Serialize> Record<K, M> {
    /// A record of a result of `shape` (`None` leaves out `box` and `size`).
    pub(super) fn new(key: K, shape: Option<Shape>, fields: M) -> Record<K, M> {
        Record {
            key,
            shape: shape.map(|s| ShapeJson {
                box_size: s.box_size(),
                size: s.side(),
            }),
            fields,
        }
    }
}

#[derive(Serialize)]
struct ShapeJson {
    #[serde(rename = "box")]
    box_size: usize,
    size: usize,
}

/// A record's key for a puzzle of the input: its 1-based number and the line it starts on.
#[derive(Serialize)]
pub(super) struct InInput {
    puzzle: usize,
    line: usize,
}

impl InInput {
    /// The key of the puzzle with 0-based `index` starting on `line`.
    pub(super) fn new(index: usize, line: usize) -> InInput {
        InInput {
            puzzle: index + 1,
            line,
        }
    }
}

/// A record's key for a grid a run made: its 1-based number in the batch and its seed.
#[derive(Serialize)]
pub(super) struct InBatch {
    /// 1-based.
    pub(super) index: u64,
    /// The seed it was made from.
    pub(super) seed: u64,
}

/// Cells in JSON: one array per row (`0` for a blank).
pub(super) struct Rows<'a>(pub(super) &'a [u8], pub(super) Shape);

impl Serialize for Rows<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.chunks(self.1.side()))
    }
}

/// Where a command's results go, in the form its flags chose, until [`Sink::finish`].
pub(super) struct Sink {
    form: Form,
    out: Spool,
    /// Grids written in [`Form::Grids`], for the separator between them.
    written: usize,
    /// The roster names of every grid in [`Form::Csv`], unless entries bring their own.
    names: Option<Names>,
}

impl Sink {
    /// An empty sink writing in `form`.
    pub(super) fn new(form: Form) -> Sink {
        Sink {
            form,
            out: Spool::new(),
            written: 0,
            names: None,
        }
    }

    /// A roster CSV sink for a run that may write several grids (`several`, because
    /// `what`); its entries bring their own names.
    ///
    /// # Errors
    /// A usage error for several grids in a wide CSV, which holds one table.
    pub(super) fn csv(
        layout: Layout,
        several: bool,
        what: impl FnOnce() -> String,
    ) -> Result<Sink> {
        Ok(Sink::new(Form::Csv(Box::new(CsvOut::new(
            layout, several, what,
        )?))))
    }

    /// A sink for the output flags' choice `out`; `csv` makes the roster CSV output (and
    /// refuses what cannot be written) when that is the choice.
    ///
    /// # Errors
    /// What `csv` returns.
    pub(super) fn for_out(out: Out, csv: impl FnOnce(Layout) -> Result<Sink>) -> Result<Sink> {
        match out {
            Out::Csv(layout) => csv(layout),
            Out::Text(format) => Ok(Sink::new(Form::of(format))),
        }
    }

    /// Writes one result in the sink's form. Every grid is checked before it goes into a
    /// CSV.
    ///
    /// # Errors
    /// A failed write, names that do not fit, or a grid that fails the check.
    pub(super) fn push(&mut self, e: &impl Entry) -> Result<()> {
        match &mut self.form {
            Form::Json => {
                serde_json::to_writer(&mut self.out, &e.record())?;
                self.out.write_all(b"\n")?;
            }
            Form::Text => e.text(&mut self.out)?,
            Form::Grids(format) => {
                for shown in e.grids() {
                    if self.written > 0 {
                        self.out.write_all(grid_separator(*format).as_bytes())?;
                    }
                    let g = shown.grid;
                    write_cells(&mut self.out, g.shape(), g.cells(), *format)?;
                    self.written += 1;
                }
            }
            Form::Csv(csv) => {
                let grids = e.grids();
                if grids.is_empty() {
                    return Ok(());
                }
                let own = e.names()?;
                let names = own
                    .as_ref()
                    .or(self.names.as_ref())
                    .expect("a CSV sink has names, or its entries bring their own");
                for shown in grids {
                    match shown.grid {
                        GridRef::Puzzle(p) => csv.push(&shown.label, p, names)?,
                        GridRef::Grid(g) => csv.push(&shown.label, &g.to_puzzle(), names)?,
                    }
                }
            }
        }
        Ok(())
    }

    /// The whole output.
    ///
    /// # Errors
    /// A grid that fails the check, or a CSV writer error.
    pub(super) fn finish(self) -> Result<Spool> {
        match self.form {
            Form::Csv(csv) => csv.into_spool(),
            _ => Ok(self.out),
        }
    }
}

/// Sends `out` to `output` or stdout. A regular file (or a new one) is replaced atomically;
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
            for input in inputs {
                if input == Path::new("-") && is_stdin(path) {
                    return Err(exit::usage_error(format!(
                        "refusing to overwrite the input file {} (standard input reads it; -o {})",
                        path.display(),
                        path.display()
                    )));
                }
                let regular = std::fs::metadata(input).is_ok_and(|m| m.is_file());
                if input != Path::new("-") && regular && (same_file(path, input) || path == input) {
                    return Err(exit::usage_error(format!(
                        "refusing to overwrite the input file {} (-o {})",
                        input.display(),
                        path.display()
                    )));
                }
            }
            match write_output(path, |w| out.copy_into(w, interrupt)) {
                Err(e) if interrupted(&e) => Err(exit::interrupted()),
                r => r.with_context(|| format!("cannot write {}", path.display())),
            }
        }
        _ => {
            let mut stdout = std::io::stdout().lock();
            match out.copy_into(&mut stdout, interrupt) {
                Err(e) if interrupted(&e) => return Err(exit::interrupted()),
                r => r?,
            }
            stdout.flush()?;
            Ok(())
        }
    }
}

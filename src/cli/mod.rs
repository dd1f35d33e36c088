//! The command-line layer: clap structures, their validation into library calls, terminal
//! output and exit codes. Nothing below this module knows about flags or terminals.

mod exit;
mod grade;
pub mod progress;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};
use rayon::prelude::*;
use serde::Serialize;

pub use exit::{CliError, Exit, exit_code_of, is_broken_pipe};

use crate::dlx::{BatchSolver, Outcome, SearchControl, SolveLimits, Solver, Stats, Verdict};
use crate::generate::fill::{FillConfig, Filled, Filler, batch_seed};
use crate::generate::{Fallback, GenerateConfig, Generated, Symmetry, Target, generate};
use crate::grid::{Puzzle, Shape};
use crate::io::atomic::{same_file, write_atomic};
use crate::io::csv::{
    Axis, CsvErrorKind, CustomNames, Layout, LongWriter, NameList, Names, read_rosters,
    write_roster,
};
use crate::io::parse::{Alphabet, InputFormat, ParseOptions, Record, parse_bytes};
use crate::io::write::{OutputFormat, write_grid, write_puzzle};

/// shiftgrid: build, solve, count and export schedule-shaped sudoku grids, 4x4 to 100x100.
///
/// A grid is a roster: rows are staff, columns are days, the symbol in a cell is a shift.
#[derive(Debug, Parser)]
#[command(name = "shiftgrid", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    global: GlobalArgs,
}

#[derive(Debug, Args)]
struct GlobalArgs {
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', global = true, value_name = "T")]
    threads: Option<usize>,
    /// No progress bars or notes on stderr (errors are still printed).
    #[arg(long, short, global = true)]
    quiet: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Fill an empty board with a random valid grid (a blank-grid solution).
    ///
    /// The same --seed with the same --threads gives the same grid: the thread count sets
    /// how many searches race from different root branches, and so which grid wins.
    Fill(FillArgs),
    /// Generate puzzles whose unique solution is proven, by blanking a random grid.
    ///
    /// Defaults: minimal puzzles (complete proofs) up to 16x16; above that one pass of
    /// propagation proofs (no search). Every puzzle is unique by construction: a removal
    /// that is not proven keeps its givens.
    Generate(GenerateArgs),
    /// Solve every puzzle in the input and print each solution.
    ///
    /// Each puzzle is searched for a second solution too, so a puzzle with several is
    /// reported (exit status 1) unless --first is given.
    Solve(SolveArgs),
    /// Count the solutions of every puzzle, up to --limit.
    ///
    /// 0 means the givens contradict each other, 1 a proper puzzle, more an improper one.
    Count(CountArgs),
    /// Write puzzles or grids (any input format, CSV included) as a roster CSV.
    ///
    /// Wide: a header `staff,<day 1>,...`, then one row per staff member with the shift
    /// names (empty for a blank). Long: `staff,day,shift`, one row per assignment; several
    /// grids get a leading `grid` column.
    Export(ExportArgs),
    /// Grade puzzles by human solving techniques: technique level L (1..8), step count S,
    /// per-technique counts, and with --explain the step log as hints.
    Grade(grade::GradeArgs),
    /// Draw the first puzzle of the input as SVG, ready to print (poster size at 100x100).
    Render(RenderArgs),
}

#[derive(Debug, Args)]
struct InputArgs {
    /// Puzzle file, or - for standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    input: PathBuf,
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
struct NameArgs {
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

#[derive(Debug, Args)]
struct OutputArgs {
    /// Write to FILE (atomically: a temporary file renamed into place) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Output form [default: grid, or csv when -o FILE ends in .csv].
    #[arg(long, short, value_enum)]
    format: Option<OutputFormatArg>,
    /// Layout of --format csv: wide (a row per staff member, a column per day) or long
    /// (staff,day,shift rows; several grids get a leading grid column) [default: wide].
    #[arg(long, value_enum, value_name = "SHAPE")]
    csv_shape: Option<CsvShapeArg>,
}

#[derive(Debug, Args)]
struct SolveArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    names: NameArgs,
    /// Stop at the first solution without checking that it is the only one.
    #[arg(long)]
    first: bool,
    /// Print per-puzzle search statistics on stderr (in the record with --format json).
    #[arg(long)]
    stats: bool,
}

#[derive(Debug, Args)]
struct FillArgs {
    /// Box size b: the grid is b²×b² (2..10: 4x4 up to 100x100).
    #[arg(long = "box", short, value_name = "B")]
    box_size: usize,
    /// Seed for the random choices (default: picked at random and printed on stderr).
    #[arg(long, short, value_name = "S")]
    seed: Option<u64>,
    /// Number of grids; grid i is seeded from the run seed and i, and grids are made in
    /// parallel, one thread each.
    #[arg(long, short = 'n', default_value_t = 1, value_name = "M",
          value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    names: NameArgs,
    /// Print search statistics on stderr.
    #[arg(long)]
    stats: bool,
}

#[derive(Debug, Args)]
struct GenerateArgs {
    /// Box size b: puzzles are b²×b² (2..10: 4x4 up to 100x100).
    #[arg(long = "box", short, value_name = "B")]
    box_size: usize,
    /// Seed (default: picked at random and printed on stderr). Same seed, same puzzle,
    /// whatever the thread count (unless a time limit cuts the run short).
    #[arg(long, short, value_name = "S")]
    seed: Option<u64>,
    /// Symmetry of the pattern of givens.
    #[arg(long, value_enum, default_value_t = SymmetryArg::Rot180)]
    symmetry: SymmetryArg,
    /// Stop at K givens or fewer (or report the lowest reached).
    #[arg(long, value_name = "K", conflicts_with = "minimal")]
    givens: Option<usize>,
    /// Blank until no given (orbit) can go, proving each step with a complete search.
    #[arg(long)]
    minimal: bool,
    /// When propagation is silent, back it with a small search and a DLX count capped at
    /// NODES (0: propagation only, the default above 16x16).
    #[arg(long, value_name = "NODES", conflicts_with = "minimal")]
    dlx_nodes: Option<u64>,
    /// Stop after this long with the best unique puzzle so far (e.g. 30s, 2m, 500ms).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    time_limit: Option<std::time::Duration>,
    /// Number of puzzles; puzzle i is seeded from the run seed and i.
    #[arg(long, short = 'n', default_value_t = 1, value_name = "M",
          value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,
    /// Also print each puzzle's solution after it.
    #[arg(long)]
    solution: bool,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    names: NameArgs,
    /// Print statistics (givens, checks, how each was proven, time) on stderr.
    #[arg(long)]
    stats: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum SymmetryArg {
    None,
    Rot180,
    Rot90,
    Mirror,
    Diagonal,
    AntiDiagonal,
    Dihedral,
}

/// Parses `500ms`, `30s`, `2m`, `1h` or a plain number of seconds.
fn parse_duration(s: &str) -> std::result::Result<std::time::Duration, String> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let x: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("not a duration: {s:?} (try 30s, 2m, 500ms)"))?;
    let secs = match unit {
        "ms" => x / 1000.0,
        "s" => x,
        "m" => x * 60.0,
        "h" => x * 3600.0,
        _ => return Err(format!("unknown unit {unit:?} (use ms, s, m or h)")),
    };
    if !secs.is_finite() || secs < 0.0 {
        return Err(format!("not a duration: {s:?}"));
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

#[derive(Debug, Args)]
struct CountArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Stop counting at K solutions (2 proves uniqueness).
    #[arg(long, short, default_value_t = 2, value_name = "K",
          value_parser = clap::value_parser!(u64).range(1..))]
    limit: u64,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Output form: text (tab-separated lines) or json (one object per line).
    #[arg(long, short, value_enum, default_value_t = CountFormat::Text)]
    format: CountFormat,
    /// Print per-puzzle search statistics.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    names: NameArgs,
}

#[derive(Debug, Args)]
struct ExportArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// CSV layout: wide (a row per staff member, a column per day) or long (staff,day,shift
    /// rows; several grids get a leading grid column).
    #[arg(long, value_enum, value_name = "SHAPE", default_value_t = CsvShapeArg::Wide)]
    csv_shape: CsvShapeArg,
    #[command(flatten)]
    names: NameArgs,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum CsvShapeArg {
    /// Header staff,<days>; one row per staff member, one column per day.
    Wide,
    /// Header staff,day,shift; one row per assignment.
    Long,
}

impl CsvShapeArg {
    fn to_lib(self) -> Layout {
        match self {
            CsvShapeArg::Wide => Layout::Wide,
            CsvShapeArg::Long => Layout::Long,
        }
    }
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

#[derive(Clone, Copy, Debug, ValueEnum)]
enum CountFormat {
    Text,
    Json,
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

fn has_csv_extension(path: &Path) -> bool {
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

/// Where output goes: a text format of `io::write`, or a roster CSV.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Out {
    Text(OutputFormat),
    Csv(Layout),
}

impl OutputArgs {
    /// The output form: `--format`, else CSV for an `-o` file ending in `.csv`, else grid.
    ///
    /// # Errors
    /// A usage error for `--csv-shape` without CSV output (it would be ignored).
    fn resolve(&self) -> Result<Out> {
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

impl NameArgs {
    /// Reads and checks the name files given.
    ///
    /// # Errors
    /// An I/O error for a file that cannot be read, a data error (`file:line:col: message`)
    /// for a bad or repeated name.
    fn load(&self) -> Result<CustomNames> {
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
    fn refuse_unused(&self) -> Result<()> {
        if self.staff.is_some() || self.days.is_some() || self.shifts.is_some() {
            return Err(exit::usage_error(
                "--staff, --days and --shifts name the rows, columns and shifts of roster CSVs: \
                 use them with --format csv or CSV input",
            ));
        }
        Ok(())
    }
}

/// A "bad input data" error (exit status 65) with a message.
fn data_error(message: impl Into<String>) -> anyhow::Error {
    CliError {
        message: message.into(),
        exit: Exit::DataErr,
    }
    .into()
}

/// The flag that gives the names of `axis`.
fn names_flag(axis: Axis) -> &'static str {
    match axis {
        Axis::Staff => "--staff",
        Axis::Day => "--days",
        Axis::Shift => "--shifts",
    }
}

/// Roster CSV output, gathered and written in one go.
struct CsvOut {
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
    fn new(layout: Layout, several: bool, what: impl FnOnce() -> String) -> Result<CsvOut> {
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

    fn push(&mut self, label: String, puzzle: Puzzle, names: Names) {
        self.items.push((label, puzzle, names));
    }

    /// The CSV text. Every grid is checked before it is written.
    fn into_bytes(self) -> Result<Vec<u8>> {
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

/// The puzzles of the input, read from text or a roster CSV.
struct Loaded {
    /// The input's name for messages.
    name: String,
    records: Vec<Record>,
    /// For a roster CSV: each record's grid label and names.
    rosters: Option<Vec<(Option<String>, Names)>>,
}

impl Loaded {
    /// Record `i`'s label in a long CSV's grid column: the input's own, or its number.
    fn label(&self, i: usize) -> String {
        self.rosters
            .as_ref()
            .and_then(|r| r[i].0.clone())
            .unwrap_or_else(|| (i + 1).to_string())
    }

    /// The names to write record `i` with: a roster's own, or the name files (defaults) for
    /// its shape.
    fn names(&self, i: usize, shape: Shape, custom: &CustomNames) -> Result<Names> {
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
fn load_puzzles(
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

/// Everything a command needs from the process: flags shared by all, the interrupt flag.
struct Ctx {
    quiet: bool,
    control: SearchControl,
}

/// Parses the process arguments and runs the command.
///
/// # Errors
/// Any failure, carrying its exit status (see [`exit_code_of`]).
pub fn run() -> Result<Exit> {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help/version to stdout and errors to stderr.
            let _ = e.print();
            return Ok(if e.use_stderr() {
                Exit::Usage
            } else {
                Exit::Success
            });
        }
    };
    if let Some(t) = cli.global.threads {
        if t == 0 {
            return Err(exit::usage_error("--threads must be at least 1"));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .context("starting the thread pool")?;
    }
    let ctx = Ctx {
        quiet: cli.global.quiet,
        control: SearchControl::default(),
    };
    progress::install_ctrlc(Arc::clone(&ctx.control.interrupt));
    match cli.command {
        Command::Fill(args) => fill(&ctx, &args),
        Command::Generate(args) => generate_cmd(&ctx, &args),
        Command::Solve(args) => solve(&ctx, &args),
        Command::Count(args) => count(&ctx, &args),
        Command::Grade(args) => grade::run_with(&args, ctx.quiet, &ctx.control.interrupt),
        Command::Render(args) => render(&ctx, &args),
        Command::Export(args) => export(&args),
    }
}

/// The input's name for messages, and its bytes.
#[derive(Debug, Args)]
struct RenderArgs {
    /// The first puzzle of the input is drawn.
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    names: NameArgs,
    /// Solve the puzzle and draw the filled cells in another colour.
    #[arg(long)]
    solve: bool,
    /// Pencil-mark candidates in blank cells (up to 25x25).
    #[arg(long, conflicts_with = "solve")]
    candidates: bool,
    /// Staff and day labels around the grid.
    #[arg(long)]
    labels: bool,
    /// Cell size in pixels (default: chosen from the grid size).
    #[arg(long, value_name = "PX")]
    cell_px: Option<f64>,
    /// Write the SVG to FILE (atomically) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

fn render(ctx: &Ctx, args: &RenderArgs) -> Result<Exit> {
    let (input, _) = load_puzzles(&args.input, &args.names, false)?;
    let (name, records) = (&input.name, &input.records);
    let Some(first) = records.first() else {
        return Ok(Exit::DataErr);
    };
    let puzzle = match &first.puzzle {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{name}:{}:{}: {}", e.line, e.col, e.kind);
            return Ok(Exit::DataErr);
        }
    };
    if let Err(e) = puzzle.check() {
        eprintln!("{name}:{}: {e}", first.line);
        return Ok(Exit::DataErr);
    }
    let solution = if args.solve {
        let o = crate::logic::race(puzzle, &SolveLimits::count_up_to(2), &ctx.control)
            .expect("checked just above");
        if ctx.control.interrupt.load(Ordering::Relaxed) {
            return Err(exit::interrupted());
        }
        match o.solutions.into_iter().next() {
            Some(g) => Some(g),
            None => {
                eprintln!("{name}:{}: the puzzle has no solution", first.line);
                return Ok(Exit::NotProper);
            }
        }
    } else {
        None
    };
    let svg_opts = crate::io::svg::SvgOptions {
        cell_px: args.cell_px,
        show_candidates: args.candidates,
        labels: args.labels,
        title: Some(format!("{} puzzle from {name}", puzzle.shape())),
    };
    let svg = crate::io::svg::render_svg(puzzle, solution.as_ref(), &svg_opts)
        .map_err(|e| exit::usage_error(e.to_string()))?;
    emit(args.output.as_deref(), &args.input.input, svg.as_bytes())?;
    Ok(Exit::Success)
}

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

/// Sends `bytes` to `output` (atomically) or stdout, refusing to overwrite the input.
fn emit(output: Option<&Path>, input: &Path, bytes: &[u8]) -> Result<()> {
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

/// One puzzle's search, run in parallel across puzzles, or with root splitting when there
/// are fewer puzzles than threads.
fn search_all(ctx: &Ctx, puzzles: &[(usize, &Puzzle)], limits: &SolveLimits) -> Vec<Outcome> {
    let visible = progress::show_progress(ctx.quiet);
    let bar = progress::Progress::new(visible, puzzles.len() as u64, "puzzles", &ctx.control, None);
    let split = puzzles.len() < rayon::current_num_threads();
    let outcomes: Vec<Outcome> = puzzles
        .par_iter()
        .map_init(
            || None::<BatchSolver>,
            |batch, (_, p)| {
                let o = if p.shape().box_size() >= 5 {
                    // 25x25 and up: DLX and the propagation engine race (each wins on
                    // puzzles where the other can take minutes; see `logic::race`).
                    crate::logic::race(p, limits, &ctx.control)
                        .expect("puzzles were checked while parsing")
                } else if split {
                    Solver::new(p)
                        .expect("puzzles were checked while parsing")
                        .solve_parallel(limits, &ctx.control)
                } else {
                    // Small shapes: reuse one full matrix per thread (no per-puzzle build).
                    if batch.as_ref().is_none_or(|b| b.shape() != p.shape()) {
                        *batch = Some(BatchSolver::new(p.shape()));
                    }
                    batch
                        .as_mut()
                        .expect("set just above")
                        .solve(p, limits, &ctx.control)
                        .expect("puzzles were checked while parsing")
                };
                bar.done.fetch_add(1, Ordering::Relaxed);
                o
            },
        )
        .collect();
    bar.finish();
    outcomes
}

/// Reports bad records on stderr and returns the good ones with their index.
fn good_records<'a>(name: &str, records: &'a [Record]) -> (Vec<(usize, &'a Puzzle)>, usize) {
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

#[derive(Serialize)]
struct StatsJson {
    nodes: u64,
    updates: u64,
    dead_ends: u64,
    micros: u128,
}

impl StatsJson {
    fn new(s: &Stats, o: &Outcome) -> StatsJson {
        StatsJson {
            nodes: s.nodes,
            updates: s.updates,
            dead_ends: s.dead_ends,
            micros: o.elapsed.as_micros(),
        }
    }
}

fn stats_line(name: &str, line: usize, index: usize, o: &Outcome) -> String {
    format!(
        "{name}:{line}: puzzle {}: {} solution{}{}, {} nodes, {} updates, {} dead ends, {:.3} ms",
        index + 1,
        o.count,
        if o.count == 1 { "" } else { "s" },
        if o.complete { "" } else { " (interrupted)" },
        o.stats.nodes,
        o.stats.updates,
        o.stats.dead_ends,
        o.elapsed.as_secs_f64() * 1e3
    )
}

fn solve(ctx: &Ctx, args: &SolveArgs) -> Result<Exit> {
    let out_form = args.output.resolve()?;
    let (input, custom) = load_puzzles(&args.input, &args.names, matches!(out_form, Out::Csv(_)))?;
    let (name, records) = (&input.name, &input.records);
    let (good, bad) = good_records(name, records);
    if good.is_empty() {
        // Nothing could be read: write no output at all (not even an empty file).
        return Ok(Exit::DataErr);
    }
    // CSV output: refuse what cannot be written, and find every grid's names, before solving.
    let mut csv = match out_form {
        Out::Csv(layout) => Some(CsvOut::new(layout, records.len() > 1, || {
            format!("{name} holds {} puzzles", records.len())
        })?),
        Out::Text(_) => None,
    };
    let csv_names: Vec<Names> = match csv {
        Some(_) => good
            .iter()
            .map(|(i, p)| input.names(*i, p.shape(), &custom))
            .collect::<Result<_>>()?,
        None => Vec::new(),
    };
    let limits = if args.first {
        SolveLimits::first()
    } else {
        SolveLimits::count_up_to(2)
    };
    let outcomes = search_all(ctx, &good, &limits);
    if ctx.control.interrupt.load(Ordering::Relaxed) {
        return Err(exit::interrupted());
    }
    let mut out = Vec::new();
    let mut not_proper = 0usize;
    let mut written = 0usize;
    for (k, ((i, puzzle), o)) in good.iter().zip(&outcomes).enumerate() {
        let line = records[*i].line;
        if args.stats && !ctx.quiet {
            eprintln!("{}", stats_line(name, line, *i, o));
        }
        let verdict = o.verdict();
        match verdict {
            Some(Verdict::None) => {
                not_proper += 1;
                eprintln!("{name}:{line}: puzzle {} has no solution", i + 1);
            }
            Some(Verdict::Multiple) if !args.first => {
                not_proper += 1;
                eprintln!(
                    "{name}:{line}: puzzle {} has more than one solution; printing one",
                    i + 1
                );
            }
            _ => {}
        }
        if let Some(csv) = csv.as_mut() {
            if let Some(g) = o.solutions.first() {
                csv.push(input.label(*i), g.to_puzzle(), csv_names[k].clone());
            }
        } else if out_form == Out::Text(OutputFormat::Json) {
            #[derive(Serialize)]
            struct SolveJson<'a> {
                puzzle: usize,
                line: usize,
                #[serde(rename = "box")]
                box_size: usize,
                size: usize,
                givens: usize,
                status: &'static str,
                solution: Option<Vec<&'a [u8]>>,
                #[serde(skip_serializing_if = "Option::is_none")]
                stats: Option<StatsJson>,
            }
            let status = match (verdict, args.first) {
                (Some(Verdict::None), _) => "none",
                (Some(Verdict::Unique), false) => "unique",
                (Some(Verdict::Multiple), false) => "multiple",
                _ => "solved",
            };
            let rec = SolveJson {
                puzzle: i + 1,
                line,
                box_size: puzzle.shape().box_size(),
                size: puzzle.shape().side(),
                givens: puzzle.givens(),
                status,
                solution: o
                    .solutions
                    .first()
                    .map(|g| g.cells().chunks(g.shape().side()).collect()),
                stats: args.stats.then(|| StatsJson::new(&o.stats, o)),
            };
            serde_json::to_writer(&mut out, &rec)?;
            out.push(b'\n');
        } else if let (Some(g), Out::Text(format)) = (o.solutions.first(), out_form) {
            if format == OutputFormat::Grid && written > 0 {
                out.push(b'\n');
            }
            write_grid(&mut out, g, format)?;
            written += 1;
        }
    }
    if let Some(csv) = csv {
        out = csv.into_bytes()?;
    }
    emit(args.output.output.as_deref(), &args.input.input, &out)?;
    Ok(final_status(bad, not_proper))
}

fn fill(ctx: &Ctx, args: &FillArgs) -> Result<Exit> {
    let shape = Shape::new(args.box_size).map_err(|e| exit::usage_error(e.to_string()))?;
    let out_form = args.output.resolve()?;
    let mut csv = match out_form {
        Out::Csv(layout) => Some(csv_for_shape(
            layout,
            shape,
            &args.names,
            args.count > 1,
            || format!("--count {} makes {} grids", args.count, args.count),
        )?),
        Out::Text(_) => {
            args.names.refuse_unused()?;
            None
        }
    };
    let seed = pick_seed(ctx, args.seed);
    let visible = progress::show_progress(ctx.quiet);
    let bar = progress::Progress::new(
        visible,
        args.count,
        "grids",
        &ctx.control,
        Some(shape.cells() as u64),
    );
    let filler = Filler::empty(shape);
    let fill_one = |cfg: &FillConfig| {
        filler
            .fill(cfg, &ctx.control)
            .expect("the empty board always has a completion")
    };
    let results: Vec<Option<Filled>> = if args.count == 1 {
        vec![fill_one(&FillConfig::new(seed))]
    } else {
        (0..args.count)
            .into_par_iter()
            .map(|i| {
                let cfg = FillConfig {
                    workers: 1,
                    ..FillConfig::new(batch_seed(seed, i))
                };
                let r = fill_one(&cfg);
                bar.done.fetch_add(1, Ordering::Relaxed);
                r
            })
            .collect()
    };
    bar.finish();
    if ctx.control.interrupt.load(Ordering::Relaxed) || results.iter().any(Option::is_none) {
        return Err(exit::interrupted());
    }
    let mut out = Vec::new();
    for (i, f) in results.iter().flatten().enumerate() {
        let grid_seed = if args.count == 1 {
            seed
        } else {
            batch_seed(seed, i as u64)
        };
        if args.stats && !ctx.quiet {
            eprintln!(
                "grid {}: seed {grid_seed}, {:.3} s (matrix {:.3} s), {} nodes, {} dead ends, \
                 {} restarts, worker {} of {}",
                i + 1,
                f.elapsed.as_secs_f64(),
                f.build_time.as_secs_f64(),
                f.total_nodes,
                f.stats.dead_ends,
                f.stats.restarts,
                f.winner + 1,
                f.workers
            );
        }
        if let Some((csv, names)) = csv.as_mut() {
            csv.push((i + 1).to_string(), f.grid.to_puzzle(), names.clone());
            continue;
        }
        match out_form {
            Out::Text(OutputFormat::Json) => {
                #[derive(Serialize)]
                struct FillJson<'a> {
                    index: usize,
                    seed: u64,
                    #[serde(rename = "box")]
                    box_size: usize,
                    size: usize,
                    cells: Vec<&'a [u8]>,
                }
                serde_json::to_writer(
                    &mut out,
                    &FillJson {
                        index: i + 1,
                        seed: grid_seed,
                        box_size: shape.box_size(),
                        size: shape.side(),
                        cells: f.grid.cells().chunks(shape.side()).collect(),
                    },
                )?;
                out.push(b'\n');
            }
            Out::Text(format) => {
                if format == OutputFormat::Grid && i > 0 {
                    out.push(b'\n');
                }
                write_grid(&mut out, &f.grid, format)?;
            }
            Out::Csv(_) => unreachable!("CSV output is gathered above"),
        }
    }
    if let Some((csv, _)) = csv {
        out = csv.into_bytes()?;
    }
    emit(args.output.output.as_deref(), Path::new("-"), &out)?;
    Ok(Exit::Success)
}

/// CSV output for grids of one `shape` (fill, generate), with their names, checked before any
/// work: several grids need the long layout, and the name files must fit the shape.
fn csv_for_shape(
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

fn pick_seed(ctx: &Ctx, seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let s = rand::random::<u64>();
        if !ctx.quiet {
            eprintln!("shiftgrid: seed {s} (repeat with --seed {s})");
        }
        s
    })
}

fn generate_cmd(ctx: &Ctx, args: &GenerateArgs) -> Result<Exit> {
    let shape = Shape::new(args.box_size).map_err(|e| exit::usage_error(e.to_string()))?;
    let out_form = args.output.resolve()?;
    let several = args.count > 1 || args.solution;
    let mut csv = match out_form {
        Out::Csv(layout) => Some(csv_for_shape(layout, shape, &args.names, several, || {
            if args.count > 1 {
                format!("--count {} makes {} puzzles", args.count, args.count)
            } else {
                "--solution adds the solution as a second grid".to_string()
            }
        })?),
        Out::Text(_) => {
            args.names.refuse_unused()?;
            None
        }
    };
    let seed = pick_seed(ctx, args.seed);
    let mut base = GenerateConfig::for_shape(shape, seed);
    base.symmetry = match args.symmetry {
        SymmetryArg::None => Symmetry::None,
        SymmetryArg::Rot180 => Symmetry::Rot180,
        SymmetryArg::Rot90 => Symmetry::Rot90,
        SymmetryArg::Mirror => Symmetry::Mirror,
        SymmetryArg::Diagonal => Symmetry::Diagonal,
        SymmetryArg::AntiDiagonal => Symmetry::AntiDiagonal,
        SymmetryArg::Dihedral => Symmetry::Dihedral,
    };
    if args.minimal {
        base.target = Target::Minimal;
        base.fallback = Fallback::Full;
    } else if let Some(k) = args.givens {
        base.target = Target::Givens(k);
    }
    if let Some(nodes) = args.dlx_nodes {
        if base.target == Target::Minimal {
            base.target = Target::Pass;
        }
        base.fallback = if nodes == 0 {
            Fallback::None
        } else {
            Fallback::Bounded(nodes)
        };
    }
    base.time_limit = args.time_limit;
    let visible = progress::show_progress(ctx.quiet);
    let bar = progress::Progress::new(visible, args.count, "puzzles", &ctx.control, None);
    bar.generate_mode(shape.cells() as u64);
    let seeds: Vec<u64> = (0..args.count)
        .map(|i| {
            if args.count == 1 {
                seed
            } else {
                batch_seed(seed, i)
            }
        })
        .collect();
    let make = |s: u64| {
        let cfg = GenerateConfig { seed: s, ..base };
        generate(shape, &cfg, &ctx.control)
    };
    let results: Vec<Option<Generated>> = if args.count == 1 {
        vec![make(seed)]
    } else {
        // Many puzzles: one per thread at a time, checks serial within each (the puzzle
        // does not depend on that).
        seeds
            .par_iter()
            .map(|&s| {
                let cfg = GenerateConfig {
                    seed: s,
                    check_threads: 1,
                    ..base
                };
                let r = generate(shape, &cfg, &ctx.control);
                bar.done.fetch_add(1, Ordering::Relaxed);
                r
            })
            .collect()
    };
    bar.finish();
    let interrupted = ctx.control.interrupt.load(Ordering::Relaxed);
    let mut out = Vec::new();
    let mut written = 0;
    for (i, g) in results.iter().enumerate() {
        let Some(g) = g else { continue };
        let n2 = shape.cells() as f64;
        if args.stats && !ctx.quiet {
            let st = &g.stats;
            eprintln!(
                "puzzle {}: seed {}, {} givens ({:.1}%), {}, {} checks: {} by propagation, \
                 {} by search, {} by DLX, {} refuted, {} unproven; fill {:.3} s, total {:.3} s",
                i + 1,
                seeds[i],
                g.puzzle.givens(),
                100.0 * g.puzzle.givens() as f64 / n2,
                if g.minimal {
                    "minimal"
                } else if g.stopped_early {
                    "stopped early"
                } else {
                    "not proven minimal"
                },
                st.checks,
                st.by_propagation,
                st.by_search,
                st.by_dlx,
                st.refuted,
                st.unproven,
                st.fill_micros as f64 / 1e6,
                st.micros as f64 / 1e6
            );
        }
        if let Some((csv, names)) = csv.as_mut() {
            // Labels: the puzzle's number, and "<number> solution" for its solution.
            csv.push((i + 1).to_string(), g.puzzle.clone(), names.clone());
            if args.solution {
                csv.push(
                    format!("{} solution", i + 1),
                    g.solution.to_puzzle(),
                    names.clone(),
                );
            }
            written += 1;
            continue;
        }
        match out_form {
            Out::Text(OutputFormat::Json) => {
                #[derive(Serialize)]
                struct GenJson<'a> {
                    index: usize,
                    seed: u64,
                    #[serde(rename = "box")]
                    box_size: usize,
                    size: usize,
                    givens: usize,
                    minimal: bool,
                    cells: Vec<&'a [u8]>,
                    #[serde(skip_serializing_if = "Option::is_none")]
                    solution: Option<Vec<&'a [u8]>>,
                    stats: crate::generate::GenerateStats,
                }
                let n = shape.side();
                serde_json::to_writer(
                    &mut out,
                    &GenJson {
                        index: i + 1,
                        seed: seeds[i],
                        box_size: shape.box_size(),
                        size: n,
                        givens: g.puzzle.givens(),
                        minimal: g.minimal,
                        cells: g.puzzle.cells().chunks(n).collect(),
                        solution: args
                            .solution
                            .then(|| g.solution.cells().chunks(n).collect()),
                        stats: g.stats,
                    },
                )?;
                out.push(b'\n');
            }
            Out::Text(format) => {
                if format == OutputFormat::Grid && written > 0 {
                    out.push(b'\n');
                }
                write_puzzle(&mut out, &g.puzzle, format)?;
                if args.solution {
                    if format == OutputFormat::Grid {
                        out.push(b'\n');
                    }
                    write_grid(&mut out, &g.solution, format)?;
                }
                written += 1;
            }
            Out::Csv(_) => unreachable!("CSV output is gathered above"),
        }
    }
    if written == 0 && out_form != Out::Text(OutputFormat::Json) && interrupted {
        return Err(exit::interrupted());
    }
    if let Some((csv, _)) = csv {
        out = csv.into_bytes()?;
    }
    emit(args.output.output.as_deref(), Path::new("-"), &out)?;
    if interrupted {
        eprintln!("shiftgrid: interrupted: wrote the last unique puzzle of each run");
        return Ok(Exit::Interrupted);
    }
    Ok(Exit::Success)
}

fn final_status(bad: usize, not_proper: usize) -> Exit {
    if bad > 0 {
        Exit::DataErr
    } else if not_proper > 0 {
        Exit::NotProper
    } else {
        Exit::Success
    }
}

fn count(ctx: &Ctx, args: &CountArgs) -> Result<Exit> {
    let (input, _) = load_puzzles(&args.input, &args.names, false)?;
    let (name, records) = (&input.name, &input.records);
    let (good, bad) = good_records(name, records);
    if good.is_empty() {
        // Nothing could be read: write no output at all (not even an empty file).
        return Ok(Exit::DataErr);
    }
    let limits = SolveLimits::count_up_to(args.limit);
    let outcomes = search_all(ctx, &good, &limits);
    if ctx.control.interrupt.load(Ordering::Relaxed) {
        return Err(exit::interrupted());
    }
    let mut out = Vec::new();
    let mut not_unique = 0;
    for ((i, _), o) in good.iter().zip(&outcomes) {
        let line = records[*i].line;
        let capped = o.count >= args.limit && args.limit > 1;
        let verdict = match o.count {
            0 => "none",
            1 if !capped => "unique",
            1 => "at least one",
            _ => "multiple",
        };
        if o.count != 1 || capped {
            not_unique += 1;
        }
        match args.format {
            CountFormat::Text => {
                let shown = if capped {
                    format!(">={}", o.count)
                } else {
                    o.count.to_string()
                };
                writeln!(out, "{}\t{line}\t{shown}\t{verdict}", i + 1)?;
                if args.stats && !ctx.quiet {
                    eprintln!("{}", stats_line(name, line, *i, o));
                }
            }
            CountFormat::Json => {
                #[derive(Serialize)]
                struct CountJson {
                    puzzle: usize,
                    line: usize,
                    solutions: u64,
                    capped: bool,
                    verdict: &'static str,
                    #[serde(skip_serializing_if = "Option::is_none")]
                    stats: Option<StatsJson>,
                }
                serde_json::to_writer(
                    &mut out,
                    &CountJson {
                        puzzle: i + 1,
                        line,
                        solutions: o.count,
                        capped,
                        verdict,
                        stats: args.stats.then(|| StatsJson::new(&o.stats, o)),
                    },
                )?;
                out.push(b'\n');
            }
        }
    }
    emit(args.output.as_deref(), &args.input.input, &out)?;
    Ok(final_status(bad, not_unique))
}

/// `export`: every puzzle or grid of the input, written as a roster CSV. Like `solve`, a text
/// batch with bad puzzles reports them, writes the others and exits 65; a bad CSV writes
/// nothing.
fn export(args: &ExportArgs) -> Result<Exit> {
    let (input, custom) = load_puzzles(&args.input, &args.names, true)?;
    let (name, records) = (&input.name, &input.records);
    let (good, bad) = good_records(name, records);
    if good.is_empty() {
        return Ok(Exit::DataErr);
    }
    let mut csv = CsvOut::new(args.csv_shape.to_lib(), records.len() > 1, || {
        format!("{name} holds {} puzzles", records.len())
    })?;
    for (i, p) in &good {
        let names = input.names(*i, p.shape(), &custom)?;
        csv.push(input.label(*i), (*p).clone(), names);
    }
    emit(
        args.output.as_deref(),
        &args.input.input,
        &csv.into_bytes()?,
    )?;
    Ok(final_status(bad, 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

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

//! Reading puzzles for the commands that take an input file (`solve`, `count`, `grade`,
//! `render`, `export`): the shared input flags, the roster-CSV name files, and
//! [`load_puzzles`], which opens a file of any supported form as a stream of puzzles.
//!
//! A text batch (grids, lines, JSON lines) is read record by record with bounded memory:
//! commands take it a chunk at a time ([`Loaded::chunk`]), and one bad puzzle does not stop
//! the others ([`Loaded::next_good`] reports and skips it). A roster CSV is all or nothing:
//! any error stops the whole file with `FILE:LINE:FIELD: message`. Every file read here (the
//! input and the name files) is refused as an output by [`super::output::emit`].
//!
//! `open.rs` opens the input (`pump.rs` reads one that may wait) and peeks at its first line.

use std::collections::VecDeque;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use anyhow::{Context, Result};
use clap::Args;

mod foreground;
mod form;
mod names;
mod notes;
mod open;
mod pump;
mod stopped;

use super::exit::{self, data_error};
use crate::grid::Puzzle;
use crate::io::csv::{CustomNames, Names, Roster, read_rosters_from};
use crate::io::parse::{
    Alphabet, InputFormat, ParseOptions, PuzzleReader, Record, puzzle_field, separated,
};
use form::looks_like_csv;
pub(super) use form::{AlphabetArg, InputFormatArg};
pub(super) use form::{has_csv_extension, has_json_extension, has_tsv_extension};
pub(super) use names::NameArgs;
pub(super) use open::BytesRead;
use open::{open_input, peek_first_line};

/// The input file and how to read it.
#[derive(Debug, Args)]
pub(super) struct InputArgs {
    /// Puzzle file, or - for standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    pub(super) input: PathBuf,
    /// How to read the input. auto detects grids and one-puzzle-per-line batches, and reads
    /// a roster CSV when the file name ends in .csv or .tsv or the first line holds a comma,
    /// a semicolon or tab-separated names (but not a whole compact puzzle in digits).
    #[arg(long, value_enum, default_value_t = InputFormatArg::Auto)]
    input_format: InputFormatArg,
    /// Letter alphabet of compact 16x16/25x25 lines (they conflict, so name one; spaced
    /// grids may use its letters too); the 16x16 and 25x25 grids and lines a command
    /// writes from this input (solve's) and render's cells use it too [default: numeric].
    #[arg(long, value_enum)]
    alphabet: Option<AlphabetArg>,
}

impl InputArgs {
    /// Reading `path` in `format` and `alphabet` (for `generate --from`).
    pub(super) fn reading(
        path: PathBuf,
        input_format: InputFormatArg,
        alphabet: Option<AlphabetArg>,
    ) -> InputArgs {
        InputArgs {
            input: path,
            input_format,
            alphabet,
        }
    }

    /// The alphabet compact puzzles are read in (and solutions written in).
    pub(super) fn alphabet(&self) -> Alphabet {
        self.alphabet.map_or(Alphabet::Numeric, AlphabetArg::to_lib)
    }

    fn options(&self) -> ParseOptions {
        ParseOptions {
            format: match self.input_format {
                InputFormatArg::Auto | InputFormatArg::Csv => InputFormat::Auto,
                InputFormatArg::Grid => InputFormat::Grid,
                InputFormatArg::Line => InputFormat::Line,
            },
            alphabet: self.alphabet(),
        }
    }

    /// Whether the input is a roster CSV: asked for, or (auto) a `.csv` or `.tsv` file name
    /// or a first significant line that only a CSV header has (see [`looks_like_csv`]),
    /// unless that line holds a whole compact puzzle in digits.
    fn is_csv(&self, first_line: Option<&str>) -> bool {
        match self.input_format {
            InputFormatArg::Csv => true,
            InputFormatArg::Grid | InputFormatArg::Line => false,
            // A whole compact puzzle in digits on the first line: a list of puzzles,
            // whatever the name.
            InputFormatArg::Auto if first_line.is_some_and(digits_puzzle) => false,
            // A grid's row of numbers saved by a spreadsheet (`5,3,,,7,,,,`): no roster
            // header is all numbers and blanks.
            InputFormatArg::Auto if first_line.is_some_and(|l| separated(l, true).is_some()) => {
                false
            }
            InputFormatArg::Auto => {
                has_csv_extension(&self.input)
                    || has_tsv_extension(&self.input)
                    || first_line.is_some_and(looks_like_csv)
            }
        }
    }
}

/// Whether `line` holds a whole compact puzzle written in digits and dots (as
/// [`puzzle_field`] finds one), which no roster CSV's header has.
fn digits_puzzle(line: &str) -> bool {
    puzzle_field(line).is_some_and(|r| line[r].bytes().all(|b| b.is_ascii_digit() || b == b'.'))
}

/// One good puzzle of the input, with where it came from.
pub(super) struct Item {
    /// Its 0-based index among the input's records (bad ones included).
    pub(super) index: usize,
    /// The line where it starts.
    pub(super) line: usize,
    /// The puzzle.
    pub(super) puzzle: Puzzle,
    /// For a roster CSV: its grid label and names.
    roster: Option<(Option<String>, Names)>,
}

impl Item {
    /// Its label in the `grid` column of the long CSV it was read from, if it has one.
    pub(super) fn grid_label(&self) -> Option<&str> {
        self.roster.as_ref().and_then(|r| r.0.as_deref())
    }

    /// For a roster CSV: its staff, day and shift names.
    pub(super) fn roster_names(&self) -> Option<&Names> {
        self.roster.as_ref().map(|r| &r.1)
    }

    /// Its number for messages: `2`, or `2 ("Week 12")` for a grid with a label.
    pub(super) fn number(&self) -> String {
        match self.grid_label() {
            Some(label) => format!("{} ({label:?})", self.index + 1),
            None => (self.index + 1).to_string(),
        }
    }

    /// The label in a long CSV's grid column: the input's own, or the puzzle's number.
    pub(super) fn label(&self) -> String {
        self.roster
            .as_ref()
            .and_then(|r| r.0.clone())
            .unwrap_or_else(|| (self.index + 1).to_string())
    }
}

/// Where the records come from.
enum Body {
    Text(Box<PuzzleReader<Box<dyn BufRead + Send>>>),
    /// A roster CSV, read whole (it is all or nothing) and handed out in order.
    Csv(std::vec::IntoIter<Roster>),
}

/// The puzzles of the input, read one at a time (text) or all at once (a roster CSV, which
/// is all or nothing). Bad records of a text batch are reported on stderr as they are
/// reached and skipped.
pub(super) struct Loaded {
    /// The input's name for messages.
    pub(super) name: String,
    body: Body,
    /// Records read ahead (to tell one puzzle from several), not handed out yet.
    ahead: VecDeque<Record>,
    /// The index of the next record to hand out.
    next: usize,
    /// Bad records reported so far.
    pub(super) bad: usize,
    /// Good puzzles handed out so far.
    pub(super) good: usize,
    /// Good puzzles read from the input so far (handed out or read ahead), and whether
    /// the input is read to its end: the progress bar's total once it is.
    pub(super) parsed: (Arc<AtomicU64>, Arc<AtomicBool>),
    /// Bytes of the input read so far, and its size when known (for progress).
    pub(super) progress: (BytesRead, Option<u64>),
    /// For a roster CSV: each roster's grid label and names, by index.
    rosters_meta: Vec<(Option<String>, Names)>,
    /// The layout and dialect of a roster CSV input (its first roster's), `None` for text.
    csv_form: Option<(crate::io::csv::Layout, crate::io::csv::Dialect)>,
    /// For a roster that names all its shifts but the last, which no cell holds: the note
    /// saying it is written `Shift N`, for the commands whose output shows it.
    shift_note: Option<String>,
    /// Good puzzles read ahead by [`Loaded::chunk`] for the next chunk.
    held: Vec<Item>,
    /// The alphabet text puzzles are read in (numeric for a roster CSV): hints and
    /// messages name 16x16 and 25x25 shifts in its characters.
    alphabet: crate::io::parse::Alphabet,
}

/// The most puzzles [`Loaded::chunk`] hands out at once, per thread (fewer cost up to 5% of
/// batch speed in rayon set-up; a chunk of hard 9x9 puzzles still takes well under 100 ms).
pub(super) const CHUNK_PER_THREAD: usize = 128;

/// The most cells [`Loaded::chunk`] hands out at once (a hundred 100x100 puzzles).
const CHUNK_CELLS: usize = 1 << 20;

impl Loaded {
    /// The next record, read ahead or from the body.
    fn pull(&mut self) -> Result<Option<Record>> {
        if let Some(r) = self.ahead.pop_front() {
            return Ok(Some(r));
        }
        self.read()
    }

    fn read(&mut self) -> Result<Option<Record>> {
        let r = match &mut self.body {
            Body::Text(reader) => reader
                .next_record()
                .with_context(|| format!("cannot read {}", self.name))?,
            Body::Csv(rosters) => rosters.next().map(|r| Record {
                line: r.line,
                puzzle: Ok(r.puzzle),
            }),
        };
        match &r {
            Some(record) if record.puzzle.is_ok() => {
                self.parsed.0.fetch_add(1, Ordering::Relaxed);
            }
            Some(_) => {}
            None => self.parsed.1.store(true, Ordering::Relaxed),
        }
        Ok(r)
    }

    /// Whether the input holds more than one record (reads up to two ahead).
    ///
    /// # Errors
    /// A failed read.
    pub(super) fn is_several(&mut self) -> Result<bool> {
        while self.next + self.ahead.len() < 2 {
            match self.read()? {
                Some(r) => self.ahead.push_back(r),
                None => break,
            }
        }
        Ok(self.next + self.ahead.len() > 1)
    }

    /// Whether a roster CSV of `layout` gets several grids from this input: for a long
    /// one, whether it holds more than one record (its `grid` column depends on that
    /// alone, not on which records are good); for a wide one, which holds one roster,
    /// whether it holds more than one good puzzle (see [`Loaded::has_several_good`]).
    ///
    /// # Errors
    /// A failed read.
    pub(super) fn is_several_for(&mut self, layout: crate::io::csv::Layout) -> Result<bool> {
        match layout {
            crate::io::csv::Layout::Wide => self.has_several_good(),
            crate::io::csv::Layout::Long => self.is_several(),
        }
    }

    /// Whether the input holds more than one good puzzle, for an output that holds one (a
    /// wide CSV): reads ahead past bad records, which are reported when their turn comes,
    /// so that a stray bad line after one puzzle is reported as what it is rather than
    /// refused as a second puzzle. Past 64 records read ahead, more than one is several.
    ///
    /// # Errors
    /// A failed read.
    fn has_several_good(&mut self) -> Result<bool> {
        const READ_AHEAD: usize = 64;
        let good_ahead =
            |ahead: &VecDeque<Record>| ahead.iter().filter(|r| r.puzzle.is_ok()).count();
        while self.good + good_ahead(&self.ahead) < 2 && self.ahead.len() < READ_AHEAD {
            match self.read()? {
                Some(r) => self.ahead.push_back(r),
                None => break,
            }
        }
        Ok(self.good + good_ahead(&self.ahead) > 1 || self.ahead.len() >= READ_AHEAD)
    }

    /// Whether the input is a roster CSV.
    pub(super) fn is_csv(&self) -> bool {
        !self.rosters_meta.is_empty()
    }

    /// The layout (wide or long) and dialect of a roster CSV input; `None` for text input.
    pub(super) fn csv_form(&self) -> Option<(crate::io::csv::Layout, crate::io::csv::Dialect)> {
        self.csv_form
    }

    /// Whether the input is a long roster CSV whose grids have labels (a `grid` column),
    /// which a long CSV written from it keeps, even for one grid.
    pub(super) fn has_labels(&self) -> bool {
        self.rosters_meta.iter().any(|(label, _)| label.is_some())
    }

    /// Whether a roster CSV written from this input in `layout` needs a `grid` column:
    /// several grids (several good puzzles, for wide, which cannot hold them), or labelled
    /// ones in a long file.
    ///
    /// # Errors
    /// A failed read.
    pub(super) fn needs_grid_column(&mut self, layout: crate::io::csv::Layout) -> Result<bool> {
        Ok(self.is_several_for(layout)?
            || (layout == crate::io::csv::Layout::Long && self.has_labels()))
    }

    /// The first puzzle alone, for commands that use only it (`render`): `None` at an empty
    /// input, or when it is bad (reported on stderr as `FILE:LINE:COL: message`, and
    /// counted in `bad`). Nothing after it is read.
    ///
    /// # Errors
    /// A failed read.
    pub(super) fn first_only(&mut self) -> Result<Option<Item>> {
        self.take(true)
    }

    /// Whether no record is left to read.
    ///
    /// # Errors
    /// A failed read.
    pub(super) fn at_end(&mut self) -> Result<bool> {
        if !self.ahead.is_empty() {
            return Ok(false);
        }
        match self.read()? {
            Some(r) => {
                self.ahead.push_back(r);
                Ok(false)
            }
            None => Ok(true),
        }
    }

    /// Passes over the next `k` records, good or bad, unread as puzzles; returns how many
    /// there were (fewer at the end of the input).
    ///
    /// # Errors
    /// A failed read.
    pub(super) fn skip(&mut self, k: usize) -> Result<usize> {
        for done in 0..k {
            match self.pull()? {
                // An input with nothing in it reads as one record, "no puzzle found": it
                // holds no puzzle to pass.
                None => return Ok(done),
                Some(r) if done == 0 && is_empty(&r) => return Ok(0),
                Some(_) => self.next += 1,
            }
        }
        Ok(k)
    }

    /// The next good puzzle; bad ones on the way are reported on stderr as
    /// `shiftgrid: error: FILE:LINE:COL: message` (with "puzzle N skipped" in a batch).
    ///
    /// # Errors
    /// A failed read.
    pub(super) fn next_good(&mut self) -> Result<Option<Item>> {
        self.take(false)
    }

    /// The next good puzzle, reporting bad ones on the way; `only_one`: stop at the first
    /// record whatever it is (a bad one gives `None`, reported without "skipped").
    fn take(&mut self, only_one: bool) -> Result<Option<Item>> {
        loop {
            let Some(record) = self.pull()? else {
                return Ok(None);
            };
            let index = self.next;
            self.next += 1;
            match record.puzzle {
                Ok(puzzle) => {
                    self.good += 1;
                    let roster = self.rosters_meta.get(index).cloned();
                    return Ok(Some(Item {
                        index,
                        line: record.line,
                        puzzle,
                        roster,
                    }));
                }
                Err(e) => {
                    self.bad += 1;
                    let several = !only_one && (index > 0 || self.is_several()?);
                    let name = &self.name;
                    // The library names the alphabets; here is how to choose one.
                    let hint = if e.kind.wants_alphabet() {
                        " (--alphabet NAME)"
                    } else {
                        ""
                    };
                    if several && e.kind.ends_input() {
                        msg!(
                            "shiftgrid: error: {name}:{}:{}: {}{} (input ends here: puzzle {} \
                             and anything after it not read)",
                            e.line,
                            e.col,
                            e.kind,
                            hint,
                            index + 1
                        );
                    } else if several {
                        msg!(
                            "shiftgrid: error: {name}:{}:{}: {}{} (puzzle {} skipped)",
                            e.line,
                            e.col,
                            e.kind,
                            hint,
                            index + 1
                        );
                    } else {
                        msg!(
                            "shiftgrid: error: {name}:{}:{}: {}{hint}",
                            e.line,
                            e.col,
                            e.kind
                        );
                    }
                    if only_one {
                        return Ok(None);
                    }
                }
            }
        }
    }

    /// The next good puzzles, as many as a batch step takes (a few per thread, and at most
    /// about a million cells); empty at the end of the input or when `interrupt` is raised.
    ///
    /// # Errors
    /// A failed read; the puzzles read before it are then held back, in order, so that a
    /// batch that Ctrl-C cut while it waited for input can name the first one.
    pub(super) fn chunk(&mut self, interrupt: &AtomicBool) -> Result<Vec<Item>> {
        let mut out: Vec<Item> = self.held.drain(..).collect();
        if let Err(e) = self.fill_chunk(&mut out, interrupt) {
            out.append(&mut self.held);
            self.held = out;
            return Err(e);
        }
        Ok(out)
    }

    /// [`Loaded::chunk`] after its held puzzles are in `out`.
    fn fill_chunk(&mut self, out: &mut Vec<Item>, interrupt: &AtomicBool) -> Result<()> {
        let threads = rayon::current_num_threads().max(1);
        let most = CHUNK_PER_THREAD * threads;
        let mut cells: usize = out.iter().map(|i| i.puzzle.shape().cells()).sum();
        while out.len() < most && cells < CHUNK_CELLS && !interrupt.load(Ordering::Relaxed) {
            match self.next_good()? {
                Some(item) => {
                    cells += item.puzzle.shape().cells();
                    out.push(item);
                }
                None => return Ok(()),
            }
        }
        // Never leave a last chunk smaller than the thread count when the batch is bigger:
        // the batch search splits single puzzles only when the batch is that small, and
        // the way a puzzle is searched must not depend on where the chunks fall.
        while self.held.len() < threads && !interrupt.load(Ordering::Relaxed) {
            match self.next_good()? {
                Some(item) => self.held.push(item),
                None => {
                    out.append(&mut self.held);
                    break;
                }
            }
        }
        Ok(())
    }

    /// The names to write `item` with: a roster's own, or the name files (defaults) for its
    /// shape.
    ///
    /// # Errors
    /// A data error when the name files do not fit the puzzle's shape.
    pub(super) fn names(&self, item: &Item, custom: &CustomNames) -> Result<Names> {
        match &item.roster {
            Some((_, names)) => Ok(names.clone()),
            None => Names::new(item.puzzle.shape(), custom).map_err(|e| {
                data_error(format!(
                    "{e} (puzzle {}, {}:{})",
                    item.index + 1,
                    self.name,
                    item.line
                ))
            }),
        }
    }
}

/// Opens the input for reading puzzles: text in any form (including JSON lines), or a
/// roster CSV mapped to puzzles with the name files (read whole: a CSV is all or nothing).
/// Also gives the names, which are refused (before being read) when neither the input nor
/// the output (`csv_output`; `None` for a command that writes no CSV) is CSV.
///
/// # Errors
/// I/O errors; for CSV, a data error `file:line:field: message`; usage errors for
/// `--alphabet` with CSV and for unused name files.
pub(super) fn load_puzzles(
    args: &InputArgs,
    names: &NameArgs,
    csv_output: Option<bool>,
) -> Result<(Loaded, CustomNames)> {
    let (name, mut lines, progress) = open_input(&args.input)?;
    let first = peek_first_line(&mut lines, &name)?;
    let is_csv = args.is_csv(first.as_deref());
    // A roster CSV has no comments: its lines are all data, read as they are.
    lines.set_lossy_comments(!is_csv);
    if !is_csv && csv_output != Some(true) {
        names.refuse_unused(csv_output.is_some())?;
    }
    let custom = names.load()?;
    if !is_csv {
        let loaded = Loaded {
            body: Body::Text(Box::new(PuzzleReader::new(lines, args.options()))),
            name,
            ahead: VecDeque::new(),
            next: 0,
            bad: 0,
            good: 0,
            parsed: Default::default(),
            progress,
            rosters_meta: Vec::new(),
            csv_form: None,
            held: Vec::new(),
            shift_note: None,
            alphabet: args.alphabet(),
        };
        return Ok((loaded, custom));
    }
    if args.alphabet.is_some() {
        return Err(exit::usage_error(
            "--alphabet applies to compact text puzzles, not to CSV input",
        ));
    }
    open::check_csv_room(&args.input, &name, progress.1)?;
    let rosters = read_rosters_from(&mut lines, &custom)
        .with_context(|| format!("cannot read {name}"))?
        .map_err(|e| {
            let hint = notes::csv_hint(&e.kind, &custom);
            let grid = e
                .grid
                .as_deref()
                .map(|g| format!(" (grid {})", crate::io::quote::Quoted(g)))
                .unwrap_or_default();
            data_error(format!(
                "{name}:{}:{}: {}{grid}{hint}",
                e.line,
                e.field.unwrap_or(1),
                e.kind
            ))
        })?;
    let shift_note = if custom.shifts.is_none() {
        notes::unnamed_shift(&name, &rosters)
    } else {
        None
    };
    let csv_form = rosters.first().map(|r| (r.layout, r.dialect));
    let rosters_meta = rosters
        .iter()
        .map(|r| (r.label.clone(), r.names.clone()))
        .collect();
    let loaded = Loaded {
        name,
        body: Body::Csv(rosters.into_iter()),
        ahead: VecDeque::new(),
        next: 0,
        bad: 0,
        good: 0,
        parsed: Default::default(),
        progress,
        rosters_meta,
        csv_form,
        held: Vec::new(),
        shift_note,
        alphabet: crate::io::parse::Alphabet::Numeric,
    };
    Ok((loaded, custom))
}

/// Every path a command reads: the input and the name files given (`-o` may name none).
pub(super) fn input_paths<'a>(args: &'a InputArgs, names: &'a NameArgs) -> Vec<&'a Path> {
    std::iter::once(args.input.as_path())
        .chain(names.paths())
        .collect()
}

#[cfg(test)]
mod tests;

/// Whether `record` is the one an input with no puzzle in it reads as.
fn is_empty(record: &crate::io::parse::Record) -> bool {
    matches!(&record.puzzle, Err(e) if e.kind == crate::io::parse::ParseErrorKind::Empty)
}

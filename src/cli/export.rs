//! `shiftgrid export`: write the puzzles or grids of any input as a roster CSV.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use std::sync::atomic::Ordering;

use super::batch::{batch_progress, finish_batch};
use super::exit::{Exit, final_status};
use super::input::{InputArgs, Item, NameArgs, input_paths, load_puzzles};
use super::output::{CsvShapeArg, DelimiterArg, Entry, GridRef, Shown, Sink, dialect_for};
use super::{Ctx, progress};
use crate::io::csv::Names;

/// Flags of `shiftgrid export`.
#[derive(Debug, Args)]
pub(super) struct ExportArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// CSV layout: wide (a row per staff member, a column per day) or long (staff,day,shift
    /// rows; several grids get a leading grid column).
    #[arg(long, value_enum, value_name = "SHAPE", default_value_t = CsvShapeArg::Wide)]
    csv_shape: CsvShapeArg,
    /// Field delimiter [default: tab for -o FILE.tsv; else the input roster's, where there
    /// is one (its line ends and byte-order mark are kept either way); else comma].
    #[arg(long, value_enum, value_name = "D")]
    delimiter: Option<DelimiterArg>,
    /// Start the CSV with a UTF-8 byte-order mark, which Excel on Windows needs to read
    /// names that are not ASCII (an input roster's mark is kept without it).
    #[arg(long = "utf8-bom")]
    bom: bool,
    #[command(flatten)]
    names: NameArgs,
}
/// `export`: every puzzle or grid of the input, written as a roster CSV. Like `solve`, a text
/// batch with bad puzzles reports them, writes the others and exits 65; a bad CSV writes
/// nothing. Ctrl-C stops it between puzzles, with nothing written.
///
/// # Errors
/// I/O and CSV errors, several puzzles for a wide CSV (a usage error), and interruption.
pub(super) fn run(ctx: &Ctx, args: &ExportArgs) -> Result<Exit> {
    // Before any work: an output that cannot be written, or an input as the output.
    super::output::check_output_first(
        args.output.as_deref(),
        super::input::input_paths(&args.input, &args.names),
        &super::output::WRITES_ROSTER,
    )?;
    let (mut input, custom) = load_puzzles(&args.input, &args.names, Some(true))?;
    let name = input.name.clone();
    let layout = args.csv_shape.to_lib();
    let dialect = dialect_for(
        input.csv_form().map(|(_, d)| d),
        args.delimiter,
        args.bom,
        args.output.as_deref(),
    );
    let mut sink = Sink::csv(layout, dialect, input.needs_grid_column(layout)?, || {
        format!("{name} holds more than one puzzle")
    })?;
    let bar = batch_progress(ctx, &input);
    let interrupt = &ctx.control.interrupt;
    while let Some(item) = input.next_good()? {
        if interrupt.load(Ordering::Relaxed) {
            break;
        }
        sink.push(&Exported {
            item: &item,
            names: input.names(&item, &custom)?,
        })?;
        bar.done.fetch_add(1, Ordering::Relaxed);
    }
    let paths = input_paths(&args.input, &args.names);
    let Some(elapsed) = finish_batch(
        ctx,
        bar,
        ctx.control.interrupt.load(Ordering::Relaxed),
        input.good,
        args.output.as_deref(),
        paths,
        sink,
    )?
    else {
        return Ok(Exit::DataErr);
    };
    progress::summary(
        ctx.quiet,
        &format!(
            "exported {} roster{} in {:.2} s ({} unreadable)",
            input.good,
            if input.good == 1 { "" } else { "s" },
            elapsed.as_secs_f64(),
            input.bad
        ),
    );
    Ok(final_status(input.bad, 0))
}

/// One puzzle of the input, as a roster with its names.
struct Exported<'a> {
    item: &'a Item,
    names: Names,
}

impl Entry for Exported<'_> {
    fn grids(&self) -> Vec<Shown<'_>> {
        vec![Shown {
            label: self.item.label(),
            grid: GridRef::Puzzle(&self.item.puzzle),
        }]
    }

    fn names(&self) -> Result<Option<Names>> {
        Ok(Some(self.names.clone()))
    }
}

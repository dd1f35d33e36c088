//! `shiftgrid export`: write the puzzles or grids of any input as a roster CSV.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use super::exit::{Exit, final_status};
use super::input::{InputArgs, NameArgs, good_records, load_puzzles};
use super::output::{CsvOut, CsvShapeArg, emit};

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
    #[command(flatten)]
    names: NameArgs,
}
/// `export`: every puzzle or grid of the input, written as a roster CSV. Like `solve`, a text
/// batch with bad puzzles reports them, writes the others and exits 65; a bad CSV writes
/// nothing.
///
/// # Errors
/// I/O and CSV errors, and several puzzles for a wide CSV (a usage error).
pub(super) fn run(args: &ExportArgs) -> Result<Exit> {
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

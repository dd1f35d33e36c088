//! `generate --from FILE`: the grid puzzles are made from, read from a file: a full grid,
//! or a partial roster completed by the solver's portfolio with its agreed shifts kept.

use std::sync::atomic::Ordering;

use anyhow::Result;

use super::GenerateArgs;
use super::values::MethodArg;
use crate::cli::Ctx;
use crate::cli::exit;
use crate::cli::input::{InputArgs, load_puzzles};
use crate::grid::{Grid, Puzzle};

/// A roster CSV given to `--from`: its layout and dialect, and its names.
pub(super) type CsvSource = (
    (crate::io::csv::Layout, crate::io::csv::Dialect),
    crate::io::csv::Names,
);

/// The grid of `--from`: the solution every puzzle is made from, and the givens to keep (a
/// partial roster's agreed shifts).
pub(super) struct Source {
    pub(super) solution: Grid,
    pub(super) keep: Option<Puzzle>,
    /// The grid's label in the `grid` column of the long roster it was read from.
    pub(super) label: Option<String>,
}

/// Reads `--from`'s grid: the file's one puzzle (any form), completed by the solver when it
/// has blanks (its givens then kept, with `--method prove` only); for a roster CSV also its
/// layout, dialect and names, which the output takes.
///
/// `None` when the file's puzzle is bad (reported as it was read: exit 65).
///
/// # Errors
/// A usage error for blanks with `--method expand` or `ga`; data errors (no puzzle, more
/// than one, no completion); exit 1 when the time limit cut the completion; interruption.
pub(super) fn read_source(
    ctx: &Ctx,
    args: &GenerateArgs,
    path: &std::path::Path,
) -> Result<Option<(Source, Option<CsvSource>)>> {
    use crate::solve::{Engine, SolveLimits, solve};
    let (mut input, custom) = load_puzzles(
        &InputArgs::reading(path.to_path_buf(), args.input_format, args.alphabet),
        &args.names,
        Some(true),
    )?;
    let name = input.name.clone();
    let Some(item) = input.first_only()? else {
        if input.bad > 0 {
            // A bad puzzle, reported as it was read.
            return Ok(None);
        }
        return Err(exit::data_error(format!("{name} holds no puzzle")));
    };
    if let Some(next) = input.next_good()? {
        return Err(exit::data_error(format!(
            "{name}:{}: --from takes one grid, but {name} holds more than one puzzle (the \
             second starts here, the first on line {})",
            next.line, item.line
        )));
    }
    if input.bad > 0 {
        // The lines after it, reported as they were read.
        return Err(exit::data_error(format!(
            "--from takes one grid, but {name} holds more lines after the one on line {}",
            item.line
        )));
    }
    let csv = match input.csv_form() {
        Some(form) => Some((form, input.names(&item, &custom)?)),
        None => None,
    };
    let label = item.grid_label().map(str::to_string);
    let puzzle = item.puzzle;
    if puzzle.is_full() {
        let solution = Grid::new(puzzle.shape(), puzzle.cells().to_vec())
            .map_err(|e| exit::data_error(format!("{name}: {e}")))?;
        return Ok(Some((
            Source {
                solution,
                keep: None,
                label,
            },
            csv,
        )));
    }
    if !matches!(args.method, None | Some(MethodArg::Prove)) || args.level.is_some() {
        return Err(exit::usage_error(format!(
            "{name} has blank cells: --method expand and ga make puzzles from a full grid \
             (--method prove keeps a partial roster's shifts as givens)"
        )));
    }
    if puzzle.givens() == 0 {
        // Nothing agreed: a random grid of the size, as without --from (seeded, and the
        // same at any thread count).
        return Ok(Some((
            Source {
                solution: crate::generate::fill::fill_grid(
                    puzzle.shape(),
                    &crate::generate::fill::FillConfig {
                        workers: 1,
                        ..crate::generate::fill::FillConfig::new(args.seed.unwrap_or(0))
                    },
                    &ctx.control,
                )
                .ok_or_else(exit::interrupted)?
                .grid,
                keep: None,
                label,
            },
            csv,
        )));
    }
    // The completion: by the portfolio (`auto`), whose lockstep race finds the same one on
    // every run and at any thread count, within --time-limit (the puzzle then has a limit
    // of its own). On rosters near the hardness peak it finds one where a learner alone
    // runs for many seconds (its stable learners and fill search).
    let control = ctx
        .control
        .clone()
        .with_deadline(args.time_limit.map(|d| std::time::Instant::now() + d));
    let outcome = solve(&puzzle, Engine::Auto, &SolveLimits::first(), &control)
        .map_err(|e| exit::data_error(format!("{name}: {e}")))?;
    let Some(solution) = outcome.solutions.into_iter().next() else {
        if ctx.control.interrupt.load(Ordering::Relaxed) {
            return Err(exit::interrupted());
        }
        if !outcome.complete {
            // Not bad input: the search was cut, as --time-limit does elsewhere (exit 1).
            return Err(exit::CliError {
                message: format!(
                    "{name}: no completion of the shifts given was found within the time limit"
                ),
                exit: exit::Exit::NotProper,
            }
            .into());
        }
        return Err(exit::data_error(format!(
            "{name}: the shifts given have no completion, so no puzzle can keep them"
        )));
    };
    Ok(Some((
        Source {
            solution,
            keep: Some(puzzle),
            label,
        },
        csv,
    )))
}

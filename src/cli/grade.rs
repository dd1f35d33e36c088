//! `shiftgrid grade`: rate every puzzle of a file by the human techniques it needs
//! ([`crate::grade`]): technique level L, step count S, a difficulty name and the
//! deductions per level, optionally with the step log as hints.
//!
//! The input is read like `solve`'s: any text form, or a roster CSV (with the name files
//! that map its staff, days and shifts to rows, columns and symbols). Puzzles are graded in
//! parallel (one [`Grader`] per worker thread) and printed in input order. Unreadable
//! puzzles of a text batch are reported as `FILE:LINE:COL: message` and skipped; the exit
//! status is then 65. A bad roster CSV stops the run with `FILE:LINE:FIELD: message`. A
//! puzzle that is not proper is reported on stderr and makes the status 1: its givens lead
//! to a contradiction, or the techniques cannot finish it and a short search ([`short_count`])
//! shows that it has no solution or several. Nothing is written when no puzzle could be
//! read, or when the run is interrupted.

mod report;

use std::path::PathBuf;
use std::sync::atomic::Ordering;

use anyhow::Result;
use clap::{Args, ValueEnum};
use rayon::prelude::*;

use super::batch::{batch_progress, finish_batch};
use super::exit::{Exit, final_status};
use super::input::{InputArgs, NameArgs, input_paths, load_puzzles};
use super::output::{Form, Sink};
use super::{Ctx, progress};
use crate::grade::{Grade, GradeOptions, Grader, MAX_LEVEL, Outcome};
use report::{Graded, Tally};

/// Grade puzzles by human techniques: level L (1..8), steps S, difficulty.
///
/// Text output is one tab-separated line per puzzle: puzzle number, input line, L (`>8`
/// when techniques 1..8 cannot finish, `-` for a contradiction), S, difficulty (easy
/// L 1-2, medium 3-5, hard 6-8, extreme beyond 8; no-solution or multiple when a short
/// search shows it is no proper puzzle), and the deductions per level 1..8,
/// comma-separated.
#[derive(Debug, Args)]
pub struct GradeArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output form: text (one tab-separated line per puzzle) or json (one object per line)
    /// [default: text, or json when -o FILE ends in .json, .jsonl or .ndjson].
    #[arg(long, short, value_enum)]
    format: Option<GradeFormat>,
    /// Print each puzzle's step log after its line (in the record with --format json).
    #[arg(long)]
    explain: bool,
    /// Highest technique level to try (1..8); puzzles that need more are reported beyond it.
    #[arg(long, value_name = "L", default_value_t = MAX_LEVEL,
          value_parser = clap::value_parser!(u8).range(1..=MAX_LEVEL as i64))]
    max_level: u8,
    /// Write to FILE (atomically: a temporary file renamed into place) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    names: NameArgs,
}

/// The output forms of `grade`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum GradeFormat {
    /// Tab-separated lines (step log lines indented by two spaces).
    Text,
    /// One JSON object per puzzle and line.
    Json,
}

/// Runs `shiftgrid grade`, stopping without output when the context's interrupt flag is
/// raised (the Ctrl-C handler raises it).
///
/// Unless quiet, and when stderr is a terminal, a summary (puzzles per level, mean S)
/// follows on stderr.
///
/// # Errors
/// Reading the input or writing the output failed, a roster CSV is bad (exit status 65,
/// nothing written), name files are given without CSV input, `-o` names the input file, or
/// the run was interrupted (exit status 130, nothing written).
pub(super) fn run(ctx: &Ctx, args: &GradeArgs) -> Result<Exit> {
    // Before any work: an output that cannot be written, or an input as the output.
    super::output::check_output_first(
        args.output.as_deref(),
        super::input::input_paths(&args.input, &args.names),
        &super::output::WRITES_LINES,
    )?;
    let (mut input, _) = load_puzzles(&args.input, &args.names, false)?;
    let name = input.name.clone();
    let interrupt = &ctx.control.interrupt;
    let opts = GradeOptions {
        explain: args.explain,
        max_level: args.max_level,
    };
    let bar = batch_progress(ctx, &input);
    let json_name = args
        .output
        .as_deref()
        .is_some_and(super::input::has_json_extension);
    let format = args.format.unwrap_or(if json_name {
        GradeFormat::Json
    } else {
        GradeFormat::Text
    });
    let mut sink = Sink::new(match format {
        GradeFormat::Text => Form::Text,
        GradeFormat::Json => Form::Json,
    });
    // Puzzles shown not proper: a contradiction, or no or several solutions by search.
    let mut not_proper = 0usize;
    let mut tally = Tally::default();
    // A chunk at a time: bounded memory, and Ctrl-C seen between puzzles.
    loop {
        let chunk = input.chunk(interrupt)?;
        if chunk.is_empty() {
            break;
        }
        let graded: Vec<Option<(Grade, Option<Settled>)>> = chunk
            .par_iter()
            .map_init(
                || (None::<Grader>, crate::solve::Workspace::default()),
                |(grader, workspace), item| {
                    if interrupt.load(Ordering::Relaxed) {
                        return None;
                    }
                    let p = &item.puzzle;
                    let g = match grader {
                        Some(g) if g.shape() == p.shape() => g,
                        _ => grader.insert(Grader::new(p.shape())),
                    };
                    let grade = g.grade(p, &opts);
                    let settled = (grade.outcome == Outcome::Beyond)
                        .then(|| short_count(workspace, p, &ctx.control));
                    bar.done.fetch_add(1, Ordering::Relaxed);
                    Some((grade, settled))
                },
            )
            .collect();
        if interrupt.load(Ordering::Relaxed) || graded.iter().any(Option::is_none) {
            break;
        }
        for (item, (g, settled)) in chunk.iter().zip(graded.iter().flatten()) {
            let solutions = match settled {
                Some(Settled::Improper(c)) => Some(*c),
                _ => None,
            };
            let labels = input.labels(item);
            if let Some(conflict) = &g.conflict {
                not_proper += 1;
                msg!(
                    "shiftgrid: {name}:{}: puzzle {} has no solution: {}",
                    item.line,
                    item.number(),
                    conflict.named(labels.as_ref())
                );
            }
            match solutions {
                Some(0) => msg!(
                    "shiftgrid: {name}:{}: puzzle {} has no solution (found by search)",
                    item.line,
                    item.number()
                ),
                Some(_) => msg!(
                    "shiftgrid: {name}:{}: puzzle {} has more than one solution, so no \
                     technique can finish it",
                    item.line,
                    item.number()
                ),
                None => {}
            }
            if *settled == Some(Settled::Unknown) && !ctx.quiet {
                msg!(
                    "shiftgrid: {name}:{}: puzzle {} is beyond the techniques, and a short \
                     search could not tell whether it has exactly one solution (shiftgrid \
                     count settles it)",
                    item.line,
                    item.number()
                );
            }
            not_proper += usize::from(solutions.is_some());
            tally.add(g, *settled);
            sink.push(&Graded {
                item,
                grade: g,
                labels,
                settled: *settled,
            })?;
        }
    }
    let paths = input_paths(&args.input, &args.names);
    let Some(elapsed) = finish_batch(ctx, bar, input.good, args.output.as_deref(), paths, sink)?
    else {
        // Nothing could be read: write no output at all (not even an empty file).
        return Ok(Exit::DataErr);
    };
    progress::summary(
        ctx.quiet,
        &format!("{} in {:.2} s", tally.summary(), elapsed.as_secs_f64()),
    );
    Ok(final_status(input.bad, not_proper))
}

/// Whether a solution of the puzzle gives another by a swap its givens cannot see
/// (`solve::swap`): with one solution found, a proof of a second without search, for
/// sparse boards where a short count runs out of nodes.
fn has_a_swap(puzzle: &crate::grid::Puzzle) -> bool {
    crate::solve::swap::swap_of(puzzle).is_some()
}

/// Dancing-links nodes [`short_count`] may spend on a puzzle.
const SHORT_COUNT_NODES: u64 = 50_000;

/// Conflicts the learning engine may spend in [`short_count`] where dancing links could
/// not tell (about a second at 25×25).
const SHORT_COUNT_CONFLICTS: u64 = 20_000;

/// The largest box size at which [`short_count`] runs the learning engine (its clauses
/// grow with N³).
const SHORT_COUNT_LEARN_MAX_BOX: usize = 7;

/// What the short search of [`short_count`] settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Settled {
    /// Exactly one solution: a proper puzzle beyond the techniques.
    Unique,
    /// No solution (0) or several (2 and more): no puzzle to grade.
    Improper(u64),
    /// The search could not tell within its budget.
    Unknown,
}

/// For a puzzle the techniques cannot finish: a short search (dancing links for at most
/// [`SHORT_COUNT_NODES`] nodes, then up to 49×49 the learning engine for at most
/// [`SHORT_COUNT_CONFLICTS`] conflicts: budgets of work, not time, so the answer is the
/// same on every machine), with the proofs of [`has_a_swap`] and of an empty board.
fn short_count(
    workspace: &mut crate::solve::Workspace,
    puzzle: &crate::grid::Puzzle,
    control: &crate::solve::SearchControl,
) -> Settled {
    use crate::solve::{Engine, SolveLimits};
    if puzzle.givens() == 0 {
        // An empty board of any size has many grids (rename two shifts of one).
        return Settled::Improper(2);
    }
    let settled = |o: crate::solve::Outcome| match (o.count, o.complete) {
        (0, true) => Some(Settled::Improper(0)),
        (1, true) => Some(Settled::Unique),
        (c, _) if c >= 2 => Some(Settled::Improper(c)),
        _ => None,
    };
    let dlx = SolveLimits {
        node_limit: SHORT_COUNT_NODES,
        keep: 0,
        ..SolveLimits::count_up_to(2)
    };
    let Ok(o) = workspace.solve(puzzle, Engine::Dlx, &dlx, control) else {
        return Settled::Unknown;
    };
    let found_one = o.count == 1;
    if let Some(s) = settled(o) {
        return s;
    }
    // One found, and a swap its givens cannot see makes another.
    if found_one && has_a_swap(puzzle) {
        return Settled::Improper(2);
    }
    if puzzle.shape().box_size() > SHORT_COUNT_LEARN_MAX_BOX {
        return Settled::Unknown;
    }
    let learn = SolveLimits {
        node_limit: SHORT_COUNT_CONFLICTS,
        ..dlx
    };
    match workspace.solve(puzzle, Engine::Learn, &learn, control) {
        Ok(o) => settled(o).unwrap_or(Settled::Unknown),
        Err(_) => Settled::Unknown,
    }
}

#[cfg(test)]
mod tests;

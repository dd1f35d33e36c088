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
//! to a contradiction, or the techniques cannot finish it and a short search ([`settle`])
//! shows that it has no solution or several. Nothing is written when no puzzle could be
//! read. Ctrl-C writes the grades of the puzzles before the first one it cut short, a
//! prefix of the batch, as `count` writes its results.

mod report;

use std::path::PathBuf;
use std::sync::atomic::Ordering;

use anyhow::Result;
use clap::{Args, ValueEnum};
use rayon::prelude::*;

use super::batch::{
    LeftOut, batch_progress, finish_batch, finish_interrupted, left_out_at_end, next_chunk,
};
use super::exit::{Exit, final_status};
use super::input::{InputArgs, NameArgs, input_paths, load_puzzles};
use super::output::{Form, Sink};
use super::{Ctx, progress};
use crate::grade::{Grade, GradeOptions, Grader, MAX_LEVEL, Outcome, Settled, settle};
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
          value_parser = super::whole::<u8>(1, MAX_LEVEL as u64))]
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

/// Runs `shiftgrid grade`. When the context's interrupt flag is raised (the Ctrl-C handler
/// raises it), it stops and writes the grades of the batch's finished prefix.
///
/// Unless quiet, and when stderr is a terminal, a summary (puzzles per level, mean S)
/// follows on stderr.
///
/// # Errors
/// Reading the input or writing the output failed, a roster CSV is bad (exit status 65,
/// nothing written), name files are given without CSV input, `-o` names the input file, or
/// the run was interrupted (exit status 130; the finished prefix written).
pub(super) fn run(ctx: &Ctx, args: &GradeArgs) -> Result<Exit> {
    // Before any work: an output that cannot be written, or an input as the output.
    super::output::check_output_first(
        args.output.as_deref(),
        super::input::input_paths(&args.input, &args.names),
        &super::output::WRITES_LINES,
    )?;
    let (mut input, _) = load_puzzles(&args.input, &args.names, None)?;
    if let (Some(note), false, true) = (input.shift_note(), ctx.quiet, args.explain) {
        msg!("{note}");
    }
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
    // Ctrl-C: the grades kept (a finished prefix of the batch) and the first puzzle left out.
    let mut kept = 0;
    let mut left_out = None;
    let mut cut = false;
    // A chunk at a time: bounded memory, and Ctrl-C seen between puzzles.
    loop {
        let Some(chunk) = next_chunk(ctx, &mut input)? else {
            left_out = Some(LeftOut::Waiting(input.first_held()));
            break;
        };
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
                    let grade = g.grade_until(p, &opts, &ctx.control)?;
                    let settled = (grade.outcome == Outcome::Beyond)
                        .then(|| settle(workspace, p, &ctx.control));
                    // A short search that Ctrl-C may have cut is no final answer.
                    if settled == Some(Settled::Unknown) && interrupt.load(Ordering::Relaxed) {
                        return None;
                    }
                    bar.done.fetch_add(1, Ordering::Relaxed);
                    Some((grade, settled))
                },
            )
            .collect();
        let interrupted = interrupt.load(Ordering::Relaxed);
        // The grades up to the first that the press cut short.
        let keep = graded
            .iter()
            .position(Option::is_none)
            .unwrap_or(graded.len());
        for (item, (g, settled)) in chunk.iter().zip(graded.iter().map_while(Option::as_ref)) {
            kept += 1;
            let solutions = match settled {
                Some(Settled::Improper(c)) => Some(*c),
                _ => None,
            };
            let labels = input.labels(item);
            if let Some(conflict) = &g.conflict {
                not_proper += 1;
                msg!(
                    "shiftgrid: {name}:{}: puzzle {} has no solution: {} (deduced from the \
                     givens)",
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
        if interrupted || keep < graded.len() {
            left_out = Some(LeftOut::after(&chunk, keep, input.first_held()));
            cut = keep < chunk.len();
            break;
        }
    }
    let paths = input_paths(&args.input, &args.names);
    if let Some(left_out) = left_out_at_end(ctx, left_out, cut, &input) {
        return finish_interrupted(
            ctx,
            bar,
            kept,
            left_out,
            "graded",
            args.output.as_deref(),
            paths,
            sink,
        );
    }
    let Some(elapsed) = finish_batch(
        ctx,
        bar,
        false,
        input.good,
        args.output.as_deref(),
        paths,
        sink,
    )?
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

#[cfg(test)]
mod tests;

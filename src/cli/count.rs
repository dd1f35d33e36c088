//! `shiftgrid count`: count the solutions of every puzzle of the input, up to a cap.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueEnum};
use serde::Serialize;

use super::batch::{LeftOut, batch_progress, finish_batch, finish_interrupted, left_out_at_end};
use super::batch::{next_chunk, search_chunk};
use super::exit::{Exit, final_status};
use super::input::Item;
use super::input::{InputArgs, NameArgs, input_paths, load_puzzles};
use super::output::{Entry, Form, InInput, Record, Sink};
use super::solve::{EngineArgs, StatsJson, StatsReport};
use super::which::{note_which, numbers};
use super::{Ctx, progress};
use crate::solve::{Outcome, SolveLimits};

/// Flags of `shiftgrid count`.
#[derive(Debug, Args)]
pub(super) struct CountArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Stop counting at K solutions (2 proves uniqueness).
    #[arg(long, short, default_value_t = 2, value_name = "K",
          value_parser = super::whole::<u64>(1, u64::MAX))]
    limit: u64,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Output form: text (tab-separated lines) or json (one object per line) [default: text,
    /// or json when -o FILE ends in .json, .jsonl or .ndjson].
    #[arg(long, short, value_enum)]
    format: Option<CountFormat>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Print per-puzzle search statistics on stderr (in the record with --format json).
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    names: NameArgs,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum CountFormat {
    Text,
    Json,
}

/// Runs `shiftgrid count`: one line (or JSON object) per puzzle with its solution count
/// up to `--limit`.
///
/// # Errors
/// I/O and CSV errors, unused name files, and interruption.
pub(super) fn run(ctx: &Ctx, args: &CountArgs) -> Result<Exit> {
    // Before any work: an output that cannot be written, or an input as the output.
    super::output::check_output_first(
        args.output.as_deref(),
        super::input::input_paths(&args.input, &args.names),
        &super::output::WRITES_LINES,
    )?;
    let (mut input, _) = load_puzzles(&args.input, &args.names, None)?;
    let name = input.name.clone();
    // Counts only: no solution is kept (so every engine's count stands as it is).
    let limits = SolveLimits {
        keep: 0,
        ..SolveLimits::count_up_to(args.limit)
    };
    let bar = batch_progress(ctx, &input);
    let json_name = args
        .output
        .as_deref()
        .is_some_and(super::input::has_json_extension);
    let format = args.format.unwrap_or(if json_name {
        CountFormat::Json
    } else {
        CountFormat::Text
    });
    let mut sink = Sink::new(match format {
        CountFormat::Text => Form::Text,
        CountFormat::Json => Form::Json,
    });
    let mut not_unique = 0;
    let mut timed_out = 0;
    // The numbers of the first few of each, for the note where no summary is shown.
    let (mut not_unique_which, mut timed_out_which) = (Vec::new(), Vec::new());
    let mut report = StatsReport::new(&name);
    // Ctrl-C: the results kept (a finished prefix of the batch) and the first puzzle left out.
    let mut kept = 0;
    let mut left_out = None;
    let mut cut = false;
    // A chunk at a time: bounded memory, and Ctrl-C seen between chunks.
    loop {
        let Some(chunk) = next_chunk(ctx, &mut input)? else {
            left_out = Some(LeftOut::Waiting(input.first_held()));
            break;
        };
        if chunk.is_empty() {
            break;
        }
        let (outcomes, keep, interrupted) = search_chunk(ctx, &chunk, &args.engine, &limits, &bar);
        for (item, o) in chunk.iter().zip(&outcomes).take(keep) {
            kept += 1;
            let counted = Counted {
                item,
                outcome: o,
                limit: args.limit,
                stats: args.stats,
            };
            let number = item.index as u64 + 1;
            if counted.timed_out() {
                timed_out += 1;
                note_which(&mut timed_out_which, number);
            } else if !matches!(counted.verdict(), "unique" | "at least one") {
                // "at least one" answers `--limit 1`, which asks only whether one exists.
                not_unique += 1;
                note_which(&mut not_unique_which, number);
            }
            if args.stats && matches!(format, CountFormat::Text) {
                report.row(item.line, item.index, o);
            }
            sink.push(&counted)?;
        }
        if interrupted {
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
            "searched",
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
        &format!(
            "counted {} puzzle{} in {:.2} s: {not_unique} not unique, {}{} unreadable",
            input.good,
            if input.good == 1 { "" } else { "s" },
            elapsed.as_secs_f64(),
            if args.engine.time_limit.is_some() {
                format!("{timed_out} timed out, ")
            } else {
                String::new()
            },
            input.bad
        ),
    );
    if !progress::for_a_person(ctx.quiet) && input.bad == 0 {
        // No summary shown (a file, a pipe, --quiet): the reason of exit status 1 is said on
        // stderr all the same, as `solve` says its verdicts; the output holds the counts.
        // (Status 65, for an unreadable puzzle, has its error lines.)
        let good = input.good;
        for (k, which, what) in [
            (
                not_unique,
                &not_unique_which,
                "not proper (no solution, or two or more)",
            ),
            (timed_out, &timed_out_which, "cut short by --time-limit"),
        ] {
            if k > 0 {
                msg!(
                    "shiftgrid: {} {what}",
                    some_of(k as u64, good as u64, which)
                );
            }
        }
    }
    Ok(final_status(input.bad, not_unique + timed_out))
}

/// "the puzzle is", "puzzle 3 of the 5 is", "2 of the 5 puzzles (1 and 4) are", with the
/// first few numbers named and how many more.
fn some_of(k: u64, of: u64, which: &[u64]) -> String {
    if of == 1 {
        return "the puzzle is".to_string();
    }
    if k == 1 {
        return format!("puzzle {} of the {of} is", which[0]);
    }
    format!("{k} of the {of} puzzles ({}) are", numbers(k, which))
}

/// One puzzle of the input and its count, as output.
struct Counted<'a> {
    item: &'a Item,
    outcome: &'a Outcome,
    /// `--limit`.
    limit: u64,
    /// `--stats`: the record carries the search statistics.
    stats: bool,
}

impl Counted<'_> {
    /// Whether counting stopped at the limit (with a limit of 1: a solution exists).
    fn capped(&self) -> bool {
        self.outcome.count >= self.limit
    }

    /// Whether the time limit cut the count short below the limit: the count is then a
    /// lower bound (`9?`), though two or more found still say "multiple".
    fn cut_short(&self) -> bool {
        !self.capped() && !self.outcome.complete
    }

    /// Whether the time limit stopped the count before it could say anything.
    fn timed_out(&self) -> bool {
        !self.capped() && self.outcome.verdict().is_none()
    }

    /// What the count says about the puzzle.
    fn verdict(&self) -> &'static str {
        if self.timed_out() {
            return "timeout";
        }
        match self.outcome.count {
            0 => "none",
            1 if !self.capped() => "unique",
            1 => "at least one",
            _ => "multiple",
        }
    }
}

impl Entry for Counted<'_> {
    fn record(&self) -> impl Serialize {
        #[derive(Serialize)]
        struct CountJson<'a> {
            solutions: u64,
            capped: bool,
            /// False when the time limit cut the count short: `solutions` is then only
            /// a lower bound.
            complete: bool,
            verdict: &'static str,
            #[serde(skip_serializing_if = "Option::is_none")]
            stats: Option<StatsJson<'a>>,
        }
        Record::new(
            InInput::of(self.item),
            None,
            CountJson {
                solutions: self.outcome.count,
                capped: self.capped(),
                complete: !self.cut_short(),
                verdict: self.verdict(),
                stats: self.stats.then(|| StatsJson::new(self.outcome)),
            },
        )
    }

    /// `<puzzle>\t<line>\t<count, >=count when capped, count? when cut short>\t<verdict>`.
    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let count = self.outcome.count;
        let shown = if self.capped() {
            format!(">={count}")
        } else if self.cut_short() {
            // Found so far: a lower bound.
            format!("{count}?")
        } else {
            count.to_string()
        };
        writeln!(
            out,
            "{}\t{}\t{shown}\t{}",
            self.item.index + 1,
            self.item.line,
            self.verdict()
        )
    }
}

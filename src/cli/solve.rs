//! `shiftgrid solve`: solve every puzzle of the input, and the batch search that `count`
//! shares: puzzles in parallel, or one puzzle split at the root when there are fewer
//! puzzles than threads.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;
use rayon::prelude::*;
use serde::Serialize;

use super::batch::{LeftOut, batch_progress, finish_batch, finish_interrupted};
use super::batch::{left_out_at_end, next_chunk, search_chunk};
use super::exit::{Exit, final_status};
use super::input::{InputArgs, Item, NameArgs, input_paths, load_puzzles};
use super::output::{Entry, GridRef, InInput, OutputArgs, Record, Rows, Shown, Sink};
use super::{Ctx, progress};
use crate::grid::Puzzle;
use crate::io::csv::Names;
use crate::solve::{Engine, Outcome, SolveLimits, Stats, Verdict, Workspace};

/// Flags of `shiftgrid solve`.
#[derive(Debug, Args)]
#[command(mut_arg("format", |a| a.help(
    "Output form [default: csv, in the input's layout, for a roster CSV input; csv when -o \
     FILE ends in .csv or .tsv; json when it ends in .json, .jsonl or .ndjson; grid otherwise]"
)))]
#[command(mut_arg("csv_shape", |a| a.help(
    "Layout of --format csv: wide (a row per staff member, a column per day) or long \
     (staff,day,shift rows; several grids get a leading grid column) [default: the input's \
     layout for a roster CSV, else wide]"
)))]
pub(super) struct SolveArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    names: NameArgs,
    /// Stop at the first solution without checking that it is the only one.
    #[arg(long)]
    first: bool,
    #[command(flatten)]
    engine: EngineArgs,
    /// Print per-puzzle search statistics on stderr (in the record with --format json).
    #[arg(long)]
    stats: bool,
}

/// The search flags of `solve` and `count`.
#[derive(Debug, Args)]
pub(super) struct EngineArgs {
    /// Solving engine: auto (a portfolio chosen by size: use it unless comparing engines),
    /// dlx (dancing links; minutes on some sparse 25x25 puzzles), propagate (singles,
    /// locked candidates, probing, search), fc (the forward-checking report's search,
    /// kept as its reference: naked singles only, so already slow on some 16x16 puzzles),
    /// learn (conflict-driven clause learning).
    #[arg(long, default_value_t = Engine::Auto, value_parser = parse_engine, value_name = "ENGINE")]
    pub(super) engine: Engine,
    /// Give up on a puzzle after this long (e.g. 500ms, 30s, 2m, 1m30s; a number alone is
    /// seconds): what its search found so far is reported as not settled, and the exit
    /// status is 1 [default: none].
    #[arg(long, value_parser = super::duration::parse, value_name = "DURATION", allow_hyphen_values = true)]
    pub(super) time_limit: Option<Duration>,
}

/// Why a puzzle has no solution, where singles show it (`: Ann / Tue has no shift left`,
/// as `grade` says it), for the message; empty where only search shows it.
fn why_none(puzzle: &Puzzle, labels: Option<&crate::grade::Labels>) -> String {
    let opts = crate::grade::GradeOptions {
        explain: false,
        max_level: 2,
    };
    let g = crate::grade::Grader::new(puzzle.shape()).grade(puzzle, &opts);
    // Deduced, not given: a symbol given twice was refused as the input was read.
    g.conflict
        .map(|c| format!(": {} (deduced from the givens by singles)", c.named(labels)))
        .unwrap_or_default()
}

fn parse_engine(s: &str) -> Result<Engine, String> {
    s.parse()
        .map_err(|e: crate::solve::UnknownEngine| e.to_string())
}

/// Runs `shiftgrid solve`: every puzzle of the input, solved and checked for a second
/// solution (unless `--first`); bad puzzles are reported and skipped.
///
/// # Errors
/// I/O and CSV errors, usage errors for flags that would be ignored, and interruption.
pub(super) fn run(ctx: &Ctx, args: &SolveArgs) -> Result<Exit> {
    // Before any work: an output that cannot be written, or an input as the output.
    super::output::check_output_first(
        args.output.output.as_deref(),
        super::input::input_paths(&args.input, &args.names),
        &super::output::WRITES_GRIDS,
    )?;
    args.output.check_early()?;
    let (mut input, custom) =
        load_puzzles(&args.input, &args.names, Some(args.output.asks_for_csv()))?;
    // Rosters in, rosters out: a roster CSV is solved into one of the same layout by default.
    let out_form = args.output.resolve_for(input.csv_form())?;
    if let (Some(note), false, super::output::Out::Csv(..)) =
        (input.shift_note(), ctx.quiet, out_form)
    {
        msg!("{note}");
    }
    let json = out_form.is_json();
    let name = input.name.clone();
    // CSV output: refuse what cannot be written before solving.
    let mut sink = Sink::for_out(out_form, |layout, dialect| {
        Sink::csv(layout, dialect, input.needs_grid_column(layout)?, || {
            format!("{name} holds more than one puzzle")
        })
    })?;
    // Letters in, letters out: solutions in the alphabet the puzzles were read in.
    sink.set_alphabet(args.input.alphabet());
    let limits = if args.first {
        SolveLimits::first()
    } else {
        SolveLimits::count_up_to(2)
    };
    let bar = batch_progress(ctx, &input);
    let mut not_proper = 0usize;
    let mut timed_out = 0usize;
    let mut nodes = 0u64;
    let mut report = StatsReport::new(&name);
    // Ctrl-C: the results kept (a finished prefix of the batch) and the first puzzle left out.
    let mut kept = 0;
    let mut left_out = None;
    let mut cut = false;
    // The input is read and solved a chunk at a time, so memory stays bounded and Ctrl-C
    // is seen between chunks as well as inside searches.
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
            let (i, line) = (item.index, item.line);
            nodes += o.stats.nodes();
            // With JSON the statistics go into the record instead, as `count` does.
            if args.stats && !json {
                report.row(line, i, o);
            }
            match o.verdict() {
                Some(Verdict::None) => {
                    not_proper += 1;
                    msg!(
                        "shiftgrid: {name}:{line}: puzzle {} has no solution{}",
                        item.number(),
                        why_none(&item.puzzle, input.labels(item).as_ref())
                    );
                }
                Some(Verdict::Multiple) if !args.first => {
                    not_proper += 1;
                    msg!(
                        "shiftgrid: {name}:{line}: puzzle {} has more than one solution; \
                         printing one",
                        item.number()
                    );
                }
                None if o.count == 0 => {
                    timed_out += 1;
                    msg!(
                        "shiftgrid: {name}:{line}: puzzle {}: no solution found within the \
                         time limit",
                        item.number()
                    );
                }
                None if !args.first => {
                    timed_out += 1;
                    msg!(
                        "shiftgrid: {name}:{line}: puzzle {}: the time limit came before a \
                         second solution was ruled out; printing the one found",
                        item.number()
                    );
                }
                _ => {}
            }
            sink.push(&Solved {
                item,
                outcome: o,
                first: args.first,
                stats: args.stats,
                names: || input.names(item, &custom),
            })?;
        }
        if interrupted {
            left_out = Some(LeftOut::after(&chunk, keep, input.first_held()));
            cut = keep < chunk.len();
            break;
        }
    }
    if not_proper > 0 && !ctx.quiet {
        if let Some(note) = input.order_note(&custom) {
            msg!("{note}");
        }
    }
    let paths = input_paths(&args.input, &args.names);
    if let Some(left_out) = left_out_at_end(ctx, left_out, cut, &input) {
        let output = args.output.output.as_deref();
        return finish_interrupted(ctx, bar, kept, left_out, "searched", output, paths, sink);
    }
    let Some(elapsed) = finish_batch(
        ctx,
        bar,
        false,
        input.good,
        args.output.output.as_deref(),
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
            "solved {} puzzle{} in {:.2} s: {not_proper} without a single solution, {}{} \
             unreadable, {} nodes",
            input.good,
            if input.good == 1 { "" } else { "s" },
            elapsed.as_secs_f64(),
            if args.engine.time_limit.is_some() {
                format!("{timed_out} timed out, ")
            } else {
                String::new()
            },
            input.bad,
            progress::human(nodes as f64)
        ),
    );
    Ok(final_status(input.bad, not_proper + timed_out))
}

/// One puzzle of the input and its search, as output: its solution (if any), and a record
/// with the verdict.
struct Solved<'a, F> {
    item: &'a Item,
    outcome: &'a Outcome,
    /// `--first`: a solution found is "solved", not "unique" or "multiple".
    first: bool,
    /// `--stats`: the record carries the search statistics.
    stats: bool,
    /// The roster names of the solution in a CSV.
    names: F,
}

impl<F: Fn() -> Result<Names>> Entry for Solved<'_, F> {
    fn record(&self) -> impl Serialize {
        #[derive(Serialize)]
        struct SolveJson<'a> {
            givens: usize,
            status: &'static str,
            /// False when the time limit cut the search short: `timeout`, or `solved`
            /// without `--first` (a second solution was not ruled out).
            complete: bool,
            solution: Option<Rows<'a>>,
            #[serde(skip_serializing_if = "Option::is_none")]
            stats: Option<StatsJson<'a>>,
        }
        let (puzzle, o) = (&self.item.puzzle, self.outcome);
        let status = match (o.verdict(), self.first) {
            (Some(Verdict::None), _) => "none",
            (Some(Verdict::Unique), false) => "unique",
            (Some(Verdict::Multiple), false) => "multiple",
            // Stopped by the time limit before any solution.
            _ if o.solutions.is_empty() => "timeout",
            _ => "solved",
        };
        Record::new(
            InInput::of(self.item),
            Some(puzzle.shape()),
            SolveJson {
                givens: puzzle.givens(),
                status,
                complete: status != "timeout" && (self.first || status != "solved"),
                solution: o.solutions.first().map(|g| Rows(g.cells(), g.shape())),
                stats: self.stats.then(|| StatsJson::new(o)),
            },
        )
    }

    fn grids(&self) -> Vec<Shown<'_>> {
        self.outcome
            .solutions
            .first()
            .map(|g| Shown {
                label: self.item.label(),
                grid: GridRef::Grid(g),
            })
            .into_iter()
            .collect()
    }

    fn names(&self) -> Result<Option<Names>> {
        (self.names)().map(Some)
    }
}

/// One puzzle's search, run in parallel across puzzles, or with root splitting when there
/// are fewer puzzles than threads. Each outcome comes with whether it is final: finished,
/// or cut short by its own time limit before any Ctrl-C (not by the press). Each puzzle
/// adds 1 to `done` (the batch's bar) as it finishes.
pub(super) fn search_all(
    ctx: &Ctx,
    puzzles: &[(usize, &Puzzle)],
    engine: &EngineArgs,
    limits: &SolveLimits,
    done: &std::sync::atomic::AtomicU64,
) -> Vec<(Outcome, bool)> {
    let split = puzzles.len() < rayon::current_num_threads();
    let outcomes: Vec<(Outcome, bool)> = puzzles
        .par_iter()
        .map_init(
            || Workspace::new(split),
            |ws, (_, p)| {
                // Each puzzle's clock starts with its own search. A limit too far off to
                // represent is no limit.
                let control = match engine.time_limit {
                    Some(d) => ctx
                        .control
                        .clone()
                        .with_deadline(Instant::now().checked_add(d)),
                    None => ctx.control.clone(),
                };
                let o = ws
                    .solve(p, engine.engine, limits, &control)
                    .expect("puzzles were checked while parsing");
                let last = o.complete || !control.is_interrupted();
                done.fetch_add(1, Ordering::Relaxed);
                (o, last)
            },
        )
        .collect();
    outcomes
}

/// A puzzle's search statistics in JSON records (`solve`, `count`): the answering
/// engine's own counters and the time.
#[derive(Serialize)]
pub(super) struct StatsJson<'a> {
    #[serde(flatten)]
    stats: &'a Stats,
    micros: u128,
}

impl StatsJson<'_> {
    /// The statistics of outcome `o`.
    pub(super) fn new(o: &Outcome) -> StatsJson<'_> {
        StatsJson {
            stats: &o.stats,
            micros: o.elapsed.as_micros(),
        }
    }
}

/// `--stats` on stderr: on a terminal a table (a header naming the answering engine's own
/// counters, repeated when the engine changes, then one row per puzzle); otherwise one
/// `file:line: puzzle K: ...` line per puzzle, which greps and parses better.
pub(super) struct StatsReport<'a> {
    name: &'a str,
    table: bool,
    last_source: Option<&'static str>,
}

impl<'a> StatsReport<'a> {
    /// A report on the puzzles of input `name`.
    pub(super) fn new(name: &'a str) -> StatsReport<'a> {
        use std::io::IsTerminal;
        StatsReport {
            name,
            table: std::io::stderr().is_terminal(),
            last_source: None,
        }
    }

    /// The statistics of record `index` (at `line`).
    pub(super) fn row(&mut self, line: usize, index: usize, o: &Outcome) {
        if !self.table {
            msg!("{}", stats_line(self.name, line, index, o));
            return;
        }
        let fields = o.stats.fields();
        if self.last_source != Some(o.source()) {
            self.last_source = Some(o.source());
            let mut header = format!(
                "{:>7} {:>7} {:>9} {:>9}",
                "puzzle", "line", "solutions", "engine"
            );
            for (k, _) in &fields {
                header.push_str(&format!(" {k:>w$}", w = k.len().max(10)));
            }
            header.push_str(&format!(" {:>10}", "ms"));
            msg!("{header}");
        }
        let solutions = if o.complete {
            o.count.to_string()
        } else {
            format!("{}?", o.count)
        };
        let mut row = format!(
            "{:>7} {:>7} {:>9} {:>9}",
            index + 1,
            line,
            solutions,
            o.source()
        );
        for (k, v) in &fields {
            row.push_str(&format!(" {v:>w$}", w = k.len().max(10)));
        }
        row.push_str(&format!(" {:>10.3}", o.elapsed.as_secs_f64() * 1e3));
        msg!("{row}");
    }
}

/// Counter `name` for a count of `v`: `1 conflict`, `1 clause held`, `2 conflicts`.
fn one_or_more(name: &str, v: u64) -> std::borrow::Cow<'_, str> {
    match (v, name.strip_suffix('s')) {
        (1, Some(one)) => one.into(),
        (1, None) if name == "clauses held" => "clause held".into(),
        _ => name.into(),
    }
}

/// The `--stats` line on stderr for record `index` (at `line` of input `name`).
fn stats_line(name: &str, line: usize, index: usize, o: &Outcome) -> String {
    let counters: Vec<String> = o
        .stats
        .fields()
        .iter()
        .map(|&(k, v)| format!("{v} {}", one_or_more(k, v)))
        .collect();
    format!(
        "{name}:{line}: puzzle {}: {} solution{}{}, {}: {}, {:.3} ms",
        index + 1,
        o.count,
        if o.count == 1 { "" } else { "s" },
        if o.complete {
            ""
        } else {
            " (search cut short)"
        },
        o.source(),
        counters.join(", "),
        o.elapsed.as_secs_f64() * 1e3
    )
}

#[cfg(test)]
mod tests {
    use super::one_or_more;

    #[test]
    fn counters_of_one_are_singular() {
        for (name, one) in [
            ("conflicts", "conflict"),
            ("dead ends", "dead end"),
            ("clauses held", "clause held"),
            ("FC failures", "FC failure"),
            ("deleted", "deleted"),
            ("removed by FC", "removed by FC"),
        ] {
            assert_eq!(one_or_more(name, 1), one);
            assert_eq!(one_or_more(name, 2), name);
            assert_eq!(one_or_more(name, 0), name);
        }
    }
}

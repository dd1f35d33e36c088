//! `shiftgrid count`: count the solutions of every puzzle of the input, up to a cap.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

use anyhow::Result;
use clap::{Args, ValueEnum};
use serde::Serialize;

use super::Ctx;
use super::exit::{self, Exit, final_status};
use super::input::{InputArgs, NameArgs, good_records, load_puzzles};
use super::output::emit;
use super::solve::{EngineArgs, StatsJson, StatsReport, search_all};
use crate::solve::SolveLimits;

/// Flags of `shiftgrid count`.
#[derive(Debug, Args)]
pub(super) struct CountArgs {
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
    #[command(flatten)]
    engine: EngineArgs,
    /// Print per-puzzle search statistics.
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
    let (input, _) = load_puzzles(&args.input, &args.names, false)?;
    let (name, records) = (&input.name, &input.records);
    let (good, bad) = good_records(name, records);
    if good.is_empty() {
        // Nothing could be read: write no output at all (not even an empty file).
        return Ok(Exit::DataErr);
    }
    let limits = SolveLimits::count_up_to(args.limit);
    let outcomes = search_all(ctx, &good, args.engine.engine, &limits);
    if ctx.control.interrupt.load(Ordering::Relaxed) {
        return Err(exit::interrupted());
    }
    let mut out = Vec::new();
    let mut not_unique = 0;
    let mut report = StatsReport::new(name);
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
                    report.row(line, *i, o);
                }
            }
            CountFormat::Json => {
                #[derive(Serialize)]
                struct CountJson<'a> {
                    puzzle: usize,
                    line: usize,
                    solutions: u64,
                    capped: bool,
                    verdict: &'static str,
                    #[serde(skip_serializing_if = "Option::is_none")]
                    stats: Option<StatsJson<'a>>,
                }
                serde_json::to_writer(
                    &mut out,
                    &CountJson {
                        puzzle: i + 1,
                        line,
                        solutions: o.count,
                        capped,
                        verdict,
                        stats: args.stats.then(|| StatsJson::new(o)),
                    },
                )?;
                out.push(b'\n');
            }
        }
    }
    emit(args.output.as_deref(), &args.input.input, &out)?;
    Ok(final_status(bad, not_unique))
}

//! `shiftgrid generate`: puzzles with a proven unique solution, made by blanking random
//! grids ([`crate::generate`]).

use std::sync::atomic::Ordering;

use anyhow::Result;
use clap::{Args, ValueEnum};
use rayon::prelude::*;
use serde::Serialize;

use super::exit::{self, Exit};
use super::input::NameArgs;
use super::output::{Out, OutputArgs, csv_for_shape, emit};
use super::{Ctx, pick_seed, progress};
use crate::generate::fill::batch_seed;
use crate::generate::{Fallback, GenerateConfig, Generated, Order, Symmetry, Target, generate};
use crate::grid::Shape;
use crate::io::write::{OutputFormat, write_grid, write_puzzle};

/// Flags of `shiftgrid generate`.
#[derive(Debug, Args)]
pub(super) struct GenerateArgs {
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
    /// Order in which cells are tried: `bands` (row by row in every band at once: givens
    /// spread evenly), `sweep` (row by row: 1.5-2.5 points fewer givens, but the top sparse
    /// and the bottom dense) or `random` (even, and the most givens); see README.
    #[arg(long, value_enum, default_value_t = OrderArg::Bands)]
    order: OrderArg,
    /// Stop at K givens or fewer (or report the lowest reached).
    #[arg(long, value_name = "K", conflicts_with = "minimal")]
    givens: Option<usize>,
    /// Blank until no given (orbit) can go, proving each step with a complete search.
    #[arg(long)]
    minimal: bool,
    /// When propagation cannot prove a removal, back it with a search (propagating at
    /// every node) capped at NODES branches per blanked cell (0: propagation only, the
    /// default above 16x16).
    #[arg(long, value_name = "NODES", conflicts_with = "minimal")]
    search_nodes: Option<u64>,
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

/// `--order` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum OrderArg {
    Sweep,
    Random,
    Bands,
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

/// The longest `--time-limit`: a year.
const MAX_TIME_LIMIT_SECS: f64 = 365.0 * 24.0 * 3600.0;

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
    // Past a year a limit means none; beyond that `Duration` or `Instant` could overflow.
    if secs > MAX_TIME_LIMIT_SECS {
        return Err(format!(
            "{s:?} is too long: the limit is at most a year (leave --time-limit out for none)"
        ));
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

/// Runs `shiftgrid generate`: `--count` puzzles whose unique solution is proven.
///
/// # Errors
/// Usage errors (size, CSV flags), name-file errors, I/O errors, and an interruption
/// before any puzzle was made.
pub(super) fn run(ctx: &Ctx, args: &GenerateArgs) -> Result<Exit> {
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
    base.order = match args.order {
        OrderArg::Sweep => Order::Sweep,
        OrderArg::Random => Order::Random,
        OrderArg::Bands => Order::Bands,
    };
    if args.minimal {
        base.target = Target::Minimal;
        base.fallback = Fallback::Full;
    } else if let Some(k) = args.givens {
        base.target = Target::Givens(k);
    }
    if let Some(nodes) = args.search_nodes {
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
    let started = std::time::Instant::now();
    let bar = if args.count == 1 {
        let orbits = base.symmetry.orbits(shape).len() as u64;
        progress::Progress::generate(visible, &ctx.control, shape.cells() as u64, orbits)
    } else {
        progress::Progress::new(visible, args.count, "puzzles", &ctx.control, None)
    };
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
            msg!(
                "puzzle {}: seed {}, {} givens ({:.1}%), {}, {} checks: {} by propagation, \
                 {} by search, {} refuted, {} unproven; fill {:.3} s, total {:.3} s",
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
                st.refuted,
                st.unproven,
                st.fill_micros as f64 / 1e6,
                st.micros as f64 / 1e6
            );
        }
        if let Some((csv, names)) = csv.as_mut() {
            // Labels: the puzzle's number, and "<number> solution" for its solution.
            csv.push((i + 1).to_string(), g.puzzle.clone(), names.clone())?;
            if args.solution {
                csv.push(
                    format!("{} solution", i + 1),
                    g.solution.to_puzzle(),
                    names.clone(),
                )?;
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
    let out = match csv {
        Some((csv, _)) => csv.into_spool()?,
        None => out.into(),
    };
    // After a first Ctrl-C the puzzles made so far are still written (a second one exits).
    let writing = Ctx {
        quiet: ctx.quiet,
        control: crate::solve::SearchControl::default(),
    };
    emit(
        &writing,
        args.output.output.as_deref(),
        args.names.paths(),
        out,
    )?;
    let made: Vec<&Generated> = results.iter().flatten().collect();
    let givens: usize = made.iter().map(|g| g.puzzle.givens()).sum();
    let checks: u64 = made.iter().map(|g| g.stats.checks).sum();
    progress::summary(
        ctx.quiet,
        &format!(
            "generated {} {shape} puzzle{} in {:.2} s: {} givens{} ({:.1}%), \
             {checks} removal checks{}",
            made.len(),
            if made.len() == 1 { "" } else { "s" },
            started.elapsed().as_secs_f64(),
            if made.len() == 1 {
                givens.to_string()
            } else {
                format!("{:.1}", givens as f64 / made.len().max(1) as f64)
            },
            if made.len() == 1 { "" } else { " on average" },
            100.0 * givens as f64 / (made.len().max(1) * shape.cells()) as f64,
            if made.iter().all(|g| g.minimal) {
                ", minimal"
            } else {
                ""
            }
        ),
    );
    if interrupted {
        msg!("shiftgrid: interrupted: wrote the last unique puzzle of each run");
        return Ok(Exit::Interrupted);
    }
    Ok(Exit::Success)
}

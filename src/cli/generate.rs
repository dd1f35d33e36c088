//! `shiftgrid generate`: puzzles with a unique solution, made from full grids by one of
//! three methods: blanking with proofs ([`crate::generate`], the default), the difficulty
//! paper's empty-cell expansion ([`crate::generate::expand`]) or its genetic algorithm for
//! a target level ([`crate::generate::ga`]).
//!
//! Batches: puzzle `i` of a run is made from `batch_seed(seed, i)` alone, so `--count M
//! --first-index K` skips the first `K` puzzles of the same endless batch and makes the
//! next `M`, and shards made on different machines concatenate into the unsharded batch.
//!
//! `method.rs` checks the flags against the method, builds its configuration and makes one
//! puzzle with it;
//! `source.rs` reads `--from`'s grid;
//! `report.rs` writes the statistics line and the GA's progress.
//! `values.rs` holds the flag values and their library counterparts.

use std::sync::atomic::Ordering;

use anyhow::Result;
use clap::Args;
use rayon::prelude::*;

mod method;
mod report;
mod room;
mod source;
mod values;

use super::exit::{self, Exit};
use super::input::{AlphabetArg, InputFormatArg, NameArgs};
use super::output::{InBatch, OutputArgs, Sink, alphabet_for, emit, sink_for_shape};
use super::which::note_which;
use super::{Ctx, note_seed, pick_seed, progress};
use crate::generate::fill::batch_seed;
use crate::generate::ga::{GaProgress, GenerationRecord};
use crate::grade::Grade;
use crate::grid::{Grid, Puzzle, Shape};
use method::{Method, method_of};
use report::{Generated, Totals, stats_line};
use source::read_source;
use values::{GridArg, MethodArg, OrderArg, SymmetryArg};

/// Flags of `shiftgrid generate`.
#[derive(Debug, Args)]
pub(super) struct GenerateArgs {
    /// Box size b: puzzles are b²×b² (2..10: 4x4 up to 100x100; 3 makes 9x9); with --from, the file's
    /// size (given, it must match).
    #[arg(
        long = "box",
        short,
        value_name = "B",
        required_unless_present = "from",
        value_parser = super::box_size
    )]
    box_size: Option<usize>,
    /// Make the puzzles from the grid in FILE (grid, line or JSON form, letters with
    /// --alphabet, or a
    /// roster CSV; - for standard input) instead of a random one: its unique solution is
    /// that grid. A grid with blanks (a roster with some shifts agreed) is completed first
    /// (by the solver's portfolio: the same completion on every run, within
    /// --time-limit) and its givens are kept as givens (--method prove only; no symmetry
    /// unless --symmetry says); a roster CSV's names and dialect are the output's, and
    /// FILE is never overwritten.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["grid", "automorphic"])]
    from: Option<std::path::PathBuf>,
    /// How to read --from's FILE, as the commands that read puzzles do: auto detects grid
    /// and line forms, and reads a roster CSV by its name (.csv, .tsv) or first line.
    #[arg(long, value_enum, default_value_t = InputFormatArg::Auto, requires = "from")]
    input_format: InputFormatArg,
    /// Write the grid and line forms one character per cell in this alphabet (16x16 and
    /// 25x25 as Gecode's and janko's files do, with 1-9A), and read --from's compact lines
    /// in it [default: numeric].
    #[arg(long, value_enum)]
    alphabet: Option<AlphabetArg>,
    /// Seed (default: picked at random and printed on stderr). Same seed, same puzzle,
    /// whatever the thread count (unless a time limit cuts the run short).
    #[arg(long, short, value_name = "S", value_parser = super::whole::<u64>(0, u64::MAX))]
    seed: Option<u64>,
    /// Symmetry of the pattern of givens [default: rot180; none with a partial --from
    /// roster, whose agreed shifts would otherwise keep their mirror cells as givens].
    #[arg(long, value_enum)]
    symmetry: Option<SymmetryArg>,
    /// The full grid the puzzle is made from: `random`, or `automorphic`, one that the half
    /// turn maps onto itself with the shifts renamed in pairs (or kept) (any method, up to 81x81, with
    /// --symmetry rot180, rot90 or dihedral, which hold the half turn). With the point
    /// symmetry, automorphic grids leave 2-4.5 points fewer givens (minimal 25x25: median
    /// 41.6% against 43.8%), but the solution has the symmetry too, which a solver can use
    /// [default: automorphic at 25x25 with --method prove and a symmetry that holds the half
    /// turn, random otherwise].
    #[arg(long, value_enum, value_name = "KIND")]
    grid: Option<GridArg>,
    /// The same as --grid automorphic.
    #[arg(long, conflicts_with = "grid")]
    automorphic: bool,
    /// How puzzles are made: `prove` blanks cells while uniqueness is proven (fewest
    /// givens); `expand` is the difficulty paper's empty-cell expansion (blanks kept while
    /// techniques 1..--max-level solve); `ga` is its genetic algorithm for puzzles of
    /// exactly --level with long solving paths [default: prove, or ga with --level].
    #[arg(long, value_enum)]
    method: Option<MethodArg>,
    /// Order in which cells are tried: `bands` (row by row in every band at once: givens
    /// spread evenly), `sweep` (row by row: from 25x25 up 1.5-2.5 points fewer givens, but the top sparse
    /// and the bottom dense) or `random` (even; with propagation proofs the most givens,
    /// with complete proofs about as many as bands but far slower from 25x25); see README
    /// [default: bands for prove, random (the paper's) for expand].
    #[arg(long, value_enum)]
    order: Option<OrderArg>,
    /// expand: keep blanks while techniques 1..L solve the puzzle (1..8) [default: 8].
    #[arg(long, value_name = "L", value_parser = super::whole::<u8>(1, 8))]
    max_level: Option<u8>,
    /// ga: the target technique level L (1..8); implies --method ga.
    #[arg(long, value_name = "L", value_parser = super::whole::<u8>(1, 8))]
    level: Option<u8>,
    /// ga: generations after the initial population [default: by size, see README].
    #[arg(long, value_name = "G", value_parser = super::whole::<u32>(0, 1_000_000))]
    generations: Option<u32>,
    /// ga: individuals per generation (2 to 100000) [default: by size, see README].
    #[arg(long, value_name = "P", value_parser = super::whole::<u64>(2, 100_000))]
    population: Option<u64>,
    /// Stop at K givens or fewer (or report the lowest reached).
    #[arg(long, value_name = "K", conflicts_with = "minimal",
          value_parser = super::whole::<usize>(0, u64::MAX))]
    givens: Option<usize>,
    /// Blank until no given (orbit) can go, proving each step with a complete search (the
    /// default up to 25x25).
    #[arg(long)]
    minimal: bool,
    /// Keep a given in every row, column and box (prove). Without it the cells are blanked
    /// region by region, and the rows blanked first end empty: at 9x9 the middle row of
    /// every puzzle. A puzzle may then keep a given that could go only by emptying its
    /// house, so it is not minimal: a minimal run checks what it held back, and says how
    /// many (JSON "minimal": false). No --improve rounds.
    #[arg(long)]
    every_house: bool,
    /// After the minimal puzzle, ROUNDS rounds of local search for fewer givens, two at a
    /// time side by side: each gives back two blanked orbits and blanks again all it can
    /// with complete proofs; the better goes on when it leaves no more givens and the
    /// givens as evenly spread (at 25x25 on an automorphic grid, 16 rounds: median 39.7%
    /// givens against 41.6%, about 8 s on two cores; 24 rounds: 39.0%, about 14 s). Needs
    /// minimal puzzles (the default up to 25x25, or --minimal; not with --givens or
    /// --search-nodes; --improve 0 goes with anything); --time-limit and Ctrl-C stop it
    /// with the best so far, and a time limit that ends the first pass leaves no time for
    /// rounds [default: 16 at 25x25 on an automorphic grid with --symmetry rot180 (orbits
    /// of four cells make rounds several times dearer), then up to 32 more while above 40%
    /// givens (some seeds: minutes); 0 otherwise. Given, exactly ROUNDS].
    #[arg(long, value_name = "ROUNDS", value_parser = super::whole::<u32>(0, u64::from(u32::MAX)))]
    improve: Option<u32>,
    /// When propagation cannot prove a removal, back it with a search (propagating at
    /// every node) capped at NODES branches per blanked cell (0: propagation only, the
    /// default above 25x25).
    #[arg(long, value_name = "NODES", conflicts_with = "minimal",
          value_parser = super::whole::<u64>(0, u64::MAX))]
    search_nodes: Option<u64>,
    /// Stop after this long with the best unique puzzle so far (e.g. 30s, 2m, 1m30s, 500ms;
    /// a number alone is seconds); per puzzle. The grid's fill is not cut (up to about a
    /// second at 100x100, more on a busy machine); a limit that ends before any cell is
    /// blanked leaves the full grid and exit status 1 [default: none].
    #[arg(long, value_name = "DURATION", value_parser = super::duration::parse, allow_hyphen_values = true)]
    time_limit: Option<std::time::Duration>,
    /// Number of puzzles. In a batch (M > 1, or with --first-index) puzzle i is seeded from
    /// the run seed and i; a single puzzle uses the run seed itself (each puzzle's seed is
    /// in its JSON).
    #[arg(long, short = 'n', default_value_t = 1, value_name = "M",
          value_parser = super::whole::<u64>(1, u64::MAX))]
    count: u64,
    /// Puzzles of the batch of --seed to skip: makes the next M, numbered K+1 to K+M in the
    /// output as in the whole batch, so shards made apart concatenate into it (0 makes
    /// puzzles 1 to M of the batch, where a lone puzzle without it uses the run seed itself;
    /// the resume note of an interrupted batch gives K and M; K+M at most 2^53).
    #[arg(long, value_name = "K", value_parser = super::whole::<u64>(0, u64::MAX))]
    first_index: Option<u64>,
    /// Also print each puzzle's solution after it.
    #[arg(long)]
    solution: bool,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    names: NameArgs,
    /// Print statistics on stderr, one line per puzzle: givens and time; with prove the
    /// checks and how each was proven, with expand and ga the level and steps. With
    /// --format json, prove's statistics go in the record instead; expand's and ga's
    /// records hold their level, steps and counts with or without --stats.
    #[arg(long)]
    stats: bool,
}

/// What one puzzle of the batch came out as, whatever the method.
struct Made {
    puzzle: Puzzle,
    solution: Grid,
    /// `prove`: whether the puzzle was shown minimal.
    minimal: bool,
    stopped_early: bool,
    micros: u64,
    /// `prove`: the proof counters.
    proof: Option<crate::generate::GenerateStats>,
    /// `expand` and `ga`: the grade with the allowed techniques.
    grade: Option<Grade>,
    /// `ga`: the fitness, generations run, evaluations and the history.
    ga: Option<GaSummary>,
}

struct GaSummary {
    target: u8,
    fitness: u64,
    evaluations: u64,
    history: Vec<GenerationRecord>,
}

/// Puzzles of a batch made in parallel at a time.
const BATCH_CHUNK: u64 = 1024;

/// Where the puzzles of a run go as they are made: the sink and the summary's totals.
struct Batch<'a> {
    args: &'a GenerateArgs,
    method: &'a Method,
    shape: Shape,
    /// `-f json`: `--stats` go in the records, not on stderr.
    json: bool,
    sink: Sink,
    totals: Totals,
    /// The `--from` grid's label in its long roster.
    label: Option<&'a str>,
}

impl Batch<'_> {
    /// Writes puzzle `i` (from 0) of the run, seeded `seed`, into the sink and the totals;
    /// `None` (stopped before a unique puzzle) writes nothing.
    fn push(&mut self, i: u64, seed: u64, made: Option<&Made>) -> Result<()> {
        let Some(g) = made else { return Ok(()) };
        let index = self.args.first_index.unwrap_or(0) + i + 1;
        if self.args.stats && !self.json {
            msg!("{}", stats_line(index, seed, self.shape, g));
        }
        self.totals.made += 1;
        self.totals.givens += g.puzzle.givens() as u64;
        self.totals.minimal &= g.minimal;
        self.totals.not_minimal += u64::from(!g.minimal);
        if self.args.givens.is_some_and(|k| g.puzzle.givens() > k) {
            self.totals.above_target += 1;
            self.totals.fewest_above = self.totals.fewest_above.min(g.puzzle.givens());
            note_which(&mut self.totals.above_which, index);
        }
        self.totals.cut_short += u64::from(g.stopped_early);
        self.totals.cut_minimal += u64::from(g.stopped_early && g.minimal);
        let full = g.puzzle.givens() == self.shape.cells();
        if full {
            self.totals.no_blank += 1;
            note_which(&mut self.totals.no_blank_which, index);
        }
        if self.totals.shift_names.is_some() {
            let given = &mut self.totals.shifts_given;
            given.resize(self.shape.side() + 1, false);
            for &v in g.puzzle.cells() {
                given[usize::from(v)] = true;
            }
        }
        if let (Some(ga), Some(grade), false) = (&g.ga, &g.grade, full) {
            // (A full grid is said to be no puzzle, not to miss the level.)
            if grade.level != Some(ga.target) {
                self.totals.off_level += 1;
                self.totals.off_levels.insert(grade.level);
                note_which(&mut self.totals.off_which, index);
                self.totals.cut_off_level += u64::from(g.stopped_early);
            }
        }
        self.sink.push(&Generated {
            key: InBatch { index, seed },
            method: self.method,
            from_file: self.args.from.is_some(),
            made: g,
            solution: self.args.solution,
            stats: self.args.stats,
            label: self.label,
            in_batch: self.args.count > 1 || self.args.first_index.is_some(),
        })
    }
}

/// Runs `shiftgrid generate`: `--count` puzzles, each with a unique solution.
///
/// # Errors
/// Usage errors (size, CSV flags, flags of another method), name-file errors, I/O errors,
/// and an interruption before any puzzle was made.
pub(super) fn run(ctx: &Ctx, args: &GenerateArgs) -> Result<Exit> {
    // Before any work: an output that cannot be written, or an input as the output.
    super::output::check_output_first(
        args.output.output.as_deref(),
        args.names.paths().chain(args.from.as_deref()),
        &super::output::WRITES_GRIDS,
    )?;
    let (source, csv_input) = match &args.from {
        Some(path) => match read_source(ctx, args, path)? {
            Some((source, csv_input)) => (Some(source), csv_input),
            None => return Ok(Exit::DataErr),
        },
        None => (None, None),
    };
    let shape = match (&source, args.box_size) {
        (Some(s), Some(b)) if b != s.solution.shape().box_size() => {
            return Err(exit::usage_error(format!(
                "--box {b} does not match --from's grid, which is {}",
                s.solution.shape()
            )));
        }
        (Some(s), _) => s.solution.shape(),
        (None, b) => super::shape_of_box(b.unwrap_or(0))?,
    };
    let out_form = args.output.resolve_for(csv_input.as_ref().map(|c| c.0))?;
    // A shard (`--first-index`) of one puzzle in long CSV still carries its number in the
    // `grid` column, as the batch it is a slice of does.
    let shard_in_long = args.first_index.is_some()
        && matches!(
            out_form,
            super::output::Out::Csv(crate::io::csv::Layout::Long, _)
        );
    // A labelled grid of a long roster keeps its label in the `grid` column.
    let labelled_in_long = source.as_ref().is_some_and(|s| s.label.is_some())
        && matches!(
            out_form,
            super::output::Out::Csv(crate::io::csv::Layout::Long, _)
        );
    let several = args.count > 1 || args.solution || shard_in_long || labelled_in_long;
    let alphabet = alphabet_for(out_form, args.alphabet, shape, args.from.is_some())?;
    // Name files read a roster CSV given to --from, whatever the output.
    let no_names = NameArgs::default();
    let names_used = if csv_input.is_some() {
        &no_names
    } else {
        &args.names
    };
    let mut sink = sink_for_shape(out_form, shape, names_used, several, || {
        if args.count > 1 {
            format!("--count {} makes {} puzzles", args.count, args.count)
        } else {
            "--solution adds the solution as a second grid".to_string()
        }
    })?;
    // The shift names the output roster is written with: a list's, or the --from roster's.
    let from_shifts = csv_input.as_ref().map(|(_, names)| names.shifts().to_vec());
    if let Some((_, names)) = csv_input {
        sink.set_names(names);
    }
    sink.set_alphabet(alphabet);
    let seed = pick_seed(args.seed);
    let method = method_of(args, shape, seed, source.as_ref().map(|s| s.keep.is_some()))?;
    let first = super::output::first_in_batch(args.first_index, args.count, "puzzle")?;
    note_seed(args.seed, seed, None);
    // A single puzzle without --first-index uses the run seed itself (as it always has);
    // batches and shards seed puzzle i from (seed, i), so a shard is a slice of the batch.
    let seed_of = |i: u64| {
        if args.count == 1 && args.first_index.is_none() {
            seed
        } else {
            batch_seed(seed, first + i)
        }
    };
    let visible = progress::show_progress(ctx.quiet);
    let started = std::time::Instant::now();
    // In a batch cut by Ctrl-C: the index (from 0) of the first puzzle not written.
    let mut finished: Option<u64> = None;
    // Puzzles finished after the first one an interrupt cut short, left out of the file.
    let mut dropped = 0usize;
    if let (super::output::Out::Csv(..), false) = (&out_form, ctx.quiet) {
        if let Some(names) = sink.names() {
            super::output::note_numbered_out_of_order(names);
        }
    }
    let shift_names = match out_form {
        super::output::Out::Csv(..) => match from_shifts {
            Some(shifts) => Some(shifts),
            // The list as the sink read it: a name file that is a pipe reads only once.
            None if names_used.has_shifts() => sink.shift_names().map(<[String]>::to_vec),
            None => None,
        },
        super::output::Out::Text(_) => None,
    };
    let mut batch = Batch {
        args,
        method: &method,
        shape,
        json: out_form.is_json(),
        sink,
        totals: Totals {
            shift_names,
            ..Totals::default()
        },
        label: source.as_ref().and_then(|s| s.label.as_deref()),
    };
    if let (Method::Ga(cfg), 1) = (method, args.count) {
        let ga_progress = GaProgress::default();
        let bar = progress::Progress::ga(visible, &ctx.control, cfg.generations, &ga_progress);
        let r = method.make(
            shape,
            seed_of(0),
            false,
            &ctx.control,
            Some(&ga_progress),
            source.as_ref(),
        );
        bar.finish();
        batch.push(0, seed_of(0), r.as_ref())?;
    } else {
        let bar = match (&method, args.count) {
            (Method::Prove(cfg), 1) => {
                let orbits = cfg.symmetry.orbits(shape).len() as u64;
                let cells = shape.cells() as u64;
                let rounds = u64::from(cfg.improve);
                progress::Progress::generate(visible, &ctx.control, cells, orbits, rounds)
            }
            _ => progress::Progress::new(visible, args.count, "puzzles", &ctx.control, None),
        };
        if args.count == 1 {
            let r = method.make(
                shape,
                seed_of(0),
                false,
                &ctx.control,
                None,
                source.as_ref(),
            );
            batch.push(0, seed_of(0), r.as_ref())?;
        } else {
            // Many puzzles: one per thread at a time (each puzzle does not depend on how
            // many threads made it), fewer where the memory left holds fewer, a chunk at
            // a time so that memory stays bounded whatever --count is (the sink spools
            // its output to a temporary file).
            let wanted = usize::try_from(args.count)
                .unwrap_or(usize::MAX)
                .min(rayon::current_num_threads());
            let at_once = room::at_once(ctx, shape, wanted)?;
            let step = match at_once < wanted {
                true => at_once as u64,
                false => BATCH_CHUNK,
            };
            let mut at = 0;
            while finished.is_none()
                && at < args.count
                && !ctx.control.interrupt.load(Ordering::Relaxed)
            {
                let end = args.count.min(at + step);
                let made: Vec<Option<Made>> = (at..end)
                    .into_par_iter()
                    .map(|i| {
                        let source = source.as_ref();
                        let r = method.make(shape, seed_of(i), true, &ctx.control, None, source);
                        bar.done.fetch_add(1, Ordering::Relaxed);
                        r
                    })
                    .collect();
                let interrupted = ctx.control.interrupt.load(Ordering::Relaxed);
                for (i, r) in (at..end).zip(&made) {
                    if interrupted && r.as_ref().is_none_or(|m| m.stopped_early) {
                        // Ctrl-C: the batch keeps only the puzzles finished before the
                        // first one it cut short, so that what is written is a prefix of
                        // the seeded batch (`--first-index` resumes it), each puzzle what
                        // its seed makes.
                        finished = Some(i);
                        let after = usize::try_from(i - at + 1).unwrap_or(usize::MAX);
                        dropped = made
                            .iter()
                            .skip(after)
                            .filter(|r| r.as_ref().is_some_and(|m| !m.stopped_early))
                            .count();
                        break;
                    }
                    batch.push(i, seed_of(i), r.as_ref())?;
                }
                at = end;
            }
            if finished.is_none() && at < args.count {
                // Stopped between two chunks.
                finished = Some(at);
            }
        }
        bar.finish();
    }
    let interrupted = ctx.control.interrupt.load(Ordering::Relaxed);
    let Batch { sink, totals, .. } = batch;
    if interrupted && totals.made == 0 {
        return Err(exit::interrupted());
    }
    if let Some(k) = finished {
        msg!(
            "shiftgrid: interrupted: writing the first {} puzzle{} of the batch, each \
             finished{} (resume with --first-index {} --count {})",
            totals.made,
            if totals.made == 1 { "" } else { "s" },
            if dropped > 0 {
                format!(
                    "; {dropped} more finished after the first one cut short and are left \
                     out, so that the file is a prefix of the batch"
                )
            } else {
                String::new()
            },
            first + k,
            args.count - k
        );
    }
    // After a first Ctrl-C the puzzles made so far are still written (a second one exits);
    // a first press during the writing of a finished run keeps the old file, as elsewhere.
    let writing = Ctx {
        quiet: ctx.quiet,
        control: crate::solve::SearchControl::default(),
    };
    emit(
        if interrupted { &writing } else { ctx },
        args.output.output.as_deref(),
        args.names.paths().chain(args.from.as_deref()),
        sink.finish()?,
    )?;
    report::notes(ctx, args, &method, &totals, interrupted);
    let totals_no_blank = totals.no_blank;
    let Totals {
        made,
        givens,
        minimal,
        ..
    } = totals;
    progress::summary(
        ctx.quiet,
        &(format!(
            "generated {made} {shape} puzzle{} in {:.2} s: {} givens{} ({:.1}%){}",
            if made == 1 { "" } else { "s" },
            started.elapsed().as_secs_f64(),
            if made == 1 {
                givens.to_string()
            } else {
                format!("{:.1}", givens as f64 / made.max(1) as f64)
            },
            if made == 1 { "" } else { " on average" },
            100.0 * givens as f64 / (made.max(1) as f64 * shape.cells() as f64),
            if made > 0 && minimal { ", minimal" } else { "" }
        ) + &match totals_no_blank {
            0 => String::new(),
            1 if made == 1 => "; it is the full grid, not a puzzle".to_string(),
            k => format!("; {k} of them full grids, not puzzles"),
        }),
    );
    if interrupted {
        if finished.is_none() {
            msg!("shiftgrid: interrupted: wrote the best unique puzzle so far");
        }
        return Ok(Exit::Interrupted);
    }
    // A full grid is not a puzzle: what the run was for was not done.
    Ok(if totals_no_blank > 0 {
        Exit::NotProper
    } else {
        Exit::Success
    })
}

//! `shiftgrid fill`: random full grids (blank-grid solutions) from a seed.

use std::sync::atomic::Ordering;

use anyhow::Result;
use clap::Args;
use rayon::prelude::*;
use serde::Serialize;

use super::exit::{self, Exit};
use super::input::{AlphabetArg, NameArgs};
use super::memory::{Headroom, headroom};
use super::output::{
    Entry, GridRef, InBatch, OutputArgs, Record, Rows, Shown, alphabet_for, emit, sink_for_shape,
};
use super::{Ctx, note_seed, pick_seed, progress};
use crate::generate::fill::{FillConfig, Filled, Filler, MATRIX_BYTES_PER_OPTION, batch_seed};
use crate::grid::{Grid, Shape};

/// Flags of `shiftgrid fill`.
#[derive(Debug, Args)]
pub(super) struct FillArgs {
    /// Box size b: the grid is b²×b² (2..10: 4x4 up to 100x100; 3 makes 9x9).
    #[arg(long = "box", short, value_name = "B", value_parser = super::box_size)]
    box_size: usize,
    /// Seed for the random choices (default: picked at random and printed on stderr).
    #[arg(long, short, value_name = "S", value_parser = super::whole::<u64>(0, u64::MAX))]
    seed: Option<u64>,
    /// Number of grids. In a batch (M > 1, or with --first-index) grid i is seeded from the
    /// run seed and i, and grids are made in parallel, one thread each; a lone grid uses
    /// the run seed itself, with every thread at work on it.
    #[arg(long, short = 'n', default_value_t = 1, value_name = "M",
          value_parser = super::whole::<u64>(1, u64::MAX))]
    count: u64,
    /// Grids of the batch of --seed to skip: makes the next M, numbered K+1 to K+M in the
    /// output as in the whole batch, so shards made apart concatenate into it (0 makes
    /// grids 1 to M of the batch, where a lone grid without it uses the run seed itself;
    /// the note of an interrupted batch gives K and M; K+M at most 2^53).
    #[arg(long, value_name = "K", value_parser = super::whole::<u64>(0, u64::MAX))]
    first_index: Option<u64>,
    #[command(flatten)]
    output: OutputArgs,
    /// Write the grid and line forms one character per cell in this alphabet (16x16 and
    /// 25x25 as Gecode's and janko's files do, with 1-9A) [default: numeric].
    #[arg(long, value_enum)]
    alphabet: Option<AlphabetArg>,
    #[command(flatten)]
    names: NameArgs,
    /// Print search statistics on stderr (in the record with --format json).
    #[arg(long)]
    stats: bool,
}

/// Bytes a fill takes besides its matrices (measured: about 80 MB at 100×100; less below).
const FILL_BASE_BYTES: u64 = 80 << 20;

/// Address space a fill takes under `ulimit -v`, by box size from 8 up: once, and for each
/// thread with a search matrix. Under such a limit the binary holds the C library's
/// allocator to one arena (`resources.rs`), so threads reserve no arena each. Measured
/// 2026-11-28 as the smallest limits under which 1, 2, 3, 4, 6 and 8 threads filled one
/// grid (the same for seeds 1 to 4): 86, 124, -, 197 and 269 MB at 64×64; 159, 229, 299,
/// 368 and 513 MB at 81×81; 223, 296, 365, 438, 583 and 723 MB at 100×100. The figures
/// here hold each with 10 MB to spare.
fn address_space(shape: Shape) -> Option<(u64, u64)> {
    const MB: u64 = 1_000_000;
    match shape.box_size() {
        8 => Some((60 * MB, 38 * MB)),
        9 => Some((100 * MB, 72 * MB)),
        10 => Some((162 * MB, 74 * MB)),
        _ => None,
    }
}

/// Address space a pool thread with no matrix takes under `ulimit -v` (its stack): a
/// batch smaller than the pool leaves such threads idle (measured: six of them, 11 MB).
const IDLE_THREAD_BYTES: u64 = 3_000_000;

/// The smallest search matrix worth a check (from 64×64 up): below it a fill needs little
/// memory, and a container whose room is mostly taken should not be refused a 9×9 grid.
const CHECKED_MATRIX_BYTES: u64 = 16 << 20;

/// Refuses a fill whose `matrices` search matrices (one thread each, of a pool of `pool`
/// threads) would not fit the memory left (`room`; no limit known, nothing refused): the
/// kernel would kill the run, or an allocation would fail and abort it, where a usage
/// error can name the threads that fit.
///
/// # Errors
/// An out-of-resources error (status 71) naming the threads that fit.
fn check_memory(shape: Shape, matrices: usize, pool: usize, room: Headroom) -> Result<()> {
    let per = MATRIX_BYTES_PER_OPTION * (shape.side() as u64).pow(3);
    if per < CHECKED_MATRIX_BYTES {
        return Ok(());
    }
    // Under `ulimit -v`: what was left before the pool started (its idle threads counted
    // in), else what is left now. Each limit: what is available, what the run needs, and
    // the threads that fit.
    let address = room
        .before_pool
        .or(room.address_space)
        .zip(address_space(shape))
        .map(|(available, (fixed, each))| {
            let idle = IDLE_THREAD_BYTES * pool.saturating_sub(matrices) as u64;
            (
                available,
                fixed + each * matrices as u64 + idle,
                available.saturating_sub(fixed) / each,
            )
        });
    let resident = room.resident.map(|available| {
        (
            available,
            FILL_BASE_BYTES + per * matrices as u64,
            available.saturating_sub(FILL_BASE_BYTES) / per,
        )
    });
    // The threads each limit weighs: memory, those with a matrix; address space, the
    // whole pool (idle threads reserve some too).
    let limits = [
        (resident, matrices, super::memory::MEMORY_LIMIT),
        (address, pool.max(matrices), super::memory::SPACE_LIMIT),
    ];
    for (limit, weighed, what) in limits {
        let Some((available, need, fit)) = limit else {
            continue;
        };
        if need <= available {
            continue;
        }
        // Never the count just refused (estimates of reserves could say so).
        let fit = fit.min(weighed as u64 - 1);
        let threads = |k: u64| format!("{k} thread{}", if k == 1 { "" } else { "s" });
        let advice = if fit == 0 {
            "not even one thread fits: free some memory or raise the limit".to_string()
        } else {
            format!("use --threads {fit} or fewer")
        };
        return Err(exit::resource_error(format!(
            "fill on {} at {shape} needs about {} (a search matrix of {:.0} MB a \
             thread), more than the {} {what}: {advice}",
            threads(weighed as u64),
            super::memory::size(need),
            per as f64 / 1e6,
            super::memory::size(available),
        )));
    }
    Ok(())
}

/// What a batch holds besides its fills: up to 16 MiB of output before it spools it to a
/// file, a chunk of [`FILL_CHUNK`] finished grids (10 MB at 100×100), and what the
/// allocator's one arena leaves between them (a batch of 1,350 64×64 grids ran out of
/// address space 19 MB above the limit one grid needs).
const BATCH_HELD_BYTES: u64 = 48_000_000;

/// Grids of a batch made in parallel at a time.
const FILL_CHUNK: u64 = 1024;

/// Runs `shiftgrid fill`: `--count` random full grids, made in parallel.
///
/// # Errors
/// Usage errors (size, CSV flags), name-file errors, I/O errors, and interruption.
pub(super) fn run(ctx: &Ctx, args: &FillArgs) -> Result<Exit> {
    // Before any work: an output that cannot be written, or an input as the output.
    super::output::check_output_first(
        args.output.output.as_deref(),
        args.names.paths(),
        &super::output::WRITES_GRIDS,
    )?;
    let shape = super::shape_of_box(args.box_size)?;
    let out_form = args.output.resolve()?;
    let json = out_form.is_json();
    let alphabet = alphabet_for(out_form, args.alphabet, shape, false)?;
    // A batch (or a shard of one, with --first-index) seeds grid i from the run seed and i,
    // and numbers its grids; a lone grid uses the run seed itself.
    let batch = args.count > 1 || args.first_index.is_some();
    let first = super::output::first_in_batch(args.first_index, args.count, "grid")?;
    let mut sink = sink_for_shape(out_form, shape, &args.names, args.count > 1, || {
        format!("--count {} makes {} grids", args.count, args.count)
    })?;
    sink.set_alphabet(alphabet);
    if let (super::output::Out::Csv(..), false) = (&out_form, ctx.quiet) {
        if let Some(names) = sink.names() {
            super::output::note_full_roster_names(names);
        }
    }
    // Every thread at work holds a search matrix (one worker per thread for one grid, one
    // grid per thread for a batch).
    let threads = rayon::current_num_threads().min(crate::generate::fill::MAX_WORKERS);
    let matrices = if !batch {
        threads
    } else {
        threads.min(usize::try_from(args.count).unwrap_or(usize::MAX))
    };
    // The pool's threads have started (and reserved what they reserve for themselves)
    // before what is left is read.
    rayon::broadcast(|_| ());
    let held = if batch { BATCH_HELD_BYTES } else { 0 };
    check_memory(shape, matrices, threads, headroom().less(held))?;
    let seed = pick_seed(args.seed);
    // A lone grid depends on the thread count (its workers race); a batch's do not.
    note_seed(args.seed, seed, (!batch).then(rayon::current_num_threads));
    let started = std::time::Instant::now();
    let visible = progress::show_progress(ctx.quiet);
    let bar = progress::Progress::new(
        visible,
        args.count,
        "grids",
        &ctx.control,
        Some(shape.cells() as u64),
    );
    let filler = Filler::empty(shape);
    let fill_one = |cfg: &FillConfig| {
        filler
            .fill(cfg, &ctx.control)
            .expect("the empty board always has a completion")
    };
    // Grid i (from 0) of this run is grid first + i of the batch.
    let grid_seed = |i: u64| {
        if batch {
            batch_seed(seed, first + i)
        } else {
            seed
        }
    };
    let (mut nodes, mut restarts) = (0u64, 0u64);
    // A chunk of grids at a time, so that memory stays bounded whatever --count is (the
    // sink spools its output to a temporary file).
    let mut at = 0;
    // Set when an interrupt cut the batch: the grids of the finished prefix.
    let mut cut: Option<u64> = None;
    while at < args.count {
        let end = args.count.min(at + FILL_CHUNK);
        let results: Vec<Option<Filled>> = if !batch {
            // One worker per thread (so the grid depends on --threads, as documented).
            vec![fill_one(&FillConfig {
                workers: 0,
                ..FillConfig::new(seed)
            })]
        } else {
            (at..end)
                .into_par_iter()
                .map(|i| {
                    let cfg = FillConfig {
                        workers: 1,
                        ..FillConfig::new(grid_seed(i))
                    };
                    let r = fill_one(&cfg);
                    bar.done.fetch_add(1, Ordering::Relaxed);
                    r
                })
                .collect()
        };
        // Grids finished after the first one an interrupt cut short are left out, so
        // that what is written is a prefix of the batch.
        let finished = results.iter().take_while(|r| r.is_some()).count();
        let interrupted = ctx.control.interrupt.load(Ordering::Relaxed);
        if interrupted || finished < results.len() {
            cut = Some(at + finished as u64);
        }
        for (i, f) in (at..end).zip(results.iter().map_while(Option::as_ref)) {
            if args.stats && !json {
                msg!(
                    "grid {}: seed {}, {:.3} s (matrix {:.3} s), {} nodes, {} dead ends, \
                     {} restarts, worker {} of {}",
                    first + i + 1,
                    grid_seed(i),
                    f.elapsed.as_secs_f64(),
                    f.build_time.as_secs_f64(),
                    f.total_nodes,
                    f.stats.dead_ends,
                    f.stats.restarts,
                    f.winner + 1,
                    f.workers
                );
            }
            nodes += f.total_nodes;
            restarts += f.stats.restarts;
            sink.push(&FilledGrid {
                key: InBatch {
                    index: first + i + 1,
                    seed: grid_seed(i),
                },
                grid: &f.grid,
                stats: (args.stats && json).then_some(f),
            })?;
        }
        if cut.is_some() {
            break;
        }
        at = end;
    }
    bar.finish();
    if let Some(made) = cut {
        return finish_cut(ctx, args, made, sink);
    }
    emit(
        ctx,
        args.output.output.as_deref(),
        args.names.paths(),
        sink.finish()?,
    )?;
    progress::summary(
        ctx.quiet,
        &format!(
            "filled {} {shape} grid{} in {:.2} s: {} nodes, {restarts} restarts",
            args.count,
            if args.count == 1 { "" } else { "s" },
            started.elapsed().as_secs_f64(),
            progress::human(nodes as f64)
        ),
    );
    Ok(Exit::Success)
}

/// Ends a run that an interrupt cut after its first `made` grids: writes them (a prefix of
/// the batch, every grid finished) and names the `--first-index` that resumes the batch;
/// nothing is written when no grid was finished. Exits as interrupted either way.
///
/// # Errors
/// The interruption itself when nothing was made, and the errors of [`emit`].
fn finish_cut(ctx: &Ctx, args: &FillArgs, made: u64, sink: super::output::Sink) -> Result<Exit> {
    if made == 0 {
        return Err(exit::interrupted());
    }
    // Short enough for an 80-column terminal.
    let first = args.first_index.unwrap_or(0);
    let (from, to) = (first + 1, first + made);
    let grids = if made == 1 {
        format!("grid {to}")
    } else {
        format!("grids {from} to {to}")
    };
    match args.count - made {
        // The press came once every grid was made: nothing is left to resume.
        0 => msg!("shiftgrid: interrupted: writing {grids}, all of the run's"),
        left => msg!(
            "shiftgrid: interrupted: writing {grids} (resume with --first-index {to} --count \
             {left})"
        ),
    }
    // After a first Ctrl-C the grids made so far are still written (a second one exits).
    let writing = Ctx {
        quiet: ctx.quiet,
        control: crate::solve::SearchControl::default(),
    };
    emit(
        &writing,
        args.output.output.as_deref(),
        args.names.paths(),
        sink.finish()?,
    )?;
    Ok(Exit::Interrupted)
}

/// One grid of the batch, as output.
struct FilledGrid<'a> {
    key: InBatch,
    grid: &'a Grid,
    /// `--stats` with JSON: the fill's counters go in the record.
    stats: Option<&'a Filled>,
}

impl Entry for FilledGrid<'_> {
    fn record(&self) -> impl Serialize {
        #[derive(Serialize)]
        struct StatsJson {
            micros: u64,
            matrix_micros: u64,
            /// Nodes of all workers together.
            nodes: u64,
            /// The winning worker's counters.
            dead_ends: u64,
            restarts: u64,
            worker: usize,
            workers: usize,
        }
        #[derive(Serialize)]
        struct FillJson<'a> {
            cells: Rows<'a>,
            #[serde(skip_serializing_if = "Option::is_none")]
            stats: Option<StatsJson>,
        }
        let shape = self.grid.shape();
        Record::new(
            &self.key,
            Some(shape),
            FillJson {
                cells: Rows(self.grid.cells(), shape),
                stats: self.stats.map(|f| StatsJson {
                    micros: f.elapsed.as_micros() as u64,
                    matrix_micros: f.build_time.as_micros() as u64,
                    nodes: f.total_nodes,
                    dead_ends: f.stats.dead_ends,
                    restarts: f.stats.restarts,
                    worker: f.winner + 1,
                    workers: f.workers,
                }),
            },
        )
    }

    fn grids(&self) -> Vec<Shown<'_>> {
        vec![Shown {
            label: self.key.index.to_string(),
            grid: GridRef::Grid(self.grid),
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_beyond_the_memory_are_refused_with_what_fits() {
        let big = Shape::new(10).unwrap();
        // 256 matrices of 67 MB at 100x100 in 12 GB: refused, with the threads that fit.
        let resident = |b: u64| Headroom {
            resident: Some(b),
            ..Headroom::default()
        };
        let e = check_memory(big, 256, 256, resident(12_000_000_000)).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("fill on 256 threads at 100x100 needs about 17.2 GB")
                && text.contains("use --threads 177 or fewer"),
            "{text}"
        );
        assert!(check_memory(big, 177, 177, resident(12_000_000_000)).is_ok());
        // Under `ulimit -v`, with 7 MB mapped when the process started (limits in MB;
        // the smallest that filled are in `address_space`'s documentation).
        let mb = |m: u64| m * 1_000_000;
        let limited = |limit: u64| Headroom {
            resident: Some(12_000_000_000),
            address_space: Some(mb(limit - 100)),
            before_pool: Some(mb(limit - 7)),
        };
        // 8 threads filled under 723 MB: they fit in 800; 16 do not, and 8 is what fits.
        assert!(check_memory(big, 8, 8, limited(800)).is_ok());
        let text = check_memory(big, 16, 16, limited(800))
            .unwrap_err()
            .to_string();
        assert!(
            text.contains("16 threads")
                && text.contains("address space")
                && text.contains("use --threads 8 or fewer"),
            "{text}"
        );
        // One thread filled from 223 MB up: under 200 not even one fits; 250 holds it.
        let text = check_memory(big, 1, 1, limited(200))
            .unwrap_err()
            .to_string();
        assert!(text.contains("not even one thread fits"), "{text}");
        assert!(check_memory(big, 1, 1, limited(250)).is_ok());
        // At 81x81 six threads filled from 513 MB up: in 600 MB six fit, seven do not.
        let nine = Shape::new(9).unwrap();
        assert!(check_memory(nine, 6, 6, limited(600)).is_ok());
        let text = check_memory(nine, 7, 7, limited(600))
            .unwrap_err()
            .to_string();
        assert!(text.contains("use --threads 6 or fewer"), "{text}");
        // Two grids on a pool of 64: the idle threads' stacks count too.
        assert!(check_memory(big, 2, 2, limited(330)).is_ok());
        let text = check_memory(big, 2, 64, limited(330))
            .unwrap_err()
            .to_string();
        assert!(text.contains("on 64 threads"), "{text}");
        // A batch holds its output besides: 1,350 grids of 64x64 on two threads ran out
        // under 143.4 MB, which two fills alone fit.
        let b8 = Shape::new(8).unwrap();
        let at = |limit: f64| Headroom {
            before_pool: Some((limit * 1e6) as u64 - 7_000_000),
            ..limited(800)
        };
        assert!(check_memory(b8, 2, 2, at(143.4)).is_ok());
        assert!(check_memory(b8, 2, 2, at(143.4).less(BATCH_HELD_BYTES)).is_err());
        // Without the address space at the start, what is left now counts.
        let now = Headroom {
            before_pool: None,
            ..limited(800)
        };
        let text = check_memory(big, 16, 16, now).unwrap_err().to_string();
        assert!(text.contains("use --threads 7 or fewer"), "{text}");
        // Small grids (a room mostly taken refuses no 9x9 or 49x49), or memory that cannot
        // be told: nothing to refuse.
        assert!(check_memory(Shape::new(3).unwrap(), 256, 256, resident(1 << 20)).is_ok());
        assert!(check_memory(Shape::new(7).unwrap(), 2, 2, resident(1 << 20)).is_ok());
        assert!(check_memory(big, 256, 256, Headroom::default()).is_ok());
    }
}

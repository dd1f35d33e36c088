//! The frame the batch commands (`solve`, `count`, `grade`, `export`) share around their
//! loop over the input: the progress bar, and the end of the batch, where an interrupt, an
//! input with nothing readable and a good run each end the same way whatever the command.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::Result;

use super::Ctx;
use super::exit;
use super::input::{Item, Loaded};
use super::output::{Sink, emit};
use super::progress::{Progress, show_progress};
use super::solve::{EngineArgs, search_all};
use crate::grid::Puzzle;
use crate::solve::{Outcome, SolveLimits};

/// The progress bar of a batch over `input`: the share of the file read, with puzzles done,
/// then, once all of it is read, the puzzles done of all it holds.
pub(super) fn batch_progress(ctx: &Ctx, input: &Loaded) -> Progress {
    let (read, size) = &input.progress;
    Progress::stream(
        show_progress(ctx.quiet),
        "puzzles",
        &ctx.control,
        Arc::clone(&read.0),
        *size,
        Arc::clone(&input.parsed.0),
        Arc::clone(&input.parsed.1),
    )
}

/// Ends a batch: stops `bar`; then writes what `sink` gathered to `output` (refused when it
/// is one of `inputs`) and gives how long the batch took. Gives `None`, with nothing written
/// (not even an empty file), when the input held no readable puzzle (`good` is 0): the
/// command exits 65. `interrupted` is the caller's one look at the Ctrl-C flag, so that a
/// press between its look and this one cannot drop a batch it has already decided to write.
///
/// # Errors
/// Interruption (`interrupted`, checked first, so nothing is written), the sink's check of
/// its grids, and the errors of [`emit`].
pub(super) fn finish_batch<'a>(
    ctx: &Ctx,
    bar: Progress,
    interrupted: bool,
    good: usize,
    output: Option<&Path>,
    inputs: impl IntoIterator<Item = &'a Path>,
    sink: Sink,
) -> Result<Option<Duration>> {
    let elapsed = bar.elapsed();
    bar.finish();
    if interrupted {
        return Err(exit::interrupted());
    }
    if good == 0 {
        return Ok(None);
    }
    emit(ctx, output, inputs, sink.finish()?)?;
    Ok(Some(elapsed))
}

/// The next chunk of `input` ([`Loaded::chunk`]); `None` when Ctrl-C came while the run
/// waited for more of it.
///
/// # Errors
/// Those of [`Loaded::chunk`], but for that one.
pub(super) fn next_chunk(ctx: &Ctx, input: &mut Loaded) -> Result<Option<Vec<Item>>> {
    match input.chunk(&ctx.control.interrupt) {
        Ok(chunk) => Ok(Some(chunk)),
        Err(e) if exit::stopped_waiting(&e) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Searches the puzzles of `chunk` (`solve`, `count`) and counts them done on `bar`; gives
/// their outcomes, how many of them the batch keeps, and whether Ctrl-C came. It keeps
/// them all, or once Ctrl-C came those up to the first search that the press cut short:
/// a prefix of the batch with every result final (a search that its own time limit ended
/// before the press is final too).
pub(super) fn search_chunk(
    ctx: &Ctx,
    chunk: &[Item],
    engine: &EngineArgs,
    limits: &SolveLimits,
    bar: &Progress,
) -> (Vec<Outcome>, usize, bool) {
    let good: Vec<(usize, &Puzzle)> = chunk.iter().map(|it| (it.index, &it.puzzle)).collect();
    // Each puzzle counts on the bar as it is done: a chunk holds up to 128 per thread.
    let searched = search_all(&ctx.without_bars(), &good, engine, limits, &bar.done);
    let interrupted = ctx.control.interrupt.load(Ordering::Relaxed);
    let keep = if interrupted {
        searched
            .iter()
            .position(|(_, last)| !last)
            .unwrap_or(searched.len())
    } else {
        searched.len()
    };
    let outcomes = searched.into_iter().map(|(o, _)| o).collect();
    (outcomes, keep, interrupted)
}

/// Where Ctrl-C cut a batch: what follows the finished prefix.
pub(super) enum LeftOut {
    /// The first puzzle not searched to the end: its number and line.
    Puzzle(String, usize),
    /// Puzzles not searched, if any, that were not read yet.
    Unread,
    /// Nothing: the input was read to its end and every puzzle searched.
    Nothing,
    /// The press came while the run waited for more input, with the first puzzle read but
    /// not searched, if any (the others read were all searched).
    Waiting(Option<(String, usize)>),
}

impl LeftOut {
    /// The first puzzle of the chunk from `keep` on, else those `held` back, else
    /// [`LeftOut::Unread`].
    pub(super) fn after(chunk: &[Item], keep: usize, held: Option<(String, usize)>) -> LeftOut {
        match chunk.get(keep).map(|it| (it.number(), it.line)).or(held) {
            Some((number, line)) => LeftOut::Puzzle(number, line),
            None => LeftOut::Unread,
        }
    }
}

/// Where a batch that Ctrl-C may have cut ended: `None` when it ran to its end with no
/// press; else what was left out (`left_out`, as the loop saw it, or what `input` still
/// holds). `cut`: the press cut a chunk short. A press once every puzzle was done cuts
/// nothing, but the input's end may have come from a producer that the same Ctrl-C
/// stopped: every result is then written, and the run exits as interrupted.
pub(super) fn left_out_at_end(
    ctx: &Ctx,
    left_out: Option<LeftOut>,
    cut: bool,
    input: &Loaded,
) -> Option<LeftOut> {
    let waited = matches!(left_out, Some(LeftOut::Waiting(_)));
    if !(cut || waited || ctx.control.interrupt.load(Ordering::Relaxed)) {
        return None;
    }
    Some(left_out.unwrap_or_else(|| match input.exhausted() {
        true => LeftOut::Nothing,
        false => LeftOut::after(&[], 0, input.first_held()),
    }))
}

/// Ends a batch that Ctrl-C cut short: stops `bar`, then writes the `kept` results
/// gathered in `sink`, the batch's finished prefix, and says so, naming what was left out
/// (`next`), whose puzzles were not `done` ("searched", "graded"). Nothing is written
/// when no result was finished. Exits with
/// [`Exit::Interrupted`](exit::Exit::Interrupted) either way.
///
/// # Errors
/// The interruption itself when nothing was finished, the sink's check of its grids, and
/// the errors of [`emit`].
#[allow(clippy::too_many_arguments)]
pub(super) fn finish_interrupted<'a>(
    ctx: &Ctx,
    bar: Progress,
    kept: usize,
    next: LeftOut,
    done: &str,
    output: Option<&Path>,
    inputs: impl IntoIterator<Item = &'a Path>,
    sink: Sink,
) -> Result<exit::Exit> {
    bar.finish();
    if kept == 0 {
        return Err(match next {
            // Read but not searched: a batch is searched a chunk at a time.
            LeftOut::Waiting(held) => exit::interrupted_waiting(held.map(|(number, line)| {
                format!(
                    "puzzle {number}, on line {line}, and those after it were read but not \
                     {done} yet: a batch is {done} in chunks of {} puzzles",
                    super::input::CHUNK_PER_THREAD * rayon::current_num_threads().max(1)
                )
            })),
            _ => exit::interrupted(),
        });
    }
    let s = if kept == 1 { "" } else { "s" };
    match next {
        LeftOut::Puzzle(number, line) => msg!(
            "shiftgrid: interrupted: writing {kept} result{s}, of every puzzle before puzzle \
             {number} (on line {line}); it and those after it were not {done} to the end"
        ),
        LeftOut::Unread => msg!(
            "shiftgrid: interrupted: writing {kept} result{s}; puzzles after them, if any, \
             were not {done}"
        ),
        LeftOut::Nothing => msg!(
            "shiftgrid: interrupted: writing all {kept} result{s} (the input was read to its \
             end, and every puzzle {done})"
        ),
        LeftOut::Waiting(Some((number, line))) => msg!(
            "shiftgrid: interrupted while waiting for input: writing {kept} result{s}, of \
             every puzzle before puzzle {number} (on line {line}); it and those after it \
             were not {done}"
        ),
        LeftOut::Waiting(None) => msg!(
            "shiftgrid: interrupted while waiting for input: writing {kept} result{s}, of \
             every puzzle read"
        ),
    }
    // After a first Ctrl-C what was finished is still written (a second one exits).
    let writing = Ctx {
        quiet: ctx.quiet,
        control: crate::solve::SearchControl::default(),
    };
    emit(&writing, output, inputs, sink.finish()?)?;
    Ok(exit::Exit::Interrupted)
}

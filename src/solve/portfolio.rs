//! Engines raced side by side, in lockstep: the first to answer wins and the others stop.
//!
//! No engine dominates above 9×9. Propagation is orders of magnitude faster than DLX on
//! sparse generated puzzles (locked candidates), DLX on some dense published ones (one 1996
//! 25×25 benchmark puzzle takes propagation seconds). A race costs one thread per engine and
//! returns soon after the fastest finishes, so on two cores it is within a few percent of the
//! better engine on every puzzle where either finishes fast. Counts are exact whichever
//! engine answers.
//!
//! The race is deterministic: each engine counts its own work (nodes, propagated options)
//! and they meet at a barrier after every *epoch* of it, a few milliseconds
//! (`solve::lockstep`). The winner is the engine that answered in the earliest epoch (the
//! first listed, on a tie), not the first on the clock, so a puzzle with several solutions
//! gets the same one on every run, on a busy machine as on an idle one. The learners that
//! count together exchange their clauses and solutions at the same barriers.
//!
//! [`auto`] is what [`Engine::Auto`] runs, chosen from the measurements in README
//! ("Solving").

use std::sync::Arc;
use std::time::Instant;

use super::dlx::FillStats;
use super::learn::{self, LearnConfig};
use super::lockstep::{LeaveOnPanic, Lockstep, Pacer};
use super::{Engine, Outcome, SearchControl, SolveLimits, Workspace, propagate};
use crate::generate::fill::{self, FillConfig, FillError};
use crate::grid::{GridError, Puzzle};

/// In a 25×25 batch (a [`Workspace`] without `split`), conflicts per search call the
/// default learner gets on the calling thread before a race. Generated minimal 25×25
/// puzzles take a few hundred: `count` over twenty of them took 0.18 s with this stage
/// against 0.25 s racing every puzzle (the learner alone: 0.10 s), and over twenty-five
/// 25×25 rosters at 50–60% holes 0.22–0.29 s against 0.38–0.40 s. At 36×36 the stable
/// learner is often many times faster than the default one, and the stage made fifteen
/// rosters at 60–70% holes slower (2.8 s against 1.9 s), so it stays at 25×25.
const BATCH_CONFLICTS: u64 = 2_000;

/// Branches the quick propagation stage of [`auto`] may take before the race starts, up to
/// 16×16.
const QUICK_NODES: u64 = 1_000;
/// The same from 25×25 up, where a branch costs more and the learning engine settles
/// generated puzzles in milliseconds: 1,000 branches settled 1 of 20 generated minimal 25×25
/// puzzles and made `count` over them 25% slower than 100 (0.29 s against 0.23 s); the
/// published 25×25 puzzles need fewer than 30.
const QUICK_NODES_LARGE: u64 = 100;

/// What [`Engine::Auto`] runs, from the measurements in README ("Solving"):
///
/// * up to 9×9, DLX alone: it is the fastest there, and a race would add a thread start per
///   puzzle to searches of tens of microseconds;
/// * from 16×16 up, a count to at most 4,096 (`solve` counts to 2) on a board whose givens
///   cannot see some whole-line swaps (an empty board among them) or on a sparse board:
///   one solution as below, then the rest from its swaps (`solve::swap`) or its trades
///   among the blank cells (`solve::trade`) where they make enough (an empty 100×100
///   board counted to 64 in 0.7 s, where fill searches with different seeds, one per
///   solution, took over 120 s);
/// * an empty board asked for one solution goes to the fill search on every core (the
///   `fill` command's search), and where swaps fell short, one counted to at most 64 to
///   fill searches with different seeds until that many distinct grids are found
///   (`fill_distinct`);
/// * otherwise from 16×16 up, first a short propagation search (at most 1,000 branches;
///   100 from 25×25 up), which settles most published puzzles faster than anything else;
///   at 25×25 in a batch (a [`Workspace`] without `split`), then the default learner for
///   2,000 conflicts per call on the calling thread, whose answer stands only where the
///   race's would be the same (no solutions kept, none found, or the only one; not run
///   for a first solution), so that the answer does not depend on the batch's size
///   against the threads; then the engines
///   of `race_plan`
///   raced, with the fill search among them for a first solution of a sparse board (more
///   than two thirds blank, `is_sparse`).
///
/// # Errors
/// [`GridError::Duplicate`] when a symbol is given twice in a house.
pub fn auto(
    ws: &mut Workspace,
    puzzle: &Puzzle,
    limits: &SolveLimits,
    control: &SearchControl,
) -> Result<Outcome, GridError> {
    let limits = &limits.at_least_one();
    if puzzle.shape().box_size() <= 3 {
        // Serial DLX: a 9×9 search takes milliseconds, and root splitting under a
        // solution cap keeps whichever subtree finishes first, so the answer would depend
        // on timing (an empty 9×9 printed another grid about one run in five). Merging the
        // subtrees in order instead made sparse 25×25 searches wait on dead subtrees.
        let split = std::mem::replace(&mut ws.split, false);
        let o = ws.solve(puzzle, Engine::Dlx, limits, control);
        ws.split = split;
        return o;
    }
    // The fill search has no node budget: with a node limit it is left out.
    let unlimited = limits.node_limit == u64::MAX;
    let want = limits.max_solutions;
    let by_swaps = super::swap::swaps_reach(puzzle, want);
    if unlimited && (2..=SWAP_COUNT_CAP).contains(&want) && (by_swaps || is_sparse(puzzle)) {
        // Counting to a few on a board whose givens cannot see some swaps (two shifts no
        // given names, two rows of a band or columns of a stack without one): one solution,
        // and the swaps of it are more, where a search for a second can take minutes (one
        // given on a 100×100 board: over 90 s for three). On other sparse boards, the
        // trades of the first solution among the blanks (`solve::trade`): a 100×100 board
        // at 90% blank took minutes without them, its first solution seconds.
        let first = SolveLimits {
            max_solutions: 1,
            keep: 1,
            ..*limits
        };
        let mut o = auto(ws, puzzle, &first, control)?;
        let Some(one) = o.solutions.first() else {
            return Ok(o);
        };
        // Exactly `want` grids, all different (each is checked valid below), or a search.
        let distinct = |f: &Vec<Vec<u8>>| {
            f.len() as u64 == want
                && f.iter().collect::<std::collections::HashSet<_>>().len() == f.len()
        };
        let found = by_swaps
            .then(|| super::swap::solutions_by_swaps(puzzle, one.cells(), want))
            .flatten()
            .filter(distinct)
            .or_else(|| super::trade::solutions_by_trades(puzzle, one.cells(), want))
            .filter(distinct);
        if let Some(more) = found {
            // Every one checked; only those asked for kept.
            let room = limits.keep.saturating_sub(o.solutions.len());
            let mut kept = Vec::new();
            for (k, cells) in more.into_iter().skip(1).enumerate() {
                assert!(
                    puzzle.is_solved_by(&cells),
                    "every swap or trade solves the puzzle"
                );
                if k < room {
                    kept.push(crate::Grid::new(puzzle.shape(), cells).expect("checked above"));
                }
            }
            o.count = want;
            o.capped = true;
            o.complete = true;
            o.solutions.extend(kept);
            o.solutions.truncate(limits.keep);
            return Ok(o);
        }
        // Some swaps gave the same grid, or too few trades: a search counts.
    }
    if unlimited && puzzle.givens() == 0 && limits.max_solutions <= FILL_COUNT_CAP {
        // An empty board: the fill search on every core is the `fill` command itself; for a
        // few solutions that the swaps above did not make, it runs with different seeds,
        // where the learners took 110 s for three of 100×100.
        let o = fill_distinct(puzzle, limits, control, 0)?;
        if o.complete || control.should_stop() {
            return Ok(o);
        }
    }
    let start = Instant::now();
    let quick = SolveLimits {
        node_limit: limits.node_limit.min(if puzzle.shape().box_size() <= 4 {
            QUICK_NODES
        } else {
            QUICK_NODES_LARGE
        }),
        ..*limits
    };
    let o = propagate::count(puzzle, &quick, control)?;
    if o.complete || control.should_stop() {
        return Ok(o);
    }
    // Its answer stands only where the race's would be the same: a count with no solutions
    // kept, no solution, or the only one. A first solution (`solve --first`) goes to the
    // race at once: which one a search lists depends on the engine.
    let may_stand = limits.keep == 0 || limits.max_solutions >= 2;
    if !ws.split && puzzle.shape().box_size() == 5 && may_stand {
        // One puzzle per thread of a batch: a race would put two threads on each core.
        // Most puzzles of a batch are settled by the default learner within the budget.
        let mut o = super::learn_outcome_within(
            puzzle,
            limits,
            control,
            &[LearnConfig::new(0)],
            BATCH_CONFLICTS,
        )?;
        // This short cut runs only when the batch outnumbers the threads: an answer that
        // could differ from the race's would depend on the thread count.
        let same = limits.keep == 0 || (o.count <= 1 && !o.capped);
        if (o.complete && same) || control.should_stop() {
            o.elapsed = start.elapsed();
            return Ok(o);
        }
    }
    let mut runners = race_plan(puzzle);
    if unlimited && limits.is_first() && is_sparse(puzzle) {
        // Completing a sparse or empty board is what the fill search's band restarts do
        // best (an empty 100×100 in under a second, where the other searches stall).
        runners.push(Runner::Fill);
    }
    let mut o = race_runners(puzzle, &runners, limits, control)?;
    o.elapsed = start.elapsed();
    Ok(o)
}

/// Counts up to this cap on boards whose givens cannot see enough swaps take their
/// solutions from the swaps of one (`solve::swap`); each is held in memory (10 kB at
/// 100×100).
const SWAP_COUNT_CAP: u64 = 4096;

/// Empty boards counted up to this cap take their solutions from [`fill_distinct`].
const FILL_COUNT_CAP: u64 = 64;

/// With more than this fraction of its cells blank, a board is *sparse*: a first solution
/// races the fill search (see [`is_sparse`]).
const SPARSE_BLANKS: f64 = 2.0 / 3.0;

/// Whether `puzzle` is sparse enough for the fill search to join a first-solution race.
///
/// On sparse boards the fill search completes what the learners stall on (100×100 at 90%
/// blank: 3.0 and 8.8 s with it, 29.5 and 24.3 s without) and wins the easy ones (36×36
/// and 49×49 at 70–90% blank: 0.02–0.16 s against 0.03–0.23 s). Nearer the hardness
/// peak it seldom wins, and from 36×36 up it takes the place of the scout, a second stable
/// learner (beside both, three threads on two cores waited at every barrier). There the
/// scout does better: over 48 rosters at 50–65% blank (36×36 and 49×49, 40 s cut,
/// 2026-11-24) `solve --first` took 148 s with the scout against 204 s with the fill
/// search, leaving out the 4 neither finished; faster on 29, slower on 14, and one roster
/// the fill race finished in 28.8 s went past the cut. At 25×25 the two provers then have
/// a core each: Frisch's sixteen minimal puzzles (56–57% blank) took 23.8 s in all
/// against 39.1 s beside the fill search.
fn is_sparse(puzzle: &Puzzle) -> bool {
    let cells = puzzle.shape().cells() as f64;
    cells - puzzle.givens() as f64 > SPARSE_BLANKS * cells
}

/// Up to `limits.max_solutions` distinct solutions of `puzzle` from fill searches with seeds
/// 0, 1, 2, … (each with `workers` root-split searches, 0 for one per rayon thread), trying
/// at most four seeds per solution asked for. Complete when it found that many (distinct
/// valid grids prove the count reaches the cap) or the board has no completion. With one
/// solution asked for, this is the fill search as a first-solution engine.
fn fill_distinct(
    puzzle: &Puzzle,
    limits: &SolveLimits,
    control: &SearchControl,
    workers: usize,
) -> Result<Outcome, GridError> {
    let start = Instant::now();
    let none = |stats: FillStats| Outcome {
        count: 0,
        solutions: Vec::new(),
        complete: true,
        capped: false,
        stats: super::Stats::Fill(stats),
        elapsed: start.elapsed(),
    };
    let filler = match fill::Filler::new(puzzle) {
        Ok(f) => f,
        Err(FillError::Grid(e)) => return Err(e),
        Err(FillError::NoCompletion) => return Ok(none(FillStats::default())),
    };
    let mut grids: Vec<crate::Grid> = Vec::new();
    let mut stats = FillStats::default();
    for seed in 0..4 * limits.max_solutions {
        if grids.len() as u64 >= limits.max_solutions || control.should_stop() {
            break;
        }
        let config = FillConfig {
            workers,
            ..FillConfig::new(seed)
        };
        match filler.fill(&config, control) {
            Ok(Some(f)) => {
                stats.nodes += f.stats.nodes;
                stats.dead_ends += f.stats.dead_ends;
                stats.restarts += f.stats.restarts;
                stats.deepest = stats.deepest.max(f.stats.deepest);
                if !grids.contains(&f.grid) {
                    grids.push(f.grid);
                }
            }
            Ok(None) => break,
            Err(FillError::NoCompletion) => return Ok(none(stats)),
            Err(FillError::Grid(e)) => return Err(e),
        }
    }
    let count = grids.len() as u64;
    grids.truncate(limits.keep);
    for g in &grids {
        assert!(
            puzzle.is_completed_by(g),
            "a fill of the board keeps its givens"
        );
    }
    Ok(Outcome {
        count,
        solutions: grids,
        complete: count >= limits.max_solutions,
        capped: count >= limits.max_solutions,
        stats: super::Stats::Fill(stats),
        elapsed: start.elapsed(),
    })
}

/// One contestant of a race (some run more than one thread).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Runner {
    /// A solving engine.
    Engine(Engine),
    /// The fill search (band restarts; see `dlx/fill.rs`), seeded with 0 so the same input
    /// gives the same grid. It finds one solution, so it races only for `first` limits.
    Fill,
    /// The learning engine twice, one thread each, sharing solutions and short learned
    /// clauses: at 25×25 its default and its [`LearnConfig::focused`] settings (proofs),
    /// from 36×36 up its default and [`LearnConfig::stable`] ones (completions of rosters)
    /// and a stable scout with another seed until the first solution is found.
    LearnTogether,
}

/// The smallest box size at which [`Runner::LearnTogether`] runs a [`LearnConfig::stable`]
/// learner beside the default one, with a stable scout and the default learner late;
/// below, a second prover ([`LearnConfig::focused`]) and no scout (at 25×25 the first
/// solution of a roster takes hundredths of a second, and a third thread made `count` over
/// 25 such rosters, one process each, 10–30% slower).
/// 25×25 rosters at 50–75% holes take `count --limit 2` at most 0.04 s either way (90 of
/// them, seeds 1–3), so at 25×25 the race is for proofs, and two provers sharing clauses
/// prove Frisch's minimal puzzles faster: `count --limit 2` over his sixteen in Gecode's
/// examples took 46 s in all against 63 s beside the stable learner, the hardest four
/// (#18, #26, #27, #32) 5.5, 10.2, 11.3 and 4.5 s against 7.8, 15.6, 16.3 and 5.6 s
/// (alternating runs, 2026-11-24; CaDiCaL: 7.7, 12.4, 11.8 and 6.9 s).
const STABLE_FROM_BOX: usize = 6;

/// What [`auto`] races when the quick stage did not settle the puzzle. Up to 16×16: DLX
/// (cheap there, and it wins on some published puzzles), propagation (root probing settles
/// the generator's sweep-order puzzles) and clause learning. From 25×25 up, where DLX and
/// propagation never won a race in our measurements once the quick stage had run: the
/// learning engine twice, one per core, counting together: they share their solutions
/// and their learned clauses of LBD ≤ 6 ([`super::learn::count_together`]). At 25×25 both
/// are provers, the default settings (best at uniqueness proofs: minimal puzzles) and
/// [`LearnConfig::focused`]; from 36×36 up the second is [`LearnConfig::stable`] (best at
/// finding solutions: partial rosters near the hardness peak, which stall only from 36×36
/// up). Racing the default and the stable learner without sharing took 10.7 s and 4.7 s
/// on Frisch's #18 and #22; sharing, 5.9–6.5 s and 2.2–2.4 s (CaDiCaL: 8.6 s and 3.9 s).
///
/// From 36×36 up the default learner is *late* ([`LearnConfig::late`]): it starts once a
/// solution is listed, so until then the two stable learners have a core each instead of
/// two thirds (an instance with no solution is proven by the stable learner, which proved
/// Frisch's #18 alone in as many seconds as the default one). A proof needs it
/// only after the first solution (the blocking clause's search), and near the peak the
/// first solution is what takes the time: on the 30 slowest of 48 held-out rosters
/// (seeds 2, 3, 5, 7; 36×36 and 49×49 at 50–60% holes) `count --limit 2` took 185 s in all
/// against 231 s, geometric mean 1.56 s against 2.63 s, faster on 23 (alternating runs,
/// 2026-11-24).
///
/// From 36×36 up a third learner joins them as a scout ([`LearnConfig::scout`]): the
/// stable settings with seed 1, which leave as soon as a solution is listed. How many
/// conflicts the first solution of a roster near the peak takes varies several-fold with
/// the seed, and two seeds cut the long runs: on 35 seed-1 rosters (36×36 at 55–70% holes,
/// 49×49 at 60–70%) the sum of `count --limit 2` times went from 21.3 s to 11.2 s and the
/// longest from 5.0 s to 1.5 s; on 35 held-out ones (seed 3, 25×25 to 49×49) from 14.0 s
/// to 9.5 s and 3.8 s to 2.2 s. Proofs go on with two learners on two cores once the first
/// solution is in: with a scout at 25×25, Frisch's #18 and #22 took 6.1–7.0 s and
/// 2.3–2.4 s against 6.1–6.2 s and 2.4–2.8 s without (alternating runs).
fn race_plan(puzzle: &Puzzle) -> Vec<Runner> {
    if puzzle.shape().box_size() <= 4 {
        vec![
            Runner::Engine(Engine::Dlx),
            Runner::Engine(Engine::Propagate),
            Runner::Engine(Engine::Learn),
        ]
    } else {
        vec![Runner::LearnTogether]
    }
}

/// Runs every engine of `engines` (each on a thread of its own; the last on the calling
/// thread) in lockstep and returns the outcome of the one that completed in the earliest
/// epoch of its own work (the first listed on a tie), stopping the rest at the end of that
/// epoch: the same answer on every run. When none completes
/// (the user interrupted, or the deadline or node limit came first), the one that found
/// the most solutions.
///
/// # Errors
/// [`GridError::Duplicate`] when a symbol is given twice in a house.
///
/// # Panics
/// If `engines` is empty or names [`Engine::Auto`].
pub fn race(
    puzzle: &Puzzle,
    engines: &[Engine],
    limits: &SolveLimits,
    control: &SearchControl,
) -> Result<Outcome, GridError> {
    assert!(!engines.is_empty(), "a race needs an engine");
    assert!(
        !engines.contains(&Engine::Auto),
        "a race runs concrete engines"
    );
    let runners: Vec<Runner> = engines.iter().copied().map(Runner::Engine).collect();
    race_runners(puzzle, &runners, &limits.at_least_one(), control)
}

/// The learners of [`Runner::LearnTogether`] for a puzzle of box size `box_size`.
fn learn_together_configs(box_size: usize) -> Vec<LearnConfig> {
    let mut configs = vec![
        // Proofs: from 36×36 up, once a solution is in.
        LearnConfig {
            late: box_size >= STABLE_FROM_BOX,
            ..LearnConfig::new(0)
        },
        if box_size < STABLE_FROM_BOX {
            // Proofs, differently.
            LearnConfig::focused(1)
        } else {
            // Completions.
            LearnConfig::stable(0)
        },
    ];
    if box_size >= STABLE_FROM_BOX {
        // The first solution, with another seed.
        configs.push(LearnConfig {
            scout: true,
            ..LearnConfig::stable(1)
        });
    }
    configs
}

/// Work per epoch of the lockstep (`solve::lockstep`) for each kind of contestant on a
/// board of side `side`, in its own unit, each a few milliseconds: propagated options for
/// a learner, nodes for DLX (about 0.3 µs each at 16×16), the propagation search (5–20 µs)
/// and the fill search.
fn epoch_work(runner: Runner, side: u64) -> u64 {
    match runner {
        Runner::Engine(Engine::Dlx) => 1 << 14,
        Runner::Engine(Engine::Propagate) => 1 << 9,
        // A learner's epoch of `EPOCH_PROPAGATIONS` takes about as long as 4,096 fill
        // nodes at 100×100 and six times as many at 49×49 (measured on sparse boards and
        // on rosters); a fill epoch between the two keeps either side's wait at the
        // barrier small. It grows with the learners' epoch.
        Runner::Fill => {
            let scale = learn::epoch_propagations(side as usize) / learn::EPOCH_PROPAGATIONS;
            ((1 << 12) * 150 / side).max(1 << 12) * scale
        }
        _ => learn::epoch_propagations(side as usize),
    }
}

/// [`race`] over any contestants, in lockstep (`solve::lockstep`): every contestant
/// advances in epochs of its own work and waits for the others at the end of each, and the
/// winner is the one that settled in the earliest epoch (the first listed among those that
/// settled in the same one), so the answer does not depend on thread timing.
fn race_runners(
    puzzle: &Puzzle,
    runners: &[Runner],
    limits: &SolveLimits,
    control: &SearchControl,
) -> Result<Outcome, GridError> {
    puzzle.check()?;
    let box_size = puzzle.shape().box_size();
    let mut together = learn_together_configs(box_size);
    if runners.contains(&Runner::Fill) {
        // The fill search is the other first-solution searcher: a scout beside it would put
        // three threads on two cores, and at every barrier one core would wait for the
        // third (a sparse 100×100 board took 2.8 s with the scout, 1.2 s without).
        together.retain(|c| !c.scout);
    }
    let solve_one = |runner: Runner, control: &SearchControl| match runner {
        Runner::Engine(e) => Workspace::default().solve(puzzle, e, limits, control),
        Runner::Fill => fill_distinct(puzzle, limits, control, 1),
        Runner::LearnTogether => {
            super::learn_outcome_within(puzzle, limits, control, &together, u64::MAX)
        }
    };
    if let [only] = runners {
        return solve_one(*only, control);
    }
    // Participants: one per engine, one per learner of LearnTogether.
    let mut late = Vec::new();
    let mut reads = Vec::new();
    let mut first = Vec::new();
    for r in runners {
        first.push(late.len());
        match r {
            Runner::LearnTogether => {
                late.extend(together.iter().map(|c| c.late));
                reads.extend(together.iter().map(|_| true));
            }
            _ => {
                late.push(false);
                reads.push(false);
            }
        }
    }
    // Only the learners read the shared log: it is kept for them alone (an engine that
    // never reads it held all of it for the whole race).
    let lockstep = Arc::new(Lockstep::with_readers(&late, &reads));
    let controls: Vec<SearchControl> = runners
        .iter()
        .zip(&first)
        .map(|(&r, &slot)| {
            let mut c = control.clone();
            c.pacer = Some(Arc::new(Pacer::new(
                lockstep.clone(),
                slot,
                epoch_work(r, puzzle.shape().side() as u64),
                0,
            )));
            c
        })
        .collect();
    let run = |k: usize| {
        // The learners of LearnTogether each hold their own.
        let _left =
            (runners[k] != Runner::LearnTogether).then(|| LeaveOnPanic(&lockstep, first[k]));
        let o = solve_one(runners[k], &controls[k]);
        if runners[k] != Runner::LearnTogether {
            let settled = o.as_ref().is_ok_and(|o| o.complete);
            controls[k]
                .pacer
                .as_deref()
                .expect("every contestant has a pacer")
                .leave(&mut Default::default(), settled);
        }
        o
    };
    let outcomes: Vec<Result<Outcome, GridError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..runners.len() - 1)
            .map(|k| {
                let run = &run;
                scope.spawn(move || run(k))
            })
            .collect();
        let last = run(runners.len() - 1);
        let mut all: Vec<_> = handles
            .into_iter()
            .map(|h| h.join().expect("engines do not panic"))
            .collect();
        all.push(last);
        all
    });
    let mut outcomes: Vec<Outcome> = outcomes.into_iter().collect::<Result<_, _>>()?;
    // The contestant that settled first in lockstep time.
    if let (_, Some(slot)) = lockstep.outcome() {
        let k = first
            .iter()
            .rposition(|&f| f <= slot)
            .expect("slot 0 is the first's");
        if outcomes[k].complete {
            return Ok(outcomes.swap_remove(k));
        }
    }
    // Nobody settled (the user interrupted, or the deadline or node limit came first):
    // the one that found the most solutions.
    let mut best: Option<Outcome> = None;
    for o in outcomes {
        let better = match &best {
            None => true,
            Some(b) => {
                (o.complete && !b.complete) || (o.complete == b.complete && o.count > b.count)
            }
        };
        if better {
            best = Some(o);
        }
    }
    Ok(best.expect("at least one engine ran"))
}

#[cfg(test)]
mod tests;

//! A conflict-driven clause-learning (CDCL) engine over the exact-cover items, for the hard
//! instances where search without learning stalls: minimal 25×25 puzzles, partially
//! blanked 36×36 and 49×49 rosters near the hardness peak.
//!
//! The variables are the options (cell, symbol), `n³` of them. The `4n²` items (cell,
//! row-symbol, column-symbol, block-symbol; each exactly-one over `n` options) are not
//! clauses: `items.rs` propagates them natively, and their reasons are implicit tags
//! (`trail.rs`), so conflict analysis (`analyze.rs`) resolves on them without any stored
//! reason clause. Learned clauses, and the caller's permanent clauses, use two watched
//! literals (`clauses.rs`). Up to 36×36, decisions place the highest-scored option of the
//! open item with the fewest live options (a dancing-links choice steered by VSIDS scores);
//! above, the highest-scored option (VSIDS, saved phases). Restarts follow Luby
//! (`heuristic.rs`); the loop is in `search.rs`. Locked candidates (a box's live
//! options of a symbol in one row or column, a row's or column's in one box) propagate with
//! explanations made on demand from the item (`reason::line`), as lazy clause generation does.
//! [`LearnConfig::stable`] decides by VSIDS with target phases instead (`search.rs`,
//! rephasing; target and best phases are saved on backtracking in `propagate.rs`) and
//! without locked candidates, which finds completions of partial rosters near the hardness
//! peak far sooner.
//!
//! [`Learner`] is incremental: clauses learned in one [`Learner::solve`] call stay valid
//! (they follow from the items and the permanent clauses alone) and speed up the next call,
//! and assumption levels the next call still uses are kept on the trail. [`count`] counts
//! solutions up to a cap by blocking each one and solving again in the same learner.
//!
//! # Why it is built this way
//!
//! Measured on the 2-core machine of `benches/hard.sh`, with conflicts as the noise-free
//! figure (the machine is shared; CPU seconds in brackets):
//!
//! - *Native items.* The items need no CNF encoding (3.3 million binary clauses at 36×36)
//!   and no reason clauses. On Frisch's four minimal 25×25 puzzles this engine needs about
//!   as many conflicts as CaDiCaL on the CNF of the same model (180k, 4k, 81k, 19k here;
//!   171k, 6k, 93k, 33k there), but CaDiCaL makes them faster: about 22 000 conflicts/s on
//!   #18 against 13 000 here (2026-11-24, idle machine). Most of our time is propagation
//!   (about 60 %), and most of that is scanning learned clauses for a new watch.
//! - *Restarts.* Glucose's LBD restarts stalled the satisfiable 36×36 holes instances: 877k
//!   conflicts on a tuning set of 2 Frisch and 4 holes puzzles against 281k with Luby × 100;
//!   on a larger set (12 puzzles, 30 s caps) alternating Glucose and Luby modes as CaDiCaL
//!   does took 1.93M conflicts and 7 timeouts against Luby's 1.57M and 4.
//! - *Phase.* The first solution decides saved phases, later searches (the uniqueness proof
//!   after the blocking clause) place options (decide them true): on five satisfiable 36×36
//!   holes puzzles × 3 seeds, saved phases had no timeout at 20 s where true decisions had
//!   three; on Frisch, true decisions need 363k conflicts against 412k.
//! - *Shrinking* (one literal per lower level, `analyze.rs`) cut learned clauses from 50 to
//!   31 literals on Frisch #4 and its conflicts from 46k to 33–37k; poison marks for failed
//!   minimisation raised conflicts/s there from 17k to 23k. Minimisation depth first, with
//!   exact level and trail-position tests (`analyze.rs`), made conflicts another 13%
//!   cheaper on a 36×36 roster near the peak.
//! - *Vivification* (`vivify.rs`) of learned clauses in the default settings: neutral to
//!   helpful on rosters when only the default learner does it, harmful at 49×49 when the
//!   stable learner does it too ([`LearnConfig::vivify`]).
//! - *Branching on the smallest item* (ties to the highest VSIDS score) instead of the
//!   highest-scored option: Frisch's four puzzles 179k, 3k, 79k, 17k conflicts against
//!   253k, 5k, 110k, 38k; on 13 36×36 and 49×49 holes puzzles (20 s caps) 7 timeouts
//!   against 7 but 0.92M conflicts against 1.12M; `generate --minimal --symmetry none` at
//!   36×36, 36 s against 101 s (same seed, loaded machine). At 49×49 the scan over the
//!   items at every decision dominates (two h = 0.7 holes puzzles: timeouts at 30 s
//!   against 9.1 and 13.7 s with VSIDS), hence [`Branch::Auto`].
//! - *Target phases* ([`LearnConfig::stable`]). Finding the first solution of a partial
//!   roster near the peak is what stalls: on three 36×36 rosters with 55 % holes the
//!   default settings needed 194k (cut at 20 s), 177k and 77k conflicts, CaDiCaL 14k, 34k
//!   and 14k. Switching CaDiCaL's options one at a time showed why: without target phases
//!   it needs 138k–160k, without its stable mode over 400k. VSIDS with target phases,
//!   rephasing and Luby × 512 restarts here: 28k, 18k and 4k conflicts. On minimal puzzles
//!   (unique, where the search is a proof) the default is better (Frisch #1: first solution
//!   in 7.7k conflicts against 217k), and alternating the two in one search, as CaDiCaL's
//!   modes do, lost on both families; so [`crate::solve::Engine::Auto`] runs them side by
//!   side, one per core, and they count together ([`count_together`]). At 25×25, where
//!   rosters take hundredths of a second anyway, it runs two provers instead: the default
//!   and [`LearnConfig::focused`] (Glucose restarts), which prove Frisch's minimal puzzles
//!   faster together than the default beside the stable learner (46 s against 63 s over
//!   sixteen).
//! - *Sharing clauses* between those two (`share.rs`; learned clauses of LBD ≤
//!   [`LearnConfig::share_lbd`], 6 by default, and the solutions found). Racing them
//!   without sharing, the faster of the two took 10.7 s on Frisch #18 and 4.7 s on #22
//!   (180k and 98k conflicts alone); sharing clauses of LBD ≤ 2 (a few hundred clauses
//!   per run) took 11.1 s and 3.0 s, ≤ 4 took 8.1 s and 2.8 s, ≤ 6 6.8 s and 2.4 s, ≤ 8 6.2–6.5 s
//!   and 2.3–2.6 s, ≤ 12 6.1 s and 2.4 s: each learner then needs 35–55 % fewer conflicts
//!   than alone. Those runs shared at once; in lockstep (clauses handed over at each
//!   barrier, 2026-11-24) ≤ 4 and ≤ 10 took Frisch's sixteen 52.9 s and 47.0 s against
//!   44.8 s with ≤ 6. Importing only at restarts instead of at every poll was slower on
//!   Frisch (7.3–8.1 s on #18). On satisfiable rosters near the peak the time to the first
//!   solution varies several-fold with the seed (one 36×36 roster: 0.9–10.9 s over six
//!   seeds of the stable settings alone), and sharing makes each run differ a little, so
//!   there the run-to-run spread is what a user sees, not a gain or a loss.
//! - *A scout* ([`LearnConfig::scout`]): a third learner, the stable settings with
//!   another seed, that counts together with the two until any of them has a solution,
//!   then leaves. The time to a first solution near the peak is heavy-tailed in the seed,
//!   and the minimum of two draws cuts the tail: over 35 rosters (36×36 at 55–70% holes,
//!   49×49 at 60–70%) the longest `count --limit 2` went from 5.0 s to 1.5 s and the sum
//!   from 21.3 s to 11.2 s, with three threads on two cores until the first solution.
//!   Proofs do not need it, and after the first solution the two others have the cores
//!   again (Frisch's puzzles: no change beyond the run-to-run spread). A scout that
//!   differs more than by its seed did not do better on six of the slowest 36×36 rosters
//!   (eleven rounds: 70 s in all with the stable settings, 79 s rephasing every 1,000 × k
//!   conflicts; in three rounds Luby × 100 restarts took 25 s against 24 s, no target
//!   phases 37 s).
//! - *Reason-side bumping* (also bump the antecedents of the learned clause's literals, as
//!   CaDiCaL does; switching it off there took one roster from 14k conflicts to 133k): with
//!   target phases, 8 partial rosters (36×36 at 55 % holes, 49×49 at 60 %) took 17.3 s
//!   and 0 timeouts against 46.9 s and 1 (30 s cut), 33.3 against 49.6 s over 11 with
//!   another seed; with the default settings it made Frisch's puzzles slower (24.1 against
//!   20.6 s), so only [`LearnConfig::stable`] has it. Rephasing every 3,000 × k conflicts
//!   rather than 1,000 × k: 27.8 s against 44.3 s over 10 of those 36×36 rosters × 3
//!   seeds, 49×49 about even.
//! - *Locked candidates* add about a sixth more propagated literals (each a full
//!   propagation step) and save few conflicts. With the default settings they help
//!   partial rosters (fifteen 36×36 at 55–65 % holes: 45 s against 65 s) and cost Frisch's
//!   puzzles about 15 % (12.7, 0.18, 4.9, 1.1 s against 10.8, 0.15, 4.1, 0.9 s without);
//!   with the stable settings they cost everywhere (the same fifteen rosters: 10.6 s
//!   against 3.1 s; ten timeouts at 20 s of twenty-five harder ones against four). So the
//!   default keeps them and [`LearnConfig::stable`] does not, which also makes the two
//!   runners of the race differ more. Tried and dropped with the smallest-item branching: the item with fewest live options per summed score
//!   (dom/wdeg: more conflicts), the smallest of the VSIDS option's four items, placing the
//!   option of the longest conflict-free trail (target phases) or the saved one.
//! - *Box–line segment variables* (tried with CaDiCaL first, 2026-11-26): one variable per
//!   shift and part of a row or column inside a box, with exactly-one constraints over
//!   them, so that learned clauses could name locked candidates. CaDiCaL's conflicts on
//!   Frisch #18 stayed at 171k (#22: 89k against 93k), so the learner did not get them.
//!   Six CDCL solvers need 141k–392k conflicts on #18 (README, Limitations).
//! - *Tried and dropped:* failed-literal probing at the root (Frisch conflicts 363k → 349k,
//!   time unchanged), proving the second solution cell by cell (backbone) instead of one
//!   blocking clause (363k → 405k–476k), cell-level phase saving (no better than saved);
//!   dropping from each learned clause the options that share an item with an option it
//!   negates (about 4 % of the literals; Frisch #18 and #22 over six seeds: conflicts
//!   within ±12 % either way, no gain); deleting three quarters of the deletable learned
//!   clauses at each reduction, or keeping those of LBD ≤ 6 used since the last one, as
//!   CaDiCaL's tiers do (#22, stable settings: 3.9–5.7 s against 4.3–4.7 s).
//!   With the default settings alone (2026-11-24): a binary-clause path in the watch loop
//!   that never reads the arena (Frisch #18, alternating runs: 64–65 µs per conflict either
//!   way; binaries are not where the time goes); and over Frisch's sixteen, two settings at
//!   a time on the two cores, keeping a watch in place with a true literal found in the
//!   scan as its blocker, as Kissat does (81.4 s against 80.5 s); vivifying with 25% of
//!   the search's propagations instead of 10% (89.3 s against 82.2 s); reductions growing
//!   by 600 or 1,200 conflicts instead of 300 (13% fewer conflicts at 1,200 but slower
//!   ones: 78.5–78.8 s against 80.4 s, inside the spread; 150: 86.4 s).
//!   Recounting the LBD of each learned clause met in conflict analysis and keeping the
//!   lower one, as Glucose does (2026-11-24, the sixteen alone, one seed): 9% fewer
//!   conflicts (1.18M against 1.30M) but no faster (114.6 s against 115.2 s), as the
//!   clauses kept longer make each conflict dearer. Splitting the uniqueness proof between
//!   the two provers (one assumes that the cell with the fewest candidates takes its value
//!   in the first solution, the other that it does not, and each hands over the negated
//!   assumption once refuted): Frisch's sixteen 59.7 s against 57.9 s. The side that
//!   keeps the value is nearly the whole proof (Frisch #18: refuted after 94k of 190k
//!   conflicts), the other falls at once, so the split adds nothing to the race.
//! - *Cost per conflict* (2026-11-25; alternating runs, identical conflicts, so only the
//!   time moves). Kept: item loops that read an item's base and offsets once instead of
//!   dividing per member, and locked candidates that skip the shared members by mask
//!   (`items.rs`); no count-and-sum word per item beside the mask and count; the two hot
//!   per-antecedent closures of `analyze.rs` inlined. Together: Frisch #18 13.2–13.7 s
//!   against 14.0–14.1 s, #26 22.9–24.1 s against 25.1–25.3 s, a 36×36 roster 3.4–3.6 s
//!   against 3.7–4.0 s. No gain (within ±3 %): one value byte per variable instead of per
//!   literal; level, reason and trail position in one record per variable (5 % slower on
//!   the roster: the dense level array caches better); heap entries carrying their
//!   activity; touching the arena of the watch two ahead as a safe stand-in for a
//!   prefetch (the crate forbids `unsafe`); a watch search split into a tight scan for the
//!   first non-false literal and a short look past it; forcing `Trail::assign`,
//!   `Analyzer::open` or the reason-side bumping closure inline. Propagation stays memory
//!   bound: arena, watch-list and value reads that miss the cache.
//!
//! Memory is `O(n³)`: about 90 MB at 100×100 (10⁶ options; half of it the headers of
//! empty watch lists), plus the learned clauses, which reductions keep to the low-LBD half.
//! Reductions come 300 conflicts further apart each time, so what they keep grows as the
//! square root of the conflicts, as in Glucose and CaDiCaL: `count --limit 2` racing three
//! learners on a 49×49 roster near the peak held 38 MB at 5 s, 88 MB at 110 s and 105 MB
//! at 165 s (2026-11-24), one learner alone 24 MB at 5 s and 41 MB at 55 s.

mod analyze;
mod clauses;
mod config;
mod heuristic;
mod items;
mod progress;
mod propagate;
mod search;
mod share;
mod trail;
mod vivify;

pub use config::{EPOCH_PROPAGATIONS, LearnConfig, Rephase, epoch_propagations};
pub use share::count_together;

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

pub use heuristic::{Branch, Phase, RestartPolicy};
pub use trail::Lit;

use crate::grid::{GridError, Puzzle, Shape};
use analyze::Analyzer;
use clauses::ClauseDb;
use heuristic::{Heuristic, Restarts};
use items::Items;
use trail::{FALSE, TRUE, Trail, reason};

/// The answer of one [`Learner::solve`] call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A solution satisfies the clauses and the assumptions; see [`Learner::model_cells`].
    Sat,
    /// No solution satisfies the clauses and the assumptions.
    Unsat,
    /// Interrupted, past the deadline or out of conflicts.
    Unknown,
}

/// When a search must give up.
#[derive(Clone, Copy, Debug)]
pub struct Budget<'a> {
    /// Raised from outside (Ctrl-C, another worker); polled every 16 conflicts and every
    /// 4,096 propagations.
    pub interrupt: &'a AtomicBool,
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Give up after this many conflicts in one call; `u64::MAX` for no limit.
    pub conflicts: u64,
    /// Give up once a learner has made this many conflicts over all the calls of one
    /// [`count`] (in [`count_together`], each learner), each solution it found counting
    /// as one more; `u64::MAX` for no limit.
    pub total_conflicts: u64,
    /// Conflicts are added here periodically, for a progress display.
    pub progress: Option<&'a AtomicU64>,
    /// Also give up when this control says so (its deadline, the user's interrupt).
    pub control: Option<&'a crate::solve::SearchControl>,
}

/// Givens propagated between polls of the budget as a learner is set up (about 4,000
/// propagations at 100×100, as often as the search polls).
const GIVENS_PER_POLL: usize = 32;

/// A flag nobody raises, for [`Budget::unlimited`].
static NEVER: AtomicBool = AtomicBool::new(false);

impl Budget<'_> {
    /// No interrupt, no deadline, no conflict limit.
    pub fn unlimited() -> Budget<'static> {
        Budget {
            interrupt: &NEVER,
            deadline: None,
            conflicts: u64::MAX,
            total_conflicts: u64::MAX,
            progress: None,
            control: None,
        }
    }

    /// Everything `control` says (interrupt, deadline; conflicts go to its
    /// conflict counter), with at most `conflicts` conflicts per call.
    pub fn from_control(control: &crate::solve::SearchControl, conflicts: u64) -> Budget<'_> {
        Budget {
            interrupt: &control.interrupt,
            deadline: control.deadline,
            conflicts,
            total_conflicts: u64::MAX,
            progress: Some(&control.conflicts),
            control: Some(control),
        }
    }
}

/// Counters of a learner, summed over all its calls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LearnStats {
    /// Conflicts met.
    pub conflicts: u64,
    /// Branching decisions (assumptions not included).
    pub decisions: u64,
    /// Trail entries propagated.
    pub propagations: u64,
    /// Restarts.
    pub restarts: u64,
    /// Learned clauses held now, those imported from other learners included (so it can
    /// exceed the conflicts, and is not learned minus deleted).
    pub learned: u64,
    /// Learned clauses deleted by reductions, in all.
    pub deleted: u64,
    /// Most learned clauses held at once (summed over learners: the sum of their peaks).
    pub peak_learned: u64,
    /// Options made false by locked candidates.
    pub locked: u64,
    /// Learned clauses that vivification shortened.
    pub vivified: u64,
    /// How many learners these counters are summed over ([`count_together`] runs several).
    pub learners: u64,
}

/// An incremental CDCL solver over the items of one [`Shape`].
#[derive(Clone, Debug)]
pub struct Learner {
    shape: Shape,
    config: LearnConfig,
    items: Items,
    trail: Trail,
    db: ClauseDb,
    heur: Heuristic,
    restarts: Restarts,
    analyzer: Analyzer,
    stats: LearnStats,
    /// False once the permanent clauses are unsatisfiable.
    ok: bool,
    /// Symbol per cell of the last solution.
    model: Vec<u8>,
    /// The assumptions of the current call in level order (level `i + 1` is `assumed[i]`).
    assumed: Vec<Lit>,
    /// Per literal: membership marks for ordering assumptions.
    mark: Vec<u32>,
    mark_gen: u32,
    next_reduce: u64,
    reductions: u64,
    /// Vivification: a round is due at the next restart; propagations at the end of the
    /// last round; buffers.
    vivify_due: bool,
    vivify_mark: u64,
    vivify_cands: Vec<(u32, u32)>,
    vivify_lits: Vec<Lit>,
    scratch: Vec<Lit>,
    /// Trail length up to which the current assignment met no conflict.
    no_conflict_until: usize,
    /// Solutions found by the searches of a count: each is charged to the count's
    /// conflict budget as one conflict ([`Budget::total_conflicts`]).
    found: u64,
    /// Assigned options of the target and best phases.
    target_assigned: usize,
    best_assigned: usize,
    rephases: u64,
    next_rephase: u64,
    /// Its place among learners that count together (`share.rs`).
    share: Option<share::Link>,
    /// What this learner has added to a control's progress counters: restarts, and the
    /// learned clauses it holds (taken back when it is dropped).
    shown: progress::Shown,
}

impl Learner {
    /// A learner with no clauses beyond the items: its solutions are every valid grid.
    pub fn new(shape: Shape, config: &LearnConfig) -> Learner {
        let n = shape.side();
        let vars = n * n * n;
        let mut learner = Learner {
            shape,
            config: LearnConfig {
                branch: match config.branch {
                    Branch::Auto if shape.side() <= 36 => Branch::Global,
                    Branch::Auto => Branch::Vsids,
                    b => b,
                },
                ..config.clone()
            },
            items: Items::new(shape),
            trail: Trail::new(vars),
            db: ClauseDb::new(vars),
            heur: Heuristic::new(
                vars,
                n * n,
                config.seed,
                if matches!(config.restarts, RestartPolicy::Modes { .. }) {
                    config.focused_decay
                } else {
                    config.decay
                },
            ),
            restarts: Restarts::new(config.restarts),
            analyzer: Analyzer::new(vars),
            stats: LearnStats::default(),
            ok: true,
            model: Vec::new(),

            assumed: Vec::new(),
            mark: vec![0; 2 * vars],
            mark_gen: 0,
            next_reduce: config.reduce_first,
            reductions: 0,
            vivify_due: false,
            vivify_mark: 0,
            vivify_cands: Vec::new(),
            vivify_lits: Vec::new(),
            scratch: Vec::new(),
            no_conflict_until: 0,
            found: 0,
            target_assigned: 0,
            best_assigned: 0,
            rephases: 0,
            next_rephase: config.rephase_int,
            share: None,
            shown: progress::Shown::default(),
        };
        if learner.config.branch == Branch::Global {
            // Its decisions never pop the heap but when every option has a value (see
            // `Learner::decide`), so an empty one answers the same.
            learner.heur.without_heap();
        }
        learner
    }

    /// A learner for `puzzle`: its givens are unit clauses, propagated in up to 0.2 s at
    /// 100×100, so `budget` is polled every [`GIVENS_PER_POLL`]: once over, the rest are
    /// left out, and the search, which polls it first, answers [`Answer::Unknown`].
    fn for_puzzle(puzzle: &Puzzle, config: &LearnConfig, budget: &Budget) -> Learner {
        let shape = puzzle.shape();
        let n = shape.side();
        let mut learner = Learner::new(shape, config);
        let givens = puzzle.cells().iter().enumerate().filter(|(_, v)| **v != 0);
        for (k, (cell, &v)) in givens.enumerate() {
            if k % GIVENS_PER_POLL == GIVENS_PER_POLL - 1 && budget.is_over() {
                break;
            }
            learner.add_clause(&[Lit::pos(cell, v, n)]);
        }
        learner
    }

    /// The shape this learner solves.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// "Cell `cell` (row-major) holds symbol `v`" on this learner's grid: [`Lit::pos`]
    /// with the learner's own side, so that a literal cannot be made for another size by
    /// mistake ([`Lit::negate`] gives "does not hold").
    ///
    /// # Panics
    /// If `cell` is not a cell of the grid or `v` not in `1..=n`.
    pub fn lit(&self, cell: usize, v: u8) -> Lit {
        assert!(
            cell < self.shape.cells(),
            "cell {cell} is not on a {} grid",
            self.shape
        );
        Lit::pos(cell, v, self.shape.side())
    }

    /// Adds a permanent clause (a unit fixes an option). Returns `false` when the clauses
    /// are now unsatisfiable without any assumption.
    ///
    /// # Panics
    /// If a literal's option is outside this shape.
    pub fn add_clause(&mut self, lits: &[Lit]) -> bool {
        if !self.ok {
            return false;
        }
        self.backtrack(0);
        let vars = self.shape.side().pow(3) as u32;
        let mut c = std::mem::take(&mut self.scratch);
        c.clear();
        c.extend_from_slice(lits);
        assert!(
            c.iter().all(|l| l.var() < vars),
            "literal outside the {} grid",
            self.shape
        );
        c.sort_unstable();
        c.dedup();
        let tautology = c.windows(2).any(|w| w[0] == w[1].negate());
        let satisfied = c.iter().any(|&l| self.trail.value(l) == TRUE);
        if !(tautology || satisfied) {
            c.retain(|&l| self.trail.value(l) != FALSE);
            match c.len() {
                0 => self.ok = false,
                1 => {
                    self.trail.assign(c[0], reason::NONE);
                    if self.propagate().is_some() {
                        self.ok = false;
                    }
                }
                _ => {
                    self.db.add(&c, false, 0);
                }
            }
        }
        self.scratch = c;
        self.ok
    }

    /// Searches for a solution of the clauses in which every assumption holds.
    ///
    /// Clauses learned in earlier calls are kept. [`Answer::Unsat`] with assumptions says
    /// nothing about the clauses alone.
    ///
    /// # Panics
    /// If an assumption's option is outside this shape.
    pub fn solve(&mut self, assumptions: &[Lit], budget: &Budget) -> Answer {
        let vars = self.shape.side().pow(3) as u32;
        assert!(
            assumptions.iter().all(|l| l.var() < vars),
            "assumption outside the {} grid",
            self.shape
        );
        self.search(assumptions, budget)
    }

    /// One search of a count with no assumptions, within what is left of
    /// `budget.total_conflicts` (the learner's conflicts count from its creation, and each
    /// solution it found counts as one: on a board with many solutions a search can find
    /// one without a conflict).
    fn solve_within_total(&mut self, budget: &Budget) -> Answer {
        let spent = self.stats.conflicts.saturating_add(self.found);
        let left = budget.total_conflicts.saturating_sub(spent);
        if left == 0 {
            return Answer::Unknown;
        }
        let call = Budget {
            conflicts: budget.conflicts.min(left),
            ..*budget
        };
        let answer = self.search(&[], &call);
        if answer == Answer::Sat {
            self.found += 1;
        }
        answer
    }

    /// The last solution found: the symbol (`1..=n`) of each cell, row-major. Empty before
    /// the first [`Answer::Sat`].
    pub fn model_cells(&self) -> Vec<u8> {
        self.model.clone()
    }

    /// Counters so far.
    pub fn stats(&self) -> LearnStats {
        LearnStats {
            learned: self.db.learned_count(),
            deleted: self.db.deleted,
            peak_learned: self.db.peak,
            learners: 1,
            ..self.stats
        }
    }
}

/// The result of [`count`].
#[derive(Clone, Debug)]
pub struct LearnOutcome {
    /// Solutions found, at most the cap; exact when [`LearnOutcome::complete`].
    pub count: u64,
    /// The first `keep` solutions, symbol per cell. Each, as every counted one, passed
    /// [`Puzzle::is_solved_by`].
    pub solutions: Vec<Vec<u8>>,
    /// Whether the count is final (the cap was reached or no solution is left) rather than
    /// cut short by the budget.
    pub complete: bool,
    /// The learner's counters.
    pub stats: LearnStats,
}

/// Counts the solutions of `puzzle` up to `cap` (0 counts as 1), keeping the first `keep`:
/// each solution is blocked by a clause and the same learner searches again, so `cap = 2`
/// is the uniqueness proof. `budget.total_conflicts` bounds the whole count.
///
/// # Errors
/// [`GridError::Duplicate`] when the givens repeat a symbol in a house.
///
/// # Panics
/// If a model it counts, kept or not, fails [`Puzzle::is_solved_by`]'s independent check
/// (a bug).
pub fn count(
    puzzle: &Puzzle,
    cap: u64,
    keep: usize,
    config: &LearnConfig,
    budget: &Budget,
) -> Result<LearnOutcome, GridError> {
    puzzle.check()?;
    let cap = cap.max(1);
    let mut learner = Learner::for_puzzle(puzzle, config, budget);
    let mut ok = learner.ok;
    let mut out = LearnOutcome {
        count: 0,
        solutions: Vec::new(),
        complete: true,
        stats: LearnStats::default(),
    };
    let mut block = Vec::new();
    while ok && out.count < cap {
        match learner.solve_within_total(budget) {
            Answer::Sat => {
                out.count += 1;
                // Every counted model, kept or not, passes the independent check.
                assert!(puzzle.is_solved_by(&learner.model), "a model solves it");
                if out.solutions.len() < keep {
                    out.solutions.push(learner.model_cells());
                }
                learner.blocking_clause(&mut block);
                ok = learner.add_clause(&block);
                learner.config.phase = config.later_phase;
            }
            Answer::Unsat => ok = false,
            Answer::Unknown => {
                out.complete = false;
                break;
            }
        }
    }
    out.stats = learner.stats();
    Ok(out)
}

#[cfg(test)]
mod tests;

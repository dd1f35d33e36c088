//! The settings of a [`Learner`](super::Learner): [`LearnConfig`], its default and stable
//! presets, and the [`Rephase`] steps.

use super::share;
use super::{Branch, Phase, RestartPolicy};

/// Settings of a [`Learner`](super::Learner). The same input and the same configuration
/// give the same answers and models: nothing depends on time except giving up at a
/// deadline.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnConfig {
    /// Seeds the initial branching order.
    pub seed: u64,
    /// VSIDS decay factor (per conflict), in stable mode: in `(0, 1]`, and any other value
    /// (NaN included) is taken as 0.95.
    pub decay: f64,
    /// VSIDS decay factor in focused mode (see [`RestartPolicy::Modes`]), as
    /// [`LearnConfig::decay`].
    pub focused_decay: f64,
    /// When to restart.
    pub restarts: RestartPolicy,
    /// Which value a decision gives.
    pub phase: Phase,
    /// In [`count`](super::count): the phase choice after the first solution.
    pub later_phase: Phase,
    /// Conflicts before the first learned-clause reduction.
    pub reduce_first: u64,
    /// How much the interval between reductions grows each time.
    pub reduce_inc: u64,
    /// How decisions pick an option.
    pub branch: Branch,

    /// Propagate locked candidates (pointing and claiming) with lazy explanations.
    pub locked: bool,
    /// Target phases and rephasing (VSIDS decisions): decide each option by its value in
    /// the longest conflict-free trail since the last rephase, and every few thousand
    /// conflicts reset the saved phases by the `rephase` cycle (Biere & Fleury, "Chasing
    /// target phases", 2020). With VSIDS decisions only; a target value, where one is set,
    /// goes before [`LearnConfig::phase`] and [`LearnConfig::later_phase`].
    pub target: bool,
    /// With [`LearnConfig::target`]: what each rephase sets the saved phases to, in turn.
    pub rephase: &'static [Rephase],
    /// Conflicts between rephases (times the rephase count).
    pub rephase_int: u64,
    /// Also bump the antecedents of each learned clause's literals.
    pub bump_reasons: bool,
    /// In [`count_together`](super::count_together): learned clauses of at most this LBD
    /// (and at most 64 literals; units always) go to the other learners.
    pub share_lbd: u32,
    /// In [`count_together`](super::count_together): a *scout* stops as soon as any learner
    /// has found a solution (its clauses stay with the others), leaving its core to them.
    /// Finding the first
    /// solution of a roster near the hardness peak takes a number of conflicts that varies
    /// several-fold with the seed, so a second searcher with another seed cuts the long
    /// runs; proving that no further solution exists does not need it.
    pub scout: bool,
    /// In [`count_together`](super::count_together): a *late* learner starts searching
    /// at the first epoch barrier after another has found a solution, leaving the cores to
    /// the others until then; an instance with no solution at all is proven without it.
    /// The
    /// portfolio makes its prover late from 36×36 up, where the first solution of a roster
    /// near the peak is what takes the time and the stable learners find it (see
    /// `solve::portfolio`).
    pub late: bool,
    /// Vivification of learned clauses (`vivify.rs`) after each reduction, at the next
    /// restart with no assumptions: its propagations, in thousandths of the search's since
    /// the last round (0 turns it off). On in [`LearnConfig::new`] (10%), off in
    /// [`LearnConfig::stable`]: in `auto` on 36×36 and 49×49 rosters near the peak, the
    /// default learner vivifying cut the summed time of 20 rosters from 87 s to 45 s in one
    /// alternating run and left 21 held-out ones even (169 s against 168 s, 30 s cut); with
    /// the stable learner vivifying too, 49×49 rosters took up to twice as long
    /// (2026-11-24).
    pub vivify: u32,
}

impl LearnConfig {
    /// The default settings with `seed`.
    pub fn new(seed: u64) -> LearnConfig {
        LearnConfig {
            seed,
            decay: 0.95,
            focused_decay: 0.95,
            restarts: RestartPolicy::Luby(100),
            phase: Phase::Saved,
            later_phase: Phase::True,
            reduce_first: 2000,
            reduce_inc: 300,
            locked: true,
            branch: Branch::Auto,
            target: false,
            rephase: &[Rephase::Best, Rephase::False, Rephase::Best, Rephase::Flip],
            rephase_int: 1000,
            bump_reasons: false,
            share_lbd: share::SHARE_LBD,
            scout: false,
            late: false,
            vivify: 100,
        }
    }
}

/// Learners that count together ([`count_together`](super::count_together)) meet at a
/// barrier after each *epoch* of this many propagated options on boards up to 25×25 (a few
/// milliseconds), where they exchange clauses and solutions in a fixed order: the answer
/// never depends on thread timing. See [`epoch_propagations`] for larger boards.
pub const EPOCH_PROPAGATIONS: u64 = 1 << 15;

/// The length of an epoch (see [`EPOCH_PROPAGATIONS`]) on a board of side `side`:
/// [`EPOCH_PROPAGATIONS`] up to 25×25, four times as many from 36×36 up, the size from
/// which the portfolio races stable learners for the first solution (a test in
/// `solve::portfolio` keeps the two thresholds together).
///
/// From 36×36 up the learners race for the first solution of a roster, where shared
/// clauses help little (sharing only units there changed nothing on 30 hard rosters: 175 s
/// against 186 s) and each barrier costs the faster learner its wait. Over three sets of
/// rosters near the hardness peak (36×36 at 50–65% holes, 49×49 at 50–65%; 30 slow ones
/// from earlier tuning, then 24 and 16 never seen before), `count --limit 2` with epochs
/// four times longer took 136 s against 187 s, 146 s against 163 s and 99 s against 110 s
/// in sum (40 s cut, the same 6 timeouts; 2026-11-24), and the two cores were busy 186–188%
/// of the time on two slow rosters against 165–183%. Each roster is still one draw, so a
/// single roster can go either way (one took 1.5 s against 10.0 s). At 25×25, where two
/// provers share clauses for a uniqueness proof, longer epochs cost Frisch's sixteen
/// puzzles 4% (48.0 s against 46.1 s), so they stay short there.
pub fn epoch_propagations(side: usize) -> u64 {
    if side >= 36 {
        EPOCH_PROPAGATIONS << 2
    } else {
        EPOCH_PROPAGATIONS
    }
}

/// What a rephase sets the saved phases to (see [`LearnConfig::target`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rephase {
    /// The values of the longest conflict-free trail so far (best phases).
    Best,
    /// Every option false: decisions exclude, propagation places.
    False,
    /// Every option true: decisions place.
    True,
    /// Every saved phase inverted.
    Flip,
}

impl LearnConfig {
    /// The settings that find solutions of satisfiable instances near the hardness peak
    /// fastest (partial rosters): VSIDS decisions with target phases and rephasing, Luby
    /// restarts × 512, as CaDiCaL's stable mode, rephasing every 3,000 × k conflicts, and
    /// reason-side bumping, without locked candidates. Proofs of uniqueness (minimal
    /// puzzles) go faster with [`LearnConfig::new`]; the portfolio races the two.
    ///
    /// Locked candidates are off here: they add about a sixth more propagated literals
    /// without saving conflicts, and with them this search was 3.4x slower on fifteen
    /// 36×36 rosters at 55–65% holes (10.6 s against 3.1 s) and timed out on ten of
    /// twenty-five harder ones at 20 s against four. The default settings keep them: there
    /// they help partial rosters (45 s against 65 s on the same fifteen), so the two runners
    /// of the race differ in that too. Vivification is off here (see
    /// [`LearnConfig::vivify`]): finding a solution gains little from shorter clauses, and
    /// the probes cost the most at 49×49.
    pub fn stable(seed: u64) -> LearnConfig {
        LearnConfig {
            locked: false,
            branch: Branch::Vsids,
            target: true,
            restarts: RestartPolicy::Luby(512),
            bump_reasons: true,
            rephase_int: 3000,
            vivify: 0,
            ..LearnConfig::new(seed)
        }
    }

    /// The default settings with Glucose restarts (restart when the LBD of the last few
    /// dozen learned clauses averages 1.25 times the long-run one): the second prover of
    /// the portfolio's 25×25 race. Alone it is about as fast as the default (Frisch #26
    /// and #27: 289k and 259k conflicts against 272k and 263k); beside it, the two differ
    /// more than two seeds of one setting do. Racing the default with this one, sharing
    /// clauses, proved Frisch's hardest 25×25 puzzles (#18, #26, #27, #32 of Gecode's
    /// examples) in 4.8–6.5, 10.0–13.1, 8.1–10.0 and 3.8–4.5 s, against 6.7–7.8,
    /// 13.6–17.4, 12.0–17.5 and 5.1–6.1 s beside [`LearnConfig::stable`] (alternating
    /// runs, 2026-11-24).
    pub fn focused(seed: u64) -> LearnConfig {
        LearnConfig {
            restarts: RestartPolicy::Glucose(1.25),
            ..LearnConfig::new(seed)
        }
    }
}

impl Default for LearnConfig {
    fn default() -> LearnConfig {
        LearnConfig::new(0)
    }
}

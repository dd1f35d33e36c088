//! Empty-cell expansion (空きマス拡大法), the machine generator of the difficulty paper
//! (Ishida et al., summarised in `../shared/REFERENCES.md`), and the shaping operations the
//! genetic algorithm ([`super::ga`]) builds on.
//!
//! Expansion starts from a full grid, visits the symmetry orbits in a random order, blanks
//! each orbit tentatively and keeps the blanks only while techniques 1..L (the grader's
//! list, [`crate::grade`]) still fill the grid; otherwise it restores the orbit. Every cell
//! is tried once. The paper does this with point symmetry and L = 8; [`Order::Sweep`]
//! (row by row) and [`Order::Bands`] are offered too, and change the levels and path lengths
//! little at 9×9.
//!
//! # Why no search is needed
//!
//! Every technique only removes candidates that no solution can take (the grader's
//! techniques are sound for any puzzle), so when the techniques fill the grid, every
//! solution of the puzzle agrees with what they filled: the solution is unique. A puzzle
//! made here is unique by construction, and its grade is known: the grade of the last
//! successful trial. The tests re-check uniqueness with a solver anyway.
//!
//! # Cost
//!
//! One grading run per orbit tried. Grading a 9×9 puzzle takes tens of microseconds, so a
//! 9×9 puzzle takes about a millisecond; at 100×100 an expansion grades about 5,000 nearly
//! full puzzles of a few milliseconds each (README has the measured times).

use std::time::Instant;

use rand::Rng;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::fill::{FillConfig, Filler};
use super::{GridKind, Order, Symmetry};
use crate::grade::{Grade, GradeOptions, Grader, MAX_LEVEL};
use crate::grid::{Grid, Puzzle, Shape};
use crate::solve::SearchControl;

/// How to expand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpandConfig {
    /// Seed of the grid (when [`expand`] fills one) and of the order of trials.
    pub seed: u64,
    /// Orbits blanked together; the paper uses [`Symmetry::Rot180`].
    pub symmetry: Symmetry,
    /// Blanks are kept while techniques `1..=max_level` solve the puzzle (1..8, values
    /// outside clamped as [`GradeOptions::max_level`](crate::grade::GradeOptions::max_level)
    /// is; the paper uses 8).
    pub max_level: u8,
    /// The order of trials: the paper's is [`Order::Random`].
    pub order: Order,
    /// The kind of full grid expanded (when [`expand`] fills one).
    pub grid: GridKind,
}

/// [`ExpandConfig::new`] with seed 0: the paper's settings.
impl Default for ExpandConfig {
    fn default() -> ExpandConfig {
        ExpandConfig::new(0)
    }
}

impl ExpandConfig {
    /// The paper's settings for `seed`: point symmetry, techniques 1..8.
    pub fn new(seed: u64) -> ExpandConfig {
        ExpandConfig {
            seed,
            symmetry: Symmetry::Rot180,
            max_level: MAX_LEVEL,
            order: Order::Random,
            grid: GridKind::Random,
        }
    }
}

/// An expanded puzzle.
#[derive(Clone, Debug)]
pub struct Expanded {
    /// The puzzle: techniques `1..=max_level` solve it, so its solution is unique.
    pub puzzle: Puzzle,
    /// Its solution, the grid the expansion started from.
    pub solution: Grid,
    /// Its grade with techniques `1..=max_level` (solved: level and steps are set).
    pub grade: Grade,
    /// Grading runs made (one per orbit tried).
    pub trials: u64,
    /// Whether the run stopped before trying every orbit (interrupt or deadline in the
    /// control); the puzzle is still solved by the techniques, only less sparse.
    pub stopped_early: bool,
    /// Microseconds in total, the fill included.
    pub micros: u64,
}

/// Fills a grid from `config.seed` and expands it (see the module docs).
///
/// Returns `None` only if interrupted before the grid was filled. The grid depends only
/// on the seed (two fill workers whatever the thread count), so the puzzle does too.
///
/// ```
/// use shiftgrid::{Shape, solve::SearchControl};
/// use shiftgrid::generate::expand::{expand, ExpandConfig};
/// let shape = Shape::new(3).unwrap();
/// let e = expand(shape, &ExpandConfig::new(1), &SearchControl::default()).unwrap();
/// assert!(e.grade.is_solved() && e.grade.level.unwrap() <= 8);
/// assert!(e.puzzle.is_completed_by(&e.solution));
/// ```
pub fn expand(shape: Shape, config: &ExpandConfig, control: &SearchControl) -> Option<Expanded> {
    let start = Instant::now();
    let solution = fill_for_seed(shape, config.seed, config.grid, control)?;
    let mut e = expand_grid(&solution, config, control);
    e.micros = start.elapsed().as_micros() as u64;
    Some(e)
}

/// The full grid of `kind` that every method (prove, expand, the genetic algorithm) starts
/// from for `seed`:
/// two fill workers whatever the thread count, so it depends only on the seed. `None` when
/// interrupted. The fill ignores the control's deadline, so that a time-limited run always
/// gets its grid, except for a half-turn grid above
/// [`GridKind::HALF_TURN_MAX_BOX`] (minutes to fill at 100×100), which is `None` when the
/// deadline passes first.
pub(crate) fn fill_for_seed(
    shape: Shape,
    seed: u64,
    kind: GridKind,
    control: &SearchControl,
) -> Option<Grid> {
    let cfg = FillConfig {
        workers: 2,
        ..FillConfig::new(seed)
    };
    // A search that finishes before its first poll would not notice an interrupt raised
    // before the call (the half-turn fill at 25×25 did, and a full grid became the puzzle).
    if control.is_interrupted() {
        return None;
    }
    let mut user = control.clone();
    if !(kind == GridKind::HalfTurn && shape.box_size() > GridKind::HALF_TURN_MAX_BOX) {
        user.deadline = None;
    }
    match kind {
        GridKind::Random => Filler::empty(shape)
            .fill(&cfg, &user)
            .expect("the empty board always has a completion")
            .map(|f| f.grid),
        GridKind::HalfTurn => crate::solve::dlx::half_turn::fill(shape, seed, &user),
    }
}

/// Expands `solution` (see the module docs): the order of trials comes from
/// `config.seed`.
pub fn expand_grid(solution: &Grid, config: &ExpandConfig, control: &SearchControl) -> Expanded {
    let start = Instant::now();
    let mut shaper = Shaper::new(solution, config.symmetry, config.max_level);
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    rng.set_stream(7);
    let mut order: Vec<usize> = (0..shaper.orbits.len()).collect();
    order.shuffle(&mut rng);
    shaper.sort_in(config.order, &mut order);
    let mut cells = solution.cells().to_vec();
    let finished = shaper.blank_while_solved(&mut cells, &order, control);
    // No grading again, after an interrupt least of all.
    let grade = shaper.grade_blanked(&cells);
    // The techniques' grid is the solution: the puzzle is unique because they fill it.
    assert!(
        grade.is_solved() && grade.cells == solution.cells(),
        "an expanded puzzle is filled by the techniques, to its grid"
    );
    Expanded {
        puzzle: Puzzle::new(solution.shape(), cells).expect("cells come from a valid grid"),
        solution: solution.clone(),
        grade,
        trials: shaper.trials,
        stopped_early: !finished,
        micros: start.elapsed().as_micros() as u64,
    }
}

/// The operations shared by expansion and the genetic algorithm's repair step, over one
/// fixed solution: grade with techniques `1..=level`, blank orbits while the techniques
/// still solve, add givens until they solve.
#[derive(Clone, Debug)]
pub(crate) struct Shaper {
    grader: Grader,
    opts: GradeOptions,
    shape: Shape,
    /// The symmetry's orbits, each sorted, listed by their smallest cell.
    pub(crate) orbits: Vec<Vec<u32>>,
    /// The orbit of each cell.
    orbit_of: Vec<u32>,
    solution: Vec<u8>,
    /// Grading runs so far.
    pub(crate) trials: u64,
    /// After [`Shaper::blank_while_solved`]: the grade of the cells it left, when one of
    /// its trials graded them (`None` when no orbit stayed blank).
    pub(crate) last_solved: Option<Grade>,
}

impl Shaper {
    pub(crate) fn new(solution: &Grid, symmetry: Symmetry, level: u8) -> Shaper {
        let shape = solution.shape();
        let orbits = symmetry.orbits(shape);
        let mut orbit_of = vec![0u32; shape.cells()];
        for (k, orbit) in orbits.iter().enumerate() {
            for &c in orbit {
                orbit_of[c as usize] = k as u32;
            }
        }
        Shaper {
            grader: Grader::new(shape),
            opts: GradeOptions {
                explain: false,
                max_level: level.clamp(1, MAX_LEVEL),
            },
            shape,
            orbits,
            orbit_of,
            solution: solution.cells().to_vec(),
            trials: 0,
            last_solved: None,
        }
    }

    /// The shape of the grid.
    pub(crate) fn shape(&self) -> Shape {
        self.shape
    }

    /// The grade of `cells` with techniques `1..=level`.
    pub(crate) fn grade(&mut self, cells: &[u8]) -> Grade {
        self.trials += 1;
        let p = Puzzle::new(self.shape, cells.to_vec()).expect("cells come from a valid grid");
        self.grader.grade(&p, &self.opts)
    }

    /// The grade of `cells` as [`Shaper::blank_while_solved`] left them: that of its last
    /// trial that solved (the cells it left), graded again only when no orbit stayed blank.
    pub(crate) fn grade_blanked(&mut self, cells: &[u8]) -> Grade {
        match self.last_solved.take() {
            Some(g) => g,
            None => self.grade(cells),
        }
    }

    /// As [`Shaper::grade`], `None` once `control` says stop (see [`Grader::grade_until`]).
    fn grade_until(&mut self, cells: &[u8], control: &SearchControl) -> Option<Grade> {
        self.trials += 1;
        let p = Puzzle::new(self.shape, cells.to_vec()).expect("cells come from a valid grid");
        self.grader.grade_until(&p, &self.opts, control)
    }

    /// Sorts orbit indices into `order_of` (stable: a shuffled order stays random among
    /// orbits of one row), as the proof generator does ([`super::order_key`]).
    pub(crate) fn sort_in(&self, order_of: Order, order: &mut [usize]) {
        order.sort_by_key(|&k| super::order_key(order_of, self.shape, &self.orbits[k]));
    }

    /// Whether orbit `k` is given in `cells`.
    pub(crate) fn is_given(&self, cells: &[u8], k: usize) -> bool {
        cells[self.orbits[k][0] as usize] != 0
    }

    /// Sets orbit `k` given (from the solution) or blank.
    pub(crate) fn set(&self, cells: &mut [u8], k: usize, given: bool) {
        for &c in &self.orbits[k] {
            cells[c as usize] = if given { self.solution[c as usize] } else { 0 };
        }
    }

    /// Tries the orbits of `order` in turn: a given orbit is blanked and stays blank if the
    /// techniques still solve the puzzle. `cells` must be solved on entry and is on exit.
    /// Returns `false` when `control` stopped it before the end of `order`.
    pub(crate) fn blank_while_solved(
        &mut self,
        cells: &mut [u8],
        order: &[usize],
        control: &SearchControl,
    ) -> bool {
        self.last_solved = None;
        for &k in order {
            if !self.is_given(cells, k) {
                continue;
            }
            if control.should_stop() {
                return false;
            }
            self.set(cells, k, false);
            // A grade cut by an interrupt keeps the orbit given: `cells` stay solved.
            match self.grade_until(cells, control) {
                Some(g) if g.is_solved() => self.last_solved = Some(g),
                Some(_) => self.set(cells, k, true),
                None => {
                    self.set(cells, k, true);
                    return false;
                }
            }
        }
        true
    }

    /// Adds given orbits until the techniques solve the puzzle: each round grades it and
    /// gives back orbits of cells the techniques left blank, chosen at random (one per
    /// round up to 16×16, more on larger grids, where each grading run costs more; the
    /// surplus is what [`Shaper::blank_while_solved`] removes next). Returns the final
    /// grade (solved). Always ends: the full grid is solved. When `control` stops the run,
    /// every orbit left unsolved is given back at once, which solves the puzzle in one
    /// more grading run instead of tens.
    pub(crate) fn add_until_solved(
        &mut self,
        cells: &mut [u8],
        rng: &mut impl Rng,
        control: &SearchControl,
    ) -> Grade {
        let mut stuck: Vec<u32> = Vec::new();
        loop {
            let g = self.grade(cells);
            if g.is_solved() {
                return g;
            }
            stuck.clear();
            for (c, &v) in g.cells.iter().enumerate() {
                if v == 0 {
                    stuck.push(self.orbit_of[c]);
                }
            }
            // Cells of one orbit are listed apart; sorting groups them so that each
            // stuck orbit is drawn with the same chance.
            stuck.sort_unstable();
            stuck.dedup();
            let adds = if control.should_stop() {
                stuck.len()
            } else {
                (stuck.len() / ADD_DIVISOR).max(1)
            };
            for _ in 0..adds {
                let i = rng.gen_range(0..stuck.len());
                let k = stuck.swap_remove(i) as usize;
                self.set(cells, k, true);
            }
        }
    }
}

/// Up to this many orbits left unsolved, the repair adds one given orbit per grading run;
/// above, one per `ADD_DIVISOR` unsolved orbits, so that a sparse 100×100 genome is repaired
/// in tens of grading runs rather than thousands.
const ADD_DIVISOR: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{Engine, SolveLimits, solve};

    /// Solutions counted up to 2 by an engine that shares no code with the grader.
    fn solutions(p: &Puzzle, engine: Engine) -> u64 {
        let o = solve(
            p,
            engine,
            &SolveLimits::count_up_to(2),
            &SearchControl::default(),
        )
        .expect("generated puzzles have no repeated givens");
        assert!(o.complete);
        o.count
    }

    #[test]
    fn expanded_puzzles_are_unique_symmetric_and_graded() {
        for b in 2..=3 {
            let shape = Shape::new(b).unwrap();
            for seed in 0..12 {
                for (symmetry, max_level) in [
                    (Symmetry::Rot180, 8),
                    (Symmetry::None, 2),
                    (Symmetry::Rot90, 1),
                    (Symmetry::Diagonal, 5),
                ] {
                    let cfg = ExpandConfig {
                        seed,
                        symmetry,
                        max_level,
                        order: Order::Random,
                        grid: GridKind::Random,
                    };
                    let e = expand(shape, &cfg, &SearchControl::default()).unwrap();
                    assert!(!e.stopped_early);
                    assert_eq!(solutions(&e.puzzle, Engine::Dlx), 1);
                    assert!(e.puzzle.is_completed_by(&e.solution));
                    assert!(symmetry.holds_for(shape, e.puzzle.cells()));
                    // The claimed grade is the grader's, with every technique allowed.
                    let full = crate::grade::grade(&e.puzzle);
                    assert_eq!((full.level, full.steps), (e.grade.level, e.grade.steps));
                    assert!(full.level.unwrap() <= max_level);
                    // Every orbit tried: each remaining given orbit is needed.
                    let mut shaper = Shaper::new(&e.solution, symmetry, max_level);
                    // The grade kept from the last trial is the puzzle's, whole.
                    assert_eq!(e.grade, shaper.grade(e.puzzle.cells()));
                    let mut cells = e.puzzle.cells().to_vec();
                    for k in 0..shaper.orbits.len() {
                        if shaper.is_given(&cells, k) {
                            shaper.set(&mut cells, k, false);
                            assert!(!shaper.grade(&cells).is_solved());
                            shaper.set(&mut cells, k, true);
                        }
                    }
                }
            }
        }
    }

    /// Each order tries the orbits as it says: with no symmetry at 9×9, the sweep visits
    /// rows 0, 1, 2, …, the bands order rows 0, 3, 6, 1, 4, 7, …; random keeps the shuffle.
    #[test]
    fn orders_visit_rows_as_documented() {
        let shape = Shape::new(3).unwrap();
        let grid = fill_for_seed(shape, 1, GridKind::Random, &SearchControl::default()).unwrap();
        let shaper = Shaper::new(&grid, Symmetry::None, 8);
        let rows_in = |order_of: Order| -> Vec<u32> {
            let mut order: Vec<usize> = (0..shaper.orbits.len()).rev().collect();
            shaper.sort_in(order_of, &mut order);
            let mut rows: Vec<u32> = order.iter().map(|&k| shaper.orbits[k][0] / 9).collect();
            rows.dedup();
            rows
        };
        assert_eq!(rows_in(Order::Sweep), (0..9).collect::<Vec<u32>>());
        assert_eq!(rows_in(Order::Bands), [0, 3, 6, 1, 4, 7, 2, 5, 8]);
        assert_eq!(rows_in(Order::Random), (0..9).rev().collect::<Vec<u32>>());
    }

    #[test]
    fn same_seed_same_puzzle_for_any_thread_count() {
        let shape = Shape::new(3).unwrap();
        let run = |t: usize, seed: u64| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .unwrap()
                .install(|| {
                    expand(shape, &ExpandConfig::new(seed), &SearchControl::default())
                        .unwrap()
                        .puzzle
                })
        };
        for seed in [3, 4] {
            let a = run(1, seed);
            assert_eq!(run(2, seed), a);
            assert_eq!(run(4, seed), a);
        }
        assert_ne!(run(1, 3), run(1, 4));
    }

    #[test]
    fn sixteen_by_sixteen_is_unique() {
        let shape = Shape::new(4).unwrap();
        let e = expand(shape, &ExpandConfig::new(9), &SearchControl::default()).unwrap();
        assert_eq!(solutions(&e.puzzle, Engine::Dlx), 1);
        assert!(Symmetry::Rot180.holds_for(shape, e.puzzle.cells()));
        assert!(e.puzzle.givens() < shape.cells() / 2);
    }

    #[test]
    fn repair_adds_givens_until_solved() {
        let shape = Shape::new(3).unwrap();
        let grid = fill_for_seed(shape, 5, GridKind::Random, &SearchControl::default()).unwrap();
        let mut shaper = Shaper::new(&grid, Symmetry::Rot180, 3);
        let mut cells = vec![0u8; shape.cells()];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let g = shaper.add_until_solved(&mut cells, &mut rng, &SearchControl::default());
        assert!(g.is_solved() && g.level.unwrap() <= 3);
        assert!(Symmetry::Rot180.holds_for(shape, &cells));
        assert_eq!(
            solutions(&Puzzle::new(shape, cells).unwrap(), Engine::Dlx),
            1
        );
        // Stopped (Ctrl-C), the repair gives back every unsolved orbit at once: two grading
        // runs, and the puzzle is still solved, as a stopped run must return one.
        let stopped = SearchControl::default();
        stopped
            .interrupt
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let mut cells = vec![0u8; shape.cells()];
        let before = shaper.trials;
        assert!(
            shaper
                .add_until_solved(&mut cells, &mut rng, &stopped)
                .is_solved()
        );
        assert_eq!(shaper.trials - before, 2);
    }
}

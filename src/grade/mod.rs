//! Grading puzzles by the techniques a human would use: the technique level `L` and the
//! step count `S` of the difficulty paper (Ishida et al., "A Study of Measures for
//! Evaluating SUDOKU Puzzles", summarised in `../shared/REFERENCES.md`), for every size from
//! 4×4 to 100×100, with an optional step log that explains each deduction in roster terms.
//!
//! # The techniques
//!
//! The paper names eight representative techniques but spells out only the first, so the
//! list is ours. It is fixed, so that a level means the same at every size:
//!
//! | L | techniques | |
//! |---|---|---|
//! | 1 | [peer elimination](Technique::PeerElimination) | the paper's technique 1: a blank cell loses every symbol placed in its row, column or block (a cell left with one is a naked single) |
//! | 2 | [hidden single](Technique::HiddenSingle) | a symbol with one possible cell in a house |
//! | 3 | [pointing](Technique::Pointing), [claiming](Technique::Claiming) | locked candidates: a block's candidates for a symbol on one line, or a line's in one block |
//! | 4 | [naked pair](Technique::NakedPair) | |
//! | 5 | [hidden pair](Technique::HiddenPair) | |
//! | 6 | [naked triple](Technique::NakedTriple), [hidden triple](Technique::HiddenTriple) | |
//! | 7 | [X-Wing](Technique::XWing) | fish of size 2 |
//! | 8 | [Swordfish](Technique::Swordfish), [XY-Wing](Technique::XYWing) | fish of size 3; a bivalue pivot and two pincers |
//!
//! Each works on candidate sets over houses of any size and only *removes* candidates; all
//! are sound for any puzzle (none assumes a unique solution). In the code they are rows of
//! one table of definitions (`techniques/mod.rs`), from which the levels, the names in
//! [`LEVEL_NAMES`], the order of the sweeps and the step text all follow.
//!
//! # The procedure
//!
//! ```text
//! L = 1, S = 0
//! loop:
//!   if no blank cell: solved, return (L, S)
//!   apply techniques 1..L once each, over all blank cells, as eliminations only
//!   if anything was eliminated: S += 1
//!   if some cells are down to one candidate: place them all, continue at the same L
//!   else if something was eliminated: continue at the same L
//!   else: L += 1; if L > 8: return "beyond level 8" (with S so far)
//! ```
//!
//! A blank cell starts with every symbol, givens are placed, and placing a cell only fixes
//! its symbol: its peers lose it in the next round's peer elimination. The techniques above
//! level 2 leave that to it too: a cell left with one candidate earlier in the round counts
//! as filled, so they neither remove its symbol from its peers nor report a pattern whose
//! every removal is of that kind: level 3 and up never take credit for peer elimination's
//! work, and locked candidates never name a cell their step has filled. (A larger pattern
//! found on the candidates as the sweep began, an X-Wing or a triple, can still use such a
//! cell when it also removes something else: 5 of about 1,370 level-3-and-up hints over
//! 1,000 9×9 puzzles.) Locked candidates need two cells or more: a symbol locked into one
//! cell is a hidden single. So, as in the paper,
//! a fill that enables further fills counts as several steps. Within a round the techniques
//! run in level order, each seeing what the previous ones removed; each sweeps rows, then
//! columns, then blocks (or symbols in increasing order) on the candidates as its sweep
//! began, and its removals take effect when the sweep ends: no pattern it finds feeds
//! another of the same sweep, so a puzzle turned, mirrored or with its symbols renamed gets
//! the same L and S (before, a hidden single found in a row could make one in a column of
//! the same step, and S moved with the orientation for about one solved puzzle in two of
//! magictour's top 1465).
//! A cell with no candidate, a symbol with no place in a house, or one symbol placed twice
//! in a house ends the run as a [contradiction](Outcome::Contradiction): the puzzle has no
//! solution (all techniques are sound).
//!
//! ## Why this differs from the paper's literal text
//!
//! The paper's procedure (REFERENCES.md) applies *only technique L* at level L, and raises
//! L whenever a step places nothing. Read literally, that leaves candidates stale (at level
//! 2, cells filled by hidden singles are never removed from their peers, since technique 1
//! no longer runs) and raises L merely because one round eliminated without completing a
//! cell, even though the very next round at the same level would have placed one. The
//! level would then measure the order of events rather than the techniques needed. We apply
//! techniques 1..L in every round and raise L only when nothing at all moves, so L is the
//! smallest level whose techniques, applied this way, solve the puzzle, which is the
//! definition the paper gives for L. S keeps the paper's meaning: one step per narrowing
//! round.
//!
//! # Difficulty names
//!
//! For users who expect words rather than levels, [`Difficulty`] names ranges of L: 1–2
//! [easy](Difficulty::Easy) (singles only), 3–5 [medium](Difficulty::Medium) (locked
//! candidates, pairs), 6–8 [hard](Difficulty::Hard) (triples, fish, wings), and beyond 8
//! [extreme](Difficulty::Extreme) (needs trial and error or techniques outside the list).
//! Grading assumes a proper puzzle: one with several solutions (or none the techniques
//! see) also ends beyond level 8, so [`settle()`] tells by a short search whether such a
//! puzzle has exactly one solution, as `shiftgrid grade` does before it calls one extreme.
//!
//! # Cost
//!
//! Candidates are one [`SymbolSet`](crate::cells::SymbolSet) per cell (`candidates.rs`); a
//! [`Grader`] keeps every buffer between puzzles, and a round allocates nothing unless the
//! step log was asked for ([`GradeOptions::explain`]). Sweeps remember where they found nothing (per technique
//! and house, or symbol for fish) and skip it until its candidates change, so raising L
//! after a quiet round costs only the new level's work. A technique's result depends only on
//! what it reads, so the skipping changes no grade, only the time.
//!
//! ```
//! use shiftgrid::grade::{grade, Difficulty, Outcome};
//! use shiftgrid::io::parse::{parse_puzzles, ParseOptions};
//!
//! // The Solver Foundation article's demo puzzle (REFERENCES.md).
//! let text = "006200080008970000004810500000060002070000030600050000002047100003028400050001200";
//! let puzzle = parse_puzzles(text, &ParseOptions::default()).remove(0).puzzle.unwrap();
//! let g = grade(&puzzle);
//! assert_eq!(g.outcome, Outcome::Solved);
//! assert!(g.level.is_some() && g.steps > 0);
//! assert!(g.difficulty().is_some());
//! ```

pub(crate) mod candidates;
mod settle;
mod step;
pub(crate) mod techniques;

use crate::solve::SearchControl;
use std::fmt;

use crate::grid::{House, Pos, Puzzle, Shape};
use candidates::Candidates;
pub use settle::{Settled, settle};
#[cfg(feature = "cli")]
pub(crate) use step::join;
pub use step::{Elimination, Labels, Placement, Step};
use step::{Namer, Recorder};
pub use techniques::Technique;

/// The highest level: techniques 1..8 (from the technique table).
pub const MAX_LEVEL: u8 = techniques::MAX_LEVEL;

/// The name of each level's techniques, indexed by `level - 1` (from the technique table).
pub const LEVEL_NAMES: [&str; MAX_LEVEL as usize] = techniques::LEVEL_NAMES;

/// How a grading run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Techniques `1..=level` filled every cell.
    Solved,
    /// The techniques up to the maximum level got stuck: the puzzle needs search or
    /// techniques outside the list (or has several solutions).
    Beyond,
    /// The givens and the deductions contradict each other: the puzzle has no solution.
    Contradiction,
}

impl Outcome {
    /// "solved", "beyond" or "contradiction".
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Solved => "solved",
            Outcome::Beyond => "beyond",
            Outcome::Contradiction => "contradiction",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What made a run end in a contradiction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Conflict {
    /// A blank cell lost its last candidate.
    NoCandidate {
        /// The cell.
        pos: Pos,
    },
    /// A symbol has no possible cell in a house that does not hold it yet.
    NoPlace {
        /// The house.
        house: House,
        /// The symbol.
        symbol: u8,
    },
    /// The same symbol is placed twice in a house (given twice, or two cells forced to it).
    Clash {
        /// The house.
        house: House,
        /// The symbol.
        symbol: u8,
    },
}

impl Conflict {
    /// The conflict in words, with a roster's names where given (`Display` uses numbers).
    pub fn named<'a>(&'a self, labels: Option<&'a Labels>) -> impl fmt::Display + 'a {
        NamedConflict(*self, Namer(labels))
    }
}

struct NamedConflict<'a>(Conflict, Namer<'a>);

impl fmt::Display for NamedConflict<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nm = self.1;
        match self.0 {
            Conflict::NoCandidate { pos } => write!(f, "{} has no shift left", nm.cell(pos)),
            Conflict::NoPlace { house, symbol } => write!(
                f,
                "{} has no place left in {}",
                nm.shift(symbol),
                nm.house(house)
            ),
            Conflict::Clash { house, symbol } => write!(
                f,
                "{} appears twice in {}",
                nm.shift(symbol),
                nm.house(house)
            ),
        }
    }
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.named(None).fmt(f)
    }
}

/// A name for a range of levels, for users who expect words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Difficulty {
    /// L 1–2: singles only.
    Easy,
    /// L 3–5: locked candidates, naked and hidden pairs.
    Medium,
    /// L 6–8: triples, X-Wing, Swordfish, XY-Wing.
    Hard,
    /// Beyond level 8: techniques 1..8 cannot finish it.
    Extreme,
}

impl Difficulty {
    /// The name for a level (`None` = beyond level 8).
    pub fn from_level(level: Option<u8>) -> Difficulty {
        match level {
            Some(0..=2) => Difficulty::Easy,
            Some(3..=5) => Difficulty::Medium,
            Some(6..=8) => Difficulty::Hard,
            _ => Difficulty::Extreme,
        }
    }

    /// "easy", "medium", "hard" or "extreme".
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Extreme => "extreme",
        }
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Options for [`grade_with`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GradeOptions {
    /// Build the step log ([`Grade::log`]). Off by default: the log costs allocations.
    pub explain: bool,
    /// The highest level to try, `1..=8` (values outside are clamped). A puzzle that needs
    /// more ends as [`Outcome::Beyond`].
    pub max_level: u8,
}

impl Default for GradeOptions {
    fn default() -> GradeOptions {
        GradeOptions {
            explain: false,
            max_level: MAX_LEVEL,
        }
    }
}

/// The grade of one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grade {
    /// The technique level `L` (`1..=8`) when solved, or the level reached when a
    /// contradiction was found (which the CLI does not print: a puzzle with no solution
    /// has no level, `-` or `null`); `None` when beyond the maximum level.
    pub level: Option<u8>,
    /// The step count `S`: rounds that removed at least one candidate.
    pub steps: u32,
    /// How the run ended.
    pub outcome: Outcome,
    /// Deductions per level (index `level - 1`): how many times each level's techniques
    /// removed something (a hidden single, a naked pair, one cell narrowed by peer
    /// elimination, …). With a log, `counts[l - 1]` is the number of its steps at level `l`
    /// techniques.
    pub counts: [u32; MAX_LEVEL as usize],
    /// Candidates removed per level (index `level - 1`).
    pub eliminated: [u64; MAX_LEVEL as usize],
    /// What the contradiction was, when [`Outcome::Contradiction`].
    pub conflict: Option<Conflict>,
    /// The grid as far as the techniques filled it, row-major, `0` for cells left blank.
    pub cells: Vec<u8>,
    /// The highest level that was allowed ([`GradeOptions::max_level`]).
    pub max_level: u8,
    /// The step log, when [`GradeOptions::explain`] was set.
    pub log: Option<Vec<Step>>,
}

impl Grade {
    /// The difficulty name: `None` for a contradiction, and for a puzzle beyond a
    /// maximum level below 8 (it is not known to be extreme). Beyond level 8 it is
    /// [`Difficulty::Extreme`] for a proper puzzle; [`settle()`] tells whether it is one.
    pub fn difficulty(&self) -> Option<Difficulty> {
        match self.outcome {
            Outcome::Contradiction => None,
            Outcome::Beyond if self.max_level < MAX_LEVEL => None,
            _ => Some(Difficulty::from_level(self.level)),
        }
    }

    /// Whether the techniques filled the grid.
    pub fn is_solved(&self) -> bool {
        self.outcome == Outcome::Solved
    }
}

/// A reusable grader: keeps the candidate buffers and house tables between puzzles of the
/// same shape (it rebuilds them when the shape changes). Use one per thread for batches.
#[derive(Clone, Debug)]
pub struct Grader {
    c: Candidates,
    rec: Recorder,
}

impl Grader {
    /// A grader for puzzles of `shape`.
    pub fn new(shape: Shape) -> Grader {
        Grader {
            c: Candidates::new(shape),
            rec: Recorder::default(),
        }
    }

    /// The shape whose tables are built.
    pub fn shape(&self) -> Shape {
        self.c.shape
    }

    /// Grades `puzzle` (see the module documentation for the procedure).
    pub fn grade(&mut self, puzzle: &Puzzle, opts: &GradeOptions) -> Grade {
        self.run(puzzle, opts, None)
            .expect("only a stop flag ends a grade early")
    }

    /// As [`Grader::grade`], but gives `None` as soon as `control` says stop (an interrupt
    /// or its deadline; it is looked at every round of techniques, milliseconds apart at
    /// 100×100), so that Ctrl-C or a time limit need not wait for a long grade to end.
    pub fn grade_until(
        &mut self,
        puzzle: &Puzzle,
        opts: &GradeOptions,
        control: &SearchControl,
    ) -> Option<Grade> {
        self.run(puzzle, opts, Some(control))
    }

    fn run(
        &mut self,
        puzzle: &Puzzle,
        opts: &GradeOptions,
        control: Option<&SearchControl>,
    ) -> Option<Grade> {
        if puzzle.shape() != self.c.shape {
            self.c = Candidates::new(puzzle.shape());
        }
        let max_level = opts.max_level.clamp(1, MAX_LEVEL);
        let (c, rec) = (&mut self.c, &mut self.rec);
        c.load(puzzle.cells());
        rec.reset(opts.explain);
        let mut level = 1u8;
        let mut steps = 0u32;
        // The state version at which each level's techniques last removed nothing.
        let mut quiet = [None::<u64>; MAX_LEVEL as usize + 1];
        let outcome = loop {
            if control.is_some_and(SearchControl::should_stop) {
                return None;
            }
            if c.conflict.is_some() {
                break Outcome::Contradiction;
            }
            if c.blanks.is_empty() {
                break Outcome::Solved;
            }
            rec.step = steps + 1;
            rec.level = level;
            let mut eliminated = false;
            for t in 1..=level {
                // A technique that found nothing finds nothing again on the same state: when
                // L rises after a quiet round, only the new level's techniques have work.
                if quiet[t as usize] == Some(c.version) {
                    continue;
                }
                // Above level 2, what this round's singles take from their peers is left to
                // the next round's peer elimination (`Candidates::remove`).
                c.defer = t >= 3;
                if techniques::apply_level(t, c, rec) {
                    eliminated = true;
                } else {
                    quiet[t as usize] = Some(c.version);
                }
                if c.conflict.is_some() {
                    break;
                }
            }
            c.defer = false;
            if eliminated {
                steps += 1;
            }
            if c.conflict.is_some() {
                break Outcome::Contradiction;
            }
            if eliminated {
                // Singles can only appear where something was removed (the previous round
                // placed every earlier one); a clash between them is found while placing.
                c.place_singles();
            } else {
                level += 1;
                if level > max_level {
                    break Outcome::Beyond;
                }
            }
        };
        Some(Grade {
            level: (outcome != Outcome::Beyond).then_some(level),
            steps,
            outcome,
            counts: rec.counts,
            eliminated: rec.removed,
            conflict: c.conflict,
            cells: c.value.clone(),
            max_level,
            log: opts.explain.then(|| std::mem::take(&mut rec.log)),
        })
    }
}

/// Grades a puzzle with techniques 1..8 and no step log.
pub fn grade(puzzle: &Puzzle) -> Grade {
    grade_with(puzzle, &GradeOptions::default())
}

/// Grades a puzzle with the given options. For many puzzles, reuse a [`Grader`].
///
/// ```
/// use shiftgrid::grade::{grade_with, GradeOptions, Technique};
/// use shiftgrid::io::parse::{parse_puzzles, ParseOptions};
///
/// let text = "1 . . 4\n. . . .\n. . . .\n4 . . 1\n";
/// let puzzle = parse_puzzles(text, &ParseOptions::default()).remove(0).puzzle.unwrap();
/// let g = grade_with(&puzzle, &GradeOptions { explain: true, ..GradeOptions::default() });
/// let log = g.log.unwrap();
/// assert_eq!(log[0].technique, Technique::PeerElimination);
/// assert!(log[0].to_string().starts_with("step 1, level 1, peer elimination: staff 1 / day 2"));
/// ```
pub fn grade_with(puzzle: &Puzzle, opts: &GradeOptions) -> Grade {
    Grader::new(puzzle.shape()).grade(puzzle, opts)
}

#[cfg(test)]
mod tests;

//! What `generate` reports: each puzzle as output (its grids and JSON record) and the
//! `--stats` line.

use serde::Serialize;

use super::method::Method;
use super::{GenerateArgs, Made};
use crate::cli::Ctx;
use crate::cli::output::{Entry, GridRef, InBatch, Record, Rows, Shown};
use crate::generate::ga::GenerationRecord;
use crate::grid::Shape;

/// The `--stats` line of one puzzle.
pub(super) fn stats_line(index: u64, seed: u64, shape: Shape, g: &Made) -> String {
    let n2 = shape.cells() as f64;
    let mut line = format!(
        "puzzle {index}: seed {seed}, {} givens ({:.1}%)",
        g.puzzle.givens(),
        100.0 * g.puzzle.givens() as f64 / n2,
    );
    if let Some(st) = &g.proof {
        line += &format!(
            ", {}, {} checks: {} by propagation, {} by search, {} refuted, {} unproven; \
             fill {:.3} s",
            if g.minimal && g.stopped_early {
                "minimal (stopped early)"
            } else if g.minimal {
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
        );
        if st.first_givens > 0 {
            line += &format!(", {} rounds from {} givens", st.rounds, st.first_givens);
        }
    }
    if let Some(grade) = &g.grade {
        let counts: Vec<String> = grade.counts.iter().map(u32::to_string).collect();
        line += &format!(
            ", L {}, S {}, counts {}",
            grade.level.map_or("-".to_string(), |l| l.to_string()),
            grade.steps,
            counts.join(",")
        );
    }
    if let Some(ga) = &g.ga {
        line += &format!(
            ", target L {}, fitness {}, {} generations, {} evaluations",
            ga.target,
            ga.fitness,
            ga.history.len().saturating_sub(1),
            ga.evaluations
        );
    }
    if g.stopped_early && g.proof.is_none() {
        line += ", stopped early";
    }
    line + &format!(", total {:.3} s", g.micros as f64 / 1e6)
}

/// One puzzle of the batch, as output: the puzzle (and with `--solution` its solution), and
/// a record of what its method knows about it.
pub(super) struct Generated<'a> {
    pub(super) key: InBatch,
    pub(super) method: &'a Method,
    /// `--from`: the grid came from the input file.
    pub(super) from_file: bool,
    pub(super) made: &'a Made,
    /// `--solution`: the solution follows the puzzle.
    pub(super) solution: bool,
    /// `--stats`: the record carries the proof's statistics.
    pub(super) stats: bool,
    /// The `--from` grid's label in its long roster: the puzzle's label ("Week 12", or in
    /// a batch (`in_batch`) "Week 12 3") instead of its number.
    pub(super) label: Option<&'a str>,
    /// The puzzle is one of a batch or shard.
    pub(super) in_batch: bool,
}

impl Generated<'_> {
    /// The puzzle's label: its number, or the `--from` roster's label (with the number
    /// after it in a batch).
    fn label_of_puzzle(&self) -> String {
        let index = self.key.index;
        match self.label {
            Some(l) if self.in_batch => format!("{l} {index}"),
            Some(l) => l.to_string(),
            None => index.to_string(),
        }
    }
}

impl Entry for Generated<'_> {
    fn record(&self) -> impl Serialize {
        #[derive(Serialize)]
        struct GenJson<'a> {
            /// The puzzle's label from the `--from` grid's in its long roster.
            #[serde(skip_serializing_if = "Option::is_none")]
            label: Option<String>,
            method: &'static str,
            /// `random`, `automorphic`, or `file` (`--from`).
            grid: String,
            symmetry: String,
            givens: usize,
            /// Whether the puzzle was proven minimal (`prove`); `null` for the methods
            /// that do not check it (expand, ga).
            minimal: Option<bool>,
            cells: Rows<'a>,
            #[serde(skip_serializing_if = "Option::is_none")]
            solution: Option<Rows<'a>>,
            #[serde(skip_serializing_if = "Option::is_none")]
            stats: Option<crate::generate::GenerateStats>,
            /// Technique level L (expand, ga).
            #[serde(skip_serializing_if = "Option::is_none")]
            level: Option<u8>,
            /// Step count S (expand, ga).
            #[serde(skip_serializing_if = "Option::is_none")]
            steps: Option<u32>,
            /// Deductions per level 1..8 (expand, ga).
            #[serde(skip_serializing_if = "Option::is_none")]
            counts: Option<[u32; 8]>,
            /// `--givens K`: the target, which `givens` may miss (a note says so).
            #[serde(skip_serializing_if = "Option::is_none")]
            target_givens: Option<usize>,
            #[serde(skip_serializing_if = "Option::is_none")]
            target_level: Option<u8>,
            #[serde(skip_serializing_if = "Option::is_none")]
            fitness: Option<u64>,
            #[serde(skip_serializing_if = "Option::is_none")]
            evaluations: Option<u64>,
            #[serde(skip_serializing_if = "Option::is_none")]
            history: Option<Vec<&'a GenerationRecord>>,
            stopped_early: bool,
            /// The time taken, with `--stats` only (without it two runs write the same
            /// bytes), and only where no `stats` object holds it (expand, ga).
            #[serde(skip_serializing_if = "Option::is_none")]
            micros: Option<u64>,
        }
        let g = self.made;
        let shape = g.puzzle.shape();
        let (mut grid, symmetry) = self.method.grid_and_symmetry();
        if self.from_file {
            grid = "file".to_string();
        }
        Record::new(
            &self.key,
            Some(shape),
            GenJson {
                label: self.label.map(|_| self.label_of_puzzle()),
                method: self.method.name(),
                grid,
                symmetry,
                givens: g.puzzle.givens(),
                minimal: (self.method.name() == "prove").then_some(g.minimal),
                cells: Rows(g.puzzle.cells(), shape),
                solution: self.solution.then(|| Rows(g.solution.cells(), shape)),
                stats: g.proof.filter(|_| self.stats),
                level: g.grade.as_ref().and_then(|x| x.level),
                steps: g.grade.as_ref().map(|x| x.steps),
                counts: g.grade.as_ref().map(|x| x.counts),
                target_givens: match self.method {
                    Method::Prove(cfg) => match cfg.target {
                        crate::generate::Target::Givens(k) => Some(k),
                        _ => None,
                    },
                    _ => None,
                },
                target_level: g.ga.as_ref().map(|x| x.target),
                fitness: g.ga.as_ref().map(|x| x.fitness),
                evaluations: g.ga.as_ref().map(|x| x.evaluations),
                history: g.ga.as_ref().map(|x| thinned(&x.history)),
                stopped_early: g.stopped_early,
                micros: (self.stats && g.proof.is_none()).then_some(g.micros),
            },
        )
    }

    /// The puzzle labelled by its number (or by the `--from` roster's label, see
    /// [`Generated::label`]), then its solution labelled `"<label> solution"`.
    fn grids(&self) -> Vec<Shown<'_>> {
        let label = self.label_of_puzzle();
        let mut grids = vec![Shown {
            label: label.clone(),
            grid: GridRef::Puzzle(&self.made.puzzle),
        }];
        if self.solution {
            grids.push(Shown {
                label: format!("{label} solution"),
                grid: GridRef::Grid(&self.made.solution),
            });
        }
        grids
    }
}

/// The most generations a JSON record's `history` lists: enough to plot a run, and a record
/// stays a short line that reads back as input (at most about 40 KB of history).
pub(super) const HISTORY_MOST: usize = 500;

/// `history` as a record lists it: every generation (0 being the first population) when
/// there are at most [`HISTORY_MOST`], else that many evenly spaced, the first and the last
/// included (each names its generation).
fn thinned(history: &[GenerationRecord]) -> Vec<&GenerationRecord> {
    let len = history.len();
    if len <= HISTORY_MOST {
        return history.iter().collect();
    }
    // Generation i * (len - 1) / (HISTORY_MOST - 1) for i in 0..HISTORY_MOST: distinct,
    // ascending, from 0 to len - 1.
    (0..HISTORY_MOST)
        .map(|i| &history[i * (len - 1) / (HISTORY_MOST - 1)])
        .collect()
}

/// What the summary line reports about the puzzles made.
#[derive(Debug)]
pub(super) struct Totals {
    pub(super) made: u64,
    pub(super) givens: u64,
    /// Whether every puzzle made was shown minimal, and how many were not.
    pub(super) minimal: bool,
    pub(super) not_minimal: u64,
    /// `--givens K`: puzzles that kept more than K givens, and the fewest any of them kept.
    pub(super) above_target: u64,
    pub(super) fewest_above: usize,
    /// The numbers of the first few puzzles that missed --level, and --givens.
    pub(super) off_which: Vec<u64>,
    pub(super) above_which: Vec<u64>,
    /// `ga`: puzzles that did not reach --level, and the levels they reached instead
    /// (`None`: beyond every technique).
    pub(super) off_level: u64,
    pub(super) off_levels: std::collections::BTreeSet<Option<u8>>,
    /// Puzzles the time limit (or an interrupt) cut short; of those, the ones the genetic
    /// algorithm did not bring to --level, and the ones already proven minimal (cut in
    /// their rounds of improvement).
    pub(super) cut_short: u64,
    pub(super) cut_off_level: u64,
    pub(super) cut_minimal: u64,
    /// Puzzles the time limit (or an interrupt) stopped before any cell was blanked: full
    /// grids, not puzzles.
    pub(super) no_blank: u64,
    pub(super) no_blank_which: Vec<u64>,
    /// With a shift list and CSV output, its names and which shifts some given holds: a
    /// roster file that gives none of one loses its name when read back without the list.
    pub(super) shift_names: Option<Vec<String>>,
    pub(super) shifts_given: Vec<bool>,
}

impl Default for Totals {
    fn default() -> Totals {
        Totals {
            made: 0,
            givens: 0,
            minimal: true,
            not_minimal: 0,
            above_target: 0,
            fewest_above: usize::MAX,
            off_which: Vec::new(),
            above_which: Vec::new(),
            off_level: 0,
            off_levels: Default::default(),
            cut_short: 0,
            cut_off_level: 0,
            cut_minimal: 0,
            no_blank: 0,
            no_blank_which: Vec::new(),
            shift_names: None,
            shifts_given: Vec::new(),
        }
    }
}

/// The notes at the end of a run on what fell short of the request: a time limit that cut
/// puzzles short (not with --quiet), and, even with --quiet (the output does not show it),
/// a missed --level or --givens; with --every-house, the puzzles it left not minimal.
/// The puzzles that missed a target are named by number, the first few of them.
pub(super) fn notes(
    ctx: &Ctx,
    args: &GenerateArgs,
    method: &Method,
    t: &Totals,
    interrupted: bool,
) {
    let some_of = |k: u64| {
        if t.made == 1 {
            "the puzzle".to_string()
        } else {
            format!("{k} of the {} puzzles", t.made)
        }
    };
    // "2 of the 9 puzzles (3 and 7)".
    let some_which = |k: u64, which: &[u64]| {
        let mut named = some_of(k);
        if t.made > 1 {
            named += &format!(" ({})", crate::cli::which::numbers(k, which));
        }
        named
    };
    if t.no_blank > 0 {
        // Said even with --quiet, and the exit status is 1: the output holds no puzzle.
        msg!(
            "shiftgrid: {} stopped {} before any cell was blanked: {} the full grid, not a \
             puzzle{}",
            if interrupted {
                "Ctrl-C"
            } else {
                "--time-limit"
            },
            some_which(t.no_blank, &t.no_blank_which),
            if t.no_blank == 1 { "it is" } else { "each is" },
            if interrupted {
                ""
            } else {
                " (give it a longer limit)"
            }
        );
    }
    let cut = t.cut_short.saturating_sub(t.no_blank);
    if cut > 0 && !interrupted && !ctx.quiet {
        // Each is still proven unique (the best so far), but a longer run would do better.
        let (when, worse) = match method {
            Method::Ga(_) => (
                "before the genetic algorithm's last generation",
                ", but a longer limit may do better",
            ),
            Method::Expand(..) => (
                "before every blank was tried",
                ", but with more givens than a longer limit would leave",
            ),
            // Minimal already: the rounds of --improve were cut.
            _ if t.cut_minimal == cut => (
                "in the rounds of improvement",
                " and minimal, but a longer limit may leave fewer givens",
            ),
            _ if args.minimal => (
                "before it was minimal",
                ", but with more givens than a longer limit would leave",
            ),
            _ => (
                "before every removal was tried",
                ", but with more givens than a longer limit would leave",
            ),
        };
        msg!(
            "shiftgrid: --time-limit stopped {} {when}: {} unique{worse}",
            some_of(cut),
            if cut == 1 { "it is" } else { "each is" }
        );
    }
    // What was asked and not met is said even with --quiet, as other commands' verdicts
    // are: the output itself (a grid or a line) does not show it.
    if t.off_level > 0 {
        let reached: Vec<String> = t
            .off_levels
            .iter()
            .map(|l| l.map_or("beyond 8".to_string(), |l| l.to_string()))
            .collect();
        let target = match method {
            Method::Ga(cfg) => cfg.level,
            _ => 0,
        };
        let advice = if t.cut_off_level == t.off_level {
            "a longer --time-limit may get there"
        } else {
            "more --generations or --population may get there"
        };
        msg!(
            "shiftgrid: {} did not reach --level {target}: the best the genetic algorithm \
             found is level{} {} ({advice})",
            some_which(t.off_level, &t.off_which),
            if reached.len() == 1 { "" } else { "s" },
            reached.join(", ")
        );
    }
    if args.every_house && t.not_minimal > 0 && t.cut_short == 0 && (args.minimal || !ctx.quiet) {
        // Minimal runs check what --every-house held back: some could have gone.
        let can_be_minimal =
            matches!(method, Method::Prove(cfg) if cfg.target == crate::generate::Target::Minimal);
        if can_be_minimal {
            msg!(
                "shiftgrid: {} not minimal: a given could still go, but only by emptying its \
                 row, column or box (--every-house)",
                if t.made == 1 {
                    "the puzzle is".to_string()
                } else {
                    format!("{} of the {} puzzles are", t.not_minimal, t.made)
                }
            );
        }
    }
    if t.above_target > 0 {
        let k = args.givens.unwrap_or(0);
        msg!(
            "shiftgrid: {} kept more than --givens {k} givens: no further removal was proven \
             (the fewest: {})",
            some_which(t.above_target, &t.above_which),
            t.fewest_above
        );
    }
    let missing = (1..t.shifts_given.len()).find(|&k| !t.shifts_given[k]);
    // (A list of numbers or default names reads back the same without it.)
    let named = t
        .shift_names
        .as_ref()
        .filter(|names| !crate::io::csv::placed_by_number(crate::io::csv::Axis::Shift, names));
    if let (Some(names), false) = (named, ctx.quiet || args.solution) {
        // Read back without the list, the file names its shifts by the names its givens
        // use (over all its grids); a unique puzzle may leave one shift out, which is then
        // `Shift N`: nothing is lost when that was its name. A shift given by a default
        // name or number beside names of its own is refused, unless it is `Shift N`
        // beside N - 1 names (a roster solved with one name short, given to --from).
        let n = names.len();
        let given: Vec<usize> = (1..t.shifts_given.len())
            .filter(|&j| t.shifts_given[j])
            .collect();
        let defaults: Vec<usize> = given
            .iter()
            .filter_map(|&j| {
                crate::io::csv::default_number(crate::io::csv::Axis::Shift, &names[j - 1])
            })
            .collect();
        let readable = defaults.is_empty()
            || (defaults.iter().all(|&v| v == n) && given.len() - defaults.len() == n - 1);
        let given_names: Vec<&str> = given.iter().map(|&j| names[j - 1].as_str()).collect();
        let refused = !readable;
        let lost = missing.filter(|&k| names[k - 1] != format!("Shift {n}"));
        let what = if t.made == 1 {
            "the puzzle"
        } else {
            "the puzzles"
        };
        if refused {
            msg!(
                "shiftgrid: note: read back without the shift list, the file is refused: {what} \
                 give{} a shift by a default name or number ({}) beside names of its own; read \
                 it with the list (--shifts FILE)",
                if t.made == 1 { "s" } else { "" },
                crate::io::quote::Quoted(
                    &names[given
                        .iter()
                        .copied()
                        .find(|&j| {
                            crate::io::csv::default_number(
                                crate::io::csv::Axis::Shift,
                                &names[j - 1],
                            )
                            .is_some()
                        })
                        .unwrap_or(1)
                        - 1]
                )
            );
        } else if let Some(note) = crate::cli::output::shift_names_note(&given_names) {
            msg!("{note}");
        } else if let Some(k) = lost {
            msg!(
                "shiftgrid: note: {what} {} no {} among {} givens, so the file does not name \
                 it: read it with a shift list naming all {n} (--shifts FILE); without one, \
                 that shift is written \"Shift {n}\"",
                if t.made == 1 { "has" } else { "have" },
                crate::io::quote::Quoted(&names[k - 1]),
                if t.made == 1 { "its" } else { "their" },
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(len: usize) -> Vec<GenerationRecord> {
        (0..len)
            .map(|g| GenerationRecord {
                generation: g as u32,
                best: 0,
                mean: 0.0,
                best_level: 0,
                best_steps: 0,
            })
            .collect()
    }

    #[test]
    fn long_histories_are_thinned_evenly_with_both_ends() {
        for len in [0, 1, 499, 500] {
            assert_eq!(thinned(&run(len)).len(), len);
        }
        for len in [501, 1000, 15_000, 1_000_001] {
            let h = run(len);
            let t: Vec<u32> = thinned(&h).iter().map(|r| r.generation).collect();
            assert_eq!(t.len(), HISTORY_MOST);
            assert_eq!((t[0], t[t.len() - 1]), (0, len as u32 - 1));
            assert!(t.windows(2).all(|w| w[0] < w[1]), "{len}");
            // Even: no gap more than one longer than another.
            let gaps: Vec<u32> = t.windows(2).map(|w| w[1] - w[0]).collect();
            let (lo, hi) = (gaps.iter().min().unwrap(), gaps.iter().max().unwrap());
            assert!(hi - lo <= 1, "{len}: gaps {lo}..{hi}");
        }
    }
}

//! What `grade` writes: each puzzle's tab-separated line and, with `--explain`, its step log
//! (quiet peer eliminations summed per round), the same as a JSON record, and the summary
//! of puzzles per level.

use std::io::Write;

use serde::Serialize;

use crate::cli::input::Item;
use crate::cli::output::{Entry, InInput, Record};
use crate::grade::Settled;
use crate::grade::{Grade, Labels, Outcome, Step, Technique};
use crate::grid::Pos;

/// The L column: the level, `>8` beyond the maximum level, `-` for a contradiction.
fn level_text(g: &Grade) -> String {
    match (g.outcome, g.level) {
        (Outcome::Contradiction, _) => "-".into(),
        (_, Some(l)) => l.to_string(),
        (_, None) => format!(">{}", g.max_level),
    }
}

/// The difficulty column: a [`crate::grade::Difficulty`] name, else the outcome.
fn difficulty_text(g: &Grade, solutions: Option<u64>) -> &'static str {
    match solutions {
        Some(0) => "no-solution",
        Some(_) => "multiple",
        None => g.difficulty().map_or(g.outcome.name(), |d| d.name()),
    }
}

/// The puzzle's solutions as known: what the techniques showed (each step is a deduction,
/// so a puzzle they fill has one solution, and one they contradict none), else what the
/// short search found for a puzzle they could not finish.
fn solutions_name(outcome: Outcome, settled: Option<Settled>) -> &'static str {
    match (outcome, settled) {
        (Outcome::Solved, _) | (_, Some(Settled::Unique)) => "one",
        (Outcome::Contradiction, _) | (_, Some(Settled::Improper(0))) => "none",
        (_, Some(Settled::Improper(_))) => "multiple",
        (Outcome::Beyond, Some(Settled::Unknown) | None) => "unknown",
    }
}

/// The count a short search settled for a puzzle that is no proper puzzle.
fn improper(settled: Option<Settled>) -> Option<u64> {
    match settled {
        Some(Settled::Improper(c)) => Some(c),
        _ => None,
    }
}

/// One puzzle of the input and its grade, as output.
pub(super) struct Graded<'a> {
    pub(super) item: &'a Item,
    pub(super) grade: &'a Grade,
    /// A roster's names, for the step log and the conflict.
    pub(super) labels: Option<Labels>,
    /// For a puzzle beyond the techniques, what a short search settled: one solution, none
    /// or several (it is then no puzzle to grade), or nothing within its budget.
    pub(super) settled: Option<Settled>,
}

impl Entry for Graded<'_> {
    fn record(&self) -> impl Serialize {
        #[derive(Serialize)]
        struct GradeJson<'a> {
            outcome: &'static str,
            /// `null` beyond the maximum level and for a contradiction (the text's `-`).
            level: Option<u8>,
            max_level: u8,
            steps: u32,
            difficulty: Option<&'static str>,
            /// `one`, `none`, `multiple` (not a proper puzzle) or `unknown`: what the
            /// techniques showed, else what a short search settled.
            solutions: &'static str,
            counts: [u32; 8],
            eliminated: [u64; 8],
            #[serde(skip_serializing_if = "Option::is_none")]
            conflict: Option<String>,
            #[serde(skip_serializing_if = "Option::is_none")]
            log: Option<Vec<StepJson<'a>>>,
        }
        let (g, labels) = (self.grade, self.labels.as_ref());
        Record::new(
            InInput::of(self.item),
            Some(self.item.puzzle.shape()),
            GradeJson {
                outcome: g.outcome.name(),
                level: g.level.filter(|_| g.outcome != Outcome::Contradiction),
                max_level: g.max_level,
                steps: g.steps,
                difficulty: g
                    .difficulty()
                    .map(|d| d.name())
                    .filter(|_| improper(self.settled).is_none()),
                solutions: solutions_name(g.outcome, self.settled),
                counts: g.counts,
                eliminated: g.eliminated,
                conflict: g.conflict.map(|c| c.named(labels).to_string()),
                log: g
                    .log
                    .as_ref()
                    .map(|l| l.iter().map(|s| StepJson::new(s, labels)).collect()),
            },
        )
    }

    /// The tab-separated line, then with `--explain` the step log indented by two spaces.
    fn text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let (g, labels) = (self.grade, self.labels.as_ref());
        let counts: Vec<String> = g.counts.iter().map(u32::to_string).collect();
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}",
            self.item.index + 1,
            self.item.line,
            level_text(g),
            g.steps,
            difficulty_text(g, improper(self.settled)),
            counts.join(",")
        )?;
        if let Some(log) = &g.log {
            write_log(out, log, labels)?;
            match (g.outcome, &g.conflict) {
                (Outcome::Contradiction, Some(c)) => {
                    writeln!(out, "  contradiction: {}", c.named(labels))?;
                }
                (Outcome::Beyond, _) => writeln!(
                    out,
                    "  stuck after step {}: techniques 1..{} leave {} cells blank",
                    g.steps,
                    g.max_level,
                    g.cells.iter().filter(|&&v| v == 0).count()
                )?,
                _ => {}
            }
        }
        Ok(())
    }
}

/// The step log, one line per step, except that peer eliminations that complete no cell
/// are summed into one line per round: as hints they are noise (JSON keeps each of them).
fn write_log(out: &mut dyn Write, log: &[Step], labels: Option<&Labels>) -> std::io::Result<()> {
    let quiet_peer = |s: &Step| s.technique == Technique::PeerElimination && s.places.is_empty();
    let mut i = 0;
    while i < log.len() {
        let s = &log[i];
        if !quiet_peer(s) {
            writeln!(out, "  {}", s.named(labels))?;
            i += 1;
            continue;
        }
        // Every quiet peer elimination of this round (singles may sit between them).
        let (mut cells, mut removed) = (0usize, 0usize);
        for t in log[i..].iter().take_while(|t| t.step == s.step) {
            if quiet_peer(t) {
                cells += 1;
                removed += t.eliminations.len();
            }
        }
        writeln!(
            out,
            "  step {}, level {}, peer elimination: {cells} {} {removed} {} already \
             placed in {} row, column or block",
            s.step,
            s.level,
            if cells == 1 {
                "cell loses"
            } else {
                "cells lose"
            },
            if removed == 1 { "shift" } else { "shifts" },
            if cells == 1 { "its" } else { "their" },
        )?;
        // Print the round's other steps in order, skipping the summed ones.
        i += 1;
        while i < log.len() && log[i].step == s.step {
            if !quiet_peer(&log[i]) {
                writeln!(out, "  {}", log[i].named(labels))?;
            }
            i += 1;
        }
    }
    Ok(())
}

/// A step of the log in JSON: positions are 1-based `[row, column]` (`[row, column,
/// symbol]` for eliminations and placements), houses as in "row 3", "column 4", "block 5".
#[derive(Serialize)]
struct StepJson<'a> {
    step: u32,
    level: u8,
    technique: &'static str,
    text: String,
    houses: Vec<String>,
    cells: Vec<[usize; 2]>,
    symbols: &'a [u8],
    eliminations: Vec<[usize; 3]>,
    places: Vec<[usize; 3]>,
}

impl StepJson<'_> {
    fn new<'a>(s: &'a Step, labels: Option<&Labels>) -> StepJson<'a> {
        let at = |p: Pos| [p.row + 1, p.col + 1];
        StepJson {
            step: s.step,
            level: s.level,
            technique: s.technique.name(),
            text: s.named(labels).to_string(),
            houses: s.houses.iter().map(|h| h.to_string()).collect(),
            cells: s.cells.iter().map(|&p| at(p)).collect(),
            symbols: &s.symbols,
            eliminations: s
                .eliminations
                .iter()
                .map(|e| [e.pos.row + 1, e.pos.col + 1, e.symbol as usize])
                .collect(),
            places: s
                .places
                .iter()
                .map(|e| [e.pos.row + 1, e.pos.col + 1, e.symbol as usize])
                .collect(),
        }
    }
}

/// Puzzles per level and their steps, for the summary line.
#[derive(Default)]
pub(super) struct Tally {
    /// Per slot (L1..L8, beyond, contradiction, no solution, several): puzzles and total
    /// steps.
    per: [(u64, u64); 12],
    total: u64,
    /// Whether the puzzles beyond the levels tried stopped at a lower `--max-level` (the
    /// lines say `beyond`) rather than at level 8 (`extreme`).
    capped: bool,
}

impl Tally {
    /// Counts `g`, with what a short search `settled` for a puzzle beyond the techniques.
    pub(super) fn add(&mut self, g: &Grade, settled: Option<Settled>) {
        self.total += 1;
        let slot = match (g.outcome, g.level) {
            (Outcome::Contradiction, _) => 9,
            // The lines say these are no puzzles to grade.
            _ if improper(settled) == Some(0) => 10,
            _ if improper(settled).is_some() => 11,
            (_, Some(l)) => l as usize - 1,
            (_, None) => {
                self.capped |= g.difficulty().is_none();
                8
            }
        };
        self.per[slot].0 += 1;
        self.per[slot].1 += u64::from(g.steps);
    }

    /// "graded 95 puzzles: L2 3 (mean S 4.0), …, extreme 63 (mean S 20.1)", in the words of
    /// the lines (`beyond` where a lower `--max-level` stopped the grader).
    pub(super) fn summary(&self) -> String {
        let parts: Vec<String> = self
            .per
            .iter()
            .enumerate()
            .filter(|(_, (k, _))| *k > 0)
            .map(|(slot, &(k, s))| {
                let what = match slot {
                    8 if self.capped => "beyond".to_string(),
                    8 => "extreme".to_string(),
                    9 => "contradiction".to_string(),
                    10 => "no-solution".to_string(),
                    11 => "multiple".to_string(),
                    l => format!("L{}", l + 1),
                };
                format!("{what} {k} (mean S {:.1})", s as f64 / k as f64)
            })
            .collect();
        let plural = if self.total == 1 { "" } else { "s" };
        format!("graded {} puzzle{plural}: {}", self.total, parts.join(", "))
    }
}

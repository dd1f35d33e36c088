//! `shiftgrid grade`: rate every puzzle of a file by the human techniques it needs
//! ([`crate::grade`]): technique level L, step count S, a difficulty name and the
//! deductions per level, optionally with the step log as hints.
//!
//! The input is read like `solve`'s: any text form, or a roster CSV (with the name files
//! that map its staff, days and shifts to rows, columns and symbols). Puzzles are graded in
//! parallel (one [`Grader`] per worker thread) and printed in input order. Unreadable
//! puzzles of a text batch are reported as `FILE:LINE:COL: message` and skipped; the exit
//! status is then 65. A bad roster CSV stops the run with `FILE:LINE:FIELD: message`. A
//! puzzle that is not proper is reported on stderr and makes the status 1: its givens lead
//! to a contradiction, or the techniques cannot finish it and a short search ([`short_count`])
//! shows that it has no solution or several. Nothing is written when no puzzle could be
//! read, or when the run is interrupted.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

use anyhow::Result;
use clap::{Args, ValueEnum};
use rayon::prelude::*;
use serde::Serialize;

use super::batch::{batch_progress, finish_batch};
use super::exit::{Exit, final_status};
use super::input::Item;
use super::input::{InputArgs, NameArgs, input_paths, load_puzzles};
use super::output::{Entry, Form, InInput, Record, Sink};
use super::{Ctx, progress};
use crate::grade::{Grade, GradeOptions, Grader, Labels, MAX_LEVEL, Outcome, Step, Technique};
use crate::grid::Pos;

/// Grade puzzles by human techniques: level L (1..8), steps S, difficulty.
///
/// Text output is one tab-separated line per puzzle: puzzle number, input line, L (`>8`
/// when techniques 1..8 cannot finish, `-` for a contradiction), S, difficulty (easy
/// L 1-2, medium 3-5, hard 6-8, extreme beyond 8), and the deductions per level 1..8,
/// comma-separated.
#[derive(Debug, Args)]
pub struct GradeArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output form: text (one tab-separated line per puzzle) or json (one object per line).
    #[arg(long, short, value_enum, default_value_t = GradeFormat::Text)]
    format: GradeFormat,
    /// Print each puzzle's step log after its line (in the record with --format json).
    #[arg(long)]
    explain: bool,
    /// Highest technique level to try (1..8); puzzles that need more are reported beyond it.
    #[arg(long, value_name = "L", default_value_t = MAX_LEVEL,
          value_parser = clap::value_parser!(u8).range(1..=MAX_LEVEL as i64))]
    max_level: u8,
    /// Write to FILE (atomically: a temporary file renamed into place) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    names: NameArgs,
}

/// The output forms of `grade`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum GradeFormat {
    /// Tab-separated lines (step log lines indented by two spaces).
    Text,
    /// One JSON object per puzzle and line.
    Json,
}

/// Runs `shiftgrid grade`, stopping without output when the context's interrupt flag is
/// raised (the Ctrl-C handler raises it).
///
/// Unless quiet, and when stderr is a terminal, a summary (puzzles per level, mean S)
/// follows on stderr.
///
/// # Errors
/// Reading the input or writing the output failed, a roster CSV is bad (exit status 65,
/// nothing written), name files are given without CSV input, `-o` names the input file, or
/// the run was interrupted (exit status 130, nothing written).
pub(super) fn run(ctx: &Ctx, args: &GradeArgs) -> Result<Exit> {
    let (mut input, _) = load_puzzles(&args.input, &args.names, false)?;
    let name = input.name.clone();
    let interrupt = &ctx.control.interrupt;
    let opts = GradeOptions {
        explain: args.explain,
        max_level: args.max_level,
    };
    let bar = batch_progress(ctx, &input);
    let mut sink = Sink::new(match args.format {
        GradeFormat::Text => Form::Text,
        GradeFormat::Json => Form::Json,
    });
    // Puzzles shown not proper: a contradiction, or no or several solutions by search.
    let mut not_proper = 0usize;
    let mut tally = Tally::default();
    // A chunk at a time: bounded memory, and Ctrl-C seen between puzzles.
    loop {
        let chunk = input.chunk(interrupt)?;
        if chunk.is_empty() {
            break;
        }
        let graded: Vec<Option<(Grade, Option<u64>)>> = chunk
            .par_iter()
            .map_init(
                || (None::<Grader>, crate::solve::Workspace::default()),
                |(grader, workspace), item| {
                    if interrupt.load(Ordering::Relaxed) {
                        return None;
                    }
                    let p = &item.puzzle;
                    let g = match grader {
                        Some(g) if g.shape() == p.shape() => g,
                        _ => grader.insert(Grader::new(p.shape())),
                    };
                    let grade = g.grade(p, &opts);
                    let solutions = (grade.outcome == Outcome::Beyond)
                        .then(|| short_count(workspace, p, &ctx.control))
                        .flatten();
                    bar.done.fetch_add(1, Ordering::Relaxed);
                    Some((grade, solutions))
                },
            )
            .collect();
        if interrupt.load(Ordering::Relaxed) || graded.iter().any(Option::is_none) {
            break;
        }
        for (item, (g, solutions)) in chunk.iter().zip(graded.iter().flatten()) {
            let labels = input.labels(item);
            if let Some(conflict) = &g.conflict {
                not_proper += 1;
                msg!(
                    "shiftgrid: {name}:{}: puzzle {} has no solution: {}",
                    item.line,
                    item.index + 1,
                    conflict.named(labels.as_ref())
                );
            }
            match solutions {
                Some(0) => msg!(
                    "shiftgrid: {name}:{}: puzzle {} has no solution (found by search)",
                    item.line,
                    item.index + 1
                ),
                Some(_) => msg!(
                    "shiftgrid: {name}:{}: puzzle {} has more than one solution, so no \
                     technique can finish it",
                    item.line,
                    item.index + 1
                ),
                None => {}
            }
            not_proper += usize::from(solutions.is_some());
            tally.add(g);
            sink.push(&Graded {
                item,
                grade: g,
                labels,
            })?;
        }
    }
    let paths = input_paths(&args.input, &args.names);
    let Some(elapsed) = finish_batch(ctx, bar, input.good, args.output.as_deref(), paths, sink)?
    else {
        // Nothing could be read: write no output at all (not even an empty file).
        return Ok(Exit::DataErr);
    };
    progress::summary(
        ctx.quiet,
        &format!("{} in {:.2} s", tally.summary(), elapsed.as_secs_f64()),
    );
    Ok(final_status(input.bad, not_proper))
}

/// The L column: the level, `>8` beyond the maximum level, `-` for a contradiction.
fn level_text(g: &Grade) -> String {
    match (g.outcome, g.level) {
        (Outcome::Contradiction, _) => "-".into(),
        (_, Some(l)) => l.to_string(),
        (_, None) => format!(">{}", g.max_level),
    }
}

/// The difficulty column: a [`crate::grade::Difficulty`] name, else the outcome.
fn difficulty_text(g: &Grade) -> &'static str {
    g.difficulty().map_or(g.outcome.name(), |d| d.name())
}

/// One puzzle of the input and its grade, as output.
struct Graded<'a> {
    item: &'a Item,
    grade: &'a Grade,
    /// A roster's names, for the step log and the conflict.
    labels: Option<Labels>,
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
            counts: [u32; 8],
            eliminated: [u64; 8],
            #[serde(skip_serializing_if = "Option::is_none")]
            conflict: Option<String>,
            #[serde(skip_serializing_if = "Option::is_none")]
            log: Option<Vec<StepJson<'a>>>,
        }
        let (g, labels) = (self.grade, self.labels.as_ref());
        Record::new(
            InInput::new(self.item.index, self.item.line),
            Some(self.item.puzzle.shape()),
            GradeJson {
                outcome: g.outcome.name(),
                level: g.level.filter(|_| g.outcome != Outcome::Contradiction),
                max_level: g.max_level,
                steps: g.steps,
                difficulty: g.difficulty().map(|d| d.name()),
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
            difficulty_text(g),
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

/// Dancing-links nodes [`short_count`] may spend on a puzzle.
const SHORT_COUNT_NODES: u64 = 50_000;

/// For a puzzle the techniques cannot finish: `Some(0)` or `Some(2)` when a short search
/// (at most [`SHORT_COUNT_NODES`] nodes, so the answer is the same on every machine) shows
/// that it has no solution or more than one, `None` when it has one or the search could
/// not tell within its nodes.
fn short_count(
    workspace: &mut crate::solve::Workspace,
    puzzle: &crate::grid::Puzzle,
    control: &crate::solve::SearchControl,
) -> Option<u64> {
    use crate::solve::{Engine, SolveLimits};
    let limits = SolveLimits {
        node_limit: SHORT_COUNT_NODES,
        keep: 0,
        ..SolveLimits::count_up_to(2)
    };
    let o = workspace
        .solve(puzzle, Engine::Dlx, &limits, control)
        .ok()?;
    match (o.count, o.complete) {
        (0, true) => Some(0),
        (c, _) if c >= 2 => Some(c),
        _ => None,
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
struct Tally {
    /// Per slot (L1..L8, beyond, contradiction): puzzles and total steps.
    per: [(u64, u64); 10],
    total: u64,
}

impl Tally {
    fn add(&mut self, g: &Grade) {
        self.total += 1;
        let slot = match (g.outcome, g.level) {
            (Outcome::Contradiction, _) => 9,
            (_, Some(l)) => l as usize - 1,
            (_, None) => 8,
        };
        self.per[slot].0 += 1;
        self.per[slot].1 += u64::from(g.steps);
    }

    /// "graded 95 puzzles: L2 3 (mean S 4.0), …, beyond 63 (mean S 20.1)".
    fn summary(&self) -> String {
        let parts: Vec<String> = self
            .per
            .iter()
            .enumerate()
            .filter(|(_, (k, _))| *k > 0)
            .map(|(slot, &(k, s))| {
                let what = match slot {
                    8 => "beyond".to_string(),
                    9 => "contradiction".to_string(),
                    l => format!("L{}", l + 1),
                };
                format!("{what} {k} (mean S {:.1})", s as f64 / k as f64)
            })
            .collect();
        format!("graded {} puzzles: {}", self.total, parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::SearchControl;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Wrapper {
        #[command(flatten)]
        args: GradeArgs,
    }

    fn args(argv: &[&str]) -> GradeArgs {
        Wrapper::try_parse_from(std::iter::once("grade").chain(argv.iter().copied()))
            .expect("valid arguments")
            .args
    }

    /// Runs `grade` quietly, with the interrupt flag already raised when `interrupted`.
    fn run_with(args: &GradeArgs, interrupted: bool) -> Result<Exit> {
        let ctx = Ctx {
            quiet: true,
            control: SearchControl::default(),
        };
        ctx.control.interrupt.store(interrupted, Ordering::Relaxed);
        run(&ctx, args)
    }

    fn run_to_string(argv: &[&str], input: &str) -> (Exit, String) {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let inp = dir.path().join("in.txt");
        let outp = dir.path().join("out.txt");
        std::fs::write(&inp, input).expect("writable temp dir");
        let (i, o) = (inp.display().to_string(), outp.display().to_string());
        let mut full = vec![i.as_str(), "-o", o.as_str()];
        full.extend_from_slice(argv);
        let exit = run_with(&args(&full), false).expect("runs");
        let text = std::fs::read_to_string(&outp).unwrap_or_default();
        (exit, text)
    }

    const DEMO: &str =
        "006200080008970000004810500000060002070000030600050000002047100003028400050001200\n";

    #[test]
    fn arguments() {
        Wrapper::command_for_test();
        let a = args(&[]);
        assert_eq!(a.input.input, PathBuf::from("-"));
        assert_eq!(
            (a.format, a.explain, a.max_level),
            (GradeFormat::Text, false, 8)
        );
        let a = args(&["x.txt", "--format", "json", "--explain", "--max-level", "3"]);
        assert_eq!(
            (a.format, a.explain, a.max_level),
            (GradeFormat::Json, true, 3)
        );
        assert!(Wrapper::try_parse_from(["grade", "--max-level", "9"]).is_err());
        assert!(Wrapper::try_parse_from(["grade", "--max-level", "0"]).is_err());
    }

    impl Wrapper {
        fn command_for_test() {
            use clap::CommandFactory;
            Wrapper::command().debug_assert();
        }
    }

    #[test]
    fn text_line_per_puzzle() {
        let (exit, text) = run_to_string(&[], &format!("{DEMO}{DEMO}"));
        assert_eq!(exit, Exit::Success);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        let fields: Vec<&str> = lines[1].split('\t').collect();
        assert_eq!(fields.len(), 6);
        assert_eq!(&fields[..2], ["2", "2"]);
        let level: u8 = fields[2].parse().expect("a solved level");
        let steps: u32 = fields[3].parse().expect("a step count");
        assert!((1..=8).contains(&level) && steps > 0);
        assert_eq!(fields[5].split(',').count(), 8);
        assert_eq!(
            lines[0].split('\t').skip(2).collect::<Vec<_>>(),
            fields[2..]
        );
    }

    #[test]
    fn explain_prints_the_log_and_json_carries_it() {
        let (_, text) = run_to_string(&["--explain"], DEMO);
        let mut lines = text.lines();
        assert!(lines.next().is_some_and(|l| l.starts_with("1\t1\t")));
        let first = lines.next().expect("a step");
        assert!(first.starts_with("  step 1, level 1, "), "{first}");
        let (_, json) = run_to_string(&["--explain", "--format", "json"], DEMO);
        let v: serde_json::Value = serde_json::from_str(json.trim()).expect("one JSON line");
        assert_eq!(v["outcome"], "solved");
        assert_eq!(v["size"], 9);
        let log = v["log"].as_array().expect("a log");
        assert_eq!(log[0]["step"], 1);
        assert!(
            log[0]["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("step 1"))
        );
        let (_, json) = run_to_string(&["--format", "json"], DEMO);
        assert!(!json.contains("\"log\""));
    }

    #[test]
    fn beyond_and_contradiction() {
        // An empty 4x4 (many solutions) and a 4x4 whose staff 1 / day 4 has no shift left.
        let input = "................\n123....4........\n";
        let (exit, text) = run_to_string(&["--explain"], input);
        assert_eq!(exit, Exit::NotProper);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("1\t1\t>8\t0\textreme\t"),
            "{}",
            lines[0]
        );
        assert!(lines[1].contains("stuck after step 0"), "{}", lines[1]);
        assert!(
            lines[2].starts_with("2\t2\t-\t1\tcontradiction\t"),
            "{}",
            lines[2]
        );
        assert!(text.contains("contradiction: staff 1 / day 4 has no shift left"));
        let (_, text) = run_to_string(&["--max-level", "1"], "................\n");
        assert!(text.starts_with("1\t1\t>1\t0\tbeyond\t"), "{text}");
        // JSON says the same: the outcome by name, no level for a contradiction.
        let (_, json) = run_to_string(&["-f", "json"], "123....4........\n");
        assert!(
            json.contains("\"outcome\":\"contradiction\",\"level\":null,"),
            "{json}"
        );
        assert!(json.contains("\"difficulty\":null"), "{json}");
    }

    #[test]
    fn bad_puzzles_are_skipped_with_status_65() {
        let (exit, text) = run_to_string(&[], &format!("{DEMO}1234\n{DEMO}"));
        assert_eq!(exit, Exit::DataErr);
        let numbers: Vec<&str> = text
            .lines()
            .map(|l| l.split('\t').next().unwrap_or(""))
            .collect();
        assert_eq!(numbers, ["1", "3"]);
        // Nothing readable: no output file at all.
        let dir = tempfile::tempdir().expect("a temporary directory");
        let inp = dir.path().join("in.txt");
        let outp = dir.path().join("out.txt");
        std::fs::write(&inp, "1234\n").expect("writable");
        let a = args(&[
            &inp.display().to_string(),
            "-o",
            &outp.display().to_string(),
        ]);
        assert_eq!(run_with(&a, false).expect("runs"), Exit::DataErr);
        assert!(!outp.exists());
    }

    #[test]
    fn refuses_to_overwrite_its_input() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let inp = dir.path().join("in.txt");
        std::fs::write(&inp, DEMO).expect("writable");
        let p = inp.display().to_string();
        let err = run_with(&args(&[&p, "-o", &p]), false).expect_err("refused");
        assert_eq!(crate::cli::exit_code_of(&err), Exit::Usage);
        assert_eq!(std::fs::read_to_string(&inp).expect("still there"), DEMO);
    }

    #[test]
    fn interrupted_writes_nothing() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let inp = dir.path().join("in.txt");
        let outp = dir.path().join("out.txt");
        std::fs::write(&inp, DEMO).expect("writable");
        let a = args(&[
            &inp.display().to_string(),
            "-o",
            &outp.display().to_string(),
        ]);
        let err = run_with(&a, true).expect_err("interrupted");
        assert_eq!(crate::cli::exit_code_of(&err), Exit::Interrupted);
        assert!(!outp.exists());
    }
}

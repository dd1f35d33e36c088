//! Grading benchmark (issue 7): 9×9 puzzles graded per second on one core over whole
//! puzzle sets, and the time to grade generated large puzzles.
//!
//! 9×9 sets come from `../shared/peers` (magictour_top1465, norvig_top95,
//! project_euler_96), falling back to the committed `grids/top95.txt` when that folder is
//! absent. Each set is cycled through one reused `Grader` for about a second, three times;
//! the best rate is reported, with and without the step log. Large puzzles are made with
//! `generate` (default settings, outside the timing) and graded five times; the median is
//! reported.
//!
//! Run: `cargo bench --bench grade`; knobs: `GRADE_BOXES=5,10` (box sizes of the generated
//! puzzles, default 5 and 10), `GRADE_SEEDS=N` (generated puzzles per size, default 1).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use shiftgrid::Puzzle;
use shiftgrid::Shape;
use shiftgrid::generate::{GenerateConfig, generate};
use shiftgrid::grade::{GradeOptions, Grader, Outcome};
use shiftgrid::io::parse::{ParseOptions, parse_puzzles};
use shiftgrid::solve::SearchControl;

fn load(path: &Path) -> Option<Vec<Puzzle>> {
    let text = std::fs::read_to_string(path).ok()?;
    let list: Vec<Puzzle> = parse_puzzles(&text, &ParseOptions::default())
        .into_iter()
        .filter_map(|r| r.puzzle.ok())
        .collect();
    (!list.is_empty()).then_some(list)
}

/// Puzzles per second over `list`, cycling it for about `budget`; best of three runs.
fn rate(list: &[Puzzle], opts: &GradeOptions, budget: Duration) -> f64 {
    let mut grader = Grader::new(list[0].shape());
    let mut best = 0f64;
    for _ in 0..3 {
        let start = Instant::now();
        let mut done = 0usize;
        while start.elapsed() < budget {
            for p in list {
                std::hint::black_box(grader.grade(std::hint::black_box(p), opts));
            }
            done += list.len();
        }
        best = best.max(done as f64 / start.elapsed().as_secs_f64());
    }
    best
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let peers = root.join("../shared/peers");
    let mut sets: Vec<(String, Vec<Puzzle>)> =
        ["magictour_top1465", "norvig_top95", "project_euler_96"]
            .iter()
            .filter_map(|name| {
                Some((
                    name.to_string(),
                    load(&peers.join(name).join("puzzles.txt"))?,
                ))
            })
            .collect();
    if sets.is_empty() {
        eprintln!("note: ../shared/peers is absent; timing grids/top95.txt only");
        if let Some(list) = load(&root.join("grids/top95.txt")) {
            sets.push(("grids/top95".into(), list));
        }
    }
    let fast = GradeOptions::default();
    let explain = GradeOptions {
        explain: true,
        ..GradeOptions::default()
    };
    println!("9x9, one core, one reused Grader:\n");
    println!("| set | puzzles | graded/s | graded/s with --explain log | µs/puzzle |");
    println!("|---|---|---|---|---|");
    for (name, list) in &sets {
        let r = rate(list, &fast, Duration::from_secs(1));
        let e = rate(list, &explain, Duration::from_millis(500));
        println!(
            "| {name} | {} | {r:.0} | {e:.0} | {:.1} |",
            list.len(),
            1e6 / r
        );
    }

    let boxes: Vec<usize> = std::env::var("GRADE_BOXES")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![5, 10]);
    let seeds: u64 = std::env::var("GRADE_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    println!("\nGenerated puzzles (default generate settings), median of 5 gradings:\n");
    println!("| size | seed | givens | outcome | L | S | grade time | with log |");
    println!("|---|---|---|---|---|---|---|---|");
    for b in boxes {
        let Ok(shape) = Shape::new(b) else {
            eprintln!("skipping unsupported box size {b}");
            continue;
        };
        for seed in 0..seeds {
            let cfg = GenerateConfig::for_shape(shape, seed);
            let Some(g) = generate(shape, &cfg, &SearchControl::default()) else {
                continue;
            };
            let mut grader = Grader::new(shape);
            let time = |opts: &GradeOptions, grader: &mut Grader| {
                median(
                    (0..5)
                        .map(|_| {
                            let t = Instant::now();
                            std::hint::black_box(grader.grade(&g.puzzle, opts));
                            t.elapsed().as_secs_f64()
                        })
                        .collect(),
                )
            };
            let t_fast = time(&fast, &mut grader);
            let t_log = time(&explain, &mut grader);
            let grade = grader.grade(&g.puzzle, &fast);
            let level = match (grade.outcome, grade.level) {
                (Outcome::Beyond, _) => ">8".to_string(),
                (_, Some(l)) => l.to_string(),
                (_, None) => "-".to_string(),
            };
            println!(
                "| {shape} | {seed} | {} | {} | {level} | {} | {:.2} ms | {:.2} ms |",
                g.puzzle.givens(),
                grade.outcome,
                grade.steps,
                t_fast * 1e3,
                t_log * 1e3
            );
        }
    }
}

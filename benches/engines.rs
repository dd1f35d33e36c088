//! Puzzles per second for every engine on the published sets, side by side in one run, and
//! how close `auto` comes to the fastest single engine on each set.
//!
//! Each engine solves each set as `shiftgrid count` does (count up to 2, one
//! [`Workspace`] reused across the set, on the calling thread; a portfolio adds its own
//! threads), repeated until at least `ENGINES_SECS` seconds (default 2) have passed. A puzzle
//! that takes an engine longer than `ENGINES_TIMEOUT` seconds (default 20) ends that engine's
//! run on the set, which then shows as `timeout`.
//!
//! Run: `cargo bench --bench engines` (sets from `../shared/peers`, or the committed fixtures
//! where the peers are absent). The table it prints is the one in README ("Solving").

use std::path::Path;
use std::time::{Duration, Instant};

use shiftgrid::Puzzle;
use shiftgrid::io::parse::{ParseOptions, parse_puzzles};
use shiftgrid::solve::{Engine, SearchControl, SolveLimits, Workspace};

fn load(paths: &[&str]) -> Option<Vec<Puzzle>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = paths
        .iter()
        .find_map(|p| std::fs::read_to_string(root.join(p)).ok())?;
    let puzzles: Vec<Puzzle> = parse_puzzles(&text, &ParseOptions::default())
        .into_iter()
        .filter_map(|r| r.puzzle.ok())
        .collect();
    (!puzzles.is_empty()).then_some(puzzles)
}

fn env_secs(name: &str, default: f64) -> Duration {
    let secs = std::env::var(name)
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or(default);
    Duration::from_secs_f64(secs)
}

/// Puzzles per second of `engine` on `set`, or `None` when a puzzle timed out.
fn rate(set: &[Puzzle], engine: Engine, min: Duration, timeout: Duration) -> Option<f64> {
    let limits = SolveLimits::count_up_to(2);
    let mut ws = Workspace::new(false);
    let start = Instant::now();
    let mut solved = 0u64;
    while solved == 0 || start.elapsed() < min {
        for p in set {
            let control = SearchControl::default().with_deadline(Some(Instant::now() + timeout));
            let o = ws
                .solve(p, engine, &limits, &control)
                .expect("valid puzzles");
            if !o.complete {
                return None;
            }
            solved += 1;
        }
    }
    Some(solved as f64 / start.elapsed().as_secs_f64())
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument picks sets by name.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let min = env_secs("ENGINES_SECS", 2.0);
    let timeout = env_secs("ENGINES_TIMEOUT", 20.0);
    let sets: [(&str, &[&str]); 5] = [
        (
            "norvig top95",
            &[
                "../shared/peers/norvig_top95/puzzles.txt",
                "grids/top95.txt",
            ],
        ),
        (
            "magictour top1465",
            &["../shared/peers/magictour_top1465/puzzles.txt"],
        ),
        (
            "forum hardest 1905 11+",
            &["../shared/peers/forum_hardest_1905_11plus/puzzles.txt"],
        ),
        (
            "janko 16x16",
            &[
                "../shared/peers/gecode_16x16_janko/puzzles.numeric.txt",
                "grids/janko_16x16.txt",
            ],
        ),
        (
            "bprolog 25x25",
            &["../shared/peers/bprolog_25x25/puzzles.numeric.txt"],
        ),
    ];
    let engines: Vec<Engine> = Engine::ALL
        .iter()
        .copied()
        .filter(|&e| e != Engine::Auto)
        .collect();
    print!("| set | puzzles |");
    for e in &engines {
        print!(" {e} |");
    }
    println!(" auto | auto / fastest |");
    println!("|---|---|{}---|---|", "---|".repeat(engines.len()));
    for (name, paths) in sets {
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let Some(mut set) = load(paths) else {
            eprintln!("note: {name}: no puzzle file found, skipped");
            continue;
        };
        // The forum set has 48,639 puzzles: its first 1,000 are plenty for a rate.
        set.truncate(1000);
        print!("| {name} | {} |", set.len());
        let mut best: Option<f64> = None;
        for &e in &engines {
            let r = rate(&set, e, min, timeout);
            match r {
                Some(r) => print!(" {} |", per_sec(r)),
                None => print!(" timeout |"),
            }
            if let Some(r) = r {
                best = Some(best.map_or(r, |b: f64| b.max(r)));
            }
        }
        let auto = rate(&set, Engine::Auto, min, timeout);
        match (auto, best) {
            (Some(a), Some(b)) => println!(" {} | {:.2} |", per_sec(a), a / b),
            (Some(a), None) => println!(" {} | - |", per_sec(a)),
            _ => println!(" timeout | - |"),
        }
    }
}

fn per_sec(r: f64) -> String {
    if r >= 100.0 {
        format!("{:.0}/s", r)
    } else {
        format!("{r:.2}/s")
    }
}

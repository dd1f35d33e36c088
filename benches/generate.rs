//! Puzzle generation benchmark: for each box size, the median time to a puzzle over a run
//! of seeds, the fraction of givens left, checks per second, and how the checks ended.
//! Uses the same defaults as `shiftgrid generate` (minimal up to 25×25, propagation proofs
//! above, the bands order, rot180), on every core of the machine; from 25×25 up, also with
//! no symmetry, with the sweep order and with the random order (one pass of propagation
//! proofs) for comparison, each on a random grid without rounds of improvement (the 25×25
//! default's automorphic grid and rounds are in the default row only; the mode column
//! says how many rounds ran). Then a `--count` throughput figure at 9×9.
//!
//! Run: `cargo bench --bench generate`; knobs: `GEN_SEEDS=N` (default 10),
//! `GEN_BOXES=3,4,5` (default 3..10).

use std::time::Instant;

use rayon::prelude::*;
use shiftgrid::Shape;
use shiftgrid::generate::{Fallback, GenerateConfig, GridKind, Order, Symmetry, Target, generate};
use shiftgrid::solve::SearchControl;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

fn main() {
    let seeds: u64 = std::env::var("GEN_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    let boxes: Vec<usize> = std::env::var("GEN_BOXES")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| (3..=10).collect());
    println!(
        "| size | symmetry, order | mode | median time | median givens | checks/s | by propagation | by search | refuted | unproven |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let variants = [
        (Symmetry::Rot180, Order::Bands, "rot180, bands (default)"),
        (Symmetry::None, Order::Bands, "none, bands"),
        (Symmetry::Rot180, Order::Sweep, "rot180, sweep"),
        (Symmetry::Rot180, Order::Random, "rot180, random"),
    ];
    for b in boxes {
        let shape = Shape::new(b).expect("bench sizes are supported");
        let variants = if b <= 4 {
            &variants[..1]
        } else {
            &variants[..]
        };
        for (k, &(symmetry, order, label)) in variants.iter().enumerate() {
            row(shape, seeds, symmetry, order, label, k > 0);
        }
    }
    count_throughput();
}

/// One table row: `seeds` puzzles of `shape` with the defaults but `symmetry` and `order`,
/// and with `plain` on a random grid without rounds.
fn row(shape: Shape, seeds: u64, symmetry: Symmetry, order: Order, label: &str, plain: bool) {
    {
        let mut times = Vec::new();
        let mut givens = Vec::new();
        let (mut checks, mut micros) = (0u64, 0u64);
        let mut by = [0u64; 4];
        let mut mode = String::new();
        for seed in 0..seeds {
            let mut cfg = GenerateConfig {
                order,
                ..GenerateConfig::with_symmetry(shape, seed, symmetry)
            };
            if plain {
                cfg.grid = GridKind::Random;
                cfg.improve = 0;
            }
            if order == Order::Random {
                // Complete proofs in the random order take minutes at 25×25 (README): the
                // comparison row is one pass of propagation proofs at every size.
                cfg.target = Target::Pass;
                cfg.fallback = Fallback::None;
            }
            let t = Instant::now();
            let g = generate(shape, &cfg, &SearchControl::default()).expect("not interrupted");
            times.push(t.elapsed().as_secs_f64());
            givens.push(g.puzzle.givens() as f64 / shape.cells() as f64);
            mode = match (g.minimal, g.stats.rounds) {
                (false, _) => "one pass".to_string(),
                (true, 0) => "minimal".to_string(),
                (true, r) => format!("minimal, {r} rounds"),
            };
            let s = g.stats;
            checks += s.checks;
            micros += s.micros - s.fill_micros;
            for (slot, v) in
                by.iter_mut()
                    .zip([s.by_propagation, s.by_search, s.refuted, s.unproven])
            {
                *slot += v;
            }
        }
        let pct = |v: u64| format!("{:.0}%", 100.0 * v as f64 / checks.max(1) as f64);
        println!(
            "| {0}x{0} | {label} | {mode} | {1:.3} s | {2:.1}% | {3:.0} | {4} | {5} | {6} | {7} |",
            shape.side(),
            median(times),
            100.0 * median(givens),
            checks as f64 / (micros.max(1) as f64 / 1e6),
            pct(by[0]),
            pct(by[1]),
            pct(by[2]),
            pct(by[3]),
        );
    }
}

/// Throughput of minimal 9x9 puzzles, many at once (what `--count` does).
fn count_throughput() {
    let shape = Shape::new(3).expect("9x9");
    let n = 2000u64;
    let t = Instant::now();
    let total: usize = (0..n)
        .into_par_iter()
        .map(|seed| {
            let cfg = GenerateConfig {
                check_threads: 1,
                ..GenerateConfig::for_shape(shape, seed)
            };
            let g = generate(shape, &cfg, &SearchControl::default()).expect("not interrupted");
            assert!(g.minimal);
            g.puzzle.givens()
        })
        .sum();
    let secs = t.elapsed().as_secs_f64();
    println!(
        "\n9x9 minimal puzzles, {n} in parallel on {} threads: {:.0} puzzles/s, mean {:.1} givens",
        rayon::current_num_threads(),
        n as f64 / secs,
        total as f64 / n as f64
    );
}

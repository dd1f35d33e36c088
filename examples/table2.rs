//! Reproduces Table 2 of the difficulty paper (Ishida et al., `../shared/REFERENCES.md`):
//! puzzles made by empty-cell expansion (point symmetry, techniques 1..8), counted per
//! technique level L with the mean and maximum step count S, beside the paper's figures.
//!
//! Run: `cargo run --release --example table2` (6,000 9×9 puzzles, a few seconds on two
//! cores). Options: `--count M` (default 6000), `--seed S` (default 1), `--box B` (default
//! 3; the paper's figures are for 9×9 only), `--max-level L` (default 8). Puzzle `i` is
//! made from `batch_seed(seed, i)`, as `shiftgrid generate --method expand --count M`
//! makes it, so the table is reproducible.

use std::time::Instant;

use rayon::prelude::*;
use shiftgrid::Shape;
use shiftgrid::generate::Order;
use shiftgrid::generate::expand::{ExpandConfig, expand};
use shiftgrid::generate::fill::batch_seed;
use shiftgrid::solve::SearchControl;

/// The paper's Table 2, expansion columns: count, mean S, max S for L = 1..8.
const PAPER: [(u32, f64, u32); 8] = [
    (5318, 4.9, 18),
    (440, 9.2, 20),
    (18, 9.7, 18),
    (47, 9.2, 16),
    (30, 9.5, 16),
    (7, 9.1, 11),
    (11, 10.2, 15),
    (22, 10.1, 18),
];

/// The paper's Table 2, published-puzzle column: mean S for L = 1..8.
const PUBLISHED_MEAN_S: [f64; 8] = [15.7, 19.1, 21.0, 22.7, 23.1, 24.0, 24.7, 28.6];

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    match args.iter().position(|a| a == name) {
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{name} takes a number")),
        None => default,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count = arg(&args, "--count", 6000);
    let seed = arg(&args, "--seed", 1);
    let b = arg(&args, "--box", 3) as usize;
    let max_level = arg(&args, "--max-level", 8) as u8;
    let sweep = args.iter().any(|a| a == "--sweep");
    let shape = Shape::new(b).expect("--box is 2..10");
    let start = Instant::now();
    let grades: Vec<(u8, u32, usize)> = (0..count)
        .into_par_iter()
        .map(|i| {
            let cfg = ExpandConfig {
                max_level,
                order: if sweep { Order::Sweep } else { Order::Random },
                ..ExpandConfig::new(batch_seed(seed, i))
            };
            let e = expand(shape, &cfg, &SearchControl::default()).expect("not interrupted");
            let level = e.grade.level.expect("expanded puzzles are solved");
            (level, e.grade.steps, e.puzzle.givens())
        })
        .collect();
    let secs = start.elapsed().as_secs_f64();
    let n = shape.side();
    println!(
        "{count} {n}x{n} puzzles by empty-cell expansion (rot180, techniques 1..{max_level}, \
         seed {seed}) in {secs:.1} s; mean givens {:.1}",
        grades.iter().map(|g| g.2 as f64).sum::<f64>() / count as f64
    );
    println!();
    println!("| L | count | paper | mean S | paper | max S | paper | published mean S |");
    println!("|---|---|---|---|---|---|---|---|");
    for level in 1..=8u8 {
        let s: Vec<u32> = grades
            .iter()
            .filter(|g| g.0 == level)
            .map(|g| g.1)
            .collect();
        let (paper_count, paper_mean, paper_max) = PAPER[level as usize - 1];
        let mean = if s.is_empty() {
            "–".to_string()
        } else {
            format!("{:.1}", s.iter().sum::<u32>() as f64 / s.len() as f64)
        };
        let max = s.iter().max().map_or("–".to_string(), |m| m.to_string());
        println!(
            "| {level} | {} | {paper_count} | {mean} | {paper_mean} | {max} | {paper_max} | {} |",
            s.len(),
            PUBLISHED_MEAN_S[level as usize - 1]
        );
    }
}

//! The genetic algorithm against the paper's hand-made puzzles: for each target level
//! `L_t`, runs `shiftgrid::generate::ga` over several seeds and prints the levels reached,
//! the mean and maximum step count S, and the time, beside the paper's mean S for
//! published puzzles (9×9) and empty-cell expansion's own mean S at that size and level.
//!
//! Run: `cargo run --release --example ga_levels` (9×9, levels 1..8, seeds 0..10).
//! Options: `--box B`, `--levels 1,2,3`, `--seeds N`, `--first-seed S`, `--generations G`,
//! `--population P`, `--time-limit SECS` (per run), `--expand N` (expansion puzzles for
//! the comparison column, default 2000 at 9×9, fewer above), `--no-symmetry`, and the GA's
//! knobs `--drop-trials`, `--tournament`, `--mutations`, `--crossover-percent`,
//! `--restart-after`, `--climb-rounds`, `--climb-plateau`. `GA_VERBOSE=1` prints each
//! seed's result.

use std::time::{Duration, Instant};

use rayon::prelude::*;
use shiftgrid::Shape;
use shiftgrid::generate::expand::{ExpandConfig, expand};
use shiftgrid::generate::fill::batch_seed;
use shiftgrid::generate::ga::{GaConfig, evolve};
use shiftgrid::solve::SearchControl;

/// The paper's Table 2, published puzzles: mean S for L = 1..8 (9×9 only).
const PUBLISHED_MEAN_S: [f64; 8] = [15.7, 19.1, 21.0, 22.7, 23.1, 24.0, 24.7, 28.6];

fn value<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    let i = args.iter().position(|a| a == name)?;
    Some(
        args.get(i + 1)
            .map(String::as_str)
            .unwrap_or_else(|| panic!("{name} takes a value")),
    )
}

fn num(args: &[String], name: &str) -> Option<u64> {
    value(args, name).map(|v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name} takes a number"))
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let b = num(&args, "--box").unwrap_or(3) as usize;
    let shape = Shape::new(b).expect("--box is 2..10");
    let levels: Vec<u8> = value(&args, "--levels")
        .map(|v| {
            v.split(',')
                .map(|l| l.parse().expect("levels are 1..8"))
                .collect()
        })
        .unwrap_or_else(|| (1..=8).collect());
    let seeds = num(&args, "--seeds").unwrap_or(10);
    let first_seed = num(&args, "--first-seed").unwrap_or(0);
    let expand_count = num(&args, "--expand").unwrap_or(match b {
        0..=3 => 2000,
        4 => 300,
        _ => 60,
    });
    let n = shape.side();

    // Expansion's own mean S per level at this size, for the comparison column.
    let start = Instant::now();
    let expanded: Vec<(u8, u32)> = (0..expand_count)
        .into_par_iter()
        .map(|i| {
            let e = expand(
                shape,
                &ExpandConfig::new(batch_seed(1, i)),
                &SearchControl::default(),
            )
            .expect("not interrupted");
            (e.grade.level.expect("solved"), e.grade.steps)
        })
        .collect();
    eprintln!(
        "{expand_count} expansions in {:.1} s",
        start.elapsed().as_secs_f64()
    );

    let symmetry = if args.iter().any(|a| a == "--no-symmetry") {
        "no symmetry"
    } else {
        "rot180"
    };
    println!(
        "GA at {n}x{n}, seeds {first_seed}..{}, {symmetry}; expansion column: {expand_count} \
         puzzles (rot180, techniques 1..8, seeds batch_seed(1, i))",
        first_seed + seeds
    );
    println!();
    println!(
        "| target L | achieved L | mean S | max S | published mean S | expansion mean S (count) | \
         mean givens | time per run (mean, max) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for &level in &levels {
        let mut cfg = GaConfig::for_shape(shape, 0, level);
        if let Some(g) = num(&args, "--generations") {
            cfg.generations = g as u32;
        }
        if let Some(p) = num(&args, "--population") {
            cfg.population = p as usize;
        }
        if let Some(t) = num(&args, "--drop-trials") {
            cfg.drop_trials = Some(t as usize);
        }
        if let Some(t) = num(&args, "--tournament") {
            cfg.tournament = t as usize;
        }
        if let Some(t) = num(&args, "--mutations") {
            cfg.mutations = t as usize;
        }
        if let Some(t) = num(&args, "--crossover-percent") {
            cfg.crossover = t as f64 / 100.0;
        }
        if let Some(t) = num(&args, "--restart-after") {
            cfg.restart_after = Some(t as u32);
        }
        if let Some(t) = num(&args, "--climb-rounds") {
            cfg.climb_rounds = t as u32;
        }
        if let Some(t) = num(&args, "--climb-plateau") {
            cfg.climb_plateau = t as u32;
        }
        if args.iter().any(|a| a == "--no-symmetry") {
            cfg.symmetry = shiftgrid::generate::Symmetry::None;
        }
        if let Some(t) = num(&args, "--time-limit") {
            cfg.time_limit = Some(Duration::from_secs(t));
        }
        let mut achieved = [0u32; 9];
        let mut steps = Vec::new();
        let mut givens = 0usize;
        let mut times = Vec::new();
        for seed in first_seed..first_seed + seeds {
            let t = Instant::now();
            let e = evolve(
                shape,
                &GaConfig { seed, ..cfg },
                &SearchControl::default(),
                None,
            )
            .expect("not interrupted");
            times.push(t.elapsed().as_secs_f64());
            if std::env::var_os("GA_VERBOSE").is_some() {
                eprintln!("seed {seed}: L {:?} S {}", e.grade.level, e.grade.steps);
            }
            let l = e.grade.level.expect("solved");
            achieved[l as usize] += 1;
            if l == level {
                steps.push(e.grade.steps);
            }
            givens += e.puzzle.givens();
        }
        let achieved_text: Vec<String> = (1..=8)
            .filter(|&l| achieved[l] > 0)
            .map(|l| format!("{l}: {}", achieved[l]))
            .collect();
        let mean_s = if steps.is_empty() {
            "–".to_string()
        } else {
            format!(
                "{:.1}",
                steps.iter().sum::<u32>() as f64 / steps.len() as f64
            )
        };
        let max_s = steps.iter().max().map_or("–".to_string(), u32::to_string);
        let published = if b == 3 {
            PUBLISHED_MEAN_S[level as usize - 1].to_string()
        } else {
            "–".to_string()
        };
        let ex: Vec<u32> = expanded
            .iter()
            .filter(|e| e.0 == level)
            .map(|e| e.1)
            .collect();
        let ex_text = if ex.is_empty() {
            "– (0)".to_string()
        } else {
            format!(
                "{:.1} ({})",
                ex.iter().sum::<u32>() as f64 / ex.len() as f64,
                ex.len()
            )
        };
        println!(
            "| {level} | {} | {mean_s} | {max_s} | {published} | {ex_text} | {:.1} | {:.1} s, {:.1} s |",
            achieved_text.join(", "),
            givens as f64 / seeds as f64,
            times.iter().sum::<f64>() / times.len() as f64,
            times.iter().cloned().fold(0.0, f64::max),
        );
    }
}

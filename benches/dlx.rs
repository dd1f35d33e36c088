//! Criterion benchmarks of the exact-cover engine on published puzzle sets.
//!
//! Each iteration solves a whole set (cycling through it, as Emerentius' benches do), so the
//! reported time divided by the set size is the time per puzzle. Sets come from
//! `../shared/peers` when it is beside the checkout, else from the fixtures in `grids/`.
//!
//! Two set-ups are timed: `batch_*` reuses one [`BatchSolver`] for the whole set, as
//! `shiftgrid solve` and `count` do for 9x9 and 16x16 batches, and `new_*` builds a
//! [`Solver`] (the puzzle's own reduced matrix) per puzzle, as library users with one
//! puzzle do.
//!
//! Run: `cargo bench --bench dlx`.

use std::path::Path;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use shiftgrid::Puzzle;
use shiftgrid::io::parse::{ParseOptions, parse_puzzles};
use shiftgrid::solve::{
    SearchControl, SolveLimits,
    dlx::{BatchSolver, Solver},
};

fn load(path: &str, limit: usize) -> Option<Vec<Puzzle>> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).ok()?;
    let puzzles: Vec<Puzzle> = parse_puzzles(&text, &ParseOptions::default())
        .into_iter()
        .filter_map(|r| r.puzzle.ok())
        .take(limit)
        .collect();
    (!puzzles.is_empty()).then_some(puzzles)
}

fn sets() -> Vec<(&'static str, Vec<Puzzle>)> {
    let mut out = Vec::new();
    let candidates: [(&str, &[&str], usize); 4] = [
        (
            "top95",
            &[
                "../shared/peers/norvig_top95/puzzles.txt",
                "grids/top95.txt",
            ],
            95,
        ),
        (
            "17clue_1000",
            &["../shared/peers/royle_17clue/puzzles.txt"],
            1000,
        ),
        (
            "hardest_1905_200",
            &["../shared/peers/forum_hardest_1905_11plus/puzzles.txt"],
            200,
        ),
        (
            "janko_16x16",
            &[
                "../shared/peers/gecode_16x16_janko/puzzles.numeric.txt",
                "grids/janko_16x16.txt",
            ],
            55,
        ),
    ];
    for (name, paths, limit) in candidates {
        if let Some(p) = paths.iter().find_map(|p| load(p, limit)) {
            out.push((name, p));
        } else {
            eprintln!("note: skipping {name}: no puzzle file found");
        }
    }
    out
}

fn bench_solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve_unique_check");
    group.sample_size(10);
    for (name, puzzles) in sets() {
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        let control = SearchControl::default();
        // The uniqueness test: search for two solutions, as `shiftgrid solve` does; then
        // `solve --first`.
        for (label, limits) in [
            ("count_to_2", SolveLimits::count_up_to(2)),
            ("first", SolveLimits::first()),
        ] {
            let mut batch = BatchSolver::new(puzzles[0].shape());
            let id = BenchmarkId::new(format!("batch_{label}"), name);
            group.bench_with_input(id, &puzzles, |b, ps| {
                b.iter(|| {
                    let mut total = 0;
                    for p in ps {
                        let o = batch
                            .solve(p, &limits, &control)
                            .expect("peer puzzles have no repeated givens");
                        total += o.count;
                    }
                    total
                });
            });
            let id = BenchmarkId::new(format!("new_{label}"), name);
            group.bench_with_input(id, &puzzles, |b, ps| {
                b.iter(|| {
                    let mut total = 0;
                    for p in ps {
                        let o = Solver::new(p)
                            .expect("peer puzzles have no repeated givens")
                            .solve_with(&limits, &control);
                        total += o.count;
                    }
                    total
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_solve);
criterion_main!(benches);

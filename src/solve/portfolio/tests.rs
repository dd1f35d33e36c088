//! Tests of the portfolio: its thresholds, races that agree with each engine and with
//! themselves run to run, counting empty boards by distinct fills, and interruption.

use super::*;
use crate::Shape;

/// Epochs are long exactly where stable learners race for a first solution (see
/// `learn::epoch_propagations`): the two thresholds cannot drift apart.
#[test]
fn long_epochs_start_where_the_stable_learners_do() {
    let side = |b: usize| b * b;
    assert!(learn::epoch_propagations(side(STABLE_FROM_BOX)) > learn::EPOCH_PROPAGATIONS);
    assert_eq!(
        learn::epoch_propagations(side(STABLE_FROM_BOX - 1)),
        learn::EPOCH_PROPAGATIONS
    );
}

/// The fill search joins a first-solution race above two thirds blank, counted by hand
/// on a 3×3-box board (81 cells: 54 blanks is exactly two thirds, 55 is more).
#[test]
fn sparse_means_more_than_two_thirds_blank() {
    let shape = Shape::new(3).unwrap();
    let grid = fill::fill_grid(shape, &FillConfig::new(1), &SearchControl::default())
        .expect("an empty 9×9 board has a completion")
        .grid;
    let with_blanks = |blanks: usize| {
        let mut cells = grid.cells().to_vec();
        cells[..blanks].fill(0);
        Puzzle::new(shape, cells).unwrap()
    };
    assert!(!is_sparse(&with_blanks(0)));
    assert!(!is_sparse(&with_blanks(54)));
    assert!(is_sparse(&with_blanks(55)));
    assert!(is_sparse(&Puzzle::empty(shape)));
}

#[test]
fn race_agrees_with_each_engine() {
    let p = Puzzle::empty(Shape::new(2).unwrap());
    let o = race(
        &p,
        &[Engine::Dlx, Engine::Propagate],
        &SolveLimits::count_up_to(1000),
        &SearchControl::default(),
    )
    .unwrap();
    assert_eq!((o.count, o.complete), (288, true));
}

/// A race gives the same answer on every run, whichever engine is faster on the
/// clock: the first solution of 16×16 and 25×25 puzzles with many solutions (the 16×16
/// race of DLX, propagation and the learning engine; at 25×25 the fill search against
/// the learners), repeated with a busy thread competing for the cores.
#[test]
fn races_give_the_same_answer_every_run() {
    use rand::{Rng, SeedableRng};
    for (b, holes) in [(4, 0.7), (5, 0.75)] {
        let shape = Shape::new(b).unwrap();
        let grid = fill::fill_grid(shape, &FillConfig::new(3), &SearchControl::default())
            .unwrap()
            .grid;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let cells: Vec<u8> = grid
            .cells()
            .iter()
            .map(|&v| if rng.gen_bool(holes) { 0 } else { v })
            .collect();
        let p = Puzzle::new(shape, cells).unwrap();
        let solve = || {
            let runners: Vec<Runner> = if b == 4 {
                [Engine::Dlx, Engine::Propagate, Engine::Learn]
                    .into_iter()
                    .map(Runner::Engine)
                    .collect()
            } else {
                vec![Runner::LearnTogether, Runner::Fill]
            };
            let o = race_runners(
                &p,
                &runners,
                &SolveLimits::first(),
                &SearchControl::default(),
            )
            .unwrap();
            assert!(o.complete && o.count == 1);
            o.solutions[0].clone()
        };
        let first = solve();
        assert!(p.is_completed_by(&first));
        for run in 0..4 {
            let stop = std::sync::atomic::AtomicBool::new(false);
            let again = std::thread::scope(|scope| {
                if run % 2 == 0 {
                    scope.spawn(|| {
                        let mut x = 0u64;
                        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                        }
                    });
                }
                let g = solve();
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                g
            });
            assert_eq!(again, first, "{b}: run {run}");
        }
    }
}

/// The 25×25 batch stage (the default learner alone first) and the race count the same
/// partial rosters alike, and so does the learning engine on its own; both complete them
/// with the same first solution.
#[test]
fn batch_and_race_agree_at_25x25() {
    use rand::{Rng, SeedableRng};
    let shape = Shape::new(5).unwrap();
    let mut by_learner = 0;
    for seed in 0..4u64 {
        let grid = fill::fill_grid(shape, &FillConfig::new(seed), &SearchControl::default())
            .unwrap()
            .grid;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let cells: Vec<u8> = grid
            .cells()
            .iter()
            .map(|&v| if rng.gen_bool(0.55) { 0 } else { v })
            .collect();
        let p = Puzzle::new(shape, cells).unwrap();
        let limits = SolveLimits::count_up_to(2);
        let control = SearchControl::default();
        let batch = Workspace::new(false)
            .solve(&p, Engine::Auto, &limits, &control)
            .unwrap();
        let single = Workspace::new(true)
            .solve(&p, Engine::Auto, &limits, &control)
            .unwrap();
        let learn = Workspace::new(false)
            .solve(&p, Engine::Learn, &limits, &control)
            .unwrap();
        assert!(batch.complete && single.complete && learn.complete);
        assert!(batch.count >= 1, "the planted grid completes it");
        assert_eq!(batch.count, single.count);
        assert_eq!(batch.count, learn.count);
        by_learner += usize::from(matches!(batch.stats, super::super::Stats::Learn(_)));
        for g in batch.solutions.iter().chain(&single.solutions) {
            assert!(p.is_completed_by(g));
        }
        // The first solution too, where most rosters have many: the batch stage's
        // answer must not differ from the race's (`solve --first` then depended on
        // whether the batch outnumbered the threads).
        let first = |split| {
            let o = Workspace::new(split)
                .solve(&p, Engine::Auto, &SolveLimits::first(), &control)
                .unwrap();
            assert!(o.complete && o.count == 1 && p.is_completed_by(&o.solutions[0]));
            o.solutions[0].clone()
        };
        assert_eq!(first(false), first(true), "seed {seed}");
    }
    assert!(by_learner > 0, "some puzzle got past the quick stage");
}

/// Empty boards counted to a small cap take distinct fill grids: the count reaches the
/// cap with that many different valid grids (each a [`crate::Grid`], so checked).
#[test]
fn empty_boards_count_to_a_small_cap_by_distinct_fills() {
    for b in [4, 5, 7] {
        let p = Puzzle::empty(Shape::new(b).unwrap());
        let limits = SolveLimits {
            max_solutions: 5,
            keep: 5,
            node_limit: u64::MAX,
        };
        let o = auto(
            &mut Workspace::default(),
            &p,
            &limits,
            &SearchControl::default(),
        )
        .unwrap();
        assert_eq!((o.count, o.complete), (5, true));
        assert!(matches!(o.stats, super::super::Stats::Fill(_)));
        let distinct: std::collections::HashSet<_> = o.solutions.iter().collect();
        assert_eq!(distinct.len(), 5);
    }
}

#[test]
fn an_interrupted_race_is_incomplete() {
    let p = Puzzle::empty(Shape::new(3).unwrap());
    let control = SearchControl::default();
    control
        .interrupt
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let o = race(
        &p,
        &[Engine::Dlx, Engine::Propagate],
        &SolveLimits::count_up_to(u64::MAX),
        &control,
    )
    .unwrap();
    assert!(!o.complete);
}

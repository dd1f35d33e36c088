//! Tests of the solve entry point: engine names, deadlines and interrupts, every engine on the
//! empty 4x4, and the Luby sequence.

use super::*;
use crate::Shape;

#[test]
fn luby_sequence() {
    let got: Vec<u64> = (1..=15).map(luby).collect();
    assert_eq!(got, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
}

#[test]
fn engine_names_round_trip() {
    for &e in Engine::ALL {
        assert_eq!(e.name().parse::<Engine>(), Ok(e));
    }
    assert!(
        "nope"
            .parse::<Engine>()
            .unwrap_err()
            .to_string()
            .contains("dlx")
    );
}

#[test]
fn deadline_and_interrupt_stop() {
    let c = SearchControl::default();
    assert!(!c.should_stop());
    let past = c.clone().with_deadline(Some(Instant::now()));
    assert!(past.should_stop() && !past.is_interrupted());
    let child = c.clone();
    c.stop();
    assert!(c.should_stop() && child.should_stop() && child.is_interrupted());
}

#[test]
fn every_engine_counts_the_empty_4x4() {
    let p = Puzzle::empty(Shape::new(2).unwrap());
    for &e in Engine::ALL {
        let o = solve(
            &p,
            e,
            &SolveLimits::count_up_to(1000),
            &SearchControl::default(),
        )
        .unwrap();
        assert_eq!((o.count, o.complete), (288, true), "{e}");
    }
}

#[test]
fn a_solver_built_for_one_shape_refuses_another() {
    let mut solver = dlx::BatchSolver::new(Shape::new(2).unwrap());
    let nine = Puzzle::empty(Shape::new(3).unwrap());
    let e = solver
        .solve(&nine, &SolveLimits::default(), &SearchControl::default())
        .unwrap_err();
    assert_eq!(
        e,
        GridError::Shape {
            expected: Shape::new(2).unwrap(),
            found: Shape::new(3).unwrap()
        }
    );
}

/// The outcome's time includes building DLX's matrix, which is most of the work on a full
/// 64×64 grid (before, it counted the search alone: a tenth of the call).
#[test]
fn dlx_time_includes_its_matrix() {
    let shape = Shape::new(8).unwrap();
    let grid = crate::io::fixtures::pattern(shape);
    let puzzle = Puzzle::new(shape, grid.cells().to_vec()).unwrap();
    for split in [false, true] {
        let start = std::time::Instant::now();
        let o = Workspace::new(split)
            .solve(
                &puzzle,
                Engine::Dlx,
                &SolveLimits::count_up_to(2),
                &SearchControl::default(),
            )
            .unwrap();
        let wall = start.elapsed();
        assert_eq!(o.count, 1);
        assert!(o.elapsed * 2 >= wall, "{:?} of {wall:?}", o.elapsed);
    }
}

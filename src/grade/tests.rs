//! Tests of the grader as a whole: levels, step counts, contradictions and the step log,
//! with solved cells checked against the exact-cover engine's solutions.

use super::*;
use crate::io::parse::{ParseOptions, parse_puzzles};
use crate::solve::{SolveLimits, dlx::Solver};

/// The forward-checking report's printed solution (REFERENCES.md).
const FC_SOLUTION: &str =
    "428617359967253481135498276612549837749381625583726914296135748854972163371864592";

fn puzzle(text: &str) -> Puzzle {
    parse_puzzles(text, &ParseOptions::default())
        .remove(0)
        .puzzle
        .expect("a valid test puzzle")
}

fn fixture(name: &str) -> Vec<Puzzle> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    let text = std::fs::read_to_string(&path).expect("committed fixture");
    parse_puzzles(&text, &ParseOptions::default())
        .into_iter()
        .map(|r| r.puzzle.expect("fixture puzzles parse"))
        .collect()
}

fn explain() -> GradeOptions {
    GradeOptions {
        explain: true,
        ..GradeOptions::default()
    }
}

#[test]
fn full_grid_is_solved_in_no_steps() {
    let g = grade(&puzzle(FC_SOLUTION));
    assert_eq!((g.outcome, g.level, g.steps), (Outcome::Solved, Some(1), 0));
    assert_eq!(g.difficulty(), Some(Difficulty::Easy));
}

#[test]
fn scattered_blanks_take_one_step() {
    // Blanks in different rows, columns and blocks: each is a naked single at once.
    let mut text: Vec<u8> = FC_SOLUTION.bytes().collect();
    for cell in [0, 40, 80, 12] {
        text[cell] = b'.';
    }
    let g = grade_with(&puzzle(std::str::from_utf8(&text).unwrap()), &explain());
    assert_eq!((g.outcome, g.level, g.steps), (Outcome::Solved, Some(1), 1));
    assert_eq!(g.counts, [4, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(g.eliminated[0], 4 * 8);
    assert_eq!(g.cells, puzzle(FC_SOLUTION).cells());
    let log = g.log.unwrap();
    assert_eq!(log.len(), 4);
    assert!(log.iter().all(|s| s.places.len() == 1 && s.step == 1));
    assert_eq!(
        log[0].to_string(),
        "step 1, level 1, naked single: staff 1 / day 1 gets shift 4, the only one left \
         after removing shifts 1, 2, 3, 5, 6, 7, 8 and 9, already placed for staff 1, on \
         day 1 and in block 1"
    );
}

#[test]
fn a_fill_that_enables_a_fill_is_another_step() {
    // The 4x4 grid 1234/3412/2143/4321 with staff 1 and day 1 blank. In round 1 every
    // blank but staff 1 / day 1 is a naked single (its column or row holds the other
    // three shifts), while staff 1 / day 1 only loses 4 (block 1) and keeps {1, 2, 3}.
    // Once the others are placed, round 2 leaves it with 1: two steps at level 1.
    let g = grade_with(&puzzle(". . . .\n. 4 1 2\n. 1 4 3\n. 3 2 1\n"), &explain());
    assert_eq!((g.outcome, g.level, g.steps), (Outcome::Solved, Some(1), 2));
    assert_eq!(g.counts, [8, 0, 0, 0, 0, 0, 0, 0]);
    let log = g.log.unwrap();
    assert_eq!(log.iter().filter(|s| s.step == 1).count(), 7);
    let first = &log[0];
    assert_eq!(
        (first.cells[0], first.places.len()),
        (Pos { row: 0, col: 0 }, 0)
    );
    assert_eq!(
        first.to_string(),
        "step 1, level 1, peer elimination: staff 1 / day 1 loses shift 4, already placed \
         in block 1"
    );
    assert_eq!(
        log[7].to_string(),
        "step 2, level 1, naked single: staff 1 / day 1 gets shift 1, the only one left \
         after removing shifts 2 and 3, already placed for staff 1, on day 1 and in block 1"
    );
}

#[test]
fn empty_grid_is_beyond_level_8() {
    let g = grade(&Puzzle::empty(Shape::new(2).unwrap()));
    assert_eq!((g.outcome, g.level, g.steps), (Outcome::Beyond, None, 0));
    assert_eq!(g.difficulty(), Some(Difficulty::Extreme));
}

#[test]
fn repeated_given_is_a_contradiction() {
    let mut cells = vec![0u8; 16];
    cells[0] = 3;
    cells[5] = 3;
    let g = grade(&Puzzle::new(Shape::new(2).unwrap(), cells).unwrap());
    assert_eq!(g.outcome, Outcome::Contradiction);
    assert_eq!(
        g.conflict,
        Some(Conflict::Clash {
            house: House::Block(0),
            symbol: 3
        })
    );
    assert_eq!(g.steps, 0);
    assert_eq!(g.difficulty(), None);
}

#[test]
fn empty_cell_is_a_contradiction() {
    // Staff 1 works shifts 1-3; day 4 has shift 4 already: staff 1 / day 4 has nothing.
    let g = grade(&puzzle("1 2 3 .\n. . . 4\n. . . .\n. . . .\n"));
    assert_eq!(g.outcome, Outcome::Contradiction);
    assert_eq!(g.level, Some(1));
    assert_eq!(g.steps, 1);
    let conflict = g.conflict.unwrap();
    assert_eq!(
        conflict,
        Conflict::NoCandidate {
            pos: Pos { row: 0, col: 3 }
        }
    );
    assert_eq!(conflict.to_string(), "staff 1 / day 4 has no shift left");
}

#[test]
fn puzzles_without_solution_are_never_solved() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("grids/tdoku_counts.txt"),
    )
    .expect("committed fixture");
    let mut seen = 0;
    for line in text.lines().filter(|l| l.ends_with(":0")) {
        let p = puzzle(line.trim_end_matches(":0"));
        assert_ne!(grade(&p).outcome, Outcome::Solved, "{line}");
        seen += 1;
    }
    assert!(seen > 0);
}

#[test]
fn solved_grids_are_the_solution_and_counts_match_the_log() {
    let mut grader = Grader::new(Shape::new(3).unwrap());
    for p in fixture("grids/top95.txt")
        .iter()
        .chain(&fixture("grids/demo_9x9.txt"))
    {
        let g = grader.grade(p, &explain());
        let fast = grader.grade(p, &GradeOptions::default());
        assert_eq!(fast.log, None);
        assert_eq!(
            (fast.level, fast.steps, fast.counts, fast.eliminated),
            (g.level, g.steps, g.counts, g.eliminated)
        );
        let log = g.log.as_ref().unwrap();
        for level in 1..=8u8 {
            let steps = log.iter().filter(|s| s.technique.level() == level).count();
            assert_eq!(steps, g.counts[level as usize - 1] as usize);
            let removed: usize = log
                .iter()
                .filter(|s| s.technique.level() == level)
                .map(|s| s.eliminations.len())
                .sum();
            assert_eq!(removed as u64, g.eliminated[level as usize - 1]);
        }
        assert!(log.iter().all(|s| s.level >= s.technique.level()));
        let sol = Solver::new(p).unwrap().solve(&SolveLimits::count_up_to(2));
        let truth = sol.solutions[0].cells();
        for (i, (&got, &want)) in g.cells.iter().zip(truth).enumerate() {
            assert!(got == 0 || got == want, "cell {i}");
        }
        if g.is_solved() {
            assert_eq!(g.cells, truth);
        }
    }
}

#[test]
fn level_is_the_smallest_that_solves() {
    let mut grader = Grader::new(Shape::new(3).unwrap());
    let mut seen = 0;
    for p in fixture("grids/top95.txt") {
        let g = grader.grade(&p, &GradeOptions::default());
        let Some(level) = g.level.filter(|&l| l > 1) else {
            continue;
        };
        seen += 1;
        let capped = grader.grade(
            &p,
            &GradeOptions {
                max_level: level - 1,
                ..GradeOptions::default()
            },
        );
        assert_eq!(capped.outcome, Outcome::Beyond);
        assert!(capped.steps <= g.steps);
        assert_eq!(capped.difficulty(), None);
    }
    // Most of top95 is beyond level 8; the loop must still have checked some puzzles.
    assert!(seen > 0, "no puzzle of top95 graded above level 1");
}

#[test]
fn difficulty_names() {
    let names: Vec<&str> = [Some(1), Some(2), Some(3), Some(5), Some(6), Some(8), None]
        .into_iter()
        .map(|l| Difficulty::from_level(l).name())
        .collect();
    assert_eq!(
        names,
        [
            "easy", "easy", "medium", "medium", "hard", "hard", "extreme"
        ]
    );
    assert_eq!(
        Technique::ALL.map(|t| t.level()),
        [1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 8]
    );
    assert_eq!(LEVEL_NAMES[Technique::XWing.level() as usize - 1], "X-Wing");
}

#[test]
fn grader_follows_the_shape() {
    let mut grader = Grader::new(Shape::new(2).unwrap());
    let g = grader.grade(&puzzle(FC_SOLUTION), &GradeOptions::default());
    assert_eq!(grader.shape(), Shape::new(3).unwrap());
    assert!(g.is_solved());
    let g = grader.grade(
        &Puzzle::empty(Shape::new(2).unwrap()),
        &GradeOptions::default(),
    );
    assert_eq!(g.outcome, Outcome::Beyond);
}

#[test]
fn the_grade_does_not_depend_on_orientation_or_symbol_names() {
    // A puzzle turned, mirrored, transposed or with its symbols renamed is the same puzzle
    // to a human solver: the same L and S (before, hidden singles and larger patterns found
    // in one house fed others of the same sweep, so S moved with the orientation).
    let mut grader = Grader::new(Shape::new(3).unwrap());
    let map = |p: &Puzzle, f: &dyn Fn(usize, usize) -> (usize, usize), rename: &[u8; 10]| {
        let mut cells = vec![0u8; 81];
        for r in 0..9 {
            for c in 0..9 {
                let (r2, c2) = f(r, c);
                cells[r2 * 9 + c2] = rename[usize::from(p.cells()[r * 9 + c])];
            }
        }
        Puzzle::new(p.shape(), cells).unwrap()
    };
    let same = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    let renamed = [0, 4, 7, 3, 8, 2, 9, 1, 6, 5];
    type Move<'a> = &'a dyn Fn(usize, usize) -> (usize, usize);
    let transforms: [(&str, Move, &[u8; 10]); 5] = [
        ("transposed", &|r, c| (c, r), &same),
        ("turned", &|r, c| (c, 8 - r), &same),
        ("mirrored", &|r, c| (r, 8 - c), &same),
        ("bands swapped", &|r, c| ((r + 3) % 9, c), &same),
        ("renamed", &|r, c| (r, c), &renamed),
    ];
    let mut solved = 0;
    for p in fixture("grids/top95.txt")
        .iter()
        .chain(&fixture("grids/demo_9x9.txt"))
    {
        let g = grader.grade(p, &GradeOptions::default());
        solved += usize::from(g.is_solved());
        for (what, f, rename) in &transforms {
            let h = grader.grade(&map(p, f, rename), &GradeOptions::default());
            assert_eq!(
                (h.outcome, h.level, h.steps, h.counts),
                (g.outcome, g.level, g.steps, g.counts),
                "{what}: {p}"
            );
        }
    }
    assert!(solved >= 5, "{solved} solved");
}

#[test]
fn a_raised_stop_ends_a_grade_and_a_lowered_one_changes_nothing() {
    let mut text: Vec<u8> = FC_SOLUTION.bytes().collect();
    for cell in [0, 40, 80, 12] {
        text[cell] = b'.';
    }
    let p = puzzle(std::str::from_utf8(&text).unwrap());
    let mut grader = Grader::new(p.shape());
    let stop = SearchControl::default();
    stop.stop();
    assert_eq!(grader.grade_until(&p, &explain(), &stop), None);
    let past = SearchControl::default().with_deadline(Some(std::time::Instant::now()));
    assert_eq!(grader.grade_until(&p, &explain(), &past), None);
    let g = grader
        .grade_until(&p, &explain(), &SearchControl::default())
        .expect("not stopped");
    assert_eq!(g, grade_with(&p, &explain()));
    assert_eq!((g.outcome, g.steps), (Outcome::Solved, 1));
}

/// Level 3 and up never take credit for peer elimination's work (module docs): no pointing
/// or claiming step removes only the symbol of a cell that a single of its round (levels 1
/// and 2) left with one candidate, from that cell's peers. Over top95's step logs.
#[test]
fn locked_candidates_take_no_credit_for_this_rounds_singles() {
    let sees = |a: Pos, b: Pos, box_size: usize| {
        a != b
            && (a.row == b.row
                || a.col == b.col
                || (a.row / box_size == b.row / box_size && a.col / box_size == b.col / box_size))
    };
    let mut locked_steps = 0;
    for p in fixture("grids/top95.txt") {
        let b = p.shape().box_size();
        let log = grade_with(&p, &explain()).log.unwrap();
        for (i, s) in log.iter().enumerate() {
            if !matches!(s.technique, Technique::Pointing | Technique::Claiming) {
                continue;
            }
            locked_steps += 1;
            // Singles of the round's earlier sweeps, levels 1 and 2 (one sweep's patterns
            // are found on the candidates as it began, so they may overlap each other).
            let placed: Vec<Placement> = log[..i]
                .iter()
                .filter(|e| e.step == s.step && e.technique.level() < 3)
                .flat_map(|e| e.places.iter().copied())
                .collect();
            let peer_work = |e: &Elimination| {
                placed
                    .iter()
                    .any(|q| q.symbol == e.symbol && sees(q.pos, e.pos, b))
            };
            assert!(
                !s.eliminations.iter().all(peer_work),
                "{s} only does what this round's singles do"
            );
        }
    }
    assert!(locked_steps > 100, "{locked_steps}");
}

/// Every 4×4 puzzle with one solution is solved at level 1, which is why `generate --level
/// L` refuses L above 1 at 4×4. The 288 grids fall into classes under the moves that keep a
/// grid a grid (bands and the rows within them, stacks and the columns within them, the
/// transpose, and renaming); every pattern of givens of one grid per class is graded, and
/// the level of a puzzle does not change under those moves.
#[test]
fn every_proper_4x4_puzzle_is_level_1() {
    let shape = crate::Shape::new(2).unwrap();
    let all = Solver::new(&Puzzle::empty(shape))
        .unwrap()
        .solve(&SolveLimits {
            keep: usize::MAX,
            ..SolveLimits::count_up_to(1000)
        });
    assert_eq!(all.count, 288);
    // The line orders that keep bands (stacks) whole: either band first, each either way.
    let orders: Vec<[usize; 4]> = [[0, 1, 2, 3], [2, 3, 0, 1]]
        .iter()
        .flat_map(|b| {
            let swap = |i: usize, k: usize| if k == 1 { i ^ 1 } else { i };
            (0..4).map(move |m| b.map(|i| swap(i, if i < 2 { m & 1 } else { m >> 1 })))
        })
        .collect();
    let canonical = |cells: &[u8]| {
        let mut best: Option<Vec<u8>> = None;
        for rows in &orders {
            for cols in &orders {
                for transpose in [false, true] {
                    let at = |r: usize, c: usize| {
                        let (r, c) = if transpose { (c, r) } else { (r, c) };
                        cells[rows[r] * 4 + cols[c]]
                    };
                    // Renamed so that the first row reads 1 2 3 4.
                    let mut name = [0u8; 5];
                    for c in 0..4 {
                        name[usize::from(at(0, c))] = c as u8 + 1;
                    }
                    let moved: Vec<u8> = (0..16)
                        .map(|i| name[usize::from(at(i / 4, i % 4))])
                        .collect();
                    if best.as_ref().is_none_or(|b| moved < *b) {
                        best = Some(moved);
                    }
                }
            }
        }
        best.unwrap()
    };
    let classes: std::collections::BTreeSet<Vec<u8>> =
        all.solutions.iter().map(|g| canonical(g.cells())).collect();
    assert_eq!(classes.len(), 2, "the two essentially different 4x4 grids");
    let mut proper = 0;
    for grid in &classes {
        for mask in 0u32..1 << 16 {
            let cells: Vec<u8> = (0..16)
                .map(|i| if mask >> i & 1 == 1 { grid[i] } else { 0 })
                .collect();
            let p = Puzzle::new(shape, cells).unwrap();
            if Solver::new(&p)
                .unwrap()
                .solve(&SolveLimits::count_up_to(2))
                .count
                != 1
            {
                continue;
            }
            proper += 1;
            let g = grade(&p);
            assert_eq!(
                (g.outcome, g.level),
                (Outcome::Solved, Some(1)),
                "{mask:#x}"
            );
        }
    }
    // As counted independently (a review's own grader and SAT checks): 91,428 patterns.
    assert_eq!(proper, 91_428);
}

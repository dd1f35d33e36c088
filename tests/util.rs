//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use shiftgrid::generate::fill::{FillConfig, fill_grid};
use shiftgrid::io::parse::{ParseOptions, parse_puzzles};
use shiftgrid::solve::{Outcome, SearchControl, SolveLimits, dlx::Solver};
use shiftgrid::{Grid, Puzzle, Shape};

/// The `shiftgrid` binary with `--quiet` (no progress bars or notes on stderr); see
/// [`shiftgrid_loud`].
pub fn shiftgrid() -> Command {
    let mut c = shiftgrid_loud();
    c.arg("--quiet");
    c
}

/// The `shiftgrid` binary, for tests of what it says on stderr. It is killed, and the test
/// fails, once it has run [`CHILD_LIMIT`]: a run that hangs must fail the suite, not hold
/// CI until its time runs out. `COLUMNS` is removed, since clap wraps `--help` to it when
/// no stream is a terminal (the examples test reads the help's lines).
pub fn shiftgrid_loud() -> Command {
    let mut c = Command::cargo_bin("shiftgrid").expect("the binary is built");
    c.timeout(CHILD_LIMIT).env_remove("COLUMNS");
    c
}

/// How long one run of the binary may take in a test: far above the longest (about a
/// minute on two loaded cores).
pub const CHILD_LIMIT: std::time::Duration = std::time::Duration::from_secs(300);

/// A random full grid of box size `b` from the fill engine with one worker, so that the
/// seed alone decides it.
pub fn full_grid(b: usize, seed: u64) -> Grid {
    let cfg = FillConfig {
        workers: 1,
        ..FillConfig::new(seed)
    };
    fill_grid(
        Shape::new(b).expect("a supported box size"),
        &cfg,
        &SearchControl::default(),
    )
    .expect("the empty board has a completion")
    .grid
}

/// `grid` with about `fraction` of its cells blanked, chosen by an xorshift from `seed`.
pub fn blank(grid: &Grid, fraction: f64, seed: u64) -> Puzzle {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let cells = grid
        .cells()
        .iter()
        .map(|&v| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if (state >> 11) as f64 / (1u64 << 53) as f64 <= fraction {
                0
            } else {
                v
            }
        })
        .collect();
    Puzzle::new(grid.shape(), cells).expect("blanking keeps a puzzle valid")
}

/// Asserts that `cells` solves `puzzle`: a valid grid by the independent check that keeps
/// every given (checked here too, without `shiftgrid::grid`). A solver that prints some
/// other valid grid fails this.
pub fn assert_solves(puzzle: &Puzzle, cells: &[u8], what: &str) {
    let n = puzzle.shape().side();
    assert!(independently_valid(n, cells), "{what}: not a valid grid");
    assert_eq!(cells.len(), puzzle.cells().len(), "{what}: wrong size");
    for (i, (&given, &v)) in puzzle.cells().iter().zip(cells).enumerate() {
        assert!(
            given == 0 || given == v,
            "{what}: row {} column {} holds {v}, but the puzzle gives {given}",
            i / n + 1,
            i % n + 1
        );
    }
}

/// The one puzzle of `text`, asserting that it parses.
pub fn puzzle_of(text: &str) -> Puzzle {
    let mut records = parse_puzzles(text, &ParseOptions::default());
    assert_eq!(records.len(), 1, "one puzzle in {text:?}");
    records.remove(0).puzzle.expect("the puzzle parses")
}

/// `../shared/peers` when it is beside the checkout (CI has it; a user's clone does not).
/// Without it the test skips with a note, unless `SHIFTGRID_REQUIRE_PEERS` is set (as
/// `.ci/run` does), so that CI can never pass on a skip.
pub fn peers() -> Option<PathBuf> {
    let require = std::env::var_os("SHIFTGRID_REQUIRE_PEERS").is_some_and(|v| v != "0");
    peers_at(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/peers"),
        require,
    )
}

/// `dir` when it exists; else a skip note, or a panic when the peer sets are `required`.
pub fn peers_at(dir: &Path, required: bool) -> Option<PathBuf> {
    if dir.is_dir() {
        return Some(dir.to_path_buf());
    }
    assert!(
        !required,
        "{} is missing and SHIFTGRID_REQUIRE_PEERS is set: CI needs the peer sets",
        dir.display()
    );
    eprintln!(
        "note: {} is not beside the checkout; skipping peer-set test",
        dir.display()
    );
    None
}

/// A file of the repository.
pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Every puzzle of a file, asserting that each parses.
pub fn puzzles(path: &Path) -> Vec<Puzzle> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_puzzles(&text, &ParseOptions::default())
        .into_iter()
        .map(|r| {
            r.puzzle
                .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), r.line))
        })
        .collect()
}

/// Counts up to `cap`, serially.
pub fn count(p: &Puzzle, cap: u64) -> Outcome {
    Solver::new(p)
        .expect("no repeated givens")
        .solve(&SolveLimits::count_up_to(cap))
}

/// A validity check written separately from `shiftgrid::grid`: every row, column and block,
/// sorted, is exactly 1..=n.
pub fn independently_valid(n: usize, cells: &[u8]) -> bool {
    let b = (1..=10).find(|b| b * b == n).expect("a supported side");
    if cells.len() != n * n {
        return false;
    }
    let want: Vec<u8> = (1..=n as u8).collect();
    let houses = (0..n).flat_map(|h| {
        let row: Vec<usize> = (0..n).map(|c| h * n + c).collect();
        let col: Vec<usize> = (0..n).map(|r| r * n + h).collect();
        let (br, bc) = (h / b * b, h % b * b);
        let blk: Vec<usize> = (0..n).map(|k| (br + k / b) * n + bc + k % b).collect();
        [row, col, blk]
    });
    for house in houses {
        let mut vals: Vec<u8> = house.iter().map(|&i| cells[i]).collect();
        vals.sort_unstable();
        if vals != want {
            return false;
        }
    }
    true
}

/// Asserts that `p` has exactly one solution, that it is valid by the independent check and
/// agrees with the givens; returns it.
pub fn assert_unique(p: &Puzzle, what: &str) -> Vec<u8> {
    let o = count(p, 2);
    assert_eq!(o.count, 1, "{what}: expected exactly one solution");
    let g = &o.solutions[0];
    let n = p.shape().side();
    assert!(
        independently_valid(n, g.cells()),
        "{what}: invalid solution"
    );
    assert!(
        p.is_completed_by(g),
        "{what}: solution disagrees with a given"
    );
    g.cells().to_vec()
}

/// Parses a solution line (81 digits, or n² space-separated integers) into cells.
pub fn solution_cells(line: &str) -> Vec<u8> {
    let line = line.trim();
    if line.contains(' ') {
        line.split_whitespace()
            .map(|t| t.parse().expect("a number"))
            .collect()
    } else {
        line.bytes().map(|c| c - b'0').collect()
    }
}

/// One line of `grids/tdoku_counts.txt`, tdoku's test oracle (`PUZZLE:COUNT[:SOLUTION]`).
pub struct CountCase {
    /// The puzzle as the line gives it.
    pub text: String,
    /// The puzzle, parsed.
    pub puzzle: Puzzle,
    /// Its number of solutions (0, 1 or 3..847).
    pub count: u64,
    /// Its solution, on lines of unique puzzles that give one.
    pub solution: Option<String>,
}

/// Every line of `grids/tdoku_counts.txt` (a committed fixture, always present).
pub fn tdoku_counts() -> Vec<CountCase> {
    let text = std::fs::read_to_string(repo("grids/tdoku_counts.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(':');
            let text = parts.next().unwrap().to_string();
            let count = parts.next().unwrap().trim().parse().unwrap();
            let puzzle = parse_puzzles(&text, &ParseOptions::default())
                .remove(0)
                .puzzle
                .unwrap();
            let solution = parts.next().map(str::to_string);
            CountCase {
                text,
                puzzle,
                count,
                solution,
            }
        })
        .collect()
}

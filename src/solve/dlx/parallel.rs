//! Root splitting: the top of the search tree becomes a list of independent subtrees that
//! rayon runs on every core.
//!
//! The split follows the serial search exactly: at each level the MRV item is chosen and each
//! of its options becomes a branch, so the subtrees, read in order, are the serial tree cut
//! at a fixed depth. The depth grows until there are at least eight subtrees per thread (or
//! the tree ends), which keeps every core busy when subtrees differ wildly in size.
//!
//! Each worker clones the matrix (flat `Vec` copies) and replays its prefix of choices, so
//! workers share nothing hot. They share two atomics: the solution count and a `done` flag
//! raised by whichever worker reaches the cap, which every other worker polls.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use super::matrix::Matrix;
use super::search::{self, End, Flow, Halt, Stacks, Stats};
use super::sudoku::Encoding;
use crate::solve::{SearchControl, SolveLimits};

/// Subtrees per thread to aim for.
const TASKS_PER_THREAD: usize = 8;
/// Never expand deeper than this many levels while splitting.
const MAX_SPLIT_DEPTH: usize = 12;

/// What [`run`] found, merged over subtrees.
pub(crate) struct Merged {
    pub count: u64,
    pub kept: Vec<Vec<u8>>,
    pub complete: bool,
    pub stats: Stats,
}

/// Applies a prefix of option nodes to `m`, as the search would have chosen them.
fn apply(m: &mut Matrix, prefix: &[u32]) {
    for &x in prefix {
        m.cover(m.top[x as usize]);
        m.commit(x);
    }
}

/// Undoes [`apply`].
fn unapply(m: &mut Matrix, prefix: &[u32]) {
    for &x in prefix.iter().rev() {
        m.uncommit(x);
        m.uncover(m.top[x as usize]);
    }
}

/// The prefixes of length `depth` of the search tree (or shorter ones that end in a
/// solution), in the serial search's order. Dead branches are dropped.
fn frontier(m: &mut Matrix, depth: usize) -> Vec<Vec<u32>> {
    fn walk(m: &mut Matrix, prefix: &mut Vec<u32>, depth: usize, out: &mut Vec<Vec<u32>>) {
        if prefix.len() == depth || m.is_solved() {
            out.push(prefix.clone());
            return;
        }
        let i = m
            .choose_mrv()
            .expect("an unsolved matrix has an active item");
        m.cover(i);
        let mut x = m.nodes[i as usize].down;
        while x != i {
            m.commit(x);
            prefix.push(x);
            walk(m, prefix, depth, out);
            prefix.pop();
            m.uncommit(x);
            x = m.nodes[x as usize].down;
        }
        m.uncover(i);
    }
    let mut out = Vec::new();
    walk(m, &mut Vec::with_capacity(depth), depth, &mut out);
    out
}

/// Splits and searches `enc` on the current rayon pool.
pub(crate) fn run(enc: &Encoding, limits: &SolveLimits, control: &SearchControl) -> Merged {
    let target = TASKS_PER_THREAD * rayon::current_num_threads();
    let mut base = enc.matrix.clone();
    let mut tasks = vec![Vec::new()];
    for depth in 1..=MAX_SPLIT_DEPTH {
        let next = frontier(&mut base, depth);
        let grew = next.len() > tasks.len() || next.iter().any(|p| p.len() == depth);
        tasks = next;
        if tasks.len() >= target || !grew {
            break;
        }
    }

    let total = AtomicU64::new(0);
    let done = AtomicBool::new(false);
    let cap = limits.max_solutions;
    let keep = limits.keep;

    let results: Vec<(u64, Vec<Vec<u8>>, End, Stats)> = tasks
        .par_iter()
        .map(|prefix| {
            let mut stats = Stats::default();
            let mut kept = Vec::new();
            let mut found = 0u64;
            if done.load(Ordering::Relaxed) || control.should_stop() {
                return (0, kept, End::Halted, stats);
            }
            let mut m = base.clone();
            apply(&mut m, prefix);
            let mut stacks = Stacks::with_depth(m.items() + 1);
            let mut buf = Vec::with_capacity(enc.givens.len());
            let mut full = Vec::new();
            let halt = Halt {
                control: Some(control),
                done: Some(&done),
                nodes: Some(&control.nodes),
                node_limit: limits.node_limit,
            };
            let end = search::run(&mut m, &mut stacks, halt, &mut stats, |m, xs| {
                let before = total.fetch_add(1, Ordering::Relaxed);
                if before >= cap {
                    // Another worker already reached the cap; this one does not count.
                    done.store(true, Ordering::Relaxed);
                    return Flow::Stop;
                }
                found += 1;
                if kept.len() < keep || found <= crate::solve::CHECKED {
                    full.clear();
                    full.extend_from_slice(prefix);
                    full.extend_from_slice(xs);
                    enc.decode_into(m, &full, &mut buf);
                    if kept.len() < keep {
                        kept.push(buf.clone());
                    } else {
                        assert!(
                            crate::grid::solves(enc.shape, &enc.givens, &buf),
                            "every solution DLX counts solves the puzzle"
                        );
                    }
                }
                if before + 1 >= cap {
                    done.store(true, Ordering::Relaxed);
                    Flow::Stop
                } else {
                    Flow::Continue
                }
            });
            unapply(&mut m, prefix);
            (found, kept, end, stats)
        })
        .collect();

    let mut merged = Merged {
        count: 0,
        kept: Vec::new(),
        complete: true,
        stats: Stats::default(),
    };
    for (found, kept, end, stats) in results {
        merged.count += found;
        merged.stats.add(&stats);
        for k in kept {
            if merged.kept.len() < keep {
                merged.kept.push(k);
            }
        }
        // A worker halted only because the cap was reached elsewhere is not incomplete.
        if end == End::Halted && !done.load(Ordering::Relaxed) {
            merged.complete = false;
        }
    }
    merged.count = merged.count.min(cap);
    if control.should_stop() && merged.count < cap {
        merged.complete = false;
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Puzzle, Shape};

    #[test]
    fn frontier_partitions_the_tree() {
        // The empty 4×4 grid: the subtrees' counts add up to 288 at every depth.
        let enc = Encoding::new(&Puzzle::empty(Shape::new(2).unwrap()));
        for depth in 1..=5 {
            let mut base = enc.matrix.clone();
            let tasks = frontier(&mut base, depth);
            let mut sum = 0;
            for prefix in &tasks {
                let mut m = base.clone();
                apply(&mut m, prefix);
                let mut stats = Stats::default();
                search::run(
                    &mut m,
                    &mut Stacks::default(),
                    Halt::NONE,
                    &mut stats,
                    |_, _| Flow::Continue,
                );
                sum += stats.solutions;
            }
            assert_eq!(sum, 288, "depth {depth}");
        }
    }
}

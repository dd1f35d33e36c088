//! Algorithm X (Knuth 4B, §7.2.2.1, steps X1–X8) as an iterative loop over an explicit stack.
//!
//! No recursion, so a 100×100 search 10 000 levels deep needs no call stack; no allocation
//! inside the loop (the caller's stack buffers are reserved up front); the matrix is restored
//! to its starting state when the search returns, whether it ran out, was told to stop by the
//! visitor, or was halted from outside.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::solve::SearchControl;

use super::matrix::Matrix;

/// How often, in nodes, the search polls its halt flags and publishes its node count.
pub(crate) const POLL_INTERVAL: u64 = 1024;

/// What the visitor of a solution wants next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Keep searching for more solutions.
    Continue,
    /// Stop now (the cap is reached).
    Stop,
}

/// Counters of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Options tried (search-tree nodes below the root).
    pub nodes: u64,
    /// Link updates made while covering (Knuth's "updates").
    pub updates: u64,
    /// Dead ends: items found with no option left.
    pub dead_ends: u64,
    /// Solutions visited.
    pub solutions: u64,
}

impl Stats {
    /// Adds another search's counters to these.
    pub fn add(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.updates += other.updates;
        self.dead_ends += other.dead_ends;
        self.solutions += other.solutions;
    }
}

/// Flags a running search polls every [`POLL_INTERVAL`] nodes.
#[derive(Clone, Copy)]
pub(crate) struct Halt<'a> {
    /// The caller's control: Ctrl-C, a deadline, a race's lockstep.
    pub control: Option<&'a SearchControl>,
    /// Set when another worker has reached the shared cap.
    pub done: Option<&'a AtomicBool>,
    /// Where the node count is published for progress displays.
    pub nodes: Option<&'a AtomicU64>,
    /// Stop (halted) once this many nodes are searched.
    pub node_limit: u64,
}

impl Halt<'_> {
    /// No flags at all: the search runs to its end.
    #[cfg(test)]
    pub(crate) const NONE: Halt<'static> = Halt {
        control: None,
        done: None,
        nodes: None,
        node_limit: u64::MAX,
    };

    /// Whether to stop after `nodes` nodes (in a race, at the end of an epoch, after the
    /// wait for the others).
    fn should_stop(&self, nodes: u64) -> bool {
        self.control.is_some_and(|c| c.paced_stop(nodes))
            || self.done.is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// The whole tree was explored.
    Exhausted,
    /// The visitor asked to stop.
    Stopped,
    /// A halt flag was raised.
    Halted,
}

/// Reusable stacks for [`run`]: reserve them once per worker, not per search.
#[derive(Clone, Debug, Default)]
pub(crate) struct Stacks {
    /// The option node chosen at each level.
    pub x: Vec<u32>,
    /// The item branched on at each level.
    pub item: Vec<u32>,
}

impl Stacks {
    /// Stacks with room for `depth` levels.
    pub(crate) fn with_depth(depth: usize) -> Stacks {
        Stacks {
            x: Vec::with_capacity(depth),
            item: Vec::with_capacity(depth),
        }
    }
}

/// Runs Algorithm X on `m`, calling `visit` with the option nodes of every exact cover found.
///
/// The matrix is left exactly as it was given.
pub(crate) fn run<F>(
    m: &mut Matrix,
    stacks: &mut Stacks,
    halt: Halt<'_>,
    stats: &mut Stats,
    mut visit: F,
) -> End
where
    F: FnMut(&Matrix, &[u32]) -> Flow,
{
    // Every level covers at least one item, so the depth never exceeds the item count.
    let depth = m.items() + 1;
    stacks.x.clear();
    stacks.item.clear();
    stacks.x.reserve(depth);
    stacks.item.reserve(depth);
    let mut next_poll = stats.nodes + POLL_INTERVAL;
    let mut published = stats.nodes;

    let end = 'search: loop {
        if stats.nodes >= next_poll {
            next_poll = stats.nodes + POLL_INTERVAL;
            if let Some(counter) = halt.nodes {
                counter.fetch_add(stats.nodes - published, Ordering::Relaxed);
                published = stats.nodes;
            }
            if halt.should_stop(stats.nodes) || stats.nodes >= halt.node_limit {
                break 'search End::Halted;
            }
        }
        // X2: a solution when no item is left.
        let descend = if m.is_solved() {
            stats.solutions += 1;
            if visit(m, &stacks.x) == Flow::Stop {
                break 'search End::Stopped;
            }
            false
        } else {
            // X3: choose by MRV; X4: cover it.
            let i = m
                .choose_mrv()
                .expect("an unsolved matrix has an active item");
            stats.updates += m.cover(i);
            let x = m.nodes[i as usize].down;
            if x == i {
                // X7 at once: nothing covers i.
                stats.dead_ends += 1;
                m.uncover(i);
                false
            } else {
                stats.nodes += 1;
                stats.updates += m.commit(x);
                stacks.x.push(x);
                stacks.item.push(i);
                true
            }
        };
        if descend {
            continue;
        }
        // X8 / X6: leave the level and try the next option of its item.
        loop {
            let Some(x) = stacks.x.pop() else {
                break 'search End::Exhausted;
            };
            let i = *stacks
                .item
                .last()
                .expect("item and x stacks have equal depth");
            m.uncommit(x);
            let next = m.nodes[x as usize].down;
            if next != i {
                stats.nodes += 1;
                stats.updates += m.commit(next);
                stacks.x.push(next);
                continue 'search;
            }
            // X7: every option of i was tried.
            stacks.item.pop();
            m.uncover(i);
        }
    };
    if let Some(counter) = halt.nodes {
        counter.fetch_add(stats.nodes - published, Ordering::Relaxed);
    }
    // Unwind whatever is still chosen so the matrix is as we found it.
    while let Some(x) = stacks.x.pop() {
        let i = stacks
            .item
            .pop()
            .expect("item and x stacks have equal depth");
        m.uncommit(x);
        m.uncover(i);
    }
    end
}

#[cfg(test)]
mod tests {
    use super::super::matrix::tests::small_example;
    use super::*;

    #[test]
    fn small_example_has_three_covers() {
        let mut m = small_example();
        let before = m.clone();
        let mut stacks = Stacks::default();
        let mut stats = Stats::default();
        let mut found = Vec::new();
        let end = run(&mut m, &mut stacks, Halt::NONE, &mut stats, |m, xs| {
            let mut opts: Vec<u32> = xs.iter().map(|&x| m.option_of(x)).collect();
            opts.sort_unstable();
            found.push(opts);
            Flow::Continue
        });
        assert_eq!(end, End::Exhausted);
        found.sort();
        assert_eq!(found, vec![vec![0, 1], vec![2, 3], vec![4, 5]]);
        assert_eq!(stats.solutions, 3);
        assert_eq!(m.nodes, before.nodes);
        assert_eq!(m.len, before.len);
    }

    #[test]
    fn stop_restores_the_matrix() {
        let mut m = small_example();
        let before = m.clone();
        let mut stacks = Stacks::default();
        let mut stats = Stats::default();
        let end = run(&mut m, &mut stacks, Halt::NONE, &mut stats, |_, _| {
            Flow::Stop
        });
        assert_eq!(end, End::Stopped);
        assert_eq!(m.nodes, before.nodes);
        assert_eq!(m.rlink, before.rlink);
        assert_eq!(m.len, before.len);
        let end = run(&mut m, &mut stacks, Halt::NONE, &mut stats, |_, _| {
            Flow::Continue
        });
        assert_eq!(end, End::Exhausted);
        assert_eq!(stats.solutions, 4);
    }
}

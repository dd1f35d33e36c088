//! Branching and restarts: VSIDS activities in a binary max-heap, saved phases, and the
//! restart schedules (Luby, or Glucose's "recent LBDs worse than usual").
//!
//! The heap holds every unassigned option (and possibly some assigned ones, skipped when
//! popped); backtracking puts unassigned options back. Activities start at tiny seeded
//! random values so that the first descent is not row-major order, and the same seed always
//! gives the same order.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::solve::luby;

const NOT_IN_HEAP: u32 = u32::MAX;

/// VSIDS scores, the decision heap and saved phases.
#[derive(Clone, Debug)]
pub(super) struct Heuristic {
    activity: Vec<f64>,
    heap: Vec<u32>,
    pos: Vec<u32>,
    inc: f64,
    decay: f64,
    /// Per option: the value it had when last unassigned.
    pub phase: Vec<bool>,
    /// Per cell: the symbol (0-based) it held when last unassigned, `u8::MAX` for none.
    pub cell_phase: Vec<u8>,
    /// Per option: its value in the longest conflict-free trail since the last rephase
    /// (target phase; 0 for none).
    pub target: Vec<i8>,
    /// Per option: its value in the longest conflict-free trail of all (best phase).
    pub best: Vec<i8>,
    /// Whether the heap is kept ([`Heuristic::without_heap`]).
    heap_kept: bool,
}

/// A decay factor in `(0, 1]` as it is; any other (NaN, 0, negative, above 1, which would
/// make scores infinite or NaN and the heap's order meaningless) as the default, 0.95.
fn usable_decay(decay: f64) -> f64 {
    if decay > 0.0 && decay <= 1.0 {
        decay
    } else {
        0.95
    }
}

impl Heuristic {
    /// Sets the decay factor (per conflict).
    pub(super) fn set_decay(&mut self, decay: f64) {
        self.decay = usable_decay(decay);
    }

    pub(super) fn new(vars: usize, cells: usize, seed: u64, decay: f64) -> Heuristic {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let activity: Vec<f64> = (0..vars).map(|_| rng.r#gen::<f64>() * 1e-6).collect();
        let mut h = Heuristic {
            activity,
            heap: Vec::with_capacity(vars),
            pos: vec![NOT_IN_HEAP; vars],
            inc: 1.0,
            decay: usable_decay(decay),
            phase: vec![true; vars],
            cell_phase: vec![u8::MAX; cells],
            target: vec![0; vars],
            best: vec![0; vars],
            heap_kept: true,
        };
        for v in 0..vars as u32 {
            h.insert(v);
        }
        h
    }

    /// Raises `var`'s score (it took part in a conflict).
    #[inline]
    pub(super) fn bump(&mut self, var: u32) {
        let a = &mut self.activity[var as usize];
        *a += self.inc;
        if *a > 1e100 {
            for x in &mut self.activity {
                *x *= 1e-100;
            }
            self.inc *= 1e-100;
        }
        let p = self.pos[var as usize];
        if p != NOT_IN_HEAP {
            self.sift_up(p as usize);
        }
    }

    /// Ages every score (by growing the increment instead of touching every score).
    #[inline]
    pub(super) fn decay(&mut self) {
        self.inc /= self.decay;
    }

    /// Empties the heap and keeps it empty: for decisions that read the scores but never
    /// pop the highest (the smallest item's, [`Branch::Global`]), where keeping the heap
    /// in order on every bump and every unassignment cost about 3 % of the instructions
    /// on Frisch's puzzles. [`Heuristic::pop`] then returns `None`.
    pub(super) fn without_heap(&mut self) {
        for &v in &self.heap {
            self.pos[v as usize] = NOT_IN_HEAP;
        }
        self.heap.clear();
        self.heap_kept = false;
    }

    /// Puts `var` back among the candidates (no-op if it is there).
    #[inline]
    pub(super) fn insert(&mut self, var: u32) {
        if !self.heap_kept || self.pos[var as usize] != NOT_IN_HEAP {
            return;
        }
        self.pos[var as usize] = self.heap.len() as u32;
        self.heap.push(var);
        self.sift_up(self.heap.len() - 1);
    }

    /// Options in the heap (assigned ones not popped yet included).
    pub(super) fn len(&self) -> usize {
        self.heap.len()
    }

    /// Rebuilds the heap of the options `keep` holds, in linear time: at 100x100 the
    /// givens leave nearly all of the million options false, which one pop each (twenty
    /// levels of the heap) took most of a second to skip, out of reach of the budget's
    /// polls. The order of pops is the same, since scores are distinct (they start
    /// seeded at random).
    pub(super) fn retain(&mut self, keep: impl Fn(u32) -> bool) {
        if !self.heap_kept {
            return;
        }
        let mut heap = std::mem::take(&mut self.heap);
        for &v in &heap {
            self.pos[v as usize] = NOT_IN_HEAP;
        }
        heap.retain(|&v| keep(v));
        for (i, &v) in heap.iter().enumerate() {
            self.pos[v as usize] = i as u32;
        }
        self.heap = heap;
        for i in (0..self.heap.len() / 2).rev() {
            self.sift_down(i);
        }
    }

    /// The score of `var`.
    #[inline]
    pub(super) fn activity(&self, var: u32) -> f64 {
        self.activity[var as usize]
    }

    /// Removes and returns the highest-scored candidate.
    pub(super) fn pop(&mut self) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty heap");
        self.pos[top as usize] = NOT_IN_HEAP;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.pos[last as usize] = 0;
            self.sift_down(0);
        }
        Some(top)
    }

    fn sift_up(&mut self, mut i: usize) {
        let v = self.heap[i];
        let a = self.activity[v as usize];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if self.activity[p as usize] >= a {
                break;
            }
            self.heap[i] = p;
            self.pos[p as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
    }

    fn sift_down(&mut self, mut i: usize) {
        let v = self.heap[i];
        let a = self.activity[v as usize];
        let len = self.heap.len();
        loop {
            let left = 2 * i + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len
                && self.activity[self.heap[right] as usize]
                    > self.activity[self.heap[left] as usize]
            {
                right
            } else {
                left
            };
            let c = self.heap[child];
            if self.activity[c as usize] <= a {
                break;
            }
            self.heap[i] = c;
            self.pos[c as usize] = i as u32;
            i = child;
        }
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
    }
}

/// Which value a decision gives the option the scores chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Always true: the option is placed, as in a dancing-links search.
    True,
    /// The value the option had when last unassigned (phase saving), true at first.
    Saved,
    /// Phase saving at the cell: place the symbol the chosen option's cell last held, if
    /// that is still open, else the chosen option.
    Cell,
}

/// How a decision picks its option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    /// The highest-scored open option (VSIDS), with the configured [`Phase`].
    Vsids,
    /// The smallest open item of all (a dancing-links choice); its highest-scored option
    /// is placed.
    Global,
    /// [`Branch::Global`] up to 36×36, [`Branch::Vsids`] above, where scanning the 4n²
    /// items at every decision costs more than the better choice saves (49×49 partial
    /// rosters: 1,300 conflicts/s against 2,700, and timeouts where VSIDS takes 9–14 s).
    Auto,
}

/// When to restart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RestartPolicy {
    /// Luby's sequence times this many conflicts (0 counts as 1).
    Luby(u32),
    /// Glucose: restart when the recent LBD average exceeds the long-run one by this factor.
    Glucose(f64),
    /// Alternate a *focused* mode (Glucose restarts with this factor, fast-decaying scores)
    /// and a *stable* mode (Luby restarts with this unit, slow-decaying scores), as CaDiCaL
    /// and Kissat do: the first phase lasts `first` conflicts and every second phase is twice
    /// as long as the one before.
    Modes {
        /// Glucose factor of focused mode.
        glue: f64,
        /// Luby unit of stable mode.
        luby: u32,
        /// Conflicts of the first focused phase (0 counts as 1).
        first: u64,
    },
}

/// Restart bookkeeping.
#[derive(Clone, Debug)]
pub(super) struct Restarts {
    policy: RestartPolicy,
    since: u64,
    luby_i: u64,
    fast: f64,
    slow: f64,
    seen: u64,
    /// In [`RestartPolicy::Modes`]: whether the stable mode is on.
    pub stable: bool,
    phase_end: u64,
    phases: u32,
}

impl Restarts {
    pub(super) fn new(policy: RestartPolicy) -> Restarts {
        Restarts {
            policy,
            since: 0,
            luby_i: 1,
            fast: 0.0,
            slow: 0.0,
            seen: 0,
            stable: matches!(policy, RestartPolicy::Luby(_)),
            phase_end: match policy {
                // At least one conflict per phase: restarting before every decision would
                // never reach a conflict, and so never end.
                RestartPolicy::Modes { first, .. } => first.max(1),
                _ => u64::MAX,
            },
            phases: 0,
        }
    }

    /// Records a conflict whose learned clause has `lbd`.
    #[inline]
    pub(super) fn on_conflict(&mut self, lbd: u32) {
        self.since += 1;
        self.seen += 1;
        let x = f64::from(lbd);
        if self.seen == 1 {
            self.fast = x;
            self.slow = x;
        } else {
            self.fast += (x - self.fast) / 32.0;
            // The slow average covers the whole run up to ~16k conflicts back.
            let alpha = (1.0 / self.seen as f64).max(1.0 / 16384.0);
            self.slow += (x - self.slow) * alpha;
        }
    }

    /// Whether to restart now.
    #[inline]
    pub(super) fn due(&self) -> bool {
        // A unit of 0 is taken as 1: restarting before every decision would never reach a
        // conflict, and so never end.
        let luby_due = |unit: u32| self.since >= luby(self.luby_i) * u64::from(unit.max(1));
        let glue_due = |k: f64| self.since >= 50 && self.fast > k * self.slow;
        match self.policy {
            RestartPolicy::Luby(unit) => luby_due(unit),
            RestartPolicy::Glucose(k) => glue_due(k),
            RestartPolicy::Modes { glue, luby, .. } => {
                self.seen >= self.phase_end
                    || if self.stable {
                        luby_due(luby)
                    } else {
                        glue_due(glue)
                    }
            }
        }
    }

    /// Records that a restart happened; switches modes when the phase is over. Returns
    /// whether the mode changed.
    pub(super) fn restarted(&mut self) -> bool {
        self.since = 0;
        self.luby_i += 1;
        if self.seen < self.phase_end {
            return false;
        }
        if let RestartPolicy::Modes { first, .. } = self.policy {
            self.phases += 1;
            self.stable = !self.stable;
            self.luby_i = 1;
            self.phase_end = self.seen + (first.max(1) << (self.phases / 2).min(30));
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_pops_by_activity() {
        let mut h = Heuristic::new(10, 1, 1, 0.95);
        for _ in 0..3 {
            h.bump(7);
        }
        h.bump(2);
        assert_eq!(h.pop(), Some(7));
        assert_eq!(h.pop(), Some(2));
        let mut rest = Vec::new();
        while let Some(v) = h.pop() {
            rest.push(v);
        }
        assert_eq!(rest.len(), 8);
        h.insert(7);
        assert_eq!(h.pop(), Some(7));
    }

    /// A rebuilt heap pops what is kept in the order the whole heap would have, and takes
    /// back what it dropped.
    #[test]
    fn retain_keeps_the_order_of_pops() {
        let mut whole = Heuristic::new(5000, 1, 7, 0.95);
        for v in (0..5000).step_by(7) {
            whole.bump(v);
            whole.decay();
        }
        let mut rebuilt = whole.clone();
        let keep = |v: u32| v % 3 != 0;
        rebuilt.retain(keep);
        assert_eq!(rebuilt.len(), (0..5000).filter(|&v| keep(v)).count());
        let mut expected = Vec::new();
        while let Some(v) = whole.pop() {
            if keep(v) {
                expected.push(v);
            }
        }
        let mut got = Vec::new();
        while let Some(v) = rebuilt.pop() {
            got.push(v);
        }
        assert_eq!(got, expected);
        rebuilt.insert(3);
        assert_eq!(rebuilt.pop(), Some(3));
    }
}

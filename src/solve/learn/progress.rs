//! What a learner shows on a [`crate::solve::SearchControl`] for a progress bar: its
//! restarts, summed with the other learners', and the learned clauses it holds, a gauge it
//! takes back when it ends.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::{Budget, Learner};

/// A learner's part of a [`crate::solve::SearchControl`]'s `restarts` and `learned`
/// counters, which a progress bar reads. A clone of a learner starts with nothing shown.
#[derive(Debug, Default)]
pub(super) struct Shown {
    restarts: u64,
    learned: u64,
    /// The `learned` counter it was added to.
    gauge: Option<Arc<AtomicU64>>,
}

impl Clone for Shown {
    fn clone(&self) -> Shown {
        Shown::default()
    }
}

impl Learner {
    /// Adds the restarts and the change in held learned clauses since the last call to
    /// `budget`'s control, if it has one.
    pub(super) fn publish(&mut self, budget: &Budget) {
        let Some(control) = budget.control else {
            return;
        };
        let held = self.db.learned_count();
        control
            .restarts
            .fetch_add(self.stats.restarts - self.shown.restarts, Ordering::Relaxed);
        self.shown.restarts = self.stats.restarts;
        let gauge = self
            .shown
            .gauge
            .get_or_insert_with(|| control.learned.clone());
        if !Arc::ptr_eq(gauge, &control.learned) {
            // A new control (the next call's): move the held count over to it.
            gauge.fetch_sub(self.shown.learned, Ordering::Relaxed);
            *gauge = control.learned.clone();
            self.shown.learned = 0;
        }
        // Wrapping arithmetic: the held count may fall (reductions).
        gauge.fetch_add(held.wrapping_sub(self.shown.learned), Ordering::Relaxed);
        self.shown.learned = held;
    }
}

impl Drop for Learner {
    fn drop(&mut self) {
        if let Some(gauge) = &self.shown.gauge {
            gauge.fetch_sub(self.shown.learned, Ordering::Relaxed);
        }
    }
}

//! What is left of the input when Ctrl-C stopped a batch (`solve`, `count`).

use std::sync::atomic::Ordering;

use super::Loaded;

impl Loaded {
    /// Whether nothing is left to hand out: the input read to its end, and nothing read
    /// ahead or held back.
    pub(in crate::cli) fn exhausted(&self) -> bool {
        self.parsed.1.load(Ordering::Relaxed) && self.ahead.is_empty() && self.held.is_empty()
    }

    /// The first puzzle read but held back from the chunks so far (its number and line).
    pub(in crate::cli) fn first_held(&self) -> Option<(String, usize)> {
        self.held.first().map(|it| (it.number(), it.line))
    }
}

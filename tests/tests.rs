//! Integration tests, built as one binary (see STYLE.md §8).

mod cli;
mod csv;
mod engines;
mod fc;
mod fuzz;
mod grade;
mod hardening;
mod learn;
mod levels;
mod peers;
mod props;
mod util;

//! Integration tests, built as one binary (see STYLE.md §8).

mod cli;
mod csv;
mod fuzz;
mod grade;
mod hardening;
mod peers;
mod props;
mod util;

//! Integration tests, built as one binary (see STYLE.md §8).

mod cli;
mod csv;
mod engines;
mod grade;
mod levels;
mod peers;
mod props;
mod util;

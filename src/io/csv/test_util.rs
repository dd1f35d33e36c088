//! Fixtures shared by the tests of the CSV modules.

use super::{CsvError, CustomNames, Layout, NameList, Names, Roster, read_rosters, write_roster};
use crate::grid::{Puzzle, Shape};
pub(super) use crate::io::fixtures::{holes, pattern};

pub(super) fn write(p: &Puzzle, names: &Names, layout: Layout) -> String {
    let mut out = Vec::new();
    write_roster(&mut out, p, names, layout).unwrap();
    String::from_utf8(out).unwrap()
}

pub(super) fn read(text: &str, custom: &CustomNames) -> Result<Vec<Roster>, CsvError> {
    read_rosters(text.as_bytes(), custom)
}

pub(super) fn read_err(text: &str, custom: &CustomNames) -> CsvError {
    read(text, custom).unwrap_err()
}

pub(super) fn s2() -> Shape {
    Shape::new(2).unwrap()
}

pub(super) fn list(src: &str, names: &[&str]) -> NameList {
    NameList::new(src, names).unwrap()
}

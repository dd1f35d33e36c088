//! Serde support for [`Shape`], [`Puzzle`] and [`Grid`], in the form of the CLI's JSON
//! records: a shape is its box size, and a puzzle or grid is `{"box": b, "cells": [[…], …]}`
//! with one array per row (`0` for a blank). Other fields are ignored, so a record that
//! `shiftgrid fill -f json` or `generate -f json` writes reads back as a [`Grid`] or a
//! [`Puzzle`].
//!
//! Reading checks what the constructors check: a box size in `2..=10`, `n` rows of `n`
//! symbols in range, and for a [`Grid`] the full validity check ([`Grid::new`]), so a
//! deserialized `Grid` is as valid as any other.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Grid, Puzzle, Shape};

impl Serialize for Shape {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.box_size() as u64)
    }
}

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Shape, D::Error> {
        let b = u64::deserialize(d)?;
        Shape::new(usize::try_from(b).unwrap_or(usize::MAX)).map_err(D::Error::custom)
    }
}

/// The written form: rows borrowed from the cells.
#[derive(Serialize)]
struct Out<'a> {
    #[serde(rename = "box")]
    shape: Shape,
    cells: Vec<&'a [u8]>,
}

/// The read form.
#[derive(Deserialize)]
struct In {
    #[serde(rename = "box")]
    shape: Shape,
    cells: Vec<Vec<u8>>,
}

fn write<S: Serializer>(shape: Shape, cells: &[u8], s: S) -> Result<S::Ok, S::Error> {
    Out {
        shape,
        cells: cells.chunks(shape.side()).collect(),
    }
    .serialize(s)
}

/// Reads the record and flattens its rows, checking their count and lengths.
fn read<'de, D: Deserializer<'de>>(d: D) -> Result<(Shape, Vec<u8>), D::Error> {
    let In { shape, cells } = In::deserialize(d)?;
    let n = shape.side();
    if cells.len() != n {
        return Err(D::Error::custom(format!(
            "a {shape} grid has {n} rows, found {}",
            cells.len()
        )));
    }
    if let Some((r, row)) = cells.iter().enumerate().find(|(_, row)| row.len() != n) {
        return Err(D::Error::custom(format!(
            "row {} has {} cells, expected {n}",
            r + 1,
            row.len()
        )));
    }
    Ok((shape, cells.concat()))
}

impl Serialize for Puzzle {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        write(self.shape, &self.cells, s)
    }
}

/// As [`Puzzle::new`]: the shape, row lengths and symbol range are checked, and a symbol
/// given twice in a house is held (see [`Puzzle::check`]), where the text readers
/// (`str::parse`, [`parse_puzzles`](crate::io::parse::parse_puzzles)) refuse it with its position.
impl<'de> Deserialize<'de> for Puzzle {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Puzzle, D::Error> {
        let (shape, cells) = read(d)?;
        Puzzle::new(shape, cells).map_err(D::Error::custom)
    }
}

impl Serialize for Grid {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        write(self.shape, &self.cells, s)
    }
}

impl<'de> Deserialize<'de> for Grid {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Grid, D::Error> {
        let (shape, cells) = read(d)?;
        Grid::new(shape, cells).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4×4 grid checked by hand: rows are shifts of 1 2 3 4 that keep the boxes whole.
    const GRID: [u8; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];

    #[test]
    fn round_trip_and_cli_form() {
        let shape = Shape::new(2).unwrap();
        let grid = Grid::new(shape, GRID.to_vec()).unwrap();
        let text = serde_json::to_string(&grid).unwrap();
        assert_eq!(
            text,
            r#"{"box":2,"cells":[[1,2,3,4],[3,4,1,2],[2,1,4,3],[4,3,2,1]]}"#
        );
        assert_eq!(serde_json::from_str::<Grid>(&text).unwrap(), grid);
        let mut cells = GRID.to_vec();
        cells[5] = 0;
        let puzzle = Puzzle::new(shape, cells).unwrap();
        let text = serde_json::to_string(&puzzle).unwrap();
        assert_eq!(serde_json::from_str::<Puzzle>(&text).unwrap(), puzzle);
        // A record as the CLI writes it, extra fields and all.
        let record = r#"{"index":1,"seed":"1","box":2,"size":4,"givens":15,"cells":[[1,2,3,4],[3,0,1,2],[2,1,4,3],[4,3,2,1]]}"#;
        assert_eq!(serde_json::from_str::<Puzzle>(record).unwrap(), puzzle);
        // A puzzle with a blank is not a grid.
        let e = serde_json::from_str::<Grid>(record)
            .unwrap_err()
            .to_string();
        assert!(e.contains("blank"), "{e}");
    }

    #[test]
    fn refusals() {
        for (text, says) in [
            (r#"{"box":11,"cells":[]}"#, "unsupported box size 11"),
            (r#"{"box":1e3,"cells":[]}"#, "invalid type"),
            (r#"{"box":2,"cells":[[1,2,3,4]]}"#, "has 4 rows, found 1"),
            (
                r#"{"box":2,"cells":[[1,2,3,4],[3,4,1],[2,1,4,3],[4,3,2,1]]}"#,
                "row 2 has 3 cells",
            ),
            (
                r#"{"box":2,"cells":[[1,2,3,4],[3,4,1,5],[2,1,4,3],[4,3,2,1]]}"#,
                "symbol 5 is out of range",
            ),
            (
                r#"{"box":2,"cells":[[1,2,3,4],[3,4,1,256],[2,1,4,3],[4,3,2,1]]}"#,
                "invalid value",
            ),
            (r#"{"cells":[]}"#, "missing field `box`"),
        ] {
            let e = serde_json::from_str::<Puzzle>(text)
                .unwrap_err()
                .to_string();
            assert!(e.contains(says), "{text}: {e}");
            // A grid is refused alike: a 5 in a 4x4 grid repeats nothing, so only the
            // range check stops it.
            let e = serde_json::from_str::<Grid>(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
        // Valid as a puzzle (no blank, symbols in range) but a shift twice in a row.
        let text = r#"{"box":2,"cells":[[1,2,3,4],[3,4,1,2],[2,1,4,3],[4,3,1,2]]}"#;
        assert!(serde_json::from_str::<Puzzle>(text).is_ok());
        let e = serde_json::from_str::<Grid>(text).unwrap_err().to_string();
        assert!(e.contains("appears twice"), "{e}");
    }
}

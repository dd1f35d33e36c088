//! Writing puzzles and grids as text.
//!
//! Three formats, each ending its record with a newline:
//!
//! - [`OutputFormat::Grid`]: `n` lines of space-separated cells, each right-aligned to the
//!   width of `n` (so columns line up), `.` for a blank. Consecutive grids need no separator
//!   to read back, but for people put an empty line between them: see [`grid_separator`].
//! - [`OutputFormat::Line`]: the whole puzzle on one line; for sides up to 9 the compact form
//!   (`81` characters, digits and `.` for a blank), otherwise `n²` space-separated integers
//!   with `0` for a blank.
//! - [`OutputFormat::Json`]: one compact JSON object per line,
//!   `{"box":3,"size":9,"givens":K,"cells":[[…],…]}`, one array per row, `0` for a blank.
//!
//! What is written as a grid or a line reads back unchanged with
//! [`parse_puzzles`](super::parse::parse_puzzles) and automatic detection.
//!
//! [`write_cells_in`] writes the grid and line forms in another [`Alphabet`] of one
//! character per cell, as Gecode's and janko's 16×16 and 25×25 files are written
//! (`D92.....G...43..`): a line is then compact up to the alphabet's largest side, and a
//! grid is `n` compact rows; they read back with the same alphabet.
//!
//! ```
//! use shiftgrid::{io::write::{write_puzzle, OutputFormat}, Puzzle, Shape};
//!
//! let p = Puzzle::new(Shape::new(2)?, vec![1, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 1])?;
//! let mut out = Vec::new();
//! write_puzzle(&mut out, &p, OutputFormat::Grid)?;
//! assert_eq!(String::from_utf8(out)?, "1 . . 4\n. . . .\n. . . .\n4 . . 1\n");
//! let mut out = Vec::new();
//! write_puzzle(&mut out, &p, OutputFormat::Line)?;
//! assert_eq!(String::from_utf8(out)?, "1..4........4..1\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::{self, Write};

use serde::Serialize;

use super::parse::Alphabet;
use crate::grid::{Grid, GridError, Pos, Puzzle, Shape};

/// How to write puzzles and grids.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// One row per line, cells aligned, `.` for a blank.
    #[default]
    Grid,
    /// One puzzle per line.
    Line,
    /// One JSON object per line.
    Json,
}

/// What to write between two consecutive records of `format`: an empty line between grids,
/// nothing for the one-line formats. Write it before every record but the first.
pub fn grid_separator(format: OutputFormat) -> &'static str {
    match format {
        OutputFormat::Grid => "\n",
        OutputFormat::Line | OutputFormat::Json => "",
    }
}

/// The JSON record of one puzzle or grid.
#[derive(Serialize)]
struct JsonCells<'a> {
    #[serde(rename = "box")]
    box_size: usize,
    size: usize,
    givens: usize,
    cells: Vec<&'a [u8]>,
}

/// Writes `cells` (row-major, `0` = blank) of `shape` in `format`, ending with a newline.
///
/// # Errors
/// Any error from `out`; [`io::ErrorKind::InvalidInput`] when `cells` does not fit `shape`
/// (wrong length or a symbol above `n`).
pub fn write_cells<W: Write + ?Sized>(
    out: &mut W,
    shape: Shape,
    cells: &[u8],
    format: OutputFormat,
) -> io::Result<()> {
    write_cells_in(out, shape, cells, format, Alphabet::Numeric)
}

/// Writes `cells` as [`write_cells`] does, with the symbols of `alphabet` in the grid and
/// line forms of 16×16 and 25×25 (up to [`Alphabet::max_side`]): a line is one character
/// per cell, `.` for a blank, and a grid is `n` such rows. Other sizes (4×4 and 9×9 are
/// written in digits), JSON, and [`Alphabet::Numeric`] are written as [`write_cells`]
/// writes them. What is written reads back with the same alphabet.
///
/// ```
/// use shiftgrid::io::{parse::Alphabet, write::{write_cells_in, OutputFormat}};
/// use shiftgrid::Shape;
///
/// let mut cells = vec![0u8; 256];
/// cells[0] = 13;
/// cells[1] = 9;
/// cells[15] = 16;
/// let mut out = Vec::new();
/// write_cells_in(&mut out, Shape::new(4)?, &cells, OutputFormat::Line, Alphabet::Gecode)?;
/// assert!(String::from_utf8(out)?.starts_with("D9.............G...."));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`write_cells`].
pub fn write_cells_in<W: Write + ?Sized>(
    out: &mut W,
    shape: Shape,
    cells: &[u8],
    format: OutputFormat,
    alphabet: Alphabet,
) -> io::Result<()> {
    let n = shape.side();
    if cells.len() != shape.cells() {
        let e = GridError::Length {
            shape,
            expected: shape.cells(),
            found: cells.len(),
        };
        return Err(io::Error::new(io::ErrorKind::InvalidInput, e));
    }
    if let Some(i) = cells.iter().position(|&v| usize::from(v) > n) {
        let e = GridError::Symbol {
            pos: Pos {
                row: i / n,
                col: i % n,
            },
            symbol: usize::from(cells[i]),
            side: n,
        };
        return Err(io::Error::new(io::ErrorKind::InvalidInput, e));
    }
    let compact = |row_len: usize| -> String {
        let mut text = String::with_capacity(cells.len() + n);
        for row in cells.chunks(row_len) {
            // Every value is at most n, which the alphabet can write (checked below).
            text.extend(row.iter().filter_map(|&v| alphabet.encode(usize::from(v))));
            text.push('\n');
        }
        text
    };
    // The digits write 4x4 and 9x9 (compact lines, spaced grids) in every alphabet.
    let lettered = alphabet != Alphabet::Numeric && n > 9 && n <= alphabet.max_side();
    match format {
        OutputFormat::Grid if lettered => out.write_all(compact(n).as_bytes()),
        OutputFormat::Line if lettered => out.write_all(compact(cells.len()).as_bytes()),
        OutputFormat::Grid => {
            let width = n.to_string().len();
            let mut text = String::with_capacity(shape.cells() * (width + 1));
            for row in cells.chunks(n) {
                for (k, &v) in row.iter().enumerate() {
                    if k > 0 {
                        text.push(' ');
                    }
                    if v == 0 {
                        text.push_str(&format!("{:>width$}", "."));
                    } else {
                        text.push_str(&format!("{v:>width$}"));
                    }
                }
                text.push('\n');
            }
            out.write_all(text.as_bytes())
        }
        OutputFormat::Line if n <= 9 => {
            let mut text: String = cells
                .iter()
                .map(|&v| match v {
                    0 => '.',
                    _ => char::from(b'0' + v),
                })
                .collect();
            text.push('\n');
            out.write_all(text.as_bytes())
        }
        OutputFormat::Line => {
            let mut text = String::with_capacity(shape.cells() * 4);
            for (k, v) in cells.iter().enumerate() {
                if k > 0 {
                    text.push(' ');
                }
                text.push_str(&v.to_string());
            }
            text.push('\n');
            out.write_all(text.as_bytes())
        }
        OutputFormat::Json => {
            let record = JsonCells {
                box_size: shape.box_size(),
                size: n,
                givens: cells.iter().filter(|&&v| v != 0).count(),
                cells: cells.chunks(n).collect(),
            };
            serde_json::to_writer(&mut *out, &record)?;
            out.write_all(b"\n")
        }
    }
}

/// Writes a puzzle in `format`; see [`write_cells`].
///
/// # Errors
/// Any error from `out`; [`io::ErrorKind::InvalidInput`], with nothing written, for a
/// puzzle that repeats a given in a house ([`Puzzle::check`]), which would not read back.
pub fn write_puzzle<W: Write + ?Sized>(
    out: &mut W,
    p: &Puzzle,
    format: OutputFormat,
) -> io::Result<()> {
    p.check()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    write_cells(out, p.shape(), p.cells(), format)
}

/// Writes a full grid in `format`; see [`write_cells`].
///
/// # Errors
/// Any error from `out`.
pub fn write_grid<W: Write + ?Sized>(
    out: &mut W,
    g: &Grid,
    format: OutputFormat,
) -> io::Result<()> {
    write_cells(out, g.shape(), g.cells(), format)
}

/// A puzzle in grid form: `n` lines of `n` cells, `.` for a blank (what `shiftgrid solve
/// -f grid` prints); `"{:#}"` gives the line form, one line of `n²` cells. No newline ends
/// it, so `println!("{p}")` prints no empty line after it.
impl std::fmt::Display for Puzzle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        display_cells(f, self.shape(), self.cells())
    }
}

/// A grid in grid form, or in line form with `"{:#}"`, as for [`Puzzle`].
impl std::fmt::Display for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        display_cells(f, self.shape(), self.cells())
    }
}

/// Writes `cells` through [`write_cells`] in the form `f`'s `#` flag picks.
fn display_cells(f: &mut std::fmt::Formatter<'_>, shape: Shape, cells: &[u8]) -> std::fmt::Result {
    let format = if f.alternate() {
        OutputFormat::Line
    } else {
        OutputFormat::Grid
    };
    let mut text = Vec::with_capacity(3 * cells.len() + shape.side());
    write_cells(&mut text, shape, cells, format).map_err(|_| std::fmt::Error)?;
    let text = std::str::from_utf8(&text).map_err(|_| std::fmt::Error)?;
    f.write_str(text.strip_suffix('\n').unwrap_or(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::fixtures::{holes, pattern};
    use crate::io::parse::{ParseOptions, parse_puzzles};

    fn to_string(puzzles: &[Puzzle], format: OutputFormat) -> String {
        let mut out = Vec::new();
        for (k, p) in puzzles.iter().enumerate() {
            if k > 0 {
                out.extend_from_slice(grid_separator(format).as_bytes());
            }
            write_puzzle(&mut out, p, format).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    fn read_back(text: &str) -> Vec<Puzzle> {
        parse_puzzles(text, &ParseOptions::default())
            .into_iter()
            .map(|r| r.puzzle.unwrap_or_else(|e| panic!("{e}")))
            .collect()
    }

    /// A puzzle that repeats a given would not read back: it is refused, nothing written.
    #[test]
    fn a_puzzle_with_a_repeated_given_is_refused() {
        let shape = crate::grid::Shape::new(2).unwrap();
        let mut cells = vec![0u8; 16];
        cells[0] = 1;
        cells[1] = 1;
        let p = Puzzle::new(shape, cells).unwrap();
        for format in [OutputFormat::Grid, OutputFormat::Line, OutputFormat::Json] {
            let mut out = Vec::new();
            let e = write_puzzle(&mut out, &p, format).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
            assert!(out.is_empty());
        }
    }

    #[test]
    fn round_trip_every_shape() {
        for shape in Shape::all() {
            let puzzles = vec![
                pattern(shape).to_puzzle(),
                holes(shape),
                Puzzle::empty(shape),
                pattern(shape).into(),
            ];
            for format in [OutputFormat::Grid, OutputFormat::Line] {
                let text = to_string(&puzzles, format);
                assert_eq!(read_back(&text), puzzles, "{shape} {format:?}");
                // Each alone, too (a lone empty grid has nothing to lean on).
                for p in &puzzles {
                    let text = to_string(std::slice::from_ref(p), format);
                    assert_eq!(read_back(&text), vec![p.clone()], "{shape} {format:?}");
                }
            }
            // Grids also read back without the separator.
            let mut out = Vec::new();
            for p in &puzzles {
                write_puzzle(&mut out, p, OutputFormat::Grid).unwrap();
            }
            let text = String::from_utf8(out).unwrap();
            assert_eq!(read_back(&text), puzzles, "{shape} unseparated");
        }
    }

    /// In every alphabet, both text forms read back with that alphabet at every size it
    /// can write, and the sizes it cannot are written as numbers.
    #[test]
    fn round_trip_in_every_alphabet() {
        use crate::io::parse::InputFormat;
        for alphabet in [
            Alphabet::Numeric,
            Alphabet::Gecode,
            Alphabet::Hex,
            Alphabet::Letters,
        ] {
            for shape in Shape::all().filter(|s| s.side() <= 36) {
                let puzzles = [pattern(shape).to_puzzle(), holes(shape)];
                for format in [OutputFormat::Grid, OutputFormat::Line] {
                    let mut out = Vec::new();
                    for p in &puzzles {
                        write_cells_in(&mut out, shape, p.cells(), format, alphabet).unwrap();
                    }
                    let text = String::from_utf8(out).unwrap();
                    let side = shape.side();
                    if alphabet != Alphabet::Numeric && side > 9 && side <= alphabet.max_side() {
                        let width = match format {
                            OutputFormat::Grid => shape.side(),
                            _ => shape.cells(),
                        };
                        for line in text.lines() {
                            assert_eq!(line.chars().count(), width, "{alphabet} {shape}: {line}");
                            assert!(!line.contains(' '), "{alphabet} {shape}: {line}");
                        }
                    }
                    let opts = ParseOptions {
                        format: InputFormat::Auto,
                        alphabet,
                    };
                    let back: Vec<Puzzle> = parse_puzzles(&text, &opts)
                        .into_iter()
                        .map(|r| {
                            r.puzzle
                                .unwrap_or_else(|e| panic!("{alphabet} {shape}: {e}"))
                        })
                        .collect();
                    assert_eq!(back, puzzles, "{alphabet} {shape} {format:?}");
                }
            }
        }
    }

    #[test]
    fn grid_layout() {
        let s = Shape::new(4).unwrap();
        let mut out = Vec::new();
        write_puzzle(&mut out, &holes(s), OutputFormat::Grid).unwrap();
        let text = String::from_utf8(out).unwrap();
        let first = text.lines().next().unwrap();
        assert_eq!(first, " .  2  3  4  5  .  7  .  9  . 11 12 13 14  . 16");
        assert_eq!(text.lines().count(), 16);
        assert!(text.ends_with("\n") && !text.ends_with("\n\n"));
    }

    #[test]
    fn line_layout() {
        let s = Shape::new(3).unwrap();
        let mut out = Vec::new();
        write_grid(&mut out, &pattern(s), OutputFormat::Line).unwrap();
        assert_eq!(out.len(), 82);
        assert!(out.starts_with(b"123456789456789123"));
        let s = Shape::new(4).unwrap();
        let mut out = Vec::new();
        write_puzzle(&mut out, &Puzzle::empty(s), OutputFormat::Line).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.split_whitespace().count(), 256);
        assert!(text.split_whitespace().all(|t| t == "0"));
    }

    #[test]
    fn json() {
        let s = Shape::new(3).unwrap();
        let p = holes(s);
        let mut out = Vec::new();
        write_puzzle(&mut out, &p, OutputFormat::Json).unwrap();
        write_puzzle(&mut out, &p, OutputFormat::Json).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 2);
        let v: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(v["box"], 3);
        assert_eq!(v["size"], 9);
        assert_eq!(v["givens"], p.givens());
        let rows = v["cells"].as_array().unwrap();
        assert_eq!(rows.len(), 9);
        assert_eq!(rows[0].as_array().unwrap().len(), 9);
        let flat: Vec<u8> = rows
            .iter()
            .flat_map(|r| {
                r.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap() as u8)
            })
            .collect();
        assert_eq!(flat, p.cells());
        assert!(text.starts_with("{\"box\":3,\"size\":9,\"givens\":"));
    }

    #[test]
    fn bad_cells_are_refused() {
        let s = Shape::new(2).unwrap();
        let mut out = Vec::new();
        let e = write_cells(&mut out, s, &[1, 2, 3], OutputFormat::Grid).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        let mut cells = vec![0u8; 16];
        cells[3] = 5;
        let e = write_cells(&mut out, s, &cells, OutputFormat::Line).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(out.is_empty());
    }

    #[test]
    fn works_through_dyn_write() {
        let s = Shape::new(2).unwrap();
        let mut buf = Vec::new();
        let out: &mut dyn Write = &mut buf;
        write_puzzle(out, &Puzzle::empty(s), OutputFormat::Line).unwrap();
        assert_eq!(buf, b"................\n");
    }
}

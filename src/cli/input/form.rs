//! What a file's name and first line say about its form: a roster CSV (`.csv`, `.tsv`,
//! or a header-like first line) or JSON lines (`.json`, `.jsonl`, `.ndjson`), and the
//! alphabet a flag names; the flags that name the input's form and alphabet.

use std::path::Path;

use clap::ValueEnum;

use crate::io::parse::{Alphabet, puzzle_field, without_comment};

/// Whether `path` ends in `.csv`, in any case.
pub(in crate::cli) fn has_csv_extension(path: &Path) -> bool {
    has_extension(path, "csv")
}

/// Whether `path` ends in `.tsv`, in any case.
pub(in crate::cli) fn has_tsv_extension(path: &Path) -> bool {
    has_extension(path, "tsv")
}

/// Whether `path` ends in `.json`, `.jsonl` or `.ndjson` (JSON lines), in any case.
pub(in crate::cli) fn has_json_extension(path: &Path) -> bool {
    ["json", "jsonl", "ndjson"]
        .iter()
        .any(|e| has_extension(path, e))
}

/// Whether `path` ends in `.ext`, in any case.
fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Whether the first significant line (neither blank nor a `#` comment) of a text is a
/// roster CSV's header: it holds a comma or semicolon and is not JSON (whose lines start
/// with `{` or `[`), or it is tab-separated with a name in it (a word of two or more
/// characters other than digits and dots, which no text form's symbol is: a spreadsheet's
/// "Text (Tab delimited)" file, saved as `.txt`; a spaced grid row with a tab among its
/// spaces, letters or bars, has none, and days named by one letter and a number, `M 1`,
/// are not told from one).
///
/// A line of puzzle text is not a header even with a comma in it: a whole compact puzzle
/// beside a rating or a solution (`4.....8.5…,SE 9.0`), or cells followed by a comment
/// that holds one (`4 . . | . . . | 8 . 5  # row 1, from Norvig`).
pub(super) fn looks_like_csv(first_line: &str) -> bool {
    let l = first_line.trim();
    if l.starts_with('{') || l.starts_with('[') || puzzle_field(first_line).is_some() {
        return false;
    }
    let before = without_comment(first_line);
    if before.len() < first_line.len()
        && !before.trim().is_empty()
        && before.split_whitespace().all(|t| {
            t.chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == '|')
        })
    {
        return false;
    }
    // Excel's `sep=` line names the delimiter (`sep=` and a tab trims to `sep=`).
    l.contains(',')
        || l.contains(';')
        || l.eq_ignore_ascii_case("sep=")
        || (first_line.contains('\t')
            && first_line
                .split('\t')
                .flat_map(str::split_whitespace)
                .any(|word| {
                    word.chars().count() >= 2
                        && word.chars().any(|c| !c.is_ascii_digit() && c != '.')
                }))
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(in crate::cli) enum InputFormatArg {
    /// Grid or line form, decided per block; CSV by file name or first line.
    Auto,
    /// N lines of N cells per grid.
    Grid,
    /// One puzzle per line.
    Line,
    /// A roster CSV, wide or long (told by its header).
    Csv,
}

/// The alphabets of compact puzzles, as flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(in crate::cli) enum AlphabetArg {
    /// Digits and space-separated integers (the default).
    Numeric,
    /// 1-9 then A=10, B=11, … (Gecode/janko 16x16 `1-9A-G`, 25x25 `1-9A-P`).
    #[value(name = "1-9A")]
    Gecode,
    /// 0-9A-F for 1..16 (hexadecimal 16x16).
    #[value(name = "0-9A-F")]
    Hex,
    /// A=1, B=2, … (16x16 `A-P`, 25x25 `A-Y`).
    #[value(name = "A-Z")]
    Letters,
}

impl AlphabetArg {
    /// The library's alphabet.
    pub(in crate::cli) fn to_lib(self) -> Alphabet {
        match self {
            AlphabetArg::Numeric => Alphabet::Numeric,
            AlphabetArg::Gecode => Alphabet::Gecode,
            AlphabetArg::Hex => Alphabet::Hex,
            AlphabetArg::Letters => Alphabet::Letters,
        }
    }
}

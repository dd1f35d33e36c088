//! Fuzzing the readers with proptest (issue 14): arbitrary and almost-valid bytes through
//! the text, JSON-lines, roster-CSV and name-list readers must never panic, never give more
//! records than lines, and never quote more than a short prefix in a message.
//!
//! The quick runs are part of the suite; the `#[ignore]`d ones take their case count from
//! `PROPTEST_CASES` for a long run (see README: "Fuzzing").

use proptest::prelude::*;
use shiftgrid::io::csv::{CustomNames, NameList, read_rosters};
use shiftgrid::io::parse::{Alphabet, InputFormat, ParseOptions, parse_bytes};

/// The longest message any reader may give: a location, a sentence and a quoted prefix.
const MAX_MESSAGE: usize = 700;

/// Pieces that make inputs close to every format, so that the fuzzer gets past the first
/// check: digits, blanks, separators, quotes, JSON brackets, header words, odd characters.
const PIECES: &[&str] = &[
    "1",
    "2",
    "3",
    "4",
    "9",
    "16",
    "0",
    ".",
    " ",
    "  ",
    "\t",
    "\n",
    "\n\n",
    "\r\n",
    ",",
    ";",
    "\"",
    "\"\"",
    "{",
    "}",
    "[",
    "]",
    ":",
    "null",
    "\"cells\"",
    "staff",
    "day",
    "shift",
    "grid",
    "Staff 1",
    "Day 2",
    "Shift 3",
    "#",
    "A",
    "G",
    "P",
    "é",
    "\u{feff}",
    "\u{1}",
    "=",
    "-1",
    "1..4........4..1",
    "1 2 3 4",
    "staff,day,shift",
    "staff,Day 1,Day 2,Day 3,Day 4",
    "{\"cells\":[[1,0,0,4],[0,0,0,0],[0,0,0,0],[4,0,0,1]]}",
    "99999999999999999999",
];

fn input() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..3000),
        prop::collection::vec(prop::sample::select(PIECES), 0..400)
            .prop_map(|p| p.concat().into_bytes()),
    ]
}

fn check(bytes: &[u8]) {
    let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
    for format in [InputFormat::Auto, InputFormat::Grid, InputFormat::Line] {
        for alphabet in [
            Alphabet::Numeric,
            Alphabet::Gecode,
            Alphabet::Hex,
            Alphabet::Letters,
        ] {
            let records = parse_bytes(bytes, &ParseOptions { format, alphabet });
            assert!(!records.is_empty());
            assert!(
                records.len() <= lines,
                "{} records from {lines} lines",
                records.len()
            );
            for r in &records {
                assert!(r.line >= 1 && r.line <= lines);
                if let Err(e) = &r.puzzle {
                    assert!(e.to_string().len() <= MAX_MESSAGE, "{e}");
                }
            }
        }
    }
    let custom = CustomNames::default();
    if let Err(e) = read_rosters(bytes, &custom) {
        assert!(e.line >= 1 && e.line <= lines.max(1), "{e}");
        assert!(e.to_string().len() <= MAX_MESSAGE, "{e}");
    }
    match NameList::parse("names.txt", bytes) {
        Ok(list) => assert!(list.len() <= 100),
        Err(e) => assert!(e.to_string().len() <= MAX_MESSAGE, "{e}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn fuzz_readers_quick(bytes in input()) {
        check(&bytes);
    }
}

proptest! {
    // ProptestConfig::default() reads PROPTEST_CASES.
    #[test]
    #[ignore = "long fuzz run: PROPTEST_CASES=1000000 cargo test --release fuzz -- --ignored"]
    fn fuzz_readers_long(bytes in input()) {
        check(&bytes);
    }
}

#[test]
fn fuzz_long_lines_and_big_numbers_stay_short_in_messages() {
    let token = "7".repeat(200_000);
    check(format!("1 2 {token} 4\n").as_bytes());
    check(format!("staff,day,shift\n{token},1,1\n").as_bytes());
    check(format!("{{\"cells\":[{token}]}}\n").as_bytes());
    check(format!("Ann\n{token}\n{token}\n").as_bytes());
}

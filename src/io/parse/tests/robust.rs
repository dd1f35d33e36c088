//! The parser never panics: random bytes, random text from the characters the readers have
//! rules for, and valid inputs of every form after a few random edits, under every
//! combination of form and alphabet. Every record is a valid puzzle or an error with a
//! 1-based position.

use super::*;
use proptest::prelude::*;

fn all_options() -> Vec<ParseOptions> {
    let mut v = Vec::new();
    for format in [InputFormat::Auto, InputFormat::Grid, InputFormat::Line] {
        for alphabet in [
            Alphabet::Numeric,
            Alphabet::Gecode,
            Alphabet::Hex,
            Alphabet::Letters,
        ] {
            v.push(opts(format, alphabet));
        }
    }
    v
}

fn sane(records: &[Record], what: &str) {
    assert!(!records.is_empty(), "{what}");
    for r in records {
        assert!(r.line >= 1);
        match &r.puzzle {
            Ok(p) => assert!(p.check().is_ok(), "{what}"),
            Err(e) => {
                assert!(e.line >= 1 && e.col >= 1, "{what}: {e}");
                let _ = e.to_string();
            }
        }
    }
}

/// Any combination of form and alphabet.
fn any_options() -> impl Strategy<Value = ParseOptions> {
    prop::sample::select(all_options())
}

/// Text from characters every reader has a rule for, in random order.
fn near_text() -> impl Strategy<Value = String> {
    let chars: Vec<char> = "0123456789 .\n\n\n\t#AaGgPZz\r-é,:".chars().collect();
    prop::collection::vec(prop::sample::select(chars), 0..400)
        .prop_map(|cs| cs.into_iter().collect())
}

/// Valid inputs of every form: the demo as a grid and as a line, a spaced 16x16 grid,
/// three 4x4 grids, a gecode-lettered 16x16 line, and a batch mixing forms.
fn valid_inputs() -> Vec<String> {
    let line: String = DEMO.split('\n').collect();
    vec![
        DEMO.to_string(),
        line.clone(),
        spaced_grid(16, &pattern(4)),
        spaced_grid(4, &pattern(2)).repeat(3),
        encode(&pattern(4), Alphabet::Gecode),
        format!("{line}\n{line}\n\n{DEMO}"),
    ]
}

/// One edit of a text: delete the byte at a place, overwrite it, or insert a piece.
#[derive(Clone, Debug)]
enum Edit {
    Delete(prop::sample::Index),
    Replace(prop::sample::Index, u8),
    Insert(prop::sample::Index, &'static str),
}

fn edit() -> impl Strategy<Value = Edit> {
    const PIECES: [&str; 12] = [
        "", " ", "\n", "\n\n", "#", ".", "0", "9", "17", "x", "Z", "\r\n",
    ];
    prop_oneof![
        any::<prop::sample::Index>().prop_map(Edit::Delete),
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Edit::Replace(i, b)),
        (
            any::<prop::sample::Index>(),
            prop::sample::select(&PIECES[..])
        )
            .prop_map(|(i, p)| Edit::Insert(i, p)),
    ]
}

fn apply(text: &mut Vec<u8>, e: &Edit) {
    match e {
        Edit::Delete(i) if !text.is_empty() => {
            text.remove(i.index(text.len()));
        }
        Edit::Replace(i, b) if !text.is_empty() => {
            let at = i.index(text.len());
            text[at] = *b;
        }
        Edit::Delete(_) | Edit::Replace(..) => {}
        Edit::Insert(i, p) => {
            let at = i.index(text.len() + 1);
            text.splice(at..at, p.bytes());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn random_bytes_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..400),
        o in any_options(),
    ) {
        sane(&parse_bytes(&bytes, &o), "bytes");
    }

    #[test]
    fn random_text_never_panics(text in near_text(), o in any_options()) {
        sane(&parse_puzzles(&text, &o), &text);
    }

    #[test]
    fn mutated_puzzles_never_panic(
        start in prop::sample::select(valid_inputs()),
        edits in prop::collection::vec(edit(), 1..5),
        o in any_options(),
    ) {
        let mut text = start.into_bytes();
        for e in &edits {
            apply(&mut text, e);
        }
        sane(&parse_bytes(&text, &o), &String::from_utf8_lossy(&text));
    }
}

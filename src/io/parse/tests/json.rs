//! JSON-line errors: each names the line and column of the value at fault, quoted as
//! written.

use super::{err, ok, parse};

/// The column (in characters) of the first `needle` in `line`, counted by hand.
fn col_of(line: &str, needle: &str) -> usize {
    line[..line.find(needle).unwrap()].chars().count() + 1
}

#[test]
fn json_errors_name_the_value_at_fault() {
    let big = "100000000000000000000000";
    let cases = [
        // A cell: its own column, quoted as written.
        (
            format!("{{\"cells\": [[1, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, {big}]]}}"),
            big.to_string(),
            format!("unexpected \"{big}\""),
        ),
        (
            "{\"cells\": [[1,2,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,5]]}".into(),
            ",5]".into(),
            "5 is out of range".into(),
        ),
        // The second of two equal givens, after a name with a character of two bytes.
        (
            "{\"name\": \"Zoë\", \"cells\": [[1,2,0,1],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}".into(),
            ",1]".into(),
            "symbol 1 appears twice in row 1".into(),
        ),
        // A short row; a puzzle of the wrong size.
        (
            "{\"cells\": [[1,2,0,0],[0,0,0],[0,0,0,0],[0,0,0,0]]}".into(),
            "[0,0,0]".into(),
            "row has 3 cells, expected 4".into(),
        ),
        (
            "  {\"cells\": [[1, 2], [3, 4]]}".into(),
            "[[".into(),
            "unsupported size 2x2".into(),
        ),
        // Rows wrapped once more: the array where a cell should be, not a 1x1 size.
        (
            "[[[1,2,3,4],[3,4,1,2],[2,1,4,3],[4,3,2,1]]]".into(),
            "[1,2".into(),
            "unexpected \"[1,2,3,4]\": expected a number".into(),
        ),
        (
            "{\"cells\": [[1,\"x\",0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}".into(),
            "\"x\"".into(),
            "unexpected '\"x\"'".into(),
        ),
        // A line-form string without escapes: the column of the character in the line.
        (
            "{\"cells\": \"1201000000000030\"}".into(),
            "1000".into(),
            "symbol 1 appears twice in row 1".into(),
        ),
        // Syntax: serde_json counts bytes, the column is in characters, and the message
        // does not repeat a position of its own.
        (
            "{\"name\": \"Zoë\" \"cells\": 1}".into(),
            " \"cells".into(),
            "bad JSON record: expected `,` or `}`".into(),
        ),
        (
            "{\"index\": 7}".into(),
            "{".into(),
            "no puzzle in this record".into(),
        ),
    ];
    for (line, at, message) in cases {
        let r = parse(&format!("{line}\n"));
        assert_eq!(r.len(), 1, "{line}");
        let e = err(&r[0]);
        let text = e.to_string();
        // A needle that starts with a separator points at the value after it.
        let skip = usize::from(at.starts_with([',', ' ']));
        assert_eq!(
            (e.line, e.col),
            (1, col_of(&line, &at) + skip),
            "{line}: {text}"
        );
        assert!(text.contains(&message), "{line}: {text}");
        assert!(!text.contains(" at line "), "{text}");
    }
    // A field given twice is refused (it used to be taken from its last copy).
    let e = err(&parse("{\"cells\": [[1]], \"cells\": [[2]]}\n")[0]).clone();
    assert!(e.to_string().contains("duplicate field `cells`"), "{e}");
    // With an escape in the string, errors name its opening quote.
    let line = "{\"cells\": \"1\\u0032010000000000300\"}";
    let e = err(&parse(&format!("{line}\n"))[0]).clone();
    assert_eq!(e.col, col_of(line, "\"1"), "{e}");
}

#[test]
fn a_bare_scalar_is_not_a_puzzle_record() {
    // Before: "unexpected \"5\": expected a number", which it is.
    for scalar in ["5", "true", "null"] {
        let text = format!("{{\"cells\": \"1.2..........1.3\"}}\n  {scalar}\n");
        let records = parse(&text);
        let e = err(&records[1]);
        assert_eq!((e.line, e.col), (2, 3), "{e}");
        assert!(
            e.to_string().contains(&format!(
                "{scalar} is not a puzzle record: expected an object"
            )),
            "{e}"
        );
    }
}

/// A record printed over several lines (`jq .`) and records gathered in one array (`jq -s`)
/// are refused with what to do about it.
#[test]
fn spread_and_gathered_records_say_how_to_fix_them() {
    let spread = "{\n  \"cells\": [[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]\n}\n";
    let r = parse(spread);
    assert!(err(&r[0]).to_string().contains("jq -c"), "{}", err(&r[0]));
    let gathered = "[{\"cells\":[[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}]\n";
    let r = parse(gathered);
    let text = err(&r[0]).to_string();
    assert!(
        text.contains("an array of records") && text.contains("jq -c"),
        "{text}"
    );
}

/// A record's `box` and `size` must be its cells': a 4x4 puzzle in a record that says 9x9
/// is an error at the value that says so; matching ones, or none, read.
#[test]
fn a_record_declares_its_own_size() {
    let rows = "[[1,2,3,4],[3,4,1,2],[2,1,4,3],[4,3,2,1]]";
    for (fields, col) in [("\"box\":3,\"size\":4", 8), ("\"box\":2,\"size\":9", 17)] {
        let r = parse(&format!("{{{fields},\"cells\":{rows}}}\n"));
        let e = err(&r[0]);
        assert_eq!((e.line, e.col), (1, col), "{e}");
        assert!(e.to_string().contains("its cells make a 4x4 puzzle"), "{e}");
    }
    for fields in ["\"box\":\"2\",", "\"size\":4.0,", "\"box\":-1,"] {
        let r = parse(&format!("{{{fields}\"cells\":{rows}}}\n"));
        assert!(
            err(&r[0]).to_string().contains("not a whole number"),
            "{fields}"
        );
    }
    for fields in [
        "\"box\":2,\"size\":4,",
        "\"label\":\"x\",",
        "\"box\":null,",
        "",
    ] {
        let r = parse(&format!("{{{fields}\"cells\":{rows}}}\n"));
        assert_eq!(ok(&r[0]).shape().side(), 4);
    }
    // Another line form: the string's size is checked too.
    let line = "1234341221434321";
    let r = parse(&format!("{{\"size\":16,\"cells\":\"{line}\"}}\n"));
    assert!(err(&r[0]).to_string().contains("\"size\" is 16"));
}

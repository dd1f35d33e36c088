//! `generate --method expand` and `--method ga` (issue 15) end to end: shards made with
//! `--first-index` concatenate into the unsharded batch, every puzzle printed is unique by
//! an independent count and grades at the level its JSON claims, and flags of one method
//! are refused with another. Batches longer than a chunk match their shards too.

use predicates::str::contains;

use crate::util::shiftgrid;

fn stdout(args: &[&str]) -> String {
    let out = shiftgrid()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).expect("UTF-8 output")
}

/// `ARGS --count M --first-index K` (generate or fill) for the given (K, M) shards,
/// concatenated.
fn shards(args: &[&str], parts: &[(u64, u64)]) -> String {
    parts
        .iter()
        .map(|(k, m)| {
            let (k, m) = (k.to_string(), m.to_string());
            let mut a = args.to_vec();
            a.extend(["--first-index", &k, "--count", &m]);
            stdout(&a)
        })
        .collect()
}

/// JSON lines without their timing (the only field that differs between runs).
fn untimed(json_lines: &str) -> String {
    json_lines
        .lines()
        .map(|line| {
            let mut v: serde_json::Value = serde_json::from_str(line).expect("JSON lines");
            v.as_object_mut().expect("an object").remove("micros");
            v.to_string() + "\n"
        })
        .collect()
}

#[test]
fn shards_concatenate_into_the_batch() {
    let expand = [
        "generate", "--box", "3", "--seed", "9", "--method", "expand", "-f", "line",
    ];
    let whole = stdout(&[&expand[..], &["--count", "7"]].concat());
    assert_eq!(whole.lines().count(), 7);
    assert_eq!(shards(&expand, &[(0, 3), (3, 1), (4, 3)]), whole);
    let ga = [
        "generate",
        "--box",
        "2",
        "--seed",
        "4",
        "--level",
        "1",
        "--generations",
        "2",
        "--population",
        "4",
        "-f",
        "json",
    ];
    let whole = untimed(&stdout(&[&ga[..], &["--count", "4"]].concat()));
    assert_eq!(untimed(&shards(&ga, &[(0, 1), (1, 3)])), whole);
    // Numbering is global: the second shard starts at index 2.
    let second: serde_json::Value = serde_json::from_str(whole.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["index"], 2);
}

/// Batches are made a chunk (1,024) at a time: a batch across chunk boundaries is the same as
/// its shards made apart, for `generate` and `fill`; an index past the last is refused.
#[test]
fn batches_longer_than_a_chunk_match_their_shards() {
    let prove = ["generate", "--box", "2", "--seed", "3", "-f", "line"];
    let whole = stdout(&[&prove[..], &["--count", "2100"]].concat());
    assert_eq!(whole.lines().count(), 2100);
    assert_eq!(
        shards(&prove, &[(0, 1000), (1000, 50), (1050, 1050)]),
        whole
    );
    let fill = ["fill", "--box", "2", "--seed", "3", "-f", "line"];
    let grids = stdout(&[&fill[..], &["--count", "2100"]].concat());
    assert_eq!(grids.lines().count(), 2100);
    // Grid i of a batch is the one `fill --count` makes from the same seed at every length.
    let head = stdout(&[&fill[..], &["--count", "1030"]].concat());
    assert!(grids.starts_with(&head));
    // So do fill's shards, and a shard of one grid is a roster of its own.
    assert_eq!(shards(&fill, &[(0, 1), (1, 1029), (1030, 1070)]), grids);
    let fifth = stdout(&["fill", "--box", "2", "--seed", "3", "--first-index", "4"]);
    let roster = stdout(&[
        "fill",
        "-b",
        "2",
        "-s",
        "3",
        "--first-index",
        "4",
        "-f",
        "csv",
    ]);
    let named: Vec<String> = fifth
        .lines()
        .map(|r| {
            r.split(' ')
                .map(|v| format!("Shift {v}"))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    assert_eq!(roster.lines().skip(1).count(), 4, "{roster}");
    for (k, row) in roster.lines().skip(1).enumerate() {
        assert_eq!(row, format!("Staff {},{}", k + 1, named[k]));
    }
    // Puzzle and grid numbers stay within 2^53, which jq and JavaScript hold exactly.
    for (command, what) in [("generate", "puzzle"), ("fill", "grid")] {
        for first in [u64::MAX, 1 << 53, (1 << 53) - 1] {
            shiftgrid()
                .args([command, "--box", "2", "--count", "2", "--first-index"])
                .arg(first.to_string())
                .assert()
                .code(2)
                .stderr(contains(format!(
                    "runs past the last {what} number (9007199254740992)"
                )));
        }
    }
    let last = shiftgrid()
        .args([
            "generate",
            "--box",
            "2",
            "--count",
            "2",
            "-f",
            "json",
            "--first-index",
        ])
        .arg(((1u64 << 53) - 2).to_string())
        .output()
        .unwrap();
    let text = String::from_utf8(last.stdout).unwrap();
    assert!(
        text.ends_with("\"index\":9007199254740992\n")
            || text.contains("\"index\":9007199254740992,"),
        "{text}"
    );
}

#[test]
fn json_claims_hold_and_puzzles_are_unique() {
    let out = stdout(&[
        "generate",
        "--box",
        "3",
        "--seed",
        "2",
        "--level",
        "4",
        "--generations",
        "4",
        "--population",
        "8",
        "--count",
        "3",
        "-f",
        "json",
    ]);
    let mut lines = Vec::new();
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("one JSON object a line");
        assert_eq!(v["method"], "ga");
        assert_eq!(v["target_level"], 4);
        let history = v["history"].as_array().expect("a fitness history");
        assert_eq!(history.len(), 5);
        let cells: String = v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|row| row.as_array().unwrap().iter())
            .map(|c| char::from(b'0' + c.as_u64().unwrap() as u8))
            .collect();
        // `grade` re-measures what the JSON claims.
        let graded = String::from_utf8(
            shiftgrid()
                .args(["grade", "-", "-f", "json"])
                .write_stdin(cells.clone())
                .assert()
                .success()
                .get_output()
                .stdout
                .clone(),
        )
        .unwrap();
        let g: serde_json::Value = serde_json::from_str(graded.trim()).unwrap();
        let g = if g.is_array() { g[0].clone() } else { g };
        assert_eq!(g["level"], v["level"], "{graded}");
        assert_eq!(g["steps"], v["steps"], "{graded}");
        assert!(v["level"].as_u64().unwrap() <= 4);
        lines.push(cells);
    }
    // `count` re-proves uniqueness with a complete search.
    let counted = shiftgrid()
        .args(["count", "-", "--limit", "2"])
        .write_stdin(lines.join("\n"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(counted).unwrap();
    assert_eq!(text.lines().count(), 3);
    assert!(text.lines().all(|l| l.ends_with("\t1\tunique")), "{text}");
}

#[test]
fn expand_keeps_the_symmetry_and_the_level_cap() {
    let out = stdout(&[
        "generate",
        "--box",
        "3",
        "--seed",
        "5",
        "--method",
        "expand",
        "--max-level",
        "1",
        "--symmetry",
        "mirror",
        "--count",
        "4",
        "-f",
        "json",
    ]);
    assert_eq!(out.lines().count(), 4, "{out}");
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["level"], 1);
        let rows = v["cells"].as_array().unwrap();
        for row in rows {
            let row: Vec<bool> = row.as_array().unwrap().iter().map(|c| c != 0).collect();
            let mirrored: Vec<bool> = row.iter().rev().copied().collect();
            assert_eq!(row, mirrored);
        }
    }
}

#[test]
fn flags_of_another_method_are_refused() {
    for args in [
        &["--method", "expand", "--level", "3"][..],
        &["--method", "ga"][..],
        &["--level", "3", "--minimal"][..],
        &["--max-level", "3"][..],
        &["--generations", "3"][..],
        &["--level", "3", "--order", "sweep"][..],
        &["--level", "9"][..],
    ] {
        shiftgrid()
            .args(["generate", "--box", "3", "--seed", "1"])
            .args(args)
            .assert()
            .code(2)
            .stderr(contains("error"));
    }
}

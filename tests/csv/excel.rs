//! `--utf8-bom`: a roster for Excel on Windows, which reads a CSV as UTF-8 only after a
//! byte-order mark, and shows names that are not ASCII garbled without one.

use std::fs;

use predicates::str::contains;

use super::write_lines;
use crate::util::shiftgrid;

const BOM: &[u8] = b"\xef\xbb\xbf";

#[test]
fn bom_starts_every_roster_csv_and_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let shifts = dir.path().join("shifts.txt");
    let names: Vec<String> = ["日勤", "準夜勤", "深夜勤", "休み"]
        .map(String::from)
        .into();
    write_lines(&shifts, &names);
    let plain = dir.path().join("plain.csv");
    let marked = dir.path().join("marked.csv");
    for (file, bom) in [(&plain, false), (&marked, true)] {
        let mut cmd = shiftgrid();
        cmd.args(["fill", "--box", "2", "--seed", "3", "--shifts"])
            .arg(&shifts)
            .arg("-o")
            .arg(file);
        if bom {
            cmd.arg("--utf8-bom");
        }
        cmd.assert().success();
    }
    let plain = fs::read(&plain).unwrap();
    let with = fs::read(&marked).unwrap();
    assert!(!plain.starts_with(BOM));
    // The same roster, after the mark, and the mark once only.
    assert_eq!(&with[..3], BOM);
    assert_eq!(&with[3..], &plain[..]);
    // It reads back (the mark is kept, not taken for part of the corner cell)...
    shiftgrid()
        .arg("export")
        .arg(&marked)
        .assert()
        .success()
        .stdout(predicates::function::function(|out: &[u8]| {
            out == with.as_slice()
        }));
    // ... and export, solve and generate write it too, in any layout and delimiter.
    let text = dir.path().join("p.txt");
    fs::write(&text, "1.2..........1.3\n").unwrap();
    for args in [
        &["export", "--utf8-bom", "--csv-shape", "long"][..],
        &["export", "--utf8-bom", "--delimiter", "semicolon"][..],
        &["solve", "-f", "csv", "--utf8-bom"][..],
    ] {
        let out = shiftgrid().args(args).arg(&text).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        assert!(out.stdout.starts_with(BOM) && !out.stdout[3..].starts_with(BOM));
    }
    let out = shiftgrid()
        .args([
            "generate",
            "--box",
            "2",
            "--seed",
            "1",
            "-f",
            "csv",
            "--utf8-bom",
        ])
        .output()
        .unwrap();
    assert!(out.status.success() && out.stdout.starts_with(BOM));
    // A text form has no byte-order mark to write: refused, not ignored.
    for args in [
        &["fill", "--box", "2", "--utf8-bom"][..],
        &["solve", "-f", "json", "--utf8-bom"][..],
    ] {
        shiftgrid()
            .args(args)
            .write_stdin("1.2..........1.3\n")
            .assert()
            .code(2)
            .stderr(contains("--utf8-bom applies only to CSV output"));
    }
}

//! Names in two Unicode forms: `é` composed (U+00E9, as keyboards type it) or `e` with a
//! combining accent (U+0301, as macOS file names keep it) look the same and are one name.

use std::fs;
use std::path::Path;

use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use crate::util::shiftgrid;

/// `text` with every `é` composed (`true`) or combined.
fn form(text: &str, composed: bool) -> String {
    if composed {
        text.replace("e\u{301}", "é")
    } else {
        text.replace('é', "e\u{301}")
    }
}

fn write(path: &Path, text: &str) {
    fs::write(path, text).unwrap();
}

#[test]
fn an_accent_composed_or_combined_makes_one_name() {
    let dir = tempfile::tempdir().unwrap();
    let at = |f: &str| dir.path().join(f);
    let shifts = "Matinée\nSoirée\nNuit\nRepos\n";
    write(&at("composed.txt"), &form(shifts, true));
    write(&at("combined.txt"), &form(shifts, false));
    // A list that holds one name in both forms is refused, naming both lines.
    write(
        &at("twins.txt"),
        &format!(
            "{}{}Nuit\nRepos\n",
            form("Matinée\n", true),
            form("Matinée\n", false)
        ),
    );
    shiftgrid()
        .args(["fill", "--box", "2", "-f", "csv", "--shifts"])
        .arg(at("twins.txt"))
        .assert()
        .code(65)
        .stderr(
            contains("twins.txt:2:1: name")
                .and(contains("is the one on line 1 in another Unicode form")),
        );
    // A roster written with one form reads with a list in the other.
    shiftgrid()
        .args(["generate", "--box", "2", "--seed", "1", "--shifts"])
        .arg(at("composed.txt"))
        .arg("-o")
        .arg(at("week.csv"))
        .assert()
        .success();
    let week = fs::read_to_string(at("week.csv")).unwrap();
    assert!(week.contains("Matinée") && !week.contains('\u{301}'));
    let solved = shiftgrid()
        .args(["solve", "--shifts"])
        .arg(at("combined.txt"))
        .arg(at("week.csv"))
        .output()
        .unwrap();
    assert!(
        solved.status.success(),
        "{}",
        String::from_utf8_lossy(&solved.stderr)
    );
    // Written as the list spells the names.
    let out = String::from_utf8(solved.stdout).unwrap();
    assert!(out.contains(&form("Matinée", false)) && out.contains(&form("Soirée", false)));
    // Without a list: a cell in the other form is the same shift, written as most cells
    // spell it, and a staff member's second row in the other form is one too many.
    shiftgrid()
        .args(["fill", "--box", "2", "--seed", "2", "--shifts"])
        .arg(at("composed.txt"))
        .arg("-o")
        .arg(at("full.csv"))
        .assert()
        .success();
    let full = fs::read_to_string(at("full.csv")).unwrap();
    let mut rows: Vec<String> = full.lines().map(String::from).collect();
    rows[2] = form(&rows[2], false);
    write(&at("mixed.csv"), &(rows.join("\n") + "\n"));
    shiftgrid()
        .arg("solve")
        .arg(at("mixed.csv"))
        .assert()
        .success()
        .stdout(full.clone());
    let mut rows: Vec<String> = full.lines().map(String::from).collect();
    rows[1] = rows[1].replacen("Staff 1", "Hélène", 1);
    rows[2] = form(&rows[2].replacen("Staff 2", "Hélène", 1), false);
    write(&at("staff.csv"), &(rows.join("\n") + "\n"));
    shiftgrid()
        .arg("solve")
        .arg(at("staff.csv"))
        .assert()
        .code(65)
        .stderr(
            contains("staff.csv:3:1: staff")
                .and(contains("has a second row (the first is on line 2)")),
        );
}

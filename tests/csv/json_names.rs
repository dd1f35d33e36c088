//! JSON records of a roster CSV carry its names, so that a pipeline can map the numbers
//! of a solution back to staff, days and shifts.

use std::fs;

use crate::util::shiftgrid;

/// A 4×4 roster with named shifts and its solution, checked by hand: Ann's Thu is Night
/// (Cy is Off on Thu), so Bob's Thu is Late and his Tue Night (Tue has Late, Early and
/// Off), Cy's Wed Late (Wed has Off, Early and Night) and Dee's Thu Early.
const ROSTER: &str = "Name,Mon,Tue,Wed,Thu\nAnn,Early,Late,,\nBob,,,Early,\n\
                      Cy,,Early,,Off\nDee,,Off,Night,\n";
const SOLVED: [[&str; 5]; 4] = [
    ["Ann", "Early", "Late", "Off", "Night"],
    ["Bob", "Off", "Night", "Early", "Late"],
    ["Cy", "Night", "Early", "Late", "Off"],
    ["Dee", "Late", "Off", "Night", "Early"],
];

/// The one JSON record `command` writes for the roster.
fn record(dir: &std::path::Path, command: &str) -> serde_json::Value {
    let out = shiftgrid()
        .current_dir(dir)
        .args([command, "roster.csv", "-f", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{command}: {out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn json_records_of_a_roster_name_what_their_numbers_stand_for() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("roster.csv"), ROSTER).unwrap();
    let solved = record(dir.path(), "solve");
    let names = &solved["names"];
    let text = |v: &serde_json::Value| v.as_str().unwrap().to_string();
    let days: Vec<String> = names["days"].as_array().unwrap().iter().map(text).collect();
    assert_eq!(days, ["Mon", "Tue", "Wed", "Thu"]);
    let shifts = names["shifts"].as_array().unwrap();
    for (r, row) in solved["solution"].as_array().unwrap().iter().enumerate() {
        let mut named = vec![text(&names["staff"][r])];
        for s in row.as_array().unwrap() {
            named.push(text(&shifts[s.as_u64().unwrap() as usize - 1]));
        }
        assert_eq!(named, SOLVED[r]);
    }
    // count and grade name them the same way.
    for command in ["count", "grade"] {
        assert_eq!(record(dir.path(), command)["names"], *names, "{command}");
    }
    // A text puzzle has no names to give.
    let out = shiftgrid()
        .args(["solve", "-", "-f", "json"])
        .write_stdin("1..4........4..1\n")
        .output()
        .unwrap();
    let text_record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(text_record.get("names").is_none(), "{text_record}");
}

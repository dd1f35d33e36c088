//! What the binary tells a roster's user beside its output: a shift the file cannot name
//! (a unique puzzle may leave one out of its givens, and read back without the shift list
//! the file names only the others), why a roster has no solution, and that a roster with
//! names of its own is taken in the file's order.

use std::fs;
use std::path::Path;
use std::process::Output;

use assert_cmd::Command;

use crate::util::shiftgrid;

/// The binary without the suite's `--quiet`: notes are what is tested.
fn loud() -> Command {
    crate::util::shiftgrid_loud()
}

/// `generate --box 2 --seed SEED --shifts SHIFTS -o OUT`, with its notes.
fn generate_4x4(seed: u64, shifts: &Path, out: &Path) -> Output {
    generate_named("2", seed, "--shifts", shifts, out)
}

/// `generate --box b --seed seed FLAG list -o out`, with its notes.
fn generate_named(b: &str, seed: u64, flag: &str, list: &Path, out: &Path) -> Output {
    loud()
        .args(["generate", "--box", b, "--seed", &seed.to_string(), flag])
        .arg(list)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap()
}

/// Asserts that `file` counts as one puzzle with one solution, read with `args`.
fn assert_reads_back_unique(file: &Path, args: &[&std::ffi::OsStr]) {
    shiftgrid()
        .arg("count")
        .arg(file)
        .args(args)
        .assert()
        .success()
        .stdout(predicates::str::ends_with("\t1\tunique\n"));
}

#[test]
fn a_shift_in_no_given_is_noted_when_written_and_when_read() {
    let dir = tempfile::tempdir().unwrap();
    let shifts = dir.path().join("shifts.txt");
    fs::write(&shifts, "Early\nLate\nNight\nOff\n").unwrap();
    let names = ["Early", "Late", "Night", "Off"];
    let (mut with_gap, mut without) = (0, 0);
    for seed in 1..=10u64 {
        let file = dir.path().join(format!("week{seed}.csv"));
        let out = generate_4x4(seed, &shifts, &file);
        assert!(out.status.success());
        let text = fs::read_to_string(&file).unwrap();
        // The cells of the file, not our reader, tell which shift no given holds.
        let cells: Vec<&str> = text
            .lines()
            .skip(1)
            .flat_map(|l| l.split(',').skip(1))
            .collect();
        let missing: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| !cells.contains(n))
            .collect();
        let note = String::from_utf8(out.stderr).unwrap();
        let solve = |extra: &[&str]| {
            let out = loud().arg("solve").args(extra).arg(&file).output().unwrap();
            assert!(out.status.success());
            (
                String::from_utf8(out.stdout).unwrap(),
                String::from_utf8(out.stderr).unwrap(),
            )
        };
        let (solved, read_note) = solve(&[]);
        if let [gap] = missing[..] {
            with_gap += 1;
            assert!(
                note.contains(&format!("the puzzle has no \"{gap}\" among its givens")),
                "seed {seed}: {note}"
            );
            assert!(
                read_note.contains("names 3 of its 4 shifts") && solved.contains("Shift 4"),
                "seed {seed}: {read_note}{solved}"
            );
            // With the list, the name is back and nothing is noted; -q keeps it quiet.
            let (solved, read_note) = solve(&["--shifts", shifts.to_str().unwrap()]);
            assert!(
                solved.contains(gap) && !solved.contains("Shift 4"),
                "{solved}"
            );
            assert!(!read_note.contains("note"), "{read_note}");
            let quiet = shiftgrid().arg("solve").arg(&file).output().unwrap();
            assert!(quiet.status.success() && quiet.stderr.is_empty());
            // Output with no names (a line) notes nothing; nor does the solved roster, whose
            // cells hold "Shift 4", read back.
            assert!(!solve(&["-f", "line"]).1.contains("note"));
            let solved = dir.path().join(format!("solved{seed}.csv"));
            solve(&["-o", solved.to_str().unwrap()]);
            let again = loud().arg("solve").arg(&solved).output().unwrap();
            assert!(
                again.status.success() && again.stderr.is_empty(),
                "{again:?}"
            );
        } else {
            without += 1;
            assert!(missing.is_empty(), "seed {seed}: {missing:?}");
            assert!(!note.contains("among its givens"), "seed {seed}: {note}");
            assert!(!read_note.contains("note") && !solved.contains("Shift 4"));
        }
    }
    // Both cases came up (most 4x4 puzzles leave a shift out).
    assert!(with_gap > 0 && without > 0, "{with_gap} {without}");
    // A shift list of numbers reads back the same without it: nothing to note.
    fs::write(&shifts, "1\n2\n3\n4\n").unwrap();
    for seed in 1..=5u64 {
        let out = generate_4x4(seed, &shifts, &dir.path().join("numbered.csv"));
        assert!(out.status.success() && out.stderr.is_empty(), "{out:?}");
    }
}

#[test]
fn no_solution_says_why_and_own_names_note_the_order() {
    let dir = tempfile::tempdir().unwrap();
    // Ann's row holds Early, Late and Night, and Dan works Off on Thu: Ann / Thu, the
    // only cell left in her row, can take no shift (hand-checked).
    let file = dir.path().join("week.csv");
    fs::write(
        &file,
        "staff,Mon,Tue,Wed,Thu\nAnn,Early,Late,Night,\nBob,,,,\nCat,,,,\nDan,,,,Off\n",
    )
    .unwrap();
    let out = loud().arg("solve").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("puzzle 1 has no solution: Ann / Thu has no shift left")
            || err.contains("puzzle 1 has no solution: Off has no place left in Ann"),
        "{err}"
    );
    // Found by singles, not given so: the givens were read without a clash.
    assert!(
        err.contains(" (deduced from the givens by singles)\n"),
        "{err}"
    );
    assert!(
        err.contains("staff and days are taken in the file's order, which sets the blocks"),
        "{err}"
    );
    // With the default names a row goes where its name says: no note on order.
    fs::write(
        &file,
        "staff,Day 1,Day 2,Day 3,Day 4\nStaff 1,1,2,3,\nStaff 2,,,,\nStaff 3,,,,\n\
         Staff 4,,,,4\n",
    )
    .unwrap();
    let out = loud().arg("solve").arg(&file).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("has no solution: "), "{err}");
    assert!(!err.contains("file's order"), "{err}");
    // Nor with names that are numbers, or default names in lower case: both are placed by
    // number.
    for text in [
        "staff,1,2,3,4\n1,1,2,3,\n2,,,,\n3,,,,\n4,,,,4\n",
        "staff,day 1,day 2,day 3,day 4\nstaff 1,1,2,3,\nstaff 2,,,,\nstaff 3,,,,\nstaff 4,,,,4\n",
    ] {
        fs::write(&file, text).unwrap();
        let out = loud().arg("solve").arg(&file).output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("has no solution: staff 1 / day 4"), "{err}");
        assert!(!err.contains("file's order"), "{err}");
    }
    // A roster with a solution gets no note either.
    fs::write(
        &file,
        "staff,Mon,Tue,Wed,Thu\nAnn,Early,Late,Night,\nBob,Off,,,\nCat,,,,\nDan,,,,\n",
    )
    .unwrap();
    let out = loud()
        .args(["solve", "--first"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn name_files_on_a_text_puzzle_point_to_a_route_that_works() {
    let dir = tempfile::tempdir().unwrap();
    let staff = dir.path().join("staff.txt");
    fs::write(&staff, "Ann\nBob\nCat\nDan\n").unwrap();
    let puzzle = dir.path().join("p.txt");
    // A 4x4 puzzle with one solution (its first row 1 3 4 2 follows from the givens).
    fs::write(&puzzle, "1.4..........2.1\n").unwrap();
    // grade and count write no CSV: the advice is to make a roster first, and it works.
    for cmd in ["grade", "count"] {
        let out = shiftgrid()
            .arg(cmd)
            .arg(&puzzle)
            .arg("--staff")
            .arg(&staff)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains("make it a roster first (shiftgrid export"),
            "{err}"
        );
        assert!(!err.contains("--format csv"), "{err}");
    }
    let roster = dir.path().join("roster.csv");
    shiftgrid()
        .arg("export")
        .arg(&puzzle)
        .arg("--staff")
        .arg(&staff)
        .arg("-o")
        .arg(&roster)
        .assert()
        .success();
    let out = shiftgrid()
        .args(["grade", "--explain"])
        .arg(&roster)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout).unwrap().contains("Ann"));
    // solve can write CSV: its advice names --format csv.
    let out = shiftgrid()
        .arg("solve")
        .arg(&puzzle)
        .arg("--staff")
        .arg(&staff)
        .output()
        .unwrap();
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("CSV output (--format csv)")
    );
}

/// What generate's note says of reading the file back without the list is what happens,
/// for a list with a default-looking name among its own (`Shift 3`, second).
#[test]
fn generates_note_says_what_reading_back_does() {
    let dir = tempfile::tempdir().unwrap();
    let shifts = dir.path().join("shifts.txt");
    fs::write(&shifts, "Early\nShift 3\nNight\nOff\n").unwrap();
    let mut seen = [0; 3];
    for seed in 1..=12u64 {
        let file = dir.path().join(format!("w{seed}.csv"));
        let out = generate_4x4(seed, &shifts, &file);
        let note = String::from_utf8(out.stderr).unwrap();
        let read = shiftgrid().arg("solve").arg(&file).output().unwrap();
        if note.contains("the file is refused") {
            seen[0] += 1;
            assert_eq!(read.status.code(), Some(65), "seed {seed}: {note}");
        } else if note.contains("that shift is written \"Shift 4\"") {
            seen[1] += 1;
            assert!(read.status.success(), "seed {seed}: {note}");
            assert!(String::from_utf8(read.stdout).unwrap().contains("Shift 4"));
        } else {
            // No note: every shift is given, and the file reads back as written.
            seen[2] += 1;
            assert!(note.is_empty(), "seed {seed}: {note}");
            assert!(read.status.success(), "seed {seed}");
        }
    }
    assert!(seen[0] > 0, "{seen:?}");
}

/// Shift names that look like one misspelt (`Day`, `Days`): generate's note says that the
/// file is refused read back without the list exactly when it is; names apart by digits
/// (`Bed 1` … `Bed 16`) read back, as does a full roster with look-alike names.
#[test]
fn look_alike_shift_names_are_noted_when_refused_and_read_back_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let shifts = dir.path().join("shifts.txt");
    fs::write(&shifts, "Day\nDays\nNight\nOff\n").unwrap();
    let mut refused = 0;
    for seed in 1..=12u64 {
        let file = dir.path().join(format!("w{seed}.csv"));
        let out = generate_4x4(seed, &shifts, &file);
        let note = String::from_utf8(out.stderr).unwrap();
        let read = shiftgrid().arg("solve").arg(&file).output().unwrap();
        let said = note.contains("shifts \"Day\" and \"Days\" look like one name misspelt");
        assert_eq!(said, read.status.code() == Some(65), "seed {seed}: {note}");
        refused += usize::from(said);
        // With the list it always reads, and its solution reads back without one.
        let solved = dir.path().join(format!("s{seed}.csv"));
        let with = shiftgrid()
            .arg("solve")
            .arg(&file)
            .arg("--shifts")
            .arg(&shifts)
            .arg("-o")
            .arg(&solved)
            .output()
            .unwrap();
        assert!(with.status.success(), "seed {seed}: {with:?}");
        let again = shiftgrid().arg("count").arg(&solved).output().unwrap();
        assert!(again.status.success(), "seed {seed}: {again:?}");
    }
    assert!(refused > 0);
    let beds = dir.path().join("beds.txt");
    let list: String = (1..=16).map(|k| format!("Bed {k}\n")).collect();
    fs::write(&beds, list).unwrap();
    for seed in 1..=3u64 {
        let file = dir.path().join(format!("beds{seed}.csv"));
        let out = loud()
            .args(["generate", "--box", "4", "--seed", &seed.to_string()])
            .arg("--shifts")
            .arg(&beds)
            .arg("-o")
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success());
        let read = shiftgrid().arg("solve").arg(&file).output().unwrap();
        assert!(read.status.success(), "seed {seed}: {read:?}");
    }
}

/// A shift list given as a pipe is read once, and the note about a shift no given holds
/// is still made (it once read the list a second time, and found it empty).
#[cfg(unix)]
#[test]
fn a_shift_list_on_a_pipe_still_gets_its_note() {
    let out = loud()
        .args(["generate", "--box", "2", "--seed", "1", "-f", "csv"])
        .args(["--shifts", "/dev/stdin"])
        .write_stdin("Early\nLate\nNight\nOff\n")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let note = String::from_utf8(out.stderr).unwrap();
    assert!(note.contains("among its givens"), "{note}");
}

/// Shift names apart only by letter case (`E`, `e`) are one shift to a roster read back
/// without the list: generate says so whenever its givens use both, and with the list the
/// file reads back as written. Staff IDs with leading zeros (`003`, `007`) are names, kept
/// in the file's order: read back, the roster is the puzzle generate proved unique (they
/// were read as row numbers, which moved the rows and changed the blocks). Bare numbers
/// out of order still are row numbers, which generate notes.
#[test]
fn case_twins_are_noted_and_zero_padded_ids_keep_their_rows() {
    let dir = tempfile::tempdir().unwrap();
    let shifts = dir.path().join("shifts.txt");
    fs::write(&shifts, "E\ne\nL\nN\nD\nS\nA\nT\nO\n").unwrap();
    let mut noted = 0;
    for seed in 1..=6u64 {
        let file = dir.path().join(format!("c{seed}.csv"));
        let out = generate_named("3", seed, "--shifts", &shifts, &file);
        assert!(out.status.success());
        let note = String::from_utf8(out.stderr).unwrap();
        let text = fs::read_to_string(&file).unwrap();
        let cells: Vec<&str> = text
            .lines()
            .skip(1)
            .flat_map(|l| l.split(',').skip(1))
            .collect();
        let both = cells.contains(&"E") && cells.contains(&"e");
        let said = note.contains("shifts \"E\" and \"e\" differ only in letter case");
        assert_eq!(said, both, "seed {seed}: {note}");
        noted += usize::from(said);
        assert_reads_back_unique(&file, &["--shifts".as_ref(), shifts.as_os_str()]);
    }
    assert!(noted > 0);

    let staff = dir.path().join("staff.txt");
    fs::write(&staff, "003\n007\n001\n005\n002\n009\n004\n006\n008\n").unwrap();
    for seed in 1..=3u64 {
        let file = dir.path().join(format!("ids{seed}.csv"));
        assert!(
            generate_named("3", seed, "--staff", &staff, &file)
                .status
                .success()
        );
        assert_reads_back_unique(&file, &[]);
    }
    // Bare numbers 1 to 9 out of order are placed by number read back without the list:
    // generate says so, and with the list the roster reads back as written.
    fs::write(&staff, "3\n7\n1\n5\n2\n9\n4\n6\n8\n").unwrap();
    let file = dir.path().join("numbers.csv");
    let out = generate_named("3", 1, "--staff", &staff, &file);
    let note = String::from_utf8(out.stderr).unwrap();
    assert!(
        note.contains("the staff names are the numbers 1 to 9 in another order"),
        "{note}"
    );
    assert_reads_back_unique(&file, &["--staff".as_ref(), staff.as_os_str()]);
}

/// `fill` notes what its roster's names would do read back without their lists, as
/// `generate` does: shifts that differ only in letter case, staff numbered out of order;
/// and says nothing with names that read back as written.
#[test]
fn fill_notes_names_that_read_back_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let fill = |flag: &str, list: &str| {
        let file = dir.path().join("list.txt");
        fs::write(&file, list).unwrap();
        let out = loud()
            .args(["fill", "--box", "2", "--seed", "1", "-f", "csv", flag])
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let note = fill("--shifts", "Early\nearly\nLate\nNight\n");
    assert!(
        note.contains("shifts \"Early\" and \"early\" differ only in letter case"),
        "{note}"
    );
    let note = fill("--staff", "2\n1\n3\n4\n");
    assert!(
        note.contains("the staff names are the numbers 1 to 4 in another order"),
        "{note}"
    );
    assert!(!fill("--shifts", "Early\nLate\nNight\nOff\n").contains("note"));
    assert!(!fill("--staff", "Ann\nBob\nCy\nDee\n").contains("note"));
}

//! Tests of `grade`'s flags and output: one tab-separated line per puzzle, the step log
//! with `--explain` and in JSON, beyond and contradiction outcomes, bad puzzles skipped
//! with status 65, and nothing written over the input, on failure or when interrupted.

use super::*;
use crate::solve::SearchControl;
use clap::Parser;

#[derive(Debug, Parser)]
struct Wrapper {
    #[command(flatten)]
    args: GradeArgs,
}

fn args(argv: &[&str]) -> GradeArgs {
    Wrapper::try_parse_from(std::iter::once("grade").chain(argv.iter().copied()))
        .expect("valid arguments")
        .args
}

/// Runs `grade` quietly, with the interrupt flag already raised when `interrupted`.
fn run_with(args: &GradeArgs, interrupted: bool) -> Result<Exit> {
    let ctx = Ctx {
        quiet: true,
        control: SearchControl::default(),
    };
    ctx.control.interrupt.store(interrupted, Ordering::Relaxed);
    run(&ctx, args)
}

fn run_to_string(argv: &[&str], input: &str) -> (Exit, String) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let inp = dir.path().join("in.txt");
    let outp = dir.path().join("out.txt");
    std::fs::write(&inp, input).expect("writable temp dir");
    let (i, o) = (inp.display().to_string(), outp.display().to_string());
    let mut full = vec![i.as_str(), "-o", o.as_str()];
    full.extend_from_slice(argv);
    let exit = run_with(&args(&full), false).expect("runs");
    let text = std::fs::read_to_string(&outp).unwrap_or_default();
    (exit, text)
}

const DEMO: &str =
    "006200080008970000004810500000060002070000030600050000002047100003028400050001200\n";

#[test]
fn arguments() {
    Wrapper::command_for_test();
    let a = args(&[]);
    assert_eq!(a.input.input, PathBuf::from("-"));
    assert_eq!((a.format, a.explain, a.max_level), (None, false, 8));
    let a = args(&["x.txt", "--format", "json", "--explain", "--max-level", "3"]);
    assert_eq!(
        (a.format, a.explain, a.max_level),
        (Some(GradeFormat::Json), true, 3)
    );
    assert!(Wrapper::try_parse_from(["grade", "--max-level", "9"]).is_err());
    assert!(Wrapper::try_parse_from(["grade", "--max-level", "0"]).is_err());
}

impl Wrapper {
    fn command_for_test() {
        use clap::CommandFactory;
        Wrapper::command().debug_assert();
    }
}

#[test]
fn text_line_per_puzzle() {
    let (exit, text) = run_to_string(&[], &format!("{DEMO}{DEMO}"));
    assert_eq!(exit, Exit::Success);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    let fields: Vec<&str> = lines[1].split('\t').collect();
    assert_eq!(fields.len(), 6);
    assert_eq!(&fields[..2], ["2", "2"]);
    let level: u8 = fields[2].parse().expect("a solved level");
    let steps: u32 = fields[3].parse().expect("a step count");
    assert!((1..=8).contains(&level) && steps > 0);
    assert_eq!(fields[5].split(',').count(), 8);
    assert_eq!(
        lines[0].split('\t').skip(2).collect::<Vec<_>>(),
        fields[2..]
    );
}

#[test]
fn explain_prints_the_log_and_json_carries_it() {
    let (_, text) = run_to_string(&["--explain"], DEMO);
    let mut lines = text.lines();
    assert!(lines.next().is_some_and(|l| l.starts_with("1\t1\t")));
    let first = lines.next().expect("a step");
    assert!(first.starts_with("  step 1, level 1, "), "{first}");
    let (_, json) = run_to_string(&["--explain", "--format", "json"], DEMO);
    let v: serde_json::Value = serde_json::from_str(json.trim()).expect("one JSON line");
    assert_eq!(v["outcome"], "solved");
    assert_eq!(v["size"], 9);
    let log = v["log"].as_array().expect("a log");
    assert_eq!(log[0]["step"], 1);
    assert!(
        log[0]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("step 1"))
    );
    let (_, json) = run_to_string(&["--format", "json"], DEMO);
    assert!(!json.contains("\"log\""));
}

#[test]
fn beyond_and_contradiction() {
    // An empty 4x4 (many solutions) and a 4x4 whose staff 1 / day 4 has no shift left.
    let input = "................\n123....4........\n";
    let (exit, text) = run_to_string(&["--explain"], input);
    assert_eq!(exit, Exit::NotProper);
    let lines: Vec<&str> = text.lines().collect();
    // The short search shows the empty board has several solutions: no puzzle to rate.
    assert!(
        lines[0].starts_with("1\t1\t>8\t0\tmultiple\t"),
        "{}",
        lines[0]
    );
    assert!(lines[1].contains("stuck after step 0"), "{}", lines[1]);
    assert!(
        lines[2].starts_with("2\t2\t-\t1\tcontradiction\t"),
        "{}",
        lines[2]
    );
    assert!(text.contains("contradiction: staff 1 / day 4 has no shift left"));
    let (_, text) = run_to_string(&["--max-level", "1"], DEMO);
    assert!(text.starts_with("1\t1\t>1\t8\tbeyond\t"), "{text}");
    // JSON says the same: the outcome by name, no level for a contradiction.
    let (_, json) = run_to_string(&["-f", "json"], "123....4........\n");
    assert!(
        json.contains("\"outcome\":\"contradiction\",\"level\":null,"),
        "{json}"
    );
    assert!(json.contains("\"difficulty\":null"), "{json}");
}

#[test]
fn bad_puzzles_are_skipped_with_status_65() {
    let (exit, text) = run_to_string(&[], &format!("{DEMO}1234\n{DEMO}"));
    assert_eq!(exit, Exit::DataErr);
    let numbers: Vec<&str> = text
        .lines()
        .map(|l| l.split('\t').next().unwrap_or(""))
        .collect();
    assert_eq!(numbers, ["1", "3"]);
    // Nothing readable: no output file at all.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let inp = dir.path().join("in.txt");
    let outp = dir.path().join("out.txt");
    std::fs::write(&inp, "1234\n").expect("writable");
    let a = args(&[
        &inp.display().to_string(),
        "-o",
        &outp.display().to_string(),
    ]);
    assert_eq!(run_with(&a, false).expect("runs"), Exit::DataErr);
    assert!(!outp.exists());
}

#[test]
fn refuses_to_overwrite_its_input() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let inp = dir.path().join("in.txt");
    std::fs::write(&inp, DEMO).expect("writable");
    let p = inp.display().to_string();
    let err = run_with(&args(&[&p, "-o", &p]), false).expect_err("refused");
    assert_eq!(crate::cli::exit_code_of(&err), Exit::Usage);
    assert_eq!(std::fs::read_to_string(&inp).expect("still there"), DEMO);
}

#[test]
fn interrupted_writes_nothing() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let inp = dir.path().join("in.txt");
    let outp = dir.path().join("out.txt");
    std::fs::write(&inp, DEMO).expect("writable");
    let a = args(&[
        &inp.display().to_string(),
        "-o",
        &outp.display().to_string(),
    ]);
    let err = run_with(&a, true).expect_err("interrupted");
    assert_eq!(crate::cli::exit_code_of(&err), Exit::Interrupted);
    assert!(!outp.exists());
}

#[test]
fn sparse_boards_beyond_the_short_count_are_multiple() {
    // An empty 49x49: the short count finds nothing in its nodes, but an empty board has
    // many grids. Before, it was graded "extreme" with status 0.
    let empty = format!("{}\n", vec!["0"; 2401].join(" "));
    let (exit, text) = run_to_string(&[], &empty);
    assert_eq!(exit, Exit::NotProper, "{text}");
    assert!(text.contains("\tmultiple\t"), "{text}");
}

//! Tests of the input path of the commands: telling CSV from puzzle text, chunk sizes against
//! the thread count, and a never-panics property over random pieces of input.

use super::*;

#[test]
fn csv_is_told_by_the_first_significant_line() {
    assert!(looks_like_csv("staff,Day 1"));
    assert!(looks_like_csv("  staff;Mon"));
    assert!(!looks_like_csv("1..4........4..1"));
    assert!(!looks_like_csv("1 2 3 4"));
    assert!(!looks_like_csv(""));
    // JSON lines hold commas but are not CSV.
    assert!(!looks_like_csv("{\"index\":1,\"cells\":[[1,2],[3,4]]}"));
    assert!(!looks_like_csv("[[1,0,0,4],[0,0,0,0]]"));
    // Tab-separated with names (a spreadsheet's "Text (Tab delimited)"), but not a text
    // grid whose symbols are separated by tabs.
    assert!(looks_like_csv("staff\tMon\tTue\tWed\tThu"));
    assert!(looks_like_csv("\tDay 1\tDay 2\tDay 3\tDay 4"));
    // Excel's delimiter line, as the first line is peeked (trimmed: `sep=` and a tab).
    assert!(looks_like_csv("sep=") && looks_like_csv("SEP=;"));
    assert!(!looks_like_csv("1\t0\t12\t.\t4"));
    assert!(!looks_like_csv("A\tB\tC\tD"));
    // Nor a spaced grid row with a tab among its spaces.
    assert!(!looks_like_csv("1\t2 . ."));
    assert!(!looks_like_csv(". A\tB . C"));
    assert!(!looks_like_csv(". 9 8 |\t2 4 6 |\t5 3 7"));
    // Puzzle text with a comma after the cells: a rating or solution after a whole line
    // puzzle, a comment after a grid row (a `#` in a header, `Staff #`, keeps it CSV).
    let hardest =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    for tail in [
        ",SE 9.0",
        ";1",
        ":1:417369825",
        "\tSE 9.0",
        " # SE 9.0, by Norvig",
    ] {
        assert!(!looks_like_csv(&format!("{hardest}{tail}")), "{tail}");
    }
    assert!(!looks_like_csv(
        "4 . . | . . . | 8 . 5  # row 1, from Norvig"
    ));
    assert!(!looks_like_csv("4..|...|8.5 # row 1; from Norvig"));
    assert!(looks_like_csv("Staff #,Mon,Tue,Wed,Thu"));
    assert!(looks_like_csv("staff,Day #1,Day #2,Day #3,Day #4"));
    // A list named .csv is read as puzzles when its first line holds one in digits; a
    // roster with a long label of letters stays a roster.
    assert!(digits_puzzle(&format!("{hardest},SE 9.0")));
    assert!(!digits_puzzle(&format!(
        "staff,{},Day 2,Day 3,Day 4",
        "W".repeat(81)
    )));
    assert!(has_csv_extension(Path::new("a/b.CSV")));
    assert!(!has_csv_extension(Path::new("csv")));
}

#[derive(Debug, clap::Parser)]
struct Wrapper {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    names: NameArgs,
}

/// The whole input path of a command: format detection, the readers, chunks. Never a
/// panic; every record is accounted for as good or bad.
fn drain(bytes: &[u8], file: &str, extra: &[&str]) {
    use clap::Parser;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join(file);
    std::fs::write(&path, bytes).expect("writable");
    let argv = std::iter::once("x")
        .chain(std::iter::once(path.to_str().expect("UTF-8 temp path")))
        .chain(extra.iter().copied());
    let args = Wrapper::try_parse_from(argv).expect("valid flags");
    let Ok((mut loaded, _)) = load_puzzles(&args.input, &args.names, None) else {
        return; // a bad CSV is one error, reported by the caller
    };
    let never = AtomicBool::new(false);
    let mut items = 0;
    loop {
        let chunk = loaded.chunk(&never).expect("reading a file");
        if chunk.is_empty() {
            break;
        }
        items += chunk.len();
    }
    assert_eq!(items, loaded.good);
    assert_eq!(loaded.parsed.0.load(Ordering::Relaxed), items as u64);
    let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
    assert!(loaded.good + loaded.bad <= lines);
}

#[test]
fn no_chunk_is_smaller_than_the_thread_count_unless_the_batch_is() {
    use clap::Parser;
    let threads = rayon::current_num_threads().max(1);
    let most = CHUNK_PER_THREAD * threads;
    for total in [1, threads, most, most + 1, 2 * most + threads - 1] {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("in.txt");
        std::fs::write(&path, "1..4........4..1\n".repeat(total)).expect("writable");
        let args =
            Wrapper::try_parse_from(["x", path.to_str().expect("UTF-8")]).expect("valid flags");
        let (mut loaded, _) = load_puzzles(&args.input, &args.names, None).expect("loads");
        let never = AtomicBool::new(false);
        let mut sizes = Vec::new();
        loop {
            let chunk = loaded.chunk(&never).expect("reads");
            if chunk.is_empty() {
                break;
            }
            let indices: Vec<usize> = chunk.iter().map(|i| i.index).collect();
            let start = sizes.iter().sum::<usize>();
            assert_eq!(indices, (start..start + chunk.len()).collect::<Vec<_>>());
            sizes.push(chunk.len());
        }
        assert_eq!(sizes.iter().sum::<usize>(), total, "{sizes:?}");
        // The progress bar's total: every good puzzle, once the input is read to its end.
        assert!(loaded.parsed.1.load(Ordering::Relaxed));
        assert_eq!(loaded.parsed.0.load(Ordering::Relaxed), total as u64);
        assert!(
            sizes.iter().all(|&k| k >= threads.min(total)),
            "{total}: {sizes:?}"
        );
    }
}

fn pieces() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    const PIECES: [&str; 20] = [
        "1",
        "4",
        "9",
        ".",
        " ",
        "\n",
        "\n\n",
        ",",
        ";",
        "\"",
        "{",
        "}",
        "[",
        "]",
        "null",
        "\"cells\":",
        "staff,day,shift\n",
        "1..4........4..1\n",
        "\u{1}",
        "é",
    ];
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..500),
        prop::collection::vec(prop::sample::select(&PIECES[..]), 0..200)
            .prop_map(|p| p.concat().into_bytes()),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    #[test]
    fn fuzz_input_path(bytes in pieces(), csv_name in proptest::bool::ANY) {
        drain(&bytes, if csv_name { "in.csv" } else { "in.txt" }, &[]);
        drain(&bytes, "in.txt", &["--input-format", "line", "--alphabet", "A-Z"]);
    }
}

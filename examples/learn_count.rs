//! Counts each puzzle of a file (one per line, any format `shiftgrid` reads) up to 2 with
//! the CDCL engine and prints `index  seconds  verdict  conflicts`, the shape of
//! `../shared/tools/sat_peer.py`'s output, for `benches/hard.sh`.
//!
//! `cargo run --release --example learn_count -- FILE [SECONDS] [SEED]`

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shiftgrid::io::parse::{ParseOptions, parse_puzzles};
use shiftgrid::learn::{Budget, LearnConfig, count};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .ok_or_else(|| anyhow::anyhow!("usage: learn_count FILE [SECONDS] [SEED]"))?;
    let secs: f64 = args.get(2).map_or(Ok(120.0), |s| s.parse())?;
    let seed: u64 = args.get(3).map_or(Ok(0), |s| s.parse())?;
    let text = if path == "-" {
        std::io::read_to_string(std::io::stdin())?
    } else {
        std::fs::read_to_string(path)?
    };
    let config = LearnConfig::new(seed);
    let stop = AtomicBool::new(false);
    for (i, record) in parse_puzzles(&text, &ParseOptions::default())
        .into_iter()
        .enumerate()
    {
        let puzzle = record.puzzle?;
        let start = Instant::now();
        let budget = Budget {
            interrupt: &stop,
            deadline: Some(start + Duration::from_secs_f64(secs)),
            conflicts: u64::MAX,
            progress: None,
        };
        let verdict;
        let conflicts;
        match count(&puzzle, 2, 2, &config, &budget) {
            Ok(o) => {
                conflicts = o.stats.conflicts;
                verdict = match (o.count, o.complete) {
                    (_, false) if o.count < 2 => "timeout",
                    (0, _) => "none",
                    (1, _) => "unique",
                    _ => "multiple",
                };
            }
            Err(_) => {
                conflicts = 0;
                verdict = "none";
            }
        }
        println!(
            "{}\t{:.2}\t{verdict}\t{conflicts}",
            i + 1,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

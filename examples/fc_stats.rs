//! Prints the forward-checking report's columns for every puzzle of a file, then their means.
//!
//! ```text
//! cargo run --release --example fc_stats -- grids/fc_report_table_9x9.txt [REPEAT [CAP]]
//! ```
//!
//! Each puzzle is solved `REPEAT` times (default 1) with one reused [`FcSolver`], for its
//! first solution (the report's runs) or, with `CAP`, counting up to `CAP` (2 proves
//! uniqueness); the time column is the mean of those runs, the last column the count.

use std::time::Duration;

use shiftgrid::io::parse::{ParseOptions, parse_puzzles};
use shiftgrid::solve::fc::{FcBudget, FcSolver};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or_else(|| anyhow::anyhow!("usage: fc_stats PUZZLE_FILE [REPEAT [CAP]]"))?;
    let repeat: u32 = args.next().map_or(Ok(1), |r| r.parse())?;
    let cap: u64 = args.next().map_or(Ok(1), |r| r.parse())?;
    let repeat = repeat.max(1);
    let text = std::fs::read_to_string(&path)?;
    let budget = FcBudget::unlimited();
    let mut solver = None::<FcSolver>;
    let (mut total_time, mut total_nodes, mut rows) = (Duration::ZERO, 0u64, 0u32);
    println!("#\tgivens\tms\tnodes\tfc_removed\tbacktracks\tfc_failures\tinitial_removed\tcount");
    for record in parse_puzzles(&text, &ParseOptions::default()) {
        let p = record
            .puzzle
            .map_err(|e| anyhow::anyhow!("{path}:{}: {e}", record.line))?;
        let s = match &mut solver {
            Some(s) if s.shape() == p.shape() => s,
            slot => slot.insert(FcSolver::new(p.shape())),
        };
        let mut time = Duration::ZERO;
        let mut last = None;
        for _ in 0..repeat {
            let o = s.solve(&p, cap, 0, &budget)?;
            time += o.stats.elapsed;
            last = Some(o);
        }
        let o = last.expect("at least one run");
        let t = time / repeat;
        rows += 1;
        total_time += t;
        total_nodes += o.stats.nodes;
        let st = &o.stats;
        println!(
            "{rows}\t{}\t{:.3}\t{}\t{}\t{}\t{}\t{}\t{}",
            st.givens,
            t.as_secs_f64() * 1e3,
            st.nodes,
            st.fc_removed,
            st.backtracks,
            st.fc_failures,
            st.initial_removed,
            o.count
        );
    }
    if rows > 0 {
        println!(
            "mean over {rows}: {:.3} ms, {:.1} nodes",
            total_time.as_secs_f64() * 1e3 / f64::from(rows),
            total_nodes as f64 / f64::from(rows)
        );
    }
    Ok(())
}

//! Blank-grid fill benchmark: median and worst time over a run of seeds for every box size,
//! on 1 and 2 workers, with OR-tools CP-SAT (`../shared/tools/cpsat_peer.py blank B`) timed
//! beside it in the same run when Python and `ortools` are there.
//!
//! Heavy-tailed searches need many seeds and wall-clock figures, not criterion's
//! micro-benchmark statistics, so this is a plain `harness = false` program.
//!
//! Run: `cargo bench --bench fill` (all sizes, 20 seeds); environment knobs:
//! `FILL_SEEDS=N`, `FILL_BOXES=8,9,10`, `FILL_PEER=0` to skip CP-SAT,
//! `FILL_PEER_BOXES=5,6,7,8`.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use shiftgrid::Shape;
use shiftgrid::generate::fill::{FillConfig, fill_grid};
use shiftgrid::solve::SearchControl;

fn env_list(name: &str, default: &[usize]) -> Vec<usize> {
    std::env::var(name)
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| default.to_vec())
}

fn median_worst(mut xs: Vec<f64>) -> (f64, f64) {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    let median = if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    };
    (median, xs[n - 1])
}

/// Peak resident set size of this process so far, in MiB (Linux `VmHWM`).
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn cpsat(b: usize, seed: u64) -> Option<f64> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/tools/cpsat_peer.py");
    if !script.exists() {
        return None;
    }
    let out = Command::new("python3")
        .arg(&script)
        .args(["blank", &b.to_string(), &seed.to_string(), "300"])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    // "cpsat blank b=5 n=25 status=OPTIMAL wall=1.234s"
    let ok = text.contains("status=OPTIMAL") || text.contains("status=FEASIBLE");
    let wall = text.split("wall=").nth(1)?.trim().trim_end_matches('s');
    let t: f64 = wall.parse().ok()?;
    Some(if ok { t } else { f64::INFINITY })
}

fn main() {
    // `cargo bench` passes --bench; ignore arguments.
    let seeds: u64 = std::env::var("FILL_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let boxes = env_list("FILL_BOXES", &[2, 3, 4, 5, 6, 7, 8, 9, 10]);
    let peer_boxes = if std::env::var("FILL_PEER").as_deref() == Ok("0") {
        Vec::new()
    } else {
        env_list("FILL_PEER_BOXES", &[5, 6, 7, 8])
    };
    println!(
        "| size | 1 worker median | 1 worker worst | 2 workers median | 2 workers worst | CP-SAT median (2 workers) | ratio CP-SAT / ours (2) |"
    );
    println!("|---|---|---|---|---|---|---|");
    for b in boxes {
        let shape = Shape::new(b).expect("bench sizes are supported");
        let mut cols = Vec::new();
        let mut two_median = f64::NAN;
        for workers in [1usize, 2] {
            let mut times = Vec::new();
            for seed in 0..seeds {
                let cfg = FillConfig {
                    workers,
                    ..FillConfig::new(seed)
                };
                let t = Instant::now();
                let f = fill_grid(shape, &cfg, &SearchControl::default())
                    .expect("no interrupt in the bench");
                times.push(t.elapsed().as_secs_f64());
                std::hint::black_box(f);
            }
            let (m, w) = median_worst(times);
            if workers == 2 {
                two_median = m;
            }
            cols.push(format!("{:.4} s", m));
            cols.push(format!("{:.4} s", w));
        }
        let (peer, ratio) = if peer_boxes.contains(&b) {
            let runs: Vec<f64> = (0..3).filter_map(|s| cpsat(b, s)).collect();
            if runs.is_empty() {
                ("n/a".to_string(), "n/a".to_string())
            } else {
                let (m, _) = median_worst(runs);
                (format!("{m:.2} s"), format!("{:.0}x", m / two_median))
            }
        } else {
            ("-".to_string(), "-".to_string())
        };
        println!(
            "| {0}x{0} | {1} | {2} | {3} | {4} | {peer} | {ratio} |",
            shape.side(),
            cols[0],
            cols[1],
            cols[2],
            cols[3]
        );
    }
    if let Some(mib) = peak_rss_mib() {
        println!("\npeak RSS of the whole bench process: {mib:.0} MiB");
    }
}

//! Counts each puzzle of a file (one per line, any format `shiftgrid` reads) up to 2 with
//! the CDCL engine and prints `index  seconds  verdict  conflicts`, the shape of
//! `../shared/tools/sat_peer.py`'s output, for `benches/hard.sh`.
//!
//! `cargo run --release --example learn_count -- FILE [SECONDS] [SEED]`

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shiftgrid::io::parse::{ParseOptions, parse_puzzles};
use shiftgrid::solve::learn::{Branch, Budget, LearnConfig, Phase, Rephase, RestartPolicy, count};

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
    let mut config = LearnConfig::new(seed);
    // Knobs for tuning runs (the default settings otherwise): LEARN_BRANCH=vsids|global,
    // LEARN_LOCKED=0, LEARN_PHASE=saved|cell|true, LEARN_LATER (the phase after the first
    // solution), LEARN_RESTART=luby:N | glucose:K | modes:GLUE,LUBY,FIRST, LEARN_DECAY,
    // LEARN_FDECAY, LEARN_TARGET=1 (target phases), LEARN_REPHASE=BIOF letters,
    // LEARN_REPHASEINT, LEARN_BUMPR=1 (reason-side bumping), LEARN_CAP (count up to; 2),
    // LEARN_REDUCE=FIRST,INC (conflicts before the first learned-clause reduction, growth),
    // LEARN_VIVIFY (vivification effort in thousandths, 0 for off),
    // LEARN_STATS=1 (print the counters). LearnConfig::stable is
    // LEARN_BRANCH=vsids LEARN_TARGET=1 LEARN_RESTART=luby:512 LEARN_BUMPR=1
    // LEARN_REPHASEINT=3000 LEARN_LOCKED=0 LEARN_VIVIFY=0.
    if let Ok(b) = std::env::var("LEARN_BRANCH") {
        config.branch = match b.as_str() {
            "vsids" => Branch::Vsids,
            "global" => Branch::Global,
            _ => Branch::Auto,
        };
    }
    if let Ok(v) = std::env::var("LEARN_VIVIFY") {
        config.vivify = v.parse()?;
    }
    if let Ok(t) = std::env::var("LEARN_BUMPR") {
        config.bump_reasons = t != "0";
    }
    if let Ok(t) = std::env::var("LEARN_TARGET") {
        config.target = t != "0";
    }
    if let Ok(r) = std::env::var("LEARN_REPHASE") {
        let cycle: Vec<Rephase> = r
            .bytes()
            .map(|c| match c {
                b'B' => Ok(Rephase::Best),
                b'I' => Ok(Rephase::False),
                b'O' => Ok(Rephase::True),
                b'F' => Ok(Rephase::Flip),
                _ => Err(anyhow::anyhow!("LEARN_REPHASE: letters B, I, O, F")),
            })
            .collect::<anyhow::Result<_>>()?;
        config.rephase = Box::leak(cycle.into_boxed_slice());
    }
    if let Ok(r) = std::env::var("LEARN_REPHASEINT") {
        config.rephase_int = r.parse()?;
    }
    if let Ok(l) = std::env::var("LEARN_LOCKED") {
        config.locked = l != "0";
    }
    if let Ok(p) = std::env::var("LEARN_PHASE") {
        config.phase = match p.as_str() {
            "saved" => Phase::Saved,
            "cell" => Phase::Cell,
            _ => Phase::True,
        };
    }
    if let Ok(p) = std::env::var("LEARN_LATER") {
        config.later_phase = match p.as_str() {
            "saved" => Phase::Saved,
            "cell" => Phase::Cell,
            _ => Phase::True,
        };
    }
    if let Ok(r) = std::env::var("LEARN_RESTART") {
        config.restarts = match r.split_once(':') {
            Some(("luby", u)) => RestartPolicy::Luby(u.parse()?),
            Some(("glucose", k)) => RestartPolicy::Glucose(k.parse()?),
            Some(("modes", m)) => {
                let v: Vec<&str> = m.split(',').collect();
                RestartPolicy::Modes {
                    glue: v[0].parse()?,
                    luby: v[1].parse()?,
                    first: v[2].parse()?,
                }
            }
            _ => anyhow::bail!("LEARN_RESTART: luby:N or glucose:K"),
        };
    }
    if let Ok(d) = std::env::var("LEARN_DECAY") {
        config.decay = d.parse()?;
    }
    if let Ok(d) = std::env::var("LEARN_FDECAY") {
        config.focused_decay = d.parse()?;
    }
    if let Ok(r) = std::env::var("LEARN_REDUCE") {
        let (first, inc) = r
            .split_once(',')
            .ok_or_else(|| anyhow::anyhow!("LEARN_REDUCE: FIRST,INC"))?;
        config.reduce_first = first.parse()?;
        config.reduce_inc = inc.parse()?;
    }
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
            total_conflicts: u64::MAX,
            progress: None,
            control: None,
        };
        let verdict;
        let conflicts;
        let mut extra = String::new();
        let cap: u64 = std::env::var("LEARN_CAP").map_or(Ok(2), |c| c.parse())?;
        match count(&puzzle, cap, 2, &config, &budget) {
            Ok(o) => {
                conflicts = o.stats.conflicts;
                if std::env::var_os("LEARN_STATS").is_some() {
                    extra = format!("\t{:?}", o.stats);
                }
                verdict = match (o.count, o.complete) {
                    (0, false) => "timeout",
                    (1, false) => "timeout1",
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
            "{}\t{:.2}\t{verdict}\t{conflicts}{extra}",
            i + 1,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

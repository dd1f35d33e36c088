//! Progress display and Ctrl-C handling: the only place that talks to the terminal.
//!
//! Bars go to stderr, and only when stderr is a terminal and `--quiet` is off (indicatif's
//! terminal target also hides itself for `TERM=dumb`). The library never calls indicatif: it
//! bumps atomics in a [`SearchControl`] that a ticker thread here reads ten times a second.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::solve::SearchControl;

/// Whether progress bars should be drawn.
pub fn show_progress(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// Installs the Ctrl-C handler: the first press raises `flag` (the run stops at the next
/// poll and writes nothing partial); a second press exits at once with status 130.
pub fn install_ctrlc(flag: Arc<AtomicBool>) {
    // Installing twice (as tests that call `run` repeatedly would) is harmless to ignore.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
}

/// A progress bar over a counted number of work items (puzzles, grids), plus a node rate
/// read from a [`SearchControl`].
pub struct Progress {
    bar: Option<ProgressBar>,
    generate_cells: Arc<AtomicU64>,
    ticker: Option<JoinHandle<()>>,
    stop: Arc<AtomicBool>,
    /// Work items finished; bump it from workers.
    pub done: Arc<AtomicU64>,
}

impl Progress {
    /// A bar of `total` items labelled `what` (hidden unless `visible`). When `total` is 1 it
    /// is a spinner showing the search's nodes and rate instead. With `fill_cells` set, the
    /// message also shows cells placed of that many and the restarts so far.
    pub fn new(
        visible: bool,
        total: u64,
        what: &str,
        control: &SearchControl,
        fill_cells: Option<u64>,
    ) -> Progress {
        let done = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let generate_cells = Arc::new(AtomicU64::new(0));
        if !visible {
            return Progress {
                bar: None,
                generate_cells,
                ticker: None,
                stop,
                done,
            };
        }
        let bar = if total > 1 {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(&format!(
                    "{{spinner}} {{bar:30}} {{pos}}/{{len}} {what} [{{elapsed_precise}}, eta {{eta}}] {{msg}}"
                ))
                .expect("the progress template is valid"),
            );
            bar
        } else {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} searching [{elapsed_precise}] {msg}")
                    .expect("the progress template is valid"),
            );
            bar
        };
        let ticker = {
            let bar = bar.clone();
            let stop = Arc::clone(&stop);
            let done = Arc::clone(&done);
            let control = control.clone();
            let generate_cells = Arc::clone(&generate_cells);
            std::thread::spawn(move || {
                let start = Instant::now();
                while !stop.load(Ordering::Relaxed) {
                    let n = control.nodes.load(Ordering::Relaxed);
                    let secs = start.elapsed().as_secs_f64().max(1e-9);
                    bar.set_position(done.load(Ordering::Relaxed));
                    let rate = format!("{} nodes, {}/s", human(n as f64), human(n as f64 / secs));
                    let gen_cells = generate_cells.load(Ordering::Relaxed);
                    let checks = control.checks.load(Ordering::Relaxed);
                    bar.set_message(match fill_cells {
                        _ if gen_cells > 0 && total <= 1 => format!(
                            "{}/{gen_cells} givens left, {checks} checks, {:.0} checks/s",
                            control.givens.load(Ordering::Relaxed),
                            checks as f64 / secs
                        ),
                        Some(cells) if total <= 1 => format!(
                            "{}/{cells} cells placed, {} restarts, {rate}",
                            control.placed.load(Ordering::Relaxed),
                            control.restarts.load(Ordering::Relaxed),
                        ),
                        _ => rate,
                    });
                    bar.tick();
                    std::thread::sleep(Duration::from_millis(100));
                }
            })
        };
        Progress {
            bar: Some(bar),
            generate_cells,
            ticker: Some(ticker),
            stop,
            done,
        }
    }

    /// Shows generation counters (givens left of `cells`, checks, checks/s) instead of
    /// search nodes.
    pub fn generate_mode(&self, cells: u64) {
        self.generate_cells.store(cells, Ordering::Relaxed);
    }

    /// Stops the ticker and clears the bar.
    pub fn finish(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.ticker.take() {
            let _ = t.join();
        }
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// 1234567 → "1.23M".
pub fn human(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2}G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2}M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1}k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_units() {
        assert_eq!(human(12.0), "12");
        assert_eq!(human(1234.0), "1.2k");
        assert_eq!(human(1_234_567.0), "1.23M");
        assert_eq!(human(3e9), "3.00G");
    }

    #[test]
    fn hidden_progress_is_inert() {
        let p = Progress::new(false, 10, "puzzles", &SearchControl::default(), None);
        p.done.fetch_add(3, Ordering::Relaxed);
        p.finish();
    }
}

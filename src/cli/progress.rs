//! Progress display and Ctrl-C handling: the only place that talks to the terminal.
//!
//! Bars go to stderr, and only when stderr is a terminal that can move its cursor (not
//! `TERM=dumb`, where indicatif would still send its escapes) and `--quiet` is off. The
//! library never calls indicatif: it
//! bumps atomics in a [`SearchControl`] that a ticker thread here reads ten times a second.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, WeakProgressBar};

use crate::generate::ga::GaProgress;
use crate::solve::SearchControl;

/// Whether progress bars should be drawn: stderr is a terminal that moves its cursor, and
/// the run does not read what is typed on a terminal (a bar redrawn ten times a second
/// would hide the line being typed).
pub fn show_progress(quiet: bool) -> bool {
    for_a_person(quiet)
        && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
        && !TYPED_INPUT.load(Ordering::Relaxed)
}

/// Whether the run reads its input from a terminal, as typed: then no bar is drawn, for
/// the whole run.
static TYPED_INPUT: AtomicBool = AtomicBool::new(false);

/// Notes that the run reads what is typed on a terminal, before any bar is made: no bar is
/// drawn from then on (the summary line still is).
pub(super) fn reading_typed_input() {
    TYPED_INPUT.store(true, Ordering::Relaxed);
}

/// Whether a person reads stderr: it is a terminal (a dumb one too) and not `--quiet`.
pub(super) fn for_a_person(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// Whether the bar on stderr has begun to be drawn ([`SHOW_AFTER`]).
static DRAWN: AtomicBool = AtomicBool::new(false);

/// Whether a progress bar has been drawn on stderr (a terminal) in this run: a line
/// written without it may have to clear the bar's first.
pub fn bar_drawn() -> bool {
    DRAWN.load(Ordering::Relaxed)
}

/// The bar on stderr now, if any: [`print_line`] prints above it.
static SHOWN: std::sync::Mutex<Option<WeakProgressBar>> = std::sync::Mutex::new(None);

/// Prints one line on stderr (what `msg!` does). While a bar is shown the bar is cleared
/// first and drawn again below the line, so that a note, an error or the Ctrl-C message
/// gets a line of its own instead of running on after the bar and wrapping, and no stale
/// piece of the bar is left on screen. Never panics (a closed or full stderr is ignored).
pub fn print_line(line: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    let write = || {
        let _ = writeln!(std::io::stderr(), "{line}");
    };
    match shown_bar() {
        Some(bar) if !bar.is_hidden() && DRAWN.load(Ordering::Relaxed) => bar.suspend(write),
        // (A bar not yet drawn would be drawn by `suspend`.)
        _ => write(),
    }
}

/// [`print_line`] for the last words of a process about to exit: the bar is cleared for
/// good first, so that the line is the last thing on screen, not a bar drawn again below
/// it.
pub fn print_last_line(line: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    if let Some(bar) = shown_bar() {
        bar.finish_and_clear();
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn shown_bar() -> Option<ProgressBar> {
    SHOWN
        .lock()
        .ok()
        .and_then(|shown| shown.as_ref().and_then(WeakProgressBar::upgrade))
}

/// Prints a one-line summary (`shiftgrid: …`) on stderr when stderr is a terminal (a
/// dumb one too) and not `--quiet`: what was made, how long it took, the key counters.
pub fn summary(quiet: bool, line: &str) {
    if for_a_person(quiet) {
        msg!("shiftgrid: {line}");
    }
}

/// What a bar measures.
#[derive(Clone)]
enum Meter {
    /// Work items done of a known total.
    Items,
    /// One search: a spinner with its nodes (or, for fills, cells placed).
    Search { fill_cells: Option<u64> },
    /// Bytes of the input read of its size, then (once the input is read to its end,
    /// `ended`) items done of the `taken` it holds; a spinner with items done when the size
    /// is unknown.
    Stream {
        read: Arc<AtomicU64>,
        size: Option<u64>,
        taken: Arc<AtomicU64>,
        ended: Arc<AtomicBool>,
    },
    /// Puzzle generation: orbits checked of `orbits`, givens left of `cells`, then
    /// `rounds` rounds of improvement.
    Generate {
        cells: u64,
        orbits: u64,
        rounds: u64,
    },
    /// One genetic-algorithm run: generations done, best and mean fitness.
    Ga(GaProgress),
}

/// A progress bar fed from counters that workers bump (see the module documentation).
pub struct Progress {
    bar: Option<ProgressBar>,
    ticker: Option<JoinHandle<()>>,
    stop: Arc<AtomicBool>,
    start: Instant,
    /// Work items finished; bump it from workers.
    pub done: Arc<AtomicU64>,
}

impl Progress {
    /// A bar of `total` items labelled `what` (hidden unless `visible`). When `total` is 1 it
    /// is a spinner showing the search's nodes and rate instead. With `fill_cells` set, the
    /// spinner shows cells placed of that many and the restarts so far.
    pub fn new(
        visible: bool,
        total: u64,
        what: &str,
        control: &SearchControl,
        fill_cells: Option<u64>,
    ) -> Progress {
        let meter = if total > 1 {
            Meter::Items
        } else {
            Meter::Search { fill_cells }
        };
        Progress::start(visible, Some(total), what, control, meter)
    }

    /// A bar over the bytes of an input of `size` bytes (`None`: a spinner), with the
    /// `what` done so far (puzzles) in its message; once the input is read to its end
    /// (`ended`), over the `what` done of the `taken` it holds (a long search on the last
    /// puzzles would otherwise show 100% while it runs).
    pub fn stream(
        visible: bool,
        what: &str,
        control: &SearchControl,
        read: Arc<AtomicU64>,
        size: Option<u64>,
        taken: Arc<AtomicU64>,
        ended: Arc<AtomicBool>,
    ) -> Progress {
        let meter = Meter::Stream {
            read,
            size,
            taken,
            ended,
        };
        Progress::start(visible, size, what, control, meter)
    }

    /// A bar over the `orbits` removal checks of one generated puzzle of `cells` cells,
    /// then over its `rounds` rounds of improvement (none: 0).
    pub fn generate(
        visible: bool,
        control: &SearchControl,
        cells: u64,
        orbits: u64,
        rounds: u64,
    ) -> Progress {
        let meter = Meter::Generate {
            cells,
            orbits,
            rounds,
        };
        Progress::start(visible, Some(orbits), "orbits", control, meter)
    }

    /// A bar over the `generations` of one genetic-algorithm run, read from `p`.
    pub fn ga(
        visible: bool,
        control: &SearchControl,
        generations: u32,
        p: &GaProgress,
    ) -> Progress {
        let meter = Meter::Ga(p.clone());
        Progress::start(
            visible,
            Some(u64::from(generations)),
            "generations",
            control,
            meter,
        )
    }

    fn start(
        visible: bool,
        total: Option<u64>,
        what: &str,
        control: &SearchControl,
        meter: Meter,
    ) -> Progress {
        let done = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let start = Instant::now();
        if !visible {
            return Progress {
                bar: None,
                ticker: None,
                stop,
                start,
                done,
            };
        }
        let bar = bar_field(terminal_size::terminal_size_of(std::io::stderr()).map(|(w, _)| w.0));
        let template = match (&meter, total) {
            (Meter::Items | Meter::Ga(_), _) => format!(
                "{{spinner}} {bar}{{pos}}/{{len}} {what} [{{elapsed_precise}}, eta {{eta}}] {{wide_msg}}"
            ),
            (Meter::Stream { size: Some(_), .. }, _) | (Meter::Generate { .. }, _) => {
                format!(
                    "{{spinner}} {bar}{{prefix}} [{{elapsed_precise}}, eta {{eta}}] {{wide_msg}}"
                )
            }
            _ => "{spinner} [{elapsed_precise}] {wide_msg}".to_string(),
        };
        let len = match meter {
            Meter::Items | Meter::Stream { .. } | Meter::Generate { .. } | Meter::Ga(_) => total,
            Meter::Search { .. } => None,
        };
        let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_spinner())
            .with_key("eta", eta);
        bar.set_style(if utf8_locale(|k| std::env::var_os(k)) {
            style
        } else {
            style.progress_chars("#>-").tick_chars("-\\|/ ")
        });
        DRAWN.store(false, Ordering::Relaxed);
        if let Ok(mut shown) = SHOWN.lock() {
            *shown = Some(bar.downgrade());
        }
        let ticker = {
            let bar = bar.clone();
            let stop = Arc::clone(&stop);
            let done = Arc::clone(&done);
            let control = control.clone();
            let what = what.to_string();
            std::thread::spawn(move || {
                // Nothing drawn for a run shorter than the delay (`finish` unparks it).
                let shown_at = start + SHOW_AFTER;
                while !stop.load(Ordering::Relaxed) && Instant::now() < shown_at {
                    std::thread::park_timeout(shown_at.saturating_duration_since(Instant::now()));
                }
                DRAWN.store(true, Ordering::Relaxed);
                while !stop.load(Ordering::Relaxed) {
                    tick(&bar, &meter, &control, &done, &what, start);
                    // `finish` unparks it: a run shorter than a tick does not wait for one.
                    std::thread::park_timeout(Duration::from_millis(100));
                }
            })
        };
        Progress {
            bar: Some(bar),
            ticker: Some(ticker),
            stop,
            start,
            done,
        }
    }

    /// Time since the bar was made.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Stops the ticker and clears the bar.
    pub fn finish(mut self) {
        self.end();
    }

    fn end(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.ticker.take() {
            t.thread().unpark();
            let _ = t.join();
        }
        if let Some(bar) = self.bar.take() {
            if let Ok(mut shown) = SHOWN.lock() {
                *shown = None;
            }
            bar.finish_and_clear();
        }
    }
}

/// A bar dropped on the way out of an error is cleared too (its thread kept drawing it, and
/// the error's message left it on the screen below).
impl Drop for Progress {
    fn drop(&mut self) {
        self.end();
    }
}

/// How long a run goes before its bar is first drawn: a command that ends sooner draws
/// none (a bar drawn for a few milliseconds is only flicker, and noise to a screen reader).
const SHOW_AFTER: Duration = Duration::from_millis(250);

/// The bar field of a template for a terminal `columns` wide: 30 cells where the counters
/// beside it still fit (100 columns and more), fewer down to 8 on narrower terminals, and
/// none below that, so that more of the counters fit (at 80 columns a 30-cell bar left the
/// message half its rate; a long message is still cut at the terminal's edge).
fn bar_field(columns: Option<u16>) -> String {
    let width = usize::from(columns.unwrap_or(80))
        .saturating_sub(70)
        .min(30);
    if width < 8 {
        String::new()
    } else {
        format!("{{bar:{width}}} ")
    }
}

/// Whether the locale's characters are UTF-8, read as `setlocale` reads them (the first of
/// `LC_ALL`, `LC_CTYPE` and `LANG` that is set and not empty; none is the C locale). The
/// bar's block and braille characters need it: elsewhere it is drawn in ASCII.
fn utf8_locale(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|k| var(k).filter(|v| !v.is_empty()))
        .is_some_and(|v| {
            let v = v.to_string_lossy().to_ascii_lowercase();
            v.contains("utf-8") || v.contains("utf8")
        })
}

/// The bar's `{eta}`: `?` until something is done (indicatif's own says `0s` then, as on
/// a batch of one hard puzzle, for as long as it runs).
fn eta(state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write) {
    let _ = if state.pos() == 0 {
        w.write_str("?")
    } else {
        write!(w, "{:#}", indicatif::HumanDuration(state.eta()))
    };
}

/// One update of a bar from the counters.
fn tick(
    bar: &ProgressBar,
    meter: &Meter,
    control: &SearchControl,
    done: &AtomicU64,
    what: &str,
    start: Instant,
) {
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let n = control.nodes.load(Ordering::Relaxed);
    // The learning engine's work is in conflicts; beside it the node count is what the
    // other engines of a race did (a probe's hundred nodes, or the fill search), whose
    // rate over the whole run would mislead: once the learners run, their figures alone.
    let conflicts = control.conflicts.load(Ordering::Relaxed);
    let mut rate = if conflicts > 0 {
        String::new()
    } else {
        format!("{} nodes, {}/s", human(n as f64), human(n as f64 / secs))
    };
    if conflicts > 0 {
        rate.push_str(&format!(
            "{} conflicts, {}/s, {} clauses held, {} restarts",
            human(conflicts as f64),
            human(conflicts as f64 / secs),
            human(control.learned.load(Ordering::Relaxed) as f64),
            human(control.restarts.load(Ordering::Relaxed) as f64),
        ));
    }
    let done = done.load(Ordering::Relaxed);
    let message = match meter {
        Meter::Items => {
            bar.set_position(done);
            rate
        }
        Meter::Search { fill_cells: None } => rate,
        Meter::Search {
            fill_cells: Some(cells),
        } => format!(
            "{}/{cells} cells placed, {} restarts, {rate}",
            control.placed.load(Ordering::Relaxed),
            control.restarts.load(Ordering::Relaxed),
        ),
        Meter::Stream {
            read,
            size,
            taken,
            ended,
        } => {
            let read = read.load(Ordering::Relaxed);
            let taken = taken.load(Ordering::Relaxed);
            // A batch that has searched nothing (export) shows no search figures.
            let rate = if n == 0 && conflicts == 0 {
                String::new()
            } else {
                rate
            };
            match *size {
                Some(_) if ended.load(Ordering::Relaxed) && taken > 0 => {
                    // All read: the bar is over the puzzles read now.
                    if bar.length() != Some(taken) {
                        bar.set_length(taken);
                        bar.reset_eta();
                    }
                    bar.set_position(done.min(taken));
                    bar.set_prefix(format!("{done}/{taken} {what}"));
                    return bar.set_message(rate);
                }
                Some(size) => {
                    bar.set_position(read.min(size));
                    bar.set_prefix(format!(
                        "{:>3}% of {}",
                        read.min(size) * 100 / size.max(1),
                        indicatif::BinaryBytes(size)
                    ));
                }
                None => {}
            }
            let sep = if rate.is_empty() { "" } else { ", " };
            format!("{done} {what} ({}/s){sep}{rate}", human(done as f64 / secs))
        }
        Meter::Generate {
            cells,
            orbits,
            rounds,
        } => {
            let checks = control.checks.load(Ordering::Relaxed);
            if *rounds > 0 && control.improving.load(Ordering::Relaxed) {
                // Rounds of improvement: the bar starts again, over the rounds (label and
                // position first, so that no frame mixes the two bars).
                let done = control.rounds.load(Ordering::Relaxed);
                let rounds = rounds + control.more_rounds.load(Ordering::Relaxed);
                bar.set_prefix(format!("{done}/{rounds} rounds of improvement"));
                bar.set_position(done);
                if bar.length() != Some(rounds) {
                    bar.set_length(rounds);
                    bar.reset_eta();
                }
            } else {
                // Minimal runs from 25x25 re-check unproven orbits: the bar then grows.
                let queued = control.queued.load(Ordering::Relaxed);
                let len = if checks + queued > 0 {
                    checks + queued
                } else {
                    *orbits
                };
                bar.set_length(len);
                bar.set_position(checks);
                bar.set_prefix(format!(
                    "{:>3}% of {len} orbits checked",
                    checks * 100 / len.max(1)
                ));
            }
            // Before the generator's first report (while the grid is filled) every cell is
            // still a given; no unique puzzle has none.
            let givens = match control.givens.load(Ordering::Relaxed) {
                0 => *cells,
                g => g,
            };
            format!(
                "{givens}/{cells} givens left, {checks} checks ({:.0}/s), {rate}",
                checks as f64 / secs
            )
        }
        Meter::Ga(p) => {
            bar.set_position(p.generation.load(Ordering::Relaxed));
            let best = p.best_fitness.load(Ordering::Relaxed);
            if best == 0 {
                // Nothing graded yet: no fitness to show.
                String::new()
            } else {
                format!(
                    "best L{} S{} (fitness {best}), mean fitness {:.1}, {} evaluated",
                    p.best_level.load(Ordering::Relaxed),
                    p.best_steps.load(Ordering::Relaxed),
                    p.mean_fitness_milli.load(Ordering::Relaxed) as f64 / 1000.0,
                    p.evaluations.load(Ordering::Relaxed),
                )
            }
        }
    };
    bar.set_message(message);
    bar.tick();
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

mod signals;
pub use signals::install_ctrlc;
pub(in crate::cli) use signals::{await_press_message, stop_flag};

#[cfg(test)]
mod tests;

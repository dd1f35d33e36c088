//! Ctrl-C, SIGTERM, SIGHUP and SIGXCPU: the first press raises the run's stop flag and
//! says so; a second, or a wait for another process after the first, exits at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Installs the Ctrl-C handler, which SIGTERM (what `timeout`, systemd and Kubernetes
/// send) and SIGHUP (a closed terminal) reach too, on Unix; a SIGHUP or SIGINT ignored when
/// the run started (`nohup`; a `&` job of a shell script) stays ignored where that can be
/// told (Linux; elsewhere SIGHUP is left to the system and SIGINT handled). The first
/// press raises `flag` (the run stops at the next poll, within about 100 ms, and writes
/// nothing partial) and says so on stderr; a second press removes any temporary output
/// file and exits at once with status 130.
///
/// A run that waits for another process after the first press would not see the flag
/// until the other side moved (see [`crate::io::blocking`]). So it exits as at a second
/// press once one read or open has waited 30 ms (a terminal or a pipe with no more input, a
/// FIFO with no other end), or one write has handed over nothing for a second (a pipe that
/// nobody reads; a reader that is slow but reading, 4 KiB a second, still gets everything).
pub fn install_ctrlc(flag: Arc<AtomicBool>) {
    // Installing twice (as tests that call `run` repeatedly would) is harmless to ignore.
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // The flag the handlers raise in the signal handler itself (see `stop_flag`).
        let raised = Arc::new(AtomicBool::new(false));
        let _ = STOP.set(Arc::clone(&raised));
        let on_int = Arc::clone(&flag);
        // A SIGINT ignored at start stays so: a shell without job control starts `&` jobs
        // that way, so that a Ctrl-C meant for the script leaves them running.
        #[cfg(unix)]
        let ignored = ignored_at_start(signal_hook::consts::SIGINT).unwrap_or(false);
        #[cfg(not(unix))]
        let ignored = false;
        let installed = !ignored
            && ctrlc::set_handler(move || pressed(&on_int, "stopping (press Ctrl-C again")).is_ok();
        #[cfg(unix)]
        {
            if installed {
                raise_at_once(signal_hook::consts::SIGINT, &raised);
            }
            install_termination(flag, raised);
        }
        #[cfg(not(unix))]
        let _ = (installed, raised);
    });
}

/// Also raises `raised` inside the signal handler of `signal` itself, once a handler that
/// answers it is installed: at once, where those handlers run on a thread that may be
/// scheduled a few milliseconds later. A reader waiting for piped input looks at it
/// (`input/pump.rs`), so that the end of a producer stopped by the same Ctrl-C is never
/// taken for the input's end. (The handler installed before it still runs: signal-hook
/// chains them.)
#[cfg(unix)]
fn raise_at_once(signal: i32, raised: &Arc<AtomicBool>) {
    let _ = signal_hook::flag::register(signal, Arc::clone(raised));
}

/// The flag raised in the signal handler by the first press of Ctrl-C (or SIGTERM, SIGHUP),
/// for a reader that waits for input (`input/pump.rs`), with the run's own stop flag, which
/// the handler's thread raises a little later; one that is never raised before
/// [`install_ctrlc`].
pub(in crate::cli) fn stop_flag() -> Arc<AtomicBool> {
    STOP.get().map_or_else(Arc::default, Arc::clone)
}

/// Once a read waiting for input has seen the press: waits (at most 200 ms) for the
/// handler's thread to have said so, so that its message comes before what the run then
/// writes, and is not lost when the run ends first.
pub(in crate::cli) fn await_press_message() {
    if STOP.get().is_none() {
        return;
    }
    let start = Instant::now();
    while !SAID.load(Ordering::SeqCst) && start.elapsed() < Duration::from_millis(200) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The flag raised in the signal handler itself, once the handlers are installed.
static STOP: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();

/// Whether the first press has been answered on stderr.
static SAID: AtomicBool = AtomicBool::new(false);

/// A press of Ctrl-C (or SIGTERM, SIGHUP, SIGXCPU): the first raises `flag` and says
/// why it stops and how to exit at once (`why`, completed by "to exit at once)"), the
/// second exits. A second signal within [`SAME_PRESS`] of the first
/// is the same press: coreutils `timeout` signals the child and then its process group,
/// microseconds apart, and the two are not always merged into one.
fn pressed(flag: &AtomicBool, why: &str) {
    static FIRST: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let first = *FIRST.get_or_init(Instant::now);
    if flag.swap(true, Ordering::SeqCst) {
        if first.elapsed() < SAME_PRESS {
            return;
        }
        exit_at_once("interrupted again: exiting at once");
    }
    // Raised in the signal handler already, unless that could not be registered.
    if let Some(raised) = STOP.get() {
        raised.store(true, Ordering::SeqCst);
    }
    msg!("shiftgrid: interrupted: {why} to exit at once)");
    SAID.store(true, Ordering::SeqCst);
    // Without room for a thread (`ulimit -v`), a run stuck waiting on a pipe is not caught;
    // one that computes still stops at its next poll.
    let _ = std::thread::Builder::new().spawn(watch_for_waits);
}

/// SIGTERM, and SIGHUP and SIGXCPU unless they are ignored, handled as a press of Ctrl-C
/// by a thread that waits for them (and raising `raised` in the handler). SIGXCPU comes
/// when the CPU-time limit (`ulimit -t`, a batch system's) is reached, then once a second
/// until the hard limit kills the process: only the first counts, so that the run has
/// that second to write what it finished.
#[cfg(unix)]
fn install_termination(flag: Arc<AtomicBool>, raised: Arc<AtomicBool>) {
    use signal_hook::consts::{SIGHUP, SIGTERM, SIGXCPU};
    let mut signals = vec![SIGTERM];
    // Where it cannot be told, SIGHUP is taken as ignored: it keeps what the system does.
    for signal in [SIGHUP, SIGXCPU] {
        if !ignored_at_start(signal).unwrap_or(true) {
            signals.push(signal);
        }
    }
    // The thread registers the handlers itself: without room for it (`ulimit -v`), the
    // signals keep what the system does with them (Ctrl-C is still handled), rather than
    // the run failing or the signals being caught with no one to answer them.
    let _ = std::thread::Builder::new().spawn(move || {
        if let Ok(mut waiting) = signal_hook::iterator::Signals::new(&signals) {
            for &signal in &signals {
                raise_at_once(signal, &raised);
            }
            for signal in waiting.forever() {
                if signal != SIGXCPU {
                    pressed(&flag, "stopping (send the signal again");
                } else if !flag.load(Ordering::SeqCst) {
                    pressed(
                        &flag,
                        "the CPU time limit (ulimit -t) is reached: stopping (Ctrl-C or \
                         SIGTERM",
                    );
                }
            }
        }
    });
}

/// Whether `signal` was ignored when the process started (SIGHUP under `nohup`, SIGINT in
/// a `&` job of a shell without job control, either after `trap ''`): the `SigIgn` mask
/// of `/proc/self/status` on Linux; `None` where it cannot be told.
#[cfg(unix)]
fn ignored_at_start(signal: i32) -> Option<bool> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let mask = status.lines().find_map(|l| l.strip_prefix("SigIgn:"))?;
    let mask = u64::from_str_radix(mask.trim(), 16).ok()?;
    let bit = u32::try_from(signal - 1).ok()?;
    Some(mask.checked_shr(bit)? & 1 != 0)
}

/// After the first Ctrl-C: exits once one marked call has waited longer than its kind's
/// [`Wait::patience`](crate::io::blocking::Wait::patience), sampled every [`WAIT_SAMPLE`].
fn watch_for_waits() {
    use crate::io::blocking::{self, Wait};
    let mut seen: Option<(u64, Instant)> = None;
    loop {
        std::thread::sleep(WAIT_SAMPLE);
        let Some((token, wait)) = blocking::waiting() else {
            seen = None;
            continue;
        };
        let since = match seen {
            Some((t, at)) if t == token => at,
            _ => seen.insert((token, Instant::now())).1,
        };
        if since.elapsed() >= wait.patience() {
            exit_at_once(match wait {
                Wait::Read => "interrupted while waiting for input: exiting",
                Wait::Open => "interrupted while waiting for a FIFO's other end: exiting",
                Wait::Write => "interrupted while waiting for output to be read: exiting",
            });
        }
    }
}

/// How soon after the first a signal counts as the same press (see [`pressed`]): far
/// below any two presses of a key, far above the microseconds between `timeout`'s two.
const SAME_PRESS: Duration = Duration::from_millis(20);

/// How often the watch after the first Ctrl-C looks at the call under way.
const WAIT_SAMPLE: Duration = Duration::from_millis(10);

/// Removes any temporary output file and exits with status 130, saying `why`.
fn exit_at_once(why: &str) -> ! {
    super::print_last_line(format_args!(
        "shiftgrid: {why} (output files left as they were)"
    ));
    crate::io::atomic::remove_temporary_files();
    std::process::exit(130);
}

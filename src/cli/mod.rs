//! The command-line layer: clap structures, their validation into library calls, terminal
//! output and exit codes. Nothing below this module knows about flags or terminals.
//!
//! One module per subcommand holds its flags and its `run`; `input` and `output` hold
//! the plumbing they share (reading puzzles of any form, writing results atomically).

/// Writes a line to stderr, ignoring a failed write: `eprintln!` panics when stderr is
/// closed or full (`2>/dev/full`), and a message that cannot be shown is no reason to crash.
macro_rules! msg {
    ($($arg:tt)*) => {{
        $crate::cli::progress::print_line(format_args!($($arg)*));
    }};
}

mod batch;
mod count;
mod duration;
mod exit;
mod export;
mod fill;
mod generate;
mod grade;
mod input;
mod memory;
mod output;
pub mod progress;
mod render;
mod solve;
mod which;

use std::sync::Arc;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};

pub use exit::{CliError, Exit, exit_code_of, is_broken_pipe};

use crate::solve::SearchControl;

/// shiftgrid: build, solve, count and export schedule-shaped sudoku grids, 4x4 to 100x100.
///
/// A grid is a roster: rows are staff, columns are days, the symbol in a cell is a shift.
#[derive(Debug, Parser)]
#[command(
    name = "shiftgrid",
    version,
    about,
    long_about = None,
    after_help = "Exit status: 0 success; 1 a puzzle with no solution or more than one (where \
                  one was asked for), or cut by --time-limit (generate then writes its best \
                  puzzle and exits 0, or 1 if no cell was blanked yet); 2 bad command line; 65 bad \
                  input data; 71 out of memory or threads; 74 I/O error; 130 interrupted \
                  (Ctrl-C, SIGTERM, SIGHUP, SIGXCPU); 141 the reader of the output went away. \
                  A batch with an unreadable puzzle exits 65 even when others have no single \
                  solution."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    global: GlobalArgs,
}

#[derive(Debug, Args)]
struct GlobalArgs {
    /// Worker threads, 1 to 256 (default: RAYON_NUM_THREADS when set, else one per core):
    /// the pool of batches, root splitting and fill; auto's race on one puzzle starts its
    /// own two or three.
    #[arg(long, short = 'j', global = true, value_name = "T",
          value_parser = whole::<usize>(1, u64::MAX))]
    threads: Option<usize>,
    /// No progress bars or notes on stderr (errors, verdicts such as a puzzle with no single
    /// solution or a missed --level or --givens, --stats when asked for, and a seed picked at
    /// random without --seed are still printed).
    #[arg(long, short, global = true)]
    quiet: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Fill an empty board with a random valid grid (a blank-grid solution).
    ///
    /// The same --seed with the same --threads gives the same grid: the thread count sets
    /// how many searches race from different root branches, and so which grid wins.
    #[command(after_help = "Examples:\n  \
        shiftgrid fill --box 3                     a 9x9 grid (--box is the side of a box)\n  \
        shiftgrid fill --box 10 --seed 7 -o g.txt  a 100x100 grid, the same on every run\n  \
        shiftgrid fill --box 4 -n 100 -f line      100 grids of 16x16, one per line")]
    Fill(fill::FillArgs),
    /// Generate puzzles with a unique solution from a full grid: blanked with proofs (the
    /// default), by the difficulty paper's empty-cell expansion, or by its genetic algorithm
    /// for a target technique level.
    ///
    /// Defaults: minimal puzzles (complete proofs) up to 25x25; above that one pass of
    /// propagation proofs (no search). At 25x25 the default grid is automorphic (the half
    /// turn maps it onto itself with the shifts renamed in pairs (or kept), which a solver who spots
    /// it can use) and 16 rounds of --improve follow, with up to 32 more while above 40%
    /// givens: 40% or fewer for every seed tried (1-20), in seconds for most (minutes for a
    /// few), instead of 44% in half a second (--grid random --improve 0). Every puzzle is
    /// unique by
    /// construction: a removal that is not proven keeps its givens.
    #[command(after_help = "Examples:\n  \
        shiftgrid generate --box 3                 a minimal 9x9 puzzle\n  \
        shiftgrid generate --box 3 --level 4 -n 2  two 9x9 puzzles of technique level 4\n  \
        shiftgrid generate --box 4 --seed 1 -o p.txt --solution\n  \
        shiftgrid generate --from week.csv --shifts shifts.txt -o puzzle.csv")]
    Generate(generate::GenerateArgs),
    /// Solve every puzzle in the input and print each solution.
    ///
    /// Each puzzle is searched for a second solution too, so a puzzle with several is
    /// reported (exit status 1) unless --first is given.
    #[command(after_help = "Examples:\n  \
        shiftgrid solve puzzles.txt                each solution, and whether it is unique\n  \
        shiftgrid solve --first roster.csv -o done.csv   complete a partial roster\n  \
        shiftgrid solve -f json --stats big.txt    JSON lines with search statistics")]
    Solve(solve::SolveArgs),
    /// Count the solutions of every puzzle, up to --limit.
    ///
    /// 0 means the givens contradict each other, 1 a proper puzzle, more an improper one.
    /// (A shift given twice in one row, column or block is refused as bad input, exit 65,
    /// with no count.)
    #[command(
        after_help = "Output: one tab-separated line per puzzle: its number, its line, the \
        count (>=K when the cap stopped it, with ? when the time limit did) and the verdict \
        (unique, multiple, none, timeout).\n\n\
        Examples:\n  \
        shiftgrid count puzzles.txt                is each puzzle proper?\n  \
        shiftgrid count --limit 100 --time-limit 10s p.txt"
    )]
    Count(count::CountArgs),
    /// Write puzzles or grids (any input format, CSV included) as a roster CSV.
    ///
    /// Wide: a header `staff,<day 1>,...`, then one row per staff member with the shift
    /// names (empty for a blank). Long: `staff,day,shift`, one row per assignment; several
    /// grids get a leading `grid` column.
    #[command(after_help = "Examples:\n  \
        shiftgrid export puzzle.txt --staff staff.txt --days days.txt --shifts shifts.txt -o week.csv\n  \
        shiftgrid export --csv-shape long puzzles.txt -o all.csv")]
    Export(export::ExportArgs),
    /// Grade puzzles by human solving techniques: technique level L (1..8), step count S,
    /// per-technique counts, and with --explain the step log as hints.
    #[command(
        after_help = "Output: one tab-separated line per puzzle: its number, its line, the \
        level L (>M beyond --max-level M), the steps S, the difficulty and the deductions per \
        level 1..8.\n\n\
        Examples:\n  \
        shiftgrid grade puzzles.txt\n  \
        shiftgrid grade --explain puzzle.txt       the solving path as hints"
    )]
    Grade(grade::GradeArgs),
    /// Draw the first puzzle of the input as SVG, ready to print (poster size at 100x100).
    #[command(after_help = "Examples:\n  \
        shiftgrid render puzzle.txt -o puzzle.svg\n  \
        shiftgrid render --solve --labels week.csv -o key.svg\n  \
        shiftgrid render --candidates --alphabet 0-9A-F hex16.txt -o marks.svg")]
    Render(render::RenderArgs),
}

/// The most worker threads `--threads` accepts.
pub const MAX_THREADS: usize = 256;

/// Everything a command needs from the process: flags shared by all, the interrupt flag.
struct Ctx {
    quiet: bool,
    control: SearchControl,
}

impl Ctx {
    /// The same context with progress bars off, for a search inside a run that draws its
    /// own bar.
    fn without_bars(&self) -> Ctx {
        Ctx {
            quiet: true,
            control: self.control.clone(),
        }
    }
}

/// The command line: [`Cli`]'s, where an option that takes a value takes a negative number
/// too, for the value's own check to refuse (`--seed -5`: "invalid value '-5' for
/// `--seed <S>`"), where clap took it for a flag it did not know.
fn command_line() -> clap::Command {
    use clap::CommandFactory;
    fn negatives(arg: clap::Arg) -> clap::Arg {
        let takes_value = !arg.is_positional() && arg.get_action().takes_values();
        arg.allow_negative_numbers(takes_value)
    }
    Cli::command()
        .mut_args(negatives)
        .mut_subcommands(|command| command.mut_args(negatives))
}

/// The process arguments, read by [`command_line`].
fn parse_command_line() -> Result<Cli, clap::Error> {
    use clap::FromArgMatches;
    let matches = command_line().try_get_matches()?;
    Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut command_line()))
}

/// Parses the process arguments and runs the command.
///
/// # Errors
/// Any failure, carrying its exit status (see [`exit_code_of`]).
pub fn run() -> Result<Exit> {
    // Before any thread starts: `fill` tells from it how many threads fit under `ulimit -v`.
    memory::note_start();
    let cli = match parse_command_line() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: clap prints them to stdout; a write that fails (a full
            // disk, `>/dev/full`) is an I/O error, as any other output's (a reader gone
            // away is not reported, as elsewhere).
            use std::io::Write as _;
            e.print()
                .and_then(|()| std::io::stdout().flush())
                .map_err(|err| anyhow::Error::new(err).context("cannot write the help"))?;
            return Ok(Exit::Success);
        }
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // Bare `shiftgrid`: the help, on stderr, with the usage status.
            let _ = e.print();
            return Ok(Exit::Usage);
        }
        Err(e) => {
            // A usage error: on stderr, with the `shiftgrid: ` prefix every error carries
            // (clap's own text starts `error: `), in colour where clap's own stream would
            // use it (its decision itself: NO_COLOR, CLICOLOR_FORCE, CLICOLOR, TERM, CI).
            use std::io::Write;
            let text = e.render();
            let mut stderr = std::io::stderr().lock();
            let colour =
                anstream::AutoStream::choice(&std::io::stderr()) != anstream::ColorChoice::Never;
            let _ = if colour {
                write!(stderr, "shiftgrid: {}", without_dash_dash_tip(&text, true))
            } else {
                write!(stderr, "shiftgrid: {}", without_dash_dash_tip(&text, false))
            };
            return Ok(Exit::Usage);
        }
    };
    if let Some((t, from)) = thread_count(cli.global.threads)? {
        if t == 0 {
            return Err(exit::usage_error(format!("{from} must be at least 1")));
        }
        if t > MAX_THREADS {
            // Each thread may hold a copy of the search matrix (67 MB at 100x100), and
            // thousands of threads only take turns on the same cores.
            return Err(exit::usage_error(format!(
                "{from} {t} is more than the {MAX_THREADS} allowed (this machine has {} \
                 cores; more threads than cores only take turns)",
                std::thread::available_parallelism().map_or(1, usize::from)
            )));
        }
        start_pool(t)?;
    } else if memory::headroom().address_space.is_none() {
        // One per core, as rayon would start on first use, but where a limit on processes
        // (`ulimit -u`, a container's PID limit) refuses a thread, rayon's lazy start
        // panics. (A pool that failed to start cannot be started again smaller.) Under
        // `ulimit -v` the pool still starts on first use: its threads' reserves would
        // take the room that the checks before the run (a roster CSV read whole) weigh.
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        start_pool(cores).with_context(|| {
            format!(
                "{cores} worker threads, one per core, could not start (a limit on processes \
                 or threads? -j sets fewer)"
            )
        })?;
    }
    let ctx = Ctx {
        quiet: cli.global.quiet,
        control: SearchControl::default(),
    };
    QUIET.store(ctx.quiet, std::sync::atomic::Ordering::Relaxed);
    progress::install_ctrlc(Arc::clone(&ctx.control.interrupt));
    match cli.command {
        Command::Fill(args) => fill::run(&ctx, &args),
        Command::Generate(args) => generate::run(&ctx, &args),
        Command::Solve(args) => solve::run(&ctx, &args),
        Command::Count(args) => count::run(&ctx, &args),
        Command::Grade(args) => grade::run(&ctx, &args),
        Command::Render(args) => render::run(&ctx, &args),
        Command::Export(args) => export::run(&ctx, &args),
    }
}

/// `--quiet`, for the notes of code that has no [`Ctx`] (the input's opening).
static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A usage error as clap renders it (`ansi`: with its colours), without its tip to pass a
/// flag as a value after `--`, which here would make the flag a file name (`solve --box
/// 3` is a flag of another command), nor the blank line after the tip.
fn without_dash_dash_tip(text: &clap::builder::StyledStr, ansi: bool) -> String {
    let plain = text.to_string();
    let shown = if ansi {
        text.ansi().to_string()
    } else {
        plain.clone()
    };
    let plain: Vec<&str> = plain.lines().collect();
    let tip = |i: usize| {
        plain
            .get(i)
            .is_some_and(|l| l.trim_start().starts_with("tip: to pass '"))
    };
    let mut out = String::new();
    for (i, line) in shown.lines().enumerate() {
        let blank_after_tip =
            i > 0 && tip(i - 1) && plain.get(i).is_some_and(|l| l.trim().is_empty());
        if !tip(i) && !blank_after_tip {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The shape of `--box B`, or a usage error that, for a grid's side given as B (`--box 16`),
/// names the box size meant.
fn shape_of_box(b: usize) -> Result<crate::grid::Shape> {
    crate::grid::Shape::new(b).map_err(|e| {
        let side = crate::grid::Shape::from_side(b).ok();
        let hint = side.map_or(String::new(), |s| {
            format!(
                " (--box is the side of a box: a {s} grid is --box {})",
                s.box_size()
            )
        });
        exit::usage_error(format!("{e}{hint}"))
    })
}

/// A parser of whole numbers from `lo` to `hi` (`u64::MAX`: no upper bound) whose refusal
/// says the range in words (clap's own says `1..18446744073709551615`).
fn whole<T>(lo: u64, hi: u64) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: TryFrom<u64>,
{
    move |s: &str| {
        s.trim()
            .parse::<u64>()
            .ok()
            .filter(|v| (lo..=hi).contains(v))
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| match hi {
                u64::MAX => format!("use a whole number from {lo} up"),
                _ => format!("use a whole number from {lo} to {hi}"),
            })
    }
}

/// `--box`: a whole number, whose range the command checks (its refusal lists the sizes).
fn box_size(s: &str) -> Result<usize, String> {
    whole::<usize>(0, u64::MAX)(s).map_err(|_| "use a box size from 2 to 10".to_string())
}

/// Starts rayon's global pool with `t` threads.
fn start_pool(t: usize) -> Result<()> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(t)
        .build_global()
        // The pool's error shows the OS error and gives it as its source as well: one
        // message, not the same words twice.
        .map_err(|e| exit::resource_error(format!("starting the thread pool: {e}")))
}

/// The thread count asked for and where: `--threads`, else the `RAYON_NUM_THREADS`
/// environment variable that rayon-based tools share (0 or empty meaning one per core, as
/// there), checked alike; `None` for one per core.
///
/// # Errors
/// A usage error for a variable that is not a number.
fn thread_count(flag: Option<usize>) -> Result<Option<(usize, &'static str)>> {
    if let Some(t) = flag {
        return Ok(Some((t, "--threads")));
    }
    let Some(value) = std::env::var_os("RAYON_NUM_THREADS") else {
        return Ok(None);
    };
    let text = value.to_string_lossy();
    match text.trim().parse::<usize>() {
        Ok(0) => Ok(None),
        Ok(t) => Ok(Some((t, "RAYON_NUM_THREADS"))),
        Err(_) if text.trim().is_empty() => Ok(None),
        Err(_) => Err(exit::usage_error(format!(
            "RAYON_NUM_THREADS={} is not a thread count (a number, or 0 for one per core)",
            crate::io::quote::escaped(&text)
        ))),
    }
}

/// The largest seed picked at random: 2^53 − 1, so that the seed survives any tool that
/// holds numbers as doubles (jq, JavaScript), as a number too (records write it as a
/// string of digits, for a batch's 64-bit seeds).
const MAX_RANDOM_SEED: u64 = (1 << 53) - 1;

/// The seed to use: `seed`, or a random one up to [`MAX_RANDOM_SEED`] (which
/// [`note_seed`] prints).
fn pick_seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| rand::random::<u64>() & MAX_RANDOM_SEED)
}

/// Prints a seed that was picked at random (`given` is `--seed`), so the run can be
/// repeated: even with `--quiet`, since nothing else can tell it afterwards; with the
/// thread count too where the result depends on it (`threads`, a lone `fill`). Called
/// once the flags are checked, so a refused command prints only its error.
fn note_seed(given: Option<u64>, seed: u64, threads: Option<usize>) {
    if given.is_none() {
        let threads = threads.map_or(String::new(), |t| format!(" -j {t}"));
        msg!("shiftgrid: seed {seed} (repeat with --seed {seed}{threads})");
    }
}

/// A path as messages show it: control characters (a terminal escape in a file name)
/// escaped, so that a message cannot drive the terminal; everything else as written.
pub(crate) fn shown(path: &std::path::Path) -> String {
    crate::io::quote::escaped_path(path)
}
#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// clap's tip to put a flag after `--` (it would be read as a file) is left out of a
    /// usage error, and the rest of the message kept, in colour too.
    #[test]
    fn usage_errors_leave_out_the_dash_dash_tip() {
        let e = Cli::try_parse_from(["shiftgrid", "solve", "--box", "3"]).unwrap_err();
        let text = e.render();
        assert!(text.to_string().contains("tip: to pass '--box'"), "{text}");
        for ansi in [false, true] {
            let shown = without_dash_dash_tip(&text, ansi);
            assert!(!shown.contains("tip:"), "{shown}");
            assert!(
                shown.contains("unexpected argument '") && shown.contains("--box"),
                "{shown}"
            );
            assert!(shown.contains("Usage:"), "{shown}");
            assert!(!shown.contains("\n\n\n"), "{shown:?}");
        }
        // Other tips stay.
        let e = Cli::try_parse_from(["shiftgrid", "slove"]).unwrap_err();
        assert!(without_dash_dash_tip(&e.render(), false).contains("tip: a similar subcommand"));
    }

    #[test]
    fn paths_in_messages_cannot_drive_the_terminal() {
        let p = std::path::Path::new("\u{1b}[31mred\tzoë.txt");
        assert_eq!(shown(p), "<U+001B>[31mred<U+0009>zoë.txt");
    }

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
        command_line().debug_assert();
    }

    /// A negative number given to an option is that option's invalid value, named as such,
    /// not an unknown flag; a negative number as a file name stays a flag clap refuses.
    #[test]
    fn negative_numbers_are_invalid_values() {
        for (args, option) in [
            (&["fill", "--box", "2", "--seed", "-5"][..], "--seed <S>"),
            (&["-j", "-1", "fill", "--box", "2"][..], "--threads <T>"),
            (&["count", "--limit", "-2"][..], "--limit <K>"),
            (&["generate", "--box", "-3"][..], "--box <B>"),
            // A duration with a unit too (before, clap took `-1s` for flags).
            (
                &["solve", "--time-limit", "-1s"][..],
                "--time-limit <DURATION>",
            ),
            (
                &["count", "--time-limit", "-2m"][..],
                "--time-limit <DURATION>",
            ),
            (
                &["generate", "--box", "3", "--time-limit", "-1m30s"][..],
                "--time-limit <DURATION>",
            ),
        ] {
            let e = command_line()
                .try_get_matches_from(std::iter::once("shiftgrid").chain(args.iter().copied()))
                .unwrap_err();
            assert_eq!(
                e.kind(),
                clap::error::ErrorKind::ValueValidation,
                "{args:?}"
            );
            let text = e.to_string();
            assert!(text.contains("invalid value '-"), "{text}");
            assert!(text.contains(option), "{text}");
        }
        let e = command_line()
            .try_get_matches_from(["shiftgrid", "count", "-7"])
            .unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::UnknownArgument);
    }
}

//! `shiftgrid render`: draw one puzzle of the input (the first, or `--puzzle K`) as a
//! print-ready SVG.

use std::path::PathBuf;
use std::sync::atomic::Ordering;

use anyhow::Result;
use clap::Args;

use super::Ctx;
use super::exit::{self, Exit};
use super::input::{InputArgs, NameArgs, input_paths, load_puzzles};
use super::output::emit;
use crate::io::csv::{CustomNames, NameList, Names};
use crate::io::parse::Alphabet;
use crate::solve::{Engine, SolveLimits};

/// Flags of `shiftgrid render`.
#[derive(Debug, Args)]
pub(super) struct RenderArgs {
    /// The first puzzle of the input is drawn (--puzzle K for another).
    #[command(flatten)]
    input: InputArgs,
    /// Draw the K-th puzzle of the input (from 1) instead of the first.
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = super::whole::<u64>(1, u64::MAX))]
    puzzle: u64,
    #[command(flatten)]
    names: NameArgs,
    /// Solve the puzzle and draw the filled cells in another colour.
    #[arg(long)]
    solve: bool,
    /// Pencil-mark candidates in blank cells (up to 25x25). Not with --solve: a solved
    /// grid has no blank cells left to mark.
    #[arg(long, conflicts_with = "solve")]
    candidates: bool,
    /// Staff and day labels around the grid.
    #[arg(long)]
    labels: bool,
    /// Cell size in pixels, 4 to 400 (default: chosen from the grid size).
    #[arg(long, value_name = "PX", value_parser = parse_cell_px)]
    cell_px: Option<f64>,
    /// Write the SVG to FILE (atomically) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Runs `shiftgrid render`: the first puzzle of the input as SVG, optionally solved.
///
/// # Errors
/// I/O and CSV errors, a grid too large for the options asked, and interruption.
pub(super) fn run(ctx: &Ctx, args: &RenderArgs) -> Result<Exit> {
    // Before any work: an image name (said as render says it), an output that cannot be
    // written, or an input as the output.
    if let Some(ext) = args.output.as_deref().and_then(other_image_extension) {
        let maker = if ext == "svgz" {
            "gzip makes an SVGZ from it"
        } else {
            "a converter such as rsvg-convert or Inkscape makes one from it"
        };
        return Err(exit::usage_error(format!(
            "render writes SVG, not {}: name the file .svg ({maker})",
            ext.to_uppercase()
        )));
    }
    super::output::check_output_first(
        args.output.as_deref(),
        super::input::input_paths(&args.input, &args.names),
        &super::output::WRITES_SVG,
    )?;
    // Name files label any input (the picture is a roster), so they are never refused.
    let (mut input, custom) = load_puzzles(&args.input, &args.names, Some(true))?;
    let name = input.name.clone();
    // Staff and day names show only as labels: on a text input without --labels they
    // would be accepted and do nothing (on a roster CSV they also match its rows and
    // columns).
    if !args.labels && !input.is_csv() && args.names.has_staff_or_days() {
        return Err(exit::usage_error(
            "--staff and --days name the rows and columns of the picture only with --labels",
        ));
    }
    // Only the chosen puzzle is drawn: nothing after it is read, and a bad one (reported)
    // draws nothing.
    let before = usize::try_from(args.puzzle - 1).unwrap_or(usize::MAX);
    let passed = input.skip(before)?;
    if before > 0 && (passed < before || input.at_end()?) {
        let holds = match passed {
            0 => "no puzzle".to_string(),
            1 => "1 puzzle".to_string(),
            k => format!("{k} puzzles"),
        };
        return Err(exit::data_error(format!(
            "{name} holds {holds}: there is no puzzle {}",
            args.puzzle
        )));
    }
    let Some(first) = input.first_only()? else {
        return Ok(Exit::DataErr);
    };
    let puzzle = &first.puzzle;
    if let Err(e) = puzzle.check() {
        msg!("shiftgrid: error: {name}:{}: {e}", first.line);
        return Ok(Exit::DataErr);
    }
    let names = in_alphabet(input.names(&first, &custom)?, args.input.alphabet());
    let svg_opts = crate::io::svg::SvgOptions {
        cell_px: args.cell_px,
        show_candidates: args.candidates,
        labels: args.labels,
        names: Some(names),
        // Which puzzle of a batch, and whether its solution: a book's pages tell apart.
        title: Some(format!(
            "{} {}{} from {name}",
            puzzle.shape(),
            if args.solve {
                "solution of puzzle"
            } else {
                "puzzle"
            },
            if args.puzzle > 1 || args.solve {
                format!(" {}", first.number())
            } else {
                String::new()
            }
        )),
    };
    // Options that cannot draw this grid are refused before a search that may be long.
    svg_opts
        .check(puzzle.shape())
        .map_err(|e| exit::usage_error(e.to_string()))?;
    let mut status = Exit::Success;
    if let (Some(note), false, true) = (input.shift_note(), ctx.quiet, args.solve) {
        msg!("{note}");
    }
    let solution = if args.solve {
        let o = crate::solve::solve(
            puzzle,
            Engine::Auto,
            &SolveLimits::count_up_to(2),
            &ctx.control,
        )
        .expect("checked just above");
        if ctx.control.interrupt.load(Ordering::Relaxed) {
            return Err(exit::interrupted());
        }
        if o.count >= 2 {
            // As `solve` does: draw one, say so, and exit 1.
            msg!(
                "shiftgrid: {name}:{}: the puzzle has more than one solution; drawing one",
                first.line
            );
            status = Exit::NotProper;
        }
        match o.solutions.into_iter().next() {
            Some(g) => Some(g),
            None => {
                msg!(
                    "shiftgrid: {name}:{}: the puzzle has no solution",
                    first.line
                );
                return Ok(Exit::NotProper);
            }
        }
    } else {
        None
    };
    let svg = crate::io::svg::render_svg(puzzle, solution.as_ref(), &svg_opts)
        .map_err(|e| exit::usage_error(e.to_string()))?;
    // (A file only: on standard input the look ahead could wait on a terminal.)
    let from_file = args.input.input != std::path::Path::new("-");
    if !ctx.quiet && from_file && args.puzzle == 1 && input.is_several()? {
        msg!(
            "shiftgrid: note: {name} holds more than one puzzle; render draws the first \
             (--puzzle K draws another)"
        );
    }
    emit(
        ctx,
        args.output.as_deref(),
        input_paths(&args.input, &args.names),
        svg.into_bytes(),
    )?;
    Ok(status)
}

/// The names to draw with: a 16x16 or 25x25 grid read in a letter alphabet shows its
/// shifts in that alphabet's characters (as `solve` writes its text), unless the shifts
/// have names of their own; 4x4 and 9x9 keep their digits, as every alphabet writes them.
fn in_alphabet(names: Names, alphabet: Alphabet) -> Names {
    let shape = names.shape();
    let symbols = match alphabet.symbol_names(shape.side()) {
        Some(s) if names.shifts() == Names::defaults(shape).shifts() => s,
        _ => return names,
    };
    let list = |source: &str, names: &[String]| NameList::new(source, names.iter().cloned());
    let custom = (|| {
        Ok::<_, crate::io::csv::NamesError>(CustomNames {
            staff: Some(list("staff", names.staff())?),
            days: Some(list("days", names.days())?),
            shifts: Some(list("alphabet", &symbols)?),
        })
    })();
    // Names already in use are valid lists, and the alphabet's characters are names.
    custom.and_then(|c| Names::new(shape, &c)).unwrap_or(names)
}

/// `--cell-px`: a size the renderer draws, or a refusal that quotes what was typed.
fn parse_cell_px(s: &str) -> Result<f64, String> {
    use crate::io::svg::{MAX_CELL_PX, MIN_CELL_PX};
    match s.trim().parse::<f64>() {
        Ok(px) if (MIN_CELL_PX..=MAX_CELL_PX).contains(&px) => Ok(px),
        _ => Err(format!(
            "use a number of pixels from {MIN_CELL_PX} to {MAX_CELL_PX}"
        )),
    }
}

/// The extension of `path` when it names an image or print format other than SVG, which
/// `render` would otherwise fill with SVG under the wrong name.
fn other_image_extension(path: &std::path::Path) -> Option<String> {
    const OTHERS: [&str; 14] = [
        "png", "jpg", "jpeg", "gif", "webp", "bmp", "tif", "tiff", "pdf", "eps", "ps", "avif",
        "heic", "svgz",
    ];
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    OTHERS.contains(&ext.as_str()).then_some(ext)
}

#[cfg(test)]
mod tests {
    use super::parse_cell_px;

    #[test]
    fn cell_sizes_in_range_only() {
        assert_eq!(parse_cell_px("4"), Ok(4.0));
        assert_eq!(parse_cell_px("12.5"), Ok(12.5));
        assert_eq!(parse_cell_px("400"), Ok(400.0));
        for bad in [
            "3.9",
            "401",
            "99999999999999999999",
            "-5",
            "NaN",
            "inf",
            "big",
            "",
        ] {
            assert!(parse_cell_px(bad).is_err(), "{bad}");
        }
    }
}

//! Writing the document: the SVG skeleton (size, view box, title, background), then the
//! thin lines, the symbols (givens and filled cells), pencil marks, roster labels and the
//! thick lines, each as one group with a `class`, at the places [`Layout`] computed.

use super::SvgOptions;
use super::layout::Layout;
use super::text::HALF_DIGIT_EM;
use super::xml::{Num, push_escaped, put};
use crate::cells::Placed;
use crate::grid::{Grid, Puzzle};

/// Colours: givens, filled cells, candidates, labels, thin and thick lines.
const GIVEN_FILL: &str = "#111111";
const FILLED_FILL: &str = "#1f5fbf";
const CANDIDATE_FILL: &str = "#6b6b6b";
const LABEL_FILL: &str = "#333333";
const THIN_STROKE: &str = "#9a9a9a";
const THICK_STROKE: &str = "#000000";

impl Layout {
    pub(super) fn write_document(
        &self,
        out: &mut String,
        puzzle: &Puzzle,
        solution: Option<&Grid>,
        opts: &SvgOptions,
    ) {
        let (w, h) = (Num(self.width), Num(self.height));
        out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        put(
            out,
            format_args!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w}\" \
                 height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n"
            ),
        );
        if let Some(title) = &opts.title {
            out.push_str("<title>");
            push_escaped(out, title);
            out.push_str("</title>\n");
        }
        put(
            out,
            format_args!("<rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n"),
        );
        put(
            out,
            format_args!(
                "<g transform=\"translate({} {})\">\n",
                Num(self.origin_x),
                Num(self.origin_y)
            ),
        );
        self.write_lines(out, false);
        self.write_symbols(out, puzzle, solution);
        if opts.show_candidates {
            self.write_candidates(out, puzzle, solution);
        }
        if opts.labels {
            self.write_labels(out);
        }
        self.write_legend(out);
        // Thick lines last, so that they cover the ends of the thin ones.
        self.write_lines(out, true);
        out.push_str("</g>\n</svg>\n");
    }

    /// One path holding every thin (or every thick) line: `n + 1 - (b + 1)` or `b + 1` in each
    /// direction.
    fn write_lines(&self, out: &mut String, thick: bool) {
        let (class, stroke, width, cap) = if thick {
            ("thick", THICK_STROKE, self.thick, "square")
        } else {
            ("thin", THIN_STROKE, self.thin, "butt")
        };
        let end = Num(self.n as f64 * self.cell);
        put(
            out,
            format_args!(
                "<path class=\"{class}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{}\" \
                 stroke-linecap=\"{cap}\" d=\"",
                Num(width)
            ),
        );
        for k in (0..=self.n).filter(|k| (k % self.b == 0) == thick) {
            let at = Num(k as f64 * self.cell);
            put(out, format_args!("M0 {at}H{end}M{at} 0V{end}"));
        }
        out.push_str("\"/>\n");
    }

    /// The givens, then the cells filled from the solution, each as one `<text>` in a group.
    fn write_symbols(&self, out: &mut String, puzzle: &Puzzle, solution: Option<&Grid>) {
        let cells = puzzle.cells();
        let font = Num(self.digit_font);
        if cells.iter().any(|&v| v != 0) {
            put(
                out,
                format_args!(
                    "<g class=\"givens\" font-size=\"{font}\" font-weight=\"bold\" \
                     text-anchor=\"middle\" fill=\"{GIVEN_FILL}\">\n"
                ),
            );
            for (i, &v) in cells.iter().enumerate() {
                if v != 0 {
                    self.write_cell_text(out, i, v);
                }
            }
            out.push_str("</g>\n");
        }
        let Some(grid) = solution else { return };
        if cells.contains(&0) {
            put(
                out,
                format_args!(
                    "<g class=\"filled\" font-size=\"{font}\" text-anchor=\"middle\" \
                     fill=\"{FILLED_FILL}\">\n"
                ),
            );
            for (i, (&g, &s)) in cells.iter().zip(grid.cells()).enumerate() {
                if g == 0 {
                    self.write_cell_text(out, i, s);
                }
            }
            out.push_str("</g>\n");
        }
    }

    fn write_cell_text(&self, out: &mut String, i: usize, v: u8) {
        let (row, col) = (i / self.n, i % self.n);
        let x = (col as f64 + 0.5) * self.cell;
        let x = Num(x);
        if let Some(shifts) = &self.shifts {
            // Every name at one size: the symbols', or smaller so that the longest fits.
            let name = &shifts[usize::from(v) - 1];
            let font = self.name_font;
            let y = Num((row as f64 + 0.5) * self.cell + HALF_DIGIT_EM * font);
            put(
                out,
                format_args!("<text x=\"{x}\" y=\"{y}\" font-size=\"{}\">", Num(font)),
            );
            push_escaped(out, name);
            out.push_str("</text>\n");
        } else if v >= 100 {
            let font = self.wide_digit_font;
            let y = Num((row as f64 + 0.5) * self.cell + HALF_DIGIT_EM * font);
            let font = Num(font);
            put(
                out,
                format_args!("<text x=\"{x}\" y=\"{y}\" font-size=\"{font}\">{v}</text>\n"),
            );
        } else {
            let y = Num((row as f64 + 0.5) * self.cell + HALF_DIGIT_EM * self.digit_font);
            put(out, format_args!("<text x=\"{x}\" y=\"{y}\">{v}</text>\n"));
        }
    }

    /// Pencil marks in the cells left blank: symbol `s` at spot `s - 1` of a `b×b` mini-grid.
    fn write_candidates(&self, out: &mut String, puzzle: &Puzzle, solution: Option<&Grid>) {
        if solution.is_some() {
            // A solution fills every blank, so no cell is left for pencil marks.
            return;
        }
        let (n, b) = (self.n, self.b);
        let placed = Placed::of(puzzle.shape(), puzzle.cells());
        put(
            out,
            format_args!(
                "<g class=\"candidates\" font-size=\"{}\" text-anchor=\"middle\" \
                 fill=\"{CANDIDATE_FILL}\">\n",
                Num(self.candidate_font)
            ),
        );
        let mini = (self.cell - 2.0 * self.candidate_inset) / b as f64;
        for (i, _) in puzzle.cells().iter().enumerate().filter(|(_, v)| **v == 0) {
            let (row, col) = (i / n, i % n);
            let left = col as f64 * self.cell + self.candidate_inset;
            let top = row as f64 * self.cell + self.candidate_inset;
            for s in placed.free(i) {
                let spot = s.index();
                let x = left + ((spot % b) as f64 + 0.5) * mini;
                let y =
                    top + ((spot / b) as f64 + 0.5) * mini + HALF_DIGIT_EM * self.candidate_font;
                put(
                    out,
                    format_args!("<text x=\"{}\" y=\"{}\">", Num(x), Num(y)),
                );
                match &self.shifts {
                    // Named shifts in the cells: one character each, marked so too.
                    Some(shifts) => push_escaped(out, &shifts[spot]),
                    None => put(out, format_args!("{s}")),
                }
                out.push_str("</text>\n");
            }
        }
        out.push_str("</g>\n");
    }

    /// Staff `i`'s name right-aligned left of row `i`; day `j`'s centred above column `j`, or
    /// running upwards from just above it when it is wider than a cell.
    fn write_labels(&self, out: &mut String) {
        let gap = self.label_gap;
        let half = HALF_DIGIT_EM * self.label_font;
        put(
            out,
            format_args!(
                "<g class=\"labels\" font-size=\"{}\" fill=\"{LABEL_FILL}\">\n\
                 <g text-anchor=\"end\">\n",
                Num(self.label_font)
            ),
        );
        for i in 0..self.n {
            let y = (i as f64 + 0.5) * self.cell + half;
            self.write_label(out, -gap, y, &self.staff[i]);
        }
        out.push_str("</g>\n");
        if self.rotate_days {
            // In the frame turned by -90°, x runs up the page and y runs right, so a label at
            // (gap, column centre) starts `gap` above the grid and reads bottom to top.
            out.push_str("<g transform=\"rotate(-90)\" text-anchor=\"start\">\n");
            for j in 0..self.n {
                let y = (j as f64 + 0.5) * self.cell + half;
                self.write_label(out, gap, y, &self.days[j]);
            }
        } else {
            put(
                out,
                format_args!(
                    "<g text-anchor=\"middle\" font-size=\"{}\">\n",
                    Num(self.day_font)
                ),
            );
            for j in 0..self.n {
                let x = (j as f64 + 0.5) * self.cell;
                self.write_label(out, x, -gap, &self.days[j]);
            }
        }
        out.push_str("</g>\n</g>\n");
    }

    /// The key of shift numbers to names below the grid, when there is one: the number in
    /// bold, then the name, in columns read top to bottom.
    fn write_legend(&self, out: &mut String) {
        let Some(legend) = &self.legend else { return };
        put(
            out,
            format_args!(
                "<g class=\"legend\" font-size=\"{}\" fill=\"{LABEL_FILL}\">\n",
                Num(legend.font)
            ),
        );
        for (k, name) in legend.names.iter().enumerate() {
            let x = (k / legend.rows) as f64 * legend.column;
            let y = legend.top + (k % legend.rows) as f64 * legend.line;
            put(
                out,
                format_args!(
                    "<text x=\"{}\" y=\"{}\"><tspan font-weight=\"bold\">{}</tspan>\
                     <tspan dx=\"{}\">",
                    Num(x),
                    Num(y),
                    k + 1,
                    Num(legend.font * 0.6)
                ),
            );
            push_escaped(out, name);
            out.push_str("</tspan></text>\n");
        }
        out.push_str("</g>\n");
    }

    fn write_label(&self, out: &mut String, x: f64, y: f64, label: &str) {
        put(
            out,
            format_args!("<text x=\"{}\" y=\"{}\">", Num(x), Num(y)),
        );
        push_escaped(out, label);
        out.push_str("</text>\n");
    }
}

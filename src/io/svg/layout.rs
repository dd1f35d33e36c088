//! The picture's geometry: [`Layout`] turns a shape and the [`SvgOptions`] into every size
//! and position the document needs (the cell size, the fonts of symbols, pencil marks and
//! labels, the room the labels take, the page size) and holds the names to write.

use super::SvgOptions;
use super::text::{digits, text_width};
use crate::grid::Shape;
use crate::io::csv::Names;

/// Sizes and positions of everything, in user units (pixels).
pub(super) struct Layout {
    pub(super) b: usize,
    pub(super) n: usize,
    /// Side of a cell.
    pub(super) cell: f64,
    /// Where the grid's top-left corner sits on the page.
    pub(super) origin_x: f64,
    pub(super) origin_y: f64,
    pub(super) width: f64,
    pub(super) height: f64,
    /// Font size of the symbols in the cells.
    pub(super) digit_font: f64,
    /// Font size of the one three-digit symbol, `100`, smaller so that it fits a cell.
    pub(super) wide_digit_font: f64,
    /// Font size of the shift names in the cells: the digits' size, or smaller so that
    /// the longest name fits a cell with a margin (the same for every name).
    pub(super) name_font: f64,
    pub(super) thin: f64,
    pub(super) thick: f64,
    pub(super) candidate_font: f64,
    /// Inset of the candidate mini-grid from the cell's lines.
    pub(super) candidate_inset: f64,
    pub(super) label_font: f64,
    /// Font size of the day labels: `label_font`, or smaller to fit a cell's width.
    pub(super) day_font: f64,
    pub(super) label_gap: f64,
    /// Whether day labels run bottom-to-top (they are wider than a cell).
    pub(super) rotate_days: bool,
    /// The row and column labels.
    pub(super) staff: Vec<String>,
    pub(super) days: Vec<String>,
    /// Shift names to write in the cells instead of numbers, when the roster has them and
    /// every one fits a cell at a readable size.
    pub(super) shifts: Option<Vec<String>>,
    /// The key below the grid, when the roster's shift names are too long for its cells:
    /// the cells then show each shift's number, and the key says which shift that is.
    pub(super) legend: Option<Legend>,
}

/// A key of shift numbers to names, in columns below the grid.
pub(super) struct Legend {
    /// The shift names, shift `k` at `k - 1`.
    pub(super) names: Vec<String>,
    pub(super) font: f64,
    /// The distance between two lines of the key.
    pub(super) line: f64,
    /// The width of one column of the key.
    pub(super) column: f64,
    /// Entries down each column.
    pub(super) rows: usize,
    /// Where the key's first baseline sits, below the grid's top.
    pub(super) top: f64,
}

/// The smallest font a shift name may be set at in a cell, in pixels, and as a share of the
/// symbols' font: a name that fits only smaller puts the roster's shifts in a key.
const MIN_NAME_FONT: f64 = 7.0;

/// The share of a cell's width a shift name may take, estimated at the regular weight:
/// givens are bold, about a tenth wider, and still leave a margin.
const NAME_FILL: f64 = 0.78;
const MIN_NAME_SHARE: f64 = 0.25;

impl Layout {
    pub(super) fn new(shape: Shape, opts: &SvgOptions) -> Layout {
        let b = shape.box_size();
        let n = shape.side();
        let cell = opts
            .cell_px
            .unwrap_or_else(|| auto_cell_px(shape, opts.show_candidates));
        let symbol_digits = digits(n);
        // Two bold digits (about 1.4 em in DejaVu Sans Bold) at half the cell leave a margin on
        // either side. Only the 100×100 grid has a three-digit symbol; sizing every symbol for
        // it would shrink 9 999 cells for the sake of 100, so `100` alone is set smaller.
        let digit_font = cell * if symbol_digits == 1 { 0.6 } else { 0.5 };
        let wide_digit_font = cell * 0.4;
        // Odd stroke widths on half-pixel positions (see `origin_x`) render crisp.
        let thin = 1.0;
        let thick = if cell < 64.0 { 3.0 } else { 5.0 };
        let candidate_inset = thin + 1.0;
        let mini = (cell - 2.0 * candidate_inset) / b as f64;
        let candidate_font = mini
            * match symbol_digits {
                1 => 0.8,
                _ => 0.62,
            };
        // Staff labels only need to fit a cell's height: 8 px at least, where cells are
        // that tall (labels a cell apart, rows and turned days, must not overlap), 14 px
        // up to 56 px cells, then a quarter of the cell, so that labels grow with the
        // digits on a page of large cells (at 120 px: 30 px against 72 px digits).
        let label_font = (cell * 0.42).clamp(8.0, 14.0).max(cell * 0.25).min(cell);
        let label_gap = (label_font * 0.5).max(4.0);
        let mut day_font = label_font;
        let pad = (cell * 0.5).max(10.0).round();

        let names = match &opts.names {
            Some(names) if names.shape() == shape => names.clone(),
            _ => Names::defaults(shape),
        };
        let custom_shifts = names.shifts() != Names::defaults(shape).shifts();
        let widest = |list: &[String]| list.iter().map(|s| text_width(s, 1.0)).fold(0.0, f64::max);
        let mut left = pad;
        let mut top = pad;
        let mut rotate_days = false;
        if opts.labels {
            let staff_w = widest(names.staff()) * label_font;
            // Day labels read across when a slightly smaller font fits them into a cell's
            // width with room between neighbours; otherwise they turn to run up the page.
            let day_w = widest(names.days());
            let fitted = 0.85 * cell / day_w;
            rotate_days = fitted < 0.8 * label_font;
            left += (staff_w + label_gap).ceil();
            top += if rotate_days {
                (day_w * label_font + label_gap).ceil()
            } else {
                day_font = fitted.min(label_font);
                (day_font + label_gap).ceil()
            };
        }
        let grid = n as f64 * cell;
        // The grid sits on half pixels so that 1-px and 3-px lines cover whole pixels.
        let origin_x = left + 0.5;
        let origin_y = top + 0.5;
        // Shift names in the cells, or, when one would come out too small to read, numbers
        // with a key below the grid.
        let readable = digit_font * MIN_NAME_SHARE;
        let name_font_for =
            |name: &String| NAME_FILL * cell / text_width(name, 1.0).max(f64::MIN_POSITIVE);
        let fits = |name: &String| name_font_for(name) >= readable.max(MIN_NAME_FONT);
        // One size for every shift name of the grid, the longest's: a roster reads as a
        // table, not as names of a dozen sizes.
        let name_font = names
            .shifts()
            .iter()
            .map(name_font_for)
            .fold(digit_font, f64::min);
        // Pencil marks are as narrow as a digit: with them, shifts named by one character
        // each (an alphabet's letters) are marked by name, longer names go in the key.
        let one_character = names.shifts().iter().all(|s| s.chars().count() == 1);
        let marked_by_number = opts.show_candidates && !one_character;
        let keyed = custom_shifts && (marked_by_number || !names.shifts().iter().all(fits));
        let mut width = origin_x + grid + pad;
        let mut height = origin_y + grid + pad;
        let legend = keyed.then(|| {
            let font = label_font;
            let line = (font * 1.5).ceil();
            let entry = |k: usize, name: &String| text_width(&format!("{k}  {name}"), font);
            let widest = (1..=n)
                .zip(names.shifts())
                .map(|(k, name)| entry(k, name))
                .fold(0.0, f64::max);
            let column = (widest + 2.0 * font).ceil();
            let columns = ((grid / column).floor() as usize).clamp(1, n);
            let rows = n.div_ceil(columns);
            let top = grid + pad + font;
            width = width.max(origin_x + columns as f64 * column + pad);
            height += rows as f64 * line + font;
            Legend {
                names: names.shifts().to_vec(),
                font,
                line,
                column,
                rows,
                top,
            }
        });
        Layout {
            b,
            n,
            cell,
            origin_x,
            origin_y,
            width: width.ceil(),
            height: height.ceil(),
            digit_font,
            wide_digit_font,
            name_font,
            thin,
            thick,
            candidate_font,
            candidate_inset,
            label_font,
            day_font,
            label_gap,
            rotate_days,
            staff: names.staff().to_vec(),
            days: names.days().to_vec(),
            shifts: (custom_shifts && !keyed).then(|| names.shifts().to_vec()),
            legend,
        }
    }
}

/// The automatic cell size for a side: readable on screen for small grids, 24 px at 100×100.
/// With candidates a cell needs `b` pencil marks across, each at least 16 px wide.
pub(super) fn auto_cell_px(shape: Shape, candidates: bool) -> f64 {
    let base: f64 = match shape.side() {
        0..=4 => 56.0,
        5..=9 => 48.0,
        10..=16 => 40.0,
        17..=25 => 34.0,
        26..=36 => 30.0,
        37..=64 => 26.0,
        _ => 24.0,
    };
    if candidates {
        base.max(16.0 * shape.box_size() as f64)
    } else {
        base
    }
}

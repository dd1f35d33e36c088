//! Estimates of how large text comes out, for fitting it: the width of a name and the
//! height of a digit in a sans-serif font the renderer picks, and the digits of a number.
//! They err wide, so that what is fitted to a cell fits whichever common font is used.

/// Average advance of a sans-serif character, in ems, for estimating label widths. Digits are
/// 0.556 em in Helvetica/Arial and 0.636 em in DejaVu Sans (the usual fallback on Linux); 0.6
/// lies between, and every use leaves at least 15% of slack for the wider fonts.
const CHAR_EM: f64 = 0.6;

/// Half the height of a digit, in ems (digits are about 0.72 em tall in common sans-serif
/// fonts). Moving the baseline down by this centres a digit vertically without relying on
/// `dominant-baseline`, which not every renderer honours.
pub(super) const HALF_DIGIT_EM: f64 = 0.36;

/// The number of decimal digits of `n`.
pub(super) fn digits(n: usize) -> usize {
    n.to_string().len()
}

/// An estimate of the width of `text` at `font` px, erring wide.
pub(super) fn text_width(text: &str, font: f64) -> f64 {
    text.chars().count() as f64 * CHAR_EM * font
}

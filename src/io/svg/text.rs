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

/// Advance of a wide character (CJK ideographs, kana, Hangul, full-width forms), in ems:
/// their fonts draw them on a square of one em.
const WIDE_EM: f64 = 1.0;

/// An estimate of the width of `text` at `font` px, erring wide: [`CHAR_EM`] a character,
/// [`WIDE_EM`] for an East Asian wide one, nothing for combining marks and other
/// characters of no width (joiners, direction marks).
pub(super) fn text_width(text: &str, font: f64) -> f64 {
    use unicode_width::UnicodeWidthChar;
    let ems: f64 = text
        .chars()
        .map(|c| match c.width() {
            Some(0) => 0.0,
            Some(2) => WIDE_EM,
            _ => CHAR_EM,
        })
        .sum();
    ems * font
}

#[cfg(test)]
mod tests {
    use super::text_width;

    #[test]
    fn wide_characters_take_an_em_and_marks_none() {
        assert_eq!(text_width("Early", 10.0), 30.0);
        assert_eq!(text_width("日勤帯勤務", 10.0), 50.0);
        assert_eq!(text_width("ﾆｯｷﾝ", 10.0), 24.0);
        // "Matinée" with its accent as a combining mark is as wide as with it composed.
        assert_eq!(
            text_width("Matine\u{301}e", 10.0),
            text_width("Matinée", 10.0)
        );
        assert_eq!(text_width("یک\u{200c}شنبه", 1.0), text_width("یکشنبه", 1.0));
    }
}

//! Writing SVG text: formatted pieces appended to the output, text escaped for XML, and
//! coordinates written short ([`Num`]).

use std::fmt::{self, Write as _};

/// Appends formatted text to a `String`.
pub(super) fn put(out: &mut String, args: fmt::Arguments<'_>) {
    out.write_fmt(args)
        .expect("formatting into a String cannot fail");
}

/// Appends `text` escaped for XML content and attribute values. Characters that XML 1.0 cannot
/// hold even as references (most C0 controls, U+FFFE, U+FFFF) become U+FFFD.
pub(super) fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' => out.push(c),
            '\u{10000}'..='\u{10FFFF}' => out.push(c),
            _ => out.push('\u{FFFD}'),
        }
    }
}

/// A coordinate or size, written with at most two decimals and no trailing zeros.
#[derive(Clone, Copy)]
pub(super) struct Num(pub(super) f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Every value here is a layout size well inside i64 hundredths.
        let hundredths = (self.0 * 100.0).round() as i64;
        if hundredths < 0 {
            f.write_str("-")?;
        }
        let h = hundredths.unsigned_abs();
        let (whole, frac) = (h / 100, h % 100);
        match frac {
            0 => write!(f, "{whole}"),
            _ if frac % 10 == 0 => write!(f, "{whole}.{}", frac / 10),
            _ => write!(f, "{whole}.{frac:02}"),
        }
    }
}

//! Text from the input, shown in messages: as written, except for the characters that
//! would act on the terminal or not be seen at all.
//!
//! Control characters (tab, escape, carriage return, …) and invisible or formatting ones (a
//! byte-order mark, zero-width spaces and joiners, bidirectional overrides, a soft hyphen,
//! line and paragraph separators, variation selectors, tags) are written as `<U+XXXX>`,
//! but for a zero-width non-joiner or joiner between two visible characters that are not
//! ASCII, where scripts use them in spelling (Persian `می‌رود`, emoji sequences);
//! everything else, backslashes included, is left as it is, so that `C:\temp` reads as
//! `C:\temp`, and a typed `\t` cannot be told for a tab. Text that holds double quotes is
//! put in single quotes (`'"x"'`), and in double quotes with its own shown as `<U+0022>`
//! when it holds both kinds.
//!
//! ```
//! use shiftgrid::io::quote::Quoted;
//!
//! assert_eq!(Quoted("C:\\temp").to_string(), "\"C:\\temp\"");
//! assert_eq!(Quoted("\u{feff}Ann\t").to_string(), "\"<U+FEFF>Ann<U+0009>\"");
//! ```

use std::fmt::{self, Write as _};

/// `text` in double quotes, escaped as the [module](self) says.
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0;
        match (text.contains('"'), text.contains('\'')) {
            (false, _) => write!(f, "\"{}\"", Escaped(text, None)),
            // Double quotes inside: single quotes around (`'"x"'`).
            (true, false) => write!(f, "'{}'", Escaped(text, None)),
            (true, true) => write!(f, "\"{}\"", Escaped(text, Some('"'))),
        }
    }
}

/// Text written with its hidden characters escaped, and `quote` too when given.
struct Escaped<'a>(&'a str, Option<char>);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let chars: Vec<char> = self.0.chars().collect();
        let spelling = |c: Option<&char>| {
            c.is_some_and(|&c| !c.is_ascii() && !c.is_whitespace() && !is_hidden(c))
        };
        for (i, &c) in chars.iter().enumerate() {
            let joins = matches!(c, '\u{200c}' | '\u{200d}')
                && i > 0
                && spelling(chars.get(i - 1))
                && spelling(chars.get(i + 1));
            if (is_hidden(c) && !joins) || Some(c) == self.1 {
                write!(f, "<U+{:04X}>", u32::from(c))?;
            } else {
                f.write_char(c)?;
            }
        }
        Ok(())
    }
}

/// Whether `c` would act on a terminal or not be seen: a control character, or an
/// invisible formatting one (Unicode's format characters that text commonly carries).
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{ad}' | '\u{61c}' | '\u{180e}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206f}' | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}' | '\u{fff9}'..='\u{fffb}' | '\u{e0000}'..='\u{e007f}')
}

/// Writes `text` with the hidden characters ([`is_hidden`]) escaped.
///
/// # Errors
/// What `out` returns.
pub fn write_escaped(out: &mut impl fmt::Write, text: &str) -> fmt::Result {
    write!(out, "{}", Escaped(text, None))
}

/// `text` as [`Quoted`] shows it, as a string.
pub fn quoted(text: &str) -> String {
    Quoted(text).to_string()
}

/// A path as messages show it: hidden characters escaped ([`escaped`]), so that a name
/// cannot drive the terminal; everything else as written.
pub fn escaped_path(path: &std::path::Path) -> String {
    escaped(&path.display().to_string())
}

/// `text` with the hidden characters ([`is_hidden`]) escaped, without quotes.
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // Writing into a String cannot fail.
    let _ = write_escaped(&mut out, text);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hidden_characters_are_escaped() {
        assert_eq!(
            Quoted("Smith, Bob O'Neil").to_string(),
            "\"Smith, Bob O'Neil\""
        );
        assert_eq!(Quoted("\"x\"").to_string(), "'\"x\"'");
        assert_eq!(
            Quoted("\"O'Neil\"").to_string(),
            "\"<U+0022>O'Neil<U+0022>\""
        );
        assert_eq!(Quoted("zoë 日本").to_string(), "\"zoë 日本\"");
        assert_eq!(Quoted("a\u{200b}b").to_string(), "\"a<U+200B>b\"");
        assert_eq!(Quoted("\u{1b}[31m").to_string(), "\"<U+001B>[31m\"");
        assert_eq!(
            escaped("x\r\u{202e}y\u{2028}"),
            "x<U+000D><U+202E>y<U+2028>"
        );
        // A typed backslash sequence and the character it names are told apart.
        assert_ne!(
            Quoted("Shift\\t1").to_string(),
            Quoted("Shift\t1").to_string()
        );
        assert_eq!(Quoted("C:\\temp").to_string(), "\"C:\\temp\"");
    }

    /// Joiners are part of the spelling between letters of scripts that use them, and
    /// hidden anywhere else.
    #[test]
    fn joiners_between_letters_that_are_not_ascii_are_spelling() {
        for kept in ["یک\u{200c}شنبه", "می\u{200c}رود", "👩\u{200d}⚕"] {
            assert_eq!(escaped(kept), kept);
        }
        for (text, shown) in [
            ("Ann\u{200c}Bob", "Ann<U+200C>Bob"),
            ("\u{200c}شنبه", "<U+200C>شنبه"),
            ("شنبه\u{200d}", "شنبه<U+200D>"),
            ("یک \u{200c}شنبه", "یک <U+200C>شنبه"),
            ("یک\u{200c}\u{200c}شنبه", "یک<U+200C><U+200C>شنبه"),
        ] {
            assert_eq!(escaped(text), shown);
        }
    }
}

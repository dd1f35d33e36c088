//! Reading input one line at a time with bounded memory: the ground floor of every reader
//! (text puzzles, JSON lines, roster CSVs, name files).
//!
//! A [`LineReader`] hands out one line at a time, numbered from 1, without its line end.
//! It never holds more than one line (plus what was pushed back), and refuses a line longer
//! than [`MAX_LINE`] with an error instead of growing: the longest line shiftgrid writes (a
//! 100×100 puzzle with its solution as JSON) is under 100 KB, so 1 MiB leaves room for hand-made
//! files while an endless line (`/dev/zero`, a binary file without line ends) stops after
//! 1 MiB. Lines must be UTF-8 and, unless told otherwise, hold no control characters
//! other than tab, and carriage returns only at their end (CRLF); the first problem ends the
//! input with an error that says where it is.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};

/// The longest line any reader accepts, in bytes (its line feed excluded, carriage returns
/// before it included): 1 MiB.
pub const MAX_LINE: usize = 1 << 20;

/// The most characters of a bad token or name that an error message quotes.
pub const QUOTE_CHARS: usize = 40;

/// `text` as an error message quotes it: whole when short, else its first
/// [`QUOTE_CHARS`] characters, an ellipsis and the full length in characters.
///
/// ```
/// use shiftgrid::io::lines::quote_prefix;
/// assert_eq!(quote_prefix("abc"), "abc");
/// let long = "x".repeat(5000);
/// assert_eq!(quote_prefix(&long), format!("{}… (5000 characters)", "x".repeat(40)));
/// assert_eq!(quote_prefix(&"日".repeat(50)), format!("{}… (50 characters)", "日".repeat(40)));
/// ```
pub fn quote_prefix(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        None => text.to_string(),
        Some((end, _)) => format!("{}… ({} characters)", &text[..end], text.chars().count()),
    }
}

/// Why a line could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LineError {
    /// The line is longer than [`MAX_LINE`].
    #[error("line is longer than {} MiB ({limit} bytes): not a puzzle or roster file", limit >> 20)]
    TooLong {
        /// The line, 1-based.
        line: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// Invalid UTF-8 or a control character.
    #[error("{reason}")]
    NotText {
        /// The line, 1-based.
        line: usize,
        /// The column, 1-based, in characters.
        col: usize,
        /// What was found.
        reason: String,
        /// The line's text before the column (for readers that name a field, not a
        /// column).
        before: String,
    },
    /// The input could not be read.
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl LineError {
    /// The line and column where the problem is (`(0, 0)` for an I/O error).
    pub fn position(&self) -> (usize, usize) {
        match self {
            LineError::TooLong { line, .. } => (*line, 1),
            LineError::NotText { line, col, .. } => (*line, *col),
            LineError::Io(_) => (0, 0),
        }
    }
}

/// Reads lines from a [`BufRead`] with bounded memory (see the module documentation).
pub struct LineReader<R> {
    inner: R,
    /// Lines (or an error) read but handed back with [`LineReader::push_back`], in order.
    back: VecDeque<Result<(usize, String), LineError>>,
    /// The number of the last line read from `inner`.
    line: usize,
    buf: Vec<u8>,
    controls_ok: bool,
    failed: bool,
    bom: bool,
    lossy_comments: bool,
}

impl<R> std::fmt::Debug for LineReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineReader")
            .field("line", &self.line)
            .field("bom", &self.bom)
            .finish_non_exhaustive()
    }
}

impl<R: BufRead> LineReader<R> {
    /// A reader that refuses control characters other than tab, and carriage returns other
    /// than at the end of a line.
    pub fn new(inner: R) -> LineReader<R> {
        LineReader {
            inner,
            back: VecDeque::new(),
            line: 0,
            buf: Vec::new(),
            controls_ok: false,
            failed: false,
            bom: false,
            lossy_comments: false,
        }
    }

    /// Reads a `#` comment line (its first character that is not blank is `#`) whatever
    /// bytes follow, but NUL: invalid UTF-8 is replaced (U+FFFD) and control characters
    /// pass. Text puzzles skip such lines, so a comment in another encoding (`# by Müller`
    /// in Latin-1) no longer ends the input.
    pub fn lossy_comments(mut self) -> LineReader<R> {
        self.lossy_comments = true;
        self
    }

    /// Turns [`LineReader::lossy_comments`] on or off for the lines still to be read (a
    /// roster CSV, which has no comments, once its form is known).
    pub fn set_lossy_comments(&mut self, on: bool) {
        self.lossy_comments = on;
    }

    /// Whether line 1 began with a UTF-8 byte-order mark (dropped from the line).
    pub fn had_bom(&self) -> bool {
        self.bom
    }

    /// Lets control characters through (name files check each name themselves).
    pub fn allow_controls(mut self) -> LineReader<R> {
        self.controls_ok = true;
        self
    }

    /// The next line and its 1-based number, without the `\n` (a `\r` before it stays), and
    /// without a byte-order mark at its start (line 1's, or one where files were joined). `None` at the end of the input.
    /// After an error the reader is at its end.
    ///
    /// # Errors
    /// [`LineError`] for a line too long, one that is not text, or a failed read.
    pub fn next_line(&mut self) -> Option<Result<(usize, String), LineError>> {
        if let Some(l) = self.back.pop_front() {
            return Some(l);
        }
        if self.failed {
            return None;
        }
        let r = self.read_line();
        match r {
            Ok(None) => {
                self.failed = true;
                None
            }
            Ok(Some(l)) => Some(Ok(l)),
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }

    /// Hands lines just read back, ahead of any handed back before: the next calls return
    /// `lines` in their order, then whatever was next before.
    pub fn unread(&mut self, lines: Vec<Result<(usize, String), LineError>>) {
        for l in lines.into_iter().rev() {
            self.back.push_front(l);
        }
    }

    /// Hands a line back: the next calls return the lines pushed back, in the order pushed,
    /// before reading on.
    pub fn push_back(&mut self, line: Result<(usize, String), LineError>) {
        self.back.push_back(line);
    }

    fn read_line(&mut self) -> Result<Option<(usize, String)>, LineError> {
        self.buf.clear();
        let limit = MAX_LINE as u64 + 1;
        let n = (&mut self.inner)
            .take(limit)
            .read_until(b'\n', &mut self.buf)?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        let no = self.line;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        } else if self.buf.len() > MAX_LINE {
            return Err(LineError::TooLong {
                line: no,
                limit: MAX_LINE,
            });
        }
        let mut bytes = std::mem::take(&mut self.buf);
        // A byte-order mark starts line 1 of a file a spreadsheet or Windows editor saved,
        // and any line where such files were joined (`cat a.txt b.txt`): invisible, dropped.
        if bytes.starts_with("\u{feff}".as_bytes()) {
            bytes.drain(..3);
            self.bom |= no == 1;
        }
        if no == 1
            && let Some(reason) = foreign_file(&bytes)
        {
            return Err(LineError::NotText {
                line: no,
                col: 1,
                reason: reason.to_string(),
                before: String::new(),
            });
        }
        let comment = self.lossy_comments
            && bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'#')
            && !bytes.contains(&0);
        if comment {
            return Ok(Some((no, String::from_utf8_lossy(&bytes).into_owned())));
        }
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let bytes = e.into_bytes();
                let col = String::from_utf8_lossy(&bytes[..at]).chars().count() + 1;
                let utf32 = no == 1
                    && (bytes.starts_with(b"\xff\xfe\0\0") || bytes.starts_with(b"\0\0\xfe\xff"));
                let utf16 =
                    no == 1 && (bytes.starts_with(b"\xff\xfe") || bytes.starts_with(b"\xfe\xff"));
                let reason = if utf32 {
                    "the file is UTF-32 (it starts with a UTF-32 byte-order mark): save it as \
                     UTF-8"
                        .to_string()
                } else if utf16 {
                    "the file is UTF-16 (it starts with a UTF-16 byte-order mark): save it as \
                     UTF-8 (a spreadsheet's \"CSV UTF-8\"), not as \"Unicode Text\""
                        .to_string()
                } else {
                    format!(
                        "invalid UTF-8 byte 0x{:02X} at column {col} (is the file in another \
                         encoding, such as Windows-1252? save it as UTF-8)",
                        bytes[at]
                    )
                };
                return Err(LineError::NotText {
                    line: no,
                    col,
                    reason,
                    before: String::from_utf8_lossy(&bytes[..at]).into_owned(),
                });
            }
        };
        if !self.controls_ok {
            // `\r`s end a CRLF line (more than one where a file was converted twice); one
            // with more text after it is most often a classic Mac line end, which would
            // otherwise join the file into one line.
            let body = text.trim_end_matches('\r').chars().count();
            if let Some((k, c)) = text
                .chars()
                .enumerate()
                .find(|&(k, c)| c.is_control() && c != '\t' && (c != '\r' || k < body))
            {
                let what = match c {
                    '\0' => "NUL byte (is this a binary file?)".to_string(),
                    '\r' => "carriage return inside a line (lines that end in a carriage \
                             return alone, as on classic Mac OS, are not read: end them with \
                             a line feed)"
                        .to_string(),
                    _ => format!("control character U+{:04X}", u32::from(c)),
                };
                return Err(LineError::NotText {
                    line: no,
                    col: k + 1,
                    reason: format!("{what} at column {}", k + 1),
                    before: text.chars().take(k).collect(),
                });
            }
        }
        Ok(Some((no, text)))
    }
}

/// What the first line of a file that is not text says it is, told by its first bytes:
/// a workbook or other zip archive, a PDF, a compressed file, or UTF-16 text with no
/// byte-order mark (every second byte NUL), each with what to do instead.
fn foreign_file(first: &[u8]) -> Option<&'static str> {
    if first.starts_with(b"PK\x03\x04") {
        return Some(
            "the file is a zip archive, such as an .xlsx or .ods workbook: save the sheet as \
             CSV (a spreadsheet's \"CSV UTF-8\") and read that",
        );
    }
    if first.starts_with(b"%PDF-") {
        return Some("the file is a PDF document, not text");
    }
    if first.starts_with(b"\x1f\x8b") || first.starts_with(b"\x28\xb5\x2f\xfd") {
        return Some("the file is compressed (gzip or zstd): decompress it first");
    }
    // bzip2's `BZh` and block size, then its first block's magic (pi's digits) or, for an
    // empty stream, its end's (sqrt(pi)'s); xz; 7-Zip; LZ4 frames.
    let bzip2 = first.len() >= 10
        && first.starts_with(b"BZh")
        && (b'1'..=b'9').contains(&first[3])
        && [*b"\x31\x41\x59\x26\x53\x59", *b"\x17\x72\x45\x38\x50\x90"]
            .contains(&first[4..10].try_into().unwrap_or_default());
    let magic: [&[u8]; 3] = [b"\xfd7zXZ\x00", b"7z\xbc\xaf\x27\x1c", b"\x04\x22\x4d\x18"];
    if bzip2 || magic.iter().any(|m| first.starts_with(m)) {
        return Some("the file is compressed (bzip2, xz, 7-Zip or LZ4): decompress it first");
    }
    // Latin-1 text (`Jürgen`) has a zero high byte too: any non-zero byte beside a zero.
    let pairs = first.chunks_exact(2).take(8);
    let (le, be) = pairs.fold((0, 0), |(le, be), p| {
        (
            le + usize::from(p[0] != 0 && p[1] == 0),
            be + usize::from(p[0] == 0 && p[1] != 0),
        )
    });
    if first.len() >= 4 && (le == first.len().min(16) / 2 || be == first.len().min(16) / 2) {
        return Some(
            "the file is UTF-16 text (every second byte is zero): save it as UTF-8 (a \
             spreadsheet's \"CSV UTF-8\"), not as \"Unicode Text\"",
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8]) -> Vec<Result<(usize, String), String>> {
        let mut r = LineReader::new(input);
        std::iter::from_fn(|| r.next_line())
            .map(|x| x.map_err(|e| format!("{:?} {e}", e.position())))
            .collect()
    }

    #[test]
    fn numbers_lines_and_strips_ends() {
        let got = all("\u{feff}a\r\n\nb".as_bytes());
        assert_eq!(
            got,
            [
                Ok((1, "a\r".to_string())),
                Ok((2, String::new())),
                Ok((3, "b".to_string()))
            ]
        );
        // Two files joined: the second one's mark goes too.
        let got = all("\u{feff}a\n\u{feff}b\n".as_bytes());
        assert_eq!(got, [Ok((1, "a".to_string())), Ok((2, "b".to_string()))]);
        assert!(all(b"").is_empty());
    }

    #[test]
    fn a_carriage_return_ends_a_line_only_before_a_line_feed() {
        // Classic Mac line ends: one long line, refused at its first carriage return.
        let got = all(b"1234\r3412\r2143\r4321\r");
        assert_eq!(got.len(), 1);
        let e = got[0].as_ref().unwrap_err();
        assert!(e.starts_with("(1, 5) "), "{e}");
        assert!(e.contains("carriage return inside a line"), "{e}");
        // A last carriage return with no line feed after it is a CRLF line cut short; two
        // before a line feed, a file converted to CRLF twice.
        assert_eq!(all(b"ab\r"), [Ok((1, "ab\r".to_string()))]);
        assert_eq!(
            all(b"ab\r\r\n\r\n"),
            [Ok((1, "ab\r\r".to_string())), Ok((2, "\r".to_string()))]
        );
    }

    #[test]
    fn names_workbooks_archives_and_utf16_without_a_mark() {
        let first_error = |input: &[u8]| all(input)[0].clone().unwrap_err();
        // The start of an .xlsx file: a zip archive's local header.
        let e = first_error(b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00b\xee\x9dh^\x01");
        assert!(e.starts_with("(1, 1) "), "{e}");
        assert!(e.contains("zip archive, such as an .xlsx"), "{e}");
        assert!(first_error(b"%PDF-1.7\n%\xe2\xe3").contains("PDF document"));
        assert!(first_error(b"\x1f\x8b\x08\x00").contains("compressed"));
        // The first bytes of `bzip2`, `xz` and `7z` output.
        assert!(first_error(b"BZh91AY&SY\x9f\x00").contains("compressed (bzip2"));
        assert!(first_error(b"\xfd7zXZ\x00\x00\x04").contains("compressed (bzip2, xz"));
        assert!(first_error(b"7z\xbc\xaf\x27\x1c\x00\x04").contains("7-Zip"));
        assert!(first_error(b"BZh9\x17\x72\x45\x38\x50\x90\x00").contains("bzip2"));
        assert!(first_error(b"\x04\x22\x4d\x18\x64\x40").contains("LZ4"));
        // Text that starts as bzip2 does is text.
        assert_eq!(all(b"BZh9 x\n"), [Ok((1, "BZh9 x".to_string()))]);
        // "staff,Day 1" in UTF-16LE and UTF-16BE with no byte-order mark, and a name
        // with a letter beyond ASCII.
        let le: Vec<u8> = "staff,Day 1\n".bytes().flat_map(|b| [b, 0]).collect();
        let be: Vec<u8> = "staff,Day 1\n".bytes().flat_map(|b| [0, b]).collect();
        let latin: Vec<u8> = "Jürgen,Mo\n".chars().flat_map(|c| [c as u8, 0]).collect();
        for text in [le, be, latin] {
            let e = first_error(&text);
            assert!(e.contains("UTF-16 text (every second byte is zero)"), "{e}");
        }
        // Text that merely starts with the same letters is text.
        assert_eq!(all(b"PK,x\n"), [Ok((1, "PK,x".to_string()))]);
        assert_eq!(all(b"%PDF\n"), [Ok((1, "%PDF".to_string()))]);
        // Only line 1 is looked at this way: a NUL later is a NUL.
        let got = all(b"a\nb\x00c\x00d\x00e\x00\n");
        assert!(got[1].as_ref().unwrap_err().contains("NUL byte"));
    }

    #[test]
    fn refuses_long_lines_and_binary() {
        let long = vec![b'1'; MAX_LINE + 10];
        let got = all(&long);
        assert_eq!(got.len(), 1);
        assert!(got[0].as_ref().unwrap_err().contains("longer than 1 MiB"));
        // Exactly the limit is fine.
        let mut ok = vec![b'1'; MAX_LINE];
        ok.push(b'\n');
        assert_eq!(all(&ok).len(), 1);
        assert!(all(&ok)[0].is_ok());
        let got = all(b"ok\nab\0c\nmore\n");
        assert_eq!(got.len(), 2);
        assert_eq!(
            got[1],
            Err("(2, 3) NUL byte (is this a binary file?) at column 3".into())
        );
        let got = all(b"x\xffy\n");
        assert_eq!(
            got,
            [Err(
                "(1, 2) invalid UTF-8 byte 0xFF at column 2 (is the file in another \
                  encoding, such as Windows-1252? save it as UTF-8)"
                    .into()
            )]
        );
        // A spreadsheet's "Unicode Text": UTF-16 with its byte-order mark.
        let got = all(b"\xff\xfes\0t\0\n\0");
        assert!(
            got[0].as_ref().unwrap_err().contains("the file is UTF-16"),
            "{got:?}"
        );
        // UTF-32 says so (its mark starts as UTF-16LE's does), little- and big-endian.
        for text in [
            &b"\xff\xfe\0\0s\0\0\0\n\0\0\0"[..],
            b"\0\0\xfe\xff\0\0\0s\0\0\0\n",
        ] {
            let got = all(text);
            assert!(
                got[0].as_ref().unwrap_err().contains("the file is UTF-32"),
                "{got:?}"
            );
        }
        let mut r = LineReader::new(&b"a\x07b\n"[..]).allow_controls();
        assert_eq!(r.next_line().unwrap().unwrap().1, "a\x07b");
    }

    /// With `lossy_comments`, a `#` line in another encoding or with a control character
    /// is read (bad bytes replaced); any other such line, and a comment with a NUL, still
    /// ends the input.
    #[test]
    fn comments_in_other_encodings_are_read() {
        let text = &b"# by M\xfcller\n  # bell \x07\n1\n"[..];
        let mut r = LineReader::new(text).lossy_comments();
        assert_eq!(r.next_line().unwrap().unwrap().1, "# by M\u{fffd}ller");
        assert_eq!(r.next_line().unwrap().unwrap().1, "  # bell \x07");
        assert_eq!(r.next_line().unwrap().unwrap(), (3, "1".to_string()));
        assert!(LineReader::new(text).next_line().unwrap().is_err());
        let mut r = LineReader::new(&b"M\xfcller\n1\n"[..]).lossy_comments();
        assert!(r.next_line().unwrap().is_err());
        let mut r = LineReader::new(&b"# a\0b\n1\n"[..]).lossy_comments();
        assert!(r.next_line().unwrap().is_err());
    }

    #[test]
    fn push_back_replays_in_order() {
        let mut r = LineReader::new(&b"1\n2\n3\n"[..]);
        let a = r.next_line().unwrap().unwrap();
        let b = r.next_line().unwrap().unwrap();
        r.push_back(Ok(a));
        r.push_back(Ok(b));
        let got: Vec<usize> = std::iter::from_fn(|| r.next_line())
            .map(|l| l.unwrap().0)
            .collect();
        assert_eq!(got, [1, 2, 3]);
    }

    #[test]
    fn unread_goes_before_lines_pushed_back() {
        let mut r = LineReader::new(&b"1\n2\n3\n4\n"[..]);
        let one = r.next_line().unwrap().unwrap();
        let two = r.next_line().unwrap().unwrap();
        r.push_back(Ok(one));
        r.push_back(Ok(two));
        let one = r.next_line().unwrap().unwrap();
        assert_eq!(one.0, 1);
        // Read 2 and 3 ahead while 2 was still held back, then hand them back.
        let ahead = vec![r.next_line().unwrap(), r.next_line().unwrap()];
        r.unread(ahead);
        let got: Vec<usize> = std::iter::from_fn(|| r.next_line())
            .map(|l| l.unwrap().0)
            .collect();
        assert_eq!(got, [2, 3, 4]);
    }

    #[test]
    fn quotes_are_short() {
        assert_eq!(quote_prefix(""), "");
        let s = "é".repeat(100);
        let q = quote_prefix(&s);
        assert!(
            q.starts_with(&"é".repeat(40)) && q.ends_with("(100 characters)"),
            "{q}"
        );
    }
}

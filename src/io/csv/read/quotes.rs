//! Quotes on one line of a CSV, by the `csv` crate's rules (a quote opens a quoted field
//! only at the start of a field, and `""` inside one is a quote): where a quoted field is
//! left open, and blanks before an opening quote.

/// The field (spreadsheet column, from 1) whose quote `line` leaves open at its end, if
/// any: a quote opens a quoted field only at the start of a field, and `""` inside one is a
/// quote (the `csv` crate's rules).
pub(super) fn quote_left_open(line: &str, delimiter: u8) -> Option<usize> {
    let (field, quoted) = fields_up_to(line, delimiter);
    quoted.then_some(field)
}

/// `line` without the blanks between a field's start and its opening quote (`Ann, "Late,
/// early"`, as people type and write-ups print CSV): fields are trimmed anyway, and a quote
/// after a blank would otherwise be text, splitting the name at its comma.
pub(super) fn unspace_quotes(line: &str, delimiter: u8) -> std::borrow::Cow<'_, str> {
    let blank = |c: u8| c == b' ' || (c == b'\t' && delimiter != b'\t');
    let bytes = line.as_bytes();
    let (mut out, mut kept) = (String::new(), 0);
    let (mut quoted, mut at_start) = (false, true);
    let mut i = 0;
    while i < bytes.len() {
        if quoted {
            // `""` inside a quoted field is a quote; a lone one closes the field.
            if bytes[i] == b'"' && bytes.get(i + 1) == Some(&b'"') {
                i += 1;
            } else {
                quoted = bytes[i] != b'"';
            }
        } else if at_start {
            let k = i + bytes[i..].iter().take_while(|&&b| blank(b)).count();
            if k > i && bytes.get(k) == Some(&b'"') {
                out.push_str(&line[kept..i]);
                kept = k;
                i = k;
            }
            at_start = false;
            quoted = bytes.get(i) == Some(&b'"');
            if !quoted {
                // The field's first character, read again as one inside it.
                continue;
            }
        } else {
            at_start = bytes[i] == delimiter;
        }
        i += 1;
    }
    if kept == 0 {
        return line.into();
    }
    out.push_str(&line[kept..]);
    out.into()
}

/// The field (from 1) that the end of `line` lies in, and whether a quoted field is open
/// there (the `csv` crate's rules: a quote opens a quoted field only at the start of a
/// field, and `""` inside one is a quote).
pub(super) fn fields_up_to(line: &str, delimiter: u8) -> (usize, bool) {
    let bytes = line.as_bytes();
    let (mut quoted, mut at_start) = (false, true);
    let mut field = 1;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if quoted {
            if c == b'"' {
                if bytes.get(i + 1) == Some(&b'"') {
                    i += 1;
                } else {
                    quoted = false;
                }
            }
        } else if c == b'"' && at_start {
            quoted = true;
            at_start = false;
        } else {
            if c == delimiter {
                field += 1;
            }
            at_start = c == delimiter || c == b'\r';
        }
        i += 1;
    }
    (field, quoted)
}

//! [`Splitter`]: one line of a roster CSV split into the fields of its records, by a
//! `csv-core` parser built once per file. (A `csv::Reader` for each line, as before, built
//! the parser's state machine for each line: 30 µs a line, 95 s for a file of three
//! million.)

use csv_core::{ReadRecordResult, Reader, ReaderBuilder};

/// Splits lines into fields as the `csv` crate reads them (RFC 4180 quoting with doubled
/// quotes, no comments, no escape character, any number of fields), one line at a time.
pub(super) struct Splitter {
    core: Reader,
    /// The unquoted bytes of the record being read.
    out: Vec<u8>,
    /// Where each field of the record ends in `out`.
    ends: Vec<usize>,
}

impl Splitter {
    /// A splitter for fields separated by `delimiter`.
    pub(super) fn new(delimiter: u8) -> Splitter {
        Splitter {
            core: ReaderBuilder::new().delimiter(delimiter).build(),
            out: vec![0; 1024],
            ends: vec![0; 64],
        }
    }

    /// Calls `each` with the fields of every record on `line` (one, unless a bare carriage
    /// return inside the line ends a record early). The parser starts afresh on each line,
    /// so a quote left open on one line never reaches the next.
    pub(super) fn records(&mut self, line: &str, mut each: impl FnMut(Vec<String>)) {
        self.core.reset();
        let mut input = line.as_bytes();
        let (mut nout, mut nend) = (0, 0);
        loop {
            // An empty `input` tells the parser that the line has ended.
            let (result, nin, o, e) =
                self.core
                    .read_record(input, &mut self.out[nout..], &mut self.ends[nend..]);
            input = &input[nin..];
            nout += o;
            nend += e;
            match result {
                ReadRecordResult::InputEmpty => {}
                ReadRecordResult::OutputFull => self.out.resize(2 * self.out.len(), 0),
                ReadRecordResult::OutputEndsFull => self.ends.resize(2 * self.ends.len(), 0),
                ReadRecordResult::Record => {
                    let mut start = 0;
                    let fields = self.ends[..nend]
                        .iter()
                        .map(|&end| {
                            // The line is UTF-8 and delimiters and quotes are ASCII, so
                            // every field is too.
                            let f = String::from_utf8_lossy(&self.out[start..end]).into_owned();
                            start = end;
                            f
                        })
                        .collect();
                    each(fields);
                    (nout, nend) = (0, 0);
                }
                ReadRecordResult::End => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The records of `line` as the `csv` crate reads them, one reader for the line.
    fn by_csv_crate(line: &str, delimiter: u8) -> Vec<Vec<String>> {
        ::csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .delimiter(delimiter)
            .from_reader(line.as_bytes())
            .records()
            .map(|r| r.unwrap().iter().map(str::to_string).collect())
            .collect()
    }

    fn by_splitter(s: &mut Splitter, line: &str) -> Vec<Vec<String>> {
        let mut all = Vec::new();
        s.records(line, |f| all.push(f));
        all
    }

    #[test]
    fn lines_split_as_the_csv_crate_splits_them() {
        let lines = [
            "staff,day,shift",
            "Ann,Mon,Early\r",
            " Ann , Mon ,Early ",
            "\"Smith, Ann\",\"Mon\",\"Late \"\"B\"\"\"",
            "a,,c,",
            ",",
            "\"\"",
            "one",
            "a,b\rc,d",
            "a,\"open",
            "\"a\"b,c",
            "Zoë,Dienstag,Früh",
            &format!("{},{}", "x".repeat(5000), "y,".repeat(300)),
        ];
        for d in [b',', b';', b'\t'] {
            // One splitter for every line, as a file uses it.
            let mut s = Splitter::new(d);
            for line in lines {
                let line = line.replace(',', &char::from(d).to_string());
                assert_eq!(
                    by_splitter(&mut s, &line),
                    by_csv_crate(&line, d),
                    "{line:?}"
                );
            }
        }
    }
}

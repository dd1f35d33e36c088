//! Which delimiter a roster CSV uses, told from its header and the lines after it.

/// The candidate delimiters, in the order that breaks ties.
pub(super) const DELIMITERS: [u8; 3] = [b',', b';', b'\t'];

/// How often each of [`DELIMITERS`] occurs outside quotes in `line`.
fn delimiter_counts(line: &str) -> [usize; 3] {
    let mut counts = [0usize; 3];
    let mut quoted = false;
    for c in line.bytes() {
        match c {
            b'"' => quoted = !quoted,
            _ if quoted => {}
            _ => {
                if let Some(k) = DELIMITERS.iter().position(|&d| d == c) {
                    counts[k] += 1;
                }
            }
        }
    }
    counts
}

/// Whether the delimiter of a file whose first line is `first` needs a look at its second
/// line: more than one candidate occurs in it.
pub(super) fn delimiter_is_ambiguous(first: &str) -> bool {
    delimiter_counts(first).iter().filter(|&&c| c > 0).count() > 1
}

/// The non-empty lines after the first that [`sniff_delimiter`] looks at, at most.
pub(super) const SNIFF_LINES: usize = 5;

/// The delimiter, from the first non-empty line and, when more than one candidate occurs
/// in it, the next ones (`next`, up to [`SNIFF_LINES`]): a European file saved with `;`
/// may name its days `Mon, 1 Jan`, as many commas as semicolons. Of the candidates in the
/// first line, the one that splits the most of the next lines into as many fields as the
/// first wins; then the one that occurs most in them (rows may be short of their trailing
/// empty fields); then the most frequent in the first line. `,` when none occurs; `None`
/// when two candidates stay level (nothing tells them apart: refuse rather than guess).
pub(super) fn sniff_delimiter(first: &str, next: &[&str]) -> Option<u8> {
    let head = delimiter_counts(first);
    let counts: Vec<[usize; 3]> = next.iter().map(|l| delimiter_counts(l)).collect();
    let rank = |k: usize| -> (usize, usize, usize) {
        let same = counts.iter().filter(|c| c[k] == head[k]).count();
        let total = counts.iter().map(|c| c[k]).sum();
        (same, total, head[k])
    };
    let present: Vec<usize> = (0..DELIMITERS.len()).filter(|&k| head[k] > 0).collect();
    let Some(&best) = present
        .iter()
        .max_by_key(|&&k| (rank(k), std::cmp::Reverse(k)))
    else {
        return Some(b',');
    };
    if present.iter().any(|&k| k != best && rank(k) == rank(best)) {
        return None;
    }
    Some(DELIMITERS[best])
}

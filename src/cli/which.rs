//! Which puzzles a note names: the first few numbers of those that met some condition.

/// The most puzzles a note names by number.
pub(super) const WHICH: usize = 8;

/// Adds puzzle `number` to the ones `which` names, up to [`WHICH`].
pub(super) fn note_which(which: &mut Vec<u64>, number: u64) {
    if which.len() < WHICH {
        which.push(number);
    }
}

/// The numbers of `which`, and how many more of the `k` there are: "3 and 7",
/// "1, 2, …, 8 and 4 more".
pub(super) fn numbers(k: u64, which: &[u64]) -> String {
    let mut named: Vec<String> = which.iter().map(u64::to_string).collect();
    let more = k.saturating_sub(named.len() as u64);
    if more > 0 {
        named.push(format!("{more} more"));
    }
    crate::grade::join(named)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_first_few_and_counts_the_rest() {
        let mut which = Vec::new();
        for n in 1..=10 {
            note_which(&mut which, n);
        }
        assert_eq!(which.len(), WHICH);
        assert_eq!(numbers(10, &which), "1, 2, 3, 4, 5, 6, 7, 8 and 2 more");
        assert_eq!(numbers(2, &[3, 7]), "3 and 7");
    }
}

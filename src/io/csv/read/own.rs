//! Shift names of a roster's own: a roster read without a shift list whose shifts are
//! written as names (`Early`, `Late`, …) rather than default names or numbers, as
//! `generate --shifts FILE` writes it. When it names as many shifts as its size (as every
//! full roster does), or one fewer (a unique puzzle needs only `n − 1` of its symbols, and
//! many name no more), those are its shifts, in order of first appearance, the last one
//! then `Shift N`; fewer cannot be completed without knowing the others, and more, or a
//! mix with numbers, is refused. Names that differ only in letter case (or Unicode form: an
//! accent composed or combined) are one shift, written
//! as most of its cells spell it (of spellings used as often, the first). In a
//! long file with several grids the names are the file's, gathered over all its grids.
//!
//! A slip is reported where it is: of two names that look like one misspelt, the one used
//! less (`Erly` once beside `Early` on every other row), and with more names than the
//! size, the one used least, wherever the name one too many was first met.

use std::collections::HashMap;

use crate::grid::Shape;
use crate::io::csv::MAX_SIDE;
use crate::io::csv::errors::{CsvError, CsvErrorKind, err, quoted_list};
use crate::io::csv::names::{Names, canonical, check_name};
use crate::io::lines::quote_prefix;

/// The shifts of a roster read without a shift list: its own names, and where the
/// default names or numbers were used instead.
#[derive(Debug, Default)]
pub(super) struct OwnShifts {
    /// Each own name as first written.
    names: Vec<String>,
    /// Lower-case name, in its Unicode form for comparing ([`canonical`]), to its index in
    /// `names`.
    ids: HashMap<String, usize>,
    /// Where each own name is first used (line, field).
    at: Vec<(usize, usize)>,
    /// How many cells use each own name.
    uses: Vec<usize>,
    /// Each own name's spellings (differing in letter case) after the first, with how
    /// many cells use each (the first's count is the rest of `uses`).
    others: Vec<Vec<(String, usize)>>,
    /// Cells given an own name, and cells given a default name or number.
    own_uses: usize,
    number_uses: usize,
    /// The first default name or number used, and where.
    first_number: Option<(String, usize, usize)>,
    /// The smallest and largest shift numbers used.
    numbers: Option<(usize, usize)>,
}

impl OwnShifts {
    /// Notes shift `v` given by a default name or number (`Shift 3`, `3`).
    pub(super) fn number(&mut self, v: usize, name: &str, line: usize, field: usize) {
        self.number_uses += 1;
        self.numbers = Some(match self.numbers {
            Some((lo, hi)) => (lo.min(v), hi.max(v)),
            None => (v, v),
        });
        if self.first_number.is_none() {
            self.first_number = Some((name.to_string(), line, field));
        }
    }

    /// The 1-based shift of an own name (`name` is no default name), new or not. Past
    /// `limit` names (the size when it is known) the file is read on, so that
    /// [`OwnShifts::apply`] can name the slip, up to twice that many (the ids may then
    /// exceed the size: `apply` refuses such a roster before its cells are used).
    ///
    /// # Errors
    /// A name that cannot be written back (a formula), or more than twice `limit`.
    pub(super) fn id(
        &mut self,
        name: &str,
        line: usize,
        field: usize,
        limit: Option<Shape>,
    ) -> Result<usize, CsvError> {
        self.own_uses += 1;
        let key = canonical(name).to_lowercase();
        if let Some(&id) = self.ids.get(&key) {
            self.uses[id] += 1;
            if name != self.names[id] {
                let others = &mut self.others[id];
                match others.iter_mut().find(|(s, _)| s == name) {
                    Some((_, k)) => *k += 1,
                    None => others.push((name.to_string(), 1)),
                }
            }
            return Ok(id + 1);
        }
        check_name(name).map_err(|problem| {
            err(
                line,
                Some(field),
                CsvErrorKind::BadName {
                    what: "shift".into(),
                    name: quote_prefix(name),
                    problem,
                },
            )
        })?;
        let max = limit.map_or(MAX_SIDE, |s| s.side());
        if self.names.len() == 2 * max || (limit.is_none() && self.names.len() == max) {
            let kind = CsvErrorKind::OwnShifts {
                found: self.names.len() + 1,
                side: max,
                names: self.listed(Some(name)),
                rarest: None,
            };
            return Err(err(line, Some(field), kind));
        }
        self.names.push(name.to_string());
        self.ids.insert(key, self.names.len() - 1);
        self.at.push((line, field));
        self.uses.push(1);
        self.others.push(Vec::new());
        Ok(self.names.len())
    }

    /// Two own names (indices, the one used more first; of two used as often, the one met
    /// first) that look like one name misspelt: one letter added or dropped (`Earl`,
    /// `Erly` beside `Early`) or two swapped (`Eraly`). A roster may name one shift fewer
    /// than its size, so a typo would otherwise pass for its last shift. Names one letter
    /// apart by a change (`Ward A`, `Ward B`) or by digits (`Bed 1`, `Bed 16`; `Room 39`,
    /// `Room 93`) are distinct shifts.
    fn look_alike(&self) -> Option<(usize, usize)> {
        let lower: Vec<Vec<char>> = self
            .names
            .iter()
            .map(|s| canonical(s).to_lowercase().chars().collect())
            .collect();
        for b in 1..lower.len() {
            for a in 0..b {
                if slip(&lower[a], &lower[b]) {
                    return Some(if self.uses[b] > self.uses[a] {
                        (b, a)
                    } else {
                        (a, b)
                    });
                }
            }
        }
        None
    }

    /// The own names for messages, with `extra` after them.
    fn listed(&self, extra: Option<&str>) -> Vec<String> {
        (0..self.names.len())
            .map(|k| self.spelling(k))
            .chain(extra)
            .map(quote_prefix)
            .collect()
    }

    /// How many own names there are.
    pub(super) fn len(&self) -> usize {
        self.names.len()
    }

    /// Makes the own names the shift names of `names` (of the roster's size, now known),
    /// when the roster uses them. One fewer than the size is enough (a unique puzzle needs
    /// only `n − 1` of its symbols, and a roster often names no more): the last shift is
    /// then `Shift N`, its default name.
    ///
    /// # Errors
    /// Own names beside numbers (the fewer of the two kinds is reported, as the likely
    /// slip), and a number of own names other than the size or one fewer.
    pub(super) fn apply(&self, names: &mut Names) -> Result<(), CsvError> {
        if self.names.is_empty() {
            return Ok(());
        }
        let n = names.shifts.len();
        // `Shift N` beside N − 1 names of its own: the last shift as this reader names it
        // (a roster read with one name short, solved and written back).
        let last_by_default = self.names.len() + 1 == n && self.numbers == Some((n, n));
        if let Some((number, line, field)) = self.first_number.clone().filter(|_| !last_by_default)
        {
            let (name, number, others, (line, field)) = if self.number_uses <= self.own_uses {
                let others = format!("names of its own ({})", quoted_list(&self.listed(None)));
                (number, true, others, (line, field))
            } else {
                let others = format!("numbers 1 to {n} (or \"Shift 1\" to \"Shift {n}\")");
                (self.spelling(0).to_string(), false, others, self.at[0])
            };
            let kind = CsvErrorKind::MixedShifts {
                name: quote_prefix(&name),
                number,
                others,
            };
            return Err(err(line, Some(field), kind));
        }
        // A slip first: with one name too many it is most likely the cause. Full rosters
        // use every shift n times each, and a typo there is one name too many, named below
        // as the one used least; their own names may look alike (`Day`, `Days`).
        let full = self.uses.iter().all(|&u| u == self.uses[0] && u % n == 0);
        if self.names.len() + 1 >= n && !full {
            if let Some((a, b)) = self.look_alike() {
                let (line, field) = self.at[b];
                let kind = CsvErrorKind::LookAlikeShifts {
                    name: quote_prefix(self.spelling(b)),
                    uses: self.uses[b],
                    like: quote_prefix(self.spelling(a)),
                    like_uses: self.uses[a],
                    like_at: self.at[a],
                };
                return Err(err(line, Some(field), kind));
            }
        }
        if self.names.len() + 1 < n || self.names.len() > n {
            // Too many: the name used least, where it is first used, when no other is used
            // as little; else the name one too many, where it is met. Too few: the first.
            let least = self.uses.iter().min().copied().unwrap_or(0);
            let rarest: Vec<usize> = (0..self.names.len())
                .filter(|&k| self.uses[k] == least)
                .collect();
            let (rarest, at) = match rarest[..] {
                [k] if self.names.len() > n => (Some(k), k),
                _ if self.names.len() > n => (None, n),
                _ => (None, 0),
            };
            let kind = CsvErrorKind::OwnShifts {
                found: self.names.len(),
                side: n,
                names: self.listed(None),
                rarest: rarest.map(|k| (quote_prefix(self.spelling(k)), self.uses[k])),
            };
            let (line, field) = self.at[at];
            return Err(err(line, Some(field), kind));
        }
        let last = format!("Shift {n}");
        names.shifts = (0..self.names.len())
            .map(|k| self.spelling(k).to_string())
            .chain(std::iter::once(last))
            .take(n)
            .collect();
        Ok(())
    }

    /// Own name `k` as most cells spell it; of spellings used as often, the first met.
    fn spelling(&self, k: usize) -> &str {
        let first = self.uses[k] - self.others[k].iter().map(|(_, c)| c).sum::<usize>();
        let mut best = (self.names[k].as_str(), first);
        for (s, c) in &self.others[k] {
            if *c > best.1 {
                best = (s, *c);
            }
        }
        best.0
    }
}

/// Two of `names` (indices) that a roster read without a shift list refuses as one name
/// misspelt when its cells are not all filled (see `OwnShifts::look_alike`), for a writer
/// to warn of.
#[cfg(feature = "cli")]
pub(crate) fn look_alike(names: &[&str]) -> Option<(usize, usize)> {
    let lower: Vec<Vec<char>> = names
        .iter()
        .map(|s| canonical(s).to_lowercase().chars().collect())
        .collect();
    (1..lower.len()).find_map(|b| (0..b).find(|&a| slip(&lower[a], &lower[b])).map(|a| (a, b)))
}

/// Two of `names` (indices) that differ only in letter case (`E`, `e`), which a roster
/// read without a shift list takes for one shift, for a writer to warn of.
#[cfg(feature = "cli")]
pub(crate) fn case_twins(names: &[&str]) -> Option<(usize, usize)> {
    let lower: Vec<String> = names.iter().map(|s| canonical(s).to_lowercase()).collect();
    (1..lower.len()).find_map(|b| (0..b).find(|&a| lower[a] == lower[b]).map(|a| (a, b)))
}

/// Whether `x` and `y` (different) look like one name misspelt: one letter inserted or
/// dropped (`Earl`, `Early`), or two neighbours swapped (`Eraly`), not digits (`Bed 1`,
/// `Bed 11`, `Bed 12`, `Bed 21` are names of their own, in any script's digits: `تخت ۱۲`,
/// `ベッド１２`). A longer prefix is a name of its own (`Day`, `Day off`).
fn slip(x: &[char], y: &[char]) -> bool {
    let (short, long) = if x.len() <= y.len() { (x, y) } else { (y, x) };
    if long.len() == short.len() + 1 {
        // One letter dropped: the rest match around it. (Where several positions would
        // do, as in `Bed 1`, `Bed 11`, the letter is the same at each.)
        let k = short.iter().zip(long).take_while(|(a, b)| a == b).count();
        return short[k..] == long[k + 1..] && !long[k].is_numeric();
    }
    if long.len() == short.len() && short.len() >= 2 {
        let diff: Vec<usize> = (0..short.len()).filter(|&i| short[i] != long[i]).collect();
        return diff.len() == 2
            && diff[1] == diff[0] + 1
            && short[diff[0]] == long[diff[1]]
            && short[diff[1]] == long[diff[0]]
            && !(short[diff[0]].is_numeric() && short[diff[1]].is_numeric());
    }
    false
}

#[cfg(test)]
mod tests {
    use super::slip;

    #[test]
    fn slips_are_prefixes_one_letter_or_a_swap() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        for (a, b) in [
            ("earl", "early"),
            ("e", "ex"),
            ("erly", "early"),
            ("eraly", "early"),
        ] {
            assert!(slip(&c(a), &c(b)) && slip(&c(b), &c(a)), "{a} {b}");
        }
        for (a, b) in [
            ("ward a", "ward b"),
            ("early", "late"),
            ("night", "day"),
            ("on call", "off"),
            ("bed 1", "bed 16"),
            ("bed 1", "bed 11"),
            ("s039", "s093"),
            ("room 2", "room 12"),
            ("تخت ۲", "تخت ۲۱"),
            ("ベッド１", "ベッド１２"),
            ("س۰۳۹", "س۰۹۳"),
        ] {
            assert!(!slip(&c(a), &c(b)), "{a} {b}");
        }
    }
}

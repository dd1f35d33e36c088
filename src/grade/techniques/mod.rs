//! The techniques: one table ([`TECHNIQUES`]) of their definitions, one file each, plus the
//! search for naked/hidden subsets and fish that several share.
//!
//! The table is the only list of techniques. It gives each its level, its name, the name
//! of its level, the sweep that applies it and the text that explains one of its steps;
//! [`Technique::level`], [`Technique::name`], [`Technique::ALL`], the grader's
//! [`LEVEL_NAMES`](crate::grade::LEVEL_NAMES) and [`MAX_LEVEL`](crate::grade::MAX_LEVEL),
//! the order of the sweeps in a round and the memo slots of `candidates` all come from it.
//! Adding a technique is a variant of [`Technique`], a row of the table and its file.
//!
//! Every technique is a sweep over all houses (or all symbols) that only *removes*
//! candidates, through [`Candidates::remove`], and reports each deduction to the
//! [`Recorder`]. None places a cell: the grader does that at the end of the round. Each
//! returns whether it removed anything. A sweep stops early once a contradiction is recorded.
//!
//! All techniques are sound for any puzzle (they never remove a symbol that some solution
//! has in that cell); none relies on the solution being unique.

pub(crate) mod fish;
pub(crate) mod hidden_pair;
pub(crate) mod hidden_single;
pub(crate) mod locked_candidates;
pub(crate) mod naked_pair;
pub(crate) mod peer_elimination;
pub(crate) mod subsets;
pub(crate) mod swordfish;
pub(crate) mod triples;
pub(crate) mod x_wing;
pub(crate) mod xy_wing;

use std::fmt;

use super::candidates::Candidates;
use super::step::{Namer, Recorder, Step};

/// The techniques, each belonging to one level `1..=8` (see [`Technique::level`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// Level 1: remove from a blank cell every symbol placed in its row, column or block.
    PeerElimination,
    /// Level 2: a symbol with one possible cell in a house; that cell keeps only it.
    HiddenSingle,
    /// Level 3: a symbol's candidates in a block lie on one line; the rest of the line loses it.
    Pointing,
    /// Level 3: a symbol's candidates on a line lie in one block; the rest of the block loses it.
    Claiming,
    /// Level 4: two cells of a house with the same two candidates.
    NakedPair,
    /// Level 5: two symbols with the same two possible cells in a house.
    HiddenPair,
    /// Level 6: three cells of a house whose candidates together are three symbols.
    NakedTriple,
    /// Level 6: three symbols whose possible cells in a house together are three cells.
    HiddenTriple,
    /// Level 7: a fish of size 2 (two lines hold a symbol only in two cross lines).
    XWing,
    /// Level 8: a fish of size 3.
    Swordfish,
    /// Level 8: a bivalue pivot `{x,y}` seeing pincers `{x,z}` and `{y,z}`; cells seeing both
    /// pincers lose `z`.
    XYWing,
}

/// What the text of a step already says about the cells it leaves with one candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Says {
    /// Nothing: the log lists the removals, then every placement.
    Removals,
    /// The first placement (a naked single names the cell it fills).
    FirstPlacement,
    /// Every placement (a hidden single's cell is the point of the step).
    Placements,
}

/// One technique: everything the grader and the step log need to know about it.
pub(crate) struct Definition {
    /// Which technique this row defines (row `t as usize` defines `t`).
    pub(crate) technique: Technique,
    /// Its level `1..=MAX_LEVEL`; rows are in level order, which is the order of the sweeps
    /// in a round.
    pub(crate) level: u8,
    /// Its name, lower case except for proper names ("hidden single", "X-Wing").
    pub(crate) name: &'static str,
    /// On the first technique of each level: the name of the level's techniques together.
    pub(crate) level_name: Option<&'static str>,
    /// One sweep over the grid; whether it removed anything.
    pub(crate) apply: fn(&mut Candidates, &mut Recorder) -> bool,
    /// The pattern and its reason, between "step S, level L, " and the removals.
    pub(crate) describe: fn(&Step, &mut fmt::Formatter<'_>, Namer<'_>) -> fmt::Result,
    /// What `describe` already says about placements.
    pub(crate) says: Says,
}

/// The techniques, in level order: the order the grader sweeps them in within a round.
pub(crate) const TECHNIQUES: &[Definition] = &[
    Definition {
        technique: Technique::PeerElimination,
        level: 1,
        name: "peer elimination",
        level_name: Some("peer elimination"),
        apply: peer_elimination::apply,
        describe: peer_elimination::describe,
        says: Says::FirstPlacement,
    },
    Definition {
        technique: Technique::HiddenSingle,
        level: 2,
        name: "hidden single",
        level_name: Some("hidden single"),
        apply: hidden_single::apply,
        describe: hidden_single::describe,
        says: Says::Placements,
    },
    Definition {
        technique: Technique::Pointing,
        level: 3,
        name: "pointing",
        level_name: Some("locked candidates"),
        apply: locked_candidates::pointing,
        describe: locked_candidates::describe_pointing,
        says: Says::Removals,
    },
    Definition {
        technique: Technique::Claiming,
        level: 3,
        name: "claiming",
        level_name: None,
        apply: locked_candidates::claiming,
        describe: locked_candidates::describe_claiming,
        says: Says::Removals,
    },
    Definition {
        technique: Technique::NakedPair,
        level: 4,
        name: "naked pair",
        level_name: Some("naked pair"),
        apply: naked_pair::apply,
        describe: subsets::describe_naked,
        says: Says::Removals,
    },
    Definition {
        technique: Technique::HiddenPair,
        level: 5,
        name: "hidden pair",
        level_name: Some("hidden pair"),
        apply: hidden_pair::apply,
        describe: subsets::describe_hidden,
        says: Says::Removals,
    },
    Definition {
        technique: Technique::NakedTriple,
        level: 6,
        name: "naked triple",
        level_name: Some("naked and hidden triples"),
        apply: triples::naked,
        describe: subsets::describe_naked,
        says: Says::Removals,
    },
    Definition {
        technique: Technique::HiddenTriple,
        level: 6,
        name: "hidden triple",
        level_name: None,
        apply: triples::hidden,
        describe: subsets::describe_hidden,
        says: Says::Removals,
    },
    Definition {
        technique: Technique::XWing,
        level: 7,
        name: "X-Wing",
        level_name: Some("X-Wing"),
        apply: x_wing::apply,
        describe: fish::describe,
        says: Says::Removals,
    },
    Definition {
        technique: Technique::Swordfish,
        level: 8,
        name: "Swordfish",
        level_name: Some("Swordfish and XY-Wing"),
        apply: swordfish::apply,
        describe: fish::describe,
        says: Says::Removals,
    },
    Definition {
        technique: Technique::XYWing,
        level: 8,
        name: "XY-Wing",
        level_name: None,
        apply: xy_wing::apply,
        describe: xy_wing::describe,
        says: Says::Removals,
    },
];

/// The number of techniques.
pub(crate) const COUNT: usize = TECHNIQUES.len();

/// The highest level, and a check of the table's shape: row `i` defines technique `i`,
/// levels start at 1 and rise by at most one from row to row, and each level's first row
/// (only) names the level.
pub(crate) const MAX_LEVEL: u8 = {
    let mut i = 0;
    let mut level = 0;
    while i < COUNT {
        let d = &TECHNIQUES[i];
        assert!(
            d.technique as usize == i,
            "row i of TECHNIQUES defines technique i"
        );
        let starts_level = d.level == level + 1;
        assert!(
            starts_level || d.level == level,
            "levels rise one at a time"
        );
        assert!(
            starts_level == d.level_name.is_some(),
            "each level's first technique names the level"
        );
        level = d.level;
        i += 1;
    }
    level
};

/// The name of each level's techniques, indexed by `level - 1`.
pub(crate) const LEVEL_NAMES: [&str; MAX_LEVEL as usize] = {
    let mut names = [""; MAX_LEVEL as usize];
    let mut i = 0;
    while i < COUNT {
        if let Some(name) = TECHNIQUES[i].level_name {
            names[TECHNIQUES[i].level as usize - 1] = name;
        }
        i += 1;
    }
    names
};

impl Technique {
    /// Every technique, in level order.
    pub const ALL: [Technique; COUNT] = {
        let mut all = [Technique::PeerElimination; COUNT];
        let mut i = 0;
        while i < COUNT {
            all[i] = TECHNIQUES[i].technique;
            i += 1;
        }
        all
    };

    /// Its row of [`TECHNIQUES`].
    #[inline]
    pub(crate) fn definition(self) -> &'static Definition {
        &TECHNIQUES[self as usize]
    }

    /// The level `1..=8` this technique belongs to.
    pub fn level(self) -> u8 {
        self.definition().level
    }

    /// The technique's name, lower case ("hidden single").
    pub fn name(self) -> &'static str {
        self.definition().name
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Applies the techniques of `level` (`1..=MAX_LEVEL`) once each, over the whole grid, in
/// table order, stopping at a contradiction.
pub(crate) fn apply_level(level: u8, c: &mut Candidates, rec: &mut Recorder) -> bool {
    let mut any = false;
    for d in TECHNIQUES.iter().filter(|d| d.level == level) {
        // Each technique sweeps the state as it was when it started.
        c.begin_sweep();
        any |= (d.apply)(c, rec);
        c.flush();
        if c.conflict.is_some() {
            break;
        }
    }
    any
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Hand-built positions for the technique tests.

    use crate::cells::SymbolSet;
    use crate::grade::candidates::Candidates;
    use crate::grade::step::Recorder;
    use crate::grid::Shape;

    /// A 9×9 state with every cell blank and full, and a recorder that explains.
    pub(crate) fn blank9() -> (Candidates, Recorder) {
        let mut c = Candidates::new(Shape::new(3).unwrap());
        c.load(&[0; 81]);
        let mut rec = Recorder::default();
        rec.reset(true);
        rec.step = 1;
        (c, rec)
    }

    /// The mask of the given symbols.
    pub(crate) fn m(syms: &[u8]) -> SymbolSet {
        syms.iter()
            .fold(SymbolSet::EMPTY, |a, &v| a | SymbolSet::of_value(v))
    }

    /// Cell index of 1-based (row, column).
    pub(crate) fn at(r: usize, col: usize) -> u32 {
        ((r - 1) * 9 + col - 1) as u32
    }

    /// Restricts `v` in `house` (a list of cells) to the listed cells: every other cell of
    /// the list loses it.
    pub(crate) fn only(c: &mut Candidates, v: u8, cells: &[u32], keep: &[u32]) {
        for &x in cells {
            if !keep.contains(&x) {
                c.cand[x as usize] &= !m(&[v]);
            }
        }
    }
}

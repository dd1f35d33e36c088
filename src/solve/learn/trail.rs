//! Literals, the assignment and the trail, and the tagged reasons that make conflict
//! analysis work without stored reason clauses.
//!
//! A reason is one `u32`: three tag bits and a payload. *At-most-one* reasons name the true
//! option that excluded this one (the binary clause `¬x ∨ ¬y` is implicit); *at-least-one*
//! reasons name the item whose other members are all false; clause reasons are an offset into
//! the learned-clause arena. The binary at-most-one clauses of a 36×36 grid alone number
//! 3.3 million in a CNF encoding (4n² items × n(n−1)/2 pairs); here they cost nothing.

/// A literal: option `var` true (even) or false (odd), `2 * var + sign`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(pub(super) u32);

impl Lit {
    /// "Cell `cell` holds symbol `v`" (`v` in `1..=n`) on a grid of side `n`, which must be
    /// the side of the learner it is given to ([`Learner::lit`] makes one with the learner's
    /// own side).
    ///
    /// # Panics
    /// If `v` is not in `1..=n` (it would name another cell's option), or if `cell` is so
    /// large that the option's number does not fit in 32 bits (no grid has such a cell; a
    /// cell merely outside the learner's grid is refused by [`Learner::add_clause`]).
    ///
    /// [`Learner::add_clause`]: super::Learner::add_clause
    /// [`Learner::lit`]: super::Learner::lit
    pub fn pos(cell: usize, v: u8, n: usize) -> Lit {
        assert!(v >= 1 && v as usize <= n, "symbol {v} out of 1..={n}");
        let option = cell
            .checked_mul(n)
            .and_then(|o| o.checked_add(v as usize - 1))
            .and_then(|o| o.checked_mul(2))
            .and_then(|o| u32::try_from(o).ok());
        Lit(option.unwrap_or_else(|| panic!("cell {cell} is beyond any grid")))
    }

    /// "Cell `cell` does not hold symbol `v`".
    ///
    /// # Panics
    /// As [`Lit::pos`].
    pub fn neg(cell: usize, v: u8, n: usize) -> Lit {
        Lit::pos(cell, v, n).negate()
    }

    /// The opposite literal.
    #[inline]
    pub fn negate(self) -> Lit {
        Lit(self.0 ^ 1)
    }

    /// Whether this literal says an option is true.
    #[inline]
    pub fn is_pos(self) -> bool {
        self.0 & 1 == 0
    }

    /// The option (variable) index, `cell * n + v - 1`.
    #[inline]
    pub fn var(self) -> u32 {
        self.0 >> 1
    }

    /// The literal of `var` with the given truth.
    #[inline]
    pub(super) fn of(var: u32, value: bool) -> Lit {
        Lit(2 * var + u32::from(!value))
    }

    #[inline]
    pub(super) fn index(self) -> usize {
        self.0 as usize
    }
}

/// Why a variable has its value: a tag in the top three bits, a payload below.
pub(super) mod reason {
    const SHIFT: u32 = 29;
    const MASK: u32 = (1 << SHIFT) - 1;
    /// A decision, an assumption or a root-level unit: nothing to resolve.
    pub const NONE: u32 = 0;
    const AMO: u32 = 1 << SHIFT;
    const ALO: u32 = 2 << SHIFT;
    const CLAUSE: u32 = 3 << SHIFT;
    const LINE: u32 = 4 << SHIFT;

    /// False because option `x` of a shared item is true.
    #[inline]
    pub fn amo(x: u32) -> u32 {
        AMO | x
    }
    /// True because every other member of `item` is false.
    #[inline]
    pub fn alo(item: u32) -> u32 {
        ALO | item
    }
    /// Implied by the clause at arena offset `cref`.
    #[inline]
    pub fn clause(cref: u32) -> u32 {
        debug_assert!(cref <= MASK, "clause arena beyond 2^29 words");
        CLAUSE | cref
    }
    /// False because the live members of symbol item `a` lie in this option's crossing
    /// item, outside `a` (locked candidates).
    #[inline]
    pub fn line(a: u32) -> u32 {
        LINE | a
    }

    /// A reason, decoded.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Kind {
        /// No reason (decision, assumption or unit).
        None,
        /// At-most-one with the named true option.
        Amo(u32),
        /// At-least-one of the named item.
        Alo(u32),
        /// A clause of the arena.
        Clause(u32),
        /// Locked candidates of the named symbol item.
        Line(u32),
    }

    #[inline]
    pub fn decode(r: u32) -> Kind {
        match r >> SHIFT {
            0 => Kind::None,
            1 => Kind::Amo(r & MASK),
            2 => Kind::Alo(r & MASK),
            3 => Kind::Clause(r & MASK),
            _ => Kind::Line(r & MASK),
        }
    }
}

/// Value of a literal in [`Trail::value`].
pub(super) const TRUE: i8 = 1;
/// Value of a literal in [`Trail::value`].
pub(super) const FALSE: i8 = -1;

/// The assignment: values per literal, level and reason per variable, the trail in
/// assignment order and where each decision level starts.
#[derive(Clone, Debug)]
pub(super) struct Trail {
    /// Per literal: [`TRUE`], [`FALSE`] or 0.
    value: Vec<i8>,
    /// Per variable: decision level of its assignment.
    pub level: Vec<u32>,
    /// Per variable: its [`reason`].
    pub reason: Vec<u32>,
    /// Per variable: its index in [`Trail::lits`] (valid while it is assigned).
    pub pos: Vec<u32>,
    /// Assigned literals, oldest first.
    pub lits: Vec<Lit>,
    /// Trail index where each level above 0 starts.
    pub lim: Vec<u32>,
    /// Trail entries before this index are propagated.
    pub qhead: usize,
}

impl Trail {
    pub(super) fn new(vars: usize) -> Trail {
        Trail {
            value: vec![0; 2 * vars],
            level: vec![0; vars],
            reason: vec![reason::NONE; vars],
            pos: vec![0; vars],
            lits: Vec::with_capacity(vars),
            lim: Vec::new(),
            qhead: 0,
        }
    }

    #[inline]
    pub(super) fn value(&self, lit: Lit) -> i8 {
        self.value[lit.index()]
    }

    /// The current decision level.
    #[inline]
    pub(super) fn decision_level(&self) -> u32 {
        self.lim.len() as u32
    }

    /// Makes `lit` true with `why` at the current level. The caller has checked it is
    /// unassigned.
    #[inline]
    pub(super) fn assign(&mut self, lit: Lit, why: u32) {
        debug_assert_eq!(self.value(lit), 0);
        self.value[lit.index()] = TRUE;
        self.value[lit.negate().index()] = FALSE;
        let v = lit.var() as usize;
        self.level[v] = self.lim.len() as u32;
        self.reason[v] = why;
        self.pos[v] = self.lits.len() as u32;
        self.lits.push(lit);
    }

    /// Clears the value of `lit`'s variable (the caller pops the trail).
    #[inline]
    pub(super) fn unassign(&mut self, lit: Lit) {
        self.value[lit.index()] = 0;
        self.value[lit.negate().index()] = 0;
    }

    /// Opens a new decision level.
    #[inline]
    pub(super) fn new_level(&mut self) {
        self.lim.push(self.lits.len() as u32);
    }

    /// Whether `var` is true (it must be assigned).
    #[inline]
    pub(super) fn is_true_var(&self, var: u32) -> bool {
        self.value[2 * var as usize] == TRUE
    }

    /// Whether `var` has a value.
    #[inline]
    pub(super) fn is_assigned(&self, var: u32) -> bool {
        self.value[2 * var as usize] != 0
    }

    /// The literal over `var` that is currently false (what a learned clause holds).
    #[inline]
    pub(super) fn false_lit(&self, var: u32) -> Lit {
        Lit::of(var, !self.is_true_var(var))
    }
}

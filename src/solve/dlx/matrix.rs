//! The dancing-links arena: items, options and spacers laid out as in Knuth, *The Art of
//! Computer Programming* 4B, §7.2.2.1 ("Dancing links"), Algorithm X.
//!
//! Everything lives in flat `Vec<u32>`s indexed by node number, so cloning a matrix (for a
//! parallel worker) is a handful of `memcpy`s and the search touches no pointers:
//!
//! * nodes `1..=items` are the item headers; node `0` is the root of the circular list of
//!   active items, linked through `llink`/`rlink`;
//! * after the headers come the options, each preceded by a *spacer* node (`top == 0`) whose
//!   `ulink` points at the first node of the option before it and whose `dlink` points at the
//!   last node of the option after it; a final spacer closes the last option;
//! * every option node has `top` = its item, `ulink`/`dlink` in that item's vertical list, and
//!   `option` = the 0-based option number it belongs to.
//!
//! Invariant: an option's nodes are contiguous, so "the next node in this option" is `x + 1`
//! unless that is a spacer, in which case it is `ulink[spacer]`.
//!
//! **Fixed-width layout.** Every sudoku option covers exactly four items (cell, row-symbol,
//! column-symbol, block-symbol), so [`Matrix::new_fixed4`] drops the spacers and puts option
//! `k` at nodes `base + 4k .. base + 4k + 3` with `base` a multiple of four. The other nodes
//! of `p`'s option are then `p ^ 1`, `p ^ 2` and `p ^ 3`: no spacer tests and no loop, which
//! makes `hide`, the innermost operation of the search, about a third cheaper.

/// The vertical links of one node. They sit together in one 8-byte record because `hide`
/// reads both and writes one of each neighbour's: one cache line, one masked index, and an
/// index scale the address arithmetic does for free. The item (`top`) and the option number
/// live in arrays of their own, which keeps the records small.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Node {
    /// Up link (for a spacer: the first node of the option before it).
    pub up: u32,
    /// Down link (for a spacer: the last node of the option after it).
    pub down: u32,
}

/// Added to an item's length while it is covered (and taken off again when it is uncovered),
/// so that a plain scan of `len` in index order sees covered items as never the smallest.
/// A covered item's length does not change until it is uncovered: every option on its list
/// was hidden from all the other lists when it was covered, so no later `hide` reaches it.
pub(crate) const COVERED: u32 = 1 << 30;

/// The length of the root and of padding items in a sealed matrix: above every covered
/// length, and below `i32::MAX + 1` like all lengths there, so the MRV scan may compare them
/// as `i32` (SSE2 has signed 32-bit compares only).
const NEVER: u32 = i32::MAX as u32;

/// Items scanned per step of the dense MRV scan (see [`Matrix::choose_mrv`]).
const MRV_CHUNK: usize = 16;

/// An exact-cover matrix with only primary items.
#[derive(Clone, Debug)]
pub struct Matrix {
    /// Number of items; item headers are nodes `1..=items`.
    items: u32,
    /// Left links of the item list (length `items + 1`).
    pub(crate) llink: Vec<u32>,
    /// Right links of the item list (length `items + 1`).
    pub(crate) rlink: Vec<u32>,
    /// Active options per item (length `items + 1`, index 0 unused).
    pub(crate) len: Vec<u32>,
    /// The links of the nodes: headers, spacers and option nodes.
    pub(crate) nodes: Vec<Node>,
    /// Item of each node: `0` for spacers, the header's own index for headers.
    pub(crate) top: Vec<u32>,
    /// Option number of each option node (`u32::MAX` for headers, spacers and padding).
    opt: Vec<u32>,
    /// Number of options added.
    options: u32,
    /// Whether the fixed-width layout is in use (see the module docs).
    fixed4: bool,
    /// `nodes.len() - 1` once [`Matrix::seal`] padded it to a power of two (else 0).
    node_mask: usize,
    /// `len.len() - 1` once sealed, likewise.
    item_mask: usize,
    /// Fixed-width layout: nodes at and above this index are clean padding (never linked,
    /// `top` 0, `opt` `u32::MAX`). A rebuilt matrix may have written further than it ends,
    /// and [`Matrix::seal`] cleans up to here.
    dirty_nodes: usize,
    /// Likewise for `len`, `llink` and `rlink`: entries from here on are padding.
    dirty_items: usize,
}

impl Matrix {
    /// An empty matrix over `items` primary items, numbered `1..=items`, with room reserved for
    /// `options` options of about `nodes_per_option` nodes each.
    ///
    /// # Panics
    /// If `items` does not fit the `u32` node space.
    pub fn new(items: usize, options: usize, nodes_per_option: usize) -> Matrix {
        let items = u32::try_from(items).expect("item count fits in u32");
        let n = items as usize;
        let cap = n + 1 + options * (nodes_per_option + 1) + 1;
        let mut m = Matrix {
            items,
            llink: (0..=items)
                .map(|i| if i == 0 { items } else { i - 1 })
                .collect(),
            rlink: (0..=items)
                .map(|i| if i == items { 0 } else { i + 1 })
                .collect(),
            len: vec![0; n + 1],
            nodes: Vec::with_capacity(cap),
            top: Vec::with_capacity(cap),
            opt: Vec::with_capacity(cap),
            options: 0,
            fixed4: false,
            node_mask: 0,
            item_mask: 0,
            dirty_nodes: 0,
            dirty_items: 0,
        };
        for i in 0..=items {
            m.push_node(i, i, i, u32::MAX);
        }
        // The first spacer: no option before it.
        m.push_spacer(0);
        m
    }

    /// An empty matrix whose options all cover exactly four items, laid out without spacers
    /// (see the module docs), with room for `options` options.
    ///
    /// # Panics
    /// If `items` does not fit the `u32` node space.
    pub fn new_fixed4(items: usize, options: usize) -> Matrix {
        let mut m = Matrix {
            items: 0,
            llink: Vec::new(),
            rlink: Vec::new(),
            len: Vec::new(),
            nodes: Vec::new(),
            top: Vec::new(),
            opt: Vec::new(),
            options: 0,
            fixed4: true,
            node_mask: 0,
            item_mask: 0,
            dirty_nodes: 0,
            dirty_items: 0,
        };
        m.reset_fixed4(items, options);
        m
    }

    /// Makes this an empty fixed-width matrix over `items` items, as
    /// [`Matrix::new_fixed4`] would, in the arrays it already has: a solver that encodes
    /// puzzle after puzzle of one shape then allocates nothing, and writes only the nodes the
    /// new puzzle uses, not the whole padded arena. Room is made for `options` options.
    ///
    /// # Panics
    /// If `items` does not fit the `u32` node space.
    pub(crate) fn reset_fixed4(&mut self, items: usize, options: usize) {
        let n = u32::try_from(items).expect("item count fits in u32");
        self.items = n;
        self.options = 0;
        self.fixed4 = true;
        self.node_mask = 0;
        self.item_mask = 0;
        if self.len.len() < items + 1 {
            self.len.resize(items + 1, NEVER);
            self.llink.resize(items + 1, 0);
            self.rlink.resize(items + 1, 0);
        }
        self.len[..=items].fill(0);
        for i in 0..=n {
            self.llink[i as usize] = if i == 0 { n } else { i - 1 };
            self.rlink[i as usize] = if i == n { 0 } else { i + 1 };
        }
        self.dirty_items = self.dirty_items.max(items + 1);
        // Headers, then padding so that options start at a multiple of four, then options.
        let base = self.first_option_node();
        let room = base + 4 * options;
        if self.nodes.len() < room {
            self.nodes.resize(room, Node::default());
            self.top.resize(room, 0);
            self.opt.resize(room, u32::MAX);
        }
        for i in 0..base {
            let header = i <= items;
            let own = if header { i as u32 } else { 0 };
            self.nodes[i] = Node { up: own, down: own };
            self.top[i] = own;
            self.opt[i] = u32::MAX;
        }
        self.dirty_nodes = self.dirty_nodes.max(base);
    }

    /// Pads the arrays of a finished fixed-width matrix to powers of two, so that the hot
    /// loops can index with `i & mask`: the optimiser then sees every index in bounds and
    /// drops the bounds checks (a third of `hide`'s instructions) with no `unsafe`.
    /// Padding nodes and items are never linked. Arrays left longer by a larger matrix
    /// rebuilt in the same space keep their length; the hot loops slice them to the mask.
    pub(crate) fn seal(&mut self) {
        if !self.fixed4 {
            return;
        }
        let end = self.first_option_node() + 4 * self.options();
        let nodes = end.next_power_of_two();
        // Padding belongs to no option (`opt` = MAX), so no scan can mistake it for one.
        let dirty = self.dirty_nodes.min(self.nodes.len());
        if end < dirty {
            self.nodes[end..dirty].fill(Node::default());
            self.top[end..dirty].fill(0);
            self.opt[end..dirty].fill(u32::MAX);
        }
        self.dirty_nodes = end;
        if self.nodes.len() < nodes {
            self.nodes.resize(nodes, Node::default());
            self.top.resize(nodes, 0);
            self.opt.resize(nodes, u32::MAX);
        }
        self.node_mask = nodes - 1;
        let used = self.items() + 1;
        // At least one whole chunk, so the dense MRV scan never runs past the end.
        let items = used.next_power_of_two().max(MRV_CHUNK);
        // The root and the padding look covered forever to the dense MRV scan.
        self.len[0] = NEVER;
        let dirty = self.dirty_items.min(self.len.len());
        if used < dirty {
            self.len[used..dirty].fill(NEVER);
            self.llink[used..dirty].fill(0);
            self.rlink[used..dirty].fill(0);
        }
        self.dirty_items = used;
        if self.len.len() < items {
            self.len.resize(items, NEVER);
            self.llink.resize(items, 0);
            self.rlink.resize(items, 0);
        }
        self.item_mask = items - 1;
    }

    fn push_node(&mut self, top: u32, up: u32, down: u32, opt: u32) {
        self.nodes.push(Node { up, down });
        self.top.push(top);
        self.opt.push(opt);
    }

    fn push_spacer(&mut self, first_of_previous: u32) {
        // `down` is patched when the next option is complete.
        self.push_node(0, first_of_previous, 0, u32::MAX);
    }

    /// Appends an option covering `items` (each in `1..=self.items()`, no repeats) and
    /// returns its 0-based number.
    ///
    /// # Panics
    /// If an item is out of range or the option is empty.
    pub fn add_option(&mut self, items: &[u32]) -> u32 {
        assert!(!items.is_empty(), "an option covers at least one item");
        if self.fixed4 {
            assert_eq!(
                items.len(),
                4,
                "a fixed-width matrix takes options of four items"
            );
            for (k, &i) in items.iter().enumerate() {
                assert!(i >= 1 && i <= self.items, "item {i} out of range");
                assert!(!items[..k].contains(&i), "item {i} repeated");
            }
            return self.add_option4([items[0], items[1], items[2], items[3]]);
        }
        let spacer = self.nodes.len() as u32 - 1;
        let first = spacer + 1;
        let id = self.options;
        for &i in items {
            assert!(i >= 1 && i <= self.items, "item {i} out of range");
            let x = self.nodes.len() as u32;
            let last = self.nodes[i as usize].up;
            self.push_node(i, last, i, id);
            self.nodes[last as usize].down = x;
            self.nodes[i as usize].up = x;
            self.len[i as usize] += 1;
        }
        let last = self.nodes.len() as u32 - 1;
        self.nodes[spacer as usize].down = last;
        self.push_spacer(first);
        self.options += 1;
        id
    }

    /// [`Matrix::add_option`] for a fixed-width matrix, without its argument checks: the
    /// sudoku encoder calls it for every option of every puzzle, and a per-node push with
    /// checks was over half of the encoding time.
    pub(crate) fn add_option4(&mut self, items: [u32; 4]) -> u32 {
        debug_assert!(
            self.fixed4 && self.node_mask == 0,
            "unsealed fixed-width matrix"
        );
        let id = self.options;
        let x = self.first_option_node() + 4 * id as usize;
        if self.nodes.len() < x + 4 {
            // More options than [`Matrix::reset_fixed4`] made room for.
            self.nodes.resize(x + 4, Node::default());
            self.top.resize(x + 4, 0);
            self.opt.resize(x + 4, u32::MAX);
        }
        for (k, &i) in items.iter().enumerate() {
            debug_assert!(i >= 1 && i <= self.items && !items[..k].contains(&i));
            let q = (x + k) as u32;
            // Append `q` at the bottom of item `i`'s list; the items are distinct, so the
            // node above it is a header or a node of an earlier option, already written.
            let last = std::mem::replace(&mut self.nodes[i as usize].up, q);
            self.nodes[last as usize].down = q;
            self.nodes[q as usize] = Node { up: last, down: i };
            self.len[i as usize] += 1;
        }
        self.top[x..x + 4].copy_from_slice(&items);
        self.opt[x..x + 4].fill(id);
        self.dirty_nodes = self.dirty_nodes.max(x + 4);
        self.options += 1;
        id
    }

    /// Number of primary items.
    pub fn items(&self) -> usize {
        self.items as usize
    }

    /// Number of options.
    pub fn options(&self) -> usize {
        self.options as usize
    }

    /// Whether every item is covered (the item list is empty).
    #[inline]
    pub(crate) fn is_solved(&self) -> bool {
        self.rlink[0] == 0
    }

    /// The arrays of a sealed matrix, sliced to their power-of-two lengths once, so that the
    /// masked indexing inside needs no bounds checks and a `commit` of three covers slices
    /// once rather than three times.
    #[inline(always)]
    fn sealed(&mut self) -> Sealed<'_> {
        debug_assert!(
            self.fixed4 && self.node_mask != 0,
            "sealed fixed-width matrix"
        );
        let (nm, im) = (self.node_mask, self.item_mask);
        Sealed {
            nodes: &mut self.nodes[..=nm],
            top: &self.top[..=nm],
            len: &mut self.len[..=im],
            llink: &mut self.llink[..=im],
            rlink: &mut self.rlink[..=im],
            nm,
            im,
        }
    }

    /// Removes option node `p`'s option from every other item's list (Knuth's `hide`), in the
    /// general layout with spacers. Returns the number of link updates.
    #[inline(always)]
    fn hide(&mut self, p: u32) -> u64 {
        let mut updates = 0;
        let mut q = p + 1;
        while q != p {
            let x = self.top[q as usize];
            if x == 0 {
                q = self.nodes[q as usize].up;
            } else {
                let u = self.nodes[q as usize].up;
                let d = self.nodes[q as usize].down;
                self.nodes[u as usize].down = d;
                self.nodes[d as usize].up = u;
                self.len[x as usize] -= 1;
                updates += 1;
                q += 1;
            }
        }
        updates
    }

    /// Undoes [`Matrix::hide`], walking the option in the opposite order.
    #[inline(always)]
    fn unhide(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let x = self.top[q as usize];
            if x == 0 {
                q = self.nodes[q as usize].down;
            } else {
                let u = self.nodes[q as usize].up;
                let d = self.nodes[q as usize].down;
                self.nodes[u as usize].down = q;
                self.nodes[d as usize].up = q;
                self.len[x as usize] += 1;
                q -= 1;
            }
        }
    }

    /// Covers item `i`: hides every option that contains it and unlinks it from the item list.
    /// Returns the number of link updates.
    #[inline]
    pub(crate) fn cover(&mut self, i: u32) -> u64 {
        if self.node_mask != 0 {
            return self.sealed().cover(i);
        }
        debug_assert!(
            !self.fixed4,
            "fixed-width matrices are sealed before searching"
        );
        let mut updates = 0;
        let mut p = self.nodes[i as usize].down;
        while p != i {
            updates += self.hide(p);
            p = self.nodes[p as usize].down;
        }
        let l = self.llink[i as usize];
        let r = self.rlink[i as usize];
        self.rlink[l as usize] = r;
        self.llink[r as usize] = l;
        self.len[i as usize] += COVERED;
        updates + 1
    }

    /// Undoes [`Matrix::cover`].
    #[inline]
    pub(crate) fn uncover(&mut self, i: u32) {
        if self.node_mask != 0 {
            self.sealed().uncover(i);
            return;
        }
        let l = self.llink[i as usize];
        let r = self.rlink[i as usize];
        self.rlink[l as usize] = i;
        self.llink[r as usize] = i;
        self.len[i as usize] -= COVERED;
        let mut p = self.nodes[i as usize].up;
        while p != i {
            self.unhide(p);
            p = self.nodes[p as usize].up;
        }
    }

    /// Having covered `top[x]`, covers the other items of `x`'s option, left to right.
    #[inline]
    pub(crate) fn commit(&mut self, x: u32) -> u64 {
        if self.node_mask != 0 {
            let mut s = self.sealed();
            let mut updates = 0;
            for k in 1..4 {
                let j = s.top[(x ^ k) as usize & s.nm];
                updates += s.cover(j);
            }
            return updates;
        }
        let mut updates = 0;
        let mut p = x + 1;
        while p != x {
            let j = self.top[p as usize];
            if j == 0 {
                p = self.nodes[p as usize].up;
            } else {
                updates += self.cover(j);
                p += 1;
            }
        }
        updates
    }

    /// Undoes [`Matrix::commit`], right to left.
    #[inline]
    pub(crate) fn uncommit(&mut self, x: u32) {
        if self.node_mask != 0 {
            let mut s = self.sealed();
            for k in (1..4).rev() {
                let j = s.top[(x ^ k) as usize & s.nm];
                s.uncover(j);
            }
            return;
        }
        let mut p = x - 1;
        while p != x {
            let j = self.top[p as usize];
            if j == 0 {
                p = self.nodes[p as usize].down;
            } else {
                self.uncover(j);
                p -= 1;
            }
        }
    }

    /// Chooses the active item with the fewest options (MRV), first in list order on ties,
    /// except that an item with at most one option is taken as soon as it is seen (nothing
    /// can beat a forced move by much). Returns `None` when no item is active.
    ///
    /// Items stay in index order in the active list, so on a sealed matrix this scans `len`
    /// as a flat array, [`MRV_CHUNK`] items at a time, instead of chasing `rlink`: covered
    /// items carry [`COVERED`] and never win, and the loads are independent, so the scan runs
    /// at the speed of the arithmetic rather than of one dependent load per item. The first
    /// chunk holding a length of 0 or 1 ends the scan, and its first 0, else its first 1, is
    /// the choice.
    #[inline]
    pub(crate) fn choose_mrv(&self) -> Option<u32> {
        if self.item_mask == 0 {
            return self.choose_mrv_linked();
        }
        // Sealing padded `len` to whole chunks, with the root and padding at NEVER.
        let scan = (self.items as usize + MRV_CHUNK) & !(MRV_CHUNK - 1);
        let len = &self.len[..scan];
        // The first pass only looks for a chunk holding a forced item (length 0 or 1), which
        // most calls find; only when there is none does a second pass take the minimum. Both
        // loops over a chunk are element-wise arithmetic the compiler turns into a few vector
        // instructions per chunk.
        let chunks = || len.chunks_exact(MRV_CHUNK);
        let forced = chunks().position(|c| c.iter().fold(false, |a, &l| a | ((l as i32) < 2)));
        let (at, best) = match forced {
            Some(k) => {
                let chunk = &len[k * MRV_CHUNK..(k + 1) * MRV_CHUNK];
                let best = chunk.iter().fold(i32::MAX, |a, &l| a.min(l as i32));
                (k * MRV_CHUNK, best as u32)
            }
            None => {
                let mut low = [i32::MAX; MRV_CHUNK];
                for chunk in chunks() {
                    for (lane, &l) in low.iter_mut().zip(chunk) {
                        *lane = (*lane).min(l as i32);
                    }
                }
                let best = low.iter().fold(i32::MAX, |a, &l| a.min(l)) as u32;
                if best >= COVERED {
                    return None;
                }
                let k = chunks()
                    .position(|c| c.iter().fold(false, |a, &l| a | (l == best)))
                    .expect("some chunk holds the minimum");
                (k * MRV_CHUNK, best)
            }
        };
        let offset = len[at..at + MRV_CHUNK]
            .iter()
            .position(|&l| l == best)
            .expect("the chunk holds its minimum");
        Some((at + offset) as u32)
    }

    /// [`Matrix::choose_mrv`] by walking the active list: for matrices that are not sealed,
    /// and for callers (the fill search) that cover items without [`COVERED`]. Takes the
    /// first item with at most one option, else the first of the fewest.
    #[inline]
    pub(crate) fn choose_mrv_linked(&self) -> Option<u32> {
        let mut best = None;
        let mut best_len = u32::MAX;
        let mut i = self.rlink[0];
        while i != 0 {
            let l = self.len[i as usize];
            if l < best_len {
                best_len = l;
                best = Some(i);
                if l <= 1 {
                    break;
                }
            }
            i = self.rlink[i as usize];
        }
        best
    }

    /// Whether the fixed-width layout is in use.
    #[inline]
    pub(crate) fn is_fixed4(&self) -> bool {
        self.fixed4
    }

    /// The first node of the first option in the fixed-width layout.
    pub(crate) fn first_option_node(&self) -> usize {
        (self.items() + 1 + 3) & !3
    }

    /// The option nodes of the fixed-width layout (padding excluded).
    pub(crate) fn option_nodes(&self) -> std::ops::Range<usize> {
        let first = self.first_option_node();
        first..first + 4 * self.options()
    }

    /// The option number of option node `x`.
    #[inline]
    pub(crate) fn option_of(&self, x: u32) -> u32 {
        self.opt[x as usize]
    }

    /// Active item headers, in list order (for tests and diagnostics).
    pub fn active_items(&self) -> Vec<u32> {
        let mut out = Vec::new();
        let mut i = self.rlink[0];
        while i != 0 {
            out.push(i);
            i = self.rlink[i as usize];
        }
        out
    }
}

/// A sealed fixed-width matrix's arrays (see [`Matrix::seal`]): every array length is a
/// power of two and every index is masked, so the optimiser proves each access in bounds.
struct Sealed<'a> {
    nodes: &'a mut [Node],
    top: &'a [u32],
    len: &'a mut [u32],
    llink: &'a mut [u32],
    rlink: &'a mut [u32],
    /// `nodes.len() - 1`.
    nm: usize,
    /// `len.len() - 1`.
    im: usize,
}

impl Sealed<'_> {
    /// Knuth's `hide` of option node `p`'s option. Its other nodes are `p ^ 1`, `p ^ 2` and
    /// `p ^ 3`; they sit in three different items' lists, so the order they are unlinked in
    /// does not matter.
    #[inline(always)]
    fn hide(&mut self, p: u32) {
        let (nm, im) = (self.nm, self.im);
        for k in 1..4 {
            let q = (p ^ k) as usize & nm;
            let Node { up: u, down: d } = self.nodes[q];
            let x = self.top[q];
            self.nodes[u as usize & nm].down = d;
            self.nodes[d as usize & nm].up = u;
            self.len[x as usize & im] -= 1;
        }
    }

    /// Undoes [`Sealed::hide`].
    #[inline(always)]
    fn unhide(&mut self, p: u32) {
        let (nm, im) = (self.nm, self.im);
        for k in (1..4).rev() {
            let q = (p ^ k) as usize & nm;
            let Node { up: u, down: d } = self.nodes[q];
            let x = self.top[q];
            self.nodes[u as usize & nm].down = q as u32;
            self.nodes[d as usize & nm].up = q as u32;
            self.len[x as usize & im] += 1;
        }
    }

    /// [`Matrix::cover`]: link updates made.
    #[inline(always)]
    fn cover(&mut self, i: u32) -> u64 {
        let (nm, im) = (self.nm, self.im);
        let mut updates = 1;
        let mut p = self.nodes[i as usize & nm].down;
        while p != i {
            self.hide(p);
            updates += 3;
            p = self.nodes[p as usize & nm].down;
        }
        let l = self.llink[i as usize & im];
        let r = self.rlink[i as usize & im];
        self.rlink[l as usize & im] = r;
        self.llink[r as usize & im] = l;
        self.len[i as usize & im] += COVERED;
        updates
    }

    /// [`Matrix::uncover`].
    #[inline(always)]
    fn uncover(&mut self, i: u32) {
        let (nm, im) = (self.nm, self.im);
        let l = self.llink[i as usize & im];
        let r = self.rlink[i as usize & im];
        self.rlink[l as usize & im] = i;
        self.llink[r as usize & im] = i;
        self.len[i as usize & im] -= COVERED;
        let mut p = self.nodes[i as usize & nm].up;
        while p != i {
            self.unhide(p);
            p = self.nodes[p as usize & nm].up;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Knuth's example, 7.2.2.1–(5): items a..g and six options; its only exact cover is
    /// {a d f}, {b g}, {c e}.
    pub(crate) fn knuth_example() -> Matrix {
        // Items a=1 b=2 c=3 d=4 e=5 f=6 g=7.
        let mut m = Matrix::new(7, 6, 4);
        m.add_option(&[3, 5]); // c e
        m.add_option(&[1, 4, 7]); // a d g
        m.add_option(&[2, 3, 6]); // b c f
        m.add_option(&[1, 4, 6]); // a d f
        m.add_option(&[2, 7]); // b g
        m.add_option(&[4, 5, 7]); // d e g
        m
    }

    #[test]
    fn cover_and_uncover_restore_the_matrix() {
        let mut m = knuth_example();
        let before = m.clone();
        m.cover(1);
        assert_eq!(m.len[4], 1); // only 'd e g' is left with d
        m.commit(m.nodes[1].down);
        m.uncommit(m.nodes[1].down);
        m.uncover(1);
        assert_eq!(m.nodes, before.nodes);
        assert_eq!(m.len, before.len);
        assert_eq!(m.rlink, before.rlink);
    }

    #[test]
    fn layout_has_spacers() {
        let m = knuth_example();
        assert_eq!(m.options(), 6);
        assert_eq!(m.items(), 7);
        assert_eq!(m.top[8], 0); // first spacer after headers 0..=7
        assert_eq!(m.len[4], 3);
        assert_eq!(m.active_items(), vec![1, 2, 3, 4, 5, 6, 7]);
    }
}

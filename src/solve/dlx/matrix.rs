//! The dancing-links arena of Knuth, *The Art of Computer Programming* 4B, §7.2.2.1
//! ("Dancing links"), Algorithm X, laid out for options of exactly four items.
//!
//! Everything lives in flat `Vec<u32>`s indexed by node number, so cloning a matrix (for a
//! parallel worker) is a handful of `memcpy`s and the search touches no pointers:
//!
//! * nodes `1..=items` are the item headers; node `0` is the root of the circular list of
//!   active items, linked through `llink`/`rlink`;
//! * every sudoku option covers exactly four items (cell, row-symbol, column-symbol,
//!   block-symbol), so option `k` sits at nodes `base + 4k .. base + 4k + 3`, with `base`
//!   the first multiple of four after the headers and no spacers between options;
//! * every option node has `top` = its item, `up`/`down` in that item's vertical list, and
//!   `opt` = the 0-based option number it belongs to.
//!
//! The other nodes of `p`'s option are then `p + 1`, `p + 2` and `p + 3` taken modulo four
//! within its group: no spacer tests and no loop, which makes `hide`, the innermost
//! operation of the search, about a third cheaper than Knuth's general layout. (The general
//! layout with spacers was kept beside this one for a while, used only by tests; nothing
//! needs options of other widths, so it went.)
//!
//! There is one implementation of the link operations, on a [sealed](Matrix::seal)
//! matrix. Searches that keep their own bookkeeping of item lengths (the fill search's
//! forced items and bands) pass a [`Watch`] that hears of every change; the plain search
//! passes `()`, whose empty calls compile away.

/// The vertical links of one node. They sit together in one 8-byte record because `hide`
/// reads both and writes one of each neighbour's: one cache line, one masked index, and an
/// index scale the address arithmetic does for free. The item (`top`) and the option number
/// live in arrays of their own, which keeps the records small.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Node {
    /// Up link.
    pub up: u32,
    /// Down link.
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

/// What a search that keeps its own bookkeeping of item lengths hears from the link
/// operations of a [`Matrix`]. Every method does nothing by default; `()` is the watcher of
/// a search that needs none.
pub(crate) trait Watch {
    /// A `hide` took an option off active item `x`'s list, leaving `len` options on it.
    #[inline(always)]
    fn hidden(&mut self, _x: u32, _len: u32) {}

    /// An `unhide` put an option back on active item `x`'s list, making `len`.
    #[inline(always)]
    fn unhidden(&mut self, _x: u32, _len: u32) {}

    /// Item `i`, with `len` options on its list, was covered.
    #[inline(always)]
    fn covered(&mut self, _i: u32, _len: u32) {}

    /// Item `i`, with `len` options on its list, is being uncovered.
    #[inline(always)]
    fn uncovered(&mut self, _i: u32, _len: u32) {}
}

impl Watch for () {}

/// An exact-cover matrix with only primary items, whose options cover four items each.
#[derive(Clone, Debug)]
pub(crate) struct Matrix {
    /// Number of items; item headers are nodes `1..=items`.
    items: u32,
    /// Left links of the item list (length `items + 1`).
    pub(crate) llink: Vec<u32>,
    /// Right links of the item list (length `items + 1`).
    pub(crate) rlink: Vec<u32>,
    /// Active options per item (length `items + 1`, index 0 unused).
    pub(crate) len: Vec<u32>,
    /// The links of the nodes: headers, padding and option nodes.
    pub(crate) nodes: Vec<Node>,
    /// Item of each node: `0` for padding, the header's own index for headers.
    pub(crate) top: Vec<u32>,
    /// Option number of each option node (`u32::MAX` for headers and padding).
    opt: Vec<u32>,
    /// Number of options added.
    options: u32,
    /// `nodes.len() - 1` once [`Matrix::seal`] padded it to a power of two (else 0).
    node_mask: usize,
    /// `len.len() - 1` once sealed, likewise.
    item_mask: usize,
    /// Nodes at and above this index are clean padding (never linked, `top` 0, `opt`
    /// `u32::MAX`). A rebuilt matrix may have written further than it ends, and
    /// [`Matrix::seal`] cleans up to here.
    dirty_nodes: usize,
    /// Likewise for `len`, `llink` and `rlink`: entries from here on are padding.
    dirty_items: usize,
}

impl Matrix {
    /// An empty matrix over `items` items, numbered `1..=items`, with room for `options`
    /// options.
    ///
    /// # Panics
    /// If `items` does not fit the `u32` node space.
    pub(crate) fn new(items: usize, options: usize) -> Matrix {
        let mut m = Matrix {
            items: 0,
            llink: Vec::new(),
            rlink: Vec::new(),
            len: Vec::new(),
            nodes: Vec::new(),
            top: Vec::new(),
            opt: Vec::new(),
            options: 0,
            node_mask: 0,
            item_mask: 0,
            dirty_nodes: 0,
            dirty_items: 0,
        };
        m.reset(items, options);
        m
    }

    /// Makes this an empty matrix over `items` items, as [`Matrix::new`] would, in the
    /// arrays it already has: a solver that encodes puzzle after puzzle of one shape then
    /// allocates nothing, and writes only the nodes the new puzzle uses, not the whole padded
    /// arena. Room is made for `options` options.
    ///
    /// # Panics
    /// If `items` does not fit the `u32` node space.
    pub(crate) fn reset(&mut self, items: usize, options: usize) {
        let n = u32::try_from(items).expect("item count fits in u32");
        self.items = n;
        self.options = 0;
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

    /// Pads the arrays of a finished matrix to powers of two, so that the hot
    /// loops can index with `i & mask`: the optimiser then sees every index in bounds and
    /// drops the bounds checks (a third of `hide`'s instructions) with no `unsafe`.
    /// Padding nodes and items are never linked. Arrays left longer by a larger matrix
    /// rebuilt in the same space keep their length; the hot loops slice them to the mask.
    pub(crate) fn seal(&mut self) {
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

    /// Appends an option covering four distinct items (each in `1..=self.items()`) and
    /// returns its 0-based number. The items are checked only in debug builds: the sudoku
    /// encoder calls this for every option of every puzzle, and a per-node push with checks
    /// was over half of the encoding time.
    pub(crate) fn add_option(&mut self, items: [u32; 4]) -> u32 {
        debug_assert!(self.node_mask == 0, "options are added before sealing");
        let id = self.options;
        let x = self.first_option_node() + 4 * id as usize;
        if self.nodes.len() < x + 4 {
            // More options than [`Matrix::reset`] made room for.
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

    /// Number of items.
    pub(crate) fn items(&self) -> usize {
        self.items as usize
    }

    /// Number of options.
    pub(crate) fn options(&self) -> usize {
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
        debug_assert!(self.node_mask != 0, "a sealed matrix");
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

    /// Covers item `i`: hides every option that contains it and unlinks it from the item list.
    /// Returns the number of link updates.
    #[inline]
    pub(crate) fn cover(&mut self, i: u32) -> u64 {
        self.sealed().cover(i, &mut ())
    }

    /// Undoes [`Matrix::cover`].
    #[inline]
    pub(crate) fn uncover(&mut self, i: u32) {
        self.sealed().uncover(i, &mut ());
    }

    /// Having covered `top[x]`, covers the other items of `x`'s option, in option order
    /// from `x`. Returns the number of link updates.
    #[inline]
    pub(crate) fn commit(&mut self, x: u32) -> u64 {
        self.sealed().commit(x, &mut ())
    }

    /// Undoes [`Matrix::commit`], in the opposite order.
    #[inline]
    pub(crate) fn uncommit(&mut self, x: u32) {
        self.sealed().uncommit(x, &mut ());
    }

    /// [`Matrix::cover`], telling `w` of every length change.
    #[inline]
    pub(crate) fn cover_watched(&mut self, i: u32, w: &mut impl Watch) -> u64 {
        self.sealed().cover(i, w)
    }

    /// [`Matrix::uncover`], telling `w` of every length change.
    #[inline]
    pub(crate) fn uncover_watched(&mut self, i: u32, w: &mut impl Watch) {
        self.sealed().uncover(i, w);
    }

    /// [`Matrix::commit`], telling `w` of every length change.
    #[inline]
    pub(crate) fn commit_watched(&mut self, x: u32, w: &mut impl Watch) -> u64 {
        self.sealed().commit(x, w)
    }

    /// [`Matrix::uncommit`], telling `w` of every length change.
    #[inline]
    pub(crate) fn uncommit_watched(&mut self, x: u32, w: &mut impl Watch) {
        self.sealed().uncommit(x, w);
    }

    /// Whether item `i` is in the active list.
    #[inline]
    pub(crate) fn is_active(&self, i: u32) -> bool {
        self.rlink[self.llink[i as usize] as usize] == i
    }

    /// The options-left count of item `i`, whether it is covered or not.
    #[inline]
    pub(crate) fn options_of(&self, i: u32) -> u32 {
        self.len[i as usize] % COVERED
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
        debug_assert!(self.item_mask != 0, "a sealed matrix");
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

    /// [`Matrix::choose_mrv`] by walking the active list, for the fill search, whose
    /// tie-breaks its seeds' grids depend on. Takes the first item with at most one option,
    /// else the first of the fewest.
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

    /// The first node of the first option.
    pub(crate) fn first_option_node(&self) -> usize {
        (self.items() + 1 + 3) & !3
    }

    /// The option nodes (padding excluded).
    pub(crate) fn option_nodes(&self) -> std::ops::Range<usize> {
        let first = self.first_option_node();
        first..first + 4 * self.options()
    }

    /// The option number of option node `x`.
    #[inline]
    pub(crate) fn option_of(&self, x: u32) -> u32 {
        self.opt[x as usize]
    }

    /// Active item headers, in list order.
    pub(crate) fn active_items(&self) -> Vec<u32> {
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
    /// Knuth's `hide` of option node `p`'s option: its other nodes, `p + 1`, `p + 2` and
    /// `p + 3` modulo four within its group, leave their items' lists. They sit in three
    /// different lists, so the order does not matter to the links; it is fixed because a
    /// watcher (the fill search's stack of forced items) hears the changes in this order.
    #[inline(always)]
    fn hide(&mut self, p: u32, w: &mut impl Watch) {
        let (nm, im) = (self.nm, self.im);
        let group = p & !3;
        for k in 1..4 {
            let q = (group | (p + k) & 3) as usize & nm;
            let Node { up: u, down: d } = self.nodes[q];
            let x = self.top[q];
            self.nodes[u as usize & nm].down = d;
            self.nodes[d as usize & nm].up = u;
            let len = self.len[x as usize & im] - 1;
            self.len[x as usize & im] = len;
            w.hidden(x, len);
        }
    }

    /// Undoes [`Sealed::hide`], in the opposite order.
    #[inline(always)]
    fn unhide(&mut self, p: u32, w: &mut impl Watch) {
        let (nm, im) = (self.nm, self.im);
        let group = p & !3;
        for k in (1..4).rev() {
            let q = (group | (p + k) & 3) as usize & nm;
            let Node { up: u, down: d } = self.nodes[q];
            let x = self.top[q];
            self.nodes[u as usize & nm].down = q as u32;
            self.nodes[d as usize & nm].up = q as u32;
            let len = self.len[x as usize & im] + 1;
            self.len[x as usize & im] = len;
            w.unhidden(x, len);
        }
    }

    /// [`Matrix::cover`]: link updates made.
    #[inline(always)]
    fn cover(&mut self, i: u32, w: &mut impl Watch) -> u64 {
        let (nm, im) = (self.nm, self.im);
        let mut updates = 1;
        let mut p = self.nodes[i as usize & nm].down;
        while p != i {
            self.hide(p, w);
            updates += 3;
            p = self.nodes[p as usize & nm].down;
        }
        let l = self.llink[i as usize & im];
        let r = self.rlink[i as usize & im];
        self.rlink[l as usize & im] = r;
        self.llink[r as usize & im] = l;
        let len = self.len[i as usize & im];
        self.len[i as usize & im] = len + COVERED;
        w.covered(i, len);
        updates
    }

    /// [`Matrix::uncover`].
    #[inline(always)]
    fn uncover(&mut self, i: u32, w: &mut impl Watch) {
        let (nm, im) = (self.nm, self.im);
        let len = self.len[i as usize & im] - COVERED;
        w.uncovered(i, len);
        self.len[i as usize & im] = len;
        let l = self.llink[i as usize & im];
        let r = self.rlink[i as usize & im];
        self.rlink[l as usize & im] = i;
        self.llink[r as usize & im] = i;
        let mut p = self.nodes[i as usize & nm].up;
        while p != i {
            self.unhide(p, w);
            p = self.nodes[p as usize & nm].up;
        }
    }

    /// [`Matrix::commit`].
    #[inline(always)]
    fn commit(&mut self, x: u32, w: &mut impl Watch) -> u64 {
        let group = x & !3;
        let mut updates = 0;
        for k in 1..4 {
            let j = self.top[(group | (x + k) & 3) as usize & self.nm];
            updates += self.cover(j, w);
        }
        updates
    }

    /// [`Matrix::uncommit`].
    #[inline(always)]
    fn uncommit(&mut self, x: u32, w: &mut impl Watch) {
        let group = x & !3;
        for k in (1..4).rev() {
            let j = self.top[(group | (x + k) & 3) as usize & self.nm];
            self.uncover(j, w);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;

//! Tests of the link arena on a small exact-cover problem, also used by `search.rs`.

use super::*;

/// Eight items and seven options of four: its exact covers are {0, 1}, {2, 3} and
/// {4, 5}; option 6 can be in none (no option covers the other four items).
pub(crate) fn small_example() -> Matrix {
    let mut m = Matrix::new(8, 7);
    for items in [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [1, 2, 5, 6],
        [3, 4, 7, 8],
        [1, 3, 5, 7],
        [2, 4, 6, 8],
        [1, 2, 3, 5],
    ] {
        m.add_option(items);
    }
    m.seal();
    m
}

#[test]
fn cover_and_uncover_restore_the_matrix() {
    let mut m = small_example();
    let before = m.clone();
    m.cover(1);
    // Options 0, 2, 4 and 6 hold item 1 and leave the other lists: item 8 keeps all
    // three of its options (1, 3, 5), item 4 two of its three (3, 5).
    assert_eq!(m.len[8], 3);
    assert_eq!(m.len[4], 2);
    assert!(!m.is_active(1) && m.is_active(2));
    assert_eq!(m.options_of(1), 4);
    let x = m.nodes[1].down;
    m.commit(x);
    assert_eq!(m.active_items(), vec![5, 6, 7, 8]);
    m.uncommit(x);
    m.uncover(1);
    assert_eq!(m.nodes, before.nodes);
    assert_eq!(m.len, before.len);
    assert_eq!(m.rlink, before.rlink);
    assert_eq!(m.llink, before.llink);
}

/// Counts every change it hears of.
#[derive(Default)]
struct Counter {
    hidden: u32,
    unhidden: u32,
    covered: Vec<(u32, u32)>,
    uncovered: Vec<(u32, u32)>,
}

impl Watch for Counter {
    fn hidden(&mut self, _x: u32, _len: u32) {
        self.hidden += 1;
    }
    fn unhidden(&mut self, _x: u32, _len: u32) {
        self.unhidden += 1;
    }
    fn covered(&mut self, i: u32, len: u32) {
        self.covered.push((i, len));
    }
    fn uncovered(&mut self, i: u32, len: u32) {
        self.uncovered.push((i, len));
    }
}

#[test]
fn a_watcher_hears_every_change_and_the_links_are_the_same() {
    let mut plain = small_example();
    let mut watched = small_example();
    let mut w = Counter::default();
    assert_eq!(plain.cover(1), watched.cover_watched(1, &mut w));
    let x = plain.nodes[1].down;
    assert_eq!(plain.commit(x), watched.commit_watched(x, &mut w));
    assert_eq!(
        (plain.nodes.clone(), plain.len.clone()),
        (watched.nodes.clone(), watched.len.clone())
    );
    // Item 1 had four options; after it, option 0's other items 2, 3 and 4 are covered
    // with what covering item 1 left them: option 5, option 3, and nothing.
    assert_eq!(w.covered, vec![(1, 4), (2, 1), (3, 1), (4, 0)]);
    watched.uncommit_watched(x, &mut w);
    watched.uncover_watched(1, &mut w);
    assert_eq!(w.hidden, w.unhidden);
    assert_eq!(w.uncovered, vec![(4, 0), (3, 1), (2, 1), (1, 4)]);
    assert_eq!(watched.nodes, small_example().nodes);
}

#[test]
fn layout_is_in_groups_of_four() {
    let m = small_example();
    assert_eq!((m.options(), m.items()), (7, 8));
    assert_eq!(m.first_option_node(), 12);
    assert_eq!(m.top[12..16], [1, 2, 3, 4]);
    assert!(
        m.option_nodes()
            .all(|x| m.option_of(x as u32) == (x as u32 - 12) / 4)
    );
    assert_eq!(m.len[1], 4);
    assert_eq!(m.active_items(), (1..=8).collect::<Vec<u32>>());
    assert!(m.nodes.len().is_power_of_two());
}

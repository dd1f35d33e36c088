//! Tests of the grid types and the independent validity checks.

use super::*;

/// Positions and houses a caller built out of range still print (in a debug build,
/// `usize::MAX + 1` overflowed).
#[test]
fn out_of_range_positions_print() {
    let p = Pos {
        row: usize::MAX,
        col: 0,
    };
    assert_eq!(
        p.to_string(),
        format!("row {}, column 1", u128::from(u64::MAX) + 1)
    );
    assert_eq!(
        House::Block(usize::MAX).to_string(),
        format!("block {}", u128::from(u64::MAX) + 1)
    );
}

#[test]
fn shapes() {
    assert_eq!(Shape::from_side(100).unwrap().box_size(), 10);
    assert_eq!(Shape::from_cells(81).unwrap().side(), 9);
    for bad in [0, 1, 2, 3, 5, 8, 10, 121] {
        let e = Shape::from_side(bad).unwrap_err();
        assert!(e.to_string().contains("supported sizes are 4x4"), "{e}");
    }
    assert!(Shape::new(11).is_err());
    assert!(Shape::new(1).is_err());
    assert_eq!(Shape::all().count(), 9);
}

#[test]
fn block_numbering() {
    let s = Shape::new(3).unwrap();
    assert_eq!(s.block_of(0, 0), 0);
    assert_eq!(s.block_of(4, 8), 5);
    assert_eq!(s.block_of(8, 8), 8);
}

#[test]
fn checks_a_hand_made_4x4() {
    let s = Shape::new(2).unwrap();
    let good = vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
    assert!(Grid::new(s, good.clone()).is_ok());
    // Rows and columns fine, but block 0 holds 2 twice (a Latin square, not a sudoku).
    let latin_bad = vec![1, 2, 3, 4, 2, 3, 4, 1, 3, 4, 1, 2, 4, 1, 2, 3];
    match Grid::new(s, latin_bad).unwrap_err() {
        GridError::Duplicate {
            house: House::Block(0),
            ..
        } => {}
        e => panic!("unexpected {e:?}"),
    }
    let mut blank = good;
    blank[5] = 0;
    assert!(matches!(
        Grid::new(s, blank).unwrap_err(),
        GridError::Blank {
            pos: Pos { row: 1, col: 1 }
        }
    ));
}

#[test]
fn duplicate_names_both_cells() {
    let s = Shape::new(2).unwrap();
    let mut cells = vec![0u8; 16];
    cells[1] = 3;
    cells[13] = 3;
    let e = Puzzle::new(s, cells).unwrap().check().unwrap_err();
    assert_eq!(
        e.to_string(),
        "symbol 3 appears twice in column 2: at row 1, column 2 and at row 4, column 2"
    );
}

#[test]
fn symbol_range() {
    let s = Shape::new(2).unwrap();
    let mut cells = vec![0u8; 16];
    cells[6] = 5;
    assert!(matches!(
        Puzzle::new(s, cells).unwrap_err(),
        GridError::Symbol { symbol: 5, .. }
    ));
}

/// Every way a row-major array can fail to solve a puzzle, checked by hand on a 4×4.
#[test]
fn is_solved_by_checks_validity_and_givens() {
    let s = Shape::new(2).unwrap();
    let good = vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
    let mut givens = vec![0u8; 16];
    givens[0] = 1;
    givens[15] = 1;
    let puzzle = Puzzle::new(s, givens).unwrap();
    assert!(puzzle.is_solved_by(&good));
    assert!(Puzzle::empty(s).is_solved_by(&good));
    // Valid grids that break a given: symbols 1 and 2 swapped everywhere.
    let swapped: Vec<u8> = good.iter().map(|&v| [0, 2, 1, 3, 4][v as usize]).collect();
    assert!(Grid::new(s, swapped.clone()).is_ok());
    assert!(!puzzle.is_solved_by(&swapped));
    // Rows and columns fine, block 0 holds 2 twice.
    let latin = [1, 2, 3, 4, 2, 3, 4, 1, 3, 4, 1, 2, 4, 1, 2, 3];
    assert!(!Puzzle::empty(s).is_solved_by(&latin));
    // A blank, a symbol out of range, a repeat in a row, the wrong length.
    let mut blank = good.clone();
    blank[5] = 0;
    assert!(!Puzzle::empty(s).is_solved_by(&blank));
    let mut five = good.clone();
    five[5] = 5;
    assert!(!Puzzle::empty(s).is_solved_by(&five));
    let mut repeat = good.clone();
    repeat[1] = 1;
    assert!(!Puzzle::empty(s).is_solved_by(&repeat));
    assert!(!Puzzle::empty(s).is_solved_by(&good[..15]));
    let nine = Shape::new(3).unwrap();
    assert!(!Puzzle::empty(nine).is_solved_by(&good));
}

/// At 9×9 the blocks count along each row: the pattern grid passes, a cyclic Latin square
/// (every row and column fine) fails in its blocks, and so does the pattern with two
/// columns of different stacks swapped.
#[test]
fn is_solved_by_counts_blocks_along_rows() {
    let nine = Shape::new(3).unwrap();
    let grid = |f: &dyn Fn(usize, usize) -> usize| -> Vec<u8> {
        (0..81).map(|i| f(i / 9, i % 9) as u8 + 1).collect()
    };
    let empty = Puzzle::empty(nine);
    let pattern = grid(&|r, c| (r * 3 + r / 3 + c) % 9);
    assert!(Grid::new(nine, pattern.clone()).is_ok());
    assert!(empty.is_solved_by(&pattern));
    assert!(!empty.is_solved_by(&grid(&|r, c| (r + c) % 9)));
    let swapped = grid(&|r, c| {
        let c = [0, 1, 3, 2, 4, 5, 6, 7, 8][c];
        (r * 3 + r / 3 + c) % 9
    });
    assert!(Grid::new(nine, swapped.clone()).is_err());
    assert!(!empty.is_solved_by(&swapped));
}

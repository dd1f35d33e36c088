//! Tests of the SVG renderer, read back with a strict XML parser (roxmltree): well-formed
//! output with the SVG namespace, texts for givens, filled cells and candidates, line counts and
//! positions, size and view box, escaping, roster labels, errors, and the size of a 100×100 page.

use super::layout::auto_cell_px;
use super::xml::Num;
use super::*;

use roxmltree::{Document, Node};

/// The SVG namespace, which the root element must declare.
const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// `svg` parsed by a strict XML parser, or a panic naming what is not well-formed.
fn parse_xml(svg: &str) -> Document<'_> {
    Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed XML: {e}\n{svg}"))
}

/// The elements of `doc` in document order, the root first.
fn elements<'a, 'i>(doc: &'a Document<'i>) -> impl Iterator<Item = Node<'a, 'i>> {
    doc.descendants().filter(Node::is_element)
}

/// The elements named `name`.
fn named<'a, 'i>(doc: &'a Document<'i>, name: &'a str) -> impl Iterator<Item = Node<'a, 'i>> {
    elements(doc).filter(move |e| e.has_tag_name(name))
}

/// The text directly inside `e`.
fn text_of<'a>(e: Node<'a, '_>) -> &'a str {
    e.text().unwrap_or("")
}

/// The `<text>` elements whose parent group has class `class`, as (x, y, text).
fn texts_in(doc: &Document<'_>, class: &str) -> Vec<(f64, f64, String)> {
    named(doc, "text")
        .filter(|e| {
            e.parent_element()
                .is_some_and(|p| p.attribute("class") == Some(class))
        })
        .map(|e| {
            let num = |k| {
                e.attribute(k)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(f64::NAN)
            };
            (num("x"), num("y"), text_of(e).to_string())
        })
        .collect()
}

fn path_d<'a>(doc: &'a Document<'_>, class: &str) -> &'a str {
    named(doc, "path")
        .find(|e| e.attribute("class") == Some(class))
        .and_then(|e| e.attribute("d"))
        .unwrap_or_else(|| panic!("no path of class {class}"))
}

/// A valid grid of box size `b`.
fn pattern_grid(b: usize) -> Grid {
    crate::io::fixtures::pattern(Shape::new(b).unwrap())
}

/// `grid` with every cell whose index is not a multiple of `keep_every` blanked.
fn blank_some(grid: &Grid, keep_every: usize) -> Puzzle {
    let cells = grid
        .cells()
        .iter()
        .enumerate()
        .map(|(i, &v)| if i % keep_every == 0 { v } else { 0 })
        .collect();
    Puzzle::new(grid.shape(), cells).unwrap()
}

#[test]
fn well_formed_with_texts_for_givens_and_filled_cells() {
    for b in 2..=5 {
        let grid = pattern_grid(b);
        let puzzle = blank_some(&grid, 3);
        let givens = puzzle.givens();
        let blanks = grid.shape().cells() - givens;
        let opts = SvgOptions::default();

        let svg = render_svg(&puzzle, None, &opts).unwrap();
        let doc = parse_xml(&svg);
        let root = doc.root_element();
        assert!(root.has_tag_name((SVG_NS, "svg")), "b={b}");
        assert_eq!(root.attribute("font-family"), Some("sans-serif"));
        assert_eq!(texts_in(&doc, "givens").len(), givens);
        assert!(texts_in(&doc, "filled").is_empty());
        assert_eq!(named(&doc, "text").count(), givens);

        let svg = render_svg(&puzzle, Some(&grid), &opts).unwrap();
        let doc = parse_xml(&svg);
        let given_texts = texts_in(&doc, "givens");
        let filled_texts = texts_in(&doc, "filled");
        assert_eq!((given_texts.len(), filled_texts.len()), (givens, blanks));
        // Every cell's text is its symbol, centred in that cell.
        let n = grid.shape().side();
        let cell = auto_cell_px(grid.shape(), false);
        let mut seen = vec![false; n * n];
        for (x, _, text) in given_texts.iter().chain(&filled_texts) {
            let col = (x / cell).floor() as usize;
            assert!(((col as f64 + 0.5) * cell - x).abs() < 0.01);
            let rows: Vec<usize> = (0..n)
                .filter(|&r| !seen[r * n + col] && grid.get(r, col).to_string() == *text)
                .collect();
            assert_eq!(rows.len(), 1, "symbol {text} once in column {col}");
            seen[rows[0] * n + col] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}

#[test]
fn full_grid_as_puzzle_is_all_givens() {
    let grid = pattern_grid(3);
    let svg = render_svg(&grid.to_puzzle(), Some(&grid), &SvgOptions::default()).unwrap();
    let doc = parse_xml(&svg);
    assert_eq!(texts_in(&doc, "givens").len(), 81);
    assert!(texts_in(&doc, "filled").is_empty());
}

#[test]
fn line_counts_and_positions() {
    for b in 2..=10 {
        let shape = Shape::new(b).unwrap();
        let n = shape.side();
        let opts = SvgOptions {
            cell_px: Some(20.0),
            ..SvgOptions::default()
        };
        let svg = render_svg(&Puzzle::empty(shape), None, &opts).unwrap();
        let doc = parse_xml(&svg);
        let thick = path_d(&doc, "thick");
        let thin = path_d(&doc, "thin");
        assert_eq!(thick.matches('H').count(), b + 1, "b={b}");
        assert_eq!(thick.matches('V').count(), b + 1, "b={b}");
        assert_eq!(thin.matches('H').count(), n - b, "b={b}");
        assert_eq!(thin.matches('V').count(), n - b, "b={b}");
        // Thick horizontal lines lie every b cells, from the top edge to the bottom edge.
        let ys: Vec<String> = thick
            .split('M')
            .filter(|s| s.starts_with("0 ") && s.contains('H'))
            .map(|s| s[2..s.find('H').unwrap()].to_string())
            .collect();
        let want: Vec<String> = (0..=b).map(|k| (k * b * 20).to_string()).collect();
        assert_eq!(ys, want);
    }
}

#[test]
fn size_and_view_box() {
    let shape = Shape::new(10).unwrap();
    let svg = render_svg(&Puzzle::empty(shape), None, &SvgOptions::default()).unwrap();
    let doc = parse_xml(&svg);
    let root = doc.root_element();
    let w: f64 = root.attribute("width").unwrap().parse().unwrap();
    let h: f64 = root.attribute("height").unwrap().parse().unwrap();
    assert_eq!(
        root.attribute("viewBox"),
        Some(format!("0 0 {w} {h}").as_str())
    );
    // 100 cells of 24 px plus margins: a poster of about 2 400 px.
    assert!((2400.0..2500.0).contains(&w), "{w}");
    assert_eq!(w, h);
    // A white background covers the page.
    let bg = named(&doc, "rect").next().unwrap();
    assert_eq!(bg.attribute("fill"), Some("#ffffff"));
}

#[test]
fn title_is_escaped() {
    let puzzle = Puzzle::empty(Shape::new(2).unwrap());
    let opts = SvgOptions {
        title: Some("Ward <A> & \"B\" 'night'\u{1}".into()),
        ..SvgOptions::default()
    };
    let svg = render_svg(&puzzle, None, &opts).unwrap();
    assert!(
        svg.contains("<title>Ward &lt;A&gt; &amp; &quot;B&quot; &apos;night&apos;\u{FFFD}</title>")
    );
    let doc = parse_xml(&svg);
    let title = named(&doc, "title").next().unwrap();
    assert_eq!(text_of(title), "Ward <A> & \"B\" 'night'\u{FFFD}");
    assert_eq!(title.parent_element(), Some(doc.root_element()));
}

#[test]
fn labels_name_staff_and_days() {
    for (b, rotated) in [(3, false), (10, true)] {
        let shape = Shape::new(b).unwrap();
        let n = shape.side();
        let opts = SvgOptions {
            labels: true,
            ..SvgOptions::default()
        };
        let svg = render_svg(&Puzzle::empty(shape), None, &opts).unwrap();
        let doc = parse_xml(&svg);
        let labels: Vec<&str> = named(&doc, "text").map(text_of).collect();
        assert_eq!(labels.len(), 2 * n);
        assert_eq!(labels.iter().filter(|t| t.starts_with("Staff ")).count(), n);
        assert!(labels.contains(&format!("Staff {n}").as_str()));
        assert!(labels.contains(&format!("Day {n}").as_str()));
        let turned = elements(&doc).any(|e| e.attribute("transform") == Some("rotate(-90)"));
        assert_eq!(turned, rotated, "b={b}");
        // Labels sit left of and above the grid, so the grid moves right and down.
        let plain = render_svg(&Puzzle::empty(shape), None, &SvgOptions::default()).unwrap();
        let width = |s: &str| -> f64 {
            let doc = parse_xml(s);
            doc.root_element()
                .attribute("width")
                .unwrap()
                .parse()
                .unwrap()
        };
        assert!(width(&svg) > width(&plain));
    }
}

/// Labels a cell apart are no taller than a cell, down to the smallest cells: rows of
/// staff labels do not overlap (their font once stayed at 8 px over 6-px cells); on large
/// cells they grow with them (they once stayed at 14 px beside 72-px digits).
#[test]
fn labels_fit_small_cells_and_grow_with_large_ones() {
    let shape = Shape::new(3).unwrap();
    for px in [4.0, 6.0, 8.0, 12.0, 120.0, 400.0] {
        let opts = SvgOptions {
            labels: true,
            cell_px: Some(px),
            ..SvgOptions::default()
        };
        let svg = render_svg(&Puzzle::empty(shape), None, &opts).unwrap();
        let doc = parse_xml(&svg);
        let font: f64 = elements(&doc)
            .find(|e| e.attribute("class") == Some("labels"))
            .and_then(|e| e.attribute("font-size"))
            .unwrap()
            .parse()
            .unwrap();
        assert!(font <= px, "cell {px} px, labels {font} px");
        assert!(
            px < 100.0 || font >= px / 5.0,
            "cell {px} px, labels {font} px"
        );
    }
}

/// Day names in kanji take a full em a character: ones that would fit across a 9×9 cell
/// if they were Latin letters turn to run up the page (before, every character counted as
/// 0.6 em, and neighbouring labels overlapped).
#[test]
fn wide_day_names_turn_where_as_many_latin_letters_fit() {
    use crate::io::csv::{CustomNames, NameList, Names};
    let shape = Shape::new(3).unwrap();
    let turned = |days: Vec<String>| {
        let custom = CustomNames {
            staff: None,
            days: Some(NameList::new("days", days).unwrap()),
            shifts: None,
        };
        let opts = SvgOptions {
            labels: true,
            names: Some(Names::new(shape, &custom).unwrap()),
            ..SvgOptions::default()
        };
        let svg = render_svg(&Puzzle::empty(shape), None, &opts).unwrap();
        let doc = parse_xml(&svg);
        elements(&doc).any(|e| e.attribute("transform") == Some("rotate(-90)"))
    };
    assert!(!turned((1..=9).map(|k| format!("Wk {k} M")).collect()));
    assert!(turned((1..=9).map(|k| format!("第{k}週月曜")).collect()));
}

/// Roster names: the labels are the staff and day names, and named shifts are written in
/// the cells (a long one smaller, to fit); shift names left at their defaults keep numbers.
#[test]
fn roster_names_label_the_grid_and_name_the_shifts() {
    use crate::io::csv::{CustomNames, NameList, Names};
    let shape = Shape::new(2).unwrap();
    let list = |label: &str, names: [&str; 4]| Some(NameList::new(label, names).unwrap());
    let staff_and_days = CustomNames {
        staff: list("staff", ["Ann", "Bob", "Cid", "Dee"]),
        days: list("days", ["Mon", "Tue", "Wed", "Thu"]),
        shifts: None,
    };
    let mut all = staff_and_days.clone();
    all.shifts = list("shifts", ["Early", "Late", "Night", "On call"]);
    let grid = pattern_grid(2);
    let puzzle = blank_some(&grid, 2);
    for (custom, named_shifts) in [(staff_and_days, false), (all, true)] {
        let opts = SvgOptions {
            labels: true,
            names: Some(Names::new(shape, &custom).unwrap()),
            ..SvgOptions::default()
        };
        let svg = render_svg(&puzzle, Some(&grid), &opts).unwrap();
        let doc = parse_xml(&svg);
        let labels: Vec<String> = named(&doc, "text")
            .filter(|e| {
                e.ancestors()
                    .any(|a| a.attribute("class") == Some("labels"))
            })
            .map(|e| text_of(e).to_string())
            .collect();
        assert_eq!(
            labels,
            ["Ann", "Bob", "Cid", "Dee", "Mon", "Tue", "Wed", "Thu"]
        );
        let mut cells = texts_in(&doc, "givens");
        cells.extend(texts_in(&doc, "filled"));
        assert_eq!(cells.len(), 16);
        let names = ["Early", "Late", "Night", "On call"];
        for (_, _, t) in &cells {
            if named_shifts {
                assert!(names.contains(&t.as_str()), "{t}");
            } else {
                assert!(t.parse::<u8>().is_ok_and(|v| (1..=4).contains(&v)), "{t}");
            }
        }
        if named_shifts {
            let size = |name: &str| -> f64 {
                named(&doc, "text")
                    .find(|e| text_of(*e) == name)
                    .and_then(|e| e.attribute("font-size"))
                    .unwrap()
                    .parse()
                    .unwrap()
            };
            // One size for every name, the longest's (before, "Late" came out larger than
            // "On call").
            assert_eq!(size("On call"), size("Late"));
        }
        assert!(named(&doc, "g").all(|g| g.attribute("class") != Some("legend")));
    }
}

/// A shift name too long to read in a cell puts numbers in the cells and a key below the
/// grid (before, it was set at about 2 px).
#[test]
fn long_shift_names_go_in_a_key() {
    use crate::io::csv::{CustomNames, NameList, Names};
    let shape = Shape::new(3).unwrap();
    let shifts = [
        "Early morning shift (06:00-14:00)",
        "Late",
        "Night",
        "Day",
        "Swing",
        "On call",
        "Training",
        "Off",
        "Admin & <paperwork>",
    ];
    let custom = CustomNames {
        shifts: Some(NameList::new("shifts", shifts).unwrap()),
        ..CustomNames::default()
    };
    let grid = pattern_grid(3);
    let puzzle = blank_some(&grid, 3);
    let opts = SvgOptions {
        names: Some(Names::new(shape, &custom).unwrap()),
        ..SvgOptions::default()
    };
    let svg = render_svg(&puzzle, Some(&grid), &opts).unwrap();
    let doc = parse_xml(&svg);
    let mut cells = texts_in(&doc, "givens");
    cells.extend(texts_in(&doc, "filled"));
    assert_eq!(cells.len(), 81);
    for (_, _, t) in &cells {
        assert!(t.parse::<u8>().is_ok_and(|v| (1..=9).contains(&v)), "{t}");
    }
    // The key: each number in bold, then its name, escaped, below the grid.
    let key: Vec<(f64, String)> = named(&doc, "text")
        .filter(|e| {
            e.parent_element()
                .is_some_and(|p| p.attribute("class") == Some("legend"))
        })
        .map(|e| {
            let y: f64 = e.attribute("y").unwrap().parse().unwrap();
            let spans: Vec<&str> = e.children().filter(Node::is_element).map(text_of).collect();
            (y, spans.join(" "))
        })
        .collect();
    let want: Vec<String> = (1..=9).map(|k| format!("{k} {}", shifts[k - 1])).collect();
    assert_eq!(key.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>(), want);
    let grid_side = 9.0 * auto_cell_px(shape, false);
    assert!(key.iter().all(|(y, _)| *y > grid_side), "{key:?}");
    // The page grew to hold it.
    let plain = render_svg(&puzzle, Some(&grid), &SvgOptions::default()).unwrap();
    let height = |svg: &str| -> f64 {
        let doc = parse_xml(svg);
        doc.root_element()
            .attribute("height")
            .unwrap()
            .parse()
            .unwrap()
    };
    let last_line = key.iter().map(|(y, _)| *y).fold(0.0, f64::max);
    assert!(height(&svg) > height(&plain) && height(&svg) > last_line + 10.0);
}

/// Pencil marks are shift numbers, so with named shifts the cells show numbers too and the
/// key says which shift each is (before, the givens showed names and the marks bare
/// numbers no key explained).
#[test]
fn named_shifts_with_candidates_get_a_key() {
    use crate::io::csv::{CustomNames, NameList, Names};
    let shape = Shape::new(2).unwrap();
    let custom = CustomNames {
        shifts: Some(NameList::new("shifts", ["Early", "Late", "Night", "Off"]).unwrap()),
        ..CustomNames::default()
    };
    let puzzle = blank_some(&pattern_grid(2), 2);
    let opts = SvgOptions {
        names: Some(Names::new(shape, &custom).unwrap()),
        show_candidates: true,
        ..SvgOptions::default()
    };
    let doc_text = render_svg(&puzzle, None, &opts).unwrap();
    let doc = parse_xml(&doc_text);
    for (_, _, t) in texts_in(&doc, "givens") {
        assert!(t.parse::<u8>().is_ok_and(|v| (1..=4).contains(&v)), "{t}");
    }
    let key: Vec<String> = named(&doc, "text")
        .filter(|e| {
            e.parent_element()
                .is_some_and(|p| p.attribute("class") == Some("legend"))
        })
        .map(|e| {
            let spans: Vec<&str> = e.children().filter(Node::is_element).map(text_of).collect();
            spans.join(" ")
        })
        .collect();
    assert_eq!(key, ["1 Early", "2 Late", "3 Night", "4 Off"]);
}

#[test]
fn candidates_are_the_symbols_free_in_all_three_houses() {
    // 4x4 with 1 at (0,0) and 2 at (3,1): cell (0,1) sees 1 (row, block) and 2 (column).
    let shape = Shape::new(2).unwrap();
    let mut cells = vec![0u8; 16];
    cells[0] = 1;
    cells[13] = 2;
    let puzzle = Puzzle::new(shape, cells).unwrap();
    let opts = SvgOptions {
        show_candidates: true,
        ..SvgOptions::default()
    };
    let svg = render_svg(&puzzle, None, &opts).unwrap();
    let doc = parse_xml(&svg);
    let cands = texts_in(&doc, "candidates");
    let cell = auto_cell_px(shape, true);
    let in_cell = |r: usize, c: usize| -> Vec<String> {
        cands
            .iter()
            .filter(|(x, y, _)| {
                (x / cell).floor() as usize == c && (y / cell).floor() as usize == r
            })
            .map(|(_, _, t)| t.clone())
            .collect()
    };
    assert_eq!(in_cell(0, 1), ["3", "4"]);
    assert_eq!(in_cell(1, 1), ["3", "4"]);
    assert_eq!(in_cell(1, 2), ["1", "2", "3", "4"]);
    assert_eq!(in_cell(3, 2), ["1", "3", "4"]);
    assert_eq!(in_cell(2, 0), ["3", "4"]);
    assert!(in_cell(0, 0).is_empty(), "a given has no candidates");
    // Every mark lies inside a blank cell.
    let total: usize = (0..16).map(|i| in_cell(i / 4, i % 4).len()).sum();
    assert_eq!(total, cands.len());

    // Candidates fit in their cell and symbol s sits at spot s-1 of the 2x2 mini-grid.
    let three = cands.iter().find(|(_, _, t)| t == "3").unwrap();
    let four = cands.iter().find(|(_, _, t)| t == "4").unwrap();
    assert!(three.0 < four.0 && (three.1 - four.1).abs() < 0.01);

    // Up to 25x25 is allowed.
    let shape = Shape::new(5).unwrap();
    let svg = render_svg(&Puzzle::empty(shape), None, &opts).unwrap();
    let doc = parse_xml(&svg);
    assert_eq!(texts_in(&doc, "candidates").len(), 25 * 25 * 25);
}

#[test]
fn errors() {
    let grid = pattern_grid(3);
    let puzzle = blank_some(&grid, 2);
    let opts = SvgOptions::default();

    let other = pattern_grid(2);
    assert_eq!(
        render_svg(&puzzle, Some(&other), &opts).unwrap_err(),
        SvgError::SolutionShape {
            puzzle: grid.shape(),
            solution: other.shape()
        }
    );

    // Swap two symbols throughout: still a valid grid, but it breaks the givens.
    let swapped: Vec<u8> = grid
        .cells()
        .iter()
        .map(|&v| match v {
            1 => 2,
            2 => 1,
            v => v,
        })
        .collect();
    let swapped = Grid::new(grid.shape(), swapped).unwrap();
    let e = render_svg(&puzzle, Some(&swapped), &opts).unwrap_err();
    let first = grid
        .cells()
        .iter()
        .enumerate()
        .position(|(i, &v)| i % 2 == 0 && (v == 1 || v == 2))
        .unwrap();
    match &e {
        SvgError::SolutionConflict { pos, given, .. } => {
            assert_eq!(pos.row * 9 + pos.col, first);
            assert_eq!(*given, grid.cells()[first]);
        }
        e => panic!("unexpected {e:?}"),
    }
    assert!(e.to_string().starts_with("the solution has "), "{e}");

    let big = Puzzle::empty(Shape::new(6).unwrap());
    let cand = SvgOptions {
        show_candidates: true,
        ..SvgOptions::default()
    };
    let e = render_svg(&big, None, &cand).unwrap_err();
    assert!(matches!(e, SvgError::CandidatesTooLarge { .. }));
    assert_eq!(
        e.to_string(),
        "candidates are drawn only for grids up to 25x25; this puzzle is 36x36"
    );

    for px in [0.0, -5.0, 3.9, 401.0, f64::NAN, f64::INFINITY] {
        let o = SvgOptions {
            cell_px: Some(px),
            ..SvgOptions::default()
        };
        assert!(matches!(
            render_svg(&puzzle, None, &o),
            Err(SvgError::CellSize(_))
        ));
    }
}

#[test]
fn hundred_by_hundred_stays_small() {
    let grid = pattern_grid(10);
    let puzzle = blank_some(&grid, 2);
    let opts = SvgOptions {
        labels: true,
        title: Some("100x100".into()),
        ..SvgOptions::default()
    };
    let svg = render_svg(&puzzle, Some(&grid), &opts).unwrap();
    assert!(svg.len() < 1_500_000, "{} bytes", svg.len());
    let doc = parse_xml(&svg);
    assert_eq!(
        texts_in(&doc, "givens").len() + texts_in(&doc, "filled").len(),
        10_000
    );
    // The one three-digit symbol is set smaller than the rest, once per row.
    let smaller = named(&doc, "text")
        .filter(|e| e.attribute("font-size").is_some())
        .map(text_of);
    assert!(smaller.eq(std::iter::repeat_n("100", 100)));
}

#[test]
fn numbers_are_short() {
    let show = |v| Num(v).to_string();
    assert_eq!(show(24.0), "24");
    assert_eq!(show(12.5), "12.5");
    assert_eq!(show(16.333), "16.33");
    assert_eq!(show(-4.0), "-4");
    assert_eq!(show(-0.25), "-0.25");
    assert_eq!(show(0.004), "0");
}

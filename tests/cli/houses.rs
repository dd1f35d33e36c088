//! `generate --every-house`: a given in every row, column and box.

use predicates::str::contains;

use super::make::assert_unique_by_dlx;
use crate::util::shiftgrid;

/// `--every-house` leaves no row, column or box without a given (the default order leaves
/// the middle row of every 9x9 puzzle empty), and is refused where it would do nothing.
#[test]
fn every_house_keeps_a_given_in_each() {
    let out = shiftgrid()
        .args([
            "generate", "--box", "3", "--seed", "3", "--count", "6", "-f", "line",
        ])
        .arg("--every-house")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 6, "{text}");
    for line in text.lines() {
        assert_eq!(line.len(), 81, "{line}");
        let given = |r: usize, c: usize| line.as_bytes()[r * 9 + c].is_ascii_digit();
        for k in 0..9 {
            assert!((0..9).any(|c| given(k, c)), "row {k}: {line}");
            assert!((0..9).any(|r| given(r, k)), "column {k}: {line}");
            assert!(
                (0..9).any(|j| given((k / 3) * 3 + j / 3, (k % 3) * 3 + j % 3)),
                "box {k}: {line}"
            );
        }
        assert_unique_by_dlx(line);
    }
    // Without the flag the same seed leaves a house empty (the middle row, in fact).
    let plain = shiftgrid()
        .args(["generate", "--box", "3", "--seed", "3", "-f", "line"])
        .output()
        .unwrap()
        .stdout;
    let plain = String::from_utf8(plain).unwrap();
    assert!(
        plain.as_bytes()[36..45].iter().all(|&c| c == b'.'),
        "{plain}"
    );
    for method in ["expand", "ga"] {
        shiftgrid()
            .args([
                "generate",
                "--box",
                "3",
                "--every-house",
                "--method",
                method,
            ])
            .assert()
            .code(2)
            .stderr(contains("--every-house applies to --method prove only"));
    }
}

//! `--time-limit` values: `500ms`, `30s`, `2m`, `1h`, sums such as `1m30s`, or a plain
//! number of seconds.

/// The longest `--time-limit`: a year.
const MAX_TIME_LIMIT_SECS: f64 = 365.0 * 24.0 * 3600.0;

/// Parses `500ms`, `30s`, `2m`, `1h`, a sum of them (`1m30s`, `1h 30m`) or a plain number
/// of seconds.
pub(super) fn parse(s: &str) -> std::result::Result<std::time::Duration, String> {
    let s = s.trim();
    let not_a_duration = || format!("not a duration: {s:?} (try 30s, 2m, 1m30s, 500ms)");
    let number = |text: &str| -> std::result::Result<f64, String> {
        text.trim().parse().map_err(|_| not_a_duration())
    };
    let secs = if !s.contains(|c: char| c.is_ascii_alphabetic()) {
        number(s)?
    } else {
        // Number-unit pairs, summed, the units from the largest down, each once (`1h30m`,
        // not `30s1m` or `1s1s`, which are more likely typing slips than sums).
        let mut rest = s;
        let mut secs = 0.0;
        let mut last_rank = usize::MAX;
        while !rest.trim().is_empty() {
            let at = rest
                .find(|c: char| c.is_ascii_alphabetic())
                .ok_or_else(not_a_duration)?;
            let x = number(&rest[..at])?;
            let after = &rest[at..];
            let len = after
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(after.len());
            let unit = &after[..len];
            let rank = ["ms", "s", "m", "h"].iter().position(|u| *u == unit);
            if let Some(rank) = rank {
                if rank >= last_rank {
                    return Err(format!(
                        "{s:?}: give each unit once, from the largest down (1h30m, 1m30s)"
                    ));
                }
                last_rank = rank;
            }
            secs += match unit {
                "ms" => x / 1000.0,
                "s" => x,
                "m" => x * 60.0,
                "h" => x * 3600.0,
                _ => return Err(format!("unknown unit {unit:?} (use ms, s, m or h)")),
            };
            rest = &after[len..];
        }
        secs
    };
    if !secs.is_finite() {
        return Err(not_a_duration());
    }
    if secs < 0.0 || s.starts_with('-') {
        return Err(format!(
            "{s:?} is negative: give a positive duration (30s), or leave --time-limit out \
             for none"
        ));
    }

    // A sign inside (`1m-30s`, `1m+30s`) is a slip, not a difference.
    if s.get(1..).is_some_and(|rest| rest.contains(['-', '+'])) {
        return Err(not_a_duration());
    }
    // Past a year a limit means none; beyond that `Duration` or `Instant` could overflow.
    if secs > MAX_TIME_LIMIT_SECS {
        return Err(format!(
            "{s:?} is too long: the limit is at most a year (leave --time-limit out for none)"
        ));
    }
    let limit = std::time::Duration::from_secs_f64(secs);
    if limit.is_zero() {
        // A run cut before any work has nothing to give (generate would keep every given).
        return Err(format!(
            "{s:?} stops before any work: give a positive duration (30s), or leave \
             --time-limit out for none"
        ));
    }
    Ok(limit)
}

#[cfg(test)]
mod tests {
    use super::parse;
    use std::time::Duration;

    #[test]
    fn units_and_plain_seconds() {
        assert_eq!(parse("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse(" 2m "), Ok(Duration::from_secs(120)));
        assert_eq!(parse("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse("1h 30m 5s"), Ok(Duration::from_secs(5405)));
        assert_eq!(parse("1m500ms"), Ok(Duration::from_millis(60_500)));
        for slip in ["1m-30s", "2m -90s", "1h+5m"] {
            assert!(
                parse(slip).unwrap_err().contains("not a duration"),
                "{slip}"
            );
        }
        for slip in ["30s1m", "1s1ms1s", "1m1m", "5ms2s"] {
            assert!(
                parse(slip).unwrap_err().contains("each unit once"),
                "{slip}"
            );
        }
        assert_eq!(parse("0.001"), Ok(Duration::from_millis(1)));
        assert_eq!(parse("8760h"), Ok(Duration::from_secs(365 * 24 * 3600)));
        assert_eq!(parse("1m30s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse("1h 30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse("2s500ms"), Ok(Duration::from_millis(2500)));
    }

    #[test]
    fn refusals() {
        for bad in [
            "", "s", "abc", "NaN", "inf", "1x", "2 days", "1e3s", "1m30", "m1",
        ] {
            let e = parse(bad).unwrap_err();
            assert!(
                e.contains("not a duration") || e.contains("unknown unit"),
                "{e}"
            );
        }
        // Past what a float holds.
        assert!(
            parse(&"1".repeat(400))
                .unwrap_err()
                .contains("not a duration")
        );
        // Below zero, or a minus sign on zero.
        for bad in ["-1s", "-1", "-1m30s", "-0s", "1m-90s"] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains("is negative") && e.contains("(30s)"), "{e}");
        }
        for zero in ["0", "0s", "0ms", "0m0s", "0.0000000001", "0.0000000001s"] {
            assert!(
                parse(zero).unwrap_err().contains("stops before any work"),
                "{zero}"
            );
        }
        let long = parse("8761h").unwrap_err();
        assert!(long.contains("at most a year"), "{long}");
        assert!(parse("5d").unwrap_err().contains("unknown unit"));
    }
}

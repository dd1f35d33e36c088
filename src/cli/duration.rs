//! `--time-limit` values: `500ms`, `30s`, `2m`, `1h` or a plain number of seconds.

/// The longest `--time-limit`: a year.
const MAX_TIME_LIMIT_SECS: f64 = 365.0 * 24.0 * 3600.0;

/// Parses `500ms`, `30s`, `2m`, `1h` or a plain number of seconds.
pub(super) fn parse(s: &str) -> std::result::Result<std::time::Duration, String> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let x: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("not a duration: {s:?} (try 30s, 2m, 500ms)"))?;
    let secs = match unit {
        "ms" => x / 1000.0,
        "s" => x,
        "m" => x * 60.0,
        "h" => x * 3600.0,
        _ => return Err(format!("unknown unit {unit:?} (use ms, s, m or h)")),
    };
    if !secs.is_finite() || secs < 0.0 {
        return Err(format!("not a duration: {s:?}"));
    }
    // Past a year a limit means none; beyond that `Duration` or `Instant` could overflow.
    if secs > MAX_TIME_LIMIT_SECS {
        return Err(format!(
            "{s:?} is too long: the limit is at most a year (leave --time-limit out for none)"
        ));
    }
    Ok(std::time::Duration::from_secs_f64(secs))
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
        assert_eq!(parse("0"), Ok(Duration::ZERO));
        assert_eq!(parse("8760h"), Ok(Duration::from_secs(365 * 24 * 3600)));
    }

    #[test]
    fn refusals() {
        for bad in ["", "s", "abc", "NaN", "inf", "1x", "2 days", "1e3s"] {
            let e = parse(bad).unwrap_err();
            assert!(
                e.contains("not a duration") || e.contains("unknown unit"),
                "{e}"
            );
        }
        // Past what a float holds, and below zero.
        for bad in ["1".repeat(400), "-1s".to_string()] {
            assert!(parse(&bad).unwrap_err().contains("not a duration"), "{bad}");
        }
        let long = parse("8761h").unwrap_err();
        assert!(long.contains("at most a year"), "{long}");
        assert!(parse("5d").unwrap_err().contains("unknown unit"));
    }
}

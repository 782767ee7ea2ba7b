//! The numbers of protocol lines (clocks, depths, option values), read the
//! same way by every protocol: saturating instead of wrapping, refusing
//! what is not a number.

/// A whole number as the protocols send them: digits with an optional sign.
/// A negative number reads as 0 and one past `u64` as `u64::MAX`, so that a
/// clock or a limit too big to hold saturates instead of wrapping round.
pub fn parse_count(s: &str) -> Option<u64> {
    let (negative, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if negative {
        return Some(0);
    }
    Some(digits.parse::<u64>().unwrap_or(u64::MAX))
}

/// A time in milliseconds: a whole number as [`parse_count`] reads it, or
/// a decimal one (some GUIs send `1000.5`), rounded to the nearest
/// millisecond and saturating like it. `inf`, `NaN` and the like are refused.
pub fn parse_millis(s: &str) -> Option<u64> {
    if let Some(n) = parse_count(s) {
        return Some(n);
    }
    let plain = s.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    let x: f64 = s.parse().ok().filter(|x: &f64| plain && x.is_finite())?;
    // float to integer casts saturate (negative to 0)
    Some(x.round() as u64)
}

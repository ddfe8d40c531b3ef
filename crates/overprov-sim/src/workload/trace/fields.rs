//! Small allocation-free field parsers shared by the line formats.

use super::Op;

/// The operation a code names, from the format's table; `what` names the field in the error.
#[inline]
pub(super) fn op(s: &str, table: &[(&str, Op)], what: &str) -> Result<Op, String> {
    match table.iter().find(|(code, _)| *code == s) {
        Some(&(_, op)) => Ok(op),
        None => {
            let codes: Vec<&str> = table.iter().map(|(code, _)| *code).collect();
            Err(format!(
                "{what}: expected one of {}, got {s:?}",
                codes.join(", ")
            ))
        }
    }
}

/// An unsigned decimal integer; `what` names the field in the error.
#[inline]
pub(super) fn uint(s: &str, what: &str) -> Result<u64, String> {
    let b = s.as_bytes();
    if b.is_empty() || b.len() > 20 {
        return Err(format!("{what}: expected an unsigned integer, got {s:?}"));
    }
    let mut v: u64 = 0;
    for &c in b {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return Err(format!("{what}: expected an unsigned integer, got {s:?}"));
        }
        v = v
            .checked_mul(10)
            .and_then(|v| v.checked_add(d as u64))
            .ok_or_else(|| format!("{what}: {s:?} overflows 64 bits"))?;
    }
    Ok(v)
}

/// Decimal seconds (`1456095145.133076000`, `12`, `0.5`) to ns, exactly (digits past the ninth
/// decimal are truncated).
pub(super) fn seconds_to_ns(s: &str, what: &str) -> Result<u64, String> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let secs = uint(int, what)?;
    let mut ns = 0u64;
    let mut digits = 0;
    for c in frac.bytes() {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return Err(format!("{what}: expected decimal seconds, got {s:?}"));
        }
        if digits < 9 {
            ns = ns * 10 + d as u64;
            digits += 1;
        }
    }
    for _ in digits..9 {
        ns *= 10;
    }
    secs.checked_mul(1_000_000_000)
        .and_then(|v| v.checked_add(ns))
        .ok_or_else(|| format!("{what}: {s:?} seconds overflow a 64-bit ns clock"))
}

/// `a * b`, or an error naming `what`.
pub(super) fn mul(a: u64, b: u64, what: &str) -> Result<u64, String> {
    a.checked_mul(b)
        .ok_or_else(|| format!("{what}: {a} × {b} overflows 64 bits"))
}

/// A device or volume number that must fit 32 bits.
pub(super) fn device(s: &str, what: &str) -> Result<u32, String> {
    let v = uint(s, what)?;
    u32::try_from(v).map_err(|_| format!("{what}: {v} does not fit 32 bits"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_exact() {
        assert_eq!(
            seconds_to_ns("1456095145.133076000", "t"),
            Ok(1_456_095_145_133_076_000)
        );
        assert_eq!(seconds_to_ns("0.5", "t"), Ok(500_000_000));
        assert_eq!(seconds_to_ns("3", "t"), Ok(3_000_000_000));
        assert!(seconds_to_ns("1.x", "t").is_err());
    }

    #[test]
    fn integers_reject_signs_and_overflow() {
        assert_eq!(uint("18446744073709551615", "x"), Ok(u64::MAX));
        assert!(uint("18446744073709551616", "x").is_err());
        assert!(uint("-1", "x").is_err());
        assert!(uint("", "x").is_err());
    }
}

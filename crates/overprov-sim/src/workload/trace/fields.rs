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

/// The bytes `split_ascii_whitespace` splits on (space, tab, LF, FF, CR).
const ASCII_WHITESPACE: u64 = 1 << b' ' | 1 << b'\t' | 1 << b'\n' | 1 << 0x0C | 1 << b'\r';

#[inline(always)]
fn is_ascii_whitespace(c: u8) -> bool {
    c <= b' ' && ASCII_WHITESPACE & (1 << c) != 0
}

/// The whitespace-separated fields of `line` (as `split_ascii_whitespace` cuts them): the first
/// `N` into `out`; returns how many there are in all.
#[inline]
pub(super) fn split_ascii_whitespace<'a, const N: usize>(
    line: &'a str,
    out: &mut [&'a str; N],
) -> usize {
    let b = line.as_bytes();
    let (mut i, mut n) = (0, 0);
    loop {
        while i < b.len() && is_ascii_whitespace(b[i]) {
            i += 1;
        }
        if i == b.len() {
            return n;
        }
        let start = i;
        while i < b.len() && !is_ascii_whitespace(b[i]) {
            i += 1;
        }
        if n < N {
            // both ends are at ASCII bytes or the line's ends: char boundaries
            out[n] = line.get(start..i).unwrap_or_default();
        }
        n += 1;
    }
}

/// Powers of ten up to 10⁸.
const POW10: [u64; 9] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// The number whose decimal digits (values 0–9, the most significant first) are the bytes of
/// `t` in memory order (eight digits, SWAR: three multiplies instead of a chain of eight).
#[inline(always)]
fn eight_digits(t: u64) -> u64 {
    let t = (t & 0x0F0F_0F0F_0F0F_0F0F).wrapping_mul(2561) >> 8;
    let t = (t & 0x00FF_00FF_00FF_00FF).wrapping_mul(6_553_601) >> 16;
    (t & 0x0000_FFFF_0000_FFFF).wrapping_mul(42_949_672_960_001) >> 32
}

/// The decimal number at the start of `b` (1 to 19 digits) and the bytes after it.
#[inline(always)]
pub(super) fn digits(b: &[u8]) -> Option<(u64, &[u8])> {
    let mut v = 0u64;
    let mut i = 0;
    // eight bytes at a time while eight are left: the digits before the first non-digit
    while let Some(chunk) = b.get(i..i + 8) {
        let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        // digit values; a borrow out of a byte below '0' only disturbs the bytes after it
        let t = x.wrapping_sub(0x3030_3030_3030_3030);
        // high bit of each byte whose value is not 0–9
        let non_digit = (t | (t & 0x7F7F_7F7F_7F7F_7F7F).wrapping_add(0x7676_7676_7676_7676))
            & 0x8080_8080_8080_8080;
        let k = (non_digit.trailing_zeros() / 8) as usize; // digits in this chunk, 0–8
        if k > 0 {
            v = v
                .wrapping_mul(POW10[k])
                .wrapping_add(eight_digits(t << (64 - 8 * k as u32)));
        }
        i += k;
        if k < 8 {
            return (1..=19).contains(&i).then(|| (v, &b[i..]));
        }
        if i > 19 {
            return None;
        }
    }
    while let Some(&c) = b.get(i) {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        v = v.wrapping_mul(10).wrapping_add(d as u64);
        i += 1;
    }
    (1..=19).contains(&i).then(|| (v, &b[i..]))
}

/// An unsigned decimal integer; `what` names the field in the error.
#[inline]
pub(super) fn uint(s: &str, what: &str) -> Result<u64, String> {
    let b = s.as_bytes();
    if b.is_empty() || b.len() > 20 {
        return Err(format!("{what}: expected an unsigned integer, got {s:?}"));
    }
    if let Some((v, [])) = digits(b) {
        return Ok(v);
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
    fn fields_split_as_split_ascii_whitespace() {
        for line in [
            "a b  c",
            " \t lead\x0Cform\rfeed \n",
            "",
            "one",
            "v\x0Btab é x",
            "1 2 3 4 5 6 7 8 9",
        ] {
            let want: Vec<&str> = line.split_ascii_whitespace().collect();
            let mut out = [""; 4];
            let n = split_ascii_whitespace(line, &mut out);
            assert_eq!(n, want.len(), "{line:?}");
            assert_eq!(&out[..n.min(4)], &want[..n.min(4)], "{line:?}");
        }
    }

    #[test]
    fn digits_as_parse() {
        for s in [
            "0",
            "7",
            "12345678",
            "123456789",
            "1234567890123456",
            "12345678901234567",
            "1234567890123456789",
            "9999999999999999999",
            "18446744073709551615",
            "0000000001",
            "",
            "x1",
            "12/",
            "1234567/",
            "12345678:9",
        ] {
            for tail in ["", " rest", " 1", "/", "\u{e9}9"] {
                let line = format!("{s}{tail}");
                let n = s.bytes().take_while(u8::is_ascii_digit).count();
                let want = (1..=19)
                    .contains(&n)
                    .then(|| (s[..n].parse::<u64>().unwrap(), &line.as_bytes()[n..]));
                assert_eq!(digits(line.as_bytes()), want, "{line:?}");
            }
        }
    }

    #[test]
    fn integers_reject_signs_and_overflow() {
        assert_eq!(
            uint("1234567890123456789", "x"),
            Ok(1_234_567_890_123_456_789)
        );
        assert_eq!(
            uint("9999999999999999999", "x"),
            Ok(9_999_999_999_999_999_999)
        );
        assert_eq!(uint("18446744073709551615", "x"), Ok(u64::MAX));
        assert!(uint("18446744073709551616", "x").is_err());
        assert!(uint("-1", "x").is_err());
        assert!(uint("", "x").is_err());
    }
}

//! blkparse's default text output (blkparse(1), "DEFAULT OUTPUT" and "DEFAULT OUTPUT PER
//! ACTION"; blktrace/blkparse by Jens Axboe, <https://git.kernel.org/pub/scm/linux/kernel/git/axboe/blktrace.git>).
//!
//! Each event line starts with the header `"%D %2c %8s %5T.%9t %5p %2a %3d"`: device
//! `major,minor`, CPU, sequence number, `seconds.nanoseconds` since the trace started, PID,
//! action, RWBS; then, for block I/O actions without payload, `sector + blocks` (512-byte
//! sectors) followed by `[command]` (or, for C, `[error]`). Example from the man page:
//!
//! ```text
//!   8,0    3        1     0.000000000   697  G   W 223490 + 8 [kjournald]
//! ```
//!
//! One request shows up as several events (Q queued, G get request, I inserted, D issued, C
//! completed, M/F merges…). The reader keeps one action — by default `D`, the request as issued
//! to the device driver, i.e. what the drive sees after merging — and skips the others. RWBS
//! gives the operation: `D` discard (trim), `W` write, `R` read; events with none of these (flush
//! only, `N`) or with zero blocks are skipped. blkparse's closing summary (from the first line
//! starting with `CPU` or `Total`) is skipped. The device is `major << 20 | minor` (the kernel's
//! dev_t encoding).

use super::fields::{seconds_to_ns, uint};
use super::{Op, TraceRecord};

pub const SECTOR_BYTES: u64 = 512;

#[derive(Debug, Clone)]
pub struct Parser {
    action: &'static str,
    in_summary: bool,
}

impl Default for Parser {
    fn default() -> Self {
        Self::new()
    }
}

impl Parser {
    /// Keep `D` (issued) events.
    pub fn new() -> Self {
        Self::with_action("D")
    }

    /// Keep the events of one action (`Q` for what the file system queued, `C` for completions).
    pub fn with_action(action: &'static str) -> Self {
        Parser {
            action,
            in_summary: false,
        }
    }

    pub fn parse(&mut self, line: &str) -> Result<Option<TraceRecord>, String> {
        if self.in_summary {
            return Ok(None);
        }
        if line.starts_with("CPU") || line.starts_with("Total") {
            self.in_summary = true;
            return Ok(None);
        }
        let mut it = line.split_ascii_whitespace();
        let mut next = |what: &str| {
            it.next().ok_or_else(|| {
                format!(
                    "missing {what} (expected `maj,min cpu seq secs.nsecs pid action rwbs ...`)"
                )
            })
        };
        let dev = next("device")?;
        let (major, minor) = dev
            .split_once(',')
            .ok_or_else(|| format!("device: expected `major,minor`, got {dev:?}"))?;
        let (major, minor) = (uint(major, "device major")?, uint(minor, "device minor")?);
        uint(next("cpu")?, "cpu")?;
        uint(next("sequence")?, "sequence")?;
        let time = next("time")?;
        uint(next("pid")?, "pid")?;
        let action = next("action")?;
        let rwbs = next("rwbs")?;
        if action != self.action {
            return Ok(None);
        }
        let op = if rwbs.contains('D') {
            Op::Trim
        } else if rwbs.contains('W') {
            Op::Write
        } else if rwbs.contains('R') {
            Op::Read
        } else {
            return Ok(None);
        };
        let sector = next("sector")?;
        if sector.starts_with('(') || sector.starts_with('[') {
            return Ok(None); // a payload (SCSI pass-through) or no range: not a block range
        }
        if next("`+`")? != "+" {
            return Err("expected `sector + blocks`".into());
        }
        let blocks = uint(next("blocks")?, "blocks")?;
        if blocks == 0 {
            return Ok(None);
        }
        if major > 0xfff || minor > 0xf_ffff {
            return Err(format!(
                "device: {major},{minor} is outside the kernel's dev_t range"
            ));
        }
        Ok(Some(TraceRecord {
            time_ns: seconds_to_ns(time, "time")?,
            op,
            offset_bytes: uint(sector, "sector")?.saturating_mul(SECTOR_BYTES),
            len_bytes: blocks * SECTOR_BYTES,
            device: ((major as u32) << 20) | minor as u32,
        }))
    }
}

/// Whether a first line looks like a blkparse event.
pub fn detect(line: &str) -> bool {
    let f: Vec<&str> = line.split_ascii_whitespace().take(7).collect();
    f.len() == 7
        && f[0]
            .split_once(',')
            .is_some_and(|(a, b)| uint(a, "").is_ok() && uint(b, "").is_ok())
        && uint(f[1], "").is_ok()
        && uint(f[2], "").is_ok()
        && f[3].contains('.')
        && seconds_to_ns(f[3], "").is_ok()
        && f[5].chars().all(|c| c.is_ascii_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_issued_events() {
        let mut p = Parser::new();
        assert_eq!(
            p.parse("  8,0    3        1     0.000000000   697  Q   W 223490 + 8 [kjournald]"),
            Ok(None)
        );
        let r = p
            .parse("  8,0    3        4     0.000123456   697  D  WS 223490 + 8 [kjournald]")
            .unwrap()
            .unwrap();
        assert_eq!(
            (r.time_ns, r.op, r.offset_bytes, r.len_bytes, r.device),
            (123_456, Op::Write, 223490 * 512, 4096, 8 << 20)
        );
        let r = p
            .parse("259,0    1        9     1.5   12  D   D 0 + 2048 [fstrim]")
            .unwrap()
            .unwrap();
        assert_eq!((r.op, r.len_bytes), (Op::Trim, 1 << 20));
        assert_eq!(
            p.parse("  8,0    1       10     1.6   12  D  FN [kworker]"),
            Ok(None)
        );
        assert!(p
            .parse("  8,0    1       11     1.7   12  D   W 5 - 8 [x]")
            .is_err());
        assert_eq!(p.parse("CPU0 (8,0):"), Ok(None));
        assert_eq!(p.parse(" Reads Queued:           0,        0KiB"), Ok(None));
        assert!(detect(
            "  8,0    3        1     0.000000000   697  G   W 223490 + 8 [kjournald]"
        ));
    }
}

//! MQSim's ASCII trace format (Tavakkol et al., "MQSim: A Framework for Enabling Realistic
//! Studies of Modern Multi-Queue SSD Devices", USENIX FAST '18; reader in
//! <https://github.com/CMU-SAFARI/MQSim> `src/host/ASCII_Trace_Definition.h` and
//! `src/host/IO_Flow_Trace_Based.cpp`), the DiskSim ASCII layout: one request per line,
//! whitespace-separated,
//!
//! `ArrivalTime DeviceNumber StartLBA SizeInSectors Type`
//!
//! ArrivalTime in ns, LBA and size in 512-byte sectors, Type `0` write / `1` read.

use super::columns::{Clock, Columns};
use super::fields::digits;
use super::{Op, TraceRecord};

pub const SECTOR_BYTES: u64 = 512;

const COLUMNS: Columns = Columns {
    names: "ArrivalTime,DeviceNumber,StartLBA,SizeInSectors,Type",
    comma: false,
    fields: 5,
    time: (0, Clock::Ticks(1)),
    op: (4, &[("0", Op::Write), ("1", Op::Read)]),
    offset: (2, SECTOR_BYTES),
    len: (3, SECTOR_BYTES),
    device: 1,
};

pub fn parse(line: &str) -> Result<Option<TraceRecord>, String> {
    COLUMNS.parse(line).map(Some)
}

/// A line of the usual shape at the start of `b` — five numbers of at most 19 digits separated
/// by single spaces, Type `0` or `1`, then `\n` — read in one pass: the record and the bytes the
/// line takes with its newline. `None` for any other line (then `parse` reads it, or says what
/// is wrong with it); what it returns is what `parse` returns for the line.
#[inline]
pub fn parse_line_start(b: &[u8]) -> Option<(TraceRecord, usize)> {
    let (time_ns, rest) = digits(b)?;
    let (device, rest) = digits(rest.strip_prefix(b" ")?)?;
    let (lba, rest) = digits(rest.strip_prefix(b" ")?)?;
    let (sectors, rest) = digits(rest.strip_prefix(b" ")?)?;
    let (op, rest) = match rest {
        [b' ', b'0', b'\n', ..] => (Op::Write, &rest[3..]),
        [b' ', b'1', b'\n', ..] => (Op::Read, &rest[3..]),
        _ => return None,
    };
    let record = TraceRecord {
        time_ns,
        op,
        offset_bytes: lba.checked_mul(SECTOR_BYTES)?,
        len_bytes: sectors.checked_mul(SECTOR_BYTES)?,
        device: u32::try_from(device).ok()?,
    };
    Some((record, b.len() - rest.len()))
}

pub fn detect(line: &str) -> bool {
    parse(line).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_line() {
        let r = parse("4851300 1 524288 16 0").unwrap().unwrap();
        assert_eq!(
            (r.time_ns, r.op, r.offset_bytes, r.len_bytes, r.device),
            (4851300, Op::Write, 524288 * 512, 8192, 1)
        );
        assert!(parse("4851300 1 524288 16 2").unwrap_err().contains("Type"));
    }

    #[test]
    fn usual_lines_read_as_parse_reads_them() {
        // read by the fast path
        for line in [
            "4851300 1 524288 16 0",
            "0 0 0 1 1",
            "1 2 36028797018963967 1 0",
        ] {
            let (r, used) = parse_line_start(format!("{line}\nnext").as_bytes()).unwrap();
            assert_eq!(
                (Ok(Some(r)), used),
                (parse(line), line.len() + 1),
                "{line:?}"
            );
        }
        // left to `parse` (which reads the valid ones or names what is wrong)
        for line in [
            "1 4294967296 0 1 1",
            "1 2 36028797018963968 1 0",
            "1 2 3 4 00",
            "1 2 3 4 0 5",
            "1  2 3 4 0",
            "1 2 3 4 0\r",
            "12345678901234567890 1 2 3 0",
        ] {
            assert_eq!(parse_line_start(format!("{line}\nnext").as_bytes()), None);
        }
        assert_eq!(parse_line_start(b"1 2 3 4 0"), None);
    }
}

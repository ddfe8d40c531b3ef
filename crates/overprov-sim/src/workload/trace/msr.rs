//! MSR Cambridge block traces (Narayanan, Donnelly, Rowstron, "Write Off-Loading: Practical Power
//! Management for Enterprise Storage", USENIX FAST '08), as distributed by the SNIA IOTTA
//! Repository (<http://iotta.snia.org/traces/block-io/388>): CSV without a header,
//!
//! `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`
//!
//! Timestamp in Windows FILETIME ticks (100 ns since 1601-01-01), Type `Read` or `Write`, Offset
//! and Size in bytes, ResponseTime in ticks (ignored). The device is DiskNumber.

use super::fields::{device, mul, split_exact, uint};
use super::{Op, TraceRecord};

/// One line to a record.
pub fn parse(line: &str) -> Result<Option<TraceRecord>, String> {
    let [ts, _host, disk, kind, offset, size, _resp] = split_exact::<7>(line, ',')
        .ok_or("expected 7 comma-separated fields: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime")?;
    let op = match kind {
        "Write" | "write" => Op::Write,
        "Read" | "read" => Op::Read,
        other => return Err(format!("Type: expected Read or Write, got {other:?}")),
    };
    Ok(Some(TraceRecord {
        time_ns: mul(uint(ts, "Timestamp")?, 100, "Timestamp")?,
        op,
        offset_bytes: uint(offset, "Offset")?,
        len_bytes: uint(size, "Size")?,
        device: device(disk, "DiskNumber")?,
    }))
}

/// Whether a first line has this shape.
pub fn detect(line: &str) -> bool {
    parse(line).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_line() {
        let r = parse("128166385295514663,hm,0,Write,9056014336,2048,2833")
            .unwrap()
            .unwrap();
        assert_eq!(r.time_ns, 12_816_638_529_551_466_300);
        assert_eq!(
            (r.op, r.offset_bytes, r.len_bytes, r.device),
            (Op::Write, 9056014336, 2048, 0)
        );
        assert!(parse("128166385295514663,hm,0,Erase,1,2,3")
            .unwrap_err()
            .contains("Type"));
    }
}

//! MSR Cambridge block traces (Narayanan, Donnelly, Rowstron, "Write Off-Loading: Practical Power
//! Management for Enterprise Storage", USENIX FAST '08), as distributed by the SNIA IOTTA
//! Repository (<http://iotta.snia.org/traces/block-io/388>): CSV without a header,
//!
//! `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`
//!
//! Timestamp in Windows FILETIME ticks (100 ns since 1601-01-01), Type `Read` or `Write`, Offset
//! and Size in bytes, ResponseTime in ticks (ignored). The device is DiskNumber.

use super::columns::{Clock, Columns};
use super::{Op, TraceRecord};

/// One line to a record.
const COLUMNS: Columns = Columns {
    names: "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime",
    comma: true,
    fields: 7,
    time: (0, Clock::Ticks(100)),
    op: (3, &[("Read", Op::Read), ("Write", Op::Write)]),
    offset: (4, 1),
    len: (5, 1),
    device: 2,
};

/// One line to a record.
pub fn parse(line: &str) -> Result<Option<TraceRecord>, String> {
    COLUMNS.parse(line).map(Some)
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

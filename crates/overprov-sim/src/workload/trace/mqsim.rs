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
}

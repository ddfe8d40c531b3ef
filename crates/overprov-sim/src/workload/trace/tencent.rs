//! Tencent Cloud Block Storage traces (Zhang et al., "OSCA: An Online-Model Based Cache
//! Allocation Scheme in Cloud Block Storage Systems", USENIX ATC '20), as distributed by the SNIA
//! IOTTA Repository ("parallel" trace set): CSV without a header,
//!
//! `Timestamp,Offset,Size,IOType,VolumeID`
//!
//! Timestamp in Unix seconds, Offset and Size in 512-byte sectors, IOType `0` read / `1` write.
//! Timestamps are not monotonic within a file (one-second resolution, merged from servers).

use super::columns::{Clock, Columns};
use super::{Op, TraceRecord};

pub const SECTOR_BYTES: u64 = 512;

const COLUMNS: Columns = Columns {
    names: "Timestamp,Offset,Size,IOType,VolumeID",
    comma: true,
    fields: 5,
    time: (0, Clock::Ticks(1_000_000_000)),
    op: (3, &[("0", Op::Read), ("1", Op::Write)]),
    offset: (1, SECTOR_BYTES),
    len: (2, SECTOR_BYTES),
    device: 4,
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
        let r = parse("1538323200,4247200,128,1,1058").unwrap().unwrap();
        assert_eq!(r.time_ns, 1_538_323_200_000_000_000);
        assert_eq!(
            (r.op, r.offset_bytes, r.len_bytes, r.device),
            (Op::Write, 4247200 * 512, 65536, 1058)
        );
    }
}

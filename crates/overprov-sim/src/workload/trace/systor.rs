//! SYSTOR '17 enterprise VDI traces (Lee et al., "Understanding Storage Traffic Characteristics
//! on Enterprise Virtual Desktop Infrastructure", SYSTOR 2017), as distributed by the SNIA IOTTA
//! Repository: CSV with the header
//!
//! `Timestamp,Response,IOType,LUN,Offset,Size`
//!
//! Timestamp and Response in decimal seconds, IOType `R` or `W`, Offset and Size in bytes. The
//! device is the LUN.

use super::columns::{Clock, Columns};
use super::{Op, TraceRecord};

pub const HEADER: &str = "Timestamp,Response,IOType,LUN,Offset,Size";

const COLUMNS: Columns = Columns {
    names: HEADER,
    comma: true,
    fields: 6,
    time: (0, Clock::DecimalSeconds),
    op: (2, &[("R", Op::Read), ("W", Op::Write)]),
    offset: (4, 1),
    len: (5, 1),
    device: 3,
};

pub fn parse(line: &str) -> Result<Option<TraceRecord>, String> {
    if line == HEADER {
        return Ok(None);
    }
    COLUMNS.parse(line).map(Some)
}

pub fn detect(line: &str) -> bool {
    line == HEADER
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_line() {
        assert_eq!(parse(HEADER), Ok(None));
        let r = parse("1456095145.133076000,0.000806000,R,0,899056122368,131072")
            .unwrap()
            .unwrap();
        assert_eq!(r.time_ns, 1_456_095_145_133_076_000);
        assert_eq!(
            (r.op, r.offset_bytes, r.len_bytes, r.device),
            (Op::Read, 899056122368, 131072, 0)
        );
    }
}

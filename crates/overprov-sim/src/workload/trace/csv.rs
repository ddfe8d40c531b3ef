//! overprov's own plain trace CSV: the simplest thing to convert any trace to.
//!
//! ```text
//! # comments and blank lines are ignored
//! time_ns,op,offset_bytes,len_bytes,device
//! 0,W,0,4096,0
//! 1500,R,8192,16384,0
//! 3000,T,0,1048576,0
//! ```
//!
//! The header line is required (it is how the format is recognised). `op` is `W` (write), `R`
//! (read) or `T` (trim); times in ns, offsets and lengths in bytes, device a 32-bit number.

use super::columns::{Clock, Columns};
use super::{Op, TraceRecord};

pub const HEADER: &str = "time_ns,op,offset_bytes,len_bytes,device";

const COLUMNS: Columns = Columns {
    names: HEADER,
    comma: true,
    fields: 5,
    time: (0, Clock::Ticks(1)),
    op: (1, &[("W", Op::Write), ("R", Op::Read), ("T", Op::Trim)]),
    offset: (2, 1),
    len: (3, 1),
    device: 4,
};

pub fn parse(line: &str) -> Result<Option<TraceRecord>, String> {
    if line == HEADER || line.starts_with('#') {
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
    fn parses_lines() {
        assert_eq!(parse(HEADER), Ok(None));
        assert_eq!(parse("# note"), Ok(None));
        let r = parse("3000,T,0,1048576,7").unwrap().unwrap();
        assert_eq!(
            (r.time_ns, r.op, r.offset_bytes, r.len_bytes, r.device),
            (3000, Op::Trim, 0, 1 << 20, 7)
        );
        assert!(parse("3000,X,0,1,7").unwrap_err().contains("op"));
    }
}

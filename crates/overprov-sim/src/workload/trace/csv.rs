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

use super::fields::{device, split_exact, uint};
use super::{Op, TraceRecord};

pub const HEADER: &str = "time_ns,op,offset_bytes,len_bytes,device";

pub fn parse(line: &str) -> Result<Option<TraceRecord>, String> {
    if line == HEADER || line.starts_with('#') {
        return Ok(None);
    }
    let [ts, kind, offset, len, dev] = split_exact::<5>(line, ',')
        .ok_or("expected 5 comma-separated fields: time_ns,op,offset_bytes,len_bytes,device")?;
    let op = match kind {
        "W" => Op::Write,
        "R" => Op::Read,
        "T" => Op::Trim,
        other => return Err(format!("op: expected W, R or T, got {other:?}")),
    };
    Ok(Some(TraceRecord {
        time_ns: uint(ts, "time_ns")?,
        op,
        offset_bytes: uint(offset, "offset_bytes")?,
        len_bytes: uint(len, "len_bytes")?,
        device: device(dev, "device")?,
    }))
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

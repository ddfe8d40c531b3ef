//! Alibaba Cloud block traces (Li et al., "An In-Depth Analysis of Cloud Block Storage Workloads
//! in Large-Scale Production", IISWC 2020; <https://github.com/alibaba/block-traces>, also in the
//! SNIA IOTTA Repository): CSV without a header,
//!
//! `device_id,opcode,offset,length,timestamp`
//!
//! opcode `R` or `W`, offset and length in bytes, timestamp in microseconds (Unix epoch).

use super::fields::{device, mul, split_exact, uint};
use super::{Op, TraceRecord};

pub fn parse(line: &str) -> Result<Option<TraceRecord>, String> {
    let [dev, kind, offset, length, ts] = split_exact::<5>(line, ',')
        .ok_or("expected 5 comma-separated fields: device_id,opcode,offset,length,timestamp")?;
    let op = match kind {
        "W" | "w" => Op::Write,
        "R" | "r" => Op::Read,
        other => return Err(format!("opcode: expected R or W, got {other:?}")),
    };
    Ok(Some(TraceRecord {
        time_ns: mul(uint(ts, "timestamp")?, 1_000, "timestamp")?,
        op,
        offset_bytes: uint(offset, "offset")?,
        len_bytes: uint(length, "length")?,
        device: device(dev, "device_id")?,
    }))
}

pub fn detect(line: &str) -> bool {
    parse(line).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_line() {
        let r = parse("2,W,1614848000,4096,1577808000000045")
            .unwrap()
            .unwrap();
        assert_eq!(r.time_ns, 1_577_808_000_000_045_000);
        assert_eq!(
            (r.op, r.offset_bytes, r.len_bytes, r.device),
            (Op::Write, 1614848000, 4096, 2)
        );
    }
}

//! Tencent Cloud Block Storage traces (Zhang et al., "OSCA: An Online-Model Based Cache
//! Allocation Scheme in Cloud Block Storage Systems", USENIX ATC '20), as distributed by the SNIA
//! IOTTA Repository ("parallel" trace set): CSV without a header,
//!
//! `Timestamp,Offset,Size,IOType,VolumeID`
//!
//! Timestamp in Unix seconds, Offset and Size in 512-byte sectors, IOType `0` read / `1` write.
//! Timestamps are not monotonic within a file (one-second resolution, merged from servers).

use super::fields::{device, mul, split_exact, uint};
use super::{Op, TraceRecord};

pub const SECTOR_BYTES: u64 = 512;

pub fn parse(line: &str) -> Result<Option<TraceRecord>, String> {
    let [ts, offset, size, kind, volume] = split_exact::<5>(line, ',')
        .ok_or("expected 5 comma-separated fields: Timestamp,Offset,Size,IOType,VolumeID")?;
    let op = match kind {
        "1" => Op::Write,
        "0" => Op::Read,
        other => {
            return Err(format!(
                "IOType: expected 0 (read) or 1 (write), got {other:?}"
            ))
        }
    };
    Ok(Some(TraceRecord {
        time_ns: mul(uint(ts, "Timestamp")?, 1_000_000_000, "Timestamp")?,
        op,
        offset_bytes: mul(uint(offset, "Offset")?, SECTOR_BYTES, "Offset")?,
        len_bytes: mul(uint(size, "Size")?, SECTOR_BYTES, "Size")?,
        device: device(volume, "VolumeID")?,
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
        let r = parse("1538323200,4247200,128,1,1058").unwrap().unwrap();
        assert_eq!(r.time_ns, 1_538_323_200_000_000_000);
        assert_eq!(
            (r.op, r.offset_bytes, r.len_bytes, r.device),
            (Op::Write, 4247200 * 512, 65536, 1058)
        );
    }
}

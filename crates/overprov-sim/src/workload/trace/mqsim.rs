//! MQSim's ASCII trace format (Tavakkol et al., "MQSim: A Framework for Enabling Realistic
//! Studies of Modern Multi-Queue SSD Devices", USENIX FAST '18; reader in
//! <https://github.com/CMU-SAFARI/MQSim> `src/host/ASCII_Trace_Definition.h` and
//! `src/host/IO_Flow_Trace_Based.cpp`), the DiskSim ASCII layout: one request per line,
//! whitespace-separated,
//!
//! `ArrivalTime DeviceNumber StartLBA SizeInSectors Type`
//!
//! ArrivalTime in ns, LBA and size in 512-byte sectors, Type `0` write / `1` read.

use super::fields::{device, mul, split_ws_exact, uint};
use super::{Op, TraceRecord};

pub const SECTOR_BYTES: u64 = 512;

pub fn parse(line: &str) -> Result<Option<TraceRecord>, String> {
    let [ts, dev, lba, size, kind] = split_ws_exact::<5>(line)
        .ok_or("expected 5 whitespace-separated fields: ArrivalTime DeviceNumber StartLBA SizeInSectors Type")?;
    let op = match kind {
        "0" => Op::Write,
        "1" => Op::Read,
        other => {
            return Err(format!(
                "Type: expected 0 (write) or 1 (read), got {other:?}"
            ))
        }
    };
    Ok(Some(TraceRecord {
        time_ns: uint(ts, "ArrivalTime")?,
        op,
        offset_bytes: mul(uint(lba, "StartLBA")?, SECTOR_BYTES, "StartLBA")?,
        len_bytes: mul(uint(size, "SizeInSectors")?, SECTOR_BYTES, "SizeInSectors")?,
        device: device(dev, "DeviceNumber")?,
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
        let r = parse("4851300 1 524288 16 0").unwrap().unwrap();
        assert_eq!(
            (r.time_ns, r.op, r.offset_bytes, r.len_bytes, r.device),
            (4851300, Op::Write, 524288 * 512, 8192, 1)
        );
        assert!(parse("4851300 1 524288 16 2").unwrap_err().contains("Type"));
    }
}

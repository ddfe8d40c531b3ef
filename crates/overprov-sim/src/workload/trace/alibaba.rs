//! Alibaba Cloud block traces (Li et al., "An In-Depth Analysis of Cloud Block Storage Workloads
//! in Large-Scale Production", IISWC 2020; <https://github.com/alibaba/block-traces>, also in the
//! SNIA IOTTA Repository): CSV without a header,
//!
//! `device_id,opcode,offset,length,timestamp`
//!
//! opcode `R` or `W`, offset and length in bytes, timestamp in microseconds (Unix epoch), as the
//! repository's README ("Schema", `io_traces.csv`) defines them.

use super::columns::{Clock, Columns};
use super::{Op, TraceRecord};

const COLUMNS: Columns = Columns {
    names: "device_id,opcode,offset,length,timestamp",
    comma: true,
    fields: 5,
    time: (4, Clock::Ticks(1_000)),
    op: (1, &[("R", Op::Read), ("W", Op::Write)]),
    offset: (2, 1),
    len: (3, 1),
    device: 0,
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
    fn parses_the_readme_example_row() {
        // the example values of the schema table in alibaba/block-traces README.md (CC BY 4.0)
        let r = parse("0,R,126703644672,4096,1577808000000626")
            .unwrap()
            .unwrap();
        assert_eq!(r.time_ns, 1_577_808_000_000_626_000);
        assert_eq!(
            (r.op, r.offset_bytes, r.len_bytes, r.device),
            (Op::Read, 126703644672, 4096, 0)
        );
    }

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

//! Format auto-detection from a trace's first meaningful line.
//!
//! Headers decide first (fio's `fio version N iolog`, the SYSTOR '17 header, our CSV header);
//! then the shape of the first line: a blkparse event, 7 MSR fields with `Read`/`Write`, 5 fields
//! with `R`/`W` second (Alibaba) or `0`/`1` fourth (Tencent), 5 whitespace-separated integers
//! (MQSim). The order matters only in that the header formats come first; the line shapes do not
//! overlap.

use super::TraceFormat;

/// Lines starting with this are skipped while detecting (comments in our CSV).
const COMMENT: char = '#';

/// The format of the first meaningful line among `lines`, if any format claims it.
pub fn detect_format<'a>(lines: impl IntoIterator<Item = &'a str>) -> Option<TraceFormat> {
    let first = lines
        .into_iter()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with(COMMENT))?;
    TraceFormat::ALL.into_iter().find(|f| f.detects(first))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_shape_is_claimed_by_one_format() {
        let cases = [
            ("fio version 3 iolog", TraceFormat::FioIolog),
            (
                "Timestamp,Response,IOType,LUN,Offset,Size",
                TraceFormat::Systor,
            ),
            (
                "# x\ntime_ns,op,offset_bytes,len_bytes,device",
                TraceFormat::Csv,
            ),
            (
                "  8,0    3        1     0.000000000   697  Q   W 223490 + 8 [kjournald]",
                TraceFormat::Blkparse,
            ),
            (
                "128166385295514663,hm,0,Write,9056014336,2048,2833",
                TraceFormat::Msr,
            ),
            ("2,W,1614848000,4096,1577808000000045", TraceFormat::Alibaba),
            ("1538323200,4247200,128,1,1058", TraceFormat::Tencent),
            ("4851300 1 524288 16 0", TraceFormat::Mqsim),
        ];
        for (text, want) in cases {
            let claims: Vec<_> = TraceFormat::ALL
                .into_iter()
                .filter(|f| f.detects(text.lines().last().unwrap()))
                .collect();
            assert_eq!(claims, vec![want], "{text}");
            assert_eq!(detect_format(text.lines()), Some(want));
        }
        assert_eq!(detect_format(["hello world"]), None);
    }
}

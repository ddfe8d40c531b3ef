//! Each trace format's detection and line parser, which the reader drives (the formats by name
//! are the configuration's, `crate::config::TraceFormat`).

use super::{alibaba, blkparse, csv, fio_iolog, mqsim, msr, systor, tencent, TraceRecord};
pub use crate::config::TraceFormat;

impl TraceFormat {
    /// Whether one (trimmed, non-empty) first line of a trace has this format's shape.
    pub fn detects(self, line: &str) -> bool {
        match self {
            TraceFormat::Msr => msr::detect(line),
            TraceFormat::Blkparse => blkparse::detect(line),
            TraceFormat::FioIolog => fio_iolog::detect(line),
            TraceFormat::Systor => systor::detect(line),
            TraceFormat::Alibaba => alibaba::detect(line),
            TraceFormat::Tencent => tencent::detect(line),
            TraceFormat::Mqsim => mqsim::detect(line),
            TraceFormat::Csv => csv::detect(line),
        }
    }
}

/// A format's line parser with whatever state it keeps (bounded: a few fields).
#[derive(Debug, Clone)]
pub(super) enum LineParser {
    Stateless(fn(&str) -> std::result::Result<Option<TraceRecord>, String>),
    /// MQSim: stateless, with a fast path for its usual line.
    Mqsim,
    Blkparse(blkparse::Parser),
    Fio(fio_iolog::Parser),
}

impl LineParser {
    pub(super) fn new(format: TraceFormat) -> Self {
        match format {
            TraceFormat::Msr => LineParser::Stateless(msr::parse),
            TraceFormat::Blkparse => LineParser::Blkparse(blkparse::Parser::new()),
            TraceFormat::FioIolog => LineParser::Fio(fio_iolog::Parser::new()),
            TraceFormat::Systor => LineParser::Stateless(systor::parse),
            TraceFormat::Alibaba => LineParser::Stateless(alibaba::parse),
            TraceFormat::Tencent => LineParser::Stateless(tencent::parse),
            TraceFormat::Mqsim => LineParser::Mqsim,
            TraceFormat::Csv => LineParser::Stateless(csv::parse),
        }
    }

    /// A record read straight from the bytes at the start of a line (`buf` runs past the line's
    /// end), and the bytes it took with its newline, when the format has such a fast path and
    /// the line is of its usual shape; otherwise `None` and the reader cuts the line.
    #[inline(always)]
    pub(super) fn parse_line_start(&self, buf: &[u8]) -> Option<(TraceRecord, usize)> {
        match self {
            LineParser::Fio(p) => p.parse_line_start(buf),
            LineParser::Mqsim => mqsim::parse_line_start(buf),
            _ => None,
        }
    }

    #[inline]
    pub(super) fn parse(&mut self, line: &str) -> std::result::Result<Option<TraceRecord>, String> {
        match self {
            LineParser::Stateless(f) => f(line),
            LineParser::Mqsim => mqsim::parse(line),
            LineParser::Blkparse(p) => p.parse(line),
            LineParser::Fio(p) => p.parse(line),
        }
    }
}

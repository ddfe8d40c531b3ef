//! Trace functions of the binding: a streaming summary of a block trace file.

use overprov_sim::workload::trace::{TraceFormat, TraceReader, TraceSummary};
use pyo3::prelude::*;

use crate::errors;

/// Read a trace file to its end (constant memory) and return, as JSON text: the format (detected
/// unless `format` names one), requests and bytes per operation, address and time range, and
/// the bad lines skipped (with `skip_bad_lines`; otherwise the first bad line is an error naming
/// file and line).
#[pyfunction]
#[pyo3(signature = (path, format=None, skip_bad_lines=false))]
fn trace_summary(
    py: Python<'_>,
    path: &str,
    format: Option<&str>,
    skip_bad_lines: bool,
) -> PyResult<String> {
    let run = || -> overprov_sim::Result<String> {
        let format = format.map(TraceFormat::from_name).transpose()?;
        let mut reader = TraceReader::open(path, format, skip_bad_lines)?;
        let s = TraceSummary::scan(&mut reader)?;
        let op = |t: overprov_sim::workload::trace::summary::OpTotals| serde_json::json!({"requests": t.requests, "bytes": t.bytes});
        Ok(serde_json::json!({
            "path": path,
            "format": reader.format().name(),
            "records": s.records(),
            "read": op(s.reads),
            "write": op(s.writes),
            "trim": op(s.trims),
            "min_offset_bytes": s.min_offset_bytes,
            "max_end_bytes": s.max_end_bytes,
            "first_time_ns": s.first_time_ns,
            "last_time_ns": s.last_time_ns,
            "bad_lines": s.bad_lines,
            "first_bad_line": reader.first_bad_line().map(|e| e.to_string()),
        })
        .to_string())
    };
    py.detach(run).map_err(|e| errors::to_py(py, e))
}

/// The trace format names `trace_summary` (and `--trace-format`) accept.
#[pyfunction]
fn trace_formats() -> Vec<&'static str> {
    TraceFormat::ALL.iter().map(|f| f.name()).collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(trace_summary, m)?)?;
    m.add_function(wrap_pyfunction!(trace_formats, m)?)?;
    Ok(())
}

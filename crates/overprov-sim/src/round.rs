//! One profiler round, as the profiler asks for it (`Simulator::run_round`): the request that
//! crosses the Python binding as one serde struct (JSON), so a new round field is one field
//! here with its default, not another positional argument.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// A round of writes on the simulated drive (with `read_percent`, random reads mixed in).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundRequest {
    /// Sequential writes (a precondition pass) rather than random ones.
    #[serde(default)]
    pub sequential: bool,
    /// Bytes per request (fio `bs`).
    pub request_bytes: u32,
    /// Outstanding requests (fio `iodepth` × `numjobs`).
    pub queue_depth: u32,
    /// First logical page of the span the round writes.
    #[serde(default)]
    pub offset_pages: u64,
    /// Logical pages of the span.
    pub span_pages: u64,
    /// Simulated seconds the round lasts; none: write the span once.
    #[serde(default)]
    pub seconds: Option<f64>,
    /// Seed of the round's random order.
    #[serde(default)]
    pub seed: u64,
    /// Simulated seconds the host is idle before the round (after the previous round has
    /// drained): the drive spends them on background work — SLC folding and background
    /// garbage collection, as between open-loop arrivals. 0: the round starts at once.
    #[serde(default)]
    pub idle_seconds: f64,
    /// Share (%) of the round's requests that are reads, drawn over the span as the whole
    /// simulation's `workload.read_percent` draws them (a read of a page never written is
    /// answered without NAND); 0: writes only (the round as before the field).
    #[serde(default)]
    pub read_percent: f64,
}

impl RoundRequest {
    /// Read a round request from JSON; errors name the field.
    pub fn from_json(text: &str) -> Result<Self> {
        let de = &mut serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(de).map_err(|e| Error::Parse {
            field: format!("round.{}", e.path()),
            message: e.inner().to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_round_and_names_an_unknown_field() {
        let r = RoundRequest::from_json(
            r#"{"request_bytes": 4096, "queue_depth": 32, "span_pages": 100, "seconds": 1.5}"#,
        )
        .unwrap();
        assert_eq!(r.offset_pages, 0);
        assert_eq!(r.seconds, Some(1.5));
        assert!(!r.sequential);
        assert_eq!(r.idle_seconds, 0.0);
        assert_eq!(r.read_percent, 0.0);
        let e = RoundRequest::from_json(
            r#"{"request_bytes": 4096, "queue_depth": 32, "span_pages": 1, "qd": 3}"#,
        )
        .unwrap_err();
        assert!(e.to_string().contains("qd"), "{e}");
    }
}

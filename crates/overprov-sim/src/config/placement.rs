//! Data placement (NVMe Flexible Data Placement, or streams): reclaim-unit handles, where each
//! request's placement ID comes from, and the isolation GC keeps between handles.
//!
//! A reclaim-unit handle (RUH) is a write frontier of its own: host writes tagged with its
//! placement ID fill reclaim units (here: erase blocks, or superblocks when a block stands for
//! one) that hold no other handle's host data. One reclaim group spans the whole drive.

use serde::{Deserialize, Serialize};

use super::{percent, SimConfig};
use crate::error::{Error, Result};

/// Most reclaim-unit handles a configuration may have (block stream labels are one byte; real
/// drives offer 8 to 16 handles per reclaim group).
pub const MAX_HANDLES: usize = 16;

/// What GC does with the valid data of different handles (NVMe FDP reclaim-unit handle types).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Isolation {
    /// Host writes of each handle go to reclaim units of their own, but GC relocates the valid
    /// data of every handle into one common GC frontier, so data of different handles mixes
    /// after its first relocation.
    #[default]
    InitiallyIsolated,
    /// GC relocates each handle's valid data into that handle's own GC frontier: data of
    /// different handles never shares a reclaim unit.
    PersistentlyIsolated,
}

impl Isolation {
    pub const ALL: [Isolation; 2] = [
        Isolation::InitiallyIsolated,
        Isolation::PersistentlyIsolated,
    ];
}

/// Where each request's placement ID comes from.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PlacementSource {
    /// The workload's stream (zone) of the request: placement ID = zone index, in the order of
    /// `workload.zones` (hot/cold: hot 0, cold 1; JESD219: its three zones).
    #[default]
    Workload,
    /// An LBA-range map (`placement.ranges`), like fio's `dp_scheme`.
    Ranges,
}

impl PlacementSource {
    pub const ALL: [PlacementSource; 2] = [PlacementSource::Workload, PlacementSource::Ranges];
}

/// One entry of an LBA-range map: requests starting in `[start_percent, end_percent)` of the
/// user capacity carry placement ID `id`. LBAs no range covers carry placement ID 0.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PlacementRange {
    pub start_percent: f64,
    pub end_percent: f64,
    pub id: u8,
}

/// Data placement; off by default (then the drive has the write frontiers `ftl` sets).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[serde(deny_unknown_fields, default)]
pub struct PlacementConfig {
    /// Give each placement ID a reclaim-unit handle of its own.
    pub enabled: bool,
    /// `initially-isolated` or `persistently-isolated`.
    pub isolation: Isolation,
    /// `workload` (the request's stream) or `ranges` (the LBA-range map).
    pub source: PlacementSource,
    /// The LBA-range map, for `source = "ranges"`.
    pub ranges: Vec<PlacementRange>,
}

impl PlacementConfig {
    /// Off, as by default (the report then leaves the section out).
    pub fn is_off(&self) -> bool {
        *self == PlacementConfig::default()
    }

    /// The LBA-range map in pages of `user_pages`: (first page, end page, placement ID).
    pub fn range_pages(&self, user_pages: u32) -> Vec<(u32, u32, u8)> {
        let at = |p: f64| ((user_pages as f64) * p / 100.0).round() as u32;
        self.ranges
            .iter()
            .map(|r| (at(r.start_percent), at(r.end_percent), r.id))
            .collect()
    }
}

impl SimConfig {
    /// Reclaim-unit handles when placement is on: one per workload stream, or the highest
    /// placement ID of the range map + 1.
    pub(crate) fn handle_count(&self) -> Result<usize> {
        let p = &self.placement;
        let n = match p.source {
            PlacementSource::Workload => self.zones().map_or(1, |z| z.len()),
            PlacementSource::Ranges => p
                .ranges
                .iter()
                .map(|r| r.id as usize + 1)
                .max()
                .unwrap_or(1),
        };
        if n > MAX_HANDLES {
            return Err(Error::config(
                "placement",
                format!("at most {MAX_HANDLES} reclaim-unit handles, the placement gives {n}"),
            ));
        }
        Ok(n)
    }

    /// Check the placement section against the rest of the configuration.
    pub(crate) fn validate_placement(&self) -> Result<()> {
        let p = &self.placement;
        if !p.enabled {
            if !p.is_off() {
                return Err(Error::config(
                    "placement.enabled",
                    "placement fields are set but placement is off: set enabled = true",
                ));
            }
            return Ok(());
        }
        if self.ftl.host_streams != super::HostStreams::Single {
            return Err(Error::config(
                "ftl.host_streams",
                "placement gives each placement ID its own frontier: leave host_streams single",
            ));
        }
        if self.ftl.gc_frontier != super::GcFrontier::Separate {
            return Err(Error::config(
                "ftl.gc_frontier",
                "placement.isolation sets where GC writes: leave gc_frontier separate",
            ));
        }
        if self.timing.host.layered() {
            return Err(Error::config(
                "placement.enabled",
                "placement runs on one drive with one job (no numjobs above 1 or array)",
            ));
        }
        match p.source {
            PlacementSource::Workload => {
                if self.trace.enabled() {
                    return Err(Error::config(
                        "placement.source",
                        "a trace has no workload streams: use source = \"ranges\"",
                    ));
                }
                if !p.ranges.is_empty() {
                    return Err(Error::config(
                        "placement.ranges",
                        "ranges are read only with source = \"ranges\"",
                    ));
                }
            }
            PlacementSource::Ranges => {
                if p.ranges.is_empty() {
                    return Err(Error::config(
                        "placement.ranges",
                        "source = \"ranges\" needs at least one range",
                    ));
                }
                let mut spans: Vec<(f64, f64)> = Vec::new();
                for (i, r) in p.ranges.iter().enumerate() {
                    let field = format!("placement.ranges[{i}]");
                    percent(&format!("{field}.start_percent"), r.start_percent, false)?;
                    percent(&format!("{field}.end_percent"), r.end_percent, true)?;
                    if r.end_percent <= r.start_percent {
                        return Err(Error::config(
                            format!("{field}.end_percent"),
                            "must be above start_percent",
                        ));
                    }
                    if spans
                        .iter()
                        .any(|&(s, e)| r.start_percent < e && s < r.end_percent)
                    {
                        return Err(Error::config(field, "overlaps an earlier range"));
                    }
                    spans.push((r.start_percent, r.end_percent));
                }
            }
        }
        Ok(())
    }
}

/// Placement ID of logical page `lpn` under a range map in pages (see
/// [`PlacementConfig::range_pages`]); 0 where no range covers it.
#[inline]
pub fn handle_of(ranges: &[(u32, u32, u8)], lpn: u32) -> u8 {
    ranges
        .iter()
        .find(|&&(s, e, _)| lpn >= s && lpn < e)
        .map_or(0, |r| r.2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{from_json, Pattern, Zone};

    #[test]
    fn ranges_route_pages_and_default_to_zero() {
        let p = PlacementConfig {
            enabled: true,
            source: PlacementSource::Ranges,
            ranges: vec![
                PlacementRange {
                    start_percent: 0.0,
                    end_percent: 10.0,
                    id: 2,
                },
                PlacementRange {
                    start_percent: 50.0,
                    end_percent: 100.0,
                    id: 1,
                },
            ],
            ..PlacementConfig::default()
        };
        let r = p.range_pages(1000);
        assert_eq!(r, vec![(0, 100, 2), (500, 1000, 1)]);
        assert_eq!(handle_of(&r, 0), 2);
        assert_eq!(handle_of(&r, 99), 2);
        assert_eq!(handle_of(&r, 100), 0);
        assert_eq!(handle_of(&r, 999), 1);
    }

    #[test]
    fn validation_names_the_field() {
        let bad = |json: &str, field: &str| {
            let e = from_json(json).unwrap().validate().unwrap_err().to_string();
            assert!(e.starts_with(field), "{e}");
        };
        bad(
            r#"{"placement": {"enabled": true, "source": "ranges"}}"#,
            "placement.ranges",
        );
        bad(
            r#"{"placement": {"enabled": true, "source": "ranges", "ranges": [
                {"start_percent": 0, "end_percent": 60, "id": 0},
                {"start_percent": 50, "end_percent": 100, "id": 1}]}}"#,
            "placement.ranges[1]",
        );
        bad(
            r#"{"placement": {"isolation": "persistently-isolated"}}"#,
            "placement.enabled",
        );
        bad(
            r#"{"placement": {"enabled": true}, "ftl": {"host_streams": "workload"}}"#,
            "ftl.host_streams",
        );
    }

    #[test]
    fn the_defaults_name_the_placement_section() {
        let v: serde_json::Value = serde_json::from_str(&crate::config::defaults_json()).unwrap();
        assert_eq!(v["placement"]["enabled"], false);
        assert_eq!(v["placement"]["isolation"], "initially-isolated");
        // and a report of a run without placement leaves it out
        let c = serde_json::to_value(SimConfig::default()).unwrap();
        assert!(c.get("placement").is_none());
    }

    #[test]
    fn handles_follow_the_workload_streams() {
        let mut c = SimConfig::default();
        c.placement.enabled = true;
        c.workload.pattern = Pattern::Zoned;
        c.workload.zones = vec![
            Zone {
                access_percent: 50.0,
                space_percent: 10.0,
                sequential: false,
            },
            Zone {
                access_percent: 30.0,
                space_percent: 30.0,
                sequential: true,
            },
            Zone {
                access_percent: 20.0,
                space_percent: 60.0,
                sequential: false,
            },
        ];
        c.validate().unwrap();
        assert_eq!(c.stream_count().unwrap(), 3);
        // initially isolated: three host frontiers and one common GC frontier
        assert_eq!(c.frontier_count(3), 4);
        c.placement.isolation = Isolation::PersistentlyIsolated;
        assert_eq!(c.frontier_count(3), 6);
    }
}

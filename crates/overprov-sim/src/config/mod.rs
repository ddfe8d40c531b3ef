//! Typed, validated simulator configuration. One struct per layer; every field has a default,
//! a unit in its name where one applies, and help text here. `validate()` checks everything
//! before a run starts and names the offending field in its error.

mod ftl;
mod gc_timing;
mod geometry;
mod host;
mod layout;
mod placement;
mod timing;
mod trace;
mod valid;
mod workload;

pub use ftl::*;
pub use gc_timing::*;
pub use geometry::*;
pub use host::*;
pub use layout::{Extent, Layout};
pub use placement::*;
pub use timing::*;
pub use trace::*;
pub use valid::ValidConfig;
pub use workload::*;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::geometry::Geometry;

/// Whether a field holds its type's default (serde's `skip_serializing_if` for the optional
/// fields a configuration echoes only when set).
pub(crate) fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// The whole simulation: what the drive is, how its FTL behaves, what the host does.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SimConfig {
    pub geometry: GeometryConfig,
    pub ftl: FtlConfig,
    pub wear: WearConfig,
    pub workload: WorkloadConfig,
    pub precondition: PreconditionConfig,
    pub run: RunConfig,
    /// Simulated time (IOPS, latency, performance states); off by default.
    pub timing: TimingConfig,
    /// A block trace replayed instead of the synthetic workload (off by default).
    pub trace: TraceConfig,
    /// Data placement (FDP reclaim-unit handles); off by default and then left out of reports.
    #[serde(skip_serializing_if = "PlacementConfig::is_off")]
    pub placement: PlacementConfig,
}

/// The names each enum field of the configuration accepts, by field (`ftl.policy`, ...), as
/// serde spells them: the one list front ends offer as choices.
pub fn choices() -> Vec<(&'static str, Vec<String>)> {
    fn names<T: Serialize>(all: &[T]) -> Vec<String> {
        all.iter()
            .map(|v| match serde_json::to_value(v) {
                Ok(serde_json::Value::String(s)) => s,
                other => unreachable!("a unit variant serialises as a string, got {other:?}"),
            })
            .collect()
    }
    vec![
        ("ftl.policy", names(&PolicyKind::ALL)),
        ("ftl.gc_frontier", names(&GcFrontier::ALL)),
        ("ftl.gc_trigger", names(&CollectionTrigger::ALL)),
        ("ftl.host_streams", names(&HostStreams::ALL)),
        ("workload.pattern", names(&Pattern::ALL)),
        ("placement.isolation", names(&Isolation::ALL)),
        ("placement.source", names(&PlacementSource::ALL)),
        ("precondition.kind", names(&Precondition::ALL)),
        (
            "trace.format",
            TraceFormat::ALL
                .iter()
                .map(|f| f.name().to_string())
                .collect(),
        ),
    ]
}

/// Every field with its default, as JSON: the sections a report leaves out when off
/// (`placement`, the SLC cache's `static_bytes` and `dynamic_space`, the NAND's
/// `program_granularity` and `planes_per_die`, the host's `link_booking`, `timing.gc.multiplane`,
/// `multiplane_offsets`, `trigger`, `erase_hold`, `relocations_at_trigger`, `collections_first`,
/// `collections_in_flight`, `paired_reads` and `lockstep_figures`, the FTL's victim
/// floor and `gc_trigger`) included, so front ends can check a config file's keys against it.
pub fn defaults_json() -> String {
    let mut v = serde_json::to_value(SimConfig::default()).expect("the config serialises");
    v["placement"] = serde_json::to_value(PlacementConfig::default()).expect("it serialises");
    v["timing"]["slc"]["static_bytes"] = 0.into();
    v["timing"]["slc"]["dynamic_space"] = "free".into();
    v["timing"]["nand"]["program_granularity"] = "unit".into();
    v["timing"]["host"]["link_booking"] = "in-order".into();
    v["timing"]["nand"]["planes_per_die"] = 1.into();
    v["timing"]["gc"]["multiplane"] = false.into();
    v["timing"]["gc"]["multiplane_offsets"] = 0.into();
    v["timing"]["gc"]["trigger"] = "victim".into();
    v["timing"]["gc"]["erase_hold"] = false.into();
    v["timing"]["gc"]["relocations_at_trigger"] = false.into();
    v["timing"]["gc"]["collections_first"] = false.into();
    v["timing"]["gc"]["collections_in_flight"] = 0.into();
    v["timing"]["gc"]["paired_reads"] = false.into();
    v["timing"]["gc"]["lockstep_figures"] = false.into();
    v["ftl"]["gc_victim_min_invalid_fraction"] = serde_json::Value::Null;
    v["ftl"]["gc_forced_free_blocks"] = serde_json::Value::Null;
    v["ftl"]["gc_until_free_fraction"] = serde_json::Value::Null;
    v["ftl"]["gc_trigger"] = "batched".into();
    v.to_string()
}

/// How long to run and what to record.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct RunConfig {
    /// Host writes in the measured part, in user capacities ("drive writes").
    pub drive_writes: f64,
    /// Host writes before measurement starts (not counted in the measured WAF).
    pub warmup_drive_writes: f64,
    /// Record an interval every this percent of user capacity written by the host.
    pub interval_percent: f64,
    /// Seed: the same seed and config give the same result.
    pub seed: u64,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            drive_writes: 4.0,
            warmup_drive_writes: 2.0,
            interval_percent: 1.0,
            seed: 1,
        }
    }
}

/// Parse a configuration from JSON text, naming the field of any error.
pub fn from_json(text: &str) -> Result<SimConfig> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| Error::Parse {
        field: e.path().to_string(),
        message: e.inner().to_string(),
    })
}

pub(crate) fn finite(field: &str, v: f64) -> Result<f64> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(Error::config(
            field,
            format!("must be a finite number, got {v}"),
        ))
    }
}

pub(crate) fn percent(field: &str, v: f64, lo_exclusive: bool) -> Result<f64> {
    finite(field, v)?;
    let ok = if lo_exclusive {
        v > 0.0 && v <= 100.0
    } else {
        (0.0..=100.0).contains(&v)
    };
    if !ok {
        let lo = if lo_exclusive { "above 0" } else { "0" };
        return Err(Error::config(
            field,
            format!("must be {lo} to 100 percent, got {v}"),
        ));
    }
    Ok(v)
}

impl SimConfig {
    /// Validate every field; returns the resolved geometry.
    pub fn validate(&self) -> Result<Geometry> {
        let g = self.geometry.resolve()?;
        let f = &self.ftl;
        if f.gc_free_blocks == 0 {
            return Err(Error::config("ftl.gc_free_blocks", "must be at least 1"));
        }
        if f.policy == PolicyKind::DChoices && f.d_choices == 0 {
            return Err(Error::config("ftl.d_choices", "must be at least 1"));
        }
        self.validate_placement()?;
        f.validate_trigger(self.timing.enabled && self.timing.gc.trigger == GcTrigger::Writer)?;
        let streams = self.stream_count()?;
        f.validate_plane_pools(
            g.spare_blocks(),
            streams == 1 && !self.placement.enabled,
            self.timing.enabled && self.timing.gc.trigger == GcTrigger::Writer,
        )?;
        f.validate_channel_pools(
            streams == 1 && !self.placement.enabled,
            self.timing.enabled && self.timing.gc.trigger == GcTrigger::Writer,
            self.wear.dynamic,
        )?;
        let t = &self.timing;
        let slots = t.dies() * t.nand.planes_per_die;
        if f.plane_pools >= 2 && t.enabled && t.gc.multiplane_offsets > 0 && f.plane_pools != slots
        {
            return Err(Error::config(
                "ftl.plane_pools",
                format!("with timing.gc.multiplane_offsets, one pool a plane: {slots}"),
            ));
        }
        let frontiers = self.frontier_count(streams) as u64;
        // GC must free a block whenever it takes any victim: at its lowest trigger (the forced
        // one under a victim floor) the closed blocks then hold more pages than the user space
        // (and, collecting to a low mark without a floor, at that mark)
        let floor = f.validate_victim_floor()?;
        let until = f.until_free_blocks(g.blocks)?;
        let trigger = floor.unwrap_or(until);
        let what = match (floor, f.gc_until_free_fraction) {
            (None, Some(_)) => "GC low mark",
            _ => "GC trigger",
        };
        let need = trigger as u64 + frontiers + 1;
        if g.spare_blocks() < need {
            return Err(Error::config(
                "geometry",
                format!(
                    "OP too small to collect garbage: {} spare blocks (ρ = {:.4}), need at least \
                     {need} ({trigger} {what} + {frontiers} open write frontiers + 1)",
                    g.spare_blocks(),
                    g.op_ratio(),
                ),
            ));
        }
        if self.wear.static_threshold > 0 && self.wear.static_check_erases == 0 {
            return Err(Error::config(
                "wear.static_check_erases",
                "must be at least 1",
            ));
        }
        let w = &self.workload;
        percent("workload.span_percent", w.span_percent, true)?;
        percent("workload.read_percent", w.read_percent, false)?;
        percent("workload.trim_percent", w.trim_percent, false)?;
        if w.read_percent + w.trim_percent >= 100.0 {
            return Err(Error::config(
                "workload.read_percent",
                "read_percent + trim_percent must leave room for writes (below 100)",
            ));
        }
        if w.request_bytes == 0 {
            return Err(Error::config(
                "workload.request_bytes",
                "must be at least 1",
            ));
        }
        if let Some(s) = &w.bssplit {
            parse_bssplit(s).map_err(|e| Error::config("workload.bssplit", e))?;
        }
        let span_pages = self.span_pages(&g);
        if span_pages == 0 {
            return Err(Error::config(
                "workload.span_percent",
                "the span holds no whole page",
            ));
        }
        let max_req = self.request_sizes()?.iter().map(|s| s.0).max().unwrap_or(0);
        let max_pages = (max_req as u64).div_ceil(g.page_size_bytes as u64);
        if max_pages > span_pages {
            return Err(Error::config(
                "workload.request_bytes",
                format!(
                    "a request of {max_req} bytes does not fit in the span ({span_pages} pages)"
                ),
            ));
        }
        match w.pattern {
            Pattern::HotCold => {
                percent("workload.hot_access_percent", w.hot_access_percent, false)?;
                percent("workload.hot_space_percent", w.hot_space_percent, true)?;
                if w.hot_space_percent >= 100.0 {
                    return Err(Error::config(
                        "workload.hot_space_percent",
                        "must be below 100",
                    ));
                }
            }
            Pattern::Zoned => {
                if w.zones.is_empty() {
                    return Err(Error::config(
                        "workload.zones",
                        "a zoned workload needs zones",
                    ));
                }
                check_zones(&w.zones)?;
            }
            Pattern::Zipf => {
                finite("workload.zipf_theta", w.zipf_theta)?;
                if w.zipf_theta <= 0.0 {
                    return Err(Error::config("workload.zipf_theta", "must be above 0"));
                }
            }
            _ => {}
        }
        let placed_by_zone =
            self.placement.enabled && self.placement.source == PlacementSource::Workload;
        check_zones_scattered(w.zones_scattered, self.zones(), placed_by_zone)?;
        let r = &self.run;
        finite("run.drive_writes", r.drive_writes)?;
        finite("run.warmup_drive_writes", r.warmup_drive_writes)?;
        if r.drive_writes <= 0.0 {
            return Err(Error::config("run.drive_writes", "must be above 0"));
        }
        if r.warmup_drive_writes < 0.0 {
            return Err(Error::config(
                "run.warmup_drive_writes",
                "must be 0 or more",
            ));
        }
        if (r.drive_writes + r.warmup_drive_writes) * g.user_pages as f64 > 1e15 {
            // the field that holds most of them: the one a user mistyped
            let field = if r.warmup_drive_writes > r.drive_writes {
                "run.warmup_drive_writes"
            } else {
                "run.drive_writes"
            };
            return Err(Error::config(field, "too many host writes to simulate"));
        }
        finite("run.interval_percent", r.interval_percent)?;
        if r.interval_percent <= 0.0 {
            return Err(Error::config("run.interval_percent", "must be above 0"));
        }
        self.timing.validate(&g)?;
        self.timing.host.validate_layers(&self.timing, &g)?;
        self.trace.validate()?;
        if self.trace.enabled() && self.timing.host.layered() {
            return Err(Error::config(
                "trace.path",
                "a trace replays on one drive with one job: no timing.host.numjobs above 1 or \
                 timing.host.array with it",
            ));
        }
        Ok(g)
    }

    /// Pages in the accessed span (the first `span_percent` of user pages).
    pub fn span_pages(&self, g: &Geometry) -> u64 {
        ((g.user_pages as f64) * self.workload.span_percent / 100.0).floor() as u64
    }

    /// The zones in use, if the pattern has zones (hot/cold, zoned, JESD219).
    pub fn zones(&self) -> Option<Vec<Zone>> {
        let w = &self.workload;
        match w.pattern {
            Pattern::HotCold => Some(vec![
                Zone {
                    access_percent: w.hot_access_percent,
                    space_percent: w.hot_space_percent,
                    sequential: false,
                },
                Zone {
                    access_percent: 100.0 - w.hot_access_percent,
                    space_percent: 100.0 - w.hot_space_percent,
                    sequential: false,
                },
            ]),
            Pattern::Zoned => Some(w.zones.clone()),
            Pattern::Jesd219 => Some(JESD219_ZONES.to_vec()),
            _ => None,
        }
    }

    /// Request sizes in bytes with weights.
    pub fn request_sizes(&self) -> Result<Vec<(u32, f64)>> {
        let w = &self.workload;
        if let Some(s) = &w.bssplit {
            return parse_bssplit(s).map_err(|e| Error::config("workload.bssplit", e));
        }
        if w.pattern == Pattern::Jesd219 {
            return Ok(parse_bssplit(JESD219_BSSPLIT).expect("built-in bssplit parses"));
        }
        Ok(vec![(w.request_bytes, 100.0)])
    }

    /// Number of host write streams.
    pub fn stream_count(&self) -> Result<usize> {
        if self.placement.enabled {
            return self.handle_count();
        }
        Ok(match self.ftl.host_streams {
            HostStreams::Single => 1,
            HostStreams::Workload => {
                let n = self.zones().map_or(1, |z| z.len());
                if n > 16 {
                    return Err(Error::config(
                        "ftl.host_streams",
                        format!("at most 16 streams, the workload has {n} zones"),
                    ));
                }
                n
            }
        })
    }

    /// Open write frontiers: one per host stream, plus one GC frontier per stream if separate.
    pub fn frontier_count(&self, streams: usize) -> usize {
        if self.ftl.channel_pools >= 2 {
            return self.ftl.channel_pools as usize; // one open block a channel
        }
        if self.placement.enabled {
            return match self.placement.isolation {
                Isolation::InitiallyIsolated => streams + 1,
                Isolation::PersistentlyIsolated => 2 * streams,
            };
        }
        match self.ftl.gc_frontier {
            GcFrontier::Separate => 2 * streams,
            GcFrontier::Shared => streams,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_is_read_back_and_no_other() {
        for (field, names) in choices() {
            let (section, key) = field.split_once('.').unwrap();
            let mut seen = std::collections::HashSet::new();
            for name in &names {
                assert!(seen.insert(name.clone()), "{field}: {name} twice");
                if section == "trace" {
                    continue; // read by the trace reader, not as a SimConfig field
                }
                let json = format!(r#"{{"{section}": {{"{key}": "{name}"}}}}"#);
                from_json(&json).unwrap_or_else(|e| panic!("{field} = {name}: {e}"));
            }
            if section != "trace" {
                let json = format!(r#"{{"{section}": {{"{key}": "nonesuch"}}}}"#);
                assert!(from_json(&json).is_err(), "{field} accepted nonesuch");
            }
        }
    }

    #[test]
    fn defaults_validate() {
        let g = SimConfig::default().validate().unwrap();
        assert_eq!(g.user_pages, 1 << 20);
        assert!((g.op_ratio() - 0.28).abs() < 1e-3);
    }

    #[test]
    fn unknown_field_and_variant_are_named() {
        let e = from_json(r#"{"ftl": {"polcy": "greedy"}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("ftl") && e.contains("polcy"), "{e}");
        let e = from_json(r#"{"ftl": {"policy": "smart"}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("ftl.policy") && e.contains("greedy"), "{e}");
    }

    #[test]
    fn too_many_host_writes_names_the_field_that_holds_most() {
        for (run, field) in [
            (r#"{"drive_writes": 1e9}"#, "run.drive_writes"),
            (r#"{"warmup_drive_writes": 1e9}"#, "run.warmup_drive_writes"),
        ] {
            let c = from_json(&format!(r#"{{"run": {run}}}"#)).unwrap();
            let e = c.validate().unwrap_err().to_string();
            assert!(
                e.starts_with(field) && e.contains("too many host writes"),
                "{e}"
            );
        }
    }

    #[test]
    fn bssplit_parses_jesd219() {
        let v = parse_bssplit(JESD219_BSSPLIT).unwrap();
        assert_eq!(v.len(), 12);
        assert_eq!(v[0], (512, 4.0));
        assert_eq!(v[11], (65536, 3.0));
        assert!((v.iter().map(|x| x.1).sum::<f64>() - 100.0).abs() < 1e-9);
        assert!(parse_bssplit("4k").is_err());
        assert!(parse_bssplit("4q/10").is_err());
    }

    #[test]
    fn extra_op_on_an_advertised_drive() {
        let mut c = SimConfig {
            geometry: GeometryConfig {
                user_pages: None,
                op_ratio: None,
                extra_op_percent: Some(0.0),
                advertised_bytes: Some(128_000_000_000),
                pages_per_block: 256,
                ..GeometryConfig::default()
            },
            ..SimConfig::default()
        };
        let g = c.validate().unwrap();
        // 0% extra OP leaves only the hidden 7.37% (less what rounds to whole blocks).
        assert!((g.op_ratio() - 0.0737).abs() < 0.001, "{}", g.op_ratio());
        c.geometry.extra_op_percent = Some(20.0);
        let g = c.validate().unwrap();
        assert!(
            (g.op_ratio() - (1.0737 / 0.8 - 1.0)).abs() < 0.001,
            "{}",
            g.op_ratio()
        );
    }
}

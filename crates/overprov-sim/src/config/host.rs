//! The host side beyond one queue on one drive: several closed-loop jobs (fio's `numjobs`) and an
//! array of identical drives (Linux md RAID-0, RAID-1, RAID-10). Both live in `[timing.host]`
//! beside `queue_depth`, which is each job's iodepth: numjobs × queue_depth requests are
//! outstanding, as in fio.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::geometry::Geometry;

use super::{HostConfig, HostMode, TimingConfig};

/// The array level, in md's numbers.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
pub enum RaidLevel {
    /// One drive, no array.
    #[default]
    #[serde(rename = "none")]
    None,
    /// Striping by chunk over the members.
    #[serde(rename = "0")]
    Raid0,
    /// Every member holds all the data.
    #[serde(rename = "1")]
    Raid1,
    /// Stripes over mirrored pairs (md raid10, "near 2" layout).
    #[serde(rename = "10")]
    Raid10,
}

impl RaidLevel {
    pub fn name(self) -> &'static str {
        match self {
            RaidLevel::None => "none",
            RaidLevel::Raid0 => "0",
            RaidLevel::Raid1 => "1",
            RaidLevel::Raid10 => "10",
        }
    }
}

/// An array of `members` identical simulated drives, each with its own FTL and NAND timing.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ArrayConfig {
    /// "none" (one drive), "0", "1" or "10".
    pub raid: RaidLevel,
    /// Drives in the array (RAID-0 and RAID-1: at least 2; RAID-10: an even number, at least 4).
    pub members: u32,
    /// Stripe chunk in bytes (RAID-0 and RAID-10), a multiple of the mapping page. Default
    /// 512 KiB, mdadm's default chunk.
    pub chunk_bytes: u64,
}

impl Default for ArrayConfig {
    fn default() -> Self {
        ArrayConfig {
            raid: RaidLevel::None,
            members: 2,
            chunk_bytes: 512 << 10,
        }
    }
}

impl HostConfig {
    /// Whether the run needs the host layer (`crate::host`): more than one job, or an array.
    pub fn layered(&self) -> bool {
        self.numjobs > 1 || self.array.raid != RaidLevel::None
    }

    /// Drives the host sees: 1 without an array.
    pub fn drives(&self) -> u32 {
        if self.array.raid == RaidLevel::None {
            1
        } else {
            self.array.members
        }
    }

    pub(crate) fn validate_layers(&self, t: &TimingConfig, g: &Geometry) -> Result<()> {
        if self.numjobs == 0 || self.numjobs > 4096 {
            return Err(Error::config("timing.host.numjobs", "must be 1 to 4096"));
        }
        if !self.layered() {
            return Ok(());
        }
        let field = if self.numjobs > 1 {
            "timing.host.numjobs"
        } else {
            "timing.host.array.raid"
        };
        if !t.enabled {
            return Err(Error::config(
                field,
                "needs simulated time (timing.enabled, --timed or --preset)",
            ));
        }
        if self.mode != HostMode::Closed {
            return Err(Error::config(
                field,
                "needs the closed loop (timing.host.mode = \"closed\")",
            ));
        }
        let a = &self.array;
        let m = a.members;
        match a.raid {
            RaidLevel::None => {}
            RaidLevel::Raid0 | RaidLevel::Raid1 if !(2..=64).contains(&m) => {
                return Err(Error::config(
                    "timing.host.array.members",
                    format!("RAID-{} needs 2 to 64 members, got {m}", a.raid.name()),
                ))
            }
            RaidLevel::Raid10 if !(4..=64).contains(&m) || m % 2 != 0 => {
                return Err(Error::config(
                    "timing.host.array.members",
                    format!("RAID-10 needs an even number of members, 4 to 64, got {m}"),
                ))
            }
            _ => {}
        }
        let page = g.page_size_bytes as u64;
        if matches!(a.raid, RaidLevel::Raid0 | RaidLevel::Raid10) {
            if a.chunk_bytes == 0 || a.chunk_bytes % page != 0 {
                return Err(Error::config(
                    "timing.host.array.chunk_bytes",
                    format!(
                        "must be a positive multiple of the mapping page ({page} bytes), got {}",
                        a.chunk_bytes
                    ),
                ));
            }
            if a.chunk_bytes / page > g.user_pages as u64 {
                return Err(Error::config(
                    "timing.host.array.chunk_bytes",
                    "is larger than a member's user capacity",
                ));
            }
        }
        let pages = super::Layout::new(a, g).array_pages();
        if pages > u32::MAX as u64 {
            return Err(Error::config(
                "timing.host.array.members",
                format!(
                    "the array holds {pages} pages, more than 2³² − 1: simulate smaller members"
                ),
            ));
        }
        Ok(())
    }
}

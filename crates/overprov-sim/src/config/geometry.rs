//! Geometry configuration: NAND page and block sizes, capacities and OP, resolved into a
//! [`Geometry`].

use serde::{Deserialize, Serialize};

use super::finite;
use crate::error::{Error, Result};
use crate::geometry::{Geometry, GIB_PER_GB};

/// NAND geometry and capacities. Physical size: `physical_blocks` or `physical_bytes`
/// (or derived from the user size and `op_ratio`, or from `advertised_bytes` as a drive whose
/// NAND is the advertised size in GiB). User size: exactly one of `user_pages`, `user_bytes`,
/// `op_ratio` (ρ) or `extra_op_percent` (of the advertised capacity). What is not stated takes
/// the default drive's value: 2²⁰ user pages (4 GiB of 4 KiB pages) and ρ = 0.28.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct GeometryConfig {
    /// Flash page (and mapping unit) size in bytes.
    pub page_size_bytes: u32,
    /// Pages per erase block (b).
    pub pages_per_block: u32,
    /// Physical erase blocks.
    pub physical_blocks: Option<u64>,
    /// Physical NAND bytes (rounded down to whole blocks).
    pub physical_bytes: Option<u64>,
    /// User capacity as a count of pages (LBAs of page size).
    pub user_pages: Option<u64>,
    /// User capacity in bytes (rounded down to whole pages).
    pub user_bytes: Option<u64>,
    /// Over-provisioning ρ = (T−U)/U, e.g. 0.28.
    pub op_ratio: Option<f64>,
    /// Extra OP in percent of the advertised capacity left unused: U = (1−X)·C.
    pub extra_op_percent: Option<f64>,
    /// Advertised capacity C in bytes (decimal GB on the label). Default with
    /// `extra_op_percent`: physical bytes / 1.0737 (NAND in GiB, drive sold in GB).
    pub advertised_bytes: Option<u64>,
}

impl Default for GeometryConfig {
    fn default() -> Self {
        GeometryConfig {
            page_size_bytes: 4096,
            pages_per_block: 256,
            physical_blocks: None,
            physical_bytes: None,
            user_pages: None,
            user_bytes: None,
            op_ratio: None,
            extra_op_percent: None,
            advertised_bytes: None,
        }
    }
}

/// User pages of the default drive (4 GiB of 4 KiB pages).
pub const DEFAULT_USER_PAGES: u64 = 1 << 20;
/// OP ρ of the default drive.
pub const DEFAULT_OP_RATIO: f64 = 0.28;

impl GeometryConfig {
    /// Resolve the capacities into a concrete geometry, or say which field is wrong.
    pub fn resolve(&self) -> Result<Geometry> {
        let page = self.page_size_bytes as u64;
        let ppb = self.pages_per_block as u64;
        if page == 0 || page % 512 != 0 {
            return Err(Error::config(
                "geometry.page_size_bytes",
                format!("must be a positive multiple of 512, got {page}"),
            ));
        }
        if ppb == 0 {
            return Err(Error::config(
                "geometry.pages_per_block",
                "must be at least 1, got 0",
            ));
        }
        if ppb > 65_536 {
            return Err(Error::config(
                "geometry.pages_per_block",
                format!("must be at most 65536, got {ppb}"),
            ));
        }
        let user_fields = [
            ("user_pages", self.user_pages.is_some()),
            ("user_bytes", self.user_bytes.is_some()),
            ("op_ratio", self.op_ratio.is_some()),
            ("extra_op_percent", self.extra_op_percent.is_some()),
        ];
        let given: Vec<&str> = user_fields.iter().filter(|f| f.1).map(|f| f.0).collect();
        if self.physical_blocks.is_some() && self.physical_bytes.is_some() {
            return Err(Error::config(
                "geometry.physical_blocks",
                "give physical_blocks or physical_bytes, not both",
            ));
        }
        if let Some(x) = self.extra_op_percent {
            finite("geometry.extra_op_percent", x)?;
            if !(0.0..100.0).contains(&x) {
                return Err(Error::config(
                    "geometry.extra_op_percent",
                    format!("must be at least 0 and below 100 percent, got {x}"),
                ));
            }
        }
        if let Some(r) = self.op_ratio {
            finite("geometry.op_ratio", r)?;
            if r <= 0.0 {
                return Err(Error::config(
                    "geometry.op_ratio",
                    format!(
                        "must be above 0 (a drive needs spare space to collect garbage), got {r}"
                    ),
                ));
            }
        }
        // Defaults for what is not stated: a 4 GiB (2²⁰ pages) user capacity and ρ = 0.28.
        let no_size = self.physical_blocks.is_none()
            && self.physical_bytes.is_none()
            && self.advertised_bytes.is_none();
        let mut given = given;
        let (mut user_pages_field, mut op_field) = (self.user_pages, self.op_ratio);
        if no_size {
            match given.as_slice() {
                [] => {
                    user_pages_field = Some(DEFAULT_USER_PAGES);
                    op_field = Some(DEFAULT_OP_RATIO);
                    given = vec!["user_pages", "op_ratio"];
                }
                ["op_ratio"] => {
                    user_pages_field = Some(DEFAULT_USER_PAGES);
                    given = vec!["user_pages", "op_ratio"];
                }
                ["user_pages"] | ["user_bytes"] => {
                    op_field = Some(DEFAULT_OP_RATIO);
                    given.push("op_ratio");
                }
                _ => {}
            }
        }
        let explicit_physical = self
            .physical_blocks
            .or(self.physical_bytes.map(|b| b / (page * ppb)));
        let user_explicit = user_pages_field.or(self.user_bytes.map(|b| b / page));

        let (blocks, user_pages): (u64, u64) =
            match (explicit_physical, given.as_slice()) {
                (Some(blocks), ["user_pages"] | ["user_bytes"]) => {
                    (blocks, user_explicit.unwrap_or(0))
                }
                (Some(blocks), ["op_ratio"]) => {
                    let t = blocks * ppb;
                    (
                        blocks,
                        (t as f64 / (1.0 + self.op_ratio.unwrap_or(0.0))).floor() as u64,
                    )
                }
                (Some(blocks), ["extra_op_percent"]) => {
                    let advertised = self
                        .advertised_bytes
                        .unwrap_or(((blocks * ppb * page) as f64 / GIB_PER_GB) as u64);
                    let x = self.extra_op_percent.unwrap_or(0.0) / 100.0;
                    (
                        blocks,
                        ((1.0 - x) * advertised as f64 / page as f64).floor() as u64,
                    )
                }
                (None, ["user_pages", "op_ratio"] | ["user_bytes", "op_ratio"]) => {
                    let u = user_explicit.unwrap_or(0);
                    let t = (u as f64 * (1.0 + op_field.unwrap_or(0.0))).round() as u64;
                    (t.div_ceil(ppb), u)
                }
                (None, ["extra_op_percent"]) => {
                    let advertised = self.advertised_bytes.ok_or_else(|| {
                        Error::config(
                            "geometry.advertised_bytes",
                            "extra_op_percent without a physical size needs advertised_bytes",
                        )
                    })?;
                    let physical = (advertised as f64 * GIB_PER_GB) as u64;
                    let x = self.extra_op_percent.unwrap_or(0.0) / 100.0;
                    (
                        physical / (page * ppb),
                        ((1.0 - x) * advertised as f64 / page as f64).floor() as u64,
                    )
                }
                (None, _) => {
                    return Err(Error::config(
                        "geometry",
                        "give the physical size (physical_blocks or physical_bytes) and one of \
                     user_pages, user_bytes, op_ratio, extra_op_percent; or user_pages/user_bytes \
                     with op_ratio; or advertised_bytes with extra_op_percent",
                    ))
                }
                (Some(_), _) => {
                    return Err(Error::config(
                        "geometry",
                        format!(
                        "give exactly one of user_pages, user_bytes, op_ratio, extra_op_percent \
                         with a physical size (got {})",
                        if given.is_empty() { "none".to_string() } else { given.join(", ") }
                    ),
                    ))
                }
            };
        if blocks == 0 {
            return Err(Error::config(
                "geometry.physical_blocks",
                "the drive has no blocks",
            ));
        }
        if user_pages == 0 {
            return Err(Error::config(
                "geometry.user_pages",
                "the user capacity is zero pages",
            ));
        }
        if blocks * ppb >= u32::MAX as u64 {
            return Err(Error::config(
                "geometry",
                format!(
                    "{} physical pages exceed the simulator's limit of {} (16 TiB of 4 KiB pages)",
                    blocks * ppb,
                    u32::MAX - 1
                ),
            ));
        }
        if user_pages >= blocks * ppb {
            return Err(Error::config(
                "geometry",
                format!(
                    "user capacity ({user_pages} pages) must be smaller than physical capacity \
                     ({} pages): there is no over-provisioning to collect garbage with",
                    blocks * ppb
                ),
            ));
        }
        Ok(Geometry {
            page_size_bytes: page as u32,
            pages_per_block: ppb as u32,
            blocks: blocks as u32,
            user_pages: user_pages as u32,
        })
    }
}

//! NAND geometry, capacities and over-provisioning arithmetic (docs/concepts.md).
//!
//! Definitions used everywhere: U user (logical) pages, T physical pages,
//! OP ρ = (T−U)/U, α = T/U = 1+ρ, spare factor Sf = (T−U)/T = ρ/(1+ρ).

use serde::Serialize;

/// 1 GiB / 1 GB: NAND is sold in GiB, drives in GB; the ratio − 1 is the 7.37% "hidden" OP.
pub const GIB_PER_GB: f64 = (1u64 << 30) as f64 / 1e9;

/// A resolved, validated geometry. Page numbers fit in `u32` (up to 16 TiB of 4 KiB pages).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Geometry {
    pub page_size_bytes: u32,
    pub pages_per_block: u32,
    /// Physical (erase) blocks.
    pub blocks: u32,
    /// Pages the host can address (U).
    pub user_pages: u32,
}

impl Geometry {
    /// Physical pages T.
    pub fn physical_pages(&self) -> u64 {
        self.blocks as u64 * self.pages_per_block as u64
    }
    pub fn physical_bytes(&self) -> u64 {
        self.physical_pages() * self.page_size_bytes as u64
    }
    pub fn user_bytes(&self) -> u64 {
        self.user_pages as u64 * self.page_size_bytes as u64
    }
    /// OP ρ = (T−U)/U.
    pub fn op_ratio(&self) -> f64 {
        (self.physical_pages() as f64 - self.user_pages as f64) / self.user_pages as f64
    }
    /// Spare factor Sf = (T−U)/T.
    pub fn spare_factor(&self) -> f64 {
        (self.physical_pages() as f64 - self.user_pages as f64) / self.physical_pages() as f64
    }
    /// Whole blocks beyond those needed to hold the user pages.
    pub fn spare_blocks(&self) -> u64 {
        let ppb = self.pages_per_block as u64;
        self.blocks as u64 - (self.user_pages as u64).div_ceil(ppb)
    }
}

/// Division by a run-time constant for 32-bit operands without a `div` instruction:
/// q = ⌊n·M / 2⁶⁴⌋ with M = ⌈2⁶⁴/d⌉, exact for all n, d < 2³² (Lemire, Kaser & Kurz,
/// "Faster remainder by direct computation", Software: Practice and Experience 2019).
#[derive(Debug, Clone, Copy)]
pub struct FastDiv {
    m: u64,
    d: u32,
}

impl FastDiv {
    pub fn new(d: u32) -> Self {
        assert!(d > 0, "FastDiv by zero");
        // d == 1 would overflow M; u64::MAX gives ⌊n(2⁶⁴−1)/2⁶⁴⌋ = n − 1 for n ≥ 1, so special-case.
        let m = if d == 1 { 0 } else { u64::MAX / d as u64 + 1 };
        FastDiv { m, d }
    }
    #[inline(always)]
    pub fn div(&self, n: u32) -> u32 {
        if self.d == 1 {
            return n;
        }
        ((self.m as u128 * n as u128) >> 64) as u32
    }
    pub fn divisor(&self) -> u32 {
        self.d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fastdiv_is_exact() {
        for d in [1u32, 2, 3, 7, 64, 255, 256, 384, 1152, 65_537, u32::MAX] {
            let f = FastDiv::new(d);
            for n in [
                0u32,
                1,
                d.wrapping_sub(1),
                d,
                d.wrapping_add(1),
                123_456_789,
                u32::MAX - 1,
                u32::MAX,
            ] {
                assert_eq!(f.div(n), n / d, "{n}/{d}");
            }
        }
    }

    #[test]
    fn op_arithmetic() {
        let g = Geometry {
            page_size_bytes: 4096,
            pages_per_block: 256,
            blocks: 1280,
            user_pages: 256_000,
        };
        assert!((g.op_ratio() - 0.28).abs() < 1e-12);
        assert!((g.spare_factor() - 0.28 / 1.28).abs() < 1e-12);
        assert_eq!(g.spare_blocks(), 280);
    }
}

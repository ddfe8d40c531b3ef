//! Zipf(θ) ranks in `1..=n` by rejection-inversion, O(1) per sample with no table.
//! W. Hörmann & G. Derflinger, "Rejection-inversion to generate variates from monotone discrete
//! distributions", ACM TOMACS 6(3), 1996 (as in Apache Commons RNG's
//! RejectionInversionZipfSampler).

use crate::rng::Rng;

#[derive(Debug, Clone)]
pub struct Zipf {
    n: f64,
    exponent: f64,
    h_integral_x1: f64,
    h_integral_n: f64,
    s: f64,
}

impl Zipf {
    pub fn new(n: u64, exponent: f64) -> Self {
        assert!(n >= 1 && exponent > 0.0);
        let mut z = Zipf {
            n: n as f64,
            exponent,
            h_integral_x1: 0.0,
            h_integral_n: 0.0,
            s: 0.0,
        };
        z.h_integral_x1 = z.h_integral(1.5) - 1.0;
        z.h_integral_n = z.h_integral(n as f64 + 0.5);
        z.s = 2.0 - z.h_integral_inverse(z.h_integral(2.5) - z.h(2.0));
        z
    }

    /// A rank in 1..=n; rank 1 is the most frequent.
    pub fn sample(&self, rng: &mut Rng) -> u64 {
        loop {
            let u = self.h_integral_n + rng.unit() * (self.h_integral_x1 - self.h_integral_n);
            let x = self.h_integral_inverse(u);
            let k = (x + 0.5).floor().clamp(1.0, self.n);
            if k - x <= self.s || u >= self.h_integral(k + 0.5) - self.h(k) {
                return k as u64;
            }
        }
    }

    fn h(&self, x: f64) -> f64 {
        (-self.exponent * x.ln()).exp()
    }
    fn h_integral(&self, x: f64) -> f64 {
        let log_x = x.ln();
        helper2((1.0 - self.exponent) * log_x) * log_x
    }
    fn h_integral_inverse(&self, x: f64) -> f64 {
        let t = (x * (1.0 - self.exponent)).max(-1.0);
        (helper1(t) * x).exp()
    }
}

/// ln(1+x)/x, continuous at 0.
fn helper1(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        x.ln_1p() / x
    } else {
        1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x))
    }
}

/// (eˣ−1)/x, continuous at 0.
fn helper2(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        x.exp_m1() / x
    } else {
        1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frequencies_follow_the_power_law() {
        let (n, theta) = (1000u64, 0.99);
        let z = Zipf::new(n, theta);
        let mut rng = Rng::new(3);
        let mut counts = vec![0u64; n as usize + 1];
        let draws = 400_000;
        for _ in 0..draws {
            counts[z.sample(&mut rng) as usize] += 1;
        }
        let norm: f64 = (1..=n).map(|k| (k as f64).powf(-theta)).sum();
        for k in [1usize, 2, 10] {
            let expect = draws as f64 * (k as f64).powf(-theta) / norm;
            let rel = (counts[k] as f64 - expect).abs() / expect;
            assert!(rel < 0.05, "rank {k}: {} vs {expect:.0}", counts[k]);
        }
        assert_eq!(counts[0], 0);
    }
}

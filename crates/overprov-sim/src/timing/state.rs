//! Performance states per interval (DOMAIN.md §3, SNIA SSS PTS): fresh-out-of-box (FOB) until
//! garbage collection first runs; steady where a window of five rounds meets the steady-state
//! rule — (max − min) ≤ 20% of the window mean and |least-squares slope × 4| ≤ 10% of the mean;
//! transition otherwise. A round here is one series interval.

use serde::Serialize;

pub const WINDOW: usize = 5;
pub const MAX_RANGE: f64 = 0.20;
pub const MAX_SLOPE_EXCURSION: f64 = 0.10;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    Fob,
    Transition,
    Steady,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Labels {
    pub states: Vec<State>,
    /// The last window (first, last interval) that met the rule.
    pub steady_window: Option<(usize, usize)>,
}

/// Whether `w` (one value per round) meets the SNIA steady-state rule.
pub fn is_steady(w: &[f64]) -> bool {
    let n = w.len() as f64;
    let mean = w.iter().sum::<f64>() / n;
    if mean <= 0.0 {
        return false;
    }
    let (min, max) = w
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    let xbar = (n - 1.0) / 2.0;
    let sxx: f64 = (0..w.len()).map(|i| (i as f64 - xbar).powi(2)).sum();
    let sxy: f64 = w
        .iter()
        .enumerate()
        .map(|(i, &y)| (i as f64 - xbar) * (y - mean))
        .sum();
    let slope = sxy / sxx;
    max - min <= MAX_RANGE * mean && (slope * (n - 1.0)).abs() <= MAX_SLOPE_EXCURSION * mean
}

/// Label each interval; `fob_until` is the first interval in which GC ran.
pub fn label(iops: &[f64], fob_until: usize) -> Labels {
    let n = iops.len();
    let mut states: Vec<State> = (0..n)
        .map(|i| {
            if i < fob_until {
                State::Fob
            } else {
                State::Transition
            }
        })
        .collect();
    let mut last = None;
    if n >= WINDOW {
        for end in WINDOW - 1..n {
            let start = end + 1 - WINDOW;
            if start >= fob_until && is_steady(&iops[start..=end]) {
                states[start..=end]
                    .iter_mut()
                    .for_each(|s| *s = State::Steady);
                last = Some((start, end));
            }
        }
    }
    Labels {
        states,
        steady_window: last,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_on_hand_built_series() {
        assert!(is_steady(&[100.0, 101.0, 99.0, 100.0, 100.5]));
        assert!(!is_steady(&[100.0, 104.0, 108.0, 112.0, 116.0])); // drifting: slope·4 = 16%
        assert!(!is_steady(&[100.0, 75.0, 100.0, 100.0, 100.0])); // range 25%
        assert!(!is_steady(&[0.0; 5]));
    }

    #[test]
    fn fob_transition_steady() {
        let mut iops = vec![5000.0; 4]; // fresh
        iops.extend([3000.0, 2200.0, 1700.0, 1400.0]); // falling
        iops.extend([1200.0, 1210.0, 1195.0, 1205.0, 1200.0, 1198.0]); // steady
        let l = label(&iops, 4);
        assert_eq!(&l.states[..4], &[State::Fob; 4]);
        assert_eq!(l.states[5], State::Transition);
        assert_eq!(l.states[13], State::Steady);
        assert_eq!(l.steady_window, Some((9, 13)));
    }
}

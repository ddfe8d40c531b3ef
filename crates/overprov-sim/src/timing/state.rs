//! Performance states per interval (SNIA SSS PTS; docs/concepts.md): fresh-out-of-box (FOB) until
//! garbage collection first runs; steady where a window of five rounds meets the steady-state
//! rule — (max − min) ≤ 20% of the window mean and |least-squares slope × 4| ≤ 10% of the mean;
//! transition otherwise.
//!
//! A round is a stretch of host writes (`round_drive_writes` of the user capacity; its IOPS the
//! mean of its intervals), not a fixed time: the rule is relative, so rounds sized by data keep
//! the verdict the same whether a drive is simulated full size or scaled down (which compresses
//! time). One-second rounds would call a curve steady that drifts over minutes.

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

/// Label each interval. `drive_writes` is the cumulative host writes (in user capacities) at
/// the end of each interval; `fob_until` the first interval in which GC ran.
pub fn label(iops: &[f64], drive_writes: &[f64], fob_until: usize, round_dw: f64) -> Labels {
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
    // rounds after FOB: (first interval, last interval, mean IOPS)
    let mut rounds: Vec<(usize, usize, f64)> = Vec::new();
    // the round an interval belongs to: the one its end falls in, (k·r, (k+1)·r]
    let round_of = |dw: f64| (dw / round_dw).ceil() - 1.0;
    let mut start = fob_until;
    for i in fob_until..n {
        let key = round_of(drive_writes[i]);
        let next_key = drive_writes.get(i + 1).map(|&d| round_of(d));
        if next_key != Some(key) {
            // a round ends here; the last one counts only if it covers most of a round
            let covered = drive_writes[i]
                - if start > 0 {
                    drive_writes[start - 1]
                } else {
                    0.0
                };
            if next_key.is_some() || covered >= 0.9 * round_dw {
                let mean = iops[start..=i].iter().sum::<f64>() / (i - start + 1) as f64;
                rounds.push((start, i, mean));
            }
            start = i + 1;
        }
    }
    let mut last = None;
    if rounds.len() >= WINDOW {
        for end in WINDOW - 1..rounds.len() {
            let w = &rounds[end + 1 - WINDOW..=end];
            let means: Vec<f64> = w.iter().map(|r| r.2).collect();
            if is_steady(&means) {
                let (a, b) = (w[0].0, w[WINDOW - 1].1);
                states[a..=b].iter_mut().for_each(|s| *s = State::Steady);
                last = Some((a, b));
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
        // 2 intervals per round of 0.25 drive writes
        let mut iops = vec![5000.0; 4]; // fresh
        iops.extend([
            3000.0, 3000.0, 2200.0, 2200.0, 1700.0, 1700.0, 1400.0, 1400.0,
        ]); // falling
        iops.extend([
            1200.0, 1210.0, 1195.0, 1205.0, 1200.0, 1198.0, 1202.0, 1200.0, 1199.0, 1201.0,
        ]);
        let dw: Vec<f64> = (1..=iops.len()).map(|i| i as f64 * 0.125).collect();
        let l = label(&iops, &dw, 4, 0.25);
        assert_eq!(&l.states[..4], &[State::Fob; 4]);
        assert_eq!(l.states[5], State::Transition);
        assert_eq!(l.states[21], State::Steady);
        assert_eq!(l.steady_window, Some((12, 21)));
    }

    #[test]
    fn a_slow_drift_is_not_steady_with_data_sized_rounds() {
        // -0.3% per interval: any 5 intervals look flat, 5 rounds of 10 intervals do not
        let iops: Vec<f64> = (0..200).map(|i| 50_000.0 * 0.997f64.powi(i)).collect();
        let dw: Vec<f64> = (1..=200).map(|i| i as f64 * 0.01).collect();
        assert!(is_steady(&iops[100..105]));
        assert_eq!(label(&iops, &dw, 0, 0.1).steady_window, None);
    }
}

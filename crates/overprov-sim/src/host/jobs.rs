//! Closed-loop jobs, as fio's `numjobs`: each job has its own random stream and keeps its
//! iodepth (`timing.host.queue_depth`) requests outstanding, issuing one when one of its own
//! completes. The next request is the job whose slot frees first (ties: the lower job).
//!
//! Job 0 uses `run.seed` itself, so one job draws the same requests as the single-queue
//! engine; job j > 0 a seed mixed from `run.seed` and j (fio seeds each clone of a job from
//! the job's seed and its number, so clones do not repeat each other's offsets).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::config::SimConfig;
use crate::error::Result;
use crate::geometry::Geometry;
use crate::rng::mix64;
use crate::workload::{Request, Workload};

/// The seed of job `job`'s random stream.
pub fn job_seed(seed: u64, job: u32) -> u64 {
    if job == 0 {
        seed
    } else {
        mix64(seed ^ (job as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }
}

#[derive(Debug, Clone)]
pub struct Jobs {
    streams: Vec<Workload>,
    /// (time the slot frees, job)
    slots: BinaryHeap<Reverse<(u64, u32)>>,
    /// Completions per job.
    ios: Vec<u64>,
    /// Completions per job in each series interval (by completion time).
    per_interval: Vec<Vec<u64>>,
    interval_ns: u64,
}

impl Jobs {
    /// `numjobs` jobs of `iodepth` each over the array's logical pages (`geom`).
    pub fn new(
        config: &SimConfig,
        geom: &Geometry,
        numjobs: u32,
        iodepth: u32,
        interval_ns: u64,
    ) -> Result<Self> {
        let streams = (0..numjobs)
            .map(|j| {
                let mut c = config.clone();
                c.run.seed = job_seed(config.run.seed, j);
                Workload::new(&c, geom)
            })
            .collect::<Result<Vec<_>>>()?;
        let slots = (0..numjobs)
            .flat_map(|j| (0..iodepth).map(move |_| Reverse((0, j))))
            .collect();
        Ok(Jobs {
            streams,
            slots,
            ios: vec![0; numjobs as usize],
            per_interval: vec![Vec::new(); numjobs as usize],
            interval_ns: interval_ns.max(1),
        })
    }

    /// The next issue: the earliest free slot, and its job.
    pub fn next(&mut self) -> (u64, u32) {
        self.slots.pop().map_or((0, 0), |Reverse(s)| s)
    }

    /// The next request of `job`'s stream.
    pub fn request(&mut self, job: u32) -> Request {
        self.streams[job as usize].next_request()
    }

    /// `job`'s request completed at `done`: its slot frees then.
    pub fn complete(&mut self, job: u32, done: u64) {
        self.slots.push(Reverse((done, job)));
        let j = job as usize;
        self.ios[j] += 1;
        let i = (done / self.interval_ns) as usize;
        let series = &mut self.per_interval[j];
        if i >= series.len() {
            series.resize(i + 1, 0);
        }
        series[i] += 1;
    }

    pub fn count(&self) -> usize {
        self.ios.len()
    }

    /// Pages the array's workload addresses (job 0's span; all jobs share it).
    pub fn span_pages(&self) -> u32 {
        self.streams.first().map_or(0, |w| w.span_pages())
    }

    /// Completions of `job` in all, and in series intervals `a ..= b`.
    pub fn ios(&self, job: usize) -> u64 {
        self.ios[job]
    }
    pub fn ios_in(&self, job: usize, a: usize, b: usize) -> u64 {
        let s = &self.per_interval[job];
        s.get(a..=b.min(s.len().saturating_sub(1)))
            .map_or(0, |v| v.iter().sum())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_zero_keeps_the_run_seed_and_others_differ() {
        assert_eq!(job_seed(7, 0), 7);
        let seeds: std::collections::HashSet<u64> = (0..64).map(|j| job_seed(7, j)).collect();
        assert_eq!(seeds.len(), 64);
    }

    #[test]
    fn slots_free_in_time_order_per_job() {
        let c = SimConfig::default();
        let g = c.validate().unwrap();
        let mut jobs = Jobs::new(&c, &g, 3, 2, 1_000).unwrap();
        let mut seen = Vec::new();
        for _ in 0..6 {
            let (t, j) = jobs.next();
            assert_eq!(t, 0);
            seen.push(j);
            jobs.complete(j, 100 + j as u64);
        }
        seen.sort();
        assert_eq!(seen, vec![0, 0, 1, 1, 2, 2]);
        assert_eq!(jobs.next(), (100, 0));
        assert_eq!(jobs.ios(1), 2);
        assert_eq!(jobs.ios_in(2, 0, 5), 2);
    }
}

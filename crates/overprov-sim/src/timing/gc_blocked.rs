//! What blocking GC domains (`gc.blocking = "domain"`, `gc_jobs.rs`) did over the measured
//! phase (the whole run without one): the collections each domain ran and how long it refused
//! host writes, how many domains were collecting at once, and how long host units waited for
//! their domain. Figures only: nothing here changes a booking.

use serde::Serialize;

const NS: f64 = 1e9;

#[derive(Debug, Clone, Default)]
pub struct GcBlockedAcc {
    since_ns: u64,
    jobs: Vec<u64>,
    relocations: u64,
    /// Each domain's refusing time: from a collection's trigger (or the domain's previous
    /// collection's end, if later) to its end.
    blocked_ns: Vec<u64>,
    /// The die time the collections asked for (relocations and erase), and the time from
    /// when each could start on its domain to its end (the excess: programs queued on its die).
    work_ns: u64,
    booked_ns: u64,
    /// Every refusing window, to count how many domains refused at once.
    windows: Vec<(u64, u64)>,
    host_units: u64,
    waited_units: u64,
    wait_ns: u64,
    /// With `timing.gc.lockstep_figures` (figures only), the figures it adds: each
    /// domain's collections' time in flight (trigger to end) and its distinct trigger times,
    /// and the page-offset rule's program mix at the phase's start (None: not collected).
    lockstep: Option<LockstepAcc>,
}

#[derive(Debug, Clone, Default)]
struct LockstepAcc {
    in_flight_ns: Vec<u64>,
    triggers: Vec<u64>,
    last_trigger: Vec<Option<u64>>,
    mix_since: Option<[u64; 5]>,
}

/// Blocking GC domains over the measured phase.
#[derive(Debug, Clone, Serialize)]
pub struct GcBlockedReport {
    /// Simulated time the figures cover (the measured phase's start to the last issue).
    pub span_s: f64,
    /// Collections (jobs) per domain.
    pub jobs: Vec<u64>,
    pub relocations: u64,
    /// Seconds each domain refused host writes.
    pub blocked_s: Vec<f64>,
    /// Seconds during which exactly k domains refused host writes (k = 0, 1, …, domains).
    pub seconds_with_k_blocked: Vec<f64>,
    /// Mean die time a collection asked for, and the mean time from when it could start on its
    /// domain to its end (larger when it waited behind host programs on its die).
    pub job_work_us: Option<f64>,
    pub job_booked_us: Option<f64>,
    /// Host units programmed, those that waited for their domain, and their mean wait.
    pub host_units: u64,
    pub waited_units: u64,
    pub mean_wait_us: Option<f64>,
    /// With `timing.gc.lockstep_figures` only: seconds each domain's collections were
    /// in flight (summed over its collections, each from its trigger to its end: the mean
    /// number in flight is this over `span_s`), and its distinct trigger times (the
    /// collections one trigger starts: `jobs` over this).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub in_flight_s: Vec<f64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<u64>,
    /// With it and the page-offset rule (`timing.gc.multiplane_offsets`): the programs booked
    /// in the phase by what they hold — a relocation alone, a host unit alone, relocations only
    /// (two planes or more), relocations and host units, host units only.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub program_mix: Vec<u64>,
    /// With it and `timing.gc.collections_in_flight`: the collections each domain holds at the
    /// end (triggered, not yet booked: gc_in_flight.rs).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub held_at_end: Vec<u64>,
}

impl GcBlockedAcc {
    pub fn new(domains: usize, since_ns: u64) -> Self {
        Self {
            since_ns,
            jobs: vec![0; domains],
            blocked_ns: vec![0; domains],
            ..Self::default()
        }
    }

    /// Collect the figures `timing.gc.lockstep_figures` adds; `mix`: the page-offset
    /// rule's program mix so far (None without the rule).
    pub fn with_lockstep(mut self, mix: Option<[u64; 5]>) -> Self {
        let n = self.jobs.len();
        self.lockstep = Some(LockstepAcc {
            in_flight_ns: vec![0; n],
            triggers: vec![0; n],
            last_trigger: vec![None; n],
            mix_since: mix,
        });
        self
    }

    /// A collection on domain `d` triggered at `t` ends at `end` (figures only).
    #[inline]
    pub fn in_flight(&mut self, d: usize, t: u64, end: u64) {
        if let Some(l) = &mut self.lockstep {
            l.in_flight_ns[d] += end.saturating_sub(t.max(self.since_ns));
            if l.last_trigger[d] != Some(t) {
                l.last_trigger[d] = Some(t);
                l.triggers[d] += 1;
            }
        }
    }

    /// A collection on domain `d` triggered at `t`, the domain's previous collection ending at
    /// `free`; it could start at `ready`, asked `work_ns` of die time, and ends at `end`.
    #[inline]
    pub fn job(&mut self, d: usize, (t, free, ready): (u64, u64, u64), work_ns: u64, end: u64) {
        let from = t.max(free);
        self.jobs[d] += 1;
        self.blocked_ns[d] += end.saturating_sub(from);
        self.work_ns += work_ns;
        self.booked_ns += end.saturating_sub(ready);
        if end > from {
            self.windows.push((from, end));
        }
    }

    #[inline]
    pub fn relocations(&mut self, n: u64) {
        self.relocations += n;
    }

    /// A host unit that arrived at `arrived` and was accepted by its domain at `accepted`.
    #[inline]
    pub fn host_unit(&mut self, arrived: u64, accepted: u64) {
        self.host_units += 1;
        if accepted > arrived {
            self.waited_units += 1;
            self.wait_ns += accepted - arrived;
        }
    }

    /// The report; `mix`: the page-offset rule's program mix now (None without the rule);
    /// `held`: the collections each domain holds (`collections_in_flight`; empty without).
    pub fn report(&self, now_ns: u64, mix: Option<[u64; 5]>, held: Vec<u64>) -> GcBlockedReport {
        let jobs: u64 = self.jobs.iter().sum();
        let per_job = |ns: u64| (jobs > 0).then(|| ns as f64 / jobs as f64 / 1e3);
        GcBlockedReport {
            span_s: now_ns.saturating_sub(self.since_ns) as f64 / NS,
            jobs: self.jobs.clone(),
            relocations: self.relocations,
            blocked_s: self.blocked_ns.iter().map(|&b| b as f64 / NS).collect(),
            seconds_with_k_blocked: self.concurrency(now_ns),
            job_work_us: per_job(self.work_ns),
            job_booked_us: per_job(self.booked_ns),
            host_units: self.host_units,
            waited_units: self.waited_units,
            mean_wait_us: (self.waited_units > 0)
                .then(|| self.wait_ns as f64 / self.waited_units as f64 / 1e3),
            in_flight_s: self.lockstep.as_ref().map_or_else(Vec::new, |l| {
                l.in_flight_ns.iter().map(|&v| v as f64 / NS).collect()
            }),
            triggers: self
                .lockstep
                .as_ref()
                .map_or_else(Vec::new, |l| l.triggers.clone()),
            program_mix: match (self.lockstep.as_ref().and_then(|l| l.mix_since), mix) {
                (Some(a), Some(b)) => b.iter().zip(a).map(|(b, a)| b.saturating_sub(a)).collect(),
                _ => Vec::new(),
            },
            held_at_end: match self.lockstep {
                Some(_) => held,
                None => Vec::new(),
            },
        }
    }

    /// Seconds of [since, now] with exactly k windows open, k = 0..=domains (a domain's windows
    /// do not overlap one another).
    fn concurrency(&self, now_ns: u64) -> Vec<f64> {
        let mut events: Vec<(u64, i64)> = Vec::with_capacity(2 * self.windows.len());
        for &(a, b) in &self.windows {
            events.push((a.max(self.since_ns), 1));
            events.push((b.max(self.since_ns), -1));
        }
        events.sort_unstable();
        let most = self.jobs.len();
        let mut out = vec![0u64; most + 1];
        let (mut open, mut at) = (0i64, self.since_ns);
        let end = now_ns.max(self.since_ns);
        for (time, step) in events {
            let time = time.min(end);
            out[(open as usize).min(most)] += time - at.min(time);
            at = at.max(time);
            open += step;
        }
        out[(open as usize).min(most)] += end - at.min(end);
        out.into_iter().map(|ns| ns as f64 / NS).collect()
    }
}

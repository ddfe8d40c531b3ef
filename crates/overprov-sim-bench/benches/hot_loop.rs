//! Criterion guard on the hot loop: host page writes (with the GC they trigger) on a full drive
//! under uniform random writes, greedy GC, 256 pages per block, at two OP levels; each both
//! unbatched (one write after another) and batched as the simulator runs it (LBAs drawn
//! `DEFAULT_DEPTH` ahead, their map entries prefetched when drawn and their old pages' state
//! halfway; see ftl/prefetch.rs).

use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use overprov_sim::config::SimConfig;
use overprov_sim::ftl::Ftl;
use overprov_sim::rng::Rng;
use overprov_sim::workload::lookahead::DEFAULT_DEPTH;

const USER_PAGES: u32 = 1 << 20;
const WRITES_PER_ITER: u64 = 1 << 16;

fn full_drive(op: f64) -> Ftl {
    let mut c = SimConfig::default();
    c.geometry.user_pages = Some(USER_PAGES as u64);
    c.geometry.op_ratio = Some(op);
    let g = c.validate().expect("valid");
    let mut ftl = Ftl::new(&c, g);
    for lpn in 0..USER_PAGES {
        ftl.write(lpn, 0);
    }
    // one drive write of random traffic to reach the steady state
    let mut rng = Rng::new(1);
    for _ in 0..USER_PAGES {
        ftl.write(rng.below(USER_PAGES as u64) as u32, 0);
    }
    ftl
}

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(WRITES_PER_ITER));
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(3));
    group
}

fn bench_write(c: &mut Criterion) {
    let mut group = group(c, "ftl_write_uniform");
    for op in [0.28, 0.0737] {
        let mut ftl = full_drive(op);
        let mut rng = Rng::new(2);
        group.bench_function(format!("rho_{op}"), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters * WRITES_PER_ITER {
                    ftl.write(rng.below(USER_PAGES as u64) as u32, 0);
                }
                start.elapsed()
            })
        });
    }
    group.finish();
}

fn bench_write_batched(c: &mut Criterion) {
    let mut group = group(c, "ftl_write_uniform_batched");
    for op in [0.28, 0.0737] {
        let mut ftl = full_drive(op);
        let mut rng = Rng::new(2);
        // a ring of LBAs drawn ahead (power of two slots, DEFAULT_DEPTH + 1 in use)
        let slots = (DEFAULT_DEPTH + 1).next_power_of_two();
        let mut ring = vec![0u32; slots];
        for slot in ring.iter_mut().take(DEFAULT_DEPTH) {
            *slot = rng.below(USER_PAGES as u64) as u32;
            ftl.prefetch_map(*slot, 1);
        }
        let mut head = 0usize;
        group.bench_function(format!("rho_{op}"), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters * WRITES_PER_ITER {
                    let fresh = rng.below(USER_PAGES as u64) as u32;
                    ftl.prefetch_map(fresh, 1);
                    ring[(head + DEFAULT_DEPTH) & (slots - 1)] = fresh;
                    ftl.prefetch_old_pages(ring[(head + DEFAULT_DEPTH / 2) & (slots - 1)], 1);
                    ftl.write(ring[head], 0);
                    head = (head + 1) & (slots - 1);
                }
                start.elapsed()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_write, bench_write_batched);
criterion_main!(benches);

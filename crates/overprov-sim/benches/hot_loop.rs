//! Criterion guard on the hot loop: host page writes (with the GC they trigger) on a full drive
//! under uniform random writes, greedy GC, 256 pages per block, at two OP levels.

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use overprov_sim::config::SimConfig;
use overprov_sim::ftl::Ftl;
use overprov_sim::rng::Rng;

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

fn bench_write(c: &mut Criterion) {
    let mut group = c.benchmark_group("ftl_write_uniform");
    group.throughput(Throughput::Elements(WRITES_PER_ITER));
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(3));
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

criterion_group!(benches, bench_write);
criterion_main!(benches);

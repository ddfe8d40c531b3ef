//! Nothing but a home for the criterion benchmarks of `overprov-sim` (benches/hot_loop.rs,
//! `make bench`): as a dev-dependency of `overprov-sim` itself, criterion and its tree (regex,
//! clap, ciborium, ...) were built by every `cargo test -p overprov-sim`.

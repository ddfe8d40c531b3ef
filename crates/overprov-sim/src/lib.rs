//! overprov-sim: a page-mapped SSD flash translation layer simulator.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

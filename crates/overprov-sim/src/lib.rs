//! overprov-sim: a page-mapped SSD flash translation layer simulator.
//!
//! Layers as in a real SSD: [`workload`] (what the host sends) → [`ftl`] (mapping, write
//! frontiers, garbage collection with one victim policy per file in [`ftl::gc`], wear levelling)
//! → [`stats`]. [`config`] holds the typed configuration, [`geometry`] the OP arithmetic,
//! [`sim`] runs one drive through precondition → warm-up → measurement ([`phases`]: the one
//! stepper of those phases), and [`host`] runs several jobs or an array of drives over
//! simulators of its own. Both fill one [`report::Report`]. No Python in this crate.

pub mod config;
pub mod device;
pub mod error;
pub mod ftl;
pub mod geometry;
pub mod host;
pub mod phases;
pub mod report;
pub mod rng;
pub mod round;
pub mod sim;
pub mod stats;
pub mod timing;
pub mod workload;

pub use config::SimConfig;
pub use error::{Error, Result};
pub use sim::{Report, Simulator};

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

//! # sim: a fast, deterministic packet-level network simulator
//!
//! A dumbbell: any number of TCP flows (each driving a `cc` controller through the shared
//! sender core), each with its own base RTT, start and stop time or transfer size, sharing one
//! bottleneck with a rate (or a piecewise-constant rate schedule), a drop-tail queue sized in
//! packets, bytes or multiples of the BDP, and netem-style loss, delay and jitter. ACKs return on
//! an uncongested path.
//!
//! Same configuration and seed, same result, byte for byte: integer time, `(time, seq)`-ordered
//! events, one seeded RNG per component, no wall clock, no hash-map iteration.

pub mod config;
pub mod endpoint;
pub mod event;
pub mod hostnoise;
pub mod impair;
pub mod link;
pub mod netem;
pub mod packet;
pub mod pipe;
pub mod policer;
pub mod qdisc;
pub mod results;
pub mod scan;
pub mod sim;
pub mod sink;
pub mod stats;
pub mod tap;
pub mod trace;
pub mod units;

pub use config::{FlowConfig, LinkConfig, QueueLimit, SimConfig, Transport};
pub use hostnoise::HostNoise;
pub use netem::{LossSpec, Netem};
pub use qdisc::QdiscConfig;
pub use results::{FlowSummary, LinkSummary, RunResult, Summary, TimeSeries};
pub use sim::Simulation;
pub use stats::jain_index;
pub use trace::Trace;

/// Runs a configuration to the end.
pub fn run(cfg: SimConfig) -> Result<RunResult, String> {
    Ok(Simulation::new(cfg)?.run(|_| {}))
}

//! # A scan workload: nmap-style host discovery of random Internet addresses
//!
//! A scanner sweeps `hosts` addresses with `probes` probe types each, under one of the probe
//! window variants of [`cc::scan`]. `up` of the addresses answer every probe after their RTT;
//! the others are down: most are silent, and a fraction sit behind a last-hop router that
//! answers with ICMP host unreachables (dropping the first packet while it tries ARP, and
//! rate-limiting what it sends). Probes and answers cross the scanner's access link, where they
//! can be lost or overflow the buffer. Retransmissions, timeouts and the host-down decision
//! are the library's (nmap's).
//!
//! Deterministic: the addresses, the loss processes and the scanner are driven by
//! `component_rng(seed, ·)` and integer time; nothing reads a clock.
//!
//! See [`ScanNetwork::default`] for the network model used by the tests and the command line.

pub mod access;
pub mod config;
pub mod icmp;
pub mod result;
pub mod rtt;
pub mod targets;
pub mod workload;

pub use config::{ScanConfig, ScanNetwork};
pub use icmp::IcmpRateLimit;
pub use result::{RatioStats, ScanResult};
pub use rtt::RttDistribution;
pub use workload::run;

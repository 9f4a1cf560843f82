//! # cc: congestion controllers and the sans-I/O TCP sender core
//!
//! Every algorithm implements one trait, [`CongestionControl`]: feedback events in, a
//! [`Control`] (`cwnd`, `pacing_rate`, `quantum`) out. Controllers have no I/O, no clock and no
//! RNG of their own, so the same code runs in the simulator (`sim`) and behind a real socket.
//!
//! - [`config::CcConfig`]: serde-tagged configurations (`algorithm = "newreno"`) with the
//!   reference implementations' defaults, and [`config::ALGORITHMS`], the table `cclab list` shows.
//! - [`config::Cc`]: an enum over all algorithms for the hot path (plus `Custom` for boxed
//!   user-defined controllers).
//! - [`transport`]: the sender core (RFC 6298 RTO, RFC 6675 SACK recovery, RFC 6582 NewReno,
//!   delivery-rate sampling, pacing, ECN) and the receiver (SACK and delayed ACKs).
//!
//! Units: [`Time`] in nanoseconds, [`Bytes`], [`Rate`] in bytes per second.

pub mod aimd;
pub mod algorithms;
pub mod cbr;
pub mod check;
pub mod config;
pub mod controller;
pub mod datagram;
pub mod filter;
pub mod hystart;
pub mod names;
pub mod protocols;
pub mod rate;
pub mod rng;
pub mod round;
pub mod scan;
pub mod seen;
pub mod tfrc;
pub mod transport;
pub mod units;
pub mod window;

#[doc(hidden)]
pub mod testing;

pub use config::{algorithm_names, family_of, AlgorithmInfo, Cc, CcConfig, Family, ALGORITHMS};
pub use names::display_name;
pub use controller::{
    CcEvent, CcInit, CongestionControl, Control, Ctx, EventLog, FastRecovery, Feedback, RateSample, RttStats, Sent,
    Snapshot, TxStart,
};
pub use rng::{component_rng, CcRng};
pub use units::{Bytes, Rate, Time};

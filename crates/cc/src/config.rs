//! Controller configuration: a serde-tagged enum (`algorithm = "newreno"`) whose variants hold
//! typed parameters with the reference implementation's defaults, and the table of algorithms
//! that `cclab list` prints.

use crate::algorithms::*;
use crate::controller::*;
use crate::units::Bytes;
use serde::{Deserialize, Serialize};

/// A controller's configuration, as written in a scenario file:
///
/// ```toml
/// [flows.cc]
/// algorithm = "newreno"
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "algorithm", rename_all = "lowercase")]
pub enum CcConfig {
    Tahoe(TahoeConfig),
    Reno(RenoConfig),
    #[serde(rename = "newreno")]
    NewReno(RenoConfig),
    None(NoneConfig),
}

/// The family an algorithm belongs to, by the congestion signal it reacts to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    Loss,
    Delay,
    Hybrid,
    Model,
    Rate,
    /// No congestion control at all.
    None,
}

impl Family {
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Loss => "loss",
            Family::Delay => "delay",
            Family::Hybrid => "hybrid",
            Family::Model => "model",
            Family::Rate => "rate",
            Family::None => "none",
        }
    }
}

/// One row of the algorithm table.
pub struct AlgorithmInfo {
    pub name: &'static str,
    pub family: Family,
    pub source: &'static str,
    pub summary: &'static str,
    pub default_config: fn() -> CcConfig,
}

/// Every algorithm cclab has, in the order `cclab list` prints them.
pub const ALGORITHMS: &[AlgorithmInfo] = &[
    AlgorithmInfo {
        name: "tahoe",
        family: Family::Loss,
        source: "Jacobson, SIGCOMM 1988",
        summary: "slow start + AIMD + fast retransmit; every loss restarts slow start from 1 MSS",
        default_config: || CcConfig::Tahoe(TahoeConfig::default()),
    },
    AlgorithmInfo {
        name: "reno",
        family: Family::Loss,
        source: "RFC 5681; Linux tcp_cong.c",
        summary: "AIMD (+1 MSS/RTT, x1/2) with fast recovery ending at the first new ACK",
        default_config: || CcConfig::Reno(RenoConfig::default()),
    },
    AlgorithmInfo {
        name: "newreno",
        family: Family::Loss,
        source: "RFC 6582; RFC 5681",
        summary: "Reno whose fast recovery survives partial ACKs until the recovery point",
        default_config: || CcConfig::NewReno(RenoConfig::default()),
    },
    AlgorithmInfo {
        name: "none",
        family: Family::None,
        source: "Kempter, Xin, Kasera, SIGCOMM 2004 poster (seed 003, SACKEXP)",
        summary: "no congestion window: win = min(bwnd, awnd), SACK repairs losses",
        default_config: || CcConfig::None(NoneConfig::default()),
    },
];

/// What a controller needs from the sender to start.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CcInit {
    pub mss: Bytes,
    pub initial_cwnd: Bytes,
}

impl CcConfig {
    /// The default configuration of the algorithm called `name` (its command-line name).
    pub fn from_name(name: &str) -> Result<CcConfig, String> {
        ALGORITHMS
            .iter()
            .find(|a| a.name == name)
            .map(|a| (a.default_config)())
            .ok_or_else(|| format!("unknown algorithm `{name}`; allowed: {}", algorithm_names().join(", ")))
    }

    pub fn name(&self) -> &'static str {
        match self {
            CcConfig::Tahoe(_) => "tahoe",
            CcConfig::Reno(_) => "reno",
            CcConfig::NewReno(_) => "newreno",
            CcConfig::None(_) => "none",
        }
    }

    /// Builds the controller.
    pub fn build(&self, init: CcInit) -> Cc {
        let CcInit { mss, initial_cwnd } = init;
        match self {
            CcConfig::Tahoe(c) => Cc::Tahoe(Tahoe::new(c, mss, initial_cwnd)),
            CcConfig::Reno(c) => Cc::Reno(Reno::reno(c, mss, initial_cwnd)),
            CcConfig::NewReno(c) => Cc::Reno(Reno::newreno(c, mss, initial_cwnd)),
            CcConfig::None(c) => Cc::None(Sackexp::new(c, mss)),
        }
    }
}

/// The command-line names of every algorithm.
pub fn algorithm_names() -> Vec<&'static str> {
    ALGORITHMS.iter().map(|a| a.name).collect()
}

/// A controller that is `Clone` behind a box, for user-defined algorithms.
pub trait DynCongestionControl: CongestionControl + Send {
    fn clone_box(&self) -> Box<dyn DynCongestionControl>;
}

impl<T: CongestionControl + Clone + Send + 'static> DynCongestionControl for T {
    fn clone_box(&self) -> Box<dyn DynCongestionControl> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn DynCongestionControl> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Every algorithm, for the hot path: dispatch is a `match`, not a virtual call. `Custom`
/// holds a user-defined controller behind a box.
#[derive(Clone)]
pub enum Cc {
    Tahoe(Tahoe),
    Reno(Reno),
    None(Sackexp),
    Custom(Box<dyn DynCongestionControl>),
}

impl std::fmt::Debug for Cc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cc({})", self.name())
    }
}

macro_rules! dispatch {
    ($self:ident, $c:ident => $e:expr) => {
        match $self {
            Cc::Tahoe($c) => $e,
            Cc::Reno($c) => $e,
            Cc::None($c) => $e,
            Cc::Custom($c) => $e,
        }
    };
}

impl CongestionControl for Cc {
    fn name(&self) -> &'static str {
        dispatch!(self, c => c.name())
    }
    #[inline]
    fn on_feedback(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_feedback(fb, ctx))
    }
    fn on_ack(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_ack(fb, ctx))
    }
    fn on_loss(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_loss(fb, ctx))
    }
    #[inline]
    fn on_sent(&mut self, sent: &Sent, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_sent(sent, ctx))
    }
    fn on_timeout(&mut self, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_timeout(ctx))
    }
    fn on_spurious_loss(&mut self, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_spurious_loss(ctx))
    }
    fn on_idle_restart(&mut self, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_idle_restart(ctx))
    }
    #[inline]
    fn next_timer(&self) -> Option<crate::units::Time> {
        dispatch!(self, c => c.next_timer())
    }
    fn on_timer(&mut self, ctx: &mut Ctx) {
        dispatch!(self, c => c.on_timer(ctx))
    }
    #[inline]
    fn control(&self) -> Control {
        dispatch!(self, c => c.control())
    }
    fn snapshot(&self) -> Snapshot {
        dispatch!(self, c => c.snapshot())
    }
    fn fast_recovery(&self) -> FastRecovery {
        dispatch!(self, c => c.fast_recovery())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_algorithm_builds_and_keeps_its_name() {
        for a in ALGORITHMS {
            let cfg = CcConfig::from_name(a.name).unwrap();
            assert_eq!(cfg.name(), a.name);
            let cc = cfg.build(CcInit { mss: 1000, initial_cwnd: 10_000 });
            assert_eq!(cc.name(), a.name);
        }
    }

    #[test]
    fn unknown_name_lists_the_allowed_ones() {
        let e = CcConfig::from_name("vegaz").unwrap_err();
        assert!(e.contains("vegaz") && e.contains("newreno"), "{e}");
    }
}

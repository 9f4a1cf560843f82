//! Queue disciplines for the bottleneck: drop-tail, RED (with ECN and the gentle option),
//! CoDel (RFC 8289, with an ECN CE threshold) and a step-marking queue (DCTCP's K).
//!
//! Every discipline sits under the queue's hard limit (packets or bytes): a packet that does
//! not fit is an overflow drop whatever the discipline says. Disciplines decide at enqueue
//! (RED, step) or at dequeue (CoDel) whether to pass, CE-mark (ECN-capable packets only) or
//! drop a packet.

pub mod codel;
pub mod red;
pub mod step;

pub use codel::{Codel, CodelConfig};
pub use red::{Red, RedConfig};
pub use step::{Step, StepConfig};

use cc::{Rate, Time};
use serde::{Deserialize, Serialize};

/// What a discipline decides for one packet.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    /// Set CE on an ECN-capable packet.
    Mark,
    /// Drop (an AQM drop, not an overflow).
    Drop,
}

/// The configured discipline (scenario files: `queue = { type = "red", ... }`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum QdiscConfig {
    #[default]
    #[serde(rename = "droptail")]
    DropTail,
    Red(RedConfig),
    Codel(CodelConfig),
    Step(StepConfig),
}

impl QdiscConfig {
    pub fn name(&self) -> &'static str {
        match self {
            QdiscConfig::DropTail => "drop-tail",
            QdiscConfig::Red(_) => "RED",
            QdiscConfig::Codel(_) => "CoDel",
            QdiscConfig::Step(_) => "step marking",
        }
    }

    /// The discipline's parameters in their ranges.
    pub fn validate(&self) -> Result<(), String> {
        use cc::check::Validate;
        match self {
            QdiscConfig::DropTail => Ok(()),
            QdiscConfig::Red(c) => c.validate(),
            QdiscConfig::Codel(c) => c.validate(),
            QdiscConfig::Step(c) => c.validate(),
        }
    }

    /// `droptail`, `red`, `codel` or `step` with their defaults.
    pub fn from_name(name: &str) -> Result<QdiscConfig, String> {
        match name {
            "droptail" | "drop-tail" | "fifo" => Ok(QdiscConfig::DropTail),
            "red" => Ok(QdiscConfig::Red(RedConfig::default())),
            "codel" => Ok(QdiscConfig::Codel(CodelConfig::default())),
            "step" => Ok(QdiscConfig::Step(StepConfig::default())),
            _ => Err(format!("unknown queue `{name}`; allowed: droptail, red, codel, step")),
        }
    }
}

/// The link facts a discipline's defaults depend on.
#[derive(Copy, Clone, Debug)]
pub struct LinkFacts {
    pub rate: Rate,
    /// Typical packet on the wire.
    pub packet_bytes: u64,
    /// Longest base RTT among the flows.
    pub rtt: Time,
    /// The hard limit in packets (`u64::MAX` if the limit is in bytes).
    pub limit_packets: u64,
}

/// A running discipline.
#[derive(Clone, Debug)]
pub enum Qdisc {
    DropTail,
    Red(Red),
    Codel(Codel),
    Step(Step),
}

impl Qdisc {
    pub fn new(cfg: &QdiscConfig, facts: LinkFacts, rng: cc::CcRng) -> Qdisc {
        match cfg {
            QdiscConfig::DropTail => Qdisc::DropTail,
            QdiscConfig::Red(c) => Qdisc::Red(Red::new(c, facts, rng)),
            QdiscConfig::Codel(c) => Qdisc::Codel(Codel::new(c)),
            QdiscConfig::Step(c) => Qdisc::Step(Step::new(c, facts)),
        }
    }

    /// Decision when a packet arrives to a queue holding `queue_packets` (before it).
    #[inline]
    pub fn on_enqueue(&mut self, now: Time, queue_packets: u64, ect: bool) -> Verdict {
        match self {
            Qdisc::DropTail | Qdisc::Codel(_) => Verdict::Pass,
            Qdisc::Red(r) => r.on_enqueue(now, queue_packets, ect),
            Qdisc::Step(s) => s.on_enqueue(queue_packets, ect),
        }
    }

    /// Decision when the head packet, which waited `sojourn`, is about to be sent;
    /// `queue_empty_after` tells whether it is the last one queued.
    #[inline]
    pub fn on_dequeue(&mut self, now: Time, sojourn: Time, queue_bytes_after: u64, ect: bool) -> Verdict {
        match self {
            Qdisc::Codel(c) => c.on_dequeue(now, sojourn, queue_bytes_after, ect),
            _ => Verdict::Pass,
        }
    }

    /// The queue went idle at `now` (RED decays its average over idle periods).
    pub fn on_idle(&mut self, now: Time) {
        if let Qdisc::Red(r) = self {
            r.on_idle(now);
        }
    }
}

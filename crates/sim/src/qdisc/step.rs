//! Step marking: CE-mark every ECN-capable packet that arrives to a queue longer than K
//! packets, as DCTCP deployments configure switches (Alizadeh et al., SIGCOMM 2010, §3.1;
//! RFC 8257 §3.1). Non-ECN packets are only subject to the hard limit.
//!
//! Default K: the DCTCP paper's guideline K > C·RTT/7 (§3.4), rounded up.

use super::{LinkFacts, Verdict};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StepConfig {
    /// The marking threshold in packets; `None`: ⌈C·RTT/7⌉.
    pub k: Option<u64>,
}

/// A marking threshold in packets (0 marks whenever a packet waits).
impl cc::check::Validate for StepConfig {
    fn validate(&self) -> Result<(), String> {
        if let Some(k) = self.k {
            cc::check::within("k", k, 0..=1_000_000_000)?;
        }
        Ok(())
    }
}

#[derive(Clone, Debug)]
pub struct Step {
    pub k: u64,
}

impl Step {
    pub fn new(cfg: &StepConfig, f: LinkFacts) -> Step {
        let bdp_packets = f.rate.bytes_in(f.rtt) / f.packet_bytes as f64;
        Step { k: cfg.k.unwrap_or_else(|| (bdp_packets / 7.0).ceil().max(1.0) as u64) }
    }

    #[inline]
    pub fn on_enqueue(&mut self, queue_packets: u64, ect: bool) -> Verdict {
        if ect && queue_packets >= self.k {
            Verdict::Mark
        } else {
            Verdict::Pass
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cc::{Rate, Time};

    #[test]
    fn k_defaults_to_a_seventh_of_the_bdp_and_marks_above_it() {
        let f = LinkFacts { rate: Rate::from_bits_per_sec(40e6), packet_bytes: 1500, rtt: Time::from_millis(100), limit_packets: 1000 };
        // BDP = 500 000 B / 1500 B = 333.3 packets; /7 = 47.6 -> 48.
        let mut s = Step::new(&StepConfig::default(), f);
        assert_eq!(s.k, 48);
        assert_eq!(s.on_enqueue(47, true), Verdict::Pass);
        assert_eq!(s.on_enqueue(48, true), Verdict::Mark);
        assert_eq!(s.on_enqueue(100, false), Verdict::Pass);
    }
}

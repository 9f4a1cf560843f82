//! TCP Vegas: congestion avoidance from the RTT, before the queue overflows.
//!
//! Sources: L. S. Brakmo, S. W. O'Malley, L. L. Peterson, "TCP Vegas: New Techniques for
//! Congestion Detection and Avoidance", SIGCOMM 1994, and Brakmo & Peterson, IEEE JSAC 13(8),
//! 1995; Linux `net/ipv4/tcp_vegas.c` (alpha 2, beta 4, gamma 1).
//!
//! Once per round trip (the first acknowledgement of data sent after the previous round
//! ended), with `base_rtt` the smallest RTT ever seen and `rtt` the smallest of the round:
//!
//! - `Expected = cwnd/base_rtt`, `Actual = cwnd/rtt`; the paper's
//!   `Diff = (Expected − Actual)·base_rtt = cwnd·(rtt − base_rtt)/rtt` is the flow's packets
//!   queued at the bottleneck; Linux computes `diff = cwnd·(rtt − base_rtt)/base_rtt`
//!   (rounded down, integer arithmetic), which is what we do, as the Vegas seed (004) ran
//!   Linux's module: the two differ by the factor `rtt/base_rtt`, which matters only where
//!   the RTT's noise or queueing is comparable to the base RTT;
//! - slow start (`cwnd += acked`, every round as Linux, not every other round as the paper)
//!   until `diff > gamma`, then `cwnd = min(cwnd, target_cwnd + 1)` with
//!   `target_cwnd = cwnd·base_rtt/rtt` and `ssthresh = min(ssthresh, cwnd)`;
//! - congestion avoidance: `diff < alpha` → `cwnd += 1`; `diff > beta` → `cwnd −= 1` (and
//!   ssthresh with it); otherwise hold. Vegas therefore keeps alpha..beta packets queued.
//! - A round with fewer than three RTT samples (delayed ACKs) gets Reno's increase instead;
//!   after a loss episode or a timeout the measurements restart from a fresh round.
//! - Whenever a segment leaves with nothing in flight (Linux `CA_EVENT_TX_START`: the first
//!   segment, the first after idle, the retransmission after an RTO, and after an ACK that
//!   covered everything out) Linux calls `tcp_vegas_init`: `base_rtt` is forgotten and
//!   learned again from the next samples. So do we.
//!
//! Losses are handled as Reno (`ssthresh = cwnd/2`, Linux `tcp_reno_ssthresh`).
//!
//! In an ACK-clocked slow start the round's smallest RTT is its first packet's, which finds
//! the queue empty until the window passes the BDP; the exit test therefore fires about one
//! doubling late, the overshoot ends in losses, and the excess left after the halving goes at
//! one packet per RTT (tens of seconds on a 100 ms, 40 Mbit/s path). Linux's Vegas does the
//! same.

use super::vegas_core::{RoundRtt, Step, VegasCore, VegasFamily, VegasLaw};
use crate::rng::CcRng;
use crate::units::Bytes;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VegasConfig {
    /// Lower bound of packets queued: below it cwnd grows by one per RTT.
    pub alpha: u32,
    /// Upper bound of packets queued: above it cwnd shrinks by one per RTT.
    pub beta: u32,
    /// Slow start ends once more than this many packets are queued.
    pub gamma: u32,
}

impl Default for VegasConfig {
    fn default() -> Self {
        VegasConfig { alpha: 2, beta: 4, gamma: 1 }
    }
}

/// Vegas's once-per-round decision.
#[derive(Clone, Debug)]
pub struct VegasRule {
    cfg: VegasConfig,
}

impl VegasLaw for VegasRule {
    type Config = VegasConfig;
    const NAME: &'static str = "vegas";

    fn new(cfg: &VegasConfig) -> VegasRule {
        VegasRule { cfg: cfg.clone() }
    }

    fn decide(&mut self, core: &mut VegasCore, r: RoundRtt, acked: Bytes, _rng: &mut CcRng) {
        let cwnd = core.shell.cwnd_pkts();
        let diff = r.linux_diff(cwnd as f64) as u64;
        if core.shell.w.in_slow_start() {
            if diff > self.cfg.gamma as u64 {
                core.exit_slow_start(r.target_cwnd(cwnd));
            } else {
                core.follow(Step::SlowStart, acked);
            }
        } else if diff > self.cfg.beta as u64 {
            core.decrease();
        } else if diff < self.cfg.alpha as u64 {
            core.increase();
        } else {
            core.hold();
        }
        core.finish_round();
    }
}

pub type Vegas = VegasFamily<VegasRule>;


impl crate::check::Validate for VegasConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // Brakmo & Peterson: alpha <= beta packets queued (Linux 2 and 4); gamma likewise.
        within("alpha", self.alpha, 0..=1_000_000)?;
        within("beta", self.beta, 0..=1_000_000)?;
        ordered("alpha", self.alpha, "beta", self.beta)?;
        within("gamma", self.gamma, 0..=1_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::*;
    use crate::testing::*;
    use std::cell::Cell;

    /// A Vegas flow in congestion avoidance at 100 packets, base RTT 100 ms, then one round at
    /// `rtt` evaluated: returns the window after the decision.
    fn after_one_round_at(rtt_ms: u64) -> u64 {
        let mut cc = Vegas::new(&VegasConfig::default(), init(100 * MSS));
        cc.core.shell.w.ssthresh = 50 * MSS;
        let mut d = Rounds::new();
        d.round(&mut cc, ms(100)); // first round: one sample at its end, Reno
        d.round(&mut cc, ms(rtt_ms)); // evaluates the 100 ms round: diff 0 < alpha, +1
        assert_eq!(cc.control().cwnd, Some(101 * MSS));
        d.round(&mut cc, ms(rtt_ms)); // evaluates the round at `rtt`
        cc.control().cwnd.unwrap() / MSS
    }

    #[test]
    fn three_branches_of_congestion_avoidance() {
        // diff = 101·(rtt − 100)/100 packets (Linux divides by the base RTT).
        assert_eq!(after_one_round_at(101), 102, "diff 1.01 → 1 < alpha 2: +1");
        assert_eq!(after_one_round_at(102), 101, "diff 2.02 → 2, within alpha..beta: hold");
        assert_eq!(after_one_round_at(104), 101, "diff 4.04 → 4, within alpha..beta: hold");
        assert_eq!(after_one_round_at(105), 100, "diff 5.05 → 5 > beta 4: −1 (the paper's 4.81 would hold)");
    }

    #[test]
    fn slow_start_ends_at_the_actual_rate_once_diff_exceeds_gamma() {
        let mut cc = Vegas::new(&VegasConfig::default(), init(10 * MSS));
        let mut d = Rounds::new();
        d.rounds(&mut cc, 2, ms(100));
        assert_eq!(cc.control().cwnd, Some(40 * MSS));
        d.round(&mut cc, ms(150)); // its end still sees the 100 ms round: diff 0
        assert_eq!(cc.control().cwnd, Some(80 * MSS));
        assert_eq!(cc.snapshot().state, "slow_start");
        // diff = 80·50/100 = 40 > gamma: cwnd = target + 1 = 80·100/150 + 1 = 54.
        d.round(&mut cc, ms(150));
        assert_eq!(cc.control().cwnd, Some(54 * MSS));
        assert_eq!(cc.snapshot().ssthresh, Some(54 * MSS));
        assert_eq!(cc.snapshot().state, "exit_slow_start");
        assert_eq!(cc.snapshot().min_rtt, Some(ms(100)));
    }

    #[test]
    fn too_few_samples_in_a_round_fall_back_to_reno() {
        let mut cc = Vegas::new(&VegasConfig::default(), init(100 * MSS));
        cc.core.shell.w.ssthresh = 50 * MSS;
        let mut d = Rounds::new();
        d.rounds(&mut cc, 2, ms(100));
        let before = cc.control().cwnd.unwrap();
        // Only two ACKs of the next round carry an RTT sample (delayed ACKs): 200 ms would
        // mean 50 queued packets, but Vegas does not trust two samples.
        let n = Cell::new(0);
        d.round_with(&mut cc, ms(200), |fb| {
            n.set(n.get() + 1);
            if n.get() > 2 {
                fb.rtt_sample = None;
            }
        });
        let n = Cell::new(0);
        d.round_with(&mut cc, ms(200), |fb| {
            n.set(n.get() + 1);
            if n.get() > 1 {
                fb.rtt_sample = None;
            }
        });
        assert!(cc.control().cwnd.unwrap() >= before);
        assert_eq!(cc.core.decision, "reno");
    }

    #[test]
    fn loss_halves_and_measurements_restart_after_recovery() {
        let mut cc = Vegas::new(&VegasConfig::default(), init(100 * MSS));
        let mut d = Rounds::new();
        d.loss_episode(&mut cc);
        assert_eq!(cc.control().cwnd, Some(50 * MSS));
        assert_eq!(cc.core.rtt.cnt_rtt, 0);
        d.h.timeout(&mut cc);
        assert_eq!(cc.control().cwnd, Some(MSS));
        assert_eq!(cc.snapshot().ssthresh, Some(25 * MSS));
    }
}

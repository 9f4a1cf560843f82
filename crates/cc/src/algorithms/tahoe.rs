//! TCP Tahoe: slow start, congestion avoidance and fast retransmit, without fast recovery.
//!
//! Source: V. Jacobson, "Congestion Avoidance and Control", SIGCOMM 1988 (the 4.3BSD-Tahoe
//! release). Any loss, whether found by three duplicate ACKs or by the retransmission timer,
//! sets `ssthresh = max(cwnd/2, 2·MSS)` and restarts slow start from one segment. Without SACK
//! the first new ACK ends the episode ([`FastRecovery::Reno`]).

use crate::controller::*;
use crate::units::Bytes;
use crate::window::RenoWindow;
use serde::{Deserialize, Serialize};

/// Tahoe has no tunable parameters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TahoeConfig {}

#[derive(Clone, Debug)]
pub struct Tahoe {
    w: RenoWindow,
    mss: Bytes,
    in_recovery: bool,
}

impl Tahoe {
    pub fn new(_cfg: &TahoeConfig, init: CcInit) -> Tahoe {
        Tahoe { w: RenoWindow::new(init.initial_cwnd), mss: init.mss, in_recovery: false }
    }

    fn restart_slow_start(&mut self) {
        self.w.reduce_ssthresh(0.5, self.mss);
        self.w.set_cwnd(self.mss, self.mss);
    }
}

impl CongestionControl for Tahoe {
    fn name(&self) -> &'static str {
        "tahoe"
    }
    fn on_loss(&mut self, fb: &Feedback, _ctx: &mut Ctx) {
        if fb.new_episode {
            self.restart_slow_start();
        }
    }
    fn on_ack(&mut self, fb: &Feedback, _ctx: &mut Ctx) {
        // No fast recovery: the window grows on every ACK of new data, recovery or not.
        self.in_recovery = fb.in_recovery;
        if !fb.growth_withheld && self.w.is_cwnd_limited(fb.cwnd_use) {
            self.w.reno_increase(fb.acked_bytes, self.mss);
        }
    }
    fn on_idle_restart(&mut self, restart: &IdleRestart, _ctx: &mut Ctx) {
        self.w.restart_after_idle(restart, self.mss);
    }
    fn on_timeout(&mut self, _ctx: &mut Ctx) {
        self.restart_slow_start();
    }
    fn control(&self) -> Control {
        self.w.control(self.mss)
    }
    fn snapshot(&self) -> Snapshot {
        self.w.snapshot(self.w.state_name(false))
    }
    fn fast_recovery(&self) -> FastRecovery {
        FastRecovery::Reno
    }
    /// Tahoe has no fast recovery to pace: every loss restarts slow start from one segment.
    fn sets_recovery_window(&self) -> bool {
        true
    }
}


/// No parameters, so nothing to range-check.
impl crate::check::Validate for TahoeConfig {
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    #[test]
    fn loss_restarts_slow_start_from_one_segment() {
        let mut cc = Tahoe::new(&TahoeConfig::default(), init(10 * MSS));
        let mut h = Harness::new();
        h.ack_rounds(&mut cc, 3); // 10 -> 80 segments
        assert_eq!(cc.control().cwnd, Some(80 * MSS));
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(MSS));
        assert_eq!(cc.snapshot().ssthresh, Some(40 * MSS));
        // Slow start again, even inside the recovery episode.
        h.ack_n(&mut cc, 1, true);
        assert_eq!(cc.control().cwnd, Some(2 * MSS));
    }

    #[test]
    fn only_the_first_loss_of_an_episode_reduces() {
        let mut cc = Tahoe::new(&TahoeConfig::default(), init(40 * MSS));
        let mut h = Harness::new();
        h.loss(&mut cc, true);
        h.ack_n(&mut cc, 5, true);
        let before = cc.control().cwnd;
        h.loss(&mut cc, false);
        assert_eq!(cc.control().cwnd, before);
    }
}

//! TCP Reno and NewReno: AIMD with fast retransmit and fast recovery.
//!
//! Sources: RFC 5681 (Reno: slow start, congestion avoidance, fast retransmit/fast recovery),
//! RFC 6582 (NewReno: partial ACKs keep the sender in fast recovery), Linux
//! `net/ipv4/tcp_cong.c` (`tcp_reno_cong_avoid`, `tcp_reno_ssthresh`).
//!
//! Control law, per ACK of `acked` bytes outside recovery:
//! `cwnd += acked` below ssthresh (slow start), otherwise `cwnd += MSS·acked/cwnd`.
//! On the first loss of an episode: `ssthresh = max(⌊cwnd/2⌋, 2)` in whole segments (Linux
//! counts the window in segments; RFC 5681's FlightSize/2 is in bytes), `cwnd = ssthresh`.
//! On RTO: the same ssthresh, `cwnd = 1 MSS` (RFC 5681 loss window).
//!
//! The sender core counts packets in flight the way RFC 6675 and Linux do (SACKed and
//! duplicate-ACKed segments have left the network), which is equivalent to RFC 5681's window
//! inflation (`cwnd = ssthresh + 3`, `+1` per duplicate ACK) and deflation on the new ACK, so the
//! window itself is set once per episode. The two flavours differ in when recovery ends
//! without SACK: Reno at the first new ACK, NewReno at the recovery point.

use crate::aimd::{Aimd, AimdLaw};
use crate::controller::*;
use serde::{Deserialize, Serialize};

/// Reno and NewReno have no tunable parameters in Linux.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenoConfig {}

/// Reno's law is the [`AimdLaw`] defaults (+1 segment per RTT, halve); the flavour only says
/// how fast recovery ends without SACK.
#[derive(Clone, Debug)]
pub struct RenoLaw {
    flavor: FastRecovery,
}

impl AimdLaw for RenoLaw {
    type Config = RenoConfig;
    fn new(_cfg: &RenoConfig, _init: CcInit) -> RenoLaw {
        RenoLaw { flavor: FastRecovery::NewReno }
    }
    fn name(&self) -> &'static str {
        match self.flavor {
            FastRecovery::Reno => "reno",
            FastRecovery::NewReno => "newreno",
        }
    }
    fn fast_recovery(&self) -> FastRecovery {
        self.flavor
    }
}

pub type Reno = Aimd<RenoLaw>;

impl Aimd<RenoLaw> {
    /// RFC 5681 Reno.
    pub fn reno(cfg: &RenoConfig, init: CcInit) -> Reno {
        let mut r: Reno = Aimd::new(cfg, init);
        r.law.flavor = FastRecovery::Reno;
        r
    }
    /// RFC 6582 NewReno.
    pub fn newreno(cfg: &RenoConfig, init: CcInit) -> Reno {
        Aimd::new(cfg, init)
    }
}


/// No parameters, so nothing to range-check.
impl crate::check::Validate for RenoConfig {
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    #[test]
    fn slow_start_then_halving_on_loss() {
        let mut cc = Reno::newreno(&RenoConfig::default(), init(10 * MSS));
        let mut h = Harness::new();
        h.ack_rounds(&mut cc, 2);
        assert_eq!(cc.control().cwnd, Some(40 * MSS));
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(20 * MSS));
        assert_eq!(cc.snapshot().ssthresh, Some(20 * MSS));
        assert_eq!(cc.snapshot().state, "recovery");
    }

    #[test]
    fn window_is_held_during_recovery_and_grows_linearly_after() {
        let mut cc = Reno::reno(&RenoConfig::default(), init(40 * MSS));
        let mut h = Harness::new();
        h.loss(&mut cc, true);
        h.ack_n(&mut cc, 15, true);
        assert_eq!(cc.control().cwnd, Some(20 * MSS));
        // Out of recovery: one MSS per window of ACKs (20 ACKs of 1 MSS at cwnd = 20).
        h.ack_n(&mut cc, 20, false);
        assert_eq!(cc.control().cwnd, Some(21 * MSS));
        assert_eq!(cc.snapshot().state, "cong_avoid");
    }

    #[test]
    fn second_loss_in_same_episode_does_not_reduce_again() {
        let mut cc = Reno::newreno(&RenoConfig::default(), init(64 * MSS));
        let mut h = Harness::new();
        h.loss(&mut cc, true);
        h.loss(&mut cc, false);
        assert_eq!(cc.control().cwnd, Some(32 * MSS));
    }

    #[test]
    fn timeout_sets_loss_window_of_one_segment() {
        let mut cc = Reno::newreno(&RenoConfig::default(), init(64 * MSS));
        let mut h = Harness::new();
        h.timeout(&mut cc);
        assert_eq!(cc.control().cwnd, Some(MSS));
        assert_eq!(cc.snapshot().ssthresh, Some(32 * MSS));
    }

    #[test]
    fn flavours_differ_only_in_fast_recovery() {
        let cfg = RenoConfig::default();
        assert_eq!(Reno::reno(&cfg, init(MSS)).fast_recovery(), FastRecovery::Reno);
        assert_eq!(Reno::newreno(&cfg, init(MSS)).fast_recovery(), FastRecovery::NewReno);
    }
}

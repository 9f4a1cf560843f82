//! TCP Veno: Reno that tells congestive from random losses by the backlog Vegas measures.
//!
//! Sources: C. P. Fu, S. C. Liew, "TCP Veno: TCP Enhancement for Transmission over Wireless
//! Access Networks", IEEE JSAC 21(2), 2003; Linux `net/ipv4/tcp_veno.c` (beta = 3 packets).
//!
//! On every acknowledgement (Linux evaluates per ACK, with the smallest RTT since the previous
//! one), once more than two RTT samples have been seen:
//!
//! - backlog `N = cwnd·(rtt − base_rtt)/rtt` (Vegas's diff), `base_rtt` the smallest RTT seen;
//! - slow start as Reno; in congestion avoidance `N < beta` (non-congestive state) → Reno's
//!   `+1` per RTT, `N ≥ beta` (congestive state) → `+1` every other RTT (growth rate 1/2);
//! - on a loss `ssthresh = cwnd·4/5` if `N < beta` (the loss is taken as random, e.g. a
//!   wireless error) and `cwnd/2` otherwise; cwnd = ssthresh (at least two segments).
//!
//! Linux compares `N` with beta in fixed point with one fractional bit; the comparison here is
//! exact. Linux alternates a flag to add one packet every second window of ACKs; here the
//! congestive state adds half a packet per window, the same rate.

use super::vegas_core::{RoundRtt, VegasRtt, MIN_ROUND_SAMPLES};
use crate::aimd::{Aimd, AimdLaw};
use crate::controller::*;
use crate::units::{Bytes, Rate, Time};
use crate::window::RenoWindow;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VenoConfig {
    /// Backlog (packets) from which the path counts as congested.
    pub beta: f64,
}

impl Default for VenoConfig {
    fn default() -> Self {
        VenoConfig { beta: 3.0 }
    }
}

#[derive(Clone, Debug)]
pub struct VenoLaw {
    cfg: VenoConfig,
    rtt: VegasRtt,
    /// The last backlog estimate N, packets (0 before the first).
    pub diff: f64,
}

impl VenoLaw {
    /// The path is congested: the last loss was not random, growth halves.
    pub fn congestive(&self) -> bool {
        self.diff >= self.cfg.beta
    }
}

impl AimdLaw for VenoLaw {
    type Config = VenoConfig;

    fn name(&self) -> &'static str {
        "veno"
    }

    fn new(cfg: &VenoConfig, _init: CcInit) -> VenoLaw {
        VenoLaw { cfg: cfg.clone(), rtt: VegasRtt::default(), diff: 0.0 }
    }

    fn observe(&mut self, w: &mut RenoWindow, fb: &Feedback, ctx: &mut Ctx) {
        self.rtt.on_sample(fb.rtt_sample);
        if fb.in_recovery || fb.acked_bytes == 0 || fb.growth_withheld || !w.is_cwnd_limited(fb.cwnd_use) {
            return; // tcp_veno_cong_avoid runs only on ACKs that may raise a window the flow fills
        }
        // The RTT of this ACK (Linux wipes minrtt after every call, but keeps cntrtt).
        let latest = self.rtt.min_rtt.take();
        if self.rtt.cnt_rtt >= MIN_ROUND_SAMPLES {
            if let (Some(base_rtt), Some(rtt)) = (self.rtt.base_rtt, latest) {
                self.diff = RoundRtt { base_rtt, rtt }.backlog((w.cwnd / ctx.mss) as f64);
            }
        }
    }

    fn increase(&mut self, _w: &RenoWindow, _mss: Bytes, _acked: Bytes, _ctx: &Ctx) -> f64 {
        if self.congestive() {
            0.5
        } else {
            1.0
        }
    }

    fn ssthresh(&mut self, w: &RenoWindow, mss: Bytes, _fb: &Feedback, _ctx: &Ctx) -> Bytes {
        let cwnd = w.cwnd / mss;
        let ss = if self.congestive() { cwnd / 2 } else { cwnd * 4 / 5 };
        ss.max(2) * mss
    }

    fn ssthresh_after_timeout(&mut self, w: &RenoWindow, mss: Bytes, ctx: &Ctx) -> Bytes {
        self.ssthresh(w, mss, &Feedback::default(), ctx)
    }

    fn estimates(&self) -> (Option<Rate>, Option<Time>) {
        (None, self.rtt.base_rtt)
    }
}

pub type Veno = Aimd<VenoLaw>;


impl crate::check::Validate for VenoConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // A backlog in packets: Veno's beta, 3 in the paper and in Linux.
        within("beta", self.beta, 0.0..=1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    /// Veno at 100 packets in congestion avoidance after ACKs at 100 ms, then `n` ACKs at
    /// `rtt_ms`.
    fn veno_at(rtt_ms: u64, n: usize) -> (Veno, Harness) {
        let mut cc = Veno::new(&VenoConfig::default(), init(100 * MSS));
        cc.w.ssthresh = 50 * MSS;
        let mut h = Harness::new();
        h.ack_n(&mut cc, 3, false);
        h.rtt.latest = Some(Time::from_millis(rtt_ms));
        h.ack_n(&mut cc, n, false);
        (cc, h)
    }

    #[test]
    fn random_loss_takes_a_fifth_congestive_loss_a_half() {
        // No queueing: N = 0 < 3, the loss counts as random.
        let (mut cc, mut h) = veno_at(100, 3);
        assert_eq!(cc.law.diff, 0.0);
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(80 * MSS));
        // 110 ms: N = 100·10/110 = 9.1 ≥ 3, congestive.
        let (mut cc, mut h) = veno_at(110, 3);
        assert!((cc.law.diff - 100.0 * 10.0 / 110.0).abs() < 0.1, "{}", cc.law.diff);
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(50 * MSS));
        assert_eq!(cc.snapshot().min_rtt, Some(Time::from_millis(100)));
    }

    #[test]
    fn backlog_just_below_beta_is_not_congestive() {
        // 102 ms: N = 100·2/102 = 1.96 < 3.
        let (cc, _) = veno_at(102, 3);
        assert!(!cc.law.congestive());
        // 104 ms: N = 100·4/104 = 3.85 ≥ 3.
        let (cc, _) = veno_at(104, 3);
        assert!(cc.law.congestive());
    }

    #[test]
    fn congestive_state_grows_every_other_rtt() {
        // 97 ACKs at 100 ms complete the first window: +1.
        let (cc, _) = veno_at(100, 97);
        assert_eq!(cc.control().cwnd, Some(101 * MSS));
        // Congestive: two windows of ACKs for one packet.
        let (cc, _) = veno_at(110, 97);
        assert_eq!(cc.control().cwnd, Some(100 * MSS));
        let (cc, _) = veno_at(110, 97 + 101);
        assert_eq!(cc.control().cwnd, Some(101 * MSS));
    }
}

//! YeAH-TCP (Yet Another Highspeed TCP): Scalable TCP while the queue is short, Reno when it
//! is not, and a precautionary decongestion that drains the flow's own queue.
//!
//! Sources: A. Baiocchi, A. P. Castellani, F. Vacirca, "YeAH-TCP: Yet Another Highspeed TCP",
//! PFLDnet 2007; Linux `net/ipv4/tcp_yeah.c` (alpha 80, gamma 1, delta 3, epsilon 1, phy 8,
//! rho 16, zeta 50, Scalable's 100-ACK counter).
//!
//! Slow start as Reno. In congestion avoidance the "fast" mode grows as Scalable TCP
//! (`+1` per `min(cwnd, 100)` ACKs: +1 % per RTT) and the "slow" mode as Reno. Once per round
//! trip with more than two RTT samples, from Vegas's measurements (`base_rtt`, the round's
//! minimum `rtt`):
//!
//! - `Q = cwnd·(rtt − base_rtt)/rtt` packets queued by the flow, `L = Q/cwnd`;
//! - if `Q > alpha` or `rtt − base_rtt > base_rtt/phy` the mode is slow; then, if `Q > alpha`
//!   and `cwnd > reno_count`, precautionary decongestion `cwnd −= min(Q/gamma, cwnd/2^epsilon)`
//!   (never below `reno_count`), `ssthresh = cwnd`; `reno_count` (the window a Reno competitor
//!   would have) is set to `cwnd/2` or counted up, and `doing_reno_now` counts the slow rounds;
//! - otherwise the mode is fast; after `zeta` fast rounds `reno_count` goes back to 2.
//!
//! On a loss, if the last `rho` rounds were not all slow (no Reno competitor), only the queue
//! is removed: `cwnd −= max(min(Q, cwnd/2), cwnd/2^delta)`; otherwise `cwnd/2`.

use super::vegas_core::{restart_round, Phase, Shell, VegasRtt, MIN_ROUND_SAMPLES};
use crate::controller::*;
use crate::round::RoundCounter;
use crate::units::Time;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct YeahConfig {
    /// Packets queued at the bottleneck above which the flow decongests.
    pub alpha: u64,
    /// The decongestion removes `Q/gamma` packets per RTT.
    pub gamma: u64,
    /// On loss at least `cwnd/2^delta` is removed.
    pub delta: u32,
    /// The decongestion removes at most `cwnd/2^epsilon`.
    pub epsilon: u32,
    /// Queueing delay above `base_rtt/phy` means slow mode.
    pub phy: u32,
    /// Consecutive slow rounds after which a loss halves the window (Reno competition).
    pub rho: u32,
    /// Fast rounds after which `reno_count` is reset.
    pub zeta: u32,
    /// Scalable TCP's ACK count per packet of growth (`TCP_SCALABLE_AI_CNT`).
    pub scalable_ai_cnt: u64,
}

impl Default for YeahConfig {
    fn default() -> Self {
        YeahConfig { alpha: 80, gamma: 1, delta: 3, epsilon: 1, phy: 8, rho: 16, zeta: 50, scalable_ai_cnt: 100 }
    }
}

#[derive(Clone, Debug)]
pub struct Yeah {
    cfg: YeahConfig,
    shell: Shell,
    rtt: VegasRtt,
    round: RoundCounter,
    /// Q of the last round, packets.
    last_q: u64,
    /// Consecutive slow (Reno) rounds; 0 in fast mode.
    doing_reno_now: u32,
    /// A Reno competitor's window estimate, packets.
    reno_count: u64,
    fast_count: u32,
}

impl Yeah {
    pub fn new(cfg: &YeahConfig, init: CcInit) -> Yeah {
        Yeah {
            cfg: cfg.clone(),
            shell: Shell::new(init),
            rtt: VegasRtt::default(),
            round: RoundCounter::default(),
            last_q: 0,
            doing_reno_now: 0,
            reno_count: 2,
            fast_count: 0,
        }
    }

    /// Fast (Scalable) or slow (Reno) congestion avoidance.
    pub fn fast_mode(&self) -> bool {
        self.doing_reno_now == 0
    }

    /// The once-per-round decision on the flow's queue `q` (packets) and its queueing delay.
    fn decongest(&mut self, q: u64, queueing_delay: Time, base_rtt: Time) {
        let c = &self.cfg;
        if q > c.alpha || queueing_delay.as_nanos() > base_rtt.as_nanos() / c.phy.max(1) as u64 {
            let cwnd = self.shell.cwnd_pkts();
            if q > c.alpha && cwnd > self.reno_count {
                let reduction = (q / c.gamma.max(1)).min(cwnd >> c.epsilon);
                let cwnd = (cwnd - reduction).max(self.reno_count);
                self.shell.set_cwnd_pkts(cwnd);
                self.shell.set_ssthresh_pkts(cwnd);
            }
            let cwnd = self.shell.cwnd_pkts();
            self.reno_count = if self.reno_count <= 2 { (cwnd >> 1).max(2) } else { self.reno_count + 1 };
            self.doing_reno_now = (self.doing_reno_now + 1).min(0xff_ffff);
        } else {
            self.fast_count += 1;
            if self.fast_count > c.zeta {
                self.reno_count = 2;
                self.fast_count = 0;
            }
            self.doing_reno_now = 0;
        }
        self.last_q = q;
    }

    /// Linux `tcp_yeah_ssthresh`, packets.
    fn ssthresh(&mut self) -> u64 {
        let cwnd = self.shell.cwnd_pkts();
        let half = (cwnd >> 1).max(2);
        let reduction = if self.doing_reno_now < self.cfg.rho {
            self.last_q.min(half).max(cwnd >> self.cfg.delta)
        } else {
            half
        };
        self.fast_count = 0;
        self.reno_count = (self.reno_count >> 1).max(2);
        cwnd.saturating_sub(reduction).max(2)
    }
}

impl CongestionControl for Yeah {
    fn name(&self) -> &'static str {
        "yeah"
    }
    fn on_loss(&mut self, fb: &Feedback, _ctx: &mut Ctx) {
        if fb.new_episode {
            let ss = self.ssthresh();
            self.shell.reduce_to(ss);
        }
    }
    fn on_ack(&mut self, fb: &Feedback, _ctx: &mut Ctx) {
        self.rtt.on_sample(fb.rtt_sample);
        match self.shell.phase(fb) {
            Phase::Recovery => return,
            Phase::Open { reopened: true } => {
                self.rtt.restart();
                restart_round(&mut self.round, fb);
            }
            Phase::Open { reopened: false } | Phase::Loss => {}
        }
        if fb.growth_withheld || !self.shell.w.is_cwnd_limited(fb.cwnd_use) {
            return; // a SACK-only ACK (tcp_may_raise_cwnd), or an unfilled window (tcp_yeah_cong_avoid)
        }
        let mss = self.shell.mss;
        let w = &mut self.shell.w;
        let rest = if w.in_slow_start() { w.slow_start(fb.acked_bytes) } else { fb.acked_bytes };
        if rest > 0 {
            let cwnd = (w.cwnd / mss).max(1);
            let a = if self.doing_reno_now == 0 {
                cwnd as f64 / cwnd.min(self.cfg.scalable_ai_cnt).max(1) as f64
            } else {
                1.0
            };
            w.additive_increase(rest, mss, a);
        }
        if self.round.on_feedback(fb) {
            if let Some(r) = self.rtt.end_round(MIN_ROUND_SAMPLES) {
                let q = r.backlog(self.shell.cwnd_pkts() as f64) as u64;
                self.decongest(q, r.queueing_delay(), r.base_rtt);
            }
        }
    }
    fn on_idle_restart(&mut self, restart: &IdleRestart, _ctx: &mut Ctx) {
        self.shell.restart_after_idle(restart);
    }
    fn on_timeout(&mut self, _ctx: &mut Ctx) {
        let ss = (!self.shell.in_recovery()).then(|| self.ssthresh());
        self.shell.timeout(ss);
    }
    /// Linux's YeAH takes Vegas's `cwnd_event`: `tcp_vegas_init` on `CA_EVENT_TX_START` (the
    /// sender raises it after every idle restart too).
    fn on_tx_start(&mut self, _tx: &TxStart, _ctx: &mut Ctx) {
        self.rtt = VegasRtt::default();
    }
    fn control(&self) -> Control {
        self.shell.control()
    }
    fn snapshot(&self) -> Snapshot {
        let mode = if self.fast_mode() { "fast" } else { "slow" };
        self.shell.snapshot(self.shell.state_or(mode), self.rtt.base_rtt)
    }
}


impl crate::check::Validate for YeahConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // Linux tcp_yeah.c's module parameters; the shifts (`cwnd >> delta`, `>> epsilon`) must
        // stay below the width of a window, and gamma and phy are divisors.
        within("alpha", self.alpha, 0..=1_000_000)?;
        within("gamma", self.gamma, 1..=1_000_000)?;
        within("delta", self.delta, 0..=31)?;
        within("epsilon", self.epsilon, 0..=31)?;
        within("phy", self.phy, 1..=1_000_000)?;
        within("rho", self.rho, 0..=1_000_000)?;
        within("zeta", self.zeta, 0..=1_000_000)?;
        within("scalable_ai_cnt", self.scalable_ai_cnt, 1..=1_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    fn yeah_in_ca(cwnd: u64) -> Yeah {
        let mut cc = Yeah::new(&YeahConfig::default(), init(cwnd * MSS));
        cc.shell.w.ssthresh = 10 * MSS;
        cc
    }

    #[test]
    fn fast_mode_grows_one_percent_per_rtt() {
        let mut cc = yeah_in_ca(1000);
        let mut d = Rounds::new();
        d.round(&mut cc, ms(100));
        assert!(cc.fast_mode());
        assert_eq!(cc.control().cwnd, Some(1010 * MSS));
        assert_eq!(cc.snapshot().state, "fast");
    }

    #[test]
    fn a_long_queue_is_drained_and_the_mode_turns_slow() {
        let mut cc = yeah_in_ca(1000);
        // Q = 200 > 80: the window loses Q, ssthresh follows, reno_count = cwnd/2.
        cc.decongest(200, ms(25), ms(100));
        assert_eq!(cc.control().cwnd, Some(800 * MSS));
        assert_eq!(cc.snapshot().ssthresh, Some(800 * MSS));
        assert!(!cc.fast_mode());
        assert_eq!(cc.reno_count, 400);
        // Q = 900: at most half the window, and never below reno_count.
        cc.decongest(900, ms(25), ms(100));
        assert_eq!(cc.control().cwnd, Some(400 * MSS));
        assert_eq!(cc.reno_count, 401);
        assert_eq!(cc.doing_reno_now, 2);
    }

    #[test]
    fn rounds_with_a_long_queue_trigger_decongestion() {
        let mut cc = yeah_in_ca(1000);
        let mut d = Rounds::new();
        d.rounds(&mut cc, 2, ms(100));
        let before = cc.control().cwnd.unwrap();
        d.round(&mut cc, ms(125));
        d.round(&mut cc, ms(125)); // Q = cwnd·25/125: a fifth of the window goes
        assert!(!cc.fast_mode());
        assert!(cc.control().cwnd.unwrap() < before * 17 / 20, "{:?} from {before}", cc.control().cwnd);
    }

    #[test]
    fn loss_removes_the_queue_unless_competing_with_reno() {
        // Fast mode, last Q = 30 of 400: removes max(min(30, 200), 400/8) = 50.
        let mut cc = yeah_in_ca(400);
        cc.last_q = 30;
        let mut h = Harness::new();
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(350 * MSS));
        // Last Q = 120: removes 120.
        let mut cc = yeah_in_ca(400);
        cc.last_q = 120;
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(280 * MSS));
        // After rho slow rounds: Reno's halving.
        let mut cc = yeah_in_ca(400);
        cc.last_q = 30;
        cc.doing_reno_now = 16;
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(200 * MSS));
    }

    #[test]
    fn queueing_delay_above_an_eighth_of_base_rtt_is_slow_mode_without_decongestion() {
        let mut cc = yeah_in_ca(100);
        let mut d = Rounds::new();
        // Below 100 packets Scalable's counter is Reno's: 100 → 101 → 102 → 103.
        d.rounds(&mut cc, 2, ms(100));
        d.rounds(&mut cc, 2, ms(115));
        // The second 115 ms round starts by ending the first: Q = 103·15/115 = 13 < 80, but
        // 15 ms > 100/8 ms: slow mode, no decongestion, reno_count = 103/2; Reno then adds one.
        assert!(!cc.fast_mode());
        assert_eq!(cc.reno_count, 51);
        assert_eq!(cc.control().cwnd, Some(104 * MSS));
        assert_eq!(cc.snapshot().state, "slow");
    }
}

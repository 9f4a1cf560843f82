//! Compound TCP: Reno's loss-based window plus a scalable delay-based window.
//!
//! Sources: K. Tan, J. Song, Q. Zhang, M. Sridharan, "A Compound TCP Approach for High-speed
//! and Long Distance Networks", INFOCOM 2006; M. Sridharan, K. Tan, D. Bansal, D. Thaler,
//! draft-sridharan-tcpm-ctcp-02 (2008). (Windows' implementation is closed; the Linux
//! out-of-tree `tcp_compound.c` of Castellani, Hemminger and Andrew was read for comparison.)
//!
//! The sending window is `win = cwnd + dwnd` (capped by the receiver window):
//!
//! - `cwnd`, the loss-based part, follows Reno with the increase spread over the whole window:
//!   `cwnd += 1/win` per acknowledged packet in congestion avoidance, slow start as Reno.
//! - `dwnd`, the delay-based part, changes once per round trip in congestion avoidance, from
//!   Vegas's estimate of the flow's queued packets `diff = win·(rtt − base_rtt)/rtt`:
//!   `dwnd += (alpha·win^k − 1)⁺` if `diff < gamma`, `dwnd = (dwnd − zeta·diff)⁺` otherwise.
//!   With `alpha = 1/8`, `k = 3/4` the growth is HighSpeed TCP's; past gamma = 30 packets of
//!   queue dwnd gives its share back.
//! - On a loss `cwnd = cwnd/2` and `dwnd = (win·(1 − beta) − cwnd/2)⁺`, `beta = 1/2`, so that
//!   `win` falls to `(1 − beta)·win` as a whole. On a timeout `dwnd = 0` and Reno's timeout
//!   applies to the total window (`ssthresh = win/2`, `cwnd = 1`).

use super::vegas_core::{restart_round, Phase, RoundRtt, Shell, VegasRtt, MIN_ROUND_SAMPLES};
use crate::controller::*;
use crate::round::RoundCounter;
use crate::units::Bytes;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CompoundConfig {
    /// Scale of dwnd's growth, `alpha·win^k` per RTT.
    pub alpha: f64,
    /// Exponent of dwnd's growth.
    pub k: f64,
    /// Multiplicative decrease of the whole window on loss.
    pub beta: f64,
    /// Queued packets from which dwnd shrinks.
    pub gamma: f64,
    /// dwnd shrinks by `zeta·diff` per RTT.
    pub zeta: f64,
}

impl Default for CompoundConfig {
    fn default() -> Self {
        CompoundConfig { alpha: 0.125, k: 0.75, beta: 0.5, gamma: 30.0, zeta: 1.0 }
    }
}

impl CompoundConfig {
    /// dwnd after one round in congestion avoidance (packets).
    pub fn next_dwnd(&self, dwnd: f64, win: f64, diff: f64) -> f64 {
        if diff < self.gamma {
            dwnd + (self.alpha * win.powf(self.k) - 1.0).max(0.0)
        } else {
            (dwnd - self.zeta * diff).max(0.0)
        }
    }

    /// dwnd after a loss, given the window before it and the halved cwnd (packets).
    pub fn dwnd_after_loss(&self, win: f64, cwnd_after: f64) -> f64 {
        (win * (1.0 - self.beta) - cwnd_after).max(0.0)
    }
}

#[derive(Clone, Debug)]
pub struct Compound {
    cfg: CompoundConfig,
    /// The loss-based window (cwnd) and ssthresh.
    shell: Shell,
    /// The delay-based window, packets.
    pub dwnd: f64,
    rtt: VegasRtt,
    round: RoundCounter,
}

impl Compound {
    pub fn new(cfg: &CompoundConfig, init: CcInit) -> Compound {
        Compound { cfg: cfg.clone(), shell: Shell::new(init), dwnd: 0.0, rtt: VegasRtt::default(), round: RoundCounter::default() }
    }

    /// `win = cwnd + dwnd`, bytes.
    pub fn win(&self) -> Bytes {
        self.shell.w.cwnd + self.dwnd as Bytes * self.shell.mss
    }

    fn win_pkts(&self) -> f64 {
        self.shell.cwnd_pkts() as f64 + self.dwnd.floor()
    }

    fn update_dwnd(&mut self, r: RoundRtt) {
        let win = self.win_pkts();
        self.dwnd = self.cfg.next_dwnd(self.dwnd, win, r.backlog(win));
    }
}

impl CongestionControl for Compound {
    fn name(&self) -> &'static str {
        "compound"
    }
    fn on_loss(&mut self, fb: &Feedback, _ctx: &mut Ctx) {
        if fb.new_episode {
            let win = self.win_pkts();
            self.shell.reduce_to(self.shell.cwnd_pkts() / 2);
            self.dwnd = self.cfg.dwnd_after_loss(win, self.shell.cwnd_pkts() as f64);
        }
    }
    fn on_ack(&mut self, fb: &Feedback, _ctx: &mut Ctx) {
        self.rtt.on_sample(fb.rtt_sample);
        // The Linux port's cong_avoid first asks tcp_is_cwnd_limited of the whole window.
        let filled = fb.cwnd_use.is_cwnd_limited(self.win(), self.shell.w.in_slow_start());
        match self.shell.phase(fb) {
            Phase::Recovery => return,
            Phase::Loss if fb.growth_withheld || !filled => return,
            Phase::Loss => return self.shell.w.reno_increase(fb.acked_bytes, self.shell.mss),
            Phase::Open { reopened: true } => {
                self.rtt.restart();
                restart_round(&mut self.round, fb);
            }
            Phase::Open { reopened: false } => {}
        }
        if fb.growth_withheld || !filled {
            return; // a SACK-only ACK (tcp_may_raise_cwnd), or a window the flow does not fill
        }
        let mss = self.shell.mss;
        let share = self.shell.w.cwnd as f64 / self.win().max(mss) as f64;
        let w = &mut self.shell.w;
        let rest = if w.in_slow_start() { w.slow_start(fb.acked_bytes) } else { fb.acked_bytes };
        w.additive_increase(rest, mss, share);
        if self.round.on_feedback(fb) {
            if let Some(r) = self.rtt.end_round(MIN_ROUND_SAMPLES) {
                if !self.shell.w.in_slow_start() {
                    self.update_dwnd(r);
                }
            }
        }
    }
    fn on_timeout(&mut self, _ctx: &mut Ctx) {
        let ss = (!self.shell.in_recovery()).then(|| self.win_pkts() as u64 / 2);
        self.dwnd = 0.0;
        self.shell.timeout(ss);
    }
    /// The delay measurements start again, and the loss-based window restarts as every Linux
    /// module's does (`tcp_cwnd_restart`); the delay window stays.
    fn on_idle_restart(&mut self, restart: &IdleRestart, _ctx: &mut Ctx) {
        self.rtt.restart();
        self.shell.restart_after_idle(restart);
    }
    fn control(&self) -> Control {
        Control { cwnd: Some(self.win()), ..self.shell.control() }
    }
    fn snapshot(&self) -> Snapshot {
        let state = if self.dwnd >= 1.0 { "cong_avoid_dwnd" } else { "cong_avoid" };
        Snapshot { cwnd: Some(self.win()), ..self.shell.snapshot(self.shell.state_or(state), self.rtt.base_rtt) }
    }
}


impl crate::check::Validate for CompoundConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // draft-sridharan-tcpm-ctcp-02: dwnd grows by alpha·win^k (0 < k < 1), the window
        // shrinks by beta on loss, gamma queued packets is the early-congestion threshold.
        within("alpha", self.alpha, above(0.0, 1e3))?;
        within("k", self.k, open(0.0, 1.0))?;
        within("beta", self.beta, open(0.0, 1.0))?;
        within("gamma", self.gamma, above(0.0, 1e6))?;
        within("zeta", self.zeta, above(0.0, 1e3))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    #[test]
    fn dwnd_grows_as_alpha_win_to_the_k_below_gamma_and_shrinks_by_diff_above() {
        let c = CompoundConfig::default();
        // win = 1296 = 6^4: win^0.75 = 216, alpha·216 − 1 = 26.
        assert!((c.next_dwnd(100.0, 1296.0, 5.0) - 126.0).abs() < 1e-9);
        // Small windows: alpha·win^k < 1, no growth (16^0.75/8 = 1).
        assert_eq!(c.next_dwnd(0.0, 16.0, 0.0), 0.0);
        // diff ≥ gamma: dwnd −= zeta·diff, not below zero.
        assert_eq!(c.next_dwnd(100.0, 1296.0, 40.0), 60.0);
        assert_eq!(c.next_dwnd(10.0, 1296.0, 40.0), 0.0);
    }

    #[test]
    fn loss_takes_the_whole_window_to_half() {
        let c = CompoundConfig::default();
        // win = 600 (cwnd 200, dwnd 400): cwnd → 100, dwnd = 300 − 100 = 200, win → 300.
        assert_eq!(c.dwnd_after_loss(600.0, 100.0), 200.0);
        let mut cc = Compound::new(&c, init(200 * MSS));
        cc.dwnd = 400.0;
        assert_eq!(cc.control().cwnd, Some(600 * MSS));
        let mut h = Harness::new();
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(300 * MSS));
        assert_eq!(cc.dwnd, 200.0);
        // A loss when dwnd is small: dwnd = (win/2 − cwnd/2)⁺ = 0.
        let mut cc = Compound::new(&c, init(200 * MSS));
        h.loss(&mut cc, true);
        assert_eq!((cc.control().cwnd, cc.dwnd), (Some(100 * MSS), 0.0));
    }

    #[test]
    fn dwnd_fills_an_empty_pipe_once_per_round() {
        let mut cc = Compound::new(&CompoundConfig::default(), init(1296 * MSS));
        cc.shell.w.ssthresh = 100 * MSS;
        let mut d = Rounds::new();
        d.round(&mut cc, ms(100)); // its first ACK has one sample: no decision
        assert_eq!(cc.dwnd, 0.0);
        // The next round starts by evaluating this one: no queueing, dwnd += 1296^0.75/8 − 1.
        // cwnd grew by 1296 ACKs · 1/1296 = 1 meanwhile, win = 1297.
        d.round(&mut cc, ms(100));
        let expect = 0.125 * 1297f64.powf(0.75) - 1.0;
        assert!((cc.dwnd - expect).abs() < 1e-9, "{} vs {expect}", cc.dwnd);
        // A queue of more than gamma packets gives dwnd back.
        d.round(&mut cc, ms(110));
        d.round(&mut cc, ms(110));
        assert_eq!(cc.dwnd, 0.0);
        assert_eq!(cc.snapshot().state, "cong_avoid");
    }

    #[test]
    fn timeout_drops_dwnd_and_halves_the_total() {
        let mut cc = Compound::new(&CompoundConfig::default(), init(200 * MSS));
        cc.dwnd = 100.0;
        let mut h = Harness::new();
        h.timeout(&mut cc);
        assert_eq!(cc.control().cwnd, Some(MSS));
        assert_eq!(cc.snapshot().ssthresh, Some(150 * MSS));
    }
}

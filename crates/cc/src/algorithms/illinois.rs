//! TCP-Illinois: AIMD whose increase and decrease follow the queueing delay.
//!
//! Sources: S. Liu, T. Başar, R. Srikant, "TCP-Illinois: A Loss and Delay-Based Congestion
//! Control Algorithm for High-Speed Networks", VALUETOOLS 2006; Linux
//! `net/ipv4/tcp_illinois.c` (alpha 0.3..10, beta 1/8..1/2, win_thresh 15, theta 5).
//!
//! Per ACK in congestion avoidance `cwnd += alpha/cwnd`; on loss `cwnd ← (1 − beta)·cwnd`.
//! Once per round trip, with `da` the round's average queueing delay (mean RTT − base RTT) and
//! `dm` the largest queueing delay seen (max RTT − base RTT):
//!
//! - `alpha = alpha_max` while `da ≤ d1 = dm/100`; above, the concave curve
//!   `alpha = κ1/(κ2 + da)` with `κ1 = (dm − d1)·alpha_min·alpha_max/(alpha_max − alpha_min)` and
//!   `κ2 = (dm − d1)·alpha_min/(alpha_max − alpha_min) − d1`, which falls from `alpha_max` at
//!   `d1` to `alpha_min` at `dm`. After delay has been above `d1`, alpha returns to `alpha_max`
//!   only after `theta` rounds in a row below it.
//! - `beta = beta_min` for `da ≤ d2 = dm/10`, `beta_max` for `da ≥ d3 = 8·dm/10`, linear in
//!   between.
//! - Below `win_thresh` packets, or after a timeout, it is Reno (`alpha = 1`, `beta = 1/2`).

use crate::aimd::{Aimd, AimdLaw};
use crate::controller::*;
use crate::round::RoundCounter;
use crate::units::{Bytes, Rate, Time};
use crate::window::RenoWindow;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IllinoisConfig {
    pub alpha_min: f64,
    pub alpha_max: f64,
    pub beta_min: f64,
    pub beta_max: f64,
    /// Below this window (packets) alpha and beta are Reno's.
    pub win_thresh: u64,
    /// Rounds of low delay before alpha returns to alpha_max.
    pub theta: u32,
}

impl Default for IllinoisConfig {
    fn default() -> Self {
        IllinoisConfig { alpha_min: 0.3, alpha_max: 10.0, beta_min: 0.125, beta_max: 0.5, win_thresh: 15, theta: 5 }
    }
}

impl IllinoisConfig {
    /// The alpha curve for average queueing delay `da` and maximum `dm` (any time unit), above
    /// the low-delay threshold `d1 = dm/100`.
    pub fn alpha_curve(&self, da: f64, dm: f64) -> f64 {
        let d1 = dm / 100.0;
        if da <= d1 {
            return self.alpha_max;
        }
        let (dm, da) = (dm - d1, da - d1);
        dm * self.alpha_max / (dm + da * (self.alpha_max - self.alpha_min) / self.alpha_min)
    }

    /// The beta line for average queueing delay `da` and maximum `dm`.
    pub fn beta_curve(&self, da: f64, dm: f64) -> f64 {
        let (d2, d3) = (dm / 10.0, 8.0 * dm / 10.0);
        if da <= d2 {
            self.beta_min
        } else if da >= d3 || d3 <= d2 {
            self.beta_max
        } else {
            (self.beta_min * d3 - self.beta_max * d2 + (self.beta_max - self.beta_min) * da) / (d3 - d2)
        }
    }
}

#[derive(Clone, Debug)]
pub struct IllinoisLaw {
    cfg: IllinoisConfig,
    base_rtt: Option<Time>,
    max_rtt: Time,
    /// Sum and count of the round's RTT samples (ns).
    sum_rtt: u128,
    cnt_rtt: u64,
    round: RoundCounter,
    pub alpha: f64,
    pub beta: f64,
    /// The average delay has been above d1 since alpha was last at its maximum.
    rtt_above: bool,
    /// Consecutive rounds below d1 since then.
    rtt_low: u32,
}

impl IllinoisLaw {
    fn reno(&mut self) {
        self.alpha = 1.0;
        self.beta = 0.5;
    }

    /// Linux `alpha()`: the curve, with the `theta`-round wait before returning to the maximum.
    fn next_alpha(&mut self, da: f64, dm: f64) -> f64 {
        if da <= dm / 100.0 {
            if !self.rtt_above {
                return self.cfg.alpha_max;
            }
            self.rtt_low += 1;
            if self.rtt_low < self.cfg.theta {
                return self.alpha;
            }
            self.rtt_low = 0;
            self.rtt_above = false;
            return self.cfg.alpha_max;
        }
        self.rtt_above = true;
        self.cfg.alpha_curve(da, dm)
    }

    /// Once per round: alpha and beta from the round's delays, then a clean slate.
    fn update_params(&mut self, cwnd_pkts: u64) {
        if cwnd_pkts < self.cfg.win_thresh {
            self.reno();
        } else if let (Some(base), true) = (self.base_rtt, self.cnt_rtt > 0) {
            let base = base.as_nanos() as f64;
            let dm = self.max_rtt.as_nanos() as f64 - base;
            let da = (self.sum_rtt / self.cnt_rtt as u128) as f64 - base;
            self.alpha = self.next_alpha(da, dm);
            self.beta = self.cfg.beta_curve(da, dm);
        }
        self.sum_rtt = 0;
        self.cnt_rtt = 0;
    }
}

impl AimdLaw for IllinoisLaw {
    type Config = IllinoisConfig;

    fn name(&self) -> &'static str {
        "illinois"
    }

    fn new(cfg: &IllinoisConfig, _init: CcInit) -> IllinoisLaw {
        IllinoisLaw {
            cfg: cfg.clone(),
            base_rtt: None,
            max_rtt: Time::ZERO,
            sum_rtt: 0,
            cnt_rtt: 0,
            round: RoundCounter::default(),
            alpha: cfg.alpha_max,
            beta: cfg.beta_max,
            rtt_above: false,
            rtt_low: 0,
        }
    }

    fn observe(&mut self, w: &mut RenoWindow, fb: &Feedback, ctx: &mut Ctx) {
        if let Some(rtt) = fb.rtt_sample {
            self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
            self.max_rtt = self.max_rtt.max(rtt);
            self.sum_rtt += rtt.as_nanos() as u128;
            self.cnt_rtt += 1;
        }
        // tcp_illinois_cong_avoid: once per round, outside recovery.
        if !fb.in_recovery && fb.acked_bytes > 0 && !fb.growth_withheld && self.round.on_feedback(fb) {
            self.update_params(w.cwnd / ctx.mss);
        }
    }

    fn increase(&mut self, _w: &RenoWindow, _mss: Bytes, _acked: Bytes, _ctx: &Ctx) -> f64 {
        self.alpha
    }

    fn ssthresh(&mut self, w: &RenoWindow, mss: Bytes, _fb: &Feedback, _ctx: &Ctx) -> Bytes {
        w.less_cut(self.beta, mss)
    }

    /// The decrease uses the current beta; then the loss state resets alpha and beta to Reno's
    /// (`tcp_illinois_state(TCP_CA_Loss)`).
    fn ssthresh_after_timeout(&mut self, w: &RenoWindow, mss: Bytes, ctx: &Ctx) -> Bytes {
        let ss = self.ssthresh(w, mss, &Feedback::default(), ctx);
        self.reno();
        self.rtt_low = 0;
        self.rtt_above = false;
        self.sum_rtt = 0;
        self.cnt_rtt = 0;
        ss
    }

    fn estimates(&self) -> (Option<Rate>, Option<Time>) {
        (None, self.base_rtt)
    }
}

pub type Illinois = Aimd<IllinoisLaw>;


impl crate::check::Validate for IllinoisConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // Liu, Basar & Srikant: 0 < alpha_min <= alpha_max and 0 < beta_min <= beta_max < 1.
        within("alpha_min", self.alpha_min, above(0.0, 1e3))?;
        within("alpha_max", self.alpha_max, above(0.0, 1e3))?;
        ordered("alpha_min", self.alpha_min, "alpha_max", self.alpha_max)?;
        within("beta_min", self.beta_min, open(0.0, 1.0))?;
        within("beta_max", self.beta_max, open(0.0, 1.0))?;
        ordered("beta_min", self.beta_min, "beta_max", self.beta_max)?;
        within("win_thresh", self.win_thresh, 0..=1_000_000_000)?;
        within("theta", self.theta, 0..=1_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    #[test]
    fn alpha_and_beta_at_the_delay_extremes() {
        let c = IllinoisConfig::default();
        let dm = 50.0;
        // No queueing delay: grow fast, decrease gently.
        assert_eq!(c.alpha_curve(0.0, dm), 10.0);
        assert_eq!(c.beta_curve(0.0, dm), 0.125);
        // Maximum delay: grow slowly, halve.
        assert!((c.alpha_curve(dm, dm) - 0.3).abs() < 1e-12);
        assert_eq!(c.beta_curve(dm, dm), 0.5);
    }

    #[test]
    fn curves_between_the_thresholds() {
        let c = IllinoisConfig::default();
        let dm = 100.0;
        // alpha = κ1/(κ2 + da): at da = d1 it is alpha_max, and it falls monotonically.
        assert!((c.alpha_curve(1.0, dm) - 10.0).abs() < 1e-9);
        // da = 50.5: (dm − d1) = 99, (da − d1) = 49.5: 99·10/(99 + 49.5·9.7/0.3) = 0.5825.
        assert!((c.alpha_curve(50.5, dm) - 990.0 / (99.0 + 49.5 * 9.7 / 0.3)).abs() < 1e-9);
        // beta is linear from 1/8 at d2 = 10 to 1/2 at d3 = 80: at 45 it is the midpoint.
        assert!((c.beta_curve(45.0, dm) - 0.3125).abs() < 1e-12);
        assert_eq!(c.beta_curve(10.0, dm), 0.125);
        assert_eq!(c.beta_curve(80.0, dm), 0.5);
    }

    #[test]
    fn small_windows_behave_as_reno() {
        let mut cc = Illinois::new(&IllinoisConfig::default(), init(10 * MSS));
        cc.w.ssthresh = 5 * MSS;
        let mut h = Harness::new();
        h.ack_n(&mut cc, 1, false);
        assert_eq!((cc.law.alpha, cc.law.beta), (1.0, 0.5));
        h.ack_n(&mut cc, 9, false);
        assert_eq!(cc.control().cwnd, Some(11 * MSS));
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(6 * MSS));
    }

    #[test]
    fn large_window_without_queueing_grows_ten_per_rtt_and_loses_an_eighth() {
        let mut cc = Illinois::new(&IllinoisConfig::default(), init(100 * MSS));
        cc.w.ssthresh = 50 * MSS;
        let mut h = Harness::new();
        // The harness acknowledges with a constant RTT: da = dm = 0, every ACK a new round.
        // cwnd += 10/cwnd per ACK: 100 ACKs give 9 packets (the window grows meanwhile).
        h.ack_n(&mut cc, 100, false);
        assert_eq!(cc.law.alpha, 10.0);
        assert_eq!(cc.control().cwnd, Some(109 * MSS));
        h.loss(&mut cc, true);
        // 109 − ⌊109/8⌋ = 96.
        assert_eq!(cc.control().cwnd, Some(96 * MSS));
    }

    #[test]
    fn timeout_resets_to_reno() {
        let mut cc = Illinois::new(&IllinoisConfig::default(), init(100 * MSS));
        let mut h = Harness::new();
        h.ack_n(&mut cc, 1, false);
        h.timeout(&mut cc);
        assert_eq!((cc.law.alpha, cc.law.beta), (1.0, 0.5));
        // Slow start took cwnd to 101 with beta = 1/8: 101 − ⌊101/8⌋ = 89.
        assert_eq!(cc.snapshot().ssthresh, Some(89 * MSS));
    }
}

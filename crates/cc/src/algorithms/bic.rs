//! BIC TCP, binary increase congestion control (Xu, Harfoush, Rhee, INFOCOM 2004; Linux
//! `net/ipv4/tcp_bic.c`).
//!
//! After a loss the window binary-searches for the loss point `W_max`: each RTT it grows by
//! half the distance to `W_max` (`(W_max − cwnd)/B`, B = 4), but never more than `S_max` = 16
//! segments, and by at least `1/smooth_part`-ish near the target; past `W_max` it probes slowly,
//! then ever faster ("max probing"). On loss `ssthresh = β·cwnd` with β = 0.8 (819/1024); with
//! fast convergence, a loss below the previous `W_max` sets `W_max = cwnd·(1 + β)/2`. Below
//! `low_window` = 14 segments it is Reno. In Linux terms the growth is one segment per `cnt`
//! ACKs, i.e. `cwnd/cnt` segments per RTT.

use crate::aimd::{Aimd, AimdLaw};
use crate::controller::*;
use crate::units::Bytes;
use crate::window::RenoWindow;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BicConfig {
    pub fast_convergence: bool,
    /// Largest increment per RTT, segments (S_max).
    pub max_increment: f64,
    pub low_window: f64,
    /// β (Linux 819/1024).
    pub beta: f64,
    pub smooth_part: f64,
    /// Binary search coefficient B.
    pub b: f64,
}

impl Default for BicConfig {
    fn default() -> Self {
        BicConfig { fast_convergence: true, max_increment: 16.0, low_window: 14.0, beta: 819.0 / 1024.0, smooth_part: 20.0, b: 4.0 }
    }
}

impl BicConfig {
    /// Linux's `cnt`: ACKs per one-segment increase at `cwnd` with the loss point `w_max`.
    pub fn cnt(&self, cwnd: f64, w_max: f64) -> f64 {
        let cnt = if cwnd <= self.low_window {
            cwnd
        } else if cwnd < w_max {
            let dist = (w_max - cwnd) / self.b;
            if dist > self.max_increment {
                cwnd / self.max_increment // linear increase
            } else if dist <= 1.0 {
                cwnd * self.smooth_part / self.b // binary search near the target
            } else {
                cwnd / dist // binary search
            }
        } else if cwnd < w_max + self.b {
            cwnd * self.smooth_part / self.b // slow start past W_max
        } else if cwnd < w_max + self.max_increment * (self.b - 1.0) {
            cwnd * (self.b - 1.0) / (cwnd - w_max) // max probing
        } else {
            cwnd / self.max_increment // linear
        };
        if w_max == 0.0 {
            cnt.min(20.0)
        } else {
            cnt.max(1.0)
        }
    }
}

#[derive(Clone, Debug)]
pub struct BicLaw {
    cfg: BicConfig,
    /// The loss point (Linux `last_max_cwnd`), segments.
    pub w_max: f64,
}

impl BicLaw {
    fn congestion(&mut self, w: &RenoWindow, mss: Bytes) -> Bytes {
        let cwnd = w.cwnd as f64 / mss as f64;
        self.w_max = if self.cfg.fast_convergence && cwnd < self.w_max { cwnd * (1.0 + self.cfg.beta) / 2.0 } else { cwnd };
        if cwnd <= self.cfg.low_window {
            w.cwnd / 2
        } else {
            (w.cwnd as f64 * self.cfg.beta) as Bytes
        }
    }
}

impl AimdLaw for BicLaw {
    type Config = BicConfig;
    fn new(cfg: &BicConfig, _init: CcInit) -> BicLaw {
        BicLaw { cfg: cfg.clone(), w_max: 0.0 }
    }
    fn name(&self) -> &'static str {
        "bic"
    }
    fn increase(&mut self, w: &RenoWindow, mss: Bytes, _acked: Bytes, _ctx: &Ctx) -> f64 {
        let cwnd = w.cwnd as f64 / mss as f64;
        cwnd / self.cfg.cnt(cwnd, self.w_max)
    }
    fn ssthresh(&mut self, w: &RenoWindow, mss: Bytes, _fb: &Feedback, _ctx: &Ctx) -> Bytes {
        self.congestion(w, mss)
    }
    fn ssthresh_after_timeout(&mut self, w: &RenoWindow, mss: Bytes, _ctx: &Ctx) -> Bytes {
        self.congestion(w, mss)
    }
}

pub type Bic = Aimd<BicLaw>;


impl crate::check::Validate for BicConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // Xu, Harfoush & Rhee; Linux tcp_bic.c: a decrease factor in (0, 1), a positive
        // search divisor B > 1 and maximum increment.
        within("max_increment", self.max_increment, above(0.0, 1e6))?;
        within("low_window", self.low_window, 0.0..=1e9)?;
        within("beta", self.beta, open(0.0, 1.0))?;
        within("smooth_part", self.smooth_part, above(0.0, 1e6))?;
        within("b", self.b, above(1.0, 1e3))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    #[test]
    fn binary_search_then_linear_then_max_probing() {
        let c = BicConfig::default();
        // Far below W_max: linear at S_max = 16 segments per RTT.
        assert_eq!(100.0 / c.cnt(100.0, 300.0), 16.0);
        // Distance 40 -> (40/4) = 10 segments per RTT.
        assert_eq!(260.0 / c.cnt(260.0, 300.0), 10.0);
        // Within B of W_max: smooth, cwnd·B/(cwnd·smooth_part) = 0.2 per RTT.
        assert!((299.0 / c.cnt(299.0, 300.0) - 0.2).abs() < 1e-12);
        // Just past W_max + B: (cwnd − W_max)/(B − 1) per RTT.
        assert!((310.0 / c.cnt(310.0, 300.0) - 10.0 / 3.0).abs() < 1e-12);
        // Reno below the low window.
        assert_eq!(10.0 / c.cnt(10.0, 300.0), 1.0);
    }

    #[test]
    fn loss_backs_off_to_beta_and_remembers_w_max() {
        let mut cc = Bic::new(&BicConfig::default(), init(1000 * MSS));
        let mut h = Harness::new();
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(799 * MSS)); // ⌊1000·819/1024⌋ segments, as Linux's
        assert_eq!(cc.law.w_max, 1000.0);
    }
}

//! HighSpeed TCP (RFC 3649, S. Floyd 2003); Linux `net/ipv4/tcp_highspeed.c` uses a table
//! sampled from the same functions.
//!
//! Below `Low_Window` = 38 segments it is Reno. Above, the response function
//! `w = 0.12/p^0.835` sets the AIMD parameters as functions of the window:
//!
//! - `b(w) = (High_Decrease − 0.5)·(log w − log Low_Window)/(log High_Window − log Low_Window) + 0.5`
//!   with `High_Window` = 83000 and `High_Decrease` = 0.1;
//! - `a(w) = w²·p(w)·2·b(w)/(2 − b(w))` with `p(w) = (0.12/w)^(1/0.835)`.
//!
//! Per ACK `cwnd += a(w)/w`; on loss `cwnd ← (1 − b(w))·cwnd`. RFC 3649's table:
//! a(38) = 1, b(38) = 0.50; a(1058) = 8, b(1058) = 0.33; a(83000) = 72, b(83000) = 0.10.

use crate::aimd::{Aimd, AimdLaw};
use crate::controller::*;
use crate::units::Bytes;
use crate::window::RenoWindow;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HighSpeedConfig {
    pub low_window: f64,
    pub high_window: f64,
    pub high_decrease: f64,
}

impl Default for HighSpeedConfig {
    fn default() -> Self {
        HighSpeedConfig { low_window: 38.0, high_window: 83000.0, high_decrease: 0.1 }
    }
}

impl HighSpeedConfig {
    /// b(w): the decrease fraction at a window of `w` segments.
    pub fn b(&self, w: f64) -> f64 {
        if w <= self.low_window {
            return 0.5;
        }
        let frac = (w.ln() - self.low_window.ln()) / (self.high_window.ln() - self.low_window.ln());
        ((self.high_decrease - 0.5) * frac + 0.5).max(self.high_decrease)
    }

    /// a(w): segments of increase per RTT at a window of `w` segments.
    pub fn a(&self, w: f64) -> f64 {
        if w <= self.low_window {
            return 1.0;
        }
        let p = (0.12 / w).powf(1.0 / 0.835);
        let b = self.b(w);
        (w * w * p * 2.0 * b / (2.0 - b)).max(1.0)
    }
}

#[derive(Clone, Debug)]
pub struct HighSpeedLaw {
    cfg: HighSpeedConfig,
}

impl AimdLaw for HighSpeedLaw {
    type Config = HighSpeedConfig;
    fn new(cfg: &HighSpeedConfig, _init: CcInit) -> HighSpeedLaw {
        HighSpeedLaw { cfg: cfg.clone() }
    }
    fn name(&self) -> &'static str {
        "highspeed"
    }
    fn increase(&mut self, w: &RenoWindow, mss: Bytes, _acked: Bytes, _ctx: &Ctx) -> f64 {
        self.cfg.a(w.cwnd as f64 / mss as f64)
    }
    /// `w − ⌊w·b(w)⌋` in whole segments, as Linux's `hstcp_ssthresh` rounds
    /// (`cwnd − ((cwnd·md) >> 8)`): below 38 segments b = 1/2 keeps ⌈w/2⌉.
    fn ssthresh(&mut self, w: &RenoWindow, mss: Bytes, _fb: &Feedback, _ctx: &Ctx) -> Bytes {
        w.less_cut(self.cfg.b((w.cwnd / mss) as f64), mss)
    }
    fn ssthresh_after_timeout(&mut self, w: &RenoWindow, mss: Bytes, ctx: &Ctx) -> Bytes {
        self.ssthresh(w, mss, &Feedback::default(), ctx)
    }
}

pub type HighSpeed = Aimd<HighSpeedLaw>;


impl crate::check::Validate for HighSpeedConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // RFC 3649: the response function is a line in log-log space from (Low_Window, b = 0.5)
        // to (High_Window, High_Decrease), so Low_Window < High_Window and 0 < b < 0.5.
        within("low_window", self.low_window, above(1.0, 1e9))?;
        within("high_window", self.high_window, above(1.0, 1e9))?;
        if self.high_window <= self.low_window {
            return Err(format!("high_window: {} must be above low_window ({})", self.high_window, self.low_window));
        }
        within("high_decrease", self.high_decrease, open(0.0, 0.5))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    #[test]
    fn a_and_b_match_rfc_3649s_table() {
        let c = HighSpeedConfig::default();
        // (w, a(w), b(w)) from RFC 3649 Appendix B; a is rounded there.
        for (w, a, b) in [(38.0, 1.0, 0.50), (1058.0, 8.0, 0.33), (83000.0, 72.0, 0.10)] {
            assert!((c.a(w) - a).abs() <= 1.7, "a({w}) = {}", c.a(w));
            assert!((c.b(w) - b).abs() < 0.005, "b({w}) = {}", c.b(w));
        }
        // Hand computation at w = 1058: b = 0.5 - 0.4·ln(1058/38)/ln(83000/38) = 0.32699;
        // p = (0.12/1058)^(1/0.835) = 1.8815e-5; a = 1058²·p·2b/(2 - b) = 8.24.
        assert!((c.b(1058.0) - 0.32699).abs() < 1e-4, "{}", c.b(1058.0));
        assert!((c.a(1058.0) - 8.24).abs() < 0.02, "{}", c.a(1058.0));
    }

    #[test]
    fn reno_below_the_low_window() {
        let mut cc = HighSpeed::new(&HighSpeedConfig::default(), init(20 * MSS));
        cc.w.ssthresh = 10 * MSS;
        let mut h = Harness::new();
        h.ack_rounds(&mut cc, 1);
        assert_eq!(cc.control().cwnd, Some(21 * MSS));
        h.loss(&mut cc, true);
        // 21 − ⌊21/2⌋ = 11 segments (Linux's hstcp_ssthresh with md = 128/256).
        assert_eq!(cc.control().cwnd, Some(11 * MSS));
    }

    #[test]
    fn large_windows_grow_faster_and_back_off_less() {
        let mut cc = HighSpeed::new(&HighSpeedConfig::default(), init(1058 * MSS));
        cc.w.ssthresh = 100 * MSS;
        let mut h = Harness::new();
        h.ack_rounds(&mut cc, 1);
        let grown = cc.control().cwnd.unwrap() / MSS - 1058;
        assert!((7..=9).contains(&grown), "+{grown} segments in one RTT");
        let before = cc.control().cwnd.unwrap() as f64;
        h.loss(&mut cc, true);
        let after = cc.control().cwnd.unwrap() as f64;
        assert!((after / before - 0.673).abs() < 0.01, "{}", after / before);
    }
}

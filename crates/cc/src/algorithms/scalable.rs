//! Scalable TCP: multiplicative increase, multiplicative decrease.
//!
//! Source: T. Kelly, "Scalable TCP: Improving Performance in Highspeed Wide Area Networks",
//! CCR 33(2), 2003; Linux `net/ipv4/tcp_scalable.c`.
//!
//! In congestion avoidance, `cwnd += a` per ACK with `a = 0.01` (one segment per 100 ACKs; Linux:
//! per `min(cwnd, 100)` ACKs, so Reno's rule below 100 segments); on loss
//! `cwnd ← cwnd − b·cwnd` with `b = 0.125`. The recovery time after a loss is therefore
//! independent of the window (about `log(1/(1−b))/log(1+a)` ≈ 13.4 RTTs).

use crate::aimd::{Aimd, AimdLaw};
use crate::controller::*;
use crate::units::Bytes;
use crate::window::RenoWindow;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScalableConfig {
    /// One segment of growth per this many ACKs (Linux `TCP_SCALABLE_AI_CNT`).
    pub ai_cnt: u32,
    /// Decrease factor b (Linux: `cwnd >> TCP_SCALABLE_MD_SCALE`, 1/8).
    pub md: f64,
}

impl Default for ScalableConfig {
    fn default() -> Self {
        ScalableConfig { ai_cnt: 100, md: 0.125 }
    }
}

#[derive(Clone, Debug)]
pub struct ScalableLaw {
    cfg: ScalableConfig,
}

impl ScalableLaw {
    /// Segments of growth per window of ACKs: `cwnd/min(cwnd, ai_cnt)`.
    pub fn increase_per_window(&self, cwnd_segments: f64) -> f64 {
        cwnd_segments / cwnd_segments.min(self.cfg.ai_cnt as f64)
    }
}

impl AimdLaw for ScalableLaw {
    type Config = ScalableConfig;
    fn new(cfg: &ScalableConfig, _init: CcInit) -> ScalableLaw {
        ScalableLaw { cfg: cfg.clone() }
    }
    fn name(&self) -> &'static str {
        "scalable"
    }
    fn increase(&mut self, w: &RenoWindow, mss: Bytes, _acked: Bytes, _ctx: &Ctx) -> f64 {
        self.increase_per_window(w.cwnd as f64 / mss as f64)
    }
    /// `w − ⌊w·md⌋` in whole segments, Linux's `tcp_scalable_ssthresh`
    /// (`cwnd − (cwnd >> TCP_SCALABLE_MD_SCALE)`).
    fn ssthresh(&mut self, w: &RenoWindow, mss: Bytes, _fb: &Feedback, _ctx: &Ctx) -> Bytes {
        w.less_cut(self.cfg.md, mss)
    }
    fn ssthresh_after_timeout(&mut self, w: &RenoWindow, mss: Bytes, ctx: &Ctx) -> Bytes {
        self.ssthresh(w, mss, &Feedback::default(), ctx)
    }
}

pub type Scalable = Aimd<ScalableLaw>;


impl crate::check::Validate for ScalableConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // Linux: one segment per min(cwnd, ai_cnt) ACKs, and cwnd·(1 − md) after a loss.
        within("ai_cnt", self.ai_cnt, 1..=1_000_000)?;
        within("md", self.md, open(0.0, 1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    #[test]
    fn grows_one_percent_per_rtt_above_100_segments() {
        let mut cc = Scalable::new(&ScalableConfig::default(), init(1000 * MSS));
        cc.w.ssthresh = 500 * MSS;
        let mut h = Harness::new();
        h.ack_rounds(&mut cc, 1);
        // 1000 ACKs, one segment per 100: +10 segments.
        assert_eq!(cc.control().cwnd, Some(1010 * MSS));
    }

    #[test]
    fn behaves_as_reno_below_100_segments() {
        let mut cc = Scalable::new(&ScalableConfig::default(), init(50 * MSS));
        cc.w.ssthresh = 10 * MSS;
        let mut h = Harness::new();
        h.ack_rounds(&mut cc, 1);
        assert_eq!(cc.control().cwnd, Some(51 * MSS));
    }

    #[test]
    fn loss_takes_an_eighth() {
        let mut cc = Scalable::new(&ScalableConfig::default(), init(800 * MSS));
        let mut h = Harness::new();
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(700 * MSS));
        // Whole segments as Linux rounds: 803 − ⌊803/8⌋ = 803 − 100 = 703 (not ⌊702.6⌋).
        let mut cc = Scalable::new(&ScalableConfig::default(), init(803 * MSS));
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(703 * MSS));
    }
}

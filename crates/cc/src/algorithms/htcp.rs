//! H-TCP (Leith & Shorten, "H-TCP: TCP for high-speed and long-distance networks",
//! PFLDnet 2004; Linux `net/ipv4/tcp_htcp.c`).
//!
//! The increase depends on the time Δ since the last congestion event:
//! `α(Δ) = 1` for Δ ≤ Δ_L = 1 s, else `1 + 10(Δ − Δ_L) + ((Δ − Δ_L)/2)²`, scaled by
//! `RTT/RTT_ref` (RTT_ref = 100 ms, RTT clamped to [10 ms, 200 ms]) and by `2(1 − β)` so that
//! the average rate is independent of β; per RTT `cwnd += α`. The backoff adapts:
//! `β = RTT_min/RTT_max` clamped to [0.5, 0.8], and 0.5 when the achieved throughput changed by
//! more than 20 % between congestion epochs (the bandwidth switch).

use crate::aimd::{Aimd, AimdLaw};
use crate::controller::*;
use crate::units::{Bytes, Rate, Time};
use crate::window::RenoWindow;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HtcpConfig {
    pub use_rtt_scaling: bool,
    pub use_bandwidth_switch: bool,
    /// Δ_L, seconds.
    pub delta_l: f64,
    pub beta_min: f64,
    pub beta_max: f64,
}

impl Default for HtcpConfig {
    fn default() -> Self {
        HtcpConfig { use_rtt_scaling: true, use_bandwidth_switch: true, delta_l: 1.0, beta_min: 0.5, beta_max: 0.8 }
    }
}

impl HtcpConfig {
    /// `α(Δ)` before scaling, segments per RTT.
    pub fn alpha_of_delta(&self, delta: f64) -> f64 {
        if delta <= self.delta_l {
            1.0
        } else {
            let d = delta - self.delta_l;
            1.0 + 10.0 * d + (d / 2.0).powi(2)
        }
    }

    /// The scaled increase per RTT: `2(1 − β)·max(1, α(Δ)·RTT/100 ms)`.
    pub fn alpha(&self, delta: f64, beta: f64, min_rtt: Option<Time>) -> f64 {
        let mut factor = self.alpha_of_delta(delta);
        if self.use_rtt_scaling {
            if let Some(rtt) = min_rtt {
                factor = (factor * rtt.as_secs_f64().clamp(0.01, 0.2) / 0.1).max(1.0);
            }
        }
        2.0 * factor * (1.0 - beta)
    }
}

#[derive(Clone, Debug)]
pub struct HtcpLaw {
    cfg: HtcpConfig,
    pub beta: f64,
    /// The last congestion event (the flow's first ACK before the first one).
    last_congestion: Option<Time>,
    min_rtt: Option<Time>,
    max_rtt: Option<Time>,
    /// Highest delivery rate this epoch and in the previous one (the bandwidth switch).
    max_bw: Rate,
    old_max_bw: Rate,
    modeswitch: bool,
}

impl HtcpLaw {
    fn update_beta(&mut self) {
        if self.cfg.use_bandwidth_switch {
            let (b, old) = (self.max_bw.bytes_per_sec(), self.old_max_bw.bytes_per_sec());
            self.old_max_bw = self.max_bw;
            self.max_bw = Rate::ZERO;
            // Linux: !between(5·maxB, 4·old_maxB, 6·old_maxB), i.e. a change of more than 20 %.
            if old > 0.0 && !(4.0 * old..=6.0 * old).contains(&(5.0 * b)) {
                self.beta = self.cfg.beta_min;
                self.modeswitch = false;
                return;
            }
        }
        match (self.min_rtt, self.max_rtt) {
            (Some(min), Some(max)) if self.modeswitch && min > Time::from_millis(10) && max > Time::ZERO => {
                self.beta = (min.as_secs_f64() / max.as_secs_f64()).clamp(self.cfg.beta_min, self.cfg.beta_max);
            }
            _ => {
                self.beta = self.cfg.beta_min;
                self.modeswitch = true;
            }
        }
    }

    fn congestion(&mut self, w: &RenoWindow, now: Time) -> Bytes {
        self.update_beta();
        self.last_congestion = Some(now);
        self.max_rtt = self.min_rtt;
        (w.cwnd as f64 * self.beta) as Bytes
    }
}

impl AimdLaw for HtcpLaw {
    type Config = HtcpConfig;
    fn new(cfg: &HtcpConfig, _init: CcInit) -> HtcpLaw {
        HtcpLaw {
            cfg: cfg.clone(),
            beta: cfg.beta_min,
            last_congestion: None,
            min_rtt: None,
            max_rtt: None,
            max_bw: Rate::ZERO,
            old_max_bw: Rate::ZERO,
            modeswitch: false,
        }
    }
    fn name(&self) -> &'static str {
        "htcp"
    }
    fn observe(&mut self, _w: &mut RenoWindow, fb: &Feedback, ctx: &mut Ctx) {
        self.last_congestion.get_or_insert(ctx.now);
        if let Some(rtt) = fb.rtt_sample {
            self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
            if !fb.in_recovery {
                self.max_rtt = Some(self.max_rtt.map_or(rtt, |m| m.max(rtt)));
            }
        }
        if let Some(rs) = fb.rate_sample {
            if !rs.is_app_limited && rs.rate() > self.max_bw {
                self.max_bw = rs.rate();
            }
        }
    }
    fn increase(&mut self, _w: &RenoWindow, _mss: Bytes, _acked: Bytes, ctx: &Ctx) -> f64 {
        let delta = (ctx.now - self.last_congestion.unwrap_or(ctx.now)).as_secs_f64();
        self.cfg.alpha(delta, self.beta, self.min_rtt)
    }
    fn ssthresh(&mut self, w: &RenoWindow, _mss: Bytes, _fb: &Feedback, ctx: &Ctx) -> Bytes {
        self.congestion(w, ctx.now)
    }
    fn ssthresh_after_timeout(&mut self, w: &RenoWindow, _mss: Bytes, ctx: &Ctx) -> Bytes {
        self.congestion(w, ctx.now)
    }
}

pub type Htcp = Aimd<HtcpLaw>;


impl crate::check::Validate for HtcpConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // Leith & Shorten: the backoff RTT_min/RTT_max is clamped to [beta_min, beta_max], so
        // 0 < beta_min <= beta_max <= 1, and Delta_L is a positive time in seconds.
        within("beta_min", self.beta_min, above(0.0, 1.0))?;
        within("beta_max", self.beta_max, above(0.0, 1.0))?;
        ordered("beta_min", self.beta_min, "beta_max", self.beta_max)?;
        within("delta_l", self.delta_l, above(0.0, 1e6))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alpha_of_delta_is_reno_for_a_second_then_grows_quadratically() {
        let c = HtcpConfig::default();
        assert_eq!(c.alpha_of_delta(0.5), 1.0);
        assert_eq!(c.alpha_of_delta(1.0), 1.0);
        // Δ = 3 s: 1 + 10·2 + (2/2)² = 22.
        assert_eq!(c.alpha_of_delta(3.0), 22.0);
        // Δ = 11 s: 1 + 100 + 25 = 126.
        assert_eq!(c.alpha_of_delta(11.0), 126.0);
    }

    #[test]
    fn scaled_alpha_keeps_reno_friendliness_at_beta_one_half() {
        let c = HtcpConfig::default();
        // β = 0.5, RTT = 100 ms: 2·(1 − 0.5)·α = α.
        assert_eq!(c.alpha(3.0, 0.5, Some(Time::from_millis(100))), 22.0);
        // β = 0.8 halves... 2·0.2 = 0.4 of α.
        assert!((c.alpha(3.0, 0.8, Some(Time::from_millis(100))) - 8.8).abs() < 1e-12);
        // RTT scaling: 50 ms halves the increase per RTT.
        assert_eq!(c.alpha(3.0, 0.5, Some(Time::from_millis(50))), 11.0);
    }

    #[test]
    fn adaptive_backoff_uses_the_rtt_ratio() {
        let cfg = HtcpConfig { use_bandwidth_switch: false, ..HtcpConfig::default() };
        let mut law = HtcpLaw::new(&cfg, CcInit { mss: 1000, initial_cwnd: 10_000 });
        law.min_rtt = Some(Time::from_millis(60));
        law.max_rtt = Some(Time::from_millis(100));
        law.update_beta(); // first epoch: modeswitch comes on, β stays 0.5
        assert_eq!(law.beta, 0.5);
        law.max_rtt = Some(Time::from_millis(100));
        law.update_beta();
        assert!((law.beta - 0.6).abs() < 1e-12);
        law.max_rtt = Some(Time::from_millis(61));
        law.update_beta();
        assert_eq!(law.beta, 0.8);
    }
}

//! TCP Westwood+ (Mascolo, Casetti, Gerla, Sanadidi, Wang, "TCP Westwood: bandwidth estimation
//! for enhanced transport over wireless links", MobiCom 2001; Grieco & Mascolo, "Performance
//! evaluation and comparison of Westwood+, New Reno and Vegas", CCR 2004; Linux
//! `net/ipv4/tcp_westwood.c`).
//!
//! The sender estimates the bandwidth from the ACK stream, once per RTT (at least 50 ms):
//! `b_k = acked bytes/Δt`, filtered twice with gain 1/8 (`bw_ns = 7/8·bw_ns + 1/8·b_k`,
//! `BWE = 7/8·BWE + 1/8·bw_ns`). After a loss it does not keep Reno's halved window: when the
//! recovery ends, `cwnd = ssthresh = BWE·RTT_min` (the pipe's capacity with an empty queue,
//! estimated from the ACKs that arrived up to then, as Linux does at `CA_EVENT_COMPLETE_CWR`);
//! after a timeout `ssthresh = BWE·RTT_min` and cwnd = 1 segment. Otherwise it is Reno. Losses
//! that are not due to congestion thus leave the window near the path's capacity.

use crate::aimd::{Aimd, AimdLaw};
use crate::controller::*;
use crate::units::{Bytes, Rate, Time};
use crate::window::RenoWindow;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WestwoodConfig {
    /// Shortest bandwidth-sampling interval, ms (Linux `TCP_WESTWOOD_RTT_MIN`, HZ/20).
    pub rtt_min_interval_ms: f64,
}

impl Default for WestwoodConfig {
    fn default() -> Self {
        WestwoodConfig { rtt_min_interval_ms: 50.0 }
    }
}

/// `7/8·old + 1/8·new`.
fn filter(old: f64, new: f64) -> f64 {
    (7.0 * old + new) / 8.0
}

#[derive(Clone, Debug)]
pub struct WestwoodLaw {
    cfg: WestwoodConfig,
    /// Bytes acknowledged in the current sampling interval.
    bk: Bytes,
    window_start: Option<Time>,
    bw_ns_est: f64,
    /// BWE, bytes per second.
    pub bw_est: f64,
    first_sample: bool,
    pub rtt_min: Option<Time>,
}

impl WestwoodLaw {
    /// One bandwidth sample over `interval`.
    pub fn sample(&mut self, bytes: Bytes, interval: Time) {
        let bk = bytes as f64 / interval.as_secs_f64();
        if self.first_sample {
            self.bw_ns_est = bk;
            self.bw_est = bk;
            self.first_sample = false;
        } else {
            self.bw_ns_est = filter(self.bw_ns_est, bk);
            self.bw_est = filter(self.bw_est, self.bw_ns_est);
        }
    }

    /// `BWE·RTT_min`, at least two segments.
    pub fn bw_rtt_min(&self, mss: Bytes) -> Bytes {
        let rtt = self.rtt_min.map_or(0.0, |r| r.as_secs_f64());
        ((self.bw_est * rtt) as Bytes).max(2 * mss)
    }
}

impl AimdLaw for WestwoodLaw {
    type Config = WestwoodConfig;
    fn new(cfg: &WestwoodConfig, _init: CcInit) -> WestwoodLaw {
        WestwoodLaw { cfg: cfg.clone(), bk: 0, window_start: None, bw_ns_est: 0.0, bw_est: 0.0, first_sample: true, rtt_min: None }
    }
    fn name(&self) -> &'static str {
        "westwood"
    }
    fn observe(&mut self, _w: &mut RenoWindow, fb: &Feedback, ctx: &mut Ctx) {
        if let Some(rtt) = fb.rtt_sample {
            self.rtt_min = Some(self.rtt_min.map_or(rtt, |m| m.min(rtt)));
        }
        self.bk += fb.acked_bytes;
        let start = *self.window_start.get_or_insert(ctx.now);
        let srtt = ctx.rtt.srtt.unwrap_or(Time::ZERO);
        let min_interval = Time::from_secs_f64(self.cfg.rtt_min_interval_ms / 1e3);
        let elapsed = ctx.now - start;
        if elapsed > srtt.max(min_interval) {
            self.sample(self.bk, elapsed);
            self.bk = 0;
            self.window_start = Some(ctx.now);
        }
    }
    fn on_recovery_end(&mut self, w: &mut RenoWindow, mss: Bytes, _ctx: &Ctx) {
        let pipe = self.bw_rtt_min(mss);
        w.set_ssthresh(pipe, mss);
        w.set_cwnd(pipe, mss);
    }
    fn ssthresh_after_timeout(&mut self, _w: &RenoWindow, mss: Bytes, _ctx: &Ctx) -> Bytes {
        self.bw_rtt_min(mss)
    }
    fn estimates(&self) -> (Option<Rate>, Option<Time>) {
        (Some(Rate(self.bw_est)), self.rtt_min)
    }
}

pub type Westwood = Aimd<WestwoodLaw>;


impl crate::check::Validate for WestwoodConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // Linux TCP_WESTWOOD_RTT_MIN (50 ms): a bandwidth sample needs a positive interval.
        within("rtt_min_interval_ms", self.rtt_min_interval_ms, above(0.0, 1e6))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    #[test]
    fn two_stage_filter_with_gain_one_eighth() {
        let mut law = WestwoodLaw::new(&WestwoodConfig::default(), init(10 * MSS));
        law.sample(1_000_000, Time::from_secs(1)); // first sample initialises both stages
        assert_eq!(law.bw_est, 1e6);
        law.sample(2_000_000, Time::from_secs(1));
        // bw_ns = (7·1e6 + 2e6)/8 = 1.125e6; BWE = (7·1e6 + 1.125e6)/8 = 1.015625e6.
        assert!((law.bw_ns_est - 1.125e6).abs() < 1e-6);
        assert!((law.bw_est - 1.015625e6).abs() < 1e-6);
    }

    #[test]
    fn recovery_ends_with_the_window_at_the_estimated_pipe_not_half() {
        let mut cc = Westwood::new(&WestwoodConfig::default(), init(100 * MSS));
        let mut h = Harness::new();
        cc.law.rtt_min = Some(Time::from_millis(100));
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(50 * MSS)); // Reno's ssthresh during recovery
        cc.law.bw_est = 800_000.0; // 800 KB/s
        cc.law.rtt_min = Some(Time::from_millis(100));
        let mut fb = Feedback::default();
        fb.recovery_ended = true;
        let mut ctx = h.ctx();
        cc.on_feedback(&fb, &mut ctx);
        // BWE·RTT_min = 80 000 B = 80 segments.
        assert_eq!(cc.control().cwnd, Some(80 * MSS));
        assert_eq!(cc.snapshot().ssthresh, Some(80 * MSS));
    }
}

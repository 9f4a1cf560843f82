//! TCP-LP (Low Priority): a scavenger that backs off as soon as one-way delay shows queueing.
//!
//! Sources: A. Kuzmanovic, E. W. Knightly, "TCP-LP: A Distributed Algorithm for Low Priority
//! Data Transfer", INFOCOM 2003; Linux `net/ipv4/tcp_lp.c` (threshold 15 %, inference time
//! three RTTs).
//!
//! The receiver stamps each acknowledgement with the forward one-way delay `owd` of the packet
//! it acknowledges (`Feedback::one_way_delay`; Linux derives it from TCP timestamps). On every
//! acknowledgement:
//!
//! - `owd_min`, `owd_max` track the extremes (`owd_max` forgets its largest value once, as
//!   Linux's `owd_max_rsv`), `sowd ← 7/8·sowd + 1/8·owd` smooths the samples;
//! - an early congestion indication (ECI) is `sowd > owd_min + delta·(owd_max − owd_min)`,
//!   `delta = 0.15`. On an ECI: `cwnd = cwnd/2` if it comes after the inference time-out
//!   `itt = 3·RTT` since the previous one, `cwnd = 1` if within it; then the delay range
//!   restarts at `owd_min = sowd`, `owd_max = 2·sowd`.
//! - within `itt` of an ECI the window does not grow; "after the inference time-out expires,
//!   TCP-LP enters the congestion avoidance phase" (the paper): the halving also sets
//!   `ssthresh` to the halved window, so growth resumes as Reno's additive increase (after
//!   `cwnd = 1`, slow start back to that ssthresh).
//!
//! Linux leaves ssthresh alone (`eci_sets_ssthresh = false`), so a flow that has never lost a
//! packet slow-starts again after every inference phase, overshoots, and is sent back to one
//! segment by the second indication: alone on a 40 Mbit/s, 100 ms path it then uses a few
//! percent of the link. Its comment says the increase "will be handled in additive increasement"
//! as in the paper, which is what the default does.
//!
//! Losses are handled as Reno. The ECI test uses the paper's strict `>`: Linux's `<` test on
//! the opposite side also fires when all samples so far are equal (a halving at the first valid
//! sample). One-way delays here are exact to the nanosecond, not Linux's millisecond ticks.

use super::vegas_core::{Phase, Shell};
use crate::controller::*;
use crate::units::Time;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LpConfig {
    /// ECI threshold as a fraction of the one-way-delay range (the paper's delta).
    pub delta: f64,
    /// Inference time-out, in RTTs.
    pub inference_rtts: f64,
    /// An ECI's halving also lowers ssthresh (the paper's congestion avoidance after the
    /// inference phase); `false` is Linux's `tcp_lp.c`.
    pub eci_sets_ssthresh: bool,
}

impl Default for LpConfig {
    fn default() -> Self {
        LpConfig { delta: 0.15, inference_rtts: 3.0, eci_sets_ssthresh: true }
    }
}

/// One-way-delay statistics (ns).
#[derive(Clone, Debug, Default, PartialEq)]
struct Owd {
    /// Smoothed one-way delay × 8 (Linux `sowd`), 0 before the first sample.
    sowd8: u64,
    min: Option<u64>,
    max: u64,
    max_rsv: u64,
}

impl Owd {
    fn sample(&mut self, owd: u64) {
        self.min = Some(self.min.map_or(owd, |m| m.min(owd)));
        if owd > self.max {
            if owd > self.max_rsv {
                self.max = if self.max_rsv == 0 { owd } else { self.max_rsv };
                self.max_rsv = owd;
            } else {
                self.max = owd;
            }
        }
        self.sowd8 = if self.sowd8 == 0 { owd << 3 } else { self.sowd8 - (self.sowd8 >> 3) + owd };
    }

    fn smoothed(&self) -> u64 {
        self.sowd8 >> 3
    }

    /// `owd_min + delta·(owd_max − owd_min)`.
    fn threshold(&self, delta: f64) -> Option<u64> {
        let min = self.min?;
        Some(min + (delta * self.max.saturating_sub(min) as f64) as u64)
    }

    /// After an ECI the range restarts around the smoothed delay.
    fn restart(&mut self) {
        let s = self.smoothed();
        self.min = Some(s);
        self.max = 2 * s;
        self.max_rsv = 2 * s;
    }
}

#[derive(Clone, Debug)]
pub struct Lp {
    cfg: LpConfig,
    shell: Shell,
    owd: Owd,
    /// The last ECI.
    last_drop: Option<Time>,
    /// The inference time-out, `inference_rtts·RTT`.
    inference: Time,
    within_inference: bool,
}

impl Lp {
    pub fn new(cfg: &LpConfig, init: CcInit) -> Lp {
        Lp { cfg: cfg.clone(), shell: Shell::new(init), owd: Owd::default(), last_drop: None, inference: Time::ZERO, within_inference: false }
    }

    /// Linux `tcp_lp_pkts_acked`: the delay statistics, and the reaction to an ECI.
    fn on_delay(&mut self, fb: &Feedback, now: Time, react: bool) {
        if let Some(owd) = fb.one_way_delay {
            self.owd.sample(owd.as_nanos().max(1));
        }
        if let Some(rtt) = fb.rtt_sample {
            self.inference = rtt.mul_f64(self.cfg.inference_rtts);
        }
        self.within_inference = self.last_drop.is_some_and(|t| now - t < self.inference);
        let Some(threshold) = self.owd.threshold(self.cfg.delta) else { return };
        if !react || self.owd.smoothed() <= threshold {
            return;
        }
        self.owd.restart();
        if self.within_inference {
            self.shell.set_cwnd_pkts(1);
        } else {
            let cwnd = (self.shell.cwnd_pkts() / 2).max(1);
            self.shell.set_cwnd_pkts(cwnd);
            if self.cfg.eci_sets_ssthresh {
                self.shell.set_ssthresh_pkts(cwnd);
            }
        }
        self.last_drop = Some(now);
        // The inference phase starts with this acknowledgement (Linux tests it before the
        // reaction, so the indicating ACK itself may still grow the window).
        self.within_inference = true;
    }
}

impl CongestionControl for Lp {
    fn name(&self) -> &'static str {
        "lp"
    }
    fn on_loss(&mut self, fb: &Feedback, _ctx: &mut Ctx) {
        if fb.new_episode {
            self.shell.reduce_to(self.shell.cwnd_pkts() / 2);
        }
    }
    fn on_ack(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        let phase = self.shell.phase(fb);
        // In recovery the window is held, whatever the delay says.
        self.on_delay(fb, ctx.now, phase != Phase::Recovery);
        let grows = !self.within_inference && !fb.growth_withheld && self.shell.w.is_cwnd_limited(fb.cwnd_use);
        if phase != Phase::Recovery && grows {
            self.shell.w.reno_increase(fb.acked_bytes, self.shell.mss);
        }
    }
    fn on_idle_restart(&mut self, restart: &IdleRestart, _ctx: &mut Ctx) {
        self.shell.restart_after_idle(restart);
    }
    fn on_timeout(&mut self, _ctx: &mut Ctx) {
        let ss = (!self.shell.in_recovery()).then(|| self.shell.cwnd_pkts() / 2);
        self.shell.timeout(ss);
    }
    fn control(&self) -> Control {
        self.shell.control()
    }
    fn snapshot(&self) -> Snapshot {
        let state = if self.within_inference { "inference" } else { self.shell.state_or("cong_avoid") };
        self.shell.snapshot(state, None)
    }
}


impl crate::check::Validate for LpConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // Kuzmanovic & Knightly: an early-congestion threshold inside the delay range, and an
        // inference time-out of a positive number of RTTs.
        within("delta", self.delta, open(0.0, 1.0))?;
        within("inference_rtts", self.inference_rtts, above(0.0, 1e6))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    fn with_owd(owd_ms: u64) -> impl Fn(&mut Feedback) {
        move |fb| fb.one_way_delay = Some(ms(owd_ms))
    }

    #[test]
    fn threshold_is_fifteen_percent_into_the_delay_range() {
        let mut o = Owd::default();
        o.sample(50_000);
        // One sample: min = max = sowd, no ECI (strict test).
        assert_eq!(o.threshold(0.15), Some(50_000));
        // A new largest delay first goes to the reserve (owd_max forgets its maximum once).
        o.sample(150_000);
        assert_eq!(o.threshold(0.15), Some(50_000));
        assert_eq!(o.smoothed(), 62_500); // 7/8·50 + 1/8·150 µs
        // Seen again, it is the maximum: threshold 50 + 0.15·100 = 65 µs.
        o.sample(150_000);
        assert_eq!(o.threshold(0.15), Some(65_000));
        assert_eq!(o.smoothed(), 73_437); // 7/8·62.5 + 1/8·150 µs
    }

    #[test]
    fn constant_delay_never_indicates_congestion() {
        let mut cc = Lp::new(&LpConfig::default(), init(10 * MSS));
        let mut d = Rounds::new();
        for _ in 0..3 {
            d.round_with(&mut cc, ms(100), with_owd(50));
        }
        assert_eq!(cc.control().cwnd, Some(80 * MSS));
        assert_eq!(cc.last_drop, None);
    }

    #[test]
    fn rising_delay_halves_then_a_second_indication_within_inference_sets_one() {
        let mut cc = Lp::new(&LpConfig::default(), init(10 * MSS));
        let mut d = Rounds::new();
        d.round_with(&mut cc, ms(100), with_owd(40));
        d.round_with(&mut cc, ms(100), with_owd(40));
        assert_eq!(cc.control().cwnd, Some(40 * MSS));
        let ack = |cc: &mut Lp, d: &mut Rounds, owd: Option<u64>| {
            let fb = Feedback {
                acked_bytes: MSS,
                acked_packets: 1,
                one_way_delay: owd.map(ms),
                rtt_sample: Some(ms(100)),
                ..Feedback::default()
            };
            cc.on_feedback(&fb, &mut d.h.ctx());
        };
        // One sample at 60 ms: sowd = 7/8·40 + 1/8·60 = 42.5 ms > 40 + 0.15·(40 − 40): halve.
        // (owd_max forgets its largest value once: it stays at 40 ms.)
        ack(&mut cc, &mut d, Some(60));
        assert_eq!(cc.control().cwnd, Some(20 * MSS));
        assert_eq!(cc.snapshot().ssthresh, Some(20 * MSS), "congestion avoidance after inference");
        assert_eq!(cc.snapshot().state, "inference");
        // Within 3 RTTs: no growth. The range restarted at [42.5, 85] ms.
        d.h.now += ms(10);
        ack(&mut cc, &mut d, None);
        assert_eq!(cc.control().cwnd, Some(20 * MSS));
        // sowd = 7/8·42.5 + 1/8·400 = 87.2 ms > 42.5 + 0.15·42.5: a second ECI within the
        // inference time: cwnd = 1.
        ack(&mut cc, &mut d, Some(400));
        assert_eq!(cc.control().cwnd, Some(MSS));
        // After the inference time-out (3·100 ms) the window grows again: slow start back to
        // the halved window, additive increase after.
        d.h.now += ms(301);
        ack(&mut cc, &mut d, None);
        assert_eq!(cc.control().cwnd, Some(2 * MSS));
        assert_eq!(cc.snapshot().state, "slow_start");
    }

    #[test]
    fn linux_mode_leaves_ssthresh_alone() {
        let cfg = LpConfig { eci_sets_ssthresh: false, ..LpConfig::default() };
        let mut cc = Lp::new(&cfg, init(10 * MSS));
        let mut d = Rounds::new();
        d.round_with(&mut cc, ms(100), with_owd(40));
        // 41 ms: sowd = 40.125 > 40 + 0.15·0 (owd_max still 40): halved at the round's first
        // ACK, then no growth within the inference time, and no second indication (the range
        // restarted at [40.125, 80.25] ms).
        d.round_with(&mut cc, ms(100), with_owd(41));
        assert_eq!(cc.control().cwnd, Some(10 * MSS));
        assert_eq!(cc.snapshot().ssthresh, Some(u64::MAX));
    }
}

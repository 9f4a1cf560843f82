//! One probe window: nmap's `struct ultra_timing_vals` (`timing.h`) and its
//! `cc_scale`/`ack`/`drop`/`drop_group` (`timing.cc`), spec §1.3 and §2.2-§3.4. The group and
//! every host each own one.
//!
//! ```text
//! cc_scale = min(num_replies_expected / num_replies_received, cc_scale_max = 50)
//!
//! ack(s, m):   num_replies_received += 1
//!              slow start (cwnd < ssthresh):  cwnd = min(cwnd + slow_incr·s·m, ssthresh)
//!              avoidance:                     cwnd = cwnd + ca_incr·s·m / cwnd
//!              cwnd = min(cwnd, max_cwnd)
//!   (before 2007-09-18: slow start while cwnd ≤ ssthresh, with no cap)
//!
//! drop (host):        cwnd = low_cwnd,                          ssthresh = ⌊max(in_flight / host_drop_ssthresh_divisor, 2)⌋
//! drop_group (group): cwnd = max(low_cwnd, cwnd / group_drop_cwnd_divisor), ssthresh = ⌊max(in_flight / group_drop_ssthresh_divisor, 2)⌋
//! both:               last_drop = now
//! ```
//!
//! The caller applies a drop only for a probe sent after `last_drop` (one decrease per window).

use super::perf::ScanPerformanceVars;
use super::variant::SlowStart;
use crate::units::Time;

#[derive(Copy, Clone, Debug, PartialEq)]
pub struct UltraTimingVals {
    /// Congestion window, in probes.
    pub cwnd: f64,
    /// Slow-start threshold, in probes (an `int` in nmap).
    pub ssthresh: i32,
    /// Probe outcomes that went through timing: replies, timeouts, give-ups.
    pub num_replies_expected: u64,
    /// Acks.
    pub num_replies_received: u64,
    pub num_updates: u64,
    /// When the window was last decreased; starts at creation time.
    pub last_drop: Time,
}

impl UltraTimingVals {
    /// `init_ultra_timing_vals`.
    pub fn new(initial_cwnd: f64, perf: &ScanPerformanceVars, now: Time) -> UltraTimingVals {
        UltraTimingVals {
            cwnd: initial_cwnd,
            ssthresh: perf.initial_ssthresh,
            num_replies_expected: 0,
            num_replies_received: 0,
            num_updates: 0,
            last_drop: now,
        }
    }

    /// Today's scale: expected over received, at most `cc_scale_max`. nmap asserts at least one
    /// reply; without one this returns the cap.
    pub fn cc_scale(&self, perf: &ScanPerformanceVars) -> f64 {
        if self.num_replies_received == 0 {
            return perf.cc_scale_max;
        }
        (self.num_replies_expected as f64 / self.num_replies_received as f64).min(perf.cc_scale_max)
    }

    /// Whether the window is in slow start under `rule`.
    pub fn in_slow_start(&self, rule: SlowStart) -> bool {
        match rule {
            SlowStart::Uncapped => self.cwnd <= self.ssthresh as f64,
            SlowStart::Capped => self.cwnd < self.ssthresh as f64,
        }
    }

    /// A reply that may open the window. `scale` is the increment scale computed by the caller
    /// (1, or the 2007 group ratio); `None` uses [`Self::cc_scale`] after counting this reply.
    /// `magnifier` is `ping_magnifier` for a timing ping, else 1.
    pub fn ack(&mut self, perf: &ScanPerformanceVars, scale: Option<f64>, magnifier: f64, rule: SlowStart) {
        self.num_replies_received += 1;
        let s = scale.unwrap_or_else(|| self.cc_scale(perf));
        if self.in_slow_start(rule) {
            self.cwnd += perf.slow_incr * s * magnifier;
            if rule == SlowStart::Capped {
                self.cwnd = self.cwnd.min(self.ssthresh as f64);
            }
        } else {
            self.cwnd += perf.ca_incr / self.cwnd * s * magnifier;
        }
        self.cwnd = self.cwnd.min(perf.max_cwnd);
    }

    fn new_ssthresh(in_flight: u32, divisor: f64) -> i32 {
        (in_flight as f64 / divisor).max(2.0) as i32
    }

    /// A host's drop: back to one probe.
    pub fn drop(&mut self, in_flight: u32, perf: &ScanPerformanceVars, now: Time) {
        self.cwnd = perf.low_cwnd;
        self.ssthresh = Self::new_ssthresh(in_flight, perf.host_drop_ssthresh_divisor);
        self.last_drop = now;
    }

    /// The group's drop: halve the window.
    pub fn drop_group(&mut self, in_flight: u32, perf: &ScanPerformanceVars, now: Time) {
        self.cwnd = perf.low_cwnd.max(self.cwnd / perf.group_drop_cwnd_divisor);
        self.ssthresh = Self::new_ssthresh(in_flight, perf.group_drop_ssthresh_divisor);
        self.last_drop = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::perf::TimingTemplate;

    fn perf(t: TimingTemplate) -> ScanPerformanceVars {
        ScanPerformanceVars::new(t)
    }

    fn group(t: TimingTemplate) -> UltraTimingVals {
        UltraTimingVals::new(10.0, &perf(t), Time::ZERO)
    }

    #[test]
    fn group_slow_start_at_scale_20_climbs_in_steps_of_20_and_stops_at_ssthresh() {
        // Spec §2.3: 10 -> 30 -> 50 -> 70 -> 75 (capped).
        let p = perf(TimingTemplate::T3);
        let mut g = group(TimingTemplate::T3);
        let mut seen = vec![g.cwnd];
        for _ in 0..4 {
            g.ack(&p, Some(20.0), 1.0, SlowStart::Capped);
            seen.push(g.cwnd);
        }
        assert_eq!(seen, vec![10.0, 30.0, 50.0, 70.0, 75.0]);
        // At ssthresh exactly, the next ack is in congestion avoidance: + 1·20/75.
        g.ack(&p, Some(20.0), 1.0, SlowStart::Capped);
        assert!((g.cwnd - (75.0 + 20.0 / 75.0)).abs() < 1e-12, "{}", g.cwnd);
    }

    #[test]
    fn avoidance_at_cwnd_100_scale_20_adds_a_fifth_per_reply_at_t3_and_twice_that_at_t4() {
        for (t, want) in [(TimingTemplate::T3, 0.2), (TimingTemplate::T4, 0.4)] {
            let mut g = group(t);
            g.cwnd = 100.0;
            g.ack(&perf(t), Some(20.0), 1.0, SlowStart::Capped);
            assert!((g.cwnd - (100.0 + want)).abs() < 1e-12, "{t}: {}", g.cwnd);
        }
    }

    #[test]
    fn a_ping_reply_counts_three_times() {
        let mut g = group(TimingTemplate::T3);
        g.ack(&perf(TimingTemplate::T3), Some(1.0), 3.0, SlowStart::Capped);
        assert_eq!(g.cwnd, 13.0);
    }

    #[test]
    fn the_old_slow_start_runs_through_ssthresh_and_the_window_stops_at_max_cwnd() {
        let mut p = perf(TimingTemplate::T3);
        p.initial_ssthresh = 50;
        let mut g = UltraTimingVals::new(50.0, &p, Time::ZERO);
        g.ack(&p, Some(1.0), 1.0, SlowStart::Uncapped);
        assert_eq!(g.cwnd, 51.0, "cwnd <= ssthresh is still slow start, uncapped");
        g.ack(&p, Some(1.0), 1.0, SlowStart::Uncapped);
        assert!((g.cwnd - (51.0 + 1.0 / 51.0)).abs() < 1e-12);
        g.cwnd = 299.9;
        g.ack(&p, Some(50.0), 3.0, SlowStart::Uncapped);
        assert_eq!(g.cwnd, 300.0);
    }

    #[test]
    fn todays_scale_is_expected_over_received_capped_at_50() {
        let p = perf(TimingTemplate::T3);
        let mut h = group(TimingTemplate::T3);
        // Ten timeouts, then a reply: 11 expected, 1 received -> scale 11.
        h.num_replies_expected = 11;
        h.ack(&p, None, 1.0, SlowStart::Capped);
        assert_eq!(h.cwnd, 21.0);
        h.num_replies_expected = 1000;
        assert_eq!(h.cc_scale(&p), 50.0);
        // The first reply of a scan, with nothing timed out, scales by 1.
        let mut fresh = group(TimingTemplate::T3);
        fresh.num_replies_expected = 1;
        fresh.ack(&p, None, 1.0, SlowStart::Capped);
        assert_eq!(fresh.cwnd, 11.0);
    }

    #[test]
    fn group_drop_halves_cwnd_and_sets_ssthresh_from_the_probes_in_flight() {
        // Spec §3.3: T3, cwnd 60, 40 active -> cwnd 30, ssthresh int(26.7) = 26.
        let p = perf(TimingTemplate::T3);
        let mut g = group(TimingTemplate::T3);
        g.cwnd = 60.0;
        g.drop_group(40, &p, Time::from_secs(3));
        assert_eq!((g.cwnd, g.ssthresh, g.last_drop), (30.0, 26, Time::from_secs(3)));
        assert!(!g.in_slow_start(SlowStart::Capped), "ssthresh below cwnd: straight to avoidance");
        // T5 divides ssthresh by 1.25; the floors are low_cwnd and 2.
        let p5 = perf(TimingTemplate::T5);
        let mut g5 = group(TimingTemplate::T5);
        g5.cwnd = 1.5;
        g5.drop_group(1, &p5, Time::ZERO);
        assert_eq!((g5.cwnd, g5.ssthresh), (1.0, 2));
        g5.drop_group(50, &p5, Time::ZERO);
        assert_eq!(g5.ssthresh, 40);
    }

    #[test]
    fn host_drop_goes_back_to_one_probe() {
        let p = perf(TimingTemplate::T3);
        let mut h = group(TimingTemplate::T3);
        h.cwnd = 40.0;
        h.drop(9, &p, Time::from_secs(1));
        assert_eq!((h.cwnd, h.ssthresh), (1.0, 6));
    }
}

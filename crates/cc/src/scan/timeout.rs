//! nmap's RTT estimator and probe timeout: `struct timeout_info`, `initialize_timeout_info` and
//! `adjust_timeouts2` (`timing.h`/`timing.cc`), spec §1.6 and §3.5.
//!
//! Integer microseconds, as nmap keeps them. With δ = received − sent:
//!
//! ```text
//! −50 ms < δ < 0            ⇒ δ = 10 ms                        (pcap clock skew)
//! first sample:  srtt = δ,  rttvar = clamp(srtt, 5 ms, 2 s)
//! later samples: ignored if δ ≥ 8 s or δ < 0, or if err = δ − srtt > 1.5 s and err > 3·srtt + 2·rttvar;
//!                srtt   += ⌊err / 8⌋
//!                rttvar += ⌊(|err| − rttvar) / 4⌋
//! timeout = srtt + 4·rttvar;   rttvar > 2.3 s ⇒ rttvar = 2 s (after the timeout is computed)
//! timeout = clamp(timeout, min_rtt_timeout, max_rtt_timeout)  (100 ms..10 s at T3),
//!           then at least the scan delay
//! ```

use super::perf::RttLimits;
use crate::units::Time;

/// One RTT estimator (a host's `Target::to`, or the group's `gstats->to`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeoutInfo {
    /// Smoothed RTT in µs; −1 before the first sample.
    pub srtt: i64,
    /// RTT variation in µs; −1 before the first sample.
    pub rttvar: i64,
    /// The probe timeout in µs.
    pub timeout: i64,
}

fn us(t: Time) -> i64 {
    (t.as_nanos() / 1000) as i64
}

impl TimeoutInfo {
    /// `initialize_timeout_info`: no sample yet, the initial RTT timeout.
    pub fn new(limits: &RttLimits) -> TimeoutInfo {
        TimeoutInfo { srtt: -1, rttvar: -1, timeout: us(limits.initial) }
    }

    /// Whether any sample has been taken (`srtt > 0` in `HostScanStats::probeTimeout`).
    pub fn has_sample(&self) -> bool {
        self.srtt > 0
    }

    pub fn timeout(&self) -> Time {
        Time::from_micros(self.timeout.max(0) as u64)
    }

    /// `adjust_timeouts2`: one RTT sample, `sent` to `received`. Returns whether it was used.
    pub fn adjust(&mut self, sent: Time, received: Time, limits: &RttLimits) -> bool {
        let mut delta = us(received) - us(sent);
        if delta < 0 && delta > -50_000 {
            delta = 10_000;
        }
        if self.srtt == -1 && self.rttvar == -1 {
            self.srtt = delta;
            self.rttvar = self.srtt.clamp(5_000, 2_000_000);
            self.timeout = self.srtt + 4 * self.rttvar;
        } else {
            if !(0..8_000_000).contains(&delta) {
                return false;
            }
            let err = delta - self.srtt;
            if err > 1_500_000 && err > 3 * self.srtt + 2 * self.rttvar {
                return false;
            }
            // `>>` on signed integers is an arithmetic shift: floor division, as in nmap.
            self.srtt += err >> 3;
            self.rttvar += (err.abs() - self.rttvar) >> 2;
            self.timeout = self.srtt + 4 * self.rttvar;
        }
        if self.rttvar > 2_300_000 {
            self.rttvar = 2_000_000;
        }
        self.timeout = self.timeout.clamp(us(limits.min), us(limits.max));
        if limits.scan_delay > Time::ZERO {
            self.timeout = self.timeout.max(us(limits.scan_delay));
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::perf::{ScanPerformanceVars, TimingTemplate};

    fn t3() -> RttLimits {
        ScanPerformanceVars::new(TimingTemplate::T3).rtt
    }

    #[test]
    fn starts_at_the_initial_timeout() {
        let to = TimeoutInfo::new(&t3());
        assert_eq!((to.srtt, to.rttvar, to.timeout()), (-1, -1, Time::from_secs(1)));
        assert!(!to.has_sample());
    }

    #[test]
    fn first_sample_gives_five_srtt() {
        // Public nmap -d3 output: "srtt: 89463 rttvar: 89463 to: 447315".
        let mut to = TimeoutInfo::new(&t3());
        assert!(to.adjust(Time::from_secs(2), Time::from_secs(2) + Time::from_micros(89_463), &t3()));
        assert_eq!((to.srtt, to.rttvar, to.timeout), (89_463, 89_463, 447_315));
    }

    #[test]
    fn small_rtts_are_clamped_to_the_100ms_floor() {
        // nmap-dev 2008/q1/548: srtt 169 µs, rttvar 7 µs -> timeout 100000 µs.
        let mut to = TimeoutInfo { srtt: 169, rttvar: 7, timeout: 0 };
        to.adjust(Time::from_micros(1000), Time::from_micros(1169), &t3());
        assert_eq!((to.srtt, to.rttvar, to.timeout), (169, 5, 100_000));
        // First sample of 200 µs: rttvar floored at 5 ms, timeout 20.2 ms clamped to 100 ms.
        let mut to = TimeoutInfo::new(&t3());
        to.adjust(Time::ZERO, Time::from_micros(200), &t3());
        assert_eq!((to.rttvar, to.timeout), (5_000, 100_000));
    }

    #[test]
    fn later_samples_follow_the_eighth_and_quarter_gains() {
        let mut to = TimeoutInfo::new(&t3());
        to.adjust(Time::ZERO, Time::from_millis(100), &t3());
        // err = 300000 - 100000 = 200000: srtt += 25000, rttvar += (200000 - 100000)/4.
        to.adjust(Time::ZERO, Time::from_millis(300), &t3());
        assert_eq!((to.srtt, to.rttvar, to.timeout), (125_000, 125_000, 625_000));
        // A negative error floors: err = -25000 -> srtt += -3125 (floor(-3125) = -3125),
        // rttvar += floor((25000 - 125000)/4) = -25000.
        to.adjust(Time::ZERO, Time::from_millis(100), &t3());
        assert_eq!((to.srtt, to.rttvar), (121_875, 100_000));
        // Odd negative errors floor: err = -1 -> srtt += floor(-1/8) = -1 (not 0), and
        // rttvar += floor((1 - 8)/4) = -2.
        let mut a = TimeoutInfo { srtt: 10_001, rttvar: 8, timeout: 0 };
        a.adjust(Time::ZERO, Time::from_micros(10_000), &t3());
        assert_eq!((a.srtt, a.rttvar), (10_000, 6));
    }

    #[test]
    fn the_timeout_is_capped_at_ten_seconds_and_bogus_samples_are_ignored() {
        let mut to = TimeoutInfo::new(&t3());
        to.adjust(Time::ZERO, Time::from_millis(3000), &t3());
        // 3 s + 4·2 s = 11 s -> clamped to 10 s.
        assert_eq!((to.rttvar, to.timeout()), (2_000_000, Time::from_secs(10)));
        let before = to;
        assert!(!to.adjust(Time::ZERO, Time::from_secs(9), &t3()), "8 s or more is ignored");
        assert_eq!(to, before);
        let mut small = TimeoutInfo::new(&t3());
        small.adjust(Time::ZERO, Time::from_millis(10), &t3());
        // err = 2 s > 1.5 s and > 3·10 ms + 2·10 ms: bogus.
        assert!(!small.adjust(Time::ZERO, Time::from_millis(2010), &t3()));
    }

    #[test]
    fn small_negative_rtts_count_as_ten_ms() {
        let mut to = TimeoutInfo::new(&t3());
        to.adjust(Time::from_millis(20), Time::from_millis(10), &t3());
        assert_eq!(to.srtt, 10_000);
    }

    #[test]
    fn a_scan_delay_raises_the_timeout() {
        let t2 = ScanPerformanceVars::new(TimingTemplate::T2).rtt;
        let mut to = TimeoutInfo::new(&t2);
        to.adjust(Time::ZERO, Time::from_millis(10), &t2);
        assert_eq!(to.timeout(), Time::from_millis(400));
    }
}

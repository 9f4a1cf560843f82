//! A host's responses to rate limiting: the send delay (`send_delay_nfo`,
//! `HostScanStats::boostScanDelay`) and rate-limit detection (`rate_limit_detection_nfo`,
//! `doAnyOutstandingRetransmits`), spec §3.6.
//!
//! ```text
//! after each timing update of the host:
//!   drop of a probe sent after the last boost ⇒ dropped += 1,  else reply ⇒ good += 1
//!   dropped > 10 and dropped / (dropped + good) > 0.30 (T0..T3) or 0.40 (T4, T5) ⇒ boost
//! boost: delay = 5 ms (50 ms for UDP scans) if it was 0, else min(2·delay, 1 s);
//!        delay = min(delay, max scan delay); counters reset; last_boost = now
//! a host sends nothing until lastprobe_sent + delay
//!
//! RLD: before the first retransmission of each new try number k of a host (when the scan sends
//! more than one probe type per host): max_tryno_sent = k, and the host sends nothing for
//! RLD_TIME = 1 s; after that it may send once without checking its window.
//! ```

use super::perf::{ScanPerformanceVars, RLD_TIME};
use crate::units::Time;

#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SendDelay {
    pub delay: Time,
    pub good_since_change: u32,
    pub dropped_since_change: u32,
    pub last_boost: Time,
    pub max_delay: Time,
}

impl SendDelay {
    pub fn new(perf: &ScanPerformanceVars, now: Time) -> SendDelay {
        SendDelay {
            delay: perf.scan_delay,
            good_since_change: 0,
            dropped_since_change: 0,
            last_boost: now,
            max_delay: perf.max_scan_delay,
        }
    }

    /// The accounting at the end of `ultrascan_adjust_timing`; returns whether it boosted.
    pub fn record(&mut self, is_drop: bool, replied: bool, probe_sent: Time, perf: &ScanPerformanceVars, now: Time) -> bool {
        if is_drop && probe_sent > self.last_boost {
            self.dropped_since_change += 1;
        } else if replied {
            self.good_since_change += 1;
        }
        let dropped = self.dropped_since_change as f64;
        let total = dropped + self.good_since_change as f64;
        if self.dropped_since_change > 10 && dropped / total > perf.send_delay_drop_fraction {
            self.boost(now, false);
            return true;
        }
        false
    }

    pub fn boost(&mut self, now: Time, udp: bool) {
        let first = Time::from_millis(if udp { 50 } else { 5 });
        self.delay = if self.delay == Time::ZERO { first } else { (self.delay + self.delay).min(Time::from_secs(1)) };
        self.delay = self.delay.min(self.max_delay);
        self.last_boost = now;
        self.good_since_change = 0;
        self.dropped_since_change = 0;
    }

    /// When the host may send again, if the delay holds it back at `now`.
    pub fn blocked_until(&self, lastprobe_sent: Option<Time>, now: Time) -> Option<Time> {
        let t = lastprobe_sent? + self.delay;
        (self.delay > Time::ZERO && now < t).then_some(t)
    }
}

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RateLimitDetection {
    pub max_tryno_sent: u8,
    pub waiting: bool,
    pub waittime: Time,
}

impl RateLimitDetection {
    /// Before retransmitting as try `next_tryno`: whether the host must first wait (which starts
    /// the wait).
    pub fn must_wait(&mut self, next_tryno: u8, now: Time) -> bool {
        if next_tryno <= self.max_tryno_sent {
            return false;
        }
        self.max_tryno_sent = next_tryno;
        self.waiting = true;
        self.waittime = now + RLD_TIME;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::perf::TimingTemplate;

    #[test]
    fn eleven_drops_out_of_thirty_replies_boost_to_5ms_then_double_up_to_the_cap() {
        let p = ScanPerformanceVars::new(TimingTemplate::T3);
        let mut s = SendDelay::new(&p, Time::ZERO);
        let sent = Time::from_millis(1);
        for _ in 0..19 {
            assert!(!s.record(false, true, sent, &p, Time::from_secs(1)));
        }
        for _ in 0..10 {
            assert!(!s.record(true, true, sent, &p, Time::from_secs(1)));
        }
        // 11 drops of 30: 0.367 > 0.30.
        assert!(s.record(true, true, sent, &p, Time::from_secs(1)));
        assert_eq!((s.delay, s.dropped_since_change), (Time::from_millis(5), 0));
        // Drops of probes sent before the boost do not count.
        assert!(!s.record(true, true, Time::from_millis(2), &p, Time::from_secs(2)));
        assert_eq!(s.dropped_since_change, 0);
        for _ in 0..10 {
            s.boost(Time::from_secs(3), false);
        }
        assert_eq!(s.delay, Time::from_secs(1), "T3: max scan delay 1 s");
        assert_eq!(s.blocked_until(Some(Time::from_secs(5)), Time::from_secs(5)), Some(Time::from_secs(6)));
    }

    #[test]
    fn rld_waits_once_per_new_try_number() {
        let mut r = RateLimitDetection::default();
        assert!(r.must_wait(1, Time::from_secs(2)));
        assert_eq!((r.waiting, r.waittime), (true, Time::from_secs(3)));
        assert!(!r.must_wait(1, Time::from_secs(4)));
        assert!(r.must_wait(2, Time::from_secs(4)));
    }
}

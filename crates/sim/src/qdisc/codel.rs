//! CoDel, "Controlled Delay" (RFC 8289; Nichols & Jacobson, CACM 2012), with ECN marking and
//! a CE threshold as in Linux `fq_codel`'s `ce_threshold`.
//!
//! At dequeue CoDel looks at the head packet's sojourn time. Once it has stayed above `target`
//! (5 ms) for a whole `interval` (100 ms), CoDel enters the dropping state and drops (or
//! CE-marks) one packet, then the next ones at times given by the control law
//! `drop_next = t + interval/√count`, until the sojourn time falls below target. On re-entry
//! soon after leaving, `count` resumes from its recent value (RFC 8289 §5.5).
//!
//! With `ce_threshold`, every ECN-capable packet whose sojourn exceeds it is CE-marked,
//! whatever the CoDel state (the step marking DCTCP wants, on a time scale).

use super::Verdict;
use cc::Time;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CodelConfig {
    pub target_ms: f64,
    pub interval_ms: f64,
    /// Mark ECN-capable packets instead of dropping them.
    pub ecn: bool,
    /// CE-mark ECN-capable packets whose sojourn exceeds this (ms); `None`: off.
    pub ce_threshold_ms: Option<f64>,
}

impl Default for CodelConfig {
    fn default() -> Self {
        CodelConfig { target_ms: 5.0, interval_ms: 100.0, ecn: true, ce_threshold_ms: None }
    }
}

/// RFC 8289: a positive target and interval (5 ms and 100 ms), in milliseconds up to an hour.
impl cc::check::Validate for CodelConfig {
    fn validate(&self) -> Result<(), String> {
        use cc::check::{above, within};
        within("target_ms", self.target_ms, above(0.0, 3.6e6))?;
        within("interval_ms", self.interval_ms, above(0.0, 3.6e6))?;
        if let Some(ce) = self.ce_threshold_ms {
            within("ce_threshold_ms", ce, above(0.0, 3.6e6))?;
        }
        Ok(())
    }
}

/// A maximum-size packet: below this many bytes queued CoDel never drops (RFC 8289 §5.1).
const MAX_PACKET: u64 = 1500;

#[derive(Clone, Debug)]
pub struct Codel {
    target: Time,
    interval: Time,
    ecn: bool,
    ce_threshold: Option<Time>,
    first_above_time: Option<Time>,
    drop_next: Time,
    count: u32,
    lastcount: u32,
    dropping: bool,
}

impl Codel {
    pub fn new(cfg: &CodelConfig) -> Codel {
        Codel {
            target: Time::from_secs_f64(cfg.target_ms / 1e3),
            interval: Time::from_secs_f64(cfg.interval_ms / 1e3),
            ecn: cfg.ecn,
            ce_threshold: cfg.ce_threshold_ms.map(|ms| Time::from_secs_f64(ms / 1e3)),
            first_above_time: None,
            drop_next: Time::ZERO,
            count: 0,
            lastcount: 0,
            dropping: false,
        }
    }

    /// `t + interval/√count`.
    pub fn control_law(&self, t: Time, count: u32) -> Time {
        t + Time::from_secs_f64(self.interval.as_secs_f64() / (count.max(1) as f64).sqrt())
    }

    fn ok_to_drop(&mut self, now: Time, sojourn: Time, queue_bytes_after: u64) -> bool {
        if sojourn < self.target || queue_bytes_after <= MAX_PACKET {
            self.first_above_time = None;
            return false;
        }
        match self.first_above_time {
            None => {
                self.first_above_time = Some(now + self.interval);
                false
            }
            Some(t) => now >= t,
        }
    }

    fn signal(&self, ect: bool) -> Verdict {
        if self.ecn && ect {
            Verdict::Mark
        } else {
            Verdict::Drop
        }
    }

    pub fn on_dequeue(&mut self, now: Time, sojourn: Time, queue_bytes_after: u64, ect: bool) -> Verdict {
        let ok = self.ok_to_drop(now, sojourn, queue_bytes_after);
        let verdict = if self.dropping {
            if !ok {
                self.dropping = false;
                Verdict::Pass
            } else if now >= self.drop_next {
                self.count += 1;
                self.drop_next = self.control_law(self.drop_next, self.count);
                self.signal(ect)
            } else {
                Verdict::Pass
            }
        } else if ok {
            self.dropping = true;
            let delta = self.count.saturating_sub(self.lastcount);
            self.count = if delta > 1 && now - self.drop_next < Time(16 * self.interval.0) { delta } else { 1 };
            self.drop_next = self.control_law(now, self.count);
            self.lastcount = self.count;
            self.signal(ect)
        } else {
            Verdict::Pass
        };
        match (verdict, self.ce_threshold) {
            (Verdict::Pass, Some(th)) if ect && sojourn > th => Verdict::Mark,
            _ => verdict,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn drops_after_an_interval_above_target_then_faster_by_the_square_root_law() {
        let mut c = Codel::new(&CodelConfig { ecn: false, ..CodelConfig::default() });
        let big = 100_000;
        // Sojourn 10 ms > 5 ms from t = 0: nothing for 100 ms.
        assert_eq!(c.on_dequeue(Time(0), Time(10 * MS), big, false), Verdict::Pass);
        assert_eq!(c.on_dequeue(Time(99 * MS), Time(10 * MS), big, false), Verdict::Pass);
        // At 100 ms: first drop, next at 100 + 100/√1 = 200 ms.
        assert_eq!(c.on_dequeue(Time(100 * MS), Time(10 * MS), big, false), Verdict::Drop);
        assert_eq!(c.on_dequeue(Time(199 * MS), Time(10 * MS), big, false), Verdict::Pass);
        assert_eq!(c.on_dequeue(Time(200 * MS), Time(10 * MS), big, false), Verdict::Drop);
        // Third drop at 200 + 100/√2 = 270.71 ms.
        assert_eq!(c.on_dequeue(Time(270 * MS), Time(10 * MS), big, false), Verdict::Pass);
        assert_eq!(c.on_dequeue(Time(271 * MS), Time(10 * MS), big, false), Verdict::Drop);
        // Below target: leave the dropping state.
        assert_eq!(c.on_dequeue(Time(300 * MS), Time(MS), big, false), Verdict::Pass);
        assert!(!c.dropping);
    }

    #[test]
    fn marks_instead_of_dropping_and_honours_the_ce_threshold() {
        let mut c = Codel::new(&CodelConfig { ce_threshold_ms: Some(1.0), ..CodelConfig::default() });
        assert_eq!(c.on_dequeue(Time(0), Time(2 * MS), 100_000, true), Verdict::Mark);
        assert_eq!(c.on_dequeue(Time(MS), Time(MS / 2), 100_000, true), Verdict::Pass);
        assert_eq!(c.on_dequeue(Time(2 * MS), Time(2 * MS), 100_000, false), Verdict::Pass);
        c.on_dequeue(Time(10 * MS), Time(10 * MS), 100_000, true);
        assert_eq!(c.on_dequeue(Time(110 * MS), Time(10 * MS), 100_000, true), Verdict::Mark);
        assert_eq!(c.on_dequeue(Time(111 * MS), Time(10 * MS), 100_000, false), Verdict::Pass);
    }
}

//! A token-bucket pacer: packets leave at `rate`, with bursts of at most `quantum` bytes
//! (like Linux's fq qdisc with its per-flow quantum).

use crate::units::{Bytes, Rate, Time};

#[derive(Clone, Debug, Default)]
pub struct Pacer {
    tokens: f64,
    last: Time,
}

impl Pacer {
    fn refill(&mut self, now: Time, rate: Rate, depth: f64) {
        if now > self.last {
            self.tokens = (self.tokens + rate.bytes_in(now - self.last)).min(depth);
            self.last = now;
        }
    }

    /// When a packet of `len` bytes may leave at `rate` (now, or a later time).
    pub fn release_time(&mut self, now: Time, len: Bytes, rate: Rate, quantum: Bytes) -> Time {
        let depth = quantum.max(len) as f64;
        self.refill(now, rate, depth);
        let need = len as f64 - self.tokens;
        if need <= 0.0 {
            now
        } else {
            // Round up so that the bucket holds a whole packet at the release time.
            now + Time::from_secs_f64(need / rate.bytes_per_sec()) + Time(1)
        }
    }

    pub fn on_send(&mut self, now: Time, len: Bytes, rate: Rate, quantum: Bytes) {
        let depth = quantum.max(len) as f64;
        self.refill(now, rate, depth);
        self.tokens -= len as f64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_packets_at_the_rate_after_the_burst() {
        let rate = Rate::from_bytes_per_sec(1_000_000.0); // 1 ms per 1000-byte packet
        let mut p = Pacer { tokens: 2000.0, last: Time::ZERO };
        let mut now = Time::ZERO;
        let mut departures = vec![];
        for _ in 0..5 {
            now = p.release_time(now, 1000, rate, 2000);
            departures.push(now);
            p.on_send(now, 1000, rate, 2000);
        }
        // Two back to back (the quantum), then one per millisecond.
        assert_eq!(departures[0], Time::ZERO);
        assert_eq!(departures[1], Time::ZERO);
        for w in departures[2..].windows(2) {
            let gap = (w[1] - w[0]).0 as i64;
            assert!((gap - 1_000_000).abs() <= 2, "gap {gap}");
        }
    }
}

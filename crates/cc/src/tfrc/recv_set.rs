//! The sender's receive-rate history `X_recv_set` (RFC 5348 §4.3), which bounds the sending
//! rate by what the receiver actually got: `recv_limit = 2·max(X_recv_set)`.
//!
//! The set starts as `{∞}` (§4.2). *Update* adds the reported `X_recv` and deletes entries older
//! than two round-trip times, so the limit is twice the largest receive rate of the last two
//! RTTs. The nofeedback timer (§4.4) replaces the contents with a single value.
//!
//! Simplification: the data-limited branch of §4.3 step 4 (halve the entries, *Maximize*) is
//! not implemented. The driver's flows are either bulk or send at the allowed rate until their
//! data runs out, after which nothing is sent and no feedback arrives, so no feedback ever
//! covers a wholly data-limited interval.

use crate::units::Time;

#[derive(Clone, Debug)]
pub struct ReceiveRateSet {
    /// (when added, bytes per second); `f64::INFINITY` for the initial entry.
    entries: Vec<(Time, f64)>,
}

impl ReceiveRateSet {
    /// `{∞}`, stamped `now`.
    pub fn new(now: Time) -> ReceiveRateSet {
        ReceiveRateSet { entries: vec![(now, f64::INFINITY)] }
    }

    /// Adds `x_recv`, then deletes entries older than `2·rtt`.
    pub fn update(&mut self, now: Time, x_recv: f64, rtt: Time) {
        self.entries.push((now, x_recv));
        let horizon = rtt + rtt;
        self.entries.retain(|&(t, _)| now - t <= horizon);
    }

    /// Replaces the contents with the single item `x` (§4.4's *Update_Limits*).
    pub fn replace(&mut self, now: Time, x: f64) {
        self.entries.clear();
        self.entries.push((now, x));
    }

    /// The largest entry (∞ while the initial entry remains).
    pub fn max(&self) -> f64 {
        self.entries.iter().map(|&(_, x)| x).fold(0.0, f64::max)
    }

    /// The largest finite entry, if any: the receive rate the nofeedback timer compares with.
    pub fn max_finite(&self) -> Option<f64> {
        self.entries.iter().map(|&(_, x)| x).filter(|x| x.is_finite()).reduce(f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_two_round_trips_of_receive_rates() {
        let ms = Time::from_millis;
        let r = ms(100);
        let mut set = ReceiveRateSet::new(ms(0));
        set.update(ms(100), 5.0, r);
        assert_eq!(set.max(), f64::INFINITY);
        assert_eq!(set.max_finite(), Some(5.0));
        set.update(ms(250), 3.0, r);
        // ∞ (250 ms old) is gone; 5 (150 ms old) stays.
        assert_eq!(set.max(), 5.0);
        set.update(ms(320), 1.0, r);
        assert_eq!(set.max(), 3.0);
        set.replace(ms(400), 0.5);
        assert_eq!(set.max(), 0.5);
    }
}

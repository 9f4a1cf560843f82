//! A rate-limited application: the writer behind iperf3's `-b` (`--bitrate`) or a video
//! server's encoder, which hands the socket data at a steady rate instead of always.
//!
//! From its first write at t₀ the application writes one segment every mss / r seconds, so
//! the k-th segment (k = 0, 1, …) is in the send buffer from
//!
//! ```text
//! t_k = t₀ + ⌈k · mss / r⌉   (in nanoseconds)
//! ```
//!
//! and by time t it has written A(t) = #{k : t_k ≤ t} segments, ⌊(t − t₀)·r / mss⌋ + 1 up to
//! the rounding of t_k, which [`AppSource::written`] follows exactly so that a timer set for
//! [`AppSource::next_write`] always finds the next segment written. When the sender has sent
//! everything written and the window would take more, the connection is application-limited
//! (Linux `tcp_rate_check_app_limited`), and its delivery-rate samples say so
//! (draft-cheng-iccrg-delivery-rate-estimation §3.2): a controller that keeps a maximum of
//! them, as BBR does, ignores those below its estimate.

use crate::units::{Bytes, Rate, Time};

#[derive(Clone, Debug)]
pub struct AppSource {
    rate: Rate,
    mss: Bytes,
    /// The first write: when the sender first looks for data.
    start: Option<Time>,
    /// Segments written before the first write (by an earlier rate).
    base: u64,
    /// Segments written by the last [`AppSource::advance`].
    written: u64,
}

impl AppSource {
    /// An application that starts writing when the sender first looks for data.
    pub fn new(rate: Rate, mss: Bytes) -> AppSource {
        AppSource { rate, mss, start: None, base: 0, written: 0 }
    }

    /// An application that has written `base` segments and from `start` writes at `rate`
    /// (its first new segment at `start`).
    pub fn resuming(rate: Rate, mss: Bytes, start: Time, base: u64) -> AppSource {
        AppSource { rate, mss, start: Some(start), base, written: base }
    }

    /// When the k-th segment is written, relative to the first write: ⌈k·mss/r⌉ ns.
    fn offset(&self, k: u64) -> Time {
        Time((k as f64 * self.mss as f64 * 1e9 / self.rate.bytes_per_sec()).ceil() as u64)
    }

    /// Brings the count of written segments up to `now` (the first call is the first write).
    pub fn advance(&mut self, now: Time) {
        let start = *self.start.get_or_insert(now);
        let elapsed = now - start;
        let mut k = (self.rate.bytes_in(elapsed) / self.mss as f64).floor() as u64;
        // The float estimate may be one off either way; t_k decides.
        while k > 0 && self.offset(k) > elapsed {
            k -= 1;
        }
        while self.offset(k + 1) <= elapsed {
            k += 1;
        }
        self.written = self.written.max(self.base + k + 1);
    }

    /// Segments written so far (as of the last [`AppSource::advance`]).
    pub fn written(&self) -> u64 {
        self.written
    }

    /// When the next segment is written (`None` before the first write).
    pub fn next_write(&self) -> Option<Time> {
        Some(self.start? + self.offset(self.written - self.base))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_one_segment_every_mss_over_r() {
        // 1000-byte segments at 8 Mbit/s: one every 1 ms.
        let mut a = AppSource::new(Rate::from_bits_per_sec(8e6), 1000);
        assert_eq!(a.next_write(), None);
        a.advance(Time::from_millis(5));
        assert_eq!(a.written(), 1, "the first write is at the first look");
        assert_eq!(a.next_write(), Some(Time::from_millis(6)));
        a.advance(Time::from_millis(6) - Time(1));
        assert_eq!(a.written(), 1);
        a.advance(Time::from_millis(6));
        assert_eq!(a.written(), 2);
        a.advance(Time::from_millis(105));
        assert_eq!(a.written(), 101, "⌊100 ms · 1 segment/ms⌋ + 1");
    }

    #[test]
    fn a_timer_at_the_next_write_always_finds_it() {
        // A rate whose segment time is not a whole number of nanoseconds: 1448 B at 7 Mbit/s
        // is 1654857.142… ns, so t_k rounds up and the float estimate must not overtake it.
        let mut a = AppSource::new(Rate::from_bits_per_sec(7e6), 1448);
        a.advance(Time::ZERO);
        for k in 1..10_000u64 {
            let t = a.next_write().unwrap();
            a.advance(t - Time(1));
            assert_eq!(a.written(), k, "before t_{k}");
            a.advance(t);
            assert_eq!(a.written(), k + 1, "at t_{k}");
        }
        // No drift: the 10 000th write is 10 000 segment times (16.548571428… s) after the
        // first, rounded up to the nanosecond.
        let t = a.next_write().unwrap().0 as f64;
        assert!((t - 16_548_571_428.57).abs() < 1.0, "t_10000 = {t} ns");
    }
}

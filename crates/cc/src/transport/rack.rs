//! RACK: time-based loss detection (RFC 8985; Linux `tcp_recovery.c`).
//!
//! RACK remembers the most recently *sent* segment that has been delivered (its send time
//! `xmit_ts` and RTT). Any segment sent before it that is still outstanding after
//! `RTT + reo_wnd` is deemed lost — including a retransmission, which the duplicate-ACK and
//! SACK-count rules of RFC 6675 cannot detect (only the RTO could). `reo_wnd` is the reordering
//! allowance, `min_rtt/4` (at most SRTT), or zero in recovery until reordering is seen (Linux's
//! `tcp_rack_reo_wnd`).
//!
//! **The reorder timer** (RFC 8985 §6.2 step 5 and §6.3): when segments sent before
//! `RACK.xmit_ts` are still waiting out their `RACK.rtt + reo_wnd`, the timer is armed for the
//! *longest* of those waits (`timeout = max(remaining, timeout)`), so that the segments
//! sent together are declared lost together. Linux (`tcp_rack_mark_lost`) arms it
//! `TCP_TIMEOUT_MIN_US` (2 ms) later still:
//!
//! ```text
//! fire at max over candidates (xmit_ts + RACK.rtt + reo_wnd) + 2 ms
//! ```
//!
//! With duplicate ACKs coming a packet time apart, the third one (and `reo_wnd = 0` with
//! DupThresh SACKs) therefore starts recovery before the timer does, and the first
//! retransmission leaves on an ACK, in place of a segment that left the bottleneck, instead of
//! on a timer into a queue that is still full.
//!
//! The scoreboard keeps the segment flags; this file keeps RACK's own state: the newest
//! delivered transmission, the in-flight retransmissions in send order (so that they are
//! checked in time order), and how far the never-retransmitted segments have been examined.

use super::tlp::TIMEOUT_MIN;
use crate::units::Time;
use std::collections::VecDeque;

#[derive(Clone, Debug, Default)]
pub struct Rack {
    /// Send time and sequence of the most recently sent segment delivered so far.
    pub xmit_ts: Option<Time>,
    pub end_seq: u64,
    /// Its RTT (RACK.rtt).
    pub rtt: Time,
    /// A segment was delivered out of order (not a retransmission) at some point.
    pub reord_seen: bool,
    /// The reorder timer.
    pub timer: Option<Time>,
    /// Retransmissions in flight, in the order they were sent: (seq, send time).
    pub retransmissions: VecDeque<(u64, Time)>,
    /// Never-retransmitted segments below this were delivered or declared lost.
    pub scan: u64,
}

impl Rack {
    /// RFC 8985 §6.2 steps 1-2: a segment (last sent at `sent`) was delivered at `now` by an
    /// ACK whose timestamp echo is `echo`.
    pub fn on_delivered(&mut self, seq: u64, sent: Time, retransmitted: bool, now: Time, echo: Option<Time>, min_rtt: Option<Time>) {
        let rtt = now - sent;
        // A retransmitted segment whose ACK echoes an earlier transmission, or comes back faster
        // than the path allows, was delivered by its original: its send time says nothing.
        if retransmitted && (echo.is_some_and(|e| e < sent) || min_rtt.is_some_and(|m| rtt < m)) {
            return;
        }
        if self.xmit_ts.is_none_or(|t| (sent, seq) > (t, self.end_seq)) {
            self.xmit_ts = Some(sent);
            self.end_seq = seq;
            self.rtt = rtt;
        }
    }

    /// The segment was sent before the most recently delivered one (RACK's ordering).
    pub fn sent_before(&self, sent: Time, seq: u64) -> bool {
        self.xmit_ts.is_some_and(|t| (sent, seq) < (t, self.end_seq))
    }

    /// When a segment sent at `sent` is deemed lost.
    pub fn deadline(&self, sent: Time, reo_wnd: Time) -> Time {
        sent + self.rtt + reo_wnd
    }

    /// When the reorder timer fires, given the latest deadline among the segments still
    /// waiting (Linux: `usecs_to_jiffies(timeout + TCP_TIMEOUT_MIN_US)`; the jiffy rounding
    /// is not modelled).
    pub fn timer_at(latest_deadline: Time) -> Time {
        latest_deadline + TIMEOUT_MIN
    }

    /// Linux `tcp_rack_reo_wnd`: zero in recovery (or with DupThresh SACKs) until reordering
    /// has been seen, otherwise `min_rtt/4` capped at SRTT.
    pub fn reo_wnd(&self, in_recovery: bool, dupthresh_reached: bool, min_rtt: Option<Time>, srtt: Option<Time>) -> Time {
        if !self.reord_seen && (in_recovery || dupthresh_reached) {
            return Time::ZERO;
        }
        let quarter = Time(min_rtt.unwrap_or(Time::ZERO).0 / 4);
        srtt.map_or(quarter, |s| quarter.min(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_the_most_recently_sent_delivery_and_ignores_ambiguous_retransmissions() {
        let mut r = Rack::default();
        let ms = Time::from_millis;
        r.on_delivered(5, ms(10), false, ms(110), None, Some(ms(100)));
        assert_eq!((r.xmit_ts, r.end_seq, r.rtt), (Some(ms(10)), 5, ms(100)));
        // An older transmission delivered later does not move RACK back.
        r.on_delivered(3, ms(8), false, ms(120), None, Some(ms(100)));
        assert_eq!(r.end_seq, 5);
        // A retransmission "acknowledged" 20 ms after it was sent, on a 100 ms path: the ACK was
        // for the original.
        r.on_delivered(2, ms(100), true, ms(120), None, Some(ms(100)));
        assert_eq!(r.end_seq, 5);
        // ... or whose ACK echoes the original's timestamp.
        r.on_delivered(2, ms(100), true, ms(300), Some(ms(1)), Some(ms(100)));
        assert_eq!(r.end_seq, 5);
        r.on_delivered(2, ms(100), true, ms(205), Some(ms(100)), Some(ms(100)));
        assert_eq!((r.xmit_ts, r.end_seq), (Some(ms(100)), 2));
        assert!(r.sent_before(ms(50), 9) && !r.sent_before(ms(100), 2));
        assert_eq!(r.deadline(ms(50), ms(25)), ms(180));
    }

    #[test]
    fn reordering_window_is_a_quarter_min_rtt_or_zero_in_recovery() {
        let mut r = Rack::default();
        let (min, srtt) = (Some(Time::from_millis(100)), Some(Time::from_millis(120)));
        assert_eq!(r.reo_wnd(false, false, min, srtt), Time::from_millis(25));
        assert_eq!(r.reo_wnd(true, false, min, srtt), Time::ZERO);
        r.reord_seen = true;
        assert_eq!(r.reo_wnd(true, true, min, srtt), Time::from_millis(25));
    }
}

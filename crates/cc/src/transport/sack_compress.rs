//! Linux's SACK compression: a receiver holding out-of-order data ACKs the first three
//! segments past a hole at once, then at most one ACK per timer (`net/ipv4/tcp_input.c`,
//! `__tcp_ack_snd_check`; `tcp_compressed_ack_kick` in `tcp_timer.c`; Eric Dumazet, "tcp: add
//! SACK compression", Linux 4.18, and "tcp: add tp->dup_ack_counter", 5.17).
//!
//! For each out-of-order segment that no quick ACK sends at once:
//!
//! - if [`COMP_SACK_NR`] ACKs are already held, or the connection has no SACK, ACK now;
//! - if `rcv_nxt` moved since the last one, the duplicate count restarts: the first
//!   [`FASTRETRANS_THRESH`] segments above a given `rcv_nxt` are ACKed at once, so that a sender
//!   counting three duplicate ACKs (RFC 5681) starts its retransmission as before;
//! - later ones are held: the first held starts a timer of
//!   `delay = min(tcp_comp_sack_delay_ns, rtt / 20)` (5 % of the receiver's RTT estimate, at
//!   most 1 ms), with `tcp_comp_sack_slack_ns` of slack, and the ACK goes when it fires.
//!
//! Any ACK sent resets the held count and cancels the timer (`tcp_event_ack_sent`); the
//! duplicate count restarts only when `rcv_nxt` moves. The timer is an hrtimer with a range: it
//! may fire anywhere from `delay` to `delay + slack`, and fires at the end of the range unless
//! another interrupt comes first; we take the end. Linux's `rtt` is the smaller of the receiver's
//! RTT estimate (`rcv_rtt_est`) and its own smoothed RTT from the handshake (`srtt_us`); we take
//! the first (no estimate yet: no delay, as Linux's zero `rcv_rtt_est`). Not modelled: the ACK
//! Linux sends early when a new hole would push the oldest of its four SACK blocks out of its
//! table (`tcp_sack_compress_send_ack` in `tcp_sack_new_ofo_skb`).
//!
//! While held, the ACK that finally goes reports deliveries up to `delay + slack` old. A sender
//! whose delivery-rate sample starts at such an ACK (RFC draft-cheng-iccrg-delivery-rate-
//! estimation's `prior_time`) measures an interval that much shorter than the data it counts
//! took to arrive, so the sample exceeds the bottleneck's rate by up to `(delay + slack) / interval`
//! (1.8 % for 1.1 ms in a 60 ms interval); BBR's max filter keeps such samples.

use crate::units::Time;

/// `TCP_FASTRETRANS_THRESH`: duplicate ACKs sent at once before compression starts.
pub const FASTRETRANS_THRESH: u32 = 3;
/// `net.ipv4.tcp_comp_sack_nr`: at most this many ACKs held before one is sent.
pub const COMP_SACK_NR: u32 = 44;
/// `net.ipv4.tcp_comp_sack_delay_ns`: the longest a held ACK waits (1 ms).
pub const COMP_SACK_DELAY: Time = Time::from_millis(1);
/// `net.ipv4.tcp_comp_sack_slack_ns`: the timer's slack (100 µs).
pub const COMP_SACK_SLACK: Time = Time::from_micros(100);

/// The compression state of one receiver.
#[derive(Clone, Debug, Default)]
pub struct SackCompressor {
    /// `compressed_ack_rcv_nxt`: the `rcv_nxt` the duplicate count belongs to.
    rcv_nxt: u64,
    /// `dup_ack_counter`.
    dup_acks: u32,
    /// `compressed_ack`: ACKs held since the last one sent.
    held: u32,
    /// When the compressed-ACK timer fires, if armed.
    deadline: Option<Time>,
}

/// The timer's delay for a receiver RTT estimate: `min(1 ms, rtt / 20)` plus the slack.
pub fn timer_delay(rtt: Option<Time>) -> Time {
    let rtt = rtt.unwrap_or(Time::ZERO);
    COMP_SACK_DELAY.min(Time::from_nanos(rtt.as_nanos() / 20)) + COMP_SACK_SLACK
}

impl SackCompressor {
    /// An out-of-order segment arrived at `now` with `rcv_nxt` where it is and no quick ACK
    /// due; `rtt` is the receiver's RTT estimate. Whether its ACK is held (else it goes now).
    pub fn hold(&mut self, now: Time, rcv_nxt: u64, rtt: Option<Time>) -> bool {
        if self.held >= COMP_SACK_NR {
            return false;
        }
        if self.rcv_nxt != rcv_nxt {
            self.rcv_nxt = rcv_nxt;
            self.dup_acks = 0;
        }
        if self.dup_acks < FASTRETRANS_THRESH {
            self.dup_acks += 1;
            return false;
        }
        self.held += 1;
        if self.deadline.is_none() {
            self.deadline = Some(now + timer_delay(rtt));
        }
        true
    }

    /// An ACK went (`tcp_event_ack_sent`): nothing is held any more.
    pub fn on_ack_sent(&mut self) {
        self.held = 0;
        self.deadline = None;
    }

    /// When the timer fires, if armed.
    pub fn deadline(&self) -> Option<Time> {
        self.deadline
    }

    /// Whether ACKs are held and their timer has fired by `now` (`tcp_compressed_ack_kick`).
    pub fn due(&self, now: Time) -> bool {
        self.held > 0 && self.deadline.is_some_and(|t| t <= now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn us(n: u64) -> Time {
        Time::from_micros(n)
    }

    #[test]
    fn the_delay_is_five_per_cent_of_the_rtt_at_most_one_ms_plus_the_slack() {
        assert_eq!(timer_delay(Some(Time::from_millis(60))), us(1_100), "60 ms / 20 = 3 ms, capped at 1 ms");
        assert_eq!(timer_delay(Some(Time::from_millis(10))), us(600), "10 ms / 20 = 500 µs");
        assert_eq!(timer_delay(None), us(100), "no estimate: no delay, only the slack");
    }

    #[test]
    fn three_duplicates_at_once_then_one_ack_per_timer() {
        let mut c = SackCompressor::default();
        let rtt = Some(Time::from_millis(60));
        // rcv_nxt stuck at 100: segments 101.. arrive 1.2 ms apart (10 Mbit/s).
        let at = |k: u64| us(1_200 * k);
        for k in 0..3 {
            assert!(!c.hold(at(k), 100, rtt), "duplicate {} goes at once", k + 1);
        }
        assert!(c.hold(at(3), 100, rtt), "the fourth is held");
        assert_eq!(c.deadline(), Some(at(3) + us(1_100)));
        assert!(!c.due(at(3) + us(1_099)));
        assert!(c.due(at(3) + us(1_100)));
        c.on_ack_sent();
        assert_eq!(c.deadline(), None);
        assert!(c.hold(at(4), 100, rtt), "still above the same rcv_nxt: held, no three duplicates again");
        // The hole fills partly: rcv_nxt moves, and the count starts over.
        c.on_ack_sent();
        for _ in 0..3 {
            assert!(!c.hold(at(5), 150, rtt));
        }
        assert!(c.hold(at(6), 150, rtt));
    }

    #[test]
    fn at_most_comp_sack_nr_held() {
        let mut c = SackCompressor { rcv_nxt: 7, dup_acks: FASTRETRANS_THRESH, ..SackCompressor::default() };
        for k in 0..COMP_SACK_NR {
            assert!(c.hold(us(k as u64), 7, None), "held {k}");
        }
        assert!(!c.hold(us(50), 7, None), "the 45th goes, carrying the 44 held");
        assert_eq!(c.deadline(), Some(us(100)), "armed by the first held, not moved by later ones");
    }
}

//! Round-trip counting from delivery counts, as BBR does it (draft-ietf-ccwg-bbr §4.5.1,
//! Linux `tcp_bbr.c` `bbr_update_round_start`): a round ends when the sender receives an
//! acknowledgement for a packet that was sent after the previous round ended. Controllers that
//! act "once per RTT" (Vegas, BBR, HyStart) use it instead of a timer.

use crate::controller::Feedback;
use crate::units::Bytes;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoundCounter {
    next_round_delivered: Bytes,
    /// Rounds completed so far.
    pub count: u64,
}

impl RoundCounter {
    /// Returns true when this feedback starts a new round.
    pub fn on_feedback(&mut self, fb: &Feedback) -> bool {
        if fb.acked_packets > 0 && fb.prior_delivered >= self.next_round_delivered {
            self.next_round_delivered = fb.delivered;
            self.count += 1;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(prior_delivered: Bytes, delivered: Bytes) -> Feedback {
        let mut fb = Feedback::default();
        fb.acked_packets = 1;
        fb.prior_delivered = prior_delivered;
        fb.delivered = delivered;
        fb
    }

    #[test]
    fn a_round_ends_when_a_packet_sent_after_its_start_is_acknowledged() {
        let mut r = RoundCounter::default();
        // Window of 4 packets: all sent with prior_delivered 0.
        assert!(r.on_feedback(&ack(0, 1))); // first ACK starts round 1
        assert!(!r.on_feedback(&ack(0, 2)));
        assert!(!r.on_feedback(&ack(0, 3)));
        assert!(!r.on_feedback(&ack(0, 4)));
        // Packets sent after the first ACK carry prior_delivered >= 1.
        assert!(r.on_feedback(&ack(1, 5)));
        assert!(!r.on_feedback(&ack(2, 6)));
        assert_eq!(r.count, 2);
    }
}

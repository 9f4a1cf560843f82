//! Retransmissions per round trip of fast recovery, the figure by which seed 003 sets TCP SACK
//! apart: "in contrast to all previous flavors, more than one packet per RTT during fast
//! recovery can be sent".
//!
//! A SACK sender (RFC 6675 §5, Linux `tcp_xmit_retransmit_queue`) retransmits every hole the
//! scoreboard marks lost as soon as the pipe allows, so a window with *k* losses is repaired
//! in about one round trip. Without SACK (NewReno, RFC 6582 §3.2 step 4; Linux
//! `tcp_newreno_mark_lost`) only the segment at `snd_una` is known lost: each partial ACK, one
//! per round trip, releases one retransmission, so *k* losses take *k* round trips.
//!
//! Rounds are counted as BBR counts them ([`RoundCounter`]): a round ends when an ACK arrives
//! for a segment sent after the previous round ended. The meter counts the retransmissions
//! sent in fast recovery (not after a timeout) in each round and keeps the largest count and
//! the totals.

use crate::controller::Feedback;
use crate::round::RoundCounter;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecoveryRounds {
    round: RoundCounter,
    this_round: u64,
    /// The most retransmissions fast recovery sent in one round trip.
    pub max_per_round: u64,
    /// Round trips in which fast recovery retransmitted something, and what it retransmitted.
    pub rounds: u64,
    pub retransmits: u64,
}

impl RecoveryRounds {
    /// Every ACK's feedback: a new round starts the count afresh.
    pub fn on_feedback(&mut self, fb: &Feedback) {
        if self.round.on_feedback(fb) {
            self.this_round = 0;
        }
    }

    /// A retransmission sent in fast recovery.
    pub fn on_retransmit(&mut self) {
        if self.this_round == 0 {
            self.rounds += 1;
        }
        self.this_round += 1;
        self.retransmits += 1;
        self.max_per_round = self.max_per_round.max(self.this_round);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(prior_delivered: u64, delivered: u64) -> Feedback {
        Feedback { acked_packets: 1, prior_delivered, delivered, ..Feedback::default() }
    }

    /// Three holes retransmitted before the round's ACK (SACK) count 3 in one round; one per
    /// partial ACK, each ending a round (NewReno), counts 1 per round.
    #[test]
    fn counts_per_round_trip() {
        let mut sack = RecoveryRounds::default();
        sack.on_feedback(&ack(0, 10));
        for _ in 0..3 {
            sack.on_retransmit();
        }
        assert_eq!((sack.max_per_round, sack.rounds, sack.retransmits), (3, 1, 3));

        let mut newreno = RecoveryRounds::default();
        for k in 0..3 {
            // Each partial ACK acknowledges the retransmission of the round before: a new round.
            newreno.on_feedback(&ack(10 * k, 10 * (k + 1)));
            newreno.on_retransmit();
        }
        assert_eq!((newreno.max_per_round, newreno.rounds, newreno.retransmits), (1, 3, 3));
        // An ACK within the round (its segment sent before the round began) does not end it.
        newreno.on_feedback(&ack(5, 31));
        newreno.on_retransmit();
        assert_eq!(newreno.max_per_round, 2);
    }
}

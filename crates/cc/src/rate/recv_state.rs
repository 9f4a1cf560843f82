//! The receiving bookkeeping SABUL and UDT share: the largest number received, the receiver
//! loss list (every gap below it), duplicate detection, the cumulative ACK number, and an RTT
//! estimate from one-way delays.
//!
//! ACK number (SABUL [S-code recver.cpp], UDT [U4 core.cpp sendCtrl]): the first entry of the
//! loss list if there is one, otherwise largest received + 1.
//!
//! **RTT without a handshake.** SABUL measures its RTT once over the TCP control channel at
//! set-up, UDT from ACK→ACK2 round trips; the datagram interface has neither a set-up
//! exchange nor a sender→receiver control message. The receiver therefore adds the forward
//! one-way delay of a packet (`arrival − sent`; the driver's clocks are synchronised) to the
//! smallest one seen, which stands for the uncongested reverse path. Like ACK/ACK2 this
//! counts forward queueing once and assumes a symmetric base path.

use super::loss_list::RecvLossList;
use crate::units::Time;
use std::ops::Range;

/// What one data packet meant to the receiver.
#[derive(Clone, Debug, PartialEq)]
pub enum Arrival {
    /// Already received (or below the ACK point): dropped.
    Duplicate,
    /// The next packet in order.
    InOrder,
    /// A listed loss (usually a retransmission) filled its hole.
    Recovered,
    /// The packet skipped these numbers, now on the loss list.
    Gap(Range<u64>),
}

#[derive(Clone, Debug, Default)]
pub struct RecvState {
    total: Option<u64>,
    next_new: u64,
    pub losses: RecvLossList,
    distinct: u64,
}

impl RecvState {
    /// `total` packets for a finite transfer.
    pub fn new(total: Option<u64>) -> RecvState {
        RecvState { total, ..RecvState::default() }
    }

    pub fn on_data(&mut self, now: Time, seq: u64) -> Arrival {
        if seq >= self.next_new {
            let gap = self.next_new..seq;
            self.next_new = seq + 1;
            self.distinct += 1;
            if gap.is_empty() {
                Arrival::InOrder
            } else {
                self.losses.add_gap(gap.clone(), now);
                Arrival::Gap(gap)
            }
        } else if self.losses.remove(seq) {
            self.distinct += 1;
            Arrival::Recovered
        } else {
            Arrival::Duplicate
        }
    }

    /// The cumulative ACK: every packet below it has arrived.
    pub fn ack_number(&self) -> u64 {
        self.losses.first().unwrap_or(self.next_new)
    }

    /// Distinct packets received.
    pub fn packets_received(&self) -> u64 {
        self.distinct
    }

    /// A finite transfer has fully arrived.
    pub fn is_complete(&self) -> bool {
        self.total.is_some_and(|t| self.ack_number() >= t)
    }
}

/// RTT samples from one-way delays: the latest forward delay plus the smallest one.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct OwdRtt {
    min: Option<Time>,
    last: Option<Time>,
}

impl OwdRtt {
    pub fn on_arrival(&mut self, now: Time, sent: Time) {
        let owd = now - sent;
        self.last = Some(owd);
        self.min = Some(self.min.map_or(owd, |m| m.min(owd)));
    }

    /// The current sample, once a packet has arrived.
    pub fn sample(&self) -> Option<Time> {
        Some(self.last? + self.min?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_are_listed_and_the_ack_stops_at_the_first_hole() {
        let mut r = RecvState::new(Some(6));
        let t = Time::ZERO;
        assert_eq!(r.on_data(t, 0), Arrival::InOrder);
        assert_eq!(r.on_data(t, 3), Arrival::Gap(1..3));
        assert_eq!(r.ack_number(), 1);
        assert_eq!(r.on_data(t, 3), Arrival::Duplicate);
        assert_eq!(r.on_data(t, 2), Arrival::Recovered);
        assert_eq!(r.on_data(t, 1), Arrival::Recovered);
        assert_eq!(r.ack_number(), 4);
        assert_eq!(r.on_data(t, 1), Arrival::Duplicate);
        assert_eq!(r.packets_received(), 4);
        r.on_data(t, 4);
        r.on_data(t, 5);
        assert!(r.is_complete());
    }

    #[test]
    fn owd_rtt_adds_the_base_reverse_delay_to_the_forward_delay() {
        let mut o = OwdRtt::default();
        assert_eq!(o.sample(), None);
        o.on_arrival(Time::from_millis(50), Time::ZERO);
        assert_eq!(o.sample(), Some(Time::from_millis(100)));
        o.on_arrival(Time::from_millis(80), Time::from_millis(10)); // 20 ms of queue
        assert_eq!(o.sample(), Some(Time::from_millis(120)));
    }
}

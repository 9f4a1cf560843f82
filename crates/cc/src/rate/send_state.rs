//! The sending bookkeeping SABUL and UDT share: sequence numbers, the cumulative ACK point,
//! the sender loss list with retransmission priority, a flow window on outstanding packets,
//! pacing by an inter-packet time, and the [`DgStats`] counters.
//!
//! Packets are numbered from 0; every packet carries the MSS except the last of a finite
//! transfer. "Outstanding" counts the packets in `[last_ack, next_seq)`.

use super::loss_list::SendLossList;
use crate::datagram::{DgInit, DgStats, DgTransmit};
use crate::units::{Bytes, Time};

#[derive(Clone, Debug)]
pub struct SendState {
    mss: Bytes,
    limit: Option<Bytes>,
    total: Option<u64>,
    next_seq: u64,
    last_ack: u64,
    /// Numbers waiting for retransmission.
    pub losses: SendLossList,
    pub stats: DgStats,
    next_send: Time,
    started: Option<Time>,
}

impl SendState {
    pub fn new(init: &DgInit) -> SendState {
        let mss = init.mss.max(1);
        SendState {
            mss,
            limit: init.data_limit,
            total: init.data_limit.map(|b| b.div_ceil(mss)),
            next_seq: 0,
            last_ack: 0,
            losses: SendLossList::default(),
            stats: DgStats::default(),
            next_send: Time::ZERO,
            started: None,
        }
    }

    /// Records the first call at `now`; true the first time (the sender's clocks start then).
    pub fn start(&mut self, now: Time) -> bool {
        if self.started.is_some() {
            return false;
        }
        self.started = Some(now);
        self.next_send = now;
        true
    }

    /// The first transmission attempt has happened.
    pub fn started(&self) -> bool {
        self.started.is_some()
    }

    pub fn mss(&self) -> Bytes {
        self.mss
    }

    /// The next new sequence number.
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// Every packet below this one has been acknowledged.
    pub fn last_ack(&self) -> u64 {
        self.last_ack
    }

    /// The largest number sent so far, −1 before the first (UDT's `SndCurrSeqNo`).
    pub fn curr_seq(&self) -> i64 {
        self.next_seq as i64 - 1
    }

    pub fn outstanding(&self) -> u64 {
        self.next_seq - self.last_ack
    }

    pub fn has_new_data(&self) -> bool {
        !matches!(self.total, Some(t) if self.next_seq >= t)
    }

    /// A new packet fits in `window` when `outstanding + 1 ≤ window`.
    fn may_send_new(&self, window: u64) -> bool {
        self.has_new_data() && self.outstanding() < window
    }

    /// Something could go out if time allowed: a retransmission, or new data in the window.
    pub fn has_sendable(&self, window: u64) -> bool {
        !self.losses.is_empty() || self.may_send_new(window)
    }

    pub fn is_complete(&self) -> bool {
        self.total.is_some_and(|t| self.last_ack >= t)
    }

    /// No packet after those already sent (every one of them full-sized, since a transfer's
    /// short last packet is its last): see `DatagramSender::end_stream`.
    pub fn end_stream(&mut self) {
        if self.total.is_none_or(|t| t > self.next_seq) {
            self.total = Some(self.next_seq);
            self.limit = Some(self.next_seq * self.mss);
        }
    }

    /// The pacer allows a packet at `now`.
    pub fn ready(&self, now: Time) -> bool {
        self.started.is_some() && now >= self.next_send
    }

    /// When the next packet may go, if one is waiting only for the pacer.
    pub fn next_send_time(&self, now: Time, window: u64) -> Option<Time> {
        self.has_sendable(window).then(|| self.next_send.max(now))
    }

    /// Takes the next packet: the lowest number on the loss list, else a new one if the
    /// window allows it. Updates the counters; the caller paces with [`pace`](Self::pace).
    pub fn take_next(&mut self, window: u64) -> Option<DgTransmit> {
        let (seq, retx) = if let Some(s) = self.losses.pop_first() {
            (s, true)
        } else if self.may_send_new(window) {
            self.next_seq += 1;
            (self.next_seq - 1, false)
        } else {
            return None;
        };
        let len = self.len_of(seq);
        self.stats.packets_sent += 1;
        self.stats.bytes_sent += len;
        self.stats.retransmits += retx as u64;
        Some(DgTransmit { seq, len, is_retransmission: retx, ecn_capable: false, sender_rtt: None })
    }

    /// The next packet may go `gap` after `now`.
    pub fn pace(&mut self, now: Time, gap: Time) {
        self.next_send = now + gap;
    }

    /// The next packet may go at once (UDT reschedules the sender on a NAK and after EXP).
    pub fn send_now(&mut self, now: Time) {
        self.next_send = self.next_send.min(now);
    }

    /// A cumulative ACK: returns how many packets it newly acknowledges.
    pub fn on_ack(&mut self, next_expected: u64) -> u64 {
        let ack = next_expected.min(self.next_seq);
        if ack <= self.last_ack {
            return 0;
        }
        let newly = ack - self.last_ack;
        self.last_ack = ack;
        self.losses.remove_below(ack);
        self.stats.bytes_delivered = self.bytes_below(ack);
        newly
    }

    /// A reported loss goes on the loss list if it is outstanding; false otherwise.
    pub fn report_lost(&mut self, seq: u64) -> bool {
        (self.last_ack..self.next_seq).contains(&seq) && self.losses.insert(seq)
    }

    /// Every outstanding packet goes on the loss list (SABUL's and UDT's EXP).
    pub fn requeue_outstanding(&mut self) {
        self.losses.insert_range(self.last_ack..self.next_seq);
    }

    fn len_of(&self, seq: u64) -> Bytes {
        self.bytes_below(seq + 1) - seq * self.mss
    }

    fn bytes_below(&self, seq: u64) -> Bytes {
        let b = seq * self.mss;
        self.limit.map_or(b, |l| b.min(l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::component_rng;

    fn state(limit: Option<Bytes>) -> SendState {
        SendState::new(&DgInit { mss: 1000, data_limit: limit, rng: component_rng(1, 1) })
    }

    #[test]
    fn retransmissions_go_first_and_the_window_bounds_new_data() {
        let mut s = state(None);
        s.start(Time::ZERO);
        for _ in 0..3 {
            s.take_next(3).unwrap();
        }
        assert!(s.take_next(3).is_none(), "window of 3 full");
        assert!(s.report_lost(1));
        assert!(!s.report_lost(7), "never sent");
        let tx = s.take_next(3).unwrap();
        assert_eq!((tx.seq, tx.is_retransmission), (1, true));
        assert_eq!(s.on_ack(2), 2);
        assert_eq!(s.take_next(3).unwrap().seq, 3);
        assert_eq!(s.stats.retransmits, 1);
        assert_eq!(s.stats.bytes_delivered, 2000);
    }

    #[test]
    fn a_finite_transfer_ends_with_a_short_packet_and_completes() {
        let mut s = state(Some(2500));
        s.start(Time::ZERO);
        let lens: Vec<Bytes> = std::iter::from_fn(|| s.take_next(10)).map(|t| t.len).collect();
        assert_eq!(lens, vec![1000, 1000, 500]);
        assert!(!s.is_complete());
        s.on_ack(3);
        assert!(s.is_complete());
        assert_eq!(s.stats.bytes_delivered, 2500);
    }
}

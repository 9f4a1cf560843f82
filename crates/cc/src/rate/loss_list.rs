//! Loss lists, as SABUL and UDT keep them on both sides (spec §1.2, §2.3–2.4).
//!
//! - The **sender loss list** holds the sequence numbers reported lost (by an ERR/NAK, or all
//!   unacknowledged ones after an EXP timeout) that wait for retransmission. The lowest number
//!   goes first, and retransmissions take priority over new data (SABUL [SP §3.3]; UDT
//!   `CUDT::packData`).
//! - The **receiver loss list** holds the gaps the receiver has seen, each with the time it
//!   was last reported, so that periodic re-reports (SABUL's ERR timer; UDT ≤ 4.8's NAK timer)
//!   can skip numbers reported less than a hold-off ago. Its first entry is the ACK point.

use crate::datagram::{CtrlMsg, ReReports};
use crate::units::Time;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

/// The sender's loss list: numbers waiting for retransmission, lowest first, no duplicates.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SendLossList {
    seqs: BTreeSet<u64>,
}

impl SendLossList {
    /// Adds `seq`; false if it was already listed.
    pub fn insert(&mut self, seq: u64) -> bool {
        self.seqs.insert(seq)
    }

    pub fn insert_range(&mut self, r: Range<u64>) {
        self.seqs.extend(r);
    }

    /// Takes the lowest listed number.
    pub fn pop_first(&mut self) -> Option<u64> {
        self.seqs.pop_first()
    }

    /// Drops every number below the cumulative ACK point.
    pub fn remove_below(&mut self, ack: u64) {
        if self.seqs.first().is_some_and(|&s| s < ack) {
            self.seqs = self.seqs.split_off(&ack);
        }
    }

    pub fn contains(&self, seq: u64) -> bool {
        self.seqs.contains(&seq)
    }

    pub fn len(&self) -> usize {
        self.seqs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seqs.is_empty()
    }
}

/// The receiver's loss list: missing numbers and when each was last reported.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecvLossList {
    last_report: BTreeMap<u64, Time>,
    /// The re-reports [`RecvLossList::take_due`] has handed out.
    pub rereports: ReReports,
}

impl RecvLossList {
    /// Records a gap that is being reported at `now`.
    pub fn add_gap(&mut self, gap: Range<u64>, now: Time) {
        self.last_report.extend(gap.map(|s| (s, now)));
    }

    /// A missing packet arrived; false if it was not listed.
    pub fn remove(&mut self, seq: u64) -> bool {
        self.last_report.remove(&seq).is_some()
    }

    pub fn contains(&self, seq: u64) -> bool {
        self.last_report.contains_key(&seq)
    }

    /// The lowest missing number (the cumulative ACK point while there are losses).
    pub fn first(&self) -> Option<u64> {
        self.last_report.keys().next().copied()
    }

    pub fn len(&self) -> usize {
        self.last_report.len()
    }

    pub fn is_empty(&self) -> bool {
        self.last_report.is_empty()
    }

    /// The numbers last reported more than `holdoff` ago, re-stamped `now` (SABUL's periodic
    /// ERR: "re-sends each listed number last reported more than RTT_est ago").
    pub fn take_due(&mut self, now: Time, holdoff: Time) -> Vec<u64> {
        let mut due = Vec::new();
        for (&seq, stamp) in self.last_report.iter_mut() {
            if now - *stamp > holdoff {
                self.rereports.count += 1;
                self.rereports.gap_sum += now - *stamp;
                *stamp = now;
                due.push(seq);
            }
        }
        due
    }
}

/// Pushes loss reports listing `seqs`, at most `max_entries` numbers each (SABUL's ERR holds
/// PktSize/4 − 2 = 366 numbers; UDT's NAK compresses ranges, so one suffices).
pub fn push_loss_reports(out: &mut Vec<CtrlMsg>, seqs: &[u64], max_entries: usize) {
    for chunk in seqs.chunks(max_entries.max(1)) {
        out.push(CtrlMsg::Nak { lost: chunk.to_vec() });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sender_list_pops_lowest_and_forgets_acknowledged_numbers() {
        let mut l = SendLossList::default();
        l.insert_range(5..8);
        assert!(!l.insert(6));
        l.insert(2);
        l.remove_below(5);
        assert_eq!(l.pop_first(), Some(5));
        assert_eq!(l.len(), 2);
    }

    #[test]
    fn receiver_list_re_reports_only_entries_older_than_the_holdoff() {
        let mut l = RecvLossList::default();
        l.add_gap(10..12, Time::from_millis(0));
        l.add_gap(20..21, Time::from_millis(30));
        assert_eq!(l.take_due(Time::from_millis(40), Time::from_millis(20)), vec![10, 11]);
        assert_eq!(l.take_due(Time::from_millis(50), Time::from_millis(20)), Vec::<u64>::new());
        assert!(l.remove(10));
        assert_eq!(l.first(), Some(11));
        assert_eq!(l.take_due(Time::from_millis(61), Time::from_millis(20)), vec![11, 20]);
        // Four re-reports, one per number re-sent: 10 and 11 at 40 ms (first reported at 0),
        // 11 at 61 ms (last at 40) and 20 at 61 ms (at 30): gaps 40 + 40 + 21 + 31 = 132 ms.
        assert_eq!(l.rereports, ReReports { count: 4, gap_sum: Time::from_millis(132) });
        assert_eq!(l.rereports.mean_interval(), Some(Time::from_millis(33)));
        let mut out = Vec::new();
        push_loss_reports(&mut out, &[1, 2, 3, 4, 5], 2);
        assert_eq!(out.len(), 3);
        assert_eq!(out[2], CtrlMsg::Nak { lost: vec![5] });
    }
}

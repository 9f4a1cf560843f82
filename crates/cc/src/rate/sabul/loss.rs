//! SABUL's per-interval bookkeeping: the packets sent and the losses reported in one
//! rate-control interval, the loss rate the law sees, and the "sending rate" SABUL logs.
//!
//! **Paper formulation** (\[RC\] eq. 11: ρ = LOSS/SENT). SENT counts the packets sent in the
//! interval (new and retransmitted). LOSS counts the packets newly reported lost: each number
//! once, at its first report. A re-report says nothing new: it was sent because the receiver
//! had not seen the number for `RTT_est`, and the sender, which keeps no RTT, cannot tell a
//! lost retransmission from a re-report that crossed the retransmission on its way (counting
//! those made ρ ≈ 0.5 for seconds after a burst of losses, in a 100 Mb/s loopback run).
//!
//! ```text
//! ρ = min(1, LOSS / SENT)   (0 if nothing was lost, 1 if losses arrive while nothing was sent)
//! rate = SENT · MSS / interval
//! ```
//!
//! **The 2003 code** (spec §1.2, \[S-code\] SC_ERR and SC_SYN, as \[OVV04\] §3 describes it). Each
//! flaw has its own switch:
//!
//! - `count_rereported_errs`: every ERR adds its length n to `LocalERR`, whether or not the
//!   numbers were reported before ("it does not check whether the associated packet has
//!   already been retransmitted … it can double the apparent error rate");
//! - `loss_one_when_errs_exceed_sent`: `SentInInterval ← max(SentInInterval, LocalERR)`, so the
//!   loss rate `LocalERR/SentInInterval` becomes 1 whenever ERRs outnumber packets sent, and the
//!   logged rate counts ERRs as packets sent.
//!
//! ```text
//! SENT' = max(SENT, LocalERR);  loss = LocalERR / SENT';  rate = SENT'·MSS / interval
//! ```
//!
//! The third flaw, measuring the interval between SYN *arrivals*, is the sender's choice of
//! clock (see `sabul.rs`); this meter takes the interval it is given.

use crate::units::{Bytes, Rate, Time};
use std::collections::BTreeSet;

/// What one rate-control interval measured.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SabulInterval {
    /// When the interval closed.
    pub end: Time,
    pub duration: Time,
    /// Packets really sent (new and retransmitted).
    pub sent: u64,
    /// Packets sent as counted (the 2003 code raises it to the ERR count).
    pub counted_sent: u64,
    /// Losses as counted.
    pub losses: u64,
    /// The loss rate handed to the law.
    pub loss_rate: f64,
    /// The logged sending rate: `counted_sent · MSS / duration`.
    pub measured_rate: Rate,
    /// The IPT after the interval's rate change (µs).
    pub ipt_us: f64,
}

/// Counts one interval's packets and losses.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LossMeter {
    count_rereports: bool,
    loss_one_when_errs_exceed_sent: bool,
    sent: u64,
    losses: u64,
    /// Numbers counted and not yet acknowledged (paper formulation only).
    counted: BTreeSet<u64>,
}

impl LossMeter {
    pub fn new(count_rereports: bool, loss_one_when_errs_exceed_sent: bool) -> LossMeter {
        LossMeter { count_rereports, loss_one_when_errs_exceed_sent, ..LossMeter::default() }
    }

    pub fn on_sent(&mut self) {
        self.sent += 1;
    }

    /// An ERR listing `lost`; numbers below `last_ack` are stale and ignored. Returns how many
    /// losses it counted.
    pub fn on_err(&mut self, lost: &[u64], last_ack: u64) -> u64 {
        let counted = if self.count_rereports {
            lost.len() as u64
        } else {
            lost.iter().filter(|&&s| s >= last_ack && self.counted.insert(s)).count() as u64
        };
        self.losses += counted;
        counted
    }

    /// Forgets numbers below the cumulative ACK.
    pub fn on_ack(&mut self, ack: u64) {
        if self.counted.first().is_some_and(|&s| s < ack) {
            self.counted = self.counted.split_off(&ack);
        }
    }

    /// Closes the interval: its counts, loss rate and logged rate. `ipt_us` is filled in by
    /// the sender after the rate change.
    pub fn close(&mut self, end: Time, duration: Time, mss: Bytes) -> SabulInterval {
        let (sent, losses) = (self.sent, self.losses);
        self.sent = 0;
        self.losses = 0;
        let counted_sent = if self.loss_one_when_errs_exceed_sent { sent.max(losses) } else { sent };
        let loss_rate = match (counted_sent, losses) {
            (_, 0) => 0.0,
            (0, _) => 1.0,
            (s, l) => (l as f64 / s as f64).min(1.0),
        };
        SabulInterval {
            end,
            duration,
            sent,
            counted_sent,
            losses,
            loss_rate,
            measured_rate: Rate::from_delivery(counted_sent * mss, duration),
            ipt_us: 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Time = Time::from_millis(200);

    #[test]
    fn code_2003_counts_a_re_reported_err_twice() {
        let mut m = LossMeter::new(true, true);
        for _ in 0..100 {
            m.on_sent();
        }
        m.on_err(&[10, 11], 0);
        m.on_err(&[10, 11], 0); // the periodic re-report, before any retransmission
        let i = m.close(T, T, 1000);
        assert_eq!((i.sent, i.losses), (100, 4));
        assert_eq!(i.loss_rate, 0.04);
    }

    #[test]
    fn paper_formulation_counts_each_reported_number_once() {
        let mut m = LossMeter::new(false, false);
        for _ in 0..100 {
            m.on_sent();
        }
        assert_eq!(m.on_err(&[10, 11], 0), 2);
        assert_eq!(m.on_err(&[10, 11], 0), 0, "re-report");
        m.on_sent(); // the retransmission of 10
        assert_eq!(m.on_err(&[10, 11, 12], 0), 1, "only 12 is new");
        assert_eq!(m.on_err(&[5], 6), 0, "already acknowledged");
        let i = m.close(T, T, 1000);
        assert_eq!((i.sent, i.losses), (101, 3));
        assert!((i.loss_rate - 3.0 / 101.0).abs() < 1e-12);
        m.on_ack(11);
        assert_eq!(m.on_err(&[11], 11), 0, "still counted until acknowledged");
    }

    #[test]
    fn code_2003_sets_loss_to_one_and_logs_errs_as_packets_when_errs_exceed_sent() {
        let mut m = LossMeter::new(true, true);
        for _ in 0..5 {
            m.on_sent();
        }
        let lost: Vec<u64> = (100..120).collect();
        m.on_err(&lost, 0);
        m.on_err(&lost, 0);
        let i = m.close(T, Time::from_millis(100), 1500);
        assert_eq!((i.sent, i.counted_sent, i.losses), (5, 40, 40));
        assert_eq!(i.loss_rate, 1.0);
        // 40 "packets" of 1500 B in 100 ms: 600 kB/s although 5 packets went out.
        assert_eq!(i.measured_rate, Rate::from_bytes_per_sec(600_000.0));
        let next = m.close(T, T, 1500);
        assert_eq!((next.sent, next.losses, next.loss_rate), (0, 0, 0.0), "counters reset");
    }

    #[test]
    fn paper_formulation_logs_the_packets_really_sent() {
        let mut m = LossMeter::new(false, false);
        for _ in 0..5 {
            m.on_sent();
        }
        m.on_err(&[0, 1, 2, 3, 4], 0);
        let i = m.close(T, Time::from_millis(100), 1500);
        assert_eq!((i.counted_sent, i.loss_rate), (5, 1.0));
        assert_eq!(i.measured_rate, Rate::from_bytes_per_sec(75_000.0));
    }
}

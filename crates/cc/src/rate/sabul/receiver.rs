//! The SABUL receiver (spec §1.2; \[S-code\] `recver.cpp`; \[SP\] §3.3–3.4; \[TR2002\] §5.3).
//!
//! 1. **Immediate ERR**: a packet beyond the next expected one puts every skipped number on
//!    the loss list, stamped now, and one ERR lists them at once.
//! 2. **Periodic ERR**: every ERR tick (20 ms), the numbers last reported more than `RTT_est`
//!    ago are reported again and re-stamped; nothing is sent if none qualifies. Re-reports
//!    therefore come every `max(ERR tick, RTT_est)`, quantised to the tick.
//! 3. **RTT_est** is measured once, at the start (here from the first packet's one-way delay,
//!    see `recv_state.rs`), then inflated: `RTT_est = 1.5·RTT` if `RTT > 20 ms`, else 20 ms.
//!    It is never updated; hence \[OVV04\]'s "periodically every 1.5·RTT".
//! 4. **ACK** every ACK interval (100 ms) if it advances: the first loss, or largest + 1.
//! 5. **SYN** every SYN interval T, carrying the packets received since the previous SYN.
//! 6. A retransmission that arrives takes its number off the loss list.
//!
//! An ERR lists at most 366 numbers (PktSize/4 − 2); longer lists go in several ERRs.

use crate::rate::loss_list::push_loss_reports;
use crate::rate::recv_state::{Arrival, OwdRtt, RecvState};
use crate::rate::timer::{earliest, Periodic};
use crate::datagram::{CtrlMsg, DatagramReceiver, DgArrival, ReReports};
use crate::units::Time;

/// The receiver's constants, taken from the [`SabulConfig`](crate::rate::sabul::SabulConfig).
#[derive(Clone, Debug, PartialEq)]
pub struct SabulReceiverParams {
    pub syn: Time,
    pub ack: Time,
    pub err: Time,
    pub rtt_floor: Time,
    pub rtt_factor: f64,
    pub max_err_entries: usize,
}

impl SabulReceiverParams {
    /// `RTT_est`, the hold-off between reports of one loss, from the RTT measured once at the
    /// start: `factor·RTT` above the floor, else the floor (spec §1.2: 1.5·RTT, or 20 ms).
    pub fn rtt_est(&self, measured: Time) -> Time {
        if measured > self.rtt_floor {
            measured.mul_f64(self.rtt_factor)
        } else {
            self.rtt_floor
        }
    }
}

#[derive(Clone, Debug)]
pub struct SabulReceiver {
    p: SabulReceiverParams,
    recv: RecvState,
    owd: OwdRtt,
    rtt_est: Option<Time>,
    ack_timer: Periodic,
    err_timer: Periodic,
    syn_timer: Periodic,
    arrivals_since_syn: u64,
    last_ack_sent: u64,
}

impl SabulReceiver {
    pub fn new(p: SabulReceiverParams, total_packets: Option<u64>) -> SabulReceiver {
        SabulReceiver {
            ack_timer: Periodic::new(p.ack),
            err_timer: Periodic::new(p.err),
            syn_timer: Periodic::new(p.syn),
            p,
            recv: RecvState::new(total_packets),
            owd: OwdRtt::default(),
            rtt_est: None,
            arrivals_since_syn: 0,
            last_ack_sent: 0,
        }
    }

    /// `RTT_est`, the hold-off between reports of one loss (once the first packet arrived).
    pub fn rtt_est(&self) -> Option<Time> {
        self.rtt_est
    }

    /// All data has arrived and been acknowledged: the timers stop.
    fn finished(&self) -> bool {
        self.recv.is_complete() && self.last_ack_sent >= self.recv.ack_number()
    }
}

impl DatagramReceiver for SabulReceiver {
    fn on_data(&mut self, now: Time, pkt: &DgArrival, out: &mut Vec<CtrlMsg>) {
        for t in [&mut self.ack_timer, &mut self.err_timer, &mut self.syn_timer] {
            t.start(now);
        }
        self.owd.on_arrival(now, pkt.sent);
        if self.rtt_est.is_none() {
            let measured = self.owd.sample().unwrap_or(Time::ZERO);
            self.rtt_est = Some(self.p.rtt_est(measured));
        }
        self.arrivals_since_syn += 1;
        if let Arrival::Gap(gap) = self.recv.on_data(now, pkt.seq) {
            let lost: Vec<u64> = gap.collect();
            push_loss_reports(out, &lost, self.p.max_err_entries);
        }
    }

    fn next_timer(&self) -> Option<Time> {
        if self.finished() {
            return None;
        }
        earliest([self.ack_timer.deadline(), self.err_timer.deadline(), self.syn_timer.deadline()])
    }

    fn on_timer(&mut self, now: Time, out: &mut Vec<CtrlMsg>) {
        if self.ack_timer.fire(now) {
            let ack = self.recv.ack_number();
            if ack > self.last_ack_sent {
                self.last_ack_sent = ack;
                out.push(CtrlMsg::Ack { next_expected: ack, rtt: None, arrival_rate: None, capacity: None });
            }
        }
        if self.err_timer.fire(now) {
            let due = self.recv.losses.take_due(now, self.rtt_est.unwrap_or(self.p.rtt_floor));
            push_loss_reports(out, &due, self.p.max_err_entries);
        }
        if self.syn_timer.fire(now) {
            out.push(CtrlMsg::Syn { received: std::mem::take(&mut self.arrivals_since_syn) });
        }
    }

    fn packets_received(&self) -> u64 {
        self.recv.packets_received()
    }

    fn rereports(&self) -> ReReports {
        self.recv.losses.rereports
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn receiver() -> SabulReceiver {
        let p = SabulReceiverParams {
            syn: Time::from_millis(200),
            ack: Time::from_millis(100),
            err: Time::from_millis(20),
            rtt_floor: Time::from_millis(20),
            rtt_factor: 1.5,
            max_err_entries: 366,
        };
        SabulReceiver::new(p, None)
    }

    fn pkt(seq: u64, sent_ms: u64) -> DgArrival {
        DgArrival { seq, len: 1000, sent: Time::from_millis(sent_ms), ce: false, sender_rtt: None }
    }

    #[test]
    fn gap_reported_at_once_then_every_rtt_est_on_the_err_tick() {
        let mut r = receiver();
        let mut out = Vec::new();
        // One-way 40 ms: RTT 80 ms > 20 ms, so RTT_est = 120 ms.
        r.on_data(Time::from_millis(40), &pkt(0, 0), &mut out);
        assert_eq!(r.rtt_est(), Some(Time::from_millis(120)));
        r.on_data(Time::from_millis(41), &pkt(3, 1), &mut out);
        assert_eq!(out, vec![CtrlMsg::Nak { lost: vec![1, 2] }]);
        out.clear();
        let mut reports = Vec::new();
        let mut now = Time::from_millis(40);
        while now < Time::from_millis(440) {
            now = r.next_timer().unwrap();
            r.on_timer(now, &mut out);
            for m in out.drain(..) {
                if let CtrlMsg::Nak { .. } = m {
                    reports.push(now.as_millis_f64() as u64);
                }
            }
        }
        // Ticks every 20 ms from 40 ms; re-reports on the first tick more than 120 ms after
        // the previous report at 41 ms: 180 (139 ms later), 320, then 460.
        assert_eq!(reports, vec![180, 320]);
    }

    #[test]
    fn short_paths_use_the_20ms_floor_and_acks_advance_only() {
        let mut r = receiver();
        let mut out = Vec::new();
        r.on_data(Time::from_millis(1), &pkt(0, 0), &mut out);
        assert_eq!(r.rtt_est(), Some(Time::from_millis(20)));
        r.on_timer(Time::from_millis(101), &mut out);
        assert_eq!(out, vec![CtrlMsg::Ack { next_expected: 1, rtt: None, arrival_rate: None, capacity: None }]);
        out.clear();
        r.on_timer(Time::from_millis(201), &mut out);
        assert_eq!(out, vec![CtrlMsg::Syn { received: 1 }], "no new ACK, one SYN");
    }
}

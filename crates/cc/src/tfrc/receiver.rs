//! The TFRC receiver (RFC 5348 §6): it measures the receive rate and the loss event rate and
//! reports them to the sender once per round-trip time.
//!
//! - `X_recv` is the payload received over the last `T = max(R_m, now − t_last_feedback)`:
//!   `X_recv = bytes(now − T, now] / T`, with `R_m` the sender's RTT from the most recent
//!   packet header. A report on time covers the last `R_m`, as RFC 5348 §6.2 has it; a report
//!   the receiver sends late (its host was busy, or the sender paused for longer than `R_m`)
//!   covers everything since the last one, as Linux's CCID 3 receiver always measures
//!   (`net/dccp/ccids/ccid3.c`, `ccid3_hc_rx_send_feedback`; RFC 4342 §8.3's Receive Rate "since
//!   the last acknowledgement"). Over the last `R_m` alone, such a report could say `X_recv = 0`
//!   although data arrived since the last one, and a sender whose `X_recv_set` holds only that
//!   zero falls to `s/t_mbi`, one packet in 64 s, from which it never recovers.
//! - `p` comes from the loss history (§5, `loss_history`).
//! - Feedback (§6.2) goes out once per `R_m` while data arrives: at the first packet, then when
//!   the feedback timer `t_last_feedback + R_m` expires if data arrived since the last report,
//!   and at once when a packet completes a new loss event (§6.1 step 3: the only way `p` rises).
//!   Before the sender has an RTT to send, every packet is reported. The report echoes the
//!   send timestamp of the last data packet and the time it was held, so that the sender can
//!   take `R_sample = (t_now − t_recvdata) − t_delay` (§4.3).
//! - The first loss event's closed interval (§6.3.1) is `1/p` for the `p` at which the equation
//!   gives the receive rate of the last RTT, `X(p, R_m) = X_recv`; if nothing was received in
//!   that RTT, or no RTT is known yet, `X_target = s/(2R)`, i.e. `g(p) = 2` (p ≈ 0.206).
//!
//! TFRC is unreliable: the receiver reports, it never acknowledges packets. It counts distinct
//! packets for goodput.

use super::config::TfrcConfig;
use super::equation::Equation;
use super::loss_history::LossHistory;
use crate::seen::SeenSet;
use crate::datagram::{CtrlMsg, DatagramReceiver, DgArrival};
use crate::units::{Bytes, Rate, Time};
use std::collections::VecDeque;

#[derive(Clone, Debug)]
pub struct TfrcReceiver {
    s: Bytes,
    eq: Equation,
    seen: SeenSet,
    history: LossHistory,
    /// The sender's RTT from the latest header.
    r_m: Option<Time>,
    /// Send time and arrival time of the most recent data packet.
    last_data: Option<(Time, Time)>,
    /// Arrivals within the last `R_m` and their payload total.
    window: VecDeque<(Time, Bytes)>,
    window_bytes: Bytes,
    data_since_feedback: bool,
    last_feedback: Option<Time>,
    next_feedback: Option<Time>,
    reports: u64,
}

/// The synthetic first loss interval `1/p` with `X(p, R) = X_target` (RFC 5348 §6.3.1).
fn first_interval(eq: &Equation, s: Bytes, rtt: Option<Time>, x_recv: Rate) -> f64 {
    let p = match rtt {
        Some(r) if x_recv.bytes_per_sec() > 0.0 => eq.loss_rate_for(s, r, x_recv),
        _ => eq.loss_rate_for_g(2.0),
    };
    1.0 / p
}

impl TfrcReceiver {
    pub fn new(cfg: &TfrcConfig, s: Bytes) -> TfrcReceiver {
        TfrcReceiver {
            s,
            eq: cfg.equation(),
            seen: SeenSet::default(),
            history: LossHistory::new(cfg.ndupack, cfg.loss_interval_weights.clone()),
            r_m: None,
            last_data: None,
            window: VecDeque::new(),
            window_bytes: 0,
            data_since_feedback: false,
            last_feedback: None,
            next_feedback: None,
            reports: 0,
        }
    }

    /// `X_recv` over the last `T = max(R_m, now − t_last_feedback)` (zero before an RTT is known).
    /// Arrivals older than `T` are dropped: a later `T'` reaches back at most to
    /// `min(now' − R_m, t_last_feedback)`, which is no earlier than `now − T`.
    fn receive_rate(&mut self, now: Time) -> Rate {
        let Some(r_m) = self.r_m else { return Rate::ZERO };
        let t = self.last_feedback.map_or(r_m, |last| r_m.max(now.saturating_sub(last)));
        while let Some(&(at, len)) = self.window.front() {
            if at + t > now {
                break;
            }
            self.window.pop_front();
            self.window_bytes -= len;
        }
        Rate::from_delivery(self.window_bytes, t)
    }

    fn send_report(&mut self, now: Time, out: &mut Vec<CtrlMsg>) {
        let Some((sent, arrived)) = self.last_data else { return };
        let x_recv = self.receive_rate(now);
        out.push(CtrlMsg::TfrcReport { echo: sent, delay: now - arrived, x_recv, p: self.history.loss_event_rate() });
        self.reports += 1;
        self.last_feedback = Some(now);
        self.data_since_feedback = false;
        self.next_feedback = self.r_m.map(|r| now + r);
        if self.r_m.is_none() {
            // No RTT to measure over: start afresh at each report.
            self.window.clear();
            self.window_bytes = 0;
        }
    }

    pub fn loss_history(&self) -> &LossHistory {
        &self.history
    }

    /// The current loss event rate `p`.
    pub fn loss_event_rate(&self) -> f64 {
        self.history.loss_event_rate()
    }

    pub fn reports_sent(&self) -> u64 {
        self.reports
    }
}

impl DatagramReceiver for TfrcReceiver {
    fn on_data(&mut self, now: Time, pkt: &DgArrival, out: &mut Vec<CtrlMsg>) {
        if !self.seen.insert(pkt.seq) {
            return;
        }
        if pkt.sender_rtt.is_some() {
            self.r_m = pkt.sender_rtt;
        }
        self.last_data = Some((pkt.sent, now));
        self.window.push_back((now, pkt.len));
        self.window_bytes += pkt.len;
        self.data_since_feedback = true;
        let x_recv = self.receive_rate(now);
        let (eq, s, r_m) = (self.eq, self.s, self.r_m);
        let new_event = self.history.on_packet(pkt.seq, now, pkt.ce, r_m, &mut || first_interval(&eq, s, r_m, x_recv));
        let due = match (self.last_feedback, r_m) {
            (Some(t), Some(r)) => t + r,
            _ => now,
        };
        if new_event || now >= due {
            self.send_report(now, out);
        } else {
            self.next_feedback = Some(due);
        }
    }

    fn next_timer(&self) -> Option<Time> {
        self.next_feedback
    }

    fn on_timer(&mut self, now: Time, out: &mut Vec<CtrlMsg>) {
        if self.next_feedback.is_some_and(|t| now >= t) {
            if self.data_since_feedback {
                self.send_report(now, out);
            } else {
                // Nothing arrived for an RTT: the next packet is reported at once.
                self.next_feedback = None;
            }
        }
    }

    fn packets_received(&self) -> u64 {
        self.seen.distinct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrival(seq: u64, sent_ms: u64, rtt_ms: Option<u64>) -> DgArrival {
        DgArrival {
            seq,
            len: 1000,
            sent: Time::from_millis(sent_ms),
            ce: false,
            sender_rtt: rtt_ms.map(Time::from_millis),
        }
    }

    /// One packet every 10 ms, R = 100 ms, 50 ms one-way: one report per 100 ms, echoing the
    /// latest packet; X_recv = 10 packets of 1000 B per 100 ms = 100 kB/s.
    #[test]
    fn reports_once_per_rtt_with_the_receive_rate_of_the_last_rtt() {
        let mut rx = TfrcReceiver::new(&TfrcConfig::default(), 1000);
        let mut reports = vec![];
        for seq in 0..100u64 {
            let now = Time::from_millis(50 + 10 * seq);
            let mut out = vec![];
            rx.on_data(now, &arrival(seq, 10 * seq, (seq > 0).then_some(100)), &mut out);
            reports.extend(out.into_iter().map(|m| (now, m)));
        }
        // The first packet (no RTT yet) is reported at once, then one report every 100 ms,
        // sent by the packet that finds the timer due: at 50, 150, ..., 950 ms.
        let times: Vec<u64> = reports.iter().map(|(t, _)| t.as_nanos() / 1_000_000).collect();
        assert_eq!(times, (0..10).map(|k| 50 + 100 * k).collect::<Vec<_>>());
        let CtrlMsg::TfrcReport { echo, delay, x_recv, p } = reports.last().unwrap().1 else { panic!() };
        assert_eq!((echo, delay, p), (Time::from_millis(900), Time::ZERO, 0.0));
        assert!((x_recv.bytes_per_sec() - 100_000.0).abs() < 1.0, "{x_recv:?}");
        // Data stops after 1040 ms: the timer reports once more (the last packet, held 10 ms;
        // 9 packets in (950, 1050]), then stays quiet.
        assert_eq!(rx.next_timer(), Some(Time::from_millis(1050)));
        let mut out = vec![];
        rx.on_timer(Time::from_millis(1050), &mut out);
        let [CtrlMsg::TfrcReport { echo, delay, x_recv, .. }] = out[..] else { panic!("{out:?}") };
        assert_eq!((echo, delay), (Time::from_millis(990), Time::from_millis(10)));
        assert!((x_recv.bytes_per_sec() - 90_000.0).abs() < 1.0, "{x_recv:?}");
        out.clear();
        rx.on_timer(Time::from_millis(1150), &mut out);
        assert!(out.is_empty());
        assert_eq!(rx.next_timer(), None);
    }

    /// A loss event is reported at once; the first one's synthetic interval makes the equation
    /// give the receive rate: X(p, R) = X_recv.
    #[test]
    fn a_new_loss_event_is_reported_at_once_with_p_from_the_receive_rate() {
        let cfg = TfrcConfig::default();
        let mut rx = TfrcReceiver::new(&cfg, 1000);
        let mut out = vec![];
        for seq in (0..40u64).filter(|&s| s != 30) {
            out.clear();
            let now = Time::from_millis(50 + 10 * seq);
            rx.on_data(now, &arrival(seq, 10 * seq, Some(100)), &mut out);
            if seq == 33 {
                // 31, 32, 33 above the hole at 30: a loss event, reported by this packet.
                assert_eq!(out.len(), 1, "{out:?}");
                let CtrlMsg::TfrcReport { p, x_recv, .. } = out[0] else { panic!() };
                assert!(p > 0.0);
                // Only I_1 (synthetic) and I_0 = 4: I_mean = I_1 = 1/p_target.
                let x_eq = cfg.equation().rate(1000, Time::from_millis(100), p);
                // X_recv at detection: 9 packets in (280, 380] ms, 30 missing: 90 kB/s.
                assert!((x_recv.bytes_per_sec() - 90_000.0).abs() < 1.0);
                assert!((x_eq.bytes_per_sec() / 90_000.0 - 1.0).abs() < 1e-6, "{x_eq:?}");
            }
        }
        assert_eq!(rx.packets_received(), 39);
        assert_eq!(rx.loss_history().loss_events(), 1);
    }

    /// A report sent late covers the time since the last report: packets of 1000 B arrive
    /// 0.1 ms apart (R_m = 0.3 ms) from 1 ms to 2 ms, then nothing, and the timer is served
    /// only at 5 ms (a busy host). The last R_m holds no arrival, so RFC 5348's
    /// `bytes(now − R_m, now]/R_m` would be 0; since the last report (at 1.9 ms), it is the
    /// packet of 2.0 ms over 3.1 ms.
    #[test]
    fn a_late_report_measures_the_receive_rate_since_the_last_report() {
        let us = Time::from_micros;
        let mut rx = TfrcReceiver::new(&TfrcConfig::default(), 1000);
        let pkt = |seq: u64| DgArrival { seq, len: 1000, sent: us(100 * seq), ce: false, sender_rtt: Some(us(300)) };
        let mut reported = vec![];
        for seq in 0..=10 {
            let mut out = vec![];
            rx.on_data(us(1000 + 100 * seq), &pkt(seq), &mut out);
            reported.extend(out.iter().map(|_| 1000 + 100 * seq));
        }
        // Once per R_m, by the packet that finds the timer due.
        assert_eq!(reported, [1000, 1300, 1600, 1900]);
        let mut out = vec![];
        rx.on_timer(us(5000), &mut out);
        let [CtrlMsg::TfrcReport { x_recv, .. }] = out[..] else { panic!("{out:?}") };
        let expected = 1000.0 / 3.1e-3;
        assert!((x_recv.bytes_per_sec() / expected - 1.0).abs() < 1e-9, "{x_recv:?} against {expected}");
    }
}

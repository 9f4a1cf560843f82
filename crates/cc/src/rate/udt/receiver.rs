//! The UDT receiver (\[U4\] `core.cpp` `processData`, `sendCtrl`, `checkTimers`; `window.cpp`
//! `CPktTimeWindow`; spec §2.3; \[D03\] §6.2).
//!
//! - **NAK** at once on a gap, listing the skipped numbers. Periodic NAKs are off (from 4.9):
//!   a lost retransmission is recovered by the sender's EXP.
//! - **Arrival speed AS**: the last 16 inter-arrival times of all data packets (initially 1 s
//!   each) through the median filter of [`MedianWindow::arrival_speed`].
//! - **Capacity B** by packet pairs: packet 16n goes out back to back with 16n+1; the gap
//!   between their arrivals enters a 64-sample window (initially 1000 µs; \[D03\] says 16), and
//!   `B = ⌈10⁶ / mean(M ∪ band)⌉` ([`MedianWindow::pair_capacity`]).
//! - **Full ACK** every SYN (10 ms), checked after each packet as 4.11's receive queue does
//!   ([`Polled`]), so more than a SYN apart by the wait for the next packet: the ACK number
//!   (first loss, or largest + 1), the RTT, and AS and B if more than a SYN has passed since
//!   they were last sent. It is not sent if ACK2 has confirmed that number, nor if it repeats
//!   the previous ACK within RTT + 4·RTTVar.
//! - **Light ACK**: the ACK number alone, whenever the packets since the last full ACK reach
//!   64·k; the sender moves its window but does not run congestion control.
//! - **RTT**: UDT times ACK→ACK2 round trips; the datagram interface has no ACK2, so a sample
//!   is the one-way-delay estimate of `recv_state.rs` taken at each full ACK, smoothed as UDT
//!   does: `RTTVar ← (3·RTTVar + |s − RTT|)/4`, `RTT ← (7·RTT + s)/8` (integer µs). ACK2 is
//!   modelled as arriving one RTT after its ACK (the control path does not lose it).

use crate::rate::median::MedianWindow;
use crate::rate::recv_state::{Arrival, OwdRtt, RecvState};
use crate::rate::timer::Polled;
use crate::rate::udt::rtt::UdtRtt;
use crate::datagram::{CtrlMsg, DatagramReceiver, DgArrival};
use crate::units::Time;
use std::collections::VecDeque;

/// The receiver's constants, taken from the [`UdtConfig`](crate::rate::udt::UdtConfig).
#[derive(Clone, Debug, PartialEq)]
pub struct UdtReceiverParams {
    pub syn: Time,
    pub arrival_window: usize,
    pub probe_window: usize,
    /// Every this many packets a probe pair starts (0: no probing).
    pub probe_interval: u64,
    pub light_ack_interval: u64,
    pub initial_rtt_us: i64,
    pub initial_rttvar_us: i64,
}

#[derive(Clone, Debug)]
pub struct UdtReceiver {
    p: UdtReceiverParams,
    recv: RecvState,
    owd: OwdRtt,
    rtt: UdtRtt,
    ack_timer: Polled,
    arrivals: MedianWindow,
    probes: MedianWindow,
    last_arrival: Option<Time>,
    probe_first: Option<(u64, Time)>,
    /// The last full ACK number sent (`m_iRcvLastAck`) and when.
    last_ack: u64,
    last_ack_time: Time,
    /// The largest ACK number ACK2 has confirmed (`m_iRcvLastAckAck`).
    last_ack_ack: u64,
    /// ACK2s on their way: (ACK number, arrival time).
    ack2_in_flight: VecDeque<(u64, Time)>,
    last_rates_time: Option<Time>,
    pkt_count: u64,
    light_acks: u64,
}

fn micros(t: Time) -> i64 {
    (t.as_nanos() / 1000) as i64
}

impl UdtReceiver {
    pub fn new(p: UdtReceiverParams, total_packets: Option<u64>) -> UdtReceiver {
        UdtReceiver {
            recv: RecvState::new(total_packets),
            owd: OwdRtt::default(),
            rtt: UdtRtt::new(p.initial_rtt_us, p.initial_rttvar_us),
            ack_timer: Polled::new(p.syn),
            arrivals: MedianWindow::new(p.arrival_window, 1e6),
            probes: MedianWindow::new(p.probe_window, 1000.0),
            last_arrival: None,
            probe_first: None,
            last_ack: 0,
            last_ack_time: Time::ZERO,
            last_ack_ack: 0,
            ack2_in_flight: VecDeque::new(),
            last_rates_time: None,
            pkt_count: 0,
            light_acks: 1,
            p,
        }
    }

    /// AS, the arrival speed (pkt/s; 0 without a majority of agreeing samples).
    pub fn arrival_speed(&self) -> f64 {
        self.arrivals.arrival_speed()
    }

    /// B, the packet-pair capacity estimate (pkt/s).
    pub fn capacity(&self) -> f64 {
        self.probes.pair_capacity()
    }

    /// The receiver's smoothed RTT, µs.
    pub fn rtt_us(&self) -> i64 {
        self.rtt.rtt_us
    }

    fn receive_ack2s(&mut self, now: Time) {
        while let Some(&(ack, at)) = self.ack2_in_flight.front() {
            if at > now {
                break;
            }
            self.last_ack_ack = self.last_ack_ack.max(ack);
            self.ack2_in_flight.pop_front();
        }
    }

    fn record_arrival(&mut self, now: Time, seq: u64) {
        if let Some(prev) = self.last_arrival.replace(now) {
            self.arrivals.push(micros(now - prev) as f64);
        }
        let k = self.p.probe_interval;
        if k == 0 {
            return;
        }
        match seq % k {
            0 => self.probe_first = Some((seq, now)),
            1 => {
                if let Some((first, t)) = self.probe_first.take() {
                    if first + 1 == seq {
                        self.probes.push(micros(now - t) as f64);
                    }
                }
            }
            _ => {}
        }
    }

    fn full_ack(&mut self, now: Time, out: &mut Vec<CtrlMsg>) {
        self.receive_ack2s(now);
        let ack = self.recv.ack_number();
        let repeat_due =
            now - self.last_ack_time >= Time::from_micros(self.rtt.rto_us().max(0) as u64);
        if ack == self.last_ack_ack || ack < self.last_ack || (ack == self.last_ack && !repeat_due) {
            return;
        }
        if let Some(s) = self.owd.sample() {
            self.rtt.on_sample(micros(s));
        }
        // AS and B ride only on a full ACK sent more than a SYN after the last that carried them
        // (4.11 `sendCtrl`); the polled ACK timer makes that every full ACK that goes out.
        let with_rates = !matches!(self.last_rates_time, Some(t) if now - t <= self.p.syn);
        let (arrival_rate, capacity) = if with_rates {
            self.last_rates_time = Some(now);
            (Some(self.arrival_speed()), Some(self.capacity()))
        } else {
            (None, None)
        };
        out.push(CtrlMsg::Ack {
            next_expected: ack,
            rtt: Some(self.rtt.rtt()),
            arrival_rate,
            capacity,
        });
        self.last_ack = ack;
        self.last_ack_time = now;
        self.ack2_in_flight.push_back((ack, now + self.rtt.rtt()));
    }

    /// The ACK timer fired: a full ACK, and the light-ACK count restarts.
    fn timer_ack(&mut self, now: Time, out: &mut Vec<CtrlMsg>) {
        self.full_ack(now, out);
        self.pkt_count = 0;
        self.light_acks = 1;
    }

    fn finished(&self) -> bool {
        self.recv.is_complete() && self.last_ack >= self.recv.ack_number()
    }
}

impl DatagramReceiver for UdtReceiver {
    fn on_data(&mut self, now: Time, pkt: &DgArrival, out: &mut Vec<CtrlMsg>) {
        self.ack_timer.start(now);
        self.record_arrival(now, pkt.seq);
        self.owd.on_arrival(now, pkt.sent);
        if let Arrival::Gap(gap) = self.recv.on_data(now, pkt.seq) {
            out.push(CtrlMsg::Nak { lost: gap.collect() });
        }
        self.pkt_count += 1;
        // `checkTimers` after `processData`: a full ACK if the timer is due, else a light ACK
        // every 64 packets since the last full one.
        if self.ack_timer.check(now) {
            self.timer_ack(now, out);
        } else if self.pkt_count >= self.p.light_ack_interval * self.light_acks {
            self.light_acks += 1;
            self.receive_ack2s(now);
            let ack = self.recv.ack_number();
            if ack != self.last_ack_ack {
                out.push(CtrlMsg::Ack { next_expected: ack, rtt: None, arrival_rate: None, capacity: None });
            }
        }
    }

    fn next_timer(&self) -> Option<Time> {
        if self.finished() {
            return None;
        }
        self.ack_timer.idle_deadline()
    }

    /// The receive queue's check of a socket that has had no packet for 100 ms.
    fn on_timer(&mut self, now: Time, out: &mut Vec<CtrlMsg>) {
        if self.ack_timer.idle_due(now) && self.ack_timer.check(now) {
            self.timer_ack(now, out);
        }
    }

    fn packets_received(&self) -> u64 {
        self.recv.packets_received()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn receiver() -> UdtReceiver {
        let p = UdtReceiverParams {
            syn: Time::from_millis(10),
            arrival_window: 16,
            probe_window: 16,
            probe_interval: 16,
            light_ack_interval: 64,
            initial_rtt_us: 100_000,
            initial_rttvar_us: 50_000,
        };
        UdtReceiver::new(p, None)
    }

    fn pkt(seq: u64, sent: Time) -> DgArrival {
        DgArrival { seq, len: 1456, sent, ce: false, sender_rtt: None }
    }

    /// Packets arriving every 12 µs, except each pair's second, 10 µs after the first.
    fn feed(r: &mut UdtReceiver, seqs: std::ops::Range<u64>, out: &mut Vec<CtrlMsg>) -> Time {
        let mut now = Time::from_millis(50);
        for seq in seqs {
            now += Time::from_micros(if seq % 16 == 1 { 10 } else { 12 });
            r.on_data(now, &pkt(seq, now - Time::from_millis(50)), out);
        }
        now
    }

    #[test]
    fn estimates_the_arrival_speed_and_the_pair_capacity() {
        let mut r = receiver();
        let mut out = Vec::new();
        feed(&mut r, 0..400, &mut out);
        // Inter-arrivals are 12 µs (and one 10 µs in 16): AS = ⌈10⁶/mean⌉ ≈ 83 334 pkt/s.
        let as_ = r.arrival_speed();
        assert!((83_000.0..=86_000.0).contains(&as_), "AS {as_}");
        // 25 pairs have replaced the 16 initial 1000 µs samples: B = 10⁶/10 = 100 000.
        assert_eq!(r.capacity(), 100_000.0);
        assert!(out.iter().all(|m| matches!(m, CtrlMsg::Ack { rtt: None, .. })), "only light ACKs");
        assert_eq!(out.len(), 6, "a light ACK at 64, 128, … 384 packets");
    }

    #[test]
    fn naks_a_gap_at_once_and_full_acks_carry_rtt_and_rates() {
        let mut r = receiver();
        let mut out = Vec::new();
        let t0 = Time::from_millis(50);
        r.on_data(t0, &pkt(0, Time::ZERO), &mut out);
        r.on_data(t0, &pkt(4, Time::ZERO), &mut out);
        assert_eq!(out, vec![CtrlMsg::Nak { lost: vec![1, 2, 3] }]);
        out.clear();
        // The timer is due past 60 ms, but with no packet to check it the idle check comes
        // 100 ms after the last one.
        r.on_timer(Time::from_millis(60), &mut out);
        assert!(out.is_empty());
        let idle = Time::from_millis(150) + Time(1);
        assert_eq!(r.next_timer(), Some(idle));
        r.on_timer(idle, &mut out);
        let CtrlMsg::Ack { next_expected, rtt, arrival_rate, capacity } = out[0].clone() else { panic!() };
        assert_eq!(next_expected, 1);
        // One sample of 100 ms (50 ms forward + 50 ms reverse) into RTT = 100 ms.
        assert_eq!(rtt, Some(Time::from_millis(100)));
        assert!(arrival_rate.is_some() && capacity.is_some());
        out.clear();
        // Same ACK number 10 ms later, from a packet that fills no gap: not repeated (RTT +
        // 4·RTTVar has not passed).
        r.on_data(Time::from_millis(161), &pkt(5, Time::from_millis(111)), &mut out);
        assert!(out.is_empty());
        // Its ACK2 came back at 250 ms: never repeated any more.
        let next = r.next_timer().unwrap();
        assert_eq!(next, Time::from_millis(261) + Time(1));
        r.on_timer(next, &mut out);
        assert!(out.is_empty());
        // The timer re-armed at that check: a packet 10 ms on finds it due, and the full ACK
        // goes out with it.
        r.on_data(Time::from_millis(272), &pkt(1, Time::from_millis(222)), &mut out);
        assert!(matches!(out[0], CtrlMsg::Ack { next_expected: 2, .. }));
    }
}

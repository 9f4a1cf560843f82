//! The receiving end of a stream: the simulator's [`Endpoint`] receiver (for TCP, cclab's
//! sans-I/O receiver: cumulative and SACK acknowledgements, delayed ACKs; for a datagram
//! protocol, its own receiver and feedback: UDT's ACKs and NAKs, SABUL's ERR and SYN, TFRC's
//! reports) behind the [`Reassembly`] that verifies and counts every byte delivered.

use crate::payload::Reassembly;
use crate::report::{Interval, StreamReport};
use crate::send::is_reliable;
use crate::wire::{split_loss_report, Body, FinAck, Packet};
use cc::datagram::CtrlMsg;
use cc::rng::component_rng;
use cc::transport::SenderConfig;
use cc::Time;
use sim::endpoint::{Back, Endpoint};
use sim::packet::DataPacket;
use sim::results::FlowSample;
use sim::Transport;

pub struct StreamReceiver {
    session: u64,
    ep: Endpoint,
    reasm: Reassembly,
    backs: Vec<Back>,
    /// The sender's end of stream, once it arrived.
    fin: Option<crate::wire::Fin>,
    fin_at: Option<Time>,
    start: Time,
    interval: Time,
    next_sample: Time,
    last_delivered: u64,
    pub report: StreamReport,
}

impl StreamReceiver {
    /// `window`: the most segments held out of order (the receive window), which bounds memory.
    pub fn new(session: u64, stream: u16, transport: &Transport, mss: u64, window: u64, delayed_ack: bool, start: Time, interval: Time) -> StreamReceiver {
        let cfg = SenderConfig { mss, ..SenderConfig::default() };
        let (ep, _) = Endpoint::new(transport, &cfg, delayed_ack, component_rng(session, stream as u64));
        let reasm = if is_reliable(transport) { Reassembly::new(session, mss, window) } else { Reassembly::unordered(session, mss, window) };
        StreamReceiver {
            session,
            report: StreamReport { stream, cc: ep.name().to_string(), sender: false, reliable: is_reliable(transport), ..StreamReport::default() },
            ep,
            reasm,
            backs: Vec::new(),
            fin: None,
            fin_at: None,
            start,
            interval,
            next_sample: start + interval,
            last_delivered: 0,
        }
    }

    fn send_backs(&mut self, send: &mut dyn FnMut(&Packet<'_>)) {
        for back in self.backs.drain(..) {
            match back {
                Back::Ack(ack) => send(&Packet { session: self.session, body: Body::Ack(ack) }),
                Back::Ctrl(CtrlMsg::Nak { lost }) => {
                    for m in split_loss_report(&lost) {
                        send(&Packet { session: self.session, body: Body::Ctrl(m) });
                    }
                }
                Back::Ctrl(m) => send(&Packet { session: self.session, body: Body::Ctrl(m) }),
            }
        }
    }

    pub fn on_packet(&mut self, now: Time, body: &Body<'_>, send: &mut dyn FnMut(&Packet<'_>)) {
        match body {
            Body::Data(d) => {
                // Beyond the receive window: dropped unacknowledged, the sender will resend.
                let Some(_) = self.reasm.on_segment(d.seq, d.payload) else { return };
                let p = DataPacket {
                    flow: 0,
                    seq: d.seq,
                    len: d.payload.len() as u32,
                    wire: d.payload.len() as u32,
                    sent: d.sent,
                    enqueued: d.sent,
                    ecn: 0,
                    retransmission: d.flags & crate::wire::FLAG_RETX != 0,
                    hdr_rtt: d.hdr_rtt.unwrap_or(Time::ZERO),
                    nonce: 0, // the wire carries none: the nonce defence is the simulator's
                    tsecr: Time::ZERO, // nor timestamps: its receivers keep no receive-window model
                };
                self.ep.on_data(now, &p, &mut self.backs);
                self.send_backs(send);
            }
            Body::Fin(f) => {
                if self.fin.is_none() {
                    self.fin = Some(f.clone());
                    self.fin_at = Some(now);
                    self.finish(now);
                }
                let fa = FinAck { delivered: self.reasm.delivered, duplicates: self.reasm.duplicates, corrupted: self.reasm.corrupted, crc: self.reasm.crc() };
                send(&Packet { session: self.session, body: Body::FinAck(fa) });
            }
            _ => {}
        }
    }

    pub fn next_wake(&self) -> Time {
        let t = if self.fin.is_some() { Time(u64::MAX) } else { self.next_sample };
        self.ep.receiver_next_timer().map_or(t, |x| x.min(t))
    }

    /// The receiver's timers (delayed ACK, periodic ACK/NAK/SYN, feedback) and interval samples.
    pub fn on_timers(&mut self, now: Time, send: &mut dyn FnMut(&Packet<'_>)) {
        if self.ep.receiver_next_timer().is_some_and(|t| t <= now) {
            self.ep.receiver_on_timer(now, &mut self.backs);
            self.send_backs(send);
        }
        if self.fin.is_none() && now >= self.next_sample {
            self.sample(now);
        }
    }

    fn sample(&mut self, now: Time) {
        let start = self.next_sample.saturating_sub(self.interval);
        let bytes = self.reasm.delivered - self.last_delivered;
        let secs = (now - start).as_secs_f64().max(1e-9);
        self.report.intervals.push(Interval { start_s: (start - self.start).as_secs_f64(), end_s: (now - self.start).as_secs_f64(), bytes, bits_per_second: bytes as f64 * 8.0 / secs, ..Interval::default() });
        // The receiver knows only what arrived: the sender's columns stay empty.
        self.report.samples.push(FlowSample {
            time: (now - self.start).as_secs_f64(),
            flow: self.report.stream as u32,
            cwnd: None,
            ssthresh: None,
            inflight: 0,
            sacked: 0,
            lost: 0,
            retr: 0,
            rtt_ms: None,
            rttvar_ms: 0.0,
            rto_ms: 0.0,
            state: "receiving",
            pacing_rate_mbps: None,
            throughput_mbps: 0.0,
            goodput_mbps: bytes as f64 * 8.0 / secs / 1e6,
            delivered_bytes: self.reasm.delivered,
            ca_state: None,
            unacked: 0,
            retrans_out: 0,
            backoff: 0,
            reordering: 0,
            logged_rate_mbps: None,
        });
        self.last_delivered = self.reasm.delivered;
        while self.next_sample <= now {
            self.next_sample = self.next_sample + self.interval;
        }
    }

    fn finish(&mut self, now: Time) {
        let fin = self.fin.clone().expect("finish after the Fin");
        let r = &mut self.report;
        r.seconds = (now - self.start).as_secs_f64();
        r.bytes_delivered = self.reasm.delivered;
        r.bytes_lost = fin.bytes.saturating_sub(self.reasm.delivered);
        r.bytes_duplicated = self.reasm.duplicates;
        r.bytes_corrupted = self.reasm.corrupted;
        r.checksum_ok = fin.crc == self.reasm.crc() && fin.bytes == self.reasm.delivered;
        r.retransmits = fin.retransmits;
        r.segments_sent = fin.segments;
    }

    /// The sender's `Fin` has arrived (and been answered).
    pub fn is_done(&self) -> bool {
        self.fin.is_some()
    }

    pub fn fin_at(&self) -> Option<Time> {
        self.fin_at
    }
}

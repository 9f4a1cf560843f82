//! The receiving end of a stream: cclab's sans-I/O [`Receiver`] (cumulative and SACK
//! acknowledgements, delayed ACKs) in front of the in-order [`Reassembly`] that verifies and
//! counts every byte; `Ack`s go back with the data packet's send time echoed.

use crate::payload::Reassembly;
use crate::report::{Interval, StreamReport};
use crate::wire::{Body, FinAck, Packet};
use cc::transport::{Receiver, ReceiverConfig};
use cc::Time;
use sim::results::FlowSample;

pub struct StreamReceiver {
    session: u64,
    receiver: Receiver,
    reasm: Reassembly,
    /// The sender's end of stream, once it arrived.
    fin: Option<crate::wire::Fin>,
    fin_at: Option<Time>,
    interval: Time,
    next_sample: Time,
    last_delivered: u64,
    pub report: StreamReport,
}

impl StreamReceiver {
    /// `window`: the most segments held out of order (the receive window), which bounds memory.
    pub fn new(session: u64, stream: u16, cc_name: &str, mss: u64, window: u64, delayed_ack: bool, interval: Time) -> StreamReceiver {
        let receiver = Receiver::new(ReceiverConfig { delack_segments: if delayed_ack { 2 } else { 1 }, ..ReceiverConfig::default() });
        StreamReceiver {
            session,
            receiver,
            reasm: Reassembly::new(session, mss, window),
            fin: None,
            fin_at: None,
            interval,
            next_sample: interval,
            last_delivered: 0,
            report: StreamReport { stream, cc: cc_name.to_string(), sender: false, ..StreamReport::default() },
        }
    }

    pub fn on_packet(&mut self, now: Time, body: &Body<'_>, send: &mut dyn FnMut(&Packet<'_>)) {
        match body {
            Body::Data(d) => {
                // Beyond the receive window: dropped unacknowledged, the sender will resend.
                let Some(_) = self.reasm.on_segment(d.seq, d.payload) else { return };
                if let Some(ack) = self.receiver.on_segment(now, d.seq, d.sent, false) {
                    send(&Packet { session: self.session, body: Body::Ack(ack) });
                }
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
        self.receiver.next_timer().map_or(t, |x| x.min(t))
    }

    /// Delayed-ACK timer and interval samples.
    pub fn on_timers(&mut self, now: Time, send: &mut dyn FnMut(&Packet<'_>)) {
        if self.receiver.next_timer().is_some_and(|t| t <= now) {
            if let Some(ack) = self.receiver.on_timer(now) {
                send(&Packet { session: self.session, body: Body::Ack(ack) });
            }
        }
        if self.fin.is_none() && now >= self.next_sample {
            self.sample(now);
        }
    }

    fn sample(&mut self, now: Time) {
        let start = self.next_sample.saturating_sub(self.interval);
        let bytes = self.reasm.delivered - self.last_delivered;
        let secs = (now - start).as_secs_f64().max(1e-9);
        self.report.intervals.push(Interval { start_s: start.as_secs_f64(), end_s: now.as_secs_f64(), bytes, bits_per_second: bytes as f64 * 8.0 / secs, ..Interval::default() });
        // The receiver knows only what arrived: the sender's columns stay empty.
        self.report.samples.push(FlowSample {
            time: now.as_secs_f64(),
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
        });
        self.last_delivered = self.reasm.delivered;
        while self.next_sample <= now {
            self.next_sample = self.next_sample + self.interval;
        }
    }

    fn finish(&mut self, now: Time) {
        let fin = self.fin.clone().expect("finish after the Fin");
        let r = &mut self.report;
        r.seconds = now.as_secs_f64();
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

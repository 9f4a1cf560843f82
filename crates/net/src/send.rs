//! The sending end of a stream: the very state machines the simulator drives, through its
//! [`Endpoint`]: for a TCP controller, cclab's sans-I/O `SenderCore` (SACK, RACK, RTO, rate
//! sampling, pacing) with the controller, unchanged; for SABUL, UDT, TFRC or CBR, the
//! protocol's own sender. A real clock drives it: each transmission it allows becomes a `Data`
//! datagram whose payload is the stream's bytes at that packet; each `Ack` or protocol `Ctrl`
//! message goes back into it; its timers (RTO, RACK, pacing, rate-control intervals) decide
//! when the driver wakes it. At the run's end it stops new data (`Endpoint::end_stream`),
//! recovers what is outstanding (if the protocol is reliable), then exchanges `Fin`/`FinAck` to
//! compare what it sent with what the receiver delivered.

use crate::payload::{self, StreamSum};
use crate::report::{quantile, Interval, StreamReport};
use crate::wire::{Body, Data, Fin, FinAck, Packet, FLAG_ECT, FLAG_RETX};
use cc::rng::component_rng;
use cc::transport::SenderConfig;
use cc::Time;
use sim::endpoint::{Back, Endpoint};
use sim::results::FlowSample;
use sim::Transport;

/// `Fin` is repeated this often (or every RTO, if longer) until its `FinAck` arrives...
const FIN_INTERVAL: Time = Time(200_000_000);
/// ...at most this many times.
const FIN_TRIES: u32 = 25;
/// A run whose outstanding data is still not acknowledged this long after its end gives up
/// (the path or the peer is gone).
pub const DRAIN_LIMIT: Time = Time(30_000_000_000);

/// Whether a transport delivers every byte in order (TCP, SABUL, UDT) or what arrives as it
/// arrives (TFRC, CBR).
pub fn is_reliable(t: &Transport) -> bool {
    match t {
        Transport::Tcp(_) => true,
        Transport::Datagram(d) => d.is_reliable(),
    }
}

pub struct StreamSender {
    session: u64,
    stream: u16,
    ep: Endpoint,
    mss: u64,
    /// When the stream began, on the clock it is driven by; reports count from here.
    start: Time,
    end_at: Time,
    ended_at: Option<Time>,
    /// The checksum of the new data sent so far (new packets go out in order).
    sum: StreamSum,
    new_bytes: u64,
    fin_sent: u32,
    next_fin: Time,
    peer: Option<FinAck>,
    payload: Vec<u8>,
    late_us: Vec<f64>,
    rtt_sum_ms: f64,
    rtt_n: u64,
    interval: Time,
    next_sample: Time,
    last_delivered: u64,
    last_retx: u64,
    last_sent: u64,
    pub report: StreamReport,
}

impl StreamSender {
    pub fn new(session: u64, stream: u16, transport: &Transport, cfg: SenderConfig, start: Time, duration: Time, interval: Time) -> StreamSender {
        let mss = cfg.mss;
        let (ep, _) = Endpoint::new(transport, &cfg, false, component_rng(session, stream as u64));
        let name = ep.name().to_string();
        StreamSender {
            session,
            stream,
            ep,
            mss,
            start,
            end_at: start + duration,
            ended_at: None,
            sum: StreamSum::new(is_reliable(transport)),
            new_bytes: 0,
            fin_sent: 0,
            next_fin: Time::ZERO,
            peer: None,
            payload: vec![0; mss as usize],
            late_us: Vec::new(),
            rtt_sum_ms: 0.0,
            rtt_n: 0,
            interval,
            next_sample: start + interval,
            last_delivered: 0,
            last_retx: 0,
            last_sent: 0,
            report: StreamReport { stream, cc: name, sender: true, reliable: is_reliable(transport), ..StreamReport::default() },
        }
    }

    /// The handshake's RTT: a TCP sender's first sample, as TCP takes it from the SYN exchange.
    pub fn on_handshake(&mut self, rtt: Time) {
        if let Endpoint::Tcp { sender, .. } = &mut self.ep {
            sender.on_handshake(rtt);
        }
    }

    pub fn is_done(&self) -> bool {
        self.peer.is_some() || self.fin_sent >= FIN_TRIES
    }

    /// Payload bytes the receiver has acknowledged, as this side knows them: TCP's cumulative
    /// ACKs, a reliable protocol's ACKs; nothing for TFRC and CBR, which acknowledge nothing.
    fn acked_bytes(&self) -> u64 {
        match &self.ep {
            Endpoint::Tcp { sender, .. } => sender.stats().bytes_delivered,
            Endpoint::Datagram { sender, .. } => sender.stats().bytes_delivered,
        }
    }

    /// What an interval line counts: bytes acknowledged for a reliable transport; for TFRC and
    /// CBR, which acknowledge nothing, bytes sent (as iperf3's UDP client reports).
    fn interval_bytes(&self) -> u64 {
        if self.report.reliable {
            self.acked_bytes()
        } else {
            self.ep.counters().bytes_sent
        }
    }

    /// Sends what the sender allows now, through `send`.
    pub fn poll(&mut self, now: Time, send: &mut dyn FnMut(&Packet<'_>)) {
        if self.ended_at.is_none() && now >= self.end_at {
            self.ep.end_stream();
            self.ended_at = Some(now);
        }
        if now >= self.next_sample {
            self.sample(now);
        }
        if self.ep.is_complete() && self.ended_at.is_some() {
            if self.peer.is_none() && now >= self.next_fin && self.fin_sent < FIN_TRIES {
                let c = self.ep.counters();
                let fin = Fin { segments: c.segments_sent, bytes: self.new_bytes, crc: self.sum.value(), retransmits: c.retransmits };
                send(&Packet { session: self.session, body: Body::Fin(fin) });
                self.fin_sent += 1;
                self.next_fin = now + FIN_INTERVAL.max(self.ep.sample().rto);
            }
            return;
        }
        let scheduled = self.ep.next_send_time(now);
        while let Some(tx) = self.ep.poll_transmit(now) {
            if let Some(at) = scheduled.filter(|&at| at > Time::ZERO) {
                self.late_us.push(now.saturating_sub(at).0 as f64 / 1e3);
            }
            let len = tx.len as usize;
            payload::fill(self.session, tx.seq * self.mss, &mut self.payload[..len]);
            if !tx.is_retransmission && tx.seq * self.mss == self.new_bytes {
                self.sum.add(tx.seq, &self.payload[..len]);
                self.new_bytes += len as u64;
            }
            let flags = if tx.is_retransmission { FLAG_RETX } else { 0 } | if tx.ecn_capable { FLAG_ECT } else { 0 };
            let data = Data { seq: tx.seq, sent: now, hdr_rtt: tx.hdr_rtt, flags, payload: &self.payload[..len] };
            send(&Packet { session: self.session, body: Body::Data(data) });
        }
    }

    pub fn on_packet(&mut self, now: Time, body: &Body<'_>) {
        let back = match body {
            Body::Ack(ack) => Back::Ack(*ack),
            Body::Ctrl(m) => Back::Ctrl(m.clone()),
            Body::FinAck(f) => {
                if self.peer.is_none() {
                    self.finish(now, f.clone());
                }
                return;
            }
            _ => return,
        };
        if let Some(rtt) = self.ep.on_back(now, &back) {
            self.rtt_sum_ms += rtt.as_millis_f64();
            self.rtt_n += 1;
        }
    }

    /// When the driver must wake this stream: a pacing release, a timer, a sample or a Fin.
    pub fn next_wake(&mut self, now: Time) -> Time {
        let mut t = self.next_sample;
        if self.ended_at.is_none() {
            t = t.min(self.end_at);
        }
        if let Some(x) = self.ep.next_timer() {
            t = t.min(x);
        }
        if self.ep.is_complete() && self.ended_at.is_some() {
            t = t.min(self.next_fin);
        } else if let Some(x) = self.ep.next_send_time(now) {
            t = t.min(x);
        }
        t
    }

    /// Fires the sender's timers that are due.
    pub fn on_timers(&mut self, now: Time) {
        if self.ep.next_timer().is_some_and(|t| t <= now) {
            self.ep.on_timer(now);
        }
    }

    /// The drain after the end took too long.
    pub fn drain_expired(&self, now: Time) -> bool {
        self.ended_at.is_some_and(|e| now > e + DRAIN_LIMIT)
    }

    fn sample(&mut self, now: Time) {
        let c = self.ep.counters();
        let x = self.ep.sample();
        let delivered = self.interval_bytes();
        let start = self.next_sample.saturating_sub(self.interval);
        let bytes = delivered - self.last_delivered;
        let secs = (now - start).as_secs_f64().max(1e-9);
        let mss = self.mss as f64;
        self.report.intervals.push(Interval {
            start_s: (start - self.start).as_secs_f64(),
            end_s: (now - self.start).as_secs_f64(),
            bytes,
            bits_per_second: bytes as f64 * 8.0 / secs,
            retransmits: Some(c.retransmits - self.last_retx),
            cwnd: x.cwnd,
            ssthresh: x.ssthresh,
            rtt_ms: x.rtt.map(|t| t.as_millis_f64()),
            rttvar_ms: Some(x.rttvar.as_millis_f64()),
            pacing_rate_bps: x.pacing_rate_bps,
            inflight: Some(x.inflight),
            state: Some(x.state.to_string()),
        });
        self.report.samples.push(FlowSample {
            time: (now - self.start).as_secs_f64(),
            flow: self.stream as u32,
            cwnd: x.cwnd.map(|c| c as f64 / mss),
            ssthresh: x.ssthresh.map(|c| c as f64 / mss),
            inflight: x.inflight,
            sacked: x.sacked,
            lost: x.lost,
            retr: x.retr,
            rtt_ms: x.rtt.map(|t| t.as_millis_f64()),
            rttvar_ms: x.rttvar.as_millis_f64(),
            rto_ms: x.rto.as_millis_f64(),
            state: x.state,
            pacing_rate_mbps: x.pacing_rate_bps.map(|r| r / 1e6),
            throughput_mbps: (c.bytes_sent - self.last_sent) as f64 * 8.0 / secs / 1e6,
            goodput_mbps: bytes as f64 * 8.0 / secs / 1e6,
            delivered_bytes: delivered,
            ca_state: x.ca_state,
            unacked: x.unacked,
            retrans_out: x.retrans_out,
            backoff: x.backoff,
            reordering: x.reordering,
            logged_rate_mbps: x.logged_rate_bps.map(|r| r / 1e6),
        });
        self.last_delivered = delivered;
        self.last_retx = c.retransmits;
        self.last_sent = c.bytes_sent;
        while self.next_sample <= now {
            self.next_sample = self.next_sample + self.interval;
        }
    }

    fn finish(&mut self, now: Time, peer: FinAck) {
        let c = self.ep.counters();
        let min_rtt = match &self.ep {
            Endpoint::Tcp { sender, .. } => sender.rtt().min_rtt,
            Endpoint::Datagram { .. } => None,
        };
        let r = &mut self.report;
        r.seconds = (self.ended_at.unwrap_or(now) - self.start).as_secs_f64();
        r.bytes_sent = c.bytes_sent;
        r.segments_sent = c.segments_sent;
        r.retransmits = c.retransmits;
        r.timeouts = c.timeouts;
        r.bytes_delivered = peer.delivered;
        r.bytes_lost = self.new_bytes.saturating_sub(peer.delivered);
        r.bytes_duplicated = peer.duplicates;
        r.bytes_corrupted = peer.corrupted;
        r.checksum_ok = peer.crc == self.sum.value() && peer.delivered == self.new_bytes;
        r.rtt_min_ms = min_rtt.map(|t| t.as_millis_f64());
        r.rtt_mean_ms = (self.rtt_n > 0).then(|| self.rtt_sum_ms / self.rtt_n as f64);
        r.pacing_late_p50_us = quantile(&mut self.late_us, 0.5);
        r.pacing_late_p99_us = quantile(&mut self.late_us, 0.99);
        self.peer = Some(peer);
    }

    /// The report of a stream whose receiver never confirmed the end: what this side knows,
    /// with nothing counted as delivered. Does nothing once the receiver has confirmed.
    pub fn abandon(&mut self, now: Time) {
        if self.peer.is_none() {
            self.finish(now, FinAck::default());
            self.report.checksum_ok = false;
        }
    }

    pub fn stream(&self) -> u16 {
        self.stream
    }
}

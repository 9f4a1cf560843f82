//! The sending end of a stream: cclab's sans-I/O [`SenderCore`] and its controller, unchanged,
//! driven by a real clock. Each transmission it allows becomes a `Data` datagram whose payload
//! is the stream's bytes at that segment; each `Ack` goes to `SenderCore::on_ack`; its timers
//! (RTO, RACK, pacing) decide when the driver wakes it. At the run's end it stops new data
//! (`SenderCore::end_stream`), recovers what is outstanding, then exchanges `Fin`/`FinAck` to
//! compare what it sent with what the receiver delivered.

use crate::payload;
use crate::report::{quantile, Interval, StreamReport};
use crate::wire::{Body, Data, Fin, FinAck, Packet, FLAG_ECT, FLAG_RETX};
use cc::transport::{SenderConfig, SenderCore};
use cc::rng::component_rng;
use cc::{CcConfig, CongestionControl, Time};
use sim::results::FlowSample;

/// `Fin` is repeated this often (or every RTO, if longer) until its `FinAck` arrives...
const FIN_INTERVAL: Time = Time(200_000_000);
/// ...at most this many times.
const FIN_TRIES: u32 = 25;
/// A run whose outstanding data is still not acknowledged this long after its end gives up
/// (the path or the peer is gone).
pub const DRAIN_LIMIT: Time = Time(30_000_000_000);

pub struct StreamSender {
    session: u64,
    stream: u16,
    core: SenderCore,
    mss: u64,
    end_at: Time,
    ended_at: Option<Time>,
    /// CRC-32 of the new data sent so far (new segments go out in order).
    crc: crc32fast::Hasher,
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
    pub fn new(session: u64, stream: u16, cc: &CcConfig, cfg: SenderConfig, duration: Time, interval: Time) -> StreamSender {
        let mss = cfg.mss;
        let core = SenderCore::new(cfg, cc, component_rng(session, stream as u64));
        let name = core.controller().name().to_string();
        StreamSender {
            session,
            stream,
            core,
            mss,
            end_at: duration,
            ended_at: None,
            crc: crc32fast::Hasher::new(),
            new_bytes: 0,
            fin_sent: 0,
            next_fin: Time::ZERO,
            peer: None,
            payload: vec![0; mss as usize],
            late_us: Vec::new(),
            rtt_sum_ms: 0.0,
            rtt_n: 0,
            interval,
            next_sample: interval,
            last_delivered: 0,
            last_retx: 0,
            last_sent: 0,
            report: StreamReport { stream, cc: name, sender: true, ..StreamReport::default() },
        }
    }

    /// The handshake's RTT: the first sample, as TCP takes it from the SYN exchange.
    pub fn on_handshake(&mut self, rtt: Time) {
        self.core.on_handshake(rtt);
    }

    pub fn is_done(&self) -> bool {
        self.peer.is_some() || self.fin_sent >= FIN_TRIES
    }

    /// Sends what the core allows now, through `send`.
    pub fn poll(&mut self, now: Time, send: &mut dyn FnMut(&Packet<'_>)) {
        if self.ended_at.is_none() && now >= self.end_at {
            self.core.end_stream();
            self.ended_at = Some(now);
        }
        if now >= self.next_sample {
            self.sample(now);
        }
        if self.core.is_complete() && self.ended_at.is_some() {
            if self.peer.is_none() && now >= self.next_fin && self.fin_sent < FIN_TRIES {
                let fin = Fin { segments: self.core.snd_nxt(), bytes: self.new_bytes, crc: self.crc.clone().finalize(), retransmits: self.core.stats().retransmits };
                send(&Packet { session: self.session, body: Body::Fin(fin) });
                self.fin_sent += 1;
                self.next_fin = now + FIN_INTERVAL.max(self.core.rto());
            }
            return;
        }
        let scheduled = self.core.next_send_time(now);
        while let Some(tx) = self.core.poll_transmit(now) {
            if let Some(at) = scheduled.filter(|&at| at > Time::ZERO) {
                self.late_us.push(now.saturating_sub(at).0 as f64 / 1e3);
            }
            let len = tx.len as usize;
            payload::fill(self.session, tx.seq * self.mss, &mut self.payload[..len]);
            if !tx.is_retransmission && tx.seq * self.mss == self.new_bytes {
                self.crc.update(&self.payload[..len]);
                self.new_bytes += len as u64;
            }
            let flags = if tx.is_retransmission { FLAG_RETX } else { 0 } | if tx.ecn_capable { FLAG_ECT } else { 0 };
            send(&Packet { session: self.session, body: Body::Data(Data { seq: tx.seq, sent: now, flags, payload: &self.payload[..len] }) });
        }
    }

    pub fn on_packet(&mut self, now: Time, body: &Body<'_>) {
        match body {
            Body::Ack(ack) => {
                let fb = self.core.on_ack(now, ack);
                if let Some(rtt) = fb.rtt_sample {
                    self.rtt_sum_ms += rtt.as_millis_f64();
                    self.rtt_n += 1;
                }
            }
            Body::FinAck(f) => {
                if self.peer.is_none() {
                    self.finish(now, f.clone());
                }
            }
            _ => {}
        }
    }

    /// When the driver must wake this stream: a pacing release, a timer, a sample or a Fin.
    pub fn next_wake(&mut self, now: Time) -> Time {
        let mut t = self.next_sample;
        if self.ended_at.is_none() {
            t = t.min(self.end_at);
        }
        if let Some(x) = self.core.next_timer() {
            t = t.min(x);
        }
        if self.core.is_complete() && self.ended_at.is_some() {
            t = t.min(self.next_fin);
        } else if let Some(x) = self.core.next_send_time(now) {
            t = t.min(x);
        }
        t
    }

    /// Fires the core's timers that are due.
    pub fn on_timers(&mut self, now: Time) {
        if self.core.next_timer().is_some_and(|t| t <= now) {
            self.core.on_timer(now);
        }
    }

    /// The drain after the end took too long: report what the receiver has (nothing more).
    pub fn drain_expired(&self, now: Time) -> bool {
        self.ended_at.is_some_and(|e| now > e + DRAIN_LIMIT)
    }

    fn sample(&mut self, now: Time) {
        let s = self.core.stats();
        let snap = self.core.snapshot();
        let rtt = self.core.rtt();
        let start = self.next_sample.saturating_sub(self.interval);
        let bytes = s.bytes_delivered - self.last_delivered;
        let secs = (now - start).as_secs_f64().max(1e-9);
        self.report.intervals.push(Interval {
            start_s: start.as_secs_f64(),
            end_s: now.as_secs_f64(),
            bytes,
            bits_per_second: bytes as f64 * 8.0 / secs,
            retransmits: Some(s.retransmits - self.last_retx),
            cwnd: snap.cwnd,
            ssthresh: snap.ssthresh.filter(|&x| x < u64::MAX / 2),
            rtt_ms: rtt.srtt.map(|t| t.as_millis_f64()),
            rttvar_ms: Some(rtt.rttvar.as_millis_f64()),
            pacing_rate_bps: snap.pacing_rate.map(|r| r.bits_per_sec()),
            inflight: Some(self.core.in_flight()),
            state: Some(snap.state.to_string()),
        });
        let mss = self.mss as f64;
        self.report.samples.push(FlowSample {
            time: now.as_secs_f64(),
            flow: self.stream as u32,
            cwnd: snap.cwnd.map(|c| c as f64 / mss),
            ssthresh: snap.ssthresh.filter(|&x| x < u64::MAX / 2).map(|c| c as f64 / mss),
            inflight: self.core.in_flight(),
            sacked: self.core.sacked_out(),
            lost: self.core.lost_out(),
            retr: s.retransmits,
            rtt_ms: rtt.latest.map(|t| t.as_millis_f64()),
            rttvar_ms: rtt.rttvar.as_millis_f64(),
            rto_ms: self.core.rto().as_millis_f64(),
            state: snap.state,
            pacing_rate_mbps: snap.pacing_rate.map(|r| r.bits_per_sec() / 1e6),
            throughput_mbps: (s.bytes_sent - self.last_sent) as f64 * 8.0 / secs / 1e6,
            goodput_mbps: bytes as f64 * 8.0 / secs / 1e6,
            delivered_bytes: s.bytes_delivered,
        });
        self.last_delivered = s.bytes_delivered;
        self.last_retx = s.retransmits;
        self.last_sent = s.bytes_sent;
        while self.next_sample <= now {
            self.next_sample = self.next_sample + self.interval;
        }
    }

    fn finish(&mut self, now: Time, peer: FinAck) {
        let s = self.core.stats();
        let r = &mut self.report;
        r.seconds = self.ended_at.unwrap_or(now).as_secs_f64();
        r.bytes_sent = s.bytes_sent;
        r.segments_sent = s.segments_sent;
        r.retransmits = s.retransmits;
        r.timeouts = s.timeouts;
        r.bytes_delivered = peer.delivered;
        r.bytes_lost = self.new_bytes.saturating_sub(peer.delivered);
        r.bytes_duplicated = peer.duplicates;
        r.bytes_corrupted = peer.corrupted;
        r.checksum_ok = peer.crc == self.crc.clone().finalize() && peer.delivered == self.new_bytes;
        r.rtt_min_ms = self.core.rtt().min_rtt.map(|t| t.as_millis_f64());
        r.rtt_mean_ms = (self.rtt_n > 0).then(|| self.rtt_sum_ms / self.rtt_n as f64);
        r.pacing_late_p50_us = quantile(&mut self.late_us, 0.5);
        r.pacing_late_p99_us = quantile(&mut self.late_us, 0.99);
        self.peer = Some(peer);
    }

    /// The report of a stream whose receiver never confirmed the end: what this side knows,
    /// with nothing counted as delivered.
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

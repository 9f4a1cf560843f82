//! `cclab send`: one thread and one UDP socket per stream (`-P`), each opening a session with
//! the server (`Hello`/`HelloAck`), then sending (or, with `reverse`, receiving) for the run's
//! duration, recovering what is outstanding and checking the stream's integrity at the end.
//! Every wait is bounded: the handshake, silence from the server, and the drain after the end.

use crate::clock::{recv_until, Clock};
use crate::recv::StreamReceiver;
use crate::report::{Interval, StreamReport};
use crate::send::{StreamSender, DRAIN_LIMIT};
use crate::wire::{decode, encode, Body, Hello, Packet};
use cc::transport::SenderConfig;
use cc::Time;
use sim::Transport;
use std::hash::BuildHasher;
use std::net::{SocketAddr, UdpSocket};

/// `Hello` is repeated this often until the server answers...
const HELLO_INTERVAL: Time = Time(200_000_000);
/// ...this many times (3 s in all).
const HELLO_TRIES: u32 = 15;
/// A stream that hears nothing from the server for this long gives up.
pub const SILENCE_LIMIT: Time = Time(10_000_000_000);
/// A receiving client stays this long after the `Fin` to answer a repeated one.
const LINGER: Time = Time(500_000_000);

#[derive(Clone, Debug)]
pub struct ClientConfig {
    pub server: SocketAddr,
    pub cc: Transport,
    pub streams: u16,
    pub duration: Time,
    pub reverse: bool,
    pub sender: SenderConfig,
    pub delayed_ack: bool,
    pub interval: Time,
    pub token: String,
}

/// A random session id: the standard library's per-process random hash keys over the stream
/// number and the time (session ids only tell sessions apart; the token is what admits).
fn session_id(stream: u16) -> u64 {
    std::collections::hash_map::RandomState::new().hash_one((stream, std::time::SystemTime::now()))
}

/// Runs every stream; `on_interval` sees each interval line as it completes. Returns each
/// stream's report, or the first error.
pub fn run(cfg: &ClientConfig, on_interval: &(dyn Fn(&Interval, u16) + Sync)) -> Result<Vec<StreamReport>, String> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..cfg.streams).map(|k| scope.spawn(move || stream(cfg, k, on_interval))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a stream's thread panicked".into()))).collect()
    })
}

fn stream(cfg: &ClientConfig, k: u16, on_interval: &(dyn Fn(&Interval, u16) + Sync)) -> Result<StreamReport, String> {
    let local: SocketAddr = if cfg.server.is_ipv4() { "0.0.0.0:0" } else { "[::]:0" }.parse().expect("an address");
    let sock = UdpSocket::bind(local).map_err(|e| format!("cannot open a UDP socket: {e}"))?;
    sock.connect(cfg.server).map_err(|e| format!("{}: {e}", cfg.server))?;
    sock.set_nonblocking(true).map_err(|e| e.to_string())?;
    let session = session_id(k);
    let clock = Clock::new();
    let mut out = Vec::with_capacity(2048);
    let mut buf = vec![0u8; 65536];
    let send_err: std::cell::RefCell<Option<String>> = std::cell::RefCell::new(None);
    let mut send = |p: &Packet<'_>| {
        encode(p, &mut out);
        if let Err(e) = sock.send(&out) {
            // A full socket buffer is a loss like any other; anything else ends the stream.
            if e.kind() != std::io::ErrorKind::WouldBlock && e.kind() != std::io::ErrorKind::ConnectionRefused {
                send_err.borrow_mut().get_or_insert_with(|| format!("{}: {e}", cfg.server));
            }
        }
    };
    let hello = |sent: Time| Hello {
        token: cfg.token.clone(),
        sent,
        stream: k,
        streams: cfg.streams,
        reverse: cfg.reverse,
        mss: cfg.sender.mss as u16,
        duration_ms: (cfg.duration.0 / 1_000_000) as u32,
        cc_json: crate::transport::to_json(&cfg.cc),
    };
    // The receiving side exists before the Hello goes out: a reverse stream's data may arrive
    // before the HelloAck. It keeps time half a round trip behind this clock once the
    // handshake has measured one, which is the server's clock under NTP's symmetric-path
    // assumption (see `server`).
    let start = clock.now();
    let mut receiver = cfg.reverse.then(|| {
        let window = (cfg.sender.rwnd / cfg.sender.mss).clamp(16, 1 << 20);
        StreamReceiver::new(session, k, &cfg.cc, cfg.sender.mss, window, cfg.delayed_ack, start, cfg.interval)
    });
    let mut handshake_rtt = None;
    for _ in 0..HELLO_TRIES {
        let sent = clock.now();
        send(&Packet { session, body: Body::Hello(hello(sent)) });
        let until = sent + HELLO_INTERVAL;
        while let Some((n, _)) = recv_until(&sock, &clock, until, &mut buf).map_err(|e| e.to_string())? {
            let now = clock.now();
            let Ok(p) = decode(&buf[..n]) else { continue };
            if p.session != session {
                continue;
            }
            match &p.body {
                Body::HelloAck { ok: true, .. } => {
                    handshake_rtt = Some(now - sent);
                    break;
                }
                Body::HelloAck { ok: false, reason } => return Err(format!("{} refused the session: {reason}", cfg.server)),
                body => {
                    if let Some(r) = receiver.as_mut() {
                        r.on_packet(now, body, &mut send);
                    }
                }
            }
        }
        if handshake_rtt.is_some() {
            break;
        }
    }
    let Some(rtt) = handshake_rtt else {
        return Err(format!("{}: no answer from a cclab server (is `cclab serve` running there, and UDP open?)", cfg.server));
    };
    let mut heard = clock.now();
    let hard_end = heard + cfg.duration + DRAIN_LIMIT + SILENCE_LIMIT;
    let mut printed = 0;
    if let Some(mut r) = receiver {
        let behind = Time(rtt.0 / 2);
        loop {
            let now = clock.now() - behind;
            r.on_timers(now, &mut send);
            for i in &r.report.intervals[printed..] {
                on_interval(i, k);
            }
            printed = r.report.intervals.len();
            if r.fin_at().is_some_and(|t| now > t + LINGER) {
                return Ok(r.report);
            }
            if clock.now() > heard + SILENCE_LIMIT || clock.now() > hard_end {
                return Err(format!("{}: the server went silent before the stream's end", cfg.server));
            }
            let wake = r.next_wake().min(now + LINGER) + behind;
            if let Some((n, _)) = recv_until(&sock, &clock, wake, &mut buf).map_err(|e| e.to_string())? {
                heard = clock.now();
                match decode(&buf[..n]) {
                    Ok(p) if p.session == session => r.on_packet(heard - behind, &p.body, &mut send),
                    Ok(_) => {}
                    Err(e) => r.report.count_drop(e),
                }
            }
            if let Some(e) = send_err.borrow_mut().take() {
                return Err(e);
            }
        }
    }
    let mut s = StreamSender::new(session, k, &cfg.cc, cfg.sender.clone(), clock.now(), cfg.duration, cfg.interval);
    s.on_handshake(rtt);
    loop {
        let now = clock.now();
        s.on_timers(now);
        s.poll(now, &mut send);
        for i in &s.report.intervals[printed..] {
            on_interval(i, k);
        }
        printed = s.report.intervals.len();
        if s.is_done() {
            // Done with the receiver's FinAck, or out of Fin tries without one.
            s.abandon(now);
            return Ok(s.report);
        }
        if s.drain_expired(now) || now > heard + SILENCE_LIMIT {
            s.abandon(now);
            return Ok(s.report);
        }
        let wake = s.next_wake(now);
        if let Some((n, _)) = recv_until(&sock, &clock, wake, &mut buf).map_err(|e| e.to_string())? {
            let now = clock.now();
            match decode(&buf[..n]) {
                Ok(p) if p.session == session => {
                    heard = now;
                    s.on_packet(now, &p.body);
                }
                Ok(_) => {}
                Err(e) => s.report.count_drop(e),
            }
        }
        if let Some(e) = send_err.borrow_mut().take() {
            return Err(e);
        }
    }
}

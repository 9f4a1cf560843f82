//! `cclab serve`: one UDP socket, any number of sessions, each a stream the client sends (the
//! server receives, acknowledges and verifies) or, with the client's `-R`, one the server
//! sends. One thread drives them all, waking for the earliest of their timers.
//!
//! Clocks: each session keeps time on the client's clock as best the server can tell, so that a
//! data packet's send time and its arrival time can be compared (SABUL's and UDT's receivers
//! estimate the RTT from one-way delays, as the simulator's synchronised clocks allow). The
//! session's clock starts at the `Hello`'s own send time, which puts it one forward delay
//! behind the client's; when the first data packet arrives, one round trip after the
//! `HelloAck` left, it moves ahead by half that round trip (NTP's symmetric-path assumption).
//!
//! Safety: a `Hello` must present the server's token when one is set; the server holds at most
//! `max_sessions` sessions, refuses durations beyond `max_duration`, bounds each receiver's
//! out-of-order buffer by the receive window, and drops a session that has been silent for
//! `idle_timeout`. Datagrams that do not parse, or that name no session, are counted and dropped.

use crate::clock::{recv_until, Clock};
use crate::recv::StreamReceiver;
use crate::report::StreamReport;
use crate::send::StreamSender;
use crate::wire::{decode, encode, Body, Hello, Packet, WireError, MAX_PAYLOAD};
use cc::transport::SenderConfig;
use cc::Time;
use std::collections::BTreeMap;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Clone, Debug)]
pub struct ServerConfig {
    pub bind: SocketAddr,
    /// Clients must present this token; `None` admits any.
    pub token: Option<String>,
    pub max_sessions: usize,
    pub idle_timeout: Time,
    pub max_duration: Time,
    /// Receive window (bytes): the most a receiving session holds out of order.
    pub rwnd: u64,
    /// Leave after the first client's sessions have all ended (iperf3's `-1`).
    pub once: bool,
    pub interval: Time,
}

impl Session {
    fn local(&self, now: Time) -> Time {
        Time((now.0 as i128 - self.offset).max(1) as u64)
    }

    fn server_time(&self, local: Time) -> Time {
        Time((local.0 as i128 + self.offset).clamp(0, u64::MAX as i128) as u64)
    }
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            bind: "0.0.0.0:5201".parse().expect("an address"),
            token: None,
            max_sessions: 64,
            idle_timeout: Time::from_secs(10),
            max_duration: Time::from_secs(3600),
            rwnd: 64 << 20,
            once: false,
            interval: Time::from_secs(1),
        }
    }
}

enum Role {
    Receive(StreamReceiver),
    Send(StreamSender),
}

struct Session {
    role: Role,
    /// Server time minus session time, in ns (see the module doc).
    offset: i128,
    /// Server time the first `HelloAck` left, until the first data packet aligns the clock.
    acked_at: Option<Time>,
    heard: Time,
    /// When a finished session is forgotten (kept a little to answer a repeated Fin).
    forget_at: Option<Time>,
}

/// What the server has seen, for its log and its tests.
#[derive(Clone, Debug, Default)]
pub struct ServerStats {
    pub sessions: u64,
    pub refused: u64,
    pub idle_closed: u64,
    pub dropped_truncated: u64,
    pub dropped_foreign: u64,
    pub dropped_corrupted: u64,
    pub dropped_malformed: u64,
    /// Well-formed packets that name no session the server holds.
    pub unknown_session: u64,
    pub finished: Vec<StreamReport>,
}

/// Binds the socket (so that a caller learns the port before serving).
pub fn bind(cfg: &ServerConfig) -> Result<UdpSocket, String> {
    let sock = UdpSocket::bind(cfg.bind).map_err(|e| format!("--bind {}: {e}", cfg.bind))?;
    sock.set_nonblocking(true).map_err(|e| e.to_string())?;
    Ok(sock)
}

/// Serves until `stop` is set (or, with `once`, until the first client is done). `log` gets one
/// line per session opened, refused or ended.
pub fn serve(cfg: &ServerConfig, sock: &UdpSocket, stop: &AtomicBool, log: &mut dyn FnMut(&str)) -> Result<ServerStats, String> {
    let clock = Clock::new();
    let mut sessions: BTreeMap<(SocketAddr, u64), Session> = BTreeMap::new();
    let mut stats = ServerStats::default();
    let mut buf = vec![0u8; 65536];
    let mut out = Vec::with_capacity(2048);
    let mut served_any = false;
    while !stop.load(Ordering::Relaxed) {
        let now = clock.now();
        // Timers, sends, idle and finished sessions.
        let mut forget = Vec::new();
        for (&(addr, id), s) in sessions.iter_mut() {
            let local = s.local(now);
            let mut send = |p: &Packet<'_>| {
                encode(p, &mut out);
                let _ = sock.send_to(&out, addr);
            };
            match &mut s.role {
                Role::Receive(r) => {
                    r.on_timers(local, &mut send);
                    if r.is_done() && s.forget_at.is_none() {
                        s.forget_at = Some(now + Time::from_secs(2));
                        stats.finished.push(r.report.clone());
                        log(&ended_line(addr, id, &r.report));
                    }
                }
                Role::Send(x) => {
                    x.on_timers(local);
                    x.poll(local, &mut send);
                    if (x.is_done() || x.drain_expired(local)) && s.forget_at.is_none() {
                        x.abandon(local);
                        s.forget_at = Some(now);
                        stats.finished.push(x.report.clone());
                        log(&ended_line(addr, id, &x.report));
                    }
                }
            }
            if s.forget_at.is_some_and(|t| now >= t) {
                forget.push((addr, id));
            } else if now > s.heard + cfg.idle_timeout {
                stats.idle_closed += 1;
                log(&format!("session {id:016x} from {addr}: silent for {} s, closed", cfg.idle_timeout.as_secs_f64()));
                forget.push((addr, id));
            }
        }
        for k in forget {
            sessions.remove(&k);
        }
        if cfg.once && served_any && sessions.is_empty() {
            break;
        }
        let mut wake = now + Time::from_millis(100);
        for s in sessions.values_mut() {
            let local = s.local(now);
            let t = match &mut s.role {
                Role::Receive(r) => r.next_wake(),
                Role::Send(x) => x.next_wake(local),
            };
            wake = wake.min(s.server_time(t)).min(s.forget_at.unwrap_or(wake));
        }
        let Some((n, addr)) = recv_until(sock, &clock, wake, &mut buf).map_err(|e| e.to_string())? else { continue };
        let now = clock.now();
        let p = match decode(&buf[..n]) {
            Ok(p) => p,
            Err(e) => {
                match e {
                    WireError::Truncated => stats.dropped_truncated += 1,
                    WireError::Foreign => stats.dropped_foreign += 1,
                    WireError::Corrupted => stats.dropped_corrupted += 1,
                    WireError::Malformed => stats.dropped_malformed += 1,
                }
                continue;
            }
        };
        let mut send = |p: &Packet<'_>| {
            encode(p, &mut out);
            let _ = sock.send_to(&out, addr);
        };
        let key = (addr, p.session);
        if let Body::Hello(h) = &p.body {
            if !sessions.contains_key(&key) {
                match admit(cfg, h, p.session, sessions.len(), h.sent) {
                    Ok(role) => {
                        stats.sessions += 1;
                        served_any = true;
                        log(&format!(
                            "session {:016x} from {addr}: {} stream {} of {}, {} s, {}",
                            p.session,
                            crate::transport::from_json(&h.cc_json).map(|c| c.name()).unwrap_or("?"),
                            h.stream + 1,
                            h.streams,
                            h.duration_ms as f64 / 1e3,
                            if h.reverse { "server sends (reverse)" } else { "client sends" }
                        ));
                        let offset = now.0 as i128 - h.sent.0 as i128;
                        sessions.insert(key, Session { role, offset, acked_at: Some(now), heard: now, forget_at: None });
                    }
                    Err(reason) => {
                        stats.refused += 1;
                        log(&format!("session {:016x} from {addr}: refused: {reason}", p.session));
                        send(&Packet { session: p.session, body: Body::HelloAck { ok: false, reason } });
                        continue;
                    }
                }
            }
            // A repeated Hello (its HelloAck was lost): the data will follow this HelloAck.
            if let Some(s) = sessions.get_mut(&key) {
                if s.acked_at.is_some() {
                    s.acked_at = Some(now);
                }
            }
            send(&Packet { session: p.session, body: Body::HelloAck { ok: true, reason: String::new() } });
            continue;
        }
        let Some(s) = sessions.get_mut(&key) else {
            stats.unknown_session += 1;
            continue;
        };
        s.heard = now;
        if let (Body::Data(_), Some(acked), Role::Receive(_)) = (&p.body, s.acked_at, &s.role) {
            s.offset -= ((now - acked).0 / 2) as i128;
            s.acked_at = None;
        }
        let local = s.local(now);
        match &mut s.role {
            Role::Receive(r) => r.on_packet(local, &p.body, &mut send),
            Role::Send(x) => x.on_packet(local, &p.body),
        }
    }
    // Streams that ended in the last moments (their Fin answered, their report not yet taken).
    for (&(addr, id), s) in &sessions {
        if let (Role::Receive(r), None) = (&s.role, s.forget_at) {
            if r.is_done() {
                stats.finished.push(r.report.clone());
                log(&ended_line(addr, id, &r.report));
            }
        }
    }
    Ok(stats)
}

/// Checks a `Hello` against the server's limits and builds its session.
fn admit(cfg: &ServerConfig, h: &Hello, session: u64, open: usize, start: Time) -> Result<Role, String> {
    if let Some(token) = &cfg.token {
        if h.token != *token {
            return Err("wrong or missing token (cclab send --token)".into());
        }
    }
    if open >= cfg.max_sessions {
        return Err(format!("the server holds its maximum of {} sessions; try later", cfg.max_sessions));
    }
    if !(64..=MAX_PAYLOAD as u16).contains(&h.mss) {
        return Err(format!("mss {} is outside 64..={MAX_PAYLOAD}", h.mss));
    }
    let duration = Time::from_millis(h.duration_ms as u64);
    if duration == Time::ZERO || duration > cfg.max_duration {
        return Err(format!("a duration of {} s is outside (0, {}] s", duration.as_secs_f64(), cfg.max_duration.as_secs_f64()));
    }
    let cc = crate::transport::from_json(&h.cc_json).map_err(|e| format!("congestion control: {e}"))?;
    let mss = h.mss as u64;
    Ok(if h.reverse {
        let sender = SenderConfig { mss, rwnd: cfg.rwnd, ..SenderConfig::default() };
        Role::Send(StreamSender::new(session, h.stream, &cc, sender, start, duration, cfg.interval))
    } else {
        let window = (cfg.rwnd / mss).clamp(16, 1 << 20);
        Role::Receive(StreamReceiver::new(session, h.stream, &cc, mss, window, false, start, cfg.interval))
    })
}

fn ended_line(addr: SocketAddr, id: u64, r: &StreamReport) -> String {
    format!(
        "session {id:016x} from {addr}: {} {} bytes in {:.2} s ({:.2} Mbit/s), lost {}, duplicate arrivals {}, corrupted {}, checksum {}",
        if r.sender { "sent and delivered" } else { "received" },
        r.bytes_delivered,
        r.seconds,
        r.bits_per_second() / 1e6,
        r.bytes_lost,
        r.bytes_duplicated,
        r.bytes_corrupted,
        match (r.checksum_ok, r.reliable) {
            (true, _) => "ok",
            (false, true) => "MISMATCH",
            (false, false) => "not comparable (unreliable)",
        }
    )
}

//! The same controller on the same link, simulated and over real sockets.
//!
//! The link here is the test's own user-space emulator on loopback: the data direction
//! serialises datagrams at 10 Mbit/s (the IP and UDP headers counted, as the simulator counts
//! TCP/IP headers) into a drop-tail buffer of one BDP, then delays them 20 ms; ACKs return after
//! 20 ms. The simulator runs the same rate, RTT (40 ms), buffer and controller. Each departure
//! time is computed from the rate (`max(now, previous departure) + size / rate`), so timer
//! lateness delays packets without changing the long-run rate.
//!
//! What should agree: a single flow that fills the buffer delivers close to the link's capacity
//! in both. The tolerance, 10 %, covers what differs by construction: the real run's slow start
//! begins after a real handshake and its timers fire late by up to a scheduler tick on a busy
//! machine, and 8 s of a 10 Mbit/s link hold only 10 MB, so one early loss episode moves the
//! mean by a few per cent.

mod common;

use cc::transport::SenderConfig;
use cc::{CcConfig, Rate, Time};
use common::with_server;
use net::client::{self, ClientConfig};
use net::server::ServerConfig;
use sim::{FlowConfig, LinkConfig, QueueLimit, SimConfig};
use std::collections::VecDeque;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const RATE_BPS: f64 = 10e6;
const ONE_WAY: Duration = Duration::from_millis(20);
/// IPv4 and UDP headers: what a datagram occupies on a link beyond its UDP payload.
const IP_UDP: usize = 28;
const SECS: f64 = 8.0;

/// The emulated link between the client (whichever address writes first) and `server`.
fn link(sock: &UdpSocket, server: SocketAddr, stop: &AtomicBool, buffer_bytes: usize) -> u64 {
    let mut client = None;
    let mut last_departure = Instant::now();
    // (departure, size) of data datagrams not yet serialised: the queue.
    let mut queue: VecDeque<(Instant, usize)> = VecDeque::new();
    let mut queued_bytes = 0usize;
    // (delivery time, datagram, destination), in delivery order per direction.
    let mut data: VecDeque<(Instant, Vec<u8>)> = VecDeque::new();
    let mut acks: VecDeque<(Instant, Vec<u8>, SocketAddr)> = VecDeque::new();
    let mut drops = 0;
    let mut buf = vec![0u8; 65536];
    let deadline = Instant::now() + Duration::from_secs(60);
    while !stop.load(Ordering::Relaxed) && Instant::now() < deadline {
        let now = Instant::now();
        while queue.front().is_some_and(|&(dep, _)| dep <= now) {
            queued_bytes -= queue.pop_front().unwrap().1;
        }
        while data.front().is_some_and(|(at, _)| *at <= now) {
            let (_, d) = data.pop_front().unwrap();
            let _ = sock.send_to(&d, server);
        }
        while acks.front().is_some_and(|(at, _, _)| *at <= now) {
            let (_, d, to) = acks.pop_front().unwrap();
            let _ = sock.send_to(&d, to);
        }
        let next = [data.front().map(|x| x.0), acks.front().map(|x| x.0)].into_iter().flatten().min();
        let wait = next.map_or(Duration::from_millis(5), |t| t.saturating_duration_since(now)).clamp(Duration::from_micros(20), Duration::from_millis(5));
        sock.set_read_timeout(Some(wait)).unwrap();
        let Ok((n, from)) = sock.recv_from(&mut buf) else { continue };
        let now = Instant::now();
        if from == server {
            if let Some(c) = client {
                acks.push_back((now + ONE_WAY, buf[..n].to_vec(), c));
            }
            continue;
        }
        client = Some(from);
        let size = n + IP_UDP;
        if queued_bytes + size > buffer_bytes {
            drops += 1;
            continue;
        }
        let departure = last_departure.max(now) + Duration::from_secs_f64(size as f64 * 8.0 / RATE_BPS);
        last_departure = departure;
        queue.push_back((departure, size));
        queued_bytes += size;
        data.push_back((departure + ONE_WAY, buf[..n].to_vec()));
    }
    drops
}

fn real_goodput(cc: &str) -> (f64, u64) {
    let bdp = (RATE_BPS / 8.0 * 0.040) as usize;
    let cfg = ServerConfig { bind: "127.0.0.1:0".parse().unwrap(), ..ServerConfig::default() };
    let ((report, drops), _) = with_server(cfg, |server| {
        let sock = UdpSocket::bind("127.0.0.1:0").unwrap();
        let addr = sock.local_addr().unwrap();
        let stop = AtomicBool::new(false);
        std::thread::scope(|s| {
            let h = s.spawn(|| link(&sock, server, &stop, bdp));
            let c = ClientConfig {
                server: addr,
                cc: sim::Transport::Tcp(CcConfig::from_name(cc).unwrap()),
                streams: 1,
                duration: Time::from_secs_f64(SECS),
                reverse: false,
                sender: SenderConfig::default(),
                delayed_ack: false,
                interval: Time::from_secs(1),
                token: String::new(),
            };
            let r = client::run(&c, &|_, _| {}).unwrap();
            stop.store(true, Ordering::Relaxed);
            (r, h.join().unwrap())
        })
    });
    let r = &report[0];
    assert!(r.intact(), "{cc}: {r:?}");
    (r.bits_per_second(), drops)
}

fn simulated_goodput(cc: &str) -> f64 {
    let cfg = SimConfig {
        seed: 1,
        duration: Time::from_secs_f64(SECS),
        sample_interval: None,
        link: LinkConfig { rate: Rate::from_bits_per_sec(RATE_BPS), buffer: QueueLimit::Bdp(1.0), ..LinkConfig::default() },
        flows: vec![FlowConfig::new(CcConfig::from_name(cc).unwrap(), Time::from_millis(40))],
    };
    sim::run(cfg).unwrap().summary.flows[0].goodput_bps
}

#[test]
fn cubic_and_bbr_deliver_alike_simulated_and_real() {
    for cc in ["cubic", "bbr"] {
        let (real, drops) = real_goodput(cc);
        let simulated = simulated_goodput(cc);
        eprintln!("{cc}: real {:.2} Mbit/s ({drops} drops at the emulated link), simulated {:.2} Mbit/s", real / 1e6, simulated / 1e6);
        // Payload can never exceed the link: 1448 of every 1448 + 35 + 28 bytes.
        assert!(real <= RATE_BPS * 1448.0 / 1511.0 * 1.01, "{cc}: {real}");
        let ratio = real / simulated;
        assert!((0.9..=1.1).contains(&ratio), "{cc}: real {real:.0} / simulated {simulated:.0} = {ratio:.3}");
    }
}

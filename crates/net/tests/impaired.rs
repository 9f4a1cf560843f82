//! Through an impairing relay (the tests' own, on loopback): 20 % of datagrams lost in each
//! direction, some duplicated, some delayed past later ones (reordered), some with a flipped
//! bit. The stream must still arrive whole: zero bytes lost, zero corrupted, checksums equal.
//!
//! SABUL and UDT are impaired on their data path only: neither model ever repeats a lost ACK.
//! UDT's (`cc::rate::udt::receiver`) takes every full ACK's ACK2 as arriving one RTT later
//! instead of carrying ACK2 back over the network, so once an ACK is lost the receiver never
//! sends that number again and the sender, retransmitting into a receiver that has everything,
//! stalls; in the simulator too (`cclab run --cc udt --rate 100mbit --rtt 2ms --loss 20%
//! --netem-reverse "loss 20%"` delivers about 0.1 Mbit/s). SABUL's (`cc::rate::sabul::receiver`)
//! sends an ACK only when the number advances, so a lost last ACK leaves the end of a transfer
//! unacknowledged for good. Real UDT repeats an ACK whose ACK2 does not come. Model defects that
//! this transport found, not defects of the transport.

mod common;

use cc::rng::{component_rng, Rng};
use cc::transport::SenderConfig;
use cc::Time;
use common::with_server;
use net::client::{self, ClientConfig};
use net::server::ServerConfig;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(Default, Debug)]
struct Counts {
    forwarded: u64,
    dropped: u64,
    duplicated: u64,
    reordered: u64,
    corrupted: u64,
}

/// Relays between the first client that writes to `sock` and `server`, impairing each datagram
/// independently (seeded, so the same run impairs the same way), until `stop`.
/// With `both_ways` false, datagrams from the server pass untouched.
fn relay(sock: &UdpSocket, server: SocketAddr, stop: &AtomicBool, loss: f64, both_ways: bool) -> Counts {
    let mut rng = component_rng(42, 0);
    let mut counts = Counts::default();
    let mut client: Option<SocketAddr> = None;
    let mut held: Vec<(Instant, Vec<u8>, SocketAddr)> = Vec::new();
    let mut buf = vec![0u8; 65536];
    sock.set_read_timeout(Some(Duration::from_micros(200))).unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !stop.load(Ordering::Relaxed) && Instant::now() < deadline {
        let now = Instant::now();
        held.retain(|(at, d, to)| {
            if *at <= now {
                let _ = sock.send_to(d, to);
                false
            } else {
                true
            }
        });
        let Ok((n, from)) = sock.recv_from(&mut buf) else { continue };
        let to = if from == server {
            match client {
                Some(c) => c,
                None => continue,
            }
        } else {
            client = Some(from);
            server
        };
        let mut d = buf[..n].to_vec();
        if from == server && !both_ways {
            let _ = sock.send_to(&d, to);
            continue;
        }
        if rng.random::<f64>() < loss {
            counts.dropped += 1;
            continue;
        }
        if rng.random::<f64>() < 0.02 {
            let at = rng.random_range(0..d.len());
            d[at] ^= 1 << rng.random_range(0..8);
            counts.corrupted += 1;
        }
        if rng.random::<f64>() < 0.05 {
            let _ = sock.send_to(&d, to);
            counts.duplicated += 1;
        }
        if rng.random::<f64>() < 0.05 {
            // Held 1-3 ms: later datagrams overtake it.
            held.push((now + Duration::from_micros(rng.random_range(1000..3000)), d, to));
            counts.reordered += 1;
            continue;
        }
        let _ = sock.send_to(&d, to);
        counts.forwarded += 1;
    }
    counts
}

#[test]
fn every_byte_arrives_once_in_order_through_loss_duplication_reordering_and_corruption() {
    let cfg = ServerConfig { bind: "127.0.0.1:0".parse().unwrap(), ..ServerConfig::default() };
    // The reliable ones: TCP controllers over the sender core, and SABUL and UDT with their own
    // loss reports.
    for (cc, reverse, both_ways) in [("cubic", false, true), ("bbr", false, true), ("reno", true, true), ("sabul", false, false), ("udt", false, false)] {
        let ((reports, counts), stats) = with_server(cfg.clone(), |server| {
            let sock = UdpSocket::bind("127.0.0.1:0").unwrap();
            let relay_addr = sock.local_addr().unwrap();
            let stop = AtomicBool::new(false);
            std::thread::scope(|s| {
                let h = s.spawn(|| relay(&sock, server, &stop, 0.20, both_ways));
                let c = ClientConfig {
                    server: relay_addr,
                    cc: net::transport::from_name(cc).unwrap(),
                    streams: 1,
                    duration: Time::from_millis(1500),
                    reverse,
                    sender: SenderConfig::default(),
                    delayed_ack: false,
                    interval: Time::from_millis(500),
                    token: String::new(),
                };
                let reports = client::run(&c, &|_, _| {});
                stop.store(true, Ordering::Relaxed);
                (reports, h.join().unwrap())
            })
        });
        let r = &reports.unwrap_or_else(|e| panic!("{cc}: {e}"))[0];
        assert!(r.bytes_delivered > 0, "{cc}: {r:?}");
        assert_eq!((r.bytes_lost, r.bytes_corrupted, r.checksum_ok), (0, 0, true), "{cc} reverse={reverse}: {counts:?}");
        // The relay did impair: about 20 % dropped, and some of each other kind.
        let total = counts.forwarded + counts.dropped + counts.reordered;
        let share = counts.dropped as f64 / total as f64;
        assert!((0.15..0.25).contains(&share), "{cc}: dropped {share:.3} of {total}");
        assert!(counts.duplicated > 0 && counts.reordered > 0 && counts.corrupted > 0, "{counts:?}");
        // Corrupted datagrams were caught by the CRC and dropped, at one end or the other.
        let caught = stats.dropped_corrupted + r.dropped_corrupted;
        assert!(caught > 0, "{cc}: no corrupted datagram was caught ({counts:?})");
    }
}

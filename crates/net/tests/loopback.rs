//! End to end on loopback: `serve` in a thread, `send` against it, every byte checked.

use cc::transport::SenderConfig;
use cc::Time;
use net::client::{self, ClientConfig};
use net::report::StreamReport;
use net::server::ServerConfig;

mod common;
use common::with_server;

fn loopback() -> ServerConfig {
    ServerConfig { bind: "127.0.0.1:0".parse().unwrap(), ..ServerConfig::default() }
}

fn client(addr: std::net::SocketAddr, cc: &str, secs: f64) -> ClientConfig {
    ClientConfig {
        server: addr,
        cc: net::transport::from_name(cc).unwrap(),
        streams: 1,
        duration: Time::from_secs_f64(secs),
        reverse: false,
        sender: SenderConfig::default(),
        delayed_ack: false,
        interval: Time::from_millis(250),
        token: String::new(),
    }
}

fn assert_intact(r: &StreamReport) {
    assert!(r.bytes_delivered > 0, "{r:?}");
    assert!(r.intact(), "lost {} corrupted {} checksum {}", r.bytes_lost, r.bytes_corrupted, r.checksum_ok);
}

#[test]
fn a_window_based_and_a_model_based_controller_deliver_every_byte() {
    for cc in ["cubic", "bbr"] {
        let (reports, stats) = with_server(loopback(), |addr| client::run(&client(addr, cc, 1.0), &|_, _| {}).unwrap());
        assert_eq!(reports.len(), 1);
        assert_intact(&reports[0]);
        assert_eq!(reports[0].cc, cc);
        // Four 250 ms intervals in a 1 s run.
        assert!((3..=5).contains(&reports[0].intervals.len()), "{}", reports[0].intervals.len());
        assert_eq!(stats.finished.len(), 1);
        assert!(stats.finished[0].checksum_ok);
    }
}

/// Each datagram protocol with its own feedback on the wire. SABUL and UDT are reliable: every
/// byte arrives. TFRC and CBR are not (what is lost stays lost): TFRC raises its rate until it
/// sees loss, which on loopback comes from the socket buffers, so its losses are only counted
/// (delivered plus lost equals sent); CBR at its default 10 Mbit/s is far below what loopback
/// carries and should lose nothing.
#[test]
fn every_datagram_protocol_runs_with_its_own_feedback() {
    for name in ["sabul", "sabul-2003", "udt", "tfrc", "cbr"] {
        let (reports, stats) = with_server(loopback(), |addr| client::run(&client(addr, name, 1.0), &|_, _| {}).unwrap());
        let r = &reports[0];
        assert_eq!(r.cc, name);
        assert_eq!(r.reliable, name != "tfrc" && name != "cbr");
        assert!(r.intact() && r.bytes_delivered > 0, "{name}: {r:?}");
        if name == "tfrc" {
            let rx = &stats.finished[0];
            assert_eq!(rx.bytes_delivered + rx.bytes_lost, r.bytes_delivered + r.bytes_lost, "{name}: delivered and lost add up to what was sent");
        } else {
            assert_eq!(r.bytes_lost, 0, "{name}");
            assert!(stats.finished[0].checksum_ok, "{name}");
        }
    }
}

#[test]
fn reverse_and_parallel_streams() {
    let (reports, _) = with_server(loopback(), |addr| {
        let mut c = client(addr, "reno", 1.0);
        c.reverse = true;
        c.streams = 3;
        client::run(&c, &|_, _| {}).unwrap()
    });
    assert_eq!(reports.len(), 3);
    for r in &reports {
        assert!(!r.sender);
        assert_intact(r);
    }
}

#[test]
fn a_wrong_token_is_refused_with_the_reason() {
    let cfg = ServerConfig { token: Some("right".into()), ..loopback() };
    let (err, stats) = with_server(cfg, |addr| {
        let mut c = client(addr, "reno", 0.5);
        c.token = "wrong".into();
        client::run(&c, &|_, _| {}).unwrap_err()
    });
    assert!(err.contains("refused") && err.contains("token"), "{err}");
    assert_eq!(stats.refused, 1);
}

/// Sends one datagram to `addr` and returns the first answer, if any arrives within 2 s.
fn exchange(addr: std::net::SocketAddr, datagram: &[u8]) -> Option<Vec<u8>> {
    let sock = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    sock.set_read_timeout(Some(std::time::Duration::from_secs(2))).unwrap();
    sock.send_to(datagram, addr).unwrap();
    let mut buf = vec![0u8; 65536];
    sock.recv_from(&mut buf).ok().map(|(n, _)| buf[..n].to_vec())
}

#[test]
fn an_unknown_algorithm_is_refused_and_garbage_is_counted_and_dropped() {
    use net::wire::{decode, encode, Body, Hello, Packet};
    let (answers, stats) = with_server(loopback(), |addr| {
        let hello = Hello { token: String::new(), sent: Time(1), stream: 0, streams: 1, reverse: false, mss: 1448, duration_ms: 1000, cc_json: "{\"algorithm\":\"nosuch\"}".into() };
        let mut buf = Vec::new();
        encode(&Packet { session: 9, body: Body::Hello(hello) }, &mut buf);
        let refused = exchange(addr, &buf);
        // Garbage, a truncated packet and a packet for no session: no answer, no crash.
        let none = [exchange(addr, b"hello?"), exchange(addr, &buf[..8]), {
            encode(&Packet { session: 77, body: Body::Fin(net::wire::Fin { segments: 1, bytes: 1, crc: 1, retransmits: 0 }) }, &mut buf);
            exchange(addr, &buf)
        }];
        (refused, none)
    });
    let refused = answers.0.expect("the server answers a Hello");
    match decode(&refused).unwrap().body {
        Body::HelloAck { ok: false, reason } => assert!(reason.contains("congestion control"), "{reason}"),
        other => panic!("{other:?}"),
    }
    assert!(answers.1.iter().all(Option::is_none));
    assert_eq!((stats.refused, stats.dropped_foreign, stats.dropped_truncated, stats.unknown_session), (1, 1, 1, 1));
}

#[test]
fn no_server_is_an_error_within_the_handshake_limit() {
    // A port nobody listens on: the handshake gives up after its 15 tries (3 s).
    let sock = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let addr = sock.local_addr().unwrap();
    drop(sock);
    let err = client::run(&client(addr, "reno", 0.5), &|_, _| {}).unwrap_err();
    assert!(err.contains("no answer"), "{err}");
}

#[test]
fn silent_sessions_time_out_and_the_session_limit_holds() {
    use net::wire::{decode, encode, Body, Hello, Packet};
    let cfg = ServerConfig { idle_timeout: Time::from_millis(300), max_sessions: 1, ..loopback() };
    let (answers, stats) = with_server(cfg, |addr| {
        let hello = |session| {
            let h = Hello { token: String::new(), sent: Time(1), stream: 0, streams: 1, reverse: false, mss: 1448, duration_ms: 60_000, cc_json: "{\"algorithm\":\"reno\"}".into() };
            let mut buf = Vec::new();
            encode(&Packet { session, body: Body::Hello(h) }, &mut buf);
            buf
        };
        // One session opens and goes silent; a second is refused while it is held.
        let first = exchange(addr, &hello(1));
        let second = exchange(addr, &hello(2));
        std::thread::sleep(std::time::Duration::from_millis(800));
        // The silent one was closed: room again.
        let third = exchange(addr, &hello(3));
        [first, second, third].map(|a| match decode(&a.expect("an answer")).unwrap().body {
            Body::HelloAck { ok, .. } => ok,
            other => panic!("{other:?}"),
        })
    });
    assert_eq!(answers, [true, false, true]);
    assert!(stats.idle_closed >= 1, "{stats:?}");
    assert_eq!(stats.refused, 1);
}

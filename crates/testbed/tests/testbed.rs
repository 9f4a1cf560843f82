//! The testbed against its configuration: namespaces, the emulator's rate, delay and loss
//! measured from outside it (UDP between the sender and receiver namespaces), and kernel Reno
//! against the link's capacity. These need root; under CI (which runs as root) they never
//! skip. Each test makes its own uniquely named namespaces, bounds its loops by count and
//! time, and removes the namespaces when it ends (also on a failed assertion: `Drop`).

use cc::{CcConfig, Rate, Time};
use sim::{FlowConfig, Netem, QueueLimit, SimConfig};
use std::net::UdpSocket;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use std::os::fd::AsRawFd;
use testbed::emulator::{realtime_ns, recv_stamped, Emulator, EmulatorOutput};
use testbed::netns::{self, Namespaces, RECEIVER_ADDR};
use testbed::run::PORT_BASE;

/// One test at a time: they measure timing, and two on 2 cores would disturb each other.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Whether to run: root, or fail under CI, or skip with a message.
fn can_run() -> Option<std::sync::MutexGuard<'static, ()>> {
    if netns::has_net_admin() {
        return Some(SERIAL.lock().unwrap_or_else(|e| e.into_inner()));
    }
    assert!(std::env::var_os("CI").is_none(), "CI runs as root: the testbed tests must not skip there");
    eprintln!("skipped: the testbed tests need root (CAP_NET_ADMIN)");
    None
}

/// Sleeps until `t0 + at` (returns at once if that has passed).
fn sleep_until(t0: Instant, at: Duration) {
    if let Some(d) = at.checked_sub(t0.elapsed()) {
        std::thread::sleep(d);
    }
}

fn link_cfg(rate_mbit: f64, rtt_ms: u64, netem: &str, duration_s: u64) -> SimConfig {
    let mut cfg = SimConfig {
        seed: 1,
        duration: Time::from_secs(duration_s),
        sample_interval: None,
        link: Default::default(),
        flows: vec![FlowConfig::new(CcConfig::from_name("reno").unwrap(), Time::from_millis(rtt_ms))],
    };
    cfg.link.rate = Rate::from_bits_per_sec(rate_mbit * 1e6);
    cfg.link.buffer = QueueLimit::Packets(1000);
    cfg.link.netem = Netem::parse(netem).unwrap();
    cfg
}

/// Runs the emulator on `cfg` while `traffic` runs (given the namespaces), then stops it.
fn with_emulator<T: Send>(cfg: &SimConfig, traffic: impl FnOnce(&Namespaces) -> T + Send) -> (T, EmulatorOutput) {
    let ns = Namespaces::create().unwrap();
    let ready = AtomicBool::new(false);
    let stop = AtomicBool::new(false);
    let origin = Instant::now();
    let hard_end = cfg.duration + Time::from_secs(5);
    std::thread::scope(|sc| {
        let emu = sc.spawn(|| {
            netns::enter(&ns.emulator).unwrap();
            Emulator::new(cfg, PORT_BASE).run(origin, hard_end, &ready, &stop)
        });
        let t0 = Instant::now();
        while !ready.load(Ordering::Acquire) {
            assert!(t0.elapsed() < Duration::from_secs(5) && !emu.is_finished(), "the emulator did not start");
            std::thread::sleep(Duration::from_millis(1));
        }
        let out = traffic(&ns);
        stop.store(true, Ordering::Relaxed);
        (out, emu.join().unwrap().unwrap())
    })
}

/// A UDP socket bound in namespace `name` (sockets keep the namespace they were made in).
fn udp_in(name: &str, port: u16) -> UdpSocket {
    netns::in_namespace(name, || {
        let s = UdpSocket::bind(("0.0.0.0", port)).unwrap();
        s.set_read_timeout(Some(Duration::from_millis(300))).unwrap();
        s
    })
    .unwrap()
}

#[test]
fn namespaces_have_offloads_off_and_are_removed() {
    let Some(_serial) = can_run() else { return };
    let names;
    {
        let ns = Namespaces::create().unwrap();
        names = [ns.sender.clone(), ns.emulator.clone(), ns.receiver.clone()];
        for (n, dev) in [(&ns.sender, "s"), (&ns.emulator, "e0"), (&ns.emulator, "e1"), (&ns.receiver, "r")] {
            assert!(netns::in_namespace(n, || testbed::ethtool::offloads_are_off(dev)).unwrap().unwrap(), "{n}/{dev}");
        }
        let other = Namespaces::create().unwrap();
        assert_ne!(other.sender, ns.sender, "names are unique per run");
    }
    let list = std::process::Command::new("ip").args(["netns", "list"]).output().unwrap();
    let list = String::from_utf8_lossy(&list.stdout);
    for n in names {
        assert!(!list.contains(&n), "{n} is left: {list}");
    }
}

/// Packets arriving faster than the link serves them leave at the link's rate: 1500-byte
/// packets offered at 24 Mbit/s (paced, 3000 of them) to a 20 Mbit/s link keep its queue
/// busy from the first packet to the last (the backlog grows by 4 Mbit/s and never exceeds
/// the 1000-packet buffer, so none is dropped). The receiver's rate over first-to-last
/// arrival is then the link's rate; the issue asks for 1 %.
#[test]
fn emulator_delivers_the_configured_rate() {
    let Some(_serial) = can_run() else { return };
    let cfg = link_cfg(20.0, 0, "", 10);
    const N: usize = 3000;
    let ((count, span), out) = with_emulator(&cfg, |ns| {
        let rx = udp_in(&ns.receiver, PORT_BASE);
        let tx = udp_in(&ns.sender, 0);
        std::thread::scope(|sc| {
            let r = sc.spawn(move || {
                let mut buf = [0u8; 2048];
                let (mut first, mut last, mut n) = (None, None, 0usize);
                // Bounded: N packets or a 300 ms silence.
                while n < N {
                    let Ok(_) = rx.recv(&mut buf) else { break };
                    let t = Instant::now();
                    first.get_or_insert(t);
                    last = Some(t);
                    n += 1;
                }
                (n, last.unwrap() - first.unwrap())
            });
            let payload = [0u8; 1472];
            let gap = Duration::from_nanos((1500.0 * 8.0 / 24e6 * 1e9) as u64);
            let t0 = Instant::now();
            for k in 0..N {
                sleep_until(t0, gap * k as u32);
                tx.send_to(&payload, (RECEIVER_ADDR, PORT_BASE)).unwrap();
            }
            r.join().unwrap()
        })
    });
    assert_eq!(count, N, "no drops: {:?}", out.report);
    let rate = (N - 1) as f64 * 1500.0 * 8.0 / span.as_secs_f64();
    eprintln!("delivered {rate:.0} bit/s on a 20 Mbit/s link; emulator: {:?}", out.report);
    assert!((rate / 20e6 - 1.0).abs() < 0.01, "{rate}");
    assert_eq!(out.report.socket_drops, 0);
}

/// One-way delay across the link for two flows of different base RTTs (20 ms and 60 ms)
/// sharing it, from the sender's clock just before `send` to the receiver kernel's receive
/// stamp (SO_TIMESTAMPNS; same machine, same CLOCK_REALTIME). The model adds netem delay 30 ms
/// plus half the flow's RTT plus the 128-byte packet's serialisation at 20 Mbit/s (51.2 us):
/// 40.0512 ms and 60.0512 ms. 1000 probes 2 ms apart, 500 per flow, so that a 99th
/// percentile is one (the 10th largest), not the largest.
///
/// - Nothing early: a frame leaves at its due time or later, and the sender's stamp precedes
///   the emulator's receive stamp, so no probe may take less than the model's delay. The
///   slack, 20 us, covers the emulator's conversion between the monotonic and realtime
///   clocks (a sub-microsecond bracket) and NTP slewing them apart (at most 500 ppm of 10 s
///   is 5 us).
/// - The delay the emulator adds: the issue asks for 0.5 ms; each flow's median must be
///   within it.
/// - The tail: what a frame waits beyond its due time is the host's doing (on this VM the
///   forwarder, at real-time priority, still loses its vCPU to the hypervisor for up to 10
///   ms, several times a minute), and the emulator measures that wait for every frame and
///   reports it. A probe's delay beyond the model's, seen from outside, is X = A + B: A the
///   emulator's own timing error for that frame (release time minus due time), B >= 0 the two
///   host stacks' share (the sender's stamp to the emulator's receive stamp, the emulator's
///   release to the receiver's stamp), which the emulator cannot see. Both are over the same
///   1000 frames (the two flows pooled, since one stall delays the two or three probes due
///   in it, whichever flow they belong to). Hence two bounds on the outside 99th percentile:
///   - below: X >= A frame by frame, so p99(X) >= p99(A), the reported value, less the 20 us
///     clock slack above and the histogram's 3 significant digits (0.1 %);
///   - above: P(A + B > max A + b) <= P(B > b), so p99(X) <= max(A) + p99(B). B is two veth
///     hops and a send call, microseconds each; 1 ms for its 99th percentile allows a stall
///     of the stacks in one frame of 100 as well. A fixed 0.5 ms around the reported p99
///     (the earlier form of this check) failed once when stalls of a few ms fell unevenly on
///     A and B: 3.44 ms outside against 2.70 ms reported.
///   So the emulator's account of its accuracy is never more than the truth, and the truth
///   never more than its worst frame plus the stacks' share.
#[test]
fn emulator_adds_the_configured_delay() {
    let Some(_serial) = can_run() else { return };
    let mut cfg = link_cfg(20.0, 20, "delay 30ms", 10);
    cfg.flows.push(FlowConfig::new(CcConfig::from_name("reno").unwrap(), Time::from_millis(60)));
    let serialisation_ms = 128.0 * 8.0 / 20e6 * 1e3;
    const N: usize = 1000;
    const GAP: Duration = Duration::from_millis(2);
    let (delays, out) = with_emulator(&cfg, |ns| {
        let rx: Vec<UdpSocket> = (0..2).map(|i| udp_in(&ns.receiver, PORT_BASE + i)).collect();
        let on: libc::c_int = 1;
        for r in &rx {
            // SAFETY: an int option on a live socket.
            unsafe { libc::setsockopt(r.as_raw_fd(), libc::SOL_SOCKET, libc::SO_TIMESTAMPNS, &on as *const _ as *const _, 4) };
        }
        let tx = udp_in(&ns.sender, 0);
        std::thread::scope(|sc| {
            let r = sc.spawn(move || {
                let mut delays = [Vec::new(), Vec::new()];
                let mut buf = [0u8; 2048];
                let t0 = Instant::now();
                // Bounded: N packets or 8 s (the probes take 2 s, the longest delay 60 ms).
                while delays[0].len() + delays[1].len() < N && t0.elapsed() < Duration::from_secs(8) {
                    let mut idle = true;
                    for (i, sock) in rx.iter().enumerate() {
                        if let Some((n, _, stamp)) = recv_stamped(sock.as_raw_fd(), &mut buf) {
                            let sent = u64::from_be_bytes(buf[..8].try_into().unwrap());
                            assert_eq!(n, 100);
                            delays[i].push((stamp as f64 - sent as f64) / 1e6);
                            idle = false;
                        }
                    }
                    if idle {
                        std::thread::sleep(Duration::from_micros(200));
                    }
                }
                delays
            });
            let t0 = Instant::now();
            for k in 0..N {
                sleep_until(t0, GAP * k as u32);
                let mut probe = [0u8; 100];
                probe[..8].copy_from_slice(&realtime_ns().to_be_bytes());
                tx.send_to(&probe, (RECEIVER_ADDR, PORT_BASE + (k % 2) as u16)).unwrap();
            }
            r.join().unwrap()
        })
    });
    let mut lateness = Vec::with_capacity(N);
    for (i, expected_ms) in [(0, 40.0 + serialisation_ms), (1, 60.0 + serialisation_ms)] {
        let mut sorted = delays[i].clone();
        assert_eq!(sorted.len(), N / 2, "every probe of flow {i} arrived");
        sorted.sort_by(f64::total_cmp);
        let (min, p50) = (sorted[0], sorted[sorted.len() / 2]);
        eprintln!("flow {i}: one-way min {min:.4} ms, p50 {p50:.4} ms, expected {expected_ms:.4} ms");
        assert!(min > expected_ms - 0.02, "flow {i}: a probe took {min} ms, less than the model's {expected_ms}");
        assert!((p50 - expected_ms).abs() < 0.5, "flow {i} p50 {p50}");
        lateness.extend(sorted.iter().map(|d| d - expected_ms));
    }
    lateness.sort_by(f64::total_cmp);
    let p99 = lateness[N * 99 / 100];
    let reported_ms = out.report.timing_error_p99_us / 1e3;
    eprintln!("p99 of the delay beyond the model's: {p99:.4} ms from outside, {reported_ms:.4} ms reported; emulator: {:?}", out.report);
    let worst_ms = out.report.timing_error_max_us / 1e3;
    assert!(p99 >= reported_ms * (1.0 - 1e-3) - 0.02, "p99 lateness {p99} ms from outside, less than the {reported_ms} ms the emulator reports");
    assert!(p99 <= worst_ms + 1.0, "p99 lateness {p99} ms from outside, more than the emulator's worst frame ({worst_ms} ms) plus 1 ms for the stacks");
}

/// netem `loss 5%` on n = 4000 packets well under the link's rate (no queue drops): the
/// number lost is Binomial(n, p). Its standard deviation is sqrt(n p (1-p)) = 13.8 packets;
/// the count must be within 4.5 of them of n p = 200 (a false alarm once in 150 000 runs).
/// The emulator's own count of random drops must equal what the receiver missed.
#[test]
fn emulator_loses_the_configured_fraction() {
    let Some(_serial) = can_run() else { return };
    let cfg = link_cfg(20.0, 0, "loss 5%", 10);
    const N: usize = 4000;
    let (received, out) = with_emulator(&cfg, |ns| {
        let rx = udp_in(&ns.receiver, PORT_BASE);
        let tx = udp_in(&ns.sender, 0);
        std::thread::scope(|sc| {
            let r = sc.spawn(move || {
                let mut buf = [0u8; 2048];
                let mut n = 0usize;
                while n < N && rx.recv(&mut buf).is_ok() {
                    n += 1;
                }
                n
            });
            // 200-byte datagrams every 100 us: 18 Mbit/s of IP packets is below 20 Mbit/s.
            let t0 = Instant::now();
            for k in 0..N {
                sleep_until(t0, Duration::from_micros(100 * k as u64));
                tx.send_to(&[0u8; 200], (RECEIVER_ADDR, PORT_BASE)).unwrap();
            }
            r.join().unwrap()
        })
    });
    let lost = (N - received) as f64;
    let (n, p) = (N as f64, 0.05);
    let sd = (n * p * (1.0 - p)).sqrt();
    eprintln!("lost {lost} of {N} (expected {}, sd {sd:.1}); emulator: {:?}", n * p, out.report);
    assert!((lost - n * p).abs() < 4.5 * sd, "{lost}");
    assert_eq!(out.stats.random_drops as f64, lost);
    assert_eq!(out.stats.overflow_drops, 0);
}

/// Kernel Reno alone on 20 Mbit/s, 20 ms, a one-BDP drop-tail buffer and no random loss, for
/// 4 s. Upper bound: payload cannot beat the link, 20 Mbit/s × 1448/1500 (IP and TCP headers
/// with timestamps) = 19.31 Mbit/s. Lower bound: with a buffer of one BDP, Reno's halved
/// window still fills the pipe, so the link idles only before slow start reaches the BDP
/// (handshake + about 2 RTTs from IW10 to 34 packets: 60 ms) and, at worst, during one
/// retransmission timeout after the slow-start overshoot (Linux's minimum RTO, 200 ms + RTT):
/// 1 - 0.28/4 = 93 %; we ask for 90 % of the payload capacity.
#[test]
fn kernel_reno_fills_a_lossless_link() {
    let Some(_serial) = can_run() else { return };
    let mut cfg = link_cfg(20.0, 20, "", 4);
    cfg.link.buffer = QueueLimit::Bdp(1.0);
    cfg.sample_interval = Some(Time::from_millis(100));
    let t = testbed::run(&testbed::TestbedConfig::from_sim(cfg)).unwrap();
    let s = &t.result.summary;
    let f = &s.flows[0];
    let capacity = 20e6 * 1448.0 / 1500.0;
    eprintln!("reno: goodput {:.0} bit/s ({:.3} of payload capacity), retransmits {}, timeouts {}; link {:?}; emulator {:?}",
        f.goodput_bps, f.goodput_bps / capacity, f.retransmits, f.timeouts, s.link, t.emulator);
    assert_eq!(f.cc, "reno");
    assert!(f.goodput_bps <= capacity * 1.01, "{}", f.goodput_bps);
    assert!(f.goodput_bps >= 0.9 * capacity, "{}", f.goodput_bps);
    assert_eq!(s.link.random_drops, 0);
    let series = t.result.series.as_ref().unwrap();
    assert!(series.flows.len() >= 35 && series.link.len() >= 35, "{} rows", series.flows.len());
    assert!(series.flows.iter().all(|r| r.cwnd.is_some_and(|c| c >= 1.0)));
    assert_eq!(t.emulator.socket_drops, 0);
}

/// ECN through the emulator: step marking (K = BDP/7 by default, DCTCP's guideline) marks
/// ECN-capable frames instead of dropping them, the kernel (net.ipv4.tcp_ecn=1 in the sender's
/// namespace) echoes the marks and Reno halves. With a 2-BDP buffer nothing overflows: the
/// sender reacts one RTT after the first mark, when slow start has at most doubled its window
/// from BDP + K, so the queue peaks below BDP + 2K < 2 BDP. So: marks, no drops, no
/// retransmissions.
#[test]
fn kernel_ecn_sees_marks_instead_of_drops() {
    let Some(_serial) = can_run() else { return };
    let mut cfg = link_cfg(20.0, 40, "", 3);
    cfg.link.buffer = QueueLimit::Bdp(2.0);
    cfg.link.qdisc = sim::QdiscConfig::from_name("step").unwrap();
    cfg.flows[0].sender.ecn = true;
    let t = testbed::run(&testbed::TestbedConfig::from_sim(cfg)).unwrap();
    let s = &t.result.summary;
    eprintln!("ecn: marks {}, drops {}, retransmits {}", s.link.ecn_marks, s.link.drops, s.flows[0].retransmits);
    assert!(s.link.ecn_marks > 0);
    assert_eq!(s.link.drops, 0);
    assert_eq!(s.flows[0].retransmits, 0);
}

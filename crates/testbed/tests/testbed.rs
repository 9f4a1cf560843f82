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

/// Where the queue lies along the path (`access_delay`): two flows with an 80 ms RTT share a
/// 20 Mbit/s link; flow 1's queue is 30 ms from its sender (of its 40 ms forward half), flow
/// 0's at its sender. A 128-byte probe of flow 1 leaves at 0, and 5 ms later a burst of 200
/// 1500-byte packets of flow 0, which takes the link 200 · 0.6 = 120 ms to serialise. The
/// probe reaches the queue at 30 ms, behind the burst, and waits for what is left of it:
/// 120 − (30 − 5) = 95 ms, so it arrives 40 + 95 = 135 ms after it left (more if the burst
/// was late). With the queue at the sender's end instead (no access delay, the control) the
/// probe is ahead of the burst and takes 40 ms. A second probe of flow 1 at 400 ms, when the
/// burst is long gone, takes 40 ms plus its 51.2 us serialisation with or without the access
/// delay: the access delay is part of the forward half, not added to it. Bounds: the
/// hypervisor stalls this VM's threads for up to 10 ms at times (the delay test above), so the
/// probe behind the burst must take more than 40 + 80 ms, the one ahead of it and the late one
/// less than 40 + 15 ms, and none less than the model's 40.0512 ms (less 20 us of clock slack).
#[test]
fn a_queue_along_the_path_is_reached_after_the_access_delay() {
    let Some(_serial) = can_run() else { return };
    let serialisation_ms = 128.0 * 8.0 / 20e6 * 1e3;
    let run = |access_ms: u64| -> [f64; 2] {
        let mut cfg = link_cfg(20.0, 80, "", 3);
        cfg.flows.push(FlowConfig::new(CcConfig::from_name("reno").unwrap(), Time::from_millis(80)));
        cfg.flows[1].access_delay = Time::from_millis(access_ms);
        let (delays, out) = with_emulator(&cfg, |ns| {
            let probes = udp_in(&ns.receiver, PORT_BASE + 1);
            let _burst_sink = udp_in(&ns.receiver, PORT_BASE);
            let on: libc::c_int = 1;
            // SAFETY: an int option on a live socket.
            unsafe { libc::setsockopt(probes.as_raw_fd(), libc::SOL_SOCKET, libc::SO_TIMESTAMPNS, &on as *const _ as *const _, 4) };
            let tx = udp_in(&ns.sender, 0);
            std::thread::scope(|sc| {
                let r = sc.spawn(move || {
                    let mut delays = Vec::new();
                    let mut buf = [0u8; 2048];
                    let t0 = Instant::now();
                    // Bounded: two probes or 2 s.
                    while delays.len() < 2 && t0.elapsed() < Duration::from_secs(2) {
                        match recv_stamped(probes.as_raw_fd(), &mut buf) {
                            Some((_, _, stamp)) => delays.push((stamp as f64 - u64::from_be_bytes(buf[..8].try_into().unwrap()) as f64) / 1e6),
                            None => std::thread::sleep(Duration::from_micros(200)),
                        }
                    }
                    delays
                });
                let probe = || {
                    let mut p = [0u8; 100];
                    p[..8].copy_from_slice(&realtime_ns().to_be_bytes());
                    tx.send_to(&p, (RECEIVER_ADDR, PORT_BASE + 1)).unwrap();
                };
                let t0 = Instant::now();
                probe();
                sleep_until(t0, Duration::from_millis(5));
                for _ in 0..200 {
                    tx.send_to(&[0u8; 1472], (RECEIVER_ADDR, PORT_BASE)).unwrap();
                }
                sleep_until(t0, Duration::from_millis(400));
                probe();
                r.join().unwrap()
            })
        });
        assert_eq!(delays.len(), 2, "both probes arrived: {:?}", out.report);
        assert_eq!(out.stats.overflow_drops, 0, "nothing dropped");
        [delays[0], delays[1]]
    };
    let model = 40.0 + serialisation_ms;
    let [behind, late] = run(30);
    let [ahead, control_late] = run(0);
    eprintln!("probe behind the burst {behind:.3} ms, ahead of it {ahead:.3} ms; late probes {late:.3} / {control_late:.3} ms; model {model:.4} ms");
    assert!(behind > 40.0 + 80.0 && behind < 40.0 + 120.0 + 15.0, "the probe reaches the queue 30 ms out, behind the burst: {behind} ms");
    for (what, d) in [("ahead of the burst", ahead), ("late, with the access delay", late), ("late, without it", control_late)] {
        assert!(d > model - 0.02 && d < 40.0 + 15.0, "{what}: {d} ms against the model's {model} ms");
    }
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
    // The run kept the CPUs awake wherever the PM QoS device is writable (root, a kernel
    // with it), and says so.
    let writable = std::fs::OpenOptions::new().write(true).open("/dev/cpu_dma_latency").is_ok();
    assert_eq!(t.emulator.cpus_kept_awake, writable);
    // Each ACK of a cwnd-limited sender releases a segment: the emulator times the sender's
    // answer for the ACKs data follows before the next ACK, at least a quarter of the
    // segments delivered, and no answer comes before its ACK (two veth hops lie between).
    let e = &t.emulator;
    let segments = f.bytes_delivered / 1448;
    assert!(e.send_latency_samples >= segments / 4, "{} answers timed for {segments} segments", e.send_latency_samples);
    assert!(e.send_latency_p01_us > 0.0 && e.send_latency_p01_us <= e.send_latency_p50_us && e.send_latency_p50_us <= e.send_latency_p99_us, "{e:?}");
}

/// A kernel flow behind an application writing 5 Mbit/s (iperf3's `-b`; `app_rate`) on a
/// 20 Mbit/s, 50 ms link: the sender loop writes one segment's payload every mss / r, so over
/// [1 s, 6 s] the flow delivers the application's rate, to within two segments (one in flight
/// at each end of the span) and 5 ms of writing at each end (how late under load the loop may
/// read TCP_INFO for a sample time or wake for a write), and the link drops nothing (a quarter
/// of its rate).
///
/// The window: Linux grows it in slow start (no loss, so ssthresh stays infinite) only while
/// it is below twice the most segments the flow had out in the round (`tcp_is_cwnd_limited`),
/// by the segments each ACK covers, so it ends at most 2·m + 1 for the most m ever out (an ACK
/// of two arriving at 2·m − 1). The loop reads the most out after every burst of writes and
/// every wake-up; the true most may be above what it read by the segment of the last write,
/// if TCP small queues deferred its transmission past the read, and by an ACK of two arriving
/// between a transmission and the read, so the window stays at or below 2·(m_read + 3) + 1.
/// A loop or emulator stalled by a loaded host lets more out at once and so a larger window;
/// that is the kernel's rule, not a fault (in CI the window went 60 → 64). Without the rule the
/// window would grow by every segment delivered, about 2 160 over the span (as our sender's
/// does with `cwnd_limited_growth` off, sim's `a_window_the_application_does_not_fill_does_not_grow`).
#[test]
fn kernel_reno_behind_a_rate_limited_application_gets_its_rate_and_keeps_its_window() {
    let Some(_serial) = can_run() else { return };
    let app = 5e6;
    let mut cfg = link_cfg(20.0, 50, "", 6);
    cfg.link.buffer = QueueLimit::Bdp(1.0);
    cfg.sample_interval = Some(Time::from_millis(100));
    cfg.flows[0].sender.app_rate = Some(Rate::from_bits_per_sec(app));
    let t = testbed::run(&testbed::TestbedConfig::from_sim(cfg)).unwrap();
    let rows = &t.result.series.as_ref().unwrap().flows;
    let at = |time: f64| rows.iter().filter(|r| r.time <= time + 1e-9).last().unwrap();
    let goodput = (at(6.0).delivered_bytes - at(1.0).delivered_bytes) as f64 * 8.0 / 5.0;
    let allowance = (2.0 * 1448.0 * 8.0 + 2.0 * 0.005 * app) / 5.0;
    let (w1, w6) = (at(1.0).cwnd.unwrap(), at(6.0).cwnd.unwrap());
    let most = t.limits[0].most_unacked;
    let ceiling = (2 * (most + 3) + 1) as f64;
    let delivered = (at(6.0).delivered_bytes - at(1.0).delivered_bytes) / 1448;
    eprintln!("app-limited reno: goodput {goodput:.0} bit/s against {app} (allowance {allowance:.0}); cwnd {w1} at 1 s, {w6} at 6 s, most out {most} (ceiling {ceiling}), {delivered} segments delivered; link {:?}", t.result.summary.link);
    assert!((goodput - app).abs() <= allowance, "goodput {goodput} against the application's {app}");
    assert_eq!(t.result.summary.link.drops, 0);
    assert!(w6 >= w1, "a lossless flow's window shrank: {w1} -> {w6}");
    assert!(w6 <= ceiling, "the kernel grew a window the application did not fill: {w6} above 2 x ({most} + 3) + 1");
    assert!(ceiling < w1 + delivered as f64 / 2.0, "the check cannot tell: most out {most} against {delivered} delivered");
}

/// Seed 002's "Late news!": kernel Reno alone on 20 Mbit/s, 100 ms and a 167-packet buffer,
/// its first drop in slow start, with the queue next to the sender and 50 ms along the path
/// (`access_delay`). The packets behind the drop wait out the full queue (B/C = 100.2 ms),
/// travel on to the receiver and back (RTT − a) and the third duplicate ACK comes two packet
/// times (1.2 ms) after the first, so the sender hears of it RTT + B/C − a + 1.2 ms after it:
/// 201.4 ms at the beginning of the path and 151.4 ms 50 ms along (sharkfest's
/// `drop_position`). Measured from the link's first drop (its count sampled every millisecond
/// by the emulator, on the model's clock) to the first retransmitted segment the emulator
/// receives from the sender (the kernel's receive stamp). Little can make the news early: the
/// model's drop time is exact but its sample labels it up to 1 ms late, and the packet in
/// service when the drop came leaves up to one packet time (0.6 ms) before the law's full B/C,
/// so ours is at least the law less 1.6 ms, asked as 2 ms. What makes it late is
/// the emulator releasing a frame after its due time, which it measures for every frame: the
/// news crosses it twice (the packets behind the drop, then their duplicate ACKs), so ours is
/// at most the law plus twice the run's worst lateness plus 2 ms. Were the access delay
/// ignored, the 50 ms case would come 50 ms after its law (and with the queue wrongly at the
/// receiver's end, the 0 ms case 50 ms before its own). The kernel flow's series, also every
/// millisecond, must cover the run: a row is labelled with the sample time it was read for,
/// never one its loop fell behind.
#[test]
fn kernel_reno_hears_of_a_drop_later_the_nearer_the_sender_it_is() {
    let Some(_serial) = can_run() else { return };
    let news_ms = |access_ms: u64| -> (f64, f64) {
        let mut cfg = link_cfg(20.0, 100, "", 2);
        cfg.link.buffer = QueueLimit::Packets(167);
        cfg.sample_interval = Some(Time::from_millis(1));
        cfg.flows[0].access_delay = Time::from_millis(access_ms);
        // The first data segment that starts below the highest sequence number sent so far.
        let first_retransmission = std::sync::Arc::new(std::sync::Mutex::new((None::<u32>, None::<Time>)));
        let seen = first_retransmission.clone();
        let capture: testbed::emulator::Capture = Box::new(move |at, frame| {
            let Some((seq, len)) = tcp_data_to(frame, PORT_BASE) else { return };
            let mut s = seen.lock().unwrap();
            if s.1.is_none() && len > 0 {
                // Sequence numbers compare modulo 2^32 (RFC 9293 §3.4).
                let before = |a: u32, b: u32| (a.wrapping_sub(b) as i32) < 0;
                let end = seq.wrapping_add(len);
                match s.0 {
                    Some(high) if before(seq, high) => s.1 = Some(at),
                    Some(high) if !before(high, end) => {}
                    _ => s.0 = Some(end),
                }
            }
        });
        let t = testbed::run::run_with_capture(&testbed::TestbedConfig::from_sim(cfg), Some(capture)).unwrap();
        assert_eq!(t.emulator.socket_drops, 0, "every frame reached the model");
        let series = t.result.series.as_ref().unwrap();
        let last = series.flows.last().map_or(0.0, |r| r.time);
        assert!(last >= 2.0 - 0.002, "the kernel's series ends at {last} s of a 2 s run: {:?}", t.sampling);
        let drop = series.link.iter().find(|l| l.drops > 0).expect("slow start overflows the buffer").time;
        let retx = first_retransmission.lock().unwrap().1.expect("the drop is retransmitted").as_secs_f64();
        eprintln!(
            "access {access_ms} ms: first drop {drop:.3} s, first retransmission {retx:.4} s; {:?}; the emulator's frames up to {:.2} ms late (p99 {:.2} ms)",
            t.sampling,
            t.emulator.timing_error_max_us / 1e3,
            t.emulator.timing_error_p99_us / 1e3
        );
        ((retx - drop) * 1e3, t.emulator.timing_error_max_us / 1e3)
    };
    let packet_ms = 1500.0 * 8.0 / 20e6 * 1e3;
    let law = |a: f64| 100.0 + 167.0 * packet_ms - a + 2.0 * packet_ms;
    for a in [0, 50] {
        let ((ours, late), expected) = (news_ms(a), law(a as f64));
        assert!(
            ours >= expected - 2.0 && ours <= expected + 2.0 + 2.0 * late,
            "queue {a} ms along: the news took {ours} ms, the law says {expected} ms (the emulator up to {late} ms late)"
        );
    }
}

/// A TCP segment to `port` in an Ethernet frame (the emulator's own parser,
/// `testbed::frame::parse`): its sequence number and payload length.
fn tcp_data_to(frame: &[u8], port: u16) -> Option<(u32, u32)> {
    let info = testbed::frame::parse(frame).filter(|i| i.dst_port == port)?;
    let ihl = ((frame.get(14)? & 0x0f) as usize) * 4;
    let seq = u32::from_be_bytes(frame.get(14 + ihl + 4..14 + ihl + 8)?.try_into().ok()?);
    Some((seq, info.payload))
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

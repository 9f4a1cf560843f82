//! TFRC and the constant-bit-rate source over a loopback path: seeded Bernoulli drops as packets
//! enter a bottleneck of rate C with a drop-tail buffer, then a fixed one-way delay; feedback
//! returns after the same delay, without loss.
//!
//! - TFRC at random loss p on a link far faster than the equation's rate sends at about
//!   X(p, R) (RFC 5348 §3.1): the loss event rate it measures is close to p when an RTT holds
//!   few packets (losses rarely share an RTT), and the bounds 0.6..1.5 leave room for the
//!   averaging of the loss intervals and the rate's variation.
//! - CBR sends r·T whatever is lost, and its receiver sends nothing.

use cc::datagram::{CtrlMsg, DatagramReceiver, DatagramSender, DgArrival, DgInit};
use cc::rng::{CcRng, Rng};
use cc::cbr::CbrConfig;
use cc::tfrc::TfrcConfig;
use cc::{component_rng, Bytes, Rate, Time};
use std::collections::VecDeque;

struct Path<S, R> {
    now: Time,
    tx: S,
    rx: R,
    /// Bottleneck rate, buffer (packets), one-way delay, Bernoulli drop probability.
    rate: Rate,
    buffer: usize,
    one_way: Time,
    drop_prob: f64,
    rng: CcRng,
    link_free: Time,
    /// Departure times of the packets in the bottleneck (queued or being serialised).
    in_queue: VecDeque<Time>,
    data: VecDeque<(Time, DgArrival)>,
    ctrl: VecDeque<(Time, CtrlMsg)>,
    ctrl_sent: u64,
    random_drops: u64,
    overflow_drops: u64,
}

impl<S: DatagramSender, R: DatagramReceiver> Path<S, R> {
    fn new((tx, rx): (S, R), rate: Rate, one_way: Time, drop_prob: f64, seed: u64) -> Path<S, R> {
        Path {
            now: Time::ZERO,
            tx,
            rx,
            rate,
            buffer: 1000,
            one_way,
            drop_prob,
            rng: component_rng(seed, 7),
            link_free: Time::ZERO,
            in_queue: VecDeque::new(),
            data: VecDeque::new(),
            ctrl: VecDeque::new(),
            ctrl_sent: 0,
            random_drops: 0,
            overflow_drops: 0,
        }
    }

    fn send_due(&mut self) {
        while let Some(p) = self.tx.poll_transmit(self.now) {
            if self.drop_prob > 0.0 && self.rng.random::<f64>() < self.drop_prob {
                self.random_drops += 1;
                continue;
            }
            while self.in_queue.front().is_some_and(|&t| t <= self.now) {
                self.in_queue.pop_front();
            }
            if self.in_queue.len() >= self.buffer {
                self.overflow_drops += 1;
                continue;
            }
            let departure = self.link_free.max(self.now) + self.rate.tx_time(p.len);
            self.link_free = departure;
            self.in_queue.push_back(departure);
            let arrival = DgArrival { seq: p.seq, len: p.len, sent: self.now, ce: false, sender_rtt: p.sender_rtt };
            self.data.push_back((departure + self.one_way, arrival));
        }
    }

    fn feedback(&mut self, out: Vec<CtrlMsg>) {
        self.ctrl_sent += out.len() as u64;
        let at = self.now + self.one_way;
        self.ctrl.extend(out.into_iter().map(|m| (at, m)));
    }

    /// Runs every event before `end`.
    fn run_until(&mut self, end: Time) {
        let mut stalled = 0;
        loop {
            self.send_due();
            let next_data = self.data.front().map(|&(t, _)| t);
            let next_ctrl = self.ctrl.front().map(|&(t, _)| t);
            let (rx_timer, tx_timer) = (self.rx.next_timer(), self.tx.next_timer());
            let next_send = self.tx.next_send_time(self.now);
            let Some(t) = [next_data, next_ctrl, rx_timer, tx_timer, next_send].into_iter().flatten().min() else {
                break;
            };
            if t >= end {
                self.now = end;
                break;
            }
            stalled = if t <= self.now { stalled + 1 } else { 0 };
            assert!(stalled < 1000, "no progress at {:?}", self.now);
            self.now = t.max(self.now);
            let mut out = vec![];
            if next_data == Some(t) {
                let (_, arrival) = self.data.pop_front().unwrap();
                self.rx.on_data(self.now, &arrival, &mut out);
            } else if next_ctrl == Some(t) {
                let (_, msg) = self.ctrl.pop_front().unwrap();
                self.tx.on_control(self.now, &msg);
            } else if rx_timer == Some(t) {
                self.rx.on_timer(self.now, &mut out);
            } else if tx_timer == Some(t) {
                self.tx.on_timer(self.now);
            }
            self.feedback(out);
        }
    }
}

fn init(mss: Bytes) -> DgInit {
    DgInit { mss, data_limit: None, rng: component_rng(1, 1) }
}

/// s = 1460 B, 100 ms RTT, a 100 Mbit/s link (the equation allows 1.3 Mbit/s at 1 % and
/// 0.2 Mbit/s at 10 %), 300 s of which the first 30 s are left out.
#[test]
fn tfrc_sends_at_the_equation_rate_for_random_loss() {
    let s: Bytes = 1460;
    let cfg = TfrcConfig::default();
    let link = Rate::from_bits_per_sec(100e6);
    let one_way = Time::from_millis(50);
    let rtt = one_way + one_way + link.tx_time(s);
    let (warmup, end) = (Time::from_secs(30), Time::from_secs(300));
    for (i, p) in [0.01, 0.03, 0.1].into_iter().enumerate() {
        let mut path = Path::new(cc::tfrc::new_pair(&cfg, init(s)), link, one_way, p, 11 + i as u64);
        path.run_until(warmup);
        let sent0 = path.tx.stats().bytes_sent;
        let received0 = path.rx.packets_received();
        let h = path.rx.loss_history();
        let (events0, lost0) = (h.loss_events(), h.lost_packets());
        path.run_until(end);
        let span = (end - warmup).as_secs_f64();
        let send_rate = (path.tx.stats().bytes_sent - sent0) as f64 / span;
        let goodput = (path.rx.packets_received() - received0) as f64 * s as f64 / span;
        let x_p = cfg.equation().rate(s, rtt, p).bytes_per_sec();
        // Loss events per packet over the measurement: the mean loss event rate.
        let h = path.rx.loss_history();
        let packets = path.rx.packets_received() - received0 + h.lost_packets() - lost0;
        let p_event = (h.loss_events() - events0) as f64 / packets as f64;
        let x_p_event = cfg.equation().rate(s, rtt, p_event).bytes_per_sec();
        let ratio = send_rate / x_p;
        eprintln!(
            "p = {p}: sent {:.1} kbit/s, goodput {:.1} kbit/s, X(p, R) = {:.1} kbit/s, ratio {ratio:.3}; \
             mean loss event rate {p_event:.4}, X(p_event, R) = {:.1} kbit/s; R estimate {:?}; {} reports, {} nofeedback timeouts",
            send_rate * 8e-3,
            goodput * 8e-3,
            x_p * 8e-3,
            x_p_event * 8e-3,
            path.tx.rtt(),
            path.ctrl_sent,
            path.tx.stats().timeouts,
        );
        assert_eq!(path.overflow_drops, 0, "the link must not be the limit");
        assert!((0.6..=1.5).contains(&ratio), "p = {p}: sent at {ratio:.3}·X(p, R)");
        // No retransmissions: every packet sent once.
        assert_eq!(path.tx.stats().retransmits, 0);
        // The RTT estimate is the path's (no queue): within 1 %.
        let r = path.tx.rtt().unwrap().as_secs_f64();
        assert!((r / rtt.as_secs_f64() - 1.0).abs() < 0.01, "R = {r}");
    }
}

/// 2 Mbit/s of 1000 B packets = 250 packets/s: 5000 packets in 20 s, lost or not, and a link
/// at half that rate changes nothing at the sender either.
#[test]
fn cbr_sends_exactly_its_rate_regardless_of_loss() {
    let cfg = CbrConfig { rate_bps: 2_000_000 };
    let end = Time::from_secs(20);
    for (link_bps, p) in [(100e6, 0.0), (100e6, 0.1), (100e6, 0.5), (1e6, 0.0)] {
        let mut path = Path::new(cc::cbr::new_pair(&cfg, init(1000)), Rate::from_bits_per_sec(link_bps), Time::from_millis(50), p, 3);
        path.buffer = 50;
        path.run_until(end);
        let sent = path.tx.stats().packets_sent;
        let received = path.rx.packets_received();
        eprintln!("link {link_bps} bit/s, p = {p}: sent {sent}, received {received}, overflow drops {}", path.overflow_drops);
        assert_eq!(sent, 5000, "link {link_bps}, p = {p}");
        assert_eq!(path.ctrl_sent, 0);
        if link_bps > 2e6 {
            // Packets sent before 19.95 s (minus 80 µs on the link) have arrived: 4988 (0 ms,
            // 4 ms, ..., 19.948 s). Binomial: mean (1 − p)·4988, within 5 standard deviations.
            let mean = (1.0 - p) * 4988.0;
            let sd = (4988.0 * p * (1.0 - p)).sqrt();
            assert!((received as f64 - mean).abs() <= 5.0 * sd + 1.0, "received {received}, expected {mean}");
        } else {
            // The 1 Mbit/s link carries 125 packets/s: 2500 in 20 s, less the last 50 ms in
            // flight, plus at most what its buffer held.
            assert!((2400..=2500).contains(&received), "received {received}");
        }
    }
}

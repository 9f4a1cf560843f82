//! Scenario tests: bounds from theory (BDP, the Mathis law, Jain's index) and from the seeds.

mod common;
use ::sim::{LossSpec, Netem, QueueLimit};
use cc::{Rate, Time};
use common::*;

/// With a buffer of one BDP, Reno's window never falls below the BDP after a halving
/// (W_max = 2·BDP, W_max/2 = BDP), so the link stays busy: utilisation ≥ 0.95 after slow start.
#[test]
fn one_reno_flow_with_a_one_bdp_buffer_keeps_the_link_busy() {
    let r = simulate(1, 60, link(40.0, QueueLimit::Bdp(1.0)), vec![flow("reno", 100)]);
    let u = utilisation_between(&r, 5.0, 60.0);
    assert!(u >= 0.95, "utilisation {u}");
    assert_eq!(r.summary.flows[0].timeouts, 0);
}

/// Mathis et al. (CCR 1997): B = MSS/RTT · sqrt(3/2) / sqrt(p) for Reno with one ACK per
/// segment, on a path where random loss, not the link, limits the window. The law ignores
/// timeouts, which grow with p (Padhye et al. 1998), so the factor 0.6..1.5 is wide on purpose.
#[test]
fn reno_throughput_follows_the_mathis_law() {
    for p in [0.005, 0.01, 0.02] {
        let r = simulate(1, 600, with_loss(link(100.0, QueueLimit::Bdp(2.0)), p), vec![flow("reno", 100)]);
        let f = &r.summary.flows[0];
        let mss_bits = 1448.0 * 8.0;
        let mathis = mss_bits / 0.1 * (1.5f64).sqrt() / p.sqrt();
        let ratio = f.goodput_bps / mathis;
        assert!((0.6..=1.5).contains(&ratio), "p = {p}: goodput {} vs Mathis {mathis} (ratio {ratio})", f.goodput_bps);
    }
}

/// AIMD converges to fairness (Chiu & Jain 1989): five Reno flows with the same RTT.
#[test]
fn five_reno_flows_with_the_same_rtt_share_fairly() {
    let flows = (0..5).map(|_| flow("reno", 100)).collect();
    let r = simulate(3, 120, link(40.0, QueueLimit::Bdp(1.0)), flows);
    assert!(r.summary.jain_index >= 0.95, "Jain {}", r.summary.jain_index);
    let u = utilisation_between(&r, 10.0, 120.0);
    assert!(u >= 0.9, "utilisation {u}");
}

/// Every data packet sent is delivered, dropped, or still in the network at the end.
#[test]
fn packets_are_conserved() {
    let mut l = link(10.0, QueueLimit::Packets(30));
    l.netem = Netem::parse("delay 20ms 10ms 25% loss gemodel 1% 20% 70% 0.1%").unwrap();
    let mut sized = flow("tahoe", 80);
    sized.sender.data_limit = Some(3_000_000);
    let mut nosack = flow("reno", 40);
    nosack.sender.sack = false;
    nosack.start = Time::from_secs(3);
    let mut unlimited = flow("none", 60);
    unlimited.sender.rwnd = 200_000;
    unlimited.stop = Some(Time::from_secs(20));
    let r = simulate(5, 30, l, vec![flow("newreno", 60), sized, nosack, unlimited]);
    let a = &r.summary.accounting;
    assert!(a.sent > 10_000, "{a:?}");
    assert_eq!(a.sent, a.delivered + a.dropped + a.in_network, "{a:?}");
    assert_eq!(a.dropped, r.summary.link.drops);
}

/// The TCP-SACK seed: on 100/10/100 Mbit/s with an RTT of 60 ms, SACK without congestion
/// control (SACKEXP) keeps the pipe full under random loss, where NewReno+SACK halves its
/// window at every loss (seed: 91 % vs 65 % of the lossless goodput at p = 0.1 %).
#[test]
fn sackexp_beats_newreno_under_random_loss() {
    for p in [0.001, 0.01] {
        let goodput = |cc: &str| {
            let mut f = flow(cc, 60);
            f.access_rate = Some(Rate::from_bits_per_sec(100e6));
            let r = simulate(2, 60, with_loss(link(10.0, QueueLimit::Bdp(1.0)), p), vec![f]);
            r.summary.flows[0].goodput_bps
        };
        let (none, newreno) = (goodput("none"), goodput("newreno"));
        assert!(none > newreno, "p = {p}: SACKEXP {none} vs NewReno {newreno}");
    }
}

/// RFC 6582's point: without SACK, several losses in one window cost Reno a timeout (it
/// leaves fast recovery at the first partial ACK), while NewReno retransmits one hole per
/// partial ACK and stays in recovery.
#[test]
fn without_sack_newreno_recovers_bursts_that_time_reno_out() {
    let run = |cc: &str| {
        let mut f = flow(cc, 100);
        f.sender.sack = false;
        let mut l = link(20.0, QueueLimit::Bdp(1.0));
        // Bursts: mean burst length 1/r = 4 packets, half of them lost.
        l.netem.loss = LossSpec::GilbertElliott { p: 0.002, r: 0.25, one_minus_h: 0.5, one_minus_k: 0.0 };
        simulate(4, 120, l, vec![f]).summary.flows[0].clone()
    };
    let (reno, newreno) = (run("reno"), run("newreno"));
    eprintln!("RENO {reno:?}\nNEWRENO {newreno:?}");
    assert!(reno.timeouts > 2 * newreno.timeouts.max(1), "timeouts: Reno {} NewReno {}", reno.timeouts, newreno.timeouts);
    assert!(newreno.goodput_bps > reno.goodput_bps, "goodput: Reno {} NewReno {}", reno.goodput_bps, newreno.goodput_bps);
}

/// Tahoe has no fast recovery: after a loss the window restarts from one segment, where
/// Reno's halves. Tahoe's window grows again on every ACK of the rest of the flight (SACKed
/// segments count as delivered), one packet time (0.3 ms at 40 Mbit/s) apart, so read every
/// 1 ms its window right after a restart is at most 1 + ⌈1/0.3⌉ = 5 segments.
#[test]
fn tahoe_restarts_from_one_segment_where_reno_halves() {
    let min_cwnd_after = |cc: &str| {
        let cfg = ::sim::SimConfig {
            seed: 1,
            duration: cc::Time::from_secs(60),
            sample_interval: Some(cc::Time::from_millis(1)),
            link: with_loss(link(40.0, QueueLimit::Bdp(1.0)), 0.0005),
            flows: vec![flow(cc, 100)],
        };
        let r = ::sim::run(cfg).unwrap();
        let series = &r.series.unwrap().flows;
        let max = series.iter().filter_map(|s| s.cwnd).fold(0.0, f64::max);
        let min = series.iter().filter(|s| s.time > 5.0).filter_map(|s| s.cwnd).fold(f64::MAX, f64::min);
        (min, max)
    };
    let (tahoe_min, _) = min_cwnd_after("tahoe");
    let (reno_min, reno_max) = min_cwnd_after("reno");
    assert!(tahoe_min <= 5.0, "Tahoe's smallest window {tahoe_min}");
    assert!(reno_min >= 4.0 && reno_min < reno_max, "Reno's window {reno_min}..{reno_max}");
}

/// A piecewise-constant rate schedule: the link's mean capacity is the time average of the
/// steps, and a Reno flow follows the steps (the talk's 5 / 2.5 Mbit/s variable link).
#[test]
fn rate_schedule_changes_the_capacity() {
    let mut l = link(5.0, QueueLimit::Bdp(1.0));
    l.schedule = vec![(Time::from_secs(20), Rate::from_bits_per_sec(2.5e6)), (Time::from_secs(40), Rate::from_bits_per_sec(5e6))];
    let r = simulate(1, 60, l, vec![flow("reno", 100)]);
    let cap = r.summary.link.capacity_bps;
    assert!((cap - 12.5e6 / 3.0).abs() < 1.0, "capacity {cap}");
    let low = goodputs_between(&r, 25.0, 40.0)[0];
    let high = goodputs_between(&r, 45.0, 60.0)[0];
    assert!(low <= 2.5e6 && low > 0.8 * 2.5e6, "goodput at 2.5 Mbit/s: {low}");
    assert!(high > 0.8 * 5e6, "goodput at 5 Mbit/s: {high}");
}

/// A sized transfer completes, no sooner than the bytes take to cross the link.
#[test]
fn sized_transfer_completes() {
    let mut f = flow("newreno", 50);
    f.sender.data_limit = Some(5_000_000);
    let r = simulate(1, 30, link(20.0, QueueLimit::Bdp(1.0)), vec![f]);
    let s = &r.summary.flows[0];
    assert_eq!(s.bytes_delivered, 5_000_000);
    let fct = s.completion_time_s.expect("completed");
    let floor = 5_000_000.0 * 8.0 / 20e6 + 0.05;
    assert!(fct >= floor && fct < 3.0 * floor, "completion {fct} s, floor {floor} s");
}

/// TCP's three-way handshake (RFC 9293 §3.5) holds the data back for one base RTT: on a
/// lossless link the same transfer completes exactly one RTT later (its completion time counts
/// from the flow's start, as an application's does from `connect()`), and every packet's
/// timing after that is the same run shifted.
#[test]
fn a_handshake_delays_a_transfer_by_one_round_trip() {
    let run = |handshake: bool| {
        let mut f = flow("newreno", 50);
        f.sender.data_limit = Some(2_000_000);
        f.handshake = handshake;
        simulate(1, 30, link(20.0, QueueLimit::Bdp(1.0)), vec![f]).summary.flows[0].clone()
    };
    let (without, with) = (run(false), run(true));
    let fct = |s: &::sim::FlowSummary| s.completion_time_s.expect("completed");
    assert!((fct(&with) - fct(&without) - 0.050).abs() < 1e-9, "{} against {}", fct(&with), fct(&without));
    assert_eq!((with.bytes_delivered, with.retransmits), (without.bytes_delivered, without.retransmits));
}

/// netem jitter reorders packets (its queue is sorted by departure time); the transfer still
/// works and the receiver sees duplicates only from spurious retransmissions.
#[test]
fn jitter_reorders_but_the_transfer_proceeds() {
    let mut l = link(10.0, QueueLimit::Bdp(2.0));
    l.netem = Netem::parse("delay 20ms 5ms").unwrap();
    let r = simulate(1, 30, l, vec![flow("newreno", 40)]);
    let f = &r.summary.flows[0];
    assert!(f.goodput_bps > 1e6, "{}", f.goodput_bps);
    // RTT spread reflects the ±5 ms jitter around 40 + 20 ms.
    assert!(f.rtt_ms.min >= 55.0 && f.rtt_ms.min < 62.0, "{:?}", f.rtt_ms);
}

/// A rate-limited application (iperf3's `-b`): it writes one segment every mss / r from its
/// first send, so by T it has written ⌊T·r / mss⌋ + 1 segments, and a sender that is never
/// held back by the network delivers them one base RTT (plus serialisation) behind. Reno at
/// 10 Mbit/s on a 40 Mbit/s link: over [1 s, 20 s] goodput is the application's rate to
/// within two segments (one at each end of the span), and the link drops nothing (a quarter
/// of its rate never queues beyond the initial window's burst). Above the link's rate
/// (80 Mbit/s) the application no longer limits and the link is busy, as with a bulk flow.
#[test]
fn a_rate_limited_application_gets_its_rate_and_no_more() {
    let app = 10e6;
    let mut f = flow("reno", 50);
    f.sender.app_rate = Some(Rate::from_bits_per_sec(app));
    let r = simulate(1, 20, link(40.0, QueueLimit::Bdp(1.0)), vec![f.clone()]);
    let g = goodputs_between(&r, 1.0, 20.0)[0];
    let two_segments = 2.0 * 1448.0 * 8.0 / 19.0;
    assert!((g - app).abs() <= two_segments, "goodput {g} against the application's {app}");
    assert_eq!(r.summary.link.drops, 0);
    let written = (20.0 * app / 8.0 / 1448.0).floor() as u64 + 1;
    assert!(r.summary.flows[0].bytes_delivered <= written * 1448, "delivered more than the application wrote");

    f.sender.app_rate = Some(Rate::from_bits_per_sec(2.0 * 40e6));
    let r = simulate(1, 20, link(40.0, QueueLimit::Bdp(1.0)), vec![f]);
    let u = utilisation_between(&r, 5.0, 20.0);
    assert!(u >= 0.95, "an application faster than the link: utilisation {u}");
}

/// Linux's `tcp_is_cwnd_limited` (every `cong_avoid` tests it first): the window grows only
/// while the flow fills it, or in slow start while it is below twice the most outstanding.
/// Reno behind an application writing 5 Mbit/s on a 20 Mbit/s, 100 ms path keeps r·RTT/mss ≈ 43
/// segments in flight once the first round trips' backlog has drained (by 2 s: the window
/// doubles per round trip from 10 while the backlog lasts), never filling the window it
/// reached then; so from 2 s to 20 s the window does not change (no loss: a quarter of the
/// link). With the check off, slow start (ssthresh is never set) adds every delivered
/// segment: the growth over [2 s, 20 s] is the segments delivered then, to within the one
/// in flight at each end of the span.
#[test]
fn a_window_the_application_does_not_fill_does_not_grow() {
    let cwnd_at = |r: &::sim::RunResult, t: f64| {
        r.series.as_ref().unwrap().flows.iter().filter(|s| s.time <= t + 1e-9).last().and_then(|s| s.cwnd).unwrap()
    };
    for check in [true, false] {
        let mut f = flow("reno", 100);
        f.sender.app_rate = Some(Rate::from_bits_per_sec(5e6));
        f.sender.cwnd_limited_growth = check;
        let r = simulate(1, 20, link(20.0, QueueLimit::Bdp(1.0)), vec![f]);
        assert_eq!(r.summary.link.drops, 0);
        let growth = cwnd_at(&r, 20.0) - cwnd_at(&r, 2.0);
        if check {
            assert_eq!(growth, 0.0, "the window grew while the application limited the flow");
            let in_flight = 5e6 * 0.1 / 8.0 / 1448.0;
            assert!(cwnd_at(&r, 20.0) > in_flight, "the window {} is below what is in flight", cwnd_at(&r, 20.0));
        } else {
            let delivered = goodputs_between(&r, 2.0, 20.0)[0] * 18.0 / 8.0 / 1448.0;
            assert!((growth - delivered).abs() <= 2.0, "unchecked slow start grew {growth} segments for {delivered} delivered");
        }
    }
}

/// Where on the path a drop happens: with the bottleneck `a` from the sender (its access
/// delay) and D = rtt/2 each way, a packet dropped at the queue at t₀ was sent at t₀ − a, and
/// the packets behind it carry the news on to the receiver (D − a) and back (D). The sender's
/// whole timeline depends only on the round trip, so it is the same wherever the queue sits:
/// the same packets, sent at the same times, the same fast retransmit; the drop itself
/// happens `a` later, so its news takes exactly `a` less. At least one base RTT − a passes
/// between drop and retransmission (the first packet behind the hole must reach the receiver
/// and its ACK come back). The talk: "with packet drop at the beginning of a path – it's
/// getting worse".
#[test]
fn a_drop_nearer_the_sender_takes_longer_to_be_heard_of() {
    use ::sim::{packet::DataPacket, sink::Discard, tap::{FlowInfo, Tap}, Simulation, SimConfig};
    use std::{cell::RefCell, rc::Rc};
    type Sends = Rc<RefCell<Vec<(Time, u64, bool)>>>;
    struct Sent(Sends);
    impl Tap for Sent {
        fn flow_started(&mut self, _: Time, _: u32, _: &FlowInfo) {}
        fn data_sent(&mut self, now: Time, p: &DataPacket) {
            self.0.borrow_mut().push((now, p.seq, p.retransmission));
        }
        fn feedback_received(&mut self, _: Time, _: u32, _: &::sim::endpoint::Back) {}
    }
    let rtt = Time::from_millis(100);
    // The 60th packet to reach the bottleneck is dropped: sequence 59, a first transmission.
    let run = |access_delay: Time| {
        let mut f = flow("reno", 100);
        f.access_delay = access_delay;
        let mut l = link(20.0, QueueLimit::Bdp(2.0));
        l.drop_packets = vec![60];
        let cfg = SimConfig { seed: 1, duration: Time::from_secs(3), sample_interval: None, link: l, flows: vec![f] };
        let sends: Sends = Rc::default();
        let (r, _, _) = Simulation::new(cfg).unwrap().run_streaming(Box::new(Discard), Some(Box::new(Sent(sends.clone()))), |_| {});
        assert_eq!(r.summary.link.drops, 1);
        let sends = sends.take();
        let sent = sends.iter().find(|s| s.1 == 59 && !s.2).expect("sequence 59 sent").0;
        let retransmitted = sends.iter().find(|s| s.2).expect("the drop repaired").0;
        (sends, sent + access_delay, retransmitted)
    };
    let (near, drop_near, retx_near) = run(Time::ZERO);
    let (far, drop_far, retx_far) = run(Time::from_millis(50));
    assert_eq!(near, far, "the sender's timeline does not depend on where the queue sits");
    assert_eq!(retx_near, retx_far);
    assert_eq!(drop_far - drop_near, Time::from_millis(50));
    let (news_near, news_far) = (retx_near - drop_near, retx_far - drop_far);
    assert_eq!(news_near - news_far, Time::from_millis(50));
    assert!(news_near >= rtt && news_far >= rtt - Time::from_millis(50), "news after {news_near} and {news_far}");
}

/// An access delay beyond the forward half of the RTT is refused, naming the field.
#[test]
fn an_access_delay_longer_than_the_forward_path_is_refused() {
    let mut f = flow("reno", 100);
    f.access_delay = Time::from_millis(51);
    let cfg = ::sim::SimConfig { seed: 1, duration: Time::from_secs(1), sample_interval: None, link: link(20.0, QueueLimit::Bdp(1.0)), flows: vec![f] };
    let e = ::sim::run(cfg).unwrap_err();
    assert!(e.contains("access_delay") && e.contains("rtt/2"), "{e}");
}

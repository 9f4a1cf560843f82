//! Paced chirping (Misund & Briscoe, Netdev 0x13, 2019; `cc::transport::chirp`) in the
//! simulator: the behaviour the paper describes, with bounds from its design.

mod common;

use ::sim::{run, FlowConfig, LinkConfig, QueueLimit, RunResult, SimConfig};
use cc::transport::{ChirpConfig, Startup};
use cc::Time;
use common::{flow, link, utilisation_between};

fn chirping(cc: &str, rtt_ms: u64) -> FlowConfig {
    let mut f = flow(cc, rtt_ms);
    f.sender.startup = Startup::PacedChirping(ChirpConfig::default());
    f
}

fn alone(f: FlowConfig, mbit: f64, buffer: QueueLimit, secs: f64) -> RunResult {
    // One flow alone has no drop-tail phase effects for the send overhead to break, and the
    // overhead would move the paced chirps' gaps (as in the `startup` experiment).
    let link = LinkConfig { send_overhead: Some(Time::ZERO), ..link(mbit, buffer) };
    run(SimConfig {
        seed: 1,
        duration: Time::from_secs_f64(secs),
        sample_interval: Some(Time::from_millis(10)),
        link,
        flows: vec![f],
    })
    .unwrap()
}

/// The state column of the flow's time series, in order, without repeats.
fn states(r: &RunResult) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = r.series.as_ref().unwrap().flows.iter().map(|s| s.state).collect();
    v.dedup();
    v
}

/// On 100 Mbit/s × 50 ms (a BDP of 432 segments, a one-BDP buffer) the chirps find the capacity,
/// the transition paces at it and the controller takes over in congestion avoidance; the queue
/// stays far below the buffer slow start fills (the paper's point), nothing is dropped, and the
/// link is busy within 20 RTTs.
#[test]
fn chirps_hand_over_to_congestion_avoidance_without_filling_the_queue() {
    let r = alone(chirping("reno", 50), 100.0, QueueLimit::Bdp(1.0), 1.5);
    assert_eq!(states(&r), ["chirping", "chirp_transition", "cong_avoid"]);
    let l = &r.summary.link;
    assert_eq!(l.drops, 0);
    // A chirp adds at most 16 packets; the transition's error on top stays well within a
    // quarter of the buffer (slow start fills all 416 packets of it).
    assert!(l.queue_packets.max < 100.0, "{}", l.queue_packets.max);
    assert!(utilisation_between(&r, 1.0, 1.5) > 0.9);
    let slow = alone(flow("reno", 50), 100.0, QueueLimit::Bdp(1.0), 1.5);
    assert!(l.queue_delay_ms.max * 3.0 < slow.summary.link.queue_delay_ms.max);
}

/// Any window-based controller: CUBIC takes over the same way (and then grows by its own law:
/// with no loss yet, Linux caps its growth at 5 % a round trip, which fills the buffer after a
/// second or so; so only the hand-over is checked here).
#[test]
fn cubic_takes_over_from_chirping_too() {
    let r = alone(chirping("cubic", 50), 100.0, QueueLimit::Bdp(1.0), 0.6);
    assert_eq!(states(&r), ["chirping", "chirp_transition", "cong_avoid"]);
    assert_eq!(r.summary.link.drops, 0);
}

/// A loss ends chirping at once (the prototype leaves on loss): with a 5-packet buffer the first
/// chirps already overflow it; the controller takes over, repairs the loss and the transfer
/// completes.
#[test]
fn a_loss_ends_chirping_and_the_controller_recovers() {
    let mut f = chirping("reno", 20);
    f.sender.data_limit = Some(2_000_000);
    let r = alone(f, 10.0, QueueLimit::Packets(5), 10.0);
    assert!(r.summary.link.drops > 0);
    assert!(r.summary.flows[0].completion_time_s.is_some());
    let last = *states(&r).last().unwrap();
    assert!(last != "chirping" && last != "chirp_transition", "{:?}", states(&r));
}

/// A controller with no congestion avoidance to hand over to (BBR) is refused with the field
/// and the allowed ones named.
#[test]
fn chirping_needs_a_controller_that_takes_a_window() {
    let e = ::sim::run(SimConfig {
        seed: 1,
        duration: Time::from_secs(1),
        sample_interval: None,
        link: link(10.0, QueueLimit::Bdp(1.0)),
        flows: vec![chirping("bbr", 20)],
    })
    .unwrap_err();
    assert!(e.contains("flows[0].startup: `paced-chirping` needs a window-based controller"), "{e}");
    assert!(e.contains("reno") && e.contains("cubic"), "{e}");
}

/// Paced chirping behind a slow application (one segment every 58 ms at 200 kbit/s, over a
/// 20 ms path): each segment is acknowledged before the next is written, so nothing is in
/// flight and no ACK is due when the application writes; the sender must wake at the write
/// itself. It delivers what the application writes: over [1 s, 10 s] the application's rate to
/// within two segments (one at each end of the span).
#[test]
fn chirping_behind_a_slow_application_wakes_for_each_write() {
    let mut f = chirping("reno", 20);
    f.sender.app_rate = Some(cc::Rate::from_bits_per_sec(200e3));
    let r = alone(f, 10.0, QueueLimit::Bdp(1.0), 10.0);
    let g = common::goodputs_between(&r, 1.0, 10.0)[0];
    let two_segments = 2.0 * 1448.0 * 8.0 / 9.0;
    assert!((g - 200e3).abs() <= two_segments, "goodput {g} against the application's 200 kbit/s");
}

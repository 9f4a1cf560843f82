//! The host timing noise model (`sim::hostnoise`, issue 16 item 6) in whole runs: off, it
//! changes nothing; on, runs that differ only in their seed differ in how two Reno flows share
//! a drop-tail bottleneck, as runs on real hosts do.

mod common;
use ::sim::{HostNoise, QueueLimit, RunResult};
use common::*;

fn two_renos(seed: u64, noise: HostNoise) -> RunResult {
    let mut l = link(40.0, QueueLimit::Bdp(1.0));
    l.host_noise = noise;
    simulate(seed, 60, l, vec![flow("reno", 100), flow("reno", 100)])
}

fn first_share(r: &RunResult) -> f64 {
    let g: Vec<f64> = r.summary.flows.iter().map(|f| f.goodput_bps).collect();
    g[0] / g.iter().sum::<f64>()
}

#[test]
fn off_is_the_model_free_simulator() {
    let a = two_renos(3, HostNoise::OFF);
    let b = two_renos(3, HostNoise::default());
    assert_eq!(format!("{:?}", a.summary.flows), format!("{:?}", b.summary.flows));
}

/// Two Reno flows on 40 Mbit/s, 100 ms and one BDP of buffer have a sawtooth of about 17 s
/// (the pair's window climbs from one BDP back to two, one segment per RTT each), so a 60 s
/// run holds four loss episodes, slow start's included. Which flow loses in each is all that
/// sets its share, so the share of a run takes one of a few values, and seeds that resolve
/// every episode the same way land on the same share to three decimals. Without host noise
/// the only randomness on this path is the senders' sub-packet send overhead, which rarely
/// changes an episode's outcome: half or more of ten seeds land on one share. The testbed host's
/// measured wake-up latency and stalls (up to 6 ms, tens of packets at this rate) change
/// outcomes, so its most common share holds fewer seeds than without noise. The shares stay
/// those of two equal AIMD flows on average (Chiu and Jain 1989: AIMD converges to the fair
/// share), so their mean is within 0.1 of one half.
#[test]
fn testbed_noise_gives_seeds_their_own_shares() {
    let noise = HostNoise::preset("testbed").unwrap();
    let shares: Vec<f64> = (1..=10).map(|s| first_share(&two_renos(s, noise))).collect();
    let off: Vec<f64> = (1..=10).map(|s| first_share(&two_renos(s, HostNoise::OFF))).collect();
    eprintln!("first flow's share, testbed noise: {shares:.4?}; off: {off:.4?}");
    let episodes = two_renos(1, HostNoise::OFF).summary.flows[0].loss_episodes;
    assert!((3..=6).contains(&episodes), "a 60 s run holds {episodes} loss episodes, not about four");
    // The most seeds whose shares lie within 0.002 of one seed's: the most common outcome.
    let alike = |v: &[f64]| v.iter().map(|a| v.iter().filter(|b| (*b - a).abs() < 0.002).count()).max().unwrap();
    assert!(alike(&off) >= 10 / 2, "without noise half the seeds or more share an outcome: {off:?}");
    assert!(alike(&shares) < alike(&off), "noise {shares:?} against off {off:?}");
    let mean = shares.iter().sum::<f64>() / shares.len() as f64;
    assert!((mean - 0.5).abs() < 0.1, "{shares:?}");
}

/// The phase randomiser's width (`send_overhead`) against a kernel's: Reno alone on 10 Mbit/s,
/// 10 ms and one BDP of buffer (8.3 packets), an ACK per segment. Each ACK releases one packet
/// into the queue, one more once per RTT as the window grows, so a full queue overflows by
/// exactly that one packet and each congestion-avoidance episode drops one, as long as the
/// senders' waits do not bunch packets the ACK clock spaces: a randomiser much narrower than
/// the packet time (1.2 ms), such as the 40 µs over which the testbed's kernel answers an ACK
/// (emulator.json's `send_latency`, 12-53 µs), drops at most one per episode plus slow
/// start's overshoot (at most BDP + B = 17 packets): retransmissions ≤ episodes + 17. The
/// default, a whole packet time, bunches some (a long wait, then a short one behind it) and
/// drops more on every seed.
#[test]
fn a_randomiser_narrower_than_a_packet_time_drops_once_per_episode() {
    let run = |seed: u64, overhead: Option<cc::Time>| {
        let mut l = link(10.0, QueueLimit::Bdp(1.0));
        l.send_overhead = overhead;
        let f = simulate(seed, 30, l, vec![flow("reno", 10)]).summary.flows[0].clone();
        (f.retransmits, f.loss_episodes)
    };
    for seed in 1..=3 {
        let (narrow, episodes) = run(seed, Some(cc::Time::from_micros(40)));
        let (wide, _) = run(seed, None);
        assert!(narrow <= episodes + 17, "seed {seed}: {narrow} drops in {episodes} episodes");
        assert!(wide > narrow, "seed {seed}: a packet-time randomiser drops {wide}, 40 us {narrow}");
    }
}

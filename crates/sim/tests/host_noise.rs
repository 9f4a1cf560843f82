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

/// Without host noise the simulator's only randomness on this path is Floyd and Jacobson's
/// sub-packet ACK jitter, and most seeds land on the same share to three decimals (the issue's
/// 0.506-0.507 on five of six seeds). With the testbed host's measured wake-up latency and
/// stalls, each seed takes its own path: no three of six shares agree to 0.002. The shares
/// stay those of two equal AIMD flows on average (Chiu and Jain 1989: AIMD converges to the
/// fair share), so their mean is within 0.1 of one half.
#[test]
fn testbed_noise_gives_each_seed_its_own_share() {
    let noise = HostNoise::preset("testbed").unwrap();
    let shares: Vec<f64> = (1..=6).map(|s| first_share(&two_renos(s, noise))).collect();
    let off: Vec<f64> = (1..=6).map(|s| first_share(&two_renos(s, HostNoise::OFF))).collect();
    eprintln!("first flow's share, testbed noise: {shares:.3?}; off: {off:.3?}");
    // The most seeds whose shares lie within 0.002 of one seed's.
    let alike = |v: &[f64]| v.iter().map(|a| v.iter().filter(|b| (*b - a).abs() < 0.002).count()).max().unwrap();
    assert!(alike(&off) >= 3, "off: {off:?}");
    assert!(alike(&shares) <= 2, "{shares:?}");
    let mean = shares.iter().sum::<f64>() / 6.0;
    assert!((mean - 0.5).abs() < 0.1, "{shares:?}");
}

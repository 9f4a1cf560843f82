//! Seed 000's three host-discovery workloads on the documented network model
//! (`sim::scan` module documentation): completeness, the mechanism that costs scaled-2007 its
//! advantage (as directions), and the 2007 scaling rule itself. The comparison with the seed's
//! figures, with the one fitted value fitted on one workload and the rest checked on other
//! seeds, is the `nmap-scaling` experiment's.

use cc::scan::{PacketRatio, TimingTemplate, UltraTimingVals, Variant};
use cc::scan::variant::SlowStart;
use cc::Time;
use sim::scan::config::{ANSWER_PA80, ANSWER_PE, ANSWER_PS80};
use sim::scan::{run, ScanConfig, ScanResult};

/// Seed 000's workloads: `nmap -sP` (echo + ACK 80), `-sP -PS` (SYN 80), `-sP -PA22,80,113`.
fn workload(hosts: u32, seed: u64) -> ScanConfig {
    let (up, probes, answers) = match hosts {
        500 => (34, 2, [ANSWER_PE, ANSWER_PA80, 1.0, 1.0]),
        5000 => (148, 1, [ANSWER_PS80, 1.0, 1.0, 1.0]),
        10000 => (452, 3, [ANSWER_PA80; 4]),
        _ => unreachable!(),
    };
    ScanConfig { hosts, up, probes, answer_probability: answers, seed, ..ScanConfig::default() }
}

fn check_complete(r: &ScanResult, hosts: u32) {
    assert!(r.finished, "{hosts} {}: unfinished", r.variant);
    // Every host with a reply that arrived is found, except one whose only replies came after
    // nmap had given up on the probe (a slow host answering just its last try, or a reply after
    // its batch ended): nmap destroys the last try's probe when it gives up, so it misses that
    // host too.
    assert!(r.hosts_found <= r.hosts_reachable, "{hosts} {}", r.variant);
    assert!(r.hosts_found + 2 >= r.hosts_reachable, "{hosts} {}: {} found of {} reachable", r.variant, r.hosts_found, r.hosts_reachable);
    // A host is unreachable only if every reply to it was lost (0.1 % each way).
    assert!(r.hosts_reachable + 3 >= r.hosts_up, "{hosts} {}: {} of {} reachable", r.variant, r.hosts_reachable, r.hosts_up);
}

/// The runs of one workload and variant over `seeds`, each checked to find what it can;
/// `unreachable` replaces the model's share of answering routers.
fn runs(hosts: u32, v: Variant, seeds: std::ops::RangeInclusive<u64>, unreachable: Option<f64>) -> Vec<ScanResult> {
    seeds
        .map(|s| {
            let mut cfg = workload(hosts, s);
            if let Some(u) = unreachable {
                cfg.network.unreachable_fraction = u;
            }
            let r = run(&cfg, v);
            check_complete(&r, hosts);
            r
        })
        .collect()
}

fn mean(rs: &[ScanResult], f: impl Fn(&ScanResult) -> f64) -> f64 {
    rs.iter().map(f).sum::<f64>() / rs.len() as f64
}

/// Mean scan time over `seeds`.
fn mean_time(hosts: u32, v: Variant, seeds: std::ops::RangeInclusive<u64>, unreachable: Option<f64>) -> f64 {
    mean(&runs(hosts, v, seeds, unreachable), |r| r.scan_time_s)
}

/// The mechanism behind seed 000's smaller margins on the larger scans, as directions only (the
/// model's router share is fitted, so no figure of it is asserted): each router unreachable to
/// a retransmission is a drop that halves scaled-2007's group window (the seed's "many more
/// drops"), while unscaled ignores router unreachables. With no answering routers scaled-2007
/// is faster than unscaled on 500 and 5000 addresses (its increments are up to 50 times
/// larger, nothing halves them); with answering routers behind 2 % of the dead addresses (97
/// of the 4852 of the 5000-address sweep) it is slower. Today's scaling, which ignores router
/// unreachables, is faster than unscaled with them too.
#[test]
fn router_unreachables_are_what_costs_scaled_2007_its_advantage() {
    for hosts in [500, 5000] {
        let u0 = mean_time(hosts, Variant::Unscaled, 1..=6, Some(0.0));
        let s0 = mean_time(hosts, Variant::Scaled2007, 1..=6, Some(0.0));
        assert!(s0 < u0, "{hosts}, no answering routers: unscaled {u0:.1} s, scaled-2007 {s0:.1} s");
    }
    let u = mean_time(5000, Variant::Unscaled, 1..=6, Some(0.02));
    let s07 = mean_time(5000, Variant::Scaled2007, 1..=6, Some(0.02));
    let s = mean_time(5000, Variant::Scaled, 1..=6, Some(0.02));
    assert!(s07 > u, "5000, 2 % answering routers: unscaled {u:.1} s, scaled-2007 {s07:.1} s");
    assert!(s < u, "5000, 2 % answering routers: unscaled {u:.1} s, scaled {s:.1} s");
}

#[test]
fn the_2007_group_increment_is_the_unscaled_one_times_min_of_sent_over_replied_and_50() {
    let perf = Variant::Scaled2007.perf(TimingTemplate::T3);
    for (sent, replied) in [(20u64, 1u64), (1930, 34), (100, 40), (5000, 20)] {
        let ratio = PacketRatio { probes_sent: sent, probes_replied_to: replied };
        let s = ratio.cc_scale(&perf);
        assert_eq!(s, (sent as f64 / replied as f64).min(50.0));
        // Congestion avoidance (cwnd 80 above ssthresh 75) and slow start below the cap
        // (cwnd 10, ssthresh 300), for a scan probe (m = 1) and a timing ping (m = 3).
        for (cwnd, ssthresh) in [(80.0, 75), (10.0, 300)] {
            for m in [1.0, 3.0] {
                let start = UltraTimingVals { cwnd, ssthresh, ..UltraTimingVals::new(10.0, &perf, Time::ZERO) };
                let (mut unscaled, mut scaled) = (start, start);
                unscaled.ack(&perf, Some(1.0), m, SlowStart::Capped);
                scaled.ack(&perf, Some(s), m, SlowStart::Capped);
                let (du, ds) = (unscaled.cwnd - cwnd, scaled.cwnd - cwnd);
                assert!((ds - s * du).abs() < 1e-9, "{sent}/{replied}, cwnd {cwnd}, m {m}: {ds} vs {s}·{du}");
            }
        }
    }
}

#[test]
fn the_scan_is_deterministic() {
    let cfg = workload(500, 7);
    let (a, b) = (run(&cfg, Variant::Scaled2007), run(&cfg, Variant::Scaled2007));
    assert_eq!((a.scan_time_s, a.probes_sent, a.group_drops), (b.scan_time_s, b.probes_sent, b.group_drops));
}

/// Prints the three workloads × three variants, averaged over seeds 1..=`N` (default 1), with
/// the share of answering routers from `UNR` and the loss from `LOSS` (defaults the model's),
/// for the workload of `ONLY` addresses if set, e.g.
/// `N=8 UNR=0.0015 LOSS=0.001 cargo test --release -p sim --test scan -- --ignored --nocapture`.
#[test]
#[ignore]
fn explore() {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<f64>().ok());
    let n = env("N").unwrap_or(1.0) as u64;
    for hosts in [500, 5000, 10000] {
        for v in Variant::ALL {
            let (mut t, mut drops, mut median, mut cwnd) = (0.0, 0.0, 0.0, 0.0);
            if env("ONLY").is_some_and(|h| h as u32 != hosts) {
                continue;
            }
            for seed in 1..=n {
                let mut cfg = workload(hosts, seed);
                if let Some(u) = env("UNR") {
                    cfg.network.unreachable_fraction = u;
                }
                if let Some(l) = env("LOSS") {
                    cfg.network.loss = l;
                }
                let r = run(&cfg, v);
                t += r.scan_time_s;
                drops += r.group_drops as f64;
                median += r.packet_ratio.median;
                cwnd += r.mean_group_cwnd;
            }
            let k = n as f64;
            println!(
                "{hosts:5} {v:12} time {:8.1} s  group drops {:6.1}  packet_ratio median {:5.1}  mean group cwnd {:5.1}",
                t / k,
                drops / k,
                median / k,
                cwnd / k
            );
        }
    }
}

//! Seed 000's three host-discovery workloads on the documented network model
//! (`sim::scan` module documentation): completeness, the speed ordering the model gives, and
//! the 2007 scaling rule itself.

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
    // A host is unreachable only if every reply to it was lost (1 % each way).
    assert!(r.hosts_reachable + 3 >= r.hosts_up, "{hosts} {}: {} of {} reachable", r.variant, r.hosts_reachable, r.hosts_up);
}

fn mean_time(hosts: u32, v: Variant, seeds: std::ops::RangeInclusive<u64>, unreachable: f64) -> f64 {
    let n = seeds.clone().count() as f64;
    seeds
        .map(|s| {
            let mut cfg = workload(hosts, s);
            cfg.network.unreachable_fraction = unreachable;
            let r = run(&cfg, v);
            check_complete(&r, hosts);
            r.scan_time_s
        })
        .sum::<f64>()
        / n
}

#[test]
fn the_10000_address_scan_finds_every_reachable_host_and_scaled_2007_is_faster() {
    let r: Vec<ScanResult> = Variant::ALL.iter().map(|&v| run(&workload(10000, 1), v)).collect();
    for x in &r {
        check_complete(x, 10000);
    }
    let (u, s07) = (r[0].scan_time_s, r[1].scan_time_s);
    assert!(s07 * 1.25 < u, "seed: 1984 s unscaled, 1586 s scaled; ours {u:.0} s, {s07:.0} s");
    // The seed's packet_ratio median (58.84) is what the unreachable fraction was fitted to.
    let m = r[1].packet_ratio.median;
    assert!((40.0..80.0).contains(&m), "scaled-2007 packet_ratio median {m}");
}

#[test]
fn on_the_small_scans_router_unreachables_cost_scaled_2007_its_advantage() {
    // Averaged over seeds (one scan varies by ±30 %). With the documented 1 % of answering
    // routers, scaled-2007 ties unscaled on 500 and 5000 addresses (the seed measured it 2× and
    // 1.16× faster); without them, the scaling wins clearly, so the drops are what costs it.
    for hosts in [500, 5000] {
        let u = mean_time(hosts, Variant::Unscaled, 1..=6, 0.01);
        let s07 = mean_time(hosts, Variant::Scaled2007, 1..=6, 0.01);
        assert!((0.7..1.4).contains(&(s07 / u)), "{hosts}: unscaled {u:.1} s, scaled-2007 {s07:.1} s");
        let u0 = mean_time(hosts, Variant::Unscaled, 1..=6, 0.0);
        let s0 = mean_time(hosts, Variant::Scaled2007, 1..=6, 0.0);
        assert!(s0 * 2.0 < u0, "{hosts}, no answering routers: unscaled {u0:.1} s, scaled-2007 {s0:.1} s");
    }
    // Today's scaling (which ignores router unreachables) is the fastest on both.
    for hosts in [500, 5000] {
        let u = mean_time(hosts, Variant::Unscaled, 1..=3, 0.01);
        let s = mean_time(hosts, Variant::Scaled, 1..=3, 0.01);
        assert!(s * 1.5 < u, "{hosts}: unscaled {u:.1} s, scaled {s:.1} s");
    }
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

/// Prints the three workloads × three variants, averaged over `N` seeds (default 1), with the
/// unreachable fraction from `UNR` (default the model's):
/// `N=10 cargo test --release -p sim --test scan -- --ignored --nocapture`.
#[test]
#[ignore]
fn explore() {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<f64>().ok());
    let n = env("N").unwrap_or(1.0) as u64;
    for hosts in [500, 5000, 10000] {
        for v in Variant::ALL {
            let (mut t, mut drops, mut median, mut cwnd) = (0.0, 0.0, 0.0, 0.0);
            for seed in 1..=n {
                let mut cfg = workload(hosts, seed);
                if let Some(u) = env("UNR") {
                    cfg.network.unreachable_fraction = u;
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

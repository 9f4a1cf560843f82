use cc::scan::Variant;
use sim::scan::{run, ScanConfig};

#[test]
#[ignore]
fn explore() {
    let env = |k: &str, d: f64| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
    let cases = [(500u32, 34u32, 2u8), (5000, 148, 1), (10000, 452, 3)];
    for (hosts, up, probes) in cases {
        for v in Variant::ALL {
            let mut cfg = ScanConfig { hosts, up, probes, ..ScanConfig::default() };
            cfg.network.unreachable_fraction = env("UNR", 0.1);
            cfg.network.arp_drops_first = env("ARP", 1.0) > 0.0;
            cfg.network.loss = env("LOSS", 0.01);
            cfg.seed = env("SEED", 1.0) as u64;
            let t = std::time::Instant::now();
            let r = run(&cfg, v);
            println!(
                "{hosts:5} {v:12} t={:8.1} sent={:6} found={}/{}/{} ratio={:.1}/{:.1}/{:.1}/{:.1}/{:.1}/{:.1} n={} drops={} retr={} pings={} pto={} hostdrops={} unr={} cwnd={:.1} to={:.2} wall={:.2}",
                r.scan_time_s, r.probes_sent, r.hosts_found, r.hosts_reachable, r.hosts_up,
                r.packet_ratio.min, r.packet_ratio.q1, r.packet_ratio.median, r.packet_ratio.mean, r.packet_ratio.q3, r.packet_ratio.max,
                r.packet_ratio.samples, r.group_drops, r.retransmissions, r.pings_sent, r.ping_timeouts, r.host_drops, r.unreachables_received, r.mean_group_cwnd, r.mean_group_timeout_s, t.elapsed().as_secs_f64()
            );
        }
    }
}

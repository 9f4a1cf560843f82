use cc::scan::Variant;
use sim::scan::{run, ScanConfig};

#[test]
#[ignore]
fn explore() {
    let env = |k: &str, d: f64| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
    let cases = [(500u32, 34u32, 2u8), (5000, 148, 1), (10000, 452, 3)];
    for (hosts, up, probes) in cases {
        if std::env::var("ONLY").map_or(false, |o| o != hosts.to_string()) { continue; }
        for v in Variant::ALL {
            if std::env::var("VAR").map_or(false, |o| o != v.name()) { continue; }
            let mut cfg = ScanConfig { hosts, up, probes, ..ScanConfig::default() };
            use sim::scan::config::*;
            cfg.answer_probability = match hosts { 500 => [ANSWER_PE, ANSWER_PA80, 1.0, 1.0], 5000 => [ANSWER_PS80, 1.0, 1.0, 1.0], _ => [ANSWER_PA80; 4] };
            if env("PALL", 0.0) > 0.0 { cfg.answer_probability = [1.0; 4]; }
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

#[test]
#[ignore]
fn seeds() {
    use sim::scan::config::*;
    let env = |k: &str, d: f64| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
    let n = env("N", 10.0) as u64;
    let cases = [(500u32, 34u32, 2u8), (5000, 148, 1), (10000, 452, 3)];
    for (hosts, up, probes) in cases {
        if std::env::var("ONLY").map_or(false, |o| !o.split(',').any(|x| x == hosts.to_string())) { continue; }
        let mut line = format!("{hosts:5}");
        for v in Variant::ALL {
            let (mut t, mut d, mut r) = (0.0, 0.0, 0.0);
            for seed in 1..=n {
                let mut cfg = ScanConfig { hosts, up, probes, seed, ..ScanConfig::default() };
                cfg.answer_probability = match hosts { 500 => [ANSWER_PE, ANSWER_PA80, 1.0, 1.0], 5000 => [ANSWER_PS80, 1.0, 1.0, 1.0], _ => [ANSWER_PA80; 4] };
                cfg.network.unreachable_fraction = env("UNR", 0.01);
                let x = run(&cfg, v);
                t += x.scan_time_s; d += x.group_drops as f64; r += x.packet_ratio.median;
            }
            let k = n as f64;
            line += &format!(" | {} t={:.1} drops={:.1} med={:.1}", v.name(), t / k, d / k, r / k);
        }
        println!("{line}");
    }
}

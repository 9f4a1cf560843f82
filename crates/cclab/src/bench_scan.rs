//! `cclab bench`'s scan cases: nmap host discovery ([`sim::scan::run`]) on the seed's largest
//! workload, as the `nmap-scaling` experiment runs it, with nmap's rule and with TCP's rule
//! (whose scans last some 25,000 simulated seconds of polling a window of one probe). They run
//! in this process, one after another: the figure is one core's speed.

use cc::scan::Variant;
use serde::Serialize;
use sim::scan::ScanConfig;
use std::time::Instant;

#[derive(Debug, Serialize)]
pub struct ScanBench {
    pub name: String,
    pub what: String,
    /// Every packet the scanner sent.
    pub probes_sent: u64,
    pub sim_s: f64,
    pub wall_s: f64,
    pub probes_per_s: f64,
}

/// The seed's 10000-address scan (452 up, three ACK probe types), scaled-2007, seed 1.
fn seed_10000(unanswered_is_drop: bool) -> ScanConfig {
    ScanConfig { hosts: 10_000, up: 452, probes: 3, seed: 1, unanswered_is_drop, ..ScanConfig::default() }
}

/// Runs the cases whose names contain `only` (all without it).
pub fn scan_cases(only: Option<&str>, quiet: bool) -> Vec<ScanBench> {
    let cases = [
        ("scan-10000", "nmap -sP of 10000 addresses (452 up), scaled-2007", seed_10000(false)),
        ("scan-10000-tcp", "the same with TCP's rule (--unanswered-is-drop)", seed_10000(true)),
    ];
    let mut out = Vec::new();
    for (name, what, cfg) in cases {
        if only.is_some_and(|o| !name.contains(o)) {
            continue;
        }
        if !quiet {
            eprintln!("running {name}: {what} ...");
        }
        let start = Instant::now();
        let r = sim::scan::run(&cfg, Variant::Scaled2007);
        let wall_s = start.elapsed().as_secs_f64();
        out.push(ScanBench { name: name.into(), what: what.into(), probes_sent: r.probes_sent, sim_s: r.scan_time_s, wall_s, probes_per_s: r.probes_sent as f64 / wall_s });
    }
    out
}

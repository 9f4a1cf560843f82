//! `nmap-scaling`: seed 000's three host-discovery benchmarks, unscaled against the
//! response-rate-scaled group window (and nmap's current scaling), on cclab's model of random
//! Internet addresses ([`sim::scan::ScanNetwork::default`]).

use super::{Comparison, Options, Output, Table};
use crate::scan_cmd;
use crate::UserError;
use cc::scan::Variant;
use sim::scan::config::{ANSWER_PA80, ANSWER_PE, ANSWER_PS80};
use sim::scan::{ScanConfig, ScanResult};

pub const DESCRIPTION: &str = "Seed 000 (nmap's ResponseRateScaledCongestionControl page) timed three \
host discoveries of random addresses: 500 addresses with 34 up, 5000 with 148 and 10000 with 452, \
before and after scaling the group window's increments by probes_sent / probes_replied_to. We run \
the same three workloads under the unscaled, scaled-2007 (the seed's) and scaled (nmap today) \
variants on one documented network model (log-normal RTTs, 1 % loss, up hosts answering each probe \
type as often as the Nmap book's Table 3.2 says, 1 % of dead addresses behind routers that send \
rate-limited ICMP unreachables after an ARP drop, a fraction fitted to the seed's packet_ratio) and \
print the scan times and the packet_ratio statistics beside the seed's.";

/// The seed's workloads: addresses, hosts up, probe types (`-sP` as root: echo + TCP ACK; `-PS`:
/// one SYN probe; `-PA22,80,113`: three ACK probes), and its scan times unscaled / scaled.
pub const WORKLOADS: [(u32, u32, u8, f64, f64); 3] =
    [(500, 34, 2, 65.627, 33.121), (5000, 148, 1, 226.944, 195.556), (10000, 452, 3, 1984.355, 1586.226)];

/// How often an up host answers each probe type of a workload (Nmap book, Table 3.2: `-PE`,
/// `-PA80` and `-PS80`; the ACK probes to ports 22 and 113 are taken to behave like `-PA80`).
pub fn answer_probability(probes: u8) -> [f64; 4] {
    match probes {
        2 => [ANSWER_PE, ANSWER_PA80, 1.0, 1.0],
        1 => [ANSWER_PS80, 1.0, 1.0, 1.0],
        _ => [ANSWER_PA80; 4],
    }
}

/// The seed's packet_ratio summary of the 10 000-host scan: min, q1, median, mean, q3, max.
pub const SEED_RATIO_10000: [f64; 6] = [17.29, 51.19, 58.84, 57.04, 63.30, 105.00];

pub fn run(opts: &Options) -> Result<Output, UserError> {
    let mut out = Output::default();
    // Each workload is one simulated scan of a few seconds' computing: fast mode runs them all.
    let workloads: &[_] = &WORKLOADS;
    let mut times = Table::new(
        "scan time, ours beside the seed's",
        &["addresses", "up", "probes", "unscaled", "scaled-2007", "scaled", "seed unscaled", "seed scaled", "our speed-up", "seed's speed-up"],
    );
    for &(hosts, up, probes, seed_unscaled, seed_scaled) in workloads {
        let cfg = ScanConfig { hosts, up, probes, answer_probability: answer_probability(probes), ..ScanConfig::default() };
        let results: Vec<ScanResult> = Variant::ALL.iter().map(|&v| sim::scan::run(&cfg, v)).collect();
        let t = |v: Variant| results.iter().find(|r| r.variant == v.name()).map_or(f64::NAN, |r| r.scan_time_s);
        let (u, s07, s) = (t(Variant::Unscaled), t(Variant::Scaled2007), t(Variant::Scaled));
        times.row(vec![
            hosts.to_string(),
            up.to_string(),
            probes.to_string(),
            format!("{u:.1} s"),
            format!("{s07:.1} s"),
            format!("{s:.1} s"),
            format!("{seed_unscaled:.1} s"),
            format!("{seed_scaled:.1} s"),
            format!("{:.2}", u / s07),
            format!("{:.2}", seed_unscaled / seed_scaled),
        ]);
        out.comparisons.push(Comparison {
            metric: format!("{hosts} addresses: unscaled / scaled-2007 scan time"),
            ours: u / s07,
            seed: seed_unscaled / seed_scaled,
            tolerance: 0.5,
            unit: "".into(),
        });
        out.tables.push(scan_cmd::table(&format!("{hosts} addresses, {up} up, {probes} probe types"), &results));
        if hosts == 10000 {
            // The seed's ratio comes from its scaled run (values above the 50 cap, which came with
            // the merge), whose denominator counts ICMP unreachables: compare with scaled-2007.
            if let Some(r) = results.iter().find(|r| r.variant == Variant::Scaled2007.name()) {
                let ours = [r.packet_ratio.min, r.packet_ratio.q1, r.packet_ratio.median, r.packet_ratio.mean, r.packet_ratio.q3, r.packet_ratio.max];
                for (name, (o, s)) in ["min", "q1", "median", "mean", "q3", "max"].iter().zip(ours.iter().zip(SEED_RATIO_10000)) {
                    out.comparisons.push(Comparison {
                        metric: format!("10000 addresses, scaled-2007: packet_ratio {name}"),
                        ours: *o,
                        seed: s,
                        tolerance: 0.5,
                        unit: "".into(),
                    });
                }
            }
        }
    }
    out.tables.insert(0, times);
    out.notes.push(
        "The seed's networks are real Internet paths we cannot see; our times come from one model \
         of them, so compare the direction and rough size of the speed-up, not the seconds."
            .into(),
    );
    out.notes.push(
        "The fraction of dead addresses whose router answers (1 %) was fitted to the seed's packet_ratio \
         median of the 10000-address scan, not to the scan times. On this model scaled-2007 beats \
         unscaled on the 10000-address scan, as in the seed, but only ties it on 500 and 5000 addresses \
         (averaged over seeds; one seed varies by about 30 %): each router unreachable to a \
         retransmission halves the group window (the seed's \"many more drops\"), and with few up hosts \
         the scaled increments do not win it back faster than unscaled grows. Without answering routers \
         scaled-2007 is 2.7x and 4x faster there. See the module documentation of sim::scan."
            .into(),
    );
    if opts.fast {
        out.notes.push("Fast mode runs the same three scans: each takes seconds to simulate.".into());
    }
    Ok(out)
}

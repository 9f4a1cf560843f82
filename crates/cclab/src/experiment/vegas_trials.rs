//! `vegas-trials`: the modified-Vegas seed's six netem trials, Reno, Vegas and mVegas, five
//! runs each, laid out like the seed's tables (min, median, max, mean, standard deviation).

use super::{run_one, Claim, Options, Output, Table};
use crate::UserError;
use cc::{CcConfig, Rate, Time};
use sim::{FlowConfig, LinkConfig, Netem, QueueLimit, SimConfig};

pub const DESCRIPTION: &str = "The seed ran iperf (10 s, default options) between two virtual machines on one \
host, with netem on the iperf *server*, which is the receiver: its egress carries the ACKs, so the \
netem delay and loss applied to the return path, not to the data. We model that testbed as a \
300 Mbit/s path (the seed's Reno reaches 290 Mbit/s) with a 0.2 ms base RTT, a 1000-packet queue \
(txqueuelen), a 128 KiB receive window (the seed's Reno gets 11.4 Mbit/s at 100 ms: about 140 KB \
per RTT) and netem on the return path. Trial 2's delay was lost from the seed's text; since its Reno \
still reached 300 Mbit/s with the window that held trial 3 to 11.4 Mbit/s, the delay must have been \
under about 3.5 ms: we use 1 ms. \
Runs differ by their seed; without randomness in a trial, the five runs are identical.";

/// (trial, netem options on the return path, the seed's mean Mbit/s for Reno, Vegas, mVegas).
const TRIALS: &[(u32, &str, [f64; 3])] = &[
    (1, "", [290.0, 289.0, 94.5]),
    (2, "delay 1ms", [299.8, 300.2, 40.42]),
    (3, "delay 100ms", [11.4, 7.41, 7.37]),
    (4, "loss 0.1%", [288.0, 288.0, 93.7]),
    (5, "loss 1%", [288.0, 92.7, 93.3]),
    (6, "delay 100ms 10ms 25% loss 0.1%", [10.5, 8.45, 10.3]),
];

const ALGOS: [(&str, &str); 3] = [("reno", "Reno"), ("vegas", "Vegas"), ("mvegas", "mVegas")];

fn stats(xs: &[f64]) -> (f64, f64, f64, f64, f64) {
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let sd = if v.len() > 1 { (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt() } else { 0.0 };
    let k = v.len() / 2;
    let median = if v.len() % 2 == 0 { (v[k - 1] + v[k]) / 2.0 } else { v[k] };
    (v[0], median, v[v.len() - 1], mean, sd)
}

pub fn run(opts: &Options) -> Result<Output, UserError> {
    let runs = if opts.fast { 2 } else { 5 };
    let trials: Vec<_> = if opts.fast { TRIALS.iter().filter(|t| [1, 3, 5].contains(&t.0)).collect() } else { TRIALS.iter().collect() };
    let mut out = Output::default();
    let mut summary = Table::new("means, ours beside the seed's (Mbit/s)", &["trial", "netem (return path)", "Reno", "Vegas", "mVegas"]);
    for &&(trial, netem, seed_means) in &trials {
        let mut t = Table::new(&format!("trial {trial}: netem {}", if netem.is_empty() { "none" } else { netem }), &["run", "Reno", "Vegas", "mVegas"]);
        let mut per_algo: Vec<Vec<f64>> = vec![Vec::new(); 3];
        for run in 1..=runs {
            let mut row = vec![run.to_string()];
            for (k, (cc, _)) in ALGOS.iter().enumerate() {
                let mut f = FlowConfig::new(CcConfig::from_name(cc).expect("known"), Time::from_micros(200));
                f.sender.rwnd = 128 << 10;
                let cfg = SimConfig {
                    seed: run as u64,
                    duration: Time::from_secs(10),
                    sample_interval: Some(Time::from_millis(100)),
                    link: LinkConfig {
                        rate: Rate::from_bits_per_sec(300e6),
                        buffer: QueueLimit::Packets(1000),
                        reverse_netem: Netem::parse(netem).map_err(UserError)?,
                        ..LinkConfig::default()
                    },
                    flows: vec![f],
                };
                let dir = opts.out.join(format!("trial-{trial}/{cc}/run-{run}"));
                let r = run_one(cfg, &dir)?;
                if run == 1 && trial == 1 {
                    out.plot_run(&format!("{cc}, trial {trial}, run 1"), &dir, &r)?;
                }
                let mbps = r.summary.flows[0].goodput_bps / 1e6;
                per_algo[k].push(mbps);
                row.push(format!("{mbps:.2}"));
            }
            t.row(row);
        }
        let all: Vec<[f64; 5]> = per_algo.iter().map(|xs| stats(xs)).map(|s| [s.0, s.1, s.2, s.3, s.4]).collect();
        for (label, pick) in [("min", 0), ("median", 1), ("max", 2), ("ave", 3), ("stddev", 4)] {
            let mut row = vec![label.to_string()];
            row.extend(all.iter().map(|s| format!("{:.2}", s[pick])));
            t.row(row);
        }
        out.tables.push(t);
        let means: Vec<f64> = all.iter().map(|s| s[3]).collect();
        summary.row(vec![
            trial.to_string(),
            if netem.is_empty() { "none".into() } else { netem.into() },
            format!("{:.1} (seed {})", means[0], seed_means[0]),
            format!("{:.1} (seed {})", means[1], seed_means[1]),
            format!("{:.1} (seed {})", means[2], seed_means[2]),
        ]);
        for (k, (_, label)) in ALGOS.iter().enumerate() {
            out.claims.push(Claim::value(&format!("trial {trial} {label} mean"), means[k], seed_means[k], "Mbit/s", 0.3, "tolerance carried over, not yet derived"));
        }
    }
    out.tables.insert(0, summary);
    out.notes.push("Trial 2's delay is our assumption (1 ms, the largest round value consistent with the seed's trial 2 and 3 figures); the seed's text lost it.".into());
    out.notes.push("Where Vegas and mVegas fall to about 93 Mbit/s in the seed (mVegas in trials 1, 2, 4, 5; Vegas in trial 5) our model, which has no virtual-machine scheduling noise in its RTTs, does not reproduce it.".into());
    out.notes.push("The seed's runs vary from host noise; ours vary only where the trial has randomness (loss, jitter).".into());
    Ok(out)
}

//! `cclab bench`: simulator speed and memory on fixed scenarios (the `mem-` cases: peak memory
//! against simulated time and against the number of flows).
//!
//! Each case runs in a child process (`cclab __bench-case NAME`) so that its peak resident
//! memory (VmHWM) is its own. Cases run one after another, never in parallel, so the figure is
//! one core's speed.

use crate::UserError;
use cc::protocols::DatagramConfig;
use cc::{CcConfig, Rate, Time};
use serde::{Deserialize, Serialize};
use sim::{FlowConfig, LinkConfig, QueueLimit, SimConfig, Simulation};
use std::time::Instant;

#[derive(Debug, Serialize, Deserialize)]
pub struct BenchResult {
    pub name: String,
    pub packets: u64,
    pub events: u64,
    pub sim_s: f64,
    pub wall_s: f64,
    pub packets_per_s: f64,
    pub peak_rss_bytes: u64,
}

fn dumbbell(rate_bps: f64, flows: Vec<FlowConfig>, secs: u64) -> SimConfig {
    SimConfig {
        seed: 1,
        duration: Time::from_secs(secs),
        sample_interval: None,
        link: LinkConfig { rate: Rate::from_bits_per_sec(rate_bps), buffer: QueueLimit::Bdp(1.0), ..LinkConfig::default() },
        flows,
    }
}

fn flows(name: &str, n: usize, rtt: impl Fn(usize) -> Time) -> Vec<FlowConfig> {
    (0..n).map(|i| FlowConfig::new(CcConfig::from_name(name).expect("known algorithm"), rtt(i))).collect()
}

/// `n` flows of a datagram protocol (`sabul`, `udt`, `tfrc`, ...).
fn datagram_flows(name: &str, n: usize, rtt: impl Fn(usize) -> Time) -> Vec<FlowConfig> {
    let cfg = DatagramConfig::from_name(name).expect("known protocol");
    (0..n).map(|i| FlowConfig::datagram(cfg.clone(), rtt(i))).collect()
}

/// The fixed cases, by name.
pub fn cases() -> Vec<(&'static str, &'static str, SimConfig)> {
    vec![
        ("a-reno-40m", "1 Reno flow, 40 Mbit/s, 100 ms, 60 s", dumbbell(40e6, flows("reno", 1, |_| Time::from_millis(100)), 60)),
        ("b-newreno5-40m", "5 NewReno flows, 40 Mbit/s, 100 ms, 60 s", dumbbell(40e6, flows("newreno", 5, |_| Time::from_millis(100)), 60)),
        ("c-newreno-1g", "1 NewReno flow, 1 Gbit/s, 20 ms, 20 s", dumbbell(1e9, flows("newreno", 1, |_| Time::from_millis(20)), 20)),
        (
            "d-100flows-1g",
            "100 NewReno flows, 1 Gbit/s, RTTs 20..200 ms, 20 s",
            dumbbell(1e9, flows("newreno", 100, |i| Time::from_millis(20 + (180 * i as u64) / 99)), 20),
        ),
        (
            "e-cubic-bbr-1g",
            "1 CUBIC + 1 BBR flow (paced), 1 Gbit/s, 20 ms, 20 s",
            dumbbell(1e9, [flows("cubic", 1, |_| Time::from_millis(20)), flows("bbr", 1, |_| Time::from_millis(20))].concat(), 20),
        ),
        (
            "f-udt-sabul-1g",
            "1 UDT + 1 SABUL flow (datagrams), 1 Gbit/s, 100 ms, 20 s",
            dumbbell(1e9, [datagram_flows("udt", 1, |_| Time::from_millis(100)), datagram_flows("sabul", 1, |_| Time::from_millis(100))].concat(), 20),
        ),
        // Memory against simulated time: the same run 60× longer, its time series (100 ms
        // samples) streamed to CSV files as `cclab run --out` does. Flat means equal peaks.
        ("mem-60s", "5 NewReno flows, 10 Mbit/s, 100 ms, 60 s, series to CSV", sampled(dumbbell(10e6, flows("newreno", 5, |_| Time::from_millis(100)), 60))),
        ("mem-3600s", "the same for 3600 s", sampled(dumbbell(10e6, flows("newreno", 5, |_| Time::from_millis(100)), 3600))),
        // Memory per flow: 1000 flows against 10, the difference over 990 (series streamed).
        ("mem-10flows", "10 NewReno flows, 1 Gbit/s, 20..200 ms, 5 s, series to CSV", sampled(dumbbell(1e9, flows("newreno", 10, |i| Time::from_millis(20 + (180 * i as u64) / 9)), 5))),
        ("mem-1000flows", "1000 NewReno flows, the same", sampled(dumbbell(1e9, flows("newreno", 1000, |i| Time::from_millis(20 + (180 * i as u64) / 999)), 5))),
    ]
}

/// `cfg` with a time series sampled every 100 ms (`cclab run`'s default).
fn sampled(mut cfg: SimConfig) -> SimConfig {
    cfg.sample_interval = Some(Time::from_millis(100));
    cfg
}

fn peak_rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|kb| kb.parse::<u64>().ok()))
        })
        .map_or(0, |kb| kb * 1024)
}

/// Runs one case in this process and prints its result as one JSON line.
pub fn bench_case(name: &str) -> Result<(), UserError> {
    let (_, _, cfg) =
        cases().into_iter().find(|(n, _, _)| *n == name).ok_or_else(|| UserError(format!("no bench case `{name}`")))?;
    let sim_s = cfg.duration.as_secs_f64();
    let streamed = cfg.sample_interval.is_some();
    let sim = Simulation::new(cfg).map_err(UserError)?;
    let t0 = Instant::now();
    let r = if streamed {
        // Into a scratch directory of this process's own, removed after.
        let dir = std::env::temp_dir().join(format!("cclab-bench-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| UserError(format!("{}: {e}", dir.display())))?;
        let sink = Box::new(crate::output::CsvSink::create(&dir)?);
        let (r, sink, _) = sim.run_streaming(sink, None, |_| {});
        let finished = sink.finish();
        let _ = std::fs::remove_dir_all(&dir);
        finished?;
        r
    } else {
        sim.run(|_| {})
    };
    let wall_s = t0.elapsed().as_secs_f64();
    let res = BenchResult {
        name: name.to_string(),
        packets: r.summary.packets,
        events: r.summary.events,
        sim_s,
        wall_s,
        packets_per_s: r.summary.packets as f64 / wall_s,
        peak_rss_bytes: peak_rss_bytes(),
    };
    println!("{}", serde_json::to_string(&res).expect("result serialises"));
    Ok(())
}

pub fn bench(json: bool, only: Option<&str>) -> Result<(), UserError> {
    let exe = std::env::current_exe().map_err(|e| UserError(format!("cannot find my own binary: {e}")))?;
    if cfg!(debug_assertions) && !json {
        eprintln!("note: this is a debug build; run `cargo run --release -- bench` for meaningful figures");
    }
    let net = crate::bench_net::net_cases(only, json)?;
    let mut results = Vec::new();
    for (name, what, _) in cases() {
        if only.is_some_and(|o| !name.contains(o)) {
            continue;
        }
        if !json {
            eprintln!("running {name}: {what} ...");
        }
        let out = std::process::Command::new(&exe)
            .args(["__bench-case", name])
            .output()
            .map_err(|e| UserError(format!("cannot run bench case {name}: {e}")))?;
        if !out.status.success() {
            return Err(UserError(format!("bench case {name} failed: {}", String::from_utf8_lossy(&out.stderr).trim())));
        }
        let r: BenchResult = serde_json::from_slice(&out.stdout)
            .map_err(|e| UserError(format!("bench case {name} printed something unexpected: {e}")))?;
        results.push((what, r));
    }
    let scans = crate::bench_scan::scan_cases(only, json);
    if json {
        let all: Vec<serde_json::Value> = results
            .iter()
            .map(|(_, r)| {
                serde_json::json!({
                    "name": r.name, "packets": r.packets, "wall_s": r.wall_s,
                    "packets_per_s": r.packets_per_s, "peak_rss_bytes": r.peak_rss_bytes,
                })
            })
            .collect();
        // One array: the simulator's cases, the scan cases (`probes_per_s`), then the net cases
        // (`goodput_bps`, `cpu_s_per_gb`).
        let all: Vec<serde_json::Value> = all
            .into_iter()
            .chain(scans.iter().map(|r| serde_json::to_value(r).expect("a scan result serialises")))
            .chain(net.iter().map(|r| serde_json::to_value(r).expect("a net result serialises")))
            .collect();
        println!("{}", serde_json::to_string_pretty(&all).expect("results serialise"));
    } else {
        if !results.is_empty() {
            println!("{:<16} {:<52} {:>12} {:>9} {:>14} {:>12} {:>10}", "case", "scenario", "packets", "wall (s)", "packets/s", "events/s", "peak RSS");
        }
        for (what, r) in &results {
            println!(
                "{:<16} {:<52} {:>12} {:>9.3} {:>14.0} {:>12.0} {:>7.1} MB",
                r.name,
                what,
                r.packets,
                r.wall_s,
                r.packets_per_s,
                r.events as f64 / r.wall_s,
                r.peak_rss_bytes as f64 / 1e6
            );
        }
        if !scans.is_empty() {
            println!("{}{:<16} {:<52} {:>12} {:>12} {:>9} {:>12}", if results.is_empty() { "" } else { "\n" }, "case", "host discovery (sim::scan)", "probes", "simulated s", "wall (s)", "probes/s");
            for r in &scans {
                println!("{:<16} {:<52} {:>12} {:>12.0} {:>9.3} {:>12.0}", r.name, r.what, r.probes_sent, r.sim_s, r.wall_s, r.probes_per_s);
            }
        }
        if !net.is_empty() {
            println!("\n{:<16} {:<52} {:>12} {:>12} {:>22}", "case", "real UDP transport", "goodput", "CPU s/GB", "paced late p50/p99 us");
            for r in &net {
                let late = match (r.pacing_late_p50_us, r.pacing_late_p99_us) {
                    (Some(a), Some(b)) => format!("{a:.0} / {b:.0}"),
                    _ => "-".into(),
                };
                println!("{:<16} {:<52} {:>12} {:>12.2} {:>22}{}", r.name, r.what, crate::output::fmt_rate(r.goodput_bps), r.cpu_s_per_gb, late, if r.intact { "" } else { "  DATA LOST" });
            }
        }
    }
    Ok(())
}

//! Shared helpers for the scenario tests.
#![allow(dead_code)]

use ::sim::{run, FlowConfig, LinkConfig, LossSpec, QueueLimit, RunResult, SimConfig};
use cc::{CcConfig, Rate, Time};

pub fn flow(cc: &str, rtt_ms: u64) -> FlowConfig {
    FlowConfig::new(CcConfig::from_name(cc).unwrap(), Time::from_millis(rtt_ms))
}

pub fn link(mbit: f64, buffer: QueueLimit) -> LinkConfig {
    LinkConfig { rate: Rate::from_bits_per_sec(mbit * 1e6), buffer, ..LinkConfig::default() }
}

pub fn with_loss(mut l: LinkConfig, p: f64) -> LinkConfig {
    l.netem.loss = LossSpec::Random { p, correlation: 0.0 };
    l
}

pub fn simulate(seed: u64, secs: u64, link: LinkConfig, flows: Vec<FlowConfig>) -> RunResult {
    run(SimConfig { seed, duration: Time::from_secs(secs), sample_interval: Some(Time::from_millis(100)), link, flows })
        .unwrap()
}

/// Mean link utilisation over samples in [from, to) seconds.
pub fn utilisation_between(r: &RunResult, from: f64, to: f64) -> f64 {
    let rows: Vec<f64> = r.series.as_ref().unwrap().link.iter().filter(|s| s.time > from && s.time <= to).map(|s| s.utilization).collect();
    rows.iter().sum::<f64>() / rows.len() as f64
}

/// Each flow's goodput (bit/s) between two sample times, from the cumulative delivered bytes.
pub fn goodputs_between(r: &RunResult, from: f64, to: f64) -> Vec<f64> {
    let series = &r.series.as_ref().unwrap().flows;
    let n = r.summary.flows.len() as u32;
    (0..n)
        .map(|id| {
            let at = |t: f64| {
                series.iter().filter(|s| s.flow == id && s.time <= t + 1e-9).last().map_or(0, |s| s.delivered_bytes)
            };
            (at(to) - at(from)) as f64 * 8.0 / (to - from)
        })
        .collect()
}

//! Figures read off a run's time series between two moments, shared by the experiments: each
//! flow's goodput, the first flow's share of two, the link's drops and its mean queue. A series holds
//! cumulative counters per sample, so a figure between `from` and `to` is the difference of
//! the last samples at or before each.

use sim::RunResult;

/// The last sample at or before `t` (1 ns of slack for samples written at exactly `t`).
fn at_or_before(time: f64, t: f64) -> bool {
    time <= t + 1e-9
}

/// Each flow's goodput between `from` and `to` seconds (bit/s).
pub fn goodput_between(r: &RunResult, from: f64, to: f64) -> Vec<f64> {
    let series = r.series.as_ref().map(|s| s.flows.as_slice()).unwrap_or_default();
    (0..r.summary.flows.len() as u32)
        .map(|id| {
            let at = |t: f64| series.iter().filter(|s| s.flow == id && at_or_before(s.time, t)).last().map_or(0, |s| s.delivered_bytes);
            (at(to) - at(from)) as f64 * 8.0 / (to - from)
        })
        .collect()
}

/// The first flow's share of the first two flows' goodput over the run's second half.
pub fn second_half_share(r: &RunResult) -> f64 {
    let g = goodput_between(r, r.summary.sim_time_s / 2.0, r.summary.sim_time_s);
    g[0] / (g[0] + g[1]).max(1.0)
}

/// Packets the link dropped after `from` seconds, to the run's end.
pub fn drops_after(r: &RunResult, from: f64) -> f64 {
    let link = r.series.as_ref().map(|s| s.link.as_slice()).unwrap_or_default();
    let at = |t: f64| link.iter().filter(|l| at_or_before(l.time, t)).last().map_or(0, |l| l.drops);
    (at(r.summary.sim_time_s) - at(from)) as f64
}

/// The bottleneck's mean queue (packets) over the link's samples after `from` seconds; NaN
/// when there are none.
pub fn mean_queue_after(r: &RunResult, from: f64) -> f64 {
    let link = r.series.as_ref().map(|s| s.link.as_slice()).unwrap_or_default();
    let q: Vec<f64> = link.iter().filter(|l| l.time > from + 1e-9).map(|l| l.queue_packets as f64).collect();
    crate::stats::mean(&q)
}

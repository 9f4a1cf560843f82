//! The vegas-trials figures: ours against the seed's per cell, throughput against the host's
//! scheduling noise, and the windows and RTTs of single runs.

use crate::plot::{color, Axis, Figure, Marker, Panel, PlotFiles, Series, Style, VersusRow};
use crate::stats::Summary;
use crate::UserError;
use sim::RunResult;
use std::path::Path;

/// Every cell, the seed's mean and range beside ours (log axis: the trials span 7 to 300
/// Mbit/s).
pub fn versus(dir: &Path, rows: &[VersusRow], runs: usize) -> Result<PlotFiles, UserError> {
    crate::plot::Versus::new("vegas-trials-versus-seed", "iperf's rate per trial and algorithm: the seed's five runs against ours", "iperf's rate (received, Mbit/s, log scale)", rows)
        .log()
        .seed("the seed: mean, min–max of its 5 runs")
        .ours(format!("ours: mean, min–max over {runs} runs (RNG seeds)"))
        .write(dir)
}

/// Mean throughput (with min–max bars) against the upper bound of the host noise, one series
/// per algorithm, with the seed's trial-1 means as dashed lines and its five runs' min–max as a
/// hollow square with a bar right of the sweep (one column per algorithm: Reno's and Vegas's
/// means nearly coincide).
pub fn noise_sweep(dir: &Path, noise_ms: &[f64], ours: &[(&str, Vec<Summary>)], seed: &[(&str, Summary)]) -> Result<PlotFiles, UserError> {
    let hi_x = noise_ms.iter().copied().fold(0.0, f64::max);
    let mut series = Vec::new();
    let markers = [Marker::Circle, Marker::Triangle, Marker::Square];
    for (k, (name, sums)) in ours.iter().enumerate() {
        let pts: Vec<(f64, f64)> = noise_ms.iter().zip(sums).map(|(x, s)| (*x, s.mean)).collect();
        let bars: Vec<(f64, f64)> = sums.iter().map(|s| (s.min, s.max)).collect();
        series.push(Series::new(None, color(k), Style::Line { width: 1 }, pts.clone()));
        series.push(Series::new(Some(format!("{name} (ours)")), color(k), Style::Points { marker: markers[k % 3], hollow: false }, pts).with_bars(bars, false));
    }
    let column = |k: usize| hi_x * (1.04 + 0.03 * k as f64);
    for (k, (name, s)) in seed.iter().enumerate() {
        series.push(Series::new(Some(format!("{name}: the seed's trial 1 mean")), color(k), Style::Dashed, vec![(0.0, s.mean), (column(k), s.mean)]));
        series.push(Series::new(Some(format!("{name}: the seed's 5 runs, mean and min–max")), color(k), Style::Points { marker: Marker::Square, hollow: true }, vec![(column(k), s.mean)]).with_bars(vec![(s.min, s.max)], false));
    }
    let hi_y = ours.iter().flat_map(|(_, s)| s.iter().map(|s| s.max)).chain(seed.iter().map(|m| m.1.max)).fold(0.0, f64::max);
    Figure {
        name: "vegas-trials-host-noise".into(),
        title: format!("Trial 1: iperf's rate against the host's per-ACK delay, uniform on [0, x] (our model: x = {} ms)", crate::table::num(super::testbed::HOST_NOISE.as_secs_f64() * 1e3)),
        size: crate::plot::WIDE,
        panels: vec![Panel::new(Axis::new("host scheduling delay, upper bound (ms)", 0.0, column(seed.len())), Axis::new("iperf's rate (received, Mbit/s)", 0.0, hi_y * 1.1), series).legend_outside()],
    }
    .write(dir)
}

/// cwnd (segments, log scale: from two segments to twice a receive window that holds Reno),
/// the segments in flight and the latest RTT sample (ms) over the first `until` seconds of
/// one run per algorithm.
pub fn windows(dir: &Path, name: &str, title: &str, runs: &[(&str, &RunResult)], until: f64) -> Result<PlotFiles, UserError> {
    let pick = |r: &RunResult, f: &dyn Fn(&sim::results::FlowSample) -> Option<f64>| -> Vec<(f64, f64)> {
        r.series.as_ref().map_or_else(Vec::new, |s| s.flows.iter().filter(|x| x.time <= until).filter_map(|x| f(x).map(|v| (x.time, v))).collect())
    };
    let (mut cwnd, mut flight, mut rtt) = (Vec::new(), Vec::new(), Vec::new());
    // The first run (Reno) is drawn last and dashed, so that where it coincides with another
    // (trial 3: Reno and Vegas both held by the receive window) both stay visible.
    for (k, (label, r)) in runs.iter().enumerate().rev() {
        let style = |width| if k == 0 { Style::Dashed } else { Style::Line { width } };
        cwnd.push(Series::new(Some((*label).into()), color(k), style(2), pick(r, &|x| x.cwnd.filter(|c| *c >= 1.0))));
        flight.push(Series::new(Some((*label).into()), color(k), style(2), pick(r, &|x| Some(x.inflight as f64))));
        rtt.push(Series::new(Some((*label).into()), color(k), style(1), pick(r, &|x| x.rtt_ms)));
    }
    let values = |s: &[Series]| s.iter().flat_map(|s| s.points.iter().map(|p| p.1)).collect::<Vec<f64>>();
    let top = |s: &[Series]| values(s).into_iter().fold(0.0, f64::max);
    // A decade above the largest window, with room: a line on the frame is lost.
    let decade = |v: f64| 10f64.powf((v.max(1.0) * 1.5).log10().ceil());
    // RTT samples sit in a narrow band (0.1-4 ms, or 100-103 ms): the axis spans it.
    let (rtt_lo, rtt_hi) = values(&rtt).into_iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = ((rtt_hi - rtt_lo) * 0.08).max(0.05);
    let x = Axis::new("time (s)", 0.0, until);
    Figure {
        name: name.into(),
        title: title.into(),
        size: (1200, 1100),
        panels: vec![
            Panel::new(x.clone(), Axis::log("cwnd (segments, log scale)", 1.0, decade(top(&cwnd))), cwnd).legend_outside(),
            Panel::new(x.clone(), Axis::new("segments in flight", 0.0, top(&flight) * 1.1), flight).legend_outside(),
            Panel::new(x, Axis::new("latest RTT sample (ms)", (rtt_lo - pad).max(0.0), rtt_hi + pad), rtt).legend_outside(),
        ],
    }
    .write(dir)
}

//! Throughput against 95th-percentile delay, one point per algorithm or flow: Pantheon's
//! signature plot. The delay axis grows to the left, so better is up and to the right.

use super::chart::{color, Axis, Figure, Marker, Panel, Series, Style, WIDE};
use super::data::RunData;

/// One point: what it is, its rate and its 95th-percentile delay (over several runs, their
/// mean), and each run's (delay, rate) where there are several, drawn small and hollow around
/// it so that the spread shows, as Pantheon draws its runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DelayPoint {
    pub label: String,
    pub throughput_mbps: f64,
    pub delay_p95_ms: f64,
    pub runs: Vec<(f64, f64)>,
}

/// Points closer than this share of both axes' spans are drawn as one, their labels joined:
/// one marker hidden under another would otherwise vanish from the plot.
const COINCIDE: f64 = 0.01;

/// `points` with those that coincide (within [`COINCIDE`] of the spans) merged into the first
/// of them, labelled "a, b", each with its index in `points` (its colour and marker, the same
/// whether or not others merged into it).
fn merge_coincident(points: &[DelayPoint], spans: (f64, f64)) -> Vec<(usize, DelayPoint)> {
    let mut merged: Vec<(usize, DelayPoint)> = Vec::new();
    for (k, p) in points.iter().enumerate() {
        let near = |q: &DelayPoint| (q.delay_p95_ms - p.delay_p95_ms).abs() <= COINCIDE * spans.0 && (q.throughput_mbps - p.throughput_mbps).abs() <= COINCIDE * spans.1;
        match merged.iter_mut().find(|(_, q)| near(q)) {
            Some((_, q)) => q.label = format!("{}, {}", q.label, p.label),
            None => merged.push((k, p.clone())),
        }
    }
    merged
}

/// `axes` = (rate axis label, delay axis label), with units, e.g.
/// `("goodput (Mbit/s)", "95th-percentile RTT (ms)")`.
pub fn figure(name: &str, title: &str, axes: (&str, &str), points: &[DelayPoint]) -> Figure {
    let delays = points.iter().flat_map(|p| std::iter::once(p.delay_p95_ms).chain(p.runs.iter().map(|r| r.0)));
    let (lo, hi) = delays.fold((f64::INFINITY, 0.0f64), |(lo, hi), d| (lo.min(d), hi.max(d)));
    let lo = if lo.is_finite() { lo } else { 0.0 };
    let span = (hi - lo).max(hi * 0.2).max(1.0);
    // More room on the right (the low-delay side), for the labels written beside the points.
    let x = Axis::new(axes.1, (lo - 0.35 * span).max(0.0), hi + 0.2 * span).reversed();
    let y = Axis::fit(axes.0, 0.0, points.iter().flat_map(|p| std::iter::once(p.throughput_mbps).chain(p.runs.iter().map(|r| r.1))).map(|v| v * 1.1));
    // Each run first, under the labelled means.
    let runs = points
        .iter()
        .enumerate()
        .filter(|(_, p)| p.runs.len() > 1)
        .map(|(k, p)| Series::new(None, color(k), Style::Points { marker: Marker::nth(k), hollow: true }, p.runs.clone()));
    let merged = merge_coincident(points, (x.hi - x.lo, y.hi - y.lo));
    let means = merged
        .iter()
        .map(|(k, p)| Series::new(Some(p.label.clone()), color(*k), Style::Labelled { marker: Marker::nth(*k) }, vec![(p.delay_p95_ms, p.throughput_mbps)]));
    let series = runs.chain(means).collect();
    // Colour and marker together tell up to forty points apart; the legend has a column of its
    // own so that it covers none of them.
    Figure { name: name.into(), title: title.into(), size: WIDE, panels: vec![Panel::new(x, y, series).legend_outside()] }
}

/// Each flow of the run: its goodput against its 95th-percentile RTT; none for a run of one
/// flow (a single point compares nothing).
pub fn run_figure(d: &RunData) -> Option<Figure> {
    let points: Vec<DelayPoint> = d
        .summary
        .flows
        .iter()
        .zip(d.flow_labels())
        .map(|(f, (_, label))| DelayPoint { label, throughput_mbps: f.goodput_bps / 1e6, delay_p95_ms: f.rtt_ms.p95, runs: Vec::new() })
        .collect();
    if points.len() < 2 {
        return None;
    }
    Some(figure(
        "throughput-delay",
        "Goodput against 95th-percentile RTT per flow",
        ("goodput (Mbit/s)", "95th-percentile RTT (ms)"),
        &points,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(label: &str, delay: f64, rate: f64) -> DelayPoint {
        DelayPoint { label: label.into(), throughput_mbps: rate, delay_p95_ms: delay, runs: Vec::new() }
    }

    /// Several runs: each drawn hollow and unlabelled beside the labelled mean, and inside
    /// the axes.
    #[test]
    fn each_run_is_drawn_beside_the_mean() {
        let p = DelayPoint { runs: vec![(40.0, 9.0), (60.0, 11.0)], ..point("reno", 50.0, 10.0) };
        let f = figure("t", "t", ("goodput", "delay"), &[p, point("bbr", 20.0, 9.5)]);
        let s = &f.panels[0].series;
        assert_eq!(s.len(), 3);
        assert_eq!((s[0].label.clone(), s[0].points.clone()), (None, vec![(40.0, 9.0), (60.0, 11.0)]));
        assert!(matches!(s[0].style, Style::Points { hollow: true, .. }));
        assert_eq!(s[1].label.as_deref(), Some("reno"));
        assert!(f.panels[0].y.hi >= 11.0 && f.panels[0].x.hi >= 60.0);
    }

    #[test]
    fn coincident_points_share_one_marker_and_both_labels() {
        // Spans 100 ms and 10 Mbit/s: 1 % is 1 ms and 0.1 Mbit/s.
        let pts = [point("slow start", 50.0, 5.0), point("BBR", 20.0, 8.0), point("HyStart++", 50.5, 5.05), point("HyStart", 52.0, 5.0)];
        let m = merge_coincident(&pts, (100.0, 10.0));
        let labels: Vec<(usize, &str)> = m.iter().map(|(k, p)| (*k, p.label.as_str())).collect();
        assert_eq!(labels, [(0, "slow start, HyStart++"), (1, "BBR"), (3, "HyStart")]);
        assert_eq!((m[0].1.delay_p95_ms, m[0].1.throughput_mbps), (50.0, 5.0));
    }
}

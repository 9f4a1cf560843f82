//! Throughput against 95th-percentile delay, one point per algorithm or flow: Pantheon's
//! signature plot. The delay axis grows to the left, so better is up and to the right.

use super::chart::{color, Axis, Figure, Marker, Panel, Series, Style, WIDE};
use super::data::RunData;

/// One point: what it is, its rate and its 95th-percentile delay.
#[derive(Clone, Debug, PartialEq)]
pub struct DelayPoint {
    pub label: String,
    pub throughput_mbps: f64,
    pub delay_p95_ms: f64,
}

/// `axes` = (rate axis label, delay axis label), with units, e.g.
/// `("goodput (Mbit/s)", "95th-percentile RTT (ms)")`.
pub fn figure(name: &str, title: &str, axes: (&str, &str), points: &[DelayPoint]) -> Figure {
    let (lo, hi) = points.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), p| (lo.min(p.delay_p95_ms), hi.max(p.delay_p95_ms)));
    let lo = if lo.is_finite() { lo } else { 0.0 };
    let span = (hi - lo).max(hi * 0.2).max(1.0);
    // More room on the right (the low-delay side), for the labels written beside the points.
    let x = Axis::new(axes.1, (lo - 0.35 * span).max(0.0), hi + 0.2 * span).reversed();
    let y = Axis::fit(axes.0, 0.0, points.iter().map(|p| p.throughput_mbps * 1.1));
    let series = points
        .iter()
        .enumerate()
        .map(|(k, p)| Series::new(Some(p.label.clone()), color(k), Style::Labelled { marker: Marker::nth(k) }, vec![(p.delay_p95_ms, p.throughput_mbps)]))
        .collect();
    // Colour and marker together tell up to forty points apart; the legend has a column of its
    // own so that it covers none of them.
    Figure { name: name.into(), title: title.into(), size: WIDE, panels: vec![Panel::new(x, y, series).legend_outside()] }
}

/// Each flow of the run: its goodput against its 95th-percentile RTT.
pub fn run_figure(d: &RunData) -> Option<Figure> {
    let points: Vec<DelayPoint> = d
        .summary
        .flows
        .iter()
        .map(|f| DelayPoint { label: format!("flow {}: {}", f.id, cc::display_name(&f.cc)), throughput_mbps: f.goodput_bps / 1e6, delay_p95_ms: f.rtt_ms.p95 })
        .collect();
    if points.is_empty() {
        return None;
    }
    Some(figure(
        "throughput-delay",
        "Goodput against 95th-percentile RTT per flow",
        ("goodput (Mbit/s)", "95th-percentile RTT (ms)"),
        &points,
    ))
}

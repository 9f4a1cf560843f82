//! The phase graph of two flows' rates (Chiu and Jain): x = one flow's rate, y = the other's,
//! with the fairness line x = y and the efficiency line x + y = capacity. The talk's fairness
//! slide: AIMD converges towards where the two lines cross.

use super::chart::{color, Axis, Figure, Panel, Series, Style, GUIDE, INK, SQUARE};
use super::data::RunData;
use std::collections::BTreeMap;

/// A phase graph of `points` (x = the first flow's rate, y = the second's, Mbit/s, in time
/// order); `flows` names the two flows for the axes.
pub fn figure(name: &str, title: &str, flows: (&str, &str), points: &[(f64, f64)], capacity_mbps: f64) -> Figure {
    let top = points.iter().flat_map(|&(x, y)| [x, y]).fold(capacity_mbps, f64::max) * 1.05;
    let fairness = Series::new(Some("fairness: x = y".into()), GUIDE, Style::Dashed, vec![(0.0, 0.0), (top, top)]);
    let efficiency = Series::new(
        Some(format!("efficiency: x + y = {capacity_mbps:.4} Mbit/s").replace(".0000", "")),
        INK,
        Style::Dashed,
        vec![(0.0, capacity_mbps), (capacity_mbps, 0.0)],
    );
    let trajectory = Series::new(Some("goodputs per interval".into()), color(0), Style::Path, points.to_vec());
    let axis = |flow: &str| Axis::new(&format!("{flow}, goodput (Mbit/s)"), 0.0, top);
    Figure {
        name: name.into(),
        title: title.into(),
        size: SQUARE,
        panels: vec![Panel::new(axis(flows.0), axis(flows.1), vec![fairness, efficiency, trajectory])],
    }
}

/// The run's first two flows, what each delivered per interval (goodput) at the times both
/// were sampled: what was sent can exceed the link, what was delivered cannot stay above it.
pub fn run_figure(d: &RunData) -> Option<Figure> {
    let labels = d.flow_labels();
    let [(a, la), (b, lb), ..] = labels.as_slice() else { return None };
    let second: BTreeMap<u64, f64> = d.rows(*b).map(|r| (r.time.to_bits(), r.goodput)).collect();
    let points: Vec<(f64, f64)> = d.rows(*a).filter_map(|r| second.get(&r.time.to_bits()).map(|&y| (r.goodput, y))).collect();
    if points.is_empty() {
        return None;
    }
    let capacity = d.summary.link.capacity_bps / 1e6;
    Some(figure("phase", &format!("Phase graph: {la} against {lb}"), (la, lb), &points, capacity))
}

//! The phase graph of two flows' rates (Chiu and Jain): x = one flow's rate, y = the other's,
//! with the fairness line x = y and the efficiency line x + y = capacity (with n > 2 flows,
//! the two flows' fair shares, x + y = 2C/n). The talk's fairness
//! slide: AIMD converges towards where the two lines cross.

use super::chart::{color, Axis, Figure, Marker, Panel, Series, Style, GUIDE, INK, SQUARE};
use super::data::RunData;
use std::collections::BTreeMap;

/// A phase graph of `points` (x = the first flow's rate, y = the second's, Mbit/s, in time
/// order); `flows` names the two flows for the axes, and `n` counts the flows on the link.
/// With two, the efficiency line is x + y = C; with n > 2 the two can fill the link only by
/// starving the others, and the line drawn is where the two hold their fair shares together,
/// x + y = 2C/n, which meets the fairness line at the fair point (C/n, C/n).
pub fn figure(name: &str, title: &str, flows: (&str, &str), points: &[(f64, f64)], capacity_mbps: f64, n: usize) -> Figure {
    let top = points.iter().flat_map(|&(x, y)| [x, y]).fold(capacity_mbps, f64::max) * 1.05;
    let fairness = Series::new(Some("fairness: x = y".into()), GUIDE, Style::Dashed, vec![(0.0, 0.0), (top, top)]);
    let (sum, label) = if n > 2 {
        let sum = 2.0 * capacity_mbps / n as f64;
        (sum, format!("their fair shares while all {n} flows run: x + y = 2C/{n} = {} Mbit/s", short(sum)))
    } else {
        (capacity_mbps, format!("efficiency: x + y = {} Mbit/s", short(capacity_mbps)))
    };
    let efficiency = Series::new(Some(label), INK, Style::Dashed, vec![(0.0, sum), (sum, 0.0)]);
    let trajectory = Series::new(Some("goodputs per interval".into()), color(0), Style::Path, points.to_vec());
    let mut series = vec![fairness, efficiency, trajectory];
    if let (Some(&first), Some(&last)) = (points.first(), points.last()) {
        series.push(Series::new(Some("first interval".into()), color(1), Style::Points { marker: Marker::Triangle, hollow: false }, vec![first]));
        series.push(Series::new(Some("last interval".into()), color(3), Style::Points { marker: Marker::Cross, hollow: false }, vec![last]));
    }
    let axis = |flow: &str| Axis::new(&format!("{flow}, goodput (Mbit/s)"), 0.0, top);
    Figure { name: name.into(), title: title.into(), size: SQUARE, panels: vec![Panel::new(axis(flows.0), axis(flows.1), series)] }
}

/// A rate to four significant figures at most, without trailing zeros.
fn short(mbps: f64) -> String {
    let s = format!("{mbps:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
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
    let title = if labels.len() > 2 { format!("Phase graph: {la} against {lb} ({} flows)", labels.len()) } else { format!("Phase graph: {la} against {lb}") };
    Some(figure("phase", &title, (la, lb), &points, capacity, labels.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two flows alone can fill the link (x + y = C); two of five meet the fairness line at
    /// the fair point (C/5, C/5), so their line is x + y = 2C/5.
    #[test]
    fn the_efficiency_line_is_the_links_for_two_flows_and_two_fair_shares_for_more() {
        let points = [(1.0, 2.0), (3.0, 4.0)];
        let line = |n| figure("p", "t", ("a", "b"), &points, 40.0, n).panels[0].series[1].points.clone();
        assert_eq!(line(2), [(0.0, 40.0), (40.0, 0.0)]);
        assert_eq!(line(5), [(0.0, 16.0), (16.0, 0.0)]);
        let f = figure("p", "t", ("a", "b"), &points, 40.0, 5);
        let s = &f.panels[0].series;
        assert_eq!(s[1].label.as_deref(), Some("their fair shares while all 5 flows run: x + y = 2C/5 = 16 Mbit/s"));
        assert_eq!((s[3].points.clone(), s[4].points.clone()), (vec![(1.0, 2.0)], vec![(3.0, 4.0)]), "start and end marked");
    }
}

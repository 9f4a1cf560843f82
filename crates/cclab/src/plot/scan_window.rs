//! A scanner's group probe window over a scan, in the style of seed 000's graphs: "the
//! congestion window in black and the congestion threshold in gray", one panel per variant on
//! shared axes, so that the faster scan visibly ends first.

use super::chart::{Axis, Figure, Panel, Series, Style, INK, TALL};
use plotters::style::RGBColor;
use sim::scan::WindowPoint;

/// The seed's grey for the threshold.
const GREY: RGBColor = RGBColor(150, 150, 150);

/// One panel per `(variant, window)`, top to bottom; time in seconds, window in probes.
pub fn figure(name: &str, title: &str, runs: &[(&str, &[WindowPoint])]) -> Figure {
    let end = runs.iter().flat_map(|(_, w)| w.last().map(|p| p.time_s)).fold(1.0, f64::max);
    let top = runs.iter().flat_map(|(_, w)| w.iter().flat_map(|p| [p.cwnd, p.ssthresh])).fold(1.0, f64::max);
    let panels = runs
        .iter()
        .map(|(variant, w)| {
            let cwnd = Series::new(Some(format!("{variant}: cwnd")), INK, Style::Line { width: 2 }, w.iter().map(|p| (p.time_s, p.cwnd)).collect());
            let thresh = Series::new(Some(format!("{variant}: ccthresh")), GREY, Style::Line { width: 2 }, w.iter().map(|p| (p.time_s, p.ssthresh)).collect());
            Panel::new(Axis::new("time (s)", 0.0, end * 1.02), Axis::new("probes", 0.0, top * 1.08), vec![thresh, cwnd])
        })
        .collect();
    Figure { name: name.into(), title: title.into(), size: TALL, panels }
}

//! A scanner's group probe window over a scan, in the style of seed 000's graphs: "the
//! congestion window in black and the congestion threshold in gray", one panel per variant on
//! shared axes, so that the faster scan visibly ends first.

use super::chart::{Axis, Figure, Panel, Series, Style, INK, TALL};
use plotters::style::RGBColor;
use sim::scan::WindowPoint;

/// The seed's grey for the threshold.
const GREY: RGBColor = RGBColor(150, 150, 150);

/// The seed's scan end, dashed in red.
const SEED_END: RGBColor = RGBColor(200, 40, 40);

/// One panel per `(variant, window, the seed's scan time)`, top to bottom; time in seconds,
/// window in probes. Where the seed gives its scan's time, a dashed line marks it, and the
/// time axis reaches it, so that a scan of ours far shorter or longer than the seed's shows.
pub fn figure(name: &str, title: &str, runs: &[(&str, &[WindowPoint], Option<f64>)]) -> Figure {
    let end = runs.iter().flat_map(|(_, w, seed)| w.last().map(|p| p.time_s).into_iter().chain(*seed)).fold(1.0, f64::max);
    let top = runs.iter().flat_map(|(_, w, _)| w.iter().flat_map(|p| [p.cwnd, p.ssthresh])).fold(1.0, f64::max) * 1.08;
    let panels = runs
        .iter()
        .map(|(variant, w, seed)| {
            let cwnd = Series::new(Some(format!("{variant}: cwnd")), INK, Style::Line { width: 2 }, w.iter().map(|p| (p.time_s, p.cwnd)).collect());
            let thresh = Series::new(Some(format!("{variant}: ccthresh")), GREY, Style::Line { width: 2 }, w.iter().map(|p| (p.time_s, p.ssthresh)).collect());
            let mut series = vec![thresh, cwnd];
            if let Some(t) = seed {
                series.push(Series::new(Some(format!("the source page's scan ended ({} s)", crate::table::num(*t))), SEED_END, Style::Dashed, vec![(*t, 0.0), (*t, top)]));
            }
            Panel::new(Axis::new("time (s)", 0.0, end * 1.02), Axis::new("probes", 0.0, top), series)
        })
        .collect();
    Figure { name: name.into(), title: title.into(), size: TALL, panels }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed's scan time is drawn and the time axis reaches it.
    #[test]
    fn the_seed_s_end_is_marked() {
        let w = [WindowPoint { time_s: 1.0, cwnd: 10.0, ssthresh: 50.0 }, WindowPoint { time_s: 30.0, cwnd: 40.0, ssthresh: 50.0 }];
        let f = figure("w", "t", &[("unscaled", &w, Some(65.6)), ("scaled", &w, None)]);
        assert!(f.panels[0].x.hi >= 65.6);
        assert_eq!(f.panels[0].series.len(), 3);
        assert_eq!(f.panels[0].series[2].points, [(65.6, 0.0), (65.6, f.panels[0].y.hi)]);
        assert_eq!(f.panels[1].series.len(), 2);
    }
}

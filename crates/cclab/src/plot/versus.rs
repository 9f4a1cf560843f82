//! Ours against the seed's: one row per claim or table cell, the seed's figure as a hollow
//! black square (with its range where the seed gives one) and ours as a filled circle with
//! our spread over seeds (the caller's label says which: minimum to maximum, or the interval a
//! verdict tests). Rows run top to bottom in the order given, so
//! a seed's table reads down the plot as it reads down the page.

use super::chart::{color, Axis, Figure, Marker, Panel, Series, Style, INK};

/// One row: what it is, the seed's value (and range), and ours (mean and spread).
#[derive(Clone, Debug, PartialEq)]
pub struct VersusRow {
    pub label: String,
    /// The seed's figure and, where it gives one, its range (min, max).
    pub seed: Option<(f64, Option<(f64, f64)>)>,
    /// Our mean and our spread over seeds (min–max, or an interval, as the legend says).
    pub ours: Option<(f64, (f64, f64))>,
}

/// The seed's marks sit a little above the row's line and ours a little below, so that equal
/// values do not hide each other.
const OFFSET: f64 = 0.15;

/// A linear axis starts at zero unless every value is above this fraction of the largest.
const ZOOM_BELOW: f64 = 0.5;

/// `value_axis` names the quantity with its unit; `log` draws it on a log scale (the marks
/// must then be above zero; a whisker reaching zero or below runs to the axis' left edge); `ours_label` says what our spread is, e.g. "ours: mean, min–max
/// over 5 seeds"; `reference_label` names the hollow squares ("seed", or "kernel" where the
/// reference is the kernel's runs).
pub fn figure(name: &str, title: &str, value_axis: &str, rows: &[VersusRow], log: bool, (reference_label, ours_label): (&str, &str)) -> Figure {
    let values = rows.iter().flat_map(|r| {
        let seed = r.seed.map(|(v, range)| [Some(v), range.map(|x| x.0), range.map(|x| x.1)]).unwrap_or_default();
        let ours = r.ours.map(|(v, (lo, hi))| [Some(v), Some(lo), Some(hi)]).unwrap_or_default();
        seed.into_iter().chain(ours).flatten()
    });
    let values: Vec<f64> = values.filter(|v| v.is_finite() && (!log || *v > 0.0)).collect();
    let x = if log {
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(0.0, f64::max);
        let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (1.0, 10.0) };
        Axis::log(value_axis, 10f64.powf(lo.log10().floor()), 10f64.powf(hi.log10().ceil()))
    } else {
        // From zero, or below it when some value is negative (differences), with a margin.
        // Values that all lie within a factor of two of each other get an axis around them
        // instead (a dot plot needs no zero, and from zero their differences would be a few
        // per cent of the width).
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !lo.is_finite() {
            Axis::fit(value_axis, 0.0, values.iter().copied())
        } else if lo < 0.0 || lo <= ZOOM_BELOW * hi {
            let (lo, hi) = (lo.min(0.0), hi.max(0.0));
            let margin = (hi - lo) * 0.08;
            if lo < 0.0 { Axis::new(value_axis, lo - margin, hi + margin) } else { Axis::fit(value_axis, 0.0, values.iter().copied()) }
        } else {
            let margin = (hi - lo).max(hi * 0.01) * 0.15;
            Axis::new(value_axis, lo - margin, hi + margin)
        }
    };
    let y = Axis::categorical("", rows.iter().map(|r| r.label.clone()).collect(), true);
    let mut seed = Series::new(Some(reference_label.into()), INK, Style::Points { marker: Marker::Square, hollow: true }, Vec::new());
    let mut ours = Series::new(Some(ours_label.into()), color(0), Style::Points { marker: Marker::Circle, hollow: false }, Vec::new());
    let (mut seed_bars, mut ours_bars) = (Vec::new(), Vec::new());
    for (k, r) in rows.iter().enumerate() {
        if let Some((v, range)) = r.seed {
            seed.points.push((v, k as f64 - OFFSET));
            seed_bars.push(range.unwrap_or((v, v)));
        }
        if let Some((v, spread)) = r.ours {
            ours.points.push((v, k as f64 + OFFSET));
            ours_bars.push(spread);
        }
    }
    // On a log axis an interval reaching zero or below runs off the axis' left edge.
    let edge = |bars: Vec<(f64, f64)>| -> Vec<(f64, f64)> {
        bars.into_iter().map(|(lo, hi)| (if log && lo <= 0.0 { 10f64.powf(x.lo) } else { lo }, hi)).collect()
    };
    let seed = seed.with_bars(edge(seed_bars), true);
    let ours = ours.with_bars(edge(ours_bars), true);
    let height = (160 + 44 * rows.len() as u32).max(360);
    Figure {
        name: name.into(),
        title: title.into(),
        size: (1500, height + 60),
        // No reference figure at all (a measure the seed states in words): no legend entry for it.
        // The legend above the plot: inside, it covers a whisker of some row, and beside it,
        // its long labels would take the width the rows' values need.
        panels: vec![Panel::new(x, y, if seed.points.is_empty() { vec![ours] } else { vec![seed, ours] }).legend_above()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> Vec<VersusRow> {
        vec![
            VersusRow { label: "trial 1 Reno".into(), seed: Some((290.0, Some((288.0, 291.0)))), ours: Some((289.6, (289.0, 290.0))) },
            VersusRow { label: "trial 1 mVegas".into(), seed: Some((94.5, None)), ours: None },
            VersusRow { label: "no seed".into(), seed: None, ours: Some((10.0, (9.0, 11.0))) },
        ]
    }

    #[test]
    fn rows_top_down_with_the_seed_above_ours() {
        let f = figure("v", "t", "Mbit/s", &rows(), false, ("seed", "ours"));
        let p = &f.panels[0];
        assert_eq!(p.y.categories, ["trial 1 Reno", "trial 1 mVegas", "no seed"]);
        assert!(p.y.reversed);
        let (seed, ours) = (&p.series[0], &p.series[1]);
        assert_eq!(seed.points, [(290.0, -OFFSET), (94.5, 1.0 - OFFSET)]);
        assert_eq!(seed.bars, [(288.0, 291.0), (94.5, 94.5)]);
        assert_eq!(ours.points, [(289.6, OFFSET), (10.0, 2.0 + OFFSET)]);
        assert!(p.x.hi >= 291.0 && p.x.lo == 0.0);
    }

    /// Values within a factor of two of each other (shares of about a third) get an axis
    /// around them, not from zero.
    #[test]
    fn values_close_together_get_an_axis_around_them() {
        let rows = [VersusRow { label: "a".into(), seed: Some((0.3, None)), ours: Some((0.34, (0.28, 0.38))) }];
        let x = &figure("v", "t", "share", &rows, false, ("seed", "ours")).panels[0].x;
        assert!(x.lo > 0.2 && x.lo < 0.28 && x.hi > 0.38 && x.hi < 0.5, "{} to {}", x.lo, x.hi);
    }

    /// Rows without a seed's figure draw ours alone, with no legend entry for the seed.
    #[test]
    fn no_reference_series_without_a_reference_figure() {
        let rows = [VersusRow { label: "a".into(), seed: None, ours: Some((1.0, (0.5, 1.5))) }];
        let f = figure("v", "t", "x", &rows, false, ("seed", "ours"));
        let labels: Vec<_> = f.panels[0].series.iter().map(|s| s.label.clone()).collect();
        assert_eq!(labels, [Some("ours".to_string())]);
    }

    /// Differences below zero widen the axis below zero, with a margin on both sides.
    #[test]
    fn negative_values_get_room_below_zero() {
        let rows = [VersusRow { label: "a".into(), seed: Some((0.0, Some((-0.2, 0.1)))), ours: Some((-1.0, (-1.5, 2.0))) }];
        let x = &figure("v", "t", "%", &rows, false, ("kernel", "ours")).panels[0].x;
        assert!(x.lo < -1.5 && x.hi > 2.0, "{} to {}", x.lo, x.hi);
    }

    #[test]
    fn log_axes_cover_whole_decades() {
        let f = figure("v", "t", "goodput", &rows(), true, ("seed", "ours"));
        let x = &f.panels[0].x;
        assert!(x.log);
        assert_eq!((x.lo, x.hi), (0.0, 3.0), "10^0 to 10^3");
    }

    #[test]
    fn on_a_log_axis_an_interval_reaching_zero_runs_to_the_left_edge() {
        let rows = [VersusRow { label: "a".into(), seed: Some((0.65, None)), ours: Some((0.2, (-0.08, 0.47))) }];
        let f = figure("v", "t", "fraction", &rows, true, ("seed", "ours"));
        let p = &f.panels[0];
        // The axis spans the decade of the positive values, 0.1 to 1.
        assert_eq!((p.x.lo, p.x.hi), (-1.0, 0.0));
        let (lo, hi) = p.series[1].bars[0];
        assert!((lo - 0.1).abs() < 1e-12 && hi == 0.47, "{lo} to {hi}");
    }

    #[test]
    fn it_draws() {
        let dir = tempfile::tempdir().unwrap();
        let files = figure("v", "Ours against the seed's", "throughput (Mbit/s)", &rows(), false, ("seed", "ours: mean, min–max")).write(dir.path()).unwrap_or_else(|e| panic!("{}", e.0));
        assert!(std::fs::metadata(&files.png).unwrap().len() > 1000);
    }
}

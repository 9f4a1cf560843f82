//! Ours against the seed's: one row per claim or table cell, the seed's figure as a hollow
//! black square (with its range where the seed gives one; any other reference, a law or the
//! kernel's runs, as a grey hollow triangle) and ours as a filled circle with
//! our spread over seeds (the caller's label says which: minimum to maximum, or the interval a
//! verdict tests). Rows run top to bottom in the order given, so
//! a seed's table reads down the plot as it reads down the page.

use super::chart::{color, Axis, Figure, Marker, Panel, PlotFiles, Series, Style, GUIDE, INK};
use crate::UserError;
use std::path::Path;

/// The legend of a seed's own figures, unless the caller words it (see [`Versus::seed`]).
pub const SEED: &str = "source document (the seed)";

/// One ours-against-a-reference figure, built up and then written:
///
/// ```ignore
/// Versus::new("total-packets", title, axis, &rows).log().bars().ours(label).guides(lines).write(dir)?
/// ```
///
/// By default the hollow marks are the seed's own figures (black squares, legend [`SEED`]), the
/// value axis is linear and the marks are dots.
#[derive(Clone, Debug)]
pub struct Versus<'a> {
    name: &'a str,
    title: &'a str,
    value_axis: &'a str,
    rows: &'a [VersusRow],
    log: bool,
    reference: Reference,
    ours: String,
    bars: bool,
    guides: Vec<Guide>,
}

/// What the hollow marks are.
#[derive(Clone, Debug, PartialEq)]
enum Reference {
    /// The seed's own figures, with their legend.
    Seed(String),
    /// Any other reference (a law, a model, the kernel's runs, an honest baseline).
    Other(String),
}

impl<'a> Versus<'a> {
    /// `value_axis` names the quantity with its unit; rows run top to bottom in the order given.
    pub fn new(name: &'a str, title: &'a str, value_axis: &'a str, rows: &'a [VersusRow]) -> Self {
        Versus { name, title, value_axis, rows, log: false, reference: Reference::Seed(SEED.into()), ours: "ours".into(), bars: false, guides: Vec::new() }
    }

    /// The value axis on a log scale (the marks must then be above zero; a whisker reaching
    /// zero or below runs to the axis' left edge).
    pub fn log(self) -> Self {
        Versus { log: true, ..self }
    }

    /// Our legend, saying what our spread is (e.g. "ours: mean, min–max over 5 runs").
    pub fn ours(self, label: impl Into<String>) -> Self {
        Versus { ours: label.into(), ..self }
    }

    /// The seed's legend worded by the caller (e.g. how many runs its range spans).
    pub fn seed(self, label: impl Into<String>) -> Self {
        Versus { reference: Reference::Seed(label.into()), ..self }
    }

    /// The hollow marks are another reference than the seed's (a law, the kernel's runs, an
    /// honest baseline), named by `label`: drawn as grey hollow triangles, so that a hollow
    /// black square always means the seed's own figure.
    pub fn against(self, label: impl Into<String>) -> Self {
        Versus { reference: Reference::Other(label.into()), ..self }
    }

    /// Bars instead of dots, the reference's outlined and ours filled, each from zero with its
    /// range as a whisker: for counts a talk's slides show as bars. A linear axis then starts
    /// at zero, as a bar's length must; on a log axis bars start at its left edge.
    pub fn bars(self) -> Self {
        Versus { bars: true, ..self }
    }

    /// Reference lines across every row (a fair share, a threshold, a buffer's size).
    pub fn guides(self, guides: Vec<Guide>) -> Self {
        Versus { guides, ..self }
    }

    /// The figure, not yet written.
    pub fn figure(&self) -> Figure {
        let reference = match &self.reference {
            Reference::Seed(label) | Reference::Other(label) => label.as_str(),
        };
        let mut f = figure(self.name, self.title, self.value_axis, self.rows, self.log, (reference, &self.ours));
        if matches!(self.reference, Reference::Other(_)) {
            f = other_reference(f);
        }
        if self.bars {
            f = as_bars(f);
        }
        with_guides(f, &self.guides)
    }

    /// The figure written into `dir` as PNG and SVG.
    pub fn write(&self, dir: &Path) -> Result<PlotFiles, UserError> {
        self.figure().write(dir)
    }
}

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
fn figure(name: &str, title: &str, value_axis: &str, rows: &[VersusRow], log: bool, (reference_label, ours_label): (&str, &str)) -> Figure {
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

/// A reference value the claims are read against (a fair share, a threshold, a buffer's
/// size): a dashed vertical line across every row, named in the legend.
#[derive(Clone, Debug, PartialEq)]
pub struct Guide {
    pub value: f64,
    pub label: String,
}

/// `figure` with `guides` drawn over its rows, each in its own colour (after the seed's ink
/// and our colour 0); the value axis widens to take them in.
fn with_guides(mut figure: Figure, guides: &[Guide]) -> Figure {
    let panel = &mut figure.panels[0];
    let rows = panel.y.categories.len() as f64;
    for (k, g) in guides.iter().enumerate() {
        if panel.x.log {
            if g.value <= 0.0 {
                continue;
            }
            panel.x.lo = panel.x.lo.min(g.value.log10().floor());
            panel.x.hi = panel.x.hi.max(g.value.log10().ceil());
        } else {
            let margin = (panel.x.hi - panel.x.lo) * 0.03;
            panel.x.lo = panel.x.lo.min(g.value - margin);
            panel.x.hi = panel.x.hi.max(g.value + margin);
        }
        let line = vec![(g.value, -0.5), (g.value, rows - 0.5)];
        panel.series.push(Series::new(Some(g.label.clone()), if k == 0 { GUIDE } else { color(k + 1) }, Style::Dashed, line));
    }
    figure
}

/// `figure` with a reference that is not the seed's (a law, a model, another paper, the
/// kernel's runs, an honest baseline): its marks become grey hollow triangles, so that a
/// hollow black square always means the seed's own figure.
fn other_reference(mut figure: Figure) -> Figure {
    let panel = &mut figure.panels[0];
    if let Some(s) = panel.series.iter_mut().find(|s| s.style == (Style::Points { marker: Marker::Square, hollow: true })) {
        s.style = Style::Points { marker: Marker::Triangle, hollow: true };
        s.color = GUIDE;
    }
    figure
}

/// `figure` drawn as bars, the seed's outlined and ours filled, each from zero with its range
/// as a whisker: for counts a talk's slides show as bars. A linear axis then starts at zero,
/// as a bar's length must.
fn as_bars(mut figure: Figure) -> Figure {
    let panel = &mut figure.panels[0];
    // With no seed's bar beside it, ours sits on its row's line.
    let alone = panel.series.len() == 1;
    for s in &mut panel.series {
        if let Style::Points { hollow, .. } = s.style {
            s.style = Style::Bars { hollow };
        }
        if alone {
            s.points.iter_mut().for_each(|p| p.1 -= OFFSET);
        }
    }
    if !panel.x.log {
        panel.x.lo = panel.x.lo.min(0.0);
    }
    figure
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

    /// A guide spans every row at its value, and the axis takes in a guide beyond the data.
    #[test]
    fn a_guide_crosses_every_row_and_widens_the_axis() {
        let f = figure("v", "t", "Mbit/s", &rows(), false, ("seed", "ours"));
        let top = f.panels[0].x.hi;
        let f = with_guides(f, &[Guide { value: top * 2.0, label: "buffer".into() }]);
        let p = &f.panels[0];
        let g = p.series.last().unwrap();
        assert_eq!(g.label.as_deref(), Some("buffer"));
        assert_eq!(g.points, [(top * 2.0, -0.5), (top * 2.0, 2.5)], "three rows: -0.5 to 2.5");
        assert!(p.x.hi > top * 2.0);
    }

    /// As bars, the seed's are outlined and ours filled, and the axis reaches zero even where
    /// the values alone would get an axis around them.
    #[test]
    fn bars_are_outlined_for_the_seed_filled_for_ours_and_start_at_zero() {
        let rows = [VersusRow { label: "a".into(), seed: Some((0.3, None)), ours: Some((0.34, (0.28, 0.38))) }];
        let f = as_bars(figure("v", "t", "share", &rows, false, ("seed", "ours")));
        let p = &f.panels[0];
        assert_eq!((p.series[0].style, p.series[1].style), (Style::Bars { hollow: true }, Style::Bars { hollow: false }));
        assert_eq!(p.x.lo, 0.0);
        // Ours alone: on the row's line.
        let rows = [VersusRow { label: "a".into(), seed: None, ours: Some((0.34, (0.28, 0.38))) }];
        assert_eq!(as_bars(figure("v", "t", "share", &rows, false, ("seed", "ours"))).panels[0].series[0].points, [(0.34, 0.0)]);
        let dir = tempfile::tempdir().unwrap();
        let files = f.write(dir.path()).unwrap_or_else(|e| panic!("{}", e.0));
        assert!(std::fs::metadata(&files.png).unwrap().len() > 1000);
    }

    /// Another reference than the seed's is drawn as grey hollow triangles; ours keep theirs.
    #[test]
    fn another_reference_is_not_drawn_as_the_seed() {
        let f = other_reference(figure("v", "t", "ms", &rows(), false, ("law", "ours")));
        let p = &f.panels[0];
        assert_eq!((p.series[0].style, p.series[0].color), (Style::Points { marker: Marker::Triangle, hollow: true }, GUIDE));
        assert_eq!(p.series[1].style, Style::Points { marker: Marker::Circle, hollow: false });
    }

    /// The builder composes its steps: another reference, drawn as bars, with a guide, on a
    /// log axis; and by default the seed's legend, dots and a linear axis.
    #[test]
    fn the_builder_composes_reference_bars_guides_and_axis() {
        let rows = rows();
        let f = Versus::new("v", "t", "Mbit/s", &rows).log().against("law").ours("ours: mean").bars().guides(vec![Guide { value: 5000.0, label: "cap".into() }]).figure();
        let p = &f.panels[0];
        assert!(p.x.log && p.x.hi >= 4.0, "the guide at 5000 widens the axis to 10^4: {}", p.x.hi);
        assert_eq!((p.series[0].label.as_deref(), p.series[0].style, p.series[0].color), (Some("law"), Style::Bars { hollow: true }, GUIDE));
        assert_eq!((p.series[1].label.as_deref(), p.series[1].style), (Some("ours: mean"), Style::Bars { hollow: false }));
        assert_eq!(p.series[2].label.as_deref(), Some("cap"));
        let f = Versus::new("v", "t", "Mbit/s", &rows).figure();
        let p = &f.panels[0];
        assert!(!p.x.log);
        assert_eq!(p.series.len(), 2);
        assert_eq!((p.series[0].label.as_deref(), p.series[0].style, p.series[0].color), (Some(SEED), Style::Points { marker: Marker::Square, hollow: true }, INK));
        assert_eq!(p.series[1].label.as_deref(), Some("ours"));
    }

    #[test]
    fn it_draws() {
        let dir = tempfile::tempdir().unwrap();
        let files = figure("v", "Ours against the seed's", "throughput (Mbit/s)", &rows(), false, ("seed", "ours: mean, min–max")).write(dir.path()).unwrap_or_else(|e| panic!("{}", e.0));
        assert!(std::fs::metadata(&files.png).unwrap().len() > 1000);
    }
}

//! A figure described as data (panels of line, dashed and point series) and drawn by one
//! renderer on both backends, so that the PNG and the SVG of a plot are the same picture.

use super::font;
use crate::UserError;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// The two files of one plot.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotFiles {
    pub title: String,
    pub png: PathBuf,
    pub svg: PathBuf,
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Style {
    Line { width: u32 },
    Dashed,
    /// Markers joined by a thin line (a trajectory).
    Path,
    /// Markers, each with the series label written beside it.
    Labelled,
}

#[derive(Clone, Debug)]
pub struct Series {
    /// Legend entry; `None` keeps the series out of the legend.
    pub label: Option<String>,
    pub color: RGBColor,
    pub style: Style,
    pub points: Vec<(f64, f64)>,
}

impl Series {
    pub fn new(label: Option<String>, color: RGBColor, style: Style, points: Vec<(f64, f64)>) -> Series {
        Series { label, color, style, points }
    }
}

/// One axis: its label (with unit) and range. A reversed axis grows to the left.
#[derive(Clone, Debug)]
pub struct Axis {
    pub label: String,
    pub lo: f64,
    pub hi: f64,
    pub reversed: bool,
}

impl Axis {
    pub fn new(label: &str, lo: f64, hi: f64) -> Axis {
        let hi = if hi > lo { hi } else { lo + 1.0 };
        Axis { label: label.to_string(), lo, hi, reversed: false }
    }

    /// From `lo` to the largest value (with 8 % headroom), at least `lo + 1`.
    pub fn fit(label: &str, lo: f64, values: impl IntoIterator<Item = f64>) -> Axis {
        let max = values.into_iter().filter(|v| v.is_finite()).fold(lo, f64::max);
        Axis::new(label, lo, lo + (max - lo) * 1.08)
    }

    pub fn reversed(mut self) -> Axis {
        self.reversed = true;
        self
    }

    /// Drawing coordinates: a reversed axis is drawn as its negation.
    fn range(&self) -> std::ops::Range<f64> {
        if self.reversed {
            -self.hi..-self.lo
        } else {
            self.lo..self.hi
        }
    }

    fn map(&self, v: f64) -> f64 {
        if self.reversed {
            -v
        } else {
            v
        }
    }
}

#[derive(Clone, Debug)]
pub struct Panel {
    pub x: Axis,
    pub y: Axis,
    pub series: Vec<Series>,
    pub legend: SeriesLabelPosition,
}

impl Panel {
    pub fn new(x: Axis, y: Axis, series: Vec<Series>) -> Panel {
        Panel { x, y, series, legend: SeriesLabelPosition::UpperRight }
    }

    pub fn legend_at(mut self, at: SeriesLabelPosition) -> Panel {
        self.legend = at;
        self
    }
}

/// A titled figure of panels stacked vertically, written as `NAME.png` and `NAME.svg`.
#[derive(Clone, Debug)]
pub struct Figure {
    pub name: String,
    pub title: String,
    pub size: (u32, u32),
    pub panels: Vec<Panel>,
}

pub const WIDE: (u32, u32) = (1200, 675);
pub const TALL: (u32, u32) = (1200, 900);
pub const SQUARE: (u32, u32) = (900, 900);

/// Tableau's ten colours (matplotlib's `tab10`): flow *k* takes colour *k* mod 10.
pub fn color(k: usize) -> RGBColor {
    const TAB10: [(u8, u8, u8); 10] = [
        (31, 119, 180),
        (255, 127, 14),
        (44, 160, 44),
        (214, 39, 40),
        (148, 103, 189),
        (140, 86, 75),
        (227, 119, 194),
        (127, 127, 127),
        (188, 189, 34),
        (23, 190, 207),
    ];
    let (r, g, b) = TAB10[k % TAB10.len()];
    RGBColor(r, g, b)
}

pub const INK: RGBColor = RGBColor(20, 20, 20);
pub const GUIDE: RGBColor = RGBColor(110, 110, 110);

impl Figure {
    /// Draws the figure as PNG and SVG in `dir` (created if needed).
    pub fn write(&self, dir: &Path) -> Result<PlotFiles, UserError> {
        font::register();
        std::fs::create_dir_all(dir).map_err(|e| UserError(format!("{}: {e}", dir.display())))?;
        let png = dir.join(format!("{}.png", self.name));
        let svg = dir.join(format!("{}.svg", self.name));
        let failed = |p: &Path, e: String| UserError(format!("{}: cannot draw the plot: {e}", p.display()));
        draw(BitMapBackend::new(&png, self.size).into_drawing_area(), self).map_err(|e| failed(&png, e))?;
        draw(SVGBackend::new(&svg, self.size).into_drawing_area(), self).map_err(|e| failed(&svg, e))?;
        Ok(PlotFiles { title: self.title.clone(), png, svg })
    }
}

fn err<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> String {
    e.to_string()
}

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, fig: &Figure) -> Result<(), String> {
    root.fill(&WHITE).map_err(err)?;
    let body = root.titled(&fig.title, (font::FAMILY, 30).into_font().style(FontStyle::Bold).color(&INK)).map_err(err)?;
    for (area, panel) in body.split_evenly((fig.panels.len().max(1), 1)).into_iter().zip(&fig.panels) {
        draw_panel(&area, panel)?;
    }
    root.present().map_err(err)
}

/// Tick labels print magnitudes, so that a reversed (negated) axis reads in its own units.
fn tick(v: f64) -> String {
    crate::report::num(v.abs())
}

fn draw_panel<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, p: &Panel) -> Result<(), String> {
    let mut chart = ChartBuilder::on(area)
        .margin(16)
        .x_label_area_size(56)
        .y_label_area_size(84)
        .build_cartesian_2d(p.x.range(), p.y.range())
        .map_err(err)?;
    let label_font = (font::FAMILY, 20).into_font().color(&INK);
    let tick_font = (font::FAMILY, 16).into_font().color(&INK);
    chart
        .configure_mesh()
        .x_desc(p.x.label.as_str())
        .y_desc(p.y.label.as_str())
        .axis_desc_style(label_font)
        .label_style(tick_font)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v))
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(205, 205, 205))
        .draw()
        .map_err(err)?;
    let mut labelled = false;
    let mut placer = LabelPlacer::default();
    for s in &p.series {
        let pts: Vec<(f64, f64)> = s.points.iter().map(|&(x, y)| (p.x.map(x), p.y.map(y))).collect();
        let c = s.color;
        let annotation = chart.draw_series(series_elements(&pts, s)).map_err(err)?;
        if let Some(label) = &s.label {
            labelled = true;
            // The legend's sample is drawn as the series is.
            let anno = annotation.label(label.as_str());
            let line = move |w: u32| ShapeStyle::from(&c).stroke_width(w);
            match s.style {
                Style::Line { width } => anno.legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], line(width.max(2)))),
                Style::Dashed => anno.legend(move |(x, y)| DashedPathElement::new(vec![(x, y), (x + 22, y)], 7, 5, line(2))),
                Style::Path | Style::Labelled => anno.legend(move |(x, y)| Circle::new((x + 11, y), 5, line(1).filled())),
            };
        }
        if s.style == Style::Labelled {
            if let Some(label) = &s.label {
                let text = (font::FAMILY, 16).into_font().color(&c);
                for &pt in &pts {
                    let at = placer.place(chart.backend_coord(&pt), label);
                    chart.draw_series([EmptyElement::at(pt) + Text::new(label.clone(), at, text.clone())]).map_err(err)?;
                }
            }
        }
    }
    if labelled {
        chart
            .configure_series_labels()
            .position(p.legend.clone())
            .label_font((font::FAMILY, 16).into_font().color(&INK))
            .background_style(WHITE.mix(0.85))
            .border_style(GUIDE)
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

/// Puts point labels where they do not cover one another: beside the point, above or below
/// it, on its right or else its left, in the first free place.
#[derive(Default)]
struct LabelPlacer {
    taken: Vec<(i32, i32, i32, i32)>,
}

impl LabelPlacer {
    /// The label's offset from its point, in pixels.
    fn place(&mut self, (px, py): (i32, i32), label: &str) -> (i32, i32) {
        let (w, h) = (label.chars().count() as i32 * 9 + 4, 20);
        let candidates = [(10, -22), (10, 4), (10, -42), (10, 24), (-10 - w, -22), (-10 - w, 4), (10, -62), (10, 44)];
        let overlaps = |(x0, y0, x1, y1): (i32, i32, i32, i32)| self.taken.iter().any(|t| x0 < t.2 && t.0 < x1 && y0 < t.3 && t.1 < y1);
        let boxed = |(dx, dy): (i32, i32)| (px + dx, py + dy, px + dx + w, py + dy + h);
        let at = candidates.into_iter().find(|&c| !overlaps(boxed(c))).unwrap_or(candidates[0]);
        self.taken.push(boxed(at));
        at
    }
}

/// The elements of one series, boxed so that every style yields the same type.
fn series_elements<DB: DrawingBackend>(pts: &[(f64, f64)], s: &Series) -> Vec<DynElement<'static, DB, (f64, f64)>> {
    let c = s.color;
    match s.style {
        Style::Line { width } => vec![PathElement::new(pts.to_vec(), ShapeStyle::from(&c).stroke_width(width)).into_dyn()],
        Style::Dashed => DashedLineSeries::new(pts.to_vec(), 8, 6, ShapeStyle::from(&c).stroke_width(2))
            .into_iter()
            .map(|e| e.into_dyn())
            .collect(),
        Style::Path => std::iter::once(PathElement::new(pts.to_vec(), ShapeStyle::from(&c.mix(0.5)).stroke_width(1)).into_dyn())
            .chain(pts.iter().map(|&pt| Circle::new(pt, 3, ShapeStyle::from(&c).filled()).into_dyn()))
            .collect(),
        Style::Labelled => pts.iter().map(|&pt| Circle::new(pt, 7, ShapeStyle::from(&c).filled()).into_dyn()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_read_as_magnitudes() {
        assert_eq!(tick(-150.0), "150");
        assert_eq!(tick(12.5), "12.5");
    }

    #[test]
    fn labels_of_close_points_do_not_overlap() {
        let mut p = LabelPlacer::default();
        let a = p.place((100, 100), "0 bbr");
        let b = p.place((101, 100), "2 cubic");
        let c = p.place((500, 100), "far");
        assert_eq!(a, (10, -22));
        assert_ne!(a, b);
        assert_eq!(c, (10, -22));
    }

    #[test]
    fn axes_fit_the_data() {
        let a = Axis::fit("x", 0.0, [1.0, 50.0, f64::NAN]);
        assert_eq!((a.lo, a.hi), (0.0, 54.0));
        assert_eq!(Axis::fit("x", 0.0, []).hi, 1.0);
        let r = Axis::new("d", 10.0, 200.0).reversed();
        assert_eq!(r.range(), -200.0..-10.0);
        assert_eq!(r.map(50.0), -50.0);
    }
}

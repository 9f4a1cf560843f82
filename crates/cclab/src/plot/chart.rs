//! A figure described as data (panels of line, dashed and point series) and drawn by one
//! renderer on both backends, so that the PNG and the SVG of a plot are the same picture.

use super::font;
use crate::UserError;
use plotters::coord::Shift;
use plotters_backend::{BackendCoord, DrawingErrorKind};
use plotters::element::{DashedPathElement, Drawable, PointCollection};
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
    /// Markers alone (filled or hollow), with the series' error bars if it has any.
    Points { marker: Marker, hollow: bool },
}

/// A point's shape: with colour, it tells series apart when ten colours are not enough.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Marker {
    Circle,
    Square,
    Triangle,
    Cross,
}

#[derive(Clone, Debug)]
pub struct Series {
    /// Legend entry; `None` keeps the series out of the legend.
    pub label: Option<String>,
    pub color: RGBColor,
    pub style: Style,
    pub points: Vec<(f64, f64)>,
    /// Error bars along the value axis, one `(low, high)` per point (or none): a seed's range,
    /// our spread over seeds.
    pub bars: Vec<(f64, f64)>,
    pub horizontal_bars: bool,
}

impl Series {
    pub fn new(label: Option<String>, color: RGBColor, style: Style, points: Vec<(f64, f64)>) -> Series {
        Series { label, color, style, points, bars: Vec::new(), horizontal_bars: false }
    }

    /// Error bars on the x axis (`horizontal`) or the y axis, one per point.
    pub fn with_bars(mut self, bars: Vec<(f64, f64)>, horizontal: bool) -> Series {
        self.bars = bars;
        self.horizontal_bars = horizontal;
        self
    }
}

/// One axis: its label (with unit) and range. A reversed axis grows to the left.
#[derive(Clone, Debug)]
pub struct Axis {
    pub label: String,
    pub lo: f64,
    pub hi: f64,
    pub reversed: bool,
    /// Logarithmic: values are drawn at their log10 and ticks read as powers of ten.
    pub log: bool,
    /// Named categories at 0, 1, 2...: ticks read as the names.
    pub categories: Vec<String>,
}

impl Axis {
    pub fn new(label: &str, lo: f64, hi: f64) -> Axis {
        let hi = if hi > lo { hi } else { lo + 1.0 };
        Axis { label: label.to_string(), lo, hi, reversed: false, log: false, categories: Vec::new() }
    }

    /// A logarithmic axis from `lo` to `hi` (both above zero).
    pub fn log(label: &str, lo: f64, hi: f64) -> Axis {
        let mut a = Axis::new(label, lo.log10(), hi.log10());
        a.log = true;
        a
    }

    /// One position per category, the first at the top of a vertical axis (or the left of a
    /// horizontal one).
    pub fn categorical(label: &str, names: Vec<String>, top_down: bool) -> Axis {
        let mut a = Axis::new(label, -0.5, names.len() as f64 - 0.5);
        a.categories = names;
        a.reversed = top_down;
        a
    }

    /// The tick text at drawing coordinate `v`.
    fn tick(&self, v: f64) -> String {
        let v = if self.reversed { -v } else { v };
        if !self.categories.is_empty() {
            let k = v.round();
            return if (v - k).abs() < 1e-6 && k >= 0.0 { self.categories.get(k as usize).cloned().unwrap_or_default() } else { String::new() };
        }
        if self.log {
            return if (v - v.round()).abs() < 1e-6 { crate::table::num(10f64.powf(v.round())) } else { String::new() };
        }
        crate::table::num(v)
    }

    /// How many ticks to ask for: one per category or per decade, else the default.
    fn ticks(&self) -> usize {
        if !self.categories.is_empty() {
            self.categories.len() + 1
        } else if self.log {
            (self.hi - self.lo).ceil() as usize + 2
        } else {
            10
        }
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
        let v = if self.log { v.max(f64::MIN_POSITIVE).log10() } else { v };
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

fn draw_panel<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, p: &Panel) -> Result<(), String> {
    let mut chart = ChartBuilder::on(area)
        .margin(16)
        .x_label_area_size(56)
        .y_label_area_size(if p.y.categories.is_empty() { 84 } else { 40 + 10 * p.y.categories.iter().map(|c| c.chars().count() as u32).max().unwrap_or(0) })
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
        .x_labels(p.x.ticks())
        .y_labels(p.y.ticks())
        .x_label_formatter(&|v| p.x.tick(*v))
        .y_label_formatter(&|v| p.y.tick(*v))
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(205, 205, 205))
        .draw()
        .map_err(err)?;
    let mut labelled = false;
    let mut placer = LabelPlacer::default();
    for s in &p.series {
        let pts: Vec<(f64, f64)> = s.points.iter().map(|&(x, y)| (p.x.map(x), p.y.map(y))).collect();
        let bars = s.bars.iter().zip(&s.points).map(|(&(lo, hi), &(x, y))| {
            let ends = if s.horizontal_bars { [(p.x.map(lo), p.y.map(y)), (p.x.map(hi), p.y.map(y))] } else { [(p.x.map(x), p.y.map(lo)), (p.x.map(x), p.y.map(hi))] };
            PathElement::new(ends.to_vec(), ShapeStyle::from(&s.color).stroke_width(2))
        });
        chart.draw_series(bars).map_err(err)?;
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
                Style::Points { marker, hollow } => anno.legend(move |(x, y)| MarkerShape { at: (x + 11, y), marker, hollow, color: c }),
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
        Style::Points { marker, hollow } => {
            pts.iter().map(|&at| MarkerShape { at, marker, hollow, color: c }.into_dyn()).collect()
        }
    }
}

/// A marker of about 14 pixels across centred on its point, drawn straight on the backend so
/// that it keeps its size whatever the axes.
struct MarkerShape<C> {
    at: C,
    marker: Marker,
    hollow: bool,
    color: RGBColor,
}

impl<'a, C> PointCollection<'a, C> for &'a MarkerShape<C> {
    type Point = &'a C;
    type IntoIter = std::iter::Once<&'a C>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.at)
    }
}

impl<C, DB: DrawingBackend> Drawable<DB> for MarkerShape<C> {
    fn draw<I: Iterator<Item = BackendCoord>>(&self, mut points: I, backend: &mut DB, _: (u32, u32)) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        let Some((x, y)) = points.next() else { return Ok(()) };
        let fill = !self.hollow;
        let style = ShapeStyle::from(&self.color).stroke_width(2);
        match self.marker {
            Marker::Circle => backend.draw_circle((x, y), 7, &style, fill),
            Marker::Square => backend.draw_rect((x - 6, y - 6), (x + 6, y + 6), &style, fill),
            Marker::Triangle => {
                let corners = [(x, y - 8), (x + 7, y + 5), (x - 7, y + 5)];
                if fill {
                    backend.fill_polygon(corners, &style)
                } else {
                    backend.draw_path(corners.into_iter().chain([corners[0]]), &style)
                }
            }
            Marker::Cross => {
                let thick = style.stroke_width(3);
                backend.draw_line((x - 6, y - 6), (x + 6, y + 6), &thick)?;
                backend.draw_line((x - 6, y + 6), (x + 6, y - 6), &thick)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_read_as_magnitudes() {
        let reversed = Axis::new("d", 10.0, 200.0).reversed();
        assert_eq!(reversed.tick(-150.0), "150");
        assert_eq!(Axis::new("x", 0.0, 20.0).tick(12.5), "12.5");
        let log = Axis::log("p", 0.001, 1.0);
        assert_eq!((log.lo, log.hi), (-3.0, 0.0));
        assert_eq!((log.tick(-2.0), log.tick(-1.5), log.tick(0.0)), ("0.01".into(), String::new(), "1".into()));
        assert_eq!(log.map(0.1), -1.0);
        let cats = Axis::categorical("", vec!["a".into(), "b".into()], true);
        assert_eq!((cats.tick(-0.0), cats.tick(-1.0), cats.tick(-0.5), cats.tick(-2.0)), ("a".into(), "b".into(), String::new(), String::new()));
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

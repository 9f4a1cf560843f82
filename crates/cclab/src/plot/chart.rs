//! A figure described as data (panels of line, dashed and point series) and drawn by one
//! renderer on both backends, so that the PNG and the SVG of a plot are the same picture.

use super::font;
use crate::UserError;
use plotters::coord::Shift;
use plotters_backend::{BackendCoord, DrawingErrorKind};
use plotters::element::{DashedPathElement, Drawable, PointCollection};
use plotters::chart::SeriesLabelPosition;
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
    /// Markers of one shape, each with the series label written beside it.
    Labelled { marker: Marker },
    /// Markers alone (filled or hollow), with the series' error bars if it has any.
    Points { marker: Marker, hollow: bool },
    /// Bars along the x axis from zero (or the axis' left edge) to each point's x, a fifth
    /// of a category thick and centred on its y (filled or outlined), with the series' error
    /// bars if it has any: a dot plot's rows drawn as the bars a talk's slides show.
    Bars { hollow: bool },
}

/// Half a bar's thickness, in categories.
const BAR_HALF: f64 = 0.1;

/// A point's shape: with colour, it tells series apart when ten colours are not enough.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Marker {
    Circle,
    Square,
    Triangle,
    Cross,
}

impl Marker {
    /// Series *k*'s marker when series are told apart by colour *k* mod 10 and marker: the
    /// first ten are circles, the next ten squares, then triangles, then crosses, so that no
    /// two of forty series look alike.
    pub fn nth(k: usize) -> Marker {
        [Marker::Circle, Marker::Square, Marker::Triangle, Marker::Cross][(k / 10) % 4]
    }
}

/// Where a panel's legend goes.
#[derive(Clone, Debug)]
pub enum Legend {
    /// In the corner or along the edge of the plot that covers the fewest drawn points.
    Auto,
    At(SeriesLabelPosition),
    /// In a column right of the plot, never over the data.
    Outside,
    /// In a band above the plot, one entry per line, never over the data: for plots whose
    /// labels are long and whose data need the whole width.
    Above,
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
        // A tick at zero on a reversed axis comes as −0, and float steps leave residues like
        // 1e-17 where a tick is 0: both read "0".
        let v = if v.abs() < (self.hi - self.lo).abs() * 1e-9 { 0.0 } else { v };
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
    pub legend: Legend,
}

impl Panel {
    pub fn new(x: Axis, y: Axis, series: Vec<Series>) -> Panel {
        Panel { x, y, series, legend: Legend::Auto }
    }

    pub fn legend_at(mut self, at: SeriesLabelPosition) -> Panel {
        self.legend = Legend::At(at);
        self
    }

    /// The legend in a band of its own above the plot.
    pub fn legend_above(mut self) -> Panel {
        self.legend = Legend::Above;
        self
    }

    /// The legend in a column of its own right of the plot.
    pub fn legend_outside(mut self) -> Panel {
        self.legend = Legend::Outside;
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
    let body = root.titled(&fig.title, (font::FAMILY, title_size(&fig.title, fig.size.0)).into_font().style(FontStyle::Bold).color(&INK)).map_err(err)?;
    for (area, panel) in body.split_evenly((fig.panels.len().max(1), 1)).into_iter().zip(&fig.panels) {
        draw_panel(&area, panel)?;
    }
    root.present().map_err(err)
}

/// The title's font size: 30 pixels, or less for a title too long for the figure's width
/// (a bold character of this font averages 0.47 of the size wide as plotters draws it: a
/// 95-character title at 27 pixels spans about 1215; 0.5 leaves a margin), so that none of it
/// is cut.
fn title_size(title: &str, width: u32) -> f64 {
    let chars = title.chars().count().max(1) as f64;
    (f64::from(width.saturating_sub(40)) / (0.5 * chars)).clamp(12.0, 30.0)
}

/// The legend's size in pixels as plotters lays it out (16-pixel text, 30-pixel samples,
/// 10-pixel margins), for choosing where it goes.
fn legend_size(labels: &[&str]) -> (i32, i32) {
    let chars = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as i32;
    (chars * 9 + 30 + 20, labels.len() as i32 * 19 + 20)
}

/// Of the eight places along the plot's edges, the one where a legend of `size` covers the
/// fewest of `pixels` (the drawn points, lines sampled every few pixels); the upper right
/// wins ties, then the other corners.
fn emptiest_place(pixels: &[(i32, i32)], plot: (std::ops::Range<i32>, std::ops::Range<i32>), size: (i32, i32)) -> SeriesLabelPosition {
    use SeriesLabelPosition::*;
    let (xs, ys) = plot;
    let places = [UpperRight, UpperLeft, LowerRight, LowerLeft, MiddleRight, MiddleLeft, UpperMiddle, LowerMiddle];
    let covered = |p: &SeriesLabelPosition| {
        let x0 = match p {
            UpperLeft | MiddleLeft | LowerLeft => xs.start + 5,
            UpperMiddle | LowerMiddle | MiddleMiddle => (xs.start + xs.end - size.0) / 2,
            _ => xs.end - size.0 - 5,
        };
        let y0 = match p {
            UpperLeft | UpperMiddle | UpperRight => ys.start + 5,
            MiddleLeft | MiddleRight | MiddleMiddle => (ys.start + ys.end - size.1) / 2,
            _ => ys.end - size.1 - 5,
        };
        pixels.iter().filter(|&&(x, y)| x >= x0 && x <= x0 + size.0 && y >= y0 && y <= y0 + size.1).count()
    };
    let mut best = (usize::MAX, UpperRight);
    for p in places {
        let c = covered(&p);
        if c < best.0 {
            best = (c, p);
        }
    }
    best.1
}

/// The pixels a series covers: its points, and for lines the segments between them sampled
/// every four pixels.
fn covered_pixels(pts: &[(i32, i32)], joined: bool) -> Vec<(i32, i32)> {
    if !joined {
        return pts.to_vec();
    }
    let mut out = Vec::new();
    for w in pts.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        let steps = ((x1 - x0).abs().max((y1 - y0).abs()) / 4).clamp(1, 2000);
        out.extend((0..steps).map(|k| (x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps)));
    }
    out.extend(pts.last());
    out
}

/// The height of one legend entry, pixels.
const LEGEND_LINE: i32 = 22;

/// A legend entry's sample, drawn as the series is, centred vertically on `(x, y)` and 22
/// pixels wide.
fn legend_sample<DB: DrawingBackend>(style: Style, c: RGBColor, (x, y): BackendCoord) -> DynElement<'static, DB, BackendCoord> {
    let line = |w: u32| ShapeStyle::from(&c).stroke_width(w);
    match style {
        Style::Line { width } => PathElement::new(vec![(x, y), (x + 22, y)], line(width.max(2))).into_dyn(),
        Style::Dashed => DashedPathElement::new(vec![(x, y), (x + 22, y)], 7, 5, line(2)).into_dyn(),
        Style::Path => Circle::new((x + 11, y), 5, line(1).filled()).into_dyn(),
        Style::Labelled { marker } => MarkerShape { at: (x + 11, y), marker, hollow: false, color: c }.into_dyn(),
        Style::Points { marker, hollow } => MarkerShape { at: (x + 11, y), marker, hollow, color: c }.into_dyn(),
        Style::Bars { hollow } => Rectangle::new([(x + 2, y - 6), (x + 20, y + 6)], if hollow { line(2) } else { line(1).filled() }).into_dyn(),
    }
}

fn draw_panel<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, p: &Panel) -> Result<(), String> {
    let labels: Vec<&str> = p.series.iter().filter_map(|s| s.label.as_deref()).collect();
    // A legend outside the plot takes a column on the right.
    // One above it, a band on top.
    let (area, legend_column, above) = match (&p.legend, labels.is_empty()) {
        (Legend::Outside, false) => {
            let width = legend_size(&labels).0 + 10;
            let (plot, column) = area.split_horizontally(area.dim_in_pixel().0 as i32 - width);
            (plot, Some(column), false)
        }
        (Legend::Above, false) => {
            let (band, plot) = area.split_vertically(LEGEND_LINE * labels.len() as i32 + 12);
            (plot, Some(band), true)
        }
        _ => (area.clone(), None, false),
    };
    let mut chart = ChartBuilder::on(&area)
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
    let mut placer = LabelPlacer::default();
    let mut drawn: Vec<(i32, i32)> = Vec::new();
    for s in &p.series {
        let pts: Vec<(f64, f64)> = s.points.iter().map(|&(x, y)| (p.x.map(x), p.y.map(y))).collect();
        // Error bars go under markers, in the series' colour, and over bars, in ink.
        let on_bars = matches!(s.style, Style::Bars { .. });
        let whiskers = || {
            s.bars.iter().zip(&s.points).map(|(&(lo, hi), &(x, y))| {
                let ends = if s.horizontal_bars { [(p.x.map(lo), p.y.map(y)), (p.x.map(hi), p.y.map(y))] } else { [(p.x.map(x), p.y.map(lo)), (p.x.map(x), p.y.map(hi))] };
                PathElement::new(ends.to_vec(), ShapeStyle::from(&if on_bars { INK } else { s.color }).stroke_width(2))
            })
        };
        if !on_bars {
            chart.draw_series(whiskers()).map_err(err)?;
        }
        let pixels: Vec<(i32, i32)> = pts.iter().map(|pt| chart.backend_coord(pt)).collect();
        drawn.extend(covered_pixels(&pixels, matches!(s.style, Style::Line { .. } | Style::Dashed | Style::Path)));
        let (c, style) = (s.color, s.style);
        // Bars start at zero, or at the axis' left edge when zero is off it (a log axis).
        let base = if p.x.log { p.x.lo } else { 0f64.clamp(p.x.lo, p.x.hi) };
        let annotation = chart.draw_series(series_elements(&pts, s, base)).map_err(err)?;
        if let (Some(label), None) = (&s.label, &legend_column) {
            annotation.label(label.as_str()).legend(move |at| legend_sample(style, c, at));
        }
        if on_bars {
            chart.draw_series(whiskers()).map_err(err)?;
        }
        if let (Style::Labelled { .. }, Some(label)) = (s.style, &s.label) {
            let text = (font::FAMILY, 16).into_font().color(&c);
            for &pt in &pts {
                let at = placer.place(chart.backend_coord(&pt), label);
                chart.draw_series([EmptyElement::at(pt) + Text::new(label.clone(), at, text.clone())]).map_err(err)?;
            }
        }
    }
    if labels.is_empty() {
        return Ok(());
    }
    if let Some(column) = legend_column {
        // One entry per line from the top of the plot (or of the band above it, from the
        // plot's left edge), sample then label, as plotters draws them.
        let text = (font::FAMILY, 16).into_font().color(&INK);
        let (left, top) = if above {
            ((chart.plotting_area().get_pixel_range().0.start - column.get_base_pixel().0).max(0) as u32, 0)
        } else {
            (0, chart.plotting_area().get_pixel_range().1.start - column.get_base_pixel().1)
        };
        let (w, h) = column.dim_in_pixel();
        let column = column.shrink((left.min(w), 0), (w - left.min(w), h));
        for (k, s) in p.series.iter().filter(|s| s.label.is_some()).enumerate() {
            let y = top + 12 + LEGEND_LINE * k as i32;
            column.draw(&legend_sample(s.style, s.color, (6, y))).map_err(err)?;
            column.draw(&Text::new(s.label.clone().unwrap_or_default(), (36, y - 9), text.clone())).map_err(err)?;
        }
        return Ok(());
    }
    let position = match &p.legend {
        Legend::At(at) => at.clone(),
        _ => emptiest_place(&drawn, chart.plotting_area().get_pixel_range(), legend_size(&labels)),
    };
    chart
        .configure_series_labels()
        .position(position)
        .label_font((font::FAMILY, 16).into_font().color(&INK))
        .background_style(WHITE.mix(0.85))
        .border_style(GUIDE)
        .draw()
        .map_err(err)?;
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
fn series_elements<DB: DrawingBackend>(pts: &[(f64, f64)], s: &Series, base: f64) -> Vec<DynElement<'static, DB, (f64, f64)>> {
    let c = s.color;
    match s.style {
        Style::Line { width: 1 } => vec![PathElement::new(pts.to_vec(), ShapeStyle::from(&c).stroke_width(1)).into_dyn()],
        // A thick line is drawn segment by segment: plotters fills a thick polyline as one
        // polygon with mitred corners, and where a dense series turns back on itself (a
        // per-interval rate jumping up and down) the corners shoot out as spikes beyond the
        // data, below zero or above the maximum. A segment alone is a plain rectangle.
        Style::Line { width } => pts
            .windows(2)
            .map(|w| PathElement::new(w.to_vec(), ShapeStyle::from(&c).stroke_width(width)).into_dyn())
            .collect(),
        Style::Dashed => DashedLineSeries::new(pts.to_vec(), 8, 6, ShapeStyle::from(&c).stroke_width(2))
            .into_iter()
            .map(|e| e.into_dyn())
            .collect(),
        Style::Path => std::iter::once(PathElement::new(pts.to_vec(), ShapeStyle::from(&c.mix(0.5)).stroke_width(1)).into_dyn())
            .chain(pts.iter().map(|&pt| Circle::new(pt, 3, ShapeStyle::from(&c).filled()).into_dyn()))
            .collect(),
        Style::Labelled { marker } => pts.iter().map(|&at| MarkerShape { at, marker, hollow: false, color: c }.into_dyn()).collect(),
        Style::Points { marker, hollow } => {
            pts.iter().map(|&at| MarkerShape { at, marker, hollow, color: c }.into_dyn()).collect()
        }
        Style::Bars { hollow } => {
            let style = if hollow { ShapeStyle::from(&c).stroke_width(2) } else { ShapeStyle::from(&c.mix(0.75)).filled() };
            pts.iter().map(|&(x, y)| Rectangle::new([(base, y - BAR_HALF), (x, y + BAR_HALF)], style).into_dyn()).collect()
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

    /// The legend goes where the data are not: points along the top push it to the bottom.
    #[test]
    fn legends_go_where_the_data_are_not() {
        let plot = (0..1000, 0..600);
        let along_the_top: Vec<(i32, i32)> = (0..1000).step_by(5).map(|x| (x, 40)).collect();
        assert_eq!(emptiest_place(&along_the_top, plot.clone(), (200, 100)), SeriesLabelPosition::LowerRight);
        assert_eq!(emptiest_place(&[], plot, (200, 100)), SeriesLabelPosition::UpperRight);
        assert_eq!(covered_pixels(&[(0, 0), (8, 0)], true), vec![(0, 0), (4, 0), (8, 0)]);
        assert_eq!((Marker::nth(3), Marker::nth(13), Marker::nth(21)), (Marker::Circle, Marker::Square, Marker::Triangle));
    }

    /// A dense series that turns back on itself every point (a per-interval rate between 2 and
    /// 8) drawn 3 pixels wide stays within the band it spans plus half its width: no corner
    /// shoots out beyond the data (plotters' one-polygon outline of a thick polyline did, by
    /// tens of pixels).
    #[test]
    fn thick_lines_do_not_spike_beyond_their_data() {
        let (w, h) = (400u32, 300u32);
        let mut buf = vec![255u8; (w * h * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
            let mut chart = ChartBuilder::on(&root).build_cartesian_2d(0.0..1.0, 0.0..10.0).unwrap();
            let pts: Vec<(f64, f64)> = (0..400).map(|k| (k as f64 / 400.0, if k % 2 == 0 { 2.0 } else { 8.0 })).collect();
            let s = Series::new(None, color(0), Style::Line { width: 3 }, pts.clone());
            chart.draw_series(series_elements(&pts, &s, 0.0)).unwrap();
            root.present().unwrap();
        }
        // y = 8 is row 60 and y = 2 row 240 (30 rows per unit); the line is 3 pixels wide.
        let inked = |row: u32| (0..w).any(|x| buf[((row * w + x) * 3) as usize..][..3] != [255, 255, 255]);
        let rows: Vec<u32> = (0..h).filter(|&r| inked(r)).collect();
        assert!(!rows.is_empty());
        let (top, bottom) = (rows[0], *rows.last().unwrap());
        assert!(top >= 58 && bottom <= 242, "ink from row {top} to {bottom}, the data span rows 60 to 240");
    }

    #[test]
    fn zero_ticks_read_zero_and_long_titles_shrink() {
        let r = Axis::new("d", 0.0, 50.0).reversed();
        assert_eq!((r.tick(-0.0), r.tick(1e-15), r.tick(-10.0)), ("0".into(), "0".into(), "10".into()));
        assert_eq!(title_size("Packets in those 60 s", 1200), 30.0);
        // 95 characters: 1160 / (0.5 · 95) = 24.4 pixels.
        let long = "Trial 1: throughput against the host's per-ACK delay, uniform on [0, x] (our model: x = 0.2 ms)";
        assert!((title_size(long, 1200) - 24.4).abs() < 0.1, "{}", title_size(long, 1200));
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

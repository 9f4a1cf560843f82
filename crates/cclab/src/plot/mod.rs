//! Plots, each written as PNG (with an embedded font, readable anywhere) and SVG:
//!
//! - `cwnd`: congestion window and ssthresh per flow over time (segments), the talk's main
//!   graph; `pacing`: pacing rate per flow, when a flow paces;
//! - `goodput`: what each flow delivered per interval and the aggregate (Mbit/s), beside the
//!   link's capacity;
//! - `queue`: the bottleneck's queue length and queueing delay over time;
//! - `phase`: two flows' rates against each other with the fairness and efficiency lines;
//! - `throughput-delay`: throughput against 95th-percentile delay, Pantheon's plot;
//! - `scan-window`: a scanner's group probe window and threshold over a scan, per variant
//!   (seed 000's graphs);
//! - [`Versus`]: ours against a seed's figures, each with its spread, for the experiments' reports.
//!
//! Same data, same bytes: nothing in the files depends on the clock or the machine.

mod chart;
pub mod data;
mod font;
mod phase;
mod scan_window;
mod scatter;
mod series;
mod versus;

pub use chart::PlotFiles;
pub use data::RunData;
pub use chart::{color, Axis, Figure, Legend, Marker, Panel, Series, Style, GUIDE, INK, TALL, WIDE};
pub use scatter::DelayPoint;
pub use versus::{Guide, Versus, VersusRow};

use crate::UserError;
use std::path::Path;

/// Every plot that applies to the run (`pacing` only if some flow paces, `phase` and
/// `throughput-delay` only with two flows or more), written into `dir`.
pub fn plot_run(dir: &Path, d: &RunData) -> Result<Vec<PlotFiles>, UserError> {
    [series::cwnd(d), series::pacing(d), series::goodput(d), series::queue(d), phase::run_figure(d), scatter::run_figure(d)]
        .into_iter()
        .flatten()
        .map(|fig| fig.write(dir))
        .collect()
}

/// [`plot_run`] for a run still in memory.
pub fn plot_result(dir: &Path, r: &sim::RunResult) -> Result<Vec<PlotFiles>, UserError> {
    plot_run(dir, &RunData::from_result(r))
}

/// Throughput against 95th-percentile delay, one labelled point each (delay axis reversed:
/// better is up and to the right). `axes` = (rate axis label, delay axis label) with units.
pub fn throughput_delay(dir: &Path, name: &str, title: &str, axes: (&str, &str), points: &[DelayPoint]) -> Result<PlotFiles, UserError> {
    scatter::figure(name, title, axes, points).write(dir)
}

/// A scanner's group window (black) and threshold (grey) over time, one panel per
/// `(variant, window, the seed's scan time if given)`, written into `dir`.
pub fn scan_window(dir: &Path, name: &str, title: &str, runs: &[(&str, &[sim::scan::WindowPoint], Option<f64>)]) -> Result<PlotFiles, UserError> {
    scan_window::figure(name, title, runs).write(dir)
}

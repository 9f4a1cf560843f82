//! The shape of the group window's growth in congestion avoidance, seed 000's "the expected
//! linear growth of congestion avoidance mode grows more like the square root function, whose
//! shape is visible in the graphs", and the scaling's aim, that the window "behave as if we
//! were getting cwnd responses per RTT" (TCP's line, one probe per round trip).
//!
//! ## The measure
//!
//! A *stretch* of congestion avoidance is a maximal run of a window trace with `cwnd ≥
//! ccthresh`, the threshold unchanged and the window never falling (a drop or a new batch ends
//! it). From its start `(t₀, W₀)` to its last increment `(t₀ + T, W₀ + ΔW)`, the share of the
//! growth made in the first half of the time,
//!
//! ```text
//!     G = (W(t₀ + T/2) − W₀) / ΔW,
//! ```
//!
//! is `2^(−k)` for growth `W − W₀ ∝ (t − t₀)^k`, so its *half-time exponent* is
//! `k = −log₂ G`: 1 for a line (half the growth in half the time), 0.5 for a square root
//! (`G = 1/√2 = 0.707`), above 1 for growth that speeds up. Two points of the curve suffice,
//! so the estimate does not lean on the first instants the way a log-log fit does (there
//! `log(t − t₀)` crowds its weight into the start).
//!
//! The verdict's threshold is halfway between the two shapes the seed contrasts, `k = 0.75`:
//! "more like the square root" is our mean exponent's whole 95 % interval below it, the
//! scaled window's line the whole interval above it.
//!
//! ## Resolution
//!
//! A stretch of `n` increments moves `G` in steps of about `1/n`, and `k` by `dk = dG / (G ln
//! 2)`, at most `2/(n ln 2) = 2.9/n` for `G ≥ 1/2`. [`MIN_INCREMENTS`] = 24 keeps one step
//! under 0.125, half the distance from either shape to the threshold.
//!
//! Above ccthresh an unscaled reply adds `1/cwnd`, and the window moves by a few per cent over a
//! stretch, so `G` is almost exactly the share of the stretch's replies that came in its first
//! half; [`Stretch::first_half_share`] reports it beside the exponent, which is how the report
//! says what sets the shape. A square root bends all along; a jump followed by a line bends
//! only at its start. [`Stretch::early_share`] and [`Stretch::exponent_after_early`] tell the
//! two apart: the growth in the first [`EARLY`] of the time, and the exponent of the rest.
//!
//! The square-root claim is therefore judged on both: the whole stretch's `k` below
//! [`LINE_OR_ROOT`], and the exponent after the first [`EARLY`] below [`after_early_midpoint`],
//! halfway between what a square root and a line give there. For `W − W₀ ∝ (t − t₀)^k` on a
//! unit square that exponent is
//!
//! ```text
//!     k' = −log₂ (((e + (1 − e)/2)^k − e^k) / (1 − e^k)),   e = EARLY,
//! ```
//!
//! 1 for a line and 0.632 for a square root (e = 0.05), so the midpoint is 0.816. A jump at
//! the start followed by a line passes the first test and fails the second.

use crate::plot::{Axis, Figure, Panel, Series, Style, GUIDE, INK, TALL};
use crate::stats::Summary;
use crate::table::Table;
use crate::verdict::{Bound, Claim};
use plotters::chart::SeriesLabelPosition;
use sim::scan::WindowPoint;

/// The fewest increments a stretch needs for its exponent to be read (see the module doc).
pub const MIN_INCREMENTS: usize = 24;

/// The exponent halfway between the line (1) and the square root (0.5).
pub const LINE_OR_ROOT: f64 = 0.75;

/// [`Stretch::exponent_after_early`] of growth `∝ t^k` on a unit square (see the module doc).
pub fn exponent_after_early_of_power(k: f64) -> f64 {
    let (from, half) = (EARLY.powf(k), (EARLY + (1.0 - EARLY) / 2.0).powf(k));
    -((half - from) / (1.0 - from)).log2()
}

/// Halfway between a square root's and a line's exponent after the first [`EARLY`].
pub fn after_early_midpoint() -> f64 {
    (exponent_after_early_of_power(0.5) + exponent_after_early_of_power(1.0)) / 2.0
}

/// The start of a stretch whose growth the table shows apart: a twentieth of its time (a
/// stretch lasts tens to hundreds of seconds, so this is many round trips). The square-root
/// claim reads the exponent after it (see the module doc).
pub const EARLY: f64 = 0.05;

/// One stretch of congestion avoidance: the window's value after each increment, with the
/// stretch's start first.
#[derive(Clone, Debug, PartialEq)]
pub struct Stretch {
    /// `(time s, cwnd)`: the start, then one point per increment.
    pub points: Vec<(f64, f64)>,
}

impl Stretch {
    pub fn increments(&self) -> usize {
        self.points.len() - 1
    }

    fn ends(&self) -> ((f64, f64), (f64, f64)) {
        (self.points[0], *self.points.last().expect("a stretch has a start"))
    }

    /// The window in force at time `t` of the stretch.
    fn window_at(&self, t: f64) -> f64 {
        self.points.iter().take_while(|p| p.0 <= t).last().map_or(self.points[0].1, |p| p.1)
    }

    /// The share of the growth from time fraction `from` to the end made by time fraction `to`
    /// (both of the stretch's duration `T`).
    fn share_between(&self, from: f64, to: f64) -> f64 {
        let ((t0, _), (t1, w1)) = self.ends();
        let w_from = self.window_at(t0 + from * (t1 - t0));
        (self.window_at(t0 + to * (t1 - t0)) - w_from) / (w1 - w_from)
    }

    /// `G`: the share of the growth made by half the stretch's time.
    pub fn first_half_share(&self) -> f64 {
        self.share_between(0.0, 0.5)
    }

    /// The share of the growth made in the first [`EARLY`] of the stretch's time.
    pub fn early_share(&self) -> f64 {
        self.share_between(0.0, EARLY)
    }

    /// `k = −log₂ G`; infinite when no growth came in the first half.
    pub fn half_time_exponent(&self) -> f64 {
        -self.first_half_share().log2()
    }

    /// The half-time exponent of what follows the first [`EARLY`] of the time: whether the
    /// curve still bends once a jump at its start is left out.
    pub fn exponent_after_early(&self) -> f64 {
        -self.share_between(EARLY, EARLY + (1.0 - EARLY) / 2.0).log2()
    }

    /// `(t − t₀)/T, (W − W₀)/ΔW` for each point: the stretch on a unit square, for drawing
    /// stretches of different lengths over each other.
    pub fn normalised(&self) -> Vec<(f64, f64)> {
        let ((t0, w0), (t1, w1)) = self.ends();
        self.points.iter().map(|&(t, w)| ((t - t0) / (t1 - t0), (w - w0) / (w1 - w0))).collect()
    }
}

/// Slow start's steps in a trace: each change at one instant (two points with the same time)
/// that raises cwnd from below ssthresh and leaves ssthresh as it was. For each, cwnd after
/// the step less ssthresh: above 0 where a step overshot the threshold, 0 where it ended on it.
pub fn slow_start_steps(window: &[WindowPoint]) -> Vec<f64> {
    window
        .windows(2)
        .filter(|p| p[0].time_s == p[1].time_s && p[0].cwnd < p[0].ssthresh && p[1].cwnd > p[0].cwnd && p[1].ssthresh == p[0].ssthresh)
        .map(|p| p[1].cwnd - p[1].ssthresh)
        .collect()
}

/// The stretches of congestion avoidance in a trace with at least [`MIN_INCREMENTS`]
/// increments and a positive duration. The trace has two points at every change (before and
/// after), so a stretch starts at the first point at or above the threshold.
pub fn avoidance_stretches(window: &[WindowPoint]) -> Vec<Stretch> {
    let mut out = Vec::new();
    let mut current: Vec<(f64, f64)> = Vec::new();
    let mut threshold = f64::NAN;
    let mut finish = |current: &mut Vec<(f64, f64)>| {
        let s = Stretch { points: std::mem::take(current) };
        if s.points.len() > MIN_INCREMENTS && s.ends().1 .0 > s.ends().0 .0 && s.ends().1 .1 > s.ends().0 .1 {
            out.push(s);
        }
    };
    for p in window {
        let continues = p.cwnd >= p.ssthresh && p.ssthresh == threshold && current.last().is_some_and(|&(_, w)| p.cwnd >= w);
        if !continues {
            finish(&mut current);
            threshold = p.ssthresh;
            if p.cwnd >= p.ssthresh {
                current.push((p.time_s, p.cwnd));
            }
        } else if current.last().is_some_and(|&(_, w)| p.cwnd > w) {
            current.push((p.time_s, p.cwnd));
        }
    }
    finish(&mut current);
    out
}

/// A run's exponent: the mean over its stretches, `None` without one.
pub fn run_exponent(stretches: &[Stretch]) -> Option<f64> {
    run_mean(stretches, Stretch::half_time_exponent)
}

/// The mean of `f` over a run's stretches, `None` without one.
fn run_mean(stretches: &[Stretch], f: fn(&Stretch) -> f64) -> Option<f64> {
    (!stretches.is_empty()).then(|| stretches.iter().map(f).sum::<f64>() / stretches.len() as f64)
}

/// One workload's stretches under one variant, run by run over the check seeds.
pub struct Shapes<'a> {
    pub workload: u32,
    pub variant: &'a str,
    pub runs: Vec<Vec<Stretch>>,
}

impl Shapes<'_> {
    /// The exponent of every run that has a stretch.
    pub fn exponents(&self) -> Vec<f64> {
        self.runs.iter().filter_map(|s| run_exponent(s)).collect()
    }

    /// The exponent after the first [`EARLY`] of every run that has a stretch (its mean over
    /// the run's stretches).
    pub fn exponents_after_early(&self) -> Vec<f64> {
        self.runs.iter().filter_map(|s| run_mean(s, Stretch::exponent_after_early)).collect()
    }

    fn all(&self) -> impl Iterator<Item = &Stretch> {
        self.runs.iter().flatten()
    }

    /// The table's row: workload, variant, runs with a stretch, stretches, increments per
    /// stretch (median), exponent (mean ± sd over runs), first-half share of the growth, the
    /// share in the first [`EARLY`] of the time and the exponent after it (means over stretches).
    pub fn row(&self) -> Vec<String> {
        let ks = self.exponents();
        let mut n: Vec<usize> = self.all().map(Stretch::increments).collect();
        n.sort_unstable();
        let g: Vec<f64> = self.all().map(Stretch::first_half_share).collect();
        let or_dash = |s: Option<Summary>, f: &dyn Fn(&Summary) -> String| s.map_or("-".to_string(), |s| f(&s));
        vec![
            self.workload.to_string(),
            self.variant.to_string(),
            format!("{} of {}", ks.len(), self.runs.len()),
            n.len().to_string(),
            n.get(n.len() / 2).map_or("-".into(), |m| m.to_string()),
            or_dash(Summary::of(&ks), &|s| format!("{:.2} ± {:.2}", s.mean, s.sd)),
            or_dash(Summary::of(&g), &|s| format!("{:.0} %", s.mean * 100.0)),
            or_dash(Summary::of(&self.all().map(Stretch::early_share).collect::<Vec<_>>()), &|s| format!("{:.0} %", s.mean * 100.0)),
            or_dash(Summary::of(&self.all().map(Stretch::exponent_after_early).collect::<Vec<_>>()), &|s| format!("{:.2}", s.mean)),
        ]
    }

    /// The seed's claim for this variant: unscaled grows like a square root, bending all along
    /// (our mean exponent below [`LINE_OR_ROOT`], and the mean exponent after the first
    /// [`EARLY`] below [`after_early_midpoint`]), scaled like TCP's line (the exponent above
    /// [`LINE_OR_ROOT`]).
    pub fn claim(&self, scaled: bool) -> Claim {
        let (claim, seed) = if scaled {
            (
                format!("{} addresses, {}: congestion avoidance grows as a line (half-time exponent k; line 1, square root 0.5)", self.workload, self.variant),
                "scaled increments make the window \"behave as if we were getting cwnd responses per RTT\": one probe per round trip, a line",
            )
        } else {
            (
                format!(
                    "{} addresses, {}: congestion avoidance grows like a square root, bending all along (half-time exponent k of the whole stretch, line 1, square root 0.5; and k' after its first {:.0} %, line 1, square root {:.2})",
                    self.workload,
                    self.variant,
                    EARLY * 100.0,
                    exponent_after_early_of_power(0.5)
                ),
                "\"the expected linear growth of congestion avoidance mode grows more like the square root function, whose shape is visible in the graphs\"",
            )
        };
        let ks = self.exponents();
        if ks.len() < 2 {
            return Claim::not_comparable(
                &claim,
                seed.into(),
                format!("{} of {} runs have a stretch of {MIN_INCREMENTS} increments", ks.len(), self.runs.len()),
                "too few of our runs stay in congestion avoidance long enough to read a shape",
            );
        }
        if scaled {
            return Claim::mean_bound(&claim, seed, &ks, Bound::AtLeast(LINE_OR_ROOT), "");
        }
        let whole = Claim::mean_bound("k", seed, &ks, Bound::AtMost(LINE_OR_ROOT), "");
        let after = Claim::mean_bound("k'", seed, &self.exponents_after_early(), Bound::AtMost(after_early_midpoint()), "");
        Claim::all_of(
            &claim,
            seed,
            &[
                (format!("the whole stretch, k ≤ {LINE_OR_ROOT}"), whole),
                (format!("after its first {:.0} %, k' ≤ {}", EARLY * 100.0, crate::table::num(after_early_midpoint())), after),
            ],
        )
    }
}

/// The table of [`Shapes::row`]s.
pub fn table(shapes: &[Shapes]) -> Table {
    let mut t = Table::new(
        "shape of congestion avoidance: half-time exponent k = -log2 G, G the share of a stretch's growth made in its first half (check seeds)",
        &["addresses", "variant", "runs with a stretch", "stretches", "increments per stretch (median)", "k, mean ± sd over runs", "G, mean over stretches", "growth in the first 5 % of the time", "k after the first 5 %"],
    );
    for s in shapes {
        t.row(s.row());
    }
    t
}

/// The stretches' colour: light, under the two reference curves.
const STRETCH: plotters::style::RGBColor = plotters::style::RGBColor(140, 175, 215);

/// A variant as a figure's legend names it: the seed's rule by what it is, not by our flag.
pub fn display_variant(variant: &str) -> String {
    match variant {
        "scaled-wiki" => "scaled (the seed's rule)".into(),
        v => v.into(),
    }
}

/// Every stretch of each `Shapes` on the unit square, one panel per variant, over the line
/// and the square root.
pub fn figure(name: &str, title: &str, shapes: &[&Shapes]) -> Figure {
    // The two references in two styles: the line solid black, the square root dashed grey.
    let guide = |label: &str, (colour, style), f: &dyn Fn(f64) -> f64| Series::new(Some(label.into()), colour, style, (0..=50).map(|i| f64::from(i) / 50.0).map(|x| (x, f(x))).collect());
    let panels = shapes
        .iter()
        .map(|s| {
            let mut series: Vec<Series> = s
                .all()
                .enumerate()
                // One light colour for all: the stretches are many (several per run), and
                // a colour each would repeat a ten-colour palette and tell nothing apart.
                .map(|(k, st)| Series::new((k == 0).then(|| format!("{}: each stretch", display_variant(s.variant))), STRETCH, Style::Line { width: 1 }, st.normalised()))
                .collect();
            series.push(guide("line, k = 1", (INK, Style::Line { width: 2 }), &|x| x));
            series.push(guide("square root, k = 0.5", (GUIDE, Style::Dashed), &f64::sqrt));
            Panel::new(Axis::new("(t - t0) / T, time into the stretch", 0.0, 1.0), Axis::new("(W - W0) / ΔW, growth", 0.0, 1.05), series).legend_at(SeriesLabelPosition::LowerRight)
        })
        .collect();
    Figure { name: name.into(), title: title.into(), size: TALL, panels }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(points: &[(f64, f64, f64)]) -> Vec<WindowPoint> {
        points.iter().map(|&(time_s, cwnd, ssthresh)| WindowPoint { time_s, cwnd, ssthresh }).collect()
    }

    /// Three slow-start steps: one below the threshold, one stopped at it and one past it; a
    /// drop, an avoidance step and a new batch's restart are not slow-start steps.
    #[test]
    fn slow_start_steps_read_each_rise_from_below_the_threshold() {
        let w = trace(&[(1.0, 10.0, 75.0), (1.0, 30.0, 75.0), (2.0, 30.0, 75.0), (2.0, 75.0, 75.0), (3.0, 75.0, 75.0), (3.0, 76.0, 75.0), (4.0, 76.0, 75.0), (4.0, 38.0, 26.0), (5.0, 20.0, 26.0), (5.0, 27.0, 26.0), (6.0, 27.0, 26.0), (6.0, 10.0, 75.0)]);
        assert_eq!(slow_start_steps(&w), vec![-45.0, 0.0, 1.0]);
    }

    /// A stretch growing as `W₀ + a·t^k`, sampled at `n` increments, with slow start before it
    /// and a drop after it, as the trace records them (two points per change).
    fn grown(k: f64, n: usize) -> Vec<WindowPoint> {
        let mut p = vec![(0.0, 10.0, 75.0), (1.0, 10.0, 75.0), (1.0, 75.0, 75.0)];
        for i in 1..=n {
            let t = i as f64 / n as f64;
            let before = p.last().unwrap().1;
            p.push((1.0 + 100.0 * t, before, 75.0));
            p.push((1.0 + 100.0 * t, 75.0 + 3.0 * t.powf(k), 75.0));
        }
        p.push((102.0, 78.0, 75.0));
        p.push((102.0, 39.0, 39.0));
        trace(&p)
    }

    #[test]
    fn a_line_has_exponent_one_and_a_square_root_one_half() {
        for (k, n) in [(1.0, 100), (0.5, 100), (2.0, 400)] {
            let s = avoidance_stretches(&grown(k, n));
            assert_eq!(s.len(), 1, "k = {k}");
            assert_eq!(s[0].increments(), n);
            // The midpoint falls on an increment when n is even: G = (1/2)^k exactly.
            assert!((s[0].half_time_exponent() - k).abs() < 1e-9, "k = {k}: {}", s[0].half_time_exponent());
        }
        // A line: 5 % of the growth in 5 % of the time, and a line after it.
        let line = &avoidance_stretches(&grown(1.0, 100))[0];
        assert!((line.early_share() - 0.05).abs() <= 0.01 && (line.exponent_after_early() - 1.0).abs() < 0.02, "{line:?}");
        // W = W₀ + √t: G = 1/√2.
        assert!((avoidance_stretches(&grown(0.5, 100))[0].first_half_share() - 0.5f64.sqrt()).abs() < 1e-9);
    }

    /// Half the growth at once, then a line: k = −log₂ 0.75 = 0.415 over the whole stretch,
    /// 1.05 of its 2 probes (52.5 %) in the first 5 % of the time, and 1 after it.
    #[test]
    fn a_jump_then_a_line_bends_only_at_its_start() {
        let mut p = vec![(0.0, 10.0, 75.0), (0.0, 75.0, 75.0), (0.1, 75.0, 75.0), (0.1, 76.0, 75.0)];
        for i in 1..=100 {
            let t = f64::from(i);
            p.push((t, 76.0 + (i - 1) as f64 / 100.0, 75.0));
            p.push((t, 76.0 + f64::from(i) / 100.0, 75.0));
        }
        let s = &avoidance_stretches(&trace(&p))[0];
        assert!((s.half_time_exponent() - 0.75f64.log2().abs()).abs() < 1e-9, "{}", s.half_time_exponent());
        assert!((s.early_share() - 0.525).abs() < 1e-9, "{}", s.early_share());
        assert!((s.exponent_after_early() - 1.0).abs() < 0.03, "{}", s.exponent_after_early());
    }

    /// k' of `t^k` after the first 5 %: a line 1; a square root
    /// −log₂((√0.525 − √0.05)/(1 − √0.05)) = −log₂ 0.6452 = 0.632; the midpoint 0.816. A
    /// square root read from 100 increments gives it within the sampling step; the square-root
    /// claim holds for square roots and not for a jump then a line (k 0.415 but k' 1).
    #[test]
    fn a_square_root_bends_all_along_and_a_jump_then_a_line_does_not() {
        assert!((exponent_after_early_of_power(1.0) - 1.0).abs() < 1e-12);
        assert!((exponent_after_early_of_power(0.5) - 0.6321).abs() < 1e-4, "{}", exponent_after_early_of_power(0.5));
        assert!((after_early_midpoint() - 0.8161).abs() < 1e-4, "{}", after_early_midpoint());
        let root = avoidance_stretches(&grown(0.5, 100));
        assert!((root[0].exponent_after_early() - exponent_after_early_of_power(0.5)).abs() < 0.02, "{}", root[0].exponent_after_early());
        let shapes = |runs: Vec<Vec<Stretch>>| Shapes { workload: 1, variant: "unscaled", runs };
        assert!(shapes(vec![root.clone(), root.clone(), root]).claim(false).holds());
        let mut p = vec![(0.0, 10.0, 75.0), (0.0, 75.0, 75.0), (0.1, 75.0, 75.0), (0.1, 76.0, 75.0)];
        for i in 1..=100 {
            p.push((f64::from(i), 76.0 + f64::from(i - 1) / 100.0, 75.0));
            p.push((f64::from(i), 76.0 + f64::from(i) / 100.0, 75.0));
        }
        let jump = avoidance_stretches(&trace(&p));
        let c = shapes(vec![jump.clone(), jump.clone(), jump]).claim(false);
        assert_eq!(c.verdict, crate::verdict::Verdict::DoesNotHold, "{c:?}");
        assert!(c.ours.starts_with("the whole stretch, k ≤ 0.75: holds") && c.ours.contains("k' ≤ 0.816: does not hold"), "{}", c.ours);
    }

    #[test]
    fn stretches_end_at_a_drop_or_a_new_threshold_and_short_ones_are_not_read() {
        let mut w = grown(1.0, 30);
        let mut second = grown(0.5, 40);
        for p in &mut second {
            p.time_s += 200.0;
        }
        w.extend(second);
        let s = avoidance_stretches(&w);
        assert_eq!(s.iter().map(Stretch::increments).collect::<Vec<_>>(), vec![30, 40]);
        assert!(avoidance_stretches(&grown(1.0, MIN_INCREMENTS - 1)).is_empty());
        assert_eq!(avoidance_stretches(&grown(1.0, MIN_INCREMENTS)).len(), 1);
        // Slow start alone (below the threshold) is no stretch.
        assert!(avoidance_stretches(&trace(&[(0.0, 10.0, 75.0), (1.0, 11.0, 75.0), (2.0, 12.0, 75.0)])).is_empty());
    }

    #[test]
    fn a_run_s_exponent_is_the_mean_of_its_stretches() {
        let s = [avoidance_stretches(&grown(1.0, 100)), avoidance_stretches(&grown(0.5, 100))].concat();
        assert!((run_exponent(&s).unwrap() - 0.75).abs() < 1e-9);
        assert_eq!(run_exponent(&[]), None);
        let n = avoidance_stretches(&grown(0.5, 100))[0].normalised();
        assert_eq!((n[0], *n.last().unwrap()), ((0.0, 0.0), (1.0, 1.0)));
    }
}

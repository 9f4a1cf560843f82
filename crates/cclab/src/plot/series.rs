//! Time plots of one run: congestion window, pacing rate, goodput, queue.

use super::chart::{color, Axis, Figure, Panel, Series, Style, GUIDE, INK, TALL, WIDE};
use super::data::{FlowRow, RunData};

/// Flows beyond this many are drawn but left out of the legend.
const LEGEND_FLOWS: usize = 10;

const TIME: &str = "time (s)";

fn legend(k: usize, text: String) -> Option<String> {
    (k < LEGEND_FLOWS).then_some(text)
}

fn time_axis(d: &RunData) -> Axis {
    let last = d.flows.iter().map(|r| r.time).chain(d.link.iter().map(|r| r.time)).fold(0.0, f64::max);
    Axis::new(TIME, 0.0, d.summary.sim_time_s.max(last))
}

/// One series per flow of `value` over time (rows where it is `None` are skipped; flows with
/// no value at all are left out).
fn per_flow(d: &RunData, style: Style, suffix: &str, value: impl Fn(&FlowRow) -> Option<f64>) -> Vec<Series> {
    d.flow_labels()
        .into_iter()
        .enumerate()
        .filter_map(|(k, (id, label))| {
            let pts: Vec<(f64, f64)> = d.rows(id).filter_map(|r| value(r).map(|v| (r.time, v))).collect();
            (!pts.is_empty()).then(|| Series::new(legend(k, format!("{label}{suffix}")), color(k), style, pts))
        })
        .collect()
}

/// A figure of `series` over the run's time, the legend in a column of its own: a flow's line
/// may run anywhere, so no corner is sure to be free. A series of more than [`ZOOM_ABOVE`]
/// samples has more cycles than the plot has pixels and draws as a solid band, so such a run
/// gets a second panel below: [`ZOOM_SAMPLES`] samples from the middle of the run.
fn over_time(d: &RunData, name: &str, title: &str, y: Axis, series: Vec<Series>) -> Figure {
    let overview = Panel::new(time_axis(d), y.clone(), series.clone()).legend_outside();
    let Some((from, to)) = zoom_window(&series) else {
        return Figure { name: name.into(), title: title.into(), size: WIDE, panels: vec![overview] };
    };
    let zoomed: Vec<Series> = series
        .into_iter()
        .map(|s| Series { label: None, points: s.points.into_iter().filter(|p| (from..=to).contains(&p.0)).collect(), ..s })
        .collect();
    let zoom = Panel::new(Axis::new(&format!("{TIME}, {} to {} s", crate::table::num(from), crate::table::num(to)), from, to), y, zoomed);
    Figure { name: name.into(), title: format!("{title}; below, {} s from the middle", crate::table::num(to - from)), size: TALL, panels: vec![overview, zoom] }
}

/// A series with more samples than this is zoomed into ([`over_time`]): about twice the
/// plot's width in pixels.
const ZOOM_ABOVE: usize = 2000;
/// How many of the densest series' samples the zoom panel shows.
const ZOOM_SAMPLES: usize = 300;

/// The zoom panel's time span: [`ZOOM_SAMPLES`] of the densest series' samples (at its median
/// spacing) centred on the middle of its run; `None` when no series is that dense.
fn zoom_window(series: &[Series]) -> Option<(f64, f64)> {
    let densest = series.iter().max_by_key(|s| s.points.len())?;
    if densest.points.len() <= ZOOM_ABOVE {
        return None;
    }
    let mut gaps: Vec<f64> = densest.points.windows(2).map(|w| w[1].0 - w[0].0).filter(|g| *g > 0.0).collect();
    gaps.sort_by(f64::total_cmp);
    let gap = *gaps.get(gaps.len() / 2)?;
    let (first, last) = (densest.points.first()?.0, densest.points.last()?.0);
    let width = gap * ZOOM_SAMPLES as f64;
    let from = ((first + last) / 2.0 - width / 2.0).max(first);
    Some((from, from + width))
}

fn max_y(series: &[Series]) -> impl Iterator<Item = f64> + '_ {
    series.iter().flat_map(|s| s.points.iter().map(|p| p.1))
}

/// cwnd (solid) and ssthresh (dashed, same colour) per flow, in segments: the talk's main
/// graph. An ssthresh far above every window (an "infinite" one) would flatten the picture, so
/// values above four times the largest window are left out.
pub fn cwnd(d: &RunData) -> Option<Figure> {
    let cwnd = per_flow(d, Style::Line { width: 2 }, " cwnd", |r| r.cwnd);
    if cwnd.is_empty() {
        return None;
    }
    let top = max_y(&cwnd).fold(1.0, f64::max) * 4.0;
    let ssthresh = per_flow(d, Style::Dashed, " ssthresh", |r| r.ssthresh.filter(|&s| s <= top));
    let title = if ssthresh.is_empty() { "Congestion window per flow" } else { "Congestion window and slow-start threshold per flow" };
    let mut series = cwnd;
    series.extend(ssthresh);
    let (y, note) = value_axis(&mut series, "segments", " segments");
    Some(over_time(d, "cwnd", &format!("{title}{note}"), y, series))
}

/// A guide line (the capacity) more than this many times above the data is left off the axis.
const FLATTENS: f64 = 4.0;

/// Flows whose medians lie this many times apart share a log axis (an attacker's window
/// hundreds of times its victim's would flatten the victim to the floor of a linear one).
const LOG_SPREAD: f64 = 30.0;

/// The value axis for `series`, in `unit`: logarithmic when the series' medians lie more than
/// [`LOG_SPREAD`] apart; else linear from 0, stopping at [`robust_top`] when brief spikes would
/// squash the rest, values above it drawn at the top. Returns the axis and what the title
/// should add (the clip and the peak).
fn value_axis(series: &mut [Series], label: &str, unit: &str) -> (Axis, String) {
    let medians: Vec<f64> = series.iter().filter_map(|s| crate::stats::Summary::of(&s.points.iter().map(|p| p.1).collect::<Vec<_>>()).map(|m| m.median)).collect();
    let (lo_median, hi_median) = medians.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &m| (lo.min(m), hi.max(m)));
    let peak = max_y(series).fold(0.0, f64::max);
    if lo_median > 0.0 && hi_median / lo_median > LOG_SPREAD {
        let floor = 10f64.powf(max_y(series).filter(|v| *v > 0.0).fold(f64::INFINITY, f64::min).log10().floor());
        for s in series.iter_mut() {
            s.points.iter_mut().for_each(|p| p.1 = p.1.max(floor));
        }
        return (Axis::log(&format!("{label} (log scale)"), floor, 10f64.powf((peak * 1.5).log10().ceil())), String::new());
    }
    match robust_top(max_y(series)) {
        Some(top) => {
            for s in series.iter_mut() {
                s.points.iter_mut().for_each(|p| p.1 = p.1.min(top));
            }
            (Axis::new(label, 0.0, top), format!(" (clipped at {}{unit}; the peak is {}{unit})", crate::table::num(top), crate::table::num(peak)))
        }
        None => (Axis::fit(label, 0.0, max_y(series)), String::new()),
    }
}

/// The top of a value axis that brief spikes do not squash: 1.5 times the 90th percentile of
/// `values` (spikes in up to a tenth of the samples, as five flows' start-ups in a short run,
/// stay above it). `None` when nothing needs clipping: the largest value is below twice that
/// top, so drawn whole it leaves the rest at least half the axis (a Reno start-up peak a third
/// above its sawtooth is drawn, not clipped with the sawtooth's own peaks).
fn robust_top(values: impl Iterator<Item = f64>) -> Option<f64> {
    let mut v: Vec<f64> = values.filter(|x| x.is_finite()).collect();
    if v.len() < 20 {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let top = v[(v.len() - 1) * 90 / 100] * 1.5;
    (v[v.len() - 1] > 2.0 * top && top > 0.0).then_some(top)
}

/// Pacing rate per flow (Mbit/s), for runs where some flow paces. BBR's start-up paces at
/// 2/ln 2 times its estimate for a few round trips, a spike up to ten times the steady rate
/// that would flatten the rest: the axis stops at 1.5 times the 90th percentile, values above
/// it are drawn at the top, and the title gives the peak.
pub fn pacing(d: &RunData) -> Option<Figure> {
    let mut series = per_flow(d, Style::Line { width: 2 }, "", |r| r.pacing_rate);
    if series.is_empty() {
        return None;
    }
    let (y, note) = value_axis(&mut series, "pacing rate (Mbit/s)", " Mbit/s");
    // The link's rate, where it falls on the axis: BBR's gains pace above and below it.
    let capacity = capacity_line(d);
    let on_axis = |v: f64| if y.log { v > 0.0 && (y.lo..=y.hi).contains(&v.log10()) } else { v <= y.hi };
    series.extend(capacity.filter(|c| c.points.iter().all(|p| on_axis(p.1))));
    Some(over_time(d, "pacing", &format!("Pacing rate per flow{note}"), y, series))
}

/// The bottleneck's capacity over time (Mbit/s, dashed), if the run sampled the link.
fn capacity_line(d: &RunData) -> Option<Series> {
    let cap: Vec<(f64, f64)> = d.link.iter().map(|l| (l.time, l.rate_mbps)).collect();
    cap.iter().any(|p| p.1 > 0.0).then(|| Series::new(Some("capacity".into()), GUIDE, Style::Dashed, cap))
}

/// Sum of every flow's value per sample time.
fn aggregate(rows: &[FlowRow], value: impl Fn(&FlowRow) -> f64) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    let mut sorted: Vec<&FlowRow> = rows.iter().collect();
    sorted.sort_by(|a, b| a.time.total_cmp(&b.time));
    for r in sorted {
        match out.last_mut() {
            Some(last) if last.0 == r.time => last.1 += value(r),
            _ => out.push((r.time, value(r))),
        }
    }
    out
}

/// What each flow delivered per interval (goodput: payload that reached the receiver in
/// order, Mbit/s), with the aggregate and the bottleneck's capacity. What was *sent* is not
/// drawn: during slow start and loss recovery it runs above the capacity (the excess is
/// queued or dropped), so it is not a rate the link carried.
pub fn goodput(d: &RunData) -> Option<Figure> {
    if d.flows.is_empty() {
        return None;
    }
    let mut series = per_flow(d, Style::Line { width: 2 }, "", |r| Some(r.goodput));
    if d.summary.flows.len() > 1 {
        // Drawn first and dashed: where the aggregate is one flow's own goodput (the others
        // starved), the flow's line stays visible on it.
        series.insert(0, Series::new(Some("aggregate".into()), INK, Style::Dashed, aggregate(&d.flows, |r| r.goodput)));
    }
    // Sampled faster than the round trip, a window-limited flow delivers in bursts once a
    // round, so single samples swing between nothing and twice its rate: each point is then
    // the mean over the last round trip's samples.
    let k = samples_per_round(d);
    if k > 1 {
        for s in &mut series {
            s.points = per_round(&s.points, k);
        }
    }
    // The capacity line, unless it is so far above every goodput (a flow held to a small
    // share by loss, say) that it would flatten them: then the title gives it.
    let top = max_y(&series).fold(0.0, f64::max);
    let capacity = d.link.iter().map(|l| l.rate_mbps).fold(0.0, f64::max);
    let mut title = if d.summary.flows.len() > 1 { "Goodput (delivered in order) per flow and in aggregate" } else { "Goodput (delivered in order)" }.to_string();
    if capacity > 0.0 && capacity <= FLATTENS * top {
        series.extend(capacity_line(d));
    } else if capacity > 0.0 {
        title = format!("{title} (the link's {} Mbit/s off the scale)", crate::table::num(capacity));
    }
    // The link carries at most its capacity in an interval, so a goodput above it is data that
    // arrived earlier and waited at the receiver behind a hole, released in order at once.
    let flow_top = max_y(&series[usize::from(d.summary.flows.len() > 1)..]).fold(0.0, f64::max);
    if capacity > 0.0 && flow_top > capacity * ABOVE_CAPACITY {
        title = format!("{title}: peaks above capacity are data held behind a hole, released at once");
    }
    if k > 1 {
        title = format!("{title}, each point the mean of the last {k} samples (one round trip)");
    }
    let y = Axis::fit("goodput (Mbit/s)", 0.0, max_y(&series));
    Some(over_time(d, "goodput", &title, y, series))
}

/// How many samples span the shortest flow's smallest RTT (1 when samples are an RTT apart or
/// more, or the spacing is unknown): the median gap between one flow's sample times.
fn samples_per_round(d: &RunData) -> usize {
    let Some(first) = d.flows.first() else { return 1 };
    let times: Vec<f64> = d.rows(first.flow).map(|r| r.time).collect();
    let mut gaps: Vec<f64> = times.windows(2).map(|w| w[1] - w[0]).filter(|g| *g > 0.0).collect();
    gaps.sort_by(f64::total_cmp);
    let rtt = d.summary.flows.iter().map(|f| f.rtt_ms.min / 1e3).filter(|r| *r > 0.0).fold(f64::INFINITY, f64::min);
    match gaps.get(gaps.len() / 2) {
        Some(&gap) if rtt.is_finite() => (rtt / gap).round().max(1.0) as usize,
        _ => 1,
    }
}

/// The trailing mean over `k` points: each point's value is the mean of it and the `k − 1`
/// before it (fewer at the start).
fn per_round(points: &[(f64, f64)], k: usize) -> Vec<(f64, f64)> {
    points.iter().enumerate().map(|(i, &(t, _))| {
        let from = (i + 1).saturating_sub(k);
        let window = &points[from..=i];
        (t, window.iter().map(|p| p.1).sum::<f64>() / window.len() as f64)
    }).collect()
}

/// A goodput this many times the capacity is past what rounding of the samples explains.
const ABOVE_CAPACITY: f64 = 1.05;

/// Bottleneck queue length (packets) and queueing delay (ms) over time, one above the other,
/// each named by its axis; the buffer's size, where it is counted in packets, is drawn dashed.
pub fn queue(d: &RunData) -> Option<Figure> {
    if d.link.is_empty() {
        return None;
    }
    // A buffer set in bytes holds that many full-sized (1500-byte) packets.
    let link = &d.summary.link;
    let limit = match (link.queue_limit_packets, link.queue_limit_bytes) {
        (Some(n), _) => Some((n as f64, format!("buffer: {n} packets"))),
        (None, Some(b)) => Some((b as f64 / 1500.0, format!("buffer: {b} bytes, {} full-sized packets", crate::table::num(b as f64 / 1500.0)))),
        (None, None) => None,
    };
    let panel = |label: &str, k: usize, value: fn(&super::data::LinkRow) -> f64, limit: Option<(f64, String)>| {
        let pts: Vec<(f64, f64)> = d.link.iter().map(|l| (l.time, value(l))).collect();
        let y = Axis::fit(label, 0.0, pts.iter().map(|p| p.1).chain(limit.as_ref().map(|l| l.0)));
        let mut series = vec![Series::new(None, color(k), Style::Line { width: 2 }, pts)];
        let time = time_axis(d);
        if let Some((n, text)) = limit {
            series.push(Series::new(Some(text), GUIDE, Style::Dashed, vec![(time.lo, n), (time.hi, n)]));
        }
        Panel::new(time, y, series)
    };
    Some(Figure {
        name: "queue".into(),
        title: format!("Bottleneck queue ({})", d.summary.link.queue),
        size: TALL,
        panels: vec![
            panel("queue length (packets)", 0, |l| l.queue_packets as f64, limit),
            panel("queueing delay (ms)", 3, |l| l.queue_delay_ms, None),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(buffer: &str) -> RunData {
        let toml = format!("duration = \"2s\"\n[link]\nrate = \"10mbit\"\nbuffer = \"{buffer}\"\n[[flows]]\ncc = \"reno\"\nrtt = \"20ms\"\n");
        let cfg = crate::scenario::Scenario::from_toml(&toml, "t.toml").unwrap().resolve().unwrap();
        RunData::from_result(&crate::run::simulate(cfg, true, "").unwrap_or_else(|e| panic!("{}", e.0)))
    }

    /// A series denser than the plot's pixels gets a zoom panel of 300 samples from the
    /// middle of the run; a sparse one does not.
    #[test]
    fn dense_series_get_a_zoom_panel_from_the_middle() {
        let series = |n: usize| vec![Series::new(Some("a".into()), color(0), Style::Line { width: 2 }, (0..n).map(|k| (k as f64 * 0.1, (k % 7) as f64)).collect())];
        assert_eq!(zoom_window(&series(ZOOM_ABOVE)), None);
        let (from, to) = zoom_window(&series(6000)).unwrap();
        // 6000 samples 0.1 s apart span 0 to 599.9 s: 30 s centred on 299.95 s.
        assert!((to - from - 30.0).abs() < 1e-9 && (from - 284.95).abs() < 1e-9, "{from} to {to}");
    }

    /// The buffer's size is drawn across the queue-length panel: a count of packets as it is,
    /// a size in bytes as the full-sized packets it holds (10 Mbit/s · 20 ms = 25,000 bytes).
    #[test]
    fn the_queue_plot_draws_the_buffer() {
        let line = |d: &RunData| {
            let f = queue(d).unwrap();
            let s = f.panels[0].series.last().unwrap().clone();
            (s.label.unwrap(), s.points[0].1)
        };
        assert_eq!(line(&run("40pkts")), ("buffer: 40 packets".to_string(), 40.0));
        let (label, at) = line(&run("1bdp"));
        assert_eq!(at, 25_000.0 / 1500.0);
        assert!(label.starts_with("buffer: 25000 bytes"), "{label}");
    }

    fn row(time: f64, flow: u32, throughput: f64) -> FlowRow {
        FlowRow { time, flow, cwnd: None, ssthresh: None, pacing_rate: None, throughput, goodput: throughput }
    }

    #[test]
    fn a_start_up_spike_is_clipped_and_a_steady_series_is_not() {
        let steady: Vec<f64> = (0..100).map(|k| 40.0 + (k % 5) as f64).collect();
        assert_eq!(robust_top(steady.iter().copied()), None);
        let mut spiky = steady.clone();
        spiky[1] = 330.0;
        let top = robust_top(spiky.iter().copied()).unwrap();
        assert!(top >= 44.0 * 1.5 && top < 330.0, "{top}");
        // A peak under twice the top (here 1.5 times it) is drawn whole.
        spiky[1] = 44.0 * 1.5 * 1.5;
        assert_eq!(robust_top(spiky.iter().copied()), None);
    }

    /// A flow sampled every 50 ms on a 100 ms round trip that delivers 2 Mbit/s in every other
    /// sample (its burst once a round) reads 1 Mbit/s throughout, over two samples.
    #[test]
    fn goodput_sampled_faster_than_the_round_trip_is_averaged_over_one() {
        let pts: Vec<(f64, f64)> = (0..6).map(|i| (i as f64 * 0.05, if i % 2 == 0 { 2.0 } else { 0.0 })).collect();
        let avg = per_round(&pts, 2);
        assert_eq!(avg[0], (0.0, 2.0), "the first point has no earlier sample");
        assert!(avg[1..].iter().all(|p| p.1 == 1.0), "{avg:?}");
        assert_eq!(per_round(&pts, 1), pts);
    }

    #[test]
    fn aggregate_sums_flows_per_sample_time() {
        let rows = [row(0.1, 0, 1.0), row(0.1, 1, 2.0), row(0.2, 0, 3.0), row(0.2, 1, 4.0)];
        assert_eq!(aggregate(&rows, |r| r.throughput), vec![(0.1, 3.0), (0.2, 7.0)]);
    }
}

//! The simulator against the kernel: the metrics `cclab twin` and the `twin` experiment compare
//! (throughput, goodput, retransmissions, timeouts, cwnd, slow-start exit, queueing delay,
//! utilisation), their table, and one line on how faithfully the testbed's emulator applied
//! the link. Below both the command (`testbed_cmd`) and the experiment, so neither calls the other.

use crate::stats::{two_run_difference_half_width, Summary};
use crate::table::{num, Table};
use crate::verdict::{spread, Claim, Verdict};
use sim::RunResult;
use testbed::EmulatorReport;

/// One line on how faithfully the emulator applied the link.
pub fn accuracy_line(r: &EmulatorReport) -> String {
    // The rate is measured over frames that leave in the order they were served (one base
    // RTT for every flow, no jitter).
    let rate = if r.busy_frames > 0 {
        format!("rate error {:+.3} % over {} back-to-back frames", r.rate_error * 100.0, r.busy_frames)
    } else {
        "rate error not measured (frames overtake in the delay line)".to_string()
    };
    let scheduler = if r.realtime { "SCHED_FIFO" } else { "default scheduler: no real-time priority allowed" };
    let awake = if r.cpus_kept_awake { ", CPUs kept awake" } else { ", CPUs allowed to halt: no wake-up latency request" };
    let send = if r.send_latency_samples > 0 {
        format!(
            "; senders answer an ACK in {:.1} us (p1 {:.1}, p99 {:.1}; {} ACKs)",
            r.send_latency_p50_us, r.send_latency_p01_us, r.send_latency_p99_us, r.send_latency_samples
        )
    } else {
        String::new()
    };
    format!(
        "emulator: {rate}, timing error p50 {:.1} us p99 {:.1} us max {:.0} us ({scheduler}{awake}), {} socket drops, {:.0} frames per CPU second{send}",
        r.timing_error_p50_us,
        r.timing_error_p99_us,
        r.timing_error_max_us,
        r.socket_drops,
        r.frames_per_cpu_s
    )
}

/// One metric of both engines.
#[derive(Clone, Debug, PartialEq)]
pub struct TwinMetric {
    pub metric: &'static str,
    pub unit: &'static str,
    pub ours: Option<f64>,
    pub kernel: Option<f64>,
    /// What the metric can resolve (a time read off the samples: one interval); closer than
    /// this agrees.
    pub resolution: f64,
}

impl TwinMetric {
    pub fn ratio(&self) -> Option<f64> {
        match (self.ours, self.kernel) {
            (Some(o), Some(k)) if o != 0.0 => Some(k / o),
            _ => None,
        }
    }

    /// `agree` within 10 % (or within the metric's resolution), `close` within 30 %, else
    /// `differ`; counts of three or fewer on both sides (retransmissions, timeouts) agree
    /// whatever their ratio.
    pub fn verdict(&self) -> &'static str {
        match (self.ours, self.kernel) {
            (None, None) => "agree (neither)",
            (None, Some(_)) | (Some(_), None) => "differ",
            (Some(o), Some(k)) if self.unit == "count" && o <= 3.0 && k <= 3.0 => "agree",
            (Some(o), Some(k)) if (k - o).abs() <= self.resolution * (1.0 + 1e-9) => "agree",
            _ => match self.ratio() {
                Some(r) if (r - 1.0).abs() <= 0.10 => "agree",
                Some(r) if (r - 1.0).abs() <= 0.30 => "close",
                _ => "differ",
            },
        }
    }
}

/// Segments of cwnd averaged over every sample of every flow.
fn cwnd_mean(r: &RunResult) -> Option<f64> {
    let s = r.series.as_ref()?;
    let xs: Vec<f64> = s.flows.iter().filter_map(|f| f.cwnd).collect();
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// When flow 0 first had a finite ssthresh (left slow start).
fn slow_start_exit(r: &RunResult) -> Option<f64> {
    let s = r.series.as_ref()?;
    s.flows.iter().find(|f| f.flow == 0 && f.ssthresh.is_some_and(|x| x < 1e6)).map(|f| f.time)
}

/// One metric: its name, its unit, and how it is read off a run.
pub struct Measure {
    pub metric: &'static str,
    pub unit: &'static str,
    pub of: fn(&RunResult) -> Option<f64>,
}

fn flow_sum(r: &RunResult, f: fn(&sim::FlowSummary) -> f64) -> f64 {
    r.summary.flows.iter().map(f).sum()
}

/// The metrics both engines are compared on, in table order.
pub const MEASURES: [Measure; 8] = [
    Measure { metric: "throughput", unit: "Mbit/s", of: |r| Some(flow_sum(r, |f| f.throughput_bps) / 1e6) },
    Measure { metric: "goodput", unit: "Mbit/s", of: |r| Some(flow_sum(r, |f| f.goodput_bps) / 1e6) },
    Measure { metric: "retransmissions", unit: "count", of: |r| Some(flow_sum(r, |f| f.retransmits as f64)) },
    Measure { metric: "timeouts", unit: "count", of: |r| Some(flow_sum(r, |f| f.timeouts as f64)) },
    Measure { metric: "cwnd mean", unit: "segments", of: cwnd_mean },
    Measure { metric: "slow-start exit", unit: "s", of: slow_start_exit },
    Measure { metric: "queueing delay mean", unit: "ms", of: |r| Some(r.summary.link.queue_delay_ms.mean) },
    Measure { metric: "link utilisation", unit: "%", of: |r| Some(r.summary.link.utilization * 100.0) },
];

/// The measure named `metric` (one of [`MEASURES`]).
pub fn measure(metric: &str) -> &'static Measure {
    MEASURES.iter().find(|m| m.metric == metric).unwrap_or_else(|| panic!("no twin metric {metric}"))
}

/// The time-series sample interval of a run (between flow 0's first two samples), seconds.
fn sample_interval(r: &RunResult) -> f64 {
    let Some(s) = &r.series else { return 0.0 };
    let mut times = s.flows.iter().filter(|f| f.flow == 0).map(|f| f.time);
    match (times.next(), times.next()) {
        (Some(a), Some(b)) => b - a,
        (Some(a), None) => a,
        _ => 0.0,
    }
}

pub fn twin_metrics(ours: &RunResult, kernel: &RunResult) -> Vec<TwinMetric> {
    let interval = sample_interval(ours);
    MEASURES
        .iter()
        .map(|m| {
            let resolution = if m.metric == "slow-start exit" { interval } else { 0.0 };
            TwinMetric { metric: m.metric, unit: m.unit, ours: (m.of)(ours), kernel: (m.of)(kernel), resolution }
        })
        .collect()
}

/// What a metric resolves, below which no margin can go: one event for a count, one sample
/// interval for a time read off the samples, nothing finer for the rest.
fn resolution(m: &Measure, ours: &[RunResult]) -> f64 {
    match (m.unit, m.metric) {
        ("count", _) => 1.0,
        (_, "slow-start exit") => ours.first().map_or(0.0, sample_interval),
        _ => 0.0,
    }
}

/// How far ours may lie from the kernel and still count as the kernel's, on one metric: what
/// two of the kernel's runs differ by in 95 % of pairs, t(0.975, n − 1)·√2·sd over its n runs
/// ([`two_run_difference_half_width`]), or the metric's resolution where larger. Taken from
/// the kernel alone, never from ours. `None` with fewer than two runs, or where the kernel
/// repeated itself exactly on a metric that resolves nothing finer.
pub fn kernel_margin(kernel: &Summary, resolution: f64) -> Option<f64> {
    let margin = two_run_difference_half_width(kernel, 0.05)?.max(resolution);
    (margin > 0.0).then_some(margin)
}

/// Ours the same as the kernel's, by equivalence ([`Claim::equivalent`]): the 90 % Welch
/// interval of ours minus the kernel's mean inside [`kernel_margin`], so ours counts as the
/// kernel's only where it could pass for another of its runs, never where a test merely found
/// no difference. A margin from the kernel's spread as large as its mean would count a zero
/// (no flow, an empty queue, no event) as the kernel's, so such a claim is not comparable: the
/// kernel's runs vary too much for their number and length to tell anything. A margin that is
/// the metric's resolution (the kernel repeating itself to within one event) is kept.
pub fn as_the_kernel(claim: &str, ours: &[f64], kernel: Summary, resolution: f64, unit: &str) -> Claim {
    // Ours as a mean and spread even where the claim cannot be judged, so the table still shows it.
    let ours_text = Summary::of(ours).map_or_else(|| "no runs".to_string(), |o| spread(&o, unit));
    let not_comparable = |reason: String| Claim::not_comparable(claim, spread(&kernel, unit), ours_text.clone(), &reason);
    let Some(margin) = kernel_margin(&kernel, resolution) else {
        return not_comparable("sameness needs two kernel runs or more that differ, or a metric with a resolution".into());
    };
    let spread_margin = two_run_difference_half_width(&kernel, 0.05).unwrap_or(0.0);
    if spread_margin > resolution && spread_margin >= kernel.mean.abs() {
        return not_comparable(format!(
            "two of the kernel's {} runs differ by up to ±{} in 95 % of pairs, as much as its mean ({}): a margin that wide would count a zero (no flow, an empty queue, no event) as the kernel's; more or longer runs are needed",
            kernel.n,
            num(spread_margin),
            num(kernel.mean)
        ));
    }
    let source = format!("two of the kernel's {} runs differ by less in 95 % of pairs{}", kernel.n, if resolution > 0.0 { ", or the metric's resolution" } else { "" });
    Claim::equivalent(claim, ours, kernel, margin, &source, unit)
}

/// Each of `metrics` judged over several runs of each engine: ours the same as the kernel's by
/// equivalence ([`Claim::equivalent`]: the 90 % Welch interval of ours minus the kernel's mean
/// inside [`kernel_margin`]), so sameness is shown only where ours could pass for another of
/// the kernel's runs, never presumed from a test that found no difference. Claims are named
/// `"{what}: {metric}"`; one that does not hold says by how much ours is off.
pub fn judge(what: &str, ours: &[RunResult], kernel: &[RunResult], metrics: &[&Measure]) -> Vec<Claim> {
    metrics
        .iter()
        .map(|m| {
            let of = |runs: &[RunResult]| -> Vec<f64> { runs.iter().filter_map(m.of).collect() };
            let (o, k) = (of(ours), of(kernel));
            let claim = format!("{what}: {}", m.metric);
            let unit = if m.unit == "count" { "" } else { m.unit };
            let (Some(ks), Some(os)) = (Summary::of(&k), Summary::of(&o)) else {
                return Claim::not_comparable(&claim, format!("{} kernel runs", k.len()), format!("{} runs", o.len()), "one of the engines did not report it");
            };
            let c = as_the_kernel(&claim, &o, ks, resolution(m, ours), unit);
            let Some(margin) = kernel_margin(&ks, resolution(m, ours)) else { return c };
            let off = (os.mean - ks.mean) / ks.mean * 100.0;
            if c.holds() || c.verdict == Verdict::NotComparable || !off.is_finite() {
                return c;
            }
            // Below 0.1 % a tenth of a percent would print +0.0: two decimals then.
            let off = if off.abs() < 0.1 { format!("{off:+.2}") } else { format!("{off:+.1}") };
            if (os.mean - ks.mean).abs() >= margin {
                c.because(&format!("ours is {off} % from the kernel's mean, further than two of the kernel's runs differ by (±{}); we have not traced the cause", num(margin)))
            } else {
                c.because(&format!("ours is {off} % from the kernel's mean, less than two of the kernel's runs differ by (±{}), but the runs vary too much to show sameness", num(margin)))
            }
        })
        .collect()
}

/// [`judge`] on the kernel runs that are the model's link (`kernel`), where the runs numbered in
/// `left_out` (of `runs` in all) were left out because the emulator fell behind in each of
/// their `tries` attempts ([`crate::kernel_run`]). Every claim says what it rests on; with
/// fewer than two runs kept, none can be judged and each says why.
pub fn judge_kept(what: &str, ours: &[RunResult], kernel: &[RunResult], left_out: &[u64], runs: u64, tries: usize, metrics: &[&Measure]) -> Vec<Claim> {
    if left_out.is_empty() {
        return judge(what, ours, kernel, metrics);
    }
    let which = format!("run{} {}", if left_out.len() > 1 { "s" } else { "" }, left_out.iter().map(u64::to_string).collect::<Vec<_>>().join(", "));
    if kernel.len() < 2 {
        let reason = format!(
            "the emulator fell behind in each of {tries} attempts at kernel {which}, leaving {} of {runs} runs that are the model's link: the host stalled the forwarder",
            kernel.len()
        );
        return metrics
            .iter()
            .map(|m| Claim::not_comparable(&format!("{what}: {}", m.metric), format!("{} kernel runs kept", kernel.len()), format!("{} runs", ours.len()), &reason))
            .collect();
    }
    let rests = format!("on {} of {runs} kernel runs: {which} left out, the emulator having fallen behind in each of {tries} attempts", kernel.len());
    judge(what, ours, kernel, metrics)
        .into_iter()
        .map(|c| {
            let why = if c.why.is_empty() { format!("rests {rests}") } else { format!("{}; {rests}", c.why) };
            c.because(&why)
        })
        .collect()
}

/// One run of each engine: each metric, their ratio, and how far apart they are (`agree`
/// within 10 %, `close` within 30 %: a description of one pair of runs, not a test; several
/// runs, `cclab twin --runs N`, are judged by [`judge`]).
pub fn twin_table(title: &str, ours: &RunResult, kernel: &RunResult) -> Table {
    let mut t = Table::new(title, &["metric", "ours (simulator)", "kernel (testbed)", "kernel / ours", "ratio band"]);
    let cell = |v: Option<f64>, unit: &str| v.map_or("-".to_string(), |x| format!("{x:.3} {unit}"));
    for m in twin_metrics(ours, kernel) {
        t.row(vec![
            m.metric.to_string(),
            cell(m.ours, m.unit),
            cell(m.kernel, m.unit),
            m.ratio().map_or("-".into(), |r| format!("{r:.3}")),
            m.verdict().to_string(),
        ]);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three kernel runs 10, 11, 12 (sd 1): two more differ by less than t(0.975, 2)·√2·1 =
    /// 4.303·1.414 = 6.085 in 95 % of pairs. A kernel that repeats itself exactly gives no
    /// margin, unless the metric resolves no finer than a unit (a count: 1).
    #[test]
    fn the_margin_is_what_two_kernel_runs_differ_by() {
        let m = kernel_margin(&Summary::of(&[10.0, 11.0, 12.0]).unwrap(), 0.0).unwrap();
        assert!((m - 6.085).abs() < 5e-4, "{m}");
        assert_eq!(kernel_margin(&Summary::of(&[3.0, 3.0]).unwrap(), 0.0), None);
        assert_eq!(kernel_margin(&Summary::of(&[3.0, 3.0]).unwrap(), 1.0), Some(1.0));
        assert_eq!(kernel_margin(&Summary::of(&[3.0]).unwrap(), 1.0), None);
    }

    /// A second of Reno on 10 Mbit/s, 60 ms, in the simulator (two seeds stand in for runs of
    /// either engine).
    fn runs(n: u64) -> Vec<RunResult> {
        (1..=n)
            .map(|seed| {
                let cfg = sim::SimConfig {
                    seed,
                    duration: cc::Time::from_secs(1),
                    sample_interval: Some(cc::Time::from_millis(100)),
                    link: sim::LinkConfig { rate: cc::Rate::from_bits_per_sec(10e6), ..sim::LinkConfig::default() },
                    flows: vec![sim::FlowConfig::new(cc::CcConfig::from_name("reno").unwrap(), cc::Time::from_millis(60))],
                };
                crate::run::simulate(cfg, true, "").map_err(|e| e.0).unwrap()
            })
            .collect()
    }

    /// With one kernel run of three kept, nothing can be judged and every claim says the
    /// emulator fell behind; with two kept, each claim is judged and says which run it lacks;
    /// with none left out, the claims are [`judge`]'s own.
    #[test]
    fn claims_say_which_kernel_runs_were_left_out() {
        let (ours, kernel) = (runs(2), runs(2));
        let metrics = [measure("goodput"), measure("retransmissions")];
        let none = judge_kept("x", &ours, &kernel[..1], &[2, 3], 3, 3, &metrics);
        assert!(none.iter().all(|c| c.verdict == Verdict::NotComparable && c.why.contains("kernel runs 2, 3") && c.why.contains("1 of 3 runs")), "{none:?}");
        let kept = judge_kept("x", &ours, &kernel, &[3], 3, 3, &metrics);
        assert!(kept.iter().all(|c| c.why.contains("on 2 of 3 kernel runs: run 3 left out")), "{kept:?}");
        assert_eq!(judge_kept("x", &ours, &kernel, &[], 2, 3, &metrics), judge("x", &ours, &kernel, &metrics));
    }

    /// Kernel runs 1, 2, 3 (mean 2, sd 1): two differ by up to 6.085, more than the mean, so
    /// even ours at 2, 2, 2 is not comparable (a zero would pass). Kernel runs 100, 101, 102
    /// give the same margin on a mean of 101: ours at 101 ± 0.1 holds. Counts of zero on both
    /// sides hold within the resolution of one event.
    #[test]
    fn a_margin_as_large_as_the_mean_tells_nothing() {
        let c = as_the_kernel("x", &[2.0, 2.0, 2.0], Summary::of(&[1.0, 2.0, 3.0]).unwrap(), 0.0, "");
        assert_eq!(c.verdict, Verdict::NotComparable, "{c:?}");
        assert!(c.why.contains("±6.085"), "{}", c.why);
        let c = as_the_kernel("x", &[100.9, 101.0, 101.1], Summary::of(&[100.0, 101.0, 102.0]).unwrap(), 0.0, "");
        assert_eq!(c.verdict, Verdict::Holds, "{}", c.test);
        assert!(as_the_kernel("x", &[0.0, 0.0], Summary::of(&[0.0, 0.0]).unwrap(), 1.0, "").holds());
    }
}

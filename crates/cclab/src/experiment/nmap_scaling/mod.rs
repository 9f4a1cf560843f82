//! `nmap-scaling`: seed 000's three host-discovery benchmarks, unscaled against the
//! response-rate-scaled group window (and nmap's current scaling), on cclab's model of random
//! Internet addresses ([`sim::scan::ScanNetwork::default`]).
//!
//! ## Where each model value comes from
//!
//! Every value of the network model but one is taken from outside the seed's results (the
//! `sim::scan` module documentation gives each source): the probe-answer shares from the Nmap
//! book's Table 3.2, the ARP drop of the first packet from nmap's developers' own observation
//! (PerformanceGraphs, August 2007), the ICMP rate limit from Cisco IOS's default, the path
//! loss of 0.1 % from SLAC's PingER measurements (losses below 0.1 % to North America, Europe,
//! East Asia and Oceania, above it to the rest of the world, in its reports of 2007-2008).
//!
//! The one unknown is the share of dead addresses behind a router that answers with ICMP
//! unreachables: we found no published measurement of it for 2007 paths that we could read in
//! full. It is therefore **fitted, on one workload only**: the 5000-address scan's speed-up
//! (unscaled / scaled-wiki time, the seed's 1.16), averaged over the fit seeds 1-8, over a
//! grid of shares ([`SHARE_GRID`]). With that share fixed, everything else
//! is an out-of-sample check on other seeds (9-16; 9-12 in fast mode): the 500- and
//! 10 000-address speed-ups, every scan time, the directions, and the `packet_ratio`
//! statistics. The 5000-address speed-up (and its direction) shown on the check seeds is still
//! marked fitted.
//!
//! The seed's "scaled" is the page's rule, `scaled-wiki`: increments × probes_sent /
//! probes_replied_to with no cap ([`SEED_SCALED`]). The code merged the next day (`scaled-2007`)
//! caps that scale at 50, which the seed's own packet_ratio statistics (median 58.84) show its
//! runs did not; the merged variant runs beside it in the scan-time tables.
//!
//! A seed figure is one run of a real scan; ours vary from seed to seed (a few answering
//! routers more or fewer change a scan by tens of per cent). A seed figure therefore holds when
//! it lies in our 95 % prediction interval for one run, taken on a log scale since times,
//! speed-ups and packet ratios are positive and vary by factors ([`Claim::one_run_positive`]:
//! an interval wider than a factor of ten is too wide to judge by), and the seed's
//! directions hold when they hold on every check seed ([`Claim::direction`]).
//!
//! The seed's shapes, unscaled congestion avoidance "more like the square root function" and
//! the scaled window "as if we were getting cwnd responses per RTT" (a line), are read from
//! every stretch of congestion avoidance of the check seeds' runs ([`shape`]); a square root
//! must bend all along, not only at its start.
//!
//! The seed's "Why host discovery is different" (an unanswered probe is not a drop, as it
//! would be with TCP) is measured against TCP's rule on the same check seeds, and its "Host
//! congestion control is unchanged" by counting the sends host windows hold back
//! ([`unanswered`]).

mod shape;
mod unanswered;

use super::{Claim, Options, Output, Table};
use crate::plot::{self, PlotFiles, VersusRow};
use crate::scan_table;
use crate::stats::{mean, Summary};
use crate::UserError;
use cc::scan::variant::SlowStart;
use cc::scan::{TimingTemplate, UltraTimingVals, Variant};
use cc::Time;
use rayon::prelude::*;
use sim::scan::config::{ANSWER_PA80, ANSWER_PE, ANSWER_PS80};
use sim::scan::{RttDistribution, ScanConfig, ScanResult};
use std::ops::RangeInclusive;

pub const DESCRIPTION: &str = "Seed 000 (nmap's ResponseRateScaledCongestionControl page) timed three \
host discoveries of random addresses: 500 addresses with 34 up, 5000 with 148 and 10000 with 452, \
before and after scaling the group window's increments by probes_sent / probes_replied_to. We run \
the same three workloads under the unscaled, scaled-wiki (the seed's rule, uncapped), scaled-2007 (as \
merged, its scale capped at 50) and scaled (nmap today) variants on one documented network model (log-normal RTTs, assumed, up hosts answering each probe type as \
often as the Nmap book's Table 3.2 says, 0.1 % path loss as PingER measured, and a few dead \
addresses behind routers that send rate-limited ICMP unreachables after an ARP drop). The share of \
those routers is the one fitted value: fitted on the 5000-address speed-up alone on seeds 1-8, then \
fixed; the other two workloads, every scan time and the packet_ratio statistics are checked out of \
sample on seeds 9-16 (9-12 in fast mode), and the seed's window graphs are drawn from our runs, with the shape of their \
congestion avoidance (a square root unscaled, a line scaled) measured on every stretch. The seed's reason \
for not counting unanswered probes as drops is tested by running the scaled scans with TCP's rule instead.";

/// One of the seed's benchmarks: addresses, hosts up, probe types (`-sP` as root: echo + TCP
/// ACK; `-PS`: one SYN probe; `-PA22,80,113`: three ACK probes), and its scan times in seconds,
/// unscaled and scaled, with the hosts each found up.
#[derive(Clone, Copy, Debug)]
pub struct Workload {
    pub hosts: u32,
    pub up: u32,
    pub probes: u8,
    pub command: &'static str,
    pub seed_unscaled: f64,
    pub seed_scaled: f64,
    pub seed_up: (u32, u32),
}

pub const WORKLOADS: [Workload; 3] = [
    Workload { hosts: 500, up: 34, probes: 2, command: "nmap -d2 -n -sP", seed_unscaled: 65.627, seed_scaled: 33.121, seed_up: (34, 34) },
    Workload { hosts: 5000, up: 148, probes: 1, command: "nmap -d2 -n -sP -PS", seed_unscaled: 226.944, seed_scaled: 195.556, seed_up: (148, 147) },
    Workload { hosts: 10000, up: 452, probes: 3, command: "nmap -d2 -n -sP -PA22,80,113", seed_unscaled: 1984.355, seed_scaled: 1586.226, seed_up: (452, 454) },
];

/// The seed's scaled variant: the page's rule, before the merge capped the scale at 50. Its
/// code line multiplies by probes_sent / probes_replied_to alone, and its packet_ratio
/// statistics (median 58.84, maximum 105) exceed what the capped scale can print
/// ([`cc::scan::Variant`]). The merged `scaled-2007` runs beside it in the scan-time tables.
pub const SEED_SCALED: Variant = Variant::ScaledWiki;

/// The workload whose speed-up the router share is fitted to (5000 addresses): the only one
/// where one router is a small step (1 of 4852 dead addresses; 1 of 466 on 500 addresses), and
/// not the one with the packet_ratio statistics, which stay out of sample.
pub const FIT_WORKLOAD: usize = 1;

/// The path loss of the time why's sensitivity rows: 1 % each way, inside the range SLAC's
/// PingER reports of 2007-2008 give for much of the world ("up to a few per cent"), but not the
/// model's 0.1 %; it shows what more drops would do, and is never used for a verdict.
const LOSSIER_PATHS: f64 = 0.01;

/// The router shares the fit tries: 0 to 0.6 % of the dead addresses in steps of 0.05 %.
pub const SHARE_GRID: [f64; 13] = [0.0, 0.0005, 0.001, 0.0015, 0.002, 0.0025, 0.003, 0.0035, 0.004, 0.0045, 0.005, 0.0055, 0.006];

/// The seeds the share is fitted on (the same in both modes, so that both use one fitted
/// value) and the seeds everything is checked on (disjoint from them).
pub fn seeds(fast: bool) -> (RangeInclusive<u64>, RangeInclusive<u64>) {
    if fast {
        (1..=8, 9..=12)
    } else {
        (1..=8, 9..=16)
    }
}

/// How often an up host answers each probe type of a workload (Nmap book, Table 3.2: `-PE`,
/// `-PA80` and `-PS80`; the ACK probes to ports 22 and 113 are taken to behave like `-PA80`).
pub fn answer_probability(probes: u8) -> [f64; 4] {
    match probes {
        2 => [ANSWER_PE, ANSWER_PA80, 1.0, 1.0],
        1 => [ANSWER_PS80, 1.0, 1.0, 1.0],
        _ => [ANSWER_PA80; 4],
    }
}

/// The seed's packet_ratio summary of the 10 000-host scan: min, q1, median, mean, q3, max.
pub const SEED_RATIO_10000: [f64; 6] = [17.29, 51.19, 58.84, 57.04, 63.30, 105.00];
const RATIO_NAMES: [&str; 6] = ["min", "q1", "median", "mean", "q3", "max"];

fn ratio_stats(r: &ScanResult) -> [f64; 6] {
    let p = &r.packet_ratio;
    [p.min, p.q1, p.median, p.mean, p.q3, p.max]
}

/// One workload's runs over some seeds: each variant run, in the order asked for, with its
/// runs in seed order.
struct Runs {
    seeds: Vec<u64>,
    by_variant: Vec<(Variant, Vec<ScanResult>)>,
}

impl Runs {
    /// Variant `v`'s runs, one per seed. Asking for a variant that was not run is a slip in
    /// this module, not an input error.
    fn of(&self, v: Variant) -> &[ScanResult] {
        self.by_variant.iter().find(|(x, _)| *x == v).map(|(_, rs)| rs.as_slice()).unwrap_or_else(|| panic!("{v:?} was not run"))
    }
    fn all(&self) -> impl Iterator<Item = &ScanResult> {
        self.by_variant.iter().flat_map(|(_, rs)| rs)
    }
    fn times(&self, v: Variant) -> Vec<f64> {
        self.of(v).iter().map(|r| r.scan_time_s).collect()
    }
    /// Unscaled time over scaled-wiki time, seed by seed.
    fn speedups(&self) -> Vec<f64> {
        self.times(Variant::Unscaled).iter().zip(self.times(SEED_SCALED)).map(|(u, s)| u / s).collect()
    }
    fn drops(&self, v: Variant) -> Vec<f64> {
        self.of(v).iter().map(|r| r.group_drops as f64).collect()
    }
}

/// Runs `variants` of workload `w` on every seed with the given router share, the network
/// changed by `tweak`, in parallel; the order of the results is fixed.
fn run_workload(w: &Workload, seeds: &RangeInclusive<u64>, share: f64, variants: &[Variant]) -> Runs {
    run_tweaked(w, seeds, share, variants, |_| ())
}

fn run_tweaked(w: &Workload, seeds: &RangeInclusive<u64>, share: f64, variants: &[Variant], tweak: impl Fn(&mut ScanConfig) + Sync) -> Runs {
    let cases: Vec<(usize, u64)> = variants.iter().enumerate().flat_map(|(k, _)| seeds.clone().map(move |s| (k, s))).collect();
    let results: Vec<ScanResult> = cases
        .par_iter()
        .map(|&(k, seed)| {
            let mut cfg = ScanConfig { hosts: w.hosts, up: w.up, probes: w.probes, answer_probability: answer_probability(w.probes), seed, ..ScanConfig::default() };
            cfg.network.unreachable_fraction = share;
            tweak(&mut cfg);
            sim::scan::run(&cfg, variants[k])
        })
        .collect();
    let n = seeds.clone().count();
    let by_variant = variants.iter().copied().zip(results.chunks(n).map(<[ScanResult]>::to_vec)).collect();
    Runs { seeds: seeds.clone().collect(), by_variant }
}

/// The fit: for each share of the grid, the mean speed-up of the fit workload over the fit
/// seeds; the chosen share is the one whose speed-up is nearest the seed's in log terms.
struct Fit {
    share: f64,
    grid: Vec<GridPoint>,
}

/// One share of the grid on the fit seeds.
struct GridPoint {
    share: f64,
    /// Mean unscaled and scaled-wiki times, and the speed-up of the means.
    unscaled: f64,
    scaled: f64,
    speedup: f64,
    /// The per-seed speed-ups' 95 % prediction interval for one run, on a log scale: the test
    /// the check seeds' speed-ups face ([`Claim::one_run_positive`]). Where it holds the
    /// seed's figure, this share is as consistent with it as the chosen one: the fit's
    /// precision.
    interval: Option<(f64, f64)>,
}

fn fit_share(seeds: &RangeInclusive<u64>) -> Fit {
    let w = &WORKLOADS[FIT_WORKLOAD];
    let target = (w.seed_unscaled / w.seed_scaled).ln();
    let grid: Vec<GridPoint> = SHARE_GRID
        .iter()
        .map(|&share| {
            let r = run_workload(w, seeds, share, &[Variant::Unscaled, SEED_SCALED]);
            let (u, s) = (r.times(Variant::Unscaled), r.times(SEED_SCALED));
            let per_seed: Vec<f64> = u.iter().zip(&s).map(|(a, b)| a / b).collect();
            let (unscaled, scaled) = (mean(&u), mean(&s));
            GridPoint { share, unscaled, scaled, speedup: unscaled / scaled, interval: crate::verdict::log_prediction_interval(&per_seed) }
        })
        .collect();
    let best = grid.iter().min_by(|a, b| (a.speedup.ln() - target).abs().total_cmp(&(b.speedup.ln() - target).abs())).expect("a grid");
    Fit { share: best.share, grid }
}

/// The seed's main findings, judged by their rows of `claims`; `baseline` holds our mean
/// unscaled and scaled times and packet_ratio median per workload, at the fitted share.
fn findings(claims: &[Claim], fit: &Fit, consistent: &[f64], baseline: &[(f64, f64, f64)]) -> Vec<crate::finding::Finding> {
    use crate::finding::Finding;
    let speedups: Vec<String> = WORKLOADS
        .iter()
        .zip(baseline)
        .enumerate()
        .map(|(k, (w, (u, s, _)))| format!("{} addresses {:.2}{} (seed {:.2})", w.hosts, u / s, if k == FIT_WORKLOAD { ", fitted" } else { "" }, w.seed_unscaled / w.seed_scaled))
        .collect();
    let fit_range = fit.grid.iter().filter(|g| consistent.contains(&g.share)).map(|g| g.speedup);
    let (lo, hi) = fit_range.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| (l.min(x), h.max(x)));
    let ratio_median = baseline.get(2).map_or(f64::NAN, |b| b.2);
    vec![
        Finding::judge(
            "Scaling the group window by the response rate makes host discovery faster, on every workload (the seed's three scan times)",
            claims,
            |c| c.claim.contains("scaled faster than unscaled"),
            format!(
                "Speed-ups of our mean times at the router share fitted on the {}-address workload ({}): {}. The fit admits {} as well as it does that one, and across them the fit workload's own speed-up (fit seeds) runs from {:.2} to {:.2}; the rows \"at every router share the fit admits\" judge the other workloads there.",
                WORKLOADS[FIT_WORKLOAD].hosts,
                pct(fit.share),
                speedups.join("; "),
                match (consistent.first(), consistent.last()) {
                    (Some(a), Some(b)) => format!("the shares {} to {}", pct(*a), pct(*b)),
                    _ => "no share".into(),
                },
                lo,
                hi
            ),
        ),
        Finding::judge(
            "The seed's window graphs: unscaled congestion avoidance grows like a square root, scaled like a line",
            claims,
            |c| c.claim.contains("congestion avoidance grows"),
            "The rows give each shape's half-time exponent k (a line 1, a square root 0.5) over our runs, and its interval where it reaches across the bound between the two.".into(),
        ),
        Finding::judge(
            "packet_ratio, probes sent per probe answered, from the 10,000-address test (median 58.84)",
            claims,
            |c| c.claim.contains("packet_ratio"),
            format!("Our median is {ratio_median:.2}: {} replies per probe than the seed's. Answering routers would add replies but slow the scaled scan, so in this model the seed's packet_ratio and its speed-ups pull the one fitted share in opposite directions (the rows' why).", if ratio_median > SEED_RATIO_10000[2] { "fewer" } else { "more" }),
        ),
    ]
}

/// "Scaled faster than unscaled" on workload `w` at every router share of the grid that the
/// fit finds as consistent with the seed's fit speed-up as the chosen one (`consistent`): the
/// fit pins the share no closer, so an out-of-sample direction shown at the chosen share
/// alone could rest on that choice. `chosen` is the chosen share with its runs, already made.
fn faster_where_the_fit_admits(w: &Workload, seeds: &RangeInclusive<u64>, consistent: &[f64], chosen: (f64, &Runs)) -> Claim {
    let parts: Vec<(String, Claim)> = consistent
        .iter()
        .map(|&share| {
            let fresh;
            let runs = if share == chosen.0 {
                chosen.1
            } else {
                fresh = run_workload(w, seeds, share, &[Variant::Unscaled, SEED_SCALED]);
                &fresh
            };
            let c = Claim::direction(&format!("share {}", pct(share)), "", ("unscaled", &runs.times(Variant::Unscaled)), ("scaled-wiki", &runs.times(SEED_SCALED)), "s");
            (pct(share), c)
        })
        .collect();
    let span = match (consistent.first(), consistent.last()) {
        (Some(lo), Some(hi)) => format!("{} to {}", pct(*lo), pct(*hi)),
        _ => "none".into(),
    };
    let shares = |held: bool| {
        let list: Vec<String> = parts.iter().filter(|(_, c)| c.holds() == held).map(|(s, _)| s.clone()).collect();
        if list.is_empty() { "none".to_string() } else { list.join(", ") }
    };
    Claim::all_of(
        &format!("{} addresses: scaled faster than unscaled at every router share the fit admits ({span})", w.hosts),
        &format!("unscaled {:.1} s > scaled {:.1} s", w.seed_unscaled, w.seed_scaled),
        &parts,
    )
    .because_unless_held(&format!(
        "scaled is faster on every seed at the shares {} and not at {}. Each answering router's unreachables to a retransmission count as drops for scaled-wiki and halve its window, so more routers slow the scaled scan more than the unscaled one (the drop rows); the fit on the {}-address speed-up cannot tell these shares apart, so this workload's direction rests on which of them is chosen",
        shares(true),
        shares(false),
        WORKLOADS[FIT_WORKLOAD].hosts
    ))
}

impl Fit {
    /// The shares of the grid whose interval holds the seed's speed-up `seed`.
    fn consistent(&self, seed: f64) -> Vec<f64> {
        self.grid.iter().filter(|g| g.interval.is_some_and(|(lo, hi)| (lo..=hi).contains(&seed))).map(|g| g.share).collect()
    }
}

fn pct(share: f64) -> String {
    format!("{} %", crate::table::num(share * 100.0))
}

fn seed_list(s: &RangeInclusive<u64>) -> String {
    format!("RNG seeds {}-{}", s.start(), s.end())
}

/// `mean (min-max)` of our runs.
fn mean_range(xs: &[f64], unit: &str) -> String {
    let s = Summary::of(xs).expect("runs");
    format!("{:.1}{unit} ({:.1}-{:.1})", s.mean, s.min, s.max)
}

/// The seed's figure against ours: our mean, and as its whisker the interval the verdict
/// tests the seed's one run against (the 95 % prediction interval on a log scale,
/// [`crate::verdict::log_prediction_interval`]; min–max with fewer than two runs).
fn versus_row(label: String, seed: f64, ours: &[f64]) -> VersusRow {
    VersusRow { label, seed: Some((seed, None)), ours: crate::verdict::one_run_positive_whisker(ours) }
}

/// The seed's growth argument, on the library's window: in congestion avoidance at `cwnd`
/// with a fraction `f` of probes answered, one round trip brings `f·cwnd` replies; the window's
/// growth over them, unscaled and under the seed's rule (scale 1/f, uncapped) and the merged
/// code's (min(1/f, 50)): (unscaled, the seed's, merged).
fn growth_per_rtt(cwnd: f64, f: f64) -> (f64, f64, f64) {
    let grow = |variant: Variant, scale: f64| {
        let perf = variant.perf(TimingTemplate::T3);
        let mut v = UltraTimingVals { cwnd, ssthresh: 2, ..UltraTimingVals::new(cwnd, &perf, Time::ZERO) };
        for _ in 0..(f * cwnd).round() as usize {
            v.ack(&perf, Some(scale.min(perf.cc_scale_max)), 1.0, SlowStart::Capped);
        }
        v.cwnd - cwnd
    };
    (grow(Variant::Unscaled, 1.0), grow(SEED_SCALED, 1.0 / f), grow(Variant::Scaled2007, 1.0 / f))
}

pub fn run(opts: &Options) -> Result<Output, UserError> {
    let mut out = Output::default();
    let (fit_seeds, check_seeds) = seeds(opts.fast);
    let (fit_s, check_s) = (seed_list(&fit_seeds), seed_list(&check_seeds));
    let fit = fit_share(&fit_seeds);
    let fw = &WORKLOADS[FIT_WORKLOAD];
    let seed_speedup_fit = fw.seed_unscaled / fw.seed_scaled;
    let consistent = fit.consistent(seed_speedup_fit);
    let precision = match (consistent.first(), consistent.last()) {
        (Some(lo), Some(hi)) if lo == hi => format!("; of the grid, only {} puts the seed's figure inside the fit seeds' 95 % prediction interval", pct(*lo)),
        (Some(lo), Some(hi)) => format!(
            "; {} of the grid's {} shares, from {} to {}, put the seed's figure inside the fit seeds' 95 % prediction interval for one seed's speed-up (the fit table), so the fit pins the share no closer than that",
            consistent.len(),
            fit.grid.len(),
            pct(*lo),
            pct(*hi)
        ),
        _ => "; no share of the grid puts the seed's figure inside the fit seeds' 95 % prediction interval".into(),
    };
    let fitted_why = format!(
        "the share of dead addresses behind answering routers, {}, was chosen on {fit_s} so that this workload's mean speed-up is nearest the seed's {seed_speedup_fit:.2}{precision}; shown here on {check_s}",
        pct(fit.share),
    );

    let mut fit_table = Table::new(
        &format!("fit: router share against the {}-address speed-up (fit seeds)", fw.hosts),
        &["router share", "answering routers", "unscaled", "scaled-wiki", "speed-up", "95 % prediction interval, one seed", "seed's speed-up", "seed's inside", "chosen"],
    );
    for g in &fit.grid {
        let routers = (g.share * (fw.hosts - fw.up) as f64).round();
        fit_table.row(vec![
            pct(g.share),
            format!("{routers} of {}", fw.hosts - fw.up),
            format!("{:.1} s", g.unscaled),
            format!("{:.1} s", g.scaled),
            format!("{:.2}", g.speedup),
            g.interval.map_or("-".into(), |(lo, hi)| format!("{lo:.2}-{hi:.2}")),
            format!("{seed_speedup_fit:.2}"),
            if consistent.contains(&g.share) { "yes".into() } else { "no".into() },
            if g.share == fit.share { "fitted".into() } else { String::new() },
        ]);
    }

    let mut times = Table::new(
        "scan time, ours (check seeds: mean and range) beside the seed's",
        &["addresses", "up", "probes", "unscaled", "scaled-wiki (the seed's)", "scaled-2007 (as merged)", "scaled", "seed unscaled", "seed scaled", "our speed-up", "seed's speed-up"],
    );
    let mut per_seed = Table::new(
        "scan time per check seed (out of sample)",
        &["addresses", "seed", "unscaled", "scaled-wiki", "scaled-2007", "scaled", "speed-up", "group drops unscaled", "group drops scaled-wiki"],
    );
    let (mut time_rows, mut speedup_rows) = (Vec::new(), Vec::new());
    let mut all_speedups: Vec<Vec<f64>> = Vec::new();
    // Slow start's steps in every check scan, per variant: (the largest excess of cwnd over
    // ccthresh after a step in each scan, the steps that ended exactly on ccthresh).
    let mut slow_start: [(Vec<f64>, usize); 2] = Default::default();
    let mut per_send = Table::new(
        "time per probe sent, unscaled and scaled (check seeds)",
        &["addresses", "probe types", "seed's probes (2 tries per type and address)", "our probes", "seed unscaled", "ours unscaled", "seed scaled", "ours scaled-wiki"],
    );
    // Per workload: seed's and our seconds per probe, unscaled; and our means (unscaled,
    // scaled-wiki, scaled-wiki packet_ratio median) for the sensitivity table.
    let mut per_send_u: Vec<(f64, f64)> = Vec::new();
    // The same, scaled (the seed's) against scaled-wiki (ours).
    let mut per_send_s: Vec<(f64, f64)> = Vec::new();
    // Per workload: our unscaled scans' mean group drops.
    let mut unscaled_drops: Vec<f64> = Vec::new();
    let mut baseline: Vec<(f64, f64, f64)> = Vec::new();
    let mut window_plots: Vec<PlotFiles> = Vec::new();
    let mut shapes: Vec<shape::Shapes> = Vec::new();
    let plots = opts.out.join("plots");
    let mut unanswered_table = unanswered::table();
    let (mut nmap_holds, mut tcp_holds): (Vec<u64>, Vec<u64>) = (Vec::new(), Vec::new());
    for (k, w) in WORKLOADS.iter().enumerate() {
        let fitted = k == FIT_WORKLOAD;
        let runs = run_workload(w, &check_seeds, fit.share, &Variant::ALL);
        let (u, sw, s07, s) = (runs.times(Variant::Unscaled), runs.times(SEED_SCALED), runs.times(Variant::Scaled2007), runs.times(Variant::Scaled));
        let speedups = runs.speedups();
        let seed_speedup = w.seed_unscaled / w.seed_scaled;
        let sp = Summary::of(&speedups).expect("runs");
        times.row(vec![
            w.hosts.to_string(),
            w.up.to_string(),
            w.probes.to_string(),
            mean_range(&u, " s"),
            mean_range(&sw, " s"),
            mean_range(&s07, " s"),
            mean_range(&s, " s"),
            format!("{:.1} s", w.seed_unscaled),
            format!("{:.1} s", w.seed_scaled),
            format!("{:.2} ({:.2}-{:.2}){}", sp.mean, sp.min, sp.max, if fitted { " fitted" } else { "" }),
            format!("{seed_speedup:.2}"),
        ]);
        for (i, seed) in runs.seeds.iter().enumerate() {
            per_seed.row(vec![
                w.hosts.to_string(),
                seed.to_string(),
                format!("{:.1}", u[i]),
                format!("{:.1}", sw[i]),
                format!("{:.1}", s07[i]),
                format!("{:.1}", s[i]),
                format!("{:.3}{}", speedups[i], if fitted { " fitted" } else { "" }),
                runs.drops(Variant::Unscaled)[i].to_string(),
                runs.drops(SEED_SCALED)[i].to_string(),
            ]);
        }

        unscaled_drops.push(mean(&runs.drops(Variant::Unscaled)));
        let per_probe = |v: Variant| mean(&runs.of(v).iter().map(|r| r.scan_time_s / r.probes_sent as f64).collect::<Vec<_>>());
        let seed_probes = 2.0 * w.probes as f64 * w.hosts as f64;
        let probes = mean(&runs.of(Variant::Unscaled).iter().map(|r| r.probes_sent as f64).collect::<Vec<_>>());
        let ms = |x: f64| format!("{:.1} ms", x * 1e3);
        per_send.row(vec![
            w.hosts.to_string(),
            w.probes.to_string(),
            format!("{seed_probes}"),
            format!("{probes:.0}"),
            ms(w.seed_unscaled / seed_probes),
            ms(per_probe(Variant::Unscaled)),
            ms(w.seed_scaled / seed_probes),
            ms(per_probe(SEED_SCALED)),
        ]);
        per_send_u.push((w.seed_unscaled / seed_probes, per_probe(Variant::Unscaled)));
        per_send_s.push((w.seed_scaled / seed_probes, per_probe(SEED_SCALED)));
        let medians: Vec<f64> = runs.of(SEED_SCALED).iter().map(|r| r.packet_ratio.median).collect();
        baseline.push((mean(&u), mean(&sw), mean(&medians)));

        let h = w.hosts;
        out.claims.push(Claim::one_run_positive(&format!("{h} addresses ({}): unscaled scan time", w.command), &u, w.seed_unscaled, 0.0005, "s"));
        out.claims.push(Claim::one_run_positive(&format!("{h} addresses: scaled scan time (ours: scaled-wiki)"), &sw, w.seed_scaled, 0.0005, "s"));
        let direction = Claim::direction(
            &format!("{h} addresses: scaled faster than unscaled"),
            &format!("unscaled {:.1} s > scaled {:.1} s", w.seed_unscaled, w.seed_scaled),
            ("unscaled", &u),
            ("scaled-wiki", &sw),
            "s",
        );
        let faster = if fitted {
            out.claims.push(Claim::fitted(&format!("{h} addresses: speed-up unscaled / scaled (fitted)"), format!("{seed_speedup:.2}"), crate::verdict::spread(&sp, ""), &fitted_why));
            Claim::fitted(&format!("{} (fitted)", direction.claim), direction.seed, direction.ours, &fitted_why)
        } else {
            out.claims.push(Claim::one_run_positive(&format!("{h} addresses: speed-up unscaled / scaled"), &speedups, seed_speedup, 0.005, ""));
            direction
        };
        out.claims.push(faster.clone());
        if !fitted {
            out.claims.push(faster_where_the_fit_admits(w, &check_seeds, &consistent, (fit.share, &runs)));
        }
        let more_drops = Claim::direction(
            &format!("{h} addresses: scaled-wiki (router unreachables to retransmissions count as drops) sees more drops than unscaled"),
            "\"The scaled algorithm also has disabled the logic that ignores certain ICMP destination unreachable messages for the purposes of drop handling. So there are many more drops in these graphs than in current SVN\"",
            ("scaled-wiki", &runs.drops(SEED_SCALED)),
            ("unscaled", &runs.drops(Variant::Unscaled)),
            "group drops",
        );
        out.claims.push(more_drops.clone());
        // "But the scaled congestion control copes with it admirably": both at once.
        out.claims.push(Claim::all_of(
            &format!("{h} addresses: scaled-wiki \"copes with it admirably\": more drops than unscaled and still faster"),
            "\"So there are many more drops in these graphs than in current SVN. But the scaled congestion control copes with it admirably\"",
            &[("more drops".into(), more_drops), ("faster".into(), faster)],
        ));
        nmap_holds.extend(runs.all().map(|r| r.host_window_holds));
        // TCP's rule on the largest workload costs about 8 s a run (its scans last ~25 000
        // simulated seconds): full mode only.
        if k < 2 || !opts.fast {
            let tcp = run_tweaked(w, &check_seeds, fit.share, &[SEED_SCALED], |c| c.unanswered_is_drop = true);
            out.claims.push(unanswered::judge(&mut unanswered_table, h, runs.of(SEED_SCALED), tcp.of(SEED_SCALED)));
            tcp_holds.extend(tcp.of(SEED_SCALED).iter().map(|r| r.host_window_holds));
        }
        let found = |v: Variant| runs.of(v).iter().map(|r| r.hosts_found as f64).collect::<Vec<_>>();
        out.claims.push(Claim::not_comparable(
            &format!("{h} addresses: hosts up"),
            format!("{} unscaled, {} scaled", w.seed_up.0, w.seed_up.1),
            format!("{} up; found {} unscaled, {} scaled-wiki", w.up, mean_range(&found(Variant::Unscaled), ""), mean_range(&found(SEED_SCALED), "")),
            &if w.seed_up.0 == w.seed_up.1 {
                "an input: our address list has the seed's count of up hosts, so finding them tests only that nothing is lost".to_string()
            } else {
                format!(
                    "an input: our address list has the unscaled scan's count of up hosts, so finding them tests only that nothing is lost. The seed's two scans read one list (-iL) and found {} and {}: hosts that answered in one scan and not the other (possible causes: every probe or reply to a host lost, or a host that went up or down between the scans; the seed does not say), which a list with fixed up hosts does not have; {} hosts are {} % of the list's addresses",
                    w.seed_up.0,
                    w.seed_up.1,
                    w.seed_up.0.abs_diff(w.seed_up.1),
                    crate::table::num(100.0 * w.seed_up.0.abs_diff(w.seed_up.1) as f64 / h as f64)
                )
            },
        ));

        let label = |v: &str| format!("{h}, {v}");
        time_rows.push(versus_row(label("unscaled"), w.seed_unscaled, &u));
        time_rows.push(versus_row(label("scaled"), w.seed_scaled, &sw));
        speedup_rows.push(versus_row(format!("{h} addresses{}", if fitted { " (fitted)" } else { "" }), seed_speedup, &speedups));
        all_speedups.push(speedups);

        for (k, v) in [Variant::Unscaled, SEED_SCALED].into_iter().enumerate() {
            for r in runs.of(v) {
                let steps = shape::slow_start_steps(&r.window);
                if !steps.is_empty() {
                    slow_start[k].0.push(steps.iter().copied().fold(f64::NEG_INFINITY, f64::max));
                }
                slow_start[k].1 += steps.iter().filter(|&&x| x == 0.0).count();
            }
        }
        for (v, name) in [(Variant::Unscaled, "unscaled"), (SEED_SCALED, "scaled-wiki")] {
            shapes.push(shape::Shapes { workload: h, variant: name, runs: runs.of(v).iter().map(|r| shape::avoidance_stretches(&r.window)).collect() });
        }

        // The seed's graphs, drawn from our first check seed.
        let first = runs.seeds[0];
        let window = |v: Variant| runs.of(v)[0].window.as_slice();
        window_plots.push(plot::scan_window(
            &plots,
            &format!("window-{h}"),
            &format!("{h} addresses ({}), RNG seed {first}: cwnd black, ccthresh grey", w.command.trim_start_matches("nmap -d2 -n ")),
            &[("unscaled", window(Variant::Unscaled), Some(w.seed_unscaled)), (&shape::display_variant("scaled-wiki"), window(SEED_SCALED), Some(w.seed_scaled))],
        )?);
        let firsts: Vec<ScanResult> = runs.by_variant.iter().map(|(_, rs)| rs[0].clone()).collect();
        out.tables.push(scan_table::table(&format!("{h} addresses, {} up, {} probe types, RNG seed {first}", w.up, w.probes), &firsts));

        if h == 10000 {
            // The seed's ratio comes from its scaled run (values above the 50 cap, which came with
            // the merge), whose denominator counts ICMP unreachables: compare with scaled-wiki.
            let stats: Vec<[f64; 6]> = runs.of(SEED_SCALED).iter().map(ratio_stats).collect();
            let mut ratio_table = Table::new(
                "packet_ratio of the 10000-address scan, scaled-wiki (check seeds, out of sample)",
                &["statistic", "seed", "ours (mean)", "ours (range)"],
            );
            let mut ratio_rows = Vec::new();
            for (j, name) in RATIO_NAMES.iter().enumerate() {
                let ours: Vec<f64> = stats.iter().map(|s| s[j]).collect();
                let o = Summary::of(&ours).expect("runs");
                ratio_table.row(vec![name.to_string(), format!("{:.2}", SEED_RATIO_10000[j]), format!("{:.2}", o.mean), format!("{:.2}-{:.2}", o.min, o.max)]);
                out.claims.push(Claim::one_run_positive(&format!("10000 addresses: packet_ratio {name} (ours from the scaled runs; the seed says \"from the 10,000-host test above\" without naming the run)"), &ours, SEED_RATIO_10000[j], 0.005, ""));
                ratio_rows.push(versus_row(name.to_string(), SEED_RATIO_10000[j], &ours));
            }
            out.tables.push(ratio_table);
            ratio_rows.reverse();
            out.plots.push((
                "packet_ratio of the 10000-address scan, ours (scaled-wiki) against the seed's".into(),
                // Largest first, so that the legend (lower right) sits beside the smallest values.
                vec![plot::Versus::new("versus-packet-ratio", "packet_ratio, 10000 addresses: the source page against ours (scaled, the seed's rule)", "packet_ratio = probes_sent / probes_replied_to (log scale)", &ratio_rows)
                    .log()
                    .ours(format!("ours ({check_s}): mean, 95 % prediction interval"))
                    .write(&plots)?],
            ));
        }
    }
    // "It's abnormal for 95% of them not to be responded to": the seed's contrast with a TCP
    // stream, not a figure of a scan's. Ours from the median packet_ratio (probes per reply).
    let unanswered: Vec<String> = WORKLOADS.iter().zip(&baseline).map(|(w, b)| format!("{} addresses {:.1} %", w.hosts, (1.0 - 1.0 / b.2) * 100.0)).collect();
    out.claims.push(Claim::not_comparable(
        "Host discovery: the share of probes unanswered (\"It's abnormal for 95% of them not to be responded to\", said of a TCP stream's packets)",
        "95 %: abnormal for a TCP stream".into(),
        format!("scaled-wiki, 1 − 1/(median packet_ratio), the 2007 counting, whose replies include timed-out pings: {}", unanswered.join(", ")),
        "the seed's 95 % is the contrast it draws with TCP, where a response to every packet is normal, and no figure of a scan's; a scan's unanswered share is set by its workload (the hosts up and how often their ports answer, inputs of our model), not by its congestion control",
    ));
    // What the absolute times rest on: the seed's cost per probe, and our RTT model.
    let rtt_runs = run_tweaked(&WORKLOADS[0], &check_seeds, fit.share, &[Variant::Unscaled, SEED_SCALED], |c| {
        if let RttDistribution::LogNormal { median, sigma } = c.network.rtt {
            c.network.rtt = RttDistribution::LogNormal { median: Time(median.0 * 2), sigma };
        }
    });
    let mut sens = Table::new(
        "sensitivity: the model's guesses against the scan times and packet_ratio (check seeds, means)",
        &["addresses", "change to the model", "unscaled", "scaled-wiki", "speed-up of the means", "scaled-wiki packet_ratio median"],
    );
    let sens_row = |t: &mut Table, h: u32, change: String, (u, s, m): (f64, f64, f64)| {
        t.row(vec![h.to_string(), change, format!("{u:.1} s"), format!("{s:.1} s"), format!("{:.2}", u / s), format!("{m:.2}")]);
    };
    let summary = |r: &Runs| (mean(&r.times(Variant::Unscaled)), mean(&r.times(SEED_SCALED)), mean(&r.of(SEED_SCALED).iter().map(|x| x.packet_ratio.median).collect::<Vec<_>>()));
    let rtt_median = match ScanConfig::default().network.rtt {
        RttDistribution::LogNormal { median, .. } => median.as_secs_f64() * 1e3,
        _ => f64::NAN,
    };
    sens_row(&mut sens, WORKLOADS[0].hosts, format!("none (router share {})", pct(fit.share)), baseline[0]);
    let doubled = summary(&rtt_runs);
    sens_row(&mut sens, WORKLOADS[0].hosts, format!("median RTT doubled, {rtt_median:.0} to {:.0} ms", 2.0 * rtt_median), doubled);
    let w10 = &WORKLOADS[2];
    sens_row(&mut sens, w10.hosts, format!("none (router share {})", pct(fit.share)), baseline[2]);
    // The drop candidate of the time why: every workload at a higher path loss.
    let (mut lossier_per_probe, mut lossier_means) = (Vec::new(), Vec::new());
    for w in &WORKLOADS {
        let r = run_tweaked(w, &check_seeds, fit.share, &[Variant::Unscaled, SEED_SCALED], |c| c.network.loss = LOSSIER_PATHS);
        let means = summary(&r);
        sens_row(&mut sens, w.hosts, format!("path loss {} each way (was {})", pct(LOSSIER_PATHS), pct(ScanConfig::default().network.loss)), means);
        lossier_per_probe.push(mean(&r.of(Variant::Unscaled).iter().map(|x| x.scan_time_s / x.probes_sent as f64).collect::<Vec<_>>()));
        lossier_means.push(means);
    }
    let mut more_routers = Vec::new();
    for share in [0.01, 0.02] {
        let r = summary(&run_workload(w10, &check_seeds, share, &[Variant::Unscaled, SEED_SCALED]));
        sens_row(&mut sens, w10.hosts, format!("router share {}", pct(share)), r);
        more_routers.push((share, r));
    }
    let ms = |x: f64| format!("{:.1} ms", x * 1e3);
    // The drop candidate, each phrase chosen from the numbers it names. Workloads are compared in
    // the order of their up hosts per batch (the replies a batch's window grows on).
    let up_per_batch: Vec<f64> = WORKLOADS.iter().map(|w| f64::from(w.up) / f64::from(w.hosts.div_ceil(cc::scan::perf::PING_GROUP_SZ as u32))).collect();
    let mut order: Vec<usize> = (0..WORKLOADS.len()).collect();
    order.sort_by(|&a, &b| up_per_batch[a].total_cmp(&up_per_batch[b]));
    let falls = |xs: &dyn Fn(usize) -> f64| order.windows(2).all(|p| xs(p[1]) < xs(p[0]));
    let (ours_falls, seed_falls) = (falls(&|k| per_send_u[k].1), falls(&|k| per_send_u[k].0));
    let per_probe_list = |pick: &dyn Fn(usize) -> f64| order.iter().map(|&k| format!("{} on {}", ms(pick(k)), WORKLOADS[k].hosts)).collect::<Vec<_>>().join(", ");
    let drop_candidate = |drops: f64| format!(
        "ours, with {drops:.1} group drops per unscaled scan here, {} per probe as the up hosts per batch rise ({}; {}), and the seed's {} ({}). nmap's unscaled window grows by one probe per reply up to ccthresh and by 1/cwnd above it, and halves at every drop, so a window held down by drops that our model does not produce (replies to retransmissions on paths lossier than our {}, say) would cost the larger scans most.",
        if ours_falls { "gets cheaper" } else { "does not get steadily cheaper" },
        order.iter().map(|&k| format!("{:.0}", up_per_batch[k])).collect::<Vec<_>>().join(", "),
        per_probe_list(&|k| per_send_u[k].1),
        if seed_falls { "does too" } else { "does not" },
        per_probe_list(&|k| per_send_u[k].0),
        pct(ScanConfig::default().network.loss),
    );
    let slowdown = |k: usize, v: usize| if v == 0 { lossier_means[k].0 / baseline[k].0 } else { lossier_means[k].1 / baseline[k].1 };
    let scaled_slows_less = (0..WORKLOADS.len()).all(|k| slowdown(k, 1) < slowdown(k, 0));
    let log_gap = |sp: &dyn Fn(usize) -> f64| mean(&WORKLOADS.iter().enumerate().map(|(k, w)| (sp(k) / (w.seed_unscaled / w.seed_scaled)).ln().abs()).collect::<Vec<_>>());
    let speedups_away = log_gap(&|k| lossier_means[k].0 / lossier_means[k].1) > log_gap(&|k| baseline[k].0 / baseline[k].1);
    let loss_trial = format!(
        "At {} loss each way, inside PingER's range for much of the world but not our model's choice, ours takes {} per probe unscaled, and the speed-ups of the means become {} against the seed's {} (sensitivity table): {}{}.",
        pct(LOSSIER_PATHS),
        per_probe_list(&|k| lossier_per_probe[k]),
        order.iter().map(|&k| format!("{:.2}", lossier_means[k].0 / lossier_means[k].1)).collect::<Vec<_>>().join(", "),
        order.iter().map(|&k| format!("{:.2}", WORKLOADS[k].seed_unscaled / WORKLOADS[k].seed_scaled)).collect::<Vec<_>>().join(", "),
        if scaled_slows_less { "scaled-wiki's increments, scaled by the ratio of probes to replies (tens), regrow its window after each drop, so the loss slows it less than unscaled" } else { "the loss slows scaled-wiki as much as unscaled or more" },
        if speedups_away { ", and the speed-ups move away from the seed's, so path loss alone does not give the seed's figures" } else { ", and the speed-ups move toward the seed's" },
    );
    let time_why = |k: usize, scaled: bool| {
        let w = &WORKLOADS[k];
        let (per_send, which) = if scaled { (&per_send_s, "scaled (ours: scaled-wiki)") } else { (&per_send_u, "unscaled") };
        let others: Vec<String> = (0..WORKLOADS.len())
            .filter(|&j| j != k)
            .map(|j| format!("{:.2}× on {} addresses", per_send[j].1 / per_send[j].0, WORKLOADS[j].hosts))
            .collect();
        format!(
            "Per probe sent (two tries of each of its {} probe types per address), the seed's {which} {}-address scan took {} and ours {}, {:.2}× the seed's; ours is {} (time per probe table). The scale of every time rests on our RTT model, which no measurement of the seed's paths pins: doubling its median RTT takes the 500-address scan from {:.1} s to {:.1} s unscaled (sensitivity table). A candidate, tried but not settled: {} {} The seed gives neither its paths' loss nor its timing output to settle this.",
            w.probes, w.hosts, ms(per_send[k].0), ms(per_send[k].1), per_send[k].1 / per_send[k].0, others.join(" and "), baseline[0].0, doubled.0,
            drop_candidate(unscaled_drops[k]),
            loss_trial,
        )
    };
    let (share1, r1) = more_routers[0];
    let ratio_why = format!(
        "Ours counts fewer replies per probe sent (median {:.2} against the seed's 58.84). More answering routers add replies: at a router share of {} our median is {:.2}, but each of their unreachables to a retransmission halves scaled-wiki's window, and scaled-wiki then takes {:.1} s against unscaled's {:.1} s (sensitivity table), {}: in this model the seed's packet_ratio and its speed-ups pull the router share in opposite directions. The other guess the ratio rests on is how often up hosts answer the ACK probes to ports 22 and 113, which the Nmap book's Table 3.2 does not give (we use -PA80's 43.28 %, independently per probe type); we have not found evidence to pin it.",
        baseline[2].2,
        pct(share1),
        r1.2,
        r1.1,
        r1.0,
        if r1.1 > r1.0 { "slower, against the seed's direction" } else { "still faster" }
    );
    for c in out.claims.iter_mut().filter(|c| c.verdict == crate::verdict::Verdict::DoesNotHold) {
        let k = WORKLOADS.iter().position(|w| c.claim.starts_with(&format!("{} addresses", w.hosts)));
        if let (Some(k), true) = (k, c.claim.ends_with("scan time") || c.claim.contains("scan time (")) {
            c.why = time_why(k, c.claim.contains(": scaled scan time"));
        } else if c.claim.contains("packet_ratio") {
            c.why = ratio_why.clone();
        } else if c.claim.ends_with("and still faster") {
            c.why = "a part does not hold (ours says which); its own row above gives the cause".into();
        } else if let (Some(k), true) = (k, c.claim.ends_with("more drops than unscaled")) {
            let w = &WORKLOADS[k];
            let routers = (fit.share * (w.hosts - w.up) as f64).round();
            c.why = format!(
                "With {} of the {} dead addresses behind an answering router, scaled-wiki has about one group drop per router; unscaled ignores router unreachables, but a reply to a retransmission after a path loss (0.1 % each way) is a drop for it too, and on the seeds where that happens the two tie. The seed's \"many more drops\" describes its graphs as a whole; on a sweep this small a single drop decides it.",
                routers,
                w.hosts - w.up
            );
        }
    }
    // "And likewise in slow start mode (except that we cap slow start growth so that it doesn't
    // overshoot ccthresh)": read off every check scan's window trace.
    let [(unscaled_excess, _), (scaled_excess, capped)] = &slow_start;
    out.claims.push(
        crate::verdict::Claim::bound(
            &format!("scaled (scaled-wiki): slow start's scaled increments capped at ccthresh: the largest excess of cwnd over ccthresh after a slow-start step, in each of the {} check scans with one", scaled_excess.len()),
            "\"we cap slow start growth so that it doesn't overshoot ccthresh\"",
            scaled_excess,
            crate::verdict::Bound::AtMost(0.0),
            "probes",
        )
        .check(&format!(
            "the library's cap (spec §2.4) seen acting in the scans: {capped} slow-start steps ended exactly on ccthresh; unscaled, uncapped and slow while cwnd ≤ ccthresh, ended its slow start up to {} probes above it",
            crate::table::num(unscaled_excess.iter().copied().fold(0.0, f64::max))
        )),
    );
    // The seed's margin is largest on the smallest scan: 1.98 against 1.16 and 1.25. Every pair of workloads, larger seed speed-up first (1.98, 1.25, 1.16).
    for (j, k) in [(0, 1), (0, 2), (2, 1)] {
        let (a, b) = (WORKLOADS[j].hosts, WORKLOADS[k].hosts);
        let (sa, sb) = (Summary::of(&all_speedups[j]).expect("runs"), Summary::of(&all_speedups[k]).expect("runs"));
        let why = format!(
            "Our mean speed-ups are {:.2} on {a} and {:.2} on {b} addresses{} one scan's speed-up varies from {:.2} to {:.2} on {a} and from {:.2} to {:.2} on {b} addresses (a router's unreachables halving scaled-wiki's window early or late), so the order of two single scans, which is all the seed compares, is left to chance.{}",
            sa.mean,
            sb.mean,
            if sa.mean > sb.mean { ", in the seed's order, but" } else { ": against the seed's order in the mean, and" },
            sa.min,
            sa.max,
            sb.min,
            sb.max,
            if j == FIT_WORKLOAD || k == FIT_WORKLOAD { " The 5000-address speed-up is the fitted one." } else { "" }
        );
        // The workloads' runs share a seed number and nothing else: their means are compared.
        let c = Claim::means_apart(
            &format!("speed-up larger on {a} than on {b} addresses"),
            &format!("{:.2} > {:.2}", WORKLOADS[j].seed_unscaled / WORKLOADS[j].seed_scaled, WORKLOADS[k].seed_unscaled / WORKLOADS[k].seed_scaled),
            (&format!("{a}"), &all_speedups[j]),
            (&format!("{b}"), &all_speedups[k]),
            "",
        );
        out.claims.push(if c.holds() { c } else { c.because(&why) });
    }
    // The seed's argument, on the library's window: at 1 % of probes answered, congestion
    // avoidance grows 100 times slower than one probe per round trip; scaling by 1 / 1 %
    // restores that one probe, which the merged code's cap of 50 halves.
    let (unscaled, scaled, merged) = growth_per_rtt(100.0, 0.01);
    out.claims.push(
        Claim::value("1 % answered, cwnd 100: unscaled growth per round trip (probes)", unscaled, 0.01, "", 1e-6, "arithmetic: one reply adds 1/cwnd")
            .check("the library's window update on the seed's arithmetic. The seed: \"the congestion window grows 100 times slower than it should\"."),
    );
    out.claims.push(
        Claim::value("1 % answered, cwnd 100: scaled growth per round trip (probes; the seed's rule, scaled-wiki)", scaled, 1.0, "", 1e-6, "arithmetic: scaled increments should give one probe per round trip")
            .check(&format!("the library's window update on the seed's arithmetic. The merged code (eddc2b083, scaled-2007) caps the scale at 50 (\"Put a cap of 50 on the cwnd scaling factor\", spec §2.4), so below 2 % answered its window grows by 50 × the reply share per round trip: {merged} here. The seed's page and runs are from before the cap.")),
    );

    // The seed's shapes: "more like the square root" unscaled, TCP's line scaled.
    for s in &shapes {
        let scaled = s.variant != "unscaled";
        let c = s.claim(scaled);
        // A mean on the seed's side whose interval reaches across the midpoint is not settled,
        // and says so itself (`Verdict::NotSettled`); the shape's cause follows.
        let why = shape_why(s, &shapes);
        out.claims.push(if c.verdict == crate::verdict::Verdict::NotComparable { c } else { c.because(&why) });
    }
    let big: Vec<&shape::Shapes> = shapes.iter().filter(|s| s.workload == WORKLOADS[2].hosts).collect();
    let shape_plot = shape::figure(
        "avoidance-shape-10000",
        &format!("10000 addresses: every congestion-avoidance stretch of {check_s}, scaled to a unit square, unscaled (top) and scaled-wiki (bottom)"),
        &big,
    )
    .write(&plots)?;
    out.tables.push(shape::table(&shapes));
    out.claims.push(unanswered::hosts_unchanged(&nmap_holds, &tcp_holds));
    out.tables.push(unanswered_table);

    // The largest scan at the top, so that the legend (lower right) sits beside the smallest times.
    let time_rows: Vec<VersusRow> = time_rows.chunks(2).rev().flatten().cloned().collect();
    out.tables.insert(0, times);
    out.tables.insert(1, per_seed);
    out.tables.insert(2, fit_table);
    out.tables.insert(3, per_send);
    out.tables.insert(4, sens);
    out.plots.insert(0, ("The seed's graphs from our runs: group window over the scan, unscaled (top) and scaled-wiki (bottom)".into(), window_plots));
    out.plots.insert(1, ("The shape of congestion avoidance: the seed's square root, unscaled, and TCP's line, scaled".into(), vec![shape_plot]));
    out.plots.insert(
        2,
        (
            "Ours against the seed's".into(),
            vec![
                plot::Versus::new("versus-scan-time", "Scan time: the source page against ours (unscaled and scaled, the seed's rule)", "scan time (s)", &time_rows)
                    .log()
                    .ours(format!("ours ({check_s}): mean, 95 % prediction interval"))
                    .write(&plots)?,
                plot::Versus::new("versus-speedup", "Speed-up, unscaled / scaled time: the source page against ours (the fitted workload marked)", "unscaled time / scaled time", &speedup_rows)
                    .ours(format!("ours ({check_s}): mean, 95 % prediction interval"))
                    .guides(vec![plot::Guide { value: 1.0, label: "no speed-up: 1".into() }])
                    .write(&plots)?,
            ],
        ),
    );
    out.notes.push(format!(
        "The one fitted value: the share of dead addresses behind routers that answer with ICMP unreachables, {}, chosen on the {}-address speed-up over {fit_s} from the grid 0-0.6 %; every other figure is on {check_s}, out of sample. Path loss (0.1 %) is PingER's boundary between the well-connected regions and the rest, not fitted.",
        pct(fit.share),
        fw.hosts
    ));
    // Every absolute time rests on the targets' RTTs, which nothing measured pins.
    let ratios: Vec<f64> = WORKLOADS
        .iter()
        .zip(&baseline)
        .flat_map(|(w, b)| [b.0 / w.seed_unscaled, b.1 / w.seed_scaled])
        .collect();
    let (lo, hi) = ratios.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &r| (l.min(r), h.max(r)));
    // Each scan time is judged against our spread, which can be wide; a bias shared by all six
    // shows only across them.
    out.claims.push(
        Claim::no_bias(
            "our scan times on the seed's level: our mean over the seed's time, for the six scan times (3 workloads, unscaled and scaled)",
            "the seed's six times",
            &ratios,
        )
        .because_unless_held(&format!(
            "our means lie at {} to {} times the seed's{}: the targets' RTTs are assumed (see the notes), and scan times grow almost in proportion to them",
            crate::table::num(lo),
            crate::table::num(hi),
            if hi < 1.0 { ", all below" } else { "" }
        )),
    );
    out.notes.push(format!(
        "Assumed, not measured: the targets' RTTs (log-normal, median 150 ms, σ 0.7; `sim::scan`'s model table gives \
         every value and its source). Scan times grow almost in proportion to them: doubling the median takes the \
         500-address unscaled scan from {:.1} s to {:.1} s (sensitivity table). So a scan time that holds, holds under \
         this assumption, and the six means of ours lie at {:.2} to {:.2} times the seed's{}. The speed-ups and \
         directions depend on it much less.",
        baseline[0].0,
        doubled.0,
        lo,
        hi,
        if hi < 1.0 { ", all below: a bias of the model, not noise" } else { "" }
    ));
    out.notes.push(
        "The seed's networks are real Internet paths we cannot see; our times come from one model of them, \
         so a scan time is judged against our run-to-run spread (95 % prediction interval for one run), the \
         direction on every seed."
            .into(),
    );
    out.notes.push(
        "The seed defines packet_ratio as probes_sent / probes_replied_to, at least 1 (its statistics from the \
         10,000-host test run from 17 to 105), but then writes \"packet_ratio = 0.01\" for a response to 1 % of probes \
         and \"packet_ratio × cwnd\" for the responses per RTT: there it means the reverse, replies over probes. Our \
         packet_ratio rows follow the definition; the growth rows the argument, at 1 % answered."
            .into(),
    );
    if opts.fast {
        out.notes.push("Fast mode fits on the same seeds 1-8 as full mode and checks on seeds 9-12 (full mode: 9-16).".into());
    }
    out.findings = findings(&out.claims, &fit, &consistent, &baseline);
    Ok(out)
}

/// What sets a variant's shape, from its stretches: above ccthresh a reply adds `scale/cwnd`
/// and the window moves by a few per cent over a stretch, so the curve follows the (scaled)
/// replies' arrival; and whether it bends all along, as a square root does, or only at its start.
fn shape_why(s: &shape::Shapes, all: &[shape::Shapes]) -> String {
    let over = |x: &shape::Shapes, f: fn(&shape::Stretch) -> f64| mean(&x.runs.iter().flatten().map(f).collect::<Vec<_>>());
    let pct = |x: f64| format!("{:.0} %", x * 100.0);
    let (g, early, after) = (over(s, shape::Stretch::first_half_share), over(s, shape::Stretch::early_share), over(s, shape::Stretch::exponent_after_early));
    let head = format!("{} of the growth in the first half of a stretch's time, {} in its first {}, and the rest with k' = {after:.2}", pct(g), pct(early), pct(shape::EARLY));
    if s.variant == "unscaled" {
        format!(
            "Above ccthresh an unscaled reply adds 1/cwnd and the window moves by a few per cent over a stretch, so the curve is the replies' arrival: {head}. {}",
            if after > shape::after_early_midpoint() {
                "Most of the bend is at the start, a burst of replies as the window crosses ccthresh; after it our mean k' is on a line's side of the midpoint. Over the whole stretch the curve is as concave as a square root, but it does not seem to bend all along as one does."
            } else {
                "After its start our mean k' is on a square root's side of the midpoint: the curve seems to keep bending, as a square root does."
            }
        )
    } else {
        let unscaled = all.iter().find(|o| o.workload == s.workload && o.variant == "unscaled").map_or(String::new(), |o| format!(" (unscaled: {})", pct(over(o, shape::Stretch::first_half_share))));
        format!(
            "A scaled reply adds probes_sent/probes_replied_to times 1/cwnd (uncapped under the seed's rule), and that ratio rises as the replies thin against the probes sent, so the growth comes {}: {head}{unscaled}.",
            if mean(&s.exponents()) >= shape::LINE_OR_ROOT { "about evenly" } else { "unevenly" }
        )
    }
}

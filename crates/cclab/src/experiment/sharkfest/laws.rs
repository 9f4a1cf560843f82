//! The control laws the talk states, measured where they act in a run rather than read off
//! our constants: the window's multiplicative decrease at each loss (Reno's and Tahoe's
//! b = 0.5, Scalable's 0.875, CUBIC's "reduce cwnd by 30 %", Illinois's β from 1/8 at a small
//! queueing delay to 1/2 near the largest, HighSpeed acting as Reno below 38 segments and
//! following RFC 3649's a(w) and b(w) above), the
//! window's growth (slow start's one segment per ACKed segment, Reno's a = 1/cwnd, Scalable's
//! 0.01·cwnd per RTT, Illinois's α from 10 to 0.3, Vegas's one update per RTT), Westwood+'s
//! window after a loss against its transit capacity, and BBR's exit from Startup ("stopped if
//! BW growth is less than 25 % for 3 sequential probes").
//!
//! Every run is one flow alone, sampled every 10 ms, on the same seed (the claims are about a
//! law, not a distribution over hosts).
//!
//! - **Decrease.** At the first sample after a loss, ssthresh holds `(1 − β)·cwnd` of the
//!   window at the loss; we divide it by the last sample's cwnd before (a loss is a sample
//!   whose ssthresh has fallen below the previous sample's window, which finds Tahoe's too,
//!   though it has no recovery state). The window grows for at most one sample interval
//!   between the two, by at most `α/10` segments
//!   at a 100 ms RTT (Illinois's largest α is 10), so on windows of 300 segments and more the
//!   measured ratio is at most 0.4 % above the law's. Losses in slow start are left out (they
//!   end it, and its window doubles within the RTT that the loss takes to be seen), and so is
//!   the first loss after it, which can still belong to slow start's overshoot (Tahoe's second
//!   cut from the same burst) or come as the overshoot's queue drains (Illinois's β is then
//!   that of an empty queue).
//! - **Illinois's β in between.** Random losses on the talk's testbed come at every queueing
//!   delay. Each cut's ratio kept is set against the delay at the sample before it as a share
//!   of the run's largest, (RTT − min)/(max − min) with the smoothed RTT ([`decrease_delays`]),
//!   which stands in for `tcp_illinois.c`'s per-RTT average d_a over its d_m.
//! - **Growth.** Over each pair of consecutive samples in one state (slow start or congestion
//!   avoidance) with no retransmission between them, the window grew by ΔW while Δn segments
//!   were ACKed (delivered bytes over the MSS). Per ACK the law adds `a/W` (`a` segments per
//!   RTT, since a window's worth of ACKs comes back each RTT), so `a` is ΣΔW·W/ΣΔn with W the
//!   window at the pair's start; a law that adds a fixed amount per ACK (slow start's 1,
//!   Scalable's 0.01) is ΣΔW/ΣΔn. Linux grows the window in whole segments, one after every
//!   `W/a` ACKs (`tcp_cong_avoid_ai`'s counter), so a stretch of pairs can begin or end part
//!   way to the next segment: at most one increment's ACKs at each end of each stretch, which
//!   the claims take as their tolerance ([`Growth::edge`]).
//! - **CUBIC's epoch.** After each loss but the first, the time from the epoch's start (the
//!   first congestion-avoidance sample) to 90 % of the way from its window to Wmax, against the
//!   law's `K(1 − ∛0.1)`, `K = ∛((Wmax − cwnd₀)/C)` with Wmax as `tcp_cubic.c` keeps it (fast
//!   convergence included) ([`cubic_epochs`]).
//! - **Vegas's AIAD.** Each window change in congestion avoidance one segment up or down
//!   ([`UnitSteps`]), with the count of each: on the testbed, where the window settles down
//!   from slow start's overshoot, and under random loss with no queue, where it climbs back
//!   after each halving.
//! - **Staircase and slope.** Reno's increases between samples, each a whole number of
//!   segments or not (the talk's "staircase-shaped" cwnd), and its growth per second in the
//!   lower and upper half of its windows: on a full buffer the RTT is
//!   W/C, so a segment per RTT is C/W segments per second, less at a larger window.
//! - **Startup.** BBR paces Startup at `2/ln 2` times its bandwidth estimate, so the pacing
//!   rate's growth is the estimate's. At the last Startup sample we compare it with the rate
//!   three round trips earlier, a round trip being the mean RTT the samples show over those
//!   rounds (a full queue lengthens them).

use super::measure::{flow0, Link};
use crate::experiment::run_one;
use crate::stats::Summary;
use crate::UserError;
use cc::Time;
use sim::results::FlowSample;
use sim::RunResult;
use std::path::Path;

/// CUBIC's and Illinois's overflow runs: the talk's testbed. Illinois at a full queue grows
/// by α = 0.3 per RTT from W/2, about 90 s a cycle, so 300 s gives three losses after the first.
pub const OVERFLOW_SECS: u64 = 300;
/// Illinois with its queue empty: random loss on a path whose BDP (8333 segments at
/// 1 Gbit/s, 100 ms) its window never reaches at this loss rate, so no queue forms.
pub const EMPTY_QUEUE: Link = Link { mbps: 1000.0, rtt_ms: 100 };
pub const EMPTY_QUEUE_LOSS: f64 = 1e-4;
pub const EMPTY_QUEUE_SECS: u64 = 60;

/// `cc` alone on `link` for `secs` under random loss `loss`, sampled every 10 ms.
pub fn law_run(cc: &str, link: Link, secs: u64, loss: f64, dir: &Path) -> Result<RunResult, UserError> {
    let mut cfg = link.config(link.flows(&[cc]), secs, loss, 1);
    cfg.sample_interval = Some(Time::from_millis(10));
    run_one(cfg, dir)
}

/// For each cut of flow 0's ssthresh below its window outside slow start (a loss) but the
/// first: the window at the sample before, and ssthresh after over it, `1 − β` of the law.
pub fn decrease_windows(r: &RunResult) -> Vec<(f64, f64)> {
    cuts(&flow0(r))
}

fn cuts(samples: &[&FlowSample]) -> Vec<(f64, f64)> {
    cut_samples(samples).into_iter().map(|(s, ratio)| (s.cwnd.unwrap_or(f64::NAN), ratio)).collect()
}

/// Each cut's last sample before it, with the ratio kept.
fn cut_samples<'a>(samples: &[&'a FlowSample]) -> Vec<(&'a FlowSample, f64)> {
    samples
        .windows(2)
        .filter(|w| w[0].state != "slow_start")
        .filter_map(|w| {
            let (cut, before) = (w[1].ssthresh?, w[0].cwnd?);
            // A new ssthresh, or the same one set again as recovery begins (a window cut to
            // the same value as at the last loss, as Compound's can be).
            let in_loss_states = |s: &FlowSample| matches!(s.ca_state, Some("recovery" | "loss"));
            let entered = !in_loss_states(w[0]) && in_loss_states(w[1]);
            ((w[0].ssthresh != Some(cut) || entered) && cut < before).then_some((w[0], cut / before))
        })
        .skip(1)
        .collect()
}

/// [`decrease_windows`]' ratios with the queueing delay at each cut as a share of the largest:
/// `((rtt − min)/(max − min), ratio)`, `rtt` the last sample's smoothed RTT before the cut and
/// min and max the run's smallest and largest, as Illinois keeps its base and largest RTT.
pub fn decrease_delays(r: &RunResult) -> Vec<(f64, f64)> {
    delays_of(&flow0(r))
}

fn delays_of(samples: &[&FlowSample]) -> Vec<(f64, f64)> {
    let rtts: Vec<f64> = samples.iter().filter_map(|s| s.rtt_ms).collect();
    let (lo, hi) = rtts.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    if hi <= lo {
        return Vec::new();
    }
    cut_samples(samples).into_iter().filter_map(|(s, ratio)| s.rtt_ms.map(|x| ((x - lo) / (hi - lo), ratio))).collect()
}

/// BBR's Startup as its samples show it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StartupExit {
    /// When the first non-Startup sample was taken, seconds.
    pub at_s: f64,
    /// Growth of the bandwidth estimate over the last three round trips of Startup.
    pub growth_3_rounds: f64,
    /// The same over the three round trips before those: Startup was still finding bandwidth.
    pub growth_before: f64,
}

/// Reads [`StartupExit`] off flow 0's samples (None if it never left Startup).
pub fn startup_exit(r: &RunResult) -> Option<StartupExit> {
    exit_of(&flow0(r))
}

fn exit_of(samples: &[&FlowSample]) -> Option<StartupExit> {
    let exit = samples.iter().position(|s| s.state != "startup")?;
    let last = samples[..exit].last()?;
    let rate_at = |t: f64| samples[..exit].iter().rev().find(|s| s.time <= t + 1e-9).and_then(|s| s.pacing_rate_mbps);
    let mean_rtt_s = |from: f64, to: f64| {
        let rtts: Vec<f64> = samples[..exit].iter().filter(|s| s.time > from && s.time <= to).filter_map(|s| s.rtt_ms).collect();
        Summary::of(&rtts).map(|s| s.mean / 1e3)
    };
    // Three round trips back from the end, each as long as the RTTs sampled within it show;
    // the first guess is the last sample's RTT, then one refinement over the span found.
    let back = |to: f64| -> Option<f64> {
        let guess = to - 3.0 * last.rtt_ms? / 1e3;
        Some(to - 3.0 * mean_rtt_s(guess, to)?)
    };
    let end = last.time;
    let mid = back(end)?;
    let start = back(mid)?;
    let (r_end, r_mid, r_start) = (last.pacing_rate_mbps?, rate_at(mid)?, rate_at(start)?);
    Some(StartupExit { at_s: samples[exit].time, growth_3_rounds: r_end / r_mid - 1.0, growth_before: r_mid / r_start - 1.0 })
}

/// The window's growth over pairs of samples (see the module doc).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Growth {
    /// Segments ACKed over the pairs counted.
    pub acked: f64,
    /// ΣΔW / Σ Δn: segments added per ACKed segment.
    pub per_ack: f64,
    /// ΣΔW·W / Σ Δn: segments added per RTT by a law of `a/W` per ACK.
    pub per_rtt: f64,
    /// The relative error the stretches' ends can carry: two increments' ACKs per stretch over
    /// all ACKs counted.
    pub edge: f64,
    /// How many times the window changed, and over how many RTTs (elapsed time over the
    /// sampled smoothed RTT).
    pub changes: u64,
    pub rtts: f64,
    /// A law's `a(W)` averaged over the same ACKs, `Σa(W)·Δn/ΣΔn`, where one was given
    /// ([`growth_against`]): what `per_rtt` should read for a law that varies with the window.
    pub law_per_rtt: f64,
}

/// [`Growth`] over flow 0's consecutive sample pairs in `states` both of whose samples `keep`
/// accepts.
pub fn growth(r: &RunResult, states: &[&str], keep: impl Fn(&FlowSample) -> bool) -> Growth {
    growth_against(r, states, keep, |_| 0.0)
}

/// [`growth`], with the law `a(W)` (segments per RTT) averaged over the same ACKs.
pub fn growth_against(r: &RunResult, states: &[&str], keep: impl Fn(&FlowSample) -> bool, law: impl Fn(f64) -> f64) -> Growth {
    growth_of(&flow0(r), cc::transport::sender::SenderConfig::default().mss as f64, states, keep, law)
}

fn growth_of(samples: &[&FlowSample], mss: f64, states: &[&str], keep: impl Fn(&FlowSample) -> bool, law: impl Fn(f64) -> f64) -> Growth {
    let mut g = Growth::default();
    let (mut added, mut weighted, mut edge_acks, mut law_weighted) = (0.0, 0.0, 0.0, 0.0);
    // The current stretch's ACKs and growth, for its edge term.
    let (mut stretch_acked, mut stretch_added) = (0.0, 0.0);
    let mut close = |acked: &mut f64, added: &mut f64| {
        if *added > 0.0 {
            edge_acks += 2.0 * *acked / *added;
        }
        (*acked, *added) = (0.0, 0.0);
    };
    for w in samples.windows(2) {
        let (a, b) = (w[0], w[1]);
        let counted = states.contains(&a.state) && states.contains(&b.state) && a.retr == b.retr && keep(a) && keep(b);
        let (Some(wa), Some(wb), true) = (a.cwnd, b.cwnd, counted) else {
            close(&mut stretch_acked, &mut stretch_added);
            continue;
        };
        let dn = b.delivered_bytes.saturating_sub(a.delivered_bytes) as f64 / mss;
        let dw = wb - wa;
        g.acked += dn;
        added += dw;
        weighted += dw * wa;
        law_weighted += law(wa) * dn;
        stretch_acked += dn;
        stretch_added += dw.max(0.0);
        g.changes += u64::from(dw != 0.0);
        if let Some(rtt) = a.rtt_ms {
            g.rtts += (b.time - a.time) / (rtt / 1e3);
        }
    }
    close(&mut stretch_acked, &mut stretch_added);
    if g.acked > 0.0 {
        g.per_ack = added / g.acked;
        g.per_rtt = weighted / g.acked;
        g.law_per_rtt = law_weighted / g.acked;
        g.edge = edge_acks / g.acked;
    }
    g
}

/// One CUBIC epoch as the samples show it, against the talk's law `W(t) = C(t − K)³ + Wmax`,
/// `K = ∛(βWmax/C)`.
#[derive(Clone, Debug, PartialEq)]
pub struct CubicEpoch {
    /// The law's K for this epoch (s): `∛((Wmax − cwnd₀)/C)`, with `Wmax` as `tcp_cubic.c`
    /// keeps it (fast convergence lowers it to `W·(1 + β)/2` after a loss below the last one)
    /// and `cwnd₀` the window when the epoch starts (`βW` in the talk's form).
    pub k_law: f64,
    /// Seconds from the epoch's start to the first sample with 90 % of the way from cwnd₀ to
    /// Wmax regained.
    pub t90: f64,
}

/// The fraction of K by which the law has regained 90 % of the way: `C(K − t)³ = 0.1·CK³`,
/// `t = K(1 − ∛0.1)`.
pub const T90_OF_K: f64 = 0.535_841;

/// CUBIC's epochs in flow 0's samples: each loss but the first (as [`decrease_windows`]) and
/// the growth after it, up to the next loss. `tcp_cubic.c` starts the epoch at the first ACK
/// after recovery and aims the window at `W(t + d_min)`; epochs cut by the next loss before
/// 90 % are left out.
pub fn cubic_epochs(r: &RunResult) -> Vec<CubicEpoch> {
    epochs_of(&flow0(r))
}

fn epochs_of(s: &[&FlowSample]) -> Vec<CubicEpoch> {
    let cfg = cc::algorithms::cubic::CubicConfig::default();
    let mut epochs = Vec::new();
    let mut last_max = 0.0f64;
    let mut losses = 0;
    let mut k = 1;
    while k < s.len() {
        let (a, b) = (s[k - 1], s[k]);
        let cut = match (a.cwnd, b.ssthresh) {
            (Some(before), Some(cut)) if a.ssthresh != Some(cut) && cut < before => Some(before),
            _ => None,
        };
        let Some(w) = cut else {
            k += 1;
            continue;
        };
        // Every loss moves Wmax, the one that ends slow start too (bictcp_recalc_ssthresh).
        last_max = if cfg.fast_convergence && w < last_max { w * (1.0 + cfg.beta) / 2.0 } else { w };
        if a.state != "slow_start" {
            losses += 1;
        }
        let start = (k..s.len()).find(|&j| CA.contains(&s[j].state));
        let next_cut = |from: usize| (from + 1..s.len()).find(|&j| s[j].ssthresh != s[j - 1].ssthresh);
        if let (true, Some(start)) = (losses > 1, start) {
            let cwnd0 = s[start].cwnd.unwrap_or(0.0);
            let end = next_cut(start).unwrap_or(s.len());
            let goal = cwnd0 + 0.9 * (last_max - cwnd0);
            if last_max > cwnd0 {
                if let Some(hit) = (start..end).find(|&j| s[j].cwnd.is_some_and(|c| c >= goal)) {
                    epochs.push(CubicEpoch { k_law: ((last_max - cwnd0) / cfg.c).cbrt(), t90: s[hit].time - s[start].time });
                }
            }
        }
        k = start.unwrap_or(s.len()).max(k + 1);
    }
    epochs
}

/// For each loss recovery of flow 0 but the first: the window at the first sample after the
/// recovery over the window at the sample before it.
pub fn after_recovery_ratios(r: &RunResult) -> Vec<f64> {
    after_recovery_of(&flow0(r))
}

fn after_recovery_of(s: &[&FlowSample]) -> Vec<f64> {
    let mut ratios = Vec::new();
    let mut k = 1;
    while k < s.len() {
        if s[k].state == "recovery" && s[k - 1].state != "recovery" {
            let before = s[k - 1].cwnd;
            let end = (k..s.len()).find(|&j| s[j].state != "recovery");
            if let (Some(before), Some(end)) = (before, end) {
                ratios.extend(s[end].cwnd.map(|after| after / before));
                k = end;
            }
        }
        k += 1;
    }
    ratios.into_iter().skip(1).collect()
}

/// Congestion avoidance's state names: the window algorithms' one, and Vegas's per-RTT
/// decisions.
const CA: &[&str] = &["cong_avoid", "cong_avoid_dwnd", "increase", "decrease", "hold"];

/// One algorithm's law run read three ways.
#[derive(Clone, Debug, Default)]
pub struct LawRun {
    /// The window at the run's first sample (10 ms, before the first ACK).
    pub initial_cwnd: Option<f64>,
    pub slow_start: Growth,
    pub avoidance: Growth,
    /// Each cut after the first: the window before it (the last sample's) and the share kept.
    pub decreases: Vec<(f64, f64)>,
    /// The share of congestion avoidance's increases (between consecutive samples) that are
    /// whole segments: the talk's "staircase-shaped" cwnd, which changes only by SMSS steps.
    /// `None` when congestion avoidance never grew between two samples.
    pub whole_segments: Option<f64>,
    /// Congestion avoidance's growth in segments per second over the lower and the upper half of
    /// its windows.
    pub slopes: Option<(f64, f64)>,
}

/// One step of flow 0's window between consecutive congestion-avoidance samples with no
/// retransmission between them: the window before, its change and the time between.
struct Step {
    cwnd: f64,
    dw: f64,
    dt: f64,
}

/// Every [`Step`] of the run, in order.
fn ca_steps(r: &RunResult) -> Vec<Step> {
    flow0(r)
        .windows(2)
        .filter(|w| CA.contains(&w[0].state) && CA.contains(&w[1].state) && w[0].retr == w[1].retr)
        .filter_map(|w| Some(Step { cwnd: w[0].cwnd?, dw: w[1].cwnd? - w[0].cwnd?, dt: w[1].time - w[0].time }))
        .collect()
}

/// The share of congestion avoidance's increases that are whole segments (the talk's
/// "staircase-shaped" cwnd); `None` when the window never grew between two samples.
fn whole_segment_share(steps: &[Step]) -> Option<f64> {
    let up: Vec<f64> = steps.iter().map(|s| s.dw).filter(|d| *d > 0.0).collect();
    (!up.is_empty()).then(|| up.iter().filter(|d| (*d - d.round()).abs() < 1e-6).count() as f64 / up.len() as f64)
}

/// Congestion avoidance's window growth per second, ΣΔW/Σt over its [`Step`]s, in the lower
/// and the upper half of the range of windows it spans. Reno adds a segment per RTT, and on a
/// full buffer the RTT grows with the window (RTT = W/C once the queue holds the rest), so its
/// slope in time is C/W: lower in the upper half (the talk: "The more cwnd size is, the less
/// slope of this line is").
fn avoidance_slopes(steps: &[Step]) -> Option<(f64, f64)> {
    let (lo, hi) = steps.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), s| (lo.min(s.cwnd), hi.max(s.cwnd)));
    let mid = (lo + hi) / 2.0;
    let slope = |upper: bool| {
        let (dw, dt) = steps.iter().filter(|s| (s.cwnd >= mid) == upper).fold((0.0, 0.0), |(w, t), s| (w + s.dw, t + s.dt));
        (dt > 0.0).then_some(dw / dt)
    };
    Some((slope(false)?, slope(true)?))
}

/// Congestion avoidance's window changes: the share that are one segment, and how many went
/// up and down.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnitSteps {
    pub share: f64,
    pub up: usize,
    pub down: usize,
}

/// The share of the run's window changes ([`Step`]s that are not zero) exactly one segment up
/// or down: additive increase and additive decrease (Vegas's ±1 per RTT, at most one change
/// per 10 ms sample at a 100 ms RTT). `None` when the window never changed.
fn unit_steps(steps: &[Step]) -> Option<UnitSteps> {
    let changes: Vec<f64> = steps.iter().map(|s| s.dw).filter(|d| *d != 0.0).collect();
    (!changes.is_empty()).then(|| UnitSteps {
        share: changes.iter().filter(|d| (d.abs() - 1.0).abs() < 1e-6).count() as f64 / changes.len() as f64,
        up: changes.iter().filter(|d| **d > 0.0).count(),
        down: changes.iter().filter(|d| **d < 0.0).count(),
    })
}

impl LawRun {
    fn of(r: &RunResult) -> LawRun {
        let steps = ca_steps(r);
        // Slow start as the slide states it: from the initial window, before any loss (no
        // ssthresh yet, on both samples of a pair: a loss can cut the window before the
        // retransmission counter moves).
        LawRun {
            initial_cwnd: flow0(r).first().and_then(|s| s.cwnd),
            slow_start: growth(r, &["slow_start"], |s| s.ssthresh.is_none()),
            avoidance: growth(r, CA, |_| true),
            decreases: decrease_windows(r),
            whole_segments: whole_segment_share(&steps),
            slopes: avoidance_slopes(&steps),
        }
    }
}

/// Where HighSpeed's window stays below its 38-segment Reno region: 2 Mbit/s, 100 ms and one
/// BDP of buffer hold 2 × 16.7 = 33 segments.
pub const SMALL_WINDOW: Link = Link { mbps: 2.0, rtt_ms: 100 };
/// Westwood+ on a buffer of three BDPs, where the window at a loss is four BDPs, so half of it
/// (the slide's max(cwnd/2, BWE·RTT_noLoad)) is twice the transit capacity.
pub const DEEP_BUFFER_BDPS: f64 = 3.0;

/// What the law runs gave.
#[derive(Clone, Debug, Default)]
pub struct Laws {
    /// Reno and Tahoe on the talk's testbed ([`OVERFLOW_SECS`]).
    pub reno: LawRun,
    pub tahoe: LawRun,
    /// Scalable on the testbed ([`super::measure::ALONE_S`]); its growth counted where the
    /// window is above Linux's `TCP_SCALABLE_AI_CNT` = 100 segments.
    pub scalable: LawRun,
    /// HighSpeed on [`SMALL_WINDOW`] ([`OVERFLOW_SECS`]).
    pub highspeed_small: LawRun,
    /// HighSpeed on the talk's testbed ([`OVERFLOW_SECS`]), above its 38-segment Reno region:
    /// its growth with RFC 3649's a(W) averaged over the same ACKs, and each cut's window with
    /// the ratio kept.
    pub highspeed_large: Growth,
    pub highspeed_large_cuts: Vec<(f64, f64)>,
    /// Compound on the testbed (its window's cuts) and with no queue (its growth against
    /// max(1, α·win^k) per RTT: cwnd's one segment plus dwnd's (α·win^k − 1)⁺).
    pub compound: LawRun,
    pub compound_empty: Growth,
    /// Illinois's growth with its queue empty, and at a full queue where the sampled queueing
    /// delay is at least 95 % of the largest.
    pub illinois_alpha_empty: Growth,
    pub illinois_alpha_full: Growth,
    /// Vegas on the testbed: its congestion-avoidance window changes.
    pub vegas: Growth,
    /// Of those changes with no loss between the samples, the share that are one segment up
    /// or down (the talk's "AIAD"), and how many went up and down; `None` when the window
    /// never changed.
    pub vegas_unit_steps: Option<UnitSteps>,
    /// The same on [`EMPTY_QUEUE`] under [`EMPTY_QUEUE_LOSS`], where no queue forms: each
    /// loss halves the window (Reno's cut) and Vegas's expected-minus-actual rate is below α,
    /// so it climbs back one segment per RTT, the additive increase the testbed run, settling
    /// from slow start's overshoot, never needs.
    pub vegas_lossy_unit_steps: Option<UnitSteps>,
    /// Westwood+'s window after each recovery over before it, on the testbed and on
    /// [`DEEP_BUFFER_BDPS`] BDPs of buffer.
    pub westwood: Vec<f64>,
    pub westwood_deep: Vec<f64>,
    /// Westwood+ on [`EMPTY_QUEUE`] under [`EMPTY_QUEUE_LOSS`]: the window after each recovery
    /// over before, and the mean window before (segments).
    pub westwood_empty_queue: Vec<f64>,
    pub westwood_empty_window: f64,
    /// Westwood+ on the testbed ([`OVERFLOW_SECS`]): its growth between losses.
    pub westwood_growth: LawRun,
    /// CUBIC on the talk's testbed: cwnd after each loss over before, and its epochs.
    pub cubic: Vec<(f64, f64)>,
    pub cubic_epochs: Vec<CubicEpoch>,
    /// That run's smallest and largest RTT sample (s).
    pub cubic_rtt: (f64, f64),
    /// Illinois on the talk's testbed, losses at a full queue.
    pub illinois_full_queue: Vec<(f64, f64)>,
    /// Illinois on [`EMPTY_QUEUE`] under [`EMPTY_QUEUE_LOSS`].
    pub illinois_empty_queue: Vec<(f64, f64)>,
    /// Illinois on the talk's testbed under [`EMPTY_QUEUE_LOSS`] ([`OVERFLOW_SECS`]): random
    /// losses at every queueing delay, each as [`decrease_delays`] gives it.
    pub illinois_any_queue: Vec<(f64, f64)>,
    /// BBR on the talk's 10 Mbit/s, 80 ms capture link.
    pub bbr_startup: Option<StartupExit>,
}

/// The law runs. `bbr` is the run of BBR's phases, which starts with its Startup.
pub fn run(testbed: Link, bbr: &RunResult, out: &Path) -> Result<Laws, UserError> {
    let dir = out.join("laws");
    let illinois_full = law_run("illinois", testbed, OVERFLOW_SECS, 0.0, &dir.join("illinois-full-queue"))?;
    let illinois_empty = law_run("illinois", EMPTY_QUEUE, EMPTY_QUEUE_SECS, EMPTY_QUEUE_LOSS, &dir.join("illinois-empty-queue"))?;
    let alone = super::measure::ALONE_S;
    let queueing_share = |r: &RunResult| {
        let rtts: Vec<f64> = flow0(r).iter().filter(|s| s.state == "cong_avoid").filter_map(|s| s.rtt_ms).collect();
        let (lo, hi) = rtts.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        move |s: &FlowSample| s.rtt_ms.is_some_and(|x| hi > lo && (x - lo) / (hi - lo) >= 0.95)
    };
    let mut deep = testbed.config(testbed.flows(&["westwood"]), OVERFLOW_SECS, 0.0, 1);
    deep.sample_interval = Some(Time::from_millis(10));
    deep.link.buffer = sim::QueueLimit::Bdp(DEEP_BUFFER_BDPS);
    let scalable = law_run("scalable", testbed, alone, 0.0, &dir.join("scalable"))?;
    let cubic = law_run("cubic", testbed, alone, 0.0, &dir.join("cubic"))?;
    let highspeed = law_run("highspeed", testbed, OVERFLOW_SECS, 0.0, &dir.join("highspeed"))?;
    let westwood = law_run("westwood", testbed, OVERFLOW_SECS, 0.0, &dir.join("westwood"))?;
    let vegas = law_run("vegas", testbed, alone, 0.0, &dir.join("vegas"))?;
    let vegas_lossy = law_run("vegas", EMPTY_QUEUE, EMPTY_QUEUE_SECS, EMPTY_QUEUE_LOSS, &dir.join("vegas-empty-queue"))?;
    let westwood_empty = law_run("westwood", EMPTY_QUEUE, EMPTY_QUEUE_SECS, EMPTY_QUEUE_LOSS, &dir.join("westwood-empty-queue"))?;
    let hs = cc::algorithms::highspeed::HighSpeedConfig::default();
    Ok(Laws {
        reno: LawRun::of(&law_run("reno", testbed, OVERFLOW_SECS, 0.0, &dir.join("reno"))?),
        tahoe: LawRun::of(&law_run("tahoe", testbed, OVERFLOW_SECS, 0.0, &dir.join("tahoe"))?),
        scalable: LawRun {
            avoidance: growth(&scalable, CA, |s| s.cwnd.is_some_and(|w| w > 100.0)),
            ..LawRun::of(&scalable)
        },
        highspeed_small: LawRun::of(&law_run("highspeed", SMALL_WINDOW, OVERFLOW_SECS, 0.0, &dir.join("highspeed-small-window"))?),
        highspeed_large: growth_against(&highspeed, CA, |s| s.cwnd.is_some_and(|w| w > hs.low_window), |w| hs.a(w)),
        highspeed_large_cuts: decrease_windows(&highspeed),
        compound: LawRun::of(&law_run("compound", testbed, OVERFLOW_SECS, 0.0, &dir.join("compound"))?),
        compound_empty: {
            let ct = cc::algorithms::compound::CompoundConfig::default();
            let r = law_run("compound", EMPTY_QUEUE, EMPTY_QUEUE_SECS, EMPTY_QUEUE_LOSS, &dir.join("compound-empty-queue"))?;
            growth_against(&r, CA, |_| true, |w| (ct.alpha * w.powf(ct.k)).max(1.0))
        },
        illinois_alpha_empty: growth(&illinois_empty, CA, |_| true),
        illinois_alpha_full: growth(&illinois_full, CA, queueing_share(&illinois_full)),
        vegas: growth(&vegas, CA, |_| true),
        vegas_unit_steps: unit_steps(&ca_steps(&vegas)),
        vegas_lossy_unit_steps: unit_steps(&ca_steps(&vegas_lossy)),
        westwood: after_recovery_ratios(&westwood),
        westwood_growth: LawRun::of(&westwood),
        westwood_deep: after_recovery_ratios(&run_one(deep, &dir.join("westwood-deep-buffer"))?),
        westwood_empty_queue: after_recovery_ratios(&westwood_empty),
        westwood_empty_window: crate::stats::mean(&flow0(&westwood_empty).iter().filter(|s| s.state == "cong_avoid").filter_map(|s| s.cwnd).collect::<Vec<_>>()),
        cubic: decrease_windows(&cubic),
        cubic_epochs: cubic_epochs(&cubic),
        cubic_rtt: {
            let rtts: Vec<f64> = flow0(&cubic).iter().filter_map(|s| s.rtt_ms).collect();
            (rtts.iter().copied().fold(f64::INFINITY, f64::min) / 1e3, rtts.iter().copied().fold(0.0, f64::max) / 1e3)
        },
        illinois_full_queue: decrease_windows(&illinois_full),
        illinois_empty_queue: decrease_windows(&illinois_empty),
        illinois_any_queue: decrease_delays(&law_run("illinois", testbed, OVERFLOW_SECS, EMPTY_QUEUE_LOSS, &dir.join("illinois-any-queue"))?),
        bbr_startup: startup_exit(bbr),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(time: f64, state: &'static str, cwnd: f64, ssthresh: Option<f64>, pacing: f64, rtt_ms: f64) -> FlowSample {
        FlowSample {
            time,
            flow: 0,
            cwnd: Some(cwnd),
            ssthresh,
            inflight: 0,
            sacked: 0,
            lost: 0,
            retr: 0,
            rtt_ms: Some(rtt_ms),
            rttvar_ms: 0.0,
            rto_ms: 0.0,
            state,
            pacing_rate_mbps: Some(pacing),
            throughput_mbps: 0.0,
            goodput_mbps: 0.0,
            delivered_bytes: 0,
            ca_state: None,
            ..FlowSample::default()
        }
    }

    /// Three losses: the first (in slow start) and the first after it are left out, the third
    /// gives 70/100.
    #[test]
    fn decrease_is_ssthresh_after_a_cut_over_cwnd_before() {
        let r = [
            sample(0.0, "slow_start", 400.0, None, 0.0, 100.0),
            sample(0.1, "recovery", 300.0, Some(150.0), 0.0, 100.0),
            sample(0.2, "congestion_avoidance", 150.0, Some(150.0), 0.0, 100.0),
            sample(0.25, "congestion_avoidance", 160.0, Some(80.0), 0.0, 100.0),
            sample(0.3, "congestion_avoidance", 100.0, Some(80.0), 0.0, 100.0),
            sample(0.4, "recovery", 90.0, Some(70.0), 0.0, 100.0),
            sample(0.5, "recovery", 80.0, Some(70.0), 0.0, 100.0),
        ];
        assert_eq!(cuts(&r.iter().collect::<Vec<_>>()).iter().map(|c| c.1).collect::<Vec<_>>(), vec![0.7]);
    }

    /// A window cut to the same ssthresh at every loss (Compound's from a full queue: 668 →
    /// 334 each time) is found by the entry into recovery: the second cut gives 334/668. A
    /// timeout during that recovery (recovery → loss, ssthresh kept) is no new cut.
    #[test]
    fn a_repeated_ssthresh_is_a_cut_when_recovery_begins() {
        let with_state = |mut s: FlowSample, ca: &'static str| {
            s.ca_state = Some(ca);
            s
        };
        let r = [
            with_state(sample(0.0, "cong_avoid", 668.0, Some(334.0), 0.0, 100.0), "open"),
            with_state(sample(0.1, "recovery", 334.0, Some(334.0), 0.0, 100.0), "recovery"),
            with_state(sample(0.2, "cong_avoid", 500.0, Some(334.0), 0.0, 100.0), "open"),
            with_state(sample(0.3, "cong_avoid", 668.0, Some(334.0), 0.0, 100.0), "open"),
            with_state(sample(0.4, "recovery", 334.0, Some(334.0), 0.0, 100.0), "recovery"),
            with_state(sample(0.5, "recovery", 340.0, Some(334.0), 0.0, 100.0), "loss"),
        ];
        assert_eq!(cuts(&r.iter().collect::<Vec<_>>()).iter().map(|c| c.1).collect::<Vec<_>>(), vec![0.5]);
    }

    /// Two losses at 1000 segments: the first sets Wmax and is left out; after the second the
    /// window follows the law from 700, K = ∛(300/0.4) = 9.086 s, sampled every 10 ms, so 90 %
    /// of the way (970) comes at 0.5358·K = 4.869 s, read to within a sample.
    #[test]
    fn a_cubic_epoch_regains_90_percent_at_k_times_one_minus_the_cube_root_of_a_tenth() {
        let mut r = vec![sample(0.0, "cong_avoid", 1000.0, Some(500.0), 0.0, 100.0), sample(0.01, "recovery", 700.0, Some(700.0), 0.0, 100.0)];
        r.push(sample(0.02, "cong_avoid", 1000.0, Some(700.0), 0.0, 100.0));
        r.push(sample(0.03, "recovery", 700.0, Some(700.1), 0.0, 100.0));
        let k = (300.0f64 / 0.4).cbrt();
        for i in 0..1500 {
            let t = f64::from(i) * 0.01;
            r.push(sample(0.04 + t, "cong_avoid", (0.4 * (t - k).powi(3) + 1000.0).floor(), Some(700.1), 0.0, 100.0));
        }
        let e = epochs_of(&r.iter().collect::<Vec<_>>());
        assert_eq!(e.len(), 1, "{e:?}");
        assert!((e[0].k_law - k).abs() < 0.01, "{e:?}");
        assert!((e[0].t90 - T90_OF_K * k).abs() <= 0.01 + 1e-9, "{e:?} against {}", T90_OF_K * k);
    }

    /// Linux's additive increase, one segment after every W ACKs (a = 1), from W = 100,
    /// sampled every 37 ACKs: ΣΔW·W/Σ ACKed is 1 to within the stretch's edge term, which is
    /// two increments' ACKs (about 2·W) over the ACKs counted. Scalable's rule above 100
    /// segments (one segment per 100 ACKs) gives 0.01 per ACK the same way.
    #[test]
    fn growth_reads_the_additive_law_off_samples() {
        let run = |acks_per_segment: &dyn Fn(f64) -> f64| {
            let (mut w, mut cnt) = (100.0f64, 0.0);
            let mut samples = Vec::new();
            for n in 0..20_000u64 {
                if n % 37 == 0 {
                    let mut s = sample(n as f64 * 1e-3, "cong_avoid", w, Some(50.0), 0.0, 100.0);
                    s.delivered_bytes = n * 1448;
                    samples.push(s);
                }
                cnt += 1.0;
                if cnt >= acks_per_segment(w) {
                    w += 1.0;
                    cnt = 0.0;
                }
            }
            // The law a(W) = W/100 averaged over the ACKs: the window runs from 100 to about 300.
            growth_of(&samples.iter().collect::<Vec<_>>(), 1448.0, &["cong_avoid"], |_| true, |w| w / 100.0)
        };
        let reno = run(&|w| w);
        assert!((reno.per_rtt - 1.0).abs() <= reno.edge, "{reno:?}");
        assert!(reno.law_per_rtt > 1.0 && reno.law_per_rtt < 3.0, "the law's a(W) over the same ACKs: {reno:?}");
        assert!(reno.edge < 0.05 && reno.edge > 0.0, "{reno:?}");
        assert!((reno.rtts - 20_000.0 * 1e-3 / 0.1).abs() < 1.0, "{reno:?}");
        let scalable = run(&|_| 100.0);
        assert!((scalable.per_ack - 0.01).abs() <= scalable.edge * 0.01, "{scalable:?}");
    }

    /// The run's RTTs span 100 to 200 ms; the cut after the first (left out) comes at a
    /// smoothed RTT of 130 ms, 30 % of the way, and keeps 70/100.
    #[test]
    fn a_cuts_delay_is_its_share_of_the_runs_rtt_span() {
        let r = [
            sample(0.0, "cong_avoid", 100.0, Some(50.0), 0.0, 200.0),
            sample(0.1, "recovery", 100.0, Some(80.0), 0.0, 180.0),
            sample(0.2, "cong_avoid", 100.0, Some(80.0), 0.0, 130.0),
            sample(0.3, "recovery", 90.0, Some(70.0), 0.0, 100.0),
        ];
        let d = delays_of(&r.iter().collect::<Vec<_>>());
        assert_eq!(d.len(), 1, "{d:?}");
        assert!((d[0].0 - 0.3).abs() < 1e-12 && (d[0].1 - 0.7).abs() < 1e-12, "{d:?}");
    }

    /// Two recoveries: the first is left out; the second took the window from 200 to 100.
    #[test]
    fn after_recovery_is_the_first_window_after_over_the_last_before() {
        let st = |t: f64, state: &'static str, w: f64| sample(t, state, w, None, 0.0, 100.0);
        let r = [
            st(0.0, "slow_start", 400.0),
            st(0.1, "recovery", 300.0),
            st(0.2, "cong_avoid", 150.0),
            st(0.3, "cong_avoid", 200.0),
            st(0.4, "recovery", 150.0),
            st(0.5, "recovery", 120.0),
            st(0.6, "cong_avoid", 100.0),
        ];
        let samples: Vec<&FlowSample> = r.iter().collect();
        let ratios: Vec<f64> = after_recovery_of(&samples);
        assert_eq!(ratios, vec![0.5]);
    }

    /// Pacing doubles every 100 ms RTT until 1.0 s, then stays. Left at 1.65 s, the last
    /// three rounds (1.34-1.64 s) and the three before (1.04-1.34 s) grew by nothing; left at
    /// 1.35 s, the three before the last (0.74-1.04 s) grew eightfold.
    #[test]
    fn startup_growth_over_three_round_trips() {
        let pacing = |t: f64| if t < 1.0 { 2f64.powf((t * 10.0).floor()) } else { 1024.0 };
        let run = |exit: f64| {
            let samples: Vec<FlowSample> = (0..200).map(|k| k as f64 * 0.01).map(|t| sample(t, if t < exit { "startup" } else { "drain" }, 10.0, None, pacing(t), 100.0)).collect();
            exit_of(&samples.iter().collect::<Vec<_>>()).expect("leaves startup")
        };
        let late = run(1.65);
        assert!((late.at_s - 1.65).abs() < 1e-9);
        assert_eq!((late.growth_3_rounds, late.growth_before), (0.0, 0.0));
        let early = run(1.35);
        assert_eq!(early.growth_3_rounds, 0.0);
        assert!((early.growth_before - 7.0).abs() < 1e-9, "{early:?}");
    }
}

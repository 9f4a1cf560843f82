//! The control laws the talk states, measured where they act in a run rather than read off
//! our constants: the window's multiplicative decrease at each loss (CUBIC's "reduce cwnd by
//! 30 %", Illinois's β from 1/8 at a small queueing delay to 1/2 near the largest), and BBR's
//! exit from Startup ("stopped if BW growth is less than 25 % for 3 sequential probes").
//!
//! Every run is one flow alone, sampled every 10 ms, on the same seed (the claims are about a
//! law, not a distribution over hosts).
//!
//! - **Decrease.** At a loss recovery's first sample, ssthresh holds `(1 − β)·cwnd` of the
//!   window at the loss; we divide it by the last sample's cwnd before the recovery. The
//!   window grows for at most one sample interval between the two, by at most `α/10` segments
//!   at a 100 ms RTT (Illinois's largest α is 10), so on windows of 300 segments and more the
//!   measured ratio is at most 0.4 % above the law's. The first recovery is left out: it ends
//!   slow start, whose window doubles within the RTT that the loss takes to be seen.
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

/// For each loss recovery of flow 0 but the first: ssthresh at its first sample over cwnd at
/// the sample before it, `1 − β` of the law.
pub fn decrease_ratios(r: &RunResult) -> Vec<f64> {
    decreases(&flow0(r))
}

fn decreases(samples: &[&FlowSample]) -> Vec<f64> {
    samples
        .windows(2)
        .filter(|w| w[1].state == "recovery" && w[0].state != "recovery")
        .skip(1)
        .filter_map(|w| Some(w[1].ssthresh? / w[0].cwnd?))
        .collect()
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

/// What the law runs gave.
#[derive(Clone, Debug, Default)]
pub struct Laws {
    /// CUBIC on the talk's testbed: cwnd after each loss over before.
    pub cubic: Vec<f64>,
    /// Illinois on the talk's testbed, losses at a full queue.
    pub illinois_full_queue: Vec<f64>,
    /// Illinois on [`EMPTY_QUEUE`] under [`EMPTY_QUEUE_LOSS`].
    pub illinois_empty_queue: Vec<f64>,
    /// BBR on the talk's 10 Mbit/s, 80 ms capture link.
    pub bbr_startup: Option<StartupExit>,
}

/// The law runs. `bbr` is the run of BBR's phases, which starts with its Startup.
pub fn run(testbed: Link, bbr: &RunResult, out: &Path) -> Result<Laws, UserError> {
    let dir = out.join("laws");
    let illinois_full = law_run("illinois", testbed, OVERFLOW_SECS, 0.0, &dir.join("illinois-full-queue"))?;
    let illinois_empty = law_run("illinois", EMPTY_QUEUE, EMPTY_QUEUE_SECS, EMPTY_QUEUE_LOSS, &dir.join("illinois-empty-queue"))?;
    Ok(Laws {
        cubic: decrease_ratios(&law_run("cubic", testbed, super::measure::ALONE_S, 0.0, &dir.join("cubic"))?),
        illinois_full_queue: decrease_ratios(&illinois_full),
        illinois_empty_queue: decrease_ratios(&illinois_empty),
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
        }
    }

    /// Two recoveries: the first (slow start's) is left out, the second gives 70/100.
    #[test]
    fn decrease_is_ssthresh_in_recovery_over_cwnd_before() {
        let r = [
            sample(0.0, "slow_start", 400.0, None, 0.0, 100.0),
            sample(0.1, "recovery", 300.0, Some(150.0), 0.0, 100.0),
            sample(0.2, "congestion_avoidance", 150.0, Some(150.0), 0.0, 100.0),
            sample(0.3, "congestion_avoidance", 100.0, Some(150.0), 0.0, 100.0),
            sample(0.4, "recovery", 90.0, Some(70.0), 0.0, 100.0),
            sample(0.5, "recovery", 80.0, Some(70.0), 0.0, 100.0),
        ];
        assert_eq!(decreases(&r.iter().collect::<Vec<_>>()), vec![0.7]);
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

//! mVegas's jump out of slow start, the seed's own explanation of trials 1, 2 and 4 (seed 004,
//! Discussion): "skipping the slow start stage and jumping directly to predicted optimal window
//! size has resulted in a severely inaccurate estimation that either resulted in massive packet
//! loss (less likely) or a catastrophically undersized window (more likely) that could only be
//! improved additively rather than exponentially".
//!
//! Both branches are read off the start of those trials' runs on our testbed model, sampled
//! every [`INTERVAL`] (the base RTT is 0.1 ms, the jump comes after two round trips):
//!
//! - **An undersized window, improved additively.** The window right after the jump (the first
//!   sample out of slow start) against the window mVegas holds afterwards, its mean from
//!   [`LATER_FROM_S`] to the end of the [`SPAN`]: the deficit it starts with, 1 − after /
//!   afterwards (none where it exits at or above it), above Vegas's at its own exit from slow
//!   start. Any window may start below where it settles; one the jump left undersized starts
//!   further below than Vegas's, which makes no jump.
//! - **Catastrophically.** A window regrown `τ` after the jump costs at most `τ` of the test
//!   at the full rate, so the seed's deficit over its test of `T` = 10 s needs
//!   `τ ≥ (1 − x̄_mVegas/x̄_Vegas)·T` (the seed's means). `τ` is read off the run: the time from
//!   the jump to the first sample at the window mVegas holds afterwards (nil if the jump left
//!   it there or above). Additive increase, a segment per round trip, regrows a window of `W`
//!   segments within `W` round trips.
//! - **Massive packet loss.** Retransmissions over the same span.
//!
//! The probe runs are not written out: at 20 µs a run has 15,000 samples.

use super::{seed, testbed};
use crate::experiment::{Claim, Options};
use crate::stats::mean;
use crate::table::num;
use crate::verdict::Bound;
use crate::UserError;
use cc::Time;
use sim::RunResult;

/// The trials the seed explains by the jump.
pub const TRIALS: [u32; 3] = [1, 2, 4];
/// The probe's sample interval: a fifth of the base RTT.
pub const INTERVAL: Time = Time::from_micros(20);
/// How long a probe runs.
pub const SPAN: Time = Time::from_millis(300);
/// Where "afterwards" starts: hundreds of round trips after the jump.
pub const LATER_FROM_S: f64 = 0.1;

/// One run's start, in segments.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Start {
    /// The window at the last slow-start sample and at the first sample after it.
    pub before: f64,
    pub after: f64,
    /// The mean window from [`LATER_FROM_S`] on.
    pub later: f64,
    /// `τ`: seconds from the jump to the first sample at [`Start::later`] or above.
    pub regrown: f64,
    pub retransmits: f64,
}

/// Flow 0's start, if it left slow start.
pub fn start_of(r: &RunResult) -> Option<Start> {
    let samples: Vec<_> = r.series.as_ref()?.flows.iter().filter(|s| s.flow == 0).collect();
    let k = samples.iter().position(|s| s.state != "slow_start")?;
    let before = if k > 0 { samples[k - 1].cwnd? } else { f64::NAN };
    let later: Vec<f64> = samples.iter().filter(|s| s.time >= LATER_FROM_S).filter_map(|s| s.cwnd).collect();
    let later = mean(&later);
    // A sample at or above the mean exists among those it is taken over, so `τ` is found
    // whenever the mean is.
    let back = samples[k..].iter().find(|s| s.cwnd.is_some_and(|w| w >= later))?;
    Some(Start { before, after: samples[k].cwnd?, later, regrown: back.time - samples[k].time, retransmits: r.summary.flows[0].retransmits as f64 })
}

/// Vegas's and mVegas's starts on each of [`TRIALS`], one per seed.
pub struct Jumps {
    pub trials: Vec<(u32, [Vec<Start>; 2])>,
}

/// The probes: Vegas and mVegas on each of [`TRIALS`] for `runs` seeds.
pub fn run(runs: usize, _opts: &Options) -> Result<Jumps, UserError> {
    let mut trials = Vec::new();
    for trial in TRIALS {
        let netem = testbed::netem_of(seed::trial(trial));
        let mut starts: [Vec<Start>; 2] = Default::default();
        for (k, cc) in ["vegas", "mvegas"].into_iter().enumerate() {
            for run in 1..=runs {
                let mut cfg = testbed::config(cc, netem, testbed::HOST_NOISE, run as u64, INTERVAL)?;
                cfg.duration = SPAN;
                let r = crate::run::simulate(cfg, true, "")?;
                starts[k].push(start_of(&r).ok_or_else(|| UserError(format!("trial {trial}: {cc} never left slow start in {} ms", num(SPAN.as_millis_f64()))))?);
            }
        }
        trials.push((trial, starts));
    }
    Ok(Jumps { trials })
}

/// The seed's explanation as verdicts: per trial, whether the jump left mVegas with a larger
/// deficit below the window it then holds than Vegas's own exit leaves Vegas (the undersized
/// branch); over every run of [`TRIALS`], whether mVegas then held less
/// than Vegas, the lasting cost the explanation needs, and the loss branch.
pub fn claims(j: &Jumps) -> Vec<Claim> {
    let field = |xs: &[Start], f: fn(&Start) -> f64| xs.iter().map(f).collect::<Vec<f64>>();
    let span = format!("{}-{} s", num(LATER_FROM_S), num(SPAN.as_secs_f64()));
    let mut claims: Vec<Claim> = j
        .trials
        .iter()
        .map(|(t, s)| {
            // The deficit a window starts with: how far below where it settles it exits slow
            // start, 1 − after/afterwards, and none where it exits at or above it. Any window
            // may start below where it settles; one the jump left undersized starts with a
            // larger deficit than Vegas's, which makes no jump, seed by seed.
            let deficit = |x: &Start| (1.0 - x.after / x.later).max(0.0);
            let (vegas, mvegas) = (field(&s[0], deficit), field(&s[1], deficit));
            let c = Claim::direction(
                &format!("trial {t}: mVegas's jump to the predicted window leaves an undersized window (the first half of \"a catastrophically undersized window ... improved additively\"; the rows after judge the rest): its deficit right after the jump, 1 − after/afterwards ({span}, mean), above Vegas's right after its own exit from slow start"),
                "\"a catastrophically undersized window (more likely)\"",
                ("mVegas", &mvegas),
                ("Vegas", &vegas),
                "",
            );
            let windows = |k: usize| {
                let at = |f: fn(&Start) -> f64| num(mean(&field(&s[k], f)));
                format!("{} in slow start's last sample, {} after its exit, {} afterwards", at(|x| x.before), at(|x| x.after), at(|x| x.later))
            };
            let held = format!("mVegas {}; Vegas {} (segments, mean over seeds)", windows(1), windows(0));
            let exits_above = |k: usize| s[k].iter().all(|x| x.after >= x.later);
            let why = match (c.holds(), exits_above(1), exits_above(0)) {
                (true, _, true) => "The jump leaves mVegas below where it settles, and Vegas exits at or above where it settles: the deficit is the jump's. The rows after judge what it costs".to_string(),
                (true, _, false) => "The jump leaves mVegas further below where it settles than Vegas's own exit leaves Vegas. The rows after judge what it costs".to_string(),
                (false, true, _) => format!(
                    "mVegas exits at or above where it settles on every seed: the window then shrinks, not grows. Where both settle is set by the delay rule, which reads the hosts' scheduling delay (up to {} ms on a {} ms base RTT) as queue",
                    num(testbed::HOST_NOISE.as_millis_f64()),
                    num(testbed::FIXED_RTT.as_millis_f64())
                ),
                (false, false, _) => "The jump does not leave mVegas further below where it settles than Vegas's own exit leaves Vegas on every seed".to_string(),
            };
            c.because(&format!("{held}. {why}"))
        })
        .collect();
    for (t, s) in &j.trials {
        claims.push(catastrophic(*t, &s[1]));
    }
    let pool = |k: usize, f: fn(&Start) -> f64| j.trials.iter().flat_map(|(_, s)| s[k].iter().map(f)).collect::<Vec<f64>>();
    let trials = TRIALS.map(|t| t.to_string()).join(", ");
    let cost = Claim::direction(
        &format!("trials {trials}: the jump's lasting cost, which the explanation needs for mVegas's poor throughput: Vegas's window afterwards ({span}, mean) above mVegas's"),
        "mVegas \"significantly worse\" than Vegas",
        ("Vegas", &pool(0, |s| s.later)),
        ("mVegas", &pool(1, |s| s.later)),
        "segments",
    );
    let per_trial: Vec<String> =
        j.trials.iter().map(|(t, s)| format!("trial {t}: Vegas {}, mVegas {}", num(mean(&field(&s[0], |x| x.later))), num(mean(&field(&s[1], |x| x.later))))).collect();
    claims.push(if cost.holds() {
        cost.because(&per_trial.join("; "))
    } else {
        cost.because(&format!(
            "{}: afterwards mVegas holds about what Vegas holds, or more (its beta of 6 against Vegas's 4 lets it keep more queued), so in our model the jump leaves no lasting deficit to explain the seed's trials by",
            per_trial.join("; ")
        ))
    });
    claims.push(Claim::bound(
        &format!("trials {trials}: the other branch, \"massive packet loss (less likely)\": mVegas's retransmissions in its first {} ms", num(SPAN.as_millis_f64())),
        "less likely",
        &pool(1, |s| s.retransmits),
        Bound::AtMost(0.0),
        "packets",
    ));
    claims
}

/// The shortest `τ` that explains trial `t`'s deficit by the jump: `(1 − x̄_mVegas/x̄_Vegas)·T`
/// from the seed's means, `T` the test's length.
pub fn regrowth_needed(t: u32) -> f64 {
    let cells = &seed::trial(t).cells;
    (1.0 - cells[2].summary().mean / cells[1].summary().mean) * testbed::DURATION.as_secs_f64()
}

/// "Catastrophically": whether mVegas's window stays below what it later holds for as long
/// as the seed's deficit in trial `t` needs ([`regrowth_needed`]).
fn catastrophic(t: u32, mvegas: &[Start]) -> Claim {
    let cells = &seed::trial(t).cells;
    let (v, m) = (cells[1].summary().mean, cells[2].summary().mean);
    let needed = regrowth_needed(t);
    let test = num(testbed::DURATION.as_secs_f64());
    let c = Claim::bound(
        &format!("trial {t}: \"catastrophically\": the jump's window must stay below what mVegas later holds for at least (1 − {}/{})·{test} s to cost the seed's deficit over its {test} s test; mVegas's time from the jump to the first sample at that window", num(m), num(v)),
        &format!("≥ {} s (the seed's means)", num(needed)),
        &mvegas.iter().map(|s| s.regrown).collect::<Vec<f64>>(),
        Bound::AtLeast(needed),
        "s",
    );
    if c.holds() {
        return c;
    }
    let rtt = testbed::FIXED_RTT + testbed::HOST_NOISE + sim::netem::Netem::parse(testbed::netem_of(seed::trial(t))).map_or(Time::ZERO, |n| n.delay);
    let rwnd = testbed::fitted_rwnd().div_ceil(testbed::MSS);
    let above = mvegas.iter().filter(|s| s.after >= s.later).count();
    c.because(&format!(
        "a window regrown after τ costs at most τ of the test at the full rate. {}Additive increase regrows even the receive window's {rwnd} segments from nothing within {rwnd} round trips, {} ms at this trial's longest round trip ({} ms: the base RTT with the hosts' noise), against the {} s the deficit needs: an undersized window improved additively cannot cost a {test} s test this much at these round trips; what held mVegas down must have held it down all along",
        if above > 0 { format!("On {above} of {} seeds the jump left the window at or above what it later holds (τ = 0). ", mvegas.len()) } else { String::new() },
        num(rwnd as f64 * rtt.as_millis_f64()),
        num(rtt.as_millis_f64()),
        num(needed)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::results::FlowSample;

    fn sample(time: f64, state: &'static str, cwnd: f64) -> FlowSample {
        FlowSample { time, cwnd: Some(cwnd), state, ..FlowSample::default() }
    }

    /// Slow start to 20, a jump to 12, then 8 and 10 from 0.1 s on: after 12, later 9.
    #[test]
    fn the_start_is_read_at_the_first_sample_out_of_slow_start() {
        let Ok(mut cfg) = testbed::config("mvegas", "", Time::ZERO, 1, Time::from_millis(1)) else { panic!("the testbed config") };
        cfg.duration = Time::from_millis(2);
        let Ok(mut r) = crate::run::simulate(cfg, true, "") else { panic!("a 2 ms run") };
        let series = r.series.as_mut().unwrap();
        series.flows = vec![sample(0.0, "slow_start", 10.0), sample(0.001, "slow_start", 20.0), sample(0.002, "exit_slow_start", 12.0), sample(0.1, "hold", 8.0), sample(0.2, "increase", 10.0)];
        let s = start_of(&r).unwrap();
        assert_eq!((s.before, s.after, s.later), (20.0, 12.0, 9.0));
        // The jump left 12, above the 9 held later: nothing to regrow.
        assert_eq!(s.regrown, 0.0);
        // A jump to 6 instead: τ from the jump at 2 ms to the first sample at 9 or above, 10 at 0.2 s.
        r.series.as_mut().unwrap().flows[2].cwnd = Some(6.0);
        let s = start_of(&r).unwrap();
        assert!((s.regrown - 0.198).abs() < 1e-12, "{}", s.regrown);
        series_only_slow_start(&mut r);
        assert!(start_of(&r).is_none());
    }

    /// Trial 1: the seed's Vegas 289 and mVegas 94.5 Mbit/s over 10 s need τ ≥ 6.73 s.
    #[test]
    fn the_deficit_needs_the_window_low_for_that_share_of_the_test() {
        assert!((regrowth_needed(1) - (1.0 - 94.5 / 289.0) * 10.0).abs() < 1e-9);
        let start = |regrown| Start { before: 20.0, after: 12.0, later: 9.0, regrown, retransmits: 0.0 };
        assert!(catastrophic(1, &[start(7.0), start(6.8)]).holds());
        assert!(!catastrophic(1, &[start(7.0), start(0.01)]).holds());
    }

    /// The undersized branch holds only where the jump leaves mVegas a larger deficit below
    /// what it later holds (1 − after/afterwards, none above it) than Vegas's exit leaves
    /// Vegas, on every seed: both may grow after their exits, and growth alone is no sign of
    /// the jump.
    #[test]
    fn the_jump_is_judged_against_vegass_own_exit() {
        let start = |after, later| Start { before: 20.0, after, later, regrown: 0.0, retransmits: 0.0 };
        let verdict = |vegas: Vec<Start>, mvegas: Vec<Start>| claims(&Jumps { trials: vec![(1, [vegas, mvegas])] })[0].holds();
        // Both start at half of where they settle: no sign of the jump.
        assert!(!verdict(vec![start(10.0, 20.0), start(10.0, 20.0)], vec![start(5.0, 10.0), start(5.0, 10.0)]));
        // mVegas starts at a fifth of its later window, Vegas at a half.
        assert!(verdict(vec![start(10.0, 20.0), start(11.0, 20.0)], vec![start(2.0, 10.0), start(2.5, 10.0)]));
        // Both exit above where they settle: no deficit, so not undersized.
        assert!(!verdict(vec![start(30.0, 10.0), start(30.0, 10.0)], vec![start(15.0, 10.0), start(15.0, 10.0)]));
        // Vegas exits above where it settles, mVegas below: the deficit is the jump's.
        assert!(verdict(vec![start(60.0, 36.0), start(62.0, 36.0)], vec![start(19.0, 36.0), start(20.0, 36.0)]));
    }

    fn series_only_slow_start(r: &mut RunResult) {
        r.series.as_mut().unwrap().flows = vec![sample(0.0, "slow_start", 10.0)];
    }
}

//! CUBIC's "Main point: approach last packet loss point slowly and carefully, but if there is
//! no more packet loss here – begin ramp up to use possibly freed up resources" (the talk's
//! CUBIC slide). Past W_max, W(t) = C(t − K)³ + W_max turns convex (RFC 9438 §4.2), so a
//! window that meets no loss where the last one came grows ever faster into what has been
//! freed, where Reno adds one segment per round trip whatever it finds.
//!
//! [`FLOWS`] flows of one algorithm on the testbed; all but the first stop at [`STOP_S`], when
//! the first's window is about a quarter of the pipe's and its W_max too, so filling the link
//! takes it well past W_max. Measure: the time from the stop until the first flow's goodput
//! over a second first reaches [`FULL`] of the link's payload rate ([`time_to_fill`]).
//! For CUBIC with W_max ≈ (BDP + B)/4 = 167 segments, K = ∛(βW_max/C) = ∛(0.3 · 167/0.4) = 5 s
//! and the window doubles W_max to the BDP ∛(167/0.4) = 7.5 s later; Reno regains the same 167
//! segments one per round trip, about 170 round trips of at least 100 ms.

use super::super::readings::goodput_between;
use super::super::run_one;
use super::judge::direction_apart;
use super::measure::TESTBED;
use crate::experiment::Claim;
use crate::UserError;
use cc::Time;
use sim::RunResult;
use std::path::Path;

pub const FLOWS: usize = 4;
pub const STOP_S: u64 = 30;
/// How long the first flow runs alone: more than Reno's 170 round trips of up to 200 ms.
pub const ALONE_S: u64 = 60;
/// "Full": 90 % of the link's payload rate (1448 of every 1500 bytes).
pub const FULL: f64 = 0.9;
const STEP_S: f64 = 0.1;

/// Per seed, the time to fill the link after the stop: CUBIC's, Reno's.
#[derive(Clone, Debug, Default)]
pub struct FreedCapacity {
    pub cubic: Vec<f64>,
    pub reno: Vec<f64>,
}

/// Seconds from `from` until flow 0's goodput over a second first reaches `level` bit/s, read
/// every 100 ms; the time to the run's end if it never does.
pub fn time_to_fill(r: &RunResult, from: f64, level: f64) -> f64 {
    let end = r.summary.sim_time_s;
    let steps = ((end - 1.0 - from) / STEP_S).floor().max(0.0) as usize;
    (0..=steps)
        .map(|k| from + k as f64 * STEP_S)
        .find(|&t| goodput_between(r, t, t + 1.0)[0] >= level)
        .map_or(end - from, |t| t + 1.0 - from)
}

pub fn run(seeds: u64, out: &Path) -> Result<FreedCapacity, UserError> {
    let dir = out.join("freed-capacity");
    let link = TESTBED;
    let level = FULL * link.mbps * 1e6 * 1448.0 / 1500.0;
    let fill = |cc: &str| {
        (1..=seeds)
            .map(|s| {
                let mut flows = link.flows(&[cc; FLOWS]);
                for f in &mut flows[1..] {
                    f.stop = Some(Time::from_secs(STOP_S));
                }
                let mut cfg = link.config(flows, STOP_S + ALONE_S, 0.0, s);
                cfg.sample_interval = Some(Time::from_millis(100));
                let r = run_one(cfg, &dir.join(format!("{cc}/seed-{s}")))?;
                Ok(time_to_fill(&r, STOP_S as f64, level))
            })
            .collect::<Result<Vec<f64>, UserError>>()
    };
    Ok(FreedCapacity { cubic: fill("cubic")?, reno: fill("reno")? })
}

pub fn claims(f: &FreedCapacity, claims: &mut Vec<Claim>) {
    let c = direction_apart(
        &format!(
            "CUBIC \"if there is no more packet loss here – begin ramp up to use possibly freed up resources\": it fills the link sooner than Reno when {} of {FLOWS} flows leave (time from their stop at {STOP_S} s until the last flow's goodput over a second reaches {} % of the link; {FLOWS} flows of one algorithm on {}, one BDP)",
            FLOWS - 1,
            FULL * 100.0,
            TESTBED.label()
        ),
        "\"begin ramp up to use possibly freed up resources\"",
        ("Reno", &f.reno),
        ("CUBIC", &f.cubic),
        "s",
    );
    claims.push(c.because_unless_held(
        "past W_max CUBIC's window grows as C(t − K)³, faster the longer it meets no loss, where Reno adds one segment per round trip",
    ));
}

//! The seed's reading of trial 3 (seed 004, Discussion): "Reno still competes very favorably
//! under these conditions, this can likely be attributed more to Reno's ability to increase
//! the window size more aggressively coming into play over a testing of relatively small
//! duration compared to network delay". If so, Reno's lead over mVegas shrinks in a test long
//! against the time mVegas takes to climb. After its jump out of slow start mVegas grows by at
//! most a segment per round trip, so from its first window to the receive window that holds
//! Reno ([`super::testbed::fitted_rwnd`], about 103 segments) takes at most about 100 round
//! trips of trial 3's 100 ms, 10 s: iperf's whole test. Trial 3 again on the same testbed for
//! [`LONG_S`] s, six times that: Reno's goodput over mVegas's per seed, at iperf's 10 s against
//! at [`LONG_S`] s.

use super::{seed, testbed};
use crate::experiment::{run_one, Claim, Options};
use crate::UserError;
use cc::Time;

/// The long test: six times the climb to the receive window.
pub const LONG_S: u64 = 60;

/// Reno's goodput over mVegas's in trial 3 for `secs`, on seeds 1..=`runs`.
fn reno_over_mvegas(secs: u64, runs: u64, opts: &Options) -> Result<Vec<f64>, UserError> {
    let netem = testbed::netem_of(seed::trial(3));
    let goodput = |cc: &str, run: u64| -> Result<f64, UserError> {
        let mut cfg = testbed::config(cc, netem, testbed::HOST_NOISE, run, Time::from_secs(1))?;
        cfg.duration = Time::from_secs(secs);
        Ok(run_one(cfg, &opts.out.join(format!("test-length/{cc}-{secs}s/run-{run}")))?.summary.flows[0].goodput_bps)
    };
    (1..=runs).map(|run| Ok(goodput("reno", run)? / goodput("mvegas", run)?)).collect()
}

pub fn claims(opts: &Options, runs: u64) -> Result<Vec<Claim>, UserError> {
    let short_s = testbed::DURATION.as_secs_f64();
    let (short, long) = (reno_over_mvegas(short_s as u64, runs, opts)?, reno_over_mvegas(LONG_S, runs, opts)?);
    Ok(vec![Claim::direction(
        &format!("trial 3: Reno's lead over mVegas comes from \"a testing of relatively small duration compared to network delay\": Reno's goodput over mVegas's at iperf's {short_s} s above at {LONG_S} s"),
        "\"Reno's ability to increase the window size more aggressively coming into play over a testing of relatively small duration\"",
        (&format!("{short_s} s"), &short),
        (&format!("{LONG_S} s"), &long),
        "",
    )])
}

//! Probes of the candidate causes A, C and D (see `claims` in the module above): the testbed
//! run again with one candidate mechanism switched on, and the arithmetic that rules out others.
//!
//! - **mVegas as built** (`MVegasConfig::as_built`: a public copy of the report's module never
//!   converts diff into its comparison value, so between alpha and beta the window always
//!   grows): run on trials 1 and 3's mVegas (cause A: was the seed's mVegas held down by the
//!   module it ran rather than by the network?).
//! - **vCPU stalls** ([`sim::hostnoise`]'s `vm` preset: a guest loses its CPU for up to
//!   [`VM_STALL_MAX`] about every [`VM_STALL_EVERY`], with wake-up latency): the largest
//!   host-made delay we have evidence for. Run on trial 3's Vegas (can it make Vegas leave
//!   slow start at 100 ms?) and on trial 1's Reno (does it spread the runs at the link rate?).
//! - **The rise Vegas needs** ([`rise_to_leave_slow_start`]): Linux leaves slow start when the
//!   integer `diff = cwnd·(rtt − base)/base` exceeds gamma, so at the window of the second round
//!   trip (twice the initial window) the round's smallest RTT must exceed the base RTT by
//!   `(gamma + 1)·base/cwnd`.
//! - **netem's queue limit** ([`acks_in_netem`]): ACKs waiting in a netem delay of `delay` at
//!   a data rate, at most one per segment, against `tc-netem(8)`'s default `limit` of
//!   [`NETEM_DEFAULT_LIMIT`] packets.

use super::{mbps, seed, testbed, ALGOS};
use crate::experiment::{run_one, Options, Table};
use crate::stats::Summary;
use crate::table::num;
use crate::UserError;
use cc::algorithms::{MVegasConfig, VegasConfig};
use cc::CcConfig;
use cc::Time;
use sim::hostnoise::{VM_STALL_EVERY, VM_STALL_MAX};
use sim::{HostNoise, SimConfig, Transport};

/// `tc-netem(8)`: "limit packets: maximum number of packets the qdisc may hold queued at a
/// time", 1000 by default (Linux `netem_init`: `q->limit = 1000`).
pub const NETEM_DEFAULT_LIMIT: u64 = 1000;

/// What the probe runs gave, Mbit/s per seed.
pub struct Probes {
    /// Trial 3's Vegas with vCPU stalls.
    pub vegas_100ms_stalls: Vec<f64>,
    /// Trial 1's Reno with vCPU stalls.
    pub reno_link_stalls: Vec<f64>,
    /// mVegas as built, trials 1 and 3.
    pub mvegas_as_built: [Vec<f64>; 2],
    /// Trial 6's Reno with its netem jitter left out ([`TRIAL_6_WITHOUT_JITTER`]).
    pub reno_6_without_jitter: Vec<f64>,
}

/// Trial 6's netem (`delay 100ms 10ms 25% loss 0.1%`) without its jitter: what trial 6's
/// Reno gives when its ACKs are no longer reordered.
pub const TRIAL_6_WITHOUT_JITTER: &str = "delay 100ms loss 0.1%";

/// The trials mVegas as built runs on: the 0.2 ms LAN and 100 ms.
pub const AS_BUILT_TRIALS: [u32; 2] = [1, 3];

/// The `vm` host-noise preset on both guests.
fn stalls() -> HostNoise {
    HostNoise::preset("vm").expect("the vm preset exists")
}

/// One probe cell: `cc` on `trial`, one run per seed, each configuration changed by `probe`
/// (whose name `label` the run directories carry).
fn probe_runs(cc: &str, trial: u32, runs: usize, opts: &Options, label: &str, probe: &dyn Fn(&mut SimConfig)) -> Result<Vec<f64>, UserError> {
    let netem = testbed::netem_of(seed::trial(trial));
    let mut xs = Vec::new();
    for run in 1..=runs {
        let mut cfg = testbed::config(cc, netem, testbed::HOST_NOISE, run as u64, Time::from_millis(100))?;
        probe(&mut cfg);
        xs.push(mbps(&run_one(cfg, &opts.out.join(format!("probes/{label}/trial-{trial}/{cc}/run-{run}")))?));
    }
    Ok(xs)
}

pub fn run(runs: usize, opts: &Options) -> Result<Probes, UserError> {
    let stalled = |cfg: &mut SimConfig| cfg.link.host_noise = stalls();
    let as_built = |cfg: &mut SimConfig| {
        cfg.flows[0].transport = Transport::Tcp(CcConfig::MVegas(MVegasConfig { as_built: true, ..MVegasConfig::default() }));
    };
    Ok(Probes {
        vegas_100ms_stalls: probe_runs("vegas", 3, runs, opts, "vm-stalls", &stalled)?,
        reno_link_stalls: probe_runs("reno", 1, runs, opts, "vm-stalls", &stalled)?,
        mvegas_as_built: [probe_runs("mvegas", AS_BUILT_TRIALS[0], runs, opts, "as-built", &as_built)?, probe_runs("mvegas", AS_BUILT_TRIALS[1], runs, opts, "as-built", &as_built)?],
        reno_6_without_jitter: probe_runs("reno", 6, runs, opts, "without-jitter", &|cfg: &mut SimConfig| {
            cfg.link.reverse_netem = sim::Netem::parse(TRIAL_6_WITHOUT_JITTER).expect("a valid netem");
        })?,
    })
}

/// The rise of a round's smallest RTT over the base RTT `base` that makes Linux's Vegas leave
/// slow start with a window of `cwnd_pkts` packets: the least `rtt − base` with
/// `⌊cwnd·(rtt − base)/base⌋ > gamma`, i.e. `(gamma + 1)·base/cwnd`.
pub fn rise_to_leave_slow_start(base: Time, cwnd_pkts: u64, gamma: u32) -> Time {
    Time((u64::from(gamma) + 1) * base.as_nanos() / cwnd_pkts.max(1))
}

/// The rise Vegas needed at the second round trip of trial 3, where the seed's Vegas (ending
/// with its mVegas) must have left slow start: twice the initial window, over trial 3's base
/// RTT (the netem delay plus the mean guest round trip).
pub fn trial_3_rise() -> Result<(u64, Time), UserError> {
    let cfg = testbed::config("vegas", testbed::netem_of(seed::trial(3)), testbed::HOST_NOISE, 1, Time::from_millis(100))?;
    let cwnd = 2 * u64::from(cfg.flows[0].sender.initial_window);
    let base = cfg.link.reverse_netem.delay + testbed::FIXED_RTT + Time(testbed::HOST_NOISE.as_nanos() / 2);
    Ok((cwnd, rise_to_leave_slow_start(base, cwnd, VegasConfig::default().gamma)))
}

/// ACKs that wait in a netem delay of `delay` when data arrives at `data_mbps`, one ACK per
/// `mss`-byte segment (the most a receiver sends).
pub fn acks_in_netem(data_mbps: f64, mss: u64, delay: Time) -> f64 {
    data_mbps * 1e6 / (mss as f64 * 8.0) * delay.as_secs_f64()
}

/// How long the queue Reno's window keeps standing at the sender keeps the link busy when the
/// sender stops: the receive window's segments on the wire (`rwnd/MSS` packets of `WIRE`
/// bytes) at the fitted link rate, less the base round trip they also fill
/// (`FIXED_RTT + HOST_NOISE/2`). The 1000-packet `txqueuelen` could hold ten times as much, but
/// a window-limited sender never fills it.
pub fn standing_queue_time() -> Time {
    standing_queue_time_of(testbed::fitted_rwnd())
}

fn standing_queue_time_of(rwnd: u64) -> Time {
    let bits = rwnd as f64 / testbed::MSS as f64 * (testbed::WIRE * 8) as f64;
    let base = testbed::FIXED_RTT.as_secs_f64() + testbed::HOST_NOISE.as_secs_f64() / 2.0;
    Time::from_secs_f64((bits / testbed::fitted_rate().bits_per_sec() - base).max(0.0))
}

/// The probes beside the cells they change; `without(trial, k)` gives our runs of trial
/// `trial`'s algorithm `k` (in `ALGOS` order) as the experiment ran them.
pub fn table(p: &Probes, without: &dyn Fn(u32, usize) -> Vec<f64>) -> Table {
    let stalls = format!("vCPU stalls (up to {} ms, about every {} ms) on both guests", num(VM_STALL_MAX.as_secs_f64() * 1e3), num(VM_STALL_EVERY.as_secs_f64() * 1e3));
    let mut t = Table::new("causes A, C, D and E probed (Mbit/s, mean (min-max))", &["cause", "cell", "probed", "without", "seed", "probe"]);
    let cell = |xs: &[f64]| Summary::of(xs).map_or(String::new(), |s| format!("{} ({}-{})", num(s.mean), num(s.min), num(s.max)));
    let as_built = "mVegas as built: always +1 between alpha and beta";
    let without_jitter = format!("netem {TRIAL_6_WITHOUT_JITTER}: the jitter left out");
    let rows = [
        ("C", 3, 1, &p.vegas_100ms_stalls, stalls.as_str()),
        ("D", 1, 0, &p.reno_link_stalls, stalls.as_str()),
        ("A", AS_BUILT_TRIALS[0], 2, &p.mvegas_as_built[0], as_built),
        ("A", AS_BUILT_TRIALS[1], 2, &p.mvegas_as_built[1], as_built),
        ("E", 6, 0, &p.reno_6_without_jitter, without_jitter.as_str()),
    ];
    for (cause, trial, k, xs, probe) in rows {
        let s = seed::trial(trial).cells[k].summary();
        t.row(vec![
            cause.into(),
            format!("trial {trial} {}", ALGOS[k].1),
            cell(xs),
            cell(&without(trial, k)),
            format!("{} ({}-{})", num(s.mean), num(s.min), num(s.max)),
            probe.into(),
        ]);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// diff = ⌊cwnd·rise/base⌋ must reach gamma + 1: 20 packets over 100 ms need 10 ms with
    /// gamma 1, and one nanosecond less does not do it.
    #[test]
    fn the_rise_is_the_least_that_makes_diff_exceed_gamma() {
        let base = Time::from_millis(100);
        let rise = rise_to_leave_slow_start(base, 20, 1);
        assert_eq!(rise, Time::from_millis(10));
        let diff = |r: Time| 20 * r.as_nanos() / base.as_nanos();
        assert!(diff(rise) > 1 && diff(Time(rise.as_nanos() - 1)) <= 1);
        assert_eq!(rise_to_leave_slow_start(base, 0, 1), Time::from_millis(200), "no division by zero");
    }

    #[test]
    fn trial_3_needs_a_tenth_of_its_round_trip() {
        let Ok((cwnd, rise)) = trial_3_rise() else { panic!("the testbed builds") };
        assert_eq!(cwnd, 20);
        assert!((rise.as_secs_f64() * 1e3 - 10.02).abs() < 1e-9, "{rise:?}");
    }

    /// 11.4 Mbit/s of 1448-byte segments is 984 a second: 98 ACKs in 100 ms at most.
    #[test]
    fn acks_held_by_a_100_ms_netem_delay() {
        let n = acks_in_netem(11.4, testbed::MSS, Time::from_millis(100));
        assert!((n - 98.42).abs() < 0.01, "{n}");
        assert!(n < NETEM_DEFAULT_LIMIT as f64 / 10.0);
    }

    /// The steady-state window, 142.8 kB: 98.6 segments of 1500 wire bytes at 300.4 Mbit/s is
    /// 3.94 ms, less the 0.2 ms base round trip, 3.74 ms; the fitted window lies between that
    /// and half as much again, so its queue does too, above the longest stall (3 ms) either way.
    #[test]
    fn the_standing_queue_outlasts_a_stall() {
        let steady = standing_queue_time_of(testbed::steady_state_rwnd()).as_secs_f64() * 1e3;
        assert!((steady - 3.74).abs() < 0.01, "{steady}");
        let t = standing_queue_time();
        assert!(t.as_secs_f64() * 1e3 >= steady && t.as_secs_f64() * 1e3 < 1.5 * 3.94, "{t:?}");
        assert!(t > VM_STALL_MAX);
    }
}

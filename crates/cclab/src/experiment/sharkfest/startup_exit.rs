//! The talk's BBR v2 table, row "Startup": BBR v1 "Slow-start until tput plateaus", BBR v2
//! "Slow-start until tput plateaus or ECN/loss rate > target" (Cardwell et al., ICCRG at
//! IETF 104). BBR v1 leaves STARTUP only when three rounds bring less than 25 % more
//! bandwidth, whatever it loses meanwhile at a pacing gain of 2/ln 2; BBR v2 (here BBRv3,
//! which keeps the rule: `bbr_check_startup_high_loss`, draft-ietf-ccwg-bbr §4.3.1.3) also
//! leaves once a round has lost more than its 2 % target in at least 6 loss events.
//!
//! Both alone on the testbed with a tenth of a BDP of buffer ([`SHALLOW_BUFFER_BDP`]), where
//! Startup's queue overflows long before the bandwidth plateaus for three rounds, sampled every
//! 10 ms: when each leaves STARTUP (the first sample in another state) and the packets the link
//! drops until it is in PROBE_BW (Startup's overshoot and Drain's draining of it). BBRv3 also
//! runs without its loss exit (`startup_full_loss_count` = 10⁶, never reached), which tells
//! the rule's part from the rest of what BBRv3 changed in Startup.

use super::super::run_one;
use super::judge::direction_apart;
use super::measure::{flow0, TESTBED};
use super::qualities::SHALLOW_BUFFER_BDP;
use crate::experiment::Claim;
use crate::stats::Summary;
use crate::table::num;
use crate::UserError;
use cc::algorithms::Bbr3Config;
use cc::{CcConfig, Time};
use sim::{FlowConfig, QueueLimit, RunResult};
use std::path::Path;

/// Long enough for BBR v1's three rounds of plateau and Drain on the testbed.
const SECS: u64 = 10;

/// One run's Startup: when it ended, and the drops until PROBE_BW.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Exit {
    pub at_s: f64,
    pub drops: f64,
}

/// Per seed, BBR v1's, BBRv3's, and BBRv3's without its loss exit.
#[derive(Clone, Debug, Default)]
pub struct StartupExits {
    pub v1: Vec<Exit>,
    pub v3: Vec<Exit>,
    pub v3_plateau_only: Vec<Exit>,
}

/// The first sample of flow 0 out of STARTUP, and the link's drops by its first PROBE_BW
/// sample (the run's if it never gets there); `None` if it never leaves STARTUP.
pub fn exit_of(r: &RunResult) -> Option<Exit> {
    let samples = flow0(r);
    let at_s = samples.iter().find(|s| s.state != "startup")?.time;
    let probe_bw = samples.iter().find(|s| s.state == "probe_bw").map_or(r.summary.sim_time_s, |s| s.time);
    let link = r.series.as_ref().map(|s| s.link.as_slice()).unwrap_or_default();
    let drops = link.iter().take_while(|l| l.time <= probe_bw + 1e-9).last().map_or(0, |l| l.drops);
    Some(Exit { at_s, drops: drops as f64 })
}

pub fn run(seeds: u64, out: &Path) -> Result<StartupExits, UserError> {
    let dir = out.join("startup-exit");
    let exits = |name: &str, cc: CcConfig| -> Result<Vec<Exit>, UserError> {
        let mut v = Vec::new();
        for s in 1..=seeds {
            let flow = FlowConfig::new(cc.clone(), Time::from_millis(TESTBED.rtt_ms));
            let mut cfg = TESTBED.config(vec![flow], SECS, 0.0, s);
            cfg.link.buffer = QueueLimit::Bdp(SHALLOW_BUFFER_BDP);
            cfg.sample_interval = Some(Time::from_millis(10));
            v.extend(exit_of(&run_one(cfg, &dir.join(format!("{name}/seed-{s}")))?));
        }
        Ok(v)
    };
    let named = |n: &str| CcConfig::from_name(n).expect("known algorithm");
    let plateau_only = CcConfig::Bbr3(Bbr3Config { startup_full_loss_count: 1_000_000, ..Bbr3Config::default() });
    Ok(StartupExits { v1: exits("bbr", named("bbr"))?, v3: exits("bbr3", named("bbr3"))?, v3_plateau_only: exits("bbr3-no-loss-exit", plateau_only)? })
}

pub fn claims(e: &StartupExits, claims: &mut Vec<Claim>) {
    let quote = "Startup: BBR v1 \"Slow-start until tput plateaus\", BBR v2 \"until tput plateaus or ECN/loss rate > target\"";
    let on = format!("alone on {}, {} BDP of buffer, {SECS} s", TESTBED.label(), SHALLOW_BUFFER_BDP);
    let col = |v: &[Exit], f: fn(&Exit) -> f64| v.iter().map(f).collect::<Vec<f64>>();
    claims.push(direction_apart(
        &format!("BBR v2 leaves Startup on its loss rate before the plateau: BBRv3 leaves STARTUP later without its loss exit (startup_full_loss_count = 10⁶) than with it ({on})"),
        quote,
        ("without", &col(&e.v3_plateau_only, |x| x.at_s)),
        ("with", &col(&e.v3, |x| x.at_s)),
        "s",
    ));
    let spread = |v: &[Exit], f: fn(&Exit) -> f64| Summary::of(&col(v, f)).map_or("–".into(), |s| num(s.mean));
    let c = direction_apart(
        &format!("BBR v2's loss target bounds what Startup costs: packets the link drops until PROBE_BW, BBR v1's above BBRv3's ({on})"),
        quote,
        ("BBR v1", &col(&e.v1, |x| x.drops)),
        ("BBRv3", &col(&e.v3, |x| x.drops)),
        "packets",
    );
    claims.push(c.because(&format!(
        "not all of the difference is the loss target: without its loss exit BBRv3 leaves STARTUP at {} s with {} drops, against BBR v1's {} s and {} and its own {} s and {} with the exit",
        spread(&e.v3_plateau_only, |x| x.at_s),
        spread(&e.v3_plateau_only, |x| x.drops),
        spread(&e.v1, |x| x.at_s),
        spread(&e.v1, |x| x.drops),
        spread(&e.v3, |x| x.at_s),
        spread(&e.v3, |x| x.drops),
    )));
}

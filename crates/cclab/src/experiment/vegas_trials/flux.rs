//! Why Vegas keeps alpha and beta apart. Seed 004: "In Vegas default, beta and alpha are
//! desired to be at least two packets apart to avoid constantly having the window size in
//! flux."
//!
//! Linux's `tcp_vegas_cong_avoid` takes the backlog once per round as the whole number
//! `diff = ⌊cwnd·(rtt − baseRTT)/baseRTT⌋` from the round's smallest RTT, raises the window by
//! one segment below alpha, lowers it by one above beta, and holds it in between. One
//! segment more in a window already queueing raises the queue by one packet, so `diff` by at
//! least one: with beta − alpha ≥ 2 a step from either side cannot jump the band, and the
//! window can come to rest; with alpha = beta it rests only where `diff` lands on that one
//! value, and any error in the round's smallest RTT of more than one packet's time over the
//! bottleneck in `cwnd` (here `baseRTT/cwnd`) moves it off.
//!
//! So the gap matters where the RTT estimate is noisy. We run Vegas alone with beta − alpha of
//! 0, 1 and 2 (alpha = 2, Linux's), in two places: the clean link of [`super::backlog`]
//! (10 Mbit/s, 20 ms, no host noise), and the seed's own testbed, trial 1 (no netem), whose host
//! noise (up to 0.2 ms per ACK, [`super::testbed`]) is as large as its round trip. The measure
//! is the window's changes per round trip in congestion avoidance after a settling time: the
//! window read every tenth to quarter of the round trip (a change between two reads is one decision, as
//! Vegas decides at most once a round), over the elapsed time in mean RTTs.

use super::{testbed, Claim, Table};
use crate::stats::{mean, Summary};
use crate::UserError;
use cc::algorithms::VegasConfig;
use cc::{CcConfig, Rate, Time};
use sim::{FlowConfig, LinkConfig, QueueLimit, RunResult, SimConfig, Transport};

/// Linux's alpha; beta is alpha plus each gap.
const ALPHA: u32 = 2;
const GAPS: [u32; 3] = [0, 1, 2];

/// A place Vegas runs: its name, the settling time left out, its configuration for a seed
/// (which sets the sampling interval, under half its shortest round), and the noise its RTT
/// samples carry, for the why.
struct Place {
    name: &'static str,
    settle_s: f64,
    config: fn(u64) -> Result<SimConfig, UserError>,
    noise: &'static str,
}

fn clean_link(seed: u64) -> Result<SimConfig, UserError> {
    let rtt = Time::from_millis(super::backlog::RTT_MS);
    Ok(SimConfig {
        seed,
        duration: Time::from_secs(30),
        // A tenth of the 20 ms round trip.
        sample_interval: Some(Time::from_millis(2)),
        link: LinkConfig { rate: Rate::from_bits_per_sec(super::backlog::RATE_BPS), buffer: QueueLimit::Bdp(1.0), ..LinkConfig::default() },
        flows: vec![FlowConfig::new(CcConfig::from_name("vegas").map_err(UserError)?, rtt)],
    })
}

fn seed_testbed(seed: u64) -> Result<SimConfig, UserError> {
    // A quarter of the guests' 0.2 ms mean round trip: no round is shorter than the fixed
    // 0.1 ms, so no two of Vegas's decisions fall between two reads.
    testbed::config("vegas", testbed::netem_of(super::seed::trial(1)), testbed::HOST_NOISE, seed, Time::from_micros(50))
}

static PLACES: [Place; 2] = [
    Place {
        name: "a clean link (10 Mbit/s, 20 ms, one BDP, no host noise; 30 s, the first 10 left out)",
        settle_s: 10.0,
        config: clean_link,
        noise: "the only noise here is the simulator's send-time randomiser (each send waits up to one packet's time at the bottleneck), which moves the round's smallest RTT by up to a packet's time and so ⌊diff⌋ = cwnd·(rtt − baseRTT)/baseRTT by about one packet",
    },
    Place {
        name: "the seed's testbed, trial 1 (no netem; host noise up to 0.2 ms per ACK; iperf's 10 s, the first 2 left out)",
        settle_s: 2.0,
        config: seed_testbed,
        noise: "the hosts' noise (each ACK handled up to 0.2 ms late, against a base RTT of 0.1 ms) moves the round's smallest RTT by a share of the base RTT, and ⌊diff⌋ = cwnd·(rtt − baseRTT)/baseRTT by that share of the window",
    },
];

/// Window changes per mean RTT in congestion avoidance after `settle_s`: reads of flow 0
/// whose window differs from the read before, both out of slow start and recovery (Vegas
/// names its congestion-avoidance state by its last decision: increase, hold, decrease).
fn changes_per_rtt(r: &RunResult, settle_s: f64) -> f64 {
    let Some(series) = r.series.as_ref() else { return f64::NAN };
    let reads: Vec<_> = series.flows.iter().filter(|f| f.flow == 0 && f.time > settle_s).collect();
    let avoiding = |f: &&sim::results::FlowSample| !["slow_start", "recovery", "loss"].contains(&f.state);
    let changes = reads.windows(2).filter(|w| avoiding(&w[0]) && avoiding(&w[1]) && w[0].cwnd != w[1].cwnd).count();
    let rtts: Vec<f64> = reads.iter().filter_map(|f| f.rtt_ms).collect();
    let span = match (reads.first(), reads.last()) {
        (Some(a), Some(b)) => b.time - a.time,
        _ => 0.0,
    };
    if rtts.is_empty() || span <= 0.0 {
        return f64::NAN;
    }
    changes as f64 / (span / (mean(&rtts) / 1e3))
}

/// Each place's runs: per gap (in [`GAPS`] order), the changes per RTT on each seed.
pub struct Flux {
    places: Vec<(&'static Place, Vec<Vec<f64>>)>,
}

pub fn run(seeds: u64) -> Result<Flux, UserError> {
    let mut places = Vec::new();
    for place in PLACES.iter() {
        let mut per_gap = Vec::new();
        for gap in GAPS {
            let mut xs = Vec::new();
            for seed in 1..=seeds {
                let mut cfg = (place.config)(seed)?;
                cfg.flows[0].transport = Transport::Tcp(CcConfig::Vegas(VegasConfig { alpha: ALPHA, beta: ALPHA + gap, ..VegasConfig::default() }));
                // In memory only: a run read every 50 µs would write tens of megabytes.
                let r = crate::run::simulate(cfg, true, "")?;
                xs.push(changes_per_rtt(&r, place.settle_s));
            }
            per_gap.push(xs);
        }
        places.push((place, per_gap));
    }
    Ok(Flux { places })
}

/// The table of changes per RTT and, per place, the claim that each gap under two leaves the
/// window in more flux than Linux's two.
pub fn claims(f: &Flux) -> (Table, Vec<Claim>) {
    let mut t = Table::new(
        "Vegas's window changes per round trip in congestion avoidance, by beta − alpha (alpha = 2), alone (mean over seeds, min–max)",
        &["where", "beta − alpha = 0", "1", "2 (Linux's 2 and 4)"],
    );
    let mut claims = Vec::new();
    let seed = "\"In Vegas default, beta and alpha are desired to be at least two packets apart to avoid constantly having the window size in flux.\"";
    for (place, per_gap) in &f.places {
        let name = place.name;
        let cell = |xs: &[f64]| Summary::of(xs).map_or("–".into(), |s| format!("{:.3} ({:.3}–{:.3})", s.mean, s.min, s.max));
        let mut row = vec![name.to_string()];
        row.extend(per_gap.iter().map(|xs| cell(xs)));
        t.row(row);
        let two = &per_gap[GAPS.iter().position(|&g| g == 2).expect("Linux's gap")];
        for (k, gap) in GAPS.into_iter().enumerate().filter(|&(_, g)| g < 2) {
            let c = Claim::direction(
                &format!("Vegas's window in more flux with alpha and beta {gap} apart than 2 apart: changes per round trip in congestion avoidance, alone on {name}"),
                seed,
                (&format!("{gap} apart"), &per_gap[k]),
                ("2 apart", two),
                "per RTT",
            );
            let why = why(gap, &per_gap[k], two, place.noise);
            claims.push(c.because(&why));
        }
    }
    (t, claims)
}

/// What the runs show of the gap, in the words of the place's `noise`: whether the window
/// rests with each band, and how much flux two apart leaves.
fn why(gap: u32, narrow: &[f64], two: &[f64], noise: &str) -> String {
    let (narrow, two) = (mean(narrow), mean(two));
    let figures = format!("{narrow:.3} window changes per round trip with {gap} apart, {two:.3} with 2 apart (means over seeds)");
    match (narrow > 0.0, two > 0.0) {
        (false, false) => format!("{figures}: the window rests with both bands; {noise}, which a band of {gap} already absorbs"),
        (true, false) => format!("{figures}: {noise}, enough to leave a band of {gap}, not one of 2"),
        (_, true) if narrow > two => format!("{figures}: two apart leaves {:.0} % fewer changes but not none; {noise}, more than a band of 2 absorbs", (1.0 - two / narrow) * 100.0),
        (_, true) => format!("{figures}: two apart leaves as many changes or more; {noise}; not traced further"),
    }
}

//! A probe of the seed's second cause of the 2003 code's swings (seed 001 §3 (ii)): "SABUL
//! receiver uses TCP channel to transmit SYN packet ... if the SABUL sender CPU is busy, then
//! the kernel will not pass the SYN packet up to the application layer right away ... In
//! effect, the time measured between two SYN packets is random."
//!
//! `sabul-2003` measures its interval between SYN arrivals, but the Table 1 runs' return path
//! holds no queue and no jitter, so every interval it measures is T. Here every row runs again
//! with the 2003 code (its freeze on) and netem's jitter on the return path, [`JITTER`]: 0 to
//! 20 ms, as the loopback test of cc's `sabul` module puts on its control path. The seed gives
//! no size for its hosts' delays, so this is a probe, not a verdict. The jitter adds 10 ms to
//! every RTT on average. Per row: σ/μ of the rate each sender logged and of the rate it sent
//! (200 ms samples after the first 10 s, mean over the flows), and the logged rate's mean over
//! the sent rate's, with the jitter and without.

use super::{config, logged_swing, rate_swing, Sender, ROWS, SETTLE_S};
use crate::experiment::Table;
use crate::stats::{mean, Summary};
use crate::UserError;
use sim::netem::Netem;
use sim::RunResult;

/// The return path's jitter: netem's `delay 10ms 10ms`, uniform on 0 to 20 ms.
pub const JITTER: &str = "delay 10ms 10ms";

/// Each flow's mean logged rate over its mean rate sent, after [`SETTLE_S`], averaged over the
/// flows: above 1 where the code counted ERRs as packets sent or measured intervals short.
fn logged_over_sent(r: &RunResult) -> f64 {
    let samples = r.series.as_ref().map(|s| s.flows.as_slice()).unwrap_or_default();
    let ratios: Vec<f64> = (0..r.summary.flows.len() as u32)
        .filter_map(|i| {
            let of = |f: fn(&sim::results::FlowSample) -> Option<f64>| mean(&samples.iter().filter(|s| s.flow == i && s.time > SETTLE_S).filter_map(f).collect::<Vec<_>>());
            let (logged, sent) = (of(|s| s.logged_rate_mbps), of(|s| Some(s.throughput_mbps)));
            (sent > 0.0).then(|| logged / sent)
        })
        .collect();
    mean(&ratios)
}

/// The probe's table: every row with the return path as Table 1's runs have it and with
/// [`JITTER`], `seeds` seeds each.
pub fn table(secs: u64, seeds: u64) -> Result<Table, UserError> {
    let jitter = Netem::parse(JITTER).map_err(UserError)?;
    let mut t = Table::new(
        &format!("a probe of the seed's random SYN intervals: the 2003 code with return-path jitter ({JITTER}, a size the seed does not give), σ/μ of the logged and sent rates (mean over seeds)"),
        &["row", "return path", "σ/μ logged", "σ/μ sent", "logged mean / sent mean"],
    );
    let show = |xs: &[f64]| Summary::of(xs).map_or("-".to_string(), |s| format!("{:.3} ({:.3}-{:.3})", s.mean, s.min, s.max));
    for (k, row) in ROWS.iter().enumerate() {
        for (name, netem) in [("no jitter", None), (JITTER, Some(&jitter))] {
            let runs = (1..=seeds)
                .map(|seed| {
                    let mut cfg = config(row, secs, seed, &Sender::Code2003 { freeze: true, freeze_ms: None });
                    if let Some(n) = netem {
                        cfg.link.reverse_netem = n.clone();
                    }
                    crate::run::simulate(cfg, true, "")
                })
                .collect::<Result<Vec<RunResult>, UserError>>()?;
            let of = |f: fn(&RunResult) -> f64| runs.iter().map(f).collect::<Vec<f64>>();
            t.row(vec![(k + 1).to_string(), name.to_string(), show(&of(logged_swing)), show(&of(rate_swing)), show(&of(logged_over_sent))]);
        }
    }
    Ok(t)
}

//! The seed's abstract: "SABUL implementation and design can result in an even more erratic
//! behavior and degraded performance under high-congestion conditions"; its §3 studies "the
//! unusually high bandwidth oscillations found in high-congestions situations", its three
//! flows of about 300 Mb/s each sharing one path.
//!
//! The seed gives no figure for it and no run with less congestion, so we make the comparison
//! it implies on Figure 4's row (row 4: 57 ms, T = 200 ms): one flow alone, the row's three,
//! and six (each of the three twice), on the same 1 Gbit/s link and one-BDP buffer, under
//! the 2003 code (the implementation) and the papers' law (the design). "More erratic": σ/μ
//! of the rate each sender logs (200 ms samples after the first 10 s, mean over the flows)
//! rises with the flows on every seed. "Degraded performance": the link's utilisation falls.

use super::{config, logged_swing, Sender, ROWS, SETTLE_S};
use crate::experiment::{Claim, Table};
use crate::stats::{mean, Summary};
use crate::UserError;
use cc::rate::sabul::law::SabulLawConfig;
use sim::RunResult;

/// Figure 4's row of Table 1.
const ROW: usize = 3;
/// The numbers of flows compared: alone, the row's three, twice those.
const FLOWS: [usize; 3] = [1, 3, 6];

/// Row 4 with `n` flows: the first alone, the row's three, or each of them `n / 3` times.
fn runs(n: usize, secs: u64, seeds: u64, sender: &Sender) -> Result<Vec<RunResult>, UserError> {
    (1..=seeds)
        .map(|seed| {
            let mut cfg = config(&ROWS[ROW], secs, seed, sender);
            cfg.flows = cfg.flows.iter().cycle().take(n).cloned().collect();
            crate::run::simulate(cfg, true, "")
        })
        .collect()
}

/// The least and the most a lone flow logged (Mb/s, 200 ms samples after [`SETTLE_S`]) over
/// `runs`.
fn lone_range(runs: &[RunResult]) -> (f64, f64) {
    let logged = runs.iter().flat_map(|r| r.series.iter().flat_map(|s| s.flows.iter().filter(|f| f.flow == 0 && f.time > SETTLE_S).filter_map(|f| f.logged_rate_mbps)));
    logged.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)))
}

pub fn run(secs: u64, seeds: u64) -> Result<(Table, Vec<Claim>), UserError> {
    let mut t = Table::new(
        "more congestion: Figure 4's row (57 ms, T = 200 ms) with one flow alone, its three, and six, on 1 Gbit/s with one BDP of buffer (mean over seeds, min-max)",
        &["sender", "flows", "σ/μ of the logged rate", "utilisation"],
    );
    let show = |xs: &[f64]| Summary::of(xs).map_or("-".to_string(), |s| format!("{:.3} ({:.3}-{:.3})", s.mean, s.min, s.max));
    let mut claims = Vec::new();
    let senders = [("the 2003 code (sabul-2003)", "implementation", Sender::Code2003 { freeze: true, freeze_ms: None }), ("the papers' law (sabul)", "design", Sender::Paper(SabulLawConfig::default()))];
    for (name, part, sender) in senders {
        let mut swing = Vec::new();
        let mut utilisation = Vec::new();
        let mut lone = (f64::NAN, f64::NAN);
        for n in FLOWS {
            let rs = runs(n, secs, seeds, &sender)?;
            if n == 1 {
                lone = lone_range(&rs);
            }
            let s: Vec<f64> = rs.iter().map(logged_swing).collect();
            let u: Vec<f64> = rs.iter().map(|r| r.summary.link.utilization).collect();
            t.row(vec![name.to_string(), n.to_string(), show(&s), show(&u)]);
            swing.push(s);
            utilisation.push(u);
        }
        let seed_words = "\"SABUL implementation and design can result in an even more erratic behavior and degraded performance under high-congestion conditions\"";
        let flows = |n: usize| format!("{n} flow{}", if n == 1 { "" } else { "s" });
        let steps = |figure: &[Vec<f64>], up: bool| -> Vec<(String, Claim)> {
            (1..FLOWS.len())
                .map(|k| {
                    let (more, fewer) = ((flows(FLOWS[k]), figure[k].as_slice()), (flows(FLOWS[k - 1]), figure[k - 1].as_slice()));
                    let (a, b) = if up { (more, fewer) } else { (fewer, more) };
                    (format!("{} → {}", flows(FLOWS[k - 1]), flows(FLOWS[k])), Claim::direction("", "", (&a.0, a.1), (&b.0, b.1), ""))
                })
                .collect()
        };
        let trend = |xs: &[Vec<f64>]| xs.iter().map(|x| format!("{:.3}", mean(x))).collect::<Vec<_>>().join(" → ");
        let why = format!(
            "{name} with 1 → 3 → 6 flows (means over seeds): σ/μ of the logged rate {}, utilisation {}. A lone flow's logged rate runs from {:.0} to {:.0} Mb/s; why each flow's own swing changes as flows are added is not traced. The seed ran three flows in every row and no lighter load, so \"high congestion\" against what is our reading: more flows on the same path",
            trend(&swing),
            trend(&utilisation),
            lone.0,
            lone.1
        );
        let judged = [
            Claim::all_of(&format!("High congestion (our reading: more flows on the path), the {part}: {name}'s logged rate more erratic with more flows (row 4: σ/μ of the logged rate, 1 → 3 → 6 flows)"), seed_words, &steps(&swing, true)),
            Claim::all_of(&format!("High congestion (our reading: more flows on the path), the {part}: {name}'s performance degraded with more flows (row 4: the link's utilisation, 1 → 3 → 6 flows)"), seed_words, &steps(&utilisation, false)),
        ];
        claims.extend(judged.into_iter().map(|c| c.because_unless_held(&why)));
    }
    Ok((t, claims))
}

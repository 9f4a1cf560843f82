//! `sabul-table1`: seed 001's Table 1, three SABUL connections on one bottleneck, with the
//! seed's RTTs, initial sending rates and rate-control intervals; their average sending rates
//! beside the seed's, over several seeds.
//!
//! How the seed's table is judged. It gives one run per row and no spread, and no capacity, so
//! each per-flow rate is judged as its share of the row's total ([`Claim::one_run`]: inside our
//! 95 % prediction interval for one more run), and each ordering the seed's row shows between
//! two flows is a [`Claim::direction`], held only if it holds on every seed. The seed's own
//! words set what
//! "similar" means: it calls all four rows with one T (1, 3, 4, 5) similar, the least even of
//! them at Jain's index 0.984 (row 5, 220/280/300 Mb/s); a row of ours with one T is "similar"
//! when its index is at least that on every seed. The seed's two qualitative claims are those:
//! one T gives similar rates whatever the RTT and initial rate (rows 1, 3-5), and a shorter T
//! takes more (row 2).
//!
//! Why row 2 does not reproduce under `sabul` (the papers' Gen-B law, spec §1.4 and `rc.rs`),
//! from the seed's own analysis (§2: "the sender will receive a signal to increase a sending
//! rate more often"; MIMD): Gen-B changes the rate once per interval in *both* directions, up
//! by k2·(α − ρ) and down by k1·(ρ − α) + c, with ρ the loss over that same interval. A flow
//! with three times the interval climbs a third as often but counts three intervals' losses in
//! one and backs off for them at once, so per second T cancels, and the additive c, which costs
//! a faster flow a larger fraction, evens the rates ([RC]'s fairness argument). The seed's
//! mechanism needs a decrease that is not clocked by T. Gen-B's only one is the ERR rule (+b
//! after more than V = 10 loss reports since the last rate change); on the seed's 0.2 ms LAN
//! each drop is reported once and repaired within a fraction of a millisecond, so a flow
//! collects fewer than 11 reports in most intervals (the verdicts print the measured count and
//! how often the rule fired). We found no departure of our Gen-B from [RC] §3 / Table 2 (the
//! rule, the constants, L cleared at each rate change): the law itself is blind to T. The two
//! other generations show where the seed's ordering can come from (second table): Gen-A
//! ([TR2002], steps of at least 1 µs per interval outside a dead band) climbs once per T
//! whatever the rate, and gives the shortest T the most; Gen-C (the 2003 code: increase per
//! SYN, ×8/9 per loss epoch) computes its step from T too (10^⌈log10(T/IPT)⌉/1000 packets per
//! T), so its growth per second depends on where T/IPT falls in its decade, not on T.
//!
//! The seed's §3 on the 2003 implementation, "it can double the apparent error rate": every row
//! runs again as `sabul-2003` (the code's bookkeeping: every ERR's numbers counted, re-reports
//! included) and its ERR count is set against the packets the link really dropped, with the
//! code's freeze off as the probe of the cause ([`err_count`]). The same runs count the
//! intervals whose ERRs outnumber the packets sent, where the code "sets the loss rate to one"
//! and logs a rate above the one sent ([`loss_one`]), and how much the rate each flow's sender
//! logs (`logged_rate`: the packets counted as sent over its interval, what the seed's figures
//! plot) swings under the 2003 code against the law alone, with the freeze off to tell the
//! code's bookkeeping from its freeze (the seed ascribes the swings "not to the congestion
//! control algorithm but to the implementation").
//!
//! The seed's cause for the flows oscillating in phase on rows 3-5, "the drop-tail operations at
//! the router" (citing Floyd & Jacobson's RED), is tested by running those rows again under RED
//! on the same buffer: the flows' rate correlation under drop-tail against under RED, and, as
//! the evidence where it does not fall, how alike their losses per 200 ms are under each.
//!
//! Our flows start together, so their rate-control timers fire at the same instants, where the
//! seed's hosts started theirs independently. Rows 3-5 run again with the timers T/3 apart
//! ([`timer_phases`]): if the flows still oscillate in phase the cause is the network's, as the
//! seed says; and where the spread phases lower the flows' rate correlation on every seed, the
//! link's utilisation with and without it judges "synchronized behavior ... can reduce the
//! overall throughput of the system" as an intervention rather than a correlation.
//!
//! The conclusion's "SABUL can utilize network bandwidth efficiently" is judged row by row:
//! our three flows' utilisation of the link against the seed's total over a gigabit, the
//! largest utilisation the seed's figures can stand for ([`efficiency`]).
//!
//! §3's two observations together (re-reports about doubling the error rate, and intervals
//! whose ERRs outnumber the packets sent) are judged under each setting of the code's freeze:
//! of one T, off, and of the code's own 10 ms SYN interval ([`Claim::all_of`]); they ask
//! opposite things of it. Full mode sweeps the freeze's length between those (20, 50, 100 and
//! 150 ms) and asks whether any length gives both; one picked for giving them would be fitted
//! ([`freeze_sweep`]).
//!
//! The receiver's periodic ERRs, "every 1.5 * RTT" (§2 (4)), are timed in the main runs: each
//! flow's mean interval between two reports of one missing number, against `RTT_est` and the
//! code's 20 ms ERR tick ([`err_interval`]).

mod congestion;
mod control_jitter;
mod mimd;

use super::{run_one, Claim, Options, Output, Table};
use crate::finding::Finding;
use crate::plot::{color, Axis, Figure, Panel, PlotFiles, Series, Style, VersusRow, INK, WIDE};
use crate::stats::{mean, Summary};
use crate::table::num;
use crate::verdict::{difference_interval, Bound, Verdict};
use crate::UserError;
use cc::protocols::DatagramConfig;
use cc::rate::sabul::gen_a::GenALawConfig;
use cc::rate::sabul::gen_c::{GenCLaw, GenCLawConfig};
use cc::rate::sabul::law::SabulLawConfig;
use cc::rate::{Sabul2003Config, SabulConfig};
use cc::{Rate, Time};
use sim::results::FlowSample;
use sim::{FlowConfig, LinkConfig, QueueLimit, RunResult, SimConfig};

pub const DESCRIPTION: &str = "Seed 001 (Oothongsap, Viniotis & Vouk, NETWORKING 2004), Table 1: three SABUL \
connections share one bottleneck; the rows vary their RTTs (0.2 ms on a LAN, 23 and 57 ms over \
Abilene), initial sending rates and rate-control intervals T. The seed's finding: with the same T \
the three get similar average rates whatever their RTTs and initial rates; with T = 600/400/200 ms \
the shortest interval takes the most. We run `sabul` (the papers' Gen-B law) on a 1 Gbit/s \
drop-tail bottleneck with one BDP of buffer (the seed's three flows add up to about 960 Mb/s), \
each flow starting at its initial rate (IPT = 1500·8/rate µs), over several seeds; the seed's \
orderings are judged on every seed, its 'similar' against its own least even row. The receiver's periodic ERRs \
('every 1.5 * RTT'): each flow's mean time between two reports of one missing number. Every row runs \
again as sabul-2003, the 2003 code's bookkeeping, whose ERR count is set against the packets really \
lost (the seed: re-reports 'can double the apparent error rate'), with the intervals where its ERRs outnumber the packets sent \
(loss rate set to one, a logged rate above the one sent); and each row's utilisation against the seed's total over a gigabit \
('SABUL can utilize network bandwidth efficiently'). Rows 3-5 run again under RED on the same buffer, the seed's cited remedy for drop-tail's synchronisation, and with the flows' rate-control timers started T/3 apart instead of together: \
whether they still oscillate in phase, and what synchronisation costs the link ('can reduce the overall throughput of the system').";

/// The time series' sample interval: the seed's 200 ms T, so that rows with that T are sampled
/// once per rate-control interval ([`mimd`]).
const SAMPLE_MS: u64 = 200;

/// One row of Table 1: hosts, RTTs (ms), initial rates (Mb/s), T (ms), the seed's average rates (Mb/s).
struct Row {
    hosts: [&'static str; 3],
    rtt_ms: [f64; 3],
    init_mbit: [f64; 3],
    t_ms: [u64; 3],
    seed_mbit: [f64; 3],
}

const ROWS: [Row; 5] = [
    Row { hosts: ["n10", "n11", "n12"], rtt_ms: [0.204, 0.204, 0.203], init_mbit: [320.0, 260.0, 210.0], t_ms: [200, 200, 200], seed_mbit: [320.0, 320.0, 320.0] },
    Row { hosts: ["n10", "n11", "n12"], rtt_ms: [0.204, 0.204, 0.203], init_mbit: [320.0, 260.0, 210.0], t_ms: [600, 400, 200], seed_mbit: [295.0, 310.0, 361.0] },
    Row { hosts: ["fast1", "fast2", "fast3"], rtt_ms: [23.3, 23.2, 23.3], init_mbit: [293.0, 291.0, 279.0], t_ms: [200, 200, 200], seed_mbit: [270.0, 270.0, 270.0] },
    Row { hosts: ["fast1", "fast2", "fast3"], rtt_ms: [57.0, 57.5, 57.0], init_mbit: [298.0, 293.0, 258.0], t_ms: [200, 200, 200], seed_mbit: [298.0, 310.0, 295.0] },
    Row { hosts: ["fast1", "fast3", "fasttcp"], rtt_ms: [23.3, 23.2, 57.5], init_mbit: [273.0, 282.0, 286.0], t_ms: [200, 200, 200], seed_mbit: [220.0, 280.0, 300.0] },
];

impl Row {
    /// A flow as the seed names it, for legends and claims.
    fn flow(&self, i: usize) -> String {
        format!("SABUL, T = {} ms, RTT {} ms ({})", self.t_ms[i], self.rtt_ms[i], self.hosts[i])
    }

    fn one_interval(&self) -> bool {
        self.t_ms.iter().all(|&t| t == self.t_ms[0])
    }
}

/// SABUL's other two rate laws, beside `sabul`'s Gen-B (spec §1.4).
fn other_laws() -> [(&'static str, SabulLawConfig); 2] {
    [("tr-2002", SabulLawConfig::Tr2002(GenALawConfig::default())), ("code-2003", SabulLawConfig::Code2003(GenCLawConfig::default()))]
}

/// Which SABUL the flows run: the papers' (`sabul`, with a rate law) or the 2003 code's
/// bookkeeping (`sabul-2003`, its freeze on or off, and of T or of its own length).
#[derive(Clone, Debug)]
enum Sender {
    Paper(SabulLawConfig),
    Code2003 { freeze: bool, freeze_ms: Option<u64> },
}

/// The 2003 code's own SYN interval, ms (spec §1.1's timer table), and so its freeze.
const CODE_SYN_MS: u64 = 10;

fn config(row: &Row, secs: u64, seed: u64, sender: &Sender) -> SimConfig {
    let flows = (0..3)
        .map(|i| {
            let base = match sender {
                Sender::Paper(law) => SabulConfig { law: law.clone(), ..SabulConfig::default() },
                Sender::Code2003 { freeze, freeze_ms } => SabulConfig { freeze: *freeze, freeze_ms: *freeze_ms, ..Sabul2003Config::default().into() },
            };
            let sabul = SabulConfig { initial_ipt_us: 1500.0 * 8.0 / row.init_mbit[i], syn_ms: row.t_ms[i], ..base };
            let protocol = match sender {
                Sender::Paper(_) => DatagramConfig::Sabul(sabul),
                Sender::Code2003 { .. } => DatagramConfig::Sabul2003(sabul.into()),
            };
            FlowConfig::datagram(protocol, Time::from_secs_f64(row.rtt_ms[i] / 1e3))
        })
        .collect();
    SimConfig {
        seed,
        duration: Time::from_secs(secs),
        sample_interval: Some(Time::from_millis(SAMPLE_MS)),
        link: LinkConfig { rate: Rate::from_bits_per_sec(1e9), buffer: QueueLimit::Bdp(1.0), ..LinkConfig::default() },
        flows,
    }
}

fn mbit(r: &RunResult) -> Vec<f64> {
    r.summary.flows.iter().map(|f| f.throughput_bps / 1e6).collect()
}

fn join(xs: &[f64], p: usize) -> String {
    xs.iter().map(|x| format!("{x:.p$}")).collect::<Vec<_>>().join(" / ")
}

/// Gen-C's growth of the rate per second at `mbit` with interval `t_ms` (spec §1.4 Gen-C: inc
/// packets per T at N = T/IPT packets per T).
fn gen_c_growth_per_s(t_ms: u64, mbit: f64) -> f64 {
    let syn_us = t_ms as f64 * 1e3;
    let ipt = 1500.0 * 8.0 / mbit;
    let law = GenCLaw::new(&GenCLawConfig::default(), syn_us);
    law.increment(ipt) / (syn_us / ipt) / (t_ms as f64 / 1e3)
}

pub fn run(opts: &Options) -> Result<Output, UserError> {
    let secs = if opts.fast { 60 } else { 120 };
    let seeds: u64 = if opts.fast { 3 } else { 5 };
    let mut out = Output::default();
    let mut t = Table::new(
        "Table 1: average sending rate of three SABUL connections (Mb/s)",
        &["row", "RTT (ms)", "initial (Mb/s)", "T (ms)", "ours", "seed", "Jain ours", "Jain seed"],
    );
    // rates[row][seed] = the three flows' rates.
    let mut rates: Vec<Vec<Vec<f64>>> = Vec::new();
    let mut retransmits_per_interval: Vec<f64> = Vec::new();
    // Row 2, seed 1: each flow's ERR-driven decreases and its rate-control intervals.
    let mut row2_err_decreases: Vec<(f64, f64)> = Vec::new();
    let mut figures = Vec::new();
    let mut paper_counts: Vec<Vec<ErrCount>> = vec![Vec::new(); ROWS.len()];
    let mut in_phase: Vec<Vec<f64>> = vec![Vec::new(); ROWS.len()];
    let mut utilisation: Vec<Vec<f64>> = vec![Vec::new(); ROWS.len()];
    let mut below_90: Vec<Vec<f64>> = vec![Vec::new(); ROWS.len()];
    let mut lose_together: Vec<Vec<f64>> = vec![Vec::new(); ROWS.len()];
    // rereports[row][seed] = each flow's mean interval between two reports of one number.
    let mut rereports: Vec<Vec<Vec<Option<f64>>>> = vec![Vec::new(); ROWS.len()];
    // Per seed: the raising intervals of the one-T rows (the MI law), and row 5's falls.
    let mut raising: Vec<Vec<(f64, f64)>> = vec![Vec::new(); seeds as usize];
    let mut row5_falls: Vec<Vec<mimd::Fall>> = Vec::new();
    // falls[row][seed]: every fall of the row's flows, on the rows of figures 3-5.
    let mut falls: Vec<Vec<Vec<mimd::Fall>>> = vec![Vec::new(); ROWS.len()];
    for (k, row) in ROWS.iter().enumerate() {
        let mut per_seed = Vec::new();
        for seed in 1..=seeds {
            let dir = opts.out.join(format!("row-{}/seed-{seed}", k + 1));
            let r = run_one(config(row, secs, seed, &Sender::Paper(SabulLawConfig::default())), &dir)?;
            if seed == 1 {
                figures.push(rates_over_time(k, row, &r, None).write(&opts.out.join("plots"))?);
                if k == 1 {
                    retransmits_per_interval =
                        r.summary.flows.iter().zip(row.t_ms).map(|(f, t)| f.retransmits as f64 / (secs as f64 * 1e3 / t as f64)).collect();
                    row2_err_decreases = r.summary.flows.iter().map(|f| (f.err_decreases as f64, f.rate_intervals as f64)).collect();
                }
            }
            per_seed.push(mbit(&r));
            paper_counts[k].push(ErrCount::of(&r));
            in_phase[k].push(in_phase_correlation(&r));
            lose_together[k].push(loss_correlation(&r));
            rereports[k].push(r.summary.flows.iter().map(|f| f.rereport_interval_ms).collect());
            utilisation[k].push(r.summary.link.utilization);
            below_90[k].push(share_below_90(&r));
            if row.one_interval() && row.t_ms[0] == SAMPLE_MS {
                raising[seed as usize - 1].extend(mimd::raising_steps(&r, SETTLE_S));
            }
            if IN_PHASE_ROWS.contains(&k) {
                falls[k].push(mimd::falls(&r, SETTLE_S));
            }
            if k == 4 {
                row5_falls.push(mimd::falls(&r, SETTLE_S));
            }
        }
        let ours: Vec<f64> = (0..3).map(|i| mean(&per_seed.iter().map(|s| s[i]).collect::<Vec<_>>())).collect();
        t.row(vec![
            (k + 1).to_string(),
            join(&row.rtt_ms, 1),
            join(&row.init_mbit, 0),
            row.t_ms.iter().map(u64::to_string).collect::<Vec<_>>().join(" / "),
            join(&ours, 0),
            join(&row.seed_mbit, 0),
            format!("{:.3}", mean(&per_seed.iter().map(|s| sim::jain_index(s)).collect::<Vec<_>>())),
            format!("{:.3}", sim::jain_index(&row.seed_mbit)),
        ]);
        rates.push(per_seed);
    }
    out.tables.push(t);
    out.plots.push(("SABUL's sending rates over time, the rate law alone (sabul), seed 1 (the seed's figures 1-5)".into(), figures));

    // The same rows under the other two laws, seed 1: which of them gives which ordering.
    let mut laws = Table::new(
        "Table 1 under each of SABUL's rate laws: average sending rates (Mb/s), seed 1",
        &["row", "RTT (ms)", "T (ms)", "seed", "rc (Gen-B, sabul)", "tr-2002 (Gen-A)", "code-2003 (Gen-C)"],
    );
    let mut row2_other = Vec::new();
    let mut gen_c_raising = Vec::new();
    for (k, row) in ROWS.iter().enumerate() {
        let mut cells = vec![
            (k + 1).to_string(),
            join(&row.rtt_ms, 1),
            row.t_ms.iter().map(u64::to_string).collect::<Vec<_>>().join(" / "),
            join(&row.seed_mbit, 0),
            join(&rates[k][0], 0),
        ];
        for (name, law) in other_laws() {
            let r = run_one(config(row, secs, 1, &Sender::Paper(law)), &opts.out.join(format!("row-{}-{name}", k + 1)))?;
            if k == 1 {
                row2_other.push((name, mbit(&r)));
            }
            if name == "code-2003" && row.one_interval() && row.t_ms[0] == SAMPLE_MS {
                gen_c_raising.extend(mimd::raising_steps(&r, SETTLE_S));
            }
            cells.push(join(&mbit(&r), 0));
        }
        laws.row(cells);
    }
    out.tables.push(laws);

    out.claims.extend(ROWS.iter().zip(&rereports).enumerate().flat_map(|(k, (row, r))| err_interval(k, row, r)));
    let (err_tables, err_claims, code_figures, lan) = err_count(opts, secs, seeds, &paper_counts)?;
    out.tables.extend(err_tables);
    out.plots.push(("The 2003 code's sending rates over time (sabul-2003), RNG seed 1: the swings the seed's §3 puts down to SABUL's implementation".into(), code_figures));
    out.notes.push(lan);
    let (jitter_table, jitter_claims) = control_jitter::run(secs, seeds)?;
    out.tables.push(jitter_table);
    let (congestion_table, congestion_claims) = congestion::run(secs, seeds)?;
    out.tables.push(congestion_table);

    // The verdicts.
    let similar = ROWS.iter().filter(|r| r.one_interval()).map(|r| sim::jain_index(&r.seed_mbit)).fold(1.0, f64::min);
    let row2_why = row2_cause(&retransmits_per_interval, &row2_err_decreases, &row2_other);
    let (mut versus, mut absolute) = (Vec::new(), Vec::new());
    for (k, row) in ROWS.iter().enumerate() {
        let flow = |i: usize| rates[k].iter().map(|s| s[i]).collect::<Vec<_>>();
        if row.one_interval() {
            let jain: Vec<f64> = rates[k].iter().map(|s| sim::jain_index(s)).collect();
            let what = if k == 0 { "whatever the initial rate" } else { "whatever the RTT" };
            let c = Claim::bound(
                &format!("row {}: one T, similar rates {what} (Jain's index at least the seed's least even same-T row)", k + 1),
                &format!("{} Mb/s, Jain {:.3}; \"similar\" down to {similar:.3} (row 5)", join(&row.seed_mbit, 0), sim::jain_index(&row.seed_mbit)),
                &jain,
                Bound::AtLeast(similar),
                "",
            );
            out.claims.push(c.because(&format!(
                "the threshold is the seed's own least even row it calls similar; it does not separate \"similar\" from \"depends on T\": the seed's row 2, whose rates it ascribes to T, is more even (Jain {:.3}), so this row says ours are as even as the seed's similar rows, and row 2's orderings below judge T",
                sim::jain_index(&ROWS[1].seed_mbit)
            )));
        }
        // Each ordering of the seed's row between neighbours in its ranking, where the row's
        // intervals differ (row 2). Where they are the same the seed calls the rates "similar"
        // and says RTT has no effect on self-fairness: the Jain row above judges that, and the
        // order within its one run is no claim of the seed's.
        let mut order: Vec<usize> = (0..3).collect();
        order.sort_by(|&a, &b| row.seed_mbit[b].total_cmp(&row.seed_mbit[a]));
        for w in order.windows(2).filter(|_| !row.one_interval()) {
            let (hi, lo) = (w[0], w[1]);
            if row.seed_mbit[hi] == row.seed_mbit[lo] {
                continue;
            }
            let c = Claim::direction(
                &format!("row {}: {} above {}", k + 1, row.flow(hi), row.flow(lo)),
                &format!("{} > {} Mb/s", row.seed_mbit[hi], row.seed_mbit[lo]),
                (row.hosts[hi], &flow(hi)),
                (row.hosts[lo], &flow(lo)),
                "Mb/s",
            );
            out.claims.push(c.because_unless_held(&row2_why));
        }
        let seed_total: f64 = row.seed_mbit.iter().sum();
        for i in 0..3 {
            let shares: Vec<f64> = rates[k].iter().map(|s| s[i] / s.iter().sum::<f64>()).collect();
            // Each cell of the table as the flow's share of its row (the capacity is not
            // given, so absolute rates are not comparable).
            // Each printed rate is within ±0.5 Mb/s, so the share r/Σ is within 0.5·(1 + share)/Σ
            // (r half a unit up, the other two half a unit down).
            let seed_share = row.seed_mbit[i] / seed_total;
            let cell = Claim::one_run(
                &format!("row {}: {}'s average rate as a share of the three (the seed's {} of {} Mb/s)", k + 1, row.flow(i), row.seed_mbit[i], seed_total),
                &shares,
                seed_share,
                0.5 * (1.0 + seed_share) / seed_total,
                "",
            );
            // A cell not settled keeps its own note: the causes below are for cells that fail.
            out.claims.push(match (cell.verdict == Verdict::DoesNotHold, k) {
                (false, _) => cell,
                (true, 1) => cell.because(&row2_why),
                (true, _) => cell.because(&one_interval_cell_why(row, &rates[k])),
            });
            versus.push(VersusRow {
                label: format!("row {}: {}", k + 1, row.flow(i)),
                seed: Some((row.seed_mbit[i] / seed_total, None)),
                ours: crate::verdict::one_run_whisker(&shares),
            });
            let mbit: Vec<f64> = rates[k].iter().map(|s| s[i]).collect();
            absolute.push(VersusRow { label: format!("row {}: {}", k + 1, row.flow(i)), seed: Some((row.seed_mbit[i], None)), ours: Summary::of(&mbit).map(|s| (s.mean, (s.min, s.max))) });
        }
    }
    out.claims.extend(err_claims);
    out.claims.extend(jitter_claims);
    out.claims.extend(congestion_claims);
    out.claims.extend(mimd::claims(&raising, &gen_c_raising, &row5_falls, SAMPLE_MS));
    out.claims.extend(IN_PHASE_ROWS.iter().map(|&k| mimd::oscillation_claim(k, &falls[k], ROWS[k].rtt_ms.len(), secs as f64 - SETTLE_S)));
    let (apart_claims, apart) = timer_phases(opts, secs, seeds, (&in_phase, &utilisation, &lose_together))?;
    out.claims.extend(ROWS.iter().enumerate().map(|(k, row)| efficiency(k, row, &utilisation[k], (&in_phase[k], &below_90), apart[k])));
    // Figures 3-5: "sources oscillate in phase", the drop-tail router's global synchronisation.
    // Figures 1-2 too: "Even though it is not apparent in figures 1 and 2 due to the log
    // scale, the behavior is still the same."
    // The seed's cause for it: "Synchronized behavior occurs due to the drop-tail operations at
    // the router, and the round trip time (RTT) effect ... as noted in [2]" (Floyd & Jacobson's
    // RED). Rows 3-5 again on the same buffer under RED, which drops at random before the
    // queue overflows instead of from every flow at once.
    // Per row: the flows' rate and loss correlations under RED, per seed.
    let mut red_runs: Vec<(usize, Vec<f64>, Vec<f64>)> = Vec::new();
    for k in IN_PHASE_ROWS {
        let (mut red, mut red_losses) = (Vec::new(), Vec::new());
        for seed in 1..=seeds {
            let mut cfg = config(&ROWS[k], secs, seed, &Sender::Paper(SabulLawConfig::default()));
            cfg.link.qdisc = sim::QdiscConfig::Red(Default::default());
            let r = run_one(cfg, &opts.out.join(format!("row-{}-red/seed-{seed}", k + 1)))?;
            red.push(in_phase_correlation(&r));
            red_losses.push(loss_correlation(&r));
        }
        red_runs.push((k, red, red_losses));
    }
    let loss_corr: Vec<String> = red_runs.iter().map(|(k, _, l)| format!("row {}: {:.2} under RED, {:.2} under drop-tail", k + 1, mean(l), mean(&lose_together[*k]))).collect();
    let synchronisation: Vec<Claim> = red_runs
        .iter()
        .map(|(k, red, _)| {
            Claim::direction(
                &format!("row {}: drop-tail's synchronisation: the flows' in-phase correlation under drop-tail above under RED on the same buffer (Floyd & Jacobson 1993, the seed's [2])", k + 1),
                "\"Synchronized behavior occurs due to the drop-tail operations at the router, and the round trip time (RTT) effect\"",
                ("drop-tail", &in_phase[*k]),
                ("RED", red),
                "",
            )
        })
        .collect();
    let rows_where = |held: bool| -> String {
        let ks: Vec<String> = red_runs.iter().zip(&synchronisation).filter(|(_, c)| c.holds() == held).map(|((k, _, _), _)| (k + 1).to_string()).collect();
        if ks.is_empty() { "none".into() } else { ks.join(" and ") }
    };
    let rtts: Vec<String> = red_runs.iter().map(|(k, _, _)| format!("row {}: {}", k + 1, join(&ROWS[*k].rtt_ms, 1))).collect();
    let why = format!(
        "RED does not part the flows' losses: their retransmissions per 200 ms correlate as follows ({}). RED drops early from every flow in proportion to its rate while its average queue is high, so all three lose in the same intervals, and SABUL, which answers each interval's loss rate, then cuts with the others; Floyd and Jacobson's argument, which the seed cites, is made for TCP, whose windows one burst of drops halves together. Yet the rates part under RED on row(s) {} and not on row(s) {}; what sets them apart is not traced (the rows' RTTs in ms: {})",
        loss_corr.join("; "),
        rows_where(true),
        rows_where(false),
        rtts.join("; ")
    );
    out.claims.extend(synchronisation.into_iter().map(|c| if c.holds() { c } else { c.because(&why) }));
    out.claims.push(rtt_effect(opts, secs, seeds, &in_phase[RTT_EFFECT_ROWS.0])?);
    out.claims.extend(apart_claims);
    // The buffer each row's link holds: one BDP at its longest RTT, 1500-byte packets.
    let buffer_packets = |row: &Row| 1e9 * row.rtt_ms.iter().copied().fold(0.0, f64::max) / 1e3 / (1500.0 * 8.0);
    for (k, row) in ROWS.iter().enumerate() {
        let seed = if k < 2 { "\"not apparent in figures 1 and 2 due to the log scale, the behavior is still the same\"".to_string() } else { format!("figure {}: \"sources oscillate in phase\"", k + 1) };
        let c = Claim::mean_bound(
            &format!("row {}: the three flows oscillate in phase (mean pairwise correlation of their 200 ms sending rates after {SETTLE_S} s)", k + 1),
            &seed,
            &in_phase[k],
            Bound::AtLeast(0.0),
            "",
        );
        // The cause below is for rates that move against each other: a whole interval below 0.
        out.claims.push(if c.verdict != crate::verdict::Verdict::DoesNotHold {
            c
        } else {
            c.because(&format!(
                "ours move against each other. The one-BDP buffer of this 0.2 ms LAN holds {:.0} packets (row 3's, at 23 ms: {:.0}), so an overflow is over within a fraction of a millisecond and drops whichever flow sends into it, instead of every flow at once as a long queue's overflow does; each flow then cuts at its own next SYN, and a flow that raised its rate costs the others loss: their rates trade against each other. This is our reading of the runs, not traced packet by packet; the seed's figures 1 and 2 are on a log scale, where it says the behaviour is not apparent",
                buffer_packets(row),
                buffer_packets(&ROWS[2])
            ))
        });
    }
    out.findings = findings(&out.claims, &rates, &row2_other);
    let files = crate::plot::Versus::new("versus-seed", "Each flow's share of the three: seed 001's Table 1 against ours", "share of the three flows' average sending rates", &versus)
        .ours(format!("ours: mean, 95 % prediction interval for one more run (the verdict's test), {seeds} runs"))
        .write(&opts.out.join("plots"))?;
    let rates_files = crate::plot::Versus::new(
        "versus-seed-rates",
        "Each flow's average sending rate: seed 001's Table 1 against ours on a 1 Gbit/s bottleneck (the seed does not give its capacity; the shares above are what is judged)",
        "average sending rate (Mb/s)",
        &absolute,
    )
    .ours(format!("ours: mean, min–max over {seeds} runs"))
    .write(&opts.out.join("plots"))?;
    out.plots.insert(0, ("Ours against the seed's".into(), vec![files, rates_files]));
    let growth: Vec<String> =
        [600, 400, 200].iter().zip(ROWS[1].init_mbit).map(|(&t, r)| format!("T = {t} ms at {r} Mb/s: {:.2} %/s", 100.0 * gen_c_growth_per_s(t, r))).collect();
    out.notes.push(format!(
        "Gen-C's growth per second at row 2's initial rates (its step is computed from T): {}.",
        growth.join("; ")
    ));
    out.notes.push(
        "Shares, not absolute rates, are compared: the seed's bottlenecks (a LAN switch, Abilene paths) carried other \
         traffic and their capacities are not given; ours is a clean 1 Gbit/s link."
            .into(),
    );
    out.notes.push(
        "The seed gives one run per row and no spread, so each per-flow rate is judged as its share of the row against \
         our 95 % prediction interval for one more run, its orderings on every seed, and 'similar' as its own least \
         even same-T row."
            .into(),
    );
    if opts.fast {
        out.notes.push(format!("Fast mode: {secs} s runs and {seeds} seeds instead of 120 s and 5."));
    }
    Ok(out)
}

/// Why a flow's share of a one-T row differs from the seed's one run. Gen-B's steps are
/// multiplicative, δ ← δ·(1 + k·(ρ − α)), and keep the rates' ratios (Chiu & Jain 1989: MIMD
/// does not converge to fairness); only the additive c of each decrease evens them. Where our
/// shares still rank as the initial rates do, the flows kept part of their head start over the
/// run.
fn one_interval_cell_why(row: &Row, per_seed: &[Vec<f64>]) -> String {
    let share = |xs: &[f64], i: usize| xs[i] / xs.iter().sum::<f64>();
    let ours: Vec<f64> = (0..3).map(|i| mean(&per_seed.iter().map(|s| share(s, i)).collect::<Vec<_>>())).collect();
    let initial: Vec<f64> = (0..3).map(|i| share(&row.init_mbit, i)).collect();
    let seed: Vec<f64> = (0..3).map(|i| share(&row.seed_mbit, i)).collect();
    let ranks = |xs: &[f64]| {
        let mut order: Vec<usize> = (0..3).collect();
        order.sort_by(|&a, &b| xs[b].total_cmp(&xs[a]));
        order
    };
    let head = format!("shares: the seed's run {}, ours {} (mean over seeds)", join(&seed, 3), join(&ours, 3));
    if ranks(&ours) == ranks(&initial) && initial.iter().any(|&x| (x - initial[0]).abs() > 0.01) {
        format!(
            "{head}, from initial shares {}: ours keep part of their head start. Gen-B raises and cuts each flow's \
             inter-packet time by a factor (δ·(1 + k·(ρ − α))), which keeps the rates' ratios (Chiu & Jain 1989: MIMD does \
             not converge to fairness); only the c = 2 µs it adds at each cut evens them, and over the run that has not \
             closed the gap (the cuts were not counted){}",
            join(&initial, 3),
            if sim::jain_index(&row.seed_mbit) > 0.999 { ". The seed's run had closed it" } else { "" }
        )
    } else {
        format!("{head}: ours split the row nearly evenly; what took the seed's one run off an even split (other traffic on a shared path, say) is not known")
    }
}

/// The conclusion's "SABUL can utilize network bandwidth efficiently", row by row: our three
/// flows' utilisation of the link against the seed's total over a gigabit. The seed gives no
/// capacity; its LAN rows' totals (960 and 966 Mb/s) put it at a gigabit or more there, and a
/// gigabit is the largest utilisation the seed's totals can stand for: the bound asks ours to
/// match the best the seed can have had (a faster link would put the seed's lower).
fn efficiency(k: usize, row: &Row, ours: &[f64], (in_phase, below_90): (&[f64], &[Vec<f64>]), apart: Option<(f64, f64)>) -> Claim {
    let total: f64 = row.seed_mbit.iter().sum();
    let c = Claim::bound(
        &format!("row {}: \"SABUL can utilize network bandwidth efficiently\" (the three flows' link utilisation, at least the seed's total of {total:.0} Mb/s over a gigabit)", k + 1),
        &format!("{:.1} % ({total:.0} Mb/s, if its link carried a gigabit: the seed gives no capacity)", total / 10.0),
        &ours.iter().map(|u| u * 100.0).collect::<Vec<_>>(),
        Bound::AtLeast(total / 10.0),
        "%",
    );
    if c.holds() {
        return c;
    }
    let apart = apart.map_or(String::new(), |(corr, util)| {
        format!(
            ". With the flows' rate-control timers T/3 apart instead of together their rates correlate at {corr:.2} (together: {:.2}) and the link carries {util:.2} % (together: {:.2} %; the rows on timer phases below judge both)",
            mean(in_phase),
            100.0 * mean(ours)
        )
    });
    c.because(&format!(
        "the three flows cut their rates together (mean pairwise correlation {:.2} of their 200 ms rates, the in-phase row), and the link runs below 90 % of its rate in {:.0} % of the 200 ms samples after {SETTLE_S} s (rows 1-5: {}): the seed's \"synchronized behavior ... can reduce the overall throughput of the system\"; the seed's own row shows less of that loss, or ran on a link above a gigabit, which would put its utilisation lower{apart}",
        mean(in_phase),
        100.0 * mean(&below_90[k]),
        below_90.iter().map(|b| format!("{:.0} %", 100.0 * mean(b))).collect::<Vec<_>>().join(", ")
    ))
}

/// The seed's main findings, judged by their rows of `claims`: rate-control interval and
/// fairness from Table 1 (`rates[row][seed]`, and row 2 under the other laws on RNG seed 1),
/// the implementation's swings and error count from §3, the synchronisation from §2.
fn findings(claims: &[Claim], rates: &[Vec<Vec<f64>>], row2_other: &[(&str, Vec<f64>)]) -> Vec<Finding> {
    let per_flow = |k: usize| -> Vec<f64> { (0..3).map(|i| mean(&rates[k].iter().map(|s| s[i]).collect::<Vec<_>>())).collect() };
    let row2 = per_flow(1);
    let seed_order = |r: &[f64]| r[0] < r[1] && r[1] < r[2];
    let others: Vec<String> = row2_other.iter().map(|(name, r)| format!("{name} {} ({})", join(r, 0), if seed_order(r) { "the seed's order" } else { "not the seed's order" })).collect();
    let jain_of = |k: usize| mean(&rates[k].iter().map(|s| sim::jain_index(s)).collect::<Vec<_>>());
    let jain: Vec<String> = ROWS
        .iter()
        .enumerate()
        .filter(|(_, r)| r.one_interval())
        .map(|(k, r)| format!("row {} {:.4} (seed {:.4})", k + 1, jain_of(k), sim::jain_index(&r.seed_mbit)))
        .collect();
    let more_even: Vec<String> = (0..ROWS.len())
        .filter(|&k| ROWS[k].one_interval() && rates[k].iter().all(|s| sim::jain_index(s) > sim::jain_index(&ROWS[k].seed_mbit)))
        .map(|k| (k + 1).to_string())
        .collect();
    let more_even = if more_even.is_empty() { "none".to_string() } else { more_even.join(", ") };
    let held = |pick: &dyn Fn(&Claim) -> bool| -> (usize, usize) { (claims.iter().filter(|c| pick(c) && c.holds()).count(), claims.iter().filter(|c| pick(c)).count()) };
    // Table 1's rows among those `pick` picks whose claim holds (or not).
    let rows_where = |pick: &dyn Fn(&Claim) -> bool, holds: bool| -> String {
        let rows: Vec<String> = claims.iter().filter(|c| pick(c) && c.holds() == holds).filter_map(|c| c.claim.strip_prefix("row ")?.split(':').next().map(String::from)).collect();
        if rows.is_empty() { "none".into() } else { rows.join(", ") }
    };
    let (swing_held, swing_rows) = held(&|c: &Claim| c.claim.contains("the swings are the implementation's"));
    let back_to_back_swing = claims.iter().find(|c| c.claim.starts_with(control_jitter::RANDOM_SYN_INTERVALS)).map_or("not run".to_string(), |c| format!("{}: {}", c.verdict.label(), c.ours));
    vec![
        Finding::judge(
            &format!("Table 1 row 2 (§4): a shorter rate-control interval takes more bandwidth: T = 600 / 400 / 200 ms get {} Mb/s", join(&ROWS[1].seed_mbit, 0)),
            claims,
            |c| c.claim.starts_with("row 2: ") && (c.claim.contains(" above ") || c.claim.contains("as a share of the three")),
            format!(
                "Ours, the papers' law: {} Mb/s (mean over seeds), {} the order of the flows' initial rates ({} Mb/s). The law changes the rate once per T in both directions, so per second T cancels and nothing in it orders the rates by T (the rows' why). Row 2 under the other laws, RNG seed 1, one run each and not judged: {}.",
                join(&row2, 0),
                if (0..2).all(|i| (row2[i] > row2[i + 1]) == (ROWS[1].init_mbit[i] > ROWS[1].init_mbit[i + 1])) { "in" } else { "not in" },
                join(&ROWS[1].init_mbit, 0),
                others.join("; ")
            ),
        ),
        Finding::judge(
            "Conclusion and Table 1 rows 1, 3-5: with one interval the rates are \"similar\", and RTT has no effect on SABUL's self-fairness",
            claims,
            |c| c.claim.contains("one T, similar rates"),
            format!("Jain's index of the three rates, mean over seeds: {}. Ours is more even than the seed's own run, on every seed, on rows {more_even}: where the seed's shares differ, its share rows judge them.", jain.join("; ")),
        ),
        Finding::judge(
            "§3: the rate's swings are the implementation's, \"not really a defect of the SABUL congestion control algorithm\"",
            claims,
            |c| c.claim.contains("the swings are the implementation's") || c.claim.starts_with(control_jitter::RANDOM_SYN_INTERVALS),
            format!("The 2003 code's logged rate swings more than the law alone on every seed in {swing_held} of {swing_rows} rows; the rows' why splits the causes (the freeze after an ERR-driven decrease, the bookkeeping). The seed's second cause, random SYN intervals, is judged with the hosts stalling for up to 2T, so that a stalled sender can handle two SYNs together (σ/μ of the logged rate {}), and its table sets stalls under T and path jitter beside it.", back_to_back_swing),
        ),
        Finding::judge(
            "§3: the 2003 code's re-reported ERRs \"can double the apparent error rate\"",
            claims,
            |c| c.claim.contains("double the apparent error rate") || c.claim.contains("counts more error packets than packets really"),
            "The rows give the 2003 code's ERR reports per packet lost, row by row, against the seed's two.".into(),
        ),
        Finding::judge(
            "§2, figures 1-5: the sources oscillate in phase, and drop-tail's synchronisation causes it",
            claims,
            |c| c.claim.contains("oscillate in phase (mean pairwise") || c.claim.contains("drop-tail's synchronisation") || c.claim.contains(RTT_EFFECT),
            format!(
                "In phase on rows {}; not on rows {} (the rows' why gives our reading). RED on the same buffer makes them less in phase than drop-tail on every seed on rows {}, and not on rows {}. The RTT effect, row 4's flows with row 5's mixed RTTs less in phase than with their own: {}.",
                rows_where(&|c: &Claim| c.claim.contains("oscillate in phase (mean pairwise"), true),
                rows_where(&|c: &Claim| c.claim.contains("oscillate in phase (mean pairwise"), false),
                rows_where(&|c: &Claim| c.claim.contains("drop-tail's synchronisation"), true),
                rows_where(&|c: &Claim| c.claim.contains("drop-tail's synchronisation"), false),
                claims.iter().find(|c| c.claim.contains(RTT_EFFECT)).map_or("not run".to_string(), |c| format!("{} ({})", c.verdict.label(), c.ours)),
            ),
        ),
    ]
}

/// The cause of row 2's reversed ordering, with this run's figures.
/// `err_decreases`: each flow's ERR-driven decreases and rate-control intervals (seed 1).
fn row2_cause(retransmits_per_interval: &[f64], err_decreases: &[(f64, f64)], others: &[(&str, Vec<f64>)]) -> String {
    let others: Vec<String> = others.iter().map(|(name, r)| format!("{name}: {}", join(r, 0))).collect();
    format!(
        "our Gen-B ([RC] §3, checked against the spec) changes the rate once per T in both directions, up by k2·(α − ρ) and \
         down by k1·(ρ − α) + c with ρ measured over that T, so per second T cancels and nothing in the law orders the rates by T (ours keep the order of their initial \
         rates); the \
         seed's mechanism (increase signals every T, decreases with losses) needs a decrease not clocked by T, and Gen-B's \
         only one, +b after more than V = 10 loss reports since the last change, fired {} times per flow for \
         T = 600/400/200 ms (in {} rate-control intervals; RNG seed 1), on the LAN where each drop is reported once \
         ({} retransmissions per interval on average). So the rule does act here, yet the rates keep their initial order: \
         that the timer's decreases, which cancel T per second, outweigh it is our reading, not traced. Row 2 under the \
         other laws (RNG seed 1, Mb/s, T = 600/400/200): {}",
        err_decreases.iter().map(|(d, _)| format!("{d:.0}")).collect::<Vec<_>>().join(" / "),
        err_decreases.iter().map(|(_, n)| format!("{n:.0}")).collect::<Vec<_>>().join(" / "),
        join(retransmits_per_interval, 1),
        others.join("; ")
    )
}

/// The seed's figures 1-5: each flow's sending rate per 200 ms over time, log rate axis for
/// the LAN rows as in the seed's figures 1 and 2. `code` names the sender when it is not the
/// law alone (`sabul-2003`, the 2003 code whose swings the seed's figures show).
/// `code`: the file-name suffix and the title's name of the 2003 code's runs, if these are.
fn rates_over_time(k: usize, row: &Row, r: &RunResult, code: Option<(&str, &str)>) -> Figure {
    let samples = r.series.as_ref().map(|s| s.flows.as_slice()).unwrap_or_default();
    let series: Vec<Series> = (0..3)
        .map(|i| {
            let pts: Vec<(f64, f64)> = samples.iter().filter(|s| s.flow == i as u32).map(|s| (s.time, s.throughput_mbps.max(1.0))).collect();
            Series::new(Some(row.flow(i)), color(i), Style::Line { width: 2 }, pts)
        })
        .collect();
    let secs = r.summary.sim_time_s;
    // The seed's Table 1 averages, dashed in each flow's colour (one line where the row's
    // three are equal, as in rows 1 and 3), so that its ordering can be read beside ours.
    let mut series = series;
    for i in 0..3 {
        let equal_before = (0..i).any(|j| row.seed_mbit[j] == row.seed_mbit[i]);
        if equal_before {
            continue;
        }
        let all_equal = row.seed_mbit.iter().all(|&m| m == row.seed_mbit[i]);
        let label = if all_equal {
            format!("the seed's Table 1 average, each flow: {} Mb/s", num(row.seed_mbit[i]))
        } else {
            format!("the seed's Table 1 average, {}: {} Mb/s", row.hosts[i], num(row.seed_mbit[i]))
        };
        let c = if all_equal { INK } else { color(i) };
        series.push(Series::new(Some(label), c, Style::Dashed, vec![(0.0, row.seed_mbit[i]), (secs, row.seed_mbit[i])]));
    }
    let y = if k < 2 {
        Axis::log("sending rate (Mb/s)", 10.0, 1000.0)
    } else {
        Axis::fit("sending rate (Mb/s)", 0.0, series.iter().flat_map(|s| s.points.iter().map(|p| p.1)))
    };
    Figure {
        name: format!("rates-row-{}{}", k + 1, code.map_or(String::new(), |c| format!("-{}", c.0))),
        title: format!(
            "{}Table 1 row {} (the seed's figure {}): instantaneous sending rate per 200 ms{}",
            code.map_or(String::new(), |c| format!("{}: ", c.1)),
            k + 1,
            k + 1,
            if k < 2 { ", log scale as the seed's" } else { "" }
        ),
        size: WIDE,
        panels: vec![Panel::new(Axis::new("time (s)", 0.0, secs), y, series).legend_outside()],
    }
}

/// A run's loss bookkeeping: the lost numbers its senders counted toward their loss rates, and
/// the packets the link really dropped (the three flows' data; control travels the reverse
/// path, which drops nothing).
#[derive(Clone, Copy, Debug)]
struct ErrCount {
    counted: f64,
    lost: f64,
    /// The three flows' rate-control intervals, those whose ERRs outnumbered the packets sent
    /// (loss rate 1, logged rate above the rate sent), the packets those logged but never
    /// sent, and all packets sent.
    intervals: f64,
    errs_exceed_sent: f64,
    logged_unsent: f64,
    sent: f64,
    /// σ/μ of each flow's sending rate over 200 ms samples after [`SETTLE_S`], mean of the
    /// three: how much the rate sent swings.
    swing: f64,
    /// The same of the rate each sender logged ([`logged_swing`]).
    logged_swing: f64,
    /// Rate decreases a loss report drove (Gen-B's +b after more than V = 10 reports), per
    /// flow: the only decreases the freeze follows.
    err_decreases: f64,
}

impl ErrCount {
    fn of(r: &RunResult) -> ErrCount {
        let sum = |f: fn(&sim::results::FlowSummary) -> u64| r.summary.flows.iter().map(|x| f(x) as f64).sum();
        ErrCount {
            counted: sum(|f| f.losses_counted),
            lost: r.summary.link.drops as f64,
            intervals: sum(|f| f.rate_intervals),
            errs_exceed_sent: sum(|f| f.intervals_errs_exceed_sent),
            logged_unsent: sum(|f| f.packets_logged_unsent),
            sent: sum(|f| f.segments_sent),
            swing: rate_swing(r),
            logged_swing: logged_swing(r),
            err_decreases: sum(|f| f.err_decreases) / r.summary.flows.len().max(1) as f64,
        }
    }

    /// The apparent error rate over the real one: both are over the packets sent, so the
    /// ratio of the counts.
    fn inflation(&self) -> f64 {
        self.counted / self.lost
    }
}

/// "It can double the apparent error rate": two reports per loss, where the nearest other
/// counts are one (no re-report) and three, so the band is halfway to each.
const DOUBLE: (f64, f64) = (1.5, 2.5);

/// Whether a repair can outlast `RTT_est` on this row without the freeze: a retransmission
/// arrives at most an RTT plus a full one-BDP buffer (another RTT) after its report, so only
/// where `2·RTT > RTT_est` can a loss be re-reported. On the LAN rows `RTT_est` is its 20 ms
/// floor against at most 0.4 ms; on the Abilene rows it is 1.5·RTT against 2·RTT.
fn re_reports_possible(row: &Row) -> bool {
    row.rtt_ms.iter().any(|&r| 2.0 * r > rtt_est_ms(r))
}

/// `RTT_est` (ms), the receiver's hold-off between reports of one loss, at `rtt_ms`.
fn rtt_est_ms(rtt_ms: f64) -> f64 {
    SabulConfig::default().receiver_params().rtt_est(Time::from_secs_f64(rtt_ms / 1e3)).as_secs_f64() * 1e3
}

/// Seed 001 §3: the 2003 sender "does not check whether the associated packet has already been
/// retransmitted. It just adds the number of packets to the number of error packets and
/// considers it loss total. This action, it can double the apparent error rate." Every row
/// again with the 2003 code's bookkeeping (`sabul-2003`), on every seed: its ERR count against
/// the packets the link dropped; and, to find what sets the excess, the same with the code's
/// freeze (a pause of one T after an epoch's first decrease) off. `paper` holds the main
/// runs' counts (`sabul`, each number counted once), the control.
/// Also returns the note on the LAN rows, where no loss can be re-reported.
fn err_count(opts: &Options, secs: u64, seeds: u64, paper: &[Vec<ErrCount>]) -> Result<(Vec<Table>, Vec<Claim>, Vec<PlotFiles>, String), UserError> {
    let mut figures = Vec::new();
    let mut t = Table::new(
        "the 2003 code's ERR count against the packets really lost: apparent / real error rate (mean, min-max over seeds)",
        &[
            "row",
            "RTT (ms)",
            "RTT_est (ms)",
            "T (ms)",
            "packets lost",
            "ERR count, sabul-2003",
            "sabul-2003",
            "sabul-2003, freeze off",
            "sabul (paper's count)",
            "intervals with ERRs > sent (loss = 1), sabul-2003",
            "packets logged, never sent",
            "ERR-driven decreases per flow: sabul / sabul-2003",
        ],
    );
    let mut claims = Vec::new();
    let mut lan_decreases: Vec<(usize, f64, f64)> = Vec::new();
    let mut swing_claims = Vec::new();
    let (mut all_counted, mut all_lost, mut long_haul) = (Vec::new(), Vec::new(), Vec::new());
    // §3's two observations, row by row, with the code's freeze and without it.
    // In the sweep table's order: off, the code's 10 ms, the swept lengths, one T.
    let mut settings: Vec<FreezeSetting> = std::iter::once(FreezeSetting::new("off", None))
        .chain(std::iter::once(FreezeSetting::new(&format!("{CODE_SYN_MS} ms (the code's SYN interval)"), Some(CODE_SYN_MS))))
        .chain(freeze_sweep_ms(opts).iter().map(|&l| FreezeSetting::new(&format!("{l} ms"), Some(l))))
        .chain(std::iter::once(FreezeSetting::new(&format!("one T ({SAMPLE_MS} ms)"), Some(SAMPLE_MS))))
        .collect();
    let range = |xs: &[f64]| Summary::of(xs).map_or("-".to_string(), |s| format!("{:.2} ({:.2}-{:.2})", s.mean, s.min, s.max));
    for (k, row) in ROWS.iter().enumerate() {
        let runs = |freeze: bool, freeze_ms: Option<u64>, name: &str| -> Result<Vec<RunResult>, UserError> {
            (1..=seeds)
                .map(|seed| run_one(config(row, secs, seed, &Sender::Code2003 { freeze, freeze_ms }), &opts.out.join(format!("row-{}-{name}/seed-{seed}", k + 1))))
                .collect()
        };
        let count = |rs: Vec<RunResult>| rs.iter().map(ErrCount::of).collect::<Vec<_>>();
        let code_runs = runs(true, None, "sabul-2003")?;
        figures.push(rates_over_time(k, row, &code_runs[0], Some(("sabul-2003", "The 2003 code (its ERR re-reports and 200 ms freeze)"))).write(&opts.out.join("plots"))?);
        let (code, unfrozen) = (count(code_runs), count(runs(false, None, "sabul-2003-no-freeze")?));
        let ratios = |c: &[ErrCount]| c.iter().map(ErrCount::inflation).collect::<Vec<_>>();
        let est: Vec<f64> = row.rtt_ms.iter().map(|&r| rtt_est_ms(r)).collect();
        t.row(vec![
            (k + 1).to_string(),
            join(&row.rtt_ms, 1),
            join(&est, 0),
            row.t_ms.iter().map(u64::to_string).collect::<Vec<_>>().join(" / "),
            format!("{:.0}", mean(&code.iter().map(|c| c.lost).collect::<Vec<_>>())),
            format!("{:.0}", mean(&code.iter().map(|c| c.counted).collect::<Vec<_>>())),
            range(&ratios(&code)),
            range(&ratios(&unfrozen)),
            range(&ratios(&paper[k])),
            format!("{:.0} of {:.0}", mean(&code.iter().map(|c| c.errs_exceed_sent).collect::<Vec<_>>()), mean(&code.iter().map(|c| c.intervals).collect::<Vec<_>>())),
            format!("{:.0}", mean(&code.iter().map(|c| c.logged_unsent).collect::<Vec<_>>())),
            format!("{:.1} / {:.1}", mean(&paper[k].iter().map(|c| c.err_decreases).collect::<Vec<_>>()), mean(&code.iter().map(|c| c.err_decreases).collect::<Vec<_>>())),
        ]);
        if !re_reports_possible(row) {
            lan_decreases.push((k, mean(&paper[k].iter().map(|c| c.err_decreases).collect::<Vec<_>>()), mean(&code.iter().map(|c| c.err_decreases).collect::<Vec<_>>())));
        }
        // The seed's swings are in the rate its implementation measured and logged ("sharp
        // increase and decrease in the measured sending rate"): the packets counted as sent
        // (ERRs where they outnumber them) over the time between two SYNs. Ours log that rate
        // too; judged on it, the 2003 code against the law alone, seed by seed.
        let of = |c: &[ErrCount], f: fn(&ErrCount) -> f64| c.iter().map(f).collect::<Vec<_>>();
        let logged = |c: &[ErrCount]| of(c, |x| x.logged_swing);
        let sent = |c: &[ErrCount]| of(c, |x| x.swing);
        let claim = Claim::direction(
            &format!("row {}: the swings are the implementation's, \"not really a defect of the SABUL congestion control algorithm\" (σ/μ of the logged rate per 200 ms: higher with the 2003 code than with the law alone)", k + 1),
            "\"a problem with SABUL implementation\": \"sharp increase and decrease in the measured sending rate\"",
            ("the 2003 code", &logged(&code)),
            ("the law alone", &logged(&paper[k])),
            "",
        );
        let parts = format!(
            "σ/μ of the logged rate: {} with the 2003 code, {} with its bookkeeping alone (freeze off), {} with the law alone; of the rate sent: {}, {} and {} (means over seeds)",
            num(mean(&logged(&code))),
            num(mean(&logged(&unfrozen))),
            num(mean(&logged(&paper[k]))),
            num(mean(&sent(&code))),
            num(mean(&sent(&unfrozen))),
            num(mean(&sent(&paper[k])))
        );
        swing_claims.push(claim.because(&format!(
            "{parts}. The logged rate swings as the rate sent does: what swings it here are real pauses in sending. The seed names two causes: ERRs counted as packets sent, and the interval measured between two SYNs as the sender processes them, which a busy sender makes random. `sabul-2003` measures between SYN arrivals, but the SYNs of these runs cross a return path with no queue and no jitter, and no busy sender delays them, so every interval it measures is T; on a loopback path with 0-20 ms of control-path jitter (cc's `sabul` module note) its logged rate swings twice as much as the rate it sends, but the same jitter on these rows (the probe table) leaves the logged rate at the rate sent. {}",
            swing_cause(&logged(&code), &logged(&unfrozen), &logged(&paper[k]))
        )));
        if !re_reports_possible(row) {
            continue;
        }
        all_counted.extend(code.iter().map(|c| c.counted));
        all_lost.extend(code.iter().map(|c| c.lost));
        long_haul.push((k + 1).to_string());
        let c = Claim::band(
            &format!("row {}: re-reported ERRs double the apparent error rate (sabul-2003's ERR count / packets lost: reports per loss)", k + 1),
            &ratios(&code),
            DOUBLE,
            "",
            "\"it can double the apparent error rate\": two reports per loss, to the nearest whole report",
        );
        let (frozen, thawed) = (mean(&ratios(&code)), mean(&ratios(&unfrozen)));
        let (t_lo, t_hi) = (row.t_ms.iter().min().copied().unwrap_or(0), row.t_ms.iter().max().copied().unwrap_or(0));
        let lengthened = if t_lo == t_hi {
            format!("T = {t_lo} ms, against the code's 10 ms, lengthened {} times", t_lo / 10)
        } else {
            format!("T = {t_lo}-{t_hi} ms, against the code's 10 ms, lengthened {} to {} times", t_lo / 10, t_hi / 10)
        };
        let why = format!(
            "A loss is reported at once and again every RTT_est ({} ms here, on the 20 ms ERR tick) until its retransmission arrives, and the 2003 sender counts every report. After an epoch's first ERR-driven decrease (Gen-B's +b after more than V = 10 ERR packets, re-reports included) the code freezes the sender for one T ({} ms), {}: {:.2} reports per loss with the freeze, {:.2} without it (mean over seeds). The seed's \"double\" is one re-report per loss, a repair within two RTT_est; {}",
            join(&est, 0),
            row.t_ms.iter().map(u64::to_string).collect::<Vec<_>>().join(" / "),
            if est.iter().zip(row.t_ms).all(|(e, t)| (t as f64) > *e) { "longer than RTT_est, so losses reported as it freezes wait out the freeze and are re-reported meanwhile" } else { "no longer than RTT_est" },
            frozen,
            thawed,
            if thawed <= DOUBLE.1 && frozen > DOUBLE.1 {
                format!("without the freeze ours is within it, so the excess is the freeze, which the seed's test made longer ({lengthened}). Whether the seed's runs froze for a whole T we cannot tell: the seed does not say.")
            } else if thawed > DOUBLE.1 {
                "ours exceeds it even without the freeze: here a repair outlasts two RTT_est on average without it too.".into()
            } else if frozen >= DOUBLE.0 {
                "ours is within it.".into()
            } else {
                "ours falls short of it: few repairs here outlast RTT_est.".into()
            }
        );
        let short = count(runs(true, Some(CODE_SYN_MS), "sabul-2003-freeze-10ms")?);
        let lengths: Vec<Vec<ErrCount>> = settings[2..settings.len() - 1]
            .iter()
            .map(|f| runs(true, f.ms, &format!("sabul-2003-freeze-{}ms", f.ms.unwrap_or(0))).map(count))
            .collect::<Result<_, _>>()?;
        let last = settings.len() - 1;
        for (i, f) in settings.iter_mut().enumerate() {
            let runs = match i {
                0 => &unfrozen,
                1 => &short,
                i if i == last => &code,
                i => &lengths[i - 2],
            };
            f.add(k, runs);
        }
        claims.push(c.because(&why));
        claims.push(loss_one(k, &code, &unfrozen));
    }
    let rows = long_haul.join(", ");
    let seed = "\"it can double the apparent error rate\" and \"when the number of packets sent is less than the number of error packets\"";
    // What failed under each setting, read off its parts, and the cause where the pattern is
    // the one the freeze explains.
    let failing = |parts: &[(String, Claim)], part: &str| parts.iter().filter(|(l, c)| l.ends_with(part) && !c.holds()).count();
    let per_row = long_haul.len();
    let (doubles, exceeds) = ("reports per loss", "intervals with ERRs > sent");
    let (thawed_parts, short_parts, frozen_parts) = (&settings[0].parts, &settings[1].parts, &settings[settings.len() - 1].parts);
    let opposite = failing(frozen_parts, doubles) == per_row && failing(frozen_parts, exceeds) == 0 && failing(thawed_parts, doubles) == 0 && failing(thawed_parts, exceeds) == per_row;
    // Under each setting what failed, read off its parts, and the cause where the pattern is
    // the one the freeze explains: the note of the one verdict on all settings below.
    let mut settings_why = String::new();
    if opposite {
        settings_why.push_str("With a freeze of one T (200 ms here) and without one, the two observations ask opposite things of it: re-reports pile up while the sender is frozen, so with it a loss is reported more than twice, and the intervals whose ERRs outnumber the packets sent are the frozen ones, so without it there are none.");
        if failing(short_parts, exceeds) == per_row {
            settings_why.push_str(&format!(" A sender frozen for the code's {CODE_SYN_MS} ms of a 200 ms interval still sends through most of it, so no interval's ERRs outnumber its packets either."));
        }
        settings_why.push_str(" The seed does not say how its runs set the freeze.");
    }
    let (sweep_table, sweep_claim) = freeze_sweep(&rows, seed, &settings, &settings_why);
    claims.push(sweep_claim);
    claims.insert(
        0,
        Claim::direction_over(
            &format!("where a repair can outlast RTT_est (rows {}), the 2003 code counts more error packets than packets really lost", long_haul.join(", ")),
            "\"the number of error packets received from the receiver is sometimes higher than the actual number of packets lost\"",
            ("ERR count", &all_counted),
            ("packets lost", &all_lost),
            "packets",
            crate::verdict::Runs::LinksAndSeeds,
        ),
    );
    claims.extend(swing_claims);
    Ok((vec![t, sweep_table], claims, figures, lan_note(&lan_decreases)))
}

/// The freeze lengths swept between the code's own SYN interval (10 ms) and one T (200 ms),
/// full mode only: they cost 12 runs per seed.
const FREEZE_SWEEP_MS: [u64; 4] = [20, 50, 100, 150];

fn freeze_sweep_ms(opts: &Options) -> &'static [u64] {
    if opts.fast {
        &[]
    } else {
        &FREEZE_SWEEP_MS
    }
}

/// The 2003 code under one setting of its freeze, over the rows where a loss can be
/// re-reported: §3's two observations as claims per row, and their means over seeds.
struct FreezeSetting {
    name: String,
    /// The freeze's length; `None` for the freeze off.
    ms: Option<u64>,
    /// Per row: "row k, reports per loss" and "row k, intervals with ERRs > sent".
    parts: Vec<(String, Claim)>,
    /// Per row: mean reports per loss and mean intervals with ERRs > sent per run.
    means: Vec<(f64, f64)>,
}

impl FreezeSetting {
    fn new(name: &str, ms: Option<u64>) -> FreezeSetting {
        FreezeSetting { name: name.into(), ms, parts: Vec::new(), means: Vec::new() }
    }

    /// Row `k`'s runs under this setting: "double" as 1.5 to 2.5 reports per loss, "ERRs
    /// outnumber the packets sent" as at least one such interval on every seed.
    fn add(&mut self, k: usize, runs: &[ErrCount]) {
        let reports: Vec<f64> = runs.iter().map(ErrCount::inflation).collect();
        let exceed: Vec<f64> = runs.iter().map(|c| c.errs_exceed_sent).collect();
        self.means.push((mean(&reports), mean(&exceed)));
        self.parts.push((format!("row {}, reports per loss", k + 1), Claim::band("", &reports, DOUBLE, "", "")));
        self.parts.push((format!("row {}, intervals with ERRs > sent", k + 1), Claim::bound("", "", &exceed, Bound::AtLeast(1.0), "intervals")));
    }

    fn both(&self) -> bool {
        self.parts.iter().all(|(_, c)| c.holds())
    }

    fn column(&self, which: fn(&(f64, f64)) -> f64) -> String {
        self.means.iter().map(|m| format!("{:.2}", which(m))).collect::<Vec<_>>().join(" / ")
    }
}

/// §3's two observations against the length of the 2003 code's freeze: for each setting (off,
/// 10 ms, the swept lengths in full mode, one T) the mean reports per loss and intervals whose
/// ERRs outnumber the packets sent, row by row, and whether both hold at once; and one claim,
/// that some setting gives both ([`Claim::any_setting`]): a setting picked for giving them is
/// fitted to the observations, so where one does the verdict is *fitted*; where none does, it
/// does not hold. (Each part under the code's own setting, one T, has its own row above; the
/// settings are judged together here once, not once each.) `why` explains the pattern.
fn freeze_sweep(rows: &str, seed: &str, settings: &[FreezeSetting], why: &str) -> (Table, Claim) {
    let mut t = Table::new(
        &format!("§3's two observations against the length of the 2003 code's freeze, rows {rows} (mean over seeds; both hold at once where every row has 1.5 to 2.5 reports per loss and at least one interval with ERRs > sent on every seed)"),
        &["freeze", "reports per loss, each row", "intervals with ERRs > sent per run, each row", "both at once"],
    );
    for f in settings {
        t.row(vec![f.name.clone(), f.column(|m| m.0), f.column(|m| m.1), if f.both() { "yes" } else { "no" }.into()]);
    }
    let frozen = &settings[1..];
    let lengths = frozen.iter().filter_map(|f| f.ms).map(|l| l.to_string()).collect::<Vec<_>>().join(", ");
    let claim = format!("rows {rows}: some setting of the 2003 code's freeze, off or from its {CODE_SYN_MS} ms to one T, gives both of §3's observations at once, re-reports doubling the apparent error rate (1.5 to 2.5 reports per loss) and intervals whose ERRs outnumber the packets sent (at least one on every seed) (lengths tried: {lengths} ms)");
    let options: Vec<(String, Claim)> = settings.iter().map(|f| (f.name.clone(), Claim::all_of("", seed, &f.parts))).collect();
    // Row by row: the lengths giving both there, or where ERRs first outnumber the packets
    // sent and how often a loss is reported by then.
    let mut per_row = Vec::new();
    let mut past_double = true;
    for (j, (label, _)) in settings[0].parts.iter().step_by(2).enumerate() {
        let row = label.split(',').next().unwrap_or(label);
        let held = |f: &FreezeSetting, part: usize| f.parts[2 * j + part].1.holds();
        let giving: Vec<&str> = frozen.iter().filter(|f| held(f, 0) && held(f, 1)).map(|f| f.name.as_str()).collect();
        per_row.push(if !giving.is_empty() {
            format!("{row}: both with {}", giving.join(", "))
        } else if let Some(f) = frozen.iter().find(|f| held(f, 1)) {
            past_double &= f.means[j].0 > DOUBLE.1;
            format!("{row}: at no length; its ERRs first outnumber the packets sent (on every seed) at {}, where a loss is already reported {:.2} times", f.name, f.means[j].0)
        } else {
            past_double = false;
            format!("{row}: at no length; no length makes its ERRs outnumber the packets sent on every seed")
        });
    }
    let why = format!(
        "no setting gives both on every row. {why} Row by row, over the freeze lengths: {}.{}",
        per_row.join("; "),
        if past_double {
            " Where a row fails, the freeze that stops a flow for enough of an interval that its ERRs outnumber what it sent also leaves its losses unrepaired for that long, to be re-reported meanwhile."
        } else {
            ""
        }
    );
    let c = Claim::any_setting(&claim, seed, &options);
    let c = if c.verdict == Verdict::DoesNotHold { c.because(&why) } else { c };
    (t, c)
}

/// Seed 001 §3 on the 2003 code's `SentInInterval ← max(SentInInterval, LocalERR)`: "When the
/// number of packets sent is less than the number of error packets, SABUL sender sets the loss
/// rate to one", and the rate it logs, packets counted over the interval, "to have a higher
/// value than its actual one". Held when such intervals occur on every seed of the row; the
/// same runs with the code's freeze off show what brings them about.
fn loss_one(k: usize, code: &[ErrCount], unfrozen: &[ErrCount]) -> Claim {
    let per_seed: Vec<f64> = code.iter().map(|c| c.errs_exceed_sent).collect();
    let c = Claim::bound(
        &format!("row {}: intervals where the ERRs outnumber the packets sent, so that the 2003 code sets the loss rate to one and logs a rate above the one sent (sabul-2003, the three flows)", k + 1),
        "\"sets the loss rate to one\"; \"the sending rate to have a higher value than its actual one\"",
        &per_seed,
        Bound::AtLeast(1.0),
        "intervals",
    );
    let total = |f: fn(&ErrCount) -> f64| code.iter().map(f).sum::<f64>();
    let thawed = mean(&unfrozen.iter().map(|c| c.errs_exceed_sent).collect::<Vec<_>>());
    c.because(&format!(
        "{:.1} % of the flows' rate-control intervals; their logged rates counted {:.0} packets never sent per run, {:.2} % of all sent. With the code's freeze off (same seeds) {}",
        100.0 * total(|c| c.errs_exceed_sent) / total(|c| c.intervals).max(1.0),
        total(|c| c.logged_unsent) / code.len().max(1) as f64,
        100.0 * total(|c| c.logged_unsent) / total(|c| c.sent).max(1.0),
        if thawed == 0.0 {
            "there are none: they are the frozen intervals, in which the sender sends next to nothing while the reports and re-reports of the losses that set off the decrease keep arriving".to_string()
        } else {
            format!("there are {thawed:.1} per run, so the freeze is not their only cause")
        }
    ))
}

/// Seed 001 §2 (4): the receiver sends ERRs "(ii) periodically every 1.5 * RTT second". Our
/// receiver re-sends a missing number once it was last reported more than `RTT_est` ago,
/// checked on the code's ERR tick (spec §1.2: `RTT_est` = 1.5·RTT above 20 ms, else 20 ms;
/// the tick every 20 ms). A number first reported between two ticks is re-sent at the first
/// tick past `RTT_est`, later ones ⌊RTT_est/tick⌋ + 1 ticks apart, so every interval lies in
/// (`RTT_est`, `RTT_est` + one tick], and so does every mean of them: each seed's mean, per
/// flow, is checked against both ends. `RTT_est` is taken from the row's RTT; the receiver
/// measures it at the handshake, which adds a packet's serialisation, 12 µs at 1 Gbit/s.
/// Where no number stays missing past `RTT_est` (the LAN rows, whose repairs take well under
/// a millisecond) there is nothing to time.
fn err_interval(k: usize, row: &Row, per_seed: &[Vec<Option<f64>>]) -> Vec<Claim> {
    let params = SabulConfig::default().receiver_params();
    let tick = params.err.as_secs_f64() * 1e3;
    let mut claims = Vec::new();
    let mut none = Vec::new();
    for (i, &rtt) in row.rtt_ms.iter().enumerate() {
        let claim = format!("row {}, {} (RTT {rtt} ms): the receiver re-reports a missing packet every 1.5·RTT (\"periodically every 1.5 * RTT second\"): the mean time between two ERRs listing one number", k + 1, row.hosts[i]);
        let est = rtt_est_ms(rtt);
        let seed = format!("1.5·RTT = {} ms", num(1.5 * rtt));
        let ours: Vec<f64> = per_seed.iter().filter_map(|s| s.get(i).copied().flatten()).collect();
        if ours.is_empty() {
            none.push(row.hosts[i]);
            continue;
        }
        if ours.len() < per_seed.len() {
            claims.push(Claim::not_comparable(&claim, seed, format!("re-reports on {} of {} seeds", ours.len(), per_seed.len()), "on the other seeds no number stayed missing past RTT_est, so there is no interval to time on every seed"));
            continue;
        }
        let on_tick = ((est / tick).floor() + 1.0) * tick;
        let parts = [
            ("above RTT_est".to_string(), Claim::bound(&claim, "", &ours, Bound::AtLeast(est), "ms")),
            ("within a tick of it".to_string(), Claim::bound(&claim, "", &ours, Bound::AtMost(est + tick), "ms")),
        ];
        let mut c = Claim::all_of(&claim, &seed, &parts);
        let m = mean(&ours);
        c.ours = format!("{} ({:+.1} % on 1.5·RTT)", Summary::of(&ours).map_or("-".into(), |s| crate::verdict::spread(&s, "ms")), 100.0 * (m / (1.5 * rtt) - 1.0));
        c.test = format!("every seed's mean in ({}, {}] ms: above RTT_est and at most one {} ms ERR tick beyond", num(est), num(est + tick), num(tick));
        claims.push(c.check(&format!(
            "our receiver's ERR timer against the rule the seed and the spec state; the seed's \"1.5 * RTT\" leaves out the code's {} ms ERR tick: a number is re-sent at the first tick past RTT_est = {} ms, and once on the tick every {} ms, so ours comes later than 1.5·RTT by up to a tick",
            num(tick),
            num(est),
            num(on_tick)
        )));
    }
    if none.len() == row.rtt_ms.len() {
        let est = row.rtt_ms.iter().map(|&r| rtt_est_ms(r)).fold(0.0, f64::max);
        claims.push(Claim::not_comparable(
            &format!("row {}: the receiver re-reports a missing packet every 1.5·RTT (\"periodically every 1.5 * RTT second\")", k + 1),
            format!("1.5·RTT = {} ms", join(&row.rtt_ms.map(|r| 1.5 * r), 2)),
            "no re-report on any seed".into(),
            &format!("nothing to time: no number stayed missing past RTT_est, {} ms here (the receiver's 20 ms floor, which the seed's 1.5·RTT leaves out), as the repairs come within about an RTT ({} ms)", num(est), join(&row.rtt_ms, 1)),
        ));
    } else if !none.is_empty() {
        claims.push(Claim::not_comparable(
            &format!("row {}, {}: the receiver re-reports a missing packet every 1.5·RTT", k + 1, none.join(", ")),
            "1.5·RTT".into(),
            "no re-report on any seed".into(),
            "nothing to time: no number of these flows stayed missing past RTT_est",
        ));
    }
    claims
}

/// The note on the rows with no ERR verdict.
fn lan_note(decreases: &[(usize, f64, f64)]) -> String {
    let lan: Vec<String> = ROWS.iter().enumerate().filter(|(_, r)| !re_reports_possible(r)).map(|(k, _)| (k + 1).to_string()).collect();
    let fired: Vec<String> = decreases.iter().map(|(k, law, code)| format!("row {}: {law:.1} with the law alone, {code:.1} with the 2003 code", k + 1)).collect();
    format!(
        "The ERR-count verdicts cover the rows where a loss can be re-reported: a retransmission comes at most an RTT plus a full one-BDP buffer after its report, and only where that exceeds RTT_est (1.5·RTT, or 20 ms below 20 ms) can the receiver report it again. On rows {} RTT_est is its 20 ms floor against at most 0.4 ms, so the count can exceed the losses only through a freeze, which follows an ERR-driven decrease (Gen-B's +b after more than V = 10 reports since the last change). Those fired per flow (mean over seeds; {}); the table shows these rows as the control.",
        lan.join(" and "),
        fired.join("; ")
    )
}

/// Which part of the 2003 code swings its logged rate, from the logged rate's σ/μ on each
/// seed with the code, with its bookkeeping alone (freeze off) and with the law alone: a part
/// raises the swing where the 95 % confidence interval of the mean difference per seed
/// ([`difference_interval`]) lies above zero.
fn swing_cause(code: &[f64], bookkeeping: &[f64], law: &[f64]) -> &'static str {
    let raises = |a: &[f64], b: &[f64]| difference_interval(a, b).is_some_and(|(lo, _)| lo > 0.0);
    match (raises(bookkeeping, law), raises(code, bookkeeping)) {
        (true, true) => "Both parts raise it (95 % intervals of the mean difference per seed above zero): the ERR bookkeeping over the law, and the freeze over the bookkeeping.",
        (true, false) => "The ERR bookkeeping raises it (the 95 % interval of the mean difference per seed above zero); the freeze does not show to.",
        (false, true) => "The bookkeeping alone does not show to raise it (the 95 % interval of its mean difference per seed from the law's reaches zero); the freeze after an ERR-driven decrease does, a part of the code the seed does not name among its causes.",
        (false, false) => "Neither the bookkeeping nor the freeze shows to raise it (95 % intervals of the mean differences per seed reach zero).",
    }
}

/// σ/μ of each flow's sending rate (200 ms samples after [`SETTLE_S`]), averaged over the flows.
fn rate_swing(r: &RunResult) -> f64 {
    swing(r, |s| Some(s.throughput_mbps))
}

/// σ/μ of the rate each flow's sender logged (its last rate-control interval's packets
/// counted as sent over the interval, read every 200 ms after [`SETTLE_S`]), averaged over
/// the flows: the "measured sending rate" the seed's figures plot.
fn logged_swing(r: &RunResult) -> f64 {
    swing(r, |s| s.logged_rate_mbps)
}

/// σ/μ of `value` over each flow's samples after [`SETTLE_S`], averaged over the flows.
fn swing(r: &RunResult, value: fn(&FlowSample) -> Option<f64>) -> f64 {
    let samples = r.series.as_ref().map(|s| s.flows.as_slice()).unwrap_or_default();
    let flows = r.summary.flows.len() as u32;
    mean(
        &(0..flows)
            .filter_map(|i| Summary::of(&samples.iter().filter(|s| s.flow == i && s.time > SETTLE_S).filter_map(value).collect::<Vec<_>>()))
            .map(|s| s.sd / s.mean)
            .collect::<Vec<_>>(),
    )
}

/// The share of the link's samples after [`SETTLE_S`] in which it ran below 90 % of its rate.
fn share_below_90(r: &RunResult) -> f64 {
    let link: Vec<_> = r.series.as_ref().map(|s| s.link.iter().filter(|l| l.time > SETTLE_S).collect()).unwrap_or_default();
    link.iter().filter(|l| l.utilization < 0.9).count() as f64 / link.len().max(1) as f64
}

/// Our three flows start together, so their rate-control timers fire at the same instants
/// every T, while the seed's hosts (fast1-3, fasttcp) started theirs independently: unrelated
/// phases. Rows 3-5 again with the flows started T/3 apart, the phases farthest from lockstep
/// (flow i at i·T/3): whether the flows still "oscillate in phase" (then the cause is the
/// network's, as the seed says: drop-tail), and, as the intervention the seed's "synchronized
/// behavior ... can reduce the overall throughput of the system" asks for, the link's
/// utilisation with the flows' cuts apart against with them together, on each seed. The
/// throughput claim can be judged only where spreading the timers does part the flows (their
/// rate correlation lower on every seed); elsewhere the runs do not vary the synchronisation.
/// `lockstep` holds the main runs' rate correlations, utilisations and loss correlations.
/// Returns the claims and, per row, the mean rate correlation and utilisation (%) apart.
fn timer_phases(opts: &Options, secs: u64, seeds: u64, lockstep: (&[Vec<f64>], &[Vec<f64>], &[Vec<f64>])) -> Result<(Vec<Claim>, Vec<Option<(f64, f64)>>), UserError> {
    let (in_phase, utilisation, lose_together) = lockstep;
    let mut claims = Vec::new();
    let mut apart = vec![None; ROWS.len()];
    for k in IN_PHASE_ROWS {
        let row = &ROWS[k];
        let (mut corr, mut util, mut losses) = (Vec::new(), Vec::new(), Vec::new());
        for seed in 1..=seeds {
            let mut cfg = config(row, secs, seed, &Sender::Paper(SabulLawConfig::default()));
            for (i, f) in cfg.flows.iter_mut().enumerate() {
                f.start = Time::from_micros(row.t_ms[i] * 1000 * i as u64 / 3);
            }
            let r = run_one(cfg, &opts.out.join(format!("row-{}-timers-apart/seed-{seed}", k + 1)))?;
            corr.push(in_phase_correlation(&r));
            util.push(100.0 * r.summary.link.utilization);
            losses.push(loss_correlation(&r));
        }
        apart[k] = Some((mean(&corr), mean(&util)));
        let figure = format!("figure {}: \"sources oscillate in phase\"", k + 1);
        let c = Claim::mean_bound(
            &format!("row {}: the three flows oscillate in phase with their rate-control timers T/3 apart (mean pairwise correlation of their 200 ms sending rates after {SETTLE_S} s)", k + 1),
            &figure,
            &corr,
            Bound::AtLeast(0.0),
            "",
        );
        let lower = corr.iter().zip(&in_phase[k]).all(|(apart, together)| apart < together);
        claims.push(c.because_unless_held(&format!(
            "with the timers together the flows' rates correlate at {:.2} (the in-phase row); started T/3 apart, at {:.2}{}. Their losses per 200 ms correlate at {:.2} apart against {:.2} together",
            mean(&in_phase[k]),
            mean(&corr),
            if lower { ", lower on every seed: part of our main runs' in-phase oscillation comes from their timers firing at the same instants" } else { "" },
            mean(&losses),
            mean(&lose_together[k])
        )));
        let claim = format!(
            "row {}: synchronisation costs throughput: the link's utilisation with the flows' timers T/3 apart above with them together",
            k + 1
        );
        let seed = "\"Synchronized behavior is an unpleasant behavior since it can reduce the overall throughput of the system\"";
        let utilisation: Vec<f64> = utilisation[k].iter().map(|u| 100.0 * u).collect();
        let parted = corr.iter().zip(&in_phase[k]).all(|(apart, together)| apart < together);
        claims.push(if parted {
            let c = Claim::direction(&claim, seed, ("apart", &util), ("together", &utilisation), "%");
            let parting = format!(
                "spreading the timers lowers the flows' rate correlation from {:.2} to {:.2} (lower on every seed)",
                mean(&in_phase[k]),
                mean(&corr)
            );
            // Utilisation counts from time 0, so the later starts (T/3 and 2T/3) count against
            // the flows apart: each late flow's delay costs the link at most its initial rate,
            // below a third of the gigabit on these rows, so the bias is at most
            // (T/3 + 2T/3)/3 of the run.
            let bias = 100.0 * (row.t_ms[1] as f64 + 2.0 * row.t_ms[2] as f64) / 3.0 / 1e3 / 3.0 / secs as f64;
            let gain = mean(&util) - mean(&utilisation);
            if c.holds() {
                c.because(&format!("{parting}, and the link gains {gain:.2} percentage points on the mean, against a bias of at most {bias:.2} the later starts put on the flows apart"))
            } else {
                c.because(&format!(
                    "{parting}, yet the link does not carry more on every seed (mean change {gain:+.2} percentage points; the later starts bias the flows apart by at most −{bias:.2}). Our reading, not traced: the cuts that coincide are those of one shared overflow, which drops from all three whatever their timers' phases"
                ))
            }
        } else {
            Claim::not_comparable(
                &claim,
                seed.into(),
                format!("rate correlation {:.2} apart against {:.2} together; utilisation {:.2} % against {:.2} %", mean(&corr), mean(&in_phase[k]), mean(&util), mean(&utilisation)),
                "spreading the timers does not lower the flows' rate correlation on every seed, so these runs do not vary the synchronisation whose cost the claim is about",
            )
        });
    }
    Ok((claims, apart))
}

/// The rows whose figures (3-5) show the flows oscillating in phase, on Abilene.
const IN_PHASE_ROWS: [usize; 3] = [2, 3, 4];

/// The start-up the in-phase measure leaves out: each flow starts at its own initial rate.
const SETTLE_S: f64 = 10.0;

/// Pearson's correlation of two flows' `series` (one value per sample after [`SETTLE_S`]),
/// averaged over the three pairs: positive when they rise and fall together, 0 when
/// independent, negative in antiphase.
fn pairwise_correlation(r: &RunResult, series: fn(&[&FlowSample]) -> Vec<f64>) -> f64 {
    use statrs::statistics::Statistics;
    let samples = r.series.as_ref().map(|s| s.flows.as_slice()).unwrap_or_default();
    let flows: Vec<Vec<f64>> = (0..3).map(|i: u32| series(&samples.iter().filter(|s| s.flow == i && s.time > SETTLE_S).collect::<Vec<_>>())).collect();
    let pearson = |a: &[f64], b: &[f64]| {
        let n = a.len().min(b.len());
        let (a, b) = (&a[..n], &b[..n]);
        a.covariance(b) / (a.std_dev() * b.std_dev())
    };
    mean(&[pearson(&flows[0], &flows[1]), pearson(&flows[0], &flows[2]), pearson(&flows[1], &flows[2])])
}

/// The words that name the RTT effect's row (its finding picks it by them).
const RTT_EFFECT: &str = "the RTT effect in the synchronisation";

/// The row whose flows have alike RTTs and the row whose mixed RTTs they are given.
const RTT_EFFECT_ROWS: (usize, usize) = (3, 4);

/// The seed's other half of the cause: "Synchronized behavior occurs due to the drop-tail
/// operations at the router, and the round trip time (RTT) effect". Row 4's flows, whose RTTs
/// are alike (57-57.5 ms), run again with row 5's mixed RTTs (23.2-57.5 ms), the same initial
/// rates, T and buffer (one BDP at the longest RTT, 57.5 ms in both): flows with alike RTTs
/// hear of a shared overflow at once, so the RTT effect has mixed RTTs take them out of phase.
fn rtt_effect(opts: &Options, secs: u64, seeds: u64, alike: &[f64]) -> Result<Claim, UserError> {
    let (row, rtts) = (&ROWS[RTT_EFFECT_ROWS.0], &ROWS[RTT_EFFECT_ROWS.1].rtt_ms);
    let mixed = (1..=seeds)
        .map(|seed| {
            let mut cfg = config(row, secs, seed, &Sender::Paper(SabulLawConfig::default()));
            for (f, &rtt) in cfg.flows.iter_mut().zip(rtts) {
                f.rtt = Time::from_secs_f64(rtt / 1e3);
            }
            run_one(cfg, &opts.out.join(format!("row-{}-rtts-of-row-{}/seed-{seed}", RTT_EFFECT_ROWS.0 + 1, RTT_EFFECT_ROWS.1 + 1))).map(|r| in_phase_correlation(&r))
        })
        .collect::<Result<Vec<f64>, UserError>>()?;
    let c = Claim::direction(
        &format!(
            "row {}: {RTT_EFFECT} (our reading: flows with alike RTTs fall into phase): the flows' in-phase correlation with their own alike RTTs ({} ms) above with row {}'s mixed ones ({} ms), the same initial rates, T and buffer",
            RTT_EFFECT_ROWS.0 + 1,
            join(&row.rtt_ms, 1),
            RTT_EFFECT_ROWS.1 + 1,
            join(rtts, 1)
        ),
        "\"Synchronized behavior occurs due to the drop-tail operations at the router, and the round trip time (RTT) effect\"",
        ("alike RTTs", alike),
        ("mixed RTTs", &mixed),
        "",
    );
    let spread = |xs: &[f64]| xs.iter().copied().fold(f64::NEG_INFINITY, f64::max) - xs.iter().copied().fold(f64::INFINITY, f64::min);
    Ok(c.because_unless_held(&format!(
        "the in-phase correlation is {:.2} with the mixed RTTs and {:.2} with the alike ones (means over seeds), {} on average. Our reading, not traced: SABUL changes its rate once per SYN interval, T = {} ms for all three, not once per RTT, so RTTs up to {:.1} ms apart move when each flow hears of a shared overflow by a fraction of the interval in which it answers",
        mean(&mixed),
        mean(alike),
        if mean(&mixed) >= mean(alike) { "as much in phase or more" } else { "less in phase, but not on every seed" },
        row.t_ms[0],
        spread(rtts)
    )))
}

/// "Sources oscillate in phase": the [`pairwise_correlation`] of the flows' sending rates per
/// 200 ms sample, the seed's figures' resolution.
fn in_phase_correlation(r: &RunResult) -> f64 {
    pairwise_correlation(r, |s| s.iter().map(|x| x.throughput_mbps).collect())
}

/// Whether the flows lose together: the [`pairwise_correlation`] of their retransmissions per
/// 200 ms sample.
fn loss_correlation(r: &RunResult) -> f64 {
    pairwise_correlation(r, |s| s.windows(2).map(|w| (w[1].retr - w[0].retr) as f64).collect())
}

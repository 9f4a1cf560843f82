//! The SharkFest talk's (seed 002) slow-start problems, measured on slow start as RFC 5681
//! has it (Reno, no HyStart; per-segment ACKs, SACK), alone on the start-up experiment's
//! links. The slide: "Questions/problems: 1. Too slow. 2. Too fast. 3. Behavior on extra-low
//! queue scenarios. 4. Spikes in queuing delay. 5. "Bad luck" drop." The first is judged with
//! the start-up table's runs in the parent module against ⌈log₂(0.9·BDP/IW)⌉ + 1.9 round trips.
//!
//! **The last round.** Slow start adds one segment per ACK, so each ACK releases two packets;
//! the ACKs come back at the bottleneck's rate C, so packets reach the queue at 2C and it
//! grows by one packet per ACK. In a round below the BDP the queue peaks at half the window;
//! in the round after the pipe fills it runs up to the buffer's limit and the rest is
//! dropped. Hence:
//!
//! - **2. Too fast**: slow start ends in an overflow: drops in its start-up window on every
//!   link and seed (a one-BDP buffer).
//! - **4. Spikes in queuing delay**: in that round the queue reaches the buffer's limit of
//!   ⌊L/w⌋ packets (L bytes, w bytes a packet), so the largest queueing delay is at least
//!   (⌊L/w⌋ − 1)·w/C, the last packet admitted behind the others: about one base RTT on one
//!   BDP, where a window of one BDP would fill the link with no queue at all.
//!
//! **The climb.** Problems 3 and 5 end slow start early, and Reno then climbs in congestion
//! avoidance by one segment per round trip. From the first congestion-avoidance sample (time
//! t_ca, window w_ca) the window reaches w₉₀ = ⌈0.9·C·R/(8·w)⌉, the window that carries 90 %
//! of the link in payload over a round trip R, after w₉₀ − w_ca rounds, and a round trip
//! later the link has carried 90 % over one:
//!
//! ```text
//!     t₉₀ = t_ca + (w₉₀ − w_ca)·R + R₀
//! ```
//!
//! with R the flow's mean RTT over the climb (a base RTT R₀ plus a packet's time τ at the
//! bottleneck and the access link, no standing queue below the BDP). Within
//! ±([`CLIMB_TOLERANCE_RTTS`] + (w₉₀ − w_ca)·τ/R₀) round trips: Linux's counter carries ACKs over
//! from slow start, so the first increase comes up to one round after t_ca; t_ca and t₉₀ are
//! read every RTT/10; and each increase sends two packets back to back, so one waits τ behind
//! the other and the packets after it in that round trip come τ later, which the RTT samples
//! catch or miss: each round's length is known to within a packet's time.
//!
//! - **3. Extra-low queue**: a buffer of [`LOW_BUFFER_BDPS`] of a BDP. The queue peaks at half
//!   the window while the window is below the BDP, so it overflows once the window passes
//!   twice the buffer, a fifth of the BDP; the window grows on until the loss is seen a round
//!   trip later, and congestion avoidance begins from half of that, a few buffers, far below
//!   the BDP: the climb law from there, and a time to 90 % above the one-BDP buffer's.
//! - **5. "Bad luck" drop**: the link drops the flow's [`BAD_LUCK_PACKET`]th packet
//!   (`link.drop_packets`), the middle of its second round, on a one-BDP buffer: slow start
//!   ends at about 15 segments (half of IW + 19 + 3 SACKed, see `sim`'s drop-list test), and
//!   the climb law gives the cost, large where the BDP is large.
//!
//! Both climbs run on links whose BDP is at most [`CLIMB_MAX_BDP`] packets: the climb takes
//! 0.9·BDP round trips, hours of simulated time at the largest BDPs. And each only where it
//! ends slow start early ([`applies`]): the tenth of a BDP must hold two packets, since each
//! increase of the climb queues one packet behind another (with one, the climb itself
//! overflows it: on 10 Mbit/s × 20 ms the window never passes ten segments); the drop must
//! come before the window fills 90 % of the link, slow start's window when it detects the
//! drop (at most 32) being below 0.9·BDP.

use super::{flow, packet_ms, rate_label, scenario, time_to_90, Row, RUN_RTTS};
use crate::experiment::run_one;
use crate::experiment::{Claim, Options, Output, Table};
use crate::verdict::{Bound, Runs};
use crate::UserError;
use cc::Time;
use sim::{QueueLimit, RunResult, SimConfig};

/// The extra-low queue: a tenth of a BDP of buffer.
pub const LOW_BUFFER_BDPS: f64 = 0.1;
/// The "bad luck" drop: the link's 20th packet, the middle of the second round (IW = 10).
pub const BAD_LUCK_PACKET: u64 = 20;
/// The climbs run on links with a BDP of at most this many packets.
pub const CLIMB_MAX_BDP: f64 = 1000.0;
/// The climb law's tolerance besides a packet's time per round: one round for the first
/// increase's phase, and a sample (a tenth of an RTT) at each end.
pub const CLIMB_TOLERANCE_RTTS: f64 = 1.2;
/// Slow start's window when it detects the [`BAD_LUCK_PACKET`]'s loss: at most IW + 19
/// delivered in order + 3 SACKed.
pub const BAD_LUCK_WINDOW: f64 = 32.0;

/// The talk's slide, quoted in every claim's seed column.
const SLIDE: &str = "\"Slow start problems\" ... \"Questions/problems\" (the talk)";

/// A packet's bytes on the wire: the MSS and the simulator's TCP/IP headers.
fn wire_bytes(cfg: &SimConfig) -> f64 {
    (cfg.flows[0].sender.mss + sim::config::TCP_HEADER_BYTES) as f64
}

/// A link's BDP in full-sized packets.
fn bdp_packets(rate_bps: f64, rtt_ms: u64) -> f64 {
    rate_bps * rtt_ms as f64 / 1e3 / (1500.0 * 8.0)
}

/// Where slow start handed over to congestion avoidance, and the climb law's time to 90 %.
#[derive(Clone, Copy, Debug)]
struct Climb {
    /// The first congestion-avoidance sample after the first loss: time (s) and window.
    t_ca: f64,
    w_ca: f64,
    /// The climb law's t₉₀ (s), and its tolerance (RTTs).
    law_s: f64,
    tolerance: f64,
}

/// The climb of flow 0 in `r` on `cfg`'s link; `None` when it never reached congestion
/// avoidance.
fn climb(cfg: &SimConfig, r: &RunResult) -> Option<Climb> {
    let s = &r.series.as_ref()?.flows;
    let first_loss = s.iter().position(|x| x.ssthresh.is_some())?;
    let ca = s[first_loss..].iter().find(|x| x.state == "cong_avoid")?;
    let (t_ca, w_ca) = (ca.time, ca.cwnd?);
    let rate = cfg.link.rate.bits_per_sec();
    let base = cfg.flows[0].rtt.as_secs_f64();
    // The climb's round trips: congestion avoidance from t_ca while the window is below the BDP.
    let bdp = rate * base / 8.0 / wire_bytes(cfg);
    let rtts: Vec<f64> = s.iter().filter(|x| x.time >= t_ca && x.state == "cong_avoid").take_while(|x| x.cwnd.is_some_and(|w| w <= bdp)).filter_map(|x| x.rtt_ms).collect();
    let round = if rtts.is_empty() { base } else { crate::stats::mean(&rtts) / 1e3 };
    let w90 = (0.9 * rate * round / (8.0 * wire_bytes(cfg))).ceil();
    let rounds = (w90 - w_ca).max(0.0);
    let tau = cfg.link.rate.tx_time(wire_bytes(cfg) as u64).as_secs_f64();
    Some(Climb { t_ca, w_ca, law_s: t_ca + rounds * round + base, tolerance: CLIMB_TOLERANCE_RTTS + rounds * tau / base })
}

/// One link's climbs, each seed's: the early end's time to 90 % (s) and climb, and the clean
/// run's on the same seed.
struct Climbs {
    rate_bps: f64,
    rtt_ms: u64,
    case: &'static str,
    runs: Vec<(Option<f64>, Option<Climb>, Option<f64>)>,
}

/// The two early ends of slow start, as a scenario change.
const CASES: [&str; 2] = ["a tenth of a BDP of buffer", "one BDP, packet 20 dropped"];

/// Whether `case` ends slow start early on `rate_bps` × `rtt_ms` (see the module doc).
fn applies(case: &str, rate_bps: f64, rtt_ms: u64) -> bool {
    let bdp = bdp_packets(rate_bps, rtt_ms);
    if case == CASES[0] {
        (LOW_BUFFER_BDPS * bdp).floor() >= 2.0
    } else {
        0.9 * bdp > BAD_LUCK_WINDOW
    }
}

fn early_end(case: &str, cfg: &mut SimConfig) {
    if case == CASES[0] {
        cfg.link.buffer = QueueLimit::Bdp(LOW_BUFFER_BDPS);
    } else {
        cfg.link.drop_packets = vec![BAD_LUCK_PACKET];
    }
}

/// Runs the climbs on `rows`' slow-start links with a small enough BDP, and adds their table,
/// the talk's problems 2-5 judged and the largest link's two climbs (seed 1) to `out`.
pub fn run(opts: &Options, rows: &[Row], out: &mut Output) -> Result<(), UserError> {
    let slow: Vec<&Row> = rows.iter().filter(|r| r.startup == "slow start").collect();
    let mut climbs = Vec::new();
    for r in slow.iter().filter(|r| bdp_packets(r.rate_bps, r.rtt_ms) <= CLIMB_MAX_BDP) {
        let rtt = Time::from_millis(r.rtt_ms);
        let bdp = bdp_packets(r.rate_bps, r.rtt_ms).ceil() as u64;
        let duration = Time(rtt.0 * (RUN_RTTS + bdp)).max(Time::from_secs(1));
        for case in CASES.into_iter().filter(|c| applies(c, r.rate_bps, r.rtt_ms)) {
            let mut runs = Vec::new();
            for (i, clean) in r.runs.iter().enumerate() {
                let seed = i as u64 + 1;
                let mut cfg = scenario(flow("slow start", rtt), r.rate_bps, duration, seed);
                early_end(case, &mut cfg);
                let dir = opts.out.join(format!("problems/{}mbit-{}ms/{}/seed-{seed}", r.rate_bps / 1e6, r.rtt_ms, case.replace(' ', "-").replace(',', "")));
                // Only the time to 90 % is read, so no second run cut at the start-up window.
                let full = run_one(cfg.clone(), &dir)?;
                let t90 = time_to_90(&full, r.rate_bps, rtt, cfg.flows[0].sender.mss);
                if seed == 1 && r.rate_bps == 100e6 && r.rtt_ms == 50 {
                    out.plot_run(&format!("slow start on 100 Mbit/s, 50 ms, {case} (RNG seed 1): Reno's climb after slow start ends early"), &dir, &full)?;
                }
                runs.push((t90, climb(&cfg, &full), clean.t90_s));
            }
            climbs.push(Climbs { rate_bps: r.rate_bps, rtt_ms: r.rtt_ms, case, runs });
        }
    }
    let rtts = |c: &Climbs, s: f64| s * 1e3 / c.rtt_ms as f64;
    let mut t = Table::new(
        "slow start's problems 3 and 5 (the talk): ended early, then Reno's climb (means over seeds)",
        &["link", "RTT", "BDP (packets)", "slow start ended by", "congestion avoidance from (RTTs)", "its window (packets)", "time to 90 % (RTTs)", "climb law (RTTs)", "one BDP, no drop (RTTs)"],
    );
    let mean = |v: Vec<f64>| if v.is_empty() { f64::NAN } else { crate::stats::mean(&v) };
    let fmt = |x: f64| if x.is_finite() { format!("{x:.1}") } else { "-".into() };
    for c in &climbs {
        t.row(vec![
            rate_label(c.rate_bps),
            format!("{} ms", c.rtt_ms),
            format!("{:.0}", bdp_packets(c.rate_bps, c.rtt_ms)),
            c.case.into(),
            fmt(mean(c.runs.iter().filter_map(|(_, k, _)| k.map(|k| rtts(c, k.t_ca))).collect())),
            fmt(mean(c.runs.iter().filter_map(|(_, k, _)| k.map(|k| k.w_ca)).collect())),
            fmt(mean(c.runs.iter().filter_map(|(t, _, _)| t.map(|s| rtts(c, s))).collect())),
            fmt(mean(c.runs.iter().filter_map(|(_, k, _)| k.map(|k| rtts(c, k.law_s))).collect())),
            fmt(mean(c.runs.iter().filter_map(|(_, _, s)| s.map(|s| rtts(c, s))).collect())),
        ]);
    }
    out.tables.push(t);
    out.claims.extend(judge(&slow, &climbs));
    Ok(())
}

fn judge(slow: &[&Row], climbs: &[Climbs]) -> Vec<Claim> {
    let mut claims = Vec::new();
    let drops: Vec<f64> = slow.iter().flat_map(|r| r.runs.iter().map(|o| o.drops)).collect();
    claims.push(
        Claim::bound_over(
            "slow start is \"Too fast\" at its end: doubling, it sends its last round at twice the link's rate and overflows a one-BDP buffer (drops in the start-up window, every link and seed)",
            &format!("{SLIDE}: \"2. Too fast.\""),
            &drops,
            Bound::AtLeast(1.0),
            "drops",
            Runs::LinksAndSeeds,
        )
        .because_unless_held("not traced"),
    );
    // The largest queueing delay over its floor (⌊L/w⌋ − 1) packet times, per link and seed.
    let spikes: Vec<f64> = slow
        .iter()
        .flat_map(|r| {
            let cfg = scenario(flow("slow start", Time::from_millis(r.rtt_ms)), r.rate_bps, Time::from_secs(1), 1);
            let packets = (cfg.queue_limit().1 as f64 / wire_bytes(&cfg)).floor();
            let floor = (packets - 1.0) * packet_ms(r.rate_bps);
            r.runs.iter().map(move |o| o.max_delay_ms / floor)
        })
        .collect();
    claims.push(
        Claim::bound_over(
            "slow start's \"Spikes in queuing delay\": its largest queueing delay in start-up over the full one-BDP buffer's, (⌊L/w⌋ − 1) packet times, about one base RTT (every link and seed)",
            &format!("{SLIDE}: \"4. Spikes in queuing delay.\""),
            &spikes,
            Bound::AtLeast(1.0),
            "",
            Runs::LinksAndSeeds,
        )
        .because_unless_held("not traced"),
    );
    for (case, problem) in CASES.iter().zip(["3. Behavior on extra-low queue scenarios.", "5. \"Bad luck\" drop."]) {
        let of: Vec<&Climbs> = climbs.iter().filter(|c| c.case == *case).collect();
        let links = of.iter().map(|c| format!("{} × {} ms", rate_label(c.rate_bps), c.rtt_ms)).collect::<Vec<_>>().join(", ");
        let seed = format!("{SLIDE}: \"{problem}\"");
        let never = f64::INFINITY;
        let (mut early, mut clean, mut off) = (Vec::new(), Vec::new(), Vec::new());
        for c in &of {
            for (t90, k, s) in &c.runs {
                early.push(t90.map_or(never, |x| x * 1e3 / c.rtt_ms as f64));
                clean.push(s.map_or(never, |x| x * 1e3 / c.rtt_ms as f64));
                off.push(match (t90, k) {
                    (Some(t), Some(k)) => (*t - k.law_s).abs() * 1e3 / c.rtt_ms as f64 / k.tolerance,
                    _ => never,
                });
            }
        }
        claims.push(Claim::direction_over(
            &format!("slow start ended early ({case}) costs time: its time to 90 % above a clean start's on one BDP ({links}, every seed)"),
            &seed,
            (case, &early),
            ("one BDP, no drop", &clean),
            "RTTs",
            Runs::LinksAndSeeds,
        ));
        let c = Claim::bound_over(
            &format!("…and Reno's climb explains the cost: time to 90 % against t_ca + (w₉₀ − w_ca)·R + R₀, one segment per round trip from where congestion avoidance began ({case}; {links}; the distance over its tolerance, every seed)"),
            &format!("{seed}; model: RFC 5681's one segment per RTT, within ±({CLIMB_TOLERANCE_RTTS} + (w₉₀ − w_ca)·τ/R₀) RTTs, τ a packet's time"),
            &off,
            Bound::AtMost(1.0),
            "",
            Runs::LinksAndSeeds,
        );
        claims.push(c.because_unless_held("not traced"));
    }
    claims
}

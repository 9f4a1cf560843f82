//! `startup`: how flows start. Slow start (RFC 5681 Reno, no HyStart), HyStart (CUBIC's
//! default, Ha & Rhee 2011 as Linux runs it), HyStart++ (RFC 9406, on CUBIC), BBR's STARTUP
//! (gain 2/ln 2) and paced chirping (Misund & Briscoe, "Paced Chirping: Rapid flow start with
//! very low queuing delay", Netdev 0x13, 2019; `cc::transport::chirp`, handing over to Reno's
//! congestion avoidance) alone on links from 10 Mbit/s to 1 Gbit/s and RTTs from 10 to 200 ms.
//!
//! Per link and start-up: the time until the flow first delivers 90 % of the link's capacity
//! over a round trip, and what the start-up costs the queue: the largest queueing delay
//! and the drops from the flow's start until four base RTTs after that time (the start-up
//! window: slow start overshoots in the round after it fills the pipe, so four RTTs hold its
//! overshoot and the loss that ends it). A second run of the same scenario cut at the window's
//! end gives both exactly (the simulator's per-packet maximum, not a sampled one). Then the
//! flow completion time of 10 KB to 10 MB transfers.
//!
//! The paper's claims beside ours:
//!
//! - "keeping the maximum delay that the new flow adds extremely low (2–3 ms over a typical
//!   Internet RTT of 20 ms)" (§I): our largest queueing delay at 20 ms;
//! - "the queue never accumulates more than a few packets" (abstract): our largest queue in
//!   packets during the start-up window, judged against one chirp (16 packets), the most a
//!   chirp can add to a queue the guard interval has drained;
//! - slow start's dilemma, "the faster a flow accelerates, the more it will overshoot the
//!   queue", which paced chirping "escapes": our largest queueing delay against slow start's;
//! - "getting a traffic flow up to speed fast": our time to 90 % against slow start's, judged by
//!   the model that chirping grows its chirps per round by the same factor 2 as slow start's
//!   window but spends its first three rounds at two chirps (up to 4 RTT more).
//!
//! And the SharkFest talk's (seed 002) slow-start problems: "Too slow", slow start's time to
//! 90 % against the law ⌈log₂(0.9·BDP/IW)⌉ + 1.9 round trips ([`slow_start_t90_rtts`]),
//! HyStart's answer to "high aggressiveness during final slow start phase" (an exit before the
//! overshoot: no drop in start-up) and HyStart++'s, judged the same way, and the other
//! four ([`problems`]: "Too fast", extra-low queues, spikes in queueing delay, the "bad
//! luck" drop).

mod problems;

use super::{run_one, Claim, Options, Output, Table};
use crate::verdict::{Bound, Runs};
use crate::plot::DelayPoint;
use crate::UserError;
use cc::algorithms::CubicConfig;
use cc::transport::{ChirpConfig, Startup};
use cc::{CcConfig, Rate, Time};
use sim::{FlowConfig, LinkConfig, QueueLimit, RunResult, SimConfig};

pub const DESCRIPTION: &str = "One flow alone on a bottleneck with a one-BDP drop-tail buffer (per-segment ACKs, \
SACK, Linux's defaults otherwise), for each start-up: slow start (`reno`, RFC 5681, no HyStart), HyStart \
(`cubic`, Linux's default), HyStart++ (`cubic` with `hystart_plus_plus`, RFC 9406), BBR's STARTUP (`bbr`) and \
paced chirping (`reno` with `startup = \"paced-chirping\"`, the prototype's constants). Links: 10, 100 and \
1000 Mbit/s by 10, 20, 50 and 200 ms (fast mode: 10 and 100 Mbit/s by 20 and 50 ms). Time to 90 %: the end of \
the first round trip over which the flow delivered 90 % of the link's capacity in payload (sampled every RTT/10, \
at least 1 ms). Start-up \
window: from the start to four base RTTs after that (the whole run if it never gets there); its largest \
queueing delay, largest queue and drops come from the same scenario run again up to the window's end. Each run \
lasts 40 RTTs (at least 1 s). Completion times: transfers of 10 KB, 100 KB, 1 MB and 10 MB on 10 Mbit/s × \
50 ms, 100 Mbit/s × 20 ms, 100 Mbit/s × 200 ms and 1 Gbit/s × 50 ms (fast mode: 10 KB to 1 MB on 100 Mbit/s \
× 50 ms), counted from the flow's start (after the handshake) to the last byte acknowledged. The senders' \
random send overhead is off (one flow has no phase effects to break); a last table shows paced chirping \
with a random ACK-processing delay of up to one packet time. The talk's slow-start problems: slow start again \
on a tenth of a BDP of buffer and with the link's 20th packet dropped (`link.drop_packets`), on the links with a \
BDP of at most 1000 packets where these end it early, run until Reno's climb reaches 90 %. Figures are means \
over 3 seeds (fast mode: 1).";

/// A chirp's packets (the prototype's `CHIRP_SIZE`): the most one chirp adds to a drained queue.
pub const CHIRP_PACKETS: u32 = 16;
/// The paper's "2–3 ms" of added queueing delay at a 20 ms RTT (§I): its upper end.
pub const PAPER_DELAY_MS: f64 = 3.0;
/// The paper's typical RTT for that figure.
pub const PAPER_RTT_MS: u64 = 20;
/// The start-up window ends this many base RTTs after the link first reaches 90 %.
pub const WINDOW_RTTS: u64 = 4;
/// A run lasts this many base RTTs (at least 1 s; a transfer: three times its time at the
/// bottleneck's rate on top).
pub const RUN_RTTS: u64 = 40;
/// Chirping may reach 90 % this many RTTs after slow start (its first three rounds hold two
/// chirps each before the number of chirps starts doubling).
pub const EXTRA_RTTS: f64 = 4.0;

/// The start-ups compared, by name.
pub const STARTUPS: [&str; 5] = ["slow start", "HyStart", "HyStart++", "BBR STARTUP", "paced chirping"];

/// The flow for start-up `name` (one of [`STARTUPS`]).
pub fn flow(name: &str, rtt: Time) -> FlowConfig {
    let cc = match name {
        "slow start" | "paced chirping" => CcConfig::from_name("reno").expect("reno"),
        "HyStart" => CcConfig::from_name("cubic").expect("cubic"),
        "HyStart++" => CcConfig::Cubic(CubicConfig { hystart: false, hystart_plus_plus: true, ..CubicConfig::default() }),
        _ => CcConfig::from_name("bbr").expect("bbr"),
    };
    let mut f = FlowConfig::new(cc, rtt);
    if name == "paced chirping" {
        f.sender.startup = Startup::PacedChirping(ChirpConfig::default());
    }
    f
}

/// One flow alone on `rate` × `rtt` with a one-BDP buffer, for `duration`, with no random send
/// overhead (`send_overhead` 0): cclab's default of up to one packet time breaks phase effects
/// between competing flows, of which one flow alone has none. ACK timing noise, which chirping's
/// per-packet delays would carry, is the [`noise`] table's.
pub fn scenario(f: FlowConfig, rate_bps: f64, duration: Time, seed: u64) -> SimConfig {
    let iv = Time((f.rtt.0 / 10).max(Time::from_millis(1).0));
    let link = LinkConfig {
        rate: Rate::from_bits_per_sec(rate_bps),
        buffer: QueueLimit::Bdp(1.0),
        send_overhead: Some(Time::ZERO),
        ..LinkConfig::default()
    };
    SimConfig { seed, duration, sample_interval: Some(iv), link, flows: vec![f] }
}

/// What one start-up did on one link.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Time to 90 % of capacity, s (`None`: never within the run).
    pub t90_s: Option<f64>,
    /// Largest queueing delay in the start-up window, ms.
    pub max_delay_ms: f64,
    /// Largest queue in the start-up window, packets.
    pub max_queue_pkts: f64,
    /// Drops in the start-up window.
    pub drops: f64,
    /// Utilisation over the run.
    pub utilisation: f64,
}

/// The end of the first round trip over which the flow delivered 90 % of what the link can
/// carry in payload (`rate·MSS/(MSS + headers)`), from the flow's cumulative delivered bytes.
/// A round trip, not one sample interval: an initial window sent at the access link's rate
/// keeps a slow link busy for a few milliseconds without the flow being near its rate.
pub fn time_to_90(r: &RunResult, rate_bps: f64, rtt: Time, mss: u64) -> Option<f64> {
    let flows = &r.series.as_ref()?.flows;
    let iv = flows.first()?.time;
    let k = ((rtt.as_secs_f64() / iv).round() as usize).max(1);
    let payload_rate = rate_bps / 8.0 * mss as f64 / (mss + sim::config::TCP_HEADER_BYTES) as f64;
    let need = 0.9 * payload_rate * k as f64 * iv;
    let at = |i: usize| if i == 0 { 0 } else { flows[i - 1].delivered_bytes };
    (k..=flows.len()).find(|&i| (at(i) - at(i - k)) as f64 >= need).map(|i| flows[i - 1].time)
}

/// Runs `cfg` (files under `dir`) and again up to its start-up window's end (under
/// `dir/startup-window`).
fn measure(cfg: SimConfig, dir: &std::path::Path) -> Result<(Outcome, RunResult), UserError> {
    let rtt = cfg.flows[0].rtt;
    let full = run_one(cfg.clone(), dir)?;
    let rate_bps = cfg.link.rate.bits_per_sec();
    let t90 = time_to_90(&full, rate_bps, rtt, cfg.flows[0].sender.mss);
    let end = t90.map_or(cfg.duration, |t| (Time::from_secs_f64(t) + Time(rtt.0 * WINDOW_RTTS)).min(cfg.duration));
    let window = if end == cfg.duration { full.clone() } else { run_one(SimConfig { duration: end, ..cfg }, &dir.join("startup-window"))? };
    let link = &window.summary.link;
    let o = Outcome {
        t90_s: t90,
        max_delay_ms: link.queue_delay_ms.max,
        max_queue_pkts: link.queue_packets.max,
        drops: link.drops as f64,
        utilisation: full.summary.link.utilization,
    };
    Ok((o, full))
}

impl Outcome {
    /// The mean over seeds; the time to 90 % only if every seed got there.
    fn mean(runs: &[Outcome]) -> Outcome {
        let n = runs.len().max(1) as f64;
        let avg = |f: fn(&Outcome) -> f64| runs.iter().map(f).sum::<f64>() / n;
        let t90: Option<Vec<f64>> = runs.iter().map(|o| o.t90_s).collect();
        Outcome {
            t90_s: t90.map(|v| v.iter().sum::<f64>() / n),
            max_delay_ms: avg(|o| o.max_delay_ms),
            max_queue_pkts: avg(|o| o.max_queue_pkts),
            drops: avg(|o| o.drops),
            utilisation: avg(|o| o.utilisation),
        }
    }
}

/// `10 Mbit/s`, `1 Gbit/s`.
fn rate_label(bps: f64) -> String {
    if bps >= 1e9 {
        format!("{} Gbit/s", bps / 1e9)
    } else {
        format!("{} Mbit/s", bps / 1e6)
    }
}

/// `10 KB`, `1 MB`.
fn size_label(bytes: u64) -> String {
    if bytes >= 1_000_000 {
        format!("{} MB", bytes / 1_000_000)
    } else {
        format!("{} KB", bytes / 1000)
    }
}

/// One link and start-up, each seed's outcome, for the claims.
struct Row {
    rate_bps: f64,
    rtt_ms: u64,
    startup: &'static str,
    runs: Vec<Outcome>,
}

pub fn run(opts: &Options) -> Result<Output, UserError> {
    let (rates, rtts, seeds): (&[f64], &[u64], u64) =
        if opts.fast { (&[10e6, 100e6], &[20, 50], 1) } else { (&[10e6, 100e6, 1e9], &[10, 20, 50, 200], 3) };
    let mut out = Output::default();
    let mut t = Table::new(
        "start-up alone on a one-BDP buffer",
        &["link", "RTT", "start-up", "time to 90 %", "in RTTs", "largest queueing delay", "largest queue", "drops in start-up", "utilisation"],
    );
    let mut rows = Vec::new();
    for &rate in rates {
        for &rtt_ms in rtts {
            let rtt = Time::from_millis(rtt_ms);
            let duration = Time(rtt.0 * RUN_RTTS).max(Time::from_secs(1));
            let mut points = Vec::new();
            for startup in STARTUPS {
                let dir = opts.out.join(format!("{}mbit-{rtt_ms}ms/{}", rate / 1e6, startup.replace(' ', "-").to_lowercase()));
                let mut runs = Vec::new();
                for seed in 1..=seeds {
                    let d = dir.join(format!("seed-{seed}"));
                    let (o, r) = measure(scenario(flow(startup, rtt), rate, duration, seed), &d)?;
                    if seed == 1 && rate == 100e6 && rtt_ms == 50 && matches!(startup, "slow start" | "paced chirping") {
                        out.plot_run(&format!("{startup} on 100 Mbit/s, 50 ms (RNG seed 1)"), &d, &r)?;
                    }
                    runs.push(o);
                }
                let o = Outcome::mean(&runs);
                let seeds_runs = runs.clone();
                t.row(vec![
                    rate_label(rate),
                    format!("{rtt_ms} ms"),
                    startup.into(),
                    o.t90_s.map_or("not reached".into(), |s| format!("{:.0} ms", s * 1e3)),
                    o.t90_s.map_or("-".into(), |s| format!("{:.1}", s * 1e3 / rtt_ms as f64)),
                    format!("{:.1} ms", o.max_delay_ms),
                    format!("{:.0} pkts", o.max_queue_pkts),
                    format!("{:.0}", o.drops),
                    format!("{:.1} %", o.utilisation * 100.0),
                ]);
                let speed = |o: &Outcome| o.t90_s.map_or(0.0, |s| rtt_ms as f64 / (s * 1e3));
                points.push(DelayPoint {
                    label: startup.into(),
                    throughput_mbps: speed(&o),
                    delay_p95_ms: o.max_delay_ms,
                    runs: runs.iter().map(|r| (r.max_delay_ms, speed(r))).collect(),
                });
                rows.push(Row { rate_bps: rate, rtt_ms, startup, runs: seeds_runs });
            }
            if rate == 100e6 {
                let plot = crate::plot::throughput_delay(
                    &opts.out.join("plots"),
                    &format!("startup-{rtt_ms}ms"),
                    &format!("100 Mbit/s, {rtt_ms} ms, 1 BDP: speed of start-up against its largest queueing delay"),
                    ("speed: 1 / time to 90 % (per RTT)", "largest queueing delay in start-up (ms)"),
                    &points,
                )?;
                out.plots.insert(0, (format!("Start-ups on 100 Mbit/s, {rtt_ms} ms: faster is up, less queue is right"), vec![plot]));
            }
        }
    }
    out.tables.push(t);
    out.claims = claims(&rows);
    out.plots.insert(0, ("The paper's added queueing delay against ours".into(), vec![delay_versus(&rows, seeds, &opts.out.join("plots"))?]));
    problems::run(opts, &rows, &mut out)?;
    out.tables.push(completion_times(opts, seeds)?);
    out.tables.push(noise(opts, seeds)?);
    out.notes.push(format!(
        "Theory for the queue: slow start doubles its window each round trip, so in the round after it fills \
         the pipe it sends up to a BDP too much, at the access link's rate, and a one-BDP buffer fills (about \
         one RTT of queueing delay) and overflows. A chirp of n packets leaves after a guard interval that lets \
         the queue drain, so it adds fewer than n packets of queue ({CHIRP_PACKETS} at the most, n·MSS/C of \
         delay); after the chirps, the transition paces at the estimate for one round trip, which adds the \
         estimate's error times a BDP."
    ));
    out.notes.push(
        "The paper's evaluation used a low-latency path (DCTCP-style queues) and its Linux prototype; ours is \
         a drop-tail buffer of one BDP in the simulator with one flow, so the comparison is of directions and \
         orders of magnitude, not of its exact figures. The prototype's 30 µs floor on the estimated gap (about \
         400 Mbit/s) is lowered to 1 µs here so that 1 Gbit/s can be reached; the end of chirping adds a \
         back-to-back test (see cc::transport::chirp)."
            .into(),
    );
    out.notes.push(
        "Slow links: the prototype's first estimate is a 200 µs gap (58 Mbit/s). A chirp cannot measure \
         below its slowest rate (γ = 2 times the estimated gap), and the average moves only half way to each \
         chirp's estimate, so on 10 Mbit/s the estimate is still some 35 % high when the chirps fill the round \
         trip; the transition then paces above the capacity for a round trip and fills a small buffer. Where a \
         BDP is not much more than a chirp (17 and 41 packets at 10 Mbit/s by 20 and 50 ms), paced chirping's \
         queue is as high as slow start's, with fewer drops."
            .into(),
    );
    out.notes.push(
        "ACK timing noise: the excursion analysis reads differences of per-packet queueing delays, which \
         near the capacity are a few microseconds per packet at 1 Gbit/s. the main table has no \
         ACK processing delay (and no send overhead, cclab's default against phase effects between flows); with \
         a random ACK processing delay of up to one packet time (the noise table), rises of the noise look like excursions, a chirp's \
         estimate lands on its slower gaps, and at 1 Gbit/s the estimate falls instead of rising, so \
         chirping hands over far below the capacity. The paper sets such issues aside; a real host's ACK \
         timing is noisier still."
            .into(),
    );
    out.notes.push(
        "Tiny transfers: paced chirping sends its first ten packets as two chirps half a round trip apart \
         (the prototype spreads a round's chirps over the RTT), where slow start sends its initial window at \
         once, so a transfer of a few packets can take longer to complete."
            .into(),
    );
    Ok(out)
}

/// The time-to-90 % sampling step, in RTTs (samples every RTT/10), with slack for rounding.
const SAMPLE_RTTS: f64 = 0.11;

/// Slow start's time to 90 % of the link by the law, in round trips: the first round whose
/// window IW·2ⁿ reaches 0.9 of the BDP (in full-sized packets), acknowledged from round n + 1
/// on at the link's rate, reaches 0.9 BDP of ACKs in one round trip 0.9 of a round trip later.
pub fn slow_start_t90_rtts(rate_bps: f64, rtt_ms: u64) -> f64 {
    let bdp = rate_bps * rtt_ms as f64 / 1e3 / (1500.0 * 8.0);
    let iw = cc::transport::SenderConfig::default().initial_window as f64;
    (0.9 * bdp / iw).log2().ceil().max(0.0) + 1.9
}

/// The paper's "2–3 ms" of added queueing delay at its typical 20 ms RTT (§I) against paced
/// chirping's largest queueing delay in start-up on every link (the paper gives no figure at
/// other RTTs), with slow start's on the same links below it for contrast.
fn delay_versus(rows: &[Row], seeds: u64, dir: &std::path::Path) -> Result<crate::plot::PlotFiles, UserError> {
    let mut versus = Vec::new();
    for startup in ["paced chirping", "slow start"] {
        for r in rows.iter().filter(|r| r.startup == startup) {
            let delays: Vec<f64> = r.runs.iter().map(|o| o.max_delay_ms).collect();
            let Some(s) = crate::stats::Summary::of(&delays) else { continue };
            let paper = (startup == "paced chirping" && r.rtt_ms == PAPER_RTT_MS).then_some((2.5, Some((2.0, PAPER_DELAY_MS))));
            versus.push(crate::plot::VersusRow { label: format!("{startup}, {} by {} ms", rate_label(r.rate_bps), r.rtt_ms), seed: paper, ours: Some((s.mean, (s.min, s.max))) });
        }
    }
    let title = format!("Largest queueing delay a starting flow adds, one-BDP buffer (ours: {})", if seeds == 1 { "one seed".to_string() } else { format!("mean, min–max over {seeds} seeds") });
    crate::plot::Versus::new("versus-added-delay", &title, "largest queueing delay in start-up (ms, log)", &versus).log().against("the paper: 2–3 ms at a 20 ms RTT").write(dir)
}

/// RFC 9406's HyStart++: no drop in start-up, on every link and seed.
///
/// Its only test is a rise of a round's minimum RTT by `η = clamp(RTT/8, 4 ms, 16 ms)`
/// (§4.2). Slow start's flight `W_k = IW·2^k` is sent as the ACKs of `W_{k−1}` return; its
/// first packet meets the queue `W_{k−1}` leaves, `max(0, W_{k−1} − BDP)`, and that is what
/// the round's minimum, taken when `W_k`'s ACKs return, sees. So the first rise is seen only
/// after a flight `W_k = 2·W_{k−1}` with `W_{k−1} ≥ BDP + C·η` has been sent, and that flight
/// fits in the pipe and the buffer `B` only if `B ≥ BDP + 2·C·η` (C in packets per second).
/// Below that the exit cannot come before the overflow; it can only cut it short.
fn hystart_plus_plus_claim(rows: &[Row]) -> Claim {
    let (mut drops, mut needs) = (Vec::new(), Vec::new());
    for h in rows.iter().filter(|r| r.startup == "HyStart++") {
        drops.extend(h.runs.iter().map(|o| o.drops));
        let per_ms = h.rate_bps / 1e3 / ((1448 + sim::config::TCP_HEADER_BYTES) as f64 * 8.0);
        let bdp = per_ms * h.rtt_ms as f64;
        let eta_ms = (h.rtt_ms as f64 / 8.0).clamp(4.0, 16.0);
        needs.push(format!("{} by {} ms, {:.0} packets against our {:.0}", rate_label(h.rate_bps), h.rtt_ms, bdp + 2.0 * per_ms * eta_ms, bdp));
    }
    let c = Claim::bound_over(
        "HyStart++ leaves slow start before its overshoot: no drop in start-up (every link and seed)",
        "HyStart++ \"uses increase in round-trip delay as a heuristic to find an exit point before possible overshoot\" (RFC 9406, abstract): the talk's \"estimate a point where to exit Slow Start mode\", standardised",
        &drops,
        Bound::AtMost(0.0),
        "drops",
        Runs::LinksAndSeeds,
    );
    c.because_unless_held(&format!(
        "HyStart++'s one test is a rise of a round's minimum RTT by η = clamp(RTT/8, 4 ms, 16 ms) (RFC 9406 §4.2). A flight of slow start first meets a standing queue when the flight before it exceeded the BDP; that queue shows in the round's minimum only when the flight's ACKs return, and by then the flight, more than 2·BDP, has already overflowed a one-BDP buffer. An exit before the overflow needs a buffer of at least BDP + 2·C·η (C the link's rate): {}. So on these links its exit comes after the first drop, and can only cut the overshoot short (the start-up table: as many drops as slow start at 10 Mbit/s). Linux's HyStart exits first by its ACK-train test, which fires as a flight's ACKs span half the base RTT, before the buffer overflows (cc::hystart).",
        needs.join("; ")
    ))
}

/// One full-sized packet's transmission time at `rate_bps`, ms.
fn packet_ms(rate_bps: f64) -> f64 {
    (1448 + sim::config::TCP_HEADER_BYTES) as f64 * 8.0 / rate_bps * 1e3
}

/// The paper's claims beside ours, with verdicts judged on every seed.
fn claims(rows: &[Row]) -> Vec<Claim> {
    let of = |startup: &'static str| rows.iter().filter(move |r| r.startup == startup);
    let per_seed = |r: &Row, f: fn(&Outcome) -> f64| r.runs.iter().map(f).collect::<Vec<f64>>();
    let mut claims = Vec::new();
    for r in of("paced chirping").filter(|r| r.rtt_ms == PAPER_RTT_MS) {
        let c = Claim::bound(
            &format!("the largest queueing delay a new flow adds, {} ms RTT, {}", PAPER_RTT_MS, rate_label(r.rate_bps)),
            "2–3 ms (Misund & Briscoe §I)",
            &per_seed(r, |o| o.max_delay_ms),
            Bound::AtMost(PAPER_DELAY_MS),
            "ms",
        );
        let why = format!(
            "one packet takes {:.2} ms here; a chirp adds up to {CHIRP_PACKETS} packets, and the transition adds the estimate's error times a BDP (see the notes)",
            packet_ms(r.rate_bps)
        );
        claims.push(if c.holds() { c } else { c.because(&why) });
    }
    let queues: Vec<f64> = of("paced chirping").flat_map(|r| per_seed(r, |o| o.max_queue_pkts)).collect();
    let c = Claim::bound_over(
        "the queue never accumulates more than a few packets (every link and seed)",
        &format!("a few (Misund & Briscoe, abstract); at most one chirp, {CHIRP_PACKETS}"),
        &queues,
        Bound::AtMost(CHIRP_PACKETS as f64),
        "packets",
        Runs::LinksAndSeeds,
    );
    claims.push(if c.holds() {
        c
    } else {
        c.because("the chirps themselves stay within a chirp; the transition after them paces at the estimate for a round trip, and an estimate a few per cent high queues that share of a BDP (hundreds of packets at 1 Gbit/s × 200 ms, still under 5 % of the RTT); on 10 Mbit/s the estimate is still high when chirping ends (see the notes)")
    });
    // Paired by link and seed: slow start's largest delay above chirping's plus one packet time.
    let (mut ss, mut pc) = (Vec::new(), Vec::new());
    for r in of("paced chirping") {
        let Some(s) = of("slow start").find(|s| s.rate_bps == r.rate_bps && s.rtt_ms == r.rtt_ms) else { continue };
        ss.extend(per_seed(s, |o| o.max_delay_ms));
        pc.extend(r.runs.iter().map(|o| o.max_delay_ms + packet_ms(r.rate_bps)));
    }
    let c = Claim::direction_over(
        "paced chirping escapes slow start's overshoot: less queue (every link and seed)",
        "\"the faster a flow accelerates, the more it will overshoot\" — escaped (Misund & Briscoe, abstract)",
        ("slow start", &ss),
        ("paced chirping + one packet", &pc),
        "ms",
        Runs::LinksAndSeeds,
    );
    claims.push(if c.holds() {
        c
    } else {
        c.because("where a BDP is about a chirp or less (10 Mbit/s by 10 and 20 ms: 8 and 16 packets) both fill the one-BDP buffer; chirping's estimate is also still high there when it ends")
    });
    // The talk's first slow-start problem, "Too slow": slow start doubles its window per round
    // trip from IW, so it needs as many round trips as doublings to the BDP.
    let slow: Vec<f64> = of("slow start")
        .flat_map(|r| {
            let law = slow_start_t90_rtts(r.rate_bps, r.rtt_ms);
            r.runs.iter().map(move |o| o.t90_s.map_or(f64::INFINITY, |t| t * 1e3 / r.rtt_ms as f64 - law)).collect::<Vec<_>>()
        })
        .collect();
    let mut too_slow = Claim::bound_over(
            "slow start is \"Too slow\" on large BDPs: its time to 90 % is ⌈log₂(0.9·BDP/IW)⌉ + 1.9 round trips, growing with the BDP's logarithm (ours less the law, in RTTs: from 0 to one sample later, every link and seed)",
            "\"Slow start problems ... 1. Too slow.\" (the talk)",
            &slow,
            Bound::AtMost(SAMPLE_RTTS),
            "RTTs",
            Runs::LinksAndSeeds,
        );
    let earliest = slow.iter().copied().fold(f64::INFINITY, f64::min);
    if earliest < -1e-9 {
        too_slow.verdict = crate::verdict::Verdict::DoesNotHold;
    }
    // What the talk calls too slow is the law itself; the check is of our slow start against
    // the rule it implements, so its note says so, and gives the law's span over our links.
    let laws: Vec<(f64, f64)> = of("slow start").map(|r| (r.rate_bps * r.rtt_ms as f64, slow_start_t90_rtts(r.rate_bps, r.rtt_ms))).collect();
    let smallest = laws.iter().copied().min_by(|a, b| a.0.total_cmp(&b.0)).map_or(f64::NAN, |l| l.1);
    let largest = laws.iter().copied().max_by(|a, b| a.0.total_cmp(&b.0)).map_or(f64::NAN, |l| l.1);
    claims.push(too_slow.check(&format!(
        "doubling per round trip is the rule our slow start implements (RFC 5681), so this could fail only by a slip in our code; the talk's \"too slow\" is the law itself, {} round trips to 90 % on our smallest BDP and {} on our largest. The law: the window IW·2ⁿ of round n = ⌈log₂(0.9·BDP/IW)⌉, the first at least 0.9·BDP, is acknowledged from n + 1 round trips on at the link's rate, so the ACKs of one round trip reach 0.9·BDP after 0.9 of it more; ours is read every RTT/10, so it may lie up to {SAMPLE_RTTS} RTT later but not earlier (the earliest: {} RTT)",
        crate::table::num(smallest),
        crate::table::num(largest),
        crate::table::num(earliest)
    )));
    // The talk's HyStart: "Problem: high aggressiveness during final slow start phase.
    // Solution: estimate a point where to exit Slow Start mode." Judged where HyStart can act
    // before the pipe is full: a BDP of at least its low window (tcp_cubic.c's
    // hystart_low_window; below it neither of its tests runs).
    let low_window = cc::hystart::HystartConfig::default().hystart_low_window as f64;
    let bdp_segments = |r: &Row| r.rate_bps * r.rtt_ms as f64 / 1e3 / 8.0 / 1448.0;
    // Judged as HyStart++ is: no drop in start-up (an exit before the overshoot), not against
    // slow start's drops, which come from Reno's recovery as well as its start.
    let hy_drops: Vec<f64> = of("HyStart").filter(|h| bdp_segments(h) >= low_window).flat_map(|h| per_seed(h, |o| o.drops)).collect();
    claims.push(Claim::bound_over(
        &format!("HyStart leaves slow start before its overshoot: no drop in start-up (every link with a BDP of at least HyStart's low window, {low_window} segments, and seed)"),
        "\"Problem: high aggressiveness during final slow start phase. Solution: estimate a point where to exit Slow Start mode.\" (the talk)",
        &hy_drops,
        Bound::AtMost(0.0),
        "drops",
        Runs::LinksAndSeeds,
    ));
    claims.push(hystart_plus_plus_claim(rows));
    let mut extra = Vec::new();
    for r in of("paced chirping") {
        let Some(s) = of("slow start").find(|s| s.rate_bps == r.rate_bps && s.rtt_ms == r.rtt_ms) else { continue };
        for (p, q) in r.runs.iter().zip(&s.runs) {
            let late = match (p.t90_s, q.t90_s) {
                (Some(a), Some(b)) => (a - b) * 1e3 / r.rtt_ms as f64,
                (None, _) => f64::INFINITY,
                (Some(_), None) => f64::NEG_INFINITY,
            };
            extra.push(late);
        }
    }
    claims.push(Claim::bound_over(
        "gets a flow up to speed fast: time to 90 % beyond slow start's (every link and seed)",
        &format!("rapid flow start (Misund & Briscoe, title); model: the chirps per round double as slow start's window, after three rounds of two chirps: within {EXTRA_RTTS} RTTs"),
        &extra,
        Bound::AtMost(EXTRA_RTTS),
        "RTTs",
        Runs::LinksAndSeeds,
    ));
    claims
}

/// Paced chirping with and without ACK-processing jitter uniform up to one packet time at the
/// bottleneck (`host_jitter`, as a busy host adds): the per-packet queueing delays it reads
/// carry that noise.
fn noise(opts: &Options, seeds: u64) -> Result<Table, UserError> {
    let links: &[(f64, u64)] = if opts.fast { &[(100e6, 20)] } else { &[(100e6, 20), (1e9, 20), (1e9, 50)] };
    let mut t = Table::new(
        "paced chirping and ACK timing noise",
        &["link", "RTT", "ACK jitter", "time to 90 %", "largest queueing delay", "drops in start-up", "utilisation"],
    );
    for &(rate, rtt_ms) in links {
        let rtt = Time::from_millis(rtt_ms);
        for jitter in [false, true] {
            let mut runs = Vec::new();
            for seed in 1..=seeds {
                let mut cfg = scenario(flow("paced chirping", rtt), rate, Time(rtt.0 * RUN_RTTS).max(Time::from_secs(1)), seed);
                if jitter {
                    cfg.link.host_jitter = Some(Rate::from_bits_per_sec(rate).tx_time(1500));
                }
                let dir = opts.out.join(format!("noise/{}mbit-{rtt_ms}ms-jitter-{jitter}/seed-{seed}", rate / 1e6));
                runs.push(measure(cfg, &dir)?.0);
            }
            let o = Outcome::mean(&runs);
            t.row(vec![
                rate_label(rate),
                format!("{rtt_ms} ms"),
                if jitter { format!("up to one packet ({:.1} µs)", packet_ms(rate) * 1e3) } else { "none".into() },
                o.t90_s.map_or("not reached".into(), |s| format!("{:.0} ms", s * 1e3)),
                format!("{:.1} ms", o.max_delay_ms),
                format!("{:.0}", o.drops),
                format!("{:.1} %", o.utilisation * 100.0),
            ]);
        }
    }
    Ok(t)
}

/// Flow completion times of sized transfers, per start-up.
fn completion_times(opts: &Options, seeds: u64) -> Result<Table, UserError> {
    let (links, sizes): (&[(f64, u64)], &[u64]) = if opts.fast {
        (&[(100e6, 50)], &[10_000, 100_000, 1_000_000])
    } else {
        (&[(10e6, 50), (100e6, 20), (100e6, 200), (1e9, 50)], &[10_000, 100_000, 1_000_000, 10_000_000])
    };
    let mut header = vec!["link".to_string(), "RTT".into(), "size".into()];
    header.extend(STARTUPS.iter().map(|s| s.to_string()));
    let mut t = Table::new("flow completion time", &header.iter().map(String::as_str).collect::<Vec<_>>());
    for &(rate, rtt_ms) in links {
        let rtt = Time::from_millis(rtt_ms);
        for &size in sizes {
            let transfer = Time::from_secs_f64(size as f64 * 8.0 / rate);
            let duration = Time(transfer.0 * 3 + rtt.0 * RUN_RTTS) + Time::from_secs(1);
            let mut row = vec![rate_label(rate), format!("{rtt_ms} ms"), size_label(size)];
            for startup in STARTUPS {
                let mut f = flow(startup, rtt);
                f.sender.data_limit = Some(size);
                let mut fct = Vec::new();
                for seed in 1..=seeds {
                    let dir = opts.out.join(format!(
                        "fct/{}mbit-{rtt_ms}ms-{}/{}/seed-{seed}",
                        rate / 1e6,
                        size_label(size).replace(' ', ""),
                        startup.replace(' ', "-").to_lowercase()
                    ));
                    let r = run_one(scenario(f.clone(), rate, duration, seed), &dir)?;
                    fct.push(r.summary.flows[0].completion_time_s);
                }
                let all: Option<Vec<f64>> = fct.into_iter().collect();
                row.push(all.map_or("not done".into(), |v| format!("{:.0} ms", v.iter().sum::<f64>() / v.len() as f64 * 1e3)));
            }
            t.row(row);
        }
    }
    Ok(t)
}

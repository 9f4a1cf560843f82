//! Seed 003's design slide: without a congestion window, "in contrast to UDP, the protocol
//! will still guarantee for in-order delivery and will adopt to the link capacity". Both halves
//! are judged on SACKEXP alone at 60 ms: adapting on a lossless run whose bottleneck falls to
//! half its rate and comes back ([`adapts`]), in-order delivery on a whole transfer under the
//! seed's heaviest loss ([`in_order`]).

use super::{config, flow, run_one, Claim, Options, Output};
use crate::table::num;
use crate::verdict::Bound;
use crate::UserError;
use cc::{Rate, Time};

/// The capacity SACKEXP adapts to: the bottleneck's rate over [`ADAPT_PHASE_S`]-second phases,
/// the seed's 10 Mbit/s, then half of it, then 10 again.
const ADAPT_RATES_MBPS: [f64; 3] = [10.0, 5.0, 10.0];
const ADAPT_PHASE_S: u64 = 10;

/// Seed 003's design slide: without a congestion window, "in contrast to UDP, the protocol will
/// still guarantee for in-order delivery and will adopt to the link capacity" (its bandwidth
/// window, the "ACK clock", has the link capacity as its bottleneck). SACKEXP alone at 60 ms,
/// lossless, while the bottleneck falls to half its rate and comes back ([`ADAPT_RATES_MBPS`]).
///
/// What the ACK clock predicts: the window, one BDP at 10 Mbit/s, never leaves the link idle,
/// so over the half-rate phase the link delivers exactly its capacity, and the sender sends
/// that plus what the queue grows by, at most the window: its payload rate over the phase's
/// payload capacity (the link's rate times MSS/(MSS + 52 header bytes)) lies between 1 and
/// 1 + W/(C·T). And the window fits the half-rate pipe plus the buffer (one
/// BDP at 10 Mbit/s), so nothing is dropped. A UDP sender at 10 Mbit/s would send twice the
/// capacity and lose half.
pub fn adapts(opts: &Options, seeds: u64, out: &mut Output) -> Result<(), UserError> {
    let rtt = 60;
    let f = flow("none", true, rtt);
    let payload = f.sender.mss as f64 / (f.sender.mss + sim::config::TCP_HEADER_BYTES) as f64;
    let mut ratios = Vec::new();
    let mut drops = Vec::new();
    for seed in 1..=seeds {
        let mut cfg = config(vec![f.clone()], 0.0, ADAPT_PHASE_S * ADAPT_RATES_MBPS.len() as u64, seed);
        cfg.link.schedule = ADAPT_RATES_MBPS.iter().enumerate().skip(1).map(|(i, &m)| (Time::from_secs(ADAPT_PHASE_S * i as u64), Rate::from_bits_per_sec(m * 1e6))).collect();
        let r = run_one(cfg, &opts.out.join(format!("rtt-{rtt}ms/capacity-change/seed-{seed}")))?;
        let (from, to) = ((ADAPT_PHASE_S) as f64, (2 * ADAPT_PHASE_S) as f64);
        // 1 s samples: each holds the megabits sent over the second before it.
        let sent_mbit: f64 = r.series.as_ref().map_or(0.0, |s| s.flows.iter().filter(|x| x.time > from + 1e-9 && x.time <= to + 1e-9).map(|x| x.throughput_mbps).sum());
        ratios.push(sent_mbit / (ADAPT_RATES_MBPS[1] * payload * (to - from)));
        drops.push(r.summary.link.drops as f64);
    }
    let window_mbit = 10.0 * rtt as f64 / 1e3;
    let tolerance = window_mbit / (ADAPT_RATES_MBPS[1] * ADAPT_PHASE_S as f64);
    let rates = ADAPT_RATES_MBPS.map(|m| format!("{m}")).join(" → ");
    out.claims.push(Claim::band(
        &format!("SACKEXP \"will adopt to the link capacity\" (\"Bandwidth window, 'ACK clock', assumed bottleneck: link capacity\"): its sending rate over the capacity (payload) while the bottleneck runs at half its rate (RTT {rtt} ms, lossless, {rates} Mbit/s, {ADAPT_PHASE_S} s each)"),
        &ratios,
        (1.0, 1.0 + tolerance),
        "",
        "the ACK clock keeps the link busy, so the sender sends the capacity plus what the queue grows by, at most its window W: 1 to 1 + W/(C·T)",
    ));
    out.claims.push(Claim::bound(
        "SACKEXP loses nothing as it adapts: the link's drops in that run (its window, a BDP at 10 Mbit/s, fits the half-rate pipe plus the one-BDP buffer)",
        "\"In contrast to UDP ... will adopt to the link capacity\" (our reading: no loss, where a UDP sender at 10 Mbit/s would lose half)",
        &drops,
        Bound::AtMost(0.0),
        "packets",
    ).check("by arithmetic: the window fits the half-rate path with its buffer, so the row fails only if the sender sent beyond its window"));
    Ok(())
}


/// The transfer [`in_order`] sends: ttcp's default, 2048 buffers of 8192 bytes, our assumption
/// (the seed ran `ttcp -t -s -n num`, its `num` not given).
pub const TRANSFER_BYTES: u64 = 2048 * 8192;
/// The seed's heaviest loss, at which the guarantee is tried.
const IN_ORDER_LOSS: f64 = 0.2;
/// How long each transfer may take: four times what SACKEXP's goodput at 20 % (about
/// 3 Mbit/s at 60 ms, the runs alone) needs for [`TRANSFER_BYTES`], 45 s.
const IN_ORDER_RUN_S: u64 = 180;

/// "In contrast to UDP, the protocol will still guarantee for in-order delivery": SACKEXP sends
/// [`TRANSFER_BYTES`] alone at 60 ms under the seed's heaviest loss ([`IN_ORDER_LOSS`]), and
/// holds the guarantee if the transfer completes, the cumulative ACK covering its last byte, so
/// the receiver has handed every byte to its application in order, within [`IN_ORDER_RUN_S`].
/// The contrast: a UDP sender (constant bit rate at the bottleneck's 10 Mbit/s) sending the
/// same bytes through the same loss, whose receiver gets `1 − p` of them, with holes.
pub fn in_order(opts: &Options, seeds: u64, out: &mut Output) -> Result<(), UserError> {
    let rtt = 60;
    let mut times = Vec::new();
    let mut udp_shares = Vec::new();
    let udp = cc::protocols::DatagramConfig::Cbr(cc::cbr::CbrConfig { rate_bps: (super::BOTTLENECK_MBPS * 1e6) as u64 });
    for seed in 1..=seeds {
        let mut tcp = flow("none", true, rtt);
        tcp.sender.data_limit = Some(TRANSFER_BYTES);
        let mut dgram = sim::FlowConfig::datagram(udp.clone(), Time::from_millis(rtt));
        dgram.access_rate = tcp.access_rate;
        dgram.sender.data_limit = Some(TRANSFER_BYTES);
        for (f, name) in [(tcp, "sackexp"), (dgram, "udp-cbr")] {
            let r = run_one(config(vec![f], IN_ORDER_LOSS, IN_ORDER_RUN_S, seed), &opts.out.join(format!("rtt-{rtt}ms/in-order/{name}/seed-{seed}")))?;
            let flow = &r.summary.flows[0];
            if name == "sackexp" {
                times.push(flow.completion_time_s.unwrap_or(f64::INFINITY));
            } else {
                udp_shares.push(flow.bytes_delivered as f64 / TRANSFER_BYTES as f64);
            }
        }
    }
    let mb = num(TRANSFER_BYTES as f64 / 1e6);
    let p = num(IN_ORDER_LOSS * 100.0);
    let c = Claim::bound(
        &format!("SACKEXP \"will still guarantee for in-order delivery\" at the seed's heaviest loss: a {mb} MB transfer (ttcp's default; the seed's -n is not given) at p = {p} %, RTT {rtt} ms, completes, its last byte cumulatively acknowledged, within the {IN_ORDER_RUN_S} s run: its completion time"),
        "\"In contrast to UDP, the protocol will still guarantee for in-order delivery\"",
        &times,
        Bound::AtMost(IN_ORDER_RUN_S as f64),
        "s",
    );
    let udp = crate::stats::Summary::of(&udp_shares).map_or("no runs".into(), |s| format!("{} to {}", num(s.min), num(s.max)));
    let why = format!(
        "the contrast: a UDP sender at the bottleneck's {} Mbit/s, sending the same {mb} MB through the same loss, delivers {udp} of it (1 − p = {}), with holes its receiver never fills",
        num(super::BOTTLENECK_MBPS),
        num(1.0 - IN_ORDER_LOSS)
    );
    let unfinished = times.iter().filter(|t| !t.is_finite()).count();
    out.claims.push(if unfinished > 0 { c.because(&format!("{unfinished} of {} transfers had not completed by the run's end; {why}", times.len())) } else { c.because(&why) });
    Ok(())
}

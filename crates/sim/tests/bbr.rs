//! BBR v1 and v3 in the simulator. Bounds come from BBR's design (Cardwell et al. 2016,
//! draft-ietf-ccwg-bbr), the Mathis law for Reno, and the SharkFest seed talk's measurements of
//! Linux BBR on a 40 Mbit/s, 100 ms link (seed 002: "1 % loss – full BW rate", "5 % loss –
//! 30 Mbps out from 40", "10 % loss – 24 Mbit out of 40"), taken loosely (about two thirds of
//! the seed's fraction of the link).

mod common;
use ::sim::{QueueLimit, RunResult};
use common::*;

const LINK_MBIT: f64 = 40.0;
const RTT_MS: u64 = 100;

fn alone(cc: &str, buffer_bdp: f64, loss: f64, secs: u64) -> RunResult {
    let mut l = link(LINK_MBIT, QueueLimit::Bdp(buffer_bdp));
    if loss > 0.0 {
        l = with_loss(l, loss);
    }
    simulate(1, secs, l, vec![flow(cc, RTT_MS)])
}

/// Mathis et al. (CCR 1997): Reno's rate under random loss p, `MSS/RTT · sqrt(3/2) / sqrt(p)`
/// in bit/s (timeouts, which the law ignores, only lower it).
fn mathis_bps(p: f64) -> f64 {
    1448.0 * 8.0 / (RTT_MS as f64 / 1e3) * 1.5f64.sqrt() / p.sqrt()
}

/// Alone on 40 Mbit/s, 100 ms, with one BDP of drop-tail buffer: BBR fills the link but not the
/// buffer. A full buffer adds 100 ms (one BDP at the link rate), and a Reno sawtooth between one
/// and two BDPs of window keeps it half full on average (+50 ms). BBR paces at its bandwidth
/// estimate and only its probing phases queue: v1's 5/4 phase adds at most 0.25 BDP for one
/// round in eight, drained by the next; v3 probes (about 0.25 BDP more per round for 3 rounds)
/// only every 2–3 s. So the mean RTT stays within a quarter of the buffer's delay of the base
/// RTT, and v1's 95th percentile within half of it.
#[test]
fn bbr_fills_the_link_but_not_the_buffer() {
    let buffer_delay_ms = RTT_MS as f64; // 1 BDP at the link rate
    for cc in ["bbr", "bbr3"] {
        let r = alone(cc, 1.0, 0.0, 60);
        let u = utilisation_between(&r, 5.0, 60.0);
        let rtt = &r.summary.flows[0].rtt_ms;
        eprintln!("{cc}: utilisation {u:.3}, RTT mean {:.1} ms, p95 {:.1} ms", rtt.mean, rtt.p95);
        assert!(u >= 0.8, "{cc}: utilisation {u}");
        assert!(rtt.mean < RTT_MS as f64 + 0.25 * buffer_delay_ms, "{cc}: mean RTT {:?}", rtt);
        if cc == "bbr" {
            assert!(rtt.p95 < RTT_MS as f64 + 0.5 * buffer_delay_ms, "{cc}: RTT {:?}", rtt);
        }
    }
    // The contrast: Reno keeps the buffer about half full.
    let reno = alone("reno", 1.0, 0.0, 60);
    let rtt = &reno.summary.flows[0].rtt_ms;
    eprintln!("reno: RTT mean {:.1} ms", rtt.mean);
    assert!(rtt.mean > RTT_MS as f64 + 0.25 * buffer_delay_ms, "Reno's mean RTT {:?}", rtt);
}

/// Random loss: BBR v1 does not treat loss as congestion, so its rate follows its bandwidth
/// filter, not the loss rate, and it keeps most of the link (seed: all of it at 1 %, 30 of 40
/// Mbit/s at 5 %); Reno and NewReno fall to the Mathis rate (1.4 Mbit/s at 1 %, 0.6 at 5 %,
/// 0.45 at 10 %, a few per cent of the link).
///
/// At 10 % the seed's figure (24 of 40 Mbit/s) is out of reach here for a reason outside BBR:
/// the sender core detects lost *retransmissions* only by timeout (RFC 6675 without RACK), so
/// at 10 % almost every recovery episode ends in an RTO, and BBR's 10-round bandwidth filter
/// then holds only slow-start samples. At 10 % this test checks only that BBR still stays far
/// above Reno; [`bbr_keeps_most_of_a_link_with_10_percent_loss`] holds the seed's bound.
#[test]
fn bbr_keeps_most_of_a_lossy_link_where_reno_collapses() {
    let link_bps = LINK_MBIT * 1e6;
    for (p, min_share) in [(0.01, Some(0.7)), (0.05, Some(0.5)), (0.10, None)] {
        let goodput = |cc: &str| alone(cc, 1.0, p, 60).summary.flows[0].goodput_bps;
        let (bbr, reno, newreno) = (goodput("bbr"), goodput("reno"), goodput("newreno"));
        eprintln!(
            "p = {p}: BBR {:.2} Mbit/s, Reno {:.2}, NewReno {:.2}, Mathis {:.2}",
            bbr / 1e6,
            reno / 1e6,
            newreno / 1e6,
            mathis_bps(p) / 1e6
        );
        if let Some(share) = min_share {
            assert!(bbr >= share * link_bps, "p = {p}: BBR {bbr} below {share} of the link");
        }
        for (name, g) in [("Reno", reno), ("NewReno", newreno)] {
            assert!(g <= 2.0 * mathis_bps(p), "p = {p}: {name} {g} above twice the Mathis rate");
            assert!(bbr >= 5.0 * g, "p = {p}: BBR {bbr} not far above {name} {g}");
        }
    }
}

/// BBR v1's window under random loss (issue 16, item 4), with bounds from `tcp_bbr.c`'s
/// constants. In PROBE_BW the target is `bbr_cwnd_gain` (2) times the BDP, plus the
/// ACK-aggregation allowance (at most `bbr_extra_acked_max_us` = 100 ms at the estimated rate,
/// one BDP here) and the quantisation budget (3 send quanta of 1 ms each, rounded to an even
/// packet count, 2 more in the 5/4 phase). Loss takes cwnd below that only in the first round
/// of a recovery episode opened from Open (packet conservation, cwnd ≈ inflight ≈ 1 BDP);
/// Linux re-enters Recovery on the ACK that ends an episode when a loss is already known
/// (`tcp_time_to_recover`), so at 1 % and 5 % loss (several losses per round) it is nearly
/// always in a later round of recovery, and the median window is the target. The kernel
/// (`cclab testbed run --cc bbr --loss 1%`, 40 s, Linux 6.18) gave a median of 686 and a mean
/// of 625 segments at 1 %, 688 and 662 at 5 %; before the sender re-entered recovery this way
/// the simulator's median was 386 and 402 (every episode began with conservation).
#[test]
fn bbr_window_under_random_loss_is_its_target_as_in_linux() {
    let payload_pps = LINK_MBIT * 1e6 / 8.0 / 1500.0; // 1448-byte payload, 52 bytes of headers
    let bdp = payload_pps * RTT_MS as f64 / 1e3;
    let quanta = 3.0 * (payload_pps / 1e3).floor().max(2.0) + 2.0;
    let (low, high) = (2.0 * bdp, 2.0 * bdp + bdp + quanta + 1.0);
    for p in [0.01, 0.05] {
        let r = alone("bbr", 1.0, p, 60);
        let mut cwnd: Vec<f64> = r.series.as_ref().unwrap().flows.iter().filter(|s| s.time > 10.0).filter_map(|s| s.cwnd).collect();
        cwnd.sort_by(f64::total_cmp);
        let median = cwnd[cwnd.len() / 2];
        let mean = cwnd.iter().sum::<f64>() / cwnd.len() as f64;
        eprintln!("p = {p}: cwnd median {median:.0}, mean {mean:.0} segments (bounds {low:.0}..{high:.0})");
        assert!(median >= low && median <= high, "p = {p}: median cwnd {median} outside {low}..{high}");
    }
}

/// BBR v3 treats loss above 2 % per round as a sign of too much in flight, but aims at full
/// throughput with random loss of up to 1 % (draft-ietf-ccwg-bbr §3.1; a probe every 63 rounds
/// at most restores what 1 % loss per round takes off, §5.3.3.8.3). Loosely: half the link.
#[test]
fn bbr3_keeps_most_of_a_link_with_1_percent_loss() {
    let f = alone("bbr3", 1.0, 0.01, 60).summary.flows[0].clone();
    eprintln!("bbr3, p = 0.01: {:.2} Mbit/s", f.goodput_bps / 1e6);
    assert!(f.goodput_bps >= 0.5 * LINK_MBIT * 1e6, "BBR v3 {}", f.goodput_bps);
}

/// The seed's 10 % figure, 24 of 40 Mbit/s, taken loosely (0.4 of the link). Ignored until the
/// sender core detects lost retransmissions (RACK, RFC 8985): with a crude version of that
/// detection added to the sender, this run gave 32 Mbit/s; without it BBR gets about
/// 6 Mbit/s, its flow stalling in a timeout after almost every recovery episode.
#[test]

fn bbr_keeps_most_of_a_link_with_10_percent_loss() {
    let bbr = alone("bbr", 1.0, 0.10, 60).summary.flows[0].goodput_bps;
    assert!(bbr >= 0.4 * LINK_MBIT * 1e6, "BBR {bbr}");
}

/// A shallow buffer (0.1 BDP): v1's 5/4 phase pushes 0.25 BDP more into flight every eight
/// rounds whatever the losses, so about 0.15 BDP overflows per cycle, roughly 2 % of the
/// packets; v3 learns inflight_hi from the first lossy probe, cruises 15 % below it and probes
/// only every 2–3 s (25 or more rounds), cautiously after a lossy one, so it must retransmit
/// several times less. It still uses the link: cruising at 0.85 · inflight_hi with
/// inflight_hi about BDP + buffer keeps utilisation near 0.9.
#[test]
fn bbr3_responds_to_sustained_loss_on_a_shallow_buffer() {
    let run = |cc: &str| {
        let r = alone(cc, 0.1, 0.0, 60);
        let f = r.summary.flows[0].clone();
        let rate = f.retransmits as f64 / f.segments_sent as f64;
        (rate, utilisation_between(&r, 5.0, 60.0))
    };
    let (v1, u1) = run("bbr");
    let (v3, u3) = run("bbr3");
    eprintln!("retransmitted: v1 {:.2} % (utilisation {u1:.3}), v3 {:.2} % ({u3:.3})", v1 * 100.0, v3 * 100.0);
    assert!(v1 >= 0.01, "v1 retransmitted only {v1}");
    assert!(v3 < 0.5 * v1, "v3 {v3} vs v1 {v1}");
    assert!(u3 >= 0.8, "v3 utilisation {u3}");
}

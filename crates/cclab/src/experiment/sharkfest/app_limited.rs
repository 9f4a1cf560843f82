//! BBR's "Tracks App-limited condition (nothing to send) to prevent underestimation" (the
//! talk's BBR slide, core idea 4): a delivery-rate sample taken while the application had
//! nothing to send measures the application, not the path, so BBR lets it into its bandwidth
//! filter only if it is at least the estimate (draft-cheng-iccrg-delivery-rate-estimation
//! §3.2, `tcp_rate.c` and `bbr_update_bw` in Linux).
//!
//! BBR alone on the testbed, busy until [`SPELL_FROM_S`], then its application writes at a
//! tenth of the link (`app_schedule`, iperf3's `-b`) for [`SPELL_S`] s, a hundred round trips,
//! ten times the filter's window of 10 rounds, then it is busy again. With the condition
//! tracked (Linux) and counted (`track_app_limited = false`, the ablation): goodput over the
//! [`RESUMED_S`] s from the resumed flow's first ACKs, one base RTT after the spell ends, as a
//! share of the link's rate. The laws beside it:
//!
//! - **Tracked**: BtlBw is still the link's rate, so BBR resumes at it: the payload's share
//!   of the link (mss over mss plus 52 bytes of headers), less what one PROBE_RTT may cost in
//!   the span (deliveries pause for its 200 ms and the round trip after it) and the first 3/4
//!   gain phase after a 5/4 one that began on an empty queue (a quarter of a BDP), paced 1 %
//!   below the estimate ([`tracked_floor`]).
//! - **Counted**: by the spell's end the filter holds only the spell's samples and BtlBw is
//!   the application's rate. PROBE_BW paces at most 5/4 above BtlBw, so a round delivers at
//!   most 5/4 of the last one's rate; a 5/4 phase lasts until inflight reaches 5/4 of the
//!   estimated BDP (`bbr_is_next_cycle_phase`), which an estimate that grows with every
//!   round never lets it reach, so it may go on probing every round: round k of the span
//!   delivers at most share · 1.25^(k+1) of the link, and at most the payload's share of it
//!   ([`counted_ceiling`]).

use super::super::readings::goodput_between;
use super::super::run_one;
use super::judge::direction_apart;
use super::measure::TESTBED;
use crate::experiment::Claim;
use crate::table::num;
use crate::verdict::Bound;
use crate::UserError;
use cc::algorithms::BbrConfig;
use cc::{CcConfig, Rate, Time};
use sim::{FlowConfig, Transport};
use std::path::Path;

/// The spell: from 10 s (long past Startup) for 10 s, at a tenth of the link.
pub const SPELL_FROM_S: u64 = 10;
pub const SPELL_S: u64 = 10;
pub const SPELL_SHARE: f64 = 0.1;
/// The span read after the spell: 20 round trips, two and a half gain cycles.
pub const RESUMED_S: f64 = 2.0;
const MSS: f64 = 1448.0;

/// Per seed, the resumed goodput as a share of the link: tracked, counted.
#[derive(Clone, Debug, Default)]
pub struct AppLimited {
    pub resumed: (Vec<f64>, Vec<f64>),
}

fn rtt_s() -> f64 {
    TESTBED.rtt_ms as f64 / 1e3
}

/// The tracked law's floor: (T − (0.2 s + RTT) − RTT/4)/T · mss/(mss + 52) · 0.99.
pub fn tracked_floor() -> f64 {
    let lost = 0.2 + rtt_s() + rtt_s() / 4.0;
    (RESUMED_S - lost) / RESUMED_S * payload_share() * 0.99
}

/// The payload's share of the link's rate: mss over mss plus 52 bytes of headers.
fn payload_share() -> f64 {
    MSS / (MSS + sim::config::TCP_HEADER_BYTES as f64)
}

/// The counted law's ceiling: the mean over the span's rounds k of
/// min(share · 1.25^(k+1), payload share).
pub fn counted_ceiling() -> f64 {
    let rounds = (RESUMED_S / rtt_s()).round() as i32;
    (0..rounds).map(|k| (SPELL_SHARE * 1.25f64.powi(k + 1)).min(payload_share())).sum::<f64>() / rounds as f64
}

pub fn run(seeds: u64, out: &Path) -> Result<AppLimited, UserError> {
    let dir = out.join("bbr-app-limited");
    let link = TESTBED;
    let spell_end = SPELL_FROM_S + SPELL_S;
    let from = spell_end as f64 + rtt_s();
    let resumed = |track: bool| {
        (1..=seeds)
            .map(|s| {
                let cc = CcConfig::Bbr(BbrConfig { track_app_limited: track, ..BbrConfig::default() });
                let mut f = FlowConfig::with_transport(Transport::Tcp(cc), Time::from_millis(link.rtt_ms));
                f.app_schedule = vec![
                    (Time::from_secs(SPELL_FROM_S), Some(Rate::from_bits_per_sec(SPELL_SHARE * link.mbps * 1e6))),
                    (Time::from_secs(spell_end), None),
                ];
                let mut cfg = link.config(vec![f], (from + RESUMED_S).ceil() as u64, 0.0, s);
                cfg.sample_interval = Some(Time::from_millis(100));
                let name = if track { "tracked" } else { "counted" };
                let r = run_one(cfg, &dir.join(format!("{name}/seed-{s}")))?;
                Ok(goodput_between(&r, from, from + RESUMED_S)[0] / (link.mbps * 1e6))
            })
            .collect::<Result<Vec<f64>, UserError>>()
    };
    Ok(AppLimited { resumed: (resumed(true)?, resumed(false)?) })
}

pub fn claims(a: &AppLimited, claims: &mut Vec<Claim>) {
    let quote = "\"Tracks App-limited condition (nothing to send) to prevent underestimation\"";
    let on = format!(
        "BBR alone on {}, one BDP; its application writes at {} of the link from {SPELL_FROM_S} s for {SPELL_S} s ({} round trips), then always; goodput over the {} s from the resumed flow's first ACKs, share of the link",
        TESTBED.label(),
        num(SPELL_SHARE),
        SPELL_S * 1000 / TESTBED.rtt_ms,
        num(RESUMED_S)
    );
    claims.push(direction_apart(
        &format!("BBR {quote}: after a quiet spell it resumes faster telling application-limited samples apart (Linux) than counting them (track_app_limited = false; {on})"),
        quote,
        ("told apart", &a.resumed.0),
        ("counted", &a.resumed.1),
        "",
    ));
    let law = |claim: String, values: &[f64], bound: Bound, law: String| {
        let mut c = Claim::bound(&claim, quote, values, bound, "");
        c.seed = format!("law: {law}");
        c
    };
    claims.push(law(
        format!("BBR tracking the condition keeps BtlBw at the link's rate through the spell and resumes at it ({on})"),
        &a.resumed.0,
        Bound::AtLeast(tracked_floor()),
        format!("{} of the link (payload share, one PROBE_RTT and one drained probe allowed)", num(tracked_floor())),
    ));
    claims.push(law(
        format!("Without it BBR underestimates: counted, BtlBw is the application's rate by the spell's end and regains at most 5/4 per round trip ({on})"),
        &a.resumed.1,
        Bound::AtMost(counted_ceiling()),
        format!("the mean of min({} · 1.25^(k+1), payload share) over the span's round trips k, {} of the link", num(SPELL_SHARE), num(counted_ceiling())),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_laws_on_the_testbed() {
        // (2 − 0.325)/2 · 1448/1500 · 0.99; and 20 rounds, ten below the payload share
        // (0.1 · 1.25^10 = 0.931, 1.25^11 = 1.164 above it): (Σ_{k=1..10} 0.1 · 1.25^k +
        // 10 · 0.96533)/20 = (4.1555 + 9.6533)/20.
        assert!((tracked_floor() - 0.8003).abs() < 1e-4, "{}", tracked_floor());
        assert!((counted_ceiling() - 0.69044).abs() < 1e-4, "{}", counted_ceiling());
    }
}

//! SABUL's control law as the seed describes it. Its discussion of row 2 says "SABUL congestion
//! control is a variant of Multiplicative Increase and Multiplicative Decrease algorithm. The
//! sender increases sending rate aggressively". Of figure 5 it says "we will see SABUL sender
//! drop the sending rate to a smaller value. After the sender recovers all the losses, the
//! sending rate will climb up gradually".
//!
//! **Multiplicative increase** is told from additive increase by how one step scales with the
//! rate. Take an interval that raises the rate from r to r'. Multiplicative increase multiplies
//! the rate by a constant (Gen-B at ρ = 0: 1/(1 − k2·α) = 1.0101 per interval), so the relative
//! step g = r'/r − 1 does not depend on r. Additive increase adds a constant, so g ∝ 1/r. Fit
//! ln g against ln r over every raising interval of a law's runs. The slope b is 0 for MI and
//! −1 for AI. The seed's MI holds when b lies nearer 0 than −1 (b > −½). Rates are the sender's
//! own, the rate its inter-packet time sets (the time series' `pacing_rate`). They are sampled
//! once per rate-control interval (the caller samples every T, from the flows' start), and a
//! step counts only between two samples whose last change was an increase and with no
//! retransmission between them: no ERR arrived, so no ERR-driven decrease hides inside the step.
//!
//! **The climb.** A fall is one or more intervals in a row whose last rate change was a
//! decrease. The climb after it is the intervals until the rate is back at its level before the
//! fall (a fall that comes before that ends it, unregained). "Gradually" is judged as the climb
//! lasting longer than the fall: the seed-by-seed means, on every seed with a regained fall.
//! Gen-B's law bounds the climb from below by its depth: ln(r_before / r_trough) /
//! ln(1/(1 − k2·α)) intervals, reached when nothing is lost on the way.

use crate::stats::{least_squares, mean};
use crate::verdict::{Bound, Claim, Verdict};
use cc::rate::sabul::rc::RcLawConfig;
use sim::results::FlowSample;
use sim::RunResult;

/// One flow's samples: sending rate, the kind of its last rate change, retransmissions so far.
type Point = (f64, &'static str, u64);

/// One flow's sending rate, once per sample, with the kind of its last rate change.
fn per_flow(r: &RunResult, settle_s: f64) -> Vec<Vec<Point>> {
    let samples = r.series.as_ref().map(|s| s.flows.as_slice()).unwrap_or_default();
    let flows = r.summary.flows.len();
    (0..flows as u32)
        .map(|i| {
            samples
                .iter()
                .filter(|s: &&FlowSample| s.flow == i && s.time > settle_s)
                .filter_map(|s| s.pacing_rate_mbps.map(|p| (p, s.state, s.retr)))
                .collect()
        })
        .collect()
}

/// Every raising interval of a run's flows: (ln r, ln g), g = r'/r − 1.
pub fn raising_steps(r: &RunResult, settle_s: f64) -> Vec<(f64, f64)> {
    per_flow(r, settle_s).iter().flat_map(|f| raising_of(f)).collect()
}

fn raising_of(f: &[Point]) -> Vec<(f64, f64)> {
    f.windows(2)
        .filter(|w| w[0].1 == "increase" && w[1].1 == "increase" && w[0].2 == w[1].2 && w[1].0 > w[0].0)
        .map(|w| (w[0].0.ln(), (w[1].0 / w[0].0 - 1.0).ln()))
        .collect()
}

/// The slope b of ln g on ln r: 0 for multiplicative increase, −1 for additive; `None` with
/// fewer than three steps or all at one rate.
pub fn increase_exponent(steps: &[(f64, f64)]) -> Option<f64> {
    least_squares(steps, 0.05).map(|l| l.slope)
}

/// One fall and the climb after it, in rate-control intervals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fall {
    pub fall: usize,
    /// `None` when the rate fell again, or the run ended, before it was back.
    pub climb: Option<usize>,
    /// r_before / r_trough.
    pub depth: f64,
}

/// Every fall of a run's flows after `settle_s`.
pub fn falls(r: &RunResult, settle_s: f64) -> Vec<Fall> {
    per_flow(r, settle_s).iter().flat_map(|f| falls_of(f)).collect()
}

fn falls_of(f: &[Point]) -> Vec<Fall> {
    let mut out = Vec::new();
    let mut i = 1;
    while i < f.len() {
        if f[i].1 != "decrease" || f[i - 1].1 == "decrease" {
            i += 1;
            continue;
        }
        let before = f[i - 1].0;
        let start = i;
        while i < f.len() && f[i].1 == "decrease" {
            i += 1;
        }
        let trough = f[i - 1].0;
        let fall = i - start;
        let mut climb = None;
        let mut j = i;
        while j < f.len() && f[j].1 != "decrease" {
            if f[j].0 >= before {
                climb = Some(j - i + 1);
                break;
            }
            j += 1;
        }
        out.push(Fall { fall, climb, depth: before / trough });
        i = j.max(i);
    }
    out
}

/// The mean fall and mean climb (intervals) of the regained falls, and the law's mean climb for
/// their depths at a growth of `growth` per interval; `None` when no fall was regained.
pub fn climb_summary(falls: &[Fall], growth: f64) -> Option<(f64, f64, f64)> {
    let regained: Vec<(&Fall, usize)> = falls.iter().filter_map(|f| f.climb.map(|c| (f, c))).collect();
    if regained.is_empty() {
        return None;
    }
    let fall = mean(&regained.iter().map(|(f, _)| f.fall as f64).collect::<Vec<_>>());
    let climb = mean(&regained.iter().map(|&(_, c)| c as f64).collect::<Vec<_>>());
    let law = mean(&regained.iter().map(|(f, _)| f.depth.ln() / growth.ln()).collect::<Vec<_>>());
    Some((fall, climb, law))
}

/// The seed's "a variant of Multiplicative Increase and Multiplicative Decrease" and figure 5's
/// "climb up gradually" (this module): the increase exponent per seed under `sabul` (rows 1, 3-5),
/// under the 2003 code's Gen-C (seed 1), and row 5's falls and climbs per seed.
/// `sample_ms` is the time series' interval, which is T on the rows read.
pub fn claims(raising: &[Vec<(f64, f64)>], gen_c_raising: &[(f64, f64)], row5_falls: &[Vec<Fall>], sample_ms: u64) -> Vec<Claim> {
    const SEED_MIMD: &str = "\"SABUL congestion control is a variant of Multiplicative Iincrease [sic] and Multiplicative Decrease algorithm. The sender increases sending rate aggressively.\"";
    let law = RcLawConfig::default();
    let growth = 1.0 / (1.0 - law.k2 * law.alpha);
    let exponents: Vec<f64> = raising.iter().filter_map(|s| increase_exponent(s)).collect();
    let steps: usize = raising.iter().map(Vec::len).sum();
    let gen_b = Claim::bound(
        "the papers' law (sabul, Gen-B) increases multiplicatively: exponent b of a raising interval's relative step against the rate, fitted per seed over rows 1 and 3-5 (MI 0, AI -1; judged nearer 0)",
        SEED_MIMD,
        &exponents,
        Bound::AtLeast(-0.5),
        "",
    )
    .check(&format!(
        "Gen-B's increase is δ ← δ·(1 + k2·(ρ − α)): at ρ = 0 the rate is multiplied by 1/(1 − k2·α) = {growth:.4} per interval whatever the rate ([RC] Table 2: k2 = {}, α = {}); a small loss ρ < α gives a smaller step, again a multiple of the rate. So the exponent fitted over {steps} raising intervals could miss 0 only by a slip in our law",
        law.k2, law.alpha
    ));
    let gen_c_b = increase_exponent(gen_c_raising);
    let packets_per_t = |ln_r: f64| ln_r.exp() * 1e6 * (sample_ms as f64 / 1e3) / (1500.0 * 8.0);
    let (lo, hi) = gen_c_raising.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| (lo.min(p.0), hi.max(p.0)));
    let gen_c = Claim::bound(
        "the 2003 code's law (code-2003, Gen-C) increases multiplicatively at Table 1's rates: the same exponent, seed 1, rows 1 and 3-5",
        SEED_MIMD,
        &gen_c_b.into_iter().collect::<Vec<_>>(),
        Bound::AtLeast(-0.5),
        "",
    );
    let gen_c = if gen_c.verdict == Verdict::DoesNotHold {
        gen_c.because(&format!(
            "b = {:.3}. Gen-C adds 10^⌈log10 N⌉/1000 packets per interval, N = T/IPT the packets sent in one: a constant step while N stays in one decade, so the relative step falls as 1/rate, additive increase. Its {} raising intervals ran at {:.0} to {:.0} packets per 200 ms, {}; the step is multiplied by 10 only where N crosses a power of 10, so the law is MIMD across decades and AIMD within one. Its decrease (×8/9 per loss epoch) is multiplicative. The seed's reference for the law is the SABUL papers' ([4]), whose law (the row above) is MI.",
            gen_c_b.unwrap_or(f64::NAN),
            gen_c_raising.len(),
            packets_per_t(lo),
            packets_per_t(hi),
            if (packets_per_t(lo).log10().ceil() - packets_per_t(hi).log10().ceil()).abs() < 0.5 { "one decade" } else { "more than one decade" }
        ))
    } else {
        gen_c
    };
    let per_seed: Vec<(f64, f64, f64)> = row5_falls.iter().filter_map(|f| climb_summary(f, growth)).collect();
    let unregained: usize = row5_falls.iter().flatten().filter(|f| f.climb.is_none()).count();
    let all: usize = row5_falls.iter().map(Vec::len).sum();
    let climb = Claim::direction(
        "row 5 (figure 5): after a fall the sending rate climbs back gradually: mean climb longer than mean fall, in rate-control intervals (falls regained before the next)",
        "\"we will see SABUL sender drop the sending rate to a smaller value. After the sender recovers all the losses, the sending rate will climb up gradually. This behavior is noticed from Figures 5.\"",
        ("climb", &per_seed.iter().map(|p| p.1).collect::<Vec<_>>()),
        ("fall", &per_seed.iter().map(|p| p.0).collect::<Vec<_>>()),
        "intervals",
    )
    .because(&format!(
        "{} of {all} falls regained before the next fall, on {} of {} seeds. Gen-B climbs back at most ×{growth:.4} per interval, so a fall to r_trough takes at least ln(r_before/r_trough)/ln {growth:.4} intervals to regain: at least {:.1} for these falls' depths, {:.1} measured (means over seeds); a fall is one to a few decreases, each multiplying the IPT by 1 + k1·(ρ − α) and adding c.",
        all - unregained,
        per_seed.len(),
        row5_falls.len(),
        mean(&per_seed.iter().map(|p| p.2).collect::<Vec<_>>()),
        mean(&per_seed.iter().map(|p| p.1).collect::<Vec<_>>()),
    ));
    vec![gen_b, gen_c, climb]
}

/// Figures 3-5: "In each figure, we notice that SABUL still exhibits the oscillation
/// property". A flow oscillates when its rate falls and climbs back to where it fell from,
/// again and again: judged as at least two regained falls per flow (one fall and its climb is
/// a single adjustment, two are a cycle repeated) in the `span_s` seconds after settling,
/// per seed, averaged over the row's `flows` flows.
pub fn oscillation_claim(row: usize, falls: &[Vec<Fall>], flows: usize, span_s: f64) -> Claim {
    let per_flow: Vec<f64> = falls.iter().map(|f| f.iter().filter(|f| f.climb.is_some()).count() as f64 / flows as f64).collect();
    let depth: Vec<f64> = falls.iter().flatten().filter(|f| f.climb.is_some()).map(|f| f.depth).collect();
    Claim::bound(
        &format!("row {} (figure {}): SABUL still oscillates: each flow's rate falls and climbs back to where it fell from at least twice in {span_s:.0} s after settling (regained falls per flow, per seed)", row + 1, row + 1),
        "\"In each figure, we notice that SABUL still exhibits the oscillation property\"",
        &per_flow,
        Bound::AtLeast(2.0),
        "falls",
    )
    .because(&format!(
        "a regained fall takes the rate down by a factor of {:.3} on average (largest {:.3}) and back: SABUL's decrease answers each interval's loss, and the increase resumes when none is reported",
        mean(&depth),
        depth.iter().copied().fold(f64::NAN, f64::max)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steps of ×1.01 at every rate give b = 0; steps of +1 give g = 1/r, b = −1.
    #[test]
    fn the_exponent_tells_multiplicative_from_additive_steps() {
        let mi: Vec<(f64, f64)> = (1..20).map(|k| ((100.0 * k as f64).ln(), 0.01f64.ln())).collect();
        assert!(increase_exponent(&mi).unwrap().abs() < 1e-12);
        let ai: Vec<(f64, f64)> = (1..20).map(|k| 100.0 * k as f64).map(|r| (r.ln(), (1.0 / r).ln())).collect();
        assert!((increase_exponent(&ai).unwrap() + 1.0).abs() < 1e-12);
    }

    /// Only a step between two increases with no retransmission between them counts: the
    /// step out of a fall and a step that an ERR (a retransmission) may have cut are left out.
    #[test]
    fn a_raising_step_is_one_clean_increase() {
        let f = [(100.0, "decrease", 0), (101.0, "increase", 0), (102.01, "increase", 0), (103.0, "increase", 1), (104.03, "increase", 1)];
        let got = raising_of(&f);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!((got[0].0 - 101f64.ln()).abs() < 1e-12 && (got[0].1 - 0.01f64.ln()).abs() < 1e-9);
        assert!((got[1].0 - 103f64.ln()).abs() < 1e-12 && (got[1].1 - 0.01f64.ln()).abs() < 1e-9);
    }

    /// 100, a fall of two intervals to 80, then ×1.1 per interval: 88, 96.8, 106.48 is back
    /// above 100 on the third; a second fall that never recovers is kept, unregained.
    #[test]
    fn a_fall_and_its_climb_are_counted_in_intervals() {
        let f = [
            (100.0, "increase", 0),
            (90.0, "decrease", 1),
            (80.0, "decrease", 2),
            (88.0, "increase", 2),
            (96.8, "increase", 2),
            (106.48, "increase", 2),
            (50.0, "decrease", 3),
            (55.0, "increase", 3),
        ];
        let got = falls_of(&f);
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].fall, got[0].climb), (2, Some(3)));
        assert!((got[0].depth - 1.25).abs() < 1e-12);
        assert_eq!((got[1].fall, got[1].climb), (1, None));
        let (fall, climb, law) = climb_summary(&got, 1.1).unwrap();
        assert_eq!((fall, climb), (2.0, 3.0));
        assert!((law - 1.25f64.ln() / 1.1f64.ln()).abs() < 1e-12, "ln 1.25 / ln 1.1 = 2.34 intervals");
    }
}

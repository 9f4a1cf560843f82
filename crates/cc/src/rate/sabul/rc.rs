//! SABUL rate control, generation B: the algorithm of the SABUL papers (spec §1.4 Gen-B).
//!
//! Sources: Gu, Hong, Mazzucco, Grossman, "Rate Based Congestion Control over High
//! Bandwidth/Delay Links" (\[RC\] §3, Tables 1–2; the seed's reference \[4\]); "SABUL: A High
//! Performance Data Transfer Protocol" (\[SP\] §3.6). The same rule, with other constants,
//! survives commented out in the 2003 code's `rateControl()`.
//!
//! Symbols: δ the inter-packet time (IPT, µs); ρ the loss rate of the last rate-control
//! interval, ρ = LOSS/SENT from ERR reports (\[RC\] eq. 11), optionally smoothed as
//! `H ← w·H + (1 − w)·ρ`; α the tolerated loss; L the ERR packets since the last rate change.
//!
//! ```text
//! every SYN (constant interval T):
//!     ρ > α:  δ ← δ·(1 + k1·(ρ − α)) + c      non-linear decrease
//!     ρ < α:  δ ← δ·(1 + k2·(ρ − α))          (ρ − α) < 0: multiplicative increase
//!     ρ = α:  δ ← δ + d
//!     L ← 0
//! every ERR:
//!     L ← L + 1;  if L > V: δ ← δ + b, L ← 0
//! ```
//!
//! \[RC\] Table 2: α = 0.001, k1 = 0.125, k2 = 10, c = 2 µs, b = 0.5 µs, d = 0.1 µs, V = 10 (and
//! T = 20 ms; cclab's `sabul` defaults T to the 200 ms of the seed's experiments). At ρ = 0
//! the IPT shrinks 1 % per interval, i.e. the rate grows ×1.0101 per T; the additive `c`
//! makes fast flows (small δ) lose a larger fraction of their rate (\[RC\]'s fairness argument).

use serde::{Deserialize, Serialize};

/// The constants of \[RC\] Table 2.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RcLawConfig {
    /// α, the tolerated loss rate.
    pub alpha: f64,
    /// k1, the gain of the decrease.
    pub k1: f64,
    /// k2, the gain of the increase.
    pub k2: f64,
    /// c (µs) added on a decrease.
    pub c_us: f64,
    /// b (µs) added when more than V ERRs arrive between rate changes.
    pub b_us: f64,
    /// d (µs) added when ρ = α exactly.
    pub d_us: f64,
    /// V, the ERR count that triggers the fast reaction.
    pub v: u32,
    /// w, the weight of history in the loss EWMA (0: use ρ as in \[RC\]; the code's
    /// commented-out version used 0.1).
    pub loss_history_weight: f64,
}

impl Default for RcLawConfig {
    fn default() -> Self {
        RcLawConfig {
            alpha: 0.001,
            k1: 0.125,
            k2: 10.0,
            c_us: 2.0,
            b_us: 0.5,
            d_us: 0.1,
            v: 10,
            loss_history_weight: 0.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct RcLaw {
    cfg: RcLawConfig,
    smoothed_loss: f64,
    errs_since_change: u32,
}

impl RcLaw {
    pub fn new(cfg: &RcLawConfig) -> RcLaw {
        RcLaw { cfg: cfg.clone(), smoothed_loss: 0.0, errs_since_change: 0 }
    }

    /// The SYN step: the new IPT from the interval's loss rate.
    pub fn on_syn(&mut self, ipt_us: f64, loss: f64) -> f64 {
        let c = &self.cfg;
        self.smoothed_loss = c.loss_history_weight * self.smoothed_loss + (1.0 - c.loss_history_weight) * loss;
        self.errs_since_change = 0;
        let rho = self.smoothed_loss;
        if rho > c.alpha {
            ipt_us * (1.0 + c.k1 * (rho - c.alpha)) + c.c_us
        } else if rho < c.alpha {
            ipt_us * (1.0 + c.k2 * (rho - c.alpha))
        } else {
            ipt_us + c.d_us
        }
    }

    /// The ERR step: `+b` on every (V+1)-th ERR since the last rate change.
    pub fn on_err(&mut self, ipt_us: f64) -> f64 {
        self.errs_since_change += 1;
        if self.errs_since_change > self.cfg.v {
            self.errs_since_change = 0;
            ipt_us + self.cfg.b_us
        } else {
            ipt_us
        }
    }
}


/// \[RC\] §3: a tolerated loss rate and an EWMA weight are fractions; gains positive; the
/// additive steps are non-negative times in µs.
impl crate::check::Validate for RcLawConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        within("alpha", self.alpha, 0.0..1.0)?;
        within("k1", self.k1, above(0.0, 1e3))?;
        within("k2", self.k2, above(0.0, 1e3))?;
        for (name, us) in [("c_us", self.c_us), ("b_us", self.b_us), ("d_us", self.d_us)] {
            within(name, us, 0.0..=1e6)?;
        }
        within("v", self.v, 1..=1_000_000)?;
        within("loss_history_weight", self.loss_history_weight, 0.0..1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn no_loss_shrinks_the_ipt_by_one_percent_per_interval() {
        let mut l = RcLaw::new(&RcLawConfig::default());
        // δ·(1 + 10·(0 − 0.001)) = 0.99·δ: the rate grows ×1/0.99 = 1.0101.
        assert!(close(l.on_syn(100.0, 0.0), 99.0));
        // ρ = 0.0005 < α: δ·(1 − 10·0.0005) = 0.995·δ.
        assert!(close(l.on_syn(100.0, 0.0005), 99.5));
        assert!(close(l.on_syn(100.0, 0.001), 100.1), "ρ = α adds d");
    }

    #[test]
    fn loss_above_alpha_is_a_multiplicative_and_additive_decrease() {
        let mut l = RcLaw::new(&RcLawConfig::default());
        // ρ = 0.081: 100·(1 + 0.125·0.08) + 2 = 103.
        assert!(close(l.on_syn(100.0, 0.081), 103.0));
        // ρ = 1 at δ = 10: 10·(1 + 0.125·0.999) + 2 = 13.24875. The additive c costs the fast
        // flow 24.5 % of its rate, a flow at δ = 1000 only 11.3 %.
        assert!(close(l.on_syn(10.0, 1.0), 13.24875));
        assert!(close(l.on_syn(1000.0, 1.0), 1126.875));
    }

    #[test]
    fn every_eleventh_err_adds_b_and_a_syn_clears_the_count() {
        let mut l = RcLaw::new(&RcLawConfig::default());
        let mut ipt = 50.0;
        for _ in 0..10 {
            ipt = l.on_err(ipt);
        }
        assert_eq!(ipt, 50.0);
        ipt = l.on_err(ipt);
        assert_eq!(ipt, 50.5);
        for _ in 0..5 {
            ipt = l.on_err(ipt);
        }
        l.on_syn(ipt, 0.0);
        for _ in 0..10 {
            ipt = l.on_err(ipt);
        }
        assert_eq!(ipt, 50.5, "the SYN step cleared L");
    }

    #[test]
    fn history_weight_smooths_the_loss_rate() {
        let cfg = RcLawConfig { loss_history_weight: 0.1, ..RcLawConfig::default() };
        let mut l = RcLaw::new(&cfg);
        l.on_syn(100.0, 0.1);
        // H = 0.9·0.1 = 0.09, then H = 0.1·0.09 + 0 = 0.009 > α: still a decrease.
        let d = l.on_syn(100.0, 0.0);
        assert!(close(d, 100.0 * (1.0 + 0.125 * (0.009 - 0.001)) + 2.0));
    }
}

//! SABUL rate control, generation C: the rule active in the released 2003 code (spec §1.4
//! Gen-C; \[S-code\] `sender.cpp` `rateControl`, SC_SYN and SC_ERR; \[S-ns2\] `app-sd.cc`), the
//! direct ancestor of UDT's.
//!
//! State: the smoothed loss H, the ERR count of the current congestion epoch and DecCount.
//! T is the SYN interval and IPT the inter-packet time, both in µs.
//!
//! ```text
//! every SYN:
//!     H ← w·H + (1 − w)·loss
//!     if H ≤ α:
//!         N   = T / IPT                                 packets per SYN at the current rate
//!         inc = max(10^⌈log10 N⌉ / 1000, 1/1500)        packets added per SYN
//!         IPT ← IPT·T / (IPT·inc + T)                   i.e. rate += inc packets per T
//! every ERR:
//!     if its first number > LastDecSeq (a new congestion epoch; the sender decides):
//!         IPT ← 1.125·IPT;  ERRCount ← 1;  DecCount ← 4
//!     elif ++ERRCount ≥ 2^DecCount:                     further cuts at 16, 32, 64, … ERRs
//!         DecCount ← DecCount + 1;  IPT ← 1.125·IPT
//! ```
//!
//! Constants: T = 10 ms in the code, α = 0.001, w = 0.1. With N in (10^(k−1), 10^k] the step is
//! 10^(k−3) packets per T, a relative increase in [0.1 %, 1 %) per interval; each cut is ×8/9.

use serde::{Deserialize, Serialize};

/// The 2003 code's constants.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GenCLawConfig {
    /// α: no increase while the smoothed loss exceeds it.
    pub alpha: f64,
    /// w, the weight of history in the loss EWMA.
    pub loss_history_weight: f64,
    /// The divisor in `10^⌈log10 N⌉ / 1000`.
    pub inc_divisor: f64,
    /// The smallest increase, packets per SYN (1/1500).
    pub min_inc: f64,
    /// The IPT factor of a decrease (1.125: rate × 8/9).
    pub decrease_factor: f64,
    /// DecCount at the start of an epoch: the first extra cut comes after 2^4 = 16 ERRs.
    pub dec_count_start: u32,
}

impl Default for GenCLawConfig {
    fn default() -> Self {
        GenCLawConfig {
            alpha: 0.001,
            loss_history_weight: 0.1,
            inc_divisor: 1000.0,
            min_inc: 1.0 / 1500.0,
            decrease_factor: 1.125,
            dec_count_start: 4,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct GenCLaw {
    cfg: GenCLawConfig,
    syn_us: f64,
    smoothed_loss: f64,
    err_count: u64,
    dec_count: u32,
}

impl GenCLaw {
    pub fn new(cfg: &GenCLawConfig, syn_us: f64) -> GenCLaw {
        GenCLaw { cfg: cfg.clone(), syn_us, smoothed_loss: 0.0, err_count: 0, dec_count: 1 }
    }

    /// Packets added per SYN at the given IPT.
    pub fn increment(&self, ipt_us: f64) -> f64 {
        let n = self.syn_us / ipt_us;
        (10f64.powf(n.log10().ceil()) / self.cfg.inc_divisor).max(self.cfg.min_inc)
    }

    pub fn on_syn(&mut self, ipt_us: f64, loss: f64) -> f64 {
        let w = self.cfg.loss_history_weight;
        self.smoothed_loss = w * self.smoothed_loss + (1.0 - w) * loss;
        if self.smoothed_loss > self.cfg.alpha {
            return ipt_us;
        }
        let t = self.syn_us;
        ipt_us * t / (ipt_us * self.increment(ipt_us) + t)
    }

    pub fn on_err(&mut self, ipt_us: f64, new_epoch: bool) -> f64 {
        if new_epoch {
            self.err_count = 1;
            self.dec_count = self.cfg.dec_count_start;
            return ipt_us * self.cfg.decrease_factor;
        }
        self.err_count += 1;
        if self.err_count >= 1u64 << self.dec_count.min(63) {
            self.dec_count += 1;
            ipt_us * self.cfg.decrease_factor
        } else {
            ipt_us
        }
    }
}


/// The 2003 code: a decrease multiplies the IPT by more than 1; DecCount is an exponent of 2.
impl crate::check::Validate for GenCLawConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        within("alpha", self.alpha, 0.0..1.0)?;
        within("loss_history_weight", self.loss_history_weight, 0.0..1.0)?;
        within("inc_divisor", self.inc_divisor, above(0.0, 1e9))?;
        within("min_inc", self.min_inc, 0.0..=1e6)?;
        within("decrease_factor", self.decrease_factor, above(1.0, 1e3))?;
        within("dec_count_start", self.dec_count_start, 0..=31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn increase_steps_follow_the_packets_per_interval() {
        let l = GenCLaw::new(&GenCLawConfig::default(), 10_000.0);
        // IPT 12 µs: N = 833, inc = 1 packet per 10 ms (+100 pkt/s).
        assert_eq!(l.increment(12.0), 1.0);
        // IPT 100 µs: N = 100, inc = 0.1 (+10 pkt/s).
        assert!((l.increment(100.0) - 0.1).abs() < 1e-12);
        // IPT 1000 µs: N = 10, inc = 0.01.
        assert!((l.increment(1000.0) - 0.01).abs() < 1e-12);
        // IPT 5000 µs: N = 2, 10/1000 = 0.01 still above 1/1500.
        assert!((l.increment(5000.0) - 0.01).abs() < 1e-12);
    }

    #[test]
    fn a_loss_free_syn_adds_inc_packets_per_interval() {
        let mut l = GenCLaw::new(&GenCLawConfig::default(), 10_000.0);
        let ipt = l.on_syn(100.0, 0.0);
        // 100·10⁴/(100·0.1 + 10⁴) = 99.9001 µs: 10 000 → 10 010 pkt/s.
        assert!((1e6 / ipt - 10_010.0).abs() < 1e-6);
        // Smoothed loss 0.9·0.01 > α: no change.
        assert_eq!(l.on_syn(100.0, 0.01), 100.0);
    }

    #[test]
    fn the_first_err_of_an_epoch_cuts_then_every_doubling_count() {
        let mut l = GenCLaw::new(&GenCLawConfig::default(), 10_000.0);
        let mut ipt = l.on_err(80.0, true);
        assert_eq!(ipt, 90.0);
        let mut cuts_at = Vec::new();
        for n in 2..=70 {
            let next = l.on_err(ipt, false);
            if next > ipt {
                cuts_at.push(n);
            }
            ipt = next;
        }
        assert_eq!(cuts_at, vec![16, 32, 64]);
    }
}

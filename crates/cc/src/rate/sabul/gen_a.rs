//! SABUL rate control, generation A: the two-threshold MIMD of the 2002 technical report (spec
//! §1.4 Gen-A; \[TR2002\] §5.2.6 and App. A.1; \[EXP\] §3), with its acceleration phase and its
//! early-congestion rule.
//!
//! State: the inter-packet time IPT (whole µs, as the code keeps it), the smoothed loss LRA and
//! the flag `accel` (initially set). Every SYN, with the interval's loss rate:
//!
//! ```text
//! LRA ← 0.1·LRA + 0.9·loss
//! accel:     LRA > U: IPT ← 2·IPT                      the first loss ends the acceleration
//!            LRA < L: IPT ← max(1, IPT/2)              double the rate while nothing is lost
//!            otherwise, or IPT = 1 or LRA > U: accel ← false
//! otherwise: LRA > U: IPT ← min(IPT_max, max(IPT + 1, ⌊IPT·(1 + (LRA − U))⌋))
//!            LRA < L: IPT ← max(1, ⌊IPT·(1 − (L − LRA))⌋)
//!            between L and U: unchanged                a dead band
//! ```
//! Every ERR: after 50 ERRs in one SYN interval, IPT ← IPT + 2 µs and the count restarts at
//! −200 (so at most twice in a busy interval); the SYN step resets the count.
//!
//! Constants \[TR2002\] §9: U = 1 %, L = 0.1 %, history weight 0.1, IPT_max = 200 µs. The
//! floors make the step at least 1 µs either way: near 37 µs (≈ 320 Mb/s) that is ±2.7 % per
//! interval, so the SYN interval T sets how fast a flow climbs, while the ERR rule takes from
//! each flow by its losses, whatever T. \[TR2002\]'s other early-congestion rule (halve the rate
//! when unacknowledged packets pass 19 200) needs the sender's window and is left out: the
//! flow window caps those packets anyway. The interval's loss rate is the sender's, counted
//! from ERR reports as for the other generations (\[TR2002\] took the received count from the
//! receiver's SYN packet).

use serde::{Deserialize, Serialize};

/// \[TR2002\]'s constants.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GenALawConfig {
    /// U: above it the rate decreases.
    pub upper_loss: f64,
    /// L: below it the rate increases.
    pub lower_loss: f64,
    /// The weight of history in LRA.
    pub loss_history_weight: f64,
    /// IPT_max (µs).
    pub max_ipt_us: f64,
    /// Start with the acceleration phase.
    pub accelerate: bool,
    /// ERRs in one SYN interval that trigger the early-congestion step.
    pub err_burst: i64,
    /// That step (µs).
    pub err_burst_step_us: f64,
    /// The ERR count after the step.
    pub err_burst_reset: i64,
}

impl Default for GenALawConfig {
    fn default() -> Self {
        GenALawConfig {
            upper_loss: 0.01,
            lower_loss: 0.001,
            loss_history_weight: 0.1,
            max_ipt_us: 200.0,
            accelerate: true,
            err_burst: 50,
            err_burst_step_us: 2.0,
            err_burst_reset: -200,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct GenALaw {
    cfg: GenALawConfig,
    lra: f64,
    accel: bool,
    errs: i64,
}

impl GenALaw {
    pub fn new(cfg: &GenALawConfig) -> GenALaw {
        GenALaw { cfg: cfg.clone(), lra: 0.0, accel: cfg.accelerate, errs: 0 }
    }

    pub fn on_syn(&mut self, ipt_us: f64, loss: f64) -> f64 {
        let c = &self.cfg;
        let w = c.loss_history_weight;
        self.lra = w * self.lra + (1.0 - w) * loss;
        self.errs = 0;
        let ipt = ipt_us.round().max(1.0);
        let (u, l) = (c.upper_loss, c.lower_loss);
        if self.accel {
            if self.lra < l {
                let next = (ipt / 2.0).floor().max(1.0);
                self.accel = next > 1.0;
                return next;
            }
            self.accel = false;
            return if self.lra > u { (2.0 * ipt).min(c.max_ipt_us) } else { ipt };
        }
        if self.lra > u {
            (ipt * (1.0 + (self.lra - u))).floor().max(ipt + 1.0).min(c.max_ipt_us)
        } else if self.lra < l {
            (ipt * (1.0 - (l - self.lra))).floor().max(1.0)
        } else {
            ipt
        }
    }

    pub fn on_err(&mut self, ipt_us: f64) -> f64 {
        self.errs += 1;
        if self.errs >= self.cfg.err_burst {
            self.errs = self.cfg.err_burst_reset;
            (ipt_us + self.cfg.err_burst_step_us).min(self.cfg.max_ipt_us)
        } else {
            ipt_us
        }
    }
}


/// \[TR2002\]: thresholds L <= U are loss fractions; the IPT bound and steps are times in µs.
impl crate::check::Validate for GenALawConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        within("upper_loss", self.upper_loss, 0.0..1.0)?;
        within("lower_loss", self.lower_loss, 0.0..1.0)?;
        ordered("lower_loss", self.lower_loss, "upper_loss", self.upper_loss)?;
        within("loss_history_weight", self.loss_history_weight, 0.0..1.0)?;
        within("max_ipt_us", self.max_ipt_us, above(0.0, 1e9))?;
        within("err_burst", self.err_burst, 1..=1_000_000)?;
        within("err_burst_step_us", self.err_burst_step_us, 0.0..=1e6)?;
        within("err_burst_reset", self.err_burst_reset, -1_000_000..=1_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn law() -> GenALaw {
        GenALaw::new(&GenALawConfig::default())
    }

    #[test]
    fn the_acceleration_phase_doubles_the_rate_until_loss_then_backs_off_once() {
        let mut l = law();
        assert_eq!(l.on_syn(40.0, 0.0), 20.0);
        assert_eq!(l.on_syn(20.0, 0.0), 10.0);
        // LRA = 0.9·0.05 = 4.5 % > U: IPT doubles and the phase ends.
        assert_eq!(l.on_syn(10.0, 0.05), 20.0);
        assert!(!l.accel);
        // From here the steps are the slow ones: LRA = 0.1·0.045 + 0 = 0.45 %, in the dead band.
        assert_eq!(l.on_syn(20.0, 0.0), 20.0);
    }

    #[test]
    fn a_loss_between_the_thresholds_ends_the_acceleration_without_a_change() {
        let mut l = law();
        // LRA = 0.9·0.005 = 0.45 %, between L = 0.1 % and U = 1 %.
        assert_eq!(l.on_syn(40.0, 0.005), 40.0);
        assert!(!l.accel);
    }

    #[test]
    fn outside_the_dead_band_each_step_is_at_least_one_microsecond() {
        let mut l = GenALaw::new(&GenALawConfig { accelerate: false, ..GenALawConfig::default() });
        // No loss: ⌊37·(1 − 0.001)⌋ = 36, a 2.7 % rate increase.
        assert_eq!(l.on_syn(37.0, 0.0), 36.0);
        // LRA = 0.9·0.02 = 1.8 %: ⌊37·1.008⌋ = 37 → at least IPT + 1 = 38.
        assert_eq!(l.on_syn(37.0, 0.02), 38.0);
        // A large loss: LRA = 0.1·0.018 + 0.9·0.5 = 0.4518: ⌊100·1.4418⌋ = 144.
        assert_eq!(l.on_syn(100.0, 0.5), 144.0);
        // IPT_max = 200 µs.
        assert_eq!(l.on_syn(190.0, 1.0), 200.0);
        // At 1 µs no further increase.
        let mut fast = GenALaw::new(&GenALawConfig { accelerate: false, ..GenALawConfig::default() });
        assert_eq!(fast.on_syn(1.0, 0.0), 1.0);
    }

    #[test]
    fn fifty_errs_in_one_interval_add_two_microseconds_and_a_syn_clears_the_count() {
        let mut l = law();
        let mut ipt = 30.0;
        let mut steps = Vec::new();
        for n in 1..=350 {
            let next = l.on_err(ipt);
            if next > ipt {
                steps.push(n);
            }
            ipt = next;
        }
        // At the 50th ERR, then 250 ERRs later (the count restarts at −200).
        assert_eq!(steps, vec![50, 300]);
        assert_eq!(ipt, 34.0);
        l.on_syn(ipt, 0.005);
        assert!((1..50).all(|_| l.on_err(34.0) == 34.0), "the SYN step cleared the count");
    }
}

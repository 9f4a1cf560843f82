//! Round-trip times of scan targets: a constant, a uniform range, or a log-normal given by its
//! median and shape σ (the usual fit to Internet host RTTs: a body around the median and a long
//! tail of slow access links).

use crate::units::{parse_time, TIME_FORMS};
use cc::rng::{CcRng, Rng};
use cc::Time;
use rand_distr::{Distribution, LogNormal};
use std::fmt;
use std::str::FromStr;

#[derive(Copy, Clone, Debug, PartialEq)]
pub enum RttDistribution {
    Constant(Time),
    Uniform { lo: Time, hi: Time },
    LogNormal { median: Time, sigma: f64 },
}

pub const RTT_FORMS: &str = "an RTT like 100ms, uniform:50ms:500ms, or lognormal:150ms:0.7 (median and sigma)";

impl RttDistribution {
    pub fn sample(&self, rng: &mut CcRng) -> Time {
        match *self {
            RttDistribution::Constant(t) => t,
            RttDistribution::Uniform { lo, hi } => Time(rng.random_range(lo.0..=hi.0)),
            RttDistribution::LogNormal { median, sigma } => {
                let d = LogNormal::new(median.as_secs_f64().ln(), sigma).expect("validated sigma");
                Time::from_secs_f64(d.sample(rng))
            }
        }
    }
}

impl FromStr for RttDistribution {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("`{s}` is not {RTT_FORMS}");
        let time = |t: &str| parse_time(t).map_err(|_| format!("`{t}` in `{s}` is not {TIME_FORMS}"));
        let parts: Vec<&str> = s.trim().split(':').collect();
        let d = match parts.as_slice() {
            [t] => RttDistribution::Constant(time(t)?),
            [kind, lo, hi] if kind.eq_ignore_ascii_case("uniform") => {
                let (lo, hi) = (time(lo)?, time(hi)?);
                if lo > hi {
                    return Err(format!("`{s}`: the lower bound is above the upper one"));
                }
                RttDistribution::Uniform { lo, hi }
            }
            [kind, median, sigma] if kind.eq_ignore_ascii_case("lognormal") => {
                let median = time(median)?;
                let sigma: f64 = sigma.trim().parse().map_err(|_| bad())?;
                if !(sigma.is_finite() && sigma >= 0.0) || median == Time::ZERO {
                    return Err(format!("`{s}`: a log-normal needs a positive median and a sigma of 0 or more"));
                }
                RttDistribution::LogNormal { median, sigma }
            }
            _ => return Err(bad()),
        };
        Ok(d)
    }
}

impl fmt::Display for RttDistribution {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let ms = |t: Time| t.as_millis_f64();
        match *self {
            RttDistribution::Constant(t) => write!(f, "{} ms", ms(t)),
            RttDistribution::Uniform { lo, hi } => write!(f, "uniform {}..{} ms", ms(lo), ms(hi)),
            RttDistribution::LogNormal { median, sigma } => write!(f, "log-normal, median {} ms, sigma {sigma}", ms(median)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cc::component_rng;

    #[test]
    fn parses_the_three_forms_and_rejects_the_rest() {
        assert_eq!("100ms".parse::<RttDistribution>().unwrap(), RttDistribution::Constant(Time::from_millis(100)));
        assert_eq!(
            "uniform:50ms:500ms".parse::<RttDistribution>().unwrap(),
            RttDistribution::Uniform { lo: Time::from_millis(50), hi: Time::from_millis(500) }
        );
        assert_eq!(
            "lognormal:150ms:0.7".parse::<RttDistribution>().unwrap(),
            RttDistribution::LogNormal { median: Time::from_millis(150), sigma: 0.7 }
        );
        for bad in ["fast", "uniform:500ms:50ms", "lognormal:150ms:-1", "normal:1s:2s", "100"] {
            assert!(bad.parse::<RttDistribution>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_log_normal_has_the_median_it_was_given() {
        let d = RttDistribution::LogNormal { median: Time::from_millis(150), sigma: 0.7 };
        let mut rng = component_rng(1, 1);
        let mut xs: Vec<u64> = (0..20_001).map(|_| d.sample(&mut rng).0).collect();
        xs.sort_unstable();
        let median = Time(xs[10_000]).as_millis_f64();
        // Standard error of the median ≈ 1.25·σ·m/√n ≈ 0.9 ms; allow 5 of them.
        assert!((median - 150.0).abs() < 5.0, "{median}");
    }
}

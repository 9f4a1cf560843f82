//! The random processes behind netem's impairments: loss (Bernoulli with correlation, and
//! Gilbert-Elliott) and delay jitter with correlation. Each owns a seeded RNG.

use crate::netem::{DelayDistribution, LossSpec, Netem};
use cc::rng::{CcRng, Rng};
use cc::Time;
use rand_distr::{Distribution, StandardNormal};

/// netem's correlated uniform (`get_crandom`): `(1-ρ)·U + ρ·previous`.
#[derive(Clone, Debug, Default)]
struct Correlated {
    rho: f64,
    last: f64,
}

impl Correlated {
    fn next(&mut self, rng: &mut CcRng) -> f64 {
        let u: f64 = rng.random();
        let v = if self.rho == 0.0 { u } else { (1.0 - self.rho) * u + self.rho * self.last };
        self.last = v;
        v
    }
}

#[derive(Clone, Debug)]
pub struct LossProcess {
    spec: LossSpec,
    corr: Correlated,
    bad: bool,
    rng: CcRng,
}

impl LossProcess {
    pub fn new(spec: LossSpec, rng: CcRng) -> LossProcess {
        let rho = match spec {
            LossSpec::Random { correlation, .. } => correlation,
            _ => 0.0,
        };
        LossProcess { spec, corr: Correlated { rho, last: 0.0 }, bad: false, rng }
    }

    /// Whether the next packet is lost.
    #[inline]
    pub fn lose(&mut self) -> bool {
        match self.spec {
            LossSpec::None => false,
            LossSpec::Random { p, .. } => p > 0.0 && self.corr.next(&mut self.rng) < p,
            LossSpec::GilbertElliott { p, r, one_minus_h, one_minus_k } => {
                // As netem's loss_gilb_ell: the transition is drawn first, the loss
                // probability is the one of the state the packet found.
                let rng = &mut self.rng;
                if self.bad {
                    if rng.random::<f64>() < r {
                        self.bad = false;
                    }
                    rng.random::<f64>() < one_minus_h
                } else {
                    if rng.random::<f64>() < p {
                        self.bad = true;
                    }
                    rng.random::<f64>() < one_minus_k
                }
            }
        }
    }
}

#[derive(Clone, Debug)]
pub struct DelayProcess {
    delay: Time,
    jitter: Time,
    distribution: DelayDistribution,
    corr: Correlated,
    last_normal: f64,
    rng: CcRng,
}

impl DelayProcess {
    pub fn new(n: &Netem, rng: CcRng) -> DelayProcess {
        DelayProcess {
            delay: n.delay,
            jitter: n.jitter,
            distribution: n.distribution,
            corr: Correlated { rho: n.delay_correlation, last: 0.5 },
            last_normal: 0.0,
            rng,
        }
    }

    pub fn has_jitter(&self) -> bool {
        self.jitter > Time::ZERO
    }

    /// The delay of the next packet (never negative).
    #[inline]
    pub fn sample(&mut self) -> Time {
        if self.jitter == Time::ZERO {
            return self.delay;
        }
        let mu = self.delay.0 as f64;
        let sigma = self.jitter.0 as f64;
        let d = match self.distribution {
            DelayDistribution::Uniform => mu + sigma * (2.0 * self.corr.next(&mut self.rng) - 1.0),
            DelayDistribution::Normal => {
                let z: f64 = StandardNormal.sample(&mut self.rng);
                let rho = self.corr.rho;
                let v = (1.0 - rho) * z + rho * self.last_normal;
                self.last_normal = v;
                mu + sigma * v
            }
        };
        Time(d.max(0.0).round() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cc::component_rng;

    fn rate(mut lp: LossProcess, n: usize) -> f64 {
        (0..n).filter(|_| lp.lose()).count() as f64 / n as f64
    }

    #[test]
    fn bernoulli_loss_rate_matches_p() {
        let r = rate(LossProcess::new(LossSpec::Random { p: 0.01, correlation: 0.0 }, component_rng(1, 1)), 400_000);
        // Binomial standard deviation sqrt(p(1-p)/n) = 1.6e-4; allow 5 sigma.
        assert!((r - 0.01).abs() < 8e-4, "{r}");
    }

    #[test]
    fn gilbert_elliott_matches_its_stationary_loss_and_is_bursty() {
        let spec = LossSpec::GilbertElliott { p: 0.01, r: 0.1, one_minus_h: 0.7, one_minus_k: 0.0 };
        let mut lp = LossProcess::new(spec, component_rng(2, 1));
        let draws: Vec<bool> = (0..1_000_000).map(|_| lp.lose()).collect();
        let r = draws.iter().filter(|&&l| l).count() as f64 / draws.len() as f64;
        assert!((r - spec.mean_loss()).abs() < 0.1 * spec.mean_loss(), "{r} vs {}", spec.mean_loss());
        // Bursty: P(loss | previous loss) far above the mean (0.7·0.9 ≈ 0.63 in theory).
        let pairs = draws.windows(2).filter(|w| w[0]).count() as f64;
        let both = draws.windows(2).filter(|w| w[0] && w[1]).count() as f64;
        assert!(both / pairs > 0.5, "{}", both / pairs);
    }

    #[test]
    fn uniform_jitter_stays_within_bounds_with_the_right_mean() {
        let n = Netem::parse("delay 100ms 10ms").unwrap();
        let mut d = DelayProcess::new(&n, component_rng(3, 1));
        let xs: Vec<f64> = (0..100_000).map(|_| d.sample().as_millis_f64()).collect();
        assert!(xs.iter().all(|&x| (90.0..=110.0).contains(&x)));
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        assert!((mean - 100.0).abs() < 0.1, "{mean}");
    }
}

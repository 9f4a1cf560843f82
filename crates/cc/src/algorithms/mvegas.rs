//! Modified Vegas: Vegas made to compete with Reno, from the seed report
//! (`seeds/004`, "TCP Congestion Project Report": a Linux 3.13 `tcp_vegas.c` module, "vegas2").
//!
//! Same measurements as [`Vegas`](super::vegas::Vegas) (once per round trip, Linux's
//! `diff = cwnd·(rtt − base_rtt)/base_rtt`, rounded down to an integer `n`), with three
//! changes:
//!
//! 1. Slow start ends as soon as Vegas has its RTT samples — the first round with more than
//!    two samples, which is the second round trip — whatever the backlog: `cwnd` becomes the
//!    predicted window `min(cwnd, target_cwnd + 1)`, `target_cwnd = cwnd·base_rtt/rtt`, and
//!    `ssthresh = cwnd` (Vegas's exit, without waiting for `diff > gamma`).
//! 2. `alpha = 1`, `beta = 6` (Vegas: 2 and 4).
//! 3. Between them (`alpha ≤ n ≤ beta`) the window grows by one packet when a roll `rand`
//!    is below `2^(beta−n)`. The report's code rolls `rand = minRTT·(int)vegas·snd_una % 63`,
//!    so `rand` lies in `[0, 62]` and the probability is `2^(6−n)/63` (0.508 at `n = 1` down to
//!    0.016 at `n = 6`); its table writes `2^(6−n)/64` (.5 to .015625) for the "range [0,63]"
//!    its text names. We follow the code's modulus, `2^beta − 1`, and draw `rand` uniformly
//!    from the run's seeded RNG (`ctx.rng`), as the table assumes. (In C the product is
//!    computed unsigned and stored in an `int`, so in the kernel it is negative about half the
//!    time, and a negative roll always grows the window; the report does not say whether its
//!    runs did that, and we do not model it.)
//!
//! Below alpha the window grows by one packet per round and above beta it shrinks by one, as
//! in Vegas; losses are handled as Reno.
//!
//! **As built** (`as_built = true`). A public copy of a Linux 3.13 module named `vegas2`, with
//! alpha 1, beta 6 and the report's roll (`rand = … % 63`), converts the backlog with
//! `comp = 1 << (6 - comp)` where the report's text says diff: `comp` is still 0 there, so the
//! comparison value is always 64, above every roll, and the window grows by one packet in
//! every round up to beta. We cannot tell whether the report's runs used that copy; the option
//! runs mVegas as it would behave if they did (vegas-trials probes it).

use super::vegas_core::{RoundRtt, VegasCore, VegasFamily, VegasLaw};
use crate::rng::{CcRng, Rng};
use crate::units::Bytes;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MVegasConfig {
    /// Below this many queued packets cwnd grows by one per RTT.
    pub alpha: u32,
    /// Above this many queued packets cwnd shrinks by one per RTT; between alpha and beta it
    /// grows with probability `2^(beta − n)/(2^beta − 1)` (the report's code; its table: `/2^beta`).
    pub beta: u32,
    /// The module as a public copy has it: between alpha and beta the window always grows
    /// (see the module doc). Off by default: the report's table.
    pub as_built: bool,
}

impl Default for MVegasConfig {
    fn default() -> Self {
        MVegasConfig { alpha: 1, beta: 6, as_built: false }
    }
}

/// The report's roll for a backlog of `n` packets (`alpha ≤ n ≤ beta`): `rand % (2^beta − 1)`
/// below `2^(beta − n)`, true with probability `2^(beta − n)/(2^beta − 1)` (the report's
/// `% 63` for beta 6).
pub fn probabilistic_increase(n: u64, beta: u32, rng: &mut CcRng) -> bool {
    let (below, modulus) = roll(n, beta);
    rng.random_range(0..modulus) < below
}

/// The roll's odds: it increases when a number drawn from `0..modulus` is below `below`.
fn roll(n: u64, beta: u32) -> (u64, u64) {
    let top = 1u64 << beta.min(62);
    (top >> n.min(63), (top - 1).max(1))
}

/// The exact probability that [`probabilistic_increase`] increases: `2^(beta − n)/(2^beta − 1)`
/// while `2^(beta − n)` is below the modulus, else 1.
pub fn increase_probability(n: u64, beta: u32) -> f64 {
    let (below, modulus) = roll(n, beta);
    below.min(modulus) as f64 / modulus as f64
}

/// Modified Vegas's once-per-round decision.
#[derive(Clone, Debug)]
pub struct MVegasRule {
    cfg: MVegasConfig,
}

impl VegasLaw for MVegasRule {
    type Config = MVegasConfig;
    const NAME: &'static str = "mvegas";

    fn new(cfg: &MVegasConfig) -> MVegasRule {
        MVegasRule { cfg: cfg.clone() }
    }

    fn decide(&mut self, core: &mut VegasCore, r: RoundRtt, _acked: Bytes, rng: &mut CcRng) {
        let cwnd = core.shell.cwnd_pkts();
        let n = r.linux_diff(cwnd as f64) as u64;
        if core.shell.w.in_slow_start() {
            core.exit_slow_start(r.target_cwnd(cwnd));
        } else if n > self.cfg.beta as u64 {
            core.decrease();
        } else if n < self.cfg.alpha as u64 || self.cfg.as_built || probabilistic_increase(n, self.cfg.beta, rng) {
            core.increase();
        } else {
            core.hold();
        }
        core.finish_round();
    }
}

pub type MVegas = VegasFamily<MVegasRule>;


impl crate::check::Validate for MVegasConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // The seed's law grows with probability 2^(beta − n) / (2^beta − 1), so beta is a small
        // exponent, and alpha <= beta.
        within("alpha", self.alpha, 0..=30)?;
        within("beta", self.beta, 0..=30)?;
        ordered("alpha", self.alpha, "beta", self.beta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::*;
    use crate::rng::component_rng;
    use crate::testing::*;

    #[test]
    fn increase_frequency_matches_the_reports_code() {
        // `rand % 63 < 2^(6−n)`: the report's table rounds these to 2^(6−n)/64.
        let mut rng = component_rng(42, 7);
        let draws = 200_000;
        for n in 1..=6u64 {
            let hits = (0..draws).filter(|_| probabilistic_increase(n, 6, &mut rng)).count();
            let p = (1u64 << (6 - n)) as f64 / 63.0;
            assert_eq!(increase_probability(n, 6), p);
            let freq = hits as f64 / draws as f64;
            // Four standard errors of a binomial proportion.
            let tol = 4.0 * (p * (1.0 - p) / draws as f64).sqrt();
            assert!((freq - p).abs() < tol, "n = {n}: frequency {freq}, expected {p} ± {tol}");
        }
    }

    /// As built, a backlog of up to beta packets grows the window every round (the report's
    /// table: at n = 5 and 6 once in 32 and 63 rounds); above beta it shrinks, as in Vegas.
    /// With RTT samples of 125 ms over a 100 ms base, diff = ⌊cwnd/4⌋.
    #[test]
    fn as_built_grows_every_round_up_to_beta() {
        let cfg = MVegasConfig { as_built: true, ..MVegasConfig::default() };
        let mut cc = MVegas::new(&cfg, init(10 * MSS));
        let mut d = Rounds::new();
        d.round(&mut cc, ms(100));
        d.round(&mut cc, ms(100)); // slow start ends at 20 packets
        assert_eq!(cc.control().cwnd, Some(20 * MSS));
        let mut cwnd = 20;
        let mut shrank = false;
        for _ in 0..12 {
            d.round(&mut cc, ms(125));
            let now = cc.control().cwnd.unwrap() / MSS;
            let expected = if cwnd / 4 > 6 { cwnd - 1 } else { cwnd + 1 };
            assert_eq!(now, expected, "from {cwnd} packets, diff {}", cwnd / 4);
            shrank |= now < cwnd;
            cwnd = now;
        }
        assert!(shrank && cwnd <= 28, "held at beta: {cwnd}");
    }

    #[test]
    fn slow_start_ends_in_the_second_round_without_queueing() {
        let mut cc = MVegas::new(&MVegasConfig::default(), init(10 * MSS));
        let mut d = Rounds::new();
        d.round(&mut cc, ms(100)); // round 1: one sample at its end, Reno slow start
        assert_eq!(cc.snapshot().state, "slow_start");
        // Round 2 starts with the samples of round 1: Vegas is live, slow start ends at the
        // predicted window (diff 0: target = cwnd = 20, min(20, 21) = 20).
        d.round(&mut cc, ms(100));
        assert_eq!(cc.core.rounds(), 2);
        assert_eq!(cc.snapshot().ssthresh, Some(20 * MSS));
        assert_eq!(cc.control().cwnd, Some(20 * MSS));
        // Then one packet per round below alpha.
        d.round(&mut cc, ms(100));
        assert_eq!(cc.control().cwnd, Some(21 * MSS));
    }

    #[test]
    fn slow_start_exit_takes_the_predicted_window() {
        let mut cc = MVegas::new(&MVegasConfig::default(), init(10 * MSS));
        let mut d = Rounds::new();
        d.round(&mut cc, ms(100));
        d.round(&mut cc, ms(125)); // exits on the 100 ms round, at 20
        d.round(&mut cc, ms(125)); // diff = 20·25/100 = 5 → n = 5: hold or +1
        let w = cc.control().cwnd.unwrap() / MSS;
        assert!(w == 20 || w == 21, "{w}");
    }

    /// Congestion avoidance at 100 packets after a 100 ms round, then rounds at `rtt`.
    fn windows_after(rtt_ms: u64, rounds: usize) -> Vec<u64> {
        let mut cc = MVegas::new(&MVegasConfig::default(), init(100 * MSS));
        cc.core.shell.w.ssthresh = 50 * MSS;
        let mut d = Rounds::new();
        d.rounds(&mut cc, 2, ms(100));
        (0..rounds)
            .map(|_| {
                d.round(&mut cc, ms(rtt_ms));
                cc.control().cwnd.unwrap() / MSS
            })
            .collect()
    }

    #[test]
    fn below_alpha_grows_above_beta_shrinks() {
        // 100 ms: n = 0 < 1 → +1 every round.
        let w = windows_after(100, 3);
        assert_eq!(w, vec![102, 103, 104]);
        // 120 ms: n = 102·20/100 = 20 > 6 → −1 from the second round on.
        let w = windows_after(120, 3);
        assert_eq!(w, vec![102, 101, 100]);
    }

    #[test]
    fn between_alpha_and_beta_grows_sometimes() {
        // 101 ms: n = ⌊cwnd/100⌋ = 1 for windows of 102..199 packets, so p = 32/63 per round.
        let w = windows_after(101, 61);
        let grew = w.windows(2).filter(|p| p[1] > p[0]).count();
        assert!(w.windows(2).all(|p| p[1] >= p[0] && p[1] <= p[0] + 1));
        assert!((15..=45).contains(&grew), "grew in {grew} of 60 rounds");
    }
}

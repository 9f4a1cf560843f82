//! Modified Vegas: Vegas made to compete with Reno, from the seed report
//! (`seeds/004`, "TCP Congestion Project Report": a Linux 3.13 `tcp_vegas.c` module, "vegas2").
//!
//! Same measurements as [`Vegas`](super::vegas::Vegas) (once per round trip,
//! `diff = cwnd·(rtt − base_rtt)/rtt` packets queued, rounded down to an integer `n`), with
//! three changes:
//!
//! 1. Slow start ends as soon as Vegas has its RTT samples — the first round with more than
//!    two samples, which is the second round trip — whatever the backlog: `cwnd` becomes the
//!    predicted window `min(cwnd, target_cwnd + 1)`, `target_cwnd = cwnd·base_rtt/rtt`, and
//!    `ssthresh = cwnd` (Vegas's exit, without waiting for `diff > gamma`).
//! 2. `alpha = 1`, `beta = 6` (Vegas: 2 and 4).
//! 3. Between them the window grows by one packet with probability `2^(beta−n)/2^beta`
//!    (`2^(6−n)/64`: 1/2 at `n = 1` down to 1/64 at `n = 6`): a random integer is drawn in
//!    `[0, 2^beta)` and the window grows if it is below `2^(beta−n)`. The report draws it
//!    from `minRTT·(int)vegas·snd_una mod 63`; here it comes from the run's seeded RNG
//!    (`ctx.rng`), uniform as the report's table assumes.
//!
//! Below alpha the window grows by one packet per round and above beta it shrinks by one, as
//! in Vegas; losses are handled as Reno.

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
    /// grows with probability `2^(beta − n)/2^beta`.
    pub beta: u32,
}

impl Default for MVegasConfig {
    fn default() -> Self {
        MVegasConfig { alpha: 1, beta: 6 }
    }
}

/// The report's roll for a backlog of `n` packets (`alpha ≤ n ≤ beta`): true with probability
/// `2^(beta − n)/2^beta`.
pub fn probabilistic_increase(n: u64, beta: u32, rng: &mut CcRng) -> bool {
    let span = 1u64 << beta.min(62);
    rng.random_range(0..span) < span >> n.min(63)
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
        let n = r.backlog(cwnd as f64) as u64;
        if core.shell.w.in_slow_start() {
            core.exit_slow_start(r.target_cwnd(cwnd));
        } else if n > self.cfg.beta as u64 {
            core.decrease();
        } else if n < self.cfg.alpha as u64 || probabilistic_increase(n, self.cfg.beta, rng) {
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
        // The seed's law grows with probability 2^(beta − n) / 2^beta, so beta is a small
        // exponent, and alpha <= beta.
        within("alpha", self.alpha, 0..=30)?;
        within("beta", self.beta, 0..=30)?;
        ordered("alpha", self.alpha, "beta", self.beta)
    }
}

#[cfg(test)]
mod tests {
    use super::super::vegas_core::test_support::*;
    use super::*;
    use crate::controller::*;
    use crate::rng::component_rng;
    use crate::testing::*;

    #[test]
    fn increase_frequency_matches_the_reports_table() {
        let mut rng = component_rng(42, 7);
        let draws = 200_000;
        for n in 1..=6u64 {
            let hits = (0..draws).filter(|_| probabilistic_increase(n, 6, &mut rng)).count();
            let p = (1u64 << (6 - n)) as f64 / 64.0;
            let freq = hits as f64 / draws as f64;
            // Four standard errors of a binomial proportion.
            let tol = 4.0 * (p * (1.0 - p) / draws as f64).sqrt();
            assert!((freq - p).abs() < tol, "n = {n}: frequency {freq}, expected {p} ± {tol}");
        }
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
        d.round(&mut cc, ms(125)); // diff = 20·25/125 = 4 → n = 4: hold or +1
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
        // 120 ms: n = 102·20/120 = 17 > 6 → −1 from the second round on.
        let w = windows_after(120, 3);
        assert_eq!(w, vec![102, 101, 100]);
    }

    #[test]
    fn between_alpha_and_beta_grows_sometimes() {
        // 101 ms: n = 1 for windows of 102..200 packets, so p = 1/2 per round.
        let w = windows_after(101, 61);
        let grew = w.windows(2).filter(|p| p[1] > p[0]).count();
        assert!(w.windows(2).all(|p| p[1] >= p[0] && p[1] <= p[0] + 1));
        assert!((15..=45).contains(&grew), "grew in {grew} of 60 rounds");
    }
}

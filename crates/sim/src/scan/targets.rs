//! The target addresses: which are up, which sit behind a router that answers for them, and
//! each one's RTT. Drawn once from the run seed, so every variant scans the same Internet.

use super::config::ScanConfig;
use super::icmp::LastHopRouter;
use cc::rng::{CcRng, Rng};
use cc::{component_rng, Time};

const RNG_TARGETS: u64 = (2 << 32) + 1;

#[derive(Clone, Debug)]
pub enum Address {
    /// Answers the probe types in `answers` (bit *k* for type *k*) after its RTT; the others
    /// (and their retransmissions) are filtered.
    Up { rtt: Time, answers: u8 },
    /// Down, behind a router that may answer with an ICMP unreachable after the RTT.
    Routed { rtt: Time, router: LastHopRouter },
    /// Down, and nothing answers.
    Silent,
}

/// Picks `k` distinct indices of `0..n` in random order (a partial Fisher-Yates shuffle).
fn pick(rng: &mut CcRng, pool: &mut [u32], k: usize) {
    for i in 0..k {
        let j = rng.random_range(i..pool.len());
        pool.swap(i, j);
    }
}

/// Which probe types an up host answers: each type *k* with `p[k]`, independently, redrawn
/// until at least one (an up host is one that nmap finds).
fn answer_mask(rng: &mut CcRng, p: &[f64]) -> u8 {
    loop {
        let mask = p.iter().enumerate().fold(0u8, |m, (k, &pk)| if rng.random::<f64>() < pk { m | 1 << k } else { m });
        if mask != 0 {
            return mask;
        }
    }
}

pub fn draw(cfg: &ScanConfig) -> Vec<Address> {
    let mut rng = component_rng(cfg.seed, RNG_TARGETS);
    let n = cfg.hosts as usize;
    let net = &cfg.network;
    let mut order: Vec<u32> = (0..cfg.hosts).collect();
    let up = cfg.up as usize;
    pick(&mut rng, &mut order, up);
    let down = n - up;
    let routed = (net.unreachable_fraction * down as f64).round() as usize;
    pick(&mut rng, &mut order[up..], routed);
    let rtts: Vec<Time> = (0..n).map(|_| net.rtt.sample(&mut rng)).collect();
    let probabilities = &cfg.answer_probability[..cfg.probes as usize];
    let mut out: Vec<Address> = vec![Address::Silent; n];
    for (k, &a) in order.iter().enumerate().take(up + routed) {
        let rtt = rtts[a as usize];
        out[a as usize] = if k < up {
            Address::Up { rtt, answers: answer_mask(&mut rng, probabilities) }
        } else {
            Address::Routed { rtt, router: LastHopRouter::new(net.icmp_rate_limit, net.arp_drops_first) }
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_population_has_the_asked_counts_and_depends_only_on_the_seed() {
        let mut cfg = ScanConfig { hosts: 1000, up: 45, ..ScanConfig::default() };
        cfg.network.unreachable_fraction = 0.10;
        let a = draw(&cfg);
        let up = a.iter().filter(|x| matches!(x, Address::Up { .. })).count();
        let routed = a.iter().filter(|x| matches!(x, Address::Routed { .. })).count();
        assert_eq!((up, routed), (45, 96), "10% of the 955 down addresses");
        let rtts = |v: &[Address]| -> Vec<Time> {
            v.iter().filter_map(|x| if let Address::Up { rtt, .. } = x { Some(*rtt) } else { None }).collect()
        };
        assert_eq!(rtts(&a), rtts(&draw(&cfg)));
        assert_ne!(rtts(&a), rtts(&draw(&ScanConfig { seed: 2, ..cfg })));
        // Every up host answers at least one of its probe types.
        assert!(a.iter().all(|x| !matches!(x, Address::Up { answers: 0, .. })));
    }
}

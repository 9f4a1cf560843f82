//! Random Early Detection (Floyd & Jacobson, "Random Early Detection Gateways for Congestion
//! Avoidance", IEEE/ACM ToN 1993), with the "gentle" variant (Floyd 2000) and ECN marking
//! (RFC 3168 §7), as Linux `sch_red` does it.
//!
//! On each arrival the average queue is `avg ← (1 − w_q)·avg + w_q·q` (after an idle period
//! of m packet times, `avg ← (1 − w_q)^m·avg`). Between `min_th` and `max_th` the marking
//! probability rises linearly to `max_p`, `p_b = max_p·(avg − min_th)/(max_th − min_th)`, and
//! is spread evenly by the count since the last mark: `p_a = p_b/(1 − count·p_b)`. With
//! `gentle`, between `max_th` and `2·max_th` it rises from `max_p` to 1; above, every packet is
//! marked (ECN-capable) or dropped.
//!
//! Default thresholds follow Adaptive RED's guidelines (Floyd, Gummadi, Shenker 2001): a target
//! queueing delay of 5 ms gives `min_th = max(5, C·5 ms/2)` packets and `max_th = 3·min_th`;
//! `max_p = 0.1`. The averaging weight is the original paper's `w_q = 0.002`: ARED's slower
//! `1 − e^(−1/C)` relies on its adaptation of `max_p`, without which a start-up burst keeps the
//! average above `2·max_th` for seconds and every arrival is dropped.

use super::{LinkFacts, Verdict};
use cc::rng::{CcRng, Rng};
use cc::Time;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RedConfig {
    /// Packets; `None`: ARED's `max(5, C·2.5 ms)`.
    pub min_th: Option<u64>,
    /// Packets; `None`: `3·min_th`.
    pub max_th: Option<u64>,
    pub max_p: f64,
    /// EWMA weight.
    pub w_q: f64,
    pub gentle: bool,
    /// Mark ECN-capable packets instead of dropping them.
    pub ecn: bool,
}

impl Default for RedConfig {
    fn default() -> Self {
        RedConfig { min_th: None, max_th: None, max_p: 0.1, w_q: 0.002, gentle: true, ecn: true }
    }
}

/// Floyd & Jacobson (1993): thresholds in packets with `min_th < max_th`, `max_p` and the EWMA
/// weight `w_q` probabilities in (0, 1].
impl cc::check::Validate for RedConfig {
    fn validate(&self) -> Result<(), String> {
        use cc::check::{above, within};
        if let Some(min) = self.min_th {
            within("min_th", min, 1..=1_000_000_000)?;
        }
        if let Some(max) = self.max_th {
            within("max_th", max, 1..=1_000_000_000)?;
        }
        if let (Some(min), Some(max)) = (self.min_th, self.max_th) {
            if max <= min {
                return Err(format!("max_th: {max} must be above min_th ({min})"));
            }
        }
        within("max_p", self.max_p, above(0.0, 1.0))?;
        within("w_q", self.w_q, above(0.0, 1.0))
    }
}

#[derive(Clone, Debug)]
pub struct Red {
    pub min_th: f64,
    pub max_th: f64,
    pub max_p: f64,
    pub w_q: f64,
    gentle: bool,
    ecn: bool,
    /// Time to send a typical packet, to age the average over idle periods.
    packet_time: Time,
    pub avg: f64,
    count: i64,
    idle_since: Option<Time>,
    rng: CcRng,
}

impl Red {
    pub fn new(cfg: &RedConfig, f: LinkFacts, rng: CcRng) -> Red {
        let c_pps = f.rate.bytes_per_sec() / f.packet_bytes as f64;
        let min_th = cfg.min_th.map_or((c_pps * 0.0025).max(5.0), |v| v as f64);
        let max_th = cfg.max_th.map_or(3.0 * min_th, |v| v as f64).max(min_th + 1.0);
        Red {
            min_th,
            max_th,
            max_p: cfg.max_p.clamp(0.0, 1.0),
            w_q: cfg.w_q.clamp(1e-6, 1.0),
            gentle: cfg.gentle,
            ecn: cfg.ecn,
            packet_time: f.rate.tx_time(f.packet_bytes),
            avg: 0.0,
            count: 0,
            idle_since: Some(Time::ZERO),
            rng,
        }
    }

    pub fn on_idle(&mut self, now: Time) {
        self.idle_since = Some(now);
    }

    fn congestion(&self, ect: bool) -> Verdict {
        if self.ecn && ect {
            Verdict::Mark
        } else {
            Verdict::Drop
        }
    }

    /// The probability of marking at this average, before spreading by count.
    pub fn p_b(&self) -> f64 {
        if self.avg < self.min_th {
            0.0
        } else if self.avg < self.max_th {
            self.max_p * (self.avg - self.min_th) / (self.max_th - self.min_th)
        } else if self.gentle && self.avg < 2.0 * self.max_th {
            self.max_p + (1.0 - self.max_p) * (self.avg - self.max_th) / self.max_th
        } else {
            1.0
        }
    }

    pub fn on_enqueue(&mut self, now: Time, q: u64, ect: bool) -> Verdict {
        if let Some(since) = self.idle_since.take() {
            let m = (now - since).0 as f64 / self.packet_time.0.max(1) as f64;
            self.avg *= (1.0 - self.w_q).powf(m);
        }
        self.avg = (1.0 - self.w_q) * self.avg + self.w_q * q as f64;
        let p_b = self.p_b();
        if p_b <= 0.0 {
            self.count = 0;
            return Verdict::Pass;
        }
        if p_b >= 1.0 {
            self.count = 0;
            return self.congestion(ect);
        }
        // `count` unmarked packets since the last mark: marks then fall uniformly on
        // 1..1/p_b packets apart (Floyd & Jacobson §7).
        let denom = 1.0 - self.count as f64 * p_b;
        let p_a = if denom <= 0.0 { 1.0 } else { (p_b / denom).min(1.0) };
        if self.rng.random::<f64>() < p_a {
            self.count = 0;
            self.congestion(ect)
        } else {
            self.count += 1;
            Verdict::Pass
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cc::{component_rng, Rate};

    fn facts() -> LinkFacts {
        LinkFacts { rate: Rate::from_bits_per_sec(40e6), packet_bytes: 1500, rtt: Time::from_millis(100), limit_packets: 1000 }
    }

    #[test]
    fn ared_defaults_from_the_link_rate() {
        let r = Red::new(&RedConfig::default(), facts(), component_rng(1, 1));
        // C = 3333.3 packets/s: min_th = 8.33, max_th = 25.
        assert!((r.min_th - 8.333).abs() < 1e-3 && (r.max_th - 25.0).abs() < 1e-3);
        assert_eq!(r.w_q, 0.002);
    }

    #[test]
    fn marking_probability_is_linear_then_gentle() {
        let cfg = RedConfig { min_th: Some(10), max_th: Some(30), w_q: 1.0, ..RedConfig::default() };
        let mut r = Red::new(&cfg, facts(), component_rng(1, 1));
        for (avg, p) in [(5.0, 0.0), (10.0, 0.0), (20.0, 0.05), (30.0, 0.1), (45.0, 0.55), (60.0, 1.0)] {
            r.avg = avg;
            assert!((r.p_b() - p).abs() < 1e-12, "avg {avg}: {} vs {p}", r.p_b());
        }
    }

    #[test]
    fn marks_ecn_capable_packets_and_drops_the_others_at_the_expected_rate() {
        let cfg = RedConfig { min_th: Some(10), max_th: Some(30), w_q: 1.0, ..RedConfig::default() };
        let mut r = Red::new(&cfg, facts(), component_rng(2, 1));
        // Constant queue of 20: p_b = 0.05. Floyd & Jacobson: the gap between marks is uniform
        // on 1..1/p_b packets, mean (1/p_b + 1)/2 = 10.5.
        let n = 200_000;
        let marks = (0..n).filter(|_| r.on_enqueue(Time::ZERO, 20, true) == Verdict::Mark).count();
        let gap = n as f64 / marks as f64;
        assert!((gap - 10.5).abs() < 0.3, "mean gap {gap}");
        assert_eq!(r.on_enqueue(Time::ZERO, 100, false), Verdict::Drop);
    }
}

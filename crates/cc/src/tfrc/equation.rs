//! The TCP throughput equation (RFC 5348 §3.1; Padhye, Firoiu, Towsley, Kurose, "Modeling TCP
//! throughput: a simple model and its empirical validation", SIGCOMM 1998) and its inverse.
//!
//! `X = s / (R·√(2bp/3) + t_RTO·(3·√(3bp/8))·p·(1 + 32p²))`
//!
//! with `X` in bytes per second, `s` the packet size in bytes, `R` the round-trip time, `p` the
//! loss event rate, `b` the packets one TCP ACK covers (RFC 5348: b = 1) and `t_RTO = 4R`.
//! Writing `t_RTO = k·R` the equation is `X = s / (R·g(p))` with
//!
//! `g(p) = √(2bp/3) + k·3·√(3bp/8)·p·(1 + 32p²)`,
//!
//! which increases strictly with `p`, so that the inverse (the loss event rate that gives a
//! target rate, RFC 5348 §6.3.1) is `p = g⁻¹(s/(R·X))`, found here by bisection.

use crate::units::{Bytes, Rate, Time};

/// The smallest loss event rate the inverse returns: below it the equation's rate exceeds any
/// link (`g(1e-12)·R` is a microsecond per packet even at R = 10 s).
pub const MIN_LOSS_RATE: f64 = 1e-12;

/// The equation's two protocol parameters.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Equation {
    /// b: packets acknowledged by one TCP ACK (RFC 5348 §3.1 sets b = 1).
    pub b: f64,
    /// k in `t_RTO = k·R` (RFC 5348 §3.1: 4).
    pub t_rto_rtts: f64,
}

impl Default for Equation {
    fn default() -> Self {
        Equation { b: 1.0, t_rto_rtts: 4.0 }
    }
}

impl Equation {
    /// `g(p) = X·R/s`'s reciprocal: `√(2bp/3) + k·3·√(3bp/8)·p·(1 + 32p²)`.
    pub fn g(&self, p: f64) -> f64 {
        let b = self.b;
        (2.0 * b * p / 3.0).sqrt() + self.t_rto_rtts * 3.0 * (3.0 * b * p / 8.0).sqrt() * p * (1.0 + 32.0 * p * p)
    }

    /// The allowed rate `X = s/(R·g(p))`; infinite for `p = 0` or `R = 0`.
    pub fn rate(&self, s: Bytes, rtt: Time, p: f64) -> Rate {
        let denom = rtt.as_secs_f64() * self.g(p.max(0.0));
        if denom > 0.0 {
            Rate(s as f64 / denom)
        } else {
            Rate(f64::INFINITY)
        }
    }

    /// The loss event rate `p ∈ [MIN_LOSS_RATE, 1]` with `g(p) = target` (clamped at the ends).
    pub fn loss_rate_for_g(&self, target: f64) -> f64 {
        if target.is_nan() || target <= self.g(MIN_LOSS_RATE) {
            return MIN_LOSS_RATE;
        }
        if target >= self.g(1.0) {
            return 1.0;
        }
        // Bisect on log p: g spans many decades between MIN_LOSS_RATE and 1.
        let (mut lo, mut hi) = (MIN_LOSS_RATE.ln(), 0.0f64);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if self.g(mid.exp()) < target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        (0.5 * (lo + hi)).exp()
    }

    /// The loss event rate at which the equation allows `x` for packets of `s` bytes and RTT
    /// `rtt`: `p = g⁻¹(s/(R·X))`.
    pub fn loss_rate_for(&self, s: Bytes, rtt: Time, x: Rate) -> f64 {
        let rx = rtt.as_secs_f64() * x.bytes_per_sec();
        if rx <= 0.0 {
            return 1.0;
        }
        self.loss_rate_for_g(s as f64 / rx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs()
    }

    /// s = 1460 B, R = 100 ms, b = 1, t_RTO = 4R = 0.4 s.
    ///
    /// p = 0.01: R·√(2p/3) = 0.1·√0.0066667 = 0.1·0.0816497 = 0.00816497 s;
    /// t_RTO·3·√(3p/8)·p·(1 + 32p²) = 0.4·3·√0.00375·0.01·1.0032 = 0.4·3·0.0612372·0.010032
    /// = 0.00073720 s; X = 1460/0.00890217 = 164 005 B/s ≈ 1.312 Mbit/s (112.3 packets/s).
    ///
    /// p = 0.1: 0.1·√0.0666667 = 0.1·0.2581989 = 0.02581989 s;
    /// 0.4·3·√0.0375·0.1·1.32 = 0.4·3·0.1936492·0.132 = 0.03067403 s;
    /// X = 1460/0.05649392 = 25 843 B/s ≈ 206.7 kbit/s (17.7 packets/s).
    #[test]
    fn equation_matches_hand_computed_values() {
        let eq = Equation::default();
        let r = Time::from_millis(100);
        let x1 = eq.rate(1460, r, 0.01).bytes_per_sec();
        let x10 = eq.rate(1460, r, 0.10).bytes_per_sec();
        assert!(close(x1, 164_005.0, 1e-4), "X(1%) = {x1}");
        assert!(close(x10, 25_843.5, 1e-4), "X(10%) = {x10}");
        // Without losses the equation sets no limit.
        assert!(eq.rate(1460, r, 0.0).bytes_per_sec().is_infinite());
    }

    #[test]
    fn the_inverse_recovers_p_and_is_clamped() {
        let eq = Equation::default();
        let r = Time::from_millis(100);
        for p in [1e-6, 1e-4, 0.01, 0.1, 0.3, 0.9] {
            let x = eq.rate(1460, r, p);
            let back = eq.loss_rate_for(1460, r, x);
            assert!(close(back, p, 1e-9), "p = {p}: inverse gave {back}");
        }
        // X_target = s/(2R) (the first packets lost, RFC 5348 §6.3.1) is g(p) = 2: p ≈ 0.2064.
        let p = eq.loss_rate_for_g(2.0);
        assert!(close(eq.g(p), 2.0, 1e-9));
        assert!((0.205..0.208).contains(&p), "p = {p}");
        assert_eq!(eq.loss_rate_for(1460, r, Rate(1e-3)), 1.0);
        assert_eq!(eq.loss_rate_for(1460, r, Rate(1e15)), MIN_LOSS_RATE);
    }
}

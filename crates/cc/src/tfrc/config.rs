//! TFRC's parameters, every constant of RFC 5348 a field with the RFC's value as default.

use super::equation::Equation;
use crate::units::{Bytes, Time};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TfrcConfig {
    /// b, packets acknowledged by one TCP ACK, in the equation (§3.1: 1).
    pub b: f64,
    /// `t_RTO = t_rto_rtts·R` in the equation (§3.1: 4).
    pub t_rto_rtts: f64,
    /// q in `R = q·R + (1 − q)·R_sample` (§4.3: 0.9).
    pub rtt_filter: f64,
    /// t_mbi, the maximum back-off interval: the rate never falls below `s/t_mbi` (§4.3: 64 s).
    pub t_mbi_ms: u64,
    /// The initial window `W_init = min(4·s, max(2·s, 4380 B))` (§4.2, RFC 3390): its 4, 2 and
    /// 4380. The first feedback sets `X = W_init/R`.
    pub initial_window_max_packets: u64,
    pub initial_window_min_packets: u64,
    pub initial_window_bytes: Bytes,
    /// Before the first RTT sample the sender sends one packet per this interval (§4.2: 1 s).
    pub pre_rtt_interval_ms: u64,
    /// The nofeedback timer before the first feedback (§4.2: 2 s).
    pub initial_nofeedback_ms: u64,
    /// The nofeedback timer after feedback: `max(nofeedback_rtts·R, nofeedback_packets·s/X)`
    /// (§4.3 step 3: max(4R, 2s/X)).
    pub nofeedback_rtts: f64,
    pub nofeedback_packets: f64,
    /// Slow start multiplies X by this once per RTT (§4.3: 2).
    pub slow_start_gain: f64,
    /// `recv_limit = recv_limit_gain·max(X_recv_set)` (§4.3: 2).
    pub recv_limit_gain: f64,
    /// Loss interval weights `w_0..w_{n−1}` (§5.4: n = 8; 1, 1, 1, 1, 0.8, 0.6, 0.4, 0.2).
    pub loss_interval_weights: Vec<f64>,
    /// Packets above a hole that make it a loss (§5.1: NDUPACK = 3).
    pub ndupack: u64,
    /// Send ECN-capable packets; CE marks then count as losses (§5.1, RFC 4342).
    pub ecn: bool,
}

impl Default for TfrcConfig {
    fn default() -> Self {
        let eq = Equation::default();
        TfrcConfig {
            b: eq.b,
            t_rto_rtts: eq.t_rto_rtts,
            rtt_filter: 0.9,
            t_mbi_ms: 64_000,
            initial_window_max_packets: 4,
            initial_window_min_packets: 2,
            initial_window_bytes: 4380,
            pre_rtt_interval_ms: 1000,
            initial_nofeedback_ms: 2000,
            nofeedback_rtts: 4.0,
            nofeedback_packets: 2.0,
            slow_start_gain: 2.0,
            recv_limit_gain: 2.0,
            loss_interval_weights: vec![1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2],
            ndupack: 3,
            ecn: false,
        }
    }
}

impl TfrcConfig {
    pub fn equation(&self) -> Equation {
        Equation { b: self.b, t_rto_rtts: self.t_rto_rtts }
    }

    pub fn t_mbi(&self) -> Time {
        Time::from_millis(self.t_mbi_ms)
    }

    /// `W_init = min(4·s, max(2·s, 4380 B))` for packets of `s` bytes.
    pub fn initial_window(&self, s: Bytes) -> Bytes {
        (self.initial_window_max_packets * s).min((self.initial_window_min_packets * s).max(self.initial_window_bytes))
    }
}


/// RFC 5348's constants as ranges: the equation's b and t_RTO positive, the RTT filter a
/// fraction, timers of 1 ms to an hour, slow start that grows (gain above 1), loss-interval
/// weights non-negative with a positive sum and at most 1000 of them.
impl crate::check::Validate for TfrcConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        within("b", self.b, above(0.0, 1e3))?;
        within("t_rto_rtts", self.t_rto_rtts, above(0.0, 1e3))?;
        within("rtt_filter", self.rtt_filter, 0.0..1.0)?;
        within("t_mbi_ms", self.t_mbi_ms, 1..=3_600_000)?;
        within("initial_window_max_packets", self.initial_window_max_packets, 1..=1_000_000)?;
        within("initial_window_min_packets", self.initial_window_min_packets, 1..=1_000_000)?;
        ordered("initial_window_min_packets", self.initial_window_min_packets, "initial_window_max_packets", self.initial_window_max_packets)?;
        within("initial_window_bytes", self.initial_window_bytes, 1..=1_000_000_000)?;
        within("pre_rtt_interval_ms", self.pre_rtt_interval_ms, 1..=3_600_000)?;
        within("initial_nofeedback_ms", self.initial_nofeedback_ms, 1..=3_600_000)?;
        within("nofeedback_rtts", self.nofeedback_rtts, above(0.0, 1e3))?;
        within("nofeedback_packets", self.nofeedback_packets, above(0.0, 1e6))?;
        within("slow_start_gain", self.slow_start_gain, above(1.0, 1e3))?;
        within("recv_limit_gain", self.recv_limit_gain, above(0.0, 1e3))?;
        within("loss_interval_weights (their number)", self.loss_interval_weights.len(), 1..=1000)?;
        for (i, w) in self.loss_interval_weights.iter().enumerate() {
            within(&format!("loss_interval_weights[{i}]"), *w, 0.0..=1e6)?;
        }
        if self.loss_interval_weights.iter().sum::<f64>() <= 0.0 {
            return Err("loss_interval_weights: at least one weight must be positive".into());
        }
        within("ndupack", self.ndupack, 1..=1_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_window_follows_rfc_3390() {
        let c = TfrcConfig::default();
        assert_eq!(c.initial_window(1460), 4380);
        assert_eq!(c.initial_window(1000), 4000);
        assert_eq!(c.initial_window(536), 2144);
        assert_eq!(c.initial_window(3000), 6000);
    }
}

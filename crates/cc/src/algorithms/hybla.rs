//! TCP Hybla (Caini & Firrincieli, "TCP Hybla: a TCP enhancement for heterogeneous networks",
//! International Journal of Satellite Communications and Networking, 2004; Linux
//! `net/ipv4/tcp_hybla.c`).
//!
//! Hybla removes Reno's bias against long RTTs by making the window grow as fast, in time, as
//! that of a reference connection with `RTT0` = 25 ms. With `ρ = max(RTT/RTT0, 1)` (Linux uses
//! the smallest smoothed RTT seen):
//! slow start `cwnd += 2^ρ − 1` segments per ACK; congestion avoidance `cwnd += ρ²/cwnd` per
//! ACK. Losses are handled as Reno.

use crate::aimd::{Aimd, AimdLaw};
use crate::controller::*;
use crate::units::{Bytes, Time};
use crate::window::RenoWindow;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HyblaConfig {
    /// RTT0, milliseconds (Linux `rtt0`).
    pub rtt0_ms: f64,
}

impl Default for HyblaConfig {
    fn default() -> Self {
        HyblaConfig { rtt0_ms: 25.0 }
    }
}

#[derive(Clone, Debug)]
pub struct HyblaLaw {
    cfg: HyblaConfig,
    /// The smallest smoothed RTT seen.
    min_srtt: Option<Time>,
}

impl HyblaLaw {
    /// ρ = max(RTT/RTT0, 1).
    pub fn rho(&self) -> f64 {
        self.min_srtt.map_or(1.0, |r| (r.as_secs_f64() * 1e3 / self.cfg.rtt0_ms).max(1.0))
    }
}

impl AimdLaw for HyblaLaw {
    type Config = HyblaConfig;
    fn new(cfg: &HyblaConfig, _init: CcInit) -> HyblaLaw {
        HyblaLaw { cfg: cfg.clone(), min_srtt: None }
    }
    fn name(&self) -> &'static str {
        "hybla"
    }
    fn observe(&mut self, _w: &mut RenoWindow, _fb: &Feedback, ctx: &mut Ctx) {
        if let Some(srtt) = ctx.rtt.srtt {
            self.min_srtt = Some(self.min_srtt.map_or(srtt, |m| m.min(srtt)));
        }
    }
    fn slow_start(&mut self, w: &mut RenoWindow, acked: Bytes, _mss: Bytes, _ctx: &Ctx) -> Bytes {
        let increment = ((2f64.powf(self.rho()) - 1.0) * acked as f64) as Bytes;
        w.slow_start(increment);
        0
    }
    fn increase(&mut self, _w: &RenoWindow, _mss: Bytes, _acked: Bytes, _ctx: &Ctx) -> f64 {
        self.rho().powi(2)
    }
    fn estimates(&self) -> (Option<crate::units::Rate>, Option<Time>) {
        (None, self.min_srtt)
    }
}

pub type Hybla = Aimd<HyblaLaw>;


impl crate::check::Validate for HyblaConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // Caini & Firrincieli: rho = RTT / RTT0 with a positive reference RTT0.
        within("rtt0_ms", self.rtt0_ms, above(0.0, 1e6))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    #[test]
    fn a_200_ms_path_has_rho_8_and_grows_like_a_25_ms_one() {
        let mut cc = Hybla::new(&HyblaConfig::default(), init(10 * MSS));
        let mut h = Harness::new();
        h.rtt.srtt = Some(Time::from_millis(200));
        // One ACK: slow start adds 2^8 − 1 = 255 segments.
        h.ack_n(&mut cc, 1, false);
        assert_eq!(cc.law.rho(), 8.0);
        assert_eq!(cc.control().cwnd, Some(265 * MSS));
        // Congestion avoidance: ρ²/cwnd = 64/cwnd per ACK. Over the 265 ACKs of one window the
        // window grows while it is acknowledged: dW/dn = 64/W gives W² = 265² + 2·64·265, so
        // W = 322.7 segments (Reno's rule would give 266).
        cc.w.ssthresh = 100 * MSS;
        let w = cc.control().cwnd.unwrap() / MSS;
        h.ack_n(&mut cc, w as usize, false);
        let after = cc.control().cwnd.unwrap() / MSS;
        assert!((321..=323).contains(&after), "{after}");
    }

    #[test]
    fn short_paths_are_reno() {
        let mut cc = Hybla::new(&HyblaConfig::default(), init(10 * MSS));
        let mut h = Harness::new();
        h.rtt.srtt = Some(Time::from_millis(10));
        h.ack_n(&mut cc, 1, false);
        assert_eq!(cc.law.rho(), 1.0);
        assert_eq!(cc.control().cwnd, Some(11 * MSS));
    }
}

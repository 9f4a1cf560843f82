//! Data Center TCP (RFC 8257; Alizadeh et al., SIGCOMM 2010; Linux `net/ipv4/tcp_dctcp.c`).
//!
//! Switches mark packets (CE) once their queue exceeds K; the receiver echoes each mark. Per
//! observation window (one RTT of data) the sender measures the fraction of marked bytes F and
//! keeps `α ← (1 − g)·α + g·F` with g = 1/16 (α starts at 1). On an ECN echo, once per window,
//! `cwnd ← cwnd·(1 − α/2)`: a mild cut when few packets are marked, a halving when all are.
//! A packet loss halves the window as in Reno (RFC 8257 §3.5). DCTCP requires ECN.

use crate::aimd::{Aimd, AimdLaw};
use crate::controller::*;
use crate::round::RoundCounter;
use crate::units::Bytes;
use crate::window::RenoWindow;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DctcpConfig {
    /// g (Linux `dctcp_shift_g` 4: 1/16).
    pub g: f64,
    /// α at the start (Linux `dctcp_alpha_on_init` 1024/1024).
    pub alpha_on_init: f64,
}

impl Default for DctcpConfig {
    fn default() -> Self {
        DctcpConfig { g: 1.0 / 16.0, alpha_on_init: 1.0 }
    }
}

#[derive(Clone, Debug)]
pub struct DctcpLaw {
    cfg: DctcpConfig,
    pub alpha: f64,
    window: RoundCounter,
    acked_packets: u64,
    marked_packets: u64,
}

impl DctcpLaw {
    /// Ends an observation window: `α ← (1 − g)·α + g·F`.
    pub fn end_window(&mut self) {
        if self.acked_packets > 0 {
            let f = self.marked_packets as f64 / self.acked_packets as f64;
            self.alpha = (1.0 - self.cfg.g) * self.alpha + self.cfg.g * f.min(1.0);
        }
        self.acked_packets = 0;
        self.marked_packets = 0;
    }
}

impl AimdLaw for DctcpLaw {
    type Config = DctcpConfig;
    fn new(cfg: &DctcpConfig, _init: CcInit) -> DctcpLaw {
        DctcpLaw { cfg: cfg.clone(), alpha: cfg.alpha_on_init, window: RoundCounter::default(), acked_packets: 0, marked_packets: 0 }
    }
    fn name(&self) -> &'static str {
        "dctcp"
    }
    fn observe(&mut self, _w: &mut RenoWindow, fb: &Feedback, _ctx: &mut Ctx) {
        if self.window.on_feedback(fb) {
            self.end_window();
        }
        self.acked_packets += fb.acked_packets as u64;
        self.marked_packets += fb.ecn_ce_packets as u64;
    }
    fn ssthresh(&mut self, w: &RenoWindow, _mss: Bytes, fb: &Feedback, _ctx: &Ctx) -> Bytes {
        if fb.ecn_congestion && fb.lost_packets == 0 {
            (w.cwnd as f64 * (1.0 - self.alpha / 2.0)) as Bytes
        } else {
            w.cwnd / 2
        }
    }
    fn needs_ecn(&self) -> bool {
        true
    }
}

pub type Dctcp = Aimd<DctcpLaw>;


impl crate::check::Validate for DctcpConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // RFC 8257: the EWMA gain g and the initial alpha are fractions.
        within("g", self.g, above(0.0, 1.0))?;
        within("alpha_on_init", self.alpha_on_init, 0.0..=1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    #[test]
    fn alpha_is_an_ewma_of_the_marked_fraction_with_gain_one_sixteenth() {
        let mut law = DctcpLaw::new(&DctcpConfig::default(), init(10 * MSS));
        assert_eq!(law.alpha, 1.0);
        law.acked_packets = 100;
        law.marked_packets = 0;
        law.end_window();
        assert_eq!(law.alpha, 15.0 / 16.0);
        law.acked_packets = 100;
        law.marked_packets = 50;
        law.end_window();
        // 15/16·15/16 + 1/16·0.5
        assert!((law.alpha - (225.0 / 256.0 + 0.5 / 16.0)).abs() < 1e-12);
    }

    #[test]
    fn ecn_cuts_by_alpha_over_two_loss_halves() {
        let mut cc = Dctcp::new(&DctcpConfig::default(), init(100 * MSS));
        cc.law.alpha = 0.2;
        let mut h = Harness::new();
        let mut fb = Feedback::default();
        fb.new_episode = true;
        fb.ecn_congestion = true;
        fb.in_recovery = true;
        let mut ctx = h.ctx();
        cc.on_feedback(&fb, &mut ctx);
        assert_eq!(cc.control().cwnd, Some(90 * MSS));
        let mut cc = Dctcp::new(&DctcpConfig::default(), init(100 * MSS));
        cc.law.alpha = 0.2;
        h.loss(&mut cc, true);
        assert_eq!(cc.control().cwnd, Some(50 * MSS));
        assert!(cc.needs_ecn());
    }
}

//! TCP Hybla (Caini & Firrincieli, "TCP Hybla: a TCP enhancement for heterogeneous networks",
//! International Journal of Satellite Communications and Networking, 2004), as Linux
//! `net/ipv4/tcp_hybla.c` runs it.
//!
//! Hybla removes Reno's bias against long RTTs by making the window grow as fast, in time, as
//! that of a reference connection with `RTT0` = 25 ms (`rtt0`). With `ρ = max(RTT/RTT0, 1)`:
//! slow start `cwnd += 2^ρ − 1` segments per ACK; congestion avoidance `cwnd += ρ²/cwnd` per
//! ACK. Losses are handled as Reno (`tcp_reno_ssthresh`: ssthresh = cwnd/2, at least 2), and
//! every new loss after a recovery is a new reduction (the sender's episodes).
//!
//! Linux's arithmetic, which this follows exactly:
//! - `ρ` in eighths: `rho_3ls = max(srtt_us/(rtt0·1000), 8)`, where `srtt_us` is the smoothed
//!   RTT in µs scaled by 8, i.e. `⌊8·srtt/RTT0⌋` floored at 8; `rho = rho_3ls >> 3`,
//!   `rho2_7ls = rho_3ls² << 1` (`ρ²` scaled by 128). It is recomputed only when srtt falls below
//!   the smallest srtt seen (`minrtt_us`), so ρ reflects the path's least queued RTT.
//! - Per ACK, not per acknowledged segment (`hybla_cong_avoid` runs once per ACK whatever
//!   `acked` is): the increment scaled by 128 is, in slow start,
//!   `(1 << min(rho, 16))·fraction[rho_3ls − 8·rho] − 128` with `fraction[k] = 128·2^(k/8)`
//!   rounded (128, 139, 152, 165, 181, 197, 215, 234); in congestion avoidance
//!   `rho2_7ls / cwnd` (integer division). Whole segments go to cwnd, the rest (`% 128`) to
//!   `snd_cwnd_cents`, one segment per 128. When the increment is 0 (cwnd > 128·ρ² segments), one
//!   segment per cwnd ACKs, counted in `snd_cwnd_cnt`.
//! - Slow start never passes ssthresh (`cwnd = min(cwnd, ssthresh)`), and cwnd never passes
//!   `snd_cwnd_clamp` = 65,535 segments, which `hybla_init` sets.
//!
//! Differences left: Linux's `hybla_init` also sets cwnd to `ρ` (integer part) from the
//! handshake's RTT in place of the initial window (4 segments at 100 ms); cclab has no handshake
//! and starts from the configured initial window. Outside `TCP_CA_Open` Linux uses Reno's
//! `cong_avoid` (`hybla_en`); here the window is held during recovery, as for every AIMD law.
//! The paper's slow start is the same `2^ρ − 1` per ACK; its congestion avoidance `ρ²/cwnd`.
//!
//! Slow start at `ρ` = 4 (100 ms) multiplies the window by 16 per round, so the first loss is
//! found about one RTT after the queue overflows, with the window up to 2^ρ times the path's
//! capacity: the start-up loses most of that window, and the halvings that follow each lose
//! their excess over the capacity.

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

/// `hybla_fraction`: `128·2^(k/8)` for the eighths of ρ.
const FRACTIONS: [u64; 8] = [128, 139, 152, 165, 181, 197, 215, 234];
/// `hybla_init`'s `snd_cwnd_clamp`, segments.
pub const CWND_CLAMP: u64 = 65_535;
/// `min(rho, 16U)` in the slow-start shift.
const MAX_RHO_SHIFT: u64 = 16;

#[derive(Clone, Debug)]
pub struct HyblaLaw {
    cfg: HyblaConfig,
    /// The smallest smoothed RTT seen (Linux `minrtt_us`).
    min_srtt: Option<Time>,
    /// ρ·8 (`rho_3ls`), ρ's integer part (`rho`), ρ²·128 (`rho2_7ls`).
    pub rho_3ls: u64,
    pub rho: u64,
    pub rho2_7ls: u64,
    /// Increments below one segment, in 128ths (`snd_cwnd_cents`).
    cents: u64,
    /// ACKs since the last increase when the increment rounds to zero (`snd_cwnd_cnt`).
    cwnd_cnt: u64,
}

impl HyblaLaw {
    /// ρ = max(srtt/RTT0, 1) in Linux's eighths.
    pub fn rho(&self) -> f64 {
        self.rho_3ls as f64 / 8.0
    }

    /// `hybla_recalc_param` from a smoothed RTT.
    fn recalc(&mut self, srtt: Time) {
        let rtt0_us = ((self.cfg.rtt0_ms * 1000.0).round() as u64).max(1);
        let srtt_us_scaled = 8 * (srtt.as_nanos() / 1000);
        self.rho_3ls = (srtt_us_scaled / rtt0_us).max(8);
        self.rho = self.rho_3ls >> 3;
        self.rho2_7ls = (self.rho_3ls * self.rho_3ls) << 1;
    }

    /// The increment for one ACK, in 128ths of a segment, and whether it is slow start.
    fn increment(&self, cwnd: u64, slow_start: bool) -> u64 {
        if slow_start {
            let fraction = FRACTIONS[(self.rho_3ls - (self.rho << 3)) as usize];
            (1u64 << self.rho.min(MAX_RHO_SHIFT)) * fraction - 128
        } else {
            self.rho2_7ls / cwnd.max(1)
        }
    }
}

impl AimdLaw for HyblaLaw {
    type Config = HyblaConfig;
    fn new(cfg: &HyblaConfig, _init: CcInit) -> HyblaLaw {
        HyblaLaw { cfg: cfg.clone(), min_srtt: None, rho_3ls: 8, rho: 1, rho2_7ls: 128, cents: 0, cwnd_cnt: 0 }
    }
    fn name(&self) -> &'static str {
        "hybla"
    }

    /// `hybla_cong_avoid`, once per ACK.
    fn cong_avoid(&mut self, w: &mut RenoWindow, _acked: Bytes, mss: Bytes, ctx: &Ctx) -> bool {
        if let Some(srtt) = ctx.rtt.srtt {
            if self.min_srtt.is_none_or(|m| srtt < m) {
                self.recalc(srtt);
                self.min_srtt = Some(srtt);
            }
        }
        let mut cwnd = w.cwnd / mss;
        let ssthresh = w.ssthresh / mss;
        let slow_start = cwnd < ssthresh;
        let increment = self.increment(cwnd, slow_start);
        if !slow_start && increment < 128 {
            self.cwnd_cnt += 1;
        }
        cwnd += increment >> 7;
        self.cents += increment % 128;
        while self.cents >= 128 {
            cwnd += 1;
            self.cents -= 128;
            self.cwnd_cnt = 0;
        }
        if increment == 0 && self.cwnd_cnt >= cwnd {
            cwnd += 1;
            self.cwnd_cnt = 0;
        }
        if slow_start {
            cwnd = cwnd.min(ssthresh);
        }
        cwnd = cwnd.min(CWND_CLAMP);
        w.set_cwnd(cwnd * mss, mss);
        true
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

    fn hybla(srtt_ms: u64, cwnd: u64) -> (Hybla, Harness) {
        let cc = Hybla::new(&HyblaConfig::default(), init(cwnd * MSS));
        let mut h = Harness::new();
        h.rtt.srtt = Some(Time::from_millis(srtt_ms));
        (cc, h)
    }

    fn segs(cc: &Hybla) -> u64 {
        cc.control().cwnd.unwrap() / MSS
    }

    #[test]
    fn rho_is_linux_eighths_of_srtt_over_rtt0() {
        // rho_3ls = ⌊8·srtt/25 ms⌋, at least 8.
        for (srtt, rho_3ls, rho, rho2_7ls) in [(100, 32, 4, 2048), (110, 35, 4, 2450), (200, 64, 8, 8192), (10, 8, 1, 128)] {
            let (mut cc, mut h) = hybla(srtt, 10);
            h.ack_n(&mut cc, 1, false);
            assert_eq!((cc.law.rho_3ls, cc.law.rho, cc.law.rho2_7ls), (rho_3ls, rho, rho2_7ls), "srtt {srtt}");
        }
    }

    #[test]
    fn slow_start_adds_2_to_the_rho_minus_1_per_ack_in_128ths() {
        // ρ = 4: (1 << 4)·128 − 128 = 1920/128 = 15 segments per ACK.
        let (mut cc, mut h) = hybla(100, 10);
        h.ack_n(&mut cc, 1, false);
        assert_eq!(segs(&cc), 25);
        // ρ = 4 3/8 (110 ms): 16·165 − 128 = 2512 = 19 segments and 80/128 per ACK; two ACKs
        // give 38 and 160/128, i.e. 39 and 32/128 left.
        let (mut cc, mut h) = hybla(110, 10);
        h.ack_n(&mut cc, 2, false);
        assert_eq!(segs(&cc), 10 + 39);
        assert_eq!(cc.law.cents, 32);
        // ρ = 8 (200 ms): 255 per ACK.
        let (mut cc, mut h) = hybla(200, 10);
        h.ack_n(&mut cc, 1, false);
        assert_eq!(segs(&cc), 265);
    }

    #[test]
    fn the_increment_is_per_ack_not_per_acknowledged_segment() {
        // A delayed ACK of two segments adds 2^ρ − 1 once, as hybla_cong_avoid does.
        let (mut cc, mut h) = hybla(100, 10);
        let mut fb = Feedback::default();
        fb.acked_bytes = 2 * MSS;
        fb.acked_packets = 2;
        fb.rtt_sample = h.rtt.latest;
        cc.on_feedback(&fb, &mut h.ctx());
        assert_eq!(segs(&cc), 25);
    }

    #[test]
    fn slow_start_stops_at_ssthresh_and_the_window_at_the_clamp() {
        let (mut cc, mut h) = hybla(100, 95);
        cc.w.ssthresh = 100 * MSS;
        h.ack_n(&mut cc, 1, false);
        assert_eq!(segs(&cc), 100);
        let (mut cc, mut h) = hybla(200, 65_500);
        h.ack_n(&mut cc, 1, false);
        assert_eq!(segs(&cc), CWND_CLAMP);
    }

    #[test]
    fn congestion_avoidance_adds_rho_squared_over_cwnd_in_128ths() {
        // ρ = 4, cwnd 1000: 2048/1000 = 2/128 per ACK, one segment per 64 ACKs (the exact
        // ρ²/cwnd would take 62.5).
        let (mut cc, mut h) = hybla(100, 1000);
        cc.w.ssthresh = 500 * MSS;
        h.ack_n(&mut cc, 63, false);
        assert_eq!(segs(&cc), 1000);
        h.ack_n(&mut cc, 1, false);
        assert_eq!(segs(&cc), 1001);
        // ρ = 4, cwnd 100, one window of ACKs: the continuous law dW/dn = ρ²/W gives
        // W² = 100² + 2·16·100, W = 115.3; flooring each increment to 128ths loses less than
        // one segment over 100 ACKs, and cwnd is whole segments: 114 or 115.
        let (mut cc, mut h) = hybla(100, 100);
        cc.w.ssthresh = 50 * MSS;
        h.ack_n(&mut cc, 100, false);
        let after = segs(&cc);
        assert!((114..=115).contains(&after), "{after}");
    }

    #[test]
    fn a_zero_increment_grows_one_segment_per_window_of_acks() {
        // ρ = 1 (10 ms): rho2_7ls = 128, so cwnd ≥ 129 gives an increment of 0: Reno's pace.
        let (mut cc, mut h) = hybla(10, 200);
        cc.w.ssthresh = 100 * MSS;
        h.ack_n(&mut cc, 199, false);
        assert_eq!(segs(&cc), 200);
        h.ack_n(&mut cc, 1, false);
        assert_eq!(segs(&cc), 201, "the 200th ACK: snd_cwnd_cnt >= cwnd");
    }

    #[test]
    fn a_loss_halves_the_window_as_reno() {
        let (mut cc, mut h) = hybla(100, 1000);
        cc.w.ssthresh = 500 * MSS;
        h.loss(&mut cc, true);
        assert_eq!(segs(&cc), 500);
        assert_eq!(cc.w.ssthresh, 500 * MSS);
    }

    #[test]
    fn rho_only_falls_with_the_smallest_srtt() {
        let (mut cc, mut h) = hybla(100, 10);
        h.ack_n(&mut cc, 1, false);
        h.rtt.srtt = Some(Time::from_millis(180));
        h.ack_n(&mut cc, 1, false);
        assert_eq!(cc.law.rho_3ls, 32, "a queued srtt leaves rho alone");
        h.rtt.srtt = Some(Time::from_millis(50));
        h.ack_n(&mut cc, 1, false);
        assert_eq!(cc.law.rho_3ls, 16);
    }
}

//! The short-term model (the draft's `BBRAdaptLowerBoundsFromCongestion()`): `bw_lo` and
//! `inflight_lo` cut by beta per lossy round outside probing, and by the ECN response per
//! marked round (Google's v3).

use super::*;

impl Bbr3 {
    pub(super) fn reset_short_term_model(&mut self) {
        self.bw_lo = Rate(f64::INFINITY);
        self.inflight_lo = Bytes::MAX;
    }

    pub(super) fn reset_congestion_signals(&mut self) {
        self.loss_in_round = false;
        self.ecn_in_round = false;
        self.loss_in_cycle = false;
        self.ecn_in_cycle = false;
        self.bw_latest = Rate::ZERO;
        self.inflight_latest = 0;
    }

    /// `AdaptLowerBoundsFromCongestion()`, once per loss round, outside bandwidth probing.
    pub(super) fn adapt_lower_bounds(&mut self) {
        if self.state.is_probing_bw() {
            return;
        }
        let mut ecn_inflight_lo = Bytes::MAX;
        if self.ecn_in_round && self.cfg.ecn_factor > 0.0 {
            if self.inflight_lo == Bytes::MAX {
                self.inflight_lo = self.w.cwnd;
            }
            let cut = 1.0 - self.cfg.ecn_factor * self.ecn.alpha;
            ecn_inflight_lo = (self.inflight_lo as f64 * cut) as Bytes;
        }
        if self.loss_in_round {
            if self.bw_lo.0.is_infinite() {
                self.bw_lo = self.max_bw();
            }
            if self.inflight_lo == Bytes::MAX {
                self.inflight_lo = self.w.cwnd;
            }
            let beta = self.cfg.beta;
            let bw_lo = self.bw_lo.scale(beta);
            self.bw_lo = if self.bw_latest > bw_lo {
                self.bw_latest
            } else {
                bw_lo
            };
            self.inflight_lo = self
                .inflight_latest
                .max((self.inflight_lo as f64 * beta) as Bytes);
        }
        self.inflight_lo = self.inflight_lo.min(ecn_inflight_lo);
        if self.bw_lo.0 < 1.0 {
            self.bw_lo = Rate(1.0);
        }
    }

    /// Closes the ECN accounting of a round: the CE ratio, `ecn_alpha`, and STARTUP's exit
    /// on 2 rounds with 50 % or more marks.
    pub(super) fn end_ecn_round(&mut self) {
        let e = &mut self.ecn;
        e.ratio = None;
        let max_rtt = Time::from_millis(self.cfg.ecn_max_rtt_ms);
        if !e.eligible && e.capable && self.cfg.ecn_factor > 0.0 {
            e.eligible =
                self.cfg.ecn_max_rtt_ms == 0 || self.rtt.min_rtt().is_some_and(|r| r <= max_rtt);
        }
        if e.eligible && e.round_acked > 0 {
            let ratio = e.round_ce as f64 / e.round_acked as f64;
            let g = self.cfg.ecn_alpha_gain;
            e.alpha = ((1.0 - g) * e.alpha + g * ratio).min(1.0);
            e.ratio = Some(ratio);
            if !self.full_pipe.reached
                && self.cfg.startup_full_ecn_rounds > 0
                && self.cfg.ecn_thresh > 0.0
            {
                e.startup_rounds = if ratio >= self.cfg.ecn_thresh {
                    e.startup_rounds + 1
                } else {
                    0
                };
                if e.startup_rounds >= self.cfg.startup_full_ecn_rounds {
                    self.handle_queue_too_high_in_startup();
                }
            }
        }
        self.ecn.round_acked = 0;
        self.ecn.round_ce = 0;
    }
}

//! Startup and Drain (the draft's `BBRCheckStartupDone()`, `BBRCheckStartupHighLoss()`,
//! `BBRCheckDrainDone()`): leaving Startup when the pipe is full, on high loss or on ECN, and
//! Drain when inflight is down to the BDP.

use super::*;

impl Bbr3 {
    /// STARTUP saw high loss or CE marks: the pipe is full, and inflight_hi starts at what
    /// fitted (`bbr_handle_queue_too_high_in_startup`).
    pub(super) fn handle_queue_too_high_in_startup(&mut self) {
        self.full_pipe.reached = true;
        self.inflight_hi = self.inflight(self.max_bw(), 1.0).max(self.inflight_latest);
    }

    /// `CheckStartupHighLoss()` (§5.3.1.3), at the end of each round of recovery in STARTUP.
    pub(super) fn check_startup_high_loss(&mut self, fb: &Feedback, rs: Option<&RateSample>) {
        if self.full_pipe.reached {
            return;
        }
        if fb.lost_packets > 0 && self.loss_events_in_round < 15 {
            self.loss_events_in_round += 1;
        }
        if self.cfg.startup_full_loss_count > 0
            && self.loss_round_start
            && self.w.ca == CaState::Recovery
            && self.loss_events_in_round >= self.cfg.startup_full_loss_count
            && self.is_inflight_too_high(rs)
        {
            self.handle_queue_too_high_in_startup();
            return;
        }
        if self.loss_round_start {
            self.loss_events_in_round = 0;
        }
    }

    pub(super) fn check_full_bw_reached(&mut self, rs: Option<&RateSample>, app_limited: bool) {
        let Some(r) = rs else { return };
        if self.full_pipe.now || app_limited {
            return;
        }
        if !self.full_pipe.grew(r.rate(), self.cfg.full_bw_growth) && self.rounds.start {
            self.full_pipe.count_round(self.cfg.full_bw_rounds);
        }
    }

    pub(super) fn check_startup_and_drain_done(&mut self, ctx: &mut Ctx) {
        if self.state == State::Startup && self.full_pipe.reached {
            self.set_state(State::Drain, ctx);
            self.drain_start_round = self.rounds.count;
            self.reset_congestion_signals();
        }
        if self.state == State::Drain
            && (ctx.bytes_in_flight <= self.inflight(self.max_bw(), 1.0)
                || self.rounds.count > self.drain_start_round + self.cfg.drain_max_rounds)
        {
            self.start_probe_bw_down(ctx);
        }
    }
}

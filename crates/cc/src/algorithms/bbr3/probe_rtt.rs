//! ProbeRTT (the draft's `BBRCheckProbeRTT()`): min_rtt, entering and leaving ProbeRTT,
//! through the estimator BBR v1 shares (`bbr_model::MinRttProbe`).

use super::*;

impl Bbr3 {
    /// `ExitProbeRTT()` (whose end restored the cwnd): back to PROBE_BW (through DOWN straight
    /// to CRUISE, since inflight is low) or to STARTUP.
    pub(super) fn exit_probe_rtt(&mut self, ctx: &mut Ctx) {
        self.reset_short_term_model();
        if self.full_pipe.reached {
            self.start_probe_bw_down(ctx);
            self.start_probe_bw_cruise(ctx);
        } else {
            self.set_state(State::Startup, ctx);
        }
    }

    /// min_rtt, and PROBE_RTT at BDP/2 when no lower RTT was seen for 5 s.
    pub(super) fn update_min_rtt(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        let (in_probe_rtt, target) = (self.state == State::ProbeRtt, self.probe_rtt_cwnd());
        match self
            .rtt
            .on_ack(fb, ctx, in_probe_rtt, target, &mut self.w, &mut self.rounds)
        {
            ProbeRttStep::Enter => {
                self.set_state(State::ProbeRtt, ctx);
                self.ack_phase = AckPhase::ProbeStopping;
                self.rounds.start_round(self.w.delivered);
            }
            ProbeRttStep::Exit => self.exit_probe_rtt(ctx),
            ProbeRttStep::Stay => {}
        }
    }
}

//! ProbeBW (the draft's `BBRUpdateProbeBWCyclePhase()` and the functions it calls): the DOWN,
//! CRUISE, REFILL and UP phases, when to probe next (Reno coexistence, §5.3.3.8), and the
//! long-term bound `inflight_hi` learned from probing (`BBRAdaptUpperBounds()`).

use super::*;

impl Bbr3 {
    /// `IsInflightTooHigh()`: the rate sample lost more than 2 % of what was in flight when its
    /// packet was sent, or (ECN) the round that just ended had more than 50 % CE marks.
    pub(super) fn is_inflight_too_high(&self, rs: Option<&RateSample>) -> bool {
        let lossy = rs.is_some_and(|r| {
            r.lost > 0
                && r.tx_in_flight > 0
                && r.lost as f64 > r.tx_in_flight as f64 * self.cfg.loss_thresh
        });
        let marked = self.ecn.eligible
            && self.cfg.ecn_thresh > 0.0
            && self.ecn.ratio.is_some_and(|x| x > self.cfg.ecn_thresh);
        lossy || marked
    }

    /// `HandleInflightTooHigh()`: remember the inflight that was too much, once per probe.
    pub(super) fn handle_inflight_too_high(
        &mut self,
        rs: Option<&RateSample>,
        app_limited: bool,
        ctx: &mut Ctx,
    ) {
        self.prev_probe_too_high = true;
        self.bw_probe_samples = false;
        if !app_limited {
            let floor = (self.target_inflight() as f64 * self.cfg.beta) as Bytes;
            self.inflight_hi = rs.map_or(0, |r| r.tx_in_flight).max(floor);
        }
        if self.state == State::ProbeBwUp {
            self.start_probe_bw_down(ctx);
        }
    }

    pub(super) fn pick_probe_wait(&mut self, ctx: &mut Ctx) {
        self.rounds_since_probe = ctx
            .rng
            .random_range(0..self.cfg.bw_probe_rand_rounds.max(1));
        let jitter = ctx
            .rng
            .random_range(0..self.cfg.bw_probe_rand_ms.max(1) * 1000);
        self.probe_wait = Time::from_millis(self.cfg.bw_probe_base_ms) + Time::from_micros(jitter);
    }

    pub(super) fn start_probe_bw_down(&mut self, ctx: &mut Ctx) {
        self.reset_congestion_signals();
        self.probe_up_acked_per_inc = Bytes::MAX;
        self.pick_probe_wait(ctx);
        self.cycle_stamp = ctx.now;
        self.ack_phase = AckPhase::ProbeStopping;
        self.rounds.start_round(self.w.delivered);
        self.set_state(State::ProbeBwDown, ctx);
    }

    pub(super) fn start_probe_bw_cruise(&mut self, ctx: &mut Ctx) {
        if self.inflight_lo != Bytes::MAX {
            self.inflight_lo = self.inflight_lo.min(self.inflight_hi);
        }
        self.set_state(State::ProbeBwCruise, ctx);
    }

    pub(super) fn start_probe_bw_refill(&mut self, up_rounds: u32, ctx: &mut Ctx) {
        self.reset_short_term_model();
        self.bw_probe_up_rounds = up_rounds;
        self.bw_probe_up_acked = 0;
        self.stopped_risky_probe = false;
        self.ack_phase = AckPhase::Refilling;
        self.rounds.start_round(self.w.delivered);
        self.set_state(State::ProbeBwRefill, ctx);
    }

    pub(super) fn start_probe_bw_up(&mut self, sample_bw: Rate, ctx: &mut Ctx) {
        self.ack_phase = AckPhase::ProbeStarting;
        self.rounds.start_round(self.w.delivered);
        self.cycle_stamp = ctx.now;
        self.full_pipe.reset();
        self.full_pipe.full_bw = sample_bw;
        self.set_state(State::ProbeBwUp, ctx);
        self.raise_inflight_hi_slope();
    }

    /// `RaiseInflightLongtermSlope()`: inflight_hi grows by 1, 2, 4, … packets per round.
    pub(super) fn raise_inflight_hi_slope(&mut self) {
        let growth = 1u64 << self.bw_probe_up_rounds;
        self.bw_probe_up_rounds = (self.bw_probe_up_rounds + 1).min(30);
        self.probe_up_acked_per_inc = (self.w.cwnd / growth).max(self.w.mss);
    }

    /// `ProbeInflightLongtermUpward()`: while cwnd-limited at inflight_hi, one MSS more per
    /// `probe_up_acked_per_inc` bytes acknowledged.
    pub(super) fn probe_inflight_hi_upward(&mut self, acked: Bytes) {
        if !self.is_cwnd_limited || self.w.cwnd < self.inflight_hi {
            return;
        }
        self.bw_probe_up_acked += acked;
        if self.bw_probe_up_acked >= self.probe_up_acked_per_inc {
            let delta = self.bw_probe_up_acked / self.probe_up_acked_per_inc;
            self.bw_probe_up_acked -= delta * self.probe_up_acked_per_inc;
            self.inflight_hi = self.inflight_hi.saturating_add(delta * self.w.mss);
        }
        if self.rounds.start {
            self.raise_inflight_hi_slope();
        }
    }

    /// `AdaptLongTermModel()`; returns true if it decided a state transition.
    pub(super) fn adapt_upper_bounds(
        &mut self,
        fb: &Feedback,
        rs: Option<&RateSample>,
        app_limited: bool,
        ctx: &mut Ctx,
    ) -> bool {
        if self.ack_phase == AckPhase::ProbeStarting && self.rounds.start {
            self.ack_phase = AckPhase::ProbeFeedback;
        }
        if self.ack_phase == AckPhase::ProbeStopping && self.rounds.start {
            // The ACKs of the probe are all in: the best time to advance the max_bw window.
            self.bw_probe_samples = false;
            self.ack_phase = AckPhase::Init;
            if self.state.is_probe_bw() && !app_limited {
                self.cycle_count += 1;
            }
            // A precautionary probe stopped at inflight_hi without high loss: probe again now.
            if self.state.is_probe_bw() && self.stopped_risky_probe && !self.prev_probe_too_high {
                self.start_probe_bw_refill(0, ctx);
                return true;
            }
        }
        if self.is_inflight_too_high(rs) {
            if self.bw_probe_samples {
                self.handle_inflight_too_high(rs, app_limited, ctx);
            }
        } else {
            if self.inflight_hi == Bytes::MAX {
                return false;
            }
            if let Some(r) = rs {
                self.inflight_hi = self.inflight_hi.max(r.tx_in_flight);
            }
            if self.state == State::ProbeBwUp {
                self.probe_inflight_hi_upward(fb.acked_bytes);
            }
        }
        false
    }

    /// `IsTimeToProbeBW()`, with Google's ECN re-probe: once marks stop without loss, refill
    /// at half of inflight_hi at once.
    pub(super) fn check_time_to_probe_bw(&mut self, ctx: &mut Ctx) -> bool {
        if self.cfg.ecn_reprobe_gain > 0.0
            && self.ecn.eligible
            && self.ecn_in_cycle
            && !self.loss_in_cycle
            && self.w.ca == CaState::Open
        {
            let pkts = (self.inflight_hi / self.w.mss) as f64 * self.cfg.ecn_reprobe_gain;
            let n = if pkts >= 1.0 {
                pkts.log2().floor() as u32
            } else {
                0
            };
            self.start_probe_bw_refill(n.min(30), ctx);
            return true;
        }
        let reno_rounds = self
            .cfg
            .bw_probe_max_rounds
            .min(self.target_inflight() / self.w.mss);
        if ctx.now > self.cycle_stamp + self.probe_wait || self.rounds_since_probe >= reno_rounds {
            self.start_probe_bw_refill(0, ctx);
            return true;
        }
        false
    }

    /// `UpdateProbeBWCyclePhase()`.
    pub(super) fn update_cycle_phase(
        &mut self,
        fb: &Feedback,
        rs: Option<&RateSample>,
        app_limited: bool,
        ctx: &mut Ctx,
    ) {
        if !self.full_pipe.reached
            || self.adapt_upper_bounds(fb, rs, app_limited, ctx)
            || !self.state.is_probe_bw()
        {
            return;
        }
        let in_flight = fb.prior_in_flight
            + if self.pacing_gain > 1.0 {
                send_quantum(self.pacing.rate, self.w.mss)
            } else {
                0
            };
        match self.state {
            State::ProbeBwCruise => {
                self.check_time_to_probe_bw(ctx);
            }
            // One round of refilling, then probe up.
            State::ProbeBwRefill if self.rounds.start => {
                self.bw_probe_samples = true;
                self.start_probe_bw_up(rs.map_or(Rate::ZERO, |r| r.rate()), ctx);
            }
            State::ProbeBwUp => {
                let done = if self.prev_probe_too_high && in_flight >= self.inflight_hi {
                    // Precautionary probing: stop as soon as inflight reaches the risky level.
                    self.stopped_risky_probe = true;
                    true
                } else if self.is_cwnd_limited && self.w.cwnd >= self.inflight_hi {
                    // inflight_hi limits growth: the plateau detector starts again.
                    self.full_pipe.reset();
                    self.full_pipe.full_bw = rs.map_or(Rate::ZERO, |r| r.rate());
                    false
                } else {
                    self.full_pipe.now
                };
                if done {
                    self.prev_probe_too_high = false;
                    self.start_probe_bw_down(ctx);
                }
            }
            State::ProbeBwDown => {
                if self.check_time_to_probe_bw(ctx) {
                    return;
                }
                // Cruise once inflight leaves headroom below inflight_hi and is within the BDP.
                let bdp = self.inflight(self.max_bw(), 1.0);
                if in_flight <= self.inflight_with_headroom() && in_flight <= bdp {
                    self.start_probe_bw_cruise(ctx);
                }
            }
            _ => {}
        }
    }
}

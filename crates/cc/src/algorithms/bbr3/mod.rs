//! BBR v3: BBR with loss and ECN bounds on its model.
//!
//! Sources: N. Cardwell, I. Swett, J. Beshay (eds.), "BBR Congestion Control",
//! draft-ietf-ccwg-bbr (the latest draft, which specifies BBRv3; section numbers below are
//! its), and Google's v3 Linux code (github.com/google/bbr, branch v3, `net/ipv4/tcp_bbr.c`)
//! for the ECN response and details the draft leaves open. Where the two differ this follows
//! the draft: DRAIN paces at 0.5 (Linux 0.35) and ends after at most 3 rounds, ProbeBW_DOWN
//! paces at 0.90 (Linux 0.91). The code is written from their description.
//!
//! The model keeps v1's long-term estimates, `max_bw` (now a max over the current and the
//! previous ProbeBW cycle) and `min_rtt` (10 s), and adds bounds learned from congestion:
//!
//! ```text
//! inflight_hi  (draft: inflight_longterm)   the inflight at which probing saw loss > 2 %
//!                                           (or CE marks > 50 %)
//! bw_lo, inflight_lo  (draft: bw_shortterm, inflight_shortterm)
//!              per round with loss, outside bandwidth probing:
//!              bw_lo       = max(bw_latest,       beta · bw_lo)          beta = 0.7
//!              inflight_lo = max(inflight_latest, beta · inflight_lo)
//!              per round with CE marks:  inflight_lo · (1 − ecn_factor · ecn_alpha)
//! bw           = min(max_bw, bw_lo)
//! pacing_rate  = pacing_gain · bw · 0.99
//! cwnd         = min(cwnd_gain · bw · min_rtt + extra_acked (+ quanta),  cap)
//!              cap = inflight_hi in DOWN / REFILL / UP, 0.85 · inflight_hi in CRUISE and
//!                    PROBE_RTT, and never above inflight_lo
//! ```
//!
//! States and gains (§5.6.1): STARTUP paces at 4 ln 2 ≈ 2.77 with cwnd gain 2, until the pipe
//! is full (bandwidth growth below 25 % for 3 rounds), the loss rate of a recovery round
//! exceeds 2 % with at least 6 loss events, or (with ECN) 2 rounds have CE ratios of 50 % or
//! more. DRAIN paces at 0.5 until inflight ≤ BDP. PROBE_BW cycles
//! DOWN (0.90) → CRUISE (1.0) → REFILL (1.0, one round, short-term bounds reset) → UP (1.25,
//! cwnd gain 2.25, inflight_hi growing 1, 2, 4, … packets per round) → DOWN. The next probe
//! comes after a random 2–3 s, or after min(63, BDP in packets) rounds, whichever is first
//! (Reno coexistence, §5.3.3.8). A loss rate above 2 % in a round of probing sets
//! `inflight_hi = max(tx_in_flight, beta · min(BDP, cwnd))` and ends the probe. PROBE_RTT
//! comes every 5 s without a lower RTT sample and holds cwnd at `BDP/2` for 200 ms and a
//! round.
//!
//! ECN (Google's v3, the draft leaves the response open): the CE ratio of each round is
//! `ecn_ce_packets / acked_packets` summed over the round; `ecn_alpha` is its EWMA with gain
//! 1/16. The sender uses ECN only if the flow is ECN-capable and (as Linux, where ECN means a
//! shallow-threshold data-centre marking) `min_rtt ≤ ecn_max_rtt_ms` (0: any RTT).
//!
//! Differences from the references, from the sender interface: losses are judged on the
//! delivery-rate sample of each ACK (`RateSample::lost` / `tx_in_flight`), not per lost packet
//! (the draft's `HandleLostPacket` needs the lost packet's own `tx_in_flight`), and the CE ratio
//! is per round rather than per rate sample. Linux's TLP and PLB hooks have no counterpart.
//!
//! Files: this one holds the state, the model's derived quantities and the per-ACK order of
//! work (`on_feedback`); `startup.rs`, `probe_bw.rs` and `probe_rtt.rs` the state machine's
//! parts, `short_term.rs` the loss and ECN bounds outside probing, `config.rs` the parameters.

use super::bbr_model::prelude::*;

mod config;
mod probe_bw;
mod probe_rtt;
mod short_term;
mod startup;
#[cfg(test)]
mod tests;

pub use config::Bbr3Config;

/// BBR v3's states, with PROBE_BW's four phases.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum State {
    Startup,
    Drain,
    ProbeBwDown,
    ProbeBwCruise,
    ProbeBwRefill,
    ProbeBwUp,
    ProbeRtt,
}

impl State {
    pub fn name(self) -> &'static str {
        match self {
            State::Startup => "startup",
            State::Drain => "drain",
            State::ProbeBwDown => "probe_bw_down",
            State::ProbeBwCruise => "probe_bw_cruise",
            State::ProbeBwRefill => "probe_bw_refill",
            State::ProbeBwUp => "probe_bw_up",
            State::ProbeRtt => "probe_rtt",
        }
    }

    fn is_probe_bw(self) -> bool {
        matches!(
            self,
            State::ProbeBwDown | State::ProbeBwCruise | State::ProbeBwRefill | State::ProbeBwUp
        )
    }

    /// `IsProbingBW()`: the states that push inflight up and so do not adapt the lower bounds.
    fn is_probing_bw(self) -> bool {
        matches!(
            self,
            State::Startup | State::ProbeBwRefill | State::ProbeBwUp
        )
    }
}

/// What the ACKs say about bandwidth probing (`BBR.ack_phase`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum AckPhase {
    Init,
    Refilling,
    ProbeStarting,
    ProbeFeedback,
    ProbeStopping,
}

/// Per-round ECN accounting.
#[derive(Clone, Debug, PartialEq)]
struct Ecn {
    /// The flow sends ECN-capable packets (seen ECT feedback).
    capable: bool,
    eligible: bool,
    alpha: f64,
    round_acked: u64,
    round_ce: u64,
    /// The CE ratio of the round that just ended, on the ACK that ended it.
    ratio: Option<f64>,
    startup_rounds: u32,
}

#[derive(Clone, Debug)]
pub struct Bbr3 {
    /// Boxed: the parameters are many and only read.
    cfg: Box<Bbr3Config>,
    w: Window,
    pacing: Pacing,
    state: State,
    pacing_gain: f64,
    cwnd_gain: f64,
    /// `max_bw`, keyed by ProbeBW cycle (`BBR.cycle_count`).
    max_bw: WindowedFilter<Rate>,
    cycle_count: u64,
    rounds: Rounds,
    /// min_rtt (10 s) and PROBE_RTT (every 5 s).
    rtt: MinRttProbe,
    full_pipe: FullPipe,
    aggr: AckAggregation,
    /// Long-term bound (`Bytes::MAX` = none).
    inflight_hi: Bytes,
    /// Short-term bounds (`Bytes::MAX`, infinite rate = none).
    inflight_lo: Bytes,
    bw_lo: Rate,
    /// The largest delivery rate and delivered volume of the last round (`bw_latest`,
    /// `inflight_latest`).
    bw_latest: Rate,
    inflight_latest: Bytes,
    loss_round_delivered: Bytes,
    loss_round_start: bool,
    loss_in_round: bool,
    ecn_in_round: bool,
    loss_in_cycle: bool,
    ecn_in_cycle: bool,
    loss_events_in_round: u32,
    /// PROBE_BW cycle state.
    cycle_stamp: Time,
    probe_wait: Time,
    rounds_since_probe: u64,
    bw_probe_up_rounds: u32,
    bw_probe_up_acked: Bytes,
    /// Bytes to acknowledge per MSS of inflight_hi growth in ProbeBW_UP.
    probe_up_acked_per_inc: Bytes,
    ack_phase: AckPhase,
    bw_probe_samples: bool,
    prev_probe_too_high: bool,
    stopped_risky_probe: bool,
    drain_start_round: u64,
    ecn: Ecn,
    /// cwnd filled at some point in the last round (`C.is_cwnd_limited`).
    is_cwnd_limited: bool,
    cwnd_limited_in_round: bool,
    undo: (Rate, Bytes, Bytes),
}

impl Bbr3 {
    pub fn new(cfg: &Bbr3Config, init: CcInit) -> Bbr3 {
        let cfg = Box::new(cfg.clone());
        Bbr3 {
            w: Window::new(init.mss, init.initial_cwnd),
            pacing: Pacing::new(
                init.initial_cwnd,
                cfg.startup_pacing_gain,
                cfg.pacing_margin_percent,
            ),
            state: State::Startup,
            pacing_gain: cfg.startup_pacing_gain,
            cwnd_gain: cfg.startup_cwnd_gain,
            max_bw: WindowedFilter::max(cfg.bw_filter_cycles.saturating_sub(1), 0, Rate::ZERO),
            cycle_count: 0,
            rounds: Rounds::default(),
            rtt: MinRttProbe::new(
                MinRttFilter::new(
                    Time::from_millis(cfg.probe_rtt_interval_ms),
                    Time::from_millis(cfg.min_rtt_window_ms),
                    false,
                ),
                Time::from_millis(cfg.probe_rtt_duration_ms),
            ),
            full_pipe: FullPipe::default(),
            aggr: AckAggregation::default(),
            inflight_hi: Bytes::MAX,
            inflight_lo: Bytes::MAX,
            bw_lo: Rate(f64::INFINITY),
            bw_latest: Rate::ZERO,
            inflight_latest: 0,
            // Loss rounds start after the first flight is acknowledged.
            loss_round_delivered: 1,
            loss_round_start: false,
            loss_in_round: false,
            ecn_in_round: false,
            loss_in_cycle: false,
            ecn_in_cycle: false,
            loss_events_in_round: 0,
            cycle_stamp: Time::ZERO,
            probe_wait: Time::ZERO,
            rounds_since_probe: 0,
            bw_probe_up_rounds: 0,
            bw_probe_up_acked: 0,
            probe_up_acked_per_inc: Bytes::MAX,
            ack_phase: AckPhase::Init,
            bw_probe_samples: false,
            prev_probe_too_high: false,
            stopped_risky_probe: false,
            drain_start_round: 0,
            ecn: Ecn {
                capable: false,
                eligible: false,
                alpha: cfg.ecn_alpha_init,
                round_acked: 0,
                round_ce: 0,
                ratio: None,
                startup_rounds: 0,
            },
            is_cwnd_limited: false,
            cwnd_limited_in_round: false,
            undo: (Rate(f64::INFINITY), Bytes::MAX, Bytes::MAX),
            cfg,
        }
    }

    pub fn state(&self) -> State {
        self.state
    }

    pub fn max_bw(&self) -> Rate {
        self.max_bw.get()
    }

    /// `BBR.bw = min(max_bw, bw_lo)`.
    pub fn bw(&self) -> Rate {
        let m = self.max_bw.get();
        if self.bw_lo < m {
            self.bw_lo
        } else {
            m
        }
    }

    pub fn inflight_hi(&self) -> Option<Bytes> {
        Some(self.inflight_hi).filter(|b| *b != Bytes::MAX)
    }

    pub fn inflight_lo(&self) -> Option<Bytes> {
        Some(self.inflight_lo).filter(|b| *b != Bytes::MAX)
    }

    pub fn pacing_gain(&self) -> f64 {
        self.pacing_gain
    }

    fn min_cwnd(&self) -> Bytes {
        self.cfg.min_cwnd_packets * self.w.mss
    }

    fn bdp_of(&self, bw: Rate, gain: f64) -> Bytes {
        bdp(bw, self.rtt.min_rtt(), gain, self.w.mss, self.w.init_cwnd)
    }

    /// `QuantizationBudget` (§5.6.4.2): at least three send quanta and `MinPipeCwnd`, and two
    /// packets more in ProbeBW_UP.
    fn quantization_budget(&self, inflight: Bytes) -> Bytes {
        let offload = 3 * send_quantum(self.pacing.rate, self.w.mss);
        let mut cap = inflight.max(offload).max(self.min_cwnd());
        if self.state == State::ProbeBwUp {
            cap += 2 * self.w.mss;
        }
        cap
    }

    /// `Inflight(bw, gain)`: the quantised `gain · BDP`.
    fn inflight(&self, bw: Rate, gain: f64) -> Bytes {
        self.quantization_budget(self.bdp_of(bw, gain))
    }

    /// `TargetInflight()`: the BDP, unless congestion has cut cwnd below it.
    fn target_inflight(&self) -> Bytes {
        self.inflight(self.bw(), 1.0).min(self.w.cwnd)
    }

    /// `InflightWithHeadroom()`: `inflight_hi` less 15 % (at least one packet).
    fn inflight_with_headroom(&self) -> Bytes {
        if self.inflight_hi == Bytes::MAX {
            return Bytes::MAX;
        }
        let headroom = ((self.inflight_hi as f64 * self.cfg.headroom) as Bytes).max(self.w.mss);
        self.inflight_hi
            .saturating_sub(headroom)
            .max(self.min_cwnd())
    }

    fn probe_rtt_cwnd(&self) -> Bytes {
        self.bdp_of(self.bw(), self.cfg.probe_rtt_cwnd_gain)
            .max(self.min_cwnd())
    }

    fn set_state(&mut self, to: State, ctx: &mut Ctx) {
        if to != self.state {
            record_state_change(ctx, self.state.name(), to.name(), self.w.cwnd);
            self.state = to;
        }
    }

    // ---- PROBE_BW phases (§5.3.3.9) ----

    // ---- congestion signals (§5.5.10) ----

    fn update_gains(&mut self) {
        let c = &self.cfg;
        (self.pacing_gain, self.cwnd_gain) = match self.state {
            State::Startup => (c.startup_pacing_gain, c.startup_cwnd_gain),
            State::Drain => (c.drain_pacing_gain, c.startup_cwnd_gain),
            State::ProbeBwDown => (c.probe_down_pacing_gain, c.cwnd_gain),
            State::ProbeBwCruise | State::ProbeBwRefill => (1.0, c.cwnd_gain),
            State::ProbeBwUp => (c.probe_up_pacing_gain, c.probe_up_cwnd_gain),
            State::ProbeRtt => (1.0, c.probe_rtt_cwnd_gain),
        };
    }

    /// `SetCwnd()` and `BoundCwndForModel()` (§5.6.4.6–7).
    fn set_cwnd(&mut self, acked: Bytes) {
        let mut cwnd = self.w.cwnd;
        if acked > 0 {
            let bw = self.bw();
            let cap = Time::from_millis(self.cfg.extra_acked_max_ms);
            let max_inflight = self.quantization_budget(
                self.bdp_of(bw, self.cwnd_gain)
                    + self.aggr.cwnd_allowance(self.cfg.extra_acked_gain, bw, cap),
            );
            if self.full_pipe.reached {
                cwnd = (cwnd + acked).min(max_inflight);
            } else if cwnd < max_inflight || self.w.delivered < self.w.init_cwnd {
                cwnd += acked;
            }
            cwnd = cwnd.max(self.min_cwnd());
        }
        if self.state == State::ProbeRtt {
            cwnd = cwnd.min(self.probe_rtt_cwnd());
        }
        let mut cap = Bytes::MAX;
        if self.state.is_probe_bw() && self.state != State::ProbeBwCruise {
            cap = self.inflight_hi;
        } else if matches!(self.state, State::ProbeRtt | State::ProbeBwCruise) {
            cap = self.inflight_with_headroom();
        }
        cap = cap.min(self.inflight_lo).max(self.min_cwnd());
        self.w.cwnd = cwnd.min(cap);
    }
}

impl CongestionControl for Bbr3 {
    fn name(&self) -> &'static str {
        "bbr3"
    }

    /// BBR sets its window in recovery itself (packet conservation, then the saved cwnd), as
    /// Linux's `cong_control` hook does: no PRR on top.
    fn sets_recovery_window(&self) -> bool {
        true
    }

    /// `UpdateOnACK()` (§5.2.3): model and state, then pacing rate and cwnd.
    fn on_feedback(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        let now = ctx.now;
        if fb.new_episode {
            // SaveStateUponLoss(): for undo and for restoring cwnd when recovery ends.
            self.w.save_cwnd(self.state == State::ProbeRtt);
            self.undo = (self.bw_lo, self.inflight_lo, self.inflight_hi);
        }
        let prev_ca = self.w.on_feedback(fb, now);
        if prev_ca >= CaState::Recovery && self.w.ca < CaState::Recovery {
            self.w.restore_cwnd();
        }
        if fb.lost_packets > 0 {
            // NoteLoss(): the loss round lasts until data sent from now on is acknowledged.
            if !self.loss_in_round {
                self.loss_round_delivered = self.w.delivered;
            }
            self.loss_in_round = true;
            self.loss_in_cycle = true;
        }
        let rs_owned = fb
            .rate_sample
            .filter(|r| r.interval > Time::ZERO && fb.acked_bytes > 0);
        let rs = rs_owned.as_ref();
        let app_limited = rs.is_some_and(|r| self.rtt.mark.is_app_limited(r));
        let sample_bw = rs.map_or(Rate::ZERO, |r| r.rate());

        // Rounds, and the per-round ECN and cwnd-limited bookkeeping.
        if self.rounds.update(fb) {
            self.rounds_since_probe += 1;
            self.end_ecn_round();
            self.is_cwnd_limited = self.cwnd_limited_in_round;
            self.cwnd_limited_in_round = false;
        } else {
            self.ecn.ratio = None;
        }
        self.ecn.capable |= fb.ecn_ect_packets > 0;
        self.ecn.round_acked += fb.acked_packets as u64;
        self.ecn.round_ce += fb.ecn_ce_packets as u64;
        self.ecn_in_round |= self.ecn.eligible && (fb.ece || fb.ecn_ce_packets > 0);

        // UpdateLatestDeliverySignals().
        self.loss_round_start = false;
        if let Some(r) = rs {
            if sample_bw > self.bw_latest {
                self.bw_latest = sample_bw;
            }
            self.inflight_latest = self.inflight_latest.max(r.delivered);
            if r.prior_delivered >= self.loss_round_delivered {
                self.loss_round_delivered = self.w.delivered;
                self.loss_round_start = true;
            }
            // UpdateCongestionSignals(): max_bw, and once per loss round the lower bounds.
            if !app_limited || sample_bw >= self.max_bw() {
                self.max_bw.update(self.cycle_count, sample_bw);
            }
            if self.loss_round_start {
                self.adapt_lower_bounds();
                self.loss_in_round = false;
                self.ecn_in_round = false;
            }
        }
        let window = if self.full_pipe.reached {
            self.cfg.extra_acked_window_rounds
        } else {
            1
        };
        self.aggr.update(
            now,
            fb.acked_bytes,
            self.bw(),
            self.w.cwnd,
            self.rounds.count,
            window,
            self.w.mss,
        );
        self.check_startup_high_loss(fb, rs);
        self.check_full_bw_reached(rs, app_limited);
        self.check_startup_and_drain_done(ctx);
        self.update_cycle_phase(fb, rs, app_limited, ctx);
        self.update_min_rtt(fb, ctx);
        // AdvanceLatestDeliverySignals().
        if self.loss_round_start {
            if let Some(r) = rs {
                self.bw_latest = sample_bw;
                self.inflight_latest = r.delivered;
            }
        }
        self.loss_in_cycle |= rs.is_some_and(|r| r.lost > 0);
        self.ecn_in_cycle |= fb.ecn_ce_packets > 0;

        self.update_gains();
        let c = &self.cfg;
        let (bw, margin, reached) = (self.bw(), c.pacing_margin_percent, self.full_pipe.reached);
        self.pacing.set(
            bw,
            self.pacing_gain,
            margin,
            reached,
            ctx.rtt.srtt,
            self.w.init_cwnd,
            c.startup_pacing_gain,
        );
        self.set_cwnd(fb.acked_bytes);
    }

    fn on_sent(&mut self, sent: &Sent, _ctx: &mut Ctx) {
        if sent.in_flight + self.w.mss > self.w.cwnd {
            self.is_cwnd_limited = true;
            self.cwnd_limited_in_round = true;
        }
    }

    /// `OnEnterRTO()`: save state, cwnd to one packet; Google's v3 also restarts full-pipe
    /// detection and, outside probing, starts inflight_lo from the cwnd before the timeout.
    fn on_timeout(&mut self, _ctx: &mut Ctx) {
        if self.w.ca < CaState::Recovery {
            self.undo = (self.bw_lo, self.inflight_lo, self.inflight_hi);
        }
        self.w.on_timeout(self.state == State::ProbeRtt);
        self.full_pipe.reset();
        if !self.state.is_probing_bw() && self.inflight_lo == Bytes::MAX {
            self.inflight_lo = self.w.prior_cwnd.max(self.w.mss);
        }
    }

    /// `HandleSpuriousLossDetection()` (§5.5.11.2), without returning to the probing state.
    fn on_spurious_loss(&mut self, _ctx: &mut Ctx) {
        self.w.restore_cwnd();
        self.loss_in_round = false;
        self.full_pipe.reset();
        let (bw_lo, lo, hi) = self.undo;
        if bw_lo > self.bw_lo {
            self.bw_lo = bw_lo;
        }
        self.inflight_lo = self.inflight_lo.max(lo);
        self.inflight_hi = self.inflight_hi.max(hi);
    }

    /// `BBRHandleRestartFromIdle()` (§5.4.1): on sending with nothing in flight while
    /// application-limited (Linux: `CA_EVENT_TX_START` with `tp->app_limited`).
    fn on_tx_start(&mut self, tx: &TxStart, ctx: &mut Ctx) {
        if !tx.app_limited {
            return;
        }
        self.aggr.restart(ctx.now);
        let probe_rtt_done = self.rtt.restart_from_idle(ctx.now);
        if self.state.is_probe_bw() {
            self.pacing.rate = paced(self.bw(), 1.0, self.cfg.pacing_margin_percent);
        } else if self.state == State::ProbeRtt && probe_rtt_done {
            self.rtt.finish(ctx.now, &mut self.w);
            self.exit_probe_rtt(ctx);
        }
    }

    fn control(&self) -> Control {
        self.w.control(self.pacing.rate)
    }

    fn snapshot(&self) -> Snapshot {
        self.w
            .snapshot(&self.pacing, self.bw(), &self.rtt, self.state.name())
    }
}

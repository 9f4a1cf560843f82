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

use super::bbr_model::prelude::*;

/// BBR v3's parameters, with the draft's values as defaults (Google's v3 code for ECN).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bbr3Config {
    /// STARTUP's pacing gain, `4 ln 2` (`BBR.StartupPacingGain`), and cwnd gain
    /// (`BBR.DefaultCwndGain`).
    pub startup_pacing_gain: f64,
    pub startup_cwnd_gain: f64,
    /// DRAIN's pacing gain (`BBR.DrainPacingGain`) and its longest duration in rounds.
    pub drain_pacing_gain: f64,
    pub drain_max_rounds: u64,
    /// cwnd gain in PROBE_BW, and in ProbeBW_UP (2 + 1/4).
    pub cwnd_gain: f64,
    pub probe_up_cwnd_gain: f64,
    /// Pacing gains of ProbeBW_UP and ProbeBW_DOWN (CRUISE and REFILL pace at 1).
    pub probe_up_pacing_gain: f64,
    pub probe_down_pacing_gain: f64,
    /// The loss rate per round that means inflight was too high (`BBR.LossThresh`).
    pub loss_thresh: f64,
    /// Multiplicative decrease of the short-term bounds per lossy round, and the floor of
    /// inflight_hi relative to the target inflight (`BBR.Beta`).
    pub beta: f64,
    /// Fraction of inflight_hi left free when cruising (`BBR.Headroom`).
    pub headroom: f64,
    /// Loss events in a STARTUP recovery round that, with a loss rate above `loss_thresh`,
    /// end STARTUP (`BBRStartupFullLossCnt`).
    pub startup_full_loss_count: u32,
    /// Full-pipe detection: growth that counts and rounds without it.
    pub full_bw_growth: f64,
    pub full_bw_rounds: u32,
    /// The max_bw filter's length in ProbeBW cycles (`BBR.MaxBwFilterLen`).
    pub bw_filter_cycles: u64,
    /// The min_rtt window (`BBR.MinRTTFilterLen`), the PROBE_RTT interval
    /// (`BBR.ProbeRTTInterval`) and duration, and PROBE_RTT's cwnd as a fraction of the BDP.
    pub min_rtt_window_ms: u64,
    pub probe_rtt_interval_ms: u64,
    pub probe_rtt_duration_ms: u64,
    pub probe_rtt_cwnd_gain: f64,
    /// Wall-clock wait between bandwidth probes: `base + uniform(0, rand)` (T_bbr, 2–3 s).
    pub bw_probe_base_ms: u64,
    pub bw_probe_rand_ms: u64,
    /// Reno-coexistence bound on rounds between probes (63), and the random rounds credited
    /// at the start of a wait (0 or 1).
    pub bw_probe_max_rounds: u64,
    pub bw_probe_rand_rounds: u64,
    /// The smallest cwnd (`BBR.MinPipeCwnd`).
    pub min_cwnd_packets: u64,
    pub pacing_margin_percent: f64,
    /// ACK aggregation: gain, window in rounds (`BBR.ExtraAckedFilterLen`), cap in time.
    pub extra_acked_gain: f64,
    pub extra_acked_window_rounds: u64,
    pub extra_acked_max_ms: u64,
    /// ECN (Google's v3): the CE ratio that means inflight was too high, the cut of
    /// inflight_lo per marked round (`1 − ecn_factor · ecn_alpha`), the EWMA gain and initial
    /// value of `ecn_alpha`, STARTUP rounds with a high CE ratio that end it, the fraction of
    /// inflight_hi re-probed first after marks stop, and the largest min_rtt at which ECN is
    /// used (0: any).
    pub ecn_thresh: f64,
    pub ecn_factor: f64,
    pub ecn_alpha_gain: f64,
    pub ecn_alpha_init: f64,
    pub startup_full_ecn_rounds: u32,
    pub ecn_reprobe_gain: f64,
    pub ecn_max_rtt_ms: u64,
}

impl Default for Bbr3Config {
    fn default() -> Self {
        Bbr3Config {
            startup_pacing_gain: 4.0 * LN_2,
            startup_cwnd_gain: 2.0,
            drain_pacing_gain: 0.5,
            drain_max_rounds: 3,
            cwnd_gain: 2.0,
            probe_up_cwnd_gain: 2.25,
            probe_up_pacing_gain: 1.25,
            probe_down_pacing_gain: 0.90,
            loss_thresh: 0.02,
            beta: 0.7,
            headroom: 0.15,
            startup_full_loss_count: 6,
            full_bw_growth: 1.25,
            full_bw_rounds: 3,
            bw_filter_cycles: 2,
            min_rtt_window_ms: 10_000,
            probe_rtt_interval_ms: 5_000,
            probe_rtt_duration_ms: 200,
            probe_rtt_cwnd_gain: 0.5,
            bw_probe_base_ms: 2_000,
            bw_probe_rand_ms: 1_000,
            bw_probe_max_rounds: 63,
            bw_probe_rand_rounds: 2,
            min_cwnd_packets: MIN_PIPE_PACKETS,
            pacing_margin_percent: 1.0,
            extra_acked_gain: 1.0,
            extra_acked_window_rounds: 10,
            extra_acked_max_ms: 100,
            ecn_thresh: 0.5,
            ecn_factor: 1.0 / 3.0,
            ecn_alpha_gain: 1.0 / 16.0,
            ecn_alpha_init: 1.0,
            startup_full_ecn_rounds: 2,
            ecn_reprobe_gain: 0.5,
            ecn_max_rtt_ms: 5,
        }
    }
}

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

    fn reset_short_term_model(&mut self) {
        self.bw_lo = Rate(f64::INFINITY);
        self.inflight_lo = Bytes::MAX;
    }

    fn reset_congestion_signals(&mut self) {
        self.loss_in_round = false;
        self.ecn_in_round = false;
        self.loss_in_cycle = false;
        self.ecn_in_cycle = false;
        self.bw_latest = Rate::ZERO;
        self.inflight_latest = 0;
    }

    /// `IsInflightTooHigh()`: the rate sample lost more than 2 % of what was in flight when its
    /// packet was sent, or (ECN) the round that just ended had more than 50 % CE marks.
    fn is_inflight_too_high(&self, rs: Option<&RateSample>) -> bool {
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
    fn handle_inflight_too_high(
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

    /// STARTUP saw high loss or CE marks: the pipe is full, and inflight_hi starts at what
    /// fitted (`bbr_handle_queue_too_high_in_startup`).
    fn handle_queue_too_high_in_startup(&mut self) {
        self.full_pipe.reached = true;
        self.inflight_hi = self.inflight(self.max_bw(), 1.0).max(self.inflight_latest);
    }

    // ---- PROBE_BW phases (§5.3.3.9) ----

    fn pick_probe_wait(&mut self, ctx: &mut Ctx) {
        self.rounds_since_probe = ctx
            .rng
            .random_range(0..self.cfg.bw_probe_rand_rounds.max(1));
        let jitter = ctx
            .rng
            .random_range(0..self.cfg.bw_probe_rand_ms.max(1) * 1000);
        self.probe_wait = Time::from_millis(self.cfg.bw_probe_base_ms) + Time::from_micros(jitter);
    }

    fn start_probe_bw_down(&mut self, ctx: &mut Ctx) {
        self.reset_congestion_signals();
        self.probe_up_acked_per_inc = Bytes::MAX;
        self.pick_probe_wait(ctx);
        self.cycle_stamp = ctx.now;
        self.ack_phase = AckPhase::ProbeStopping;
        self.rounds.start_round(self.w.delivered);
        self.set_state(State::ProbeBwDown, ctx);
    }

    fn start_probe_bw_cruise(&mut self, ctx: &mut Ctx) {
        if self.inflight_lo != Bytes::MAX {
            self.inflight_lo = self.inflight_lo.min(self.inflight_hi);
        }
        self.set_state(State::ProbeBwCruise, ctx);
    }

    fn start_probe_bw_refill(&mut self, up_rounds: u32, ctx: &mut Ctx) {
        self.reset_short_term_model();
        self.bw_probe_up_rounds = up_rounds;
        self.bw_probe_up_acked = 0;
        self.stopped_risky_probe = false;
        self.ack_phase = AckPhase::Refilling;
        self.rounds.start_round(self.w.delivered);
        self.set_state(State::ProbeBwRefill, ctx);
    }

    fn start_probe_bw_up(&mut self, sample_bw: Rate, ctx: &mut Ctx) {
        self.ack_phase = AckPhase::ProbeStarting;
        self.rounds.start_round(self.w.delivered);
        self.cycle_stamp = ctx.now;
        self.full_pipe.reset();
        self.full_pipe.full_bw = sample_bw;
        self.set_state(State::ProbeBwUp, ctx);
        self.raise_inflight_hi_slope();
    }

    /// `RaiseInflightLongtermSlope()`: inflight_hi grows by 1, 2, 4, … packets per round.
    fn raise_inflight_hi_slope(&mut self) {
        let growth = 1u64 << self.bw_probe_up_rounds;
        self.bw_probe_up_rounds = (self.bw_probe_up_rounds + 1).min(30);
        self.probe_up_acked_per_inc = (self.w.cwnd / growth).max(self.w.mss);
    }

    /// `ProbeInflightLongtermUpward()`: while cwnd-limited at inflight_hi, one MSS more per
    /// `probe_up_acked_per_inc` bytes acknowledged.
    fn probe_inflight_hi_upward(&mut self, acked: Bytes) {
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
    fn adapt_upper_bounds(
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
    fn check_time_to_probe_bw(&mut self, ctx: &mut Ctx) -> bool {
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
    fn update_cycle_phase(
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

    // ---- congestion signals (§5.5.10) ----

    /// `AdaptLowerBoundsFromCongestion()`, once per loss round, outside bandwidth probing.
    fn adapt_lower_bounds(&mut self) {
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
    fn end_ecn_round(&mut self) {
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

    /// `CheckStartupHighLoss()` (§5.3.1.3), at the end of each round of recovery in STARTUP.
    fn check_startup_high_loss(&mut self, fb: &Feedback, rs: Option<&RateSample>) {
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

    fn check_full_bw_reached(&mut self, rs: Option<&RateSample>, app_limited: bool) {
        let Some(r) = rs else { return };
        if self.full_pipe.now || app_limited {
            return;
        }
        if !self.full_pipe.grew(r.rate(), self.cfg.full_bw_growth) && self.rounds.start {
            self.full_pipe.count_round(self.cfg.full_bw_rounds);
        }
    }

    fn check_startup_and_drain_done(&mut self, ctx: &mut Ctx) {
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

    /// `ExitProbeRTT()` (whose end restored the cwnd): back to PROBE_BW (through DOWN straight
    /// to CRUISE, since inflight is low) or to STARTUP.
    fn exit_probe_rtt(&mut self, ctx: &mut Ctx) {
        self.reset_short_term_model();
        if self.full_pipe.reached {
            self.start_probe_bw_down(ctx);
            self.start_probe_bw_cruise(ctx);
        } else {
            self.set_state(State::Startup, ctx);
        }
    }

    /// min_rtt, and PROBE_RTT at BDP/2 when no lower RTT was seen for 5 s.
    fn update_min_rtt(&mut self, fb: &Feedback, ctx: &mut Ctx) {
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

    /// `HandleRestartFromIdle()` (§5.4.1).
    fn on_idle_restart(&mut self, ctx: &mut Ctx) {
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


impl crate::check::Validate for Bbr3Config {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // draft-ietf-ccwg-bbr and Google's v3 tcp_bbr.c: gains positive (the probe-down
        // and drain gains below 1, probe-up above 1), loss and ECN thresholds and beta fractions.
        for (name, v) in [
            ("startup_pacing_gain", self.startup_pacing_gain),
            ("startup_cwnd_gain", self.startup_cwnd_gain),
            ("cwnd_gain", self.cwnd_gain),
            ("probe_up_cwnd_gain", self.probe_up_cwnd_gain),
            ("probe_rtt_cwnd_gain", self.probe_rtt_cwnd_gain),
            ("extra_acked_gain", self.extra_acked_gain),
        ] {
            within(name, v, above(0.0, 100.0))?;
        }
        within("drain_pacing_gain", self.drain_pacing_gain, open(0.0, 1.0))?;
        within("probe_up_pacing_gain", self.probe_up_pacing_gain, above(1.0, 100.0))?;
        within("probe_down_pacing_gain", self.probe_down_pacing_gain, open(0.0, 1.0))?;
        within("full_bw_growth", self.full_bw_growth, above(1.0, 100.0))?;
        for (name, v) in [("loss_thresh", self.loss_thresh), ("beta", self.beta), ("headroom", self.headroom), ("ecn_thresh", self.ecn_thresh), ("ecn_factor", self.ecn_factor)] {
            within(name, v, open(0.0, 1.0))?;
        }
        within("ecn_alpha_gain", self.ecn_alpha_gain, above(0.0, 1.0))?;
        within("ecn_alpha_init", self.ecn_alpha_init, 0.0..=1.0)?;
        within("ecn_reprobe_gain", self.ecn_reprobe_gain, 0.0..=1.0)?;
        within("pacing_margin_percent", self.pacing_margin_percent, 0.0..100.0)?;
        within("drain_max_rounds", self.drain_max_rounds, 1..=1000)?;
        within("startup_full_loss_count", self.startup_full_loss_count, 1..=1_000_000)?;
        within("full_bw_rounds", self.full_bw_rounds, 1..=1000)?;
        within("startup_full_ecn_rounds", self.startup_full_ecn_rounds, 1..=1000)?;
        within("bw_filter_cycles", self.bw_filter_cycles, 1..=1000)?;
        within("extra_acked_window_rounds", self.extra_acked_window_rounds, 1..=1000)?;
        within("bw_probe_max_rounds", self.bw_probe_max_rounds, 1..=1_000_000)?;
        within("bw_probe_rand_rounds", self.bw_probe_rand_rounds, 0..=1_000_000)?;
        within("min_cwnd_packets", self.min_cwnd_packets, 1..=1_000_000)?;
        for (name, ms) in [
            ("min_rtt_window_ms", self.min_rtt_window_ms),
            ("probe_rtt_interval_ms", self.probe_rtt_interval_ms),
            ("probe_rtt_duration_ms", self.probe_rtt_duration_ms),
            ("bw_probe_base_ms", self.bw_probe_base_ms),
        ] {
            within(name, ms, 1..=3_600_000)?;
        }
        within("bw_probe_rand_ms", self.bw_probe_rand_ms, 0..=3_600_000)?;
        within("extra_acked_max_ms", self.extra_acked_max_ms, 0..=3_600_000)?;
        within("ecn_max_rtt_ms", self.ecn_max_rtt_ms, 0..=3_600_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::bbr_model::test_path::{fill_pipe, mbps8, rate, state_changes, Path};
    use crate::testing::{init, MSS};

    fn bbr3(cfg: &Bbr3Config) -> Bbr3 {
        Bbr3::new(cfg, init(10 * MSS))
    }

    /// After STARTUP fills the pipe with one BDP in flight, DRAIN ends at once, and so does
    /// PROBE_BW's DOWN: CRUISE.
    fn into_probe_bw(cc: &mut Bbr3, p: &mut Path) {
        fill_pipe(cc, p);
        assert_eq!(cc.state(), State::ProbeBwCruise);
        assert_eq!(
            state_changes(&p.h),
            ["drain", "probe_bw_down", "probe_bw_cruise"]
        );
    }

    /// In PROBE_BW, without the ACK-aggregation allowance (cwnd is the model's arithmetic).
    fn probe_bw_without_aggregation() -> (Bbr3, Path) {
        let mut cc = bbr3(&Bbr3Config {
            extra_acked_gain: 0.0,
            ..Bbr3Config::default()
        });
        let mut p = Path::new(100);
        into_probe_bw(&mut cc, &mut p);
        (cc, p)
    }

    /// A bandwidth probe: REFILL for a round, then UP.
    fn probing_up() -> (Bbr3, Path) {
        let (mut cc, mut p) = probe_bw_without_aggregation();
        let mut ctx = p.h.ctx();
        cc.start_probe_bw_refill(0, &mut ctx);
        p.round(&mut cc, 100, mbps8(), 100 * MSS);
        p.round(&mut cc, 1, mbps8(), 100 * MSS);
        assert_eq!(cc.state(), State::ProbeBwUp);
        assert!(cc.bw_probe_samples);
        assert_eq!(cc.inflight_hi(), None);
        (cc, p)
    }

    #[test]
    fn startup_gains_then_drain_at_one_half() {
        let mut cc = bbr3(&Bbr3Config::default());
        let mut p = Path::new(100);
        assert!((cc.pacing_gain() - 2.77).abs() < 0.01);
        assert_eq!(cc.cwnd_gain, 2.0);
        for bw in [1e5, 2e5, 4e5, 8e5, 8.8e5, 8.8e5] {
            p.round(&mut cc, 50, rate(bw), 300 * MSS);
            assert_eq!(cc.state(), State::Startup);
        }
        p.round(&mut cc, 50, rate(8.8e5), 300 * MSS);
        assert_eq!(cc.state(), State::Drain);
        assert_eq!(cc.pacing_gain(), 0.5);
        // DRAIN gives up after 3 rounds even if inflight stays high (draft CheckDrainDone).
        p.rounds(&mut cc, 3, 50, rate(8.8e5), 300 * MSS);
        assert_eq!(cc.state(), State::Drain);
        p.round(&mut cc, 50, rate(8.8e5), 300 * MSS);
        assert_eq!(cc.state(), State::ProbeBwDown);
        assert_eq!(cc.pacing_gain(), 0.9);
    }

    #[test]
    fn probe_bw_cycles_cruise_refill_up_down_with_their_gains() {
        let mut cc = bbr3(&Bbr3Config::default());
        let mut p = Path::new(100);
        into_probe_bw(&mut cc, &mut p);
        let mut seen = vec![(cc.state(), cc.pacing_gain(), cc.cwnd_gain, p.h.now)];
        // 90 packets in flight, below the BDP. Rounds of 100 ACKs, 1 ms apart.
        for _ in 0..40 {
            let start = p.delivered;
            for _ in 0..100 {
                p.ack(
                    &mut cc,
                    Time::from_millis(1),
                    start,
                    mbps8(),
                    90 * MSS,
                    false,
                    false,
                );
                if cc.state() != seen.last().unwrap().0 {
                    seen.push((cc.state(), cc.pacing_gain(), cc.cwnd_gain, p.h.now));
                }
            }
        }
        let got: Vec<_> = seen.iter().take(5).map(|s| (s.0, s.1, s.2)).collect();
        let expect = [
            (State::ProbeBwCruise, 1.0, 2.0),
            (State::ProbeBwRefill, 1.0, 2.0),
            (State::ProbeBwUp, 1.25, 2.25),
            (State::ProbeBwDown, 0.9, 2.0),
            (State::ProbeBwCruise, 1.0, 2.0),
        ];
        assert_eq!(got, expect);
        // The probe came 2-3 s after DOWN began (the end of DRAIN, just before `seen[0]`);
        // REFILL lasted one round; UP lasted until the bandwidth plateaued (3 rounds without
        // 25 % growth, the first counted at UP's first round end).
        let cruise = seen[1].3 - seen[0].3;
        assert!(
            cruise >= Time::from_millis(1900) && cruise <= Time::from_secs(3),
            "{cruise:?}"
        );
        let refill = seen[2].3 - seen[1].3;
        assert!(refill <= Time::from_millis(101), "{refill:?}");
        let up = seen[3].3 - seen[2].3;
        assert!(
            up > Time::from_millis(200) && up <= Time::from_millis(301),
            "{up:?}"
        );
    }

    #[test]
    fn loss_above_two_percent_while_probing_cuts_inflight_hi_and_ends_the_probe() {
        let (mut cc, mut p) = probing_up();
        // 2 lost of 120 in flight: 1.7 %, below 2 %: nothing happens.
        p.rs_lost = 2 * MSS;
        p.tick(&mut cc, 120 * MSS, false);
        assert_eq!(cc.inflight_hi(), None);
        assert_eq!(cc.state(), State::ProbeBwUp);
        // 3 lost of 120: 2.5 % > 2 %. inflight_hi = max(tx_in_flight = 120 packets,
        // beta · target_inflight) with target = min(BDP (at least 3 quanta) + 2 in UP, cwnd)
        // = 102 packets: 0.7 · 102 = 71.4 packets, so 120 packets.
        p.rs_lost = 3 * MSS;
        p.tick(&mut cc, 120 * MSS, false);
        assert_eq!(cc.inflight_hi(), Some(120 * MSS));
        assert_eq!(cc.state(), State::ProbeBwDown);
        assert!(cc.prev_probe_too_high);
        // Once per probe: later lossy samples do not cut it again.
        p.tick(&mut cc, 60 * MSS, false);
        assert_eq!(cc.inflight_hi(), Some(120 * MSS));
        // The cap applies in DOWN: cwnd ≤ inflight_hi.
        assert!(cc.control().cwnd.unwrap() <= 120 * MSS);
    }

    #[test]
    fn inflight_hi_floor_is_beta_times_the_target_inflight() {
        let (mut cc, mut p) = probing_up();
        // A sample whose packet left with only 50 packets in flight lost 5 (10 %):
        // inflight_hi = max(50, 0.7 · min(102, cwnd)) packets = 71.4 packets.
        let target = cc.target_inflight();
        assert_eq!(target, 102 * MSS);
        p.rs_lost = 5 * MSS;
        p.tick(&mut cc, 50 * MSS, false);
        let hi = cc.inflight_hi().unwrap();
        assert!((71_399..=71_400).contains(&hi), "{hi}");
    }

    /// CRUISE after a round with 90 packets (below the BDP) in flight.
    fn cruising(cfg: &Bbr3Config) -> (Bbr3, Path) {
        let mut cc = bbr3(cfg);
        let mut p = Path::new(100);
        into_probe_bw(&mut cc, &mut p);
        p.round(&mut cc, 100, mbps8(), 90 * MSS);
        assert_eq!(cc.state(), State::ProbeBwCruise);
        (cc, p)
    }

    #[test]
    fn lossy_rounds_outside_probing_cut_bw_lo_and_inflight_lo_by_beta() {
        let (mut cc, mut p) = cruising(&Bbr3Config {
            extra_acked_gain: 0.0,
            ..Bbr3Config::default()
        });
        let cwnd = cc.control().cwnd.unwrap();
        // The network delivers half the rate for a round, then a round loses a packet: at the
        // end of the loss round, bw_lo = max(bw_latest = 0.5, 0.7 · max_bw) = 0.7 MB/s and
        // inflight_lo = max(inflight_latest = 50 packets, 0.7 · cwnd).
        p.round(&mut cc, 100, rate(5e5), 90 * MSS);
        assert_eq!(cc.bw(), mbps8());
        p.lost_per_round = MSS;
        p.round(&mut cc, 100, rate(5e5), 90 * MSS);
        p.lost_per_round = 0;
        p.round(&mut cc, 1, rate(5e5), 90 * MSS);
        assert!((cc.bw().bytes_per_sec() - 7e5).abs() < 1.0, "{:?}", cc.bw());
        assert_eq!(cc.inflight_lo(), Some((cwnd as f64 * 0.7) as Bytes));
        // Pacing follows bw = min(max_bw, bw_lo).
        let pacing = cc.control().pacing_rate.unwrap().bytes_per_sec();
        assert!((pacing - 7e5 * 0.99).abs() < 1.0, "{pacing}");
        assert!(cc.control().cwnd.unwrap() <= (cwnd as f64 * 0.7) as Bytes);
    }

    #[test]
    fn ecn_marks_end_startup_after_two_rounds_and_cut_inflight_lo_by_alpha() {
        // ECN is used at any RTT for this test (Linux: only below 5 ms), and marks in CRUISE
        // do not trigger Google's immediate re-probe (tested below).
        let cfg = Bbr3Config {
            ecn_max_rtt_ms: 0,
            ecn_reprobe_gain: 0.0,
            extra_acked_gain: 0.0,
            ..Bbr3Config::default()
        };
        let mut cc = bbr3(&cfg);
        let mut p = Path::new(100);
        for bw in [1.25e5, 2.5e5, 5e5] {
            p.round(&mut cc, 100, rate(bw), 100 * MSS);
        }
        assert_eq!(cc.state(), State::Startup);
        assert!(cc.ecn.eligible);
        // Two rounds with 60 % of packets CE-marked (≥ 50 %): STARTUP ends when the second
        // round's ratio is known, on the first ACK of the following round.
        p.ce_fraction = 0.6;
        p.rounds(&mut cc, 2, 100, rate(1e6), 100 * MSS);
        assert_eq!(cc.state(), State::Startup);
        p.ce_fraction = 0.0;
        p.round(&mut cc, 100, rate(1e6), 100 * MSS);
        assert_ne!(cc.state(), State::Startup);
        // alpha = EWMA(1/16) of the CE ratio of rounds 1..5 (ECN is eligible from round 2 on,
        // which closes round 1): 1 → 0.9375 → 0.87890625 → 0.823974609375 → (0.6)
        // 0.809976196289 → (0.6) 0.796852684021.
        assert!(
            (cc.ecn.alpha - 0.796852684021).abs() < 1e-9,
            "{}",
            cc.ecn.alpha
        );
        assert!(cc.inflight_hi().is_some());
        // In CRUISE, a marked round cuts inflight_lo to cwnd · (1 − alpha/3).
        while cc.state() != State::ProbeBwCruise {
            p.round(&mut cc, 100, mbps8(), 80 * MSS);
        }
        let cwnd = cc.control().cwnd.unwrap();
        let alpha_before = cc.ecn.alpha;
        p.ce_fraction = 0.1;
        p.round(&mut cc, 100, mbps8(), 80 * MSS);
        // The round's marks are seen on its ACKs; the loss-round boundary (the next round's
        // first ACK) applies the cut with alpha as updated at that boundary.
        p.ce_fraction = 0.0;
        p.round(&mut cc, 1, mbps8(), 80 * MSS);
        // Two rounds closed since `alpha_before`: the unmarked one before, then the 10 % one.
        let alpha = 15.0 / 16.0 * (15.0 / 16.0 * alpha_before) + 0.1 / 16.0;
        assert!((cc.ecn.alpha - alpha).abs() < 1e-12);
        let expect = (cwnd as f64 * (1.0 - alpha / 3.0)) as Bytes;
        assert_eq!(cc.inflight_lo(), Some(expect));
    }

    #[test]
    fn ecn_marks_in_cruise_without_loss_trigger_an_immediate_reprobe() {
        let (mut cc, mut p) = cruising(&Bbr3Config {
            ecn_max_rtt_ms: 0,
            ..Bbr3Config::default()
        });
        // A mark on the round's last ACK: the next ACK refills (Google's ecn_reprobe_gain),
        // long before the 2-3 s probe timer.
        p.ce_fraction = 0.01;
        p.round(&mut cc, 100, mbps8(), 90 * MSS);
        p.ce_fraction = 0.0;
        assert_eq!(cc.state(), State::ProbeBwCruise);
        p.round(&mut cc, 1, mbps8(), 90 * MSS);
        assert_eq!(cc.state(), State::ProbeBwRefill);
    }

    #[test]
    fn ecn_is_ignored_on_long_paths_by_default() {
        let mut cc = bbr3(&Bbr3Config::default());
        let mut p = Path::new(100);
        // Every packet CE-marked while the rate doubles: at 100 ms (above Linux's 5 ms limit)
        // the marks neither end STARTUP nor count.
        p.ce_fraction = 1.0;
        for bw in [1.25e5, 2.5e5, 5e5, 1e6] {
            p.round(&mut cc, 100, rate(bw), 100 * MSS);
        }
        assert!(!cc.ecn.eligible);
        assert_eq!(cc.state(), State::Startup);
        assert_eq!(cc.inflight_hi(), None);
    }

    #[test]
    fn probe_rtt_every_five_seconds_at_half_the_bdp() {
        let (mut cc, mut p) = probe_bw_without_aggregation();
        // Equal samples do not refresh the PROBE_RTT clock in v3: 5 s after the first (and
        // lowest) sample, on the first ACK at 1 ms, PROBE_RTT.
        let last_min = Time::from_millis(1);
        while p.h.now + p.rtt <= last_min + Time::from_secs(5) {
            p.round(&mut cc, 100, mbps8(), 100 * MSS);
            assert_ne!(cc.state(), State::ProbeRtt, "at {:?}", p.h.now);
        }
        p.round(&mut cc, 100, mbps8(), 100 * MSS);
        assert_eq!(cc.state(), State::ProbeRtt);
        // cwnd = BDP/2 = 50 packets (at least 4).
        assert_eq!(cc.control().cwnd, Some(50 * MSS));
        // 200 ms and a round at ≤ 50 packets in flight, then CRUISE.
        p.rounds(&mut cc, 2, 50, mbps8(), 50 * MSS);
        assert_eq!(cc.state(), State::ProbeRtt);
        p.rounds(&mut cc, 2, 50, mbps8(), 50 * MSS);
        assert_eq!(cc.state(), State::ProbeBwCruise);
        assert!(cc.control().cwnd.unwrap() > 50 * MSS);
    }

    #[test]
    fn reports_state_bw_and_min_rtt() {
        let mut cc = bbr3(&Bbr3Config::default());
        let mut p = Path::new(100);
        into_probe_bw(&mut cc, &mut p);
        let s = cc.snapshot();
        assert_eq!(s.state, "probe_bw_cruise");
        assert_eq!(s.bw_estimate, Some(mbps8()));
        assert_eq!(s.min_rtt, Some(Time::from_millis(100)));
        assert_eq!(cc.name(), "bbr3");
        assert!(cc.control().pacing_rate.is_some());
    }
}

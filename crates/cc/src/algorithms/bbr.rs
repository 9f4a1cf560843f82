//! BBR v1: Bottleneck Bandwidth and Round-trip propagation time.
//!
//! Sources: N. Cardwell, Y. Cheng, C. S. Gunn, S. Hassas Yeganeh, V. Jacobson, "BBR:
//! Congestion-Based Congestion Control", ACM Queue 14(5), 2016;
//! draft-cardwell-iccrg-bbr-congestion-control-00 (2017); Linux `net/ipv4/tcp_bbr.c` (the
//! behaviour and constants below are Linux's; the code is written from their description).
//!
//! BBR models the path by its bottleneck bandwidth and its round-trip propagation time, and
//! sends at the rate and with the amount in flight that this model says fill the pipe
//! without a queue (Kleinrock's optimal operating point):
//!
//! ```text
//! max_bw  (BtlBw)  = max of delivery-rate samples over the last 10 packet-timed rounds
//! min_rtt (RTprop) = min of RTT samples over the last 10 s
//! BDP              = max_bw · min_rtt
//! pacing_rate      = pacing_gain · max_bw · 0.99                      (1 % margin)
//! cwnd             = cwnd_gain · BDP + extra_acked + 3 · quantum, rounded up to an even
//!                    number of packets (+2 in the 5/4 phase)  (bbr_quantization_budget),
//!                    never below 4 packets
//! ```
//!
//! Application-limited rate samples enter the bandwidth filter only if they raise it. The
//! state machine:
//!
//! - **STARTUP**: `pacing_gain = cwnd_gain = high_gain = 2/ln 2 ≈ 2.885`, the smallest gain
//!   that doubles the delivery rate every round. The pipe is full when `max_bw` has grown less
//!   than 25 % in 3 consecutive rounds (not counting application-limited ones).
//! - **DRAIN**: `pacing_gain = 1/high_gain`, until inflight is down to `1 · BDP` (plus the
//!   quantisation budget).
//! - **PROBE_BW**: gain cycling, each phase lasting one `min_rtt`, over
//!   `pacing_gain ∈ [5/4, 3/4, 1, 1, 1, 1, 1, 1]` with `cwnd_gain = 2`. The 5/4 phase probes
//!   for more bandwidth (it lasts until inflight reaches `1.25 · BDP` or a loss); the 3/4 phase
//!   drains the queue it made (ending early once inflight is down to one BDP). The cycle
//!   starts at a random phase other than 3/4.
//! - **PROBE_RTT**: when `min_rtt` has not been refreshed (by a sample `<` it; Linux before
//!   5.10 took `≤`, [`BbrConfig::min_rtt_refresh_on_equal`]) for 10 s,
//!   `cwnd = 4` packets for `max(200 ms, 1 round)`, so the queue drains and a fresh `min_rtt`
//!   can be measured; then back to PROBE_BW (or STARTUP if the pipe was never filled).
//!
//! Loss recovery (Linux `bbr_set_cwnd_to_recover_or_restore`): lost packets come off cwnd;
//! during the first round of fast recovery the window follows packet conservation
//! (`cwnd = max(cwnd, inflight + acked)`), after which it grows by at most the data acked per
//! ACK, towards the model's target; when recovery ends, the cwnd saved at its start is restored.
//! A retransmission timeout cuts cwnd to one packet, and it grows back the same way.
//! Packet conservation starts only when recovery is entered from outside it: under random
//! loss Linux goes from one recovery episode straight into the next on the ACK that ends it
//! (`tcp_fastretrans_alert` re-enters Recovery when `lost_out > 0`, before `bbr_main` sees the
//! state), so BBR's `prev_ca_state` stays Recovery and cwnd stays at its target,
//! `2 · BDP` and more (issue 16, item 4: at 1 % loss the kernel's median cwnd was 686 segments
//! on 40 Mbit/s, 100 ms, 1 BDP; this model's was 386 while the sender passed through Open
//! between episodes, 682 since it does not).
//!
//! Policer detection (Linux's long-term bandwidth, [`super::bbr_lt_bw`]): when two consecutive
//! sampling intervals of 4–16 rounds each lose at least 50/256 of what they deliver, at rates
//! within 1/8 of each other, BBR takes their mean as the bandwidth (`bbr_bw` = `lt_bw`) and
//! paces at gain 1 for 48 rounds of PROBE_BW before probing again. It is what Linux's BBR does
//! on the twin's Verizon LTE trace from 3.6 s on: the kernel's pacing rate sits at 8.69-8.71
//! Mbit/s for 20 s in all three runs. [`BbrConfig::policer_detection`] turns it off.
//!
//! Not modelled: the earliest-departure-time (EDT) correction of inflight, which is zero with
//! this sender's pacer (packets are released when due, not scheduled ahead).

use super::bbr_lt_bw::{LongTermBw, LtSample, LtStep};
use super::bbr_model::prelude::*;

/// BBR v1's parameters, with Linux `tcp_bbr.c`'s values as defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BbrConfig {
    /// STARTUP's pacing and cwnd gain, `2/ln 2` (`bbr_high_gain`).
    pub high_gain: f64,
    /// DRAIN's pacing gain, `ln 2 / 2 = 1/high_gain` (`bbr_drain_gain`).
    pub drain_gain: f64,
    /// PROBE_BW's cwnd gain (`bbr_cwnd_gain`).
    pub cwnd_gain: f64,
    /// The probing and draining phases of the gain cycle (`bbr_pacing_gain[0..2]`).
    pub probe_bw_up_gain: f64,
    pub probe_bw_down_gain: f64,
    /// Phases in the gain cycle (`CYCLE_LEN`); all but the first two have gain 1.
    pub cycle_length: usize,
    /// The bandwidth filter's window in packet-timed rounds (`bbr_bw_rtts` = CYCLE_LEN + 2).
    pub bw_window_rounds: u64,
    /// The min_rtt filter's window, which is also the PROBE_RTT interval
    /// (`bbr_min_rtt_win_sec`).
    pub probe_rtt_interval_ms: u64,
    /// Time spent at the minimum cwnd in PROBE_RTT (`bbr_probe_rtt_mode_ms`).
    pub probe_rtt_duration_ms: u64,
    /// The smallest cwnd, also PROBE_RTT's (`bbr_cwnd_min_target`).
    pub min_cwnd_packets: u64,
    /// Full-pipe detection: growth that counts (`bbr_full_bw_thresh`) and rounds without it
    /// (`bbr_full_bw_cnt`).
    pub full_bw_growth: f64,
    pub full_bw_rounds: u32,
    /// Pacing below the estimate (`bbr_pacing_margin_percent`).
    pub pacing_margin_percent: f64,
    /// ACK-aggregation allowance: gain, window in rounds, and cap in time (`bbr_extra_acked_gain`,
    /// `bbr_extra_acked_win_rtts`, `bbr_extra_acked_max_us`).
    pub extra_acked_gain: f64,
    pub extra_acked_window_rounds: u64,
    pub extra_acked_max_ms: u64,
    /// Whether an RTT sample equal to `min_rtt` refreshes its stamp and so postpones
    /// PROBE_RTT (`rtt_us <= min_rtt_us`). Linux did until 5.10; since commit "tcp: only
    /// postpone PROBE_RTT if RTT is < current min_rtt estimate" (November 2020) only a
    /// strictly lower sample does, because under persistent loss RTT samples come from
    /// millisecond TCP timestamps, many equal the estimate, and PROBE_RTT was put off
    /// indefinitely. The same happens here without loss: with no noise in the simulator every
    /// sample taken with an empty queue equals `min_rtt`. Default false, as Linux today.
    pub min_rtt_refresh_on_equal: bool,
    /// Whether application-limited rate samples are told apart (draft-cheng-iccrg-delivery-
    /// rate-estimation §3.2; always on in Linux): such a sample enters the bandwidth filter
    /// only if it is at least the estimate, and a round of them does not count towards a full
    /// pipe. It keeps an application's quiet spells from lowering BtlBw, the talk's "tracks
    /// App-limited condition (nothing to send) to prevent underestimation". Off, an ablation:
    /// every sample counts as if the sender had been busy. Default true.
    pub track_app_limited: bool,
    /// Linux's long-term bandwidth estimator, which detects token-bucket policers
    /// ([`super::bbr_lt_bw`]; `bbr_lt_bw_sampling`, always on in Linux). Off, an ablation: BBR
    /// as the ACM Queue paper and the drafts describe it. Default true.
    pub policer_detection: bool,
}

impl Default for BbrConfig {
    fn default() -> Self {
        BbrConfig {
            high_gain: 2.0 / LN_2,
            drain_gain: LN_2 / 2.0,
            cwnd_gain: 2.0,
            probe_bw_up_gain: 1.25,
            probe_bw_down_gain: 0.75,
            cycle_length: 8,
            bw_window_rounds: 10,
            probe_rtt_interval_ms: 10_000,
            probe_rtt_duration_ms: 200,
            min_cwnd_packets: MIN_PIPE_PACKETS,
            full_bw_growth: 1.25,
            full_bw_rounds: 3,
            pacing_margin_percent: 1.0,
            extra_acked_gain: 1.0,
            extra_acked_window_rounds: 5,
            extra_acked_max_ms: 100,
            min_rtt_refresh_on_equal: false,
            track_app_limited: true,
            policer_detection: true,
        }
    }
}

/// BBR v1's states.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Startup => "startup",
            Mode::Drain => "drain",
            Mode::ProbeBw => "probe_bw",
            Mode::ProbeRtt => "probe_rtt",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Bbr {
    /// Boxed: the parameters are many and only read.
    cfg: Box<BbrConfig>,
    w: Window,
    pacing: Pacing,
    mode: Mode,
    pacing_gain: f64,
    cwnd_gain: f64,
    /// `max_bw`, keyed by round count.
    max_bw: WindowedFilter<Rate>,
    /// The policer detector, whose rate replaces `max_bw` while it believes BBR is policed.
    lt: LongTermBw,
    rounds: Rounds,
    /// min_rtt and PROBE_RTT.
    rtt: MinRttProbe,
    full_pipe: FullPipe,
    cycle_idx: usize,
    cycle_stamp: Time,
    aggr: AckAggregation,
    /// The recovery state when cwnd was last adjusted (Linux `prev_ca_state`).
    prev_ca: CaState,
    packet_conservation: bool,
}

impl Bbr {
    pub fn new(cfg: &BbrConfig, init: CcInit) -> Bbr {
        let mut cfg = Box::new(cfg.clone());
        cfg.cycle_length = cfg.cycle_length.max(2);
        let interval = Time::from_millis(cfg.probe_rtt_interval_ms);
        Bbr {
            w: Window::new(init.mss, init.initial_cwnd),
            pacing: Pacing::new(init.initial_cwnd, cfg.high_gain, cfg.pacing_margin_percent),
            mode: Mode::Startup,
            pacing_gain: cfg.high_gain,
            cwnd_gain: cfg.high_gain,
            max_bw: WindowedFilter::max(cfg.bw_window_rounds, 0, Rate::ZERO),
            lt: LongTermBw::default(),
            rounds: Rounds::default(),
            rtt: MinRttProbe::new(
                MinRttFilter::new(interval, interval, cfg.min_rtt_refresh_on_equal),
                Time::from_millis(cfg.probe_rtt_duration_ms),
            ),
            full_pipe: FullPipe::default(),
            cycle_idx: 0,
            cycle_stamp: Time::ZERO,
            aggr: AckAggregation::default(),
            prev_ca: CaState::Open,
            packet_conservation: false,
            cfg,
        }
    }

    /// The bandwidth estimate (`bbr_bw`): the policed rate while BBR believes it is policed,
    /// otherwise `max_bw`. Pacing, cwnd and the ACK-aggregation allowance follow it.
    pub fn bw(&self) -> Rate {
        self.lt.policed_rate().unwrap_or_else(|| self.max_bw())
    }

    /// The windowed maximum of delivery-rate samples (`bbr_max_bw`): what the gain cycle's
    /// inflight targets, DRAIN's exit and full-pipe detection compare with, policed or not.
    pub fn max_bw(&self) -> Rate {
        self.max_bw.get()
    }

    /// The policed rate, while BBR believes a token-bucket policer limits it.
    pub fn policed_rate(&self) -> Option<Rate> {
        self.lt.policed_rate()
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn pacing_gain(&self) -> f64 {
        self.pacing_gain
    }

    fn min_cwnd(&self) -> Bytes {
        self.cfg.min_cwnd_packets * self.w.mss
    }

    fn quantum(&self) -> Bytes {
        send_quantum(self.pacing.rate, self.w.mss)
    }

    fn cycle_gain(&self, idx: usize) -> f64 {
        match idx {
            0 => self.cfg.probe_bw_up_gain,
            1 => self.cfg.probe_bw_down_gain,
            _ => 1.0,
        }
    }

    /// `bbr_quantization_budget`: room for three send quanta in flight at the end hosts, an
    /// even number of packets (fewer delayed-ACK stalls), and two more packets in the 5/4
    /// phase so that probing gets inflight above the BDP even when the BDP is tiny.
    fn quantization_budget(&self, cwnd: Bytes) -> Bytes {
        let mss = self.w.mss;
        let packets = (cwnd + 3 * self.quantum()).div_ceil(mss);
        let mut budget = packets.next_multiple_of(2) * mss;
        if self.mode == Mode::ProbeBw && self.cycle_idx == 0 {
            budget += 2 * mss;
        }
        budget
    }

    /// `bbr_inflight`: the quantised `gain · BDP` at bandwidth `bw`.
    fn inflight(&self, bw: Rate, gain: f64) -> Bytes {
        self.quantization_budget(bdp(
            bw,
            self.rtt.min_rtt(),
            gain,
            self.w.mss,
            self.w.init_cwnd,
        ))
    }

    /// The cwnd the model asks for: `cwnd_gain · BDP`, plus the ACK-aggregation allowance once
    /// the pipe is full, quantised.
    fn target_cwnd(&self) -> Bytes {
        let bw = self.bw();
        let mut target = bdp(
            bw,
            self.rtt.min_rtt(),
            self.cwnd_gain,
            self.w.mss,
            self.w.init_cwnd,
        );
        if self.full_pipe.reached {
            let cap = Time::from_millis(self.cfg.extra_acked_max_ms);
            target += self.aggr.cwnd_allowance(self.cfg.extra_acked_gain, bw, cap);
        }
        self.quantization_budget(target)
    }

    fn set_mode(&mut self, to: Mode, ctx: &mut Ctx) {
        if to != self.mode {
            record_state_change(ctx, self.mode.name(), to.name(), self.w.cwnd);
            self.mode = to;
        }
    }

    /// `bbr_reset_probe_bw_mode`: enter PROBE_BW at a random phase other than the draining one
    /// (the index is drawn from `len−1 − [0, len−1)`, then advanced).
    fn enter_probe_bw(&mut self, ctx: &mut Ctx) {
        self.set_mode(Mode::ProbeBw, ctx);
        let len = self.cfg.cycle_length;
        self.cycle_idx = len - 1 - ctx.rng.random_range(0..len - 1);
        self.advance_cycle_phase();
    }

    fn advance_cycle_phase(&mut self) {
        self.cycle_idx = (self.cycle_idx + 1) % self.cfg.cycle_length;
        self.cycle_stamp = self.w.delivered_time;
    }

    /// `bbr_is_next_cycle_phase`: a phase lasts one `min_rtt`; the probing phase also waits
    /// for inflight to reach `gain · BDP` (unless packets are lost), and the draining phase
    /// ends early once inflight is down to one BDP.
    fn update_cycle_phase(&mut self, fb: &Feedback) {
        if self.mode != Mode::ProbeBw {
            return;
        }
        let min_rtt = self.rtt.min_rtt().unwrap_or(Time::ZERO);
        let full_length = self.w.delivered_time - self.cycle_stamp > min_rtt;
        let gain = self.pacing_gain;
        let next = if gain == 1.0 {
            full_length
        } else {
            // Inflight at the next departure: with this pacer nothing is scheduled ahead, but a
            // probing phase counts the quantum about to leave (bbr_packets_in_net_at_edt).
            let in_net = fb.prior_in_flight + if gain > 1.0 { self.quantum() } else { 0 };
            let bw = self.max_bw();
            if gain > 1.0 {
                full_length && (fb.lost_packets > 0 || in_net >= self.inflight(bw, gain))
            } else {
                full_length || in_net <= self.inflight(bw, 1.0)
            }
        };
        if next {
            self.advance_cycle_phase();
        }
    }

    fn check_full_bw_reached(&mut self, app_limited: bool) {
        if self.full_pipe.reached || !self.rounds.start || app_limited {
            return;
        }
        if !self.full_pipe.grew(self.max_bw(), self.cfg.full_bw_growth) {
            self.full_pipe.count_round(self.cfg.full_bw_rounds);
        }
    }

    fn check_drain(&mut self, ctx: &mut Ctx) {
        if self.mode == Mode::Startup && self.full_pipe.reached {
            self.set_mode(Mode::Drain, ctx);
        }
        if self.mode == Mode::Drain && ctx.bytes_in_flight <= self.inflight(self.max_bw(), 1.0) {
            self.enter_probe_bw(ctx);
        }
    }

    /// After PROBE_RTT (whose end restored the cwnd), back to probing
    /// (`bbr_check_probe_rtt_done`, `bbr_reset_mode`).
    fn leave_probe_rtt(&mut self, ctx: &mut Ctx) {
        if self.full_pipe.reached {
            self.enter_probe_bw(ctx);
        } else {
            self.set_mode(Mode::Startup, ctx);
        }
    }

    /// min_rtt, and PROBE_RTT at 4 packets when it has not been refreshed for 10 s.
    fn update_min_rtt(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        let (in_probe_rtt, target) = (self.mode == Mode::ProbeRtt, self.min_cwnd());
        match self
            .rtt
            .on_ack(fb, ctx, in_probe_rtt, target, &mut self.w, &mut self.rounds)
        {
            ProbeRttStep::Enter => self.set_mode(Mode::ProbeRtt, ctx),
            ProbeRttStep::Exit => self.leave_probe_rtt(ctx),
            ProbeRttStep::Stay => {}
        }
    }

    /// `bbr_lt_bw_sampling`, on each valid rate sample; 48 rounds after it found a policer,
    /// back to gain cycling at a random phase.
    fn sample_long_term_bw(&mut self, losses: u32, app_limited: bool, ctx: &mut Ctx) {
        if !self.cfg.policer_detection {
            return;
        }
        let s = LtSample {
            round_start: self.rounds.start,
            in_probe_bw: self.mode == Mode::ProbeBw,
            losses,
            app_limited,
            delivered: self.w.delivered,
            delivered_time: self.w.delivered_time,
        };
        if self.lt.on_sample(&s) == LtStep::ResumeProbing {
            self.enter_probe_bw(ctx);
        }
    }

    fn update_gains(&mut self) {
        let c = &self.cfg;
        (self.pacing_gain, self.cwnd_gain) = match self.mode {
            Mode::Startup => (c.high_gain, c.high_gain),
            Mode::Drain => (c.drain_gain, c.high_gain),
            Mode::ProbeBw if self.lt.policed_rate().is_some() => (1.0, c.cwnd_gain),
            Mode::ProbeBw => (self.cycle_gain(self.cycle_idx), c.cwnd_gain),
            Mode::ProbeRtt => (1.0, 1.0),
        };
    }

    /// Loss recovery's hold on cwnd; returns the cwnd and whether packet conservation decides it.
    fn recover_or_restore(&mut self, fb: &Feedback, in_flight: Bytes) -> (Bytes, bool) {
        let (state, prev) = (self.w.ca, self.prev_ca);
        let acked = fb.acked_bytes;
        let mut cwnd = self.w.cwnd;
        if fb.lost_bytes > 0 {
            cwnd = cwnd.saturating_sub(fb.lost_bytes).max(self.w.mss);
        }
        if state == CaState::Recovery && prev != CaState::Recovery {
            // First round of fast recovery: packet conservation, and the round starts now.
            self.packet_conservation = true;
            self.rounds.start_round(self.w.delivered);
            cwnd = in_flight + acked;
        } else if prev >= CaState::Recovery && state < CaState::Recovery {
            cwnd = cwnd.max(self.w.prior_cwnd);
            self.packet_conservation = false;
        }
        self.prev_ca = state;
        if self.packet_conservation {
            (cwnd.max(in_flight + acked), true)
        } else {
            (cwnd, false)
        }
    }

    /// `bbr_set_cwnd`: towards the target by at most the data acked (slow-start-like growth);
    /// above it only once the pipe has been filled.
    fn set_cwnd(&mut self, fb: &Feedback, in_flight: Bytes) {
        let acked = fb.acked_bytes;
        let mut cwnd = self.w.cwnd;
        if acked > 0 {
            let (c, conserving) = self.recover_or_restore(fb, in_flight);
            cwnd = c;
            if !conserving {
                let target = self.target_cwnd();
                if self.full_pipe.reached {
                    cwnd = (cwnd + acked).min(target);
                } else if cwnd < target || self.w.delivered < self.w.init_cwnd {
                    cwnd += acked;
                }
                cwnd = cwnd.max(self.min_cwnd());
            }
        }
        if self.mode == Mode::ProbeRtt {
            cwnd = cwnd.min(self.min_cwnd());
        }
        self.w.cwnd = cwnd;
    }
}

impl CongestionControl for Bbr {
    fn name(&self) -> &'static str {
        "bbr"
    }

    /// BBR sets its window in recovery itself (packet conservation, then the saved cwnd), as
    /// Linux's `cong_control` hook does: no PRR on top.
    fn sets_recovery_window(&self) -> bool {
        true
    }

    /// `bbr_main`: update the model (bandwidth, ACK aggregation, gain cycle, full pipe, drain,
    /// min_rtt and PROBE_RTT), then the pacing rate and cwnd.
    fn on_feedback(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        if fb.new_episode {
            self.w.save_cwnd(self.mode == Mode::ProbeRtt); // bbr_ssthresh
        }
        self.w.on_feedback(fb, ctx.now);
        let rs = fb.rate_sample.filter(|r| r.interval > Time::ZERO);
        let app_limited = self.cfg.track_app_limited && rs.is_some_and(|r| self.rtt.mark.is_app_limited(&r));

        if self.rounds.update(fb) {
            self.packet_conservation = false;
        }
        self.lt.count_lost(fb.lost_bytes);
        if let Some(r) = rs {
            self.sample_long_term_bw(fb.lost_packets, app_limited, ctx);
            let bw = r.rate();
            if !app_limited || bw >= self.max_bw() {
                self.max_bw.update(self.rounds.count, bw);
            }
        }
        let window = self.cfg.extra_acked_window_rounds;
        self.aggr.update(
            ctx.now,
            fb.acked_bytes,
            self.bw(),
            self.w.cwnd,
            self.rounds.count,
            window,
            self.w.mss,
        );
        self.update_cycle_phase(fb);
        self.check_full_bw_reached(app_limited);
        self.check_drain(ctx);
        self.update_min_rtt(fb, ctx);
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
            c.high_gain,
        );
        self.set_cwnd(fb, ctx.bytes_in_flight);
    }

    /// RTO: cwnd to one packet (the sender marks everything lost), Linux `bbr_set_state`
    /// forgets the full-pipe baseline and gives the policer detector a round end with a loss.
    /// (Linux has counted the packets the timeout marks lost by then; this controller hears of
    /// losses only in feedback, so the interval's loss share leaves them out.)
    fn on_timeout(&mut self, ctx: &mut Ctx) {
        self.w.on_timeout(self.mode == Mode::ProbeRtt);
        self.prev_ca = CaState::Loss;
        self.full_pipe.full_bw = Rate::ZERO;
        self.rounds.start = true;
        self.sample_long_term_bw(1, false, ctx);
    }

    /// `bbr_undo_cwnd`: a spurious slow-down resets full-pipe detection and the policer
    /// detector; cwnd is unchanged.
    fn on_spurious_loss(&mut self, _ctx: &mut Ctx) {
        self.full_pipe.full_bw = Rate::ZERO;
        self.full_pipe.count = 0;
        self.lt.reset(self.w.delivered, self.w.delivered_time);
    }

    /// `bbr_cwnd_event(CA_EVENT_TX_START)` while application-limited: after idle, pace at the
    /// estimate (no gain) and finish a PROBE_RTT that the idle period has completed. (Linux
    /// raises no `CA_EVENT_CWND_RESTART` for a module with its own `cong_control`.)
    fn on_tx_start(&mut self, tx: &TxStart, ctx: &mut Ctx) {
        if !tx.app_limited {
            return;
        }
        self.aggr.restart(ctx.now);
        let probe_rtt_done = self.rtt.restart_from_idle(ctx.now);
        match self.mode {
            Mode::ProbeBw => {
                self.pacing.rate = paced(self.bw(), 1.0, self.cfg.pacing_margin_percent);
            }
            Mode::ProbeRtt if probe_rtt_done => {
                self.rtt.finish(ctx.now, &mut self.w);
                self.leave_probe_rtt(ctx);
            }
            _ => {}
        }
    }

    fn control(&self) -> Control {
        self.w.control(self.pacing.rate)
    }

    fn snapshot(&self) -> Snapshot {
        self.w
            .snapshot(&self.pacing, self.bw(), &self.rtt, self.mode.name())
    }
}


impl crate::check::Validate for BbrConfig {
    fn validate(&self) -> Result<(), String> {
        #[allow(unused_imports)]
        use crate::check::{above, open, ordered, within};
        // draft-cardwell-iccrg-bbr-congestion-control-00 and tcp_bbr.c: gains are positive,
        // ProbeBW's up gain above 1 and down gain below 1; rounds and periods positive.
        for (name, v) in [("high_gain", self.high_gain), ("drain_gain", self.drain_gain), ("cwnd_gain", self.cwnd_gain), ("extra_acked_gain", self.extra_acked_gain)] {
            within(name, v, above(0.0, 100.0))?;
        }
        within("probe_bw_up_gain", self.probe_bw_up_gain, above(1.0, 100.0))?;
        within("probe_bw_down_gain", self.probe_bw_down_gain, open(0.0, 1.0))?;
        within("cycle_length", self.cycle_length, 3..=64)?;
        within("bw_window_rounds", self.bw_window_rounds, 1..=1000)?;
        within("probe_rtt_interval_ms", self.probe_rtt_interval_ms, 1..=3_600_000)?;
        within("probe_rtt_duration_ms", self.probe_rtt_duration_ms, 1..=3_600_000)?;
        within("min_cwnd_packets", self.min_cwnd_packets, 1..=1_000_000)?;
        within("full_bw_growth", self.full_bw_growth, above(1.0, 100.0))?;
        within("full_bw_rounds", self.full_bw_rounds, 1..=1000)?;
        within("pacing_margin_percent", self.pacing_margin_percent, 0.0..100.0)?;
        within("extra_acked_window_rounds", self.extra_acked_window_rounds, 1..=1000)?;
        within("extra_acked_max_ms", self.extra_acked_max_ms, 0..=3_600_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::bbr_model::test_path::{
        fill_pipe, mbps8, rate, recovery_ack, state_changes, Path,
    };
    use crate::rng::component_rng;
    use crate::testing::{init, MSS};

    fn bbr(cfg: &BbrConfig) -> Bbr {
        Bbr::new(cfg, init(10 * MSS))
    }

    fn into_probe_bw(cc: &mut Bbr, p: &mut Path) {
        fill_pipe(cc, p);
        assert_eq!(cc.mode(), Mode::ProbeBw);
    }

    /// PROBE_BW in a gain-1 phase, without the ACK-aggregation allowance (so that cwnd is the
    /// model's arithmetic alone), after a round at 1 MB/s with one BDP in flight.
    fn cruising() -> (Bbr, Path) {
        let cfg = BbrConfig {
            extra_acked_gain: 0.0,
            ..BbrConfig::default()
        };
        let mut cc = bbr(&cfg);
        let mut p = Path::new(100);
        into_probe_bw(&mut cc, &mut p);
        cc.cycle_idx = 2;
        cc.cycle_stamp = p.h.now;
        cc.update_gains();
        p.round(&mut cc, 100, mbps8(), 100 * MSS);
        (cc, p)
    }

    /// Policer detection (`bbr_lt_bw_sampling`): rate samples say 2 MB/s (the bursts a token
    /// bucket lets through), but each 100 ms round delivers only 100 packets (1 MB/s) and
    /// loses 30 more, a loss share of 30/100 above 50/256. Two 4-round intervals at that one
    /// rate (the first opens at the first loss, so by the tenth round) make BBR take 1 MB/s as
    /// its bandwidth: pacing at gain 1 and 99 % of it, cwnd = 2 · 1 MB/s · 100 ms + budget,
    /// while `max_bw` still holds 2 MB/s. Off (the ablation), the estimate stays 2 MB/s.
    #[test]
    fn two_lossy_intervals_at_one_delivery_rate_make_bbr_pace_at_that_rate() {
        for detect in [true, false] {
            let cfg = BbrConfig { extra_acked_gain: 0.0, policer_detection: detect, ..BbrConfig::default() };
            let mut cc = bbr(&cfg);
            let mut p = Path::new(100);
            into_probe_bw(&mut cc, &mut p);
            p.lost_per_round = 30 * MSS;
            p.rounds(&mut cc, 10, 100, rate(2e6), 200 * MSS);
            assert_eq!(cc.max_bw(), rate(2e6));
            if !detect {
                assert_eq!(cc.policed_rate(), None);
                assert_eq!(cc.bw(), rate(2e6));
                continue;
            }
            let policed = cc.policed_rate().expect("policed after two lossy intervals");
            assert!((policed.bytes_per_sec() - 1e6).abs() < 1.0, "{policed:?}");
            assert_eq!(cc.bw(), policed);
            // The gain cycle goes on (its phases still change), but every phase paces at 1.
            for _ in 0..cfg.cycle_length {
                p.round(&mut cc, 100, rate(2e6), 200 * MSS);
                assert_eq!(cc.pacing_gain(), 1.0);
                assert_eq!(cc.control().pacing_rate, Some(paced(policed, 1.0, 1.0)));
            }
            let bdp = 100 * MSS;
            let target = cc.quantization_budget(2 * bdp);
            assert_eq!(cc.control().cwnd, Some(target));
        }
    }

    /// Linux `bbr_cwnd_event`: a transmission with nothing in flight restarts from idle only
    /// while the sender is application-limited; in PROBE_BW the pacing rate then falls to the
    /// estimate at gain 1. Not application-limited (the retransmission after an RTO), nothing.
    #[test]
    fn tx_start_restarts_from_idle_only_when_application_limited() {
        let (mut cc, mut p) = cruising();
        let at_one = paced(cc.bw(), 1.0, cc.cfg.pacing_margin_percent);
        cc.pacing.rate = paced(cc.bw(), 1.25, cc.cfg.pacing_margin_percent);
        let probing = cc.control().pacing_rate;
        cc.on_tx_start(&TxStart { idle: Time::from_millis(50), app_limited: false }, &mut p.h.ctx());
        assert_eq!(cc.control().pacing_rate, probing);
        cc.on_tx_start(&TxStart { idle: Time::from_millis(50), app_limited: true }, &mut p.h.ctx());
        assert_eq!(cc.control().pacing_rate, Some(at_one));
        assert_ne!(probing, Some(at_one));
    }

    #[test]
    fn startup_exits_after_three_rounds_without_25_percent_growth() {
        let mut cc = bbr(&BbrConfig::default());
        let mut p = Path::new(100);
        assert_eq!(cc.pacing_gain(), 2.0 / LN_2);
        // Doubling for four rounds, then +10 % (0.8 → 0.88 MB/s, below the 1.0 MB/s threshold).
        for bw in [1e5, 2e5, 4e5, 8e5] {
            p.round(&mut cc, 50, rate(bw), 300 * MSS);
            assert_eq!(cc.mode(), Mode::Startup);
            assert_eq!(cc.full_pipe.count, 0);
        }
        for (round, bw) in [8.8e5, 8.8e5].into_iter().enumerate() {
            p.round(&mut cc, 50, rate(bw), 300 * MSS);
            assert_eq!(cc.full_pipe.count, round as u32 + 1);
            assert_eq!(cc.mode(), Mode::Startup, "round {}", round + 5);
        }
        // The third round without 25 % growth: the pipe is full; inflight (300 packets) is
        // above one BDP (88 packets plus quanta), so DRAIN at 1/2.885.
        p.round(&mut cc, 50, rate(8.8e5), 300 * MSS);
        assert!(cc.full_pipe.reached);
        assert_eq!(cc.mode(), Mode::Drain);
        assert!((cc.pacing_gain() - LN_2 / 2.0).abs() < 1e-12);
        // Once inflight is down to one BDP, PROBE_BW.
        p.round(&mut cc, 50, rate(8.8e5), 80 * MSS);
        assert_eq!(cc.mode(), Mode::ProbeBw);
        assert_eq!(cc.snapshot().state, "probe_bw");
        assert_eq!(state_changes(&p.h), ["drain", "probe_bw"]);
    }

    #[test]
    fn app_limited_rounds_do_not_count_towards_a_full_pipe() {
        let mut cc = bbr(&BbrConfig::default());
        let mut p = Path::new(100);
        p.round(&mut cc, 50, rate(1e6), 100 * MSS);
        p.app_limited = true;
        p.rounds(&mut cc, 5, 50, rate(5e5), 50 * MSS);
        assert_eq!(cc.full_pipe.count, 0);
        assert_eq!(cc.mode(), Mode::Startup);
        // An application-limited sample that is lower does not enter the filter either.
        assert_eq!(cc.bw(), rate(1e6));
    }

    /// BtlBw over an application's quiet spell: twenty rounds (twice the filter's window of
    /// bw_window_rounds = 10) of application-limited samples at a tenth of the estimate. Told
    /// apart, none enters the filter and BtlBw holds at 1 MB/s; counted (the ablation), the
    /// spell's samples are all the window holds after ten rounds and BtlBw is the
    /// application's rate.
    #[test]
    fn an_application_limited_spell_leaves_btlbw_alone_unless_its_samples_count() {
        for track in [true, false] {
            let cfg = BbrConfig { track_app_limited: track, ..BbrConfig::default() };
            let mut cc = bbr(&cfg);
            let mut p = Path::new(100);
            into_probe_bw(&mut cc, &mut p);
            let busy = cc.bw();
            p.app_limited = true;
            p.rounds(&mut cc, 2 * cfg.bw_window_rounds as usize, 10, rate(busy.bytes_per_sec() / 10.0), 10 * MSS);
            // A sample is whole bytes over an RTT: the tenth is exact to 1 byte in 10 000.
            let expect = if track { busy.bytes_per_sec() } else { busy.bytes_per_sec() / 10.0 };
            assert!((cc.bw().bytes_per_sec() / expect - 1.0).abs() < 1e-4, "track_app_limited = {track}: BtlBw {:?}", cc.bw());
        }
    }

    /// PROBE_BW restarted at the 5/4 phase.
    fn at_probing_phase() -> (Bbr, Path) {
        let mut cc = bbr(&BbrConfig::default());
        let mut p = Path::new(100);
        into_probe_bw(&mut cc, &mut p);
        cc.cycle_idx = 7;
        cc.advance_cycle_phase();
        cc.update_gains();
        assert_eq!(cc.pacing_gain(), 1.25);
        (cc, p)
    }

    #[test]
    fn gain_cycle_runs_5_4_then_3_4_then_six_phases_at_1_each_one_min_rtt_long() {
        let (mut cc, mut p) = at_probing_phase();
        let mut phases = vec![(cc.cycle_idx, cc.pacing_gain(), p.h.now)];
        // 150 packets in flight: above 1.25 · BDP (134 packets with the quantisation budget).
        while phases.len() < 11 {
            p.tick(&mut cc, 150 * MSS, false);
            if cc.cycle_idx != phases.last().unwrap().0 {
                phases.push((cc.cycle_idx, cc.pacing_gain(), p.h.now));
            }
        }
        let idx: Vec<usize> = phases.iter().map(|p| p.0).collect();
        assert_eq!(idx, [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2]);
        let gains: Vec<f64> = phases.iter().map(|p| p.1).collect();
        assert_eq!(
            gains,
            [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.25, 0.75, 1.0]
        );
        for w in phases.windows(2) {
            let d = w[1].2 - w[0].2;
            assert!(
                d > Time::from_millis(100) && d <= Time::from_millis(101),
                "phase lasted {d:?}"
            );
        }
    }

    #[test]
    fn probing_phase_waits_for_inflight_to_reach_1_25_bdp_unless_a_loss_ends_it() {
        let (mut cc, mut p) = at_probing_phase();
        // 120 packets in flight (below 134) for 300 ms: still probing.
        for _ in 0..300 {
            p.tick(&mut cc, 120 * MSS, false);
        }
        assert_eq!(cc.cycle_idx, 0);
        // A loss ends the phase.
        p.tick(&mut cc, 120 * MSS, true);
        assert_eq!(cc.cycle_idx, 1);
    }

    #[test]
    fn probe_bw_starts_at_a_random_phase_but_never_the_draining_one() {
        let mut seen = [0u32; 8];
        for seed in 0..400 {
            let mut cc = bbr(&BbrConfig::default());
            let mut rng = component_rng(seed, 3);
            let mut events = EventLog::disabled();
            let mut ctx = Ctx {
                now: Time::ZERO,
                rtt: RttStats::default(),
                mss: MSS,
                bytes_in_flight: 0,
                paced: false,
                rng: &mut rng,
                events: &mut events,
            };
            cc.enter_probe_bw(&mut ctx);
            seen[cc.cycle_idx] += 1;
        }
        assert_eq!(seen[1], 0, "{seen:?}");
        for (i, n) in seen.iter().enumerate() {
            if i != 1 {
                // Uniform over 7 phases: about 57 each out of 400.
                assert!(*n > 25, "phase {i}: {seen:?}");
            }
        }
    }

    #[test]
    fn cwnd_is_cwnd_gain_times_bw_times_min_rtt_plus_quantisation() {
        let (mut cc, mut p) = cruising();
        // max_bw = 1 MB/s, min_rtt = 100 ms: BDP = 100 packets; cwnd_gain 2 → 200 packets.
        // Pacing at 0.99 MB/s sends 990 bytes per ms: a quantum of 2 packets (the floor), so
        // 3 quanta = 6 packets; 206 is even.
        assert_eq!(cc.bw(), mbps8());
        assert_eq!(cc.snapshot().min_rtt, Some(Time::from_millis(100)));
        assert_eq!(cc.pacing_gain(), 1.0);
        assert_eq!(cc.control().cwnd, Some(206 * MSS));
        let pacing = cc.control().pacing_rate.unwrap().bytes_per_sec();
        assert!((pacing - 990_000.0).abs() < 1e-6, "{pacing}");
        assert_eq!(cc.control().quantum, 2 * MSS);
        // In the 5/4 phase: 2 more packets (bbr_quantization_budget).
        cc.cycle_idx = 0;
        cc.cycle_stamp = p.h.now;
        cc.update_gains();
        p.round(&mut cc, 100, mbps8(), 100 * MSS);
        assert_eq!(cc.control().cwnd, Some(208 * MSS));
        let pacing = cc.control().pacing_rate.unwrap().bytes_per_sec();
        assert!((pacing - 1_237_500.0).abs() < 1e-6, "{pacing}");
    }

    #[test]
    fn probe_rtt_after_ten_seconds_without_a_new_min_rtt() {
        let mut cc = bbr(&BbrConfig::default());
        let mut p = Path::new(100);
        into_probe_bw(&mut cc, &mut p);
        // min_rtt dates from the first ACK (1 ms in: 100 ACKs per 100 ms round); the equal
        // samples since have not refreshed it (Linux since 5.10).
        let last_min = Time::from_millis(1);
        let cwnd_before = cc.control().cwnd.unwrap();
        // A standing queue: every RTT sample is 120 ms, none refreshes the 100 ms minimum.
        p.rtt = Time::from_millis(120);
        while p.h.now + p.rtt <= last_min + Time::from_secs(10) {
            p.round(&mut cc, 100, mbps8(), 120 * MSS);
            assert_eq!(cc.mode(), Mode::ProbeBw, "at {:?}", p.h.now);
        }
        p.round(&mut cc, 100, mbps8(), 120 * MSS);
        assert_eq!(cc.mode(), Mode::ProbeRtt);
        assert_eq!(cc.snapshot().state, "probe_rtt");
        assert_eq!(cc.control().cwnd, Some(4 * MSS));
        // The expired minimum was replaced by the first sample after expiry.
        assert_eq!(cc.snapshot().min_rtt, Some(Time::from_millis(120)));
        // With 4 packets in flight the queue drains and RTT samples fall back to 100 ms. The
        // mode lasts max(200 ms, one round): three 100 ms rounds of 4 ACKs.
        p.rtt = Time::from_millis(100);
        p.round(&mut cc, 4, mbps8(), 4 * MSS);
        p.round(&mut cc, 4, mbps8(), 4 * MSS);
        assert_eq!(cc.mode(), Mode::ProbeRtt);
        p.round(&mut cc, 4, mbps8(), 4 * MSS);
        p.round(&mut cc, 4, mbps8(), 4 * MSS);
        assert_eq!(cc.mode(), Mode::ProbeBw);
        assert_eq!(cc.snapshot().min_rtt, Some(Time::from_millis(100)));
        // The cwnd saved on entry is restored (2 · BDP and more, not PROBE_RTT's 4 packets).
        assert!(cwnd_before >= 200 * MSS);
        assert!(
            cc.control().cwnd.unwrap() >= 200 * MSS,
            "{:?}",
            cc.control().cwnd
        );
        // Samples taken at PROBE_RTT's low rate did not lower the bandwidth estimate.
        assert_eq!(cc.bw(), mbps8());
    }

    #[test]
    fn recovery_conserves_packets_for_a_round_then_restores_cwnd() {
        let (mut cc, mut p) = cruising();
        assert_eq!(cc.control().cwnd, Some(206 * MSS));
        // A loss opens fast recovery with 150 packets in flight: cwnd = inflight + acked.
        let fb = recovery_ack(&mut p, true, true, false);
        p.h.in_flight = 150 * MSS;
        cc.on_feedback(&fb, &mut p.h.ctx());
        assert_eq!(cc.control().cwnd, Some(151 * MSS));
        // During the first round: packet conservation, cwnd follows inflight + acked.
        // (The ACK is for a packet sent before recovery began: the round goes on.)
        p.in_recovery = true;
        let sent_at = p.delivered - 50 * MSS;
        p.ack(
            &mut cc,
            Time::from_millis(1),
            sent_at,
            mbps8(),
            140 * MSS,
            false,
            false,
        );
        assert_eq!(cc.control().cwnd, Some(151 * MSS));
        // Recovery ends: the saved 206 packets are back.
        p.in_recovery = false;
        let fb = recovery_ack(&mut p, false, false, true);
        cc.on_feedback(&fb, &mut p.h.ctx());
        assert_eq!(cc.control().cwnd, Some(206 * MSS));
    }

    /// Under random loss Linux stays in Recovery from one episode to the next: the ACK that
    /// ends an episode opens the next when a loss is already known (`tcp_time_to_recover`),
    /// before `bbr_main` runs, so `prev_ca_state` is still Recovery and packet conservation
    /// (`cwnd = inflight + acked`) does not start again. Only an episode opened from Open does.
    #[test]
    fn a_recovery_chained_to_the_last_keeps_the_window() {
        let (mut cc, mut p) = cruising();
        let fb = recovery_ack(&mut p, true, true, false);
        p.h.in_flight = 150 * MSS;
        cc.on_feedback(&fb, &mut p.h.ctx());
        assert_eq!(cc.control().cwnd, Some(151 * MSS));
        // A round later conservation is over; cwnd grows back by what is acked, to 206.
        p.in_recovery = true;
        p.round(&mut cc, 100, mbps8(), 150 * MSS);
        assert_eq!(cc.control().cwnd, Some(206 * MSS));
        // The episode ends and the next opens on the same ACK (no new loss on it).
        let mut fb = recovery_ack(&mut p, false, true, true);
        fb.new_episode = true;
        cc.on_feedback(&fb, &mut p.h.ctx());
        assert_eq!(cc.control().cwnd, Some(206 * MSS));
        // A further loss inside the new episode: one packet off, one acked back; no
        // conservation.
        let mut fb = recovery_ack(&mut p, true, true, false);
        fb.new_episode = false;
        cc.on_feedback(&fb, &mut p.h.ctx());
        assert_eq!(cc.control().cwnd, Some(206 * MSS));
    }

    #[test]
    fn timeout_cuts_cwnd_to_one_packet_and_recovery_end_restores_it() {
        let (mut cc, mut p) = cruising();
        let before = cc.control().cwnd.unwrap();
        assert_eq!(before, 206 * MSS);
        cc.on_timeout(&mut p.h.ctx());
        assert_eq!(cc.control().cwnd, Some(MSS));
        // ACKs during RTO recovery grow cwnd by what they acknowledge, from the 4-packet floor.
        p.round(&mut cc, 3, mbps8(), MSS);
        assert_eq!(cc.control().cwnd, Some(6 * MSS));
        let fb = recovery_ack(&mut p, false, false, true);
        cc.on_feedback(&fb, &mut p.h.ctx());
        assert_eq!(cc.control().cwnd, Some(before));
    }

    #[test]
    fn the_initial_window_leaves_unpaced_then_everything_is_paced() {
        let mut cc = bbr(&BbrConfig::default());
        let c = cc.control();
        assert_eq!(c.cwnd, Some(10 * MSS));
        assert_eq!(c.pacing_rate, None);
        // The nominal rate before any RTT sample: high_gain · 10 packets per 1 ms, less 1 %.
        let expect = 2.0 / LN_2 * 10.0 * MSS as f64 / 1e-3 * 0.99;
        assert!((cc.snapshot().pacing_rate.unwrap().bytes_per_sec() - expect).abs() < 1e-3);
        assert_eq!(cc.snapshot().state, "startup");
        assert_eq!(cc.name(), "bbr");
        // The first ACK (srtt 100 ms) re-bases it: high_gain · 10 packets per 100 ms, less 1 %.
        let mut p = Path::new(100);
        p.round(&mut cc, 1, rate(1e4), 10 * MSS);
        let expect = 2.0 / LN_2 * 10.0 * MSS as f64 / 0.1 * 0.99;
        let pacing = cc.control().pacing_rate.unwrap().bytes_per_sec();
        assert!((pacing - expect).abs() < 1e-6, "{pacing} vs {expect}");
    }
}

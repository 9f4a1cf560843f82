//! The path model and control helpers that BBR v1 ([`super::bbr`]) and BBR v3
//! ([`super::bbr3`]) share.
//!
//! Sources: Cardwell et al., "BBR: Congestion-Based Congestion Control", ACM Queue 14(5), 2016;
//! draft-ietf-ccwg-bbr (§5.5 "Updating Network Path Model Parameters", §5.6 "Updating Control
//! Parameters"); Linux `net/ipv4/tcp_bbr.c` (v1) and Google's v3 `tcp_bbr.c`
//! (github.com/google/bbr, branch v3). Both versions model the path by two numbers:
//!
//! - `max_bw` (the paper's BtlBw), a windowed maximum of delivery-rate samples;
//! - `min_rtt` (RTprop), a windowed minimum of RTT samples;
//!
//! and derive their controls from them:
//!
//! ```text
//! BDP         = bw · min_rtt                      (rounded up to whole packets)
//! pacing_rate = pacing_gain · bw · (1 − PacingMarginPercent/100)
//! cwnd        ≈ cwnd_gain · BDP + extra_acked + quantisation budget,  ≥ 4 packets
//! quantum     = clamp(pacing_rate · 1 ms, 1..2 packets, 64 KB)
//! ```
//!
//! Everything here counts bytes (the draft's recommendation); Linux counts packets, so
//! packet-sized constants (the 4-packet floor, the 2-packet probing bonus) are multiplied by
//! the MSS.

use crate::controller::{CcEvent, Control, Ctx, Feedback, RateSample, Snapshot};
use crate::filter::WindowedFilter;
use crate::units::{Bytes, Rate, Time};

/// What both controllers' files use.
pub mod prelude {
    pub use super::{
        bdp, paced, record_state_change, send_quantum, AckAggregation, CaState, FullPipe,
        MinRttFilter, MinRttProbe, Pacing, ProbeRttStep, Rounds, Window, MIN_PIPE_PACKETS,
    };
    pub use crate::controller::*;
    pub use crate::filter::WindowedFilter;
    pub use crate::rng::Rng;
    pub use crate::units::{Bytes, Rate, Time};
    pub use serde::{Deserialize, Serialize};
    pub use std::f64::consts::LN_2;
}

/// `BBR.MinPipeCwnd` (draft §2.8), Linux `bbr_cwnd_min_target`: enough for two packets in
/// flight and two delayed ACKs on the way back.
pub const MIN_PIPE_PACKETS: u64 = 4;

/// The bandwidth-delay product `gain · bw · min_rtt`, rounded up to whole packets as Linux
/// `bbr_bdp` does ("round the value up to avoid a negative feedback loop"). Before the first
/// RTT sample it is the initial window (draft `BDPMultiple`).
pub fn bdp(bw: Rate, min_rtt: Option<Time>, gain: f64, mss: Bytes, init_cwnd: Bytes) -> Bytes {
    match min_rtt {
        None => init_cwnd,
        Some(rtt) => {
            let packets = bw.bytes_in(rtt) * gain / mss as f64;
            // The tiny tolerance keeps products that are whole in exact arithmetic whole.
            (packets - 1e-9).ceil().max(0.0) as Bytes * mss
        }
    }
}

/// `pacing_gain · bw` less the pacing margin (Linux `bbr_rate_bytes_per_sec`, draft
/// `SetPacingRateWithGain`): BBR paces about 1 % below its estimate to drain queues it made.
pub fn paced(bw: Rate, gain: f64, margin_percent: f64) -> Rate {
    bw.scale(gain * (100.0 - margin_percent) / 100.0)
}

/// The pacer's burst allowance (draft §5.6.3 `SetSendQuantum`; Linux `bbr_tso_segs_goal`):
/// about 1 ms of data at the pacing rate, at most 64 KB, and at least two packets (one below
/// 1.2 Mbit/s, Linux `bbr_min_tso_segs`).
pub fn send_quantum(pacing_rate: Rate, mss: Bytes) -> Bytes {
    let bytes = pacing_rate.bytes_in(Time::from_millis(1)).min(65536.0);
    let floor = if pacing_rate.bits_per_sec() < 1.2e6 {
        1
    } else {
        2
    };
    ((bytes / mss as f64) as u64).clamp(floor, 127) * mss
}

/// Records a state change for traces, and the end of STARTUP as the end of slow start.
pub fn record_state_change(ctx: &mut Ctx, from: &'static str, to: &'static str, cwnd: Bytes) {
    ctx.events.record(CcEvent::StateChange {
        at: ctx.now,
        from,
        to,
    });
    if from == "startup" {
        ctx.events
            .record(CcEvent::SlowStartExit { at: ctx.now, cwnd });
    }
}

/// Packet-timed round trips (draft §5.5.1, Linux `bbr_update_round_start`): a round ends when
/// a packet sent after the previous round ended is acknowledged. Unlike
/// [`crate::round::RoundCounter`], BBR also restarts the current round on demand
/// (`StartRound()`, e.g. when PROBE_RTT's low inflight is first reached).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rounds {
    next_round_delivered: Bytes,
    /// Rounds completed so far (`BBR.round_count`).
    pub count: u64,
    /// This ACK started a new round (`BBR.round_start`).
    pub start: bool,
}

impl Rounds {
    pub fn update(&mut self, fb: &Feedback) -> bool {
        self.start = fb.acked_packets > 0 && fb.prior_delivered >= self.next_round_delivered;
        if self.start {
            self.next_round_delivered = fb.delivered;
            self.count += 1;
        }
        self.start
    }

    /// `StartRound()`: the current round ends when data sent from now on is acknowledged.
    pub fn start_round(&mut self, delivered: Bytes) {
        self.next_round_delivered = delivered;
    }
}

/// `min_rtt` and the PROBE_RTT schedule (draft §5.3.4.3 `UpdateMinRTT`; Linux
/// `bbr_update_min_rtt`).
///
/// `probe_rtt_min` is the minimum RTT over the last `probe_rtt_interval`; when it is that old
/// without a lower sample, the next sample replaces it and the flow is due for PROBE_RTT.
/// `min_rtt` takes `probe_rtt_min` whenever that is lower, or once `min_rtt` itself is older
/// than `min_rtt_window`. BBR v1 is the special case of equal windows (10 s); BBR v3 probes
/// every 5 s within a 10 s window. Both refresh only on a strictly lower sample, as Linux has
/// since 5.10; `refresh_on_equal` gives v1 as it was before (`<=`).
///
/// Samples count in whole microseconds, as Linux's (`rate_sample.rtt_us`, from the
/// microsecond `tcp_mstamp`). The resolution decides how often PROBE_RTT comes: on a path
/// whose floor is fixed, nanosecond samples keep setting new record lows a few ns apart (the
/// queue a paced packet meets is never quite empty), each postponing PROBE_RTT by another
/// 10 s; microsecond samples reach the floor's microsecond and then never beat it, so, as in
/// Linux, PROBE_RTT comes every 10 s.
#[derive(Clone, Debug, PartialEq)]
pub struct MinRttFilter {
    min_rtt: Option<Time>,
    min_rtt_stamp: Time,
    probe_rtt_min: Option<Time>,
    probe_rtt_min_stamp: Time,
    probe_rtt_interval: Time,
    min_rtt_window: Time,
    refresh_on_equal: bool,
}

impl MinRttFilter {
    pub fn new(probe_rtt_interval: Time, min_rtt_window: Time, refresh_on_equal: bool) -> Self {
        MinRttFilter {
            min_rtt: None,
            min_rtt_stamp: Time::ZERO,
            probe_rtt_min: None,
            probe_rtt_min_stamp: Time::ZERO,
            probe_rtt_interval,
            min_rtt_window: min_rtt_window.max(probe_rtt_interval),
            refresh_on_equal,
        }
    }

    pub fn min_rtt(&self) -> Option<Time> {
        self.min_rtt
    }

    /// Takes an RTT sample (if any) at `now`; returns whether the PROBE_RTT interval had
    /// expired before it (`BBR.probe_rtt_expired`).
    pub fn update(&mut self, rtt: Option<Time>, now: Time) -> bool {
        let expired = now > self.probe_rtt_min_stamp + self.probe_rtt_interval;
        if let Some(r) = rtt.map(|r| Time(r.0 / 1_000 * 1_000)) {
            let lower = self
                .probe_rtt_min
                .is_none_or(|m| r < m || (self.refresh_on_equal && r == m));
            if lower || expired {
                self.probe_rtt_min = Some(r);
                self.probe_rtt_min_stamp = now;
            }
        }
        let window_expired = now > self.min_rtt_stamp + self.min_rtt_window;
        if let Some(p) = self.probe_rtt_min {
            if self.min_rtt.is_none_or(|m| p <= m) || window_expired {
                self.min_rtt = Some(p);
                self.min_rtt_stamp = self.probe_rtt_min_stamp;
            }
        }
        expired
    }

    /// After PROBE_RTT (or an idle period that drained the queue): wait a full interval before
    /// the next one.
    pub fn schedule_next_probe(&mut self, now: Time) {
        self.probe_rtt_min_stamp = now;
        if self.min_rtt_window == self.probe_rtt_interval {
            self.min_rtt_stamp = now; // v1: one stamp serves both
        }
    }
}

/// BBR's "full pipe" estimator (draft §5.3.1.2, Linux `bbr_check_full_bw_reached`): the pipe
/// is full once the bandwidth has grown less than `growth` (25 %) for `rounds` (3) rounds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FullPipe {
    /// The baseline bandwidth (`BBR.full_bw`).
    pub full_bw: Rate,
    /// Rounds without significant growth (`BBR.full_bw_count`).
    pub count: u32,
    /// The current search found a plateau (`BBR.full_bw_now`).
    pub now: bool,
    /// Some search ever found one (`BBR.full_bw_reached`).
    pub reached: bool,
}

impl FullPipe {
    /// `ResetFullBW()`: start a new search (not forgetting `reached`).
    pub fn reset(&mut self) {
        self.full_bw = Rate::ZERO;
        self.count = 0;
        self.now = false;
    }

    /// If `bw` is at least `growth` times the baseline it becomes the new baseline (returns
    /// true); otherwise nothing changes.
    pub fn grew(&mut self, bw: Rate, growth: f64) -> bool {
        if bw >= self.full_bw.scale(growth) {
            self.reset();
            self.full_bw = bw;
            true
        } else {
            false
        }
    }

    /// One more round without growth.
    pub fn count_round(&mut self, rounds: u32) {
        self.count += 1;
        self.now = self.count >= rounds;
        self.reached |= self.now;
    }
}

/// The degree of ACK aggregation, `extra_acked` (draft §5.5.9 `UpdateACKAggregation`, Linux
/// `bbr_update_ack_aggregation`): data acknowledged beyond `bw · (now − epoch_start)` since
/// the ACK rate last fell below the estimate, windowed-max filtered over rounds. BBR adds it to
/// cwnd so that the sender keeps going through inter-ACK silences. Linux keeps two buckets
/// of 5 rounds (a 5–10 round window); here it is a [`WindowedFilter`] over a configurable
/// number of rounds.
#[derive(Clone, Debug, PartialEq)]
pub struct AckAggregation {
    epoch_start: Time,
    epoch_acked: Bytes,
    extra: WindowedFilter<Bytes>,
}

impl Default for AckAggregation {
    fn default() -> Self {
        AckAggregation {
            epoch_start: Time::ZERO,
            epoch_acked: 0,
            extra: WindowedFilter::max(1, 0, 0),
        }
    }
}

impl AckAggregation {
    /// Linux `bbr_ack_epoch_acked_reset_thresh`: restart very long epochs (2^20 packets).
    const EPOCH_RESET_PACKETS: u64 = 1 << 20;

    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        now: Time,
        acked: Bytes,
        bw: Rate,
        cwnd: Bytes,
        round: u64,
        window: u64,
        mss: Bytes,
    ) {
        if acked == 0 {
            return;
        }
        self.extra.set_window(window);
        let mut expected = bw.bytes_in(now - self.epoch_start) as Bytes;
        if self.epoch_acked <= expected
            || self.epoch_acked + acked >= Self::EPOCH_RESET_PACKETS * mss
        {
            // The ACK rate fell to (or below) the estimate: a new aggregation epoch.
            self.epoch_acked = 0;
            self.epoch_start = now;
            expected = 0;
        }
        self.epoch_acked += acked;
        let extra = (self.epoch_acked - expected).min(cwnd);
        self.extra.update(round, extra);
    }

    pub fn extra_acked(&self) -> Bytes {
        self.extra.get()
    }

    /// The cwnd allowance `gain · extra_acked`, at most `bw · max_time` (Linux
    /// `bbr_ack_aggregation_cwnd`, 100 ms).
    pub fn cwnd_allowance(&self, gain: f64, bw: Rate, max_time: Time) -> Bytes {
        ((self.extra.get() as f64 * gain) as Bytes).min(bw.bytes_in(max_time) as Bytes)
    }

    /// Restarting after idle starts a new epoch.
    pub fn restart(&mut self, now: Time) {
        self.epoch_start = now;
        self.epoch_acked = 0;
    }
}

/// Rate samples BBR treats as application-limited although the sender did not mark them:
/// those of packets sent during PROBE_RTT (Linux sets `tp->app_limited` there, draft
/// `MarkConnectionAppLimited`, so that the low rate does not pollute the bandwidth filter). A
/// packet is so marked if it was sent after PROBE_RTT began (its `prior_delivered` is at least
/// the delivered count then) and before all data in flight at the last PROBE_RTT ACK was
/// delivered.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AppLimitedMark {
    range: Option<(Bytes, Bytes)>,
}

impl AppLimitedMark {
    pub fn mark(&mut self, delivered: Bytes, in_flight: Bytes) {
        let until = delivered + in_flight;
        self.range = match self.range {
            Some((from, end)) if delivered <= end => Some((from, end.max(until))),
            _ => Some((delivered, until)),
        };
    }

    pub fn is_app_limited(&self, rs: &RateSample) -> bool {
        rs.is_app_limited
            || self
                .range
                .is_some_and(|(from, end)| rs.prior_delivered >= from && rs.prior_delivered <= end)
    }
}

/// The sender's loss-recovery state as BBR sees it (Linux `icsk_ca_state`), ordered as in
/// Linux so that `>= Recovery` means "in loss recovery".
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum CaState {
    #[default]
    Open,
    /// ECN window reduction.
    Cwr,
    /// Fast recovery.
    Recovery,
    /// After a retransmission timeout.
    Loss,
}

impl CaState {
    /// The state after this feedback. After an RTO ([`CaState::Loss`]) the sender reports
    /// `in_recovery = false` until the recovery point is acknowledged.
    pub fn after(self, fb: &Feedback) -> CaState {
        if fb.in_recovery {
            let loss_episode = fb.new_episode && !fb.ecn_congestion;
            if fb.lost_packets > 0 || loss_episode || (self == CaState::Recovery && !fb.recovery_ended) {
                CaState::Recovery
            } else {
                CaState::Cwr
            }
        } else if self == CaState::Loss && !fb.recovery_ended {
            CaState::Loss
        } else {
            CaState::Open
        }
    }
}

/// The pacing rate with BBR's start-up rules (draft §5.6.2 `InitPacingRate` and
/// `SetPacingRate`; Linux `bbr_init_pacing_rate_from_rtt`, `bbr_set_pacing_rate`): it starts
/// at `startup_gain · init_cwnd / srtt` (1 ms before any RTT sample), and until the pipe is
/// full it only grows, so that application-limited samples cannot slow start-up down.
#[derive(Clone, Debug, PartialEq)]
pub struct Pacing {
    pub rate: Rate,
    has_seen_rtt: bool,
}

impl Pacing {
    pub fn new(init_cwnd: Bytes, startup_gain: f64, margin_percent: f64) -> Pacing {
        let nominal = Rate::from_delivery(init_cwnd, Time::from_millis(1));
        Pacing {
            rate: paced(nominal, startup_gain, margin_percent),
            has_seen_rtt: false,
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub fn set(
        &mut self,
        bw: Rate,
        gain: f64,
        margin_percent: f64,
        full_bw_reached: bool,
        srtt: Option<Time>,
        init_cwnd: Bytes,
        startup_gain: f64,
    ) {
        if !self.has_seen_rtt {
            if let Some(srtt) = srtt.filter(|t| *t > Time::ZERO) {
                self.has_seen_rtt = true;
                self.rate = paced(
                    Rate::from_delivery(init_cwnd, srtt),
                    startup_gain,
                    margin_percent,
                );
            }
        }
        let rate = paced(bw, gain, margin_percent);
        if full_bw_reached || rate > self.rate {
            self.rate = rate;
        }
    }
}

/// PROBE_RTT's timing (draft §5.3.4.3 `HandleProbeRTT`, `CheckProbeRTTDone`; Linux
/// `bbr_update_min_rtt`): once inflight is down to the PROBE_RTT window, hold it there for
/// `ProbeRTTDuration` (200 ms) and at least one round trip.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProbeRtt {
    done_stamp: Option<Time>,
    round_done: bool,
}

impl ProbeRtt {
    /// Enters PROBE_RTT: cwnd is saved for the exit (draft `EnterProbeRTT`, `SaveCwnd`).
    pub fn enter(&mut self, w: &mut Window) {
        w.save_cwnd(true);
        self.done_stamp = None;
        self.round_done = false;
    }

    /// One ACK in PROBE_RTT: marks the samples of this period application-limited, and
    /// returns true when it is time to leave (inflight has been at most `target` for
    /// `duration` and a round).
    pub fn on_ack(
        &mut self,
        ctx: &Ctx,
        w: &Window,
        target: Bytes,
        duration: Time,
        rounds: &mut Rounds,
        mark: &mut AppLimitedMark,
    ) -> bool {
        let (now, in_flight) = (ctx.now, ctx.bytes_in_flight);
        mark.mark(w.delivered, in_flight);
        match self.done_stamp {
            None if in_flight <= target => {
                self.done_stamp = Some(now + duration);
                self.round_done = false;
                rounds.start_round(w.delivered);
                false
            }
            None => false,
            Some(_) => {
                self.round_done |= rounds.start;
                self.round_done && self.is_done(now)
            }
        }
    }

    /// The 200 ms have passed (also checked when restarting from idle).
    pub fn is_done(&self, now: Time) -> bool {
        self.done_stamp.is_some_and(|t| now > t)
    }
}

/// What the PROBE_RTT logic decided on an ACK.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ProbeRttStep {
    Stay,
    Enter,
    Exit,
}

/// `min_rtt` with the PROBE_RTT schedule and state around it (draft §5.3.4.3 `UpdateMinRTT`,
/// `CheckProbeRTT`, `HandleProbeRTT`, `CheckProbeRTTDone`; Linux `bbr_update_min_rtt`): when the
/// PROBE_RTT interval passes without a lower RTT sample (and the flow is not restarting from
/// idle), enter PROBE_RTT; leave it after `duration` and a round at the PROBE_RTT window, with
/// the next one a full interval later and the cwnd saved on entry restored.
#[derive(Clone, Debug, PartialEq)]
pub struct MinRttProbe {
    pub filter: MinRttFilter,
    probe: ProbeRtt,
    /// Rate samples of packets sent during PROBE_RTT count as application-limited.
    pub mark: AppLimitedMark,
    /// `BBR.idle_restart`: restarting after idle, until data is acknowledged.
    idle_restart: bool,
    duration: Time,
}

impl MinRttProbe {
    pub fn new(filter: MinRttFilter, duration: Time) -> MinRttProbe {
        MinRttProbe {
            filter,
            probe: ProbeRtt::default(),
            mark: AppLimitedMark::default(),
            idle_restart: false,
            duration,
        }
    }

    pub fn min_rtt(&self) -> Option<Time> {
        self.filter.min_rtt()
    }

    /// One ACK: the min_rtt update and PROBE_RTT's entry and exit checks, with `target` the
    /// PROBE_RTT window. On [`ProbeRttStep::Exit`] the cwnd has been restored; the caller
    /// changes state.
    pub fn on_ack(
        &mut self,
        fb: &Feedback,
        ctx: &Ctx,
        in_probe_rtt: bool,
        target: Bytes,
        w: &mut Window,
        rounds: &mut Rounds,
    ) -> ProbeRttStep {
        let expired = self.filter.update(fb.rtt_sample, ctx.now);
        let mut step = ProbeRttStep::Stay;
        if self.duration > Time::ZERO && expired && !self.idle_restart && !in_probe_rtt {
            self.probe.enter(w);
            step = ProbeRttStep::Enter;
        }
        let probing = in_probe_rtt || step == ProbeRttStep::Enter;
        if probing
            && self
                .probe
                .on_ack(ctx, w, target, self.duration, rounds, &mut self.mark)
        {
            self.finish(ctx.now, w);
            step = ProbeRttStep::Exit;
        }
        if fb.acked_bytes > 0 {
            self.idle_restart = false;
        }
        step
    }

    /// Leaves PROBE_RTT: the next one is due a full interval from now; cwnd is restored.
    pub fn finish(&mut self, now: Time, w: &mut Window) {
        self.filter.schedule_next_probe(now);
        w.restore_cwnd();
    }

    /// The sender restarts after idle; returns whether a PROBE_RTT under way has done its
    /// time (the caller then [`finish`](Self::finish)es it).
    pub fn restart_from_idle(&mut self, now: Time) -> bool {
        self.idle_restart = true;
        self.probe.is_done(now)
    }
}

/// The window state both versions keep: cwnd, the "last known good" cwnd saved across loss
/// recovery and PROBE_RTT, and the loss-recovery state.
#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    pub mss: Bytes,
    pub init_cwnd: Bytes,
    pub cwnd: Bytes,
    /// `BBR.prior_cwnd`.
    pub prior_cwnd: Bytes,
    /// The recovery state after the previous feedback.
    pub ca: CaState,
    /// Bytes delivered so far (`C.delivered`) and when the last delivery was acknowledged.
    pub delivered: Bytes,
    pub delivered_time: Time,
}

impl Window {
    pub fn new(mss: Bytes, init_cwnd: Bytes) -> Window {
        Window {
            mss,
            init_cwnd,
            cwnd: init_cwnd,
            prior_cwnd: 0,
            ca: CaState::Open,
            delivered: 0,
            delivered_time: Time::ZERO,
        }
    }

    /// Accounts this feedback's deliveries; returns the recovery state before it (the new one
    /// is in `self.ca`).
    pub fn on_feedback(&mut self, fb: &Feedback, now: Time) -> CaState {
        self.delivered = self.delivered.max(fb.delivered);
        if fb.acked_bytes > 0 {
            self.delivered_time = now;
        }
        let prev = self.ca;
        self.ca = prev.after(fb);
        prev
    }

    /// `SaveCwnd()` (draft §5.6.4.4, Linux `bbr_save_cwnd`): remember the cwnd unless loss
    /// recovery or PROBE_RTT has already cut it.
    pub fn save_cwnd(&mut self, in_probe_rtt: bool) {
        if self.ca < CaState::Recovery && !in_probe_rtt {
            self.prior_cwnd = self.cwnd;
        } else {
            self.prior_cwnd = self.prior_cwnd.max(self.cwnd);
        }
    }

    /// `RestoreCwnd()`.
    pub fn restore_cwnd(&mut self) {
        self.cwnd = self.cwnd.max(self.prior_cwnd);
    }

    /// A retransmission timeout: the cwnd saved (in recovery, the larger of it and the one
    /// saved before), then cut to one packet (Linux `tcp_enter_loss`: `packets_in_flight + 1`
    /// with everything marked lost; draft `OnEnterRTO`).
    pub fn on_timeout(&mut self, in_probe_rtt: bool) {
        self.save_cwnd(in_probe_rtt);
        self.cwnd = self.mss;
        self.ca = CaState::Loss;
    }

    /// BBR's controls. The initial window leaves unpaced, as Linux's fq qdisc releases it (a
    /// new flow starts with an `initial_quantum` of 10 packets of credit); this sender's pacer
    /// starts with none. From the first delivery on, every packet is paced.
    pub fn control(&self, pacing_rate: Rate) -> Control {
        let pacing_rate = Some(pacing_rate).filter(|_| self.delivered > 0);
        Control {
            cwnd: Some(self.cwnd),
            pacing_rate,
            quantum: send_quantum(pacing_rate.unwrap_or_default(), self.mss),
        }
    }

    pub fn snapshot(
        &self,
        pacing: &Pacing,
        bw: Rate,
        rtt: &MinRttProbe,
        state: &'static str,
    ) -> Snapshot {
        Snapshot {
            cwnd: Some(self.cwnd),
            ssthresh: None,
            pacing_rate: Some(pacing.rate),
            bw_estimate: Some(bw),
            min_rtt: rtt.min_rtt(),
            state,
        }
    }
}

/// A hand-driven path for the controllers' unit tests: rounds of ACKs that each deliver one
/// MSS, carry an RTT sample and a delivery-rate sample of a chosen bandwidth.
#[cfg(test)]
pub(crate) mod test_path {
    use crate::controller::*;
    use crate::testing::{Harness, MSS};
    use crate::units::{Bytes, Rate, Time};

    pub struct Path {
        pub h: Harness,
        pub delivered: Bytes,
        /// The RTT every ACK reports.
        pub rtt: Time,
        /// Bytes lost per round (reported on the round's first ACKs, one MSS each), and the
        /// `lost` the rate samples carry. The fraction of each round's ACKs that are CE-marked.
        pub lost_per_round: Bytes,
        pub rs_lost: Bytes,
        pub app_limited: bool,
        pub ce_fraction: f64,
        pub in_recovery: bool,
    }

    impl Path {
        pub fn new(rtt_ms: u64) -> Path {
            let mut h = Harness::new();
            let rtt = Time::from_millis(rtt_ms);
            h.rtt = RttStats {
                srtt: Some(rtt),
                rttvar: Time::ZERO,
                min_rtt: Some(rtt),
                latest: Some(rtt),
            };
            Path {
                h,
                delivered: 0,
                rtt,
                lost_per_round: 0,
                rs_lost: 0,
                app_limited: false,
                ce_fraction: 0.0,
                in_recovery: false,
            }
        }

        /// One round trip of `acks` ACKs spread evenly over the RTT, each with a rate sample of
        /// `bw` over one RTT. In flight before each ACK: `in_flight` bytes.
        pub fn round<C: CongestionControl>(
            &mut self,
            cc: &mut C,
            acks: u64,
            bw: Rate,
            in_flight: Bytes,
        ) {
            let round_start = self.delivered;
            let step = Time(self.rtt.0 / acks.max(1));
            let ce = (acks as f64 * self.ce_fraction).round() as u64;
            for i in 0..acks {
                // Losses are reported on the round's first ACKs, CE marks on its last ones.
                self.ack(
                    cc,
                    step,
                    round_start,
                    bw,
                    in_flight,
                    i * MSS < self.lost_per_round,
                    i + ce >= acks,
                );
            }
        }

        /// One ACK of one MSS, `step` after the previous one, for packets sent when
        /// `round_start` bytes had been delivered.
        #[allow(clippy::too_many_arguments)]
        pub fn ack<C: CongestionControl>(
            &mut self,
            cc: &mut C,
            step: Time,
            round_start: Bytes,
            bw: Rate,
            in_flight: Bytes,
            lost: bool,
            ce: bool,
        ) {
            self.h.now += step;
            self.delivered += MSS;
            let fb = Feedback {
                acked_bytes: MSS,
                acked_packets: 1,
                delivered: self.delivered,
                prior_delivered: round_start,
                rtt_sample: Some(self.rtt),
                prior_in_flight: in_flight,
                in_recovery: self.in_recovery,
                lost_packets: lost as u32,
                lost_bytes: lost as Bytes * MSS,
                ecn_ce_packets: ce as u32,
                ece: ce,
                ecn_ect_packets: 1,
                rate_sample: Some(RateSample {
                    delivered: bw.bytes_in(self.rtt) as Bytes,
                    interval: self.rtt,
                    is_app_limited: self.app_limited,
                    prior_delivered: round_start,
                    tx_in_flight: in_flight,
                    lost: self.rs_lost,
                }),
                ..Feedback::default()
            };
            self.h.in_flight = in_flight;
            let mut ctx = self.h.ctx();
            cc.on_feedback(&fb, &mut ctx);
        }

        /// One ACK 1 ms after the previous one, each its own round, at 1 MB/s.
        pub fn tick<C: CongestionControl>(&mut self, cc: &mut C, in_flight: Bytes, lost: bool) {
            let start = self.delivered;
            self.ack(
                cc,
                Time::from_millis(1),
                start,
                mbps8(),
                in_flight,
                lost,
                false,
            );
        }

        /// `n` rounds, each acknowledging `acks` packets.
        pub fn rounds<C: CongestionControl>(
            &mut self,
            cc: &mut C,
            n: usize,
            acks: u64,
            bw: Rate,
            in_flight: Bytes,
        ) {
            for _ in 0..n {
                self.round(cc, acks, bw, in_flight);
            }
        }
    }

    /// 1 MB/s: with a 100 ms RTT and a 1000-byte MSS the BDP is 100 packets.
    pub fn mbps8() -> Rate {
        Rate::from_bytes_per_sec(1e6)
    }

    pub fn rate(bytes_per_sec: f64) -> Rate {
        Rate::from_bytes_per_sec(bytes_per_sec)
    }

    /// STARTUP on a path whose delivery rate doubles for 4 rounds up to 1 MB/s, then stays
    /// flat: the third flat round (round 7) finds the pipe full. Inflight is one BDP
    /// (100 packets at 1 MB/s and 100 ms), so DRAIN ends at once.
    pub fn fill_pipe<C: CongestionControl>(cc: &mut C, p: &mut Path) {
        for bw in [1.25e5, 2.5e5, 5e5, 1e6, 1e6, 1e6, 1e6] {
            p.round(cc, 100, rate(bw), 100 * MSS);
        }
    }

    /// The states the controller entered, in order.
    pub fn state_changes(h: &Harness) -> Vec<&'static str> {
        h.events
            .events()
            .iter()
            .filter_map(|e| match e {
                CcEvent::StateChange { to, .. } => Some(*to),
                _ => None,
            })
            .collect()
    }

    /// An ACK of one MSS without a rate sample, with the given recovery flags.
    pub fn recovery_ack(
        p: &mut Path,
        lost: bool,
        in_recovery: bool,
        recovery_ended: bool,
    ) -> Feedback {
        p.delivered += MSS;
        Feedback {
            acked_bytes: MSS,
            acked_packets: 1,
            delivered: p.delivered,
            lost_bytes: lost as Bytes * MSS,
            lost_packets: lost as u32,
            new_episode: lost,
            in_recovery,
            recovery_ended,
            ..Feedback::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: Bytes = 1000;

    #[test]
    fn bdp_is_gain_times_bw_times_min_rtt_in_whole_packets() {
        let bw = Rate::from_bytes_per_sec(1e6);
        let rtt = Some(Time::from_millis(100));
        assert_eq!(bdp(bw, rtt, 1.0, MSS, 10 * MSS), 100 * MSS);
        assert_eq!(bdp(bw, rtt, 2.0, MSS, 10 * MSS), 200 * MSS);
        // 1.25 · 100 000 = 125 000 bytes; 2.885 · 100 000 = 288 539 bytes → 289 packets.
        assert_eq!(bdp(bw, rtt, 1.25, MSS, 10 * MSS), 125 * MSS);
        assert_eq!(
            bdp(bw, rtt, 2.0 / std::f64::consts::LN_2, MSS, 10 * MSS),
            289 * MSS
        );
        // No RTT sample yet: the initial window.
        assert_eq!(bdp(bw, None, 2.0, MSS, 10 * MSS), 10 * MSS);
    }

    #[test]
    fn pacing_is_one_percent_below_gain_times_bw() {
        let r = paced(Rate::from_bytes_per_sec(1e6), 1.25, 1.0);
        assert!((r.bytes_per_sec() - 1_237_500.0).abs() < 1e-6);
    }

    #[test]
    fn quantum_is_a_millisecond_of_data_within_limits() {
        // 40 Mbit/s = 5 MB/s: 5000 bytes per ms, 3 packets of 1448.
        assert_eq!(send_quantum(Rate::from_bits_per_sec(40e6), 1448), 3 * 1448);
        // Slow: at least two packets, one below 1.2 Mbit/s.
        assert_eq!(send_quantum(Rate::from_bits_per_sec(2e6), 1448), 2 * 1448);
        assert_eq!(send_quantum(Rate::from_bits_per_sec(1e6), 1448), 1448);
        // Fast: at most 64 KB.
        assert_eq!(send_quantum(Rate::from_bits_per_sec(10e9), 1448), 45 * 1448);
    }

    #[test]
    fn min_rtt_v1_refreshes_on_equal_samples_and_expires_after_the_window() {
        let mut f = MinRttFilter::new(Time::from_secs(10), Time::from_secs(10), true);
        let ms = Time::from_millis;
        assert!(!f.update(Some(ms(120)), ms(0)));
        assert_eq!(f.min_rtt(), Some(ms(120)));
        f.update(Some(ms(100)), Time::from_secs(1));
        f.update(Some(ms(150)), Time::from_secs(5));
        assert_eq!(f.min_rtt(), Some(ms(100)));
        // An equal sample at 8 s refreshes the stamp: not expired at 12 s.
        f.update(Some(ms(100)), Time::from_secs(8));
        assert!(!f.update(Some(ms(150)), Time::from_secs(12)));
        // 10 s after 8 s without a new minimum: expired, and the next sample is taken.
        assert!(f.update(Some(ms(130)), Time::from_secs(18) + ms(1)));
        assert_eq!(f.min_rtt(), Some(ms(130)));
    }

    #[test]
    fn min_rtt_counts_whole_microseconds_and_refreshes_only_on_a_lower_one_as_linux_since_5_10() {
        let mut f = MinRttFilter::new(Time::from_secs(10), Time::from_secs(10), false);
        let (ms, ns) = (Time::from_millis, |n: u64| Time(n));
        f.update(Some(ns(100_300_400)), ms(0));
        assert_eq!(f.min_rtt(), Some(Time::from_micros(100_300)), "truncated to the microsecond");
        // 600 ns lower, but the same microsecond, and an equal sample: neither postpones.
        f.update(Some(ns(100_300_000)), Time::from_secs(4));
        f.update(Some(ns(100_300_900)), Time::from_secs(8));
        assert!(f.update(Some(ms(101)), Time::from_secs(10) + ms(1)), "due 10 s after the first sample");
        // A strictly lower microsecond does postpone it.
        let mut g = MinRttFilter::new(Time::from_secs(10), Time::from_secs(10), false);
        g.update(Some(ns(100_300_400)), ms(0));
        g.update(Some(ns(100_299_999)), Time::from_secs(4));
        assert_eq!(g.min_rtt(), Some(Time::from_micros(100_299)));
        assert!(!g.update(Some(ms(101)), Time::from_secs(10) + ms(1)));
    }

    #[test]
    fn min_rtt_v3_probes_every_five_seconds_and_keeps_a_ten_second_minimum() {
        let mut f = MinRttFilter::new(Time::from_secs(5), Time::from_secs(10), false);
        let ms = Time::from_millis;
        f.update(Some(ms(100)), ms(0));
        // Equal samples do not refresh the PROBE_RTT stamp.
        f.update(Some(ms(100)), Time::from_secs(4));
        assert!(f.update(Some(ms(140)), Time::from_secs(5) + ms(1)));
        // The 5 s minimum took 140 ms, but the 10 s min_rtt keeps 100 ms.
        assert_eq!(f.min_rtt(), Some(ms(100)));
        f.schedule_next_probe(Time::from_secs(6));
        assert!(!f.update(Some(ms(150)), Time::from_secs(9)));
        // 10 s after the 100 ms sample, min_rtt takes the newer 5 s minimum.
        f.update(Some(ms(150)), Time::from_secs(10) + ms(1));
        assert_eq!(f.min_rtt(), Some(ms(140)));
    }

    #[test]
    fn full_pipe_after_three_rounds_without_25_percent_growth() {
        let mut p = FullPipe::default();
        let r = Rate::from_bytes_per_sec;
        assert!(p.grew(r(100.0), 1.25));
        assert!(!p.grew(r(124.0), 1.25)); // +24 %: not enough
        p.count_round(3);
        assert!(p.grew(r(125.0), 1.25)); // +25 %: new baseline, count reset
        assert_eq!(p.count, 0);
        for i in 1..=3 {
            assert!(!p.grew(r(130.0), 1.25));
            p.count_round(3);
            assert_eq!(p.reached, i == 3);
        }
    }

    #[test]
    fn recovery_state_follows_the_feedback() {
        let mut fb = Feedback {
            in_recovery: true,
            lost_packets: 1,
            ..Feedback::default()
        };
        assert_eq!(CaState::Open.after(&fb), CaState::Recovery);
        fb.lost_packets = 0;
        assert_eq!(CaState::Recovery.after(&fb), CaState::Recovery);
        assert_eq!(CaState::Open.after(&fb), CaState::Cwr);
        let fb = Feedback::default();
        assert_eq!(CaState::Recovery.after(&fb), CaState::Open);
        assert_eq!(CaState::Loss.after(&fb), CaState::Loss);
        let ended = Feedback {
            recovery_ended: true,
            ..Feedback::default()
        };
        assert_eq!(CaState::Loss.after(&ended), CaState::Open);
    }

    #[test]
    fn probe_rtt_app_limited_mark_covers_packets_sent_during_probe_rtt() {
        let mut m = AppLimitedMark::default();
        m.mark(10_000, 4_000);
        m.mark(11_000, 3_000);
        let rs = |prior| RateSample {
            prior_delivered: prior,
            ..RateSample::default()
        };
        assert!(!m.is_app_limited(&rs(9_000)), "sent before PROBE_RTT");
        assert!(m.is_app_limited(&rs(10_000)));
        assert!(m.is_app_limited(&rs(14_000)));
        assert!(
            !m.is_app_limited(&rs(14_001)),
            "sent after the mark cleared"
        );
    }

    #[test]
    fn ack_aggregation_measures_data_acked_beyond_the_estimate() {
        let mut a = AckAggregation::default();
        let bw = Rate::from_bytes_per_sec(1e6); // 1000 bytes per ms
        let ms = Time::from_millis;
        a.update(ms(0), 1000, bw, 100_000, 1, 10, MSS);
        // 10 packets acknowledged at once 0.5 ms later: 11 000 bytes in an epoch in which
        // 500 were expected.
        a.update(Time::from_micros(500), 10_000, bw, 100_000, 1, 10, MSS);
        assert_eq!(a.extra_acked(), 10_500);
        assert_eq!(a.cwnd_allowance(1.0, bw, ms(100)), 10_500);
        // Capped by cwnd.
        a.update(Time::from_micros(600), 100_000, bw, 50_000, 1, 10, MSS);
        assert_eq!(a.extra_acked(), 50_000);
        // The allowance is capped at bw · 5 ms = 5000 bytes when asked.
        assert_eq!(a.cwnd_allowance(1.0, bw, ms(5)), 5000);
    }
}

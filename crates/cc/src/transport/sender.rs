//! The TCP sender core.
//!
//! It keeps one record per outstanding segment and turns what ACKs say into [`Feedback`] for
//! the controller:
//!
//! - **Loss detection with SACK** (RFC 6675 §4 `IsLost`): a segment is lost once `DupThresh`
//!   segments above it have been SACKed. Recovery starts at the first loss and ends when
//!   the cumulative ACK reaches the recovery point (the highest sequence sent at its start).
//!   DupThresh is Linux's reordering degree (`tp->reordering`): 3 (`tcp_reordering`) until a
//!   segment never retransmitted arrives below a later one SACKed, then that distance in
//!   segments (`tcp_check_sack_reordering`, at most `tcp_max_reordering` = 300).
//! - **Window growth** only on ACKs that advance the cumulative ACK while the reordering
//!   degree is at most 3 (Linux `tcp_may_raise_cwnd`, RFC 5681 §3.1): a SACK-only ACK
//!   delivers data but sets [`Feedback::growth_withheld`]. Each feedback also says whether the
//!   window was filled over the current window of data ([`Feedback::cwnd_use`], Linux
//!   `tcp_cwnd_validate`, [`super::cwnd_usage`]): a controller grows only a window the flow
//!   uses, not one the receiver's window or the application holds back (`tcp_is_cwnd_limited`).
//! - **Restart after idle** (RFC 5681 §4.1, RFC 2861; Linux `tcp_slow_start_after_idle_check`):
//!   a transmission with nothing outstanding more than an RTO after the last one tells the
//!   controller ([`IdleRestart`]), and window-based controllers restart their window as Linux's
//!   `tcp_cwnd_restart` ([`crate::window::RenoWindow::restart_after_idle`]).
//! - **Without SACK**: duplicate ACKs are counted as segments that left the network (Linux's
//!   "Reno SACK" emulation); the third one retransmits the head. NewReno (RFC 6582) retransmits
//!   the next hole on each partial ACK; Reno (RFC 5681) leaves recovery at the first new ACK.
//! - **Packets in flight** ("pipe", RFC 6675 §4; Linux `tcp_packets_in_flight`):
//!   `packets_out - (sacked_out + lost_out) + retrans_out`. A segment may be sent while
//!   `pipe < cwnd`; this is equivalent to RFC 5681's window inflation and includes limited
//!   transmit (RFC 3042), since SACKed or duplicate-ACKed segments leave the pipe at once. The
//!   fast retransmit that opens a recovery goes at once whatever the pipe (RFC 5681 §3.2 step
//!   2, RFC 6675 §5 step 3; PRR's first send where PRR governs).
//! - **Retransmission timer** (RFC 6298, [`RttEstimator`]): on expiry every un-SACKed segment is
//!   marked lost and resent in order as the window allows (go-back-N over the holes).
//! - **Proportional rate reduction** (RFC 6937, [`Prr`]): in SACK fast recovery the segments
//!   sent per ACK follow `prr_delivered`, `prr_out` and the controller's target window, unless
//!   the controller sets its own window in recovery (BBR, as Linux's `cong_control`).
//! - **Tail loss probes** (RFC 8985 §7, [`Tlp`]): in the Open state with data outstanding, a
//!   probe segment goes out when no ACK has come for about two round trips, so that a lost
//!   tail is repaired by fast recovery instead of the RTO. Its timer is one more deadline in
//!   [`SenderCore::next_timer`].
//! - **Delivery-rate sampling** (Linux `tcp_rate.c`): each segment remembers the connection's
//!   delivered count and times when it was sent; the most recently sent segment that an ACK
//!   delivers closes a sample over `max(send interval, ACK interval)`.
//! - **Pacing**: the controller's pacing rate is always honoured; window-based flows may ask
//!   for Linux-style pacing at `2·cwnd/srtt` in slow start and `1.2·cwnd/srtt` after.
//! - **Defences against a misbehaving receiver** ([`super::defence`], [`SenderConfig::defences`]):
//!   how much an ACK lets the window grow (per ACK, whole segments, or bytes with RFC 3465's
//!   limit), Savage et al.'s bound on duplicate ACKs, and the cumulative nonce check. An ACK may
//!   name a byte offset inside a segment ([`Ack::offset`]); the sender tracks it for the head
//!   segment and credits it per the defences, but a segment counts as delivered only whole.
//! - **Paced chirping** ([`super::chirp`], [`SenderConfig::startup`]): in place of the
//!   controller's start-up, new data leaves in chirps at the times the chirp schedule gives,
//!   whatever the window; the controller sees every ACK (its estimators stay warm) but its
//!   window governs only once the start-up hands it a window (or a loss, timeout or ECN echo
//!   ends chirping).

use super::app_source::AppSource;
use super::chirp::{Outcome, PacedChirping, Phase, Startup};
use super::cwnd_usage::CwndUsage;
use super::pacer::Pacer;
use super::prr::{Prr, ReductionBound};
use super::rack::Rack;
use super::tlp::{Probe, ProbeOutcome, Tlp};
use super::defence::{self, Acknowledged, Defences};
use super::recovery_rounds::RecoveryRounds;
use super::rtt::RttEstimator;
use super::{Ack, SackBlock};
use crate::config::{Cc, CcConfig};
use crate::controller::*;
use crate::rng::CcRng;
use crate::units::{Bytes, Rate, Time};
use std::collections::VecDeque;

/// Sender settings. Defaults follow Linux.
#[derive(Clone, Debug, PartialEq)]
pub struct SenderConfig {
    /// Payload bytes per segment.
    pub mss: Bytes,
    /// Initial window in segments (RFC 6928: 10).
    pub initial_window: u32,
    pub min_rto: Time,
    pub max_rto: Time,
    pub initial_rto: Time,
    /// Use SACK-based loss recovery (RFC 6675). Off: a cumulative-ACK-only TCP.
    pub sack: bool,
    /// RFC 5681's DupThresh, and with SACK the initial reordering degree (Linux's
    /// `tcp_reordering` sysctl, 3), which reordering seen on the path raises.
    pub dupthresh: u32,
    /// Limited transmit (RFC 3042): segments SACKed or duplicate-ACKed before recovery leave
    /// the pipe, so new data may go out on the first two duplicate ACKs.
    pub limited_transmit: bool,
    /// RACK time-based loss detection (RFC 8985), on with SACK as in Linux.
    pub rack: bool,
    /// Proportional rate reduction (RFC 6937) in SACK fast recovery, on as in Linux. Off: send
    /// while the pipe is below the controller's window (RFC 6675's rule, except that the fast
    /// retransmit too waits for the pipe to fall below it).
    pub prr: bool,
    /// Tail loss probes (RFC 8985 §7), with SACK, on as in Linux (`tcp_early_retrans` = 3).
    pub tlp: bool,
    /// The receiver's advertised window in bytes.
    pub rwnd: Bytes,
    /// Pace window-based flows too (Linux `sk_pacing_rate` ratios 200 % / 120 %).
    pub pace_window: bool,
    /// Send ECN-capable (ECT(0)) packets.
    pub ecn: bool,
    /// Bytes to transfer; `None` for a bulk flow that always has data.
    pub data_limit: Option<Bytes>,
    /// The application's write rate (iperf3's `-b`): it hands the sender one segment every
    /// mss / rate from the first send ([`super::app_source`]). `None`: the application always
    /// has data.
    pub app_rate: Option<Rate>,
    /// Defences against a misbehaving receiver (default: Linux's, as before they were
    /// switchable).
    pub defences: Defences,
    /// How the flow starts: the controller's own start-up, or paced chirping.
    pub startup: Startup,
    /// Tell the controller whether the window was filled ([`CwndUse`], Linux
    /// `tcp_cwnd_validate`), so that it grows only a window the flow uses, as every Linux
    /// `cong_avoid` does (`tcp_is_cwnd_limited`). On by default. Off: every ACK may grow the
    /// window whatever limits the flow (the receiver's window, a slow application), as in
    /// ns-2's agents and RFC 5681's text.
    pub cwnd_limited_growth: bool,
}

impl Default for SenderConfig {
    fn default() -> Self {
        SenderConfig {
            mss: 1448,
            initial_window: 10,
            min_rto: Time::from_millis(200),
            max_rto: Time::from_secs(120),
            initial_rto: Time::from_secs(1),
            sack: true,
            dupthresh: 3,
            limited_transmit: true,
            rack: true,
            prr: true,
            tlp: true,
            rwnd: 64 << 20,
            pace_window: false,
            ecn: false,
            data_limit: None,
            app_rate: None,
            defences: Defences::default(),
            startup: Startup::Controller,
            cwnd_limited_growth: true,
        }
    }
}

impl SenderConfig {
    /// Payload bytes per segment: Linux's `TCP_MIN_MSS` (88) up to what fits a 64 KiB IP
    /// packet with our 52 bytes of headers.
    pub const MSS: std::ops::RangeInclusive<Bytes> = 88..=65_483;
    /// The initial window, segments (RFC 6928's 10 by default; Linux takes any route value,
    /// this caps it at a size no sender uses).
    pub const INITIAL_WINDOW: std::ops::RangeInclusive<u32> = 1..=100_000;
    /// The RTO's floor: above zero (Linux's `tcp_rto_min_us` takes 1 µs and up) and at most
    /// the 120 s ceiling (`TCP_RTO_MAX`).
    pub const MIN_RTO: std::ops::RangeInclusive<Time> = Time::from_micros(1)..=Time::from_secs(120);
    /// The receive window, bytes: Linux's largest with window scaling (2^30).
    pub const RWND_MAX: Bytes = 1 << 30;
}

/// Every field in its range, named as in a scenario's flow table (`mss`, `initial_window`,
/// `min_rto`, `rwnd`, `size`).
impl crate::check::Validate for SenderConfig {
    fn validate(&self) -> Result<(), String> {
        use crate::check::{ordered, within};
        within("mss", self.mss, Self::MSS)?;
        within("initial_window", self.initial_window, Self::INITIAL_WINDOW)?;
        within("min_rto", self.min_rto, Self::MIN_RTO)?;
        within("max_rto", self.max_rto, Time::from_micros(1)..=Time::from_secs(3600))?;
        ordered("min_rto", self.min_rto, "max_rto", self.max_rto)?;
        within("initial_rto", self.initial_rto, self.min_rto..=self.max_rto)?;
        within("dupthresh", self.dupthresh, 1..=1000)?;
        within("rwnd", self.rwnd, self.mss..=Self::RWND_MAX)?;
        if let Some(size) = self.data_limit {
            within("size", size, 1..)?;
        }
        if let Some(r) = self.app_rate {
            // At most one segment per nanosecond, the clock's resolution.
            within("app_rate (bit/s)", r.bits_per_sec(), crate::check::above(0.0, self.mss as f64 * 8e9))?;
        }
        self.startup.validate().map_err(|e| format!("startup.{e}"))
    }
}

/// Counters a sender keeps over its lifetime.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SenderStats {
    /// Data segments transmitted, retransmissions included.
    pub segments_sent: u64,
    /// Payload bytes transmitted, retransmissions included.
    pub bytes_sent: Bytes,
    pub retransmits: u64,
    pub retransmitted_bytes: Bytes,
    pub timeouts: u64,
    /// Of `timeouts`, those that fired with no loss known (Open or CWR state): a lost tail of
    /// the flight, which tail loss probes exist to repair.
    pub tail_timeouts: u64,
    /// Recovery episodes entered (fast recovery or RTO), each counted once.
    pub loss_episodes: u64,
    /// Segments declared lost.
    pub lost_segments: u64,
    /// Payload bytes acknowledged (cumulatively or by SACK), each counted once.
    pub bytes_delivered: Bytes,
    pub ece_acks: u64,
    /// Window reductions caused by ECN echoes.
    pub ecn_reductions: u64,
    /// Tail loss probes sent (Linux `TCPLossProbes`).
    pub tlp_probes: u64,
    /// Probe episodes that repaired a loss (Linux `TCPLossProbeRecovery`).
    pub tlp_recoveries: u64,
    /// ACKs that acknowledged part of a segment (a byte offset beyond the one before).
    pub partial_acks: u64,
    /// ACKs dropped because their nonce sum was wrong (the `nonce` defence).
    pub nonce_failures: u64,
    /// Duplicate ACKs not counted as departures (the `dupack_limit` defence).
    pub dupacks_ignored: u64,
    /// Fast recovery's retransmissions per round trip (SACK repairs several holes in one,
    /// NewReno one per partial ACK).
    pub recovery_rounds: RecoveryRounds,
}

/// A segment to put on the wire.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Transmit {
    pub seq: u64,
    pub len: Bytes,
    pub is_retransmission: bool,
    pub ecn_capable: bool,
}

/// Where the sender is in loss recovery (Linux's `Open`, `Recovery` and `Loss` CA states).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RecoveryState {
    Open,
    /// Congestion window reduction after an ECN echo (RFC 3168 §6.1.2): the window is held
    /// until the data outstanding at the echo is acknowledged.
    Cwr,
    /// Fast recovery after a loss found by SACK or duplicate ACKs.
    Recovery,
    /// Recovery after a retransmission timeout: the window restarts from one segment.
    Loss,
}

impl RecoveryState {
    /// Linux's name for the state (`tcp_ca_state`), as flowgrind's "ca state" column prints it.
    pub fn name(self) -> &'static str {
        match self {
            RecoveryState::Open => "open",
            RecoveryState::Cwr => "cwr",
            RecoveryState::Recovery => "recovery",
            RecoveryState::Loss => "loss",
        }
    }
}

const SACKED: u8 = 1;
const LOST: u8 = 2;
/// A retransmission of this segment is in flight.
const RETRANS: u8 = 4;
const EVER_RETRANS: u8 = 8;
const APP_LIMITED: u8 = 16;

/// The highest reordering degree the sender takes, in segments (Linux's `tcp_max_reordering`
/// sysctl default).
const MAX_REORDERING: u64 = 300;

/// The record of one outstanding segment.
#[derive(Copy, Clone, Debug, Default)]
struct Seg {
    sent_time: Time,
    /// Rate-sampler snapshot at the last transmission.
    delivered: Bytes,
    delivered_time: Time,
    first_sent_time: Time,
    tx_in_flight: Bytes,
    lost_at_send: Bytes,
    flags: u8,
}

/// The delivery-rate sampler's connection state (`tcp_rate.c` names).
#[derive(Clone, Debug, Default)]
struct RateState {
    delivered: Bytes,
    delivered_time: Time,
    first_sent_time: Time,
    /// Delivered count below which samples are application-limited (0 = not limited).
    app_limited: Bytes,
    lost: Bytes,
}

/// The best candidate for this ACK's rate sample: the most recently sent segment delivered.
#[derive(Copy, Clone, Debug)]
struct RateCandidate {
    seg: Seg,
}

/// What an accepted ACK's byte offset acknowledges inside the head segment.
struct Credit {
    /// Bytes newly acknowledged by the offset.
    partial_bytes: Bytes,
    /// Bytes of the head that earlier partial ACKs had acknowledged.
    already_credited: Bytes,
    /// The ACK acknowledges part of the head and no whole segment.
    partial: bool,
}

/// The sans-I/O TCP sender.
#[derive(Clone, Debug)]
pub struct SenderCore {
    cfg: SenderConfig,
    /// The receiver's advertised window from the latest ACK, in segments beyond `snd_una`
    /// (`snd_wnd`; `None` until an ACK advertises one).
    peer_window: Option<u64>,
    cc: Cc,
    rng: CcRng,
    events: EventLog,
    /// Oldest unacknowledged segment.
    snd_una: u64,
    /// Next new segment to send.
    snd_nxt: u64,
    segs: VecDeque<Seg>,
    /// Segments in the whole transfer (`u64::MAX` for a bulk flow) and the last one's length.
    total_segs: u64,
    /// A rate-limited application's writes (`None`: it always has data).
    app: Option<AppSource>,
    last_len: Bytes,
    sacked_out: u64,
    lost_out: u64,
    retrans_out: u64,
    /// Highest SACKed segment + 1 (or snd_una).
    highest_sacked: u64,
    /// The reordering degree in segments (Linux `tp->reordering`), DupThresh with SACK: see
    /// `note_reordering`.
    reordering: u64,
    /// Segments below this were checked by `IsLost`.
    lost_scan: u64,
    /// No lost, not-yet-retransmitted segment lies below this.
    retx_hint: u64,
    dupacks: u32,
    state: RecoveryState,
    /// Recovery (fast or RTO) lasts until the cumulative ACK reaches this segment.
    recovery_point: u64,
    prev_sack: [SackBlock; super::MAX_SACK_BLOCKS],
    prev_n_sack: usize,
    rack: Rack,
    /// Proportional rate reduction, while it governs a fast recovery.
    prr: Option<Prr>,
    /// A fast recovery PRR does not govern has begun and its fast retransmit has not gone yet:
    /// it goes whatever the window (RFC 5681 §3.2 step 2, "the lost segment ... MUST be
    /// retransmitted"; RFC 6675 §5 step 3; Linux's `tcp_cwnd_reduction` lets it out with
    /// `fast_rexmit`). New data waits for `pipe < cwnd`.
    fast_rexmit_due: bool,
    /// The window PRR allows in segments (Linux writes `pipe + sndcnt` into `snd_cwnd`).
    prr_window: u64,
    tlp: Tlp,
    rtt: RttEstimator,
    rto_deadline: Option<Time>,
    rate: RateState,
    pacer: Pacer,
    last_send: Option<Time>,
    stats: SenderStats,
    /// Bytes of segment `snd_una` acknowledged by byte offsets (partial ACKs).
    una_offset: Bytes,
    /// The nonce key (secret to the receiver) and the sum of the nonces below `snd_una`.
    nonce_key: u64,
    nonce_sum_una: u32,
    /// Paced chirping, until it hands over to the controller.
    chirp: Option<PacedChirping>,
    /// Whether the window was filled over the current window of data.
    cwnd_usage: CwndUsage,
}

impl SenderCore {
    pub fn new(cfg: SenderConfig, cc_config: &CcConfig, rng: CcRng) -> SenderCore {
        let cc = cc_config.build(CcInit { mss: cfg.mss, initial_cwnd: cfg.initial_window as Bytes * cfg.mss });
        SenderCore::with_controller(cfg, cc, rng)
    }

    /// A sender driving an already-built controller (also a user-defined `Cc::Custom`).
    pub fn with_controller(mut cfg: SenderConfig, cc: Cc, rng: CcRng) -> SenderCore {
        assert!(cfg.mss > 0, "mss must be positive");
        cfg.ecn |= cc.needs_ecn();
        let (total_segs, last_len) = match cfg.data_limit {
            None => (u64::MAX, cfg.mss),
            Some(0) => (0, cfg.mss),
            Some(b) => {
                let n = b.div_ceil(cfg.mss);
                (n, b - (n - 1) * cfg.mss)
            }
        };
        // A copy of the generator draws the key: the controller's stream is untouched.
        let nonce_key = crate::rng::RngCore::next_u64(&mut rng.clone());
        let chirp = match &cfg.startup {
            Startup::PacedChirping(c) if cc.takes_startup_handover() => Some(PacedChirping::new(c, cfg.mss)),
            _ => None,
        };
        SenderCore {
            chirp,
            cwnd_usage: CwndUsage::default(),
            una_offset: 0,
            nonce_key,
            nonce_sum_una: 0,
            rtt: RttEstimator::new(cfg.initial_rto, cfg.min_rto, cfg.max_rto),
            cc,
            rng,
            events: EventLog::disabled(),
            snd_una: 0,
            snd_nxt: 0,
            segs: VecDeque::new(),
            total_segs,
            app: cfg.app_rate.map(|r| AppSource::new(r, cfg.mss)),
            last_len,
            sacked_out: 0,
            lost_out: 0,
            retrans_out: 0,
            highest_sacked: 0,
            reordering: cfg.dupthresh as u64,
            lost_scan: 0,
            retx_hint: 0,
            dupacks: 0,
            state: RecoveryState::Open,
            recovery_point: 0,
            prev_sack: Default::default(),
            prev_n_sack: 0,
            rack: Rack::default(),
            prr: None,
            fast_rexmit_due: false,
            prr_window: 0,
            tlp: Tlp::default(),
            rto_deadline: None,
            rate: RateState::default(),
            pacer: Pacer::default(),
            last_send: None,
            stats: SenderStats::default(),
            peer_window: None,
            cfg,
        }
    }

    /// The three-way handshake's RTT sample: a connection starts sending data with an RTT
    /// estimate (RFC 6298 §2.2 takes the first sample from the SYN exchange), so a path whose RTT
    /// exceeds the 1 s initial RTO does not start with a spurious timeout.
    pub fn on_handshake(&mut self, rtt: Time) {
        self.rtt.on_sample(rtt);
    }

    /// Record controller events (state changes) for traces.
    pub fn enable_events(&mut self) {
        self.events = EventLog::enabled();
    }

    pub fn events(&self) -> &[CcEvent] {
        self.events.events()
    }

    pub fn config(&self) -> &SenderConfig {
        &self.cfg
    }
    pub fn controller(&self) -> &Cc {
        &self.cc
    }
    pub fn stats(&self) -> &SenderStats {
        &self.stats
    }
    pub fn rtt(&self) -> RttStats {
        self.rtt.stats()
    }
    pub fn rto(&self) -> Time {
        self.rtt.rto()
    }
    /// Timeouts since the last RTT sample, each doubling the RTO (Linux `icsk_backoff`,
    /// TCP_INFO's `tcpi_backoff`). It stops counting once the RTO reaches its cap, where Linux's
    /// keeps counting (up to tcp_retries2); the two agree until then.
    pub fn rto_backoff(&self) -> u32 {
        self.rtt.backoff()
    }
    /// The path's reordering degree in segments, DupThresh with SACK (Linux `tp->reordering`,
    /// TCP_INFO's `tcpi_reordering`).
    pub fn reordering(&self) -> u64 {
        self.reordering
    }
    pub fn snd_una(&self) -> u64 {
        self.snd_una
    }
    pub fn snd_nxt(&self) -> u64 {
        self.snd_nxt
    }
    /// In fast recovery or an ECN window reduction (the window is being reduced).
    pub fn in_recovery(&self) -> bool {
        matches!(self.state, RecoveryState::Recovery | RecoveryState::Cwr)
    }
    pub fn recovery_state(&self) -> RecoveryState {
        self.state
    }
    pub fn sacked_out(&self) -> u64 {
        self.sacked_out
    }
    pub fn lost_out(&self) -> u64 {
        self.lost_out
    }
    pub fn retrans_out(&self) -> u64 {
        self.retrans_out
    }
    pub fn packets_out(&self) -> u64 {
        self.snd_nxt - self.snd_una
    }
    /// The application writes at `rate` from `now` on (`None`: it always has data from now).
    /// What a rate-limited application wrote before and the sender has not sent stays to be
    /// sent; an application that always had data leaves none behind (its writes kept up with
    /// the sender, no further).
    pub fn set_app_rate(&mut self, now: Time, rate: Option<Rate>) {
        self.app_advance(now);
        let written = if self.app.is_some() { self.segments_written() } else { self.snd_nxt };
        self.app = rate.map(|r| AppSource::resuming(r, self.cfg.mss, now, written));
    }

    /// Ends a bulk transfer where it stands, as a timed run ends (iperf3's `-t`): no new
    /// segment after those already sent, and the transfer is complete once all of them are
    /// acknowledged (lost ones are still retransmitted). A finite transfer whose last segment
    /// has gone out is unchanged.
    pub fn end_stream(&mut self) {
        if self.total_segs > self.snd_nxt {
            self.total_segs = self.snd_nxt;
            self.last_len = self.cfg.mss;
        }
    }

    /// The nonce segment `seq` carries (0 when the `nonce` defence is off).
    pub fn nonce(&self, seq: u64) -> u32 {
        if self.cfg.defences.nonce {
            defence::nonce(self.nonce_key, seq)
        } else {
            0
        }
    }

    /// Every byte of a finite transfer has been acknowledged.
    pub fn is_complete(&self) -> bool {
        self.snd_una >= self.total_segs
    }

    /// Packets in flight ("pipe"): `packets_out - (sacked_out + lost_out) + retrans_out`.
    pub fn in_flight(&self) -> u64 {
        let left =
            if self.cfg.limited_transmit || self.state != RecoveryState::Open { self.sacked_out } else { 0 };
        (self.packets_out() + self.retrans_out).saturating_sub(left + self.lost_out)
    }

    pub fn bytes_in_flight(&self) -> Bytes {
        self.in_flight() * self.cfg.mss
    }

    fn seg_len(&self, seq: u64) -> Bytes {
        if seq + 1 == self.total_segs {
            self.last_len
        } else {
            self.cfg.mss
        }
    }

    #[inline]
    fn seg(&self, seq: u64) -> &Seg {
        &self.segs[(seq - self.snd_una) as usize]
    }
    #[inline]
    fn seg_mut(&mut self, seq: u64) -> &mut Seg {
        &mut self.segs[(seq - self.snd_una) as usize]
    }

    fn ctx(&mut self, now: Time) -> (&mut Cc, Ctx<'_>) {
        let bytes_in_flight = self.bytes_in_flight();
        let ctx = Ctx {
            now,
            rtt: self.rtt.stats(),
            mss: self.cfg.mss,
            bytes_in_flight,
            paced: self.cfg.pace_window,
            rng: &mut self.rng,
            events: &mut self.events,
        };
        (&mut self.cc, ctx)
    }

    /// The controller's decision, with the pacing rate that applies (the controller's own, or
    /// Linux-style pacing of a window when `pace_window` is set).
    pub fn control(&self) -> Control {
        if let Some(Phase::Transition { rate, window, .. }) = self.chirp.as_ref().map(PacedChirping::phase) {
            return Control { cwnd: Some(window * self.cfg.mss), pacing_rate: Some(rate), quantum: self.cfg.mss };
        }
        let mut c = self.cc.control();
        if c.pacing_rate.is_none() && self.cfg.pace_window {
            if let (Some(cwnd), Some(srtt)) = (c.cwnd, self.rtt.stats().srtt) {
                let snap = self.cc.snapshot();
                let ratio = match snap.ssthresh {
                    Some(ss) if cwnd < ss / 2 => 2.0,
                    _ => 1.2,
                };
                c.pacing_rate = Some(Rate::from_delivery(cwnd, srtt).scale(ratio));
            }
        }
        c
    }

    /// The receiver's window in segments: the sender's `rwnd`, and the window the receiver
    /// last advertised where it advertises one.
    fn rwnd_segments(&self) -> u64 {
        let own = (self.cfg.rwnd / self.cfg.mss).max(1);
        // A zero window counts as one segment: no persist timer is modelled, and the sender's
        // RTO probes with the oldest segment anyway.
        self.peer_window.map_or(own, |w| own.min(w.max(1)))
    }

    /// The effective window in segments: `min(cwnd, rwnd)`.
    fn window_segments(&self, c: &Control) -> u64 {
        let rwnd = self.rwnd_segments();
        match c.cwnd {
            Some(cwnd) => (cwnd / self.cfg.mss).max(1).min(rwnd),
            None => rwnd,
        }
    }

    /// The window the sender fills, in segments: PRR's during a fast recovery it governs,
    /// else `min(cwnd, rwnd)`.
    fn send_window(&self, c: &Control) -> u64 {
        match self.prr {
            Some(_) if self.state == RecoveryState::Recovery => {
                self.prr_window.min(self.rwnd_segments())
            }
            // Only the retransmission may pass: next_segment takes a lost segment first.
            _ if self.fast_rexmit_due && self.lost_out > self.retrans_out => self.window_segments(c).max(self.in_flight() + 1),
            _ => self.window_segments(c),
        }
    }

    /// The packets in flight have reached the congestion window (Linux `tcp_packets_in_flight
    /// ≥ snd_cwnd`, where PRR writes its window into `snd_cwnd` during a recovery it governs).
    /// The receiver's window does not count: a flow it holds back is not cwnd-limited. Without
    /// a window (a rate-based controller), or with the check off, it is always filled.
    fn cwnd_filled(&self, c: &Control) -> bool {
        if !self.cfg.cwnd_limited_growth {
            return true;
        }
        let cwnd = match self.prr {
            Some(_) if self.state == RecoveryState::Recovery => Some(self.prr_window),
            _ => c.cwnd.map(|w| (w / self.cfg.mss).max(1)),
        };
        cwnd.is_none_or(|w| self.in_flight() >= w)
    }

    /// Whether PRR governs a fast recovery: SACK on, PRR on, and a window-based controller
    /// that leaves its recovery window to the sender (Linux: no `cong_control` hook).
    fn prr_applies(&self) -> bool {
        self.cfg.prr && self.cfg.sack && !self.cc.sets_recovery_window() && self.cc.control().cwnd.is_some()
    }

    /// The next segment to send if the window allows: the lowest lost segment not yet
    /// retransmitted (RFC 6675 NextSeg rule 1), else new data within the receiver window.
    fn next_segment(&mut self) -> Option<(u64, bool)> {
        if self.lost_out > self.retrans_out {
            let mut seq = self.retx_hint.max(self.snd_una);
            while seq < self.snd_nxt {
                let f = self.seg(seq).flags;
                if f & LOST != 0 && f & RETRANS == 0 {
                    self.retx_hint = seq;
                    return Some((seq, true));
                }
                seq += 1;
            }
            self.retx_hint = self.snd_nxt;
        }
        self.new_data_allowed().then_some((self.snd_nxt, false))
    }

    /// A new segment remains and the receiver window has room for it.
    fn new_data_allowed(&self) -> bool {
        self.snd_nxt < self.segments_written() && self.snd_nxt - self.snd_una < self.rwnd_segments()
    }

    /// Segments the application has handed over so far: the whole transfer, or what a
    /// rate-limited application has written of it.
    fn segments_written(&self) -> u64 {
        self.app.as_ref().map_or(self.total_segs, |a| a.written().min(self.total_segs))
    }

    /// Brings a rate-limited application's writes up to `now`.
    fn app_advance(&mut self, now: Time) {
        if let Some(a) = &mut self.app {
            a.advance(now);
        }
    }

    /// When a rate-limited application writes the next segment, if the sender is waiting for
    /// nothing else: everything written is sent, more remains, and the windows have room (the
    /// controller's window `c`; `None` while paced chirping, which it does not govern).
    fn app_next_write(&self, c: Option<&Control>) -> Option<Time> {
        let a = self.app.as_ref()?;
        let window_room = c.is_none_or(|c| self.lost_out <= self.retrans_out && self.in_flight() < self.send_window(c));
        let waiting = self.snd_nxt == self.segments_written()
            && self.snd_nxt < self.total_segs
            && window_room
            && self.snd_nxt - self.snd_una < self.rwnd_segments();
        waiting.then(|| a.next_write()).flatten()
    }

    /// Whether the sender has a segment it may send now, ignoring pacing; and if it is
    /// blocked only by pacing, when it may send.
    pub fn poll_transmit(&mut self, now: Time) -> Option<Transmit> {
        self.app_advance(now);
        let c = self.control();
        if let Some(probe) = self.tlp.pending.take() {
            if let Some(t) = self.send_probe(now, probe, &c) {
                return Some(t);
            }
        }
        if self.chirping() {
            return self.send_chirp_packet(now, &c);
        }
        if self.in_flight() >= self.send_window(&c) {
            return None;
        }
        let (seq, is_retx) = self.next_segment()?;
        let len = self.seg_len(seq);
        if let Some(rate) = c.pacing_rate {
            if rate.bytes_per_sec() > 0.0 && self.pacer.release_time(now, len, rate, c.quantum) > now {
                return None;
            }
        }
        self.on_transmit(now, seq, len, is_retx, &c);
        Some(Transmit { seq, len, is_retransmission: is_retx, ecn_capable: self.cfg.ecn })
    }

    /// Whether the window and the data would let a segment out (ignoring pacing).
    pub fn has_sendable(&mut self) -> bool {
        if self.chirping() {
            return self.tlp.pending.is_some() || self.chirp_release().is_some();
        }
        let c = self.control();
        self.tlp.pending.is_some() || (self.in_flight() < self.send_window(&c) && self.next_segment().is_some())
    }

    /// When the pacer will let the next segment out, if the sender is waiting only for it.
    /// Or, behind a rate-limited application, when it writes the next segment.
    pub fn next_send_time(&mut self, now: Time) -> Option<Time> {
        self.app_advance(now);
        if self.chirping() {
            return self.chirp_release().or_else(|| self.app_next_write(None)).map(|t| t.max(now));
        }
        let c = self.control();
        if let Some(t) = self.app_next_write(Some(&c)) {
            return Some(t.max(now));
        }
        let rate = c.pacing_rate.filter(|r| r.bytes_per_sec() > 0.0)?;
        if self.in_flight() >= self.send_window(&c) {
            return None;
        }
        let (seq, _) = self.next_segment()?;
        Some(self.pacer.release_time(now, self.seg_len(seq), rate, c.quantum))
    }

    /// Paced chirping is sending chirps (it has not reached its transition).
    fn chirping(&self) -> bool {
        self.chirp.as_ref().is_some_and(|c| c.phase() == Phase::Chirping)
    }

    /// When chirping lets the next new segment out, if there is one.
    fn chirp_release(&self) -> Option<Time> {
        if !self.new_data_allowed() {
            return None;
        }
        self.chirp.as_ref()?.release_time()
    }

    /// The next new segment as a chirp packet, if its time has come. The controller's window
    /// does not apply; the pacer is not charged (the chirp schedule is the pacing).
    fn send_chirp_packet(&mut self, now: Time, c: &Control) -> Option<Transmit> {
        if self.chirp_release()? > now {
            return None;
        }
        let (seq, srtt) = (self.snd_nxt, self.rtt.stats().srtt);
        let len = self.seg_len(seq);
        let last = seq + 1 >= self.total_segs;
        if let Some(chirp) = &mut self.chirp {
            chirp.on_sent(now, seq, srtt);
            if last {
                chirp.close_chirp();
            }
        }
        self.on_transmit(now, seq, len, false, &Control { pacing_rate: None, ..*c });
        Some(Transmit { seq, len, is_retransmission: false, ecn_capable: self.cfg.ecn })
    }

    /// Paced chirping after an ACK (or a loss found by a timer): a congestion signal ends it
    /// with the packets in flight as the window; otherwise the chirps' analysis may.
    fn startup_on_feedback(&mut self, now: Time, fb: &Feedback) {
        let in_flight = self.in_flight();
        let (snd_una, rtt) = (self.snd_una, self.rtt.stats());
        let Some(chirp) = &mut self.chirp else { return };
        let outcome = if fb.new_episode || fb.lost_packets > 0 {
            Outcome::HandOver(chirp.handover_window(in_flight))
        } else {
            chirp.on_ack(snd_una, fb.acked_packets as u64, in_flight, rtt.srtt, rtt.min_rtt)
        };
        if let Outcome::HandOver(cwnd) = outcome {
            self.hand_over(now, cwnd);
        }
    }

    /// The start-up is over: the controller continues from `cwnd`.
    fn hand_over(&mut self, now: Time, cwnd: Bytes) {
        self.chirp = None;
        self.events.record(CcEvent::StateChange { at: now, from: "chirping", to: "cong_avoid" });
        let (cc, mut ctx) = self.ctx(now);
        cc.on_startup_handover(cwnd, &mut ctx);
    }

    fn on_transmit(&mut self, now: Time, seq: u64, len: Bytes, is_retx: bool, c: &Control) {
        if self.packets_out() == 0 {
            // tcp_rate_skb_sent: a new flight starts the sampler's clocks afresh.
            self.rate.first_sent_time = now;
            self.rate.delivered_time = now;
            if let Some(last) = self.last_send {
                if now - last > self.rtt.rto() {
                    let restart = IdleRestart { idle: now - last, rto: self.rtt.rto(), initial_window: self.cfg.initial_window as Bytes * self.cfg.mss };
                    let (cc, mut ctx) = self.ctx(now);
                    cc.on_idle_restart(&restart, &mut ctx);
                }
            }
        }
        if self.in_flight() == 0 {
            // tcp_event_data_sent: CA_EVENT_TX_START, after CA_EVENT_CWND_RESTART as in Linux.
            let tx = TxStart { idle: self.last_send.map_or(Time::ZERO, |last| now - last), app_limited: self.rate.app_limited > 0 };
            let (cc, mut ctx) = self.ctx(now);
            cc.on_tx_start(&tx, &mut ctx);
        }
        let in_flight_after = (self.in_flight() + 1) * self.cfg.mss;
        let app_limited_flag = if self.rate.app_limited > 0 { APP_LIMITED } else { 0 };
        let rec = Seg {
            sent_time: now,
            delivered: self.rate.delivered,
            delivered_time: self.rate.delivered_time,
            first_sent_time: self.rate.first_sent_time,
            tx_in_flight: in_flight_after,
            lost_at_send: self.rate.lost,
            flags: app_limited_flag,
        };
        if is_retx {
            self.fast_rexmit_due = false;
            let s = self.seg_mut(seq);
            s.flags = (s.flags & (LOST | SACKED)) | RETRANS | EVER_RETRANS | app_limited_flag;
            let flags = s.flags;
            *s = Seg { flags, ..rec };
            self.retrans_out += 1;
            self.retx_hint = seq + 1;
            if self.cfg.rack && self.cfg.sack {
                self.rack.retransmissions.push_back((seq, now));
            }
            self.stats.retransmits += 1;
            self.stats.retransmitted_bytes += len;
            if self.state == RecoveryState::Recovery {
                self.stats.recovery_rounds.on_retransmit();
            }
            if seq == self.snd_una {
                // tcp_xmit_retransmit_queue: retransmitting the head restarts the RTO, so the
                // retransmission has a full RTO for its own ACK (or for RACK to find it lost).
                self.rto_deadline = Some(now + self.rtt.rto());
            }
        } else {
            debug_assert_eq!(seq, self.snd_nxt);
            self.segs.push_back(rec);
            self.snd_nxt += 1;
        }
        self.stats.segments_sent += 1;
        self.stats.bytes_sent += len;
        if let Some(rate) = c.pacing_rate {
            if rate.bytes_per_sec() > 0.0 {
                self.pacer.on_send(now, len, rate, c.quantum);
            }
        }
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(now + self.rtt.rto());
        }
        if let Some(prr) = &mut self.prr {
            prr.on_send(1);
        }
        if !is_retx {
            // tcp_write_xmit: sending new data (re)schedules the loss probe.
            self.arm_probe(now);
        }
        self.last_send = Some(now);
        // tcp_write_xmit's `is_cwnd_limited |= tcp_packets_in_flight >= snd_cwnd`, then
        // tcp_cwnd_validate.
        let filled = self.cwnd_filled(c);
        self.cwnd_usage.on_transmit(filled, self.snd_una, self.snd_nxt, self.packets_out());
        // Application-limited (tcp_rate_check_app_limited): everything written is sent, the
        // window is not full, and every lost segment has been retransmitted.
        if self.snd_nxt >= self.segments_written()
            && self.in_flight() < self.send_window(c)
            && self.lost_out <= self.retrans_out
        {
            self.rate.app_limited = (self.rate.delivered + self.bytes_in_flight()).max(1);
        }
        let sent = Sent {
            bytes: len,
            is_retransmission: is_retx,
            in_flight: self.bytes_in_flight(),
            app_limited: self.rate.app_limited > 0,
        };
        let (cc, mut ctx) = self.ctx(now);
        cc.on_sent(&sent, &mut ctx);
    }

    /// Arms (or re-arms) the tail loss probe if the sender is where Linux probes: SACK on, data
    /// outstanding, Open or CWR (`tcp_schedule_loss_probe`); otherwise stops it.
    fn arm_probe(&mut self, now: Time) {
        let eligible = self.cfg.tlp
            && self.cfg.sack
            && self.packets_out() > 0
            && matches!(self.state, RecoveryState::Open | RecoveryState::Cwr);
        if eligible {
            let srtt = self.rtt.stats().srtt;
            self.tlp.arm(now, srtt, self.packets_out(), self.cfg.min_rto, self.rto_deadline);
        } else {
            self.tlp.deadline = None;
        }
    }

    /// RFC 8985 §7.3 (`tcp_send_loss_probe`): one segment whatever the congestion window says,
    /// new data if the receiver window allows, else the highest outstanding segment again.
    fn send_probe(&mut self, now: Time, probe: Probe, c: &Control) -> Option<Transmit> {
        let (seq, is_retx) = match probe {
            Probe::NewData if self.new_data_allowed() => (self.snd_nxt, false),
            Probe::NewData => (self.highest_unsacked()?, true),
            Probe::Retransmit(seq) => {
                let current = seq >= self.snd_una && seq < self.snd_nxt && self.seg(seq).flags & (SACKED | RETRANS) == 0;
                (if current { seq } else { self.highest_unsacked()? }, true)
            }
        };
        let len = self.seg_len(seq);
        let high = if is_retx { self.snd_nxt } else { self.snd_nxt + 1 };
        self.tlp.on_probe_sent(high, is_retx);
        self.stats.tlp_probes += 1;
        self.on_transmit(now, seq, len, is_retx, c);
        // tcp_send_loss_probe re-arms the RTO a full RTO from the probe.
        self.rto_deadline = Some(now + self.rtt.rto());
        Some(Transmit { seq, len, is_retransmission: is_retx, ecn_capable: self.cfg.ecn })
    }

    /// The highest outstanding segment that is neither SACKed nor already being retransmitted.
    fn highest_unsacked(&self) -> Option<u64> {
        (self.snd_una..self.snd_nxt).rev().find(|&q| self.seg(q).flags & (SACKED | RETRANS) == 0)
    }

    /// The earliest time the sender needs [`on_timer`](Self::on_timer): the RTO, the tail loss
    /// probe or RACK's reorder timer. (Window-based controllers need no timer of their own:
    /// the rate-based protocols, which do, are datagram senders with their own timers.)
    pub fn next_timer(&self) -> Option<Time> {
        [self.rto_deadline, self.rack.timer, self.tlp.deadline].into_iter().flatten().min()
    }

    pub fn on_timer(&mut self, now: Time) {
        if self.rack.timer.is_some_and(|t| t <= now) {
            // RFC 8985 §6.3: the reorder timer expired; look again.
            self.rack.timer = None;
            let mut fb = Feedback { prior_in_flight: self.bytes_in_flight(), ..Feedback::default() };
            let (lost_before, retx_lost) = (self.lost_out, self.rack_detect(now));
            self.account_losses(self.lost_out - lost_before + retx_lost, &mut fb);
            if fb.lost_packets > 0 {
                fb.in_recovery = self.in_recovery();
                fb.delivered = self.rate.delivered;
                fb.cwnd_use = self.cwnd_usage.cwnd_use(self.cfg.mss);
                self.startup_on_feedback(now, &fb);
                let (cc, mut ctx) = self.ctx(now);
                cc.on_feedback(&fb, &mut ctx);
                if fb.new_episode {
                    // tcp_rack_reo_timeout: entering recovery counts one segment delivered.
                    self.prr_update(1, false);
                }
            }
        }
        if self.tlp.deadline.is_some_and(|t| t <= now) {
            // The probe timeout fired (it is never later than the RTO, which a probe re-arms).
            self.tlp.deadline = None;
            if self.packets_out() > 0 && matches!(self.state, RecoveryState::Open | RecoveryState::Cwr) {
                let new_data = self.snd_nxt < self.total_segs;
                self.tlp.pending = match (new_data, self.highest_unsacked()) {
                    (true, _) => Some(Probe::NewData),
                    (false, Some(seq)) => Some(Probe::Retransmit(seq)),
                    (false, None) => None,
                };
                if self.tlp.pending.is_some() {
                    // The RTO restarts from the probe, which the driver sends next.
                    self.rto_deadline = Some(now + self.rtt.rto());
                }
            }
        }
        if let Some(deadline) = self.rto_deadline {
            if deadline <= now {
                self.on_rto(now);
            }
        }
    }

    /// RFC 6298 §5.4–5.6 and RFC 5681 §3.1: back off, mark everything un-SACKed lost, resend
    /// from the first hole with a one-segment window.
    fn on_rto(&mut self, now: Time) {
        if self.packets_out() == 0 {
            self.rto_deadline = None;
            return;
        }
        self.stats.timeouts += 1;
        if matches!(self.state, RecoveryState::Open | RecoveryState::Cwr) {
            self.stats.tail_timeouts += 1;
        }
        if self.state == RecoveryState::Open {
            self.stats.loss_episodes += 1;
            // tcp_enter_loss: a timeout after DupThresh SACKs in Open or Disorder says the
            // reordering degree was over-estimated.
            if self.sacked_out >= self.cfg.dupthresh as u64 {
                self.reordering = self.reordering.min(self.cfg.dupthresh as u64);
            }
        }
        if let Some(chirp) = &self.chirp {
            let cwnd = chirp.handover_window(self.in_flight());
            self.hand_over(now, cwnd);
        }
        {
            let (cc, mut ctx) = self.ctx(now);
            cc.on_timeout(&mut ctx);
        }
        if !self.cfg.sack {
            self.sacked_out = 0;
            self.dupacks = 0;
        }
        let mut newly_lost = 0;
        for i in 0..self.segs.len() {
            let s = &mut self.segs[i];
            if s.flags & SACKED == 0 {
                if s.flags & LOST == 0 {
                    newly_lost += 1;
                }
                s.flags = (s.flags | LOST) & !RETRANS;
            }
        }
        self.lost_out += newly_lost;
        self.stats.lost_segments += newly_lost;
        self.rate.lost += newly_lost * self.cfg.mss;
        self.retrans_out = 0;
        self.retx_hint = self.snd_una;
        self.lost_scan = self.snd_nxt;
        self.rack.retransmissions.clear();
        self.rack.timer = None;
        self.rack.scan = self.snd_nxt;
        self.prr = None;
        self.fast_rexmit_due = false;
        self.tlp.reset();
        self.state = RecoveryState::Loss;
        self.recovery_point = self.snd_nxt;
        self.rtt.on_timeout();
        self.rto_deadline = Some(now + self.rtt.rto());
    }

    /// Processes one ACK, informs the controller, and returns what the controller was told.
    /// The steps follow the RFCs in order: the ACK's validity (and the nonce defence), the
    /// scoreboard (RFC 6675 §5's cumulative and SACK processing, duplicate ACKs), the tail loss
    /// probe's outcome (RFC 8985 §7.4), the RTT sample (RFC 7323 §4, RFC 6298), the end of
    /// recovery, loss detection (RFC 6675 §5, RFC 8985 §6) and ECN (RFC 3168 §6.1.2), the
    /// delivery-rate sample (draft-cheng-iccrg-delivery-rate-estimation), the timers, the
    /// growth credit the defences allow, and PRR (RFC 6937).
    pub fn on_ack(&mut self, now: Time, ack: &Ack) -> Feedback {
        let Some(Credit { partial_bytes, already_credited, partial }) = self.accept(ack) else {
            return Feedback::default();
        };
        let flavor = self.cc.fast_recovery();
        let mut fb = Feedback { prior_in_flight: self.bytes_in_flight(), ..Feedback::default() };
        let (advanced, rtt_seg_sent, rate_cand) = self.update_scoreboard(now, ack, &mut fb);
        self.count_duplicate(now, advanced, partial, &mut fb);
        // The tail loss probe's outcome (tcp_process_tlp_ack), before loss detection as in Linux.
        if self.tlp.on_ack(ack.cum_ack, !advanced && fb.acked_packets == 0) == ProbeOutcome::Repaired {
            self.tlp_repaired(&mut fb);
        }
        self.sample_rtt(now, ack, rtt_seg_sent, &mut fb);
        self.end_recovery(advanced, flavor, &mut fb);
        self.detect_losses(now, ack, advanced, flavor, &mut fb);
        fb.rate_sample = rate_cand.as_ref().and_then(|c| self.rate_sample(now, c));
        fb.ece = ack.ece;
        fb.ecn_ce_packets = ack.ce_packets;
        if self.cfg.ecn {
            fb.ecn_ect_packets = fb.acked_packets;
        }
        if ack.ece {
            self.stats.ece_acks += 1;
        }
        fb.one_way_delay = ack.one_way_delay;
        fb.delivered = self.rate.delivered;
        fb.prior_delivered = rate_cand.map_or(0, |c| c.seg.delivered);
        self.stats.recovery_rounds.on_feedback(&fb);
        self.restart_timers(now, advanced || partial, advanced);
        self.startup_on_feedback(now, &fb);
        let delivered_packets = fb.acked_packets;
        fb.growth_withheld = !advanced && !partial && fb.acked_packets > 0 && self.reordering <= self.cfg.dupthresh as u64;
        fb.cwnd_use = self.cwnd_usage.cwnd_use(self.cfg.mss);
        self.credit_growth(&Acknowledged { segment_bytes: fb.acked_bytes, partial_bytes, already_credited }, partial, &mut fb);
        let (cc, mut ctx) = self.ctx(now);
        cc.on_feedback(&fb, &mut ctx);
        // Proportional rate reduction (tcp_cwnd_reduction), with the target the controller has
        // just set.
        self.prr_update(delivered_packets as u64, advanced && fb.lost_packets == 0);
        fb
    }

    /// Whether the ACK is one to process: it acknowledges only data sent, its byte offset lies
    /// inside a segment, and (with the nonce defence) it proves receipt. Returns the bytes its
    /// offset newly acknowledges inside the head segment and those the head had already.
    fn accept(&mut self, ack: &Ack) -> Option<Credit> {
        if ack.cum_ack > self.snd_nxt || ack.cum_ack < self.snd_una {
            return None; // acknowledges data never sent, or an old ACK
        }
        let offset = ack.offset as Bytes;
        if offset > 0 && (ack.cum_ack == self.snd_nxt || offset >= self.seg_len(ack.cum_ack)) {
            return None; // a byte offset beyond the segment or the data sent
        }
        if self.cfg.defences.nonce {
            let expected =
                (self.snd_una..ack.cum_ack).fold(self.nonce_sum_una, |a, s| a.wrapping_add(self.nonce(s)));
            if ack.nonce_sum != expected {
                self.stats.nonce_failures += 1;
                return None;
            }
            self.nonce_sum_una = expected;
        }
        // Bytes newly acknowledged by the offset; those of the head already acknowledged so.
        let (partial_bytes, already_credited) = if ack.cum_ack == self.snd_una {
            (offset.saturating_sub(self.una_offset), 0)
        } else {
            (offset, self.una_offset)
        };
        let partial = ack.cum_ack == self.snd_una && partial_bytes > 0;
        if partial {
            self.stats.partial_acks += 1;
        }
        if ack.cum_ack > self.snd_una || partial {
            self.una_offset = offset;
        }
        if let Some(w) = ack.window {
            self.peer_window = Some(w / self.cfg.mss);
        }
        Some(Credit { partial_bytes, already_credited, partial })
    }

    /// RFC 6675 §5 scoreboard: the cumulatively acknowledged segments leave it, then the SACK
    /// blocks (only the parts the previous ACK did not report) mark segments delivered; without
    /// SACK, Linux's Reno emulation keeps the count of duplicate ACKs. Returns whether the
    /// cumulative ACK advanced, the send time of the newest never-retransmitted segment
    /// delivered (Karn's rule) and the rate sampler's candidate.
    fn update_scoreboard(&mut self, now: Time, ack: &Ack, fb: &mut Feedback) -> (bool, Option<Time>, Option<RateCandidate>) {
        let mut rtt_seg_sent: Option<Time> = None;
        let mut rate_cand: Option<RateCandidate> = None;
        let newly_cum = ack.cum_ack - self.snd_una;
        for _ in 0..newly_cum {
            let seq = self.snd_una;
            let s = self.segs.pop_front().expect("outstanding segment");
            let len = self.seg_len(seq);
            if s.flags & SACKED != 0 {
                self.sacked_out -= 1;
            } else {
                self.deliver(now, ack.echo, seq, &s, len, fb, &mut rtt_seg_sent, &mut rate_cand);
            }
            if s.flags & LOST != 0 {
                self.lost_out -= 1;
            }
            if s.flags & RETRANS != 0 {
                self.retrans_out -= 1;
            }
            self.snd_una += 1;
        }
        let advanced = newly_cum > 0;
        self.highest_sacked = self.highest_sacked.max(self.snd_una);
        self.lost_scan = self.lost_scan.max(self.snd_una);
        self.retx_hint = self.retx_hint.max(self.snd_una);
        if self.cfg.sack {
            let blocks = *ack;
            for b in blocks.sack_blocks() {
                self.apply_sack_block(now, ack.echo, *b, fb, &mut rtt_seg_sent, &mut rate_cand);
            }
            self.prev_n_sack = ack.n_sack as usize;
            self.prev_sack = ack.sack;
        } else if advanced {
            // Reno SACK emulation (Linux tcp_remove_reno_sacks / tcp_reset_reno_sack): in
            // recovery the cumulative ACK consumed `newly_cum - 1` duplicate ACKs; elsewhere
            // an advancing ACK means the duplicate ACKs are all accounted for.
            self.sacked_out = match self.state {
                RecoveryState::Recovery => self.sacked_out.saturating_sub(newly_cum - 1),
                _ => 0,
            };
        }
        if fb.acked_packets > 0 {
            self.rate.delivered_time = now;
        }
        (advanced, rtt_seg_sent, rate_cand)
    }

    /// Duplicate ACKs (RFC 5681 §2): counted, and without SACK taken as departures (Linux's
    /// `sacked_out` emulation), within the `dupack_limit` defence's bound and at most one hole
    /// short of everything outstanding (`tcp_limit_reno_sacked`).
    fn count_duplicate(&mut self, now: Time, advanced: bool, partial: bool, fb: &mut Feedback) {
        fb.is_dupack = !advanced && !partial && self.packets_out() > 0;
        if advanced || partial {
            self.dupacks = 0;
        } else if fb.is_dupack {
            // After an RTO, duplicate ACKs mostly echo go-back-N retransmissions of segments the
            // receiver already holds: they do not show new data leaving the network.
            let counts = !self.cfg.sack && self.state != RecoveryState::Loss;
            if counts && self.cfg.defences.dupack_limit && !self.dupack_may_count(now) {
                self.stats.dupacks_ignored += 1;
                fb.is_dupack = false;
            } else {
                self.dupacks += 1;
                if counts {
                    self.sacked_out += 1;
                }
            }
        }
        if !self.cfg.sack {
            let holes = self.lost_out.max(1).min(self.packets_out());
            self.sacked_out = self.sacked_out.min(self.packets_out() - holes);
        }
    }

    /// The RTT sample, from the timestamp echo as Linux takes it with TCP timestamps (RFC 7323
    /// §4): the echo names the transmission that triggered this ACK, so a retransmission that
    /// fills a hole gives its own RTT, not the hole's age. Without an echo, Karn's rule: the
    /// newest segment delivered that was never retransmitted.
    fn sample_rtt(&mut self, now: Time, ack: &Ack, rtt_seg_sent: Option<Time>, fb: &mut Feedback) {
        if fb.acked_packets > 0 {
            if let Some(sent) = ack.echo.or(rtt_seg_sent).filter(|&t| t <= now) {
                let sample = now - sent;
                self.rtt.on_sample(sample);
                fb.rtt_sample = Some(sample);
            }
        }
    }

    /// Recovery ends when the recovery point is acknowledged (RFC 6582), or for Reno without
    /// SACK at the first ACK that advances (RFC 5681 §3.2). If segments marked lost are still
    /// outstanding then (lost beyond the old recovery point, found while it lasted), a new
    /// episode opens on the same ACK: Linux `tcp_fastretrans_alert` returns to Open and at once
    /// re-enters Recovery because `tcp_time_to_recover` holds ("the loss is proven":
    /// `lost_out > 0`). Under heavy random loss the sender thus stays in recovery, one
    /// reduction per round trip, instead of passing through Open between episodes.
    fn end_recovery(&mut self, advanced: bool, flavor: FastRecovery, fb: &mut Feedback) {
        if self.state != RecoveryState::Open {
            let reno_exit =
                !self.cfg.sack && flavor == FastRecovery::Reno && advanced && self.state == RecoveryState::Recovery;
            if self.snd_una >= self.recovery_point || reno_exit {
                self.state = RecoveryState::Open;
                self.prr = None;
                self.fast_rexmit_due = false;
                fb.recovery_ended = true;
                if self.lost_out > 0 {
                    fb.new_episode = true;
                    self.enter_recovery();
                }
            }
        }
    }

    /// Loss detection: RFC 6675's DupThresh, then RACK's time-based rule (with SACK), or
    /// duplicate and partial ACKs (without); then ECN (RFC 3168 §6.1.2), whose echo reduces
    /// the window at most once per window of data.
    fn detect_losses(&mut self, now: Time, ack: &Ack, advanced: bool, flavor: FastRecovery, fb: &mut Feedback) {
        let lost_before = self.lost_out;
        let mut retx_lost = 0;
        if self.cfg.sack {
            self.detect_losses_sack();
            if self.cfg.rack {
                retx_lost = self.rack_detect(now);
            }
        } else {
            self.detect_losses_dupack(advanced, flavor);
        }
        self.account_losses(self.lost_out - lost_before + retx_lost, fb);
        if self.cfg.ecn && (ack.ece || ack.ce_packets > 0) && self.state == RecoveryState::Open {
            self.state = RecoveryState::Cwr;
            self.recovery_point = self.snd_nxt;
            fb.new_episode = true;
            fb.ecn_congestion = true;
            self.stats.ecn_reductions += 1;
        }
        fb.in_recovery = self.in_recovery();
    }

    /// The delivery-rate sample (`tcp_rate_gen`): the data delivered since the candidate was
    /// sent, over the longer of its send and ACK phases; none shorter than the minimum RTT.
    fn rate_sample(&mut self, now: Time, c: &RateCandidate) -> Option<RateSample> {
        let p = &c.seg;
        let send_elapsed = p.sent_time - p.first_sent_time;
        let ack_elapsed = now - p.delivered_time;
        let interval = send_elapsed.max(ack_elapsed);
        if self.rate.app_limited > 0 && self.rate.delivered > self.rate.app_limited {
            self.rate.app_limited = 0;
        }
        let min_rtt = self.rtt.stats().min_rtt.unwrap_or(Time::ZERO);
        (interval > Time::ZERO && interval >= min_rtt).then(|| RateSample {
            delivered: self.rate.delivered - p.delivered,
            interval,
            is_app_limited: p.flags & APP_LIMITED != 0,
            prior_delivered: p.delivered,
            tx_in_flight: p.tx_in_flight,
            lost: self.rate.lost - p.lost_at_send,
        })
    }

    /// The retransmission timer (RFC 6298 §5.2–5.3) restarts on an ACK of new data and stops
    /// with nothing outstanding; the loss probe's (`tcp_set_xmit_timer`) is re-armed by an ACK
    /// of new data and stopped by leaving the Open state.
    fn restart_timers(&mut self, now: Time, new_data: bool, advanced: bool) {
        if self.packets_out() == 0 {
            self.rto_deadline = None;
        } else if new_data {
            self.rto_deadline = Some(now + self.rtt.rto());
        }
        if advanced || self.packets_out() == 0 || !matches!(self.state, RecoveryState::Open | RecoveryState::Cwr) {
            self.arm_probe(now);
        }
    }

    /// What the controller may grow by under the defences (unchanged under Linux's default).
    fn credit_growth(&mut self, a: &Acknowledged, partial: bool, fb: &mut Feedback) {
        if self.cfg.defences != Defences::default() || partial || a.already_credited > 0 {
            let slow_start = self.cc.snapshot().ssthresh.is_some_and(|ss| self.cc.control().cwnd.is_some_and(|w| w < ss));
            let after_timeout = self.state == RecoveryState::Loss;
            fb.acked_bytes = defence::growth_credit(&self.cfg.defences, a, self.cfg.mss, slow_start, after_timeout);
            if fb.acked_bytes > 0 {
                fb.acked_packets = fb.acked_packets.max(1);
            }
        }
    }

    /// Savage et al.'s duplicate-ACK bound in time (the `dupack_limit` defence): one more
    /// duplicate ACK may count as a departure only while fewer are counted than segments above
    /// the head (the hole every duplicate names) sent at least one minimum RTT ago.
    fn dupack_may_count(&self, now: Time) -> bool {
        let Some(min_rtt) = self.rtt.stats().min_rtt else { return true };
        let possible = defence::could_have_arrived(self.segs.iter().skip(1).map(|s| s.sent_time), now, min_rtt);
        self.sacked_out < possible
    }

    /// RFC 6937 on one ACK (or RACK timer) in fast recovery: the window becomes
    /// `pipe + sndcnt`. An ACK that delivers nothing leaves it as it was (Linux).
    fn prr_update(&mut self, delivered: u64, safe_ack: bool) {
        if self.state != RecoveryState::Recovery || delivered == 0 || self.prr.is_none() {
            return;
        }
        let ssthresh = self.window_segments(&self.control());
        let pipe = self.in_flight();
        if let Some(prr) = &mut self.prr {
            self.prr_window = pipe + prr.on_ack(delivered, pipe, ssthresh, safe_ack);
        }
    }

    /// A retransmitted loss probe repaired a lost segment (RFC 8985 §7.4): the controller
    /// reduces once for it, and the sender stays Open (Linux enters CWR and leaves it at once).
    fn tlp_repaired(&mut self, fb: &mut Feedback) {
        self.stats.tlp_recoveries += 1;
        fb.lost_packets += 1;
        fb.lost_bytes += self.cfg.mss;
        self.stats.lost_segments += 1;
        self.rate.lost += self.cfg.mss;
        if self.state == RecoveryState::Open {
            fb.new_episode = true;
            self.stats.loss_episodes += 1;
        }
    }

    /// Reports `newly_lost` segments (first losses and lost retransmissions) in `fb` and opens
    /// a recovery episode if none is open.
    fn account_losses(&mut self, newly_lost: u64, fb: &mut Feedback) {
        if newly_lost == 0 {
            return;
        }
        fb.lost_packets += newly_lost as u32;
        fb.lost_bytes += newly_lost * self.cfg.mss;
        self.stats.lost_segments += newly_lost;
        self.rate.lost += newly_lost * self.cfg.mss;
        // After an RTO, further losses below the recovery point belong to the same episode
        // (RFC 6582 §3.2 step 1); during an ECN reduction the window was already cut.
        match self.state {
            RecoveryState::Open => {
                fb.new_episode = true;
                self.enter_recovery();
            }
            RecoveryState::Cwr => self.enter_recovery(),
            _ => {}
        }
    }

    /// Fast recovery begins (tcp_enter_recovery): PRR starts from the window before the
    /// controller's reduction (tcp_init_cwnd_reduction's `prior_cwnd`) and the loss probe stops.
    fn enter_recovery(&mut self) {
        self.state = RecoveryState::Recovery;
        self.recovery_point = self.snd_nxt;
        self.stats.loss_episodes += 1;
        self.tlp.reset();
        self.prr = None;
        self.fast_rexmit_due = false;
        if self.prr_applies() {
            let prior = self.window_segments(&self.control());
            self.prr = Some(Prr::start(ReductionBound::SafeAck, prior));
            // Until the first ACK is counted: the fast retransmit may go.
            self.prr_window = self.in_flight() + 1;
        } else {
            self.fast_rexmit_due = true;
        }
    }

    /// RACK (RFC 8985 §6.2 step 5): marks lost every outstanding transmission sent before the
    /// most recently delivered one and older than `RACK.rtt + reo_wnd`; arms the reorder timer
    /// for the longest wait among the others (see `rack.rs`). Returns the retransmissions
    /// found lost again (their segments were already counted in `lost_out`).
    fn rack_detect(&mut self, now: Time) -> u64 {
        if self.rack.xmit_ts.is_none() {
            return 0;
        }
        let rtt = self.rtt.stats();
        let reo_wnd = self.rack.reo_wnd(
            self.state != RecoveryState::Open,
            self.sacked_out >= self.reordering,
            rtt.min_rtt,
            rtt.srtt,
        );
        // The latest deadline of a candidate still waiting. Deadlines grow with send time, so
        // the first candidate still waiting in each send-ordered list leaves only waiting ones
        // after it, and the last of those sent before RACK.xmit_ts waits longest.
        let mut latest: Option<Time> = None;
        let mut retx_lost = 0;
        // Retransmissions, oldest first.
        while let Some(&(seq, sent)) = self.rack.retransmissions.front() {
            if !self.retransmission_current(seq, sent) {
                self.rack.retransmissions.pop_front();
                continue;
            }
            if !self.rack.sent_before(sent, seq) {
                break;
            }
            let deadline = self.rack.deadline(sent, reo_wnd);
            if deadline > now {
                let waiting = self.rack.retransmissions.iter().filter(|&&(q, t)| self.retransmission_current(q, t));
                let last = waiting.take_while(|&&(q, t)| self.rack.sent_before(t, q)).last().map(|&(_, t)| t);
                latest = last.map(|t| self.rack.deadline(t, reo_wnd));
                break;
            }
            // Lost again: it stays LOST and will be retransmitted once more. A loss probe's
            // retransmission of a segment not yet marked lost: both copies are now lost.
            let s = self.seg_mut(seq);
            s.flags &= !RETRANS;
            let first_loss = s.flags & LOST == 0;
            s.flags |= LOST;
            self.retrans_out -= 1;
            self.retx_hint = self.retx_hint.min(seq);
            if first_loss {
                self.lost_out += 1;
            } else {
                retx_lost += 1;
            }
            self.rack.retransmissions.pop_front();
        }
        // Never-retransmitted segments, in sequence (and so send-time) order. Everything below
        // `rack.scan` is delivered, lost or retransmitted (then tracked above).
        let mut seq = self.rack.scan.max(self.snd_una);
        while seq < self.snd_nxt {
            let s = *self.seg(seq);
            if s.flags & (SACKED | LOST | EVER_RETRANS) == 0 {
                if !self.rack.sent_before(s.sent_time, seq) {
                    break;
                }
                let deadline = self.rack.deadline(s.sent_time, reo_wnd);
                if deadline > now {
                    let last = (seq..self.snd_nxt)
                        .map(|q| (q, *self.seg(q)))
                        .filter(|(_, s)| s.flags & (SACKED | LOST | EVER_RETRANS) == 0)
                        .take_while(|(q, s)| self.rack.sent_before(s.sent_time, *q))
                        .last();
                    let waits = last.map_or(deadline, |(_, s)| self.rack.deadline(s.sent_time, reo_wnd));
                    latest = Some(latest.map_or(waits, |t| t.max(waits)));
                    break;
                }
                self.seg_mut(seq).flags |= LOST;
                self.lost_out += 1;
                self.retx_hint = self.retx_hint.min(seq);
            }
            seq += 1;
            self.rack.scan = seq;
        }
        self.rack.timer = latest.map(Rack::timer_at);
        retx_lost
    }

    /// The retransmission of `seq` sent at `sent` is still outstanding (not delivered, not
    /// sent again since).
    fn retransmission_current(&self, seq: u64, sent: Time) -> bool {
        seq >= self.snd_una && seq < self.snd_nxt && {
            let s = self.seg(seq);
            s.flags & RETRANS != 0 && s.sent_time == sent
        }
    }

    /// Segment `seq`, never retransmitted, arrived below a later segment already SACKed:
    /// the path reorders (RACK's `reord_seen`), and the reordering degree becomes at least the
    /// distance, `highest SACKed + 1 − seq` segments (Linux `tcp_check_sack_reordering`:
    /// `reordering = min(⌈(fack − low_seq)/mss⌉, tcp_max_reordering)` when larger). One
    /// difference: a segment marked lost but delivered before its retransmission left is not
    /// counted here, where Linux's `tcp_sacktag_one` counts every segment not retransmitted.
    fn note_reordering(&mut self, seq: u64) {
        self.rack.reord_seen = true;
        self.reordering = self.reordering.max((self.highest_sacked - seq).min(MAX_REORDERING));
    }

    /// Accounts one segment newly delivered (cumulatively or by SACK).
    #[allow(clippy::too_many_arguments)]
    fn deliver(
        &mut self,
        now: Time,
        echo: Option<Time>,
        seq: u64,
        s: &Seg,
        len: Bytes,
        fb: &mut Feedback,
        rtt_seg_sent: &mut Option<Time>,
        rate_cand: &mut Option<RateCandidate>,
    ) {
        let retransmitted = s.flags & EVER_RETRANS != 0;
        if !retransmitted && s.flags & LOST == 0 && seq + 1 < self.highest_sacked {
            self.note_reordering(seq);
        }
        if self.cfg.rack {
            self.rack.on_delivered(seq, s.sent_time, retransmitted, now, echo, self.rtt.stats().min_rtt);
        }
        fb.acked_bytes += len;
        fb.acked_packets += 1;
        self.stats.bytes_delivered += len;
        self.rate.delivered += len;
        if s.flags & EVER_RETRANS == 0 && rtt_seg_sent.is_none_or(|t| s.sent_time > t) {
            *rtt_seg_sent = Some(s.sent_time);
        }
        if let (Some(chirp), false) = (&mut self.chirp, s.flags & EVER_RETRANS != 0) {
            // Paced chirping needs each packet's own queueing delay.
            let min_rtt = self.rtt.stats().min_rtt.unwrap_or(Time::ZERO);
            chirp.on_sample(seq, now.saturating_sub(s.sent_time), min_rtt);
        }
        // tcp_rate_skb_delivered: keep the most recently sent segment.
        if rate_cand.is_none_or(|c| s.sent_time >= c.seg.sent_time) {
            *rate_cand = Some(RateCandidate { seg: *s });
            self.rate.first_sent_time = s.sent_time;
        }
    }

    fn apply_sack_block(
        &mut self,
        now: Time,
        echo: Option<Time>,
        b: SackBlock,
        fb: &mut Feedback,
        rtt_seg_sent: &mut Option<Time>,
        rate_cand: &mut Option<RateCandidate>,
    ) {
        let start = b.start.max(self.snd_una);
        let end = b.end.min(self.snd_nxt);
        let mut seq = start;
        while seq < end {
            // Skip what the previous ACK already reported (Linux's SACK cache).
            if let Some(skip_to) = self.prev_sack[..self.prev_n_sack]
                .iter()
                .find(|p| p.start <= seq && seq < p.end)
                .map(|p| p.end)
            {
                seq = skip_to.min(end);
                continue;
            }
            let len = self.seg_len(seq);
            let s = *self.seg(seq);
            if s.flags & SACKED == 0 {
                let mut flags = s.flags | SACKED;
                if flags & LOST != 0 {
                    self.lost_out -= 1;
                    flags &= !LOST;
                }
                if flags & RETRANS != 0 {
                    self.retrans_out -= 1;
                    flags &= !RETRANS;
                }
                self.seg_mut(seq).flags = flags;
                self.sacked_out += 1;
                self.deliver(now, echo, seq, &s, len, fb, rtt_seg_sent, rate_cand);
            }
            seq += 1;
        }
        if end > self.highest_sacked {
            self.highest_sacked = end;
        }
    }

    /// RFC 6675 `IsLost`: every un-SACKed segment below the DupThresh-th highest SACKed
    /// segment is lost.
    fn detect_losses_sack(&mut self) {
        let dupthresh = self.reordering;
        if self.sacked_out < dupthresh {
            return;
        }
        let mut count = 0;
        let mut seq = self.highest_sacked;
        let floor = self.lost_scan.max(self.snd_una);
        while seq > floor {
            seq -= 1;
            if self.seg(seq).flags & SACKED != 0 {
                count += 1;
                if count == dupthresh {
                    break;
                }
            }
        }
        if count < dupthresh {
            return;
        }
        for s in floor..seq {
            let rec = self.seg_mut(s);
            if rec.flags & (SACKED | LOST) == 0 {
                rec.flags |= LOST;
                self.lost_out += 1;
                self.retx_hint = self.retx_hint.min(s);
            }
        }
        self.lost_scan = seq;
    }

    /// Loss detection from duplicate and partial ACKs (RFC 5681 §3.2, RFC 6582 §3.2).
    fn detect_losses_dupack(&mut self, advanced: bool, flavor: FastRecovery) {
        if self.packets_out() == 0 {
            return;
        }
        let head = self.snd_una;
        let trigger = if self.state == RecoveryState::Open {
            self.dupacks >= self.cfg.dupthresh
        } else {
            // NewReno partial ACK: the next hole is lost too.
            flavor == FastRecovery::NewReno && advanced
        };
        if trigger {
            let rec = self.seg_mut(head);
            if rec.flags & LOST == 0 {
                rec.flags |= LOST;
                self.lost_out += 1;
                self.retx_hint = self.retx_hint.min(head);
            }
        }
    }

    /// State for time series and traces.
    pub fn snapshot(&self) -> Snapshot {
        let mut s = self.cc.snapshot();
        if let Some(chirp) = &self.chirp {
            // No window governs while chirping; the transition's does.
            let c = self.control();
            let state = if self.chirping() { "chirping" } else { "chirp_transition" };
            return Snapshot { cwnd: c.cwnd.filter(|_| !self.chirping()), ssthresh: None, pacing_rate: Some(chirp.rate()), state, ..s };
        }
        if s.pacing_rate.is_none() {
            s.pacing_rate = self.control().pacing_rate;
        }
        s
    }

    /// Checks the scoreboard's counters against its records (for tests and debug builds).
    pub fn check_invariants(&self) -> Result<(), String> {
        let (mut sacked, mut lost, mut retrans) = (0, 0, 0);
        for s in &self.segs {
            sacked += (s.flags & SACKED != 0) as u64;
            lost += (s.flags & LOST != 0) as u64;
            retrans += (s.flags & RETRANS != 0) as u64;
            if s.flags & SACKED != 0 && s.flags & (LOST | RETRANS) != 0 {
                return Err("a SACKed segment is also lost or in retransmission".into());
            }
        }
        if self.segs.len() as u64 != self.packets_out() {
            return Err(format!("{} records for {} outstanding segments", self.segs.len(), self.packets_out()));
        }
        if self.cfg.sack && sacked != self.sacked_out {
            return Err(format!("sacked_out {} but {} SACKed records", self.sacked_out, sacked));
        }
        if !self.cfg.sack && self.sacked_out >= self.packets_out().max(1) {
            return Err(format!("sacked_out {} of {} outstanding", self.sacked_out, self.packets_out()));
        }
        if lost != self.lost_out || retrans != self.retrans_out {
            return Err(format!(
                "lost_out {} / retrans_out {} but records say {} / {}",
                self.lost_out, self.retrans_out, lost, retrans
            ));
        }
        if self.in_flight() > self.packets_out() + self.retrans_out {
            return Err("pipe exceeds outstanding segments".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::component_rng;

    const MSS: Bytes = 1448;
    fn ms(v: u64) -> Time {
        Time::from_millis(v)
    }
    fn us(v: u64) -> Time {
        Time::from_micros(v)
    }

    /// A NewReno sender on a 100 ms path whose first flight is `iw` segments.
    fn sender(iw: u32, segments: Option<u64>, prr: bool, tlp: bool) -> SenderCore {
        let cfg = SenderConfig { initial_window: iw, data_limit: segments.map(|n| n * MSS), prr, tlp, ..SenderConfig::default() };
        let mut s = SenderCore::new(cfg, &CcConfig::from_name("newreno").unwrap(), component_rng(1, 1));
        s.on_handshake(ms(100));
        s
    }

    /// RFC 6937 §6's controller: a window that does not grow and halves once per episode.
    #[derive(Clone)]
    struct Halving {
        cwnd: Bytes,
    }

    impl CongestionControl for Halving {
        fn name(&self) -> &'static str {
            "halving"
        }
        fn on_feedback(&mut self, fb: &Feedback, _ctx: &mut Ctx) {
            if fb.new_episode {
                self.cwnd /= 2;
            }
        }
        fn control(&self) -> Control {
            Control { cwnd: Some(self.cwnd), pacing_rate: None, quantum: MSS }
        }
        fn snapshot(&self) -> Snapshot {
            Snapshot { cwnd: Some(self.cwnd), ssthresh: None, pacing_rate: None, bw_estimate: None, min_rtt: None, state: "" }
        }
    }

    fn send_all(s: &mut SenderCore, now: Time) -> Vec<Transmit> {
        std::iter::from_fn(|| s.poll_transmit(now)).collect()
    }

    fn ack(cum: u64, sack: Option<(u64, u64)>, echo: Time) -> Ack {
        let mut a = Ack { cum_ack: cum, echo: Some(echo), ..Ack::default() };
        if let Some((start, end)) = sack {
            a.sack[0] = SackBlock { start, end };
            a.n_sack = 1;
        }
        a
    }

    /// RFC 6937 §6's first example through the real sender: 20 segments out, segment 0 lost,
    /// ACK k SACKs 1..=k. With PRR the sender sends one segment for every two delivered
    /// (the fast retransmit, then new data on every second ACK). With PRR off the fast
    /// retransmit goes at once (RFC 6675 §5 step 3) and new data follows the rule of sending
    /// while `pipe < cwnd`: silent until the pipe falls below the halved window, then one per ACK.
    #[test]
    fn prr_spreads_recovery_sends_over_the_round_trip_and_rfc6675_bunches_them() {
        let pattern = |prr: bool| {
            let cfg = SenderConfig { prr, ..SenderConfig::default() };
            let mut s = SenderCore::with_controller(cfg, Cc::Custom(Box::new(Halving { cwnd: 20 * MSS })), component_rng(1, 1));
            s.on_handshake(ms(100));
            assert_eq!(send_all(&mut s, Time::ZERO).len(), 20);
            let sent: Vec<usize> = (1..20)
                .map(|k| {
                    let now = ms(100) + us(100 * k);
                    s.on_ack(now, &ack(0, Some((1, k + 1)), Time::ZERO));
                    s.check_invariants().unwrap();
                    send_all(&mut s, now).len()
                })
                .collect();
            assert_eq!(s.stats().timeouts, 0);
            sent
        };
        assert_eq!(pattern(true), [1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0]);
        // Limited transmit, the fast retransmit on the third ACK, then silence while pipe =
        // 22 − k ≥ cwnd = 10 (22 sent, k SACKed, the hole lost and resent), then one per ACK.
        assert_eq!(pattern(false), [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]);
    }

    /// RFC 5681 §3.2 without SACK: the third duplicate ACK retransmits the lost segment at once
    /// (step 2), whatever the window. Ten segments out, segment 0 lost: the first two
    /// duplicates let limited transmit send 10 and 11 (each takes a segment out of the pipe),
    /// the third resends 0, and ssthresh = 5. New data then waits while the pipe, 12 − j with
    /// the retransmission in it after duplicate j, is not below 5 (the inflated window
    /// ssthresh + j against 12 outstanding, steps 3-4), and goes one per duplicate from j = 8.
    #[test]
    fn without_sack_the_third_duplicate_ack_retransmits_at_once() {
        let cfg = SenderConfig { sack: false, initial_window: 10, ..SenderConfig::default() };
        let mut s = SenderCore::new(cfg, &CcConfig::from_name("reno").unwrap(), component_rng(1, 1));
        s.on_handshake(ms(100));
        assert_eq!(send_all(&mut s, Time::ZERO).len(), 10);
        let sent: Vec<Vec<(u64, bool)>> = (1..=9)
            .map(|k| {
                let now = ms(100) + us(100 * k);
                s.on_ack(now, &ack(0, None, Time::ZERO));
                s.check_invariants().unwrap();
                send_all(&mut s, now).iter().map(|t| (t.seq, t.is_retransmission)).collect()
            })
            .collect();
        let expected: [&[(u64, bool)]; 9] = [&[(10, false)], &[(11, false)], &[(0, true)], &[], &[], &[], &[], &[(12, false)], &[(13, false)]];
        assert_eq!(sent, expected);
    }

    /// Linux's `tcp_rate_check_app_limited`: a sender that has sent all it was given is
    /// application-limited only if the window had room for more. Ten segments written into a
    /// ten-segment window fill it (window-limited); five leave room (application-limited).
    #[test]
    fn a_sender_out_of_data_is_application_limited_only_with_room_in_its_window() {
        let marked = |written: u64| {
            let cfg = SenderConfig { data_limit: Some(written * MSS), ..SenderConfig::default() };
            let mut s = SenderCore::with_controller(cfg, Cc::Custom(Box::new(Halving { cwnd: 10 * MSS })), component_rng(1, 1));
            s.on_handshake(ms(100));
            assert_eq!(send_all(&mut s, Time::ZERO).len() as u64, written);
            s.rate.app_limited > 0
        };
        assert!(!marked(10), "a full window is not application-limited");
        assert!(marked(5), "room for five more is");
    }

    /// A segment sent during recovery and found lost before it ends keeps the sender in
    /// recovery: the ACK that reaches the recovery point opens a new episode at once (Linux
    /// `tcp_fastretrans_alert`: Open, then `tcp_time_to_recover` with `lost_out > 0`), and the
    /// controller reduces once more. Segment 0 is lost; limited transmit sends 20 and 21, so
    /// the recovery point is 22, and 22, the first segment sent in recovery, is lost too.
    #[test]
    fn a_loss_found_during_recovery_opens_the_next_episode_when_it_ends() {
        let cfg = SenderConfig::default();
        let mut s = SenderCore::with_controller(cfg, Cc::Custom(Box::new(Halving { cwnd: 20 * MSS })), component_rng(1, 1));
        s.on_handshake(ms(100));
        assert_eq!(send_all(&mut s, Time::ZERO).len(), 20);
        for k in 1..20 {
            let now = ms(100) + us(100 * k);
            s.on_ack(now, &ack(0, Some((1, k + 1)), Time::ZERO));
            send_all(&mut s, now);
        }
        assert_eq!((s.recovery_state(), s.stats().loss_episodes), (RecoveryState::Recovery, 1));
        assert_eq!(s.recovery_point, 22);
        assert!(s.snd_nxt >= 26, "sent up to {}", s.snd_nxt);
        // 23..26 SACKed above the hole at 22: lost (DupThresh), inside the open episode.
        let t = ms(200);
        let mut a = ack(0, Some((1, 22)), Time::ZERO);
        a.sack[1] = SackBlock { start: 23, end: 26 };
        a.n_sack = 2;
        let fb = s.on_ack(t, &a);
        assert!(!fb.new_episode && fb.lost_packets >= 1, "{fb:?}");
        assert_eq!(s.stats().loss_episodes, 1);
        // The retransmission of 0 arrives: snd.una = 22 reaches the recovery point with 22
        // still lost; the episode ends and the next one opens on the same ACK.
        let fb = s.on_ack(t + ms(1), &ack(22, Some((23, 26)), t));
        assert!(fb.recovery_ended && fb.new_episode && fb.in_recovery, "{fb:?}");
        assert_eq!((s.recovery_state(), s.stats().loss_episodes), (RecoveryState::Recovery, 2));
        assert_eq!(s.control().cwnd, Some(5 * MSS));
        s.check_invariants().unwrap();
    }

    /// RACK's reorder timer waits for the *latest* deadline among the segments still waiting
    /// (RFC 8985 §6.2 step 5, `timeout = max(remaining, timeout)`), plus Linux's
    /// `TCP_TIMEOUT_MIN_US` (2 ms). 0-9 leave at 0 ms, 10-11 at 100 ms and 12-13 at 110 ms;
    /// at 211 ms the receiver SACKs 13 (RACK.rtt = 101 ms, reo_wnd = min_rtt/4 = 25 ms): 2-9
    /// are lost at once (0 + 126 ms), 10-11 wait until 100 + 126 = 226 ms and 12 until 236 ms,
    /// so the timer fires at 238 ms and then finds 10-12 lost together.
    #[test]
    fn the_reorder_timer_waits_for_the_last_candidate_and_two_milliseconds() {
        let mut s = sender(10, None, true, false);
        assert_eq!(send_all(&mut s, Time::ZERO).len(), 10);
        s.on_ack(ms(100), &ack(1, None, Time::ZERO));
        let sent: Vec<u64> = send_all(&mut s, ms(100)).iter().map(|t| t.seq).collect();
        assert_eq!(sent, vec![10, 11]);
        s.on_ack(ms(110), &ack(2, None, Time::ZERO));
        let sent: Vec<u64> = send_all(&mut s, ms(110)).iter().map(|t| t.seq).collect();
        assert_eq!(sent, vec![12, 13]);
        s.on_ack(ms(211), &ack(2, Some((13, 14)), ms(110)));
        assert_eq!(s.lost_out, 8, "2-9");
        assert_eq!(s.next_timer(), Some(ms(238)));
        s.on_timer(ms(238));
        assert_eq!(s.lost_out, 11, "10-12 with them");
        s.check_invariants().unwrap();
    }

    /// Linux grows the window only on ACKs that advance the cumulative ACK while the path has
    /// shown no reordering beyond DupThresh (`tcp_may_raise_cwnd`: `FLAG_DATA_ACKED`). Ten
    /// segments out, NewReno in slow start (one segment per segment delivered): the ACK of 0
    /// gives 11; the SACK of 2 delivers a segment but is withheld, 11; the ACK up to 3 delivers
    /// 1 (2 was SACKed already), 12. Before, the SACK also counted: 13.
    #[test]
    fn a_sack_only_ack_delivers_data_but_does_not_grow_the_window() {
        let mut s = sender(10, None, true, false);
        assert_eq!(send_all(&mut s, Time::ZERO).len(), 10);
        let fb = s.on_ack(ms(100), &ack(1, None, Time::ZERO));
        assert!(!fb.growth_withheld);
        assert_eq!(s.control().cwnd, Some(11 * MSS));
        let fb = s.on_ack(ms(100), &ack(1, Some((2, 3)), Time::ZERO));
        assert!(fb.growth_withheld && fb.acked_packets == 1 && !fb.in_recovery, "{fb:?}");
        assert_eq!(s.control().cwnd, Some(11 * MSS));
        let fb = s.on_ack(ms(100), &ack(3, None, Time::ZERO));
        assert!(!fb.growth_withheld && fb.acked_packets == 1, "{fb:?}");
        assert_eq!(s.control().cwnd, Some(12 * MSS));
        assert_eq!(s.reordering, 3, "1 arrived 2 segments below the highest SACKed: not above 3");
        s.check_invariants().unwrap();
    }

    /// Reordering raises DupThresh to its degree (`tcp_check_sack_reordering`) and lets every
    /// ACK with forward progress grow the window (`tcp_may_raise_cwnd`). Segment 5 is SACKed
    /// first, then 0-4 arrive, never retransmitted: the degree is 6 − 0 = 6 segments. Three
    /// segments SACKed above the hole at 6 then mark nothing lost (RFC 6675 with DupThresh 3
    /// would mark 6 at once; RACK's deadline, 0 + 101 + 25 ms, is still ahead), and that
    /// SACK-only ACK grows the window.
    #[test]
    fn reordering_raises_dupthresh_and_lets_sack_only_acks_grow() {
        let mut s = sender(10, None, true, false);
        assert_eq!(send_all(&mut s, Time::ZERO).len(), 10);
        s.on_ack(ms(100), &ack(0, Some((5, 6)), Time::ZERO));
        assert_eq!(s.reordering, 3);
        s.on_ack(ms(100), &ack(6, None, Time::ZERO));
        assert_eq!(s.reordering, 6);
        let before = s.control().cwnd.unwrap();
        let fb = s.on_ack(ms(101), &ack(6, Some((7, 10)), Time::ZERO));
        assert!(!fb.growth_withheld && fb.acked_packets == 3, "{fb:?}");
        assert_eq!((s.lost_out, s.recovery_state()), (0, RecoveryState::Open));
        assert_eq!(s.control().cwnd.unwrap(), before + 3 * MSS, "slow start: one segment per segment SACKed");
        s.check_invariants().unwrap();
    }

    /// Linux raises `CA_EVENT_TX_START` on every transmission with nothing in flight, and Vegas
    /// then forgets its base RTT (`tcp_vegas_init`). After the first flight's ACKs Vegas has
    /// one; segments sent with others in flight keep it; the retransmission after an RTO, with
    /// every segment out counted lost, clears it.
    #[test]
    fn a_transmission_with_nothing_in_flight_restarts_vegas_as_linux_does() {
        let cfg = SenderConfig { initial_window: 4, tlp: false, ..SenderConfig::default() };
        let mut s = SenderCore::new(cfg, &CcConfig::from_name("vegas").unwrap(), component_rng(1, 1));
        s.on_handshake(ms(100));
        assert_eq!(send_all(&mut s, Time::ZERO).len(), 4);
        assert_eq!(s.snapshot().min_rtt, None);
        s.on_ack(ms(100), &ack(2, None, Time::ZERO));
        assert!(s.snapshot().min_rtt.is_some(), "a base RTT from the first ACK");
        assert!(!send_all(&mut s, ms(100)).is_empty());
        assert!(s.snapshot().min_rtt.is_some(), "sent with segments in flight: kept");
        let fire = s.next_timer().unwrap();
        s.on_timer(fire);
        assert_eq!(s.stats().timeouts, 1);
        let out = send_all(&mut s, fire);
        assert!(out.first().is_some_and(|t| t.is_retransmission), "{out:?}");
        assert_eq!(s.snapshot().min_rtt, None, "the retransmission left with nothing in flight");
    }

    /// A lost tail (the last four of 20 segments): without TLP only the RTO (SRTT + 200 ms)
    /// finds it; with TLP a probe of the last segment goes out 2·SRTT + 2 ms after the last
    /// ACK, its SACK lets RACK mark the other three lost, and fast recovery repairs them.
    #[test]
    fn a_tail_loss_is_probed_after_two_srtt_and_repaired_without_a_timeout() {
        for tlp in [true, false] {
            let mut s = sender(20, Some(20), true, tlp);
            assert_eq!(send_all(&mut s, Time::ZERO).len(), 20);
            let t_ack = ms(100);
            s.on_ack(t_ack, &ack(16, None, Time::ZERO));
            assert!(send_all(&mut s, t_ack).is_empty());
            let fire = s.next_timer().unwrap();
            s.on_timer(fire);
            let out = send_all(&mut s, fire);
            if !tlp {
                assert_eq!(fire, t_ack + s.rtt.base_rto());
                assert_eq!(s.stats().timeouts, 1);
                continue;
            }
            // SRTT is 100 ms (handshake and ACK agree): PTO = 2·100 ms + 2 ms.
            assert_eq!(fire, t_ack + ms(202));
            assert_eq!(out, [Transmit { seq: 19, len: MSS, is_retransmission: true, ecn_capable: false }]);
            assert_eq!((s.stats().tlp_probes, s.stats().timeouts), (1, 0));
            // The probe's SACK: RACK finds 16-18 lost (sent before 19, older than RTT + reo_wnd).
            // PRR with the pipe emptied: one segment for the SACK (it does not advance snd.una),
            // then two for the next ACK, which does (Linux's slow-start reduction bound).
            let t = fire + ms(100);
            s.on_ack(t, &ack(16, Some((19, 20)), fire));
            assert_eq!(s.recovery_state(), RecoveryState::Recovery);
            let seqs = |v: Vec<Transmit>| v.iter().map(|x| x.seq).collect::<Vec<u64>>();
            assert_eq!(seqs(send_all(&mut s, t)), [16]);
            s.on_ack(t + ms(100), &ack(17, Some((19, 20)), t));
            assert_eq!(seqs(send_all(&mut s, t + ms(100))), [17, 18]);
            s.on_ack(t + ms(200), &ack(20, None, t + ms(100)));
            assert!(s.is_complete());
            assert_eq!(s.stats().timeouts, 0);
            s.check_invariants().unwrap();
        }
    }

    /// With new data waiting the probe sends it, not a retransmission, even with the window full;
    /// one probe per episode.
    #[test]
    fn the_probe_prefers_new_data_and_goes_once() {
        let mut s = sender(10, None, true, true);
        assert_eq!(send_all(&mut s, Time::ZERO).len(), 10);
        let fire = s.next_timer().unwrap();
        // Before any ACK the PTO is 2·SRTT + 2 ms from the last transmission, under the 300 ms RTO.
        assert_eq!(fire, ms(202));
        s.on_timer(fire);
        let out = send_all(&mut s, fire);
        assert_eq!(out.len(), 1);
        assert_eq!((out[0].seq, out[0].is_retransmission), (10, false));
        // No second probe: the next timer is the RTO, a full RTO after the probe.
        assert_eq!(s.next_timer(), Some(fire + s.rto()));
    }
    /// A Reno sender with the given defences, `iw` segments in flight, on a 100 ms path.
    fn reno(d: Defences, iw: u32, sack: bool) -> SenderCore {
        let cfg = SenderConfig { initial_window: iw, defences: d, sack, ..SenderConfig::default() };
        let mut s = SenderCore::new(cfg, &CcConfig::from_name("reno").unwrap(), component_rng(1, 1));
        s.on_handshake(ms(100));
        s
    }

    fn cwnd_segments(s: &SenderCore) -> u64 {
        s.control().cwnd.unwrap() / MSS
    }

    /// ACK division in slow start (Savage et al. §3.1). Each of the 10 segments of the first
    /// flight is acknowledged in m = 10 parts. Per-ACK counting adds one SMSS per ACK, so the
    /// flight's ACKs grow cwnd by 10·m: 10 → 110 segments, against 10 → 20 for honest ACKs
    /// (growth per RTT multiplied by m). Whole-segment counting (Linux) and byte counting
    /// (RFC 3465) credit the parts with what the segment is worth: 20.
    #[test]
    fn ack_division_multiplies_slow_start_growth_unless_defended() {
        let m = 10;
        let abc = Defences { nonce: false, ..Defences::ALL }; // these ACKs carry no nonce sums
        for (d, want) in [(Defences::NONE, 10 + 10 * m), (Defences::default(), 20), (abc, 20)] {
            let mut s = reno(d, 10, true);
            assert_eq!(send_all(&mut s, Time::ZERO).len(), 10);
            for seq in 0..10u64 {
                for k in 1..m {
                    let part = Ack { cum_ack: seq, offset: (k * MSS / m) as u32, echo: Some(Time::ZERO), ..Ack::default() };
                    s.on_ack(ms(100), &part);
                }
                s.on_ack(ms(100), &ack(seq + 1, None, Time::ZERO));
                s.check_invariants().unwrap();
            }
            assert_eq!(cwnd_segments(&s), want, "{d:?}");
            assert_eq!(s.stats().partial_acks, 10 * (m - 1));
            assert_eq!(s.stats().bytes_delivered, 10 * MSS);
        }
    }

    /// A Reno flow held to 20 segments by the receiver's window (Linux `tcp_is_cwnd_limited`):
    /// in slow start its window grows only while it is below twice the most outstanding, so it
    /// stops at 2 × 20 = 40 segments whatever the number of round trips; with the check off,
    /// every ACK adds a segment: the first flight's 10 ACKs and 19 round trips of 20 take it
    /// from 10 to 10 + 10 + 19·20 = 400.
    #[test]
    fn a_window_the_receiver_holds_back_grows_only_to_twice_what_is_outstanding() {
        for (check, want) in [(true, 40), (false, 10 + 10 + 19 * 20)] {
            let cfg = SenderConfig { rwnd: 20 * MSS, cwnd_limited_growth: check, ..SenderConfig::default() };
            let mut s = SenderCore::new(cfg, &CcConfig::from_name("reno").unwrap(), component_rng(1, 1));
            s.on_handshake(ms(100));
            let mut sent = send_all(&mut s, Time::ZERO).len() as u64;
            for round in 1..=20u64 {
                let (now, una) = (ms(100 * round), s.snd_una());
                for seq in una..una + sent {
                    s.on_ack(now, &ack(seq + 1, None, ms(100 * (round - 1))));
                }
                sent = send_all(&mut s, now).len() as u64;
                assert_eq!(sent, 20, "round {round}: the receiver's window is the limit");
                s.check_invariants().unwrap();
            }
            assert_eq!(cwnd_segments(&s), want, "check {check}");
        }
    }

    /// The window an ACK advertises bounds what is sent beyond its cumulative ACK
    /// (`tcp_snd_wnd_test`): 10 segments sent, the first ACKed with a window of 5 segments
    /// (and a part of one, which does not count): nothing new goes, as 1 + 5 < 10 + 1; an ACK
    /// of 8 with the same window lets 3 more go (up to 8 + 5 = 13); a larger window lets the
    /// congestion window decide again.
    #[test]
    fn the_advertised_window_bounds_what_is_sent_beyond_the_cumulative_ack() {
        let mut s = reno(Defences::NONE, 10, true);
        assert_eq!(send_all(&mut s, Time::ZERO).len(), 10);
        let window = |segs: u64| Some(segs * MSS + MSS / 2);
        s.on_ack(ms(100), &Ack { window: window(5), ..ack(1, None, Time::ZERO) });
        assert_eq!(send_all(&mut s, ms(100)).len(), 0, "the right edge is at 6");
        s.on_ack(ms(101), &Ack { window: window(5), ..ack(8, None, Time::ZERO) });
        assert_eq!(send_all(&mut s, ms(101)).len(), 3, "the right edge at 13");
        s.on_ack(ms(102), &Ack { window: window(1000), ..ack(9, None, Time::ZERO) });
        let cwnd = cwnd_segments(&s);
        assert_eq!(send_all(&mut s, ms(102)).len() as u64, 9 + cwnd - 13, "the congestion window decides");
    }

    /// A partial ACK beyond the segment or beyond the data sent is ignored.
    #[test]
    fn offsets_beyond_a_segment_or_the_data_sent_are_ignored() {
        let mut s = reno(Defences::NONE, 2, true);
        send_all(&mut s, Time::ZERO);
        let before = cwnd_segments(&s);
        s.on_ack(ms(100), &Ack { cum_ack: 0, offset: MSS as u32, ..Ack::default() });
        s.on_ack(ms(100), &Ack { cum_ack: 2, offset: 1, ..Ack::default() });
        assert_eq!((s.stats().partial_acks, cwnd_segments(&s), s.snd_una()), (0, before, 0));
    }

    /// Duplicate-ACK spoofing in fast recovery (Savage et al. §3.2), Reno without SACK: 20
    /// segments out, segment 0 lost, the honest receiver's 19 duplicates, then 30 spoofed ones
    /// at once. Undefended, each spoofed duplicate counts as a departure as long as
    /// `tcp_limit_reno_sacked` (outstanding less one hole) allows, and every segment sent
    /// raises that limit by one: so each spoofed duplicate lets one more segment out, 30 in all.
    /// With the `dupack_limit` defence a duplicate counts only for a segment above the hole sent
    /// at least one minimum RTT (100 ms) ago: the 19 honest ones use all 19, the 30 spoofed
    /// ones release nothing.
    #[test]
    fn spoofed_duplicates_inflate_recovery_only_when_undefended() {
        let run = |d: Defences| {
            let mut s = reno(d, 20, false);
            assert_eq!(send_all(&mut s, Time::ZERO).len(), 20);
            let mut sent_after_honest = 0;
            for k in 0..19 {
                let now = ms(100) + us(10 * k);
                s.on_ack(now, &ack(0, None, Time::ZERO));
                sent_after_honest += send_all(&mut s, now).len();
            }
            assert!(s.in_recovery());
            let now = ms(101);
            let mut spoofed_released = 0;
            for _ in 0..30 {
                s.on_ack(now, &ack(0, None, Time::ZERO));
                spoofed_released += send_all(&mut s, now).len();
                s.check_invariants().unwrap();
            }
            (sent_after_honest, spoofed_released, s.stats().dupacks_ignored)
        };
        let (honest_off, spoofed_off, ignored_off) = run(Defences::NONE);
        let (honest_on, spoofed_on, ignored_on) = run(Defences { dupack_limit: true, ..Defences::NONE });
        assert_eq!(honest_off, honest_on, "honest duplicates are all counted either way");
        assert_eq!((spoofed_off, ignored_off), (30, 0));
        assert_eq!((spoofed_on, ignored_on), (0, 30));
    }

    /// The cumulative nonce (Savage et al. §4.3): an ACK whose nonce sum covers a segment the
    /// receiver never saw is dropped; the right sum is accepted.
    #[test]
    fn an_optimistic_ack_fails_the_nonce_check() {
        let mut s = reno(Defences::ALL, 10, true);
        send_all(&mut s, Time::ZERO);
        let sum = |n: u64| (0..n).fold(0u32, |a, q| a.wrapping_add(s.nonce(q)));
        // Segments 0-3 arrived; the receiver claims 0-7, guessing the sum from what it has.
        let optimistic = Ack { cum_ack: 8, nonce_sum: sum(4), echo: Some(Time::ZERO), ..Ack::default() };
        let honest = Ack { cum_ack: 4, nonce_sum: sum(4), echo: Some(Time::ZERO), ..Ack::default() };
        s.on_ack(ms(100), &optimistic);
        assert_eq!((s.snd_una(), s.stats().nonce_failures), (0, 1));
        s.on_ack(ms(100), &honest);
        assert_eq!((s.snd_una(), s.stats().nonce_failures), (4, 1));
        // Without the defence the same optimistic ACK is believed.
        let mut t = reno(Defences::NONE, 10, true);
        send_all(&mut t, Time::ZERO);
        t.on_ack(ms(100), &optimistic);
        assert_eq!(t.snd_una(), 8);
    }
}


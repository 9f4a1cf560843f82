//! The controller interface: feedback events in, one [`Control`] decision out.
//!
//! A controller has no I/O, no clock and no RNG of its own: the driver (the simulator's endpoint
//! or a real socket's sender) hands it the time, RTT statistics and a seeded RNG in a [`Ctx`] on
//! every call. The same code therefore runs in the simulator and behind a real socket.
//!
//! Window-based (Reno, CUBIC), rate-based (SABUL, UDT) and hybrid (BBR) controllers all fit:
//! [`Control`] carries a window, a pacing rate, or both.

use crate::rng::CcRng;
use crate::units::{Bytes, Rate, Time};

/// The RTT statistics the sender keeps (RFC 6298 estimator plus min and latest sample).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct RttStats {
    /// Smoothed RTT, `None` before the first sample.
    pub srtt: Option<Time>,
    pub rttvar: Time,
    /// Minimum RTT seen over the connection's lifetime.
    pub min_rtt: Option<Time>,
    pub latest: Option<Time>,
}

impl RttStats {
    /// srtt, or `fallback` before the first sample.
    pub fn srtt_or(&self, fallback: Time) -> Time {
        self.srtt.unwrap_or(fallback)
    }
}

/// A delivery-rate sample, with the semantics of Linux `tcp_rate.c` (draft-cheng-iccrg-delivery-rate-estimation):
/// `delivered` bytes were delivered over `interval`, the larger of the send and ACK intervals
/// of the packet that ended the sample.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct RateSample {
    pub delivered: Bytes,
    pub interval: Time,
    /// The sample was taken while the sender was application-limited, so it may underestimate
    /// the path's bandwidth (BBR ignores such samples unless they raise the estimate).
    pub is_app_limited: bool,
    /// Total bytes delivered when the packet that ended the sample was sent.
    pub prior_delivered: Bytes,
    /// Bytes in flight when that packet was sent (BBR's `inflight` for loss-rate tests).
    pub tx_in_flight: Bytes,
    /// Bytes lost between that packet's transmission and this ACK.
    pub lost: Bytes,
}

impl RateSample {
    pub fn rate(&self) -> Rate {
        Rate::from_delivery(self.delivered, self.interval)
    }
}

/// Everything one ACK (or SACK/NAK batch, or a receiver report) tells the sender.
///
/// Marked `#[non_exhaustive]` so that fields can be added without breaking controllers: build
/// one with `Feedback::default()` and assign fields.
#[non_exhaustive]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Feedback {
    /// Bytes and packets newly acknowledged (cumulatively or by SACK).
    pub acked_bytes: Bytes,
    pub acked_packets: u32,
    /// Bytes and packets newly declared lost.
    pub lost_bytes: Bytes,
    pub lost_packets: u32,
    /// The loss opens a new recovery episode (the first loss of a window, RFC 5681/6675):
    /// window-based controllers reduce once per episode.
    pub new_episode: bool,
    /// The sender is in fast recovery (or RTO recovery) after this feedback.
    pub in_recovery: bool,
    /// The recovery episode ended with this feedback (the recovery point was acknowledged).
    pub recovery_ended: bool,
    /// An RTT sample taken from this feedback (Karn's rule: never from a retransmission).
    pub rtt_sample: Option<Time>,
    /// A delivery-rate sample.
    pub rate_sample: Option<RateSample>,
    /// ECN: packets newly acknowledged that were CE-marked, and that were ECN-capable.
    pub ecn_ce_packets: u32,
    pub ecn_ect_packets: u32,
    /// The ACK carried ECN-Echo (RFC 3168).
    pub ece: bool,
    /// Bytes in flight before this feedback was applied.
    pub prior_in_flight: Bytes,
    /// Total bytes delivered over the connection after this feedback.
    pub delivered: Bytes,
    /// Total bytes delivered when the most recently sent packet this feedback acknowledges was
    /// sent (0 if it acknowledges nothing). Round-trip counting compares it with `delivered`
    /// (see [`crate::round::RoundCounter`]).
    pub prior_delivered: Bytes,
    /// An ECN echo opened a congestion-window-reduction episode (RFC 3168 §6.1.2: at most
    /// once per window of data). `new_episode` is set with it; `lost_packets` may be zero.
    pub ecn_congestion: bool,
    /// One-way (forward) delay of the packet that triggered this feedback, if the receiver
    /// stamps it (needed by TCP-LP).
    pub one_way_delay: Option<Time>,
    /// The ACK was a duplicate (did not advance the cumulative ACK).
    pub is_dupack: bool,
    /// The window may not grow on this ACK: it delivered data only by SACK (the cumulative ACK
    /// did not advance) on a path whose reordering degree is still at most DupThresh. Linux's
    /// `tcp_may_raise_cwnd` (tcp_input.c) is then false and `cong_avoid` is not called: "stay
    /// conservative and only grow cwnd on in-order delivery (RFC5681)"; once reordering beyond
    /// DupThresh was seen any forward progress counts. Measurements (RTT, delivery rate,
    /// Linux's `pkts_acked` hooks) still take the ACK; BBR, whose `cong_control` replaces
    /// `cong_avoid`, ignores it.
    pub growth_withheld: bool,
    /// How fully the sender used its congestion window over the current window of data: Linux's
    /// `cong_avoid` grows the window only when [`CwndUse::is_cwnd_limited`] says it was the limit.
    pub cwnd_use: CwndUse,
}

/// How fully the sender filled its congestion window over the current window of data (Linux
/// `tcp_cwnd_validate`, as kept since Linux 6.3: `tp->is_cwnd_limited` and
/// `tp->max_packets_out`, both renewed once per window of data).
///
/// Every Linux congestion module's `cong_avoid` begins with `if (!tcp_is_cwnd_limited(sk))
/// return;` ("RFC2861: only increase cwnd if fully utilized"), so a flow held back by the
/// receiver's window or by its application does not grow a window it does not use. (RFC 7661
/// states the same principle.) The default, `Filled`, lets every ACK grow the window: what a driver that
/// does not track the window's use (or a test's hand-made feedback) gets.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum CwndUse {
    /// In-flight data reached the congestion window at some transmission of the current window
    /// of data (`tp->is_cwnd_limited`), or the sender does not say.
    #[default]
    Filled,
    /// It never did: at most `max_in_flight` bytes were outstanding (`tp->max_packets_out`).
    Unfilled { max_in_flight: Bytes },
}

impl CwndUse {
    /// Linux `tcp_is_cwnd_limited`: the window was filled, or, in slow start, it is less than
    /// twice the most that was outstanding, so that slow start can still double what the last
    /// window delivered:
    ///
    /// `is_cwnd_limited ∨ (cwnd < ssthresh ∧ cwnd < 2·max_packets_out)`.
    pub fn is_cwnd_limited(self, cwnd: Bytes, in_slow_start: bool) -> bool {
        match self {
            CwndUse::Filled => true,
            CwndUse::Unfilled { max_in_flight } => in_slow_start && cwnd < 2 * max_in_flight,
        }
    }
}

/// A transmission, as reported to [`CongestionControl::on_sent`].
#[non_exhaustive]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Sent {
    pub bytes: Bytes,
    pub is_retransmission: bool,
    /// Bytes in flight after this transmission.
    pub in_flight: Bytes,
    /// The sender had nothing more to send (application-limited) at this point.
    pub app_limited: bool,
}

/// The sender transmits with nothing in flight: Linux's `CA_EVENT_TX_START`, which
/// `tcp_event_data_sent` raises whenever `tcp_packets_in_flight` is 0 as a segment leaves (the
/// connection's first segment, the first after an idle period, the retransmission after an RTO,
/// when every segment out counts as lost). Reported to [`CongestionControl::on_tx_start`].
#[non_exhaustive]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct TxStart {
    /// Time since the sender's previous transmission (Linux `now − lsndtime`); zero for the
    /// connection's first segment.
    pub idle: Time,
    /// The sender was application-limited (Linux `tp->app_limited`).
    pub app_limited: bool,
}

/// The sender starts again after an idle period longer than its RTO, with nothing outstanding
/// (RFC 5681 §4.1 and RFC 2861 §3; Linux `tcp_slow_start_after_idle_check` →
/// `tcp_cwnd_restart`, on by default through `net.ipv4.tcp_slow_start_after_idle`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct IdleRestart {
    /// Time since the sender's last transmission (Linux `now − lsndtime`).
    pub idle: Time,
    /// The retransmission timeout then (`icsk_rto`).
    pub rto: Time,
    /// The initial window (Linux `tcp_init_cwnd`), bytes: the restart window is
    /// RW = min(IW, cwnd).
    pub initial_window: Bytes,
}

/// The controller's decision: a window, a rate, or both. The driver always honours the pacing
/// rate; with `cwnd = None` the flow is limited only by the receiver window and its rate.
/// Windows and rates count payload bytes, like the delivery rate they are derived from.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Control {
    pub cwnd: Option<Bytes>,
    pub pacing_rate: Option<Rate>,
    /// Bytes the pacer may release back to back (the burst allowance).
    pub quantum: Bytes,
}

/// State for traces and time series.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub cwnd: Option<Bytes>,
    pub ssthresh: Option<Bytes>,
    pub pacing_rate: Option<Rate>,
    pub bw_estimate: Option<Rate>,
    pub min_rtt: Option<Time>,
    /// A short state name ("slow_start", "cong_avoid", "recovery", "probe_bw", ...).
    pub state: &'static str,
}

/// Notable controller events, recorded only when a caller asks for them.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum CcEvent {
    StateChange { at: Time, from: &'static str, to: &'static str },
    SlowStartExit { at: Time, cwnd: Bytes },
}

/// An event sink that costs one branch when disabled.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    enabled: bool,
    events: Vec<CcEvent>,
}

impl EventLog {
    pub fn enabled() -> EventLog {
        EventLog { enabled: true, events: Vec::new() }
    }
    pub fn disabled() -> EventLog {
        EventLog::default()
    }
    #[inline]
    pub fn record(&mut self, e: CcEvent) {
        if self.enabled {
            self.events.push(e);
        }
    }
    pub fn events(&self) -> &[CcEvent] {
        &self.events
    }
}

/// What the driver hands the controller on each call.
pub struct Ctx<'a> {
    pub now: Time,
    pub rtt: RttStats,
    pub mss: Bytes,
    pub bytes_in_flight: Bytes,
    /// The sender paces this window-based flow (Linux `sk_pacing_status != SK_PACING_NONE`:
    /// `fq` or TCP's internal pacing). HyStart's ACK-train test reads it.
    pub paced: bool,
    pub rng: &'a mut CcRng,
    pub events: &'a mut EventLog,
}

/// What a controller needs from the sender to start.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CcInit {
    pub mss: Bytes,
    pub initial_cwnd: Bytes,
}

/// How a cumulative-ACK-only sender (SACK off) ends fast recovery. With SACK on, every
/// controller uses RFC 6675's recovery point.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FastRecovery {
    /// RFC 5681: the first ACK of new data ends recovery, partial or not, so several losses
    /// in one window cost several reductions or a timeout.
    Reno,
    /// RFC 6582: recovery lasts until the recovery point is acknowledged; each partial ACK
    /// retransmits the next hole.
    NewReno,
}

/// A congestion controller. Feedback events in, [`Control`] out.
pub trait CongestionControl {
    /// The name used on the command line.
    fn name(&self) -> &'static str;

    /// One call per ACK (or SACK/NAK batch, or receiver report). The default calls
    /// [`on_loss`](Self::on_loss) (on a loss or an ECN congestion signal) then
    /// [`on_ack`](Self::on_ack), so Reno-like algorithms implement just those two.
    fn on_feedback(&mut self, fb: &Feedback, ctx: &mut Ctx) {
        if fb.lost_packets > 0 || fb.ecn_congestion {
            self.on_loss(fb, ctx);
        }
        if fb.acked_bytes > 0 {
            self.on_ack(fb, ctx);
        }
    }
    fn on_ack(&mut self, _fb: &Feedback, _ctx: &mut Ctx) {}
    fn on_loss(&mut self, _fb: &Feedback, _ctx: &mut Ctx) {}
    fn on_sent(&mut self, _sent: &Sent, _ctx: &mut Ctx) {}
    /// The retransmission timer expired (RFC 6298).
    fn on_timeout(&mut self, _ctx: &mut Ctx) {}
    /// A loss was found to be spurious (undo).
    fn on_spurious_loss(&mut self, _ctx: &mut Ctx) {}
    /// The sender starts again after an idle period longer than an RTO (RFC 5681 §4.1;
    /// Linux `CA_EVENT_CWND_RESTART`). Window-based controllers restart their window
    /// ([`crate::window::RenoWindow::restart_after_idle`]) as Linux's `tcp_cwnd_restart` does
    /// for every module; one that sets its own rate and window (Linux's `cong_control`
    /// modules, BBR) keeps them, as Linux skips the restart for it.
    fn on_idle_restart(&mut self, _restart: &IdleRestart, _ctx: &mut Ctx) {}
    /// The sender transmits with nothing in flight ([`TxStart`], Linux `CA_EVENT_TX_START`).
    fn on_tx_start(&mut self, _tx: &TxStart, _ctx: &mut Ctx) {}
    fn control(&self) -> Control;
    fn snapshot(&self) -> Snapshot;

    /// How fast recovery ends when the sender runs without SACK.
    fn fast_recovery(&self) -> FastRecovery {
        FastRecovery::NewReno
    }

    /// The controller sets its window during fast recovery itself (Linux: it has a
    /// `cong_control` hook, as BBR does), so the sender does not apply proportional rate
    /// reduction (RFC 6937) on top. Reno-like controllers only set the target (`ssthresh`) and
    /// leave how fast the window comes down to the sender.
    fn sets_recovery_window(&self) -> bool {
        false
    }

    /// The algorithm only works with ECN (Linux `TCP_CONG_NEEDS_ECN`, e.g. DCTCP): the sender
    /// then sends ECN-capable packets whatever its configuration says.
    fn needs_ecn(&self) -> bool {
        false
    }

    /// The controller can continue from a window a start-up run in its place has reached
    /// ([`crate::transport::chirp`]): it has a window and a congestion avoidance to hand over to.
    fn takes_startup_handover(&self) -> bool {
        false
    }

    /// A start-up run by the sender in the controller's place (paced chirping) has ended with
    /// `cwnd` bytes: continue in congestion avoidance from that window (ssthresh = cwnd), as
    /// after a slow-start exit. Called only when [`takes_startup_handover`](Self::takes_startup_handover).
    fn on_startup_handover(&mut self, _cwnd: Bytes, _ctx: &mut Ctx) {}
}

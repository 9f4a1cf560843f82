//! Datagram transports: the sans-I/O interface for the seeds' non-TCP systems (SABUL, UDT,
//! TFRC, a constant-bit-rate source), which send over UDP and carry their own feedback.
//!
//! The protocols themselves live in [`crate::rate`] (SABUL, UDT), [`crate::tfrc`] and
//! [`crate::cbr`]; [`crate::protocols`] names them and builds them from a configuration.
//!
//! A transport is a pair of state machines, a [`DatagramSender`] and a [`DatagramReceiver`].
//! The driver (the simulator, later a real socket) moves data packets from the sender to the
//! receiver over the data path, and [`CtrlMsg`]s from the receiver back to the sender over the
//! control path. Neither side has a clock or an RNG of its own: time comes in every call, and a
//! seeded RNG is handed over at construction.
//!
//! Sequence numbers count packets from 0. Every packet carries `payload` bytes (the MSS).

use crate::controller::Snapshot;
use crate::rng::CcRng;
use crate::units::{Bytes, Rate, Time};

/// What a datagram transport needs to start. Each protocol offers
/// `fn new_pair(cfg: &ItsConfig, init: DgInit) -> (ItsSender, ItsReceiver)`.
#[derive(Clone, Debug)]
pub struct DgInit {
    /// Payload bytes per packet.
    pub mss: Bytes,
    /// Bytes to transfer; `None` for a bulk flow that always has data.
    pub data_limit: Option<Bytes>,
    /// The sender's seeded RNG (UDT's randomised decrease, TFRC's jitter).
    pub rng: CcRng,
}

/// A data packet the sender wants on the wire.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct DgTransmit {
    pub seq: u64,
    pub len: Bytes,
    pub is_retransmission: bool,
    pub ecn_capable: bool,
    /// The sender's RTT estimate carried in the header (TFRC, RFC 5348 §3.2.1).
    pub sender_rtt: Option<Time>,
}

/// A data packet as the receiver sees it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct DgArrival {
    pub seq: u64,
    pub len: Bytes,
    /// When the sender sent it (the simulator's clocks are synchronised).
    pub sent: Time,
    pub ce: bool,
    /// The sender's RTT estimate from the header, if the protocol carries one.
    pub sender_rtt: Option<Time>,
}

/// Feedback from receiver to sender. One enum for every protocol so that the driver can carry
/// them without knowing which is which; each sender reads the variants its protocol uses.
#[derive(Clone, Debug, PartialEq)]
pub enum CtrlMsg {
    /// Cumulative acknowledgement: every packet below `next_expected` has arrived. UDT adds its
    /// receiver's RTT estimate, arrival rate and link-capacity estimate (packets per second).
    Ack { next_expected: u64, rtt: Option<Time>, arrival_rate: Option<f64>, capacity: Option<f64> },
    /// Loss report (SABUL's ERR, UDT's NAK): these sequence numbers are missing.
    Nak { lost: Vec<u64> },
    /// SABUL's periodic SYN: packets received since the previous SYN.
    Syn { received: u64 },
    /// TFRC receiver report (RFC 5348 §6.2): the echoed timestamp of the last data packet, the
    /// time it was held, the receive rate and the loss event rate.
    TfrcReport { echo: Time, delay: Time, x_recv: Rate, p: f64 },
}

/// Counters every datagram sender keeps (the same meaning as TCP's in summaries).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DgStats {
    pub packets_sent: u64,
    pub bytes_sent: Bytes,
    pub retransmits: u64,
    /// Payload bytes the receiver has acknowledged (cumulatively), each once.
    pub bytes_delivered: Bytes,
    /// Loss reports processed.
    pub loss_reports: u64,
    /// Lost packet numbers the controller counted toward its loss rate (SABUL's `LocalERR`
    /// summed over its intervals; a 2003 sender counts a re-reported number again), beside
    /// the link's real drops. 0 for protocols that count no such figure.
    pub losses_counted: u64,
    /// Rate-control intervals closed (SABUL's SYN periods); 0 for protocols without them.
    pub rate_intervals: u64,
    /// Of those, the intervals whose counted losses outnumbered the packets really sent. The
    /// 2003 SABUL code then counts the ERRs as packets sent, so its loss rate is 1 and the rate
    /// it logs is above the rate sent (seed 001, §3).
    pub intervals_errs_exceed_sent: u64,
    /// Packets such intervals logged as sent beyond those really sent: Σ(ERRs − sent).
    pub packets_logged_unsent: u64,
    /// Congestion events the controller reacted to (rate decreases).
    pub congestion_events: u64,
    /// Of those, the decreases a loss report (ERR) drove rather than the rate-control timer
    /// (SABUL's Gen-B: +b after more than V loss reports since the last rate change).
    pub err_decreases: u64,
    /// Sender-side timeouts (SABUL's EXP, UDT's EXP, TFRC's no-feedback timer).
    pub timeouts: u64,
}

/// The sending half of a datagram transport.
pub trait DatagramSender {
    fn name(&self) -> &'static str;
    /// The next packet to send now, if the rate (and window, if any) allow.
    fn poll_transmit(&mut self, now: Time) -> Option<DgTransmit>;
    /// When the sender can next send (pacing), if it is waiting only for time to pass.
    fn next_send_time(&self, now: Time) -> Option<Time>;
    /// Feedback arrived.
    fn on_control(&mut self, now: Time, msg: &CtrlMsg);
    /// The sender's own timers (rate control interval, EXP, no-feedback timer).
    fn next_timer(&self) -> Option<Time>;
    fn on_timer(&mut self, now: Time);
    fn stats(&self) -> &DgStats;
    /// For time series: the sending rate (and window, if any) and a state name.
    fn snapshot(&self) -> Snapshot;
    /// The latest RTT estimate, if the protocol keeps one.
    fn rtt(&self) -> Option<Time>;
    /// The sending rate the sender itself last measured and logged, for protocols that log
    /// one (SABUL: the packets it counted as sent over its last rate-control interval, which
    /// its 2003 code raises to the ERR count); `None` for the others.
    fn logged_rate(&self) -> Option<Rate> {
        None
    }
    /// A finite transfer has been fully acknowledged.
    fn is_complete(&self) -> bool {
        false
    }
    /// Ends a bulk transfer where it stands, as a timed run ends: no new packet after those
    /// sent; a reliable protocol still retransmits what is lost, and is complete once all are
    /// acknowledged, an unreliable one at once.
    fn end_stream(&mut self);
}

/// The periodic re-reports a receiver sent: how many, and the time since each number's
/// previous report summed over them (its mean is the re-report interval, seed 001's "every
/// 1.5 * RTT").
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ReReports {
    pub count: u64,
    pub gap_sum: Time,
}

impl ReReports {
    /// The mean time between two reports of one missing number; `None` without re-reports.
    pub fn mean_interval(&self) -> Option<Time> {
        (self.count > 0).then(|| Time(self.gap_sum.0 / self.count))
    }
}

/// The receiving half of a datagram transport.
pub trait DatagramReceiver {
    /// A data packet arrived; feedback to send at once goes into `out`.
    fn on_data(&mut self, now: Time, pkt: &DgArrival, out: &mut Vec<CtrlMsg>);
    /// The receiver's timers (periodic ACK, NAK, SYN, feedback).
    fn next_timer(&self) -> Option<Time>;
    fn on_timer(&mut self, now: Time, out: &mut Vec<CtrlMsg>);
    /// Distinct packets received (duplicates excluded).
    fn packets_received(&self) -> u64;
    /// The periodic loss re-reports sent (SABUL's ERR timer); none for protocols without.
    fn rereports(&self) -> ReReports {
        ReReports::default()
    }
}

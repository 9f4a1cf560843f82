//! A flow's two ends, whatever the transport: TCP (the sender core driving a congestion
//! controller, and the TCP receiver) or a datagram protocol (SABUL, UDT, TFRC, CBR) with its own
//! sender and receiver state machines. The simulator talks to both through this one type.

use crate::packet::DataPacket;
use crate::config::{Transport, TCP_HEADER_BYTES, UDP_HEADER_BYTES};
use cc::datagram::{CtrlMsg, DatagramReceiver, DatagramSender, DgArrival, DgInit};
use cc::transport::{Ack, Misbehaviour, Receiver, ReceiverConfig, SenderConfig, SenderCore};
use cc::transport::rcv_window::{RcvWindowConfig, TESTBED_SCALING_RATIO};
use cc::{Bytes, CcRng, CongestionControl, Rate, Time};

/// What travels back from receiver to sender.
#[derive(Clone, Debug, PartialEq)]
pub enum Back {
    Ack(Ack),
    Ctrl(CtrlMsg),
}

/// A packet the sender puts on the wire.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Tx {
    pub seq: u64,
    pub len: Bytes,
    pub is_retransmission: bool,
    pub ecn_capable: bool,
    /// A protocol header field carrying the sender's RTT (TFRC).
    pub hdr_rtt: Option<Time>,
    /// The TCP sender's nonce for the segment (0: none).
    pub nonce: u32,
    /// The receiver's timestamp the segment echoes (TSecr), if any.
    pub tsecr: Option<Time>,
}

/// Counters every transport keeps, for summaries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FlowCounters {
    pub segments_sent: u64,
    pub bytes_sent: Bytes,
    pub retransmits: u64,
    pub timeouts: u64,
    /// Timeouts with no loss known yet (TCP's Open state); 0 for datagram protocols.
    pub tail_timeouts: u64,
    /// Loss recovery episodes (TCP) or congestion events (datagram rate control).
    pub loss_episodes: u64,
    /// Payload delivered, each byte once. With a misbehaving receiver, what reached its
    /// application (the sender may believe more arrived).
    pub bytes_delivered: Bytes,
    /// Payload a misbehaving receiver acknowledged that never arrived (optimistic ACKing's
    /// cost: the sender never resends it), bytes.
    pub app_lost_bytes: Bytes,
    /// Lost packet numbers a rate-based sender counted toward its loss rate (SABUL's ERR
    /// count); 0 for TCP.
    pub losses_counted: u64,
    /// A rate-based sender's rate-control intervals, those whose counted losses outnumbered
    /// the packets sent, and the packets those logged beyond the ones sent
    /// ([`cc::datagram::DgStats`]); 0 for TCP.
    pub rate_intervals: u64,
    pub intervals_errs_exceed_sent: u64,
    pub packets_logged_unsent: u64,
    /// A rate-based sender's decreases driven by loss reports, not by its timer
    /// ([`cc::datagram::DgStats::err_decreases`]); 0 for TCP.
    pub err_decreases: u64,
    /// The receiver's periodic loss re-reports (SABUL's ERR timer); none for TCP.
    pub rereports: cc::datagram::ReReports,
    /// The most retransmissions TCP's fast recovery sent in one round trip; 0 for datagram
    /// protocols.
    pub recovery_retransmits_max_per_round: u64,
}

/// The state a time-series row shows (flowgrind's columns).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Bytes.
    pub cwnd: Option<Bytes>,
    pub ssthresh: Option<Bytes>,
    pub inflight: u64,
    /// `snd_nxt − snd_una`, segments.
    pub unacked: u64,
    pub sacked: u64,
    pub lost: u64,
    pub retr: u64,
    pub rtt: Option<Time>,
    pub rttvar: Time,
    pub rto: Time,
    pub state: &'static str,
    /// TCP's loss-recovery state (Linux's `tcp_ca_state`: open, cwr, recovery, loss).
    pub ca_state: Option<&'static str>,
    pub pacing_rate_bps: Option<f64>,
    /// Retransmitted segments not yet acknowledged (Linux `retrans_out`).
    pub retrans_out: u64,
    /// Timeouts since the last RTT sample (Linux `icsk_backoff`).
    pub backoff: u32,
    /// The reordering degree, DupThresh with SACK (Linux `tp->reordering`).
    pub reordering: u64,
    /// The sending rate a datagram sender last logged ([`cc::datagram::DatagramSender::logged_rate`]).
    pub logged_rate_bps: Option<f64>,
}

pub enum Endpoint {
    /// `acks`: the receiver's ACKs for one arrival, reused so that no packet costs an allocation.
    /// `ts_recent`: the latest timestamp the sender has had from the receiver's ACKs, which its
    /// segments echo (RFC 7323 TS.Recent).
    Tcp { sender: SenderCore, receiver: Receiver, acks: Vec<Ack>, ts_recent: Option<Time> },
    Datagram {
        sender: Box<dyn DatagramSender + Send>,
        receiver: Box<dyn DatagramReceiver + Send>,
        mss: Bytes,
        /// The transfer's size, if finite (its last packet may be shorter than `mss`).
        data_limit: Option<Bytes>,
        /// The receiver's feedback for one call, reused so that no packet costs an allocation.
        ctrl: Vec<CtrlMsg>,
    },
}

impl Endpoint {
    /// Both ends of a flow of `transport` with the sender settings `sender`, and the header
    /// bytes each of its packets carries on a link (TCP/IP with timestamps and SACK room, or
    /// UDP/IP with the protocol's own header).
    pub fn new(transport: &Transport, sender: &SenderConfig, delayed_ack: bool, rng: CcRng) -> (Endpoint, Bytes) {
        Endpoint::with_attack(transport, sender, delayed_ack, None, rng)
    }

    /// As [`Endpoint::new`], with a TCP receiver that may misbehave (ignored for datagram
    /// protocols; the configuration check rejects that combination).
    pub fn with_attack(
        transport: &Transport,
        sender: &SenderConfig,
        delayed_ack: bool,
        attack: Option<Misbehaviour>,
        rng: CcRng,
    ) -> (Endpoint, Bytes) {
        match transport {
            Transport::Tcp(cc) => {
                let tx = SenderCore::new(sender.clone(), cc, rng);
                // Delayed ACKs as Linux's receiver sends them: every second segment or after
                // 40 ms, but every segment while its quick-ACK budget lasts; out-of-order
                // segments past the third at most once per compressed-ACK timer.
                let rcv_window = delayed_ack
                    .then_some(RcvWindowConfig { advmss: sender.mss, scaling_ratio: TESTBED_SCALING_RATIO });
                let rx = Receiver::new(ReceiverConfig {
                    sack: sender.sack,
                    delack_segments: if delayed_ack { 2 } else { 1 },
                    attack,
                    rcv_window,
                    sack_compression: delayed_ack,
                    ..ReceiverConfig::default()
                });
                (Endpoint::Tcp { sender: tx, receiver: rx, acks: Vec::new(), ts_recent: None }, TCP_HEADER_BYTES)
            }
            Transport::Datagram(dg) => {
                let init = DgInit { mss: sender.mss, data_limit: sender.data_limit, rng };
                let (tx, rx) = dg.build(init);
                (Endpoint::Datagram { sender: tx, receiver: rx, mss: sender.mss, data_limit: sender.data_limit, ctrl: Vec::new() }, UDP_HEADER_BYTES)
            }
        }
    }

    /// Ends a bulk flow where it stands, as a timed run ends: nothing new is sent, what is
    /// outstanding is still recovered (see `SenderCore::end_stream`, `DatagramSender::end_stream`).
    pub fn end_stream(&mut self) {
        match self {
            Endpoint::Tcp { sender, .. } => sender.end_stream(),
            Endpoint::Datagram { sender, .. } => sender.end_stream(),
        }
    }

    /// The application's write rate from `now` on (`None`: it always has data). A datagram
    /// flow sends at its own rate (the configuration allows no schedule for one).
    pub fn set_app_rate(&mut self, now: Time, rate: Option<Rate>) {
        if let Endpoint::Tcp { sender, .. } = self {
            sender.set_app_rate(now, rate);
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Endpoint::Tcp { sender, .. } => sender.controller().name(),
            Endpoint::Datagram { sender, .. } => sender.name(),
        }
    }

    pub fn mss(&self) -> Bytes {
        match self {
            Endpoint::Tcp { sender, .. } => sender.config().mss,
            Endpoint::Datagram { mss, .. } => *mss,
        }
    }

    #[inline]
    pub fn poll_transmit(&mut self, now: Time) -> Option<Tx> {
        match self {
            Endpoint::Tcp { sender, ts_recent, .. } => sender.poll_transmit(now).map(|t| Tx {
                seq: t.seq,
                len: t.len,
                is_retransmission: t.is_retransmission,
                ecn_capable: t.ecn_capable,
                hdr_rtt: None,
                nonce: sender.nonce(t.seq),
                tsecr: *ts_recent,
            }),
            Endpoint::Datagram { sender, .. } => sender.poll_transmit(now).map(|t| Tx {
                seq: t.seq,
                len: t.len,
                is_retransmission: t.is_retransmission,
                ecn_capable: t.ecn_capable,
                hdr_rtt: t.sender_rtt,
                nonce: 0,
                tsecr: None,
            }),
        }
    }

    /// Whether a packet is waiting (for the access link): TCP knows exactly; a datagram
    /// sender is asked again when the link frees.
    pub fn has_sendable(&mut self) -> bool {
        match self {
            Endpoint::Tcp { sender, .. } => sender.has_sendable(),
            Endpoint::Datagram { .. } => true,
        }
    }

    pub fn next_timer(&self) -> Option<Time> {
        match self {
            Endpoint::Tcp { sender, .. } => sender.next_timer(),
            Endpoint::Datagram { sender, .. } => sender.next_timer(),
        }
    }

    pub fn next_send_time(&mut self, now: Time) -> Option<Time> {
        match self {
            Endpoint::Tcp { sender, .. } => sender.next_send_time(now),
            Endpoint::Datagram { sender, .. } => sender.next_send_time(now),
        }
    }

    pub fn on_timer(&mut self, now: Time) {
        match self {
            Endpoint::Tcp { sender, .. } => sender.on_timer(now),
            Endpoint::Datagram { sender, .. } => sender.on_timer(now),
        }
    }

    /// Feedback reached the sender; returns an RTT sample to record, if any.
    pub fn on_back(&mut self, now: Time, back: &Back) -> Option<Time> {
        match (self, back) {
            (Endpoint::Tcp { sender, ts_recent, .. }, Back::Ack(ack)) => {
                *ts_recent = ack.tsval.max(*ts_recent);
                sender.on_ack(now, ack).rtt_sample
            }
            (Endpoint::Datagram { sender, .. }, Back::Ctrl(msg)) => {
                sender.on_control(now, msg);
                // An RTT sample where the feedback carries one: UDT's full ACK has the
                // receiver's RTT; a TFRC report gives `(now − t_recvdata) − t_delay` (RFC 5348
                // §4.3). SABUL's and CBR's feedback has none, and neither has UDT's light ACK.
                match *msg {
                    CtrlMsg::Ack { rtt: Some(rtt), .. } => Some(rtt),
                    CtrlMsg::TfrcReport { echo, delay, .. } => Some((now - echo).saturating_sub(delay)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A data packet reached the receiver; feedback to send goes into `out`.
    pub fn on_data(&mut self, now: Time, p: &DataPacket, out: &mut Vec<Back>) {
        match self {
            Endpoint::Tcp { receiver, acks, .. } => {
                let tsecr = (p.tsecr > Time::ZERO).then_some(p.tsecr);
                receiver.on_arrival(now, p.seq, p.len as Bytes, p.sent, p.ecn == crate::packet::CE, p.nonce, tsecr, acks);
                out.extend(acks.drain(..).map(Back::Ack));
            }
            Endpoint::Datagram { receiver, ctrl, .. } => {
                let arrival = DgArrival {
                    seq: p.seq,
                    len: p.len as Bytes,
                    sent: p.sent,
                    ce: p.ecn == crate::packet::CE,
                    sender_rtt: (p.hdr_rtt > Time::ZERO).then_some(p.hdr_rtt),
                };
                receiver.on_data(now, &arrival, ctrl);
                out.extend(ctrl.drain(..).map(Back::Ctrl));
            }
        }
    }

    pub fn receiver_next_timer(&self) -> Option<Time> {
        match self {
            Endpoint::Tcp { receiver, .. } => receiver.next_timer(),
            Endpoint::Datagram { receiver, .. } => receiver.next_timer(),
        }
    }

    pub fn receiver_on_timer(&mut self, now: Time, out: &mut Vec<Back>) {
        match self {
            Endpoint::Tcp { receiver, .. } => {
                if let Some(ack) = receiver.on_timer_ack(now) {
                    out.push(Back::Ack(ack));
                }
            }
            Endpoint::Datagram { receiver, ctrl, .. } => {
                receiver.on_timer(now, ctrl);
                out.extend(ctrl.drain(..).map(Back::Ctrl));
            }
        }
    }

    pub fn counters(&self) -> FlowCounters {
        match self {
            Endpoint::Tcp { sender, receiver, .. } => {
                let s = sender.stats();
                let attacked = receiver.config().attack.is_some();
                FlowCounters {
                    segments_sent: s.segments_sent,
                    bytes_sent: s.bytes_sent,
                    retransmits: s.retransmits,
                    timeouts: s.timeouts,
                    tail_timeouts: s.tail_timeouts,
                    loss_episodes: s.loss_episodes,
                    bytes_delivered: if attacked { receiver.stats().delivered_bytes } else { s.bytes_delivered },
                    app_lost_bytes: receiver.app_lost_segments() * sender.config().mss,
                    losses_counted: 0,
                    rate_intervals: 0,
                    intervals_errs_exceed_sent: 0,
                    err_decreases: 0,
                    packets_logged_unsent: 0,
                    rereports: Default::default(),
                    recovery_retransmits_max_per_round: s.recovery_rounds.max_per_round,
                }
            }
            Endpoint::Datagram { sender, receiver, mss, data_limit, .. } => {
                let s = sender.stats();
                // Distinct packets times the MSS, capped at the transfer's size: exact once the
                // short last packet has arrived, at most one MSS high before.
                let received = receiver.packets_received() * *mss;
                FlowCounters {
                    segments_sent: s.packets_sent,
                    bytes_sent: s.bytes_sent,
                    retransmits: s.retransmits,
                    timeouts: s.timeouts,
                    tail_timeouts: 0,
                    loss_episodes: s.congestion_events,
                    bytes_delivered: data_limit.map_or(received, |d| received.min(d)),
                    app_lost_bytes: 0,
                    losses_counted: s.losses_counted,
                    rate_intervals: s.rate_intervals,
                    intervals_errs_exceed_sent: s.intervals_errs_exceed_sent,
                    err_decreases: s.err_decreases,
                    packets_logged_unsent: s.packets_logged_unsent,
                    rereports: receiver.rereports(),
                    recovery_retransmits_max_per_round: 0,
                }
            }
        }
    }

    pub fn is_complete(&self) -> bool {
        match self {
            Endpoint::Tcp { sender, .. } => sender.is_complete(),
            Endpoint::Datagram { sender, .. } => sender.is_complete(),
        }
    }

    pub fn sample(&self) -> Sample {
        match self {
            Endpoint::Tcp { sender, .. } => {
                let snap = sender.snapshot();
                let rtt = sender.rtt();
                Sample {
                    cwnd: snap.cwnd,
                    ssthresh: snap.ssthresh.filter(|&s| s < u64::MAX / 2),
                    inflight: sender.in_flight(),
                    unacked: sender.packets_out(),
                    sacked: sender.sacked_out(),
                    lost: sender.lost_out(),
                    retr: sender.stats().retransmits,
                    rtt: rtt.latest,
                    rttvar: rtt.rttvar,
                    rto: sender.rto(),
                    state: snap.state,
                    ca_state: Some(sender.recovery_state().name()),
                    pacing_rate_bps: snap.pacing_rate.map(|r| r.bits_per_sec()),
                    retrans_out: sender.retrans_out(),
                    backoff: sender.rto_backoff(),
                    reordering: sender.reordering(),
                    logged_rate_bps: None,
                }
            }
            Endpoint::Datagram { sender, .. } => {
                let snap = sender.snapshot();
                Sample {
                    cwnd: snap.cwnd,
                    ssthresh: snap.ssthresh,
                    inflight: 0,
                    unacked: 0,
                    sacked: 0,
                    lost: 0,
                    retr: sender.stats().retransmits,
                    rtt: sender.rtt(),
                    rttvar: Time::ZERO,
                    rto: Time::ZERO,
                    state: snap.state,
                    ca_state: None,
                    pacing_rate_bps: snap.pacing_rate.map(|r| r.bits_per_sec()),
                    retrans_out: 0,
                    backoff: 0,
                    reordering: 0,
                    logged_rate_bps: sender.logged_rate().map(|r| r.bits_per_sec()),
                }
            }
        }
    }
}
